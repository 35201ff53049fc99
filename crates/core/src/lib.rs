//! `evidence-core`: the pipeline of `evidence`, a static site generator for investigations
//! built from recorded observations. It names no pack: the packs reach it as values
//! ([`model::pack::register`]), handed in by the binary.
//!
//! The pipeline reads top to bottom, one module per stage: [`load`] → [`model`] →
//! [`derive`](mod@derive) → [`check`] → [`render`] → [`write`](mod@write), driven by
//! [`pipeline`]. [`diagnostics`] renders every located error in one place.
//!
//! Imports point down only. The layers, bottom to top: [`diagnostics`] and [`timings`] →
//! [`model`] (types, ids, references, page structure, views, value formatting) → [`load`]
//! → [`derive`](mod@derive) → [`check`] → [`render`] → [`write`](mod@write) → [`pipeline`]
//! → [`incremental`] → [`serve`], [`init`], [`schema`]. `model` sits below `load`
//! although data flows from load to model: load produces model's types, and model knows no
//! file format. Within this crate `tests/layers.rs` holds these rules; between crates,
//! Cargo does (the review diff, `evidence-diff`, the probe framework and the packs depend on
//! this crate, never the reverse).

pub mod check;
pub mod derive;
pub mod diagnostics;
pub mod incremental;
pub mod init;
pub mod load;
pub mod model;
pub mod pipeline;
pub mod render;
pub mod schema;
pub mod serve;
pub mod timings;
pub mod write;
