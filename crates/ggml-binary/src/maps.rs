//! `binary::maps`: the files a process has mapped, from its `/proc/<pid>/maps`.
//!
//! Each line is `start-end perms offset dev inode [path]`; the path may hold spaces and
//! end in ` (deleted)`. Mappings of one file are merged into address ranges (adjacent or
//! overlapping ranges join), and each file is flagged as a shared library (`*.so`,
//! `*.so.N…`) or a model file (`*.gguf`, or an Ollama blob `…/blobs/sha256-…`). Anonymous
//! and pseudo mappings (`[heap]`, `[stack]`, `[vdso]`) are only counted. Files are listed
//! in address order of their first mapping.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::error::Warning;

/// What a mapped file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileKind {
    /// A shared library (`.so`).
    SharedLibrary,
    /// A model file (`.gguf` or an Ollama blob).
    Model,
    /// Any other file (the executable, locale archives, …).
    Other,
}

/// A range of addresses, `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddressRange {
    /// First address.
    #[serde(with = "hex")]
    pub start: u64,
    /// One past the last address.
    #[serde(with = "hex")]
    pub end: u64,
}

/// One file mapped into the process (all its ranges).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mapping {
    /// The path as the kernel prints it (without ` (deleted)`).
    pub path: String,
    /// What it is.
    pub kind: FileKind,
    /// The file was deleted after it was mapped.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
    /// Inode.
    pub inode: u64,
    /// Distinct permission strings of its mappings (`r--p`, `r-xp`), sorted.
    pub perms: Vec<String>,
    /// Mappings (lines) of it.
    pub mappings: u64,
    /// Bytes mapped, over the merged ranges.
    pub bytes: u64,
    /// Merged address ranges, ascending.
    pub ranges: Vec<AddressRange>,
}

/// What `/proc/<pid>/maps` shows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapsReport {
    /// The process, when read from `/proc`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    /// Lines parsed.
    pub mappings: u64,
    /// Anonymous and pseudo (`[heap]`, …) mappings.
    pub anonymous_mappings: u64,
    /// Mapped files in address order.
    pub files: Vec<Mapping>,
    /// Paths of the shared libraries, in address order.
    pub shared_libraries: Vec<String>,
    /// Paths of the model files, in address order.
    pub models: Vec<String>,
    /// Lines that could not be parsed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
}

/// One parsed line.
struct Line<'a> {
    range: AddressRange,
    perms: &'a str,
    inode: u64,
    path: &'a str,
}

/// Parses the text of a maps file. Never fails: a line that does not parse is a warning
/// (its `offset` is the 1-based line number).
pub fn parse(text: &str) -> MapsReport {
    let mut report = MapsReport::default();
    let mut files: BTreeMap<(String, u64), FileAcc> = BTreeMap::new();
    for (index, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let Some(line) = parse_line(raw) else {
            report.warnings.push(Warning::new(
                "maps-line",
                Some(index as u64 + 1),
                format!("line {}: not a maps line: {:?}", index + 1, truncate(raw)),
            ));
            continue;
        };
        report.mappings += 1;
        if line.path.is_empty() || line.path.starts_with('[') {
            report.anonymous_mappings += 1;
            continue;
        }
        let (path, deleted) = match line.path.strip_suffix(" (deleted)") {
            Some(p) => (p, true),
            None => (line.path, false),
        };
        let acc = files.entry((path.to_string(), line.inode)).or_default();
        acc.deleted |= deleted;
        acc.perms.insert(line.perms.to_string());
        acc.ranges.push(line.range);
    }
    report.files = finish(files);
    for f in &report.files {
        match f.kind {
            FileKind::SharedLibrary => report.shared_libraries.push(f.path.clone()),
            FileKind::Model => report.models.push(f.path.clone()),
            FileKind::Other => {}
        }
    }
    report
}

fn truncate(line: &str) -> String {
    line.chars().take(120).collect()
}

/// Splits off the next whitespace-separated field.
fn field(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start();
    if s.is_empty() {
        return None;
    }
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    Some((s.get(..end)?, s.get(end..)?))
}

fn parse_line(raw: &str) -> Option<Line<'_>> {
    let (range, rest) = field(raw)?;
    let (perms, rest) = field(rest)?;
    let (offset, rest) = field(rest)?;
    let (dev, rest) = field(rest)?;
    let (inode, rest) = field(rest)?;
    let (start, end) = range.split_once('-')?;
    let range = AddressRange {
        start: u64::from_str_radix(start, 16).ok()?,
        end: u64::from_str_radix(end, 16).ok()?,
    };
    let valid = range.start <= range.end
        && perms.len() == 4
        && u64::from_str_radix(offset, 16).is_ok()
        && dev.contains(':');
    if !valid {
        return None;
    }
    Some(Line {
        range,
        perms,
        inode: inode.parse().ok()?,
        path: rest.trim(),
    })
}

#[derive(Default)]
struct FileAcc {
    deleted: bool,
    perms: BTreeSet<String>,
    ranges: Vec<AddressRange>,
}

fn finish(files: BTreeMap<(String, u64), FileAcc>) -> Vec<Mapping> {
    let mut out: Vec<Mapping> = files
        .into_iter()
        .map(|((path, inode), acc)| {
            let mappings = acc.ranges.len() as u64;
            let ranges = merge(acc.ranges);
            Mapping {
                kind: kind_of(&path),
                bytes: ranges.iter().map(|r| r.end - r.start).sum(),
                path,
                deleted: acc.deleted,
                inode,
                perms: acc.perms.into_iter().collect(),
                mappings,
                ranges,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        let first = |f: &Mapping| f.ranges.first().map_or(0, |r| r.start);
        first(a).cmp(&first(b)).then_with(|| a.path.cmp(&b.path))
    });
    out
}

/// Sorts and joins ranges that touch or overlap.
fn merge(mut ranges: Vec<AddressRange>) -> Vec<AddressRange> {
    ranges.sort_by_key(|r| (r.start, r.end));
    let mut out: Vec<AddressRange> = Vec::new();
    for r in ranges {
        match out.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// Shared library, model or other, from the path alone.
pub fn kind_of(path: &str) -> FileKind {
    let name = path.rsplit('/').next().unwrap_or(path);
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".gguf")
        || path.contains("/blobs/sha256-")
        || path.contains("/blobs/sha256:")
    {
        return FileKind::Model;
    }
    if lower.ends_with(".so") || is_versioned_so(&lower) {
        return FileKind::SharedLibrary;
    }
    FileKind::Other
}

/// `libfoo.so.1`, `libfoo.so.1.2.3`.
fn is_versioned_so(name: &str) -> bool {
    name.split_once(".so.").is_some_and(|(stem, version)| {
        !stem.is_empty()
            && !version.is_empty()
            && version
                .split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    })
}

mod hex {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{value:#x}"))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let text = String::deserialize(d)?;
        let digits = text.strip_prefix("0x").unwrap_or(&text);
        u64::from_str_radix(digits, 16).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_from_paths() {
        assert_eq!(kind_of("/usr/lib/libc.so.6"), FileKind::SharedLibrary);
        assert_eq!(
            kind_of("/opt/rocm/lib/libamdhip64.so.6.4.60400"),
            FileKind::SharedLibrary
        );
        assert_eq!(kind_of("/x/libggml-hip.so"), FileKind::SharedLibrary);
        assert_eq!(kind_of("/m/SmolLM2.Q4_1.gguf"), FileKind::Model);
        assert_eq!(
            kind_of(
                "/root/.ollama/models/blobs/sha256-6e4c38e1172f42fdbff13edf9a7a017679fb82b0fde415a3e8b3c31c6ed4a4e4"
            ),
            FileKind::Model
        );
        assert_eq!(kind_of("/usr/bin/ollama"), FileKind::Other);
        assert_eq!(kind_of("/x/notes.so.txt"), FileKind::Other);
    }

    #[test]
    fn merges_touching_ranges() {
        let r = |start, end| AddressRange { start, end };
        assert_eq!(
            merge(vec![r(30, 40), r(0, 10), r(10, 20), r(35, 50)]),
            vec![r(0, 20), r(30, 50)]
        );
    }
}
