//! A family's zone colour as `maps.yaml` writes it: one of the theme's six names, any CSS
//! colour, or a pair of CSS colours for the light and the dark mode.
//!
//! The CSS forms are parsed when read (`csscolorparser`), so that an unparsable colour is
//! an error at its place in the file and the contrast rule (`check::contrast`) and the
//! renderer work on numbers. The text as written is kept for messages.

use super::id::Id;
use super::types::Colour;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The page background of the built-in theme in light mode (`--bg` in `static/style.css`).
pub const LIGHT_BG: [u8; 3] = [0xff, 0xff, 0xff];
/// The page background of the built-in theme in dark mode (`--bg` in `static/style.css`'s
/// `prefers-color-scheme: dark` block).
pub const DARK_BG: [u8; 3] = [0x12, 0x15, 0x19];
/// The contrast a zone colour needs against the page background (WCAG 1.4.11).
pub const MIN_CONTRAST: f64 = 3.0;

/// A family's colour.
#[derive(Debug, Clone, PartialEq)]
pub enum ZoneColour {
    /// One of the theme's colours, which the theme's CSS defines for every mode.
    Theme(Colour),
    /// One CSS colour for both modes.
    Css(CssColour),
    /// A CSS colour for each mode.
    Pair { light: CssColour, dark: CssColour },
}

/// A CSS colour: the text as written (with its position) and its opaque sRGB value.
#[derive(Debug, Clone, PartialEq)]
pub struct CssColour {
    pub written: Id,
    /// Red, green and blue, 0–255.
    pub rgb: [u8; 3],
}

/// The two modes a colour is shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Light,
    Dark,
}

impl Mode {
    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Light => "light",
            Mode::Dark => "dark",
        }
    }

    /// The theme's page background in this mode.
    pub fn background(self) -> [u8; 3] {
        match self {
            Mode::Light => LIGHT_BG,
            Mode::Dark => DARK_BG,
        }
    }

    /// How much of a colour its background tint holds over the page background, in per
    /// cent: about what the theme's `--blue-bg` … hold of `--blue` ….
    pub fn tint_share(self) -> u8 {
        match self {
            Mode::Light => 10,
            Mode::Dark => 16,
        }
    }
}

impl CssColour {
    /// Parses `written`, or says why it is not a colour a zone can take.
    pub fn parse(written: Id) -> Result<CssColour, ColourError> {
        let text = written.value.as_str();
        let parsed =
            csscolorparser::parse(text).map_err(|_| ColourError::NotAColour(text.to_string()))?;
        let [r, g, b, a] = parsed.to_rgba8();
        if a != 255 {
            return Err(ColourError::Translucent(text.to_string()));
        }
        Ok(CssColour {
            written,
            rgb: [r, g, b],
        })
    }

    /// The colour as six-digit hex, the form written into CSS (never the text as written).
    pub fn hex(&self) -> String {
        hex(self.rgb)
    }
}

impl ZoneColour {
    /// The CSS colours to show in each mode, or none for a theme colour.
    pub fn modes(&self) -> Option<[(Mode, &CssColour); 2]> {
        match self {
            ZoneColour::Theme(_) => None,
            ZoneColour::Css(c) => Some([(Mode::Light, c), (Mode::Dark, c)]),
            ZoneColour::Pair { light, dark } => Some([(Mode::Light, light), (Mode::Dark, dark)]),
        }
    }
}

/// The relative luminance of an sRGB colour (WCAG 2.x).
pub fn luminance([r, g, b]: [u8; 3]) -> f64 {
    fn linear(c: u8) -> f64 {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    }
    0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/// The WCAG contrast ratio of two sRGB colours (1 to 21).
pub fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    let (hi, lo) = if la > lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

/// An sRGB colour as six-digit hex, as CSS and messages write it.
pub fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// How YAML writes a colour: a string (a theme name or a CSS colour) or a pair.
enum Written {
    One(String),
    Pair { light: Id, dark: Id },
}

impl<'de> Deserialize<'de> for Written {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Written, D::Error> {
        d.deserialize_any(WrittenVisitor)
    }
}

struct WrittenVisitor;

impl<'de> serde::de::Visitor<'de> for WrittenVisitor {
    type Value = Written;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a colour name, a CSS colour or `{light: …, dark: …}`")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Written, E> {
        Ok(Written::One(v.to_string()))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Written, A::Error> {
        let (mut light, mut dark) = (None, None);
        while let Some(key) = m.next_key::<String>()? {
            match key.as_str() {
                "light" => light = Some(m.next_value::<Id>()?),
                "dark" => dark = Some(m.next_value::<Id>()?),
                other => {
                    return Err(serde::de::Error::unknown_field(other, &["light", "dark"]));
                }
            }
        }
        match (light, dark) {
            (Some(light), Some(dark)) => Ok(Written::Pair { light, dark }),
            (None, _) => Err(serde::de::Error::missing_field("light")),
            (_, None) => Err(serde::de::Error::missing_field("dark")),
        }
    }
}

/// Why a zone's colour as written is none it can take (the text as written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ColourError {
    /// Neither a theme colour nor a CSS colour.
    NotAColour(String),
    /// A CSS colour that is not opaque.
    Translucent(String),
}

impl std::fmt::Display for ColourError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ColourError::NotAColour(text) => write!(
                f,
                "`{text}` is not a colour: give a theme colour (blue, purple, orange, green, \
                 pink, yellow), a CSS colour (`#c0392b`, `rgb(192 57 43)`, `hsl(6 63% 46%)`, \
                 `rebeccapurple`) or `{{light: …, dark: …}}`"
            ),
            ColourError::Translucent(text) => write!(
                f,
                "`{text}` is translucent: a zone colour must be opaque, so that its contrast \
                 does not depend on what lies beneath"
            ),
        }
    }
}

impl std::error::Error for ColourError {}

/// A theme name, else a CSS colour.
fn one(written: Id) -> Result<ZoneColour, ColourError> {
    use serde::de::IntoDeserializer;
    let name: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
        written.value.as_str().into_deserializer();
    match Colour::deserialize(name) {
        Ok(c) => Ok(ZoneColour::Theme(c)),
        Err(_) => CssColour::parse(written).map(ZoneColour::Css),
    }
}

fn pair(light: Id, dark: Id) -> Result<ZoneColour, ColourError> {
    Ok(ZoneColour::Pair {
        light: CssColour::parse(light)?,
        dark: CssColour::parse(dark)?,
    })
}

impl<'de> Deserialize<'de> for ZoneColour {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ZoneColour, D::Error> {
        use serde::de::Error;
        let s = serde_saphyr::Spanned::<Written>::deserialize(d)?;
        match s.value {
            Written::One(text) => one(Id {
                value: text,
                referenced: super::id::Pos::new(s.referenced.line(), s.referenced.column()),
            }),
            Written::Pair { light, dark } => pair(light, dark),
        }
        .map_err(D::Error::custom)
    }
}

impl Serialize for ZoneColour {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            ZoneColour::Theme(c) => c.serialize(s),
            ZoneColour::Css(c) => c.written.value.serialize(s),
            ZoneColour::Pair { light, dark } => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("light", &light.written.value)?;
                m.serialize_entry("dark", &dark.written.value)?;
                m.end()
            }
        }
    }
}

/// A theme name, a CSS colour, or a pair of CSS colours.
impl schemars::JsonSchema for ZoneColour {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ZoneColour".into()
    }

    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let theme = g.subschema_for::<Colour>();
        schemars::json_schema!({
            "description": "A theme colour, any opaque CSS colour (`#c0392b`, `#abc`, `rgb(…)`, `hsl(…)`, `rebeccapurple`) or one per mode; a CSS colour needs 3:1 contrast against the page background in light and dark mode.",
            "anyOf": [
                theme,
                {"type": "string", "description": "A CSS colour, shown in both modes."},
                {
                    "type": "object",
                    "properties": {
                        "light": {"type": "string", "description": "The CSS colour in light mode."},
                        "dark": {"type": "string", "description": "The CSS colour in dark mode."}
                    },
                    "required": ["light", "dark"],
                    "additionalProperties": false
                }
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(yaml: &str) -> Result<ZoneColour, String> {
        serde_saphyr::from_str::<ZoneColour>(yaml).map_err(|e| e.to_string())
    }

    fn css(yaml: &str) -> [u8; 3] {
        match read(yaml) {
            Ok(ZoneColour::Css(c)) => c.rgb,
            other => panic!("{yaml}: {other:?}"),
        }
    }

    #[test]
    fn theme_names_stay_theme_colours() {
        assert_eq!(read("blue"), Ok(ZoneColour::Theme(Colour::Blue)));
        assert_eq!(read("yellow"), Ok(ZoneColour::Theme(Colour::Yellow)));
    }

    #[test]
    fn every_css_form_is_read() {
        assert_eq!(css("'#c0392b'"), [0xc0, 0x39, 0x2b]);
        assert_eq!(css("'#abc'"), [0xaa, 0xbb, 0xcc]);
        assert_eq!(css("rgb(192 57 43)"), [192, 57, 43]);
        assert_eq!(css("hsl(120, 100%, 25%)"), [0, 128, 0]);
        assert_eq!(css("rebeccapurple"), [0x66, 0x33, 0x99]);
    }

    #[test]
    fn a_pair_keeps_both_and_where_each_was_written() {
        let Ok(ZoneColour::Pair { light, dark }) = read("{light: '#0a55b8', dark: wheat}") else {
            panic!("not a pair");
        };
        assert_eq!(light.hex(), "#0a55b8");
        assert_eq!(dark.hex(), "#f5deb3");
        assert_eq!(dark.written.value, "wheat");
        assert_eq!(dark.written.referenced.column(), 26);
    }

    #[test]
    fn unparsable_translucent_and_incomplete_colours_are_refused_by_name() {
        let e = read("'#ggg'").err().unwrap_or_default();
        assert!(e.contains("`#ggg` is not a colour"), "{e}");
        let e = read("rgb(0 0 0 / 50%)").err().unwrap_or_default();
        assert!(e.contains("translucent"), "{e}");
        let e = read("{light: red}").err().unwrap_or_default();
        assert!(e.contains("dark"), "{e}");
        let e = read("{light: red, dark: red, print: red}")
            .err()
            .unwrap_or_default();
        assert!(e.contains("print"), "{e}");
    }

    #[test]
    fn a_colour_error_says_the_message_of_old() {
        assert_eq!(
            ColourError::Translucent("#0008".into()).to_string(),
            "`#0008` is translucent: a zone colour must be opaque, so that its contrast does \
             not depend on what lies beneath"
        );
        assert!(
            ColourError::NotAColour("#ggg".into())
                .to_string()
                .ends_with("`rebeccapurple`) or `{light: …, dark: …}`")
        );
    }

    #[test]
    fn contrast_follows_wcag() {
        assert!((contrast([0, 0, 0], [255, 255, 255]) - 21.0).abs() < 1e-9);
        assert!((contrast([9, 9, 9], [9, 9, 9]) - 1.0).abs() < 1e-9);
        // #767676 is the classic 4.5:1 grey on white.
        let grey = contrast([0x76, 0x76, 0x76], [255, 255, 255]);
        assert!((grey - 4.54).abs() < 0.01, "{grey}");
    }

    #[test]
    fn the_backgrounds_are_those_of_the_style_sheet() {
        let css = include_str!("../../../../static/style.css");
        let light = format!("--bg: {};", hex(LIGHT_BG));
        let dark = format!("--bg: {};", hex(DARK_BG));
        let dark_block = css
            .split("@media (prefers-color-scheme: dark)")
            .nth(1)
            .unwrap_or_default();
        let root = css.split("@media").next().unwrap_or_default();
        assert!(root.contains(&light), "light --bg is not {light}");
        assert!(dark_block.contains(&dark), "dark --bg is not {dark}");
    }
}
