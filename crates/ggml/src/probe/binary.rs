//! `evidence probe fatbin|gguf|maps`: a binary report of one file (or one process's maps)
//! recorded as a new run, through the same atomic writer as the engine probes.

use crate::binary::{Warning, fatbin, ggml, gguf, maps};
use crate::runs::EngineRun;
use crate::scans::{
    FatbinBundle, FatbinBundleSummary, FatbinEntry, FatbinKernelStats, FatbinRecord, FatbinStats,
    FatbinTarget, GgmlTypeRef, GgufFileType, GgufRecord, GgufTypeCount, InputFile, MapsRecord,
    ProbeWarning,
};
use evidence_core::model::fields::Values;
use evidence_core::model::types::{Range, Run};
use evidence_probe::Written;
use evidence_probe::record::{Clock, RunStore};
use evidence_probe::{ProbeError, new_id};
use std::collections::BTreeMap;
use std::path::Path;

/// Example tensors kept per ggml type.
const EXAMPLES: usize = 3;

/// What the investigator says of a probe's input: where it came from, and a note.
#[derive(clap::Args, Debug, Default)]
pub struct AboutInput {
    /// The package (and version) the file came from, e.g. `cyllama-rocm==0.2.18`.
    #[arg(long, value_name = "PACKAGE")]
    pub from: Option<String>,
    /// A note recorded with the run and shown with it.
    #[arg(long)]
    pub note: Option<String>,
}

/// `evidence probe fatbin FILE`.
pub fn probe_fatbin(file: &Path, about: &AboutInput, root: &Path) -> Result<Written, ProbeError> {
    let site = RunStore::open(root)?;
    let at = Clock::now();
    let options = fatbin::ScanOptions {
        rules: crate::binary::classify::ggml_cuda_rules(),
        kernels: fatbin::KernelDetail::None,
        ..fatbin::ScanOptions::default()
    };
    let report = fatbin::scan(file, &options)
        .map_err(|e| read_error(file, "an ELF library with a .hip_fatbin section", &e))?;
    let record = FatbinRecord {
        stats: fatbin_stats(report.stats),
        targets: report.targets.into_iter().map(fatbin_target).collect(),
        bundles: report
            .bundles
            .into_iter()
            .map(|b| FatbinBundle {
                index: b.index,
                file_offset: b.file_offset,
                extent: b.extent,
                compressed: b.compressed.is_some(),
                entries: b
                    .entries
                    .iter()
                    .map(|e| FatbinEntry {
                        id: e.id.clone(),
                        size: e.size,
                    })
                    .collect(),
                summary: bundle_summary(b.summary),
            })
            .collect(),
        warnings: warnings(report.warnings),
    };
    let mut run = base_run(&site, about, "fatbin", file, report.file_size, &at)?;
    run.set_fatbin(Some(record));
    site.write_run(run, "fatbin", &at)
}

/// `evidence probe gguf FILE`.
pub fn probe_gguf(file: &Path, about: &AboutInput, root: &Path) -> Result<Written, ProbeError> {
    let site = RunStore::open(root)?;
    let at = Clock::now();
    let report = gguf::read(file).map_err(|e| read_error(file, "a GGUF model file", &e))?;
    let record = GgufRecord {
        version: report.version,
        tensor_count: report.tensor_count,
        kv_count: report.kv_count,
        alignment: report.alignment,
        architecture: report.architecture,
        name: report.name,
        file_type: report.file_type.map(|f| GgufFileType {
            id: f.id,
            name: f.name,
        }),
        tensor_bytes: report.tensor_bytes,
        census: report
            .census
            .into_iter()
            .map(|c| GgufTypeCount {
                ggml_type: type_ref(c.ggml_type),
                count: c.count,
                elements: c.elements,
                bytes: c.bytes,
                examples: c.tensors.into_iter().take(EXAMPLES).collect(),
            })
            .collect(),
        warnings: warnings(report.warnings),
    };
    let mut run = base_run(&site, about, "gguf", file, report.file_size, &at)?;
    run.set_gguf(Some(record));
    site.write_run(run, "gguf", &at)
}

/// `evidence probe maps PID` or `evidence probe maps --file F`.
pub fn probe_maps(
    pid: Option<u32>,
    file: Option<&Path>,
    about: &AboutInput,
    root: &Path,
) -> Result<Written, ProbeError> {
    let site = RunStore::open(root)?;
    let at = Clock::now();
    let (report, input) = match (pid, file) {
        (Some(pid), None) => {
            let r = maps::read_pid(pid).map_err(|e| {
                ProbeError::other(
                    format!("cannot read /proc/{pid}/maps: {e}"),
                    "is the process running, and may this user read its maps?",
                )
            })?;
            (r, None)
        }
        (None, Some(f)) => {
            let text = evidence_core::load::read::read_text(f, maps::MAPS_FILE)
                .map_err(|e| ProbeError::other(format!("cannot read {}", e.at(f)), ""))?;
            let r = maps::parse(&text);
            if r.mappings == 0 {
                return Err(ProbeError::other(
                    format!("{} holds no /proc/PID/maps lines", f.display()),
                    "pass a copy of a process's /proc/PID/maps",
                ));
            }
            (r, Some((f, text.len() as u64)))
        }
        _ => {
            return Err(ProbeError::other(
                "give either a PID or --file F",
                "e.g. `evidence probe maps $(pidof llama-server)`",
            ));
        }
    };
    let mut run = match input {
        Some((f, size)) => base_run(&site, about, "maps", f, size, &at)?,
        None => {
            let mut r = base_run(&site, about, "maps", Path::new(""), 0, &at)?;
            r.input = None;
            r
        }
    };
    // File names only: where a library or a model sits on this machine (a home folder,
    // a model store) has no place in a run that is published.
    let names = |paths: Vec<String>| -> Vec<String> {
        paths
            .into_iter()
            .map(|p| p.rsplit('/').next().unwrap_or(&p).to_string())
            .collect()
    };
    run.set_maps(Some(MapsRecord {
        pid: report.pid.or(pid),
        mappings: report.mappings,
        shared_libraries: names(report.shared_libraries),
        models: names(report.models),
    }));
    site.write_run(run, "maps", &at)
}

/// SHA-256 of the file at `path` in lower-case hex, read in blocks (a library is hundreds
/// of megabytes); `None` if it cannot be read again.
pub(crate) fn sha256_of(path: &Path) -> Option<String> {
    use sha2::{Digest, Sha256};
    use std::io::Read;
    let mut f = std::fs::File::open(path).ok()?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).ok()?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Some(
        hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    )
}

fn read_error(file: &Path, what: &str, e: &crate::binary::Error) -> ProbeError {
    ProbeError::other(
        format!("cannot read {}: {e}", file.display()),
        format!("the file must be {what}"),
    )
}

fn base_run(
    site: &RunStore,
    about: &AboutInput,
    probe: &str,
    file: &Path,
    size: u64,
    at: &Clock,
) -> Result<Run, ProbeError> {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut versions = BTreeMap::new();
    versions.insert(
        "evidence".to_string(),
        env!("CARGO_PKG_VERSION").to_string(),
    );
    let command = format!("evidence probe {probe}");
    Ok(Run {
        id: new_id(""),
        probe: probe.to_string(),
        date: Some(new_id(&at.rfc3339())),
        // A file read belongs to no subject until the site says so (`data/subjects.yaml`).
        subject: None,
        engine: None,
        versions,
        // Where the file was read: the machine, not the file's origin.
        conditions: Default::default(),
        environment: evidence_probe::record::this_machine(),
        origin: site.text(
            "probe-origin-file",
            &[("command", command), ("file", name.clone())],
        )?,
        note: site.note(about.note.as_deref()),
        phase: None,
        assessed_against: None,
        cases: Vec::new(),
        input: (!name.is_empty()).then(|| InputFile {
            name,
            size,
            sha256: sha256_of(file),
            package: about.from.clone().filter(|f| !f.trim().is_empty()),
        }),
        values: Values::default(),
    })
}

// The readers' reports converted into the run schema of `model::scans`, field by field, so
// that a change to a report does not silently change what a run file holds.

/// A fatbin reader's counts, as a run keeps them.
fn fatbin_stats(s: fatbin::ScanStats) -> FatbinStats {
    FatbinStats {
        bundles: s.bundles,
        compressed_bundles: s.compressed_bundles,
        entries: s.entries,
        code_objects: s.code_objects,
        kernels: s.kernels,
        warnings: s.warnings,
    }
}

/// One target of a fatbin. Per-variant lists run to thousands of lines: the record keeps
/// the counts.
fn fatbin_target(t: fatbin::TargetSummary) -> FatbinTarget {
    FatbinTarget {
        target: t.target,
        entries: t.entries,
        code_objects: t.code_objects,
        code_object_versions: t.code_object_versions,
        processors: t.processors,
        kernels: kernel_stats(t.kernels),
        distinct_kernels: t.distinct_kernels,
        distinct_families: t.distinct_families,
    }
}

/// One offload bundle's totals.
fn bundle_summary(b: fatbin::BundleSummary) -> FatbinBundleSummary {
    FatbinBundleSummary {
        entries: b.entries,
        code_objects: b.code_objects,
        targets: b.targets,
        kernels: kernel_stats(b.kernels),
    }
}

/// The kernels' counts and register ranges.
fn kernel_stats(k: fatbin::KernelStats) -> FatbinKernelStats {
    let range = |r: Option<fatbin::MinMax>| {
        r.map(|r| Range {
            min: r.min,
            max: r.max,
        })
    };
    FatbinKernelStats {
        count: k.count,
        families: k.families,
        unclassified: k.unclassified,
        sgpr: range(k.sgpr),
        vgpr: range(k.vgpr),
        agpr: range(k.agpr),
        group_segment: range(k.group_segment),
        private_segment: range(k.private_segment),
        sgpr_spilling: k.sgpr_spilling,
        vgpr_spilling: k.vgpr_spilling,
    }
}

/// A ggml tensor type by number and name.
fn type_ref(t: ggml::TypeRef) -> GgmlTypeRef {
    GgmlTypeRef {
        id: t.id,
        name: t.name,
    }
}

fn warnings(list: Vec<Warning>) -> Vec<ProbeWarning> {
    list.into_iter()
        .map(|w| ProbeWarning {
            code: w.code,
            offset: w.offset,
            message: w.message,
        })
        .collect()
}
