//! What a binary probe run saw: a GPU target among a fatbin's code objects, a component's
//! library among a process's mappings.
//!
//! Questions about recorded data, asked by the tables that annotate generations and
//! components and by the rules that compare those records with the latest run.

use crate::runs::EngineRun;
use evidence_core::model::Run;

/// Whether a `fatbin` run found `gfx` (ignoring target features), or `None` when the run
/// has no fatbin scan.
pub fn fatbin_has(run: &Run, gfx: &str) -> Option<bool> {
    let fb = run.fatbin()?;
    Some(
        fb.targets
            .iter()
            .any(|t| t.target.split(':').next() == Some(gfx)),
    )
}

/// Whether a `maps` run saw any of `files` mapped (by file name, a soname matching its
/// versioned file), or `None` when the run has no maps or the component lists no files.
pub fn maps_has(run: &Run, files: &[String]) -> Option<bool> {
    let m = run.maps()?;
    if files.is_empty() {
        return None;
    }
    let names = m
        .shared_libraries
        .iter()
        .chain(&m.models)
        .map(|p| p.rsplit('/').next().unwrap_or(p));
    let mut seen = false;
    for n in names {
        if files
            .iter()
            .any(|f| n == f || n.starts_with(f.as_str()) || f.starts_with(n))
        {
            seen = true;
            break;
        }
    }
    Some(seen)
}
