//! One colour per route, the same in tables and figures. A family's hue is the colour it
//! names or else its position among the site's families (`maps.yaml`), a route's
//! that of the family it names;
//! tables write it as the CSS class `hue-N`, figures as `f-hN`/`s-hN`, both over the
//! theme's six hues (`--blue`, `--purple`, `--orange`, `--green`, pink, `--yellow`).

use crate::model::Evidence;

/// How many hues the theme defines; positions beyond wrap around.
pub const HUES: usize = 6;

/// The hue of a family: the colour it names, else its position among the families, or
/// the last hue when unknown.
pub fn family(ev: &Evidence, id: &str) -> usize {
    match ev.families.get(id) {
        Some(f) => match f.colour {
            Some(c) => c as usize,
            None => {
                ev.families
                    .iter()
                    .position(|g| g.id.value == id)
                    .unwrap_or(0)
                    % HUES
            }
        },
        None => HUES - 1,
    }
}

/// The hue of a route: its family's, or none (a plain badge) when it names no family.
pub fn route(ev: &Evidence, id: &str) -> Option<usize> {
    let named = ev.routes.get(id)?.family.as_ref()?;
    Some(family(ev, &named.value))
}

/// The class of a badge in `hue` (or of a plain one).
pub fn class(hue: Option<usize>) -> String {
    hue.map(|h| format!("hue-{h}")).unwrap_or_default()
}
