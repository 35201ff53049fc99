//! The record kinds of the `ggml` pack, as data: the types of `data/bundles.yaml`,
//! `data/generations.yaml` and `data/quantization.yaml` and how those files are read
//! ([`model`], [`load`]), the fields the pack's probes add to a run and its cases
//! ([`runs`]), the binary scans those runs keep ([`scans`]) and their JSON schemas
//! ([`schema`]).
//!
//! The pack (`evidence-ggml`) re-exports each module under its own name. They live apart
//! because each record type's deserializers are compiled where the type is named: here,
//! once, rather than with every change to the pack's tables, probes or rules.

pub mod load;
pub mod model;
pub mod runs;
pub mod scans;
pub mod schema;
