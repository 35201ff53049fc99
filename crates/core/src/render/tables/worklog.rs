//! The worklog timeline: each phase, its date (or that it is unknown), what it fixed.

use super::{anchor, code, ref_list, source_line, unknown};
use crate::model::refs::Kind;
use crate::render::html::Html;
use crate::render::html::html;
use crate::render::scope::Scope;
use crate::render::table::{Row, Table};

pub fn worklog(s: &Scope) -> Table {
    let rows =
        s.ev.phases
            .iter()
            .map(|p| {
                let date = match &p.date {
                    Some(d) => html!(
                        "<time datetime=\"{}\">{}</time>",
                        Html::text(&d.value),
                        Html::text(&d.value)
                    ),
                    None => unknown(s),
                };
                let facts: Html = p
                    .fixed
                    .iter()
                    .map(|f| {
                        let refs = ref_list(s, &f.refs);
                        let refs = if refs.is_empty() {
                            Html::default()
                        } else {
                            html!(" <span class=\"refs\">{}</span>", refs)
                        };
                        html!(
                            "<li>{}{}{}</li>",
                            s.text(&f.text),
                            super::records::basis_mark(s, f.basis),
                            refs
                        )
                    })
                    .collect();
                let questions = Html::join(p.questions.iter().map(|q| code(&q.value)), " ");
                Row::new(vec![
                    html!(
                        "<strong class=\"phase-label\">{}</strong><br>{}",
                        s.name(&p.label),
                        s.text(&p.title)
                    ),
                    date,
                    html!("<ul class=\"facts\">{}</ul>", facts),
                    if questions.is_empty() {
                        Html::trusted_static("—")
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
        rows_html: Html::default(),
    }
}
