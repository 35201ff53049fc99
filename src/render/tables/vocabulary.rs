//! The words of the site's vocabulary (`data/vocabulary.yaml`) as tables show them: a
//! component status as a badge coloured by how far it saw, an engine or a measurement by
//! its label. A word the vocabulary lacks (already an error in `check`) shows as code.

use super::code;
use crate::model::Seen;
use crate::model::types::NO_ENGINE;
use crate::render::scope::Scope;

/// A component status as a badge, classed `seen-loaded`, `seen-binary` or `seen-absent`.
pub fn status_badge(s: &Scope, id: &str) -> String {
    let (class, label) = match s.ev.statuses.get(id) {
        Some(st) => (
            match st.seen {
                Seen::Loaded => "seen-loaded",
                Seen::Binary => "seen-binary",
                Seen::Absent => "seen-absent",
            },
            s.fluent(&st.label),
        ),
        None => ("", code(id)),
    };
    super::records::badge(class, label)
}

/// An engine by its label (`none`, a run that read a file, by the theme's message).
pub fn engine(s: &Scope, id: &str) -> String {
    match s.ev.engines.get(id) {
        Some(e) => s.fluent(&e.label),
        None if id == NO_ENGINE => s.ui("engine-none"),
        None => code(id),
    }
}

/// A measurement by its label, with its unit in parentheses; its name as code when the
/// site did not declare it.
pub fn measurement(s: &Scope, name: &str) -> String {
    match s.ev.measurements.get(name) {
        Some(m) => s.fluent(&m.labelled()),
        None => code(name),
    }
}
