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

use crate::runs::Residency;
use engine::ProbeArgs;
use evidence_probe::http::Http;
use evidence_probe::{ProbeError, Written};
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
    use evidence_core::model::types::Run;
    use evidence_probe::summary_table;

    fn run(case: &str) -> Run {
        crate::register();
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

// A run of this pack's probes written as a probe writes it, and read back.
#[cfg(test)]
mod written_run_tests {
    use evidence_core::model::types::Run;

    /// A run with every optional field set and awkward strings.
    pub fn sample_run() -> Run {
        use crate::runs::*;
        use evidence_core::model::types::*;
        use evidence_probe::new_id;
        let awkward = [
            "river tiger lemon. Why is the sky blue?",
            "line one\nline two: # not a comment 'q' \"dq\"",
            "  leading and trailing  ",
            "tab\there",
            "NO",
            "~",
            "0.5.1",
            "",
            "- dash",
            "crlf\r\nend\n\n",
            "a long line with  two spaces and more words than eighty characters, repeated: the the the the the the",
            "日本語のプロンプト。",
        ];
        let cases = awkward
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let mut c = Case::new(&format!("c{i}"));
                c.set_mode(Some(Residency::Hot));
                c.set_counter("num_predict", Some(1));
                c.set_counter("prompt_eval_count", Some(12 + i as u64));
                c.set_counter("prompt_eval_duration_ns", Some(1_234_567));
                c.set_prompt(Some(p.to_string()));
                c.set_response(Some(p.to_string()));
                c.set_cache_defeat(Some(CacheDefeat::Nonce));
                c.set_nonce(Some("river tiger lemon. ".into()));
                c.set_started_at(Some("2026-11-22T01:02:03Z".into()));
                c.repeat = Some(Repeat {
                    of: "c".into(),
                    index: 1,
                });
                c.set_sweep_point(Some(SweepPoint {
                    target: 12,
                    words: 3,
                    tries: 2,
                    hit: true,
                }));
                c.set_llama_server(Some(LlamaServerCase {
                    stop_type: Some("limit".into()),
                    tokens_evaluated: Some(4),
                    tokens_cached: Some(0),
                    truncated: Some(false),
                    timings: LlamaTimings {
                        prompt_ms: Some(1.5),
                        cache_n: Some(0),
                        prompt_per_second: Some(1_234.567_890_1),
                        ..Default::default()
                    },
                }));
                c
            })
            .collect();
        let mut versions = std::collections::BTreeMap::new();
        versions.insert("engine".to_string(), "0.5.1".to_string());
        let mut run = Run {
            id: new_id("x-20261122T010203Z"),
            probe: "x".into(),
            date: Some(new_id("2026-11-22T01:02:03Z")),
            subject: None,
            engine: Some(new_id("engine")),
            versions,
            conditions: Default::default(),
            environment: Default::default(),
            origin: Text::new([
                (evidence_core::model::page::Lang::JA, "記録 `a`".into()),
                (
                    evidence_core::model::page::Lang::EN,
                    "Recorded: by `evidence probe`".into(),
                ),
            ]),
            note: None,
            phase: None,
            assessed_against: None,
            cases,
            input: None,
            values: Default::default(),
        };
        run.set_endpoint(Some("http://127.0.0.1:1".into()));
        run.set_model(Some("m:latest".into()));
        run.set_model_details(Some(ModelDetails {
            family: Some("llama".into()),
            tensor_types: [("Q4_K".to_string(), 3u64), ("F32".to_string(), 2)]
                .into_iter()
                .collect(),
            ..Default::default()
        }));
        run.set_loaded(Some(ModelMemory {
            size: 10,
            size_vram: 5,
            context_length: Some(4096),
        }));
        run.set_request(Some(RequestSettings {
            stream: false,
            temperature: 0.0,
            seed: 42,
            timeout_secs: 300,
            raw: Some(false),
            cache_prompt: None,
        }));
        run.set_sweep(Some(SweepSettings {
            from: 1,
            to: 9,
            step: 8,
            word: "the".into(),
            max_tries: 8,
        }));
        run
    }

    #[test]
    fn runs_read_back_exactly() {
        crate::register();
        let run = sample_run();
        let text = evidence_probe::record::to_yaml(&run, "data/runs/x.yaml").unwrap();
        assert!(text.starts_with("# A probe run recorded by evidence."));
        assert!(text.contains("\ncases:\n  - id: c0\n"), "{text}");
        let back = evidence_core::load::yaml::parse::<Run>("x", &text, 0).unwrap();
        use crate::runs::{EngineCase, EngineRun};
        for (a, b) in run.cases.iter().zip(&back.cases) {
            assert_eq!(a.prompt(), b.prompt());
            assert_eq!(a.response(), b.response());
            assert_eq!(a.measurements, b.measurements);
            assert_eq!(
                a.values, b.values,
                "every field of the pack, typed, the same"
            );
        }
        assert_eq!(back.loaded(), run.loaded());
        assert_eq!(back.model_details(), run.model_details());
        assert_eq!(back.values, run.values);
    }
}
