//! How the pack's data files are read: each by its serde type, every record then held by
//! the core as a [`Shared`] of its kind.

use super::model::*;
use evidence_core::diagnostics::Diagnostic;
use evidence_core::model::pack::{PackFile, PackRecord, Shared};
use evidence_core::model::registry::Kind;
use std::sync::Arc;

fn shared<T: PackRecord>(items: Vec<T>) -> Vec<Shared> {
    items.into_iter().map(|t| Arc::new(t) as Shared).collect()
}

/// Reads `data/bundles.yaml`.
fn bundles_file(file: &str, text: &str) -> Result<Vec<(Kind, Vec<Shared>)>, Box<Diagnostic>> {
    let items: Vec<Bundle> = evidence_core::load::yaml::parse(file, text, 0)?;
    Ok(vec![(BUNDLE, shared(items))])
}

/// Reads `data/generations.yaml`.
fn generations_file(file: &str, text: &str) -> Result<Vec<(Kind, Vec<Shared>)>, Box<Diagnostic>> {
    let items: Vec<Generation> = evidence_core::load::yaml::parse(file, text, 0)?;
    Ok(vec![(GENERATION, shared(items))])
}

/// Reads `data/quantization.yaml`: its four kinds.
fn quantization_file(file: &str, text: &str) -> Result<Vec<(Kind, Vec<Shared>)>, Box<Diagnostic>> {
    let q: QuantizationFile = evidence_core::load::yaml::parse(file, text, 0)?;
    Ok(vec![
        (TENSOR_TYPE, shared(q.tensor_types)),
        (FILE_TYPE, shared(q.file_types)),
        (LAYER, shared(q.layers)),
        (PLAN, shared(q.plan)),
    ])
}

/// The pack's data files.
pub static FILES: [PackFile; 3] = [
    PackFile {
        path: "bundles.yaml",
        parse: bundles_file,
    },
    PackFile {
        path: "generations.yaml",
        parse: generations_file,
    },
    PackFile {
        path: "quantization.yaml",
        parse: quantization_file,
    },
];
