//! Tables of plain record collections: components, observers, glossary, findings; and the
//! helpers packs build their record tables with.

use super::claims::enum_key;
use super::{anchor, code, ref_list, source_line, unknown};
use crate::model::refs::Kind;
use crate::model::{Range, Source};
use crate::render::html::Html;
use crate::render::html::{html, html_into};
use crate::render::scope::Scope;
use crate::render::table::{Row, Table};

pub fn range(s: &Scope, r: &Option<Range>) -> Html {
    match r {
        Some(r) if r.min == r.max => html!("{}", r.min),
        Some(r) => html!("{}–{}", r.min, r.max),
        None => unknown(s),
    }
}

/// A route's label in the view's language, coloured like its family.
pub fn route_badge(s: &Scope, id: &str) -> Html {
    let label = match s.ev.routes.get(id) {
        Some(r) => s.text(&r.label),
        None => Html::text(id),
    };
    badge(
        &crate::render::palette::class(crate::render::palette::route(s.ev, id)),
        label,
    )
}

/// The badge of what a statement rests on: each basis (observed, from the source, our
/// reading) has its own, so that a reader tells a record from a source read and from an
/// inference at a glance; nothing for a statement that names no basis.
pub fn basis_mark(s: &Scope, basis: Option<crate::model::types::Basis>) -> Html {
    match basis {
        Some(b) => html!(" {}", basis_badge(s, b)),
        None => Html::default(),
    }
}

/// The badge of one basis, classed `basis-<value>` (the page's legend explains them).
pub(crate) fn basis_badge(s: &Scope, basis: crate::model::types::Basis) -> Html {
    badge(basis.class(), s.label("basis", &basis))
}

/// The legend of the basis badges, one line for each: what the page's marks mean.
pub fn basis_legend(s: &Scope) -> Html {
    let items = Html::join(
        crate::model::types::Basis::ALL.into_iter().map(|b| {
            html!(
                "<li>{} {}</li>",
                basis_badge(s, b),
                s.ui(&format!("basis-legend-{}", b.name()))
            )
        }),
        "",
    );
    html!(
        "<aside class=\"basis-legend\"><p>{}</p><ul>{}</ul></aside>\n",
        s.ui("basis-legend"),
        items
    )
}

/// The line under a prose block whose fence gives a basis: its badge, in the block's own
/// language, and the address of the source read, as a link.
pub fn block_basis_note(
    s: &Scope,
    lang: crate::model::page::Lang,
    b: &crate::model::page::BlockBasis,
) -> Html {
    let label = Html::text(lang.pick(&s.msgs.label("basis", &b.basis)));
    let mut note = html!("<p class=\"basis-note\">{}", badge(b.basis.class(), label));
    if let Some(url) = &b.source {
        let shown = url
            .trim_start_matches("https://")
            .trim_start_matches("http://");
        html_into!(
            note,
            " <a href=\"{}\">{}</a>",
            Html::text(url),
            Html::text(shown)
        );
    }
    note + &Html::trusted_static("</p>\n")
}

pub fn badge(class: &str, label: Html) -> Html {
    let space = Html::trusted_static(if class.is_empty() { "" } else { " " });
    html!(
        "<span class=\"badge{}{}\">{}</span>",
        space,
        Html::text(class),
        label
    )
}

pub fn table(
    id: &str,
    class: &str,
    caption: Html,
    source: Html,
    columns: Vec<Html>,
    rows: Vec<Row>,
    s: &Scope,
) -> Table {
    Table {
        id: id.into(),
        class: class.into(),
        caption,
        source,
        columns,
        rows,
        empty: s.ui("table-empty"),
        notes: Vec::new(),
        rows_html: Html::default(),
    }
}

pub fn components(s: &Scope) -> Table {
    let rows =
        s.ev.components
            .iter()
            .map(|c| {
                let mut name = html!("<strong>{}</strong>", s.name(&c.name));
                for f in &c.files {
                    html_into!(name, "<br>{}", code(f));
                }
                let mut role = s.text(&c.role);
                if let Some(via) = c
                    .loaded_via
                    .as_ref()
                    .and_then(|v| s.ev.components.get(&v.value))
                {
                    html_into!(
                        role,
                        "<p class=\"note\">{} {}</p>",
                        s.ui("components-loaded-via"),
                        s.name(&via.name)
                    );
                }
                Row::new(vec![
                    name,
                    role,
                    super::vocabulary::status_badge(s, &c.status.value)
                        + &crate::render::pack::component_note(s, &c.files).unwrap_or_default(),
                    c.detail.as_ref().map(|d| s.text(d)).unwrap_or_default(),
                ])
                .id(anchor(Kind::Component, &c.id.value))
            })
            .collect();
    table(
        "components",
        "components",
        s.ui("components-caption"),
        source_line(s, s.ev.components.iter().map(|c| c.file.to_string())),
        ["col-component", "col-role", "col-observed", "col-detail"]
            .iter()
            .map(|k| s.ui(k))
            .collect(),
        rows,
        s,
    )
}

pub fn observers(s: &Scope) -> Table {
    let rows =
        s.ev.observers
            .iter()
            .map(|o| {
                let outcome = enum_key(&o.outcome);
                Row::new(vec![
                    html!(
                        "<strong>{}</strong><br>{}",
                        s.name(&o.name),
                        s.text(&o.method)
                    ),
                    s.text(&o.tried),
                    badge(
                        &format!("outcome-{outcome}"),
                        s.label("outcome", &o.outcome),
                    ),
                    s.text(&o.showed),
                    s.text(&o.constraint),
                    html!(
                        "<time datetime=\"{}\">{}</time>",
                        Html::text(&o.as_of.value),
                        Html::text(&o.as_of.value)
                    ),
                ])
                .id(anchor(Kind::Observer, &o.id.value))
                .class(format!("outcome-{outcome}"))
            })
            .collect();
    table(
        "observers",
        "observers",
        s.ui("observers-caption"),
        source_line(s, s.ev.observers.iter().map(|o| o.file.to_string())),
        [
            "col-observer",
            "col-tried",
            "col-outcome",
            "col-showed",
            "col-constraint",
            "col-as-of",
        ]
        .iter()
        .map(|k| s.ui(k))
        .collect(),
        rows,
        s,
    )
}

pub fn glossary(s: &Scope) -> Table {
    let rows =
        s.ev.terms
            .iter()
            .map(|t| {
                let mut term = html!("<dfn>{}</dfn>", s.fluent(&t.term));
                if let Some(r) = &t.reading {
                    html_into!(term, "<br><small>{}</small>", s.fluent(r));
                }
                let mut definition = s.text(&t.definition) + &basis_mark(s, t.basis);
                if let Some(src) = &t.source {
                    html_into!(
                        definition,
                        "<br><small class=\"source\">{}</small>",
                        source_text(src)
                    );
                }
                Row::new(vec![term, definition]).id(anchor(Kind::Term, &t.id.value))
            })
            .collect();
    table(
        "glossary",
        "glossary",
        s.ui("glossary-caption"),
        source_line(s, s.ev.terms.iter().map(|t| t.file.to_string())),
        vec![s.ui("col-term"), s.ui("col-definition")],
        rows,
        s,
    )
}

/// A source as `repo @ revision · file · PRs`; the revision (or the file, when there is
/// one) links to it when the source can be linked, each PR to its page.
pub fn source_text(src: &Source) -> Html {
    let mut out = code(&src.repository);
    let link = src.url.clone().or_else(|| {
        (crate::model::types::github_repo(&src.repository) && src.revision.is_some())
            .then(|| src.link())
            .flatten()
    });
    let linked = |label: Html| match &link {
        Some(href) => html!("<a href=\"{}\">{}</a>", Html::text(href), label),
        None => label,
    };
    let mut linked_once = false;
    if let Some(r) = &src.revision {
        let label = code(r);
        if src.file.is_none() {
            html_into!(out, " @ {}", linked(label));
            linked_once = true;
        } else {
            html_into!(out, " @ {}", label);
        }
    }
    if let Some(f) = &src.file {
        html_into!(out, " · {}", linked(code(f)));
        linked_once = true;
    }
    if !linked_once && src.url.is_some() {
        html_into!(out, " · {}", linked(Html::text("↗")));
    }
    if !src.prs.is_empty() {
        let prs = Html::join(src.prs.iter().map(|p| pull_request(p)), ", ");
        html_into!(out, " · {}", prs);
    }
    out
}

/// A pull request written `owner/repo#123` as a link to it on GitHub; anything else as
/// written.
fn pull_request(pr: &str) -> Html {
    match crate::model::types::pull_request_url(pr) {
        Some(href) => html!("<a href=\"{}\">{}</a>", Html::text(&href), Html::text(pr)),
        None => Html::text(pr),
    }
}

pub fn findings(s: &Scope, ids: &[String], caption: Option<&str>) -> Table {
    let list: Vec<_> =
        s.ev.findings
            .iter()
            .filter(|f| ids.is_empty() || ids.contains(&f.id.value))
            .collect();
    let rows = list
        .iter()
        .map(|f| {
            let row = Row::new(vec![
                code(&f.id.value),
                s.text(&f.text) + &basis_mark(s, f.basis),
                source_text(&f.source),
                ref_list(s, &f.refs),
            ]);
            if ids.is_empty() {
                row.id(anchor(Kind::Finding, &f.id.value))
            } else {
                row
            }
        })
        .collect();
    table(
        &format!(
            "findings-{}",
            if ids.is_empty() {
                "all".to_string()
            } else {
                ids.join("-")
            }
        ),
        "findings",
        s.ui(caption.unwrap_or("findings-caption")),
        source_line(s, list.iter().map(|f| f.file.to_string())),
        ["col-id", "col-finding", "col-source", "col-refs"]
            .iter()
            .map(|k| s.ui(k))
            .collect(),
        rows,
        s,
    )
}

pub fn family_names(s: &Scope, ids: &[crate::model::Id]) -> Html {
    let names: Vec<Html> = ids
        .iter()
        .filter_map(|f| s.ev.families.get(&f.value))
        .map(|f| s.fluent(&f.label))
        .collect();
    if names.is_empty() {
        Html::trusted_static("—")
    } else {
        Html::join(names, ", ")
    }
}

#[cfg(test)]
mod tests {
    use super::pull_request;

    #[test]
    fn pull_requests_link_to_github_and_nothing_else_does() {
        assert_eq!(
            pull_request("owner/repo.rs#18537").as_str(),
            "<a href=\"https://github.com/owner/repo.rs/pull/18537\">owner/repo.rs#18537</a>"
        );
        for plain in [
            "PR 18537",
            "a/b/c#1",
            "a/b#x",
            "a/b#",
            "<x>/y#1",
            "javascript:x/y#1",
        ] {
            assert!(!pull_request(plain).as_str().contains("<a "), "{plain}");
        }
        assert_eq!(pull_request("<x>/y#1").as_str(), "&lt;x&gt;/y#1");
    }
}
