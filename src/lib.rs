//! `evidence`: a static site generator for investigations built from recorded observations.
//!
//! The pipeline reads top to bottom, one module per stage:
//! [`load`] → [`model`] → [`check`] → [`derive`] → [`render`] → [`write`],
//! driven by [`pipeline`]. [`diagnostics`] renders every located error in one place.

pub mod binary;
pub mod check;
pub mod cli;
pub mod derive;
pub mod diagnostics;
pub mod diff;
pub mod incremental;
pub mod init;
pub mod load;
pub mod model;
pub mod pipeline;
pub mod probe;
pub mod render;
pub mod serve;
pub mod timings;
pub mod write;
