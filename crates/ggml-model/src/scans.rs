//! What the binary probes (`evidence probe fatbin|gguf|maps`) record in a run.
//!
//! The persisted schema of those records, its own types rather than the readers' reports:
//! a run file outlives the reader that wrote it, so a change to a reader's report must not
//! change what an old run file means. `probe::binary` converts a report into these. Field
//! names are the ones run files already hold.

use evidence_core::model::Range;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use evidence_core::model::types::InputFile;

/// A fatbin scan kept small: per-target summaries and per-bundle summaries, no kernels.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FatbinRecord {
    pub stats: FatbinStats,
    pub targets: Vec<FatbinTarget>,
    pub bundles: Vec<FatbinBundle>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<ProbeWarning>,
}

/// One offload bundle of a fatbin scan, summarized.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FatbinBundle {
    pub index: u64,
    pub file_offset: u64,
    pub extent: u64,
    pub compressed: bool,
    /// Entry ids (`hipv4-amdgcn-amd-amdhsa--gfx1100`, …) with their sizes.
    pub entries: Vec<FatbinEntry>,
    pub summary: FatbinBundleSummary,
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FatbinEntry {
    pub id: String,
    pub size: u64,
}

/// A GGUF read kept small: header, file type and type census with a few example tensors.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GgufRecord {
    pub version: u32,
    pub tensor_count: u64,
    pub kv_count: u64,
    pub alignment: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub architecture: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_type: Option<GgufFileType>,
    pub tensor_bytes: u64,
    pub census: Vec<GgufTypeCount>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<ProbeWarning>,
}

/// Tensors of one ggml type in a GGUF file.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GgufTypeCount {
    pub ggml_type: GgmlTypeRef,
    pub count: u64,
    pub elements: u64,
    pub bytes: u64,
    /// The first few tensors of the type, in file order.
    pub examples: Vec<String>,
}

/// The libraries and model files a process mapped, by file name (runs recorded before
/// this kept whole paths; both are read alike).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapsRecord {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    pub mappings: u64,
    pub shared_libraries: Vec<String>,
    pub models: Vec<String>,
}

/// Counts over a library's whole offload section.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FatbinStats {
    /// Bundles found.
    pub bundles: u64,
    /// Of which compressed.
    pub compressed_bundles: u64,
    /// Entries over all bundles.
    pub entries: u64,
    /// AMDGPU code objects read.
    pub code_objects: u64,
    /// Kernels over all code objects.
    pub kernels: u64,
    /// Warnings, section-level and per bundle.
    pub warnings: u64,
}

/// Everything one GPU target has over all bundles (the per-variant lists are not kept).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FatbinTarget {
    /// Target id (`gfx90a:xnack+`), or `host`, or `<kind>-<triple>` for other entries.
    pub target: String,
    /// Entries for it.
    pub entries: u64,
    /// AMDGPU code objects read for it.
    pub code_objects: u64,
    /// Code object versions seen.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub code_object_versions: Vec<u32>,
    /// Processors `e_flags` name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub processors: Vec<String>,
    /// Kernels over its code objects, counted once per bundle that has them.
    pub kernels: FatbinKernelStats,
    /// Distinct kernel names.
    pub distinct_kernels: u64,
    /// Distinct kernel names per family.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub distinct_families: BTreeMap<String, u64>,
}

/// Counts and register ranges over some kernels.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FatbinKernelStats {
    /// Kernels.
    pub count: u64,
    /// Kernels per family; kernels no rule matched are not in it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub families: BTreeMap<String, u64>,
    /// Kernels no rule matched.
    pub unclassified: u64,
    /// SGPR count range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sgpr: Option<Range>,
    /// VGPR count range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vgpr: Option<Range>,
    /// AGPR count range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agpr: Option<Range>,
    /// LDS (group segment) bytes range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_segment: Option<Range>,
    /// Scratch (private segment) bytes range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_segment: Option<Range>,
    /// Kernels with SGPR spills.
    pub sgpr_spilling: u64,
    /// Kernels with VGPR spills.
    pub vgpr_spilling: u64,
}

/// Counts over one offload bundle.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FatbinBundleSummary {
    /// Entries.
    pub entries: u64,
    /// AMDGPU code objects.
    pub code_objects: u64,
    /// Target ids of its entries, in table order (`host` for host entries).
    pub targets: Vec<String>,
    /// Kernels over its code objects.
    pub kernels: FatbinKernelStats,
}

/// A GGUF file's `general.file_type`.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GgufFileType {
    /// The stored value.
    pub id: u32,
    /// llama.cpp's name (`MOSTLY_Q4_1`), absent for a value the reader did not know.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// A ggml tensor type id with its name when the reader knew it.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GgmlTypeRef {
    /// `enum ggml_type` value.
    pub id: u32,
    /// Its name (`Q4_K`), absent for an id the reader did not know.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// A problem a binary probe recorded while the rest of the read went on.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProbeWarning {
    /// The reader's error code (`truncated`, `bad-magic`, …).
    pub code: String,
    /// File offset, when the problem is at one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// The message as the reader rendered it.
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record's misspelled or unknown field is an error, not a silent default, down to
    /// the innermost types (which the readers' own reports never refused).
    #[test]
    fn unknown_fields_are_refused() {
        let warning = r#"{"code":"truncated","offset":12,"message":"cut short"}"#;
        assert!(serde_json::from_str::<ProbeWarning>(warning).is_ok());
        let misspelled = r#"{"code":"truncated","ofset":12,"message":"cut short"}"#;
        assert!(serde_json::from_str::<ProbeWarning>(misspelled).is_err());
        let kernels = r#"{"count":1,"unclassified":0,"sgpr_spilling":0,"vgpr_spilling":0}"#;
        assert!(serde_json::from_str::<FatbinKernelStats>(kernels).is_ok());
        let with_extra = r#"{"count":1,"unclassified":0,"sgpr_spilling":0,"vgpr_spilling":0,"agprs":{"min":0,"max":1}}"#;
        assert!(serde_json::from_str::<FatbinKernelStats>(with_extra).is_err());
    }
}
