//! Numbers in the reader's language: `2,466,000` and `0.2466` in English, `2.466.000` and
//! `0,2466` in German, by ICU4X's decimal formatter for the language's locale.
//!
//! A language whose numbers look like the hand-written ones of [`super::format`] (ASCII
//! digits, `,` every three places, `.` before the fraction: English, Japanese, …) keeps
//! them, as they cost a tenth of the formatter's; any other goes through ICU4X.
//! `evidence.json` and run files never come here: they stay machine-formatted.

use super::format;
use super::lang::Lang;
use icu_decimal::input::{Decimal as Digits, SignDisplay};
use icu_decimal::options::{DecimalFormatterOptions, GroupingStrategy};
use icu_decimal::{DecimalFormatter, DecimalFormatterPreferences};
use std::cell::RefCell;
use std::fmt::Write as _;

/// How one language writes numbers.
#[derive(Debug)]
pub struct Numerals {
    lang: Lang,
    /// The locale's formatter with its grouping, and one that never groups; `None` when
    /// the language writes numbers as [`super::format`] does.
    icu: Option<(DecimalFormatter, DecimalFormatter)>,
}

thread_local! {
    /// Numerals made so far on this thread, one per language, leaked once like the
    /// tags (ICU4X's formatter is not `Sync`; a build has a thread per core).
    static MADE: RefCell<Vec<(Lang, &'static Numerals)>> = const { RefCell::new(Vec::new()) };
}

/// What every language that keeps the hand-written numbers writes for [`PROBE`].
const PLAIN_PROBE: &str = "-1,234,567.25";
/// A number whose formatting shows a locale's digits, signs and separators.
const PROBE: &str = "-1234567.25";

impl Numerals {
    /// How `lang` writes numbers.
    pub fn of(lang: Lang) -> &'static Numerals {
        MADE.with_borrow_mut(|made| {
            if let Some((_, n)) = made.iter().find(|(l, _)| *l == lang) {
                return *n;
            }
            let n: &'static Numerals = Box::leak(Box::new(Numerals::new(lang)));
            made.push((lang, n));
            n
        })
    }

    /// The locale's formatters, unless they write what [`super::format`] does. A tag
    /// ICU4X cannot read, or a locale it has no data for, falls back to its root locale.
    fn new(lang: Lang) -> Numerals {
        let prefs = icu_locale_core::Locale::try_from_str(lang.code())
            .map(|l| DecimalFormatterPreferences::from(&l))
            .unwrap_or_default();
        let make = |grouping| {
            let options = DecimalFormatterOptions::from(grouping);
            DecimalFormatter::try_new(prefs, options)
                .or_else(|_| DecimalFormatter::try_new(Default::default(), options))
                .ok()
        };
        let icu = make(GroupingStrategy::Auto).zip(make(GroupingStrategy::Never));
        let plain = icu.as_ref().is_none_or(|(grouped, _)| {
            Digits::try_from_str(PROBE).is_ok_and(|d| grouped.format(&d).to_string() == PLAIN_PROBE)
        });
        Numerals {
            lang,
            icu: if plain { None } else { icu },
        }
    }

    /// Whether `self` and `other` write every number alike.
    pub fn writes_like(&self, other: &Numerals) -> bool {
        self.lang == other.lang || (self.is_plain() && other.is_plain())
    }

    /// Whether the language writes numbers as [`super::format`] does.
    pub fn is_plain(&self) -> bool {
        self.icu.is_none()
    }

    /// Appends `text`, a machine-written decimal (`-12300.5`), in this language: grouped
    /// or not, and with a `+` before a positive number when `plus`.
    fn write_text(&self, out: &mut String, text: &str, grouped: bool, plus: bool) {
        let Some((with, without)) = &self.icu else {
            out.push_str(text);
            return;
        };
        let Ok(mut digits) = Digits::try_from_str(text) else {
            // Not a number (`NaN`, `inf`): written as it is.
            out.push_str(text);
            return;
        };
        if plus {
            digits.apply_sign_display(SignDisplay::ExceptZero);
        }
        let formatter = if grouped { with } else { without };
        let _ = write!(out, "{}", formatter.format(&digits));
    }

    /// A whole number with the language's group separators (`17,455,000,000`).
    pub fn digits(&self, n: u64) -> String {
        let mut out = String::new();
        self.write_digits(&mut out, n);
        out
    }

    /// [`Numerals::digits`], appending to `out`.
    pub fn write_digits(&self, out: &mut String, n: u64) {
        if self.is_plain() {
            format::write_digits(out, n);
        } else {
            self.write_text(out, &n.to_string(), true, false);
        }
    }

    /// Nanoseconds as seconds with up to four decimals (`17.455 s`, `17,455 s`).
    pub fn seconds(&self, ns: u64) -> String {
        let mut out = String::new();
        self.write_seconds(&mut out, ns);
        out
    }

    /// [`Numerals::seconds`], appending to `out`.
    pub fn write_seconds(&self, out: &mut String, ns: u64) {
        if self.is_plain() {
            return format::write_seconds(out, ns);
        }
        let plain = format::seconds(ns);
        let number = plain.strip_suffix(" s").unwrap_or(&plain);
        self.write_text(out, number, false, false);
        out.push_str(" s");
    }

    /// A measured value as [`format::Decimal`] writes it (the shortest decimal that reads
    /// back the same), grouped (`64,300`, `0.2466`, `2.466.000`).
    pub fn write_number(&self, out: &mut String, x: f64) {
        self.write_decimal(out, x, true, false);
    }

    /// [`Numerals::write_number`], as a `String`.
    pub fn number(&self, x: f64) -> String {
        let mut out = String::new();
        self.write_number(&mut out, x);
        out
    }

    /// A change: [`Numerals::write_number`] with its sign (`+12,300`, `-0.0023`).
    pub fn write_signed(&self, out: &mut String, x: f64) {
        self.write_decimal(out, x, true, true);
    }

    /// `x` with its sign and one decimal (`+12.5`), as [`format::write_signed_tenths`].
    pub fn write_signed_tenths(&self, out: &mut String, x: f64) {
        if self.is_plain() {
            return format::write_signed_tenths(out, x);
        }
        let mut plain = String::new();
        format::write_signed_tenths(&mut plain, x);
        let unsigned = plain.strip_prefix('+').unwrap_or(&plain);
        self.write_text(out, unsigned, true, true);
    }

    /// A number as it is written in a sentence quoting data: the language's decimal
    /// separator, but no grouping the author did not ask for (`|n` asks).
    pub fn quoted(&self, x: f64) -> String {
        let mut out = String::new();
        self.write_decimal(&mut out, x, false, false);
        out
    }

    fn write_decimal(&self, out: &mut String, x: f64, grouped: bool, plus: bool) {
        let text = format::Decimal(x).to_string();
        if self.is_plain() {
            if grouped && let Some(whole) = whole_u64(x) {
                if plus && x > 0.0 {
                    out.push('+');
                }
                if x < 0.0 {
                    out.push('-');
                }
                return format::write_digits(out, whole);
            }
            if plus && x > 0.0 {
                out.push('+');
            }
            return write_grouped_plain(out, &text, grouped);
        }
        self.write_text(out, &text, grouped, plus);
    }
}

/// The magnitude of `x` when it is a whole number a `u64` holds exactly.
fn whole_u64(x: f64) -> Option<u64> {
    let m = x.abs();
    (m.fract() == 0.0 && m < 9.0e15).then_some(m as u64)
}

/// `text` (`-12345.678`) with `,` between groups of three whole digits when `grouped`.
fn write_grouped_plain(out: &mut String, text: &str, grouped: bool) {
    let (sign, rest) = match text.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", text),
    };
    let (whole, fraction) = rest
        .split_once('.')
        .map_or((rest, None), |(w, f)| (w, Some(f)));
    out.push_str(sign);
    for (k, c) in whole.chars().enumerate() {
        if grouped && k > 0 && (whole.len() - k) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if let Some(f) = fraction {
        out.push('.');
        out.push_str(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lang(tag: &str) -> Lang {
        Lang::parse(tag).unwrap()
    }

    #[test]
    fn english_and_japanese_keep_the_plain_numbers() {
        for tag in ["en", "ja"] {
            let n = Numerals::of(lang(tag));
            assert!(n.is_plain(), "{tag}");
            assert_eq!(n.digits(2_466_000), "2,466,000");
            assert_eq!(n.number(0.2466), "0.2466");
            assert_eq!(n.number(-12_300.5), "-12,300.5");
            assert_eq!(n.seconds(17_455_000_000), "17.455 s");
            let mut s = String::new();
            n.write_signed(&mut s, 12_300.0);
            assert_eq!(s, "+12,300");
            assert_eq!(n.quoted(12_300.25), "12300.25");
        }
    }

    #[test]
    fn german_groups_with_dots_and_writes_a_decimal_comma() {
        let n = Numerals::of(lang("de"));
        assert!(!n.is_plain());
        assert_eq!(n.digits(2_466_000), "2.466.000");
        assert_eq!(n.number(0.2466), "0,2466");
        assert_eq!(n.number(64_300.0), "64.300");
        assert_eq!(n.seconds(17_455_000_000), "17,455 s");
        assert_eq!(n.seconds(0), "0 s");
        let signed = |x: f64| {
            let mut s = String::new();
            n.write_signed(&mut s, x);
            s
        };
        assert_eq!(signed(12_300.0), "+12.300");
        assert_eq!(signed(-0.0023), "-0,0023");
        let mut s = String::new();
        n.write_signed_tenths(&mut s, 12.54);
        assert_eq!(s, "+12,5");
        assert_eq!(n.quoted(12_300.25), "12300,25");
    }

    #[test]
    fn a_language_without_data_falls_back_to_the_root_locale() {
        let n = Numerals::of(lang("tlh"));
        assert_eq!(n.digits(2_466_000), "2,466,000");
    }
}
