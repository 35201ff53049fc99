//! The pack's tables: its record tables ([`records`]) and what its binary probe runs found
//! ([`binary`]).

pub mod binary;
pub mod records;

use crate::model::directive::Directive;
use crate::model::types::Run;
use crate::render::scope::Scope;
use crate::render::table::Table;

/// The tables of one of the pack's directives; `None` for a directive of another.
pub fn tables(d: &Directive, s: &Scope) -> Option<Vec<Table>> {
    Some(match d {
        Directive::Bundles { arch, ids } => vec![records::bundles(s, arch.as_deref(), ids)],
        Directive::Generations => vec![records::generations(s)],
        Directive::TensorTypes => vec![records::tensor_types(s)],
        Directive::FatbinTargets => vec![binary::fatbin_targets(s)],
        Directive::TensorMix => vec![binary::tensor_mix(s)],
        Directive::FileTypes => vec![records::file_types(s)],
        Directive::Layers => vec![records::layers(s)],
        Directive::Plan => vec![records::plan(s)],
        _ => return None,
    })
}

/// What a binary probe run found, for the run's own page.
pub fn run_tables(s: &Scope, run: &Run, file: &str) -> Vec<Table> {
    let mut out = Vec::new();
    if run.fatbin.is_some() {
        out.push(binary::fatbin_targets_of(s, Some((run, file.to_string()))));
    }
    if run.gguf.is_some() {
        out.push(binary::tensor_mix_of(s, Some((run, file.to_string()))));
    }
    out
}
