//! `evidence-diff`, for `evidence diff`: what the evidence says differently between two
//! revisions or folders. A crate of its own above the core, which it reaches only through its
//! public modules, so that a change here compiles this crate and not the core.
//!
//! Both sides go through the same loader, model and derivation as `build`
//! ([`evidence_core::pipeline::evidence`]); the comparison itself is in [`report`], the output
//! formats in [`format`](mod@format), reading a git revision in [`source`], and telling a rewritten
//! run record in [`rewrites`].

pub mod format;
pub mod html;
pub mod report;
pub mod reread;
pub mod rewrites;
pub mod site_files;
pub mod source;
pub mod words;

use evidence_core::diagnostics::{self, Diagnostics};
use evidence_core::pipeline;
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
    /// A run file that loaded but could not be read again to compare its text.
    Unreadable {
        side: String,
        file: String,
        error: std::io::Error,
    },
}

impl std::fmt::Display for DiffError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DiffError::Side(e) => write!(f, "{e}"),
            DiffError::DoesNotLoad { side, errors } => {
                write!(f, "the {side} side does not load:\n{errors}")
            }
            DiffError::Unreadable { side, file, error } => {
                write!(f, "cannot read {file} on the {side} side: {error}")
            }
        }
    }
}

/// Loads one side, parsing every data file: never through the parse cache, which on a
/// revision's side is whatever was committed.
fn load(side: &source::Side, which: &str) -> Result<pipeline::Loaded, DiffError> {
    let source = evidence_core::load::read::site_text(&side.root);
    let render =
        |d: &Diagnostics| diagnostics::render(d, diagnostics::Format::Human, &source, false);
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

fn run_files(
    side: &source::Side,
    loaded: &pipeline::Loaded,
    which: &str,
) -> Result<rewrites::RunFiles, DiffError> {
    rewrites::read(&side.root, &loaded.evidence).map_err(|e| DiffError::Unreadable {
        side: format!("{which} ({})", side.label),
        file: e.file,
        error: e.error,
    })
}

/// Runs with flipped cases drawn for one changed map: the first few say what the change
/// does; the table of flips lists them all.
const FLIP_PLOTS: usize = 4;

/// Compares `base` with `head` (the working tree at `root` when `None`).
pub fn diff(root: &Path, base: &str, head: Option<&str>) -> Result<report::Report, DiffError> {
    diff_drawing(root, base, head, false)
}

/// As [`diff`]; with `draw`, each changed decision map's diagram is drawn as it was and
/// as it is ([`report::MapChange::before_svg`], `after_svg`) for the review page.
pub fn diff_drawing(
    root: &Path,
    base: &str,
    head: Option<&str>,
    draw: bool,
) -> Result<report::Report, DiffError> {
    let b = source::open(base, root).map_err(DiffError::Side)?;
    let h = match head {
        Some(h) => source::open(h, root),
        None => source::working_tree(root),
    }
    .map_err(DiffError::Side)?;
    let (bl, hl) = (load(&b, "base")?, load(&h, "head")?);
    let site =
        |s: &source::Side, l: &pipeline::Loaded| site_files::SiteFiles::read(&s.root, &l.theme);
    let bv = report::Compared::new(&bl, run_files(&b, &bl, "base")?, site(&b, &bl));
    let hv = report::Compared::new(&hl, run_files(&h, &hl, "head")?, site(&h, &hl));
    let mut report = report::compare(&bv, &hv, &b.label, &h.label);
    report.git_attributes = source::attributes_changed(root, &b, &h)
        .map_err(DiffError::Side)?
        .into_iter()
        .map(|f| report::AttributesChange {
            path: f.path,
            change: match f.status {
                'A' => report::Change::Added,
                'D' => report::Change::Removed,
                _ => report::Change::Changed,
            },
        })
        .collect();
    if draw && !report.maps.is_empty() {
        let (before, after) = (pipeline::Figures::new(&bl), pipeline::Figures::new(&hl));
        for m in &mut report.maps {
            m.before_svg = before.as_ref().and_then(|f| f.map(&m.id, "base"));
            m.after_svg = after.as_ref().and_then(|f| f.map(&m.id, "head"));
            // The zone flips on the plot: each run with a flipped case (a few at most),
            // drawn over the old map and the new.
            let mut runs: Vec<&str> = m.flips.iter().map(|f| f.run.as_str()).collect();
            runs.dedup();
            let plot = |f: &Option<pipeline::Figures>, side: &str, run: &str| {
                let r = hl.evidence.runs.get(run)?;
                f.as_ref()?
                    .run_over_map(r, &m.id, &format!("{side}-plot-{}-{run}", m.id))
            };
            m.flip_plots = runs
                .into_iter()
                .take(FLIP_PLOTS)
                .map(|run| report::FlipPlot {
                    run: run.to_string(),
                    before: plot(&before, "base", run),
                    after: plot(&after, "head", run),
                })
                .collect();
        }
    }
    Ok(report)
}
