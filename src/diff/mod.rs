//! `evidence diff`: what the evidence says differently between two revisions or folders.
//!
//! Both sides go through the same loader, model and derivation as `build`
//! ([`crate::pipeline::evidence`]); the comparison itself is in [`report`], the output
//! formats in [`format`], and reading a git revision in [`source`].

pub mod format;
pub mod report;
pub mod source;

use crate::diagnostics::{self, Diagnostics};
use crate::pipeline;
use std::path::Path;

/// Why no report could be made (exit 2).
#[derive(Debug)]
pub enum DiffError {
    Side(source::SideError),
    /// A side whose data does not load; the rendered, located errors.
    DoesNotLoad {
        side: String,
        errors: String,
    },
}

impl std::fmt::Display for DiffError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DiffError::Side(e) => write!(f, "{e}"),
            DiffError::DoesNotLoad { side, errors } => {
                write!(f, "the {side} side does not load:\n{errors}")
            }
        }
    }
}

fn load(side: &source::Side, which: &str) -> Result<pipeline::Loaded, DiffError> {
    let render =
        |d: &Diagnostics| diagnostics::render(d, diagnostics::Format::Human, &side.root, false);
    let loaded = pipeline::evidence(&side.root).map_err(|d| DiffError::DoesNotLoad {
        side: format!("{which} ({})", side.label),
        errors: render(&d),
    })?;
    if loaded.diagnostics.has_errors() {
        return Err(DiffError::DoesNotLoad {
            side: format!("{which} ({})", side.label),
            errors: render(&loaded.diagnostics),
        });
    }
    Ok(loaded)
}

/// Compares `base` with `head` (the working tree at `root` when `None`).
pub fn diff(root: &Path, base: &str, head: Option<&str>) -> Result<report::Report, DiffError> {
    let b = source::open(base, root).map_err(DiffError::Side)?;
    let h = match head {
        Some(h) => source::open(h, root),
        None => source::working_tree(root),
    }
    .map_err(DiffError::Side)?;
    let (bl, hl) = (load(&b, "base")?, load(&h, "head")?);
    let (bv, hv) = (report::View::new(&bl), report::View::new(&hl));
    Ok(report::compare(&bv, &hv, &b.label, &h.label))
}
