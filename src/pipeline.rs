//! The pipeline, top to bottom: load → model → check → derive → render. `build`, `check`,
//! `serve`, `diff` and `probe` all go through here; none has its own copy.

use crate::check;
use crate::derive::{self, Derived};
use crate::diagnostics::Diagnostics;
use crate::load::{self, Sources};
use crate::model::{self, Evidence};
use crate::render::i18n::Messages;
use crate::render::values::Values;
use crate::render::{Renderer, Site};
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
    let mut loaded = match evidence(root) {
        Ok(l) => l,
        Err(diagnostics) => {
            return Outcome {
                loaded: None,
                site: None,
                diagnostics,
            };
        }
    };
    let messages = Arc::new(Messages::load(&loaded.sources.theme));
    let mut diags = std::mem::take(&mut loaded.diagnostics);
    let values = Values::new(&loaded.evidence);
    check::check(&loaded.evidence, &messages, &values, root, &mut diags);
    let site = match Renderer::new(
        &loaded.evidence,
        &loaded.derived,
        &loaded.sources.theme,
        messages,
        values,
    ) {
        Ok(r) => {
            let mut render_diags = Vec::new();
            let site = r.site(&mut render_diags);
            diags.extend(render_diags);
            Some(site)
        }
        Err(d) => {
            diags.push(d);
            None
        }
    };
    Outcome {
        loaded: Some(loaded),
        site,
        diagnostics: diags,
    }
}
