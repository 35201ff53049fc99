//! What the packs a site turned on add to the core's pages: their directives' tables and
//! figures, the tables a run's own page gets, notes on core records. A pack gives them as
//! a [`RenderPart`] among its parts (`model::pack::Pack::parts`).

use super::directives::Shown;
use super::html::Html;
use super::scope::Scope;
use super::table::Table;
use crate::model::pack::{Pack, PackDirective};
use crate::model::refs::Ref;
use crate::model::types::{Case, Run};

/// How a pack renders: each method has a default of nothing, so a pack implements only
/// what it adds.
pub trait PackRender: Sync {
    /// Renders one of the pack's directives (`None` for one it does not know).
    fn directive(&self, d: &dyn PackDirective, s: &Scope) -> Option<Shown>;
    /// The tables it adds to a run's own page.
    fn run_tables(&self, _s: &Scope, _run: &Run, _file: &str) -> Vec<Table> {
        Vec::new()
    }
    /// What it says of one of its records where the core shows it by reference.
    fn brief(&self, _s: &Scope, _r: &Ref) -> Brief {
        Brief::default()
    }
    /// A note on a component's status cell, from the files it lists.
    fn component_note(&self, _s: &Scope, _files: &[String]) -> Option<Html> {
        None
    }
    /// Notes under a run's table: what its probe recorded of the run beyond its cases.
    fn run_notes(&self, _s: &Scope, _run: &Run) -> Vec<Html> {
        Vec::new()
    }
    /// A mark under a case's mode, as the key of its label.
    fn case_mark(&self, _s: &Scope, _case: &Case) -> Option<&'static str> {
        None
    }
    /// How a case ran, as the key of its label: shown in a run table's mode column (its
    /// heading the pack's message `col-mode`) and as the case's name in a timing plot.
    fn case_mode(&self, _s: &Scope, _case: &Case) -> Option<&'static str> {
        None
    }
    /// Parts of a run's note after its engine: what the run served (a model, an address).
    fn run_meta(&self, _s: &Scope, _run: &Run) -> Vec<Html> {
        Vec::new()
    }
    /// Columns of the runs index after the engine's, for the runs given in order.
    fn run_columns(&self, _s: &Scope, _runs: &[&Run]) -> Vec<RunColumn> {
        Vec::new()
    }
}

/// A column a pack adds to the runs index: its heading and a cell per run, in order.
pub struct RunColumn {
    pub heading: Html,
    pub cells: Vec<Html>,
}

/// A pack's renderer, as one of its parts.
pub struct RenderPart(pub &'static dyn PackRender);

/// What a pack says of one of its records where the core shows it by reference (a map
/// branch's anchor): a detail after its id (`96 KB`) and lines of code under it.
#[derive(Debug, Default)]
pub struct Brief {
    pub detail: Option<String>,
    pub code: Vec<String>,
}

/// The renderers of the packs the site turned on.
fn on<'s>(s: &'s Scope) -> impl Iterator<Item = &'static dyn PackRender> + 's {
    s.ev.packs_on()
        .filter_map(|p: &'static Pack| p.part::<RenderPart>())
        .map(|r| r.0)
}

/// Renders a pack's directive.
pub fn directive(d: &dyn PackDirective, s: &Scope) -> Shown {
    on(s)
        .find_map(|r| r.directive(d, s))
        .unwrap_or(Shown::Tables(Vec::new()))
}

/// The tables the packs add to a run's own page.
pub fn run_tables(s: &Scope, run: &Run, file: &str) -> Vec<Table> {
    on(s).flat_map(|r| r.run_tables(s, run, file)).collect()
}

/// The [`Brief`] of a record, empty for one no pack the site turned on describes.
pub fn brief(s: &Scope, r: &Ref) -> Brief {
    on(s)
        .map(|p| p.brief(s, r))
        .find(|b| b.detail.is_some() || !b.code.is_empty())
        .unwrap_or_default()
}

/// A note a pack adds to a component's status cell.
pub fn component_note(s: &Scope, files: &[String]) -> Option<Html> {
    on(s).find_map(|r| r.component_note(s, files))
}

/// Notes the packs add under a run's table.
pub fn run_notes(s: &Scope, run: &Run) -> Vec<Html> {
    on(s).flat_map(|r| r.run_notes(s, run)).collect()
}

/// A mark a pack shows under a case's mode; `None` for none.
pub fn case_mark(s: &Scope, case: &Case) -> Option<&'static str> {
    on(s).find_map(|r| r.case_mark(s, case))
}

/// How a case ran, as the key of its label, from the first pack that says; `None` for none.
pub fn case_mode(s: &Scope, case: &Case) -> Option<&'static str> {
    on(s).find_map(|r| r.case_mode(s, case))
}

/// Parts the packs add to a run's note after its engine.
pub fn run_meta(s: &Scope, run: &Run) -> Vec<Html> {
    on(s).flat_map(|r| r.run_meta(s, run)).collect()
}

/// Columns the packs add to the runs index, for `runs` in order.
pub fn run_columns(s: &Scope, runs: &[&Run]) -> Vec<RunColumn> {
    on(s).flat_map(|r| r.run_columns(s, runs)).collect()
}
