//! Timing plot: the durations (measurements in `…_ns`) of each case of a run as
//! horizontal bars on a log seconds axis, one group per measurement, each labelled by its
//! measurement (cold versus hot, say, of a load, a prompt and a generation). A zero or
//! missing duration has no bar, only its label.

use super::plot;
use super::scale::{Frame, Linear, Log};
use super::svg::{self, Anchor, Font, Svg, TextStyle};
use super::{Content, Drawn, Words, files, fit_lines, joined, ui, ui_args};
use crate::model::Located;
use crate::model::format::seconds;
use crate::model::page::Lang;
use crate::model::{Case, Run};
use crate::render::scope::Scope;

const WIDTH: u32 = 400;
const TOP: u32 = 8;
const RIGHT: u32 = 78;
const ROW: f64 = 26.0;
const HEAD: f64 = 26.0;

/// A duration of a case in whole nanoseconds.
fn ns(c: &Case, name: &str) -> Option<u64> {
    c.measurement(name)
        .filter(|v| *v >= 0.0 && v.fract() == 0.0)
        .map(|v| v as u64)
}

/// The measurements drawn: those asked for, else every duration the cases have, in the
/// order tables show them.
fn measures<'a>(s: &Scope, run: &'a Run, asked: &'a [String]) -> Vec<&'a str> {
    if !asked.is_empty() {
        return asked.iter().map(String::as_str).collect();
    }
    let names = run
        .cases
        .iter()
        .flat_map(|c| c.measured())
        .filter(|n| crate::model::fields::is_duration(n));
    crate::render::tables::vocabulary::measure_columns(s, names)
        .into_iter()
        .flat_map(|c| c.names)
        .collect()
}

/// Series colours by case position: blue, orange, purple, green, …
const HUES: [usize; 6] = [0, 2, 1, 3, 4, 5];

/// The label of a case: how it ran, when a pack says, else its id.
fn case_label(s: &Scope, c: &Case) -> String {
    match crate::render::pack::case_mode(s, c) {
        Some(key) => joined(&ui(s, key)),
        None => c.id.value.clone(),
    }
}

/// Top of each group header and of each bar row, in pixels from the plot's top.
fn layout(groups: usize, cases: usize) -> (Vec<f64>, Vec<Vec<f64>>, f64) {
    let mut y = 0.0;
    let mut heads = Vec::new();
    let mut rows = Vec::new();
    for _ in 0..groups {
        heads.push(y);
        y += HEAD;
        rows.push((0..cases).map(|i| y + ROW * i as f64).collect::<Vec<f64>>());
        y += ROW * cases as f64 + 8.0;
    }
    (heads, rows, y)
}

/// The log axis's ends, in seconds: whole decades around `values`, at least two decades
/// apart, the largest value short of the right end.
fn seconds_range(values: &[f64]) -> (f64, f64) {
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(0.0, f64::max);
    let lo = plot::decade_below(min);
    let mut hi = plot::decade_above(max.max(lo * 10.0) * 1.0001).max(lo * 100.0);
    if hi <= max {
        hi *= 10.0;
    }
    (lo, hi)
}

/// The seconds axis at `ay`: a tick and a label at each decade of `ticks` (value, pixel),
/// then the axis's title, `lines` set in `font`.
fn x_axis(svg: &mut Svg, ticks: &[(f64, i32)], ay: f64, lines: &[(Lang, String)], font: Font) {
    plot::x_ticks(svg, ticks, ay, f64::from(WIDTH), plot::seconds_label);
    super::draw_lines(
        svg,
        f64::from(WIDTH) / 2.0,
        ay + 26.0,
        lines,
        TextStyle::new(font, "").anchor(Anchor::Middle),
        lines.len() > 1,
    );
}

/// What a screen reader says of the plot, per language of `title`: each measurement's
/// name, then each case's label and duration.
fn description(
    title: &Words,
    metrics: &[&str],
    metric_words: &[Words],
    cases: &[&Case],
    labels: &[String],
) -> Words {
    title
        .iter()
        .map(|(l, t)| {
            let parts: Vec<String> = metrics
                .iter()
                .zip(metric_words)
                .map(|(m, w)| {
                    let name = w
                        .iter()
                        .find(|(wl, _)| wl == l)
                        .map(|(_, t)| t.clone())
                        .unwrap_or_default();
                    let vals: Vec<String> = cases
                        .iter()
                        .zip(labels)
                        .map(|(c, lab)| {
                            format!("{lab} {}", ns(c, m).map(seconds).unwrap_or("—".into()))
                        })
                        .collect();
                    format!("{name}: {}", vals.join(", "))
                })
                .collect();
            (*l, format!("{t}: {}", parts.join("; ")))
        })
        .collect()
}

/// The plot of one run.
pub fn plot(s: &Scope, run: &Located<Run>, file: &str, asked: &[String]) -> Drawn {
    let metrics = measures(s, run, asked);
    let title = ui_args(s, "figure-timing-title", &[("run", run.id.value.clone())]);
    let mut out = Drawn {
        name: super::slug(&format!("timing-{}", run.id.value)),
        kind: "timing-plot",
        title,
        sources: files([file]),
        content: Content::Note(ui(s, "figure-no-data")),
    };
    let cases: Vec<&Case> = run.cases.iter().collect();
    let values: Vec<f64> = cases
        .iter()
        .flat_map(|c| metrics.iter().filter_map(|m| ns(c, m)))
        .filter(|ns| *ns > 0)
        .map(|ns| ns as f64 / 1e9)
        .collect();
    if values.is_empty() {
        return out;
    }
    let (lo, hi) = seconds_range(&values);
    let labels: Vec<String> = cases.iter().map(|c| case_label(s, c)).collect();
    let label_font = Font::sans(14);
    let left = labels
        .iter()
        .map(|l| svg::text_width(l, label_font))
        .fold(0.0, f64::max)
        .clamp(30.0, 120.0)
        + 24.0;
    let axis_font = Font::sans(14);
    let axis_lines = fit_lines(
        &ui(s, "figure-timing-axis"),
        f64::from(WIDTH) - 32.0,
        axis_font,
    );
    let (heads, rows, plot_h) = layout(metrics.len(), cases.len());
    let bottom = 34 + (axis_lines.len() as f64 * axis_font.line_height()) as u32 + 8;
    // `as` saturates: an absurd number of cases cannot overflow the height.
    let height = TOP.saturating_add(plot_h as u32).saturating_add(bottom);
    let ticks = plot::decades(lo, hi);
    let frame = Frame::new((WIDTH, height), left as u32, RIGHT, TOP, bottom);
    // The rows run downwards: row tops are measured from the plot's top.
    let (x, y) = (Log::new(lo, hi, frame.x), Linear::new(plot_h, 0.0, frame.y));
    let (x0, x1) = (x.px(lo), x.px(hi));
    let (y0, y1) = (y.px(0.0), y.px(plot_h));
    let mut svg = Svg::new();
    for &t in &ticks {
        plot::line(&mut svg, &[(x.px(t), y0), (x.px(t), y1)], 1, "s-grid");
    }
    for (m, tops) in metrics.iter().zip(&rows) {
        for (i, (c, top)) in cases.iter().zip(tops).enumerate() {
            if let Some(ns) = ns(c, m).filter(|ns| *ns > 0) {
                let v = (ns as f64 / 1e9).clamp(lo, hi);
                plot::bar(
                    &mut svg,
                    (x0, y.px(top + 4.0)),
                    (x.px(v), y.px(top + ROW - 4.0)),
                    &format!("f-h{}", HUES[i % HUES.len()]),
                );
            }
        }
    }
    plot::line(&mut svg, &[(x0, y1), (x1, y1)], 1, "s-axis");
    plot::line(&mut svg, &[(x0, y0), (x0, y1)], 1, "s-axis");
    // Where each bar ends, for its value's label.
    let ends: Vec<Vec<i32>> = metrics
        .iter()
        .map(|m| {
            cases
                .iter()
                .map(|c| {
                    let v = ns(c, m).filter(|ns| *ns > 0).map(|ns| ns as f64 / 1e9);
                    x.px(v.unwrap_or(lo).clamp(lo, hi))
                })
                .collect()
        })
        .collect();
    let axis_y = y1;
    let tick_x: Vec<(f64, i32)> = ticks.iter().map(|&t| (t, x.px(t))).collect();
    let top = f64::from(TOP);
    let metric_words: Vec<Words> = metrics
        .iter()
        .map(|m| super::words(s, &super::measurement_label(s, m)))
        .collect();
    for (m, (name, head)) in metrics.iter().zip(&heads).enumerate() {
        let metric = &metric_words[m];
        svg.text(
            12.0,
            top + head + 18.0,
            &joined(metric),
            &TextStyle::new(Font::sans(15).bold(), ""),
        );
        for (i, c) in cases.iter().enumerate() {
            let row = rows[m][i];
            let y = top + row + ROW / 2.0 + 5.0;
            svg.text(
                left - 8.0,
                y,
                &labels[i],
                &TextStyle::new(label_font, &format!("c-h{}", HUES[i % HUES.len()]))
                    .anchor(Anchor::End),
            );
            let value = match ns(c, name) {
                Some(ns) => s.numerals().seconds(ns),
                None => "—".into(),
            };
            let end = ends
                .get(m)
                .and_then(|e| e.get(i))
                .map(|x| f64::from(*x))
                .unwrap_or(left);
            svg.text(end + 6.0, y, &value, &TextStyle::new(Font::mono(13), ""));
        }
    }
    x_axis(&mut svg, &tick_x, f64::from(axis_y), &axis_lines, axis_font);
    let desc = description(&out.title, &metrics, &metric_words, &cases, &labels);
    out.content = Content::Svg {
        width: f64::from(WIDTH),
        height: f64::from(height),
        body: svg.finish(),
        desc,
    };
    out
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use super::*;
    use crate::model::view::View;

    fn draw(view: View) -> String {
        let s = scope(view);
        let r = s.ev.runs.get("cold-warm").expect("run");
        standalone(&plot(&s, r, &r.file, &[]), view)
    }

    #[test]
    fn cold_and_hot_bars() {
        let doc = draw(View::EN);
        let t = texts(&doc);
        // Each label, value and tick is a text of its own ("1 s" is also inside "0.211 s").
        for want in [
            "cold",
            "hot",
            "load",
            "planning",
            "execution",
            "12.6 s",
            "0.052 s",
            "0.0312 s",
            "0.0297 s",
            "0.48 s",
            "0.211 s",
            "0.01 s",
            "1 s",
            "10 s",
        ] {
            assert!(t.iter().any(|x| x == want), "missing {want} in {t:?}");
        }
        assert_eq!(doc.matches("class=\"f-h0\"").count(), 3, "three cold bars");
        assert_eq!(doc.matches("class=\"f-h2\"").count(), 3, "three hot bars");
        assert_short_numbers(&doc);
    }

    #[test]
    fn the_measurements_asked_for_are_the_groups_drawn() {
        let s = scope(View::EN);
        let r = s.ev.runs.get("cold-warm").expect("run");
        let only = ["eval_duration_ns".to_string()];
        let doc = standalone(&plot(&s, r, &r.file, &only), View::EN);
        let t = texts(&doc);
        assert!(t.iter().any(|x| x == "execution"));
        assert!(!t.iter().any(|x| x == "load"), "{t:?}");
        assert_eq!(doc.matches("class=\"f-h0\"").count(), 1, "one cold bar");
    }

    #[test]
    fn renders_are_identical() {
        assert_eq!(draw(View::BILINGUAL), draw(View::BILINGUAL));
    }

    #[test]
    fn zero_and_missing_durations() {
        let site = Site::load(|d| {
            for r in d.runs.iter_mut() {
                if r.value.id.value == "cold-warm" {
                    r.value.cases[0]
                        .measurements
                        .insert("load_duration_ns", 0.0);
                    r.value.cases[1].measurements.remove("eval_duration_ns");
                }
                if r.value.id.value == "proxy-check" {
                    for c in r.value.cases.iter_mut() {
                        c.measurements.insert("eval_duration_ns", 0.0);
                    }
                }
            }
        });
        let s = site.scope(View::EN);
        let r = s.ev.runs.get("cold-warm").expect("run");
        let doc = standalone(&plot(&s, r, &r.file, &[]), View::EN);
        let t = texts(&doc);
        assert!(t.iter().any(|x| x == "0 s"));
        assert!(t.iter().any(|x| x == "—"));
        let zeros = s.ev.runs.get("proxy-check").expect("run");
        assert!(matches!(
            plot(&s, zeros, &zeros.file, &[]).content,
            Content::Note(_)
        ));
    }
}
