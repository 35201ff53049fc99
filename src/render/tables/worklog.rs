//! The worklog timeline: each phase, its date (or that it is unknown), what it fixed.

use super::{anchor, code, ref_list, source_line, unknown};
use crate::model::refs::Kind;
use crate::render::escape;
use crate::render::scope::Scope;
use crate::render::table::{Row, Table};

pub fn worklog(s: &Scope) -> Table {
    let rows =
        s.ev.phases
            .iter()
            .map(|p| {
                let date = match &p.date {
                    Some(d) => format!("<time datetime=\"{0}\">{0}</time>", escape(&d.value)),
                    None => unknown(s),
                };
                let facts: String = p
                    .fixed
                    .iter()
                    .map(|f| {
                        let refs = ref_list(s, &f.refs);
                        let refs = if refs.is_empty() {
                            String::new()
                        } else {
                            format!(" <span class=\"refs\">{refs}</span>")
                        };
                        format!(
                            "<li>{}{}{refs}</li>",
                            s.text(&f.text),
                            super::records::basis_mark(s, f.basis)
                        )
                    })
                    .collect();
                let questions = p
                    .questions
                    .iter()
                    .map(|q| code(&q.value))
                    .collect::<Vec<_>>()
                    .join(" ");
                Row::new(vec![
                    format!(
                        "<strong class=\"phase-label\">{}</strong><br>{}",
                        escape(&p.label),
                        s.text(&p.title)
                    ),
                    date,
                    format!("<ul class=\"facts\">{facts}</ul>"),
                    if questions.is_empty() {
                        "—".into()
                    } else {
                        questions
                    },
                ])
                .id(anchor(Kind::Phase, &p.id.value))
            })
            .collect();
    Table {
        id: "worklog".into(),
        class: "worklog".into(),
        caption: s.ui("worklog-caption"),
        source: source_line(s, s.ev.phases.iter().map(|p| p.file.to_string())),
        columns: ["col-phase", "col-date", "col-fixed", "col-questions"]
            .iter()
            .map(|k| s.ui(k))
            .collect(),
        rows,
        empty: s.ui("table-empty"),
        notes: Vec::new(),
        rows_html: String::new(),
    }
}
