//! Can-show / cannot-show pairs, the site-wide claim ledger, and open questions.

use super::{anchor, code, ref_list, source_line};
use crate::model::refs::Kind;
use crate::model::{Claim, QuestionStatus};
use crate::render::html::Html;
use crate::render::html::{html, html_into};
use crate::render::scope::Scope;
use crate::render::table::{Row, Table};

/// The cannot-show side with the observer constraint (or other limit) behind it.
fn cannot_cell(s: &Scope, c: &Claim) -> Html {
    let mut cell = s.text(&c.cannot);
    if let Some(obs) = c
        .constraint
        .as_ref()
        .and_then(|o| s.ev.observers.get(&o.value))
    {
        // The observer by its name and its outcome, then the limit itself: a working
        // observer is listed for what it cannot show, not as what blocks the claim.
        let name = super::record_link(s, Kind::Observer, &obs.id.value, s.name(&obs.name));
        html_into!(
            cell,
            "<p class=\"constraint\">{} {} <span class=\"badge outcome-{}\">{}</span>: {}</p>",
            s.ui("claims-constraint"),
            name,
            Html::text(&enum_key(&obs.outcome)),
            s.label("outcome", &obs.outcome),
            s.text(&obs.constraint)
        );
    }
    if let Some(limit) = &c.limit {
        html_into!(
            cell,
            "<p class=\"constraint\">{} {}</p>",
            s.ui("claims-limit"),
            s.text(limit)
        );
    }
    cell
}

/// The serialized key of an enum value (`load_confirmed`), for CSS classes.
pub fn enum_key(v: &impl serde::Serialize) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

fn claim_row(s: &Scope, c: &Claim, with_id: bool) -> Row {
    let mut can = s.text(&c.can) + &super::records::basis_mark(s, c.basis);
    // A finding that corrects the claim is said where the claim is.
    for f in c
        .corrected_by
        .iter()
        .filter_map(|f| s.ev.findings.get(&f.value))
    {
        let link = super::record_link(s, Kind::Finding, &f.id.value, s.ui("claims-corrected-by"));
        html_into!(
            can,
            "<p class=\"correction\"><strong>{}</strong> {}</p>",
            link,
            s.text(&f.text)
        );
    }
    html_into!(
        can,
        "<p class=\"evidence\">{} {}</p>",
        s.ui("claims-evidence"),
        ref_list(s, &c.evidence)
    );
    let mut cannot = cannot_cell(s, c);
    if let Some(m) = &c.moved {
        use crate::model::types::ClaimSide;
        let (key, cell) = match m.from {
            ClaimSide::Cannot => ("claims-moved-from-cannot", &mut can),
            ClaimSide::Can => ("claims-moved-from-can", &mut cannot),
        };
        let note = match &m.claim {
            Some(other) if other.value != c.id.value => {
                s.ui_with(&format!("{key}-of"), "claim", other.value.clone())
            }
            _ => s.ui(key),
        };
        html_into!(cell, "<p class=\"moved\">{}</p>", note);
    }
    if let Some(line) = history_line(s, &c.id.value) {
        can.push(&line);
    }
    let row = Row::new(vec![can, cannot]);
    if with_id {
        row.id(anchor(Kind::Claim, &c.id.value))
    } else {
        row
    }
}

/// The message saying on which date a claim moved from side `from`.
pub(crate) fn moved_key(from: crate::model::types::ClaimSide) -> &'static str {
    use crate::model::types::ClaimSide;
    match from {
        ClaimSide::Cannot => "history-moved-from-cannot",
        ClaimSide::Can => "history-moved-from-can",
    }
}

/// When the claim was added and moved, by commit date, with the commit and the runs that
/// moved it (`history: true`); nothing without a history.
fn history_line(s: &Scope, id: &str) -> Option<Html> {
    use crate::model::history::What;
    let history = s.ev.history.as_ref()?;
    let steps: Vec<Html> = history
        .of_claim(id)
        .map(|e| {
            let (key, runs) = match &e.what {
                What::ClaimMoved { from, runs, .. } => (moved_key(*from), runs.as_slice()),
                _ => ("history-added", &[][..]),
            };
            let mut step = html!(
                "{} (<code>{}</code>",
                s.ui_with(key, "date", e.day().to_string()),
                Html::text(e.short())
            );
            if !runs.is_empty() {
                let links = Html::join(
                    runs.iter()
                        .map(|r| super::record_link(s, Kind::Run, r, code(r))),
                    ", ",
                );
                html_into!(step, ", {} {}", s.ui("history-by"), links);
            }
            step.push_static(")");
            step
        })
        .collect();
    (!steps.is_empty()).then(|| {
        html!(
            "<p class=\"history\">{} {}</p>",
            s.ui("history-label"),
            Html::join(steps, " · ")
        )
    })
}

/// The pairs of one page.
pub fn page_claims(s: &Scope, page: &str) -> Table {
    let claims: Vec<_> =
        s.ev.claims
            .iter()
            .filter(|c| c.page.value == page)
            .collect();
    Table {
        id: format!("claims-{page}"),
        class: "claims".into(),
        caption: s.ui("claims-caption"),
        source: source_line(s, claims.iter().map(|c| c.file.to_string())),
        columns: vec![s.ui("claims-can"), s.ui("claims-cannot")],
        rows: claims.iter().map(|c| claim_row(s, c, false)).collect(),
        empty: s.ui("table-empty"),
        notes: vec![s.ui("claims-note")],
        rows_html: Html::default(),
    }
}

/// Every pair on the site, one table per page, in page order.
pub fn ledger(s: &Scope) -> Vec<Table> {
    let mut tables = Vec::new();
    for page in &s.ev.pages {
        let claims: Vec<_> =
            s.ev.claims
                .iter()
                .filter(|c| c.page.value == page.id)
                .collect();
        if claims.is_empty() {
            continue;
        }
        let title = s.fluent(&page.front.title);
        let link = s.record_link(&page.id, "top", title);
        tables.push(Table {
            id: format!("ledger-{}", page.id),
            class: "claims ledger".into(),
            caption: html!(
                "{} — {}",
                s.ui_with("ledger-caption", "count", claims.len() as u64),
                link
            ),
            source: source_line(s, claims.iter().map(|c| c.file.to_string())),
            columns: vec![s.ui("claims-can"), s.ui("claims-cannot")],
            rows: claims.iter().map(|c| claim_row(s, c, true)).collect(),
            empty: s.ui("table-empty"),
            notes: Vec::new(),
            rows_html: Html::default(),
        });
    }
    tables
}

/// Questions, optionally filtered by status and page.
pub fn questions(s: &Scope, status: Option<&str>, page: Option<&str>) -> Table {
    let wanted = status.map(|st| {
        if st == "resolved" {
            QuestionStatus::Resolved
        } else {
            QuestionStatus::Open
        }
    });
    let qs: Vec<_> =
        s.ev.questions
            .iter()
            .filter(|q| wanted.is_none_or(|w| q.status == w))
            .filter(|q| page.is_none_or(|p| q.pages.iter().any(|x| x.value == p)))
            .collect();
    let rows = qs
        .iter()
        .map(|q| {
            let mut text = s.text(&q.text);
            if let Some(n) = &q.next {
                html_into!(
                    text,
                    "<p class=\"next\"><span class=\"next-label\">{}</span> {}</p>",
                    s.ui("questions-next"),
                    s.text(n)
                );
            }
            let mut evidence = ref_list(s, q.resolved_by.iter().chain(&q.refs));
            if evidence.is_empty() {
                evidence = Html::trusted_static("—");
            }
            let row = Row::new(vec![
                code(&q.id.value),
                text,
                html!(
                    "<span class=\"badge status-{}\">{}</span>",
                    Html::text(&enum_key(&q.status)),
                    s.label("question-status", &q.status)
                ),
                evidence,
            ]);
            // Only the unfiltered-by-page listing carries anchors (see `PageIndex`).
            if page.is_none() {
                row.id(anchor(Kind::Question, &q.id.value))
            } else {
                row
            }
        })
        .collect();
    Table {
        id: format!(
            "questions-{}-{}",
            status.unwrap_or("all"),
            page.unwrap_or("site")
        ),
        class: "questions".into(),
        caption: s.ui("questions-caption"),
        source: source_line(s, qs.iter().map(|q| q.file.to_string())),
        columns: vec![
            s.ui("col-id"),
            s.ui("questions-question"),
            s.ui("col-status"),
            s.ui("questions-evidence"),
        ],
        rows,
        empty: s.ui("questions-none"),
        notes: Vec::new(),
        rows_html: Html::default(),
    }
}
