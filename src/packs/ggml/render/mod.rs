//! The pack's tables: its directives' [`Render`] impls, its record tables ([`records`])
//! and what its binary probe runs found ([`binary`]).

pub mod binary;
pub mod engine;
pub mod records;

use super::directives as d;
use crate::model::types::Run;
use crate::packs::ggml::runs::EngineRun;
use crate::render::directives::{Render, Shown};
use crate::render::scope::Scope;
use crate::render::table::Table;

crate::render::tables::tables! {
    d::Bundles => |d, s| vec![records::bundles(s, d.arch.as_deref(), &d.ids)];
    d::Generations => |_d, s| vec![records::generations(s)];
    d::TensorTypes => |_d, s| vec![records::tensor_types(s)];
    d::FatbinTargets => |d, s| vec![binary::fatbin_targets(s, d.run.as_deref())];
    d::TensorMix => |d, s| vec![binary::tensor_mix(s, d.run.as_deref())];
    d::FileTypes => |_d, s| vec![records::file_types(s)];
    d::Layers => |_d, s| vec![records::layers(s)];
    d::Plan => |_d, s| vec![records::plan(s)];
}

/// What a binary probe run found, for the run's own page.
pub fn run_tables(s: &Scope, run: &Run, file: &str) -> Vec<Table> {
    let mut out = Vec::new();
    if run.fatbin().is_some() {
        out.push(binary::fatbin_targets_of(
            s,
            Some((run, file.to_string())),
            false,
        ));
    }
    if run.gguf().is_some() {
        out.push(binary::tensor_mix_of(
            s,
            Some((run, file.to_string())),
            false,
        ));
    }
    out
}

/// A bundle, where a map branch names it as its anchor: its size and key symbols.
pub fn brief(s: &Scope, r: &crate::model::refs::Ref) -> crate::packs::render::Brief {
    use crate::model::refs::Kind;
    match (r.kind, s.ev.bundles.get(&r.id)) {
        (Kind::Bundle, Some(b)) => crate::packs::render::Brief {
            detail: b.size_kb.map(|k| format!("{k} KB")),
            code: b.symbols.clone(),
        },
        _ => Default::default(),
    }
}
