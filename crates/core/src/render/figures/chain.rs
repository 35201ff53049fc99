//! The library chain: components joined by their `next` links (the dependency order `ldd`
//! showed), top to bottom, each with its files and observed status. Components loaded via
//! a chain member hang off it to the right; the rest are listed underneath.
//!
//! A site whose statuses declare how far the observation went (`seen:` in the vocabulary)
//! gets borders that tell it, dashed for a component only seen loaded, solid for one whose
//! binary was confirmed too, and a legend naming its statuses at each; a site whose
//! statuses declare no step gets plain boxes and no legend.

use super::svg::{self, Font, Svg, TextStyle};
use super::{Content, Drawn, Words, files, joined, para, same, ui, ui_texts};
use crate::model::Component;
use crate::model::Located;
use crate::model::lang::{Lang, Text};
use crate::model::types::Seen;
use crate::render::scope::Scope;
use std::collections::BTreeSet;

const WIDTH: f64 = 400.0;
const PAD: f64 = 12.0;
const MAIN_W: f64 = 236.0;
const SIDE_X: f64 = PAD + MAIN_W + 28.0;
const SIDE_W: f64 = WIDTH - PAD - SIDE_X;

/// A status by its label from the vocabulary, or its id when the site lacks it.
fn status_label(s: &Scope, status: &str) -> Words {
    match s.ev.statuses.get(status) {
        Some(st) => super::words(s, &st.label),
        None => super::same(s, status),
    }
}

/// A box's class: its border by the step its status declares, plain without one.
fn card_class(s: &Scope, status: &str) -> &'static str {
    match s.ev.seen(status) {
        Some(Seen::Loaded) => "card dash",
        Some(Seen::Binary) | None => "card solid",
        Some(Seen::Absent) => "card muted",
    }
}

/// The chains: from each component nothing points to, following `next` until the end,
/// a component already placed, or a loop. In file order.
pub fn chains<'e>(s: &Scope<'e>) -> Vec<Vec<&'e Located<Component>>> {
    let targets: BTreeSet<&str> =
        s.ev.components
            .iter()
            .filter_map(|c| c.next.as_ref().map(|n| n.value.as_str()))
            .collect();
    let mut placed: BTreeSet<&str> = BTreeSet::new();
    let mut out = Vec::new();
    for head in s.ev.components.iter() {
        if head.next.is_none() || targets.contains(head.id.value.as_str()) {
            continue;
        }
        let mut chain = Vec::new();
        let mut cur = Some(head);
        while let Some(c) = cur {
            if !placed.insert(c.id.value.as_str()) {
                break;
            }
            chain.push(c);
            cur = c.next.as_ref().and_then(|n| s.ev.components.get(&n.value));
        }
        out.push(chain);
    }
    out
}

/// Draws one component box; returns its height.
fn node(svg: &mut Svg, s: &Scope, c: &Component, x: f64, y: f64, w: f64, small: bool) -> f64 {
    let mut inner = Svg::new();
    let max = w - 20.0;
    let name_font = if small {
        Font::sans(14).bold()
    } else {
        Font::sans(16).bold()
    };
    // A name is never cut inside a word: a long one is set smaller to fit its box.
    let name = super::name(s, &c.name);
    let name_font = name
        .iter()
        .fold(name_font, |f, (_, t)| svg::font_to_fit(t, max, f, 12));
    let mut cy = para(
        &mut inner,
        x + 10.0,
        y + 6.0,
        &name,
        max,
        TextStyle::new(name_font, ""),
    );
    if !small {
        for f in &c.files {
            cy = para(
                &mut inner,
                x + 10.0,
                cy,
                &same(s, f.clone()),
                max,
                TextStyle::new(Font::mono(13), "mu"),
            );
        }
    }
    let status = status_label(s, &c.status.value);
    cy = para(
        &mut inner,
        x + 10.0,
        cy + 2.0,
        &status,
        max,
        TextStyle::new(Font::sans(13), if small { "mu" } else { "" }),
    );
    let h = cy - y + 8.0;
    svg.rect(x, y, w, h, 6.0, card_class(s, &c.status.value));
    svg.append(inner);
    h
}

/// Components loaded via `id`, in file order.
fn loaded_via<'e>(s: &Scope<'e>, id: &str) -> Vec<&'e Located<Component>> {
    s.ev.components
        .iter()
        .filter(|c| c.loaded_via.as_ref().is_some_and(|v| v.value == id))
        .collect()
}

/// The labels of the site's statuses at step `seen`, joined in each language (none when
/// no status declares it).
fn labels_at(s: &Scope, seen: Seen) -> Option<Text> {
    let labels: Vec<&Text> =
        s.ev.statuses
            .iter()
            .filter(|st| st.seen == Some(seen))
            .map(|st| &st.label)
            .collect();
    if labels.is_empty() {
        return None;
    }
    let join = |lang: Lang| {
        let each: Vec<&str> = labels.iter().map(|t| lang.pick(t)).collect();
        each.join(", ")
    };
    Some(Text::from_fn(s.view.langs(), join))
}

/// The legend: a dashed and a solid sample box, each for the statuses that declare its
/// step (a site's messages may word it otherwise); nothing for a site whose statuses
/// declare none.
fn legend(svg: &mut Svg, s: &Scope, y: f64) -> f64 {
    let mut y = y;
    for (class, seen, key) in [
        ("card dash", Seen::Loaded, "figure-chain-legend-loaded"),
        ("card solid", Seen::Binary, "figure-chain-legend-binary"),
    ] {
        let Some(statuses) = labels_at(s, seen) else {
            continue;
        };
        svg.rect(PAD, y + 3.0, 26.0, 14.0, 3.0, class);
        y = para(
            svg,
            PAD + 36.0,
            y,
            &ui_texts(s, key, &[("statuses", statuses)]),
            WIDTH - PAD * 2.0 - 36.0,
            TextStyle::new(Font::sans(13), "mu"),
        ) + 4.0;
    }
    y
}

/// The library chain diagram.
pub fn diagram(s: &Scope) -> Drawn {
    let mut svg = Svg::new();
    let mut y = PAD;
    let mut drawn: BTreeSet<&str> = BTreeSet::new();
    let mut desc_chains: Vec<Vec<&Located<Component>>> = Vec::new();
    let all = chains(s);
    for chain in &all {
        for (i, c) in chain.iter().enumerate() {
            drawn.insert(c.id.value.as_str());
            let h_main = node(&mut svg, s, c, PAD, y, MAIN_W, false);
            // Components loaded via this one, to the right.
            let mut sy = y;
            for side in loaded_via(s, &c.id.value) {
                if drawn.contains(side.id.value.as_str()) || side.next.is_some() {
                    continue;
                }
                drawn.insert(side.id.value.as_str());
                let h = node(&mut svg, s, side, SIDE_X, sy, SIDE_W, true);
                let my = sy + 16.0;
                svg.line(SIDE_X - 2.0, my, PAD + MAIN_W + 2.0, my, "edge dash");
                svg.arrow_head(SIDE_X - 1.0, my, 1.0, 0.0, "head");
                sy += h + 8.0;
            }
            y += h_main.max(sy - y - 8.0);
            if i + 1 < chain.len() {
                let cx = PAD + 28.0;
                svg.line(cx, y + 1.0, cx, y + 17.0, "edge");
                svg.arrow_head(cx, y + 20.0, 0.0, 1.0, "head");
                y += 22.0;
            }
        }
        y += 16.0;
        desc_chains.push(chain.clone());
    }
    if all.is_empty() {
        y = para(
            &mut svg,
            PAD,
            y,
            &ui(s, "figure-chain-none"),
            WIDTH - PAD * 2.0,
            TextStyle::new(Font::sans(14), "mu"),
        ) + 10.0;
    } else {
        // Side arrows read "loaded via".
        y = para(
            &mut svg,
            PAD,
            y - 6.0,
            &ui(s, "figure-chain-side"),
            WIDTH - PAD * 2.0,
            TextStyle::new(Font::sans(13), "mu"),
        ) + 4.0;
    }
    y = legend(&mut svg, s, y);
    let rest: Vec<&Located<Component>> =
        s.ev.components
            .iter()
            .filter(|c| !drawn.contains(c.id.value.as_str()))
            .collect();
    if !rest.is_empty() {
        y += 8.0;
        svg.line(PAD, y, WIDTH - PAD, y, "grid");
        y = para(
            &mut svg,
            PAD,
            y + 6.0,
            &ui(s, "figure-chain-others"),
            WIDTH - PAD * 2.0,
            TextStyle::new(Font::sans(14).bold(), ""),
        );
        for c in &rest {
            let status = status_label(s, &c.status.value);
            let font = Font::sans(13);
            let max = WIDTH - PAD * 2.0 - 10.0;
            let name = super::name(s, &c.name);
            let one = format!("{} — {}", joined(&name), joined(&status));
            // One line with every language when it fits, else a line per language.
            let line: Words = if svg::text_width(&one, font) <= max {
                vec![(status.first().map(|s| s.0).unwrap_or(s.view.lead()), one)]
            } else {
                status
                    .iter()
                    .map(|(l, t)| (*l, format!("{} — {t}", super::in_lang(&name, *l))))
                    .collect()
            };
            let cls = if s.ev.seen(&c.status.value) == Some(Seen::Absent) {
                "mu"
            } else {
                ""
            };
            y = para(
                &mut svg,
                PAD + 10.0,
                y,
                &line,
                WIDTH - PAD * 2.0 - 10.0,
                TextStyle::new(Font::sans(13), cls),
            );
        }
    }
    let title = ui(s, "figure-chain-title");
    let desc = title
        .iter()
        .map(|(l, t)| {
            let chains: Vec<String> = desc_chains
                .iter()
                .map(|chain| {
                    chain
                        .iter()
                        .map(|c| {
                            let st = status_label(s, &c.status.value);
                            let st = st
                                .iter()
                                .find(|(sl, _)| sl == l)
                                .or(st.first())
                                .map(|(_, t)| t.clone())
                                .unwrap_or_default();
                            format!("{} ({st})", c.name.get(*l))
                        })
                        .collect::<Vec<_>>()
                        .join(" → ")
                })
                .collect();
            (*l, format!("{t}: {}", chains.join("; ")))
        })
        .collect();
    Drawn {
        name: "library-chain".into(),
        kind: "library-chain",
        title,
        sources: files(s.ev.components.iter().map(|c| c.file.to_string())),
        content: Content::Svg {
            width: WIDTH,
            height: y + PAD,
            body: svg.finish(),
            desc,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use super::*;
    use crate::model::view::View;

    fn draw(view: View) -> String {
        standalone(&diagram(&scope(view)), view)
    }

    #[test]
    fn chain_in_ldd_order() {
        let s = scope(View::EN);
        let c = chains(&s);
        assert_eq!(c.len(), 1);
        let ids: Vec<&str> = c[0].iter().map(|c| c.id.value.as_str()).collect();
        assert_eq!(ids, ["planner", "executor", "storage", "io_layer"]);
    }

    #[test]
    fn statuses_and_borders() {
        let doc = draw(View::EN);
        let t = texts(&doc).join("\n");
        for want in [
            "libplanner",
            "libplanner.so.3",
            "Executor",
            "Storage engine",
            "I/O layer",
            "load confirmed",
            "load and binary confirmed",
            // Loaded via the planner: a box to the right, without its files.
            "Statistics",
            // Outside the chain: listed underneath with their status.
            "System catalog — confirmed",
            // Its label is the site's (data/vocabulary.yaml), not the status id.
            "JIT compiler — not loaded",
        ] {
            assert!(t.contains(want), "missing {want} in {t}");
        }
        assert!(doc.contains("class=\"card dash\""));
        assert!(doc.contains("class=\"card solid\""));
        assert!(!t.contains("libstats.so.1"), "a side box lists no files");
        assert_short_numbers(&doc);
    }

    #[test]
    fn the_legend_names_the_statuses_at_each_step() {
        let t = texts(&draw(View::EN)).join(" ");
        assert!(t.contains("dashed: load confirmed"), "{t}");
        assert!(
            t.contains("solid: confirmed, load and binary confirmed"),
            "{t}"
        );
        let ja = texts(&draw(View::JA)).join(" ");
        assert!(ja.contains("破線: 読み込みを確認"), "{ja}");
    }

    #[test]
    fn statuses_without_steps_draw_plain_boxes_and_no_legend() {
        let site = Site::load(|d| {
            for st in d.statuses.iter_mut() {
                st.value.seen = None;
            }
        });
        let doc = standalone(&diagram(&site.scope(View::EN)), View::EN);
        assert!(!doc.contains("card dash") && !doc.contains("card muted"));
        assert!(doc.contains("class=\"card solid\""));
        let t = texts(&doc).join(" ");
        assert!(!t.contains("dashed") && !t.contains("solid:"), "{t}");
        assert!(t.contains("JIT compiler — not loaded"), "{t}");
    }

    #[test]
    fn renders_are_identical() {
        assert_eq!(draw(View::BILINGUAL), draw(View::BILINGUAL));
    }

    #[test]
    fn a_loop_is_reported_and_drawn_without_hanging() {
        let site = Site::load(|d| {
            let mut back = d
                .components
                .iter()
                .find_map(|c| c.value.next.clone())
                .expect("a next link");
            back.value = "planner".into();
            for c in d.components.iter_mut() {
                if c.value.id.value == "io_layer" {
                    c.value.next = Some(back.clone());
                }
            }
        });
        assert!(site.problems.contains(&"chain-loop"), "{:?}", site.problems);
        let s = site.scope(View::EN);
        // Every member points somewhere and is pointed at: no head, no chain.
        assert!(chains(&s).is_empty());
        let doc = standalone(&diagram(&s), View::EN);
        assert!(texts(&doc).iter().any(|t| t.starts_with("Executor — ")));
    }
}
