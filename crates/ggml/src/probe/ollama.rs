//! The Ollama engine: typed `/api/*` responses and the probe's requests.
//!
//! Before the cases: `/api/version`, `/api/show` (details and the tensor-type census when
//! the server lists `tensors`) and `/api/tags` (the digest). Each case is one
//! `POST /api/generate` with `stream: false`, temperature 0 and a fixed seed:
//!
//! - a `cold` case first unloads the model (`keep_alive: 0`) and waits until `/api/ps` no
//!   longer lists it, so the request loads it afresh with an empty prompt cache
//!   (cache defeat `cold-start`);
//! - a `hot` case makes sure the model is resident (an empty-prompt load when `/api/ps`
//!   does not list it) and puts a unique nonce in front of the prompt, so no cached
//!   prefix reaches into the prompt text (cache defeat `nonce`). The template's fixed
//!   prefix before the prompt can still be cached; `--raw` leaves only BOS.
//!
//! After the cases, `/api/ps` gives `size` and `size_vram` (offload evidence). The final
//! response is recorded without its `context` array.

use super::engine::{Environment, Request, Server};
use crate::runs::Residency;
use crate::runs::{CacheDefeat, Counters, EngineCase, ModelDetails, ModelMemory, RequestSettings};
use evidence_core::model::types::Case;
use evidence_probe::ProbeError;
use evidence_probe::http::Http;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------- API types

#[derive(Debug, Serialize)]
pub struct GenerateRequest<'a> {
    pub model: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<&'a str>,
    pub stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keep_alive: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<GenerateOptions>,
}

#[derive(Debug, Serialize)]
pub struct GenerateOptions {
    pub temperature: f64,
    pub seed: u64,
    pub num_predict: u32,
}

/// A final `/api/generate` (or `/api/chat`) response. Every field is omitempty upstream.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct GenerateResponse {
    pub model: Option<String>,
    pub created_at: Option<String>,
    pub response: Option<String>,
    pub thinking: Option<String>,
    /// `/api/chat` puts the text here instead of `response`.
    pub message: Option<ChatMessage>,
    pub done: Option<bool>,
    pub done_reason: Option<String>,
    pub total_duration: Option<u64>,
    pub load_duration: Option<u64>,
    pub prompt_eval_count: Option<u64>,
    pub prompt_eval_duration: Option<u64>,
    pub eval_count: Option<u64>,
    pub eval_duration: Option<u64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ChatMessage {
    pub content: Option<String>,
    pub thinking: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct VersionResponse {
    pub version: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ShowResponse {
    pub details: ShowDetails,
    pub tensors: Option<Vec<Tensor>>,
    pub capabilities: Vec<String>,
    pub modified_at: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ShowDetails {
    pub parent_model: Option<String>,
    pub format: Option<String>,
    pub family: Option<String>,
    pub families: Option<Vec<String>>,
    pub parameter_size: Option<String>,
    pub quantization_level: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Tensor {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub shape: Vec<u64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct PsResponse {
    pub models: Vec<PsModel>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct PsModel {
    pub name: String,
    pub model: String,
    pub size: u64,
    pub digest: Option<String>,
    pub expires_at: Option<String>,
    pub size_vram: u64,
    pub context_length: Option<u64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct TagsResponse {
    pub models: Vec<TagModel>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct TagModel {
    pub name: String,
    pub model: String,
    pub digest: Option<String>,
    pub size: Option<u64>,
}

// ---------------------------------------------------------------- responses → cases

/// Copies a final response into `case`; fails (with the reason) when it is not a final
/// generation response or lacks the counters a run needs.
pub fn fill_case(case: &mut Case, r: &GenerateResponse) -> Result<(), NotAGeneration> {
    if r.done == Some(false) {
        return Err(NotAGeneration::NotFinal);
    }
    if let Some(reason @ ("load" | "unload")) = r.done_reason.as_deref() {
        return Err(NotAGeneration::ModelReply(reason.to_string()));
    }
    let need = |v: Option<u64>, name: &'static str| v.ok_or(NotAGeneration::Missing(name));
    case.set_counter(
        "prompt_eval_count",
        Some(need(r.prompt_eval_count, "prompt_eval_count")?),
    );
    case.set_counter(
        "prompt_eval_duration_ns",
        Some(need(r.prompt_eval_duration, "prompt_eval_duration")?),
    );
    case.set_counter("eval_count", Some(need(r.eval_count, "eval_count")?));
    case.set_counter(
        "eval_duration_ns",
        Some(need(r.eval_duration, "eval_duration")?),
    );
    case.set_counter("total_duration_ns", r.total_duration);
    case.set_counter("load_duration_ns", r.load_duration);
    case.set_done_reason(r.done_reason.clone());
    case.set_created_at(r.created_at.clone());
    let message = r.message.as_ref();
    case.set_response(
        r.response
            .clone()
            .or_else(|| message.and_then(|m| m.content.clone())),
    );
    case.set_thinking(
        r.thinking
            .clone()
            .or_else(|| message.and_then(|m| m.thinking.clone()))
            .filter(|t| !t.is_empty()),
    );
    Ok(())
}

/// Whether two model names mean the same model (`llama3.2` is `llama3.2:latest`).
pub fn same_model(a: &str, b: &str) -> bool {
    fn norm(s: &str) -> String {
        let last = s.rsplit('/').next().unwrap_or(s);
        if last.contains(':') {
            s.to_string()
        } else {
            format!("{s}:latest")
        }
    }
    !a.is_empty() && !b.is_empty() && norm(a) == norm(b)
}

// ---------------------------------------------------------------- nonces

/// Unique prompt prefixes: three common words. The first word changes with every
/// request (so no two consecutive prompts share their first text token); the other two
/// come from a hash of the run's start time and the request number.
pub struct Nonces {
    seed: u64,
    counter: u64,
}

const WORDS: [&str; 64] = [
    "apple", "river", "stone", "cloud", "green", "music", "paper", "light", "table", "water",
    "horse", "sugar", "glass", "bread", "chair", "plant", "smile", "train", "earth", "field",
    "honey", "ocean", "tiger", "storm", "money", "night", "lemon", "house", "piano", "grass",
    "metal", "queen", "radio", "snake", "truck", "wheel", "zebra", "brush", "candy", "dance",
    "eagle", "fruit", "ghost", "heart", "juice", "knife", "mouse", "nurse", "onion", "pearl",
    "quiet", "robot", "sheep", "tooth", "uncle", "voice", "whale", "youth", "beach", "coral",
    "dream", "flame", "grape", "ivory",
];

impl Nonces {
    pub fn new(seed: u64) -> Nonces {
        Nonces { seed, counter: 0 }
    }

    /// The next nonce, e.g. `river tiger lemon. `
    pub fn next_nonce(&mut self) -> String {
        let n = self.counter;
        self.counter += 1;
        let h = splitmix64(self.seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let first = WORDS[((self.seed % 64 + n) % 64) as usize];
        let second = WORDS[(h % 64) as usize];
        let third = WORDS[((h >> 6) % 64) as usize];
        format!("{first} {second} {third}. ")
    }
}

fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

// ---------------------------------------------------------------- the engine

/// A probe session against one Ollama server and model.
pub struct Ollama {
    http: Http,
    model: String,
    seed: u64,
    raw: bool,
    timeout_secs: u64,
    nonces: Nonces,
}

impl Ollama {
    pub fn new(http: Http, model: String, seed: u64, raw: bool, timeout_secs: u64) -> Ollama {
        let start = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        Ollama {
            http,
            model,
            seed,
            raw,
            timeout_secs,
            nonces: Nonces::new(start ^ u64::from(std::process::id())),
        }
    }

    fn ps(&self, case: Option<&str>) -> Result<PsResponse, ProbeError> {
        self.http.get("/api/ps", case)
    }

    fn listed(&self, ps: &PsResponse) -> Option<PsModel> {
        ps.models
            .iter()
            .find(|m| same_model(&m.name, &self.model) || same_model(&m.model, &self.model))
            .cloned()
    }

    /// Unloads the model and waits (bounded by the request timeout) until `/api/ps` no
    /// longer lists it.
    fn unload(&self, case: &str) -> Result<(), ProbeError> {
        let req = GenerateRequest {
            model: &self.model,
            prompt: None,
            stream: false,
            raw: None,
            keep_alive: Some(0),
            options: None,
        };
        let _: GenerateResponse = self.http.post("/api/generate", &req, Some(case))?;
        let deadline = Instant::now() + Duration::from_secs(self.timeout_secs);
        let mut wait = Duration::from_millis(50);
        for _ in 0..1000 {
            if self.listed(&self.ps(Some(case))?).is_none() {
                return Ok(());
            }
            if Instant::now() + wait > deadline {
                break;
            }
            std::thread::sleep(wait);
            wait = (wait * 2).min(Duration::from_millis(500));
        }
        Err(ProbeError::request(
            Some(case),
            "GET",
            &self.http.url("/api/ps"),
            format!(
                "model `{}` is still loaded {} s after `keep_alive: 0`",
                self.model, self.timeout_secs
            ),
        )
        .with_hint("another client may be keeping it loaded; stop it, or run the case as `hot`"))
    }

    /// Loads the model (an empty-prompt request) unless `/api/ps` lists it.
    fn ensure_resident(&self, case: &str) -> Result<(), ProbeError> {
        if self.listed(&self.ps(Some(case))?).is_some() {
            return Ok(());
        }
        let req = GenerateRequest {
            model: &self.model,
            prompt: None,
            stream: false,
            raw: None,
            keep_alive: None,
            options: None,
        };
        let _: GenerateResponse = self.http.post("/api/generate", &req, Some(case))?;
        Ok(())
    }
}

impl Server for Ollama {
    fn kind(&self) -> &'static str {
        "ollama"
    }

    fn endpoint(&self) -> &str {
        self.http.base()
    }

    fn describe(&mut self) -> Result<Environment, ProbeError> {
        let version: VersionResponse = self.http.get("/api/version", None)?;
        let show: ShowResponse = self
            .http
            // `name` is the field's older spelling; servers accept both.
            .post(
                "/api/show",
                &serde_json::json!({ "model": self.model, "name": self.model }),
                None,
            )
            .map_err(|e| {
                e.with_hint(format!(
                    "is `{}` pulled on this server? (`ollama pull {}`)",
                    self.model, self.model
                ))
            })?;
        let tags: TagsResponse = self.http.get("/api/tags", None)?;
        let digest = tags
            .models
            .iter()
            .find(|m| same_model(&m.name, &self.model) || same_model(&m.model, &self.model))
            .and_then(|m| m.digest.clone());
        let mut census = BTreeMap::new();
        for t in show.tensors.iter().flatten() {
            *census.entry(t.kind.clone()).or_insert(0u64) += 1;
        }
        let d = show.details;
        let details = ModelDetails {
            format: d.format.filter(|s| !s.is_empty()),
            family: d.family.filter(|s| !s.is_empty()),
            parameter_size: d.parameter_size.filter(|s| !s.is_empty()),
            quantization_level: d.quantization_level.filter(|s| !s.is_empty()),
            digest,
            file: None,
            tensor_types: census,
        };
        let (environment, mut versions) = super::host::engine_host(self.http.base());
        if !version.version.is_empty() {
            versions.insert("ollama".to_string(), version.version);
        }
        Ok(Environment {
            model: Some(self.model.clone()),
            versions,
            environment,
            model_details: Some(details),
        })
    }

    fn generate(&mut self, req: &Request) -> Result<Case, ProbeError> {
        let case_id = req.case_id;
        let (nonce, defeat) = match req.mode {
            Residency::Cold => {
                self.unload(case_id)?;
                (None, CacheDefeat::ColdStart)
            }
            Residency::Hot => {
                self.ensure_resident(case_id)?;
                (Some(self.nonces.next_nonce()), CacheDefeat::Nonce)
            }
        };
        let prompt = format!("{}{}", nonce.as_deref().unwrap_or(""), req.prompt);
        let body = GenerateRequest {
            model: &self.model,
            prompt: Some(&prompt),
            stream: false,
            raw: self.raw.then_some(true),
            keep_alive: None,
            options: Some(GenerateOptions {
                temperature: 0.0,
                seed: self.seed,
                num_predict: req.num_predict,
            }),
        };
        let started = evidence_probe::record::Clock::now();
        let t0 = Instant::now();
        let resp: GenerateResponse = self.http.post("/api/generate", &body, Some(case_id))?;
        let wall = t0.elapsed();
        let mut case = Case::new(case_id);
        fill_case(&mut case, &resp).map_err(|e| {
            let url = self.http.url("/api/generate");
            ProbeError::request(Some(case_id), "POST", &url, e.to_string())
        })?;
        case.set_mode(Some(req.mode));
        case.set_counter("num_predict", Some(u64::from(req.num_predict)));
        case.set_cache_defeat(Some(defeat));
        case.set_nonce(nonce);
        case.set_prompt(Some(prompt));
        case.set_started_at(Some(started.rfc3339()));
        case.set_wall_duration_ns(Some(u64::try_from(wall.as_nanos()).unwrap_or(u64::MAX)));
        Ok(case)
    }

    fn after(&mut self) -> Result<Option<ModelMemory>, ProbeError> {
        let ps = self.ps(None)?;
        Ok(self.listed(&ps).map(|m| ModelMemory {
            size: m.size,
            size_vram: m.size_vram,
            context_length: m.context_length.filter(|&n| n > 0),
        }))
    }

    fn settings(&self) -> RequestSettings {
        RequestSettings {
            stream: false,
            temperature: 0.0,
            seed: self.seed,
            timeout_secs: self.timeout_secs,
            raw: Some(self.raw),
            cache_prompt: None,
        }
    }
}

/// Why a response is no final generation response [`fill_case`] can record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotAGeneration {
    /// A streamed chunk (`done: false`), not the final object.
    NotFinal,
    /// The reply to loading or unloading a model (`done_reason`).
    ModelReply(String),
    /// A counter every final response carries is absent.
    Missing(&'static str),
}

impl std::fmt::Display for NotAGeneration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotAGeneration::NotFinal => write!(
                f,
                "the response is not a final one (`done: false`); \
                 send `stream: false` or capture the stream to its end"
            ),
            NotAGeneration::ModelReply(reason) => write!(
                f,
                "the response is a model {reason} reply (`done_reason: {reason}`), not a generation"
            ),
            NotAGeneration::Missing(name) => write!(
                f,
                "the response has no `{name}` (a final /api/generate response carries \
                 prompt_eval_count, prompt_eval_duration, eval_count and eval_duration)"
            ),
        }
    }
}

impl std::error::Error for NotAGeneration {}

#[cfg(test)]
mod tests {
    use super::*;

    const GENERATE: &str = include_str!("../../../../tests/fixtures/probe/ollama/generate.json");

    #[test]
    fn final_response_fills_a_case_without_context() {
        crate::register();
        let r: GenerateResponse = serde_json::from_str(GENERATE).unwrap();
        let mut c = Case::new("x");
        fill_case(&mut c, &r).unwrap();
        assert_eq!(c.counter("prompt_eval_count"), Some(26));
        assert_eq!(c.counter("eval_duration_ns"), Some(4_709_213_000));
        assert_eq!(
            c.created_at().map(String::as_str),
            Some("2023-08-04T19:22:45.499127Z")
        );
    }

    #[test]
    fn missing_counters_and_non_final_replies_are_refused() {
        let mut c = Case::new("x");
        let r: GenerateResponse = serde_json::from_str(r#"{"done":true,"eval_count":1}"#).unwrap();
        assert!(
            fill_case(&mut c, &r)
                .unwrap_err()
                .to_string()
                .contains("prompt_eval_count")
        );
        let r: GenerateResponse = serde_json::from_str(r#"{"done":false}"#).unwrap();
        assert!(
            fill_case(&mut c, &r)
                .unwrap_err()
                .to_string()
                .contains("final")
        );
        let r: GenerateResponse =
            serde_json::from_str(r#"{"done":true,"done_reason":"load"}"#).unwrap();
        assert!(
            fill_case(&mut c, &r)
                .unwrap_err()
                .to_string()
                .contains("load")
        );
    }

    #[test]
    fn a_refused_response_says_the_message_of_old() {
        assert_eq!(
            NotAGeneration::ModelReply("unload".into()).to_string(),
            "the response is a model unload reply (`done_reason: unload`), not a generation"
        );
        assert_eq!(
            NotAGeneration::NotFinal.to_string(),
            "the response is not a final one (`done: false`); send `stream: false` or capture \
             the stream to its end"
        );
    }

    #[test]
    fn model_names_match_with_the_default_tag() {
        assert!(same_model("llama3.2", "llama3.2:latest"));
        assert!(same_model("a/b:7b", "a/b:7b"));
        assert!(!same_model("llama3.2", "llama3.2:1b"));
        assert!(!same_model("", ""));
    }

    #[test]
    fn consecutive_nonces_differ_in_their_first_word() {
        let mut n = Nonces::new(12345);
        let all: Vec<String> = (0..64).map(|_| n.next_nonce()).collect();
        for w in all.windows(2) {
            assert_ne!(w[0].split(' ').next(), w[1].split(' ').next());
        }
        let unique: std::collections::BTreeSet<_> = all.iter().collect();
        assert_eq!(unique.len(), all.len());
    }
}
