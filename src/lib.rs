//! `evidence`: the command line, and the one place that names the packs and hands them to
//! the core.
//!
//! The work is done by the workspace's crates: `evidence-core` (load → model → derive →
//! check → render → write, diff, serve), `evidence-probe` (the probe framework) and the
//! packs (`evidence-ggml`). This crate re-exports the core's modules under their own names,
//! so `evidence::load`, `evidence::render` … are the core's, and adds [`cli`] and
//! [`packs`].

pub use evidence_core::*;
pub use evidence_diff as diff;
pub use evidence_probe as probe;

pub mod cli;
pub mod packs;
