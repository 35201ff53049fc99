//! What the plots share: their shapes (written with the figures' [`Svg`] writer, coloured
//! by CSS classes so that plots follow the page's light or dark scheme), tick values and
//! tick labels. Values become pixels through [`super::scale`]; every label is measured and
//! placed by [`super::svg`].

use super::svg::{self, Svg};

/// A line through `points` (whole pixels), `width` pixels wide, in the stroke class
/// `class` (`s-grid`, `s-axis`, `s-h0`, …).
pub fn line(svg: &mut Svg, points: &[(i32, i32)], width: u32, class: &str) {
    svg.path(points, width, class);
}

/// A filled rectangle between two corners (whole pixels, in any order), in the fill class
/// `class` (`f-t0`, `f-h2`, …).
pub fn bar(svg: &mut Svg, (x0, y0): (i32, i32), (x1, y1): (i32, i32), class: &str) {
    let (x, y) = (x0.min(x1), y0.min(y1));
    let (w, h) = (x0.abs_diff(x1), y0.abs_diff(y1));
    svg.rect(
        f64::from(x),
        f64::from(y),
        f64::from(w),
        f64::from(h),
        0.0,
        class,
    );
}

/// A filled dot of radius `r` at `(x, y)`, in the fill class `class`.
pub fn dot(svg: &mut Svg, (x, y): (i32, i32), r: u32, class: &str) {
    svg.circle(f64::from(x), f64::from(y), f64::from(r), class);
}

/// The ticks of a horizontal axis at `ay` in a figure `width` wide: at each `(value,
/// pixel)` a mark and, under it, the value's `label` (kept inside the figure).
pub fn x_ticks(
    svg: &mut Svg,
    ticks: &[(f64, i32)],
    ay: f64,
    width: f64,
    label: impl Fn(f64) -> String,
) {
    let font = svg::Font::sans(13);
    for (t, x) in ticks {
        let x = f64::from(*x);
        svg.line(x, ay, x, ay + 5.0, "axis");
        let label = label(*t);
        let (tx, anchor) = tick_x(x, &label, font, width);
        svg.text(
            tx,
            ay + 20.0,
            &label,
            &svg::TextStyle::new(font, "mu").anchor(anchor),
        );
    }
}

/// A centred tick label moved inside `[0, width]`: its x and alignment.
fn tick_x(x: f64, text: &str, font: svg::Font, width: f64) -> (f64, svg::Anchor) {
    let half = svg::text_width(text, font) / 2.0;
    if x + half > width - 2.0 {
        (width - 2.0, svg::Anchor::End)
    } else if x - half < 2.0 {
        (2.0, svg::Anchor::Start)
    } else {
        (x, svg::Anchor::Middle)
    }
}

/// Powers of ten within `[lo, hi]`, thinned to at most about six.
pub fn decades(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo && lo.is_finite() && hi.is_finite()) {
        return Vec::new();
    }
    let (a, b) = (lo.log10().ceil() as i32, hi.log10().floor() as i32);
    let count = (b - a + 1).max(1);
    let step = ((count + 5) / 6).max(1);
    (a..=b)
        .filter(|k| (k - a) % step == 0)
        .map(|k| 10f64.powi(k))
        .collect()
}

/// The power of ten at or above `v` (at least 10), capped at 1e20.
pub fn decade_above(v: f64) -> f64 {
    if !(v.is_finite() && v > 10.0) {
        return 10.0;
    }
    10f64.powi((v.log10().ceil() as i32).min(20))
}

/// The power of ten at or below `v`, floored at 1e-12.
pub fn decade_below(v: f64) -> f64 {
    if !(v.is_finite() && v > 0.0) {
        return 1.0;
    }
    10f64.powi((v.log10().floor() as i32).max(-12))
}

/// A count for a tick label: `1`, `100`, `10,000`, `1e9`.
pub fn count_label(v: f64) -> String {
    if v > 0.0 && v < 1.0 {
        // A decade below one: `0.01`, never `0`.
        let digits = (-v.log10()).ceil().clamp(0.0, 12.0) as usize;
        format!("{v:.digits$}")
    } else if v < 1e7 {
        crate::model::format::group_digits(v.round().max(0.0) as u64)
    } else {
        format!("1e{}", v.log10().round() as i32)
    }
}

/// Seconds for a tick label: `0.01 s`, `1 s`, `100 s`.
pub fn seconds_label(v: f64) -> String {
    if v >= 1.0 {
        format!("{} s", count_label(v))
    } else {
        let digits = (-v.log10()).ceil().clamp(0.0, 12.0) as usize;
        format!("{v:.digits$} s")
    }
}

/// A tidy step and top for a linear axis from 0 to at least `max`.
pub fn linear_ticks(max: f64) -> (f64, f64) {
    if !(max.is_finite() && max > 0.0) {
        return (1.0, 1.0);
    }
    let raw = max / 4.0;
    let mag = 10f64.powi(raw.log10().floor() as i32);
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let top = (max / step).ceil() * step;
    let top = if top <= max { top + step } else { top };
    (step, top)
}

/// A tick value with just the decimals its step needs.
pub fn tick_label(v: f64, step: f64) -> String {
    let digits = if step >= 1.0 {
        0
    } else {
        (-step.log10()).ceil().clamp(0.0, 12.0) as usize
    };
    if digits == 0 && v.abs() >= 1000.0 {
        return count_label(v);
    }
    format!("{v:.digits$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_whole_pixels_coloured_by_class() {
        let mut svg = Svg::new();
        line(&mut svg, &[(0, 10), (20, 5)], 2, "s-h0");
        bar(&mut svg, (30, 40), (10, 20), "f-t1");
        dot(&mut svg, (5, 6), 4, "f-h2");
        assert_eq!(
            svg.finish(),
            "<polyline fill=\"none\" stroke-width=\"2\" points=\"0,10 20,5\" class=\"s-h0\"/>\n\
             <rect x=\"10\" y=\"20\" width=\"20\" height=\"20\" class=\"f-t1\"/>\n\
             <circle cx=\"5\" cy=\"6\" r=\"4\" class=\"f-h2\"/>\n"
        );
    }

    #[test]
    fn ticks() {
        assert_eq!(decades(0.7, 1000.0), vec![1.0, 10.0, 100.0, 1000.0]);
        assert!(decades(0.0, 10.0).is_empty());
        assert!(decades(1.0, 1e20).len() <= 7);
        assert_eq!(decade_above(290.0 * 2.0), 1000.0);
        assert_eq!(decade_above(f64::INFINITY), 10.0);
        assert_eq!(decade_below(0.0238), 0.01);
        assert_eq!(seconds_label(0.01), "0.01 s");
        assert_eq!(seconds_label(10.0), "10 s");
        assert_eq!(count_label(1000.0), "1,000");
        assert_eq!(linear_ticks(11.0), (5.0, 15.0));
        assert_eq!(tick_label(0.5, 0.1), "0.5");
    }
}
