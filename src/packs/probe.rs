//! The probes of the packs, as subcommands of `evidence probe` and `evidence import`.

use crate::probe::{ProbeError, Written};
use std::path::PathBuf;

/// `evidence probe <engine>`: every pack's probes.
#[derive(clap::Subcommand, Debug)]
pub enum ProbeEngine {
    #[command(flatten)]
    Ggml(super::ggml::probe::ProbeEngine),
}

/// `evidence import <engine>`: every pack's importers.
#[derive(clap::Subcommand, Debug)]
pub enum ImportEngine {
    #[command(flatten)]
    Ggml(super::ggml::probe::ImportEngine),
}

/// Runs a probe: the run written, and the site root it went to.
pub fn probe(engine: ProbeEngine) -> (Result<Written, ProbeError>, PathBuf) {
    match engine {
        ProbeEngine::Ggml(e) => super::ggml::probe::probe(e),
    }
}

/// Runs an importer: the run written, and the site root it went to.
pub fn import(engine: ImportEngine) -> (Result<Written, ProbeError>, PathBuf) {
    match engine {
        ImportEngine::Ggml(e) => super::ggml::probe::import(e),
    }
}
