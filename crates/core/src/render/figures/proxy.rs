//! Phase-proxy plot: the cases of one run as points on a log axis of what they measured
//! the map's variable as (`DispatchMap::measured_as`), one row per case, over the zone bands of the dispatch map the run was assessed
//! against (bands from [`crate::derive::reach`], zones from [`crate::derive::zone`]).
//! Each point is labelled with its case id and value.

use super::plot;
use super::scale::{Frame, Linear, Log};
use super::svg::{self, Anchor, Font, Svg, TextStyle};
use super::{Content, Drawn, Words, family_hue, family_name, files, fit_lines, ui, ui_args};
use crate::derive::zone;
use crate::model::Located;
use crate::model::{DispatchMap, Edge, Run, Text};
use crate::render::scope::Scope;

const WIDTH: u32 = 400;
const LEFT: u32 = 16;
const RIGHT: u32 = 16;
const TOP: u32 = 52;
const ROW: u32 = 36;
/// Lowest value on an axis of counts: just left of 1, so a count of 1 is not on the edge.
const LO: f64 = 0.7;

/// One zone band of the map on the axis.
struct Band {
    x0: f64,
    x1: f64,
    hue: crate::render::palette::Hue,
    name: String,
    range: String,
}

/// The bands of the map's branches between `lo` and `hi` on the axis. On an axis of
/// whole numbers (`whole`) an edge sits half-way between two of them, so that a point on
/// an inclusive edge is inside its band rather than on the line.
fn bands(s: &Scope, map: &DispatchMap, (lo, hi): (f64, f64), whole: bool) -> Vec<Band> {
    // `le 8`, `gt 8`: 8.5; `lt 9`, `ge 9`: 8.5.
    let at = |e: Edge, lower: bool| match (whole, e.inclusive == lower) {
        (false, _) => e.value,
        (true, true) => e.value - 0.5,
        (true, false) => e.value + 0.5,
    };
    map.branches
        .iter()
        .zip(crate::derive::reach(map))
        .flat_map(|(b, reach)| {
            reach.into_iter().filter_map(move |r| {
                let x0 = r.lower.map_or(lo, |e| at(e, true)).max(lo);
                let x1 = r.upper.map_or(hi, |e| at(e, false)).min(hi);
                (x1 > x0).then(|| Band {
                    x0,
                    x1,
                    hue: family_hue(s, &b.family.value),
                    name: family_name(s, &b.family.value),
                    range: r.short().unwrap_or_default(),
                })
            })
        })
        .collect()
}

/// Pixel positions of the shapes, for the labels drawn after them.
struct Placed {
    axis_y: i32,
    ticks: Vec<(f64, i32)>,
    bands: Vec<(i32, i32)>,
    points: Vec<(i32, i32)>,
}

/// The plot of one run.
pub fn plot(s: &Scope, run: &Located<Run>, file: &str, name: &str) -> Drawn {
    let (map, title) = placing_map(s, run);
    let mut sources = vec![file.to_string()];
    sources.extend(map.map(|m| m.file.to_string()));
    let map: Option<&DispatchMap> = map.map(|m| &**m);
    let points = placed_cases(map, run);
    let mut out = Drawn {
        name: name.to_string(),
        kind: "proxy-plot",
        title,
        sources: files(sources),
        content: Content::Note(ui(s, "figure-no-data")),
    };
    if points.is_empty() {
        return out;
    }
    let zone_of = |v: f64| map.and_then(|m| zone(m, v));
    let (lo, hi, whole) = log_range(map, &points);
    let bands = map
        .map(|m| bands(s, m, (lo, hi), whole))
        .unwrap_or_default();
    let axis_font = Font::sans(14);
    let axis = axis_title(s, map);
    let axis_lines = fit_lines(&axis, f64::from(WIDTH) - 32.0, axis_font);
    let n = points.len();
    let bottom = 34 + (axis_lines.len() as f64 * axis_font.line_height()) as u32 + 8;
    let rows_h = u32::try_from(n).unwrap_or(u32::MAX).saturating_mul(ROW);
    let height = TOP.saturating_add(rows_h).saturating_add(bottom);
    let rows = n as f64;
    let ticks = plot::decades(lo, hi);
    let frame = Frame::new((WIDTH, height), LEFT, RIGHT, TOP, bottom);
    let (x, y) = (Log::new(lo, hi, frame.x), Linear::new(0.0, rows, frame.y));
    let (y0, y1) = (y.px(0.0), y.px(rows));
    let placed = Placed {
        axis_y: y0,
        ticks: ticks.iter().map(|&t| (t, x.px(t))).collect(),
        bands: bands.iter().map(|b| (x.px(b.x0), x.px(b.x1))).collect(),
        points: points
            .iter()
            .enumerate()
            .map(|(i, (_, v))| (x.px(v.max(lo)), y.px(rows - i as f64 - 0.5)))
            .collect(),
    };
    let mut svg = Svg::new();
    for (b, (x0, x1)) in bands.iter().zip(&placed.bands) {
        plot::bar(&mut svg, (*x0, y0), (*x1, y1), &b.hue.tint());
    }
    for (_, tx) in &placed.ticks {
        plot::line(&mut svg, &[(*tx, y0), (*tx, y1)], 1, "s-grid");
    }
    for (bx, _) in placed.bands.iter().skip(1) {
        plot::line(&mut svg, &[(*bx, y0), (*bx, y1)], 1, "s-axis");
    }
    plot::line(&mut svg, &[(x.px(lo), y0), (x.px(hi), y0)], 1, "s-axis");
    for &p in &placed.points {
        plot::dot(&mut svg, p, 8, "f-bg");
    }
    for ((_, v), &p) in points.iter().zip(&placed.points) {
        let class = match zone_of(*v) {
            Some(f) => family_hue(s, f).fill(),
            None => "f-fg".to_string(),
        };
        plot::dot(&mut svg, p, 6, &class);
    }
    labels(&mut svg, &bands, &points, &placed, s.numerals());
    let axis_top = f64::from(placed.axis_y) + 26.0;
    super::draw_lines(
        &mut svg,
        f64::from(WIDTH) / 2.0,
        axis_top,
        &axis_lines,
        TextStyle::new(axis_font, "").anchor(Anchor::Middle),
        axis_lines.len() > 1,
    );
    let desc = description(s, run, map, &out.title, &points);
    out.content = Content::Svg {
        width: f64::from(WIDTH),
        height: f64::from(height),
        body: svg.finish(),
        desc,
    };
    out
}

/// The map a run's cases are placed on — the one it was assessed against, else the one
/// the run before it of the same probe was (said in the title) — and the title.
fn placing_map<'e>(s: &Scope<'e>, run: &Located<Run>) -> (Option<&'e Located<DispatchMap>>, Words) {
    let own = run
        .assessed_against
        .as_ref()
        .and_then(|m| s.ev.maps.get(&m.value));
    // A run assessed against no map (a new probe run) is placed on the map the run
    // before it of the same probe was assessed against, and the title says so.
    let previous = own.is_none().then(|| {
        let prev = s.derived.comparable_previous(s.ev, run)?;
        let m = prev.assessed_against.as_ref()?;
        Some((prev, s.ev.maps.get(&m.value)?))
    });
    let map = own.or(previous.flatten().map(|(_, m)| m));
    let title = match (own, previous.flatten()) {
        // A map is named by its title, which a reader knows it by.
        (Some(m), _) => super::ui_texts(
            s,
            "figure-proxy-title",
            &[
                ("run", Text::untranslated(&run.id.value)),
                ("map", m.title.clone()),
            ],
        ),
        (None, Some((prev, m))) => super::ui_texts(
            s,
            "figure-proxy-title-previous",
            &[
                ("run", Text::untranslated(&run.id.value)),
                ("map", m.title.clone()),
                ("previous", Text::untranslated(&prev.id.value)),
            ],
        ),
        (None, None) => ui_args(
            s,
            "figure-proxy-title-nomap",
            &[("run", run.id.value.clone())],
        ),
    };
    (map, title)
}

/// Each case of `run` at what it measured the map's variable as; with no map, nothing
/// places it.
fn placed_cases<'r>(map: Option<&DispatchMap>, run: &'r Located<Run>) -> Vec<(&'r str, f64)> {
    map.into_iter()
        .flat_map(|m| {
            run.cases.iter().filter_map(move |c| {
                let v = c.measurement(m.measured_as())?;
                // A log axis has no place below zero; zero sits at its left end.
                (v >= 0.0 && v.is_finite()).then_some((c.id.value.as_str(), v))
            })
        })
        .collect()
}

/// The log axis's ends around the cases and the map's bounds, and whether every value
/// is whole (counts, which the bands then name as integers).
fn log_range(map: Option<&DispatchMap>, points: &[(&str, f64)]) -> (f64, f64, bool) {
    let edges: Vec<f64> = map
        .into_iter()
        .flat_map(|m| m.branches.iter())
        .filter_map(|b| b.bound)
        .flat_map(|b| b.edges().collect::<Vec<_>>())
        .collect();
    let whole = points
        .iter()
        .map(|p| p.1)
        .chain(edges.iter().copied())
        .all(|v| v.fract() == 0.0);
    let max_v = points.iter().map(|p| p.1).fold(1.0, f64::max);
    let last_cut = edges.iter().copied().fold(1.0, f64::max);
    let hi = plot::decade_above(max_v.max(last_cut + 1.0) * 2.0);
    // Just left of the least value: 0.7 for counts, so that 1 is not on the edge.
    let least = points
        .iter()
        .map(|p| p.1)
        .chain(edges.iter().copied())
        .filter(|v| *v > 0.0)
        .fold(1.0, f64::min);
    let lo = if least >= 1.0 {
        LO
    } else {
        plot::decade_below(least) * LO
    };
    (lo, hi, whole)
}

/// The axis title: the measurement the cases are placed by, by its label when the site
/// or a pack labels it (with the map's variable it stands in for, when the map measures
/// one by another), else the theme's (or the site's) general words.
fn axis_title(s: &Scope, map: Option<&DispatchMap>) -> Words {
    let label = map.and_then(|m| {
        let label = crate::render::tables::vocabulary::measurement_text(s, m.measured_as())?;
        Some(match &m.measure {
            Some(by) if *by != m.variable => label.map(|_, t| format!("{t} ≈ {}", m.variable)),
            _ => label,
        })
    });
    match label {
        Some(label) => super::ui_texts(s, "figure-axis-log", &[("label", label)]),
        None => ui(s, "figure-proxy-axis"),
    }
}

/// The text alternative, in each language of the title: each case's value with its unit
/// and the zone it falls in, marked where its own reading leaves the route open.
fn description(
    s: &Scope,
    run: &Located<Run>,
    map: Option<&DispatchMap>,
    title: &Words,
    points: &[(&str, f64)],
) -> Words {
    let zone_of = |v: f64| map.and_then(|m| zone(m, v));
    // Where a case's own reading leaves its route open, the map's zone is not the last
    // word, and the description says so.
    let open: std::collections::HashSet<&str> = run
        .cases
        .iter()
        .filter(|c| s.ev.reading_leaves_open(run, c))
        .map(|c| c.id.value.as_str())
        .collect();
    let open_note = s.msgs.text("figure-proxy-open");
    let variable = map.map_or("", |m| m.measured_as());
    title
        .iter()
        .map(|(l, t)| {
            // Raw values: a duration without a declared unit is in nanoseconds.
            let unit = super::declared_unit(s, variable, *l)
                .or_else(|| crate::model::fields::is_duration(variable).then(|| "ns".into()));
            let items: Vec<String> = points
                .iter()
                .map(|(id, v)| {
                    let note = if open.contains(id) {
                        format!(" ({})", l.pick(&open_note))
                    } else {
                        String::new()
                    };
                    let v_text = super::with_unit(s.numerals().number(*v), unit.as_deref());
                    match zone_of(*v) {
                        Some(f) => format!("{id} {v_text} → {}{note}", family_name(s, f)),
                        None => format!("{id} {v_text}{note}"),
                    }
                })
                .collect();
            (*l, format!("{t}: {}", items.join("; ")))
        })
        .collect()
}

/// Band names, tick labels and point labels.
fn labels(
    svg: &mut Svg,
    bands: &[Band],
    points: &[(&str, f64)],
    p: &Placed,
    nums: &crate::model::numerals::Numerals,
) {
    for (b, (x0, x1)) in bands.iter().zip(&p.bands) {
        let (x0, x1) = (f64::from(*x0), f64::from(*x1));
        let w = x1 - x0 - 4.0;
        let cx = (x0 + x1) / 2.0;
        let nf = Font::sans(15).bold();
        svg.text(
            cx,
            f64::from(TOP) - 26.0,
            &svg::ellipsize(&b.name, w, nf),
            &TextStyle::new(nf, &b.hue.text()).anchor(Anchor::Middle),
        );
        let rf = Font::sans(14);
        svg.text(
            cx,
            f64::from(TOP) - 9.0,
            &svg::ellipsize(&b.range, w, rf),
            &TextStyle::new(rf, "mu").anchor(Anchor::Middle),
        );
    }
    let ay = f64::from(p.axis_y);
    plot::x_ticks(svg, &p.ticks, ay, f64::from(WIDTH), plot::count_label);
    let font = Font::mono(14);
    for ((id, v), (x, y)) in points.iter().zip(&p.points) {
        let (x, y) = (f64::from(*x), f64::from(*y));
        let text = format!("{id} · {}", nums.number(*v));
        let w = svg::text_width(&text, font);
        let (tx, anchor) = if x + 12.0 + w <= f64::from(WIDTH - RIGHT) {
            (x + 12.0, Anchor::Start)
        } else {
            (x - 12.0, Anchor::End)
        };
        svg.text(tx, y + 4.5, &text, &TextStyle::new(font, "").anchor(anchor));
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use super::*;
    use crate::model::view::View;

    fn draw(view: View, run: &str) -> String {
        let s = scope(view);
        let r = s.ev.runs.get(run).expect("run");
        standalone(&plot(&s, r, &r.file, "proxy-test"), view)
    }

    #[test]
    fn cases_bands_and_axis() {
        let doc = draw(View::EN, "scan-sample");
        let t = texts(&doc);
        for want in [
            "lookup · 3",
            "range · 11",
            "report · 290",
            "lookup_batch · 3",
            "Index",
            "Bitmap",
            "Seq",
            "≤ 8",
            "(8, 256]",
            "> 256",
            "100",
        ] {
            assert!(t.iter().any(|x| x == want), "missing {want} in {t:?}");
        }
        assert!(doc.contains("f-t0"), "Index band drawn");
        assert_short_numbers(&doc);
    }

    #[test]
    fn bilingual_axis_title() {
        let doc = draw(View::BILINGUAL, "proxy-check");
        let t = texts(&doc).join("\n");
        assert!(t.contains("est_7 · 7"));
        // The axis title in both languages, in the site's own words (its locales/), each
        // tagged with its language.
        assert!(t.contains("estimated rows"), "{t}");
        assert!(t.contains("推定行数"), "{t}");
        assert!(doc.contains("xml:lang=\"en\""));
    }

    /// The text alternative gives each case's value with the unit the site declares for
    /// the map's variable, in each language of the view.
    #[test]
    fn the_text_alternative_gives_the_unit() {
        let bare = draw(View::BILINGUAL, "scan-sample");
        assert!(bare.contains("lookup 3 → "), "{bare}");
        let site = Site::load(|d| {
            for m in d.measurements.iter_mut() {
                if m.value.id.value == "est_rows" {
                    m.value.unit = Some(Text::new([
                        (crate::model::page::Lang::JA, "行".to_string()),
                        (crate::model::page::Lang::EN, "rows".to_string()),
                    ]));
                }
            }
        });
        let s = site.scope(View::BILINGUAL);
        let r = s.ev.runs.get("scan-sample").expect("run");
        let doc = standalone(&plot(&s, r, &r.file, "proxy-test"), View::BILINGUAL);
        assert!(doc.contains("lookup 3 rows → "), "{doc}");
        assert!(doc.contains("lookup 3 行 → "), "{doc}");
    }

    #[test]
    fn renders_are_identical() {
        assert_eq!(draw(View::JA, "scan-sample"), draw(View::JA, "scan-sample"));
    }

    #[test]
    fn a_changed_threshold_moves_the_bands() {
        let site = Site::load(|d| {
            for m in d.maps.iter_mut() {
                if m.value.id.value == "planner_v1" {
                    m.value.branches[1].bound = Some(crate::model::Bound::le(64.0));
                }
            }
        });
        let s = site.scope(View::EN);
        let r = s.ev.runs.get("scan-sample").expect("run");
        let after = standalone(&plot(&s, r, &r.file, "proxy-test"), View::EN);
        let before = draw(View::EN, "scan-sample");
        assert_ne!(before, after);
        assert!(texts(&after).iter().any(|t| t == "(8, 64]"));
    }

    #[test]
    fn a_run_with_no_map_is_placed_on_the_map_of_the_run_before_it() {
        let site = Site::load(|d| {
            let mut next = d
                .runs
                .iter()
                .find(|r| r.value.id.value == "scan-sample")
                .expect("run")
                .clone();
            next.value.id = crate::model::Id::unplaced("scan-next");
            next.value.date = Some(crate::model::Id::unplaced("2026-01-21"));
            next.value.assessed_against = None;
            d.runs.push(next);
        });
        let s = site.scope(View::EN);
        let r = s.ev.runs.get("scan-next").expect("run");
        let doc = standalone(&plot(&s, r, &r.file, "p"), View::EN);
        assert!(
            doc.contains(
                "over the zones of the map “Scan branches as read in v1”, which run scan-sample before it was assessed against"
            ),
            "{doc}"
        );
        assert!(doc.contains("<rect"), "zones are shaded");
    }

    #[test]
    fn a_map_measured_by_another_measurement_names_both_on_the_axis() {
        let site = Site::load(|d| {
            for m in d.maps.iter_mut() {
                m.value.variable = "selectivity".into();
                m.value.measure = Some("est_rows".into());
            }
        });
        let s = site.scope(View::EN);
        let r = s.ev.runs.get("scan-sample").expect("run");
        let t = texts(&standalone(&plot(&s, r, &r.file, "p"), View::EN)).join(" ");
        assert!(t.contains("estimated rows ≈ selectivity"), "{t}");
    }

    #[test]
    fn decimal_bounds_and_values_get_a_decimal_axis() {
        let site = Site::load(|d| {
            for m in d.maps.iter_mut() {
                if m.value.id.value == "planner_v1" {
                    m.value.branches[0].bound = Some(crate::model::Bound::lt(0.05));
                    m.value.branches[1].bound = Some(crate::model::Bound::le(0.2));
                }
            }
            for r in d.runs.iter_mut() {
                if r.value.id.value == "scan-sample" {
                    for (c, v) in r.value.cases.iter_mut().zip([0.01, 0.1, 0.5]) {
                        c.measurements = [("est_rows".to_string(), v)].into_iter().collect();
                    }
                }
            }
        });
        let s = site.scope(View::EN);
        let r = s.ev.runs.get("scan-sample").expect("run");
        let t = texts(&standalone(&plot(&s, r, &r.file, "p"), View::EN));
        for want in [
            "lookup · 0.01",
            "range · 0.1",
            "report · 0.5",
            "< 0.05",
            "> 0.2",
        ] {
            assert!(t.iter().any(|x| x == want), "missing {want} in {t:?}");
        }
        // A narrow band's range is shortened to fit.
        assert!(t.iter().any(|x| x.starts_with("[0.05, 0")), "{t:?}");
        // Ticks reach below one.
        assert!(t.iter().any(|x| x == "0.01"), "{t:?}");
    }

    #[test]
    fn huge_zero_and_missing_values_do_not_panic() {
        let site = Site::load(|d| {
            for r in d.runs.iter_mut() {
                if r.value.id.value == "scan-sample" {
                    let rows = |v: Option<f64>| v.map(|v| ("est_rows".to_string(), v));
                    r.value.cases[0].measurements = rows(Some(0.0)).into_iter().collect();
                    r.value.cases[1].measurements =
                        rows(Some(u64::MAX as f64)).into_iter().collect();
                    r.value.cases[2].measurements = rows(None).into_iter().collect();
                }
                if r.value.id.value == "proxy-check" {
                    r.value.cases.clear();
                }
            }
        });
        let s = site.scope(View::EN);
        let r = s.ev.runs.get("scan-sample").expect("run");
        let doc = standalone(&plot(&s, r, &r.file, "p"), View::EN);
        assert!(texts(&doc).iter().any(|t| t == "lookup · 0"));
        let empty = s.ev.runs.get("proxy-check").expect("run");
        assert!(matches!(
            plot(&s, empty, &empty.file, "p").content,
            Content::Note(_)
        ));
    }
}
