//! Where dispatch maps differ: the ranges of the variable over which every map routes one
//! way as rows, the maps as columns, each cell the family of that range under that
//! map. Rows where the maps disagree are shaded and marked `≠`; the cells that differ from
//! the others (from the majority, or every cell when there is none) are outlined.

use super::svg::{self, Anchor, Font, Svg, TextStyle};
use super::{Content, Drawn, Words, family_hue, family_name, files, para, same, ui};
use crate::derive::{sample, segments, zone};
use crate::model::DispatchMap;
use crate::render::scope::Scope;

const WIDTH: f64 = 400.0;
const PAD: f64 = 12.0;
const RANGE_W: f64 = 104.0;
const ROW_H: f64 = 36.0;

/// Which cells of a row to outline: those that differ from a unique majority, or every
/// cell when no value has a unique majority. Nothing when all agree.
pub fn marked(zones: &[Option<&str>]) -> Vec<bool> {
    if zones.windows(2).all(|w| w[0] == w[1]) {
        return vec![false; zones.len()];
    }
    let count = |z: &Option<&str>| zones.iter().filter(|x| *x == z).count();
    let best = zones.iter().map(count).max().unwrap_or(0);
    let leaders: Vec<&Option<&str>> = zones.iter().filter(|z| count(z) == best).collect();
    let unique = leaders.windows(2).all(|w| w[0] == w[1]);
    match leaders.first() {
        Some(major) if unique && best > 1 => zones.iter().map(|z| z != *major).collect(),
        _ => vec![true; zones.len()],
    }
}

/// The column headers: map ids broken after `_` to fit the column.
fn header(svg: &mut Svg, maps: &[&DispatchMap], var: &str, col_w: f64) -> f64 {
    let font = Font::mono(12).bold();
    let lines: Vec<Vec<String>> = maps
        .iter()
        .map(|m| svg::wrap(&m.id.value, col_w - 6.0, font))
        .collect();
    let rows = lines.iter().map(Vec::len).max().unwrap_or(1).max(1);
    let lh = font.line_height();
    let bottom = PAD + rows as f64 * lh;
    svg.text(
        PAD + 4.0,
        bottom - 6.0,
        var,
        &TextStyle::new(Font::mono(14).bold(), "mu"),
    );
    for (i, ls) in lines.iter().enumerate() {
        let cx = PAD + RANGE_W + col_w * (i as f64 + 0.5);
        let first = bottom - ls.len() as f64 * lh;
        for (j, l) in ls.iter().enumerate() {
            svg.text(
                cx,
                first + lh * (j as f64 + 1.0) - 6.0,
                l,
                &TextStyle::new(font, "").anchor(Anchor::Middle),
            );
        }
    }
    svg.line(PAD, bottom + 2.0, WIDTH - PAD, bottom + 2.0, "axis");
    bottom + 6.0
}

/// The diagram of the named maps (all maps when `ids` is empty).
pub fn diagram(s: &Scope, ids: &[String]) -> Drawn {
    let maps: Vec<&DispatchMap> = if ids.is_empty() {
        s.ev.maps.iter().map(|m| &m.value).collect()
    } else {
        ids.iter()
            .filter_map(|i| s.ev.maps.get(i))
            .map(|m| &m.value)
            .collect()
    };
    let var = maps.first().map_or("", |m| m.variable.as_str());
    let n = maps.len().max(1) as f64;
    let col_w = (WIDTH - PAD * 2.0 - RANGE_W) / n;
    let mut svg = Svg::new();
    let mut y = header(&mut svg, &maps, var, col_w);
    let mut rows_desc = Vec::new();
    for seg in segments(&maps) {
        let zones: Vec<Option<&str>> = maps.iter().map(|m| zone(m, sample(&seg))).collect();
        let marks = marked(&zones);
        let differs = marks.iter().any(|m| *m);
        if differs {
            svg.rect(PAD, y, WIDTH - PAD * 2.0, ROW_H, 4.0, "rowmark");
        }
        let range = seg
            .short()
            .unwrap_or_else(|| super::joined(&ui(s, "dispatch-any")));
        let rfont = Font::mono(14).bold();
        let label = svg::ellipsize(&range, RANGE_W - 24.0, rfont);
        svg.text(
            PAD + 4.0,
            y + ROW_H / 2.0 + 5.0,
            &label,
            &TextStyle::new(rfont, ""),
        );
        if differs {
            svg.text(
                PAD + RANGE_W - 6.0,
                y + ROW_H / 2.0 + 6.0,
                "≠",
                &TextStyle::new(Font::sans(18).bold(), "c-warn").anchor(Anchor::End),
            );
        }
        let mut cells = Vec::new();
        for (i, (z, mark)) in zones.iter().zip(&marks).enumerate() {
            let x = PAD + RANGE_W + col_w * i as f64 + 3.0;
            let (cw, ch) = (col_w - 6.0, ROW_H - 8.0);
            let name = z.map(|f| family_name(s, f));
            match z {
                Some(f) => {
                    let hue = family_hue(s, f);
                    svg.rect(x, y + 4.0, cw, ch, 4.0, &format!("f-t{hue}"));
                    let font = Font::sans(14).bold();
                    let text = svg::ellipsize(name.as_deref().unwrap_or(f), cw - 6.0, font);
                    svg.text(
                        x + cw / 2.0,
                        y + ROW_H / 2.0 + 5.0,
                        &text,
                        &TextStyle::new(font, &format!("c-h{hue}")).anchor(Anchor::Middle),
                    );
                }
                None => svg.text(
                    x + cw / 2.0,
                    y + ROW_H / 2.0 + 5.0,
                    "—",
                    &TextStyle::new(Font::sans(14), "mu").anchor(Anchor::Middle),
                ),
            }
            if *mark {
                svg.rect(x, y + 4.0, cw, ch, 4.0, "cellmark");
            }
            cells.push(format!(
                "{} {}",
                maps.get(i).map(|m| m.id.value.as_str()).unwrap_or(""),
                name.unwrap_or_else(|| "—".into())
            ));
        }
        rows_desc.push(format!(
            "{}: {}{}",
            seg.text(var).unwrap_or_else(|| range.clone()),
            cells.join(", "),
            if differs { " (≠)" } else { "" }
        ));
        y += ROW_H;
    }
    svg.line(PAD, y + 2.0, WIDTH - PAD, y + 2.0, "axis");
    y += 10.0;
    let max = WIDTH - PAD * 2.0;
    y = para(
        &mut svg,
        PAD,
        y,
        &ui(s, "figure-diff-legend"),
        max,
        TextStyle::new(Font::sans(13), "mu"),
    ) + 6.0;
    for m in &maps {
        y = para(
            &mut svg,
            PAD,
            y,
            &same(s, m.id.value.clone()),
            max,
            TextStyle::new(Font::mono(13).bold(), ""),
        );
        y = para(
            &mut svg,
            PAD + 12.0,
            y,
            &super::text(s, &m.title),
            max - 12.0,
            TextStyle::new(Font::sans(13), ""),
        ) + 4.0;
    }
    let title = ui(s, "figure-diff-title");
    let desc: Words = title
        .iter()
        .map(|(l, t)| (*l, format!("{t}: {}", rows_desc.join("; "))))
        .collect();
    let mut sources: Vec<String> = maps
        .iter()
        .filter_map(|m| s.ev.maps.get(&m.id.value))
        .map(|m| m.file.to_string())
        .collect();
    sources.extend(s.ev.families.iter().take(1).map(|f| f.file.to_string()));
    let name = if ids.is_empty() {
        "dispatch-diff".to_string()
    } else {
        super::slug(&format!("dispatch-diff-{}", ids.join("-")))
    };
    Drawn {
        name,
        kind: "dispatch-diff-diagram",
        title,
        sources: files(sources),
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
    use crate::model::Bound;
    use crate::model::view::View;

    fn draw(view: View) -> String {
        let s = scope(view);
        standalone(&diagram(&s, &[]), view)
    }

    #[test]
    fn rows_columns_and_marks() {
        let doc = draw(View::EN);
        let t = texts(&doc);
        for want in [
            "≤ 8",
            "(8, 64)",
            "[64, 256]",
            "> 256",
            "≠",
            "Index",
            "Bitmap",
            "Seq",
            "planner_v1",
            "planner_v2",
            "planner_v3",
            "est_rows",
        ] {
            assert!(t.iter().any(|x| x == want), "missing {want} in {t:?}");
        }
        // A row: its range, `≠` when the maps differ, then a cell per map (v1, v2, v3).
        let row = |range: &str| -> Vec<&str> {
            let at = t.iter().position(|x| x == range).expect(range);
            t[at + 1..at + 5].iter().map(String::as_str).collect()
        };
        assert_eq!(row("(8, 64)"), ["Bitmap", "Bitmap", "Bitmap", "[64, 256]"]);
        assert_eq!(row("[64, 256]"), ["≠", "Bitmap", "Seq", "Bitmap"]);
        assert_eq!(row("> 256"), ["≠", "Seq", "Seq", "Bitmap"]);
        // Two ranges differ ([64, 256]: v2 picks Seq; > 256: v3 picks Bitmap), each with one
        // odd cell out.
        assert_eq!(doc.matches("class=\"rowmark\"").count(), 2);
        assert_eq!(doc.matches("class=\"cellmark\"").count(), 2);
        assert_short_numbers(&doc);
    }

    #[test]
    fn renders_are_identical() {
        assert_eq!(draw(View::BILINGUAL), draw(View::BILINGUAL));
    }

    #[test]
    fn a_changed_threshold_changes_the_rows() {
        let s = scope(View::EN);
        let a = s.ev.maps.get("planner_v1").expect("map").value.clone();
        let mut b = a.clone();
        b.branches[1].bound = Some(Bound::le(128.0));
        assert_ne!(segments(&[&a]), segments(&[&b]));
        assert_eq!(segments(&[&b])[1].short().as_deref(), Some("(8, 128]"));
    }

    #[test]
    fn majority_marks() {
        assert_eq!(
            marked(&[Some("bitmap_scan"), Some("seq_scan"), Some("bitmap_scan")]),
            vec![false, true, false]
        );
        assert_eq!(marked(&[Some("a"), Some("b")]), vec![true, true]);
        assert_eq!(marked(&[Some("a"), Some("a")]), vec![false, false]);
        assert_eq!(marked(&[]), Vec::<bool>::new());
    }

    #[test]
    fn huge_bounds_do_not_overflow() {
        let s = scope(View::EN);
        let mut m = s.ev.maps.get("planner_v1").expect("map").value.clone();
        m.branches[0].bound = Some(Bound::le(f64::MAX));
        m.branches[1].bound = Some(Bound::lt(-f64::MAX));
        let segs: Vec<f64> = segments(&[&m]).iter().map(sample).collect();
        assert!(segs.iter().all(|v| v.is_finite()), "{segs:?}");
        assert_eq!(zone(&m, segs[0]), Some(m.branches[0].family.value.as_str()));
        draw(View::EN);
    }
}
