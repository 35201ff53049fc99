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
/// The least height of a row: one line of a zone's name and its box.
const ROW_H: f64 = 36.0;
/// Room in the range column besides its label: the indent and the `≠` mark.
const RANGE_ROOM: f64 = 26.0;
/// Room in a zone's cell besides its name: the gap between cells and the box's padding.
const CELL_ROOM: f64 = 12.0;
/// Room beside a map's id in the header.
const HEAD_ROOM: f64 = 6.0;

/// The font of a range label.
const RANGE_FONT: Font = Font::mono(14).bold();
/// The font of a zone's name.
const ZONE_FONT: Font = Font::sans(14).bold();
/// The font of a map's id in the header.
const HEAD_FONT: Font = Font::mono(12).bold();

/// A column's widths: what its widest text needs on one line; what its cells need on one
/// line while its header (a map's id, which breaks after `_`) wraps; and the least it can
/// take without cutting a piece that may not break.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Need {
    pub natural: f64,
    pub body: f64,
    pub least: f64,
}

impl Need {
    /// What the cells of a column need in `font`, plus `room` around them.
    fn cells<'t>(texts: impl IntoIterator<Item = &'t str>, font: Font, room: f64) -> Need {
        texts.into_iter().fold(
            Need {
                natural: room,
                body: room,
                least: room,
            },
            |n, t| {
                let whole = svg::text_width(t, font) + room;
                Need {
                    natural: n.natural.max(whole),
                    body: n.body.max(whole),
                    least: n.least.max(svg::widest_piece(t, font) + room),
                }
            },
        )
    }

    /// What a header needs: on one line at best, wrapped before the cells are.
    fn header(text: &str, font: Font, room: f64) -> Need {
        let least = svg::widest_piece(text, font) + room;
        Need {
            natural: svg::text_width(text, font) + room,
            body: least,
            least,
        }
    }

    /// The wider of two needs (a header and the cells of its column).
    fn max(self, o: Need) -> Need {
        Need {
            natural: self.natural.max(o.natural),
            body: self.body.max(o.body),
            least: self.least.max(o.least),
        }
    }
}

/// The widths of the range column and the maps' columns within `total`, sized to their
/// content. When every text fits on one line, the range column takes what it needs and the
/// maps' columns share the rest, the narrow ones widened first so that the maps line up
/// alike. When not, the headers wrap first, then the cells; each column gets what the
/// first of those steps that fits needs, and the rest goes to the columns that want more,
/// in proportion. Only when even the least is too wide are all shrunk alike (and texts cut).
pub fn widths(range: Need, maps: &[Need], total: f64) -> (f64, Vec<f64>) {
    let all: Vec<Need> = std::iter::once(range).chain(maps.iter().copied()).collect();
    let sum = |f: fn(&Need) -> f64| -> f64 { all.iter().map(f).sum() };
    if sum(|n| n.natural) <= total {
        let left = total - range.natural;
        return (range.natural, level_up(maps, left));
    }
    let widths: Vec<f64> = if sum(|n| n.body) <= total {
        share(&all, |n| n.body, |n| n.natural, total)
    } else if sum(|n| n.least) < total {
        share(&all, |n| n.least, |n| n.body, total)
    } else {
        let least = sum(|n| n.least).max(1.0);
        all.iter().map(|n| n.least * total / least).collect()
    };
    let (first, rest) = widths
        .split_first()
        .map_or((0.0, &[][..]), |(f, r)| (*f, r));
    (first, rest.to_vec())
}

/// Each column its `base` width, and what is left of `total` shared in proportion to how
/// much more each wants to reach `goal`.
fn share(all: &[Need], base: fn(&Need) -> f64, goal: fn(&Need) -> f64, total: f64) -> Vec<f64> {
    let want: Vec<f64> = all.iter().map(|n| (goal(n) - base(n)).max(0.0)).collect();
    let wanted: f64 = want.iter().sum();
    let left = total - all.iter().map(base).sum::<f64>();
    all.iter()
        .zip(&want)
        .map(|(n, w)| {
            let extra = if wanted > 0.0 {
                w * left / wanted
            } else {
                left / all.len() as f64
            };
            base(n) + extra
        })
        .collect()
}

/// The maps' columns filling `total`: each at least its natural width, the narrower raised
/// to one level first, then all widened alike.
fn level_up(maps: &[Need], total: f64) -> Vec<f64> {
    if maps.is_empty() {
        return Vec::new();
    }
    let filled = |level: f64| -> f64 { maps.iter().map(|n| n.natural.max(level)).sum() };
    let (mut lo, mut hi) = (0.0, total);
    // The level at which the columns fill `total`: found by halving, to a tenth of a pixel.
    for _ in 0..40 {
        let mid = (lo + hi) / 2.0;
        if filled(mid) > total {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    maps.iter().map(|n| n.natural.max(lo)).collect()
}

/// Writes `lines` of one text centred (or started) at `x`, the block of lines centred on
/// `mid`; a cut line carries the whole text in its `<title>`.
fn lines_at(
    svg: &mut Svg,
    x: f64,
    mid: f64,
    fitted: &(Vec<String>, bool),
    full: &str,
    style: &TextStyle,
) {
    let (lines, cut) = fitted;
    let lh = style.font.line_height();
    let first = mid - lh * (lines.len() as f64 - 1.0) / 2.0 + 5.0;
    for (i, l) in lines.iter().enumerate() {
        let y = first + lh * i as f64;
        if *cut {
            svg.text_cut(x, y, l, full, style);
        } else {
            svg.text(x, y, l, style);
        }
    }
}

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

/// The column headers: map ids broken after `_` to fit their columns.
fn header(svg: &mut Svg, maps: &[&DispatchMap], var: &str, range_w: f64, cols: &[f64]) -> f64 {
    let fitted: Vec<(Vec<String>, bool)> = maps
        .iter()
        .zip(cols)
        .map(|(m, w)| svg::fit(&m.id.value, w - HEAD_ROOM, HEAD_FONT))
        .collect();
    let rows = fitted.iter().map(|f| f.0.len()).max().unwrap_or(1).max(1);
    let lh = HEAD_FONT.line_height();
    let bottom = PAD + rows as f64 * lh;
    svg.text(
        PAD + 4.0,
        bottom - 6.0,
        var,
        &TextStyle::new(Font::mono(14).bold(), "mu"),
    );
    let mut x = PAD + range_w;
    for ((m, f), w) in maps.iter().zip(&fitted).zip(cols) {
        let first = bottom - f.0.len() as f64 * lh;
        for (j, l) in f.0.iter().enumerate() {
            let y = first + lh * (j as f64 + 1.0) - 6.0;
            let style = TextStyle::new(HEAD_FONT, "").anchor(Anchor::Middle);
            if f.1 {
                svg.text_cut(x + w / 2.0, y, l, &m.id.value, &style);
            } else {
                svg.text(x + w / 2.0, y, l, &style);
            }
        }
        x += w;
    }
    svg.line(PAD, bottom + 2.0, WIDTH - PAD, bottom + 2.0, "axis");
    bottom + 6.0
}

/// One range of the variable and what each map routes it to.
struct Row {
    /// The range, short (`(8, 64]`), as drawn.
    range: String,
    /// The range with the variable named, for the text alternative.
    spoken: Option<String>,
    /// The family of each map, by id.
    zones: Vec<Option<String>>,
    /// Its name, by map.
    names: Vec<Option<String>>,
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
    let rows = rows_of(s, &maps, var);
    let (range_w, cols) = column_widths(&rows, &maps);
    let mut svg = Svg::new();
    let mut y = header(&mut svg, &maps, var, range_w, &cols);
    let mut rows_desc = Vec::new();
    for row in &rows {
        let (row_h, said) = draw_row(&mut svg, s, &maps, row, y, range_w, &cols);
        rows_desc.push(said);
        y += row_h;
    }
    svg.line(PAD, y + 2.0, WIDTH - PAD, y + 2.0, "axis");
    y = legend(&mut svg, s, &maps, y + 10.0);
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

/// One row per range of `var` in which no map changes its zone: the zone of each map there
/// and its family's name.
fn rows_of(s: &Scope, maps: &[&DispatchMap], var: &str) -> Vec<Row> {
    segments(maps)
        .iter()
        .map(|seg| {
            let zones: Vec<Option<String>> = maps
                .iter()
                .map(|m| zone(m, sample(seg)).map(str::to_string))
                .collect();
            Row {
                range: seg
                    .short()
                    .unwrap_or_else(|| super::joined(&ui(s, "dispatch-any"))),
                spoken: seg.text(var),
                names: zones
                    .iter()
                    .map(|z| z.as_ref().map(|f| family_name(s, f)))
                    .collect(),
                zones,
            }
        })
        .collect()
}

/// The width of the range column and of each map's column, from what each must hold.
fn column_widths(rows: &[Row], maps: &[&DispatchMap]) -> (f64, Vec<f64>) {
    let range_need = Need::cells(
        rows.iter().map(|r| r.range.as_str()),
        RANGE_FONT,
        RANGE_ROOM,
    );
    let needs: Vec<Need> = maps
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let names = rows.iter().filter_map(|r| r.names[i].as_deref());
            Need::header(&m.id.value, HEAD_FONT, HEAD_ROOM)
                .max(Need::cells(names, ZONE_FONT, CELL_ROOM))
        })
        .collect();
    widths(range_need, &needs, WIDTH - PAD * 2.0)
}

/// Draws `row` at `y`, marking it and the cells [`marked`] picks when the maps differ: its
/// height, and what a screen reader says of it.
fn draw_row(
    svg: &mut Svg,
    s: &Scope,
    maps: &[&DispatchMap],
    row: &Row,
    y: f64,
    range_w: f64,
    cols: &[f64],
) -> (f64, String) {
    let zones: Vec<Option<&str>> = row.zones.iter().map(Option::as_deref).collect();
    let marks = marked(&zones);
    let differs = marks.iter().any(|m| *m);
    let range = svg::fit(&row.range, range_w - RANGE_ROOM, RANGE_FONT);
    let cells: Vec<(Vec<String>, bool)> = row
        .names
        .iter()
        .zip(cols)
        .map(|(n, w)| svg::fit(n.as_deref().unwrap_or("—"), w - CELL_ROOM, ZONE_FONT))
        .collect();
    let most = cells
        .iter()
        .chain([&range])
        .map(|c| c.0.len())
        .max()
        .unwrap_or(1);
    let row_h = ROW_H.max(most as f64 * ZONE_FONT.line_height() + 12.0);
    let mid = y + row_h / 2.0;
    if differs {
        svg.rect(PAD, y, WIDTH - PAD * 2.0, row_h, 4.0, "rowmark");
    }
    lines_at(
        svg,
        PAD + 4.0,
        mid,
        &range,
        &row.range,
        &TextStyle::new(RANGE_FONT, ""),
    );
    if differs {
        svg.text(
            PAD + range_w - 6.0,
            mid + 6.0,
            "≠",
            &TextStyle::new(Font::sans(18).bold(), "c-warn").anchor(Anchor::End),
        );
    }
    let mut x = PAD + range_w;
    let mut said = Vec::new();
    for (i, ((z, mark), w)) in zones.iter().zip(&marks).zip(cols).enumerate() {
        let (cx, cw, ch) = (x + 3.0, w - 6.0, row_h - 8.0);
        let name = row.names[i].clone();
        match z {
            Some(f) => {
                let hue = family_hue(s, f);
                svg.rect(cx, y + 4.0, cw, ch, 4.0, &hue.tint());
                let full = name.as_deref().unwrap_or(f);
                let class = hue.text();
                let style = TextStyle::new(ZONE_FONT, &class).anchor(Anchor::Middle);
                lines_at(svg, cx + cw / 2.0, mid, &cells[i], full, &style);
            }
            None => svg.text(
                cx + cw / 2.0,
                mid + 5.0,
                "—",
                &TextStyle::new(Font::sans(14), "mu").anchor(Anchor::Middle),
            ),
        }
        if *mark {
            svg.rect(cx, y + 4.0, cw, ch, 4.0, "cellmark");
        }
        said.push(format!(
            "{} {}",
            maps.get(i).map(|m| m.id.value.as_str()).unwrap_or(""),
            name.unwrap_or_else(|| "—".into())
        ));
        x += w;
    }
    let spoken = format!(
        "{}: {}{}",
        row.spoken.clone().unwrap_or_else(|| row.range.clone()),
        said.join(", "),
        if differs { " (≠)" } else { "" }
    );
    (row_h, spoken)
}

/// The legend under the rows from `y`, then each map's id and title: where it ends.
fn legend(svg: &mut Svg, s: &Scope, maps: &[&DispatchMap], y: f64) -> f64 {
    let max = WIDTH - PAD * 2.0;
    let mut y = para(
        svg,
        PAD,
        y,
        &ui(s, "figure-diff-legend"),
        max,
        TextStyle::new(Font::sans(13), "mu"),
    ) + 6.0;
    for m in maps {
        y = para(
            svg,
            PAD,
            y,
            &same(s, m.id.value.clone()),
            max,
            TextStyle::new(Font::mono(13).bold(), ""),
        );
        y = para(
            svg,
            PAD + 12.0,
            y,
            &super::text(s, &m.title),
            max - 12.0,
            TextStyle::new(Font::sans(13), ""),
        ) + 4.0;
    }
    y
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

    /// The fixture with long zone names and decimal bounds, as a site of selectivities
    /// would have them; `long_name` names the bitmap family.
    fn long_labels(long_name: &str) -> Site {
        Site::load(|d| {
            for f in d.families.iter_mut() {
                f.value.label = crate::model::Text::untranslated(match f.value.id.value.as_str() {
                    "index_scan" => "Index Only Scan",
                    "bitmap_scan" => long_name,
                    _ => "Sequential Scan",
                });
            }
            for m in d.maps.iter_mut() {
                let bounds = [Bound::lt(0.0215), Bound::lt(0.0525)];
                for (b, bound) in m.value.branches.iter_mut().zip(bounds) {
                    b.bound = Some(bound);
                }
            }
        })
    }

    /// Every label and zone name is shown whole, wrapped at spaces where its column is
    /// narrow: none is cut while the figure has room (`[0.02, 0…`, `Bitmap Heap …`).
    #[test]
    fn labels_wrap_whole_in_columns_sized_to_them() {
        let site = long_labels("Bitmap Heap Scan");
        let doc = standalone(&diagram(&site.scope(View::EN), &[]), View::EN);
        let t = texts(&doc);
        assert!(!doc.contains('…'), "{t:?}");
        assert!(!doc.contains("<title>"), "nothing is cut: {doc}");
        let all = t.join(" ");
        for want in [
            "[0.0215, 0.0525)",
            "< 0.0215",
            "Bitmap Heap Scan",
            "Index Only Scan",
        ] {
            assert!(all.contains(want), "missing {want} in {t:?}");
        }
        // The names break at spaces, never inside a word.
        assert!(
            t.iter().any(|x| x == "Bitmap" || x == "Bitmap Heap"),
            "{t:?}"
        );
        assert_short_numbers(&doc);
        // The interleaved view, whose names are longer still, cuts none either.
        let bi = standalone(&diagram(&site.scope(View::BILINGUAL), &[]), View::BILINGUAL);
        assert!(!bi.contains('…'), "{:?}", texts(&bi));
    }

    /// A word wider than the whole figure allows is the last resort: cut with `…`, its
    /// whole text in the `<title>` beside it.
    #[test]
    fn a_word_too_wide_for_any_column_is_cut_with_a_title() {
        let long = "Bitmapheapscanwithprefetchandrecheckofeverylossypage";
        let site = long_labels(long);
        let doc = standalone(&diagram(&site.scope(View::EN), &[]), View::EN);
        assert!(doc.contains(&format!("<title>{long}</title>")), "{doc}");
        assert!(texts(&doc).iter().any(|x| x.ends_with('…')), "{doc}");
        assert!(!texts(&doc).iter().any(|x| x == long));
    }

    #[test]
    fn columns_take_what_their_texts_need() {
        let need = |natural, least| Need {
            natural,
            body: natural,
            least,
        };
        // Room for all: the range column as it needs, the maps raised to one width.
        let (r, cols) = widths(
            need(80.0, 50.0),
            &[need(60.0, 40.0), need(120.0, 60.0)],
            376.0,
        );
        assert_eq!(r, 80.0);
        assert!(
            (cols[0] - 148.0).abs() < 0.1 && (cols[1] - 148.0).abs() < 0.1,
            "{cols:?}"
        );
        let (_, cols) = widths(
            need(80.0, 50.0),
            &[need(60.0, 40.0), need(230.0, 60.0)],
            376.0,
        );
        assert!(
            (cols[0] - 66.0).abs() < 0.1 && (cols[1] - 230.0).abs() < 0.1,
            "{cols:?}"
        );
        // Too wide: each at least its unbreakable piece, the rest where texts are long.
        let (r, cols) = widths(
            need(100.0, 60.0),
            &[need(300.0, 80.0), need(300.0, 80.0)],
            376.0,
        );
        assert!(r >= 60.0 && cols.iter().all(|c| *c >= 80.0), "{r} {cols:?}");
        assert!((r + cols.iter().sum::<f64>() - 376.0).abs() < 0.1);
        // Long map ids wrap before a range label does: the range keeps one line.
        let id = Need {
            natural: 150.0,
            body: 80.0,
            least: 80.0,
        };
        let (r, cols) = widths(need(104.0, 61.0), &[id, id, id], 376.0);
        assert!(r >= 104.0, "{r} {cols:?}");
        assert!(cols.iter().all(|c| *c >= 80.0 && *c < 150.0), "{cols:?}");
        // Not even that: all shrink alike.
        let (r, cols) = widths(need(200.0, 200.0), &[need(300.0, 300.0)], 250.0);
        assert!((r - 100.0).abs() < 0.1 && (cols[0] - 150.0).abs() < 0.1);
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
