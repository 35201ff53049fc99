//! History plot: one value of one case across the runs of a probe, oldest run first, as
//! points joined by a line on a linear axis from zero. Drawn once at least two runs record
//! the case; before that the directive shows a short "needs two dated runs" note.

use super::plot;
use super::scale::{Frame, Linear};
use super::svg::{self, Anchor, Font, Svg, TextStyle};
use super::{Content, Drawn, files, ui_texts};
use crate::model::Run;
use crate::model::Text;
use crate::render::scope::Scope;

const WIDTH: u32 = 400;
const LEFT: u32 = 64;
const RIGHT: u32 = 24;
const TOP: u32 = 40;
const PLOT_H: u32 = 200;

/// The dated runs of `probe` (oldest first) that record `case`, with the field's value:
/// the median of its repetitions (`case-r1` … `case-rN`) in a run that repeated it. A run
/// without a date has no place on a line through time, so it is no point of it. One line
/// is one engine's: when runs of several engines record the case, the engine of the
/// latest of them.
pub fn series<'e>(s: &Scope<'e>, probe: &str, case: &str, field: &str) -> Vec<(&'e Run, f64)> {
    let all: Vec<(&'e Run, f64)> = s
        .derived
        .runs_by_probe
        .get(probe)
        .into_iter()
        .flatten()
        .filter_map(|id| s.ev.runs.get(id))
        .filter(|r| r.date.is_some())
        .filter_map(|r| {
            let v = s.derived.summaries(r).get(case)?.measurement(field)?;
            Some((&r.value, v))
        })
        .collect();
    let Some(engine) = all.last().map(|(r, _)| r.engine().cloned()) else {
        return all;
    };
    all.into_iter()
        .filter(|(r, _)| r.engine().map(|e| &e.value) == engine.as_ref().map(|e| &e.value))
        .collect()
}

/// A value in the axis unit: seconds for durations, the count otherwise.
fn scaled(field: &str, v: f64) -> f64 {
    if is_duration(field) { v / 1e9 } else { v }
}

/// Whether a measurement is a duration in nanoseconds, as its name says (`…_ns`).
fn is_duration(field: &str) -> bool {
    crate::model::fields::is_duration(field)
}

/// A point's value as the view's language writes it.
fn value_label(s: &Scope, field: &str, v: f64) -> String {
    let nums = s.numerals();
    let whole = (v >= 0.0 && v.fract() == 0.0 && v < 9.0e15).then_some(v as u64);
    match whole {
        Some(n) if is_duration(field) => nums.seconds(n),
        Some(n) => nums.digits(n),
        None => nums.number(v),
    }
}

/// The plot, or the note when fewer than two runs record the case.
pub fn plot(s: &Scope, probe: &str, case: &str, field: &str) -> Drawn {
    let points = series(s, probe, case, field);
    let same = Text::untranslated;
    let args = [
        ("probe", same(probe)),
        ("case", same(case)),
        ("field", super::measurement_label(s, field)),
        ("count", same(&points.len().to_string())),
    ];
    // The files of the runs drawn (one engine's, repetitions included).
    let sources: Vec<String> = points
        .iter()
        .filter_map(|(r, _)| s.ev.runs.get(&r.id.value))
        .map(|r| r.file.to_string())
        .collect();
    let out = Drawn {
        name: super::slug(&format!("history-{probe}-{case}-{field}")),
        kind: "history-plot",
        title: ui_texts(s, "figure-history-title", &args),
        sources: files(sources),
        content: Content::Note(ui_texts(s, "figure-history-needs-two-runs", &args)),
    };
    if points.len() < 2 {
        return out;
    }
    let max = points
        .iter()
        .map(|(_, v)| scaled(field, *v))
        .fold(0.0, f64::max);
    let (step, top) = plot::linear_ticks(max);
    let n = points.len() as f64;
    let ticks: Vec<f64> = (0..=((top / step).round() as usize).min(20))
        .map(|i| i as f64 * step)
        .collect();
    let col = (f64::from(WIDTH - LEFT - RIGHT) / n).max(1.0);
    let label_font = Font::mono(12);
    let run_lines: Vec<Vec<String>> = points
        .iter()
        .map(|(r, _)| {
            let mut l = svg::wrap(&r.id.value, col - 4.0, label_font);
            l.truncate(3);
            if let Some(d) = &r.date {
                l.push(d.value.chars().take(10).collect());
            }
            l
        })
        .collect();
    let label_rows = run_lines.iter().map(Vec::len).max().unwrap_or(1);
    let bottom = 14 + (label_rows as f64 * label_font.line_height()) as u32 + 8;
    let height = TOP + PLOT_H + bottom;
    let frame = Frame::new((WIDTH, height), LEFT, RIGHT, TOP, bottom);
    let (x, y) = (Linear::new(0.0, n, frame.x), Linear::new(0.0, top, frame.y));
    let (x0, x1) = (x.px(0.0), x.px(n));
    let axis_y = y.px(0.0);
    let point_xy: Vec<(i32, i32)> = points
        .iter()
        .enumerate()
        .map(|(i, (_, v))| (x.px(i as f64 + 0.5), y.px(scaled(field, *v))))
        .collect();
    let mut svg = Svg::new();
    for &t in &ticks {
        plot::line(&mut svg, &[(x0, y.px(t)), (x1, y.px(t))], 1, "s-grid");
    }
    plot::line(&mut svg, &[(x0, axis_y), (x1, axis_y)], 1, "s-axis");
    plot::line(&mut svg, &point_xy, 2, "s-h0");
    for &p in &point_xy {
        plot::dot(&mut svg, p, 6, "f-h0");
    }
    let unit = super::scatter::axis_title(s, field);
    svg.text(
        12.0,
        f64::from(TOP) - 16.0,
        &unit,
        &TextStyle::new(Font::mono(14).bold(), ""),
    );
    for &t in &ticks {
        svg.text(
            f64::from(LEFT) - 8.0,
            f64::from(y.px(t)) + 4.5,
            &plot::tick_label(t, step),
            &TextStyle::new(Font::sans(13), "mu").anchor(Anchor::End),
        );
    }
    for (((_, v), (x, y)), lines) in points.iter().zip(&point_xy).zip(&run_lines) {
        let (x, y) = (f64::from(*x), f64::from(*y));
        svg.text(
            x,
            y - 12.0,
            &value_label(s, field, *v),
            &TextStyle::new(Font::mono(13).bold(), "").anchor(Anchor::Middle),
        );
        let mut ly = f64::from(axis_y) + 6.0;
        for l in lines {
            ly += label_font.line_height();
            svg.text(
                x,
                ly,
                l,
                &TextStyle::new(label_font, "mu").anchor(Anchor::Middle),
            );
        }
    }
    // Each run's value with its unit, in each language of the title: a duration reads
    // in seconds already, a declared unit follows the number.
    let desc = out
        .title
        .iter()
        .map(|(l, t)| {
            let unit = (!is_duration(field))
                .then(|| super::declared_unit(s, field, *l))
                .flatten();
            let items: Vec<String> = points
                .iter()
                .map(|(r, v)| {
                    let value = super::with_unit(value_label(s, field, *v), unit.as_deref());
                    format!("{} {value}", r.id.value)
                })
                .collect();
            (*l, format!("{t}: {}", items.join("; ")))
        })
        .collect();
    out.with_described_svg((WIDTH, height), svg, desc)
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use super::*;
    use crate::model::view::View;

    #[test]
    fn one_run_gives_a_note() {
        let s = scope(View::EN);
        // Two runs of the probe, but only scan-sample records the case.
        assert_eq!(s.derived.runs_by_probe["row-proxy"].len(), 2);
        let o = plot(&s, "row-proxy", "lookup", "est_rows");
        match &o.content {
            Content::Note(w) => {
                assert!(w[0].1.contains("lookup"), "{w:?}");
                // The count selects Fluent's singular form, and the measurement its label.
                let note = w[0].1.replace(['\u{2068}', '\u{2069}'], "");
                assert!(note.contains("so far one does"), "{note}");
                assert!(note.contains("A history of estimated rows"), "{note}");
            }
            Content::Svg { .. } => panic!("expected a note"),
        }
    }

    /// A second run that records the case but has no date is no point of the history:
    /// the plot stays a note.
    #[test]
    fn an_undated_run_is_no_point_of_the_history() {
        let site = Site::load(|d| {
            let Some(mut again) = d
                .runs
                .iter()
                .find(|r| r.value.id.value == "scan-sample")
                .cloned()
            else {
                return;
            };
            again.value.id.value = "scan-sample-undated".into();
            again.value.date = None;
            again.value.cases[0].measurements.insert("est_rows", 5.0);
            d.runs.push(again);
        });
        let s = site.scope(View::EN);
        assert_eq!(s.derived.runs_by_probe["row-proxy"].len(), 3);
        let o = plot(&s, "row-proxy", "lookup", "est_rows");
        match &o.content {
            Content::Note(w) => {
                let note = w[0].1.replace(['\u{2068}', '\u{2069}'], "");
                assert!(note.contains("two dated runs"), "{note}");
                assert!(note.contains("so far one does"), "{note}");
            }
            Content::Svg { .. } => panic!("an undated run was drawn as a point in time"),
        }
    }

    /// Adds `scan-sample-again`, a copy of `scan-sample` dated 2026-12-01 whose first case
    /// measured 5 estimated rows; hands it back for more changes.
    fn add_a_second_run(d: &mut crate::model::DataSet) -> Option<&mut crate::model::Located<Run>> {
        let mut again = d
            .runs
            .iter()
            .find(|r| r.value.id.value == "scan-sample")
            .cloned()?;
        again.value.id.value = "scan-sample-again".into();
        let mut date = again.value.cases[0].id.clone();
        date.value = "2026-12-01".into();
        again.value.date = Some(date);
        again.value.cases[0].measurements.insert("est_rows", 5.0);
        d.runs.push(again);
        d.runs.last_mut()
    }

    /// The text alternative gives each run's value with the unit the site declares for
    /// the measurement, in each language of the view.
    #[test]
    fn the_text_alternative_gives_the_unit() {
        let site = Site::load(|d| {
            for m in d.measurements.iter_mut() {
                if m.value.id.value == "est_rows" {
                    m.value.unit = Some(Text::new([
                        (crate::model::page::Lang::JA, "行".to_string()),
                        (crate::model::page::Lang::EN, "rows".to_string()),
                    ]));
                }
            }
            add_a_second_run(d);
        });
        let s = site.scope(View::BILINGUAL);
        let doc = standalone(
            &plot(&s, "row-proxy", "lookup", "est_rows"),
            View::BILINGUAL,
        );
        assert!(doc.contains("scan-sample-again 5 rows"), "{doc}");
        assert!(doc.contains("scan-sample-again 5 行"), "{doc}");
    }

    #[test]
    fn two_runs_give_a_line() {
        let site = Site::load(|d| {
            if let Some(again) = add_a_second_run(d) {
                again.value.cases[1]
                    .measurements
                    .insert("eval_duration_ns", 2_000_000_000.0);
            }
        });
        let s = site.scope(View::EN);
        let o = plot(&s, "row-proxy", "lookup", "est_rows");
        let doc = standalone(&o, View::EN);
        let t = texts(&doc);
        // The axis is labelled by the measurement's label (data/vocabulary.yaml).
        for want in ["3", "5", "estimated rows", "2026-12-01"] {
            assert!(t.iter().any(|x| x == want), "missing {want} in {t:?}");
        }
        assert!(doc.contains("<polyline"));
        assert_short_numbers(&doc);
        assert_eq!(doc, standalone(&o, View::EN));
        // A duration field on a case only one run has a value for: still a note.
        let d = plot(&s, "row-proxy", "range", "eval_duration_ns");
        assert!(matches!(d.content, Content::Note(_)));
    }

    #[test]
    fn repetitions_count_as_their_median_and_one_line_is_one_engine() {
        let site = Site::load(|d| {
            let Some(base) = d
                .runs
                .iter()
                .find(|r| r.value.id.value == "scan-sample")
                .cloned()
            else {
                return;
            };
            // A later run that repeated `lookup` three times (5, 9, 7: median 7).
            let mut repeated = base.clone();
            repeated.value.id.value = "scan-sample-repeated".into();
            repeated.value.date = Some(crate::model::Id::unplaced("2026-12-01"));
            let lookup = repeated.value.cases[0].clone();
            repeated.value.cases = [5.0, 9.0, 7.0]
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let mut c = lookup.clone();
                    c.id.value = format!("lookup-r{}", i + 1);
                    c.repeat = Some(crate::model::types::Repeat {
                        of: "lookup".into(),
                        index: i as u32 + 1,
                    });
                    c.measurements.insert("est_rows", *v);
                    c
                })
                .collect();
            d.runs.push(repeated);
            // An earlier run of another engine: not on the same line.
            let mut other = base.clone();
            other.value.id.value = "scan-sample-other-engine".into();
            other.value.date = Some(crate::model::Id::unplaced("2025-06-01"));
            other.value.engine = Some(crate::model::Id::unplaced("other"));
            d.runs.push(other);
        });
        let s = site.scope(View::EN);
        let points: Vec<(&str, f64)> = series(&s, "row-proxy", "lookup", "est_rows")
            .into_iter()
            .map(|(r, v)| (r.id.value.as_str(), v))
            .collect();
        assert_eq!(
            points,
            [("scan-sample", 3.0), ("scan-sample-repeated", 7.0)]
        );
    }
}
