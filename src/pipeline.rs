//! The pipeline, top to bottom: load → model → check → derive → render. `build`, `check`,
//! and later `serve`, `diff` and `probe` all go through [`run`]; none has its own copy.

use crate::check;
use crate::derive::{self, Derived};
use crate::diagnostics::Diagnostics;
use crate::load::{self, Sources};
use crate::model::{self, Evidence};
use crate::render::i18n::Messages;
use crate::render::{Renderer, Site};
use std::path::Path;
use std::sync::Arc;

/// What one pass produced. `site` is `None` when the sources could not be loaded at all.
pub struct Outcome {
    pub sources: Option<Sources>,
    pub evidence: Evidence,
    pub derived: Derived,
    pub site: Option<Site>,
    pub diagnostics: Diagnostics,
}

/// Loads, checks and renders the site under `root` in memory.
pub fn run(root: &Path) -> Outcome {
    let (sources, mut diags) = match load::load(root) {
        Ok(x) => x,
        Err(diags) => {
            return Outcome {
                sources: None,
                evidence: Evidence::default(),
                derived: Derived::default(),
                site: None,
                diagnostics: diags,
            };
        }
    };
    let (evidence, model_diags) = model::build(&sources);
    diags.extend(model_diags);
    let messages = Arc::new(Messages::load(&sources.theme));
    check::check(&evidence, &messages, &mut diags);
    let derived = derive::derive(&evidence);
    let site = match Renderer::new(&evidence, &derived, &sources.theme, messages) {
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
        sources: Some(sources),
        evidence,
        derived,
        site,
        diagnostics: diags,
    }
}
