//! `binary::fatbin`: every offload bundle of a host library's `.hip_fatbin` section, every
//! entry of each, and every kernel of each AMDGPU code object, with summaries per bundle and
//! per target.
//!
//! The file is memory-mapped and walked bundle by bundle; plain bundles are read in place
//! and only the ELF headers and metadata notes of their code objects are touched, so a
//! 150 MB section is scanned without reading its code. A compressed bundle is decoded into
//! one buffer, scanned and dropped before the next. A bad bundle, entry or code object is
//! recorded as a warning on its bundle and the scan goes on.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::amdgpu::{self, Setting};
use super::bundle::{self, BundleWalk, EntryId, Found, RawEntry};
use super::bytes::{MappedFile, to_usize};
use super::ccob;
use super::classify::{self, FamilyRule};
use super::elf::{self, SectionInfo};
use super::error::{Error, Warning};
use super::ggml::TypeRef;

/// Which kernels a report lists one by one (summaries always count them all).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KernelDetail {
    /// None: summaries only.
    None,
    /// Only kernels a rule classified.
    #[default]
    Classified,
    /// Every kernel.
    All,
}

/// How to scan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScanOptions {
    /// Classification rules, first match wins (see [`classify::ggml_cuda_rules`]).
    pub rules: Vec<FamilyRule>,
    /// Which kernels to list.
    pub kernels: KernelDetail,
    /// Largest uncompressed size accepted for one compressed bundle.
    pub max_decompressed: u64,
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            rules: Vec::new(),
            kernels: KernelDetail::default(),
            max_decompressed: 1 << 30,
        }
    }
}

/// The whole scan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FatbinReport {
    /// The file scanned, when scanned from a path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// File size in bytes.
    pub file_size: u64,
    /// The fat-binary section.
    pub section: SectionInfo,
    /// Counts over the whole section.
    pub stats: ScanStats,
    /// One summary per target (target id, or `host`), sorted.
    pub targets: Vec<TargetSummary>,
    /// Every bundle in section order.
    pub bundles: Vec<BundleReport>,
    /// Problems outside any one bundle (truncated section, unrecognised bytes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
}

/// Counts over the whole section.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanStats {
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

/// One offload bundle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BundleReport {
    /// 0-based position in the section.
    pub index: u64,
    /// File offset of its magic.
    pub file_offset: u64,
    /// Bytes it occupies in the section.
    pub extent: u64,
    /// The compressed-bundle header, when it is compressed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compressed: Option<ccob::Header>,
    /// Entries in table order.
    pub entries: Vec<EntryReport>,
    /// Counts over its entries.
    pub summary: BundleSummary,
    /// Problems in this bundle.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
}

/// Counts over one bundle.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BundleSummary {
    /// Entries.
    pub entries: u64,
    /// AMDGPU code objects.
    pub code_objects: u64,
    /// Target ids of its entries, in table order (`host` for host entries).
    pub targets: Vec<String>,
    /// Kernels over its code objects.
    pub kernels: KernelStats,
}

/// One bundle entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EntryReport {
    /// The entry id as written (`hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+`).
    pub id: String,
    /// Offload kind (`hipv4`, `host`).
    pub kind: String,
    /// Target triple.
    pub triple: String,
    /// Target id with features, absent for host entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_id: Option<String>,
    /// Offset from the bundle start (of the decompressed bundle when compressed).
    pub offset: u64,
    /// Size in bytes.
    pub size: u64,
    /// The AMDGPU code object, when the entry is one and it could be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_object: Option<CodeObjectReport>,
}

/// One AMDGPU code object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CodeObjectReport {
    /// ELF header facts: code object version, `e_flags` processor and features.
    pub elf: amdgpu::Header,
    /// `amdhsa.version` of the metadata note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata_version: Option<Vec<u64>>,
    /// `amdhsa.target` of the metadata note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata_target: Option<String>,
    /// Whether `e_flags` (and `amdhsa.target`) agree with the entry's target id.
    pub matches_target: bool,
    /// Whether the code object has an `NT_AMDGPU_METADATA` note.
    pub has_metadata: bool,
    /// Counts over its kernels.
    pub stats: KernelStats,
    /// The kernels listed (see [`KernelDetail`]), in metadata order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kernels: Vec<KernelReport>,
    /// Every kernel's name and variant, kept for the target summaries (not serialized).
    #[serde(skip)]
    names: Vec<(String, Option<VariantKey>)>,
}

/// One kernel of a code object.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelReport {
    /// `.name` (mangled).
    pub name: String,
    /// `.symbol` (`<name>.kd`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// The demangled name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub demangled: Option<String>,
    /// The family a rule gave it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// The ggml type its rule captured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ggml_type: Option<TypeRef>,
    /// The tile width its rule captured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile: Option<i64>,
    /// `.sgpr_count`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sgpr_count: Option<u32>,
    /// `.vgpr_count`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vgpr_count: Option<u32>,
    /// `.agpr_count`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agpr_count: Option<u32>,
    /// `.wavefront_size`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wavefront_size: Option<u32>,
    /// `.group_segment_fixed_size` (LDS bytes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_segment_size: Option<u64>,
    /// `.private_segment_fixed_size` (scratch bytes per work-item).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_segment_size: Option<u64>,
    /// `.kernarg_segment_size`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernarg_size: Option<u64>,
    /// `.max_flat_workgroup_size`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_flat_workgroup_size: Option<u32>,
    /// `.sgpr_spill_count`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sgpr_spill_count: Option<u32>,
    /// `.vgpr_spill_count`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vgpr_spill_count: Option<u32>,
}

/// Smallest and largest of a value over some kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MinMax {
    /// Smallest.
    pub min: u64,
    /// Largest.
    pub max: u64,
}

fn widen(range: &mut Option<MinMax>, value: Option<u64>) {
    let Some(v) = value else { return };
    *range = Some(match *range {
        Some(r) => MinMax {
            min: r.min.min(v),
            max: r.max.max(v),
        },
        None => MinMax { min: v, max: v },
    });
}

fn widen_range(range: &mut Option<MinMax>, other: Option<MinMax>) {
    if let Some(o) = other {
        widen(range, Some(o.min));
        widen(range, Some(o.max));
    }
}

/// Counts and register ranges over some kernels.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelStats {
    /// Kernels.
    pub count: u64,
    /// Kernels per family; kernels no rule matched are not in it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub families: BTreeMap<String, u64>,
    /// Kernels no rule matched.
    pub unclassified: u64,
    /// SGPR count range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sgpr: Option<MinMax>,
    /// VGPR count range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vgpr: Option<MinMax>,
    /// AGPR count range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agpr: Option<MinMax>,
    /// LDS (group segment) bytes range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_segment: Option<MinMax>,
    /// Scratch (private segment) bytes range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_segment: Option<MinMax>,
    /// Kernels with SGPR spills.
    pub sgpr_spilling: u64,
    /// Kernels with VGPR spills.
    pub vgpr_spilling: u64,
}

impl KernelStats {
    fn add(&mut self, k: &KernelReport) {
        self.count += 1;
        match &k.family {
            Some(f) => *self.families.entry(f.clone()).or_default() += 1,
            None => self.unclassified += 1,
        }
        widen(&mut self.sgpr, k.sgpr_count.map(u64::from));
        widen(&mut self.vgpr, k.vgpr_count.map(u64::from));
        widen(&mut self.agpr, k.agpr_count.map(u64::from));
        widen(&mut self.group_segment, k.group_segment_size);
        widen(&mut self.private_segment, k.private_segment_size);
        self.sgpr_spilling += u64::from(k.sgpr_spill_count.unwrap_or(0) > 0);
        self.vgpr_spilling += u64::from(k.vgpr_spill_count.unwrap_or(0) > 0);
    }

    fn merge(&mut self, o: &KernelStats) {
        self.count += o.count;
        for (family, n) in &o.families {
            *self.families.entry(family.clone()).or_default() += n;
        }
        self.unclassified += o.unclassified;
        widen_range(&mut self.sgpr, o.sgpr);
        widen_range(&mut self.vgpr, o.vgpr);
        widen_range(&mut self.agpr, o.agpr);
        widen_range(&mut self.group_segment, o.group_segment);
        widen_range(&mut self.private_segment, o.private_segment);
        self.sgpr_spilling += o.sgpr_spilling;
        self.vgpr_spilling += o.vgpr_spilling;
    }
}

type VariantKey = (String, Option<u32>, Option<i64>);

/// Kernels of one family, ggml type and tile width for a target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variant {
    /// Family.
    pub family: String,
    /// ggml type, when the rule captures it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ggml_type: Option<TypeRef>,
    /// Tile width, when the rule captures it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile: Option<i64>,
    /// Kernels, counted once per code object that has them.
    pub kernels: u64,
    /// Distinct kernel names among them.
    pub distinct: u64,
}

/// Everything one target has over all bundles.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetSummary {
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
    /// Kernels over its code objects. A kernel with internal linkage built into several
    /// bundles counts once per bundle; see `distinct_kernels` for names.
    pub kernels: KernelStats,
    /// Distinct kernel names.
    pub distinct_kernels: u64,
    /// Distinct kernel names per family.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub distinct_families: BTreeMap<String, u64>,
    /// Kernels per (family, ggml type, tile), for families whose rule captures them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<Variant>,
}

/// Scans the library `file`, opened from `path`.
pub fn scan_file(path: &Path, file: &File, options: &ScanOptions) -> Result<FatbinReport, Error> {
    let file = MappedFile::map(path, file)?;
    let mut report = scan_bytes(file.bytes(), options)?;
    report.path = Some(path.display().to_string());
    Ok(report)
}

/// Scans an object file held in memory.
pub fn scan_bytes(file: &[u8], options: &ScanOptions) -> Result<FatbinReport, Error> {
    let section = elf::find_section(file, elf::FATBIN_SECTIONS)?.ok_or(Error::MissingSection {
        names: ".hip_fatbin (or PE .hip_fat)",
    })?;
    let mut report = scan_section(section.data, section.info.file_offset, options);
    if section.info.available < section.info.size {
        report.warnings.insert(
            0,
            Error::Truncated {
                what: "fat-binary section",
                offset: section.info.file_offset,
                needed: section.info.size,
                available: section.info.available,
            }
            .to_warning(),
        );
        report.stats.warnings += 1;
    }
    report.file_size = file.len() as u64;
    report.section = section.info;
    Ok(report)
}

/// Scans the bytes of a fat-binary section whose first byte is at file offset `base`.
/// Never fails: every problem is a warning in the report.
pub fn scan_section(data: &[u8], base: u64, options: &ScanOptions) -> FatbinReport {
    let mut warnings = Vec::new();
    let mut bundles = Vec::new();
    let mut walk = BundleWalk::new(data, base);
    while let Some(found) = walk.next(&mut warnings) {
        let index = bundles.len() as u64;
        let outcome = match found {
            Found::Plain(at) => (at, scan_plain(data, at, base, index, options)),
            Found::Compressed(at) => (at, scan_compressed(data, at, base, index, options)),
        };
        match outcome {
            (at, Ok(bundle)) => {
                walk.resume_at(at.saturating_add(to_usize(bundle.extent).unwrap_or(usize::MAX)));
                bundles.push(bundle);
            }
            (at, Err(error)) => {
                warnings.push(error.to_warning());
                walk.resume_after(at);
            }
        }
    }
    assemble(data.len() as u64, base, bundles, warnings)
}

fn assemble(
    size: u64,
    base: u64,
    bundles: Vec<BundleReport>,
    warnings: Vec<Warning>,
) -> FatbinReport {
    let mut stats = ScanStats {
        bundles: bundles.len() as u64,
        warnings: warnings.len() as u64,
        ..ScanStats::default()
    };
    for b in &bundles {
        stats.compressed_bundles += u64::from(b.compressed.is_some());
        stats.entries += b.summary.entries;
        stats.code_objects += b.summary.code_objects;
        stats.kernels += b.summary.kernels.count;
        stats.warnings += b.warnings.len() as u64;
    }
    FatbinReport {
        path: None,
        file_size: size,
        section: SectionInfo {
            name: String::new(),
            file_offset: base,
            size,
            available: size,
        },
        stats,
        targets: target_summaries(&bundles),
        bundles,
        warnings,
    }
}

/// The plain bundle at `data[at..]`. Fails only when its table cannot be read.
fn scan_plain(
    data: &[u8],
    at: usize,
    base: u64,
    index: u64,
    options: &ScanOptions,
) -> Result<BundleReport, Error> {
    let file_offset = base.saturating_add(at as u64);
    let rest = data.get(at..).unwrap_or(&[]);
    let parsed = bundle::parse_plain(rest, file_offset)?;
    let mut warnings = Vec::new();
    let entries = parsed
        .entries
        .into_iter()
        .map(|e| entry_report(e, Some(file_offset), options, &mut warnings))
        .collect();
    Ok(bundle_report(
        index,
        file_offset,
        parsed.extent,
        None,
        entries,
        warnings,
    ))
}

/// The compressed bundle at `data[at..]`. Fails when the header is not a compressed bundle
/// header (the magic was a chance match); a header that parses but whose data does not
/// decode gives a bundle with a warning and no entries.
fn scan_compressed(
    data: &[u8],
    at: usize,
    base: u64,
    index: u64,
    options: &ScanOptions,
) -> Result<BundleReport, Error> {
    let file_offset = base.saturating_add(at as u64);
    let rest = data.get(at..).unwrap_or(&[]);
    let header = ccob::parse_header(rest, file_offset)?;
    let fallback_extent = header.total_size.unwrap_or(header.header_size);
    let decoded = match ccob::decode(rest, file_offset, options.max_decompressed) {
        Ok(d) => d,
        Err(e) => {
            return Ok(bundle_report(
                index,
                file_offset,
                fallback_extent.max(1),
                Some(header),
                Vec::new(),
                vec![e.to_warning()],
            ));
        }
    };
    let mut warnings = Vec::new();
    let entries = match bundle::parse_plain(&decoded.bytes, 0) {
        Ok(parsed) => parsed
            .entries
            .into_iter()
            .map(|e| entry_report(e, None, options, &mut warnings))
            .collect(),
        Err(e) => {
            warnings.push(e.to_warning());
            Vec::new()
        }
    };
    for w in &mut warnings {
        w.message = format!(
            "in the bundle decompressed from {file_offset:#x}: {}",
            w.message
        );
        w.offset = Some(file_offset);
    }
    Ok(bundle_report(
        index,
        file_offset,
        decoded.extent.max(1),
        Some(decoded.header),
        entries,
        warnings,
    ))
}

fn bundle_report(
    index: u64,
    file_offset: u64,
    extent: u64,
    compressed: Option<ccob::Header>,
    entries: Vec<EntryReport>,
    warnings: Vec<Warning>,
) -> BundleReport {
    let mut summary = BundleSummary {
        entries: entries.len() as u64,
        ..BundleSummary::default()
    };
    for e in &entries {
        summary.targets.push(target_key(e));
        if let Some(co) = &e.code_object {
            summary.code_objects += 1;
            summary.kernels.merge(&co.stats);
        }
    }
    BundleReport {
        index,
        file_offset,
        extent,
        compressed,
        entries,
        summary,
        warnings,
    }
}

/// `bundle_base`: file offset of the bundle when its bytes are in the file (plain), for
/// locating code objects in messages.
fn entry_report(
    raw: RawEntry<'_>,
    bundle_base: Option<u64>,
    options: &ScanOptions,
    warnings: &mut Vec<Warning>,
) -> EntryReport {
    let id = bundle::parse_entry_id(&raw.id);
    let at = bundle_base.map_or(raw.offset, |b| b.saturating_add(raw.offset));
    let code_object = match raw.data {
        Err(e) => {
            warnings.push(e.to_warning());
            None
        }
        Ok(bytes) if amdgpu::is_code_object(bytes) => {
            match code_object_report(bytes, at, &id, options) {
                Ok(co) => {
                    if !co.matches_target {
                        warnings.push(mismatch_warning(&raw.id, &co, at));
                    }
                    Some(co)
                }
                Err(e) => {
                    warnings.push(e.to_warning());
                    None
                }
            }
        }
        Ok(bytes) => {
            if !bytes.is_empty() && id.kind != "host" {
                warnings.push(Warning::new(
                    "not-code-object",
                    Some(at),
                    format!("entry {} is not an AMDGPU ELF code object", raw.id),
                ));
            }
            None
        }
    };
    EntryReport {
        id: raw.id,
        kind: id.kind,
        triple: id.triple,
        target_id: id.target_id,
        offset: raw.offset,
        size: raw.size,
        code_object,
    }
}

fn mismatch_warning(id: &str, co: &CodeObjectReport, at: u64) -> Warning {
    Warning::new(
        "target-mismatch",
        Some(at),
        format!(
            "entry {id}: e_flags {:#x} say {} (xnack {:?}, sramecc {:?}), metadata target {}",
            co.elf.e_flags,
            co.elf
                .processor
                .as_deref()
                .unwrap_or("an unknown processor"),
            co.elf.xnack,
            co.elf.sramecc,
            co.metadata_target.as_deref().unwrap_or("absent"),
        ),
    )
}

fn code_object_report(
    bytes: &[u8],
    at: u64,
    id: &EntryId,
    options: &ScanOptions,
) -> Result<CodeObjectReport, Error> {
    let elf = amdgpu::header(bytes, at)?;
    let metadata = amdgpu::metadata(bytes, at)?;
    let has_metadata = metadata.is_some();
    let metadata = metadata.unwrap_or_default();
    let mut stats = KernelStats::default();
    let mut names = Vec::new();
    let mut kernels = Vec::new();
    for raw in metadata.kernels {
        let kernel = kernel_report(raw, options);
        stats.add(&kernel);
        let key = kernel.family.as_ref().map(|family| {
            (
                family.clone(),
                kernel.ggml_type.as_ref().map(|t| t.id),
                kernel.tile,
            )
        });
        names.push((kernel.name.clone(), key));
        if keep(options.kernels, &kernel) {
            kernels.push(kernel);
        }
    }
    let matches_target = matches_target(&elf, metadata.target.as_deref(), id);
    Ok(CodeObjectReport {
        elf,
        metadata_version: metadata.version,
        metadata_target: metadata.target,
        matches_target,
        has_metadata,
        stats,
        kernels,
        names,
    })
}

fn keep(detail: KernelDetail, kernel: &KernelReport) -> bool {
    match detail {
        KernelDetail::None => false,
        KernelDetail::Classified => kernel.family.is_some(),
        KernelDetail::All => true,
    }
}

/// Whether the code object's `e_flags` and metadata target agree with the entry's target id.
fn matches_target(elf: &amdgpu::Header, metadata_target: Option<&str>, id: &EntryId) -> bool {
    let Some(processor) = &id.processor else {
        return true;
    };
    if elf.processor.as_deref() != Some(processor.as_str()) {
        return false;
    }
    let feature_ok =
        |feature: &str, setting: Setting| match Setting::from_target(&id.features, feature) {
            Some(wanted) => wanted == setting,
            None => matches!(setting, Setting::Any | Setting::Unsupported),
        };
    if elf.code_object_version.unwrap_or(0) >= 4
        && !(feature_ok("xnack", elf.xnack) && feature_ok("sramecc", elf.sramecc))
    {
        return false;
    }
    match (metadata_target, &id.target_id) {
        (Some(m), Some(t)) => m.rsplit_once("--").is_none_or(|(_, mt)| mt == t),
        _ => true,
    }
}

fn kernel_report(raw: amdgpu::KernelMetadata, options: &ScanOptions) -> KernelReport {
    let wants_text = !options.rules.is_empty() || options.kernels != KernelDetail::None;
    let demangled = if wants_text {
        classify::demangle(&raw.name)
    } else {
        None
    };
    let class = classify::classify(&options.rules, demangled.as_deref().unwrap_or(&raw.name));
    let (family, ggml_type, tile) = match class {
        Some(c) => (Some(c.family), c.ggml_type, c.tile),
        None => (None, None, None),
    };
    KernelReport {
        name: raw.name,
        symbol: raw.symbol,
        demangled,
        family,
        ggml_type,
        tile,
        sgpr_count: raw.sgpr_count,
        vgpr_count: raw.vgpr_count,
        agpr_count: raw.agpr_count,
        wavefront_size: raw.wavefront_size,
        group_segment_size: raw.group_segment_fixed_size,
        private_segment_size: raw.private_segment_fixed_size,
        kernarg_size: raw.kernarg_segment_size,
        max_flat_workgroup_size: raw.max_flat_workgroup_size,
        sgpr_spill_count: raw.sgpr_spill_count,
        vgpr_spill_count: raw.vgpr_spill_count,
    }
}

/// The key an entry is summarised under: its target id, `host`, or `<kind>-<triple>`.
fn target_key(e: &EntryReport) -> String {
    match (&e.target_id, e.kind.as_str()) {
        (Some(t), _) => t.clone(),
        (None, "host") => "host".to_string(),
        (None, kind) => format!("{kind}-{}", e.triple),
    }
}

#[derive(Default)]
struct TargetAcc<'a> {
    summary: TargetSummary,
    versions: BTreeSet<u32>,
    processors: BTreeSet<String>,
    names: BTreeSet<&'a str>,
    family_names: BTreeMap<&'a str, BTreeSet<&'a str>>,
    variants: BTreeMap<&'a VariantKey, (u64, BTreeSet<&'a str>)>,
}

impl<'a> TargetAcc<'a> {
    fn add_names(&mut self, names: &'a [(String, Option<VariantKey>)]) {
        for (name, key) in names {
            self.names.insert(name);
            let Some(key) = key else { continue };
            self.family_names.entry(&key.0).or_default().insert(name);
            let v = self.variants.entry(key).or_default();
            v.0 += 1;
            v.1.insert(name);
        }
    }
}

fn target_summaries(bundles: &[BundleReport]) -> Vec<TargetSummary> {
    let mut by_target: BTreeMap<String, TargetAcc> = BTreeMap::new();
    for entry in bundles.iter().flat_map(|b| &b.entries) {
        let acc = by_target.entry(target_key(entry)).or_default();
        acc.summary.entries += 1;
        let Some(co) = &entry.code_object else {
            continue;
        };
        acc.summary.code_objects += 1;
        acc.summary.kernels.merge(&co.stats);
        acc.versions.extend(co.elf.code_object_version);
        acc.processors.extend(co.elf.processor.clone());
        acc.add_names(&co.names);
    }
    by_target
        .into_iter()
        .map(|(target, acc)| finish_target(target, acc))
        .collect()
}

fn finish_target(target: String, acc: TargetAcc<'_>) -> TargetSummary {
    let variants = acc
        .variants
        .into_iter()
        .filter(|((_, ty, tile), _)| ty.is_some() || tile.is_some())
        .map(|((family, ty, tile), (kernels, names))| Variant {
            family: family.clone(),
            ggml_type: ty.map(TypeRef::new),
            tile: *tile,
            kernels,
            distinct: names.len() as u64,
        })
        .collect();
    TargetSummary {
        target,
        code_object_versions: acc.versions.into_iter().collect(),
        processors: acc.processors.into_iter().collect(),
        distinct_kernels: acc.names.len() as u64,
        distinct_families: acc
            .family_names
            .into_iter()
            .map(|(f, names)| (f.to_string(), names.len() as u64))
            .collect(),
        variants,
        ..acc.summary
    }
}

impl FatbinReport {
    /// The summary of `target` (`gfx90a`, `host`).
    pub fn target(&self, target: &str) -> Option<&TargetSummary> {
        self.targets.iter().find(|t| t.target == target)
    }
}
