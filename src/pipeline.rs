//! The pipeline, top to bottom: load → model → check → derive → render. `build`, `check`,
//! `serve`, `diff` and `probe` all go through here; none has its own copy.

use crate::check;
use crate::derive::{self, Derived};
use crate::diagnostics::Diagnostics;
use crate::load::{self, Sources};
use crate::model::{self, Evidence};
use crate::render::i18n::Messages;
use crate::render::values::Values;
use crate::render::{MemorySink, Renderer, Sink, Site};
use std::path::Path;
use std::sync::Arc;

/// The evidence of a site, loaded, resolved and derived, with what was found on the way.
pub struct Loaded {
    pub sources: Sources,
    pub evidence: Evidence,
    pub derived: Derived,
    pub diagnostics: Diagnostics,
}

/// What one full pass produced. `site` is `None` when the sources could not be loaded.
pub struct Outcome {
    pub loaded: Option<Loaded>,
    pub site: Option<Site>,
    pub diagnostics: Diagnostics,
}

/// Load → model → derive: the graph alone, as `diff` and `probe` need it.
/// Fails only when the site cannot be read at all (no or broken `evidence.yaml`).
pub fn evidence(root: &Path) -> Result<Loaded, Diagnostics> {
    let (sources, mut diagnostics) = load::load(root)?;
    let (evidence, model_diags) = model::build(&sources);
    diagnostics.extend(model_diags);
    let derived = derive::derive(&evidence);
    Ok(Loaded {
        sources,
        evidence,
        derived,
        diagnostics,
    })
}

/// Everything: load, check and render the site under `root` in memory.
pub fn run(root: &Path) -> Outcome {
    let sink = MemorySink::default();
    let (loaded, diagnostics, rendered) = run_into(root, &sink);
    Outcome {
        loaded,
        site: rendered.then(|| sink.into_site()),
        diagnostics,
    }
}

/// Load, check and render, handing each output file to `sink` as it is ready.
/// Returns whether rendering ran (it does not when the sources or templates failed).
pub fn run_into(root: &Path, sink: &dyn Sink) -> (Option<Loaded>, Diagnostics, bool) {
    let mut loaded = match evidence(root) {
        Ok(l) => l,
        Err(diagnostics) => return (None, diagnostics, false),
    };
    let messages = Arc::new(Messages::load(&loaded.sources.theme));
    let mut diags = std::mem::take(&mut loaded.diagnostics);
    let values = Values::new(&loaded.evidence);
    check::check(&loaded.evidence, &messages, &values, root, &mut diags);
    let rendered = match Renderer::new(
        &loaded.evidence,
        &loaded.derived,
        &loaded.sources.theme,
        messages,
        values,
    ) {
        Ok(r) => {
            let mut render_diags = Vec::new();
            r.render(sink, &mut render_diags);
            diags.extend(render_diags);
            true
        }
        Err(d) => {
            diags.push(d);
            false
        }
    };
    (Some(loaded), diags, rendered)
}
