//! `evidence`: a static site generator for investigations built from recorded observations.
//!
//! The pipeline reads top to bottom, one module per stage: [`load`] → [`model`] →
//! [`derive`](mod@derive) → [`check`] → [`render`] → [`write`](mod@write), driven by
//! [`pipeline`]. [`diagnostics`] renders every located error in one place.
//!
//! Imports point down only. The layers, bottom to top: [`diagnostics`] and [`timings`] →
//! [`model`] (types, ids, references, page structure, views, value formatting) → [`load`]
//! → binary readers → [`derive`](mod@derive) → [`check`] → [`render`] →
//! [`write`](mod@write) → [`pipeline`] → [`incremental`] → [`probe`], [`diff`], [`serve`],
//! [`init`] → [`cli`]. `model` sits below `load` although data flows from load to model:
//! load produces model's types, and model knows no file format. `tests/layers.rs` holds
//! these rules and fails on a use that points up. [`packs`] hold what one kind of
//! investigation adds (record kinds, binary readers, tables, probes, messages); a pack's
//! parts sit at the layers of the stages they serve.

pub mod check;
pub mod cli;
pub mod derive;
pub mod diagnostics;
pub mod diff;
pub mod incremental;
pub mod init;
pub mod load;
pub mod model;
pub mod packs;
pub mod pipeline;
pub mod probe;
pub mod render;
pub mod schema;
pub mod serve;
pub mod timings;
pub mod write;
