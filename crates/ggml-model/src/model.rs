//! The pack's record types, exactly as written in `data/bundles.yaml`,
//! `data/generations.yaml` and `data/quantization.yaml`: the same rules as the core's
//! (`model::types`): unknown fields denied, human texts as [`Text`] pairs, ids as [`Id`]s.

use evidence_core::model::{Id, Range, Text};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

// ---------------------------------------------------------------- bundles.yaml

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Bundle {
    pub id: Id,
    pub arch: String,
    /// The file the code object was found in.
    pub container: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_kb: Option<u64>,
    pub symbols: Vec<String>,
    pub role: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<Id>,
    /// The route (`routes.yaml`) the bundle serves, as the bundle table shows it.
    pub route: Id,
    /// The range of the map's variable its code is built for (the instances it holds,
    /// such as `ncols` 1..8), as read from the binary: not something seen at run time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub built_for: Option<Range>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sgpr: Option<Range>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vgpr: Option<Range>,
    /// Instruction counts seen in the disassembly, by mnemonic class.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub instructions: BTreeMap<String, u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wavefront_size: Option<u32>,
    /// Whether the bundle was disassembled (not only listed).
    #[serde(default)]
    pub disassembled: bool,
    /// Phases that recorded the bundle.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<Text>,
}

// ---------------------------------------------------------------- generations.yaml

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Generation {
    pub id: Id,
    /// The gfx target, e.g. `gfx1201`.
    pub gfx: String,
    /// AMD's generation name, e.g. `RDNA4`.
    pub generation: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product: Option<String>,
    /// The label the original page used, kept when it differs from AMD's naming.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_label: Option<String>,
    pub fatbin_targets: TargetStatus,
    pub custom_kernels: Text,
    pub implication: Text,
    /// What `generation` rests on; `inferred` is marked as the site's reading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<evidence_core::model::types::Basis>,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TargetStatus {
    Found,
    NotFound,
    NotScanned,
}

// ---------------------------------------------------------------- quantization.yaml

/// `data/quantization.yaml`: tensor types, the layers of the general map and the plan.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QuantizationFile {
    pub tensor_types: Vec<TensorType>,
    pub file_types: Vec<FileType>,
    pub layers: Vec<Layer>,
    pub plan: Vec<PlanStep>,
}

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TensorType {
    pub id: Id,
    /// ggml type name, e.g. `Q4_K`.
    pub name: String,
    /// ggml type id in GGUF.
    pub ggml_id: u32,
    /// Kernel families that have an entry for the type in the source.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub families: Vec<Id>,
    /// Where `families` was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<evidence_core::model::types::Source>,
}

/// A file-level quantization label and the tensor types it may mix.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileType {
    pub id: Id,
    pub label: String,
    pub mixes: Vec<Id>,
    pub note: Text,
}

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Layer {
    pub id: Id,
    pub layer: Text,
    pub fixed: Text,
}

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanStep {
    pub id: Id,
    pub order: u32,
    /// The file type the step broadens the map with.
    pub target: String,
    pub reason: Text,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<Id>,
}

// ---------------------------------------------------------------- the pack's kinds

use evidence_core::model::pack::{PackRecord, Reference, Typed};
use evidence_core::model::registry::{Compare, Kind, KindSpec, PackKind, Storage};

/// The registry entry of one of the pack's kinds, written in `file` under `data/`.
macro_rules! kinds {
    ($($spec:ident, $kind:ident, $type:ty, $name:literal, $file:literal, $about:literal;)*) => {$(
        #[doc = concat!("The `", $name, "` kind's entry (`data/", $file, "`).")]
        pub static $spec: KindSpec = KindSpec {
            kind: Kind::Pack(PackKind(&$spec)),
            name: $name,
            about: $about,
            fields: evidence_core::model::registry::struct_fields::<$type>,
            storage: Storage::File($file),
            compare: Compare::Fields,
            // The pack's files' schemas are its own (`schema.rs`).
            schema: None,
        };
        #[doc = concat!("The `", $name, "` kind.")]
        pub const $kind: Kind = Kind::Pack(PackKind(&$spec));
    )*};
}

kinds! {
    BUNDLE_SPEC, BUNDLE, Bundle, "bundle", "bundles.yaml",
        "A code object found in a fat binary: its target, size, symbols and route.";
    GENERATION_SPEC, GENERATION, Generation, "generation", "generations.yaml",
        "A GPU target and its generation, with whether the fat binary carries code for it.";
    TENSOR_TYPE_SPEC, TENSOR_TYPE, TensorType, "tensor_type", "quantization.yaml",
        "A ggml tensor type, its id in GGUF and the kernel families that handle it.";
    FILE_TYPE_SPEC, FILE_TYPE, FileType, "file_type", "quantization.yaml",
        "A file-level quantization label and the tensor types it may mix.";
    LAYER_SPEC, LAYER, Layer, "layer", "quantization.yaml",
        "A layer of the general map: what it fixes.";
    PLAN_SPEC, PLAN, PlanStep, "plan", "quantization.yaml",
        "A step of the plan that broadens the map to another file type.";
}

/// Every kind the pack adds, in the order the registry lists them.
pub static KINDS: [&KindSpec; 6] = [
    &BUNDLE_SPEC,
    &GENERATION_SPEC,
    &TENSOR_TYPE_SPEC,
    &FILE_TYPE_SPEC,
    &LAYER_SPEC,
    &PLAN_SPEC,
];

macro_rules! records {
    ($($t:ty => |$r:ident| $refs:expr;)*) => {$(
        impl PackRecord for $t {
            fn id(&self) -> &Id {
                &self.id
            }
            fn references(&self) -> Vec<Reference<'_>> {
                let $r = self;
                $refs
            }
            fn as_any(&self) -> &dyn std::any::Any {
                self
            }
        }
    )*};
}

use evidence_core::model::registry::Kind as K;

records! {
    Bundle => |b| {
        let mut out: Vec<Reference> = b.family.iter().map(|f| Reference::Bare(K::Family, f)).collect();
        out.push(Reference::Bare(K::Route, &b.route));
        out.extend(b.phases.iter().map(|p| Reference::Bare(K::Phase, p)));
        out
    };
    Generation => |_g| Vec::new();
    TensorType => |t| t.families.iter().map(|f| Reference::Bare(K::Family, f)).collect();
    FileType => |f| f.mixes.iter().map(|m| Reference::Bare(TENSOR_TYPE, m)).collect();
    Layer => |_l| Vec::new();
    PlanStep => |s| s.refs.iter().map(Reference::Any).collect();
}

/// The pack's records of each kind, typed.
pub fn bundles(ev: &evidence_core::model::Evidence) -> Typed<'_, Bundle> {
    Typed::of(ev, BUNDLE)
}
pub fn generations(ev: &evidence_core::model::Evidence) -> Typed<'_, Generation> {
    Typed::of(ev, GENERATION)
}
pub fn tensor_types(ev: &evidence_core::model::Evidence) -> Typed<'_, TensorType> {
    Typed::of(ev, TENSOR_TYPE)
}
pub fn file_types(ev: &evidence_core::model::Evidence) -> Typed<'_, FileType> {
    Typed::of(ev, FILE_TYPE)
}
pub fn layers(ev: &evidence_core::model::Evidence) -> Typed<'_, Layer> {
    Typed::of(ev, LAYER)
}
pub fn plan(ev: &evidence_core::model::Evidence) -> Typed<'_, PlanStep> {
    Typed::of(ev, PLAN)
}
