//! Dispatch-flow diagram of one map: the op and tensor type at the top, then one branch per
//! condition on the map's variable, each leading to its family, its bundle anchor
//! (id, size, key symbols) and the library chain it goes through.
//!
//! The layout is vertical (a spine with branches hanging off it) so that it stays legible
//! on a phone.

use super::svg::{self, Anchor, Font, Svg, TextStyle};
use super::{
    Content, Drawn, Words, family_hue, family_name, files, map_words, para, para_fit, same, ui,
};
use crate::model::refs::Ref;
use crate::model::{Bound, Branch, DispatchMap};
use crate::render::scope::Scope;

/// Width of the diagram (viewBox units).
pub const WIDTH: f64 = 400.0;
const PAD: f64 = 12.0;
const SPINE: f64 = 24.0;
const CARD_X: f64 = 46.0;
const CARD_PAD: f64 = 12.0;

/// The values a branch is reached by, as text: `≤ 8`, `(8, 256]`, `< 2, > 3`;
/// empty when every value does, none when nothing reaches it.
pub fn reach_text(reach: &[Bound]) -> Option<String> {
    let parts: Vec<String> = reach.iter().filter_map(Bound::short).collect();
    (!reach.is_empty()).then(|| parts.join(", "))
}

/// A branch condition as words: `rows ≤ 8`, `rows < 64`, or the "otherwise" label.
pub fn condition(s: &Scope, var: &str, bound: Option<Bound>) -> Words {
    match bound.and_then(|b| b.text(var)) {
        Some(t) => same(s, t),
        None => ui(s, "dispatch-otherwise"),
    }
}

/// The chain of a branch as component names.
fn chain_names(s: &Scope, b: &Branch) -> Vec<String> {
    b.chain
        .iter()
        .map(|c| {
            s.ev.components
                .get(&c.value)
                .map(|c| super::joined(&super::name(s, &c.name)))
                .unwrap_or_else(|| c.value.clone())
        })
        .collect()
}

/// Draws the chain as boxes joined by arrows, wrapping to new rows; returns the y below.
fn chain_boxes(svg: &mut Svg, names: &[String], x0: f64, y: f64, max: f64) -> f64 {
    let font = Font::sans(13);
    let (h, gap) = (24.0, 22.0);
    let mut x = x0;
    let mut y = y;
    for (i, name) in names.iter().enumerate() {
        let label = svg::ellipsize(name, max - 16.0, font);
        let w = svg::text_width(&label, font) + 16.0;
        if i > 0 {
            if x + gap + w > x0 + max {
                // Wrap: an arrow down-left to the start of the next row.
                let (fx, fy) = (x - 4.0, y + h);
                y += h + 14.0;
                svg.poly(
                    &[
                        (fx, fy),
                        (fx, fy + 7.0),
                        (x0 + 10.0, fy + 7.0),
                        (x0 + 10.0, y),
                    ],
                    false,
                    "edge",
                );
                svg.arrow_head(x0 + 10.0, y, 0.0, 1.0, "head");
                x = x0;
            } else {
                svg.line(x + 3.0, y + h / 2.0, x + gap - 3.0, y + h / 2.0, "edge");
                svg.arrow_head(x + gap - 3.0, y + h / 2.0, 1.0, 0.0, "head");
                x += gap;
            }
        }
        svg.rect(x, y, w, h, 4.0, "panel");
        svg.text(
            x + w / 2.0,
            y + h / 2.0 + 4.5,
            &label,
            &TextStyle::new(font, "").anchor(Anchor::Middle),
        );
        x += w;
    }
    y + h
}

/// The card of one branch, drawn at `(CARD_X, y)`; returns its height.
fn card(svg: &mut Svg, s: &Scope, b: &Branch, y: f64) -> f64 {
    let w = WIDTH - PAD - CARD_X;
    let x = CARD_X + CARD_PAD;
    let max = w - CARD_PAD * 2.0;
    let hue = family_hue(s, &b.family.value);
    let mut inner = Svg::new();
    let mut cy = y + 8.0;
    // Family name, with its symbol on the same line when it fits.
    let name = family_name(s, &b.family.value);
    let name_font = Font::sans(17).bold();
    let symbol =
        s.ev.families
            .get(&b.family.value)
            .and_then(|f| f.symbol.clone());
    let name_w = svg::text_width(&name, name_font);
    let lh = name_font.line_height();
    inner.text(
        x,
        cy + lh * 0.5 + 6.0,
        &name,
        &TextStyle::new(name_font, &hue.text()),
    );
    match symbol {
        Some(k) if name_w + 10.0 + svg::text_width(&k, Font::mono(13)) <= max => {
            inner.text(
                x + name_w + 10.0,
                cy + lh * 0.5 + 6.0,
                &k,
                &TextStyle::new(Font::mono(13), "mu"),
            );
            cy += lh;
        }
        Some(k) => {
            cy = para(
                &mut inner,
                x,
                cy + lh,
                &same(s, k),
                max,
                TextStyle::new(Font::mono(13), "mu"),
            );
        }
        None => cy += lh,
    }
    // Anchor: id and what its pack says of it, then its code lines.
    if let Some(a) = b.anchor.as_ref().and_then(|a| Ref::parse(&a.value).ok()) {
        cy += 4.0;
        cy = para_fit(
            &mut inner,
            x,
            cy,
            &ui(s, "col-anchor"),
            max,
            TextStyle::new(Font::sans(13), "mu"),
        );
        let brief = crate::render::pack::brief(s, &a);
        let detail = brief.detail.map(|d| format!(" · {d}")).unwrap_or_default();
        cy = para(
            &mut inner,
            x,
            cy,
            &same(s, format!("{}{detail}", a.id)),
            max,
            TextStyle::new(Font::mono(14).bold(), ""),
        );
        for sym in &brief.code {
            cy = para(
                &mut inner,
                x,
                cy,
                &same(s, sym.clone()),
                max,
                TextStyle::new(Font::mono(13), ""),
            );
        }
    }
    // Library chain.
    let names = chain_names(s, b);
    if !names.is_empty() {
        cy += 4.0;
        cy = para_fit(
            &mut inner,
            x,
            cy,
            &ui(s, "col-chain"),
            max,
            TextStyle::new(Font::sans(13), "mu"),
        );
        cy = chain_boxes(&mut inner, &names, x, cy + 2.0, max) + 4.0;
    }
    if let Some(n) = &b.note {
        cy = para(
            &mut inner,
            x,
            cy + 4.0,
            &super::text(s, n),
            max,
            TextStyle::new(Font::sans(13), "mu"),
        );
    }
    let h = cy - y + 8.0;
    svg.rect(CARD_X, y, w, h, 6.0, "card");
    svg.rect(CARD_X, y, 5.0, h, 0.0, &hue.fill());
    svg.append(inner);
    h
}

/// The head box: the map's subject, its title and what it applies to.
fn head(svg: &mut Svg, s: &Scope, m: &DispatchMap) -> f64 {
    let max = WIDTH - PAD * 2.0 - 24.0;
    let mut inner = Svg::new();
    let mut y = PAD + 8.0;
    if let Some(subject) = m.subject_line() {
        y = para(
            &mut inner,
            PAD + 12.0,
            y,
            &same(s, subject),
            max,
            TextStyle::new(Font::mono(15).bold(), ""),
        );
    }
    y = para(
        &mut inner,
        PAD + 12.0,
        y + 2.0,
        &super::text(s, &m.title),
        max,
        TextStyle::new(Font::sans(14), ""),
    );
    if let Some(a) = &m.applies_to {
        y = para(
            &mut inner,
            PAD + 12.0,
            y,
            &super::text(s, a),
            max,
            TextStyle::new(Font::sans(13), "mu"),
        );
    }
    let h = y - PAD + 8.0;
    svg.rect(PAD, PAD, WIDTH - PAD * 2.0, h, 6.0, "panel");
    svg.append(inner);
    PAD + h
}

/// The diagram of one map.
pub fn diagram(s: &Scope, m: &DispatchMap, file: &str) -> Drawn {
    let mut svg = Svg::new();
    let mut y = head(&mut svg, s, m);
    let spine_top = y;
    let reach = crate::derive::reach(m);
    let mut nodes = Vec::new();
    let mut body = Svg::new();
    for (b, r) in m.branches.iter().zip(&reach) {
        y += 16.0;
        let node_y = y + 10.0;
        nodes.push(node_y);
        let cond = condition(s, &m.variable, b.bound);
        let reached = reach_text(r);
        // Said only where earlier branches narrow what the bound alone would take.
        let extra = match reached.as_deref() {
            Some(t) if !t.is_empty() && Some(t) != b.bound.and_then(|b| b.short()).as_deref() => {
                format!("· {t}")
            }
            _ => String::new(),
        };
        let font = Font::mono(15).bold();
        let tag = cond.len() > 1;
        let lines = super::fit_lines(&cond, WIDTH - PAD - 36.0 - 90.0, font);
        let mut ly = y;
        for (i, (lang, line)) in lines.iter().enumerate() {
            let base = ly + font.line_height() * 0.5 + 5.4;
            body.text(
                36.0,
                base,
                line,
                &TextStyle::new(font, "").lang(tag.then_some(*lang)),
            );
            if i + 1 == lines.len() {
                let after = 36.0 + svg::text_width(line, font) + 10.0;
                let note = if reached.is_none() {
                    super::joined(&ui(s, "figure-unreachable"))
                } else {
                    extra.clone()
                };
                body.text(after, base, &note, &TextStyle::new(Font::sans(14), "mu"));
            }
            ly += font.line_height();
        }
        body.circle(SPINE, node_y, 5.0, &family_hue(s, &b.family.value).fill());
        y = ly + 6.0;
        let h = card(&mut body, s, b, y);
        let mid = y + 22.0;
        body.poly(
            &[(SPINE, node_y + 5.0), (SPINE, mid), (CARD_X - 2.0, mid)],
            false,
            "edge",
        );
        body.arrow_head(CARD_X - 1.0, mid, 1.0, 0.0, "head");
        y += h;
    }
    if m.branches.is_empty() {
        y = para(
            &mut body,
            PAD,
            y + 12.0,
            &ui(s, "figure-no-branches"),
            WIDTH - PAD * 2.0,
            TextStyle::new(Font::sans(14), "mu"),
        );
    }
    if let Some(last) = nodes.last() {
        svg.line(SPINE, spine_top, SPINE, *last, "edge");
    }
    svg.append(body);
    let mut sources = vec![file.to_string()];
    sources.extend(
        m.branches
            .iter()
            .filter_map(|b| b.anchor.as_ref())
            .filter_map(|a| Ref::parse(&a.value).ok())
            .filter_map(|r| s.ev.file_of(r.kind, &r.id)),
    );
    sources.extend(
        m.branches
            .iter()
            .flat_map(|b| &b.chain)
            .filter_map(|c| s.ev.components.get(&c.value))
            .map(|c| c.file.to_string()),
    );
    sources.extend(
        s.ev.families
            .iter()
            .filter(|f| m.branches.iter().any(|b| b.family.value == f.id.value))
            .map(|f| f.file.to_string()),
    );
    Drawn {
        name: super::slug(&format!("dispatch-{}", m.id.value)),
        kind: "dispatch-diagram",
        title: super::ui_texts(s, "figure-dispatch-title", &[("map", m.title.clone())]),
        sources: files(sources),
        content: Content::Svg {
            width: WIDTH,
            height: y + PAD,
            body: svg.finish(),
            desc: describe(s, m),
        },
    }
}

/// A one-line summary of the map for `<desc>`.
fn describe(s: &Scope, m: &DispatchMap) -> Words {
    let parts: Vec<Words> = m
        .branches
        .iter()
        .map(|b| {
            let cond = condition(s, &m.variable, b.bound);
            let mut tail = format!(" → {}", family_name(s, &b.family.value));
            if let Some(a) = b.anchor.as_ref().and_then(|a| Ref::parse(&a.value).ok()) {
                tail.push_str(&format!(" ({})", a.id));
            }
            let chain = chain_names(s, b);
            if !chain.is_empty() {
                tail.push_str(&format!(" [{}]", chain.join(" → ")));
            }
            map_words(&cond, |_, c| format!("{c}{tail}"))
        })
        .collect();
    map_words(&same_langs(s), |l, _| {
        let items: Vec<String> = parts
            .iter()
            .map(|p| {
                p.iter()
                    .find(|(pl, _)| *pl == l)
                    .or(p.first())
                    .map(|(_, t)| t.clone())
                    .unwrap_or_default()
            })
            .collect();
        let head = m.subject_line().unwrap_or_else(|| m.id.value.clone());
        format!("{head}: {}", items.join("; "))
    })
}

/// One empty entry per language of the view (a base for per-language strings).
pub fn same_langs(s: &Scope) -> Words {
    s.view.langs().iter().map(|&l| (l, String::new())).collect()
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use super::*;
    use crate::model::view::View;

    fn planner_v1() -> DispatchMap {
        site()
            .ev
            .maps
            .get("planner_v1")
            .expect("planner_v1")
            .value
            .clone()
    }

    fn draw(view: View, m: &DispatchMap) -> String {
        let s = scope(view);
        standalone(&diagram(&s, m, "data/maps.yaml"), view)
    }

    #[test]
    fn labels_come_from_the_data() {
        let doc = draw(View::EN, &planner_v1());
        let t = texts(&doc);
        for want in [
            "est_rows ≤ 8",
            "est_rows ≤ 256",
            "otherwise",
            "Index",
            "Bitmap",
            "Seq",
            // An anchor the site declares itself is shown by its reference (a pack may say
            // more of its own records, such as a size or the symbols a record holds).
            "code:plan_0007",
            "code:plan_0099",
            "Executor",
            "Storage engine",
            "I/O layer",
            "PLAN_SCAN · orders",
            "Recorded as the default bound of v1.",
        ] {
            assert!(t.iter().any(|x| x == want), "missing {want} in {t:?}");
        }
        assert!(doc.contains("data/maps.yaml"));
        assert_short_numbers(&doc);
    }

    #[test]
    fn each_view_has_its_language() {
        let ja = texts(&draw(View::JA, &planner_v1())).join("\n");
        assert!(!ja.contains("otherwise"));
        assert!(ja.contains(&super::super::joined(&ui(
            &scope(View::JA),
            "dispatch-otherwise"
        ))));
        let bi = draw(View::BILINGUAL, &planner_v1());
        assert!(bi.contains("xml:lang=\"en\""));
        assert!(bi.contains("xml:lang=\"ja\""));
    }

    #[test]
    fn renders_are_identical() {
        assert_eq!(
            draw(View::BILINGUAL, &planner_v1()),
            draw(View::BILINGUAL, &planner_v1())
        );
    }

    #[test]
    fn a_changed_threshold_changes_the_picture() {
        let before = draw(View::EN, &planner_v1());
        let mut m = planner_v1();
        m.branches[0].bound = Some(Bound::le(16.0));
        let after = draw(View::EN, &m);
        assert_ne!(before, after);
        assert!(texts(&after).iter().any(|t| t == "est_rows ≤ 16"));
    }

    #[test]
    fn odd_maps_do_not_panic() {
        let mut m = planner_v1();
        m.branches[0].bound = Some(Bound::le(f64::MAX));
        m.branches[1].bound = Some(Bound::lt(0.0));
        draw(View::BILINGUAL, &m);
        m.branches.clear();
        let doc = draw(View::EN, &m);
        assert!(texts(&doc).iter().any(|t| t.contains("PLAN_SCAN")));
    }

    #[test]
    fn each_branch_is_labelled_with_what_reaches_it() {
        let doc = draw(View::EN, &planner_v1());
        let t = texts(&doc);
        // The first branch takes all its bound says: nothing to add.
        assert!(!t.iter().any(|t| t == "· ≤ 8"), "{t:?}");
        assert!(t.iter().any(|t| t == "· (8, 256]"), "{t:?}");
        let mut m = planner_v1();
        m.branches[1].bound = Some(Bound::le(4.0));
        let t = texts(&draw(View::EN, &m));
        assert!(t.iter().any(|t| t == "(never reached)"), "{t:?}");
    }
}
