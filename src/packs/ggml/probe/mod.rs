//! The pack's probes: the engines `ollama` and `llama-server` (HTTP, through the core's
//! probe driver), captured Ollama responses ([`import`](mod@import)), and the binary probes
//! `fatbin`, `gguf` and `maps` ([`binary`]), with their command-line arguments.

pub mod binary;
pub mod cases;
pub mod engine;
pub mod host;
pub mod import;
pub mod llama_server;
pub mod ollama;
pub mod sweep;

use crate::packs::ggml::runs::Residency;
use crate::probe::http::Http;
use crate::probe::{ProbeError, Written};
use engine::ProbeArgs;
use std::path::PathBuf;
use std::time::Duration;

/// `--mode`: whether each case starts with the model loaded afresh or resident.
#[derive(clap::ValueEnum, Debug, Clone, Copy)]
pub enum ModeArg {
    Cold,
    Hot,
}

impl From<ModeArg> for Residency {
    fn from(m: ModeArg) -> Residency {
        match m {
            ModeArg::Cold => Residency::Cold,
            ModeArg::Hot => Residency::Hot,
        }
    }
}

#[derive(clap::Subcommand, Debug)]
pub enum ProbeEngine {
    /// [ggml pack] Re-run a probe against Ollama (/api/generate, /api/show, /api/ps).
    Ollama {
        /// Ollama's address.
        #[arg(long, default_value = "http://127.0.0.1:11434")]
        url: String,
        /// Model name as Ollama knows it, e.g. `deepseek-r1:7b`.
        #[arg(long)]
        model: String,
        /// Send prompts without the model's template (Ollama `raw: true`).
        #[arg(long)]
        raw: bool,
        #[command(flatten)]
        common: ProbeArgs,
    },
    /// [ggml pack] Run the same cases against llama.cpp's llama-server (/completion, /props).
    LlamaServer {
        /// llama-server's address.
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        #[command(flatten)]
        common: ProbeArgs,
    },
    /// [ggml pack] Read a host library's HIP offload bundles (targets, kernel families,
    /// registers).
    Fatbin {
        /// The library, e.g. `libggml-hip.so`.
        file: PathBuf,
        #[command(flatten)]
        about: binary::AboutInput,
        /// Folder holding evidence.yaml; the run goes to ROOT/data/runs/.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// [ggml pack] Read a GGUF model file's header, file type and tensor type census.
    Gguf {
        /// The model file.
        file: PathBuf,
        #[command(flatten)]
        about: binary::AboutInput,
        /// Folder holding evidence.yaml; the run goes to ROOT/data/runs/.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// [ggml pack] Read the libraries and model files a process maps (/proc/PID/maps).
    Maps {
        /// The process id.
        #[arg(conflicts_with = "file", required_unless_present = "file")]
        pid: Option<u32>,
        /// A saved copy of a /proc/PID/maps file instead of a live process.
        #[arg(long)]
        file: Option<PathBuf>,
        #[command(flatten)]
        about: binary::AboutInput,
        /// Folder holding evidence.yaml; the run goes to ROOT/data/runs/.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
}

#[derive(clap::Subcommand, Debug)]
pub enum ImportEngine {
    /// [ggml pack] Record saved /api/generate responses (a JSON object, or a streamed
    /// NDJSON capture whose last object is the final one) as a run.
    Ollama {
        /// Captured responses, one case per file.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Case id of each file, in order (asked for on a terminal when left out).
        #[arg(long = "case", value_name = "ID")]
        cases: Vec<String>,
        /// Probe name recorded in the run.
        #[arg(long, default_value = "ollama-import")]
        probe: String,
        /// Residency of the captured requests, when known.
        #[arg(long, value_enum)]
        mode: Option<ModeArg>,
        /// Endpoint the responses came from, when known.
        #[arg(long)]
        endpoint: Option<String>,
        /// Folder holding evidence.yaml; the run goes to ROOT/data/runs/.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
}

/// Runs `evidence probe <engine>`: the run written, and the site root it went to.
pub fn probe(engine: ProbeEngine) -> (Result<Written, ProbeError>, PathBuf) {
    match engine {
        ProbeEngine::Ollama {
            url,
            model,
            raw,
            common,
        } => {
            let root = common.root.clone();
            let r = Http::new(&url, Duration::from_secs(common.timeout)).and_then(|http| {
                let mut engine = ollama::Ollama::new(http, model, common.seed, raw, common.timeout);
                engine::run_probe(&mut engine, &common)
            });
            (r, root)
        }
        ProbeEngine::LlamaServer { url, common } => {
            let root = common.root.clone();
            let r = Http::new(&url, Duration::from_secs(common.timeout)).and_then(|http| {
                let mut engine = llama_server::LlamaServer::new(http, common.seed, common.timeout);
                engine::run_probe(&mut engine, &common)
            });
            (r, root)
        }
        ProbeEngine::Fatbin { file, about, root } => {
            (binary::probe_fatbin(&file, &about, &root), root)
        }
        ProbeEngine::Gguf { file, about, root } => (binary::probe_gguf(&file, &about, &root), root),
        ProbeEngine::Maps {
            pid,
            file,
            about,
            root,
        } => (
            binary::probe_maps(pid, file.as_deref(), &about, &root),
            root,
        ),
    }
}

/// Runs `evidence import <engine>`: the run written, and the site root it went to.
pub fn import(engine: ImportEngine) -> (Result<Written, ProbeError>, PathBuf) {
    match engine {
        ImportEngine::Ollama {
            files,
            cases,
            probe,
            mode,
            endpoint,
            root,
        } => {
            let opts = import::ImportOptions {
                files,
                cases,
                probe,
                mode: mode.map(Residency::from),
                endpoint,
                root: root.clone(),
            };
            (import::import_ollama(&opts), root)
        }
    }
}

// The table a probe prints shows this pack's case fields beside the site's measurements.
#[cfg(test)]
mod summary_tests {
    use crate::model::types::Run;
    use crate::probe::summary_table;

    fn run(case: &str) -> Run {
        crate::packs::register();
        let text =
            format!("id: r\nprobe: p\norigin: {{ja: 記録, en: record}}\ncases:\n  - id: c\n{case}");
        serde_saphyr::from_str(&text).expect("a run")
    }

    #[test]
    fn a_case_field_a_pack_writes_beside_the_id_gets_a_column() {
        let table = summary_table(&run("    mode: hot\n    measurements: {rows: 3}\n"));
        let mut lines = table.lines();
        let head: Vec<&str> = lines
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        let row: Vec<&str> = lines
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        assert_eq!(head, ["case", "mode", "rows"], "{table}");
        assert_eq!(row, ["c", "hot", "3"], "{table}");
    }
}
