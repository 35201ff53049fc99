//! Plot glue around plotters: plotters maps data to pixels (linear and log axes) and draws
//! the grid, bands and series; every label is drawn here instead, since plotters sizes text
//! by UTF-8 bytes and prints long float font sizes.
//!
//! Plotters writes fixed `#RRGGBB` colours. Each shape is drawn in a marker colour of a
//! [`Role`], and [`restyle`] turns those into CSS classes, so plots follow the page's light
//! or dark scheme like the diagrams do.

use super::svg::{self, HUES};
use plotters::coord::Shift;
use plotters::prelude::*;

/// What a shape is, for its colour class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Grid,
    Axis,
    Fg,
    Bg,
    /// Strong colour of hue `i` (series, points).
    Hue(usize),
    /// Light tint of hue `i` (bands).
    Tint(usize),
}

impl Role {
    /// The marker colour plotters writes for this role.
    pub fn color(self) -> RGBColor {
        let (g, b) = match self {
            Role::Grid => (0, 1),
            Role::Axis => (0, 2),
            Role::Fg => (0, 3),
            Role::Bg => (0, 4),
            Role::Hue(i) => (1, (i % HUES) as u8),
            Role::Tint(i) => (2, (i % HUES) as u8),
        };
        RGBColor(1, g, b)
    }

    fn from_hex(hex: &str) -> Option<Role> {
        let h = hex.strip_prefix('#')?;
        if h.len() != 6 || !h.starts_with("01") {
            return None;
        }
        let g = u8::from_str_radix(h.get(2..4)?, 16).ok()?;
        let b = u8::from_str_radix(h.get(4..6)?, 16).ok()? as usize;
        match (g, b) {
            (0, 1) => Some(Role::Grid),
            (0, 2) => Some(Role::Axis),
            (0, 3) => Some(Role::Fg),
            (0, 4) => Some(Role::Bg),
            (1, i) if i < HUES => Some(Role::Hue(i)),
            (2, i) if i < HUES => Some(Role::Tint(i)),
            _ => None,
        }
    }

    /// The CSS class for this role as a fill (`f-…`) or a stroke (`s-…`).
    fn class(self, fill: bool) -> String {
        let p = if fill { "f" } else { "s" };
        match self {
            Role::Grid => format!("{p}-grid"),
            Role::Axis => format!("{p}-axis"),
            Role::Fg => format!("{p}-fg"),
            Role::Bg => format!("{p}-bg"),
            Role::Hue(i) => format!("{p}-h{i}"),
            Role::Tint(i) => format!("{p}-t{i}"),
        }
    }
}

/// `key="value"` pairs of one element line as plotters writes it.
fn attributes(s: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(eq) = rest.find("=\"") {
        let key = rest[..eq].trim();
        let after = &rest[eq + 2..];
        let Some(end) = after.find('"') else { break };
        out.push((key, &after[..end]));
        rest = &after[end + 1..];
    }
    out
}

/// Rewrites plotters' SVG: drops the outer `<svg>`, turns marker colours into classes,
/// drops `opacity="1"`, and rewrites numbers through [`svg::num`].
pub fn restyle(plotters_svg: &str) -> String {
    let mut out = String::new();
    for line in plotters_svg.lines() {
        let t = line.trim();
        let Some(body) = t.strip_prefix('<').and_then(|b| b.strip_suffix("/>")) else {
            continue;
        };
        let Some((tag, rest)) = body.split_once(' ') else {
            continue;
        };
        if !matches!(tag, "rect" | "line" | "polyline" | "polygon" | "circle") {
            continue;
        }
        let mut classes = Vec::new();
        let mut attrs = Vec::new();
        for (k, v) in attributes(rest) {
            match (k, Role::from_hex(v)) {
                ("fill" | "stroke", Some(role)) => classes.push(role.class(k == "fill")),
                ("opacity", _) if v == "1" => {}
                ("points", _) => {
                    let pts: Vec<String> = v
                        .split_whitespace()
                        .filter_map(|p| p.split_once(','))
                        .map(|(x, y)| {
                            format!(
                                "{},{}",
                                svg::num(x.parse().unwrap_or(0.0)),
                                svg::num(y.parse().unwrap_or(0.0))
                            )
                        })
                        .collect();
                    attrs.push(format!("points=\"{}\"", pts.join(" ")));
                }
                _ => {
                    let value = match v.parse::<f64>() {
                        Ok(n) => svg::num(n),
                        Err(_) => svg::esc(v),
                    };
                    attrs.push(format!("{}=\"{value}\"", svg::esc(k)));
                }
            }
        }
        if !classes.is_empty() {
            attrs.push(format!("class=\"{}\"", classes.join(" ")));
        }
        out.push_str(&format!("<{tag} {}/>\n", attrs.join(" ")));
    }
    out
}

/// A plotters drawing area writing SVG into a string.
pub type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Runs `draw` on a fresh plotters SVG area of `size` and returns the restyled shapes with
/// whatever `draw` computed (label positions). A plotters error becomes a message.
pub fn render<T>(
    size: (u32, u32),
    draw: impl FnOnce(&Area) -> Result<T, String>,
) -> Result<(String, T), String> {
    let mut buf = String::new();
    let t = {
        let root = SVGBackend::with_string(&mut buf, size).into_drawing_area();
        let t = draw(&root)?;
        root.present().map_err(|e| e.to_string())?;
        t
    };
    Ok((restyle(&buf), t))
}

/// A centred tick label moved inside `[0, width]`: its x and alignment.
pub fn tick_x(x: f64, text: &str, font: svg::Font, width: f64) -> (f64, svg::Anchor) {
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
    fn restyle_turns_markers_into_classes() {
        let (svg, ()) = render((100, 50), |root| {
            root.draw(&Rectangle::new(
                [(1, 2), (30, 40)],
                Role::Tint(1).color().filled(),
            ))
            .map_err(|e| e.to_string())?;
            root.draw(&PathElement::new(
                vec![(0, 0), (10, 10)],
                Role::Grid.color(),
            ))
            .map_err(|e| e.to_string())?;
            Ok(())
        })
        .expect("draws");
        assert!(svg.contains("class=\"f-t1\""), "{svg}");
        assert!(svg.contains("class=\"s-grid\""), "{svg}");
        assert!(!svg.contains('#'));
        assert!(!svg.contains("<svg"));
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
