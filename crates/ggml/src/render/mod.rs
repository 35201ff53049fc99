//! The pack's tables: its directives' [`Render`] impls, its record tables ([`records`])
//! and what its binary probe runs found ([`binary`]).

pub mod binary;
pub mod engine;
pub mod records;

use super::directives as d;
use crate::runs::EngineRun;
use evidence_core::model::pack::PackDirective;
use evidence_core::model::types::{Case, Run};
use evidence_core::render::directives::{Render, Shown};
use evidence_core::render::html::Html;
use evidence_core::render::pack::{Brief, PackRender, RenderPart};
use evidence_core::render::scope::Scope;
use evidence_core::render::table::Table;

evidence_core::render::tables::tables! {
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
pub fn brief(s: &Scope, r: &evidence_core::model::refs::Ref) -> Brief {
    match crate::model::bundles(s.ev).get(&r.id) {
        Some(b) if r.kind == crate::model::BUNDLE => Brief {
            detail: b.size_kb.map(|k| format!("{k} KB")),
            code: b.symbols.clone(),
        },
        _ => Brief::default(),
    }
}

/// How the pack renders, as the core's pages ask it.
pub struct Renderer;

/// The pack's renderer, as one of its parts.
pub static PART: RenderPart = RenderPart(&Renderer);

impl PackRender for Renderer {
    fn directive(&self, x: &dyn PackDirective, s: &Scope) -> Option<Shown> {
        let x = x.as_any();
        macro_rules! by_type {
            ($($t:ty),*) => {$(
                if let Some(x) = x.downcast_ref::<$t>() {
                    return Some(Render::render(x, s));
                }
            )*};
        }
        by_type!(
            d::Bundles,
            d::Generations,
            d::TensorTypes,
            d::FileTypes,
            d::FatbinTargets,
            d::TensorMix,
            d::Layers,
            d::Plan
        );
        None
    }
    fn run_tables(&self, s: &Scope, run: &Run, file: &str) -> Vec<Table> {
        run_tables(s, run, file)
    }
    fn brief(&self, s: &Scope, r: &evidence_core::model::refs::Ref) -> Brief {
        brief(s, r)
    }
    fn component_note(&self, s: &Scope, files: &[String]) -> Option<Html> {
        binary::component_note(s, files)
    }
    fn run_notes(&self, s: &Scope, run: &Run) -> Vec<Html> {
        engine::run_notes(s, run)
    }
    fn case_mark(&self, _s: &Scope, case: &Case) -> Option<&'static str> {
        engine::case_mark(case)
    }
    fn case_mode(&self, _s: &Scope, case: &Case) -> Option<&'static str> {
        engine::case_mode(case)
    }
    fn run_meta(&self, s: &Scope, run: &Run) -> Vec<Html> {
        engine::run_meta(s, run)
    }
    fn run_columns(&self, s: &Scope, runs: &[&Run]) -> Vec<evidence_core::render::pack::RunColumn> {
        engine::run_columns(s, runs)
    }
}
