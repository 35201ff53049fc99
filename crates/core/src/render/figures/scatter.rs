//! Scatter plot: two measurements of the cases of one run, one against the other, on
//! linear axes from zero, the points joined in the order of the first — a prompt sweep's
//! prompt-eval time against prompt tokens, or a planner's execution time against estimated
//! rows. Each axis is labelled by its measurement (`data/vocabulary.yaml`); a measurement
//! named `…_ns` is shown in seconds.

use super::plot;
use super::scale::{Frame, Linear, Log};
use super::svg::{Anchor, Font, Svg, TextStyle};
use super::{Content, Drawn, files, joined, ui_texts, words};
use crate::model::directive::Scatter;
use crate::model::{Located, Run, Text};
use crate::render::scope::Scope;

const WIDTH: u32 = 400;
const LEFT: u32 = 64;
const RIGHT: u32 = 24;
const TOP: u32 = 40;
const PLOT_H: u32 = 220;
const BOTTOM: u32 = 56;

/// A value in its axis unit: seconds for durations, as recorded otherwise.
fn scaled(name: &str, v: f64) -> f64 {
    if crate::model::fields::is_duration(name) {
        v / 1e9
    } else {
        v
    }
}

/// An axis's title: the measurement's label (and unit), seconds for a duration.
pub(super) fn axis_title(s: &Scope, name: &str) -> String {
    joined(&words(s, &axis_label(s, name)))
}

/// A measurement's label as its axis shows it: a duration in seconds, not nanoseconds.
fn axis_label(s: &Scope, name: &str) -> Text {
    let label = super::measurement_label(s, name);
    if crate::model::fields::is_duration(name) {
        label.map(|_, l| format!("{} (s)", l.trim_end_matches(" (ns)")))
    } else {
        label
    }
}

/// The unit of an axis's values in `lang`, as its title gives it: seconds for a duration,
/// else the measurement's declared unit; none for a plain count.
fn axis_unit(s: &Scope, name: &str, lang: crate::model::page::Lang) -> Option<String> {
    if crate::model::fields::is_duration(name) {
        return Some("s".into());
    }
    super::declared_unit(s, name, lang)
}

/// One axis of the plot: linear from zero, or logarithmic over the decades the values
/// span.
struct Axis {
    scale: AxisScale,
    ticks: Vec<f64>,
    /// The linear axis's tick step (tick labels take its decimals).
    step: f64,
}

enum AxisScale {
    Linear(Linear),
    Log(Log),
}

impl Axis {
    /// The axis over `values` (all at or above zero; above zero on a log axis), along
    /// `span`.
    fn new(values: &[f64], log: bool, span: super::scale::Span) -> Axis {
        let max = values.iter().copied().fold(0.0, f64::max);
        if log {
            let min = values
                .iter()
                .copied()
                .filter(|v| *v > 0.0)
                .fold(max, f64::min);
            let (lo, hi) = decades_around(min, max);
            return Axis {
                scale: AxisScale::Log(Log::new(lo, hi, span)),
                ticks: plot::decades(lo, hi),
                step: 0.0,
            };
        }
        let (step, top) = plot::linear_ticks(max);
        let ticks = (0..=((top / step).round() as usize).min(20))
            .map(|i| i as f64 * step)
            .collect();
        Axis {
            scale: AxisScale::Linear(Linear::new(0.0, top, span)),
            ticks,
            step,
        }
    }

    fn px(&self, v: f64) -> i32 {
        match &self.scale {
            AxisScale::Linear(l) => l.px(v),
            AxisScale::Log(l) => l.px(v),
        }
    }

    /// The value where the axis starts: zero, or the lowest decade of a log axis.
    fn start(&self) -> f64 {
        match &self.scale {
            AxisScale::Linear(_) => 0.0,
            AxisScale::Log(_) => self.ticks.first().copied().unwrap_or(1.0),
        }
    }

    /// The value where the axis ends.
    fn end(&self) -> f64 {
        self.ticks.last().copied().unwrap_or(1.0)
    }

    /// A tick's label.
    fn tick(&self, v: f64) -> String {
        match self.scale {
            AxisScale::Linear(_) => plot::tick_label(v, self.step),
            AxisScale::Log(_) => plot::count_label(v),
        }
    }

    /// A point's value as the text alternative gives it: finer than the ticks.
    fn value(&self, v: f64) -> String {
        match self.scale {
            AxisScale::Linear(_) => plot::tick_label(v, self.step / 100.0),
            AxisScale::Log(_) => {
                let decade = if v > 0.0 {
                    10f64.powf(v.log10().floor())
                } else {
                    1.0
                };
                plot::tick_label(v, decade / 100.0)
            }
        }
    }
}

/// The powers of ten at or below `min` and at or above `max`, a decade apart at least.
fn decades_around(min: f64, max: f64) -> (f64, f64) {
    if !(min > 0.0 && max.is_finite() && max > 0.0) {
        return (1.0, 10.0);
    }
    let lo = 10f64.powi((min.log10().floor() as i32).clamp(-12, 20));
    let hi = 10f64.powi((max.log10().ceil() as i32).clamp(-12, 20));
    if hi > lo { (lo, hi) } else { (lo, lo * 10.0) }
}

/// The plot of the scatter directive `d` over the cases of `run` that record both its
/// measurements and that it does not leave out.
pub fn plot(s: &Scope, run: &Located<Run>, d: &Scatter) -> Drawn {
    let (x, y) = (d.x.as_str(), d.y.as_str());
    let mut points: Vec<(f64, f64)> = run
        .cases
        .iter()
        .filter(|c| !d.omit.contains(&c.id.value))
        .filter_map(|c| Some((scaled(x, c.measurement(x)?), scaled(y, c.measurement(y)?))))
        .filter(|(a, b)| a.is_finite() && b.is_finite() && *a >= 0.0 && *b >= 0.0)
        .collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    // As the axes say it, so that the title names the unit the values are drawn in.
    let label = |name: &str| axis_label(s, name);
    let title = ui_texts(
        s,
        "figure-scatter-title",
        &[
            ("y", label(y)),
            ("x", label(x)),
            ("run", Text::untranslated(&run.id.value)),
        ],
    );
    // Two plots of one run and pair of measurements on a page differ in their options.
    let mut name = format!("scatter-{}-{x}-{y}", run.id.value);
    match (d.log_x, d.log_y) {
        (true, true) => name.push_str("-log-xy"),
        (true, false) => name.push_str("-log-x"),
        (false, true) => name.push_str("-log-y"),
        (false, false) => {}
    }
    if !d.omit.is_empty() {
        name.push_str(&format!("-omit-{}", d.omit.join("-")));
    }
    let out = Drawn {
        name: super::slug(&name),
        kind: "scatter-plot",
        title,
        sources: files([run.file.to_string()]),
        content: Content::Note(super::ui(s, "figure-no-data")),
    };
    if points.is_empty() {
        return out;
    }
    let height = TOP + PLOT_H + BOTTOM;
    let frame = Frame::new((WIDTH, height), LEFT, RIGHT, TOP, BOTTOM);
    let xs: Vec<f64> = points.iter().map(|p| p.0).collect();
    let ys: Vec<f64> = points.iter().map(|p| p.1).collect();
    let (sx, sy) = (
        Axis::new(&xs, d.log_x, frame.x),
        Axis::new(&ys, d.log_y, frame.y),
    );
    let (x0, x1, axis_y) = (sx.px(sx.start()), sx.px(sx.end()), sy.px(sy.start()));
    let placed: Vec<(i32, i32)> = points.iter().map(|&(a, b)| (sx.px(a), sy.px(b))).collect();
    let mut svg = Svg::new();
    for &t in &sy.ticks {
        plot::line(&mut svg, &[(x0, sy.px(t)), (x1, sy.px(t))], 1, "s-grid");
    }
    plot::line(&mut svg, &[(x0, axis_y), (x1, axis_y)], 1, "s-axis");
    plot::line(&mut svg, &placed, 1, "s-h0");
    for &p in &placed {
        plot::dot(&mut svg, p, 4, "f-h0");
    }
    let small = TextStyle::new(Font::sans(13), "mu");
    for &t in &sy.ticks {
        svg.text(
            f64::from(LEFT) - 8.0,
            f64::from(sy.px(t)) + 4.5,
            &sy.tick(t),
            &small.anchor(Anchor::End),
        );
    }
    let ay = f64::from(axis_y);
    for &t in &sx.ticks {
        let px = f64::from(sx.px(t));
        svg.line(px, ay, px, ay + 5.0, "axis");
        svg.text(px, ay + 20.0, &sx.tick(t), &small.anchor(Anchor::Middle));
    }
    svg.text(
        12.0,
        f64::from(TOP) - 16.0,
        &axis_title(s, y),
        &TextStyle::new(Font::sans(14).bold(), ""),
    );
    svg.text(
        f64::from(WIDTH) / 2.0,
        ay + 44.0,
        &axis_title(s, x),
        &TextStyle::new(Font::sans(14), "").anchor(Anchor::Middle),
    );
    // The text alternative, a point a line, each value with its axis's unit in each
    // language of the view.
    let desc = out
        .title
        .iter()
        .map(|(lang, title)| {
            let (xu, yu) = (axis_unit(s, x, *lang), axis_unit(s, y, *lang));
            let items: Vec<String> = points
                .iter()
                .map(|(a, b)| {
                    format!(
                        "{} → {}",
                        super::with_unit(sx.value(*a), xu.as_deref()),
                        super::with_unit(sy.value(*b), yu.as_deref())
                    )
                })
                .collect();
            (*lang, format!("{title}: {}", items.join("; ")))
        })
        .collect();
    Drawn {
        content: Content::Svg {
            width: f64::from(WIDTH),
            height: f64::from(height),
            body: svg.finish(),
            desc,
        },
        ..out
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use super::*;
    use crate::model::view::View;

    /// The planner fixture with execution times on every case of `scan-sample`.
    fn site() -> Site {
        Site::load(|d| {
            for r in d.runs.iter_mut() {
                if r.value.id.value == "scan-sample" {
                    for (c, ns) in r.value.cases.iter_mut().zip([20e6, 45e6, 900e6, 147.9e6]) {
                        c.measurements.insert("exec_ns", ns);
                    }
                }
            }
        })
    }

    #[test]
    fn one_measurement_against_another_labelled_from_the_vocabulary() {
        let site = site();
        let s = site.scope(View::EN);
        let r = s.ev.runs.get("scan-sample").expect("run");
        let doc = standalone(&plot(&s, r, &directive("est_rows", "exec_ns")), View::EN);
        let t = texts(&doc);
        // Axis titles from data/vocabulary.yaml; the duration in seconds, not nanoseconds.
        assert!(t.iter().any(|x| x == "execution time (s)"), "{t:?}");
        assert!(t.iter().any(|x| x == "estimated rows"), "{t:?}");
        assert_eq!(doc.matches("<circle").count(), 4, "one point per case");
        // The text alternative gives each value its unit: seconds for the duration.
        assert!(doc.contains("→ 0.020 s;"), "{doc}");
        assert!(doc.contains("→ 0.900 s</desc>"), "{doc}");
        assert!(
            doc.contains("execution time (s) against estimated rows"),
            "{doc}"
        );
        // The same in Japanese.
        let s = site.scope(View::JA);
        let ja = standalone(&plot(&s, r, &directive("est_rows", "exec_ns")), View::JA);
        assert!(
            texts(&ja).iter().any(|x| x == "推定行数"),
            "{:?}",
            texts(&ja)
        );
    }

    /// A plot of `y` against `x` of the run `scan-sample`, with no option.
    fn directive(x: &str, y: &str) -> Scatter {
        Scatter {
            run: "scan-sample".into(),
            x: x.into(),
            y: y.into(),
            omit: Vec::new(),
            log_x: false,
            log_y: false,
        }
    }

    /// `omit` leaves cases out; `log` puts an axis on a log scale, its ticks decades.
    #[test]
    fn cases_can_be_left_out_and_axes_made_logarithmic() {
        let site = site();
        let s = site.scope(View::EN);
        let r = s.ev.runs.get("scan-sample").expect("run");
        let first = r.cases[0].id.value.clone();
        let d = Scatter {
            omit: vec![first],
            ..directive("est_rows", "exec_ns")
        };
        let doc = standalone(&plot(&s, r, &d), View::EN);
        assert_eq!(doc.matches("<circle").count(), 3, "one case left out");
        assert!(!doc.contains("0.020 s"), "{doc}");
        let d = Scatter {
            log_x: true,
            log_y: true,
            ..directive("est_rows", "exec_ns")
        };
        let drawn = plot(&s, r, &d);
        assert!(drawn.name.ends_with("-log-xy"), "{}", drawn.name);
        let doc = standalone(&drawn, View::EN);
        let t = texts(&doc);
        // est_rows 3 … 290 spans the decades 1 to 1,000; exec 0.02 s … 0.9 s, 0.01 to 1.
        for want in ["1", "10", "100", "1,000", "0.01", "0.1"] {
            assert!(t.iter().any(|x| x == want), "missing tick {want} in {t:?}");
        }
        assert_eq!(doc.matches("<circle").count(), 4);
        assert!(doc.contains("290 → 0.900 s"), "{doc}");
    }

    #[test]
    fn a_run_without_both_measurements_gives_a_note() {
        let site = Site::load(|_| {});
        let s = site.scope(View::EN);
        let r = s.ev.runs.get("proxy-check").expect("run");
        assert!(matches!(
            plot(&s, r, &directive("est_rows", "exec_ns")).content,
            Content::Note(_)
        ));
    }
}
