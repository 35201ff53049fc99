//! Dispatch maps: the branches of one map, and all maps compared over ranges of their variable.

use super::records::basis_mark;
use super::records::source_text;
use super::{anchor, code, record_link, source_line};
use crate::derive::{sample, segments, zone};
use crate::model::refs::{Kind, Ref};
use crate::model::{Bound, DispatchMap};
use crate::render::html::Html;
use crate::render::html::html;
use crate::render::palette;
use crate::render::scope::Scope;
use crate::render::table::{Row, Table};

/// A bound as text: `rows ≤ 8`, `0.05 ≤ sel < 0.2`, or the "otherwise" label.
pub fn condition(s: &Scope, var: &str, bound: Option<Bound>) -> Html {
    match bound.and_then(|b| b.text(var)) {
        Some(t) => code(&t),
        None => s.ui("dispatch-otherwise"),
    }
}

fn family_cell(s: &Scope, id: &str) -> Html {
    match s.ev.families.get(id) {
        Some(f) => {
            let symbol = f
                .symbol
                .as_deref()
                .map(|k| html!("<br>{}", code(k)))
                .unwrap_or_default();
            html!(
                "<span class=\"badge {}\">{}</span>{}",
                Html::text(&palette::class(Some(palette::family(s.ev, id)))),
                s.fluent(&f.label),
                symbol
            )
        }
        None => code(id),
    }
}

pub fn map(s: &Scope, id: &str) -> Table {
    let Some(m) = s.ev.maps.get(id) else {
        return Table::default();
    };
    let rows = m
        .branches
        .iter()
        .map(|b| {
            let anchor_cell = match b.anchor.as_ref().and_then(|a| Ref::parse(&a.value).ok()) {
                Some(r) => {
                    let brief = crate::render::pack::brief(s, &r);
                    let detail = brief
                        .detail
                        .map(|d| html!(" · {}", Html::text(&d)))
                        .unwrap_or_default();
                    let sym = brief
                        .code
                        .first()
                        .map(|x| html!("<br>{}", code(x)))
                        .unwrap_or_default();
                    let link = record_link(s, r.kind, &r.id, code(&r.id));
                    html!("{}{}{}", link, detail, sym)
                }
                None => Html::trusted_static("—"),
            };
            let chain: Vec<Html> = b
                .chain
                .iter()
                .filter_map(|c| s.ev.components.get(&c.value))
                .map(|c| s.name(&c.name))
                .collect();
            let mut fam = family_cell(s, &b.family.value);
            if let Some(n) = &b.note {
                crate::render::html::html_into!(fam, "<p class=\"note\">{}</p>", s.text(n));
            }
            Row::new(vec![
                condition(s, &m.variable, b.bound),
                fam,
                anchor_cell,
                if chain.is_empty() {
                    Html::trusted_static("—")
                } else {
                    Html::join(chain, " → ")
                },
            ])
        })
        .collect();
    let mut notes = vec![html!(
        "{} {}",
        s.ui("dispatch-source"),
        source_text(&m.source)
    )];
    if let Some(a) = &m.applies_to {
        notes.push(html!("{} {}", s.ui("dispatch-applies-to"), s.text(a)));
    }
    if let Some(n) = &m.note {
        notes.push(s.text(n));
    }
    Table {
        id: anchor(Kind::Map, &m.id.value),
        class: "dispatch-map".into(),
        caption: if m.subject.is_empty() {
            s.text(&m.title) + &basis_mark(s, m.basis)
        } else {
            let subject = Html::join(m.subject.values().map(|v| code(v)), " · ");
            html!(
                "{} <small>({})</small>{}",
                s.text(&m.title),
                subject,
                basis_mark(s, m.basis)
            )
        },
        source: source_line(s, [m.file.to_string()]),
        columns: ["col-condition", "col-family", "col-anchor", "col-chain"]
            .iter()
            .map(|k| s.ui(k))
            .collect(),
        rows,
        empty: s.ui("table-empty"),
        notes,
        rows_html: Html::default(),
    }
}

/// The maps `ids` (every map when empty) side by side over ranges of their variable.
pub fn compare(s: &Scope, ids: &[String]) -> Table {
    let maps: Vec<&DispatchMap> = if ids.is_empty() {
        s.ev.maps.iter().map(|m| &m.value).collect()
    } else {
        ids.iter()
            .filter_map(|i| s.ev.maps.get(i))
            .map(|m| &m.value)
            .collect()
    };
    // The maps compared share their variable; with no map there is no row to name it.
    let var = maps.first().map_or("", |m| m.variable.as_str());
    let rows = segments(&maps)
        .into_iter()
        .map(|seg| {
            let range = match seg.text(var) {
                Some(t) => code(&t),
                None => s.ui("dispatch-any"),
            };
            let zones: Vec<Option<&str>> = maps.iter().map(|m| zone(m, sample(&seg))).collect();
            let differ = zones.windows(2).any(|w| w[0] != w[1]);
            // Colour alone does not tell a differing range: a ≠ mark, named for a screen
            // reader, does.
            let range = if differ {
                html!(
                    "<span class=\"differs-mark\" aria-hidden=\"true\">≠</span>\
                     <span class=\"sr-only\">{}</span> {}",
                    s.ui("compare-differs"),
                    range
                )
            } else {
                range
            };
            let mut cells = vec![range];
            cells.extend(zones.iter().map(|z| {
                z.map(|f| family_cell(s, f))
                    .unwrap_or_else(|| Html::trusted_static("—"))
            }));
            let row = Row::new(cells);
            if differ { row.class("differs") } else { row }
        })
        .collect();
    let mut columns = vec![s.ui_with("col-range", "var", var.to_string())];
    columns.extend(maps.iter().map(|m| {
        let link = record_link(s, Kind::Map, &m.id.value, code(&m.id.value));
        html!("{}<br><small>{}</small>", s.text(&m.title), link)
    }));
    // Two comparisons of different maps on one page need ids of their own.
    let id = if ids.is_empty() {
        "dispatch-compare".to_string()
    } else {
        crate::render::figures::slug(&format!("dispatch-compare-{}", ids.join("-")))
    };
    let files = maps
        .iter()
        .filter_map(|m| s.ev.maps.get(&m.id.value))
        .map(|m| m.file.to_string());
    Table {
        id,
        class: "dispatch-compare".into(),
        caption: s.ui_with("compare-caption", "var", var.to_string()),
        source: source_line(s, files),
        columns,
        rows,
        empty: s.ui("table-empty"),
        // Each map's source, so that none is shown without where it was read.
        notes: std::iter::once(s.ui("compare-note"))
            .chain(maps.iter().map(|m| {
                html!(
                    "{} {}: {}",
                    s.ui("dispatch-source"),
                    code(&m.id.value),
                    source_text(&m.source)
                )
            }))
            .collect(),
        rows_html: Html::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::directive::ArgError;
    use crate::model::directive::{self, Directive};
    use crate::model::page::DirectiveLine;
    use crate::model::view::View;
    use crate::render::figures::testkit::{Site, site};

    /// `::name{attrs}` parsed on a page of `site`.
    fn parse(site: &Site, name: &str, attrs: &[(&str, &str)]) -> Result<Directive, ArgError> {
        let raw = DirectiveLine {
            name: name.to_string(),
            attrs: attrs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            line: 1,
            resolution: None,
        };
        directive::parse(&raw, "scan-choice", &site.ev)
    }

    /// The fixture with `planner_v3` over another variable, as a site whose maps measure
    /// different things has it.
    fn two_variables() -> Site {
        Site::load(|d| {
            for m in d.maps.iter_mut() {
                if m.value.id.value == "planner_v3" {
                    m.value.variable = "selectivity".into();
                }
            }
        })
    }

    /// `maps=` picks the maps compared, so a site with maps over different variables can
    /// compare those over one; without it every map is compared, which such a site cannot.
    #[test]
    fn map_compare_takes_the_maps_to_compare() {
        let site = two_variables();
        let all = parse(&site, "map-compare", &[]).unwrap_err();
        assert!(
            matches!(&all, ArgError::NotOneVariable { directive, .. } if directive == "map-compare"),
            "{all:?}"
        );
        let d = parse(&site, "map-compare", &[("maps", "planner_v1 planner_v2")]).unwrap();
        let Directive::MapCompare(d) = d else {
            panic!("{d:?}")
        };
        let table = compare(&site.scope(View::EN), &d.maps);
        assert_eq!(table.columns.len(), 3, "the range, then one column per map");
        assert_eq!(table.id, "dispatch-compare-planner_v1-planner_v2");
        let nope = parse(&site, "map-compare", &[("maps", "planner_v1 nope")]).unwrap_err();
        assert!(
            nope.to_string().starts_with("no map with id `nope`"),
            "{nope}"
        );
    }

    /// The former name is still accepted, as the same directive.
    #[test]
    fn dispatch_compare_is_an_alias_of_map_compare() {
        let site = site();
        assert_eq!(
            parse(site, "dispatch-compare", &[]),
            parse(site, "map-compare", &[])
        );
        assert!(matches!(
            parse(
                site,
                "dispatch-compare",
                &[("maps", "planner_v1 planner_v2")]
            ),
            Ok(Directive::MapCompare(_))
        ));
        assert_eq!(compare(&site.scope(View::EN), &[]).columns.len(), 4);
    }
}
