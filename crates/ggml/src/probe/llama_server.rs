//! The llama-server engine (llama.cpp's HTTP server): typed `/completion`, `/props` and
//! `/v1/models` responses, mapped onto the same run format as Ollama's.
//!
//! Each case is one `POST /completion` with `stream: false`, `cache_prompt: false` (cache
//! defeat `cache-prompt-off`: the whole prompt is processed, `timings.cache_n` is 0),
//! `n_predict`, temperature 0 and a fixed seed. `/completion` applies no chat template:
//! the prompt is tokenized as is, with BOS when the model asks for it.
//!
//! | llama-server              | run case                 |
//! |---------------------------|--------------------------|
//! | `timings.prompt_n`        | `prompt_eval_count`      |
//! | `timings.prompt_ms`       | `prompt_eval_duration_ns`|
//! | `timings.predicted_n`     | `eval_count`             |
//! | `timings.predicted_ms`    | `eval_duration_ns`       |
//! | `stop_type` limit / eos, word | `done_reason` length / stop |
//!
//! The raw `timings`, `stop_type`, `tokens_evaluated` and `tokens_cached` are kept under
//! `llama_server`. llama-server cannot unload its model, so a `cold` case runs resident
//! and is recorded as `hot` (with a note on stderr).

use super::engine::{Environment, Request, Server};
use crate::runs::Residency;
use crate::runs::{
    CacheDefeat, Counters, EngineCase, LlamaServerCase, LlamaTimings, ModelDetails, ModelMemory,
    RequestSettings,
};
use evidence_core::model::types::Case;
use evidence_probe::ProbeError;
use evidence_probe::http::Http;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Instant;

// ---------------------------------------------------------------- API types

#[derive(Debug, Serialize)]
pub struct CompletionRequest<'a> {
    pub prompt: &'a str,
    pub n_predict: u32,
    pub cache_prompt: bool,
    pub stream: bool,
    pub temperature: f64,
    pub seed: u64,
}

/// The final `/completion` response (non-OpenAI form).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct CompletionResponse {
    pub content: Option<String>,
    pub model: Option<String>,
    pub stop: Option<bool>,
    pub stop_type: Option<String>,
    pub tokens_predicted: Option<u64>,
    pub tokens_evaluated: Option<u64>,
    pub tokens_cached: Option<u64>,
    pub truncated: Option<bool>,
    pub timings: Option<Timings>,
}

/// `timings` as llama-server sends it (milliseconds; more fields may come).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Timings {
    pub cache_n: Option<u64>,
    pub prompt_n: Option<u64>,
    pub prompt_ms: Option<f64>,
    pub prompt_per_token_ms: Option<f64>,
    pub prompt_per_second: Option<f64>,
    pub predicted_n: Option<u64>,
    pub predicted_ms: Option<f64>,
    pub predicted_per_token_ms: Option<f64>,
    pub predicted_per_second: Option<f64>,
    pub draft_n: Option<u64>,
    pub draft_n_accepted: Option<u64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Props {
    pub model_path: Option<String>,
    pub model_alias: Option<String>,
    pub model_ftype: Option<String>,
    pub build_info: Option<String>,
    pub total_slots: Option<u64>,
    pub default_generation_settings: Option<DefaultSettings>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct DefaultSettings {
    pub n_ctx: Option<u64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ModelsResponse {
    pub data: Vec<ModelEntry>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ModelEntry {
    pub id: Option<String>,
    pub meta: Option<ModelMeta>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ModelMeta {
    pub n_params: Option<u64>,
    pub size: Option<u64>,
    pub n_ctx_train: Option<u64>,
}

/// `POST /tokenize` request and reply (used by tests to check `prompt_n`).
#[derive(Debug, Serialize)]
pub struct TokenizeRequest<'a> {
    pub content: &'a str,
    pub add_special: bool,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct TokenizeResponse {
    pub tokens: Vec<serde_json::Value>,
}

// ---------------------------------------------------------------- mapping

/// Milliseconds (as llama-server reports them) to whole nanoseconds.
pub fn ms_to_ns(ms: f64) -> Option<u64> {
    (ms.is_finite() && (0.0..1.0e13).contains(&ms)).then(|| (ms * 1.0e6).round() as u64)
}

/// `1.7B`, `134.5M` from a parameter count.
pub fn parameter_size(n: u64) -> String {
    let n = n as f64;
    if n >= 1e9 {
        format!("{:.1}B", n / 1e9)
    } else if n >= 1e6 {
        format!("{:.1}M", n / 1e6)
    } else {
        format!("{n}")
    }
}

/// Copies a `/completion` response into `case`, or says what is missing.
pub fn fill_case(case: &mut Case, r: &CompletionResponse) -> Result<(), NoTimings> {
    let t = r.timings.as_ref().ok_or(NoTimings::Absent)?;
    let need = |v: Option<u64>, name: &'static str| v.ok_or(NoTimings::Missing(name));
    let ms =
        |v: Option<f64>, name: &'static str| v.and_then(ms_to_ns).ok_or(NoTimings::NotValid(name));
    case.set_counter("prompt_eval_count", Some(need(t.prompt_n, "prompt_n")?));
    case.set_counter(
        "prompt_eval_duration_ns",
        Some(ms(t.prompt_ms, "prompt_ms")?),
    );
    case.set_counter("eval_count", Some(need(t.predicted_n, "predicted_n")?));
    case.set_counter(
        "eval_duration_ns",
        Some(ms(t.predicted_ms, "predicted_ms")?),
    );
    case.set_done_reason(r.stop_type.as_deref().map(|s| {
        match s {
            "limit" => "length",
            "eos" | "word" => "stop",
            other => other,
        }
        .to_string()
    }));
    case.set_response(r.content.clone());
    case.set_llama_server(Some(LlamaServerCase {
        stop_type: r.stop_type.clone(),
        tokens_evaluated: r.tokens_evaluated,
        tokens_cached: r.tokens_cached,
        truncated: r.truncated,
        timings: LlamaTimings {
            cache_n: t.cache_n,
            prompt_n: t.prompt_n,
            prompt_ms: t.prompt_ms,
            prompt_per_token_ms: t.prompt_per_token_ms.filter(|v| v.is_finite()),
            prompt_per_second: t.prompt_per_second.filter(|v| v.is_finite()),
            predicted_n: t.predicted_n,
            predicted_ms: t.predicted_ms,
            predicted_per_token_ms: t.predicted_per_token_ms.filter(|v| v.is_finite()),
            predicted_per_second: t.predicted_per_second.filter(|v| v.is_finite()),
            draft_n: t.draft_n,
            draft_n_accepted: t.draft_n_accepted,
        },
    }));
    Ok(())
}

// ---------------------------------------------------------------- the engine

/// A probe session against one llama-server.
pub struct LlamaServer {
    http: Http,
    seed: u64,
    timeout_secs: u64,
    warned_cold: bool,
}

impl LlamaServer {
    pub fn new(http: Http, seed: u64, timeout_secs: u64) -> LlamaServer {
        LlamaServer {
            http,
            seed,
            timeout_secs,
            warned_cold: false,
        }
    }
}

impl Server for LlamaServer {
    fn kind(&self) -> &'static str {
        "llama-server"
    }

    fn endpoint(&self) -> &str {
        self.http.base()
    }

    fn describe(&mut self) -> Result<Environment, ProbeError> {
        let props: Props = self.http.get("/props", None)?;
        // `/v1/models` only adds the parameter count; an old server without it is fine.
        let meta = self
            .http
            .get::<ModelsResponse>("/v1/models", None)
            .ok()
            .and_then(|m| m.data.into_iter().next())
            .and_then(|e| e.meta);
        let file = props.model_path.clone().filter(|p| !p.is_empty());
        // llama-server reports the model path as the alias when none was given (`-a`).
        let basename = |p: &str| p.rsplit(['/', '\\']).next().unwrap_or(p).to_string();
        let model = props
            .model_alias
            .clone()
            .filter(|a| !a.is_empty())
            .or_else(|| file.clone())
            .map(|a| basename(&a));
        let (mut environment, mut versions) = super::host::engine_host(self.http.base());
        if let Some(b) = props.build_info.filter(|b| !b.is_empty()) {
            versions.insert("llama-server".to_string(), b);
        }
        if let Some(n) = props.default_generation_settings.and_then(|d| d.n_ctx) {
            environment.insert("n_ctx".to_string(), n.to_string());
        }
        if let Some(n) = props.total_slots {
            environment.insert("slots".to_string(), n.to_string());
        }
        let details = ModelDetails {
            format: file
                .as_deref()
                .filter(|f| f.to_ascii_lowercase().ends_with(".gguf"))
                .map(|_| "gguf".to_string()),
            family: None,
            parameter_size: meta.as_ref().and_then(|m| m.n_params).map(parameter_size),
            quantization_level: props.model_ftype.filter(|f| !f.is_empty()),
            // The file by its hash, when the server runs here and the file can be read:
            // which model it was, without where it lies.
            digest: file
                .as_deref()
                .filter(|_| super::host::is_local(self.http.base()))
                .and_then(|p| super::binary::sha256_of(std::path::Path::new(p)))
                .map(|h| format!("sha256:{h}")),
            // The file's name only: a local path (a home folder, a cache) has no place on
            // a published site.
            file: file.as_deref().map(basename),
            tensor_types: BTreeMap::new(),
        };
        Ok(Environment {
            model,
            versions,
            environment,
            model_details: Some(details),
        })
    }

    fn generate(&mut self, req: &Request) -> Result<Case, ProbeError> {
        let case_id = req.case_id;
        if req.mode == Residency::Cold && !self.warned_cold {
            eprintln!(
                "note: llama-server cannot unload its model; `cold` cases run resident with \
                 cache_prompt: false and are recorded as `hot` (first: `{case_id}`)"
            );
            self.warned_cold = true;
        }
        let body = CompletionRequest {
            prompt: req.prompt,
            n_predict: req.num_predict,
            cache_prompt: false,
            stream: false,
            temperature: 0.0,
            seed: self.seed,
        };
        let started = evidence_probe::record::Clock::now();
        let t0 = Instant::now();
        let resp: CompletionResponse = self.http.post("/completion", &body, Some(case_id))?;
        let wall = t0.elapsed();
        let mut case = Case::new(case_id);
        fill_case(&mut case, &resp).map_err(|e| {
            let url = self.http.url("/completion");
            ProbeError::request(Some(case_id), "POST", &url, e.to_string())
        })?;
        if let Some(n) = resp
            .timings
            .as_ref()
            .and_then(|t| t.cache_n)
            .filter(|&n| n > 0)
        {
            eprintln!(
                "warning: case `{case_id}`: llama-server reused {n} cached prompt tokens despite \
                 cache_prompt: false; prompt_eval_count counts only the processed ones"
            );
        }
        case.set_mode(Some(Residency::Hot));
        case.set_counter("num_predict", Some(u64::from(req.num_predict)));
        case.set_cache_defeat(Some(CacheDefeat::CachePromptOff));
        case.set_prompt(Some(req.prompt.to_string()));
        case.set_started_at(Some(started.rfc3339()));
        case.set_wall_duration_ns(Some(u64::try_from(wall.as_nanos()).unwrap_or(u64::MAX)));
        Ok(case)
    }

    fn after(&mut self) -> Result<Option<ModelMemory>, ProbeError> {
        Ok(None)
    }

    fn settings(&self) -> RequestSettings {
        RequestSettings {
            stream: false,
            temperature: 0.0,
            seed: self.seed,
            timeout_secs: self.timeout_secs,
            raw: None,
            cache_prompt: Some(false),
        }
    }
}

/// Why a `/completion` response lacks the timings a case records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoTimings {
    /// No `timings` object at all: perhaps another server.
    Absent,
    /// A count `timings` lacks.
    Missing(&'static str),
    /// A duration `timings` lacks, or gives as no finite number of milliseconds.
    NotValid(&'static str),
}

impl std::fmt::Display for NoTimings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoTimings::Absent => write!(
                f,
                "the response has no `timings` (is this llama.cpp's /completion?)"
            ),
            NoTimings::Missing(name) => write!(f, "the response's `timings` has no `{name}`"),
            NoTimings::NotValid(name) => {
                write!(f, "the response's `timings` has no valid `{name}`")
            }
        }
    }
}

impl std::error::Error for NoTimings {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timings_map_onto_the_common_fields() {
        crate::register();
        let r: CompletionResponse = serde_json::from_str(
            r#"{"content":" the","stop_type":"limit","tokens_evaluated":5,"tokens_cached":5,
                "timings":{"cache_n":0,"prompt_n":5,"prompt_ms":1.234567,"prompt_per_token_ms":0.24,
                "prompt_per_second":4000.0,"predicted_n":1,"predicted_ms":0.5,"extra":1}}"#,
        )
        .unwrap();
        let mut c = Case::new("x");
        fill_case(&mut c, &r).unwrap();
        assert_eq!(c.counter("prompt_eval_count"), Some(5));
        assert_eq!(c.counter("prompt_eval_duration_ns"), Some(1_234_567));
        assert_eq!(c.counter("eval_duration_ns"), Some(500_000));
        assert_eq!(c.done_reason().map(String::as_str), Some("length"));
        assert_eq!(c.llama_server().unwrap().timings.cache_n, Some(0));
    }

    #[test]
    fn missing_timings_are_refused() {
        let mut c = Case::new("x");
        let r: CompletionResponse = serde_json::from_str(r#"{"content":"x"}"#).unwrap();
        assert!(
            fill_case(&mut c, &r)
                .unwrap_err()
                .to_string()
                .contains("timings")
        );
        let r: CompletionResponse =
            serde_json::from_str(r#"{"timings":{"prompt_n":3,"prompt_ms":1.0}}"#).unwrap();
        assert!(
            fill_case(&mut c, &r)
                .unwrap_err()
                .to_string()
                .contains("predicted_n")
        );
    }

    #[test]
    fn absent_timings_say_the_message_of_old() {
        assert_eq!(
            NoTimings::Absent.to_string(),
            "the response has no `timings` (is this llama.cpp's /completion?)"
        );
        assert_eq!(
            NoTimings::NotValid("prompt_ms").to_string(),
            "the response's `timings` has no valid `prompt_ms`"
        );
    }

    #[test]
    fn sizes_and_times() {
        assert_eq!(parameter_size(134_515_008), "134.5M");
        assert_eq!(parameter_size(7_615_616_512), "7.6B");
        assert_eq!(ms_to_ns(-1.0), None);
        assert_eq!(ms_to_ns(f64::NAN), None);
    }
}
