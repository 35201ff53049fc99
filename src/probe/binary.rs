//! `evidence probe fatbin|gguf|maps`: a binary report of one file (or one process's maps)
//! recorded as a new run, through the same atomic writer as the engine probes.

use super::Written;
use super::record::{Clock, Site};
use super::{ProbeError, new_id};
use crate::binary::{fatbin, gguf, maps};
use crate::model::types::{
    Engine, FatbinBundle, FatbinEntry, FatbinRecord, GgufRecord, GgufTypeCount, InputFile,
    MapsRecord, Run, Text,
};
use std::collections::BTreeMap;
use std::path::Path;

/// Example tensors kept per ggml type.
const EXAMPLES: usize = 3;

/// `evidence probe fatbin FILE`.
pub fn probe_fatbin(file: &Path, root: &Path) -> Result<Written, ProbeError> {
    let site = Site::open(root)?;
    let at = Clock::now();
    let options = fatbin::ScanOptions {
        rules: crate::binary::classify::ggml_cuda_rules(),
        kernels: fatbin::KernelDetail::None,
        ..fatbin::ScanOptions::default()
    };
    let report = fatbin::scan(file, &options)
        .map_err(|e| read_error(file, "an ELF library with a .hip_fatbin section", &e))?;
    let record = FatbinRecord {
        stats: report.stats,
        // Per-variant lists run to thousands of lines: the record keeps the counts.
        targets: report
            .targets
            .into_iter()
            .map(|t| fatbin::TargetSummary {
                variants: Vec::new(),
                ..t
            })
            .collect(),
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
                summary: b.summary,
            })
            .collect(),
        warnings: report.warnings,
    };
    let mut run = base_run("fatbin", file, report.file_size, &at);
    run.fatbin = Some(record);
    site.write_run(run, "fatbin", &at)
}

/// `evidence probe gguf FILE`.
pub fn probe_gguf(file: &Path, root: &Path) -> Result<Written, ProbeError> {
    let site = Site::open(root)?;
    let at = Clock::now();
    let report = gguf::read(file).map_err(|e| read_error(file, "a GGUF model file", &e))?;
    let record = GgufRecord {
        version: report.version,
        tensor_count: report.tensor_count,
        kv_count: report.kv_count,
        alignment: report.alignment,
        architecture: report.architecture,
        name: report.name,
        file_type: report.file_type,
        tensor_bytes: report.tensor_bytes,
        census: report
            .census
            .into_iter()
            .map(|c| GgufTypeCount {
                ggml_type: c.ggml_type,
                count: c.count,
                elements: c.elements,
                bytes: c.bytes,
                examples: c.tensors.into_iter().take(EXAMPLES).collect(),
            })
            .collect(),
        warnings: report.warnings,
    };
    let mut run = base_run("gguf", file, report.file_size, &at);
    run.gguf = Some(record);
    site.write_run(run, "gguf", &at)
}

/// `evidence probe maps PID` or `evidence probe maps --file F`.
pub fn probe_maps(
    pid: Option<u32>,
    file: Option<&Path>,
    root: &Path,
) -> Result<Written, ProbeError> {
    let site = Site::open(root)?;
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
            let text = crate::load::read::read_text(f, maps::MAPS_FILE)
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
        Some((f, size)) => base_run("maps", f, size, &at),
        None => {
            let mut r = base_run("maps", Path::new(""), 0, &at);
            r.input = None;
            r
        }
    };
    run.maps = Some(MapsRecord {
        pid: report.pid.or(pid),
        mappings: report.mappings,
        shared_libraries: report.shared_libraries,
        models: report.models,
    });
    site.write_run(run, "maps", &at)
}

fn read_error(file: &Path, what: &str, e: &crate::binary::Error) -> ProbeError {
    ProbeError::other(
        format!("cannot read {}: {e}", file.display()),
        format!("the file must be {what}"),
    )
}

fn base_run(probe: &str, file: &Path, size: u64, at: &Clock) -> Run {
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
    Run {
        id: new_id(""),
        probe: probe.to_string(),
        date: Some(new_id(&at.rfc3339())),
        engine: Engine::None,
        endpoint: None,
        model: None,
        versions,
        environment: BTreeMap::new(),
        origin: Text {
            ja: format!("`{command}` で `{name}` を読んで記録した実行。"),
            en: format!("Recorded by `{command}` reading `{name}`."),
        },
        phase: None,
        assessed_against: None,
        model_details: None,
        loaded: None,
        request: None,
        sweep: None,
        cases: Vec::new(),
        input: (!name.is_empty()).then_some(InputFile { name, size }),
        fatbin: None,
        gguf: None,
        maps: None,
    }
}
