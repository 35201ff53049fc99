//! Scales of the plots: a value on a linear or a log axis to a whole pixel of the plot
//! area ([`Frame`]).
//!
//! Pixels are whole and placed as plotters 0.3 placed them (the offset from the axis'
//! start is floored, with a thousandth of slack against rounding), so the plots kept every
//! pixel when plotters went: it was only ever used for this mapping, since the plots' colours are
//! CSS classes and their labels are measured and placed by [`super::svg`].

/// The pixels an axis runs over: from its start (`from`, the value at the low end) to
/// its end (`to`). A vertical axis runs upwards, so its `from` is below its `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub from: i32,
    pub to: i32,
}

impl Span {
    /// The pixel at fraction `t` of the way from `from` to `to`: below zero or past one
    /// lands outside the span, infinities at its ends, NaN at its start.
    fn at(self, t: f64) -> i32 {
        let len = i64::from(self.to) - i64::from(self.from);
        if len == 0 {
            return self.to;
        }
        if t.is_infinite() {
            return if t > 0.0 { self.to } else { self.from };
        }
        let offset = if len > 0 {
            (len as f64 * t + 1e-3).floor()
        } else {
            (len as f64 * t - 1e-3).ceil()
        };
        // `as` saturates (NaN becomes 0): an absurd value stays a finite pixel.
        clamp_i32(i64::from(self.from).saturating_add(offset as i64))
    }
}

fn clamp_i32(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// The plot area of a figure of `size` inside its margins: the x axis from the left
/// margin to the last pixel before the right one, the y axis from the last pixel above
/// the bottom margin up to the top one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    pub x: Span,
    pub y: Span,
}

impl Frame {
    pub fn new((width, height): (u32, u32), left: u32, right: u32, top: u32, bottom: u32) -> Frame {
        let (w, h) = (i64::from(width), i64::from(height));
        Frame {
            x: Span {
                from: clamp_i32(i64::from(left)),
                to: clamp_i32(w - i64::from(right) - 1),
            },
            y: Span {
                from: clamp_i32(h - i64::from(bottom) - 1),
                to: clamp_i32(i64::from(top)),
            },
        }
    }
}

/// A linear axis from `lo` to `hi`.
#[derive(Debug, Clone, Copy)]
pub struct Linear {
    lo: f64,
    hi: f64,
    span: Span,
}

impl Linear {
    pub fn new(lo: f64, hi: f64, span: Span) -> Linear {
        Linear { lo, hi, span }
    }

    /// The pixel of `v`; an axis of one value puts everything in its middle.
    pub fn px(&self, v: f64) -> i32 {
        if self.hi == self.lo {
            return self.span.at(0.5);
        }
        self.span.at((v - self.lo) / (self.hi - self.lo))
    }
}

/// A log axis from `lo` to `hi` (both above zero): equal ratios, equal distances.
#[derive(Debug, Clone, Copy)]
pub struct Log {
    linear: Linear,
}

impl Log {
    /// A `lo` at or below zero, which no log axis has, becomes a hundred-thousandth of `hi`.
    pub fn new(lo: f64, hi: f64, span: Span) -> Log {
        let lo = if lo > 0.0 { lo } else { hi * 1e-5 };
        Log {
            linear: Linear::new(lo.ln(), hi.ln(), span),
        }
    }

    /// The pixel of `v`; zero and below, which have no logarithm, sit at the axis' start.
    pub fn px(&self, v: f64) -> i32 {
        if v <= 0.0 {
            return self.linear.span.from;
        }
        self.linear.px(v.ln())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_is_the_area_inside_the_margins() {
        let f = Frame::new((400, 300), 64, 24, 40, 60);
        assert_eq!(f.x, Span { from: 64, to: 375 });
        // Upwards: the value at the bottom first.
        assert_eq!(f.y, Span { from: 239, to: 40 });
    }

    #[test]
    fn linear_scales_floor_away_from_their_start() {
        let f = Frame::new((400, 300), 64, 24, 40, 60);
        let x = Linear::new(0.0, 4.0, f.x);
        assert_eq!(x.px(0.0), 64);
        assert_eq!(x.px(4.0), 375);
        // 311 px * 0.5 = 155.5: floored.
        assert_eq!(x.px(2.0), 219);
        // Outside the axis, outside the span.
        assert_eq!(x.px(-4.0), 64 - 311);
        let y = Linear::new(0.0, 10.0, f.y);
        assert_eq!(y.px(0.0), 239);
        assert_eq!(y.px(10.0), 40);
        // -199 px * 0.5 = -99.5: towards the start, as the x axis.
        assert_eq!(y.px(5.0), 140);
        // A thousandth of slack: 0.1 * 3 is 0.30000000000000004 but 0.29999… lands the same.
        let z = Linear::new(0.0, 1.0, Span { from: 0, to: 10 });
        assert_eq!(z.px(0.3), 3);
        assert_eq!(z.px(0.29999999), 3);
    }

    #[test]
    fn degenerate_values_stay_on_the_span() {
        let s = Span { from: 10, to: 110 };
        let x = Linear::new(0.0, 1.0, s);
        assert_eq!(x.px(f64::NAN), 10);
        assert_eq!(x.px(f64::INFINITY), 110);
        assert_eq!(x.px(f64::NEG_INFINITY), 10);
        assert_eq!(x.px(1e300), i32::MAX);
        assert_eq!(Linear::new(3.0, 3.0, s).px(3.0), 60);
        assert_eq!(Linear::new(0.0, 1.0, Span { from: 5, to: 5 }).px(0.7), 5);
    }

    #[test]
    fn log_scales_put_decades_at_equal_distances() {
        // The phase-proxy plot's axis: 0.7 to 1,000 over pixels 16 to 383, with its
        // decades where the committed figures have them.
        let x = Log::new(0.7, 1000.0, Span { from: 16, to: 383 });
        let px: Vec<i32> = [1.0, 10.0, 100.0, 1000.0]
            .iter()
            .map(|v| x.px(*v))
            .collect();
        assert_eq!(px, [34, 150, 266, 383]);
        assert_eq!(x.px(0.7), 16);
        assert_eq!(x.px(0.0), 16);
        assert_eq!(x.px(-1.0), 16);
        // No lower end: a hundred-thousandth of the upper one.
        let y = Log::new(0.0, 1e5, Span { from: 0, to: 100 });
        assert_eq!(y.px(1.0), 0);
        assert_eq!(y.px(1e5), 100);
    }
}
