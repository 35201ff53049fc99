//! Directive → tables. One file per group of directives; each builder reads typed records
//! and returns [`Table`](super::table::Table)s resolved for the scope's view.

pub mod claims;
mod declared;
mod dispatch;
pub mod records;
mod runs;
pub(crate) mod vocabulary;
mod worklog;

use super::html::Html;
use super::scope::Scope;
use crate::model::directive as d;
use crate::model::refs::{Kind, Ref};

/// Implements [`Render`] for directive types whose rendering is tables: `$body` with
/// `$d` the directive and `$s` the scope.
/// Exported for the packs' directives.
#[macro_export]
macro_rules! tables {
    ($($ty:ty => |$d:ident, $s:ident| $body:expr;)*) => {
        $(impl $crate::render::directives::Render for $ty {
            fn render(
                &self,
                s: &$crate::render::scope::Scope,
            ) -> $crate::render::directives::Shown {
                let ($d, $s) = (self, s);
                $crate::render::directives::Shown::Tables($body)
            }
        })*
    };
}
pub use crate::tables;

tables! {
    d::Claims => |d, s| vec![claims::page_claims(s, &d.page)];
    d::ClaimLedger => |_d, s| claims::ledger(s);
    d::Questions => |d, s| vec![claims::questions(s, d.status.as_deref(), d.page.as_deref())];
    d::Components => |_d, s| vec![records::components(s)];
    d::Observers => |_d, s| vec![records::observers(s)];
    d::Glossary => |_d, s| vec![records::glossary(s)];
    d::Findings => |d, s| vec![records::findings(s, &d.ids, d.caption.as_deref())];
    d::Worklog => |_d, s| vec![worklog::worklog(s)];
    d::DispatchMap => |d, s| vec![dispatch::map(s, &d.id)];
    d::MapCompare => |d, s| vec![dispatch::compare(s, &d.maps)];
    d::RunTable => |d, s| runs::run(s, &d.id);
    d::RunPage => |d, s| runs::page(s, &d.id);
    d::LatestRun => |d, s| runs::latest(s, &d.probe);
    d::Runs => |_d, s| runs::index(s);
    d::Table => |d, s| vec![declared::table(s, &d.of, &d.columns)];
    d::RecordPage => |d, s| vec![declared::record(s, &d.key)];
}

/// " · Comparison run, subject: `label`" for a run of a subject other than the site's own (a
/// comparison); nothing for the site's own runs.
pub fn subject_note(s: &Scope, run: &crate::model::Run) -> Html {
    if s.ev.is_own(run) {
        return Html::default();
    }
    let label =
        s.ev.subject_of(run)
            .map(|id| match s.ev.subjects.get(id) {
                Some(sub) => s.fluent(&sub.label),
                None => code(id),
            })
            .unwrap_or_default();
    crate::render::html::html!(" · {} {}", s.ui("run-subject-other"), label)
}

/// `<code>…</code>` of a plain string.
pub fn code(s: &str) -> Html {
    crate::render::html::html!("<code>{}</code>", Html::text(s))
}

/// A number with thousands separators, or the "unknown" label.
pub fn num(s: &Scope, n: Option<u64>) -> Html {
    match n {
        Some(n) => Html::text(&s.numerals().digits(n)),
        None => unknown(s),
    }
}

pub fn unknown(s: &Scope) -> Html {
    crate::render::html::html!("<span class=\"unknown\">{}</span>", s.ui("value-unknown"))
}

/// The "Source: …" line naming the data files a table was built from.
pub fn source_line(s: &Scope, files: impl IntoIterator<Item = impl AsRef<str>>) -> Html {
    let mut list: Vec<String> = files.into_iter().map(|f| f.as_ref().to_string()).collect();
    list.sort();
    list.dedup();
    let files = Html::join(list.iter().map(|f| code(f)), ", ");
    crate::render::html::html!("{} {}", s.ui("table-source"), files)
}

/// The anchor id of a record's row.
pub fn anchor(kind: Kind, id: &str) -> String {
    match kind {
        // A declared record's key is `collection:id`: `experiment-e1`.
        Kind::Record => id.replacen(':', "-", 1),
        kind => format!("{}-{}", kind.name(), id),
    }
}

/// A reference as a link to the record's row (or to the page, for `page:`): the name a
/// reader knows the record by, with the reference as a code detail; the reference alone
/// for a record with no name.
pub fn ref_link(s: &Scope, r: &Ref) -> Html {
    let label = match record_name(s, r.kind, &r.id) {
        Some(name) => {
            crate::render::html::html!("{} <small>{}</small>", name, code(&r.to_string()))
        }
        None => code(&r.to_string()),
    };
    record_link(s, r.kind, &r.id, label)
}

/// The name a reader knows a record by — a map's or phase's title, a family's, route's or
/// subject's label, an observer's or component's name, a glossary term — when its kind
/// has one.
pub fn record_name(s: &Scope, kind: Kind, id: &str) -> Option<Html> {
    let ev = s.ev;
    match kind {
        Kind::Map => ev.maps.get(id).map(|m| s.fluent(&m.title)),
        Kind::Phase => ev.phases.get(id).map(|p| s.fluent(&p.title)),
        Kind::Family => ev.families.get(id).map(|f| s.fluent(&f.label)),
        Kind::Route => ev.routes.get(id).map(|r| s.fluent(&r.label)),
        Kind::Subject => ev.subjects.get(id).map(|x| s.fluent(&x.label)),
        Kind::Observer => ev.observers.get(id).map(|o| s.name(&o.name)),
        Kind::Component => ev.components.get(id).map(|c| s.name(&c.name)),
        Kind::Term => ev.terms.get(id).map(|t| s.fluent(&t.term)),
        _ => None,
    }
}

/// `label` as a link to the row of a record on the page that lists it (the page
/// itself, for a page), or as it is when no page lists it.
pub fn record_link(s: &Scope, kind: Kind, id: &str, label: Html) -> Html {
    if kind == Kind::Page {
        return s.record_link(id, "top", label);
    }
    match s.pages.home_of(kind, id) {
        Some(page) => s.record_link(page, &anchor(kind, id), label),
        None => label,
    }
}

/// A list of `kind:id` strings as links.
pub fn ref_list<'a>(s: &Scope, refs: impl IntoIterator<Item = &'a crate::model::Id>) -> Html {
    Html::join(
        refs.into_iter()
            .filter_map(|i| Ref::parse(&i.value).ok())
            .map(|r| ref_link(s, &r)),
        " ",
    )
}
