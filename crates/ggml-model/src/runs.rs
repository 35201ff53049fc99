//! What the pack's probes record in a run and its cases beyond the core's fields: the
//! model and endpoint a run served, whether each case found the model loaded (`mode`), the
//! engine counters (as measurements, by the names the engines give them), the request,
//! the prompt and the reply, the model as the engine described it, and the binary
//! scans. Each is declared once here ([`RUN_FIELDS`], [`CASE_FIELDS`]); the core reads and
//! writes them through `model::fields`, and the pack reads them back typed through
//! [`EngineRun`] and [`EngineCase`].

use super::scans::{FatbinRecord, GgufRecord, MapsRecord};
use evidence_core::model::fields::{Field, Place, parse};
use evidence_core::model::{Case, Run};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The measurements an engine probe writes at the top of a case, in table order, and the
/// rest of what it keeps of a case.
pub static CASE_FIELDS: [Field; 19] = [
    Field::value("mode", parse::<Residency>).leading(),
    Field::measurement("num_predict", "measure-num-predict"),
    Field::measurement("prompt_eval_count", "measure-prompt-eval-count"),
    Field::measurement("eval_count", "measure-eval-count"),
    Field::measurement("total_duration_ns", "measure-total").grouped("durations"),
    Field::measurement("load_duration_ns", "measure-load").grouped("durations"),
    Field::measurement("prompt_eval_duration_ns", "measure-prompt-eval").grouped("durations"),
    Field::measurement("eval_duration_ns", "measure-eval").grouped("durations"),
    Field::value("done_reason", parse::<String>),
    Field::value("sweep", parse::<SweepPoint>),
    Field::value("cache_defeat", parse::<CacheDefeat>),
    Field::value("nonce", parse::<String>),
    Field::value("prompt", parse::<String>),
    Field::value("started_at", parse::<String>),
    Field::value("created_at", parse::<String>),
    Field::value("wall_duration_ns", parse::<u64>),
    Field::value("response", parse::<String>),
    Field::value("thinking", parse::<String>),
    Field::value("llama_server", parse::<LlamaServerCase>),
];

/// What the pack's probes keep of a run.
pub static RUN_FIELDS: [Field; 9] = [
    Field::value("endpoint", parse::<String>).leading(),
    Field::value("model", parse::<String>).leading(),
    Field::value("model_details", parse::<ModelDetails>),
    Field::value("loaded", parse::<ModelMemory>),
    Field::value("request", parse::<RequestSettings>).probe_only(),
    Field::value("sweep", parse::<SweepSettings>).probe_only(),
    Field::value("fatbin", parse::<FatbinRecord>),
    Field::value("gguf", parse::<GgufRecord>),
    Field::value("maps", parse::<MapsRecord>),
];

/// A prompt-token sweep's own page plots prompt-eval time against prompt tokens, the
/// point of the sweep (the plot `::scatter` draws for any two measurements).
pub fn run_page_extras(run: &Run) -> Vec<evidence_core::model::pack::ExtraDirective> {
    let (x, y) = ("prompt_eval_count", "prompt_eval_duration_ns");
    let measured = |m: &str| run.cases.iter().any(|c| c.measurement(m).is_some());
    if run.sweep().is_none() || !measured(x) || !measured(y) {
        return Vec::new();
    }
    vec![(
        "scatter",
        vec![
            ("run", run.id.value.clone()),
            ("x", x.to_string()),
            ("y", y.to_string()),
        ],
    )]
}

/// Declares, for each field of `$place`, a getter and a setter on `$trait`.
macro_rules! accessors {
    ($trait:ident for $ty:ty, $place:expr; $($get:ident / $set:ident: $t:ty = $name:literal,)*) => {
        /// The pack's fields of a
        #[doc = stringify!($ty)]
        /// , typed.
        pub trait $trait {
            $(
                fn $get(&self) -> Option<&$t>;
                fn $set(&mut self, value: Option<$t>);
            )*
        }
        impl $trait for $ty {
            $(
                fn $get(&self) -> Option<&$t> {
                    self.values.get::<$t>($name)
                }
                fn $set(&mut self, value: Option<$t>) {
                    self.values.set($place, $name, value)
                }
            )*
        }
    };
}

accessors! { EngineRun for Run, Place::Run;
    endpoint / set_endpoint: String = "endpoint",
    model / set_model: String = "model",
    model_details / set_model_details: ModelDetails = "model_details",
    loaded / set_loaded: ModelMemory = "loaded",
    request / set_request: RequestSettings = "request",
    sweep / set_sweep: SweepSettings = "sweep",
    fatbin / set_fatbin: FatbinRecord = "fatbin",
    gguf / set_gguf: GgufRecord = "gguf",
    maps / set_maps: MapsRecord = "maps",
}

accessors! { EngineCase for Case, Place::Case;
    mode / set_mode: Residency = "mode",
    done_reason / set_done_reason: String = "done_reason",
    sweep_point / set_sweep_point: SweepPoint = "sweep",
    cache_defeat / set_cache_defeat: CacheDefeat = "cache_defeat",
    nonce / set_nonce: String = "nonce",
    prompt / set_prompt: String = "prompt",
    started_at / set_started_at: String = "started_at",
    created_at / set_created_at: String = "created_at",
    wall_duration_ns / set_wall_duration_ns: u64 = "wall_duration_ns",
    response / set_response: String = "response",
    thinking / set_thinking: String = "thinking",
    llama_server / set_llama_server: LlamaServerCase = "llama_server",
}

/// The engine counters of a case, as whole numbers.
pub trait Counters {
    /// The counter `name` (`prompt_eval_count`), if the case has it.
    fn counter(&self, name: &str) -> Option<u64>;
    /// Sets the counter `name`; `None` removes it.
    fn set_counter(&mut self, name: &str, value: Option<u64>);
}

impl Counters for Case {
    fn counter(&self, name: &str) -> Option<u64> {
        // Counters are whole numbers below 2^53, exact as f64.
        self.measurement(name)
            .filter(|v| *v >= 0.0 && v.fract() == 0.0)
            .map(|v| v as u64)
    }
    fn set_counter(&mut self, name: &str, value: Option<u64>) {
        match value {
            Some(v) => self.measurements.insert(name, v as f64),
            None => {
                self.measurements.remove(name);
            }
        }
    }
}

/// Whether a case found the model loaded: `cold` (nothing warm from before: loaded for
/// this case) or `hot` (resident).
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq, Hash, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Residency {
    Cold,
    Hot,
}

impl Residency {
    /// Its message key (`residency-hot`), the label the pack's messages give it.
    pub fn label_key(self) -> &'static str {
        match self {
            Residency::Cold => "residency-cold",
            Residency::Hot => "residency-hot",
        }
    }

    /// As written in a run file (`hot`).
    pub fn as_str(self) -> &'static str {
        match self {
            Residency::Cold => "cold",
            Residency::Hot => "hot",
        }
    }
}

/// The model as the engine described it when the run was recorded.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelDetails {
    /// `gguf`, as `/api/show` reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// e.g. `7.6B`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameter_size: Option<String>,
    /// e.g. `Q4_K_M`: the file-type label, not the type of every tensor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quantization_level: Option<String>,
    /// Content digest of the model (`sha256:…` or bare hex, as the engine gives it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// Path of the model file on the server (llama-server's `/props`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Tensor count per tensor type (`Q4_K: 193`), when the engine lists tensors.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tensor_types: BTreeMap<String, u64>,
}

/// Memory of the loaded model, from `/api/ps`; `size_vram < size` means partial offload.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelMemory {
    /// Bytes the loaded model takes in total.
    pub size: u64,
    /// Bytes of it in GPU memory.
    pub size_vram: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_length: Option<u64>,
}

/// What every request of a probe run was sent with.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequestSettings {
    /// Always `false` for probes: the final response carries the counters.
    pub stream: bool,
    pub temperature: f64,
    pub seed: u64,
    /// Per-request time limit in seconds.
    pub timeout_secs: u64,
    /// Whether prompts were sent without the model's template (`raw`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<bool>,
    /// llama-server `cache_prompt`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_prompt: Option<bool>,
}

/// The range a prompt-token sweep covered.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SweepSettings {
    /// First and last target prompt token count, inclusive.
    pub from: u64,
    pub to: u64,
    pub step: u64,
    /// The word repeated to build the prompts.
    pub word: String,
    /// Calibration requests allowed per target.
    pub max_tries: u32,
}

/// A sweep case: the token count aimed at and how the prompt was found.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SweepPoint {
    /// Target prompt_eval_count.
    pub target: u64,
    /// How many times the sweep word was repeated.
    pub words: u64,
    /// Requests it took to find the prompt (the recorded one included).
    pub tries: u32,
    /// Whether prompt_eval_count reached the target exactly.
    pub hit: bool,
}

/// How a probe kept the prompt cache from shrinking the work it measured.
#[derive(
    Debug,
    Clone,
    Copy,
    Deserialize,
    Serialize,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum CacheDefeat {
    /// A unique text at the start of each prompt (model resident).
    Nonce,
    /// The model was unloaded (`keep_alive: 0`) before the request.
    ColdStart,
    /// llama-server `cache_prompt: false`.
    CachePromptOff,
}

/// What llama-server's `/completion` reported beyond the common counters.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LlamaServerCase {
    /// `eos`, `limit`, `word` or `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_evaluated: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_cached: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    pub timings: LlamaTimings,
}

/// llama-server's `timings` object, as reported (milliseconds, tokens per second).
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LlamaTimings {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_n: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_n: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_per_token_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_per_second: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_n: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_per_token_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_per_second: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draft_n: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draft_n_accepted: Option<u64>,
}
