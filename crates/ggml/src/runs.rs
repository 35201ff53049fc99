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
pub const CASE_FIELDS: &[Field] = &[
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
pub const RUN_FIELDS: &[Field] = &[
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

// The core's run and case read with this pack's fields: tested here, where the pack is.
#[cfg(test)]
mod recorded_tests {
    use evidence_core::model::types::{Recorded, Run};

    fn run(extra: &str) -> Run {
        let text =
            format!("id: r\nprobe: p\nengine: none\norigin: {{ja: 記録, en: record}}\n{extra}");
        serde_saphyr::from_str(&text).expect("a run")
    }

    #[test]
    fn how_a_run_was_recorded_follows_from_what_it_keeps() {
        crate::register();
        assert_eq!(run("").recorded(), Recorded::Transcribed);
        assert_eq!(
            run("versions: {evidence: \"0.1.0\"}\n").recorded(),
            Recorded::Import
        );
        let probe = "versions: {evidence: \"0.1.0\"}\nrequest: {stream: false, temperature: 0, seed: 42, timeout_secs: 300}\n";
        assert_eq!(run(probe).recorded(), Recorded::Probe);
    }
}

#[cfg(test)]
mod case_fields_tests {
    use super::{Counters, EngineCase, LlamaServerCase};
    use evidence_core::model::types::{Case, Run};

    const RUN: &str = "id: r\nprobe: p\nengine: none\norigin: {ja: 記録, en: record}\ncases:\n  \
        - id: c\n    mode: hot\n    prompt_eval_count: 12\n    prompt: \"say hi\"\n    \
        measurements: {est_rows: 2.5}\n    llama_server: {stop_type: eos, timings: {prompt_n: 12}}\n";

    #[test]
    fn a_packs_measurements_and_the_sites_read_as_one_set_and_write_back_where_they_were() {
        crate::register();
        let run: Run = serde_saphyr::from_str(RUN).expect("a run");
        let c = &run.cases[0];
        assert_eq!(
            c.measured().collect::<Vec<_>>(),
            ["est_rows", "prompt_eval_count"]
        );
        assert_eq!(c.counter("prompt_eval_count"), Some(12));
        assert_eq!(c.measurement("est_rows"), Some(2.5));
        assert_eq!(c.prompt().map(String::as_str), Some("say hi"));
        let ls: &LlamaServerCase = c.llama_server().expect("typed, the pack's own");
        assert_eq!(ls.timings.prompt_n, Some(12));
        let yaml = serde_saphyr::to_string(&run).expect("yaml");
        assert!(yaml.contains("prompt_eval_count: 12\n"), "{yaml}");
        assert!(yaml.contains("measurements:\n"), "{yaml}");
        let back: Run = serde_saphyr::from_str(&yaml).expect("read back");
        assert_eq!(back.cases[0].measurements, c.measurements);
        assert_eq!(back.cases[0].values, c.values);
        // The parse cache's encoding holds the same.
        let bytes = rmp_serde::to_vec_named(&run).expect("msgpack");
        let cached: Run = rmp_serde::from_slice(&bytes).expect("decoded");
        assert_eq!(cached.cases[0].measurements, c.measurements);
        assert_eq!(cached.cases[0].values, c.values);
    }

    #[test]
    fn a_measurement_written_twice_and_an_unknown_field_are_refused() {
        crate::register();
        let twice = "{id: c, eval_count: 1, measurements: {eval_count: 2}}";
        let e = serde_saphyr::from_str::<Case>(twice).expect_err("twice");
        assert!(e.to_string().contains("both at the top"), "{e}");
        let e = serde_saphyr::from_str::<Case>("{id: c, est_rows: 1}").expect_err("unknown");
        assert!(e.to_string().contains("unknown field `est_rows`"), "{e}");
        let off = evidence_core::model::fields::expecting(&[], || {
            serde_saphyr::from_str::<Case>("{id: c, eval_count: 1}")
        });
        let e = off.expect_err("the pack is off");
        assert!(e.to_string().contains("`ggml` pack"), "{e}");
    }
}

// Where a case writes this pack's measurements beside the site's own (`model::fields`).
#[cfg(test)]
mod measurement_tests {
    use evidence_core::model::fields::{
        FieldKind, Measurements, measurement_entries, serialize_measurements,
    };
    use serde::Serialize;
    use serde::ser::{SerializeMap, Serializer};

    /// Measurements written as a case writes them.
    fn written(m: &Measurements) -> String {
        struct Top<'a>(&'a Measurements);
        impl Serialize for Top<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut map = s.serialize_map(Some(measurement_entries(self.0)))?;
                serialize_measurements(self.0, &mut map)?;
                map.end()
            }
        }
        serde_json::to_string(&Top(m)).unwrap_or_default()
    }

    #[test]
    fn a_packs_measurements_go_on_top_in_its_order_and_the_rest_under_measurements() {
        crate::register();
        let names: Vec<&str> = super::CASE_FIELDS
            .iter()
            .filter(|f| matches!(f.kind, FieldKind::Measurement))
            .map(|f| f.name)
            .collect();
        let (Some(&first), Some(&last)) = (names.first(), names.last()) else {
            panic!("the pack declares measurements");
        };
        assert_ne!(first, last);
        let mut m = Measurements::default();
        // Names made afresh, as a parser makes them: the address of the pack's own
        // string is no part of what the caller gives.
        m.insert(&String::from(last), 2.0);
        m.insert(&String::from("zz_site_own"), 3.5);
        m.insert(&String::from(first), 1.0);
        m.insert(&String::from("aa_site_own"), 4.0);
        assert_eq!(measurement_entries(&m), 3);
        assert_eq!(
            written(&m),
            format!(
                r#"{{"{first}":1,"{last}":2,"measurements":{{"aa_site_own":4,"zz_site_own":3.5}}}}"#
            )
        );
        // Only the site's own: no pack's key.
        let mut own = Measurements::default();
        own.insert("solo", 1.0);
        assert_eq!(measurement_entries(&own), 1);
        assert_eq!(written(&own), r#"{"measurements":{"solo":1}}"#);
        assert_eq!(measurement_entries(&Measurements::default()), 0);
        assert_eq!(written(&Measurements::default()), "{}");
    }
}
