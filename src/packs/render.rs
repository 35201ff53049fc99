//! What the packs a site turned on add to the core's pages: the tables a run's own page
//! gets, notes on core records. (A pack's directives render through their own `Render`
//! impls.)

use crate::model::refs::Ref;
use crate::model::types::{Case, Run};
use crate::render::scope::Scope;
use crate::render::table::Table;

fn on(s: &Scope, name: &str) -> bool {
    s.ev.config.as_ref().is_some_and(|c| c.has_pack(name))
}

/// The tables a pack adds to a run's own page.
pub fn run_tables(s: &Scope, run: &Run, file: &str) -> Vec<Table> {
    let mut out = Vec::new();
    if on(s, super::ggml::PACK.name) {
        out.extend(super::ggml::render::run_tables(s, run, file));
    }
    out
}

/// What a pack says of one of its records where the core shows it by reference (a map
/// branch's anchor): a detail after its id (`96 KB`) and lines of code under it.
#[derive(Debug, Default)]
pub struct Brief {
    pub detail: Option<String>,
    pub code: Vec<String>,
}

/// The [`Brief`] of a record, empty for one no pack the site turned on describes.
pub fn brief(s: &Scope, r: &Ref) -> Brief {
    if on(s, super::ggml::PACK.name) {
        super::ggml::render::brief(s, r)
    } else {
        Brief::default()
    }
}

/// A note a pack adds to a component's status cell (what its latest run saw).
pub fn component_note(s: &Scope, files: &[String]) -> Option<crate::render::html::Html> {
    if on(s, super::ggml::PACK.name) {
        super::ggml::render::binary::component_note(s, files)
    } else {
        None
    }
}

/// Notes a pack adds under a run's table: what its probe recorded of the run beyond its
/// cases (settings, the machine, the model).
pub fn run_notes(s: &Scope, run: &Run) -> Vec<crate::render::html::Html> {
    if on(s, super::ggml::PACK.name) {
        super::ggml::render::engine::run_notes(s, run)
    } else {
        Vec::new()
    }
}

/// A mark a pack shows under a case's mode (how its probe kept a cache out), as the key
/// of its label; `None` for none.
pub fn case_mark(s: &Scope, case: &Case) -> Option<&'static str> {
    if on(s, super::ggml::PACK.name) {
        super::ggml::render::engine::case_mark(case)
    } else {
        None
    }
}
