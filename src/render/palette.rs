//! One colour per route, the same in tables and figures. A family's hue is its position
//! among the site's families (`dispatch.yaml`), a route's that of the family it names;
//! tables write it as the CSS class `hue-N`, figures as `f-hN`/`s-hN`, both over the
//! theme's six hues (`--blue`, `--purple`, `--orange`, `--green`, pink, `--yellow`).

use crate::model::Evidence;

/// How many hues the theme defines; positions beyond wrap around.
pub const HUES: usize = 6;

/// The hue of a family: its position among the families, or the last hue when unknown.
pub fn family(ev: &Evidence, id: &str) -> usize {
    ev.families
        .iter()
        .position(|f| f.id.value == id)
        .unwrap_or(HUES - 1)
        % HUES
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
