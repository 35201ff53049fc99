//! The rules of the packs a site turned on, run by `check` after its own.

use crate::derive::Derived;
use crate::diagnostics::Diagnostics;
use crate::model::Evidence;

/// Runs the rules of every pack the site turned on.
pub fn check(ev: &Evidence, derived: &Derived, diags: &mut Diagnostics) {
    let on = |name: &str| ev.config.as_ref().is_some_and(|c| c.has_pack(name));
    if on(super::ggml::PACK.name) {
        super::ggml::check::check(ev, derived, diags);
    }
}
