//! Scatter plot: two measurements of the cases of one run, one against the other, on
//! linear axes from zero, the points joined in the order of the first — a prompt sweep's
//! prompt-eval time against prompt tokens, or a planner's execution time against estimated
//! rows. Each axis is labelled by its measurement (`data/vocabulary.yaml`); a measurement
//! named `…_ns` is shown in seconds.

use super::plot;
use super::scale::{Frame, Linear};
use super::svg::{Anchor, Font, Svg, TextStyle};
use super::{Content, Drawn, files, joined, ui_texts, words};
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
    let unit = s.ev.measurements.get(name)?.unit.as_ref()?;
    Some(lang.pick(unit).to_string()).filter(|u| !u.is_empty())
}

/// A value followed by its unit, when it has one (`0.006 s`).
fn with_unit(value: String, unit: Option<&str>) -> String {
    match unit {
        Some(u) => format!("{value} {u}"),
        None => value,
    }
}

/// The plot of `y` against `x` over the cases of `run` that record both.
pub fn plot(s: &Scope, run: &Located<Run>, x: &str, y: &str) -> Drawn {
    let mut points: Vec<(f64, f64)> = run
        .cases
        .iter()
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
    let out = Drawn {
        name: super::slug(&format!("scatter-{}-{x}-{y}", run.id.value)),
        kind: "scatter-plot",
        title,
        sources: files([run.file.to_string()]),
        content: Content::Note(super::ui(s, "figure-no-data")),
    };
    if points.is_empty() {
        return out;
    }
    let (x_step, x_top) = plot::linear_ticks(points.iter().map(|p| p.0).fold(0.0, f64::max));
    let (y_step, y_top) = plot::linear_ticks(points.iter().map(|p| p.1).fold(0.0, f64::max));
    let ticks = |step: f64, top: f64| -> Vec<f64> {
        (0..=((top / step).round() as usize).min(20))
            .map(|i| i as f64 * step)
            .collect()
    };
    let (xt, yt) = (ticks(x_step, x_top), ticks(y_step, y_top));
    let height = TOP + PLOT_H + BOTTOM;
    let frame = Frame::new((WIDTH, height), LEFT, RIGHT, TOP, BOTTOM);
    let (sx, sy) = (
        Linear::new(0.0, x_top, frame.x),
        Linear::new(0.0, y_top, frame.y),
    );
    let (x0, x1, axis_y) = (sx.px(0.0), sx.px(x_top), sy.px(0.0));
    let placed: Vec<(i32, i32)> = points.iter().map(|&(a, b)| (sx.px(a), sy.px(b))).collect();
    let mut svg = Svg::new();
    for &t in &yt {
        plot::line(&mut svg, &[(x0, sy.px(t)), (x1, sy.px(t))], 1, "s-grid");
    }
    plot::line(&mut svg, &[(x0, axis_y), (x1, axis_y)], 1, "s-axis");
    plot::line(&mut svg, &placed, 1, "s-h0");
    for &p in &placed {
        plot::dot(&mut svg, p, 4, "f-h0");
    }
    let small = TextStyle::new(Font::sans(13), "mu");
    for &t in &yt {
        svg.text(
            f64::from(LEFT) - 8.0,
            f64::from(sy.px(t)) + 4.5,
            &plot::tick_label(t, y_step),
            &small.anchor(Anchor::End),
        );
    }
    let ay = f64::from(axis_y);
    for &t in &xt {
        let px = f64::from(sx.px(t));
        svg.line(px, ay, px, ay + 5.0, "axis");
        svg.text(
            px,
            ay + 20.0,
            &plot::tick_label(t, x_step),
            &small.anchor(Anchor::Middle),
        );
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
                        with_unit(plot::tick_label(*a, x_step / 100.0), xu.as_deref()),
                        with_unit(plot::tick_label(*b, y_step / 100.0), yu.as_deref())
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
        let doc = standalone(&plot(&s, r, "est_rows", "exec_ns"), View::EN);
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
        let ja = standalone(&plot(&s, r, "est_rows", "exec_ns"), View::JA);
        assert!(
            texts(&ja).iter().any(|x| x == "推定行数"),
            "{:?}",
            texts(&ja)
        );
    }

    #[test]
    fn a_run_without_both_measurements_gives_a_note() {
        let site = Site::load(|_| {});
        let s = site.scope(View::EN);
        let r = s.ev.runs.get("proxy-check").expect("run");
        assert!(matches!(
            plot(&s, r, "est_rows", "exec_ns").content,
            Content::Note(_)
        ));
    }
}
