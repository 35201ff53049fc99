//! Packs: what one kind of investigation adds to the core — record kinds, binary readers,
//! tables, probes, Fluent messages and CSS — each in a folder of its own, compiled in and turned
//! on per site by `packs: [name]` in `evidence.yaml`. A site that does not turn a pack on
//! cannot use its data files or directives, and gets none of its messages. (Engines,
//! statuses and measurements are the site's own vocabulary, not a pack's.)
//!
//! This file is the one list of packs; the core reaches a pack only through the items
//! here (and `packs::render`, `packs::check`, `packs::probe`), never by its name. A pack's
//! parts sit at the layers of the stages they belong to, and `tests/layers.rs` files them
//! there: its record types and persisted schema with `model`, its readers with `binary`,
//! its derived facts with `derive`, its rules with `check`, its tables with `render`, its
//! probes with `probe`.

pub mod check;
pub mod ggml;
pub mod probe;
pub mod render;

use crate::model::fields::Field;
use crate::model::registry::Kind;

pub use ggml::directives::{
    Bundles, FatbinTargets, FileTypes, Generations, Layers, Plan, TensorMix, TensorTypes,
};
pub use ggml::model::{
    Bundle, FileType, Generation, Layer, PlanStep, QuantizationFile, TargetStatus, TensorType,
};
pub use ggml::scans::*;

/// A directive a pack puts on a generated page: its name and its attributes.
pub type ExtraDirective = (&'static str, Vec<(&'static str, String)>);

/// What a pack adds, as the core's registries read it.
#[derive(Debug)]
pub struct Pack {
    /// Its name in `packs:` of `evidence.yaml`.
    pub name: &'static str,
    /// What it is for, in one line (for hints and `docs/authoring.md`).
    pub about: &'static str,
    /// The record kinds it adds; their entries are in the registry (`model::registry`).
    pub kinds: &'static [Kind],
    /// The directives it adds, by name; their specs are in `model::directive::SPECS`.
    pub directives: &'static [&'static str],
    /// Its Fluent messages by language, loaded as the built-in `locales/<lang>/<name>.ftl`.
    pub messages: &'static [(&'static str, &'static [u8])],
    /// The fields its probes write into a run, beside the core's (`model::fields`).
    pub run_fields: &'static [Field],
    /// The fields its probes write into a case: the measurements it declares, by name,
    /// and what else it keeps.
    pub case_fields: &'static [Field],
    /// Directives a run's own page shows after its tables, for a run of this pack's
    /// probes (a sweep's scatter plot): each a name and its attributes.
    pub run_page_extras: fn(&crate::model::Run) -> Vec<ExtraDirective>,
    /// Its stylesheet (empty for none), the built-in `static/packs/<name>.css`, which every
    /// page links after the theme's own.
    pub css: &'static [u8],
    /// The JSON Schemas of its data files and of the fields its probes write
    /// (`evidence schema`), made with the generator it is handed.
    pub schemas: fn(&mut schemars::SchemaGenerator) -> crate::model::json_schema::PackSchemas,
}

/// Calls `$m!` with the core's directives (from `model::directive::directive_list!`)
/// followed by every pack's, each as `Variant(Type)`.
macro_rules! pack_directives {
    ($m:ident; $($core:tt)*) => {
        $m! {
            $($core)*
            Bundles($crate::packs::ggml::directives::Bundles),
            Generations($crate::packs::ggml::directives::Generations),
            TensorTypes($crate::packs::ggml::directives::TensorTypes),
            FileTypes($crate::packs::ggml::directives::FileTypes),
            FatbinTargets($crate::packs::ggml::directives::FatbinTargets),
            TensorMix($crate::packs::ggml::directives::TensorMix),
            Layers($crate::packs::ggml::directives::Layers),
            Plan($crate::packs::ggml::directives::Plan),
        }
    };
}
pub(crate) use pack_directives;

/// Every pack this build knows.
pub const PACKS: &[&Pack] = &[&ggml::PACK];

/// The pack called `name`.
pub fn named(name: &str) -> Option<&'static Pack> {
    PACKS.iter().copied().find(|p| p.name == name)
}

/// The pack that adds `kind`, if a pack does.
pub fn of_kind(kind: Kind) -> Option<&'static Pack> {
    PACKS.iter().copied().find(|p| p.kinds.contains(&kind))
}

/// The pack that adds the directive `name`, if a pack does.
pub fn of_directive(name: &str) -> Option<&'static Pack> {
    PACKS.iter().copied().find(|p| p.directives.contains(&name))
}

/// The names of all packs, for hints.
pub fn names() -> String {
    PACKS.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
}
