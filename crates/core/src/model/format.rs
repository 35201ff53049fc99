//! Numbers as the site writes them: digits grouped by thousands, nanoseconds as seconds,
//! a change with its sign and one decimal (`+12.5`).
//!
//! Shared by the tables, the figures and the `:v[…|s]` quotes in data texts, so a value
//! reads the same wherever it appears. Written by hand, without `write!` (and in integers,
//! but for a change's tenths): formatting was a tenth of rendering a sweep.

/// A number with thousands separators (`17,455,000,000`).
pub fn group_digits(n: u64) -> String {
    let mut out = String::new();
    write_digits(&mut out, n);
    out
}

/// [`group_digits`], appending to `out`.
pub fn write_digits(out: &mut String, n: u64) {
    write_padded(out, n, 0, true);
}

/// Writes `n` in decimal, at least `width` digits (zero-padded), with thousands
/// separators when `group`.
fn write_padded(out: &mut String, mut n: u64, width: usize, group: bool) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 && buf.len() - i >= width {
            break;
        }
    }
    let digits = &buf[i..];
    for (k, d) in digits.iter().enumerate() {
        if group && k > 0 && (digits.len() - k) % 3 == 0 {
            out.push(',');
        }
        out.push(char::from(*d));
    }
}

/// Nanoseconds as seconds with up to four decimals (`17.455 s`).
/// Rounded half up in integers: float formatting was a tenth of rendering a sweep.
pub fn seconds(ns: u64) -> String {
    let mut out = String::new();
    write_seconds(&mut out, ns);
    out
}

/// [`seconds`], appending to `out`.
pub fn write_seconds(out: &mut String, ns: u64) {
    let tenths_of_ms = ns / 100_000 + u64::from(ns % 100_000 >= 50_000);
    let (whole, mut frac) = (tenths_of_ms / 10_000, tenths_of_ms % 10_000);
    write_padded(out, whole, 0, false);
    if frac > 0 {
        let mut places = 4;
        while frac % 10 == 0 {
            frac /= 10;
            places -= 1;
        }
        out.push('.');
        write_padded(out, frac, places, false);
    }
    out.push_str(" s");
}

/// `x` with its sign and one decimal, exactly as `format!("{x:+.1}")` writes it. A table
/// of probe runs writes one per changed duration per case; the formatter's exact
/// decimal rounding costs more than the rest of the cell. Tenths are counted in `f64`,
/// whose rounding is that of the exact value unless the count lies within a hair of a
/// half, which is left to the formatter, as are huge and non-finite values.
pub fn write_signed_tenths(out: &mut String, x: f64) {
    let tenths = x * 10.0;
    let half_way = ((tenths - tenths.trunc()).abs() - 0.5).abs() < 1e-6;
    if !tenths.is_finite() || tenths.abs() >= 1e15 || half_way {
        let _ = std::fmt::Write::write_fmt(out, format_args!("{x:+.1}"));
        return;
    }
    let n = tenths.round().abs() as u64;
    out.push(if x.is_sign_negative() { '-' } else { '+' });
    write_padded(out, n / 10, 0, false);
    out.push('.');
    out.push(char::from(b'0' + (n % 10) as u8));
}

/// How many decimal places the shortest decimal that reads back `x` has: the places it
/// was written with, for a value read from data (`0.0068` → 4, `290` → 0).
pub fn decimal_places(x: f64) -> usize {
    if !x.is_finite() || x.fract() == 0.0 {
        return 0;
    }
    // `{}` writes an `f64` as its shortest round-trip decimal, never in exponent form.
    let text = x.to_string();
    text.find('.').map_or(0, |dot| text.len() - dot - 1)
}

/// `x` rounded to `places` decimals (half away from zero on the exact binary value, as
/// the formatter rounds), with a zero never negative.
pub fn round_to(x: f64, places: usize) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let rounded = format!("{x:.places$}").parse::<f64>().unwrap_or(x);
    if rounded == 0.0 { 0.0 } else { rounded }
}

/// `b - a` at the precision of its operands: subtracting two decimals in binary leaves
/// noise past their last written place (`0.0068 - 0.0045` = `0.0022999999999999996`),
/// which is rounded away; no change is `0`, never `-0`.
pub fn difference(a: f64, b: f64) -> f64 {
    round_to(b - a, decimal_places(a).max(decimal_places(b)))
}

/// The mean of `a` and `b` at one place more than its operands (`0.1`, `0.2` → `0.15`):
/// the middle of an even count of repetitions, without binary noise.
pub fn midpoint(a: f64, b: f64) -> f64 {
    round_to((a + b) / 2.0, decimal_places(a).max(decimal_places(b)) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_tenths_are_the_formatters() {
        let tenths = |x: f64| {
            let mut s = String::new();
            write_signed_tenths(&mut s, x);
            s
        };
        let mut xs = vec![
            0.0,
            -0.0,
            0.04,
            -0.04,
            0.05,
            -0.05,
            0.25,
            0.35,
            1.45,
            -2.55,
            9.95,
            99.95,
            3688.2,
            -42.8,
            1e14,
            -1e15,
            1e300,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        // A spread of magnitudes and of values near a half of a tenth.
        let mut v = 1.2345e-3_f64;
        while v < 1e16 {
            for x in [v, -v, v + 0.05, (v * 10.0).round() / 10.0 + 0.05] {
                xs.push(x);
                xs.push(f64::from_bits(x.to_bits() + 1));
                xs.push(f64::from_bits(x.to_bits().saturating_sub(1)));
            }
            v *= 1.37;
        }
        for x in xs {
            assert_eq!(tenths(x), format!("{x:+.1}"), "{x:e}");
        }
        assert_eq!(tenths(3688.2), "+3688.2");
        assert_eq!(tenths(-0.04), "-0.0");
    }

    #[test]
    fn differences_keep_their_operands_precision() {
        assert_ne!(0.00565 - 0.008, -0.00235, "the noise this guards against");
        assert_eq!(difference(0.008, 0.00565), -0.00235);
        assert_eq!(difference(0.008, 0.00565).to_string(), "-0.00235");
        assert_eq!(difference(0.0045, 0.0068), 0.0023);
        assert_eq!(difference(0.0068, 0.0045), -0.0023);
        assert_eq!(difference(0.0068, 0.0045).to_string(), "-0.0023");
        assert_eq!(difference(0.1, 0.2).to_string(), "0.1");
        assert_eq!(difference(1.5, 0.25), -1.25);
        assert_eq!(difference(64_300.0, 76_600.0), 12_300.0);
        // No change is a positive zero, whatever the operands' signs.
        assert!(difference(-0.0, 0.0).is_sign_positive());
        assert!(difference(0.3, 0.3).is_sign_positive());
        assert!(round_to(-0.00001, 2).is_sign_positive());
        assert_eq!(decimal_places(0.0068), 4);
        assert_eq!(decimal_places(290.0), 0);
        assert_eq!(decimal_places(1e-7), 7);
        assert_eq!(decimal_places(f64::NAN), 0);
        assert!(difference(1.0, f64::INFINITY).is_infinite());
        assert_eq!(midpoint(0.1, 0.2), 0.15);
        assert_eq!(midpoint(0.0045, 0.0068), 0.00565);
    }

    #[test]
    fn digits_and_seconds() {
        assert_eq!(group_digits(17455000000), "17,455,000,000");
        assert_eq!(group_digits(290), "290");
        assert_eq!(seconds(17_455_000_000), "17.455 s");
        assert_eq!(seconds(23_800_000), "0.0238 s");
        assert_eq!(seconds(147_900_000), "0.1479 s");
        assert_eq!(seconds(0), "0 s");
        assert_eq!(seconds(2_000_000_000), "2 s");
        assert_eq!(seconds(999_960_000), "1 s");
        assert_eq!(seconds(30_229_026), "0.0302 s");
        assert_eq!(seconds(u64::MAX), "18446744073.7096 s");
    }
}

/// A measured or bound value: shown and serialized as a whole number when it is one
/// (`290`, not `290.0`), else as the shortest decimal that reads back the same (`0.05`).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Decimal(pub f64);

impl Decimal {
    /// The value as a whole number, when it is one that fits.
    fn whole(self) -> Option<i64> {
        let v = self.0;
        (v.fract() == 0.0 && v.abs() < 9.0e15).then_some(v as i64)
    }
}

impl std::fmt::Display for Decimal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.whole() {
            Some(n) => write!(f, "{n}"),
            None => write!(f, "{}", self.0),
        }
    }
}

impl serde::Serialize for Decimal {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.whole() {
            Some(n) => s.serialize_i64(n),
            None => s.serialize_f64(self.0),
        }
    }
}

#[cfg(test)]
mod decimal_tests {
    use super::Decimal;

    #[test]
    fn whole_numbers_have_no_fraction() {
        assert_eq!(Decimal(290.0).to_string(), "290");
        assert_eq!(Decimal(-3.0).to_string(), "-3");
        assert_eq!(Decimal(0.05).to_string(), "0.05");
        assert_eq!(Decimal(1.1).to_string(), "1.1");
        assert_eq!(serde_json::to_string(&Decimal(290.0)).unwrap(), "290");
        assert_eq!(serde_json::to_string(&Decimal(0.05)).unwrap(), "0.05");
        assert_eq!(Decimal(1e20).to_string(), "100000000000000000000");
    }
}

#[cfg(test)]
mod difference_tests {
    #[test]
    fn differences_carry_no_binary_noise() {
        assert_eq!(super::difference(31.76, 31.49).to_string(), "-0.27");
        assert_eq!(super::difference(1319.81, 1332.28).to_string(), "12.47");
        assert_eq!(super::difference(0.248, 0.279).to_string(), "0.031");
        assert_eq!(super::difference(3.0, 290.0), 287.0);
    }
}
