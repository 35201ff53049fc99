//! Directive → tables. One file per group of directives; each builder reads typed records
//! and returns [`Table`]s resolved for the scope's view.

pub(crate) mod claims;
mod dispatch;
pub(crate) mod records;
mod runs;
mod worklog;

use super::escape;
use super::scope::Scope;
use super::table::Table;
use crate::model::directive::Directive;
use crate::model::format::group_digits;
use crate::model::refs::{Kind, Ref};

/// Builds the tables a directive embeds.
pub fn build(d: &Directive, s: &Scope) -> Vec<Table> {
    match d {
        Directive::Claims { page } => vec![claims::page_claims(s, page)],
        Directive::ClaimLedger => claims::ledger(s),
        Directive::Questions { status, page } => {
            vec![claims::questions(s, status.as_deref(), page.as_deref())]
        }
        Directive::Components => vec![records::components(s)],
        Directive::Observers => vec![records::observers(s)],
        Directive::Glossary => vec![records::glossary(s)],
        Directive::Findings { ids } => vec![records::findings(s, ids)],
        Directive::Worklog => vec![worklog::worklog(s)],
        Directive::DispatchMap { id } => vec![dispatch::map(s, id)],
        Directive::DispatchCompare => vec![dispatch::compare(s)],
        Directive::Run { id } => runs::run(s, id),
        Directive::RunPage { id } => runs::page(s, id),
        Directive::LatestRun { probe } => runs::latest(s, probe),
        Directive::Runs => runs::index(s),
        // Figures are drawn by `render::figures`, not as tables.
        Directive::Figure(_) => Vec::new(),
        // The directives of packs.
        _ => crate::packs::render::tables(d, s).unwrap_or_default(),
    }
}

/// `<code>…</code>` of a plain string.
pub fn code(s: &str) -> String {
    format!("<code>{}</code>", escape(s))
}

/// A number with thousands separators, or the "unknown" label.
pub fn num(s: &Scope, n: Option<u64>) -> String {
    match n {
        Some(n) => group_digits(n),
        None => unknown(s),
    }
}

pub fn unknown(s: &Scope) -> String {
    format!("<span class=\"unknown\">{}</span>", s.ui("value-unknown"))
}

/// The "Source: …" line naming the data files a table was built from.
pub fn source_line(s: &Scope, files: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let mut list: Vec<String> = files.into_iter().map(|f| f.as_ref().to_string()).collect();
    list.sort();
    list.dedup();
    let files = list.iter().map(|f| code(f)).collect::<Vec<_>>().join(", ");
    format!("{} {files}", s.ui("table-source"))
}

/// The anchor id of a record's row.
pub fn anchor(kind: Kind, id: &str) -> String {
    format!("{}-{}", kind.name(), id)
}

/// A reference as a link to the record's row (or to the page, for `page:`).
pub fn ref_link(s: &Scope, r: &Ref) -> String {
    record_link(s, r.kind, &r.id, code(&r.to_string()))
}

/// `label_html` as a link to the row of a record on the page that lists it (the page
/// itself, for a page), or as it is when no page lists it.
pub fn record_link(s: &Scope, kind: Kind, id: &str, label_html: String) -> String {
    if kind == Kind::Page {
        return s.record_link(id, "top", &label_html);
    }
    match s.pages.home_of(kind, id) {
        Some(page) => s.record_link(page, &anchor(kind, id), &label_html),
        None => label_html,
    }
}

/// A list of `kind:id` strings as links.
pub fn ref_list<'a>(s: &Scope, refs: impl IntoIterator<Item = &'a crate::model::Id>) -> String {
    refs.into_iter()
        .filter_map(|i| Ref::parse(&i.value).ok())
        .map(|r| ref_link(s, &r))
        .collect::<Vec<_>>()
        .join(" ")
}
