//! A family's own colour is read against the page: it must reach 3:1 contrast with the
//! theme's background in the mode it is shown in (light, dark or both), as the theme's
//! own six colours do (WCAG 1.4.11, non-text contrast).

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::model::colour::{self, CssColour, MIN_CONTRAST, Mode};
use crate::model::{Evidence, span_of};

/// Judges every family's CSS colour in every mode it is shown in.
pub fn check(ev: &Evidence, diags: &mut Diagnostics) {
    for f in ev.families.iter() {
        let Some(modes) = f.colour.as_ref().and_then(|c| c.modes()) else {
            continue;
        };
        for (mode, c) in modes {
            if let Some(d) = judge(&f.file, mode, c) {
                diags.push(d);
            }
        }
    }
}

/// The error for `c` when it is too faint against `mode`'s background.
fn judge(file: &str, mode: Mode, c: &CssColour) -> Option<Diagnostic> {
    let ratio = colour::contrast(c.rgb, mode.background());
    if ratio >= MIN_CONTRAST {
        return None;
    }
    let message = format!(
        "`{}` has {}:1 against the {} background ({}); zones need {MIN_CONTRAST}:1",
        c.written.value,
        one_decimal_down(ratio),
        mode.name(),
        colour::hex(mode.background()),
    );
    Some(
        Diagnostic::error("low-contrast", span_of(file, &c.written), message).with_hint(
            "choose a darker colour for light mode or a lighter one for dark mode, or give \
             one per mode: `colour: {light: …, dark: …}`",
        ),
    )
}

/// `ratio` to one decimal, rounded down so that a colour just short of 3:1 never reads
/// as `3.0:1`.
fn one_decimal_down(ratio: f64) -> String {
    format!("{:.1}", (ratio * 10.0).floor() / 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Id;

    fn colour(text: &str) -> CssColour {
        CssColour::parse(Id::unplaced(text)).unwrap_or_else(|e| panic!("{e}"))
    }

    fn message(mode: Mode, text: &str) -> Option<String> {
        judge("data/maps.yaml", mode, &colour(text)).map(|d| d.message.to_string())
    }

    #[test]
    fn a_mid_tone_passes_both_modes() {
        assert_eq!(message(Mode::Light, "#c0392b"), None);
        assert_eq!(message(Mode::Dark, "#e0603f"), None);
        assert_eq!(message(Mode::Light, "#808080"), None);
        assert_eq!(message(Mode::Dark, "#808080"), None);
    }

    #[test]
    fn a_light_colour_fails_in_light_mode_by_its_name_and_ratio() {
        assert_eq!(
            message(Mode::Light, "#ffd700").as_deref(),
            Some("`#ffd700` has 1.4:1 against the light background (#ffffff); zones need 3:1")
        );
        assert_eq!(message(Mode::Dark, "#ffd700"), None);
    }

    #[test]
    fn a_dark_colour_fails_in_dark_mode() {
        let m = message(Mode::Dark, "navy").unwrap_or_default();
        assert!(
            m.starts_with("`navy` has 1.") && m.contains("dark background (#121519)"),
            "{m}"
        );
        assert_eq!(message(Mode::Light, "navy"), None);
    }

    #[test]
    fn a_ratio_just_short_of_three_is_not_written_as_three() {
        assert_eq!(one_decimal_down(2.99), "2.9");
        assert_eq!(one_decimal_down(3.0), "3.0");
    }
}
