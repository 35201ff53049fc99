//! One colour per route, the same in tables and figures. A family's hue is the colour it
//! names or else its position among the site's families (`maps.yaml`), a route's
//! that of the family it names.
//!
//! A theme hue is one of the theme's six (`--blue`, `--purple`, `--orange`, `--green`,
//! pink, `--yellow`): tables write it as the CSS class `hue-N`, figures as `f-hN`/`s-hN`.
//! A family with a CSS colour of its own gets classes named after it (`fam-<id>`,
//! `f-fam-<id>`, …), whose rules [`stylesheet`] and [`figure_style`] generate from
//! `maps.yaml`: the colour in each mode, a tint of it for backgrounds, and black on white
//! in print as the theme's hues.

use crate::model::Evidence;
use crate::model::colour::{Mode, ZoneColour};
use std::fmt::Write;

/// How many hues the theme defines; positions beyond wrap around.
pub const HUES: usize = 6;

/// The colour tables and figures show a family in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hue {
    /// One of the theme's hues, by index.
    Theme(usize),
    /// The family's own CSS colour, by its class-safe id.
    Custom(String),
}

impl Hue {
    /// The figure fill class (`f-h0`, `f-fam-x`).
    pub fn fill(&self) -> String {
        format!("f-{}", self.token())
    }

    /// The figure stroke class (`s-h0`, `s-fam-x`).
    pub fn stroke(&self) -> String {
        format!("s-{}", self.token())
    }

    /// The figure class filling with the background tint (`f-t0`, `t-fam-x`).
    pub fn tint(&self) -> String {
        match self {
            Hue::Theme(i) => format!("f-t{i}"),
            Hue::Custom(id) => format!("t-fam-{id}"),
        }
    }

    /// The figure class of text in the colour (`c-h0`, `c-fam-x`).
    pub fn text(&self) -> String {
        format!("c-{}", self.token())
    }

    fn token(&self) -> String {
        match self {
            Hue::Theme(i) => format!("h{i}"),
            Hue::Custom(id) => format!("fam-{id}"),
        }
    }
}

/// The hue of a family: the colour it names, else its position among the families, or
/// the last hue when unknown.
pub fn family(ev: &Evidence, id: &str) -> Hue {
    let Some(f) = ev.families.get(id) else {
        return Hue::Theme(HUES - 1);
    };
    match &f.colour {
        Some(ZoneColour::Theme(c)) => Hue::Theme(*c as usize),
        Some(_) => Hue::Custom(class_id(id)),
        None => Hue::Theme(
            ev.families
                .iter()
                .position(|g| g.id.value == id)
                .unwrap_or(0)
                % HUES,
        ),
    }
}

/// The hue of a route: its family's, or none (a plain badge) when it names no family.
pub fn route(ev: &Evidence, id: &str) -> Option<Hue> {
    let named = ev.routes.get(id)?.family.as_ref()?;
    Some(family(ev, &named.value))
}

/// The class of a badge in `hue` (or of a plain one).
pub fn class(hue: Option<Hue>) -> String {
    match hue {
        Some(Hue::Theme(h)) => format!("hue-{h}"),
        Some(Hue::Custom(id)) => format!("fam-{id}"),
        None => String::new(),
    }
}

/// A family id as a class name: letters, digits, `_`, `-` and `.` (as ids are); anything
/// else becomes `-`.
fn class_id(id: &str) -> String {
    crate::render::figures::slug(id)
}

/// A class as a CSS selector: `.` escaped, the one character of an id a selector reads.
fn selector(class: &str) -> String {
    format!(".{}", class.replace('.', "\\."))
}

/// The families with a CSS colour of their own, in file order, with their class id.
fn custom(ev: &Evidence) -> impl Iterator<Item = (String, [(Mode, String); 2])> + '_ {
    ev.families.iter().filter_map(|f| {
        let modes = f.colour.as_ref()?.modes()?;
        Some((class_id(&f.id.value), modes.map(|(m, c)| (m, c.hex()))))
    })
}

/// The media query a mode's rules sit in (none for light, the default).
fn media(mode: Mode) -> Option<&'static str> {
    match mode {
        Mode::Light => None,
        Mode::Dark => Some("@media (prefers-color-scheme: dark)"),
    }
}

/// Writes `rules` for `mode`, inside its media query when it has one.
fn in_mode(out: &mut String, mode: Mode, rules: &str) {
    match media(mode) {
        Some(q) => {
            let _ = writeln!(out, "{q} {{ {rules} }}");
        }
        None => {
            let _ = writeln!(out, "{rules}");
        }
    }
}

/// The page rules of the families with their own colour, appended to the built
/// `style.css`: `--t` and `--t-bg` as the theme's `hue-N` classes set them. Empty for a
/// site whose families all take theme colours.
pub fn stylesheet(ev: &Evidence) -> String {
    let mut out = String::new();
    for (id, modes) in custom(ev) {
        let sel = selector(&format!("fam-{id}"));
        for (mode, hex) in &modes {
            let share = mode.tint_share();
            let rules = format!(
                "{sel} {{ --t: {hex}; --t-bg: color-mix(in srgb, {hex} {share}%, var(--bg)); }}"
            );
            in_mode(&mut out, *mode, &rules);
        }
        let _ = writeln!(
            out,
            "@media print {{ {sel} {{ --t: #000; --t-bg: #fff; }} }}"
        );
    }
    if out.is_empty() {
        out
    } else {
        format!("\n/* families' own colours (data/maps.yaml) */\n{out}")
    }
}

/// The figure rules of the families with their own colour, after [`super::figures`]'
/// fixed style sheet: fill, stroke, tint and text classes in each mode.
pub fn figure_style(ev: &Evidence) -> String {
    let mut out = String::new();
    for (id, modes) in custom(ev) {
        let token = format!("fam-{id}");
        let var = format!("--evf-{}", id.replace('.', "\\."));
        let [f, s, t, c] = [
            format!("svg.evfig {}", selector(&format!("f-{token}"))),
            format!("svg.evfig {}", selector(&format!("s-{token}"))),
            format!("svg.evfig {}", selector(&format!("t-{token}"))),
            format!("svg.evfig text{}", selector(&format!("c-{token}"))),
        ];
        for (mode, hex) in &modes {
            let share = mode.tint_share();
            let rules = format!(
                "svg.evfig{{{var}:{hex};{var}-t:color-mix(in srgb,{hex} {share}%,var(--evf-bg))}}"
            );
            in_mode(&mut out, *mode, &rules);
        }
        let _ = writeln!(
            out,
            "@media print{{svg.evfig{{{var}:#000;{var}-t:#fff}}}}\n\
             {f}{{fill:var({var})}}{s}{{stroke:var({var})}}{t}{{fill:var({var}-t)}}{c}{{fill:var({var})}}"
        );
    }
    out
}
