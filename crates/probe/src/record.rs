//! Run records on disk: run ids and UTC times, the YAML text of a run, and the atomic,
//! never-overwriting write into `data/runs/`.
//!
//! A run is serialized with serde-saphyr, read back with the loader's own YAML reader and
//! serialized again; the two texts must agree before anything touches the disk. The text
//! goes to a hidden temporary file in `data/runs/` (same folder, same file system), is
//! synced, and is then hard-linked to `<id>.yaml`: linking fails when the name exists, so
//! an existing run is never replaced, and readers never see a partial file. The temporary
//! name is removed in every case.

use super::{ProbeError, Written, new_id};
use evidence_core::diagnostics::{Diagnostics, rel_path};
use evidence_core::model::types::Run;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------- time

/// A UTC instant with second precision (what run ids and dates record).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Clock {
    /// Seconds since 1970-01-01T00:00:00Z.
    pub secs: i64,
}

impl Clock {
    pub fn now() -> Clock {
        Clock {
            secs: jiff::Timestamp::now().as_second(),
        }
    }

    fn timestamp(&self) -> jiff::Timestamp {
        jiff::Timestamp::from_second(self.secs).unwrap_or(jiff::Timestamp::UNIX_EPOCH)
    }

    /// `2026-11-22T01:02:03Z`
    pub fn rfc3339(&self) -> String {
        self.timestamp().strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
    }

    /// `20261122T010203Z`, for run ids.
    pub fn compact(&self) -> String {
        self.timestamp().strftime("%Y%m%dT%H%M%SZ").to_string()
    }

    /// Parses an RFC 3339 time (`2023-08-04T19:22:45.499127Z`, `…-07:00`), as engines
    /// write `created_at`, with jiff. Fractions of a second are dropped.
    pub fn parse_rfc3339(s: &str) -> Option<Clock> {
        // RFC 3339's shape only: a calendar date first (no sign, no other ISO 8601 form).
        if !evidence_core::model::refs::valid_date(s.get(..10)?) {
            return None;
        }
        let t: jiff::Timestamp = s.parse().ok()?;
        Some(Clock {
            secs: t.as_second(),
        })
    }
}

// ---------------------------------------------------------------- YAML text

const HEADER: &str =
    "# A probe run recorded by evidence. Runs are never rewritten: a new run is a new file.\n";

/// The YAML text of a run, checked to read back to the same run.
///
/// Lists are indented under their key, as in the hand-written data files. Multi-line
/// texts (a prompt with line breaks) are written as block scalars; should that ever fail
/// to read back exactly, the run is written again with every string on one quoted line.
pub fn to_yaml(run: &Run, file: &str) -> Result<String, ProbeError> {
    let mut options = serde_saphyr::SerializerOptions::default();
    options.compact_list_indent = false;
    match checked_yaml(run, file, options.clone()) {
        Ok(t) => Ok(t),
        Err(_) => {
            options.prefer_block_scalars = false;
            checked_yaml(run, file, options)
        }
    }
}

fn checked_yaml(
    run: &Run,
    file: &str,
    options: serde_saphyr::SerializerOptions,
) -> Result<String, ProbeError> {
    let ser = |r: &Run| {
        serde_saphyr::to_string_with_options(r, options.clone()).map_err(|e| {
            ProbeError::other(format!("cannot serialize run `{}`: {e}", run.id.value), "")
        })
    };
    let body = ser(run)?;
    let text = format!("{HEADER}{body}");
    let back = evidence_core::load::yaml::parse_run(file, &text).map_err(|d| {
        ProbeError::other(
            format!(
                "run `{}` does not read back ({}:{}: {})",
                run.id.value, d.span.file, d.span.line, d.message
            ),
            "this is a bug in evidence; please report it with the probe output",
        )
    })?;
    if ser(&back)? != body {
        return Err(ProbeError::other(
            format!("run `{}` changes when read back", run.id.value),
            "this is a bug in evidence; please report it with the probe output",
        ));
    }
    Ok(text)
}

// ---------------------------------------------------------------- the site

/// The runs folder of a site, which a new run is recorded into.
pub struct RunStore {
    pub root: PathBuf,
    pub runs_dir: PathBuf,
    /// Ids of the runs already recorded.
    existing: BTreeSet<String>,
    /// The site's messages, in its languages: a run's origin is written in each.
    messages: evidence_core::load::messages::Messages,
}

/// Attempts at a free run id (`<id>`, `<id>-2`, …) before giving up.
const MAX_ID_ATTEMPTS: u32 = 100;

impl RunStore {
    /// Opens the site at `root`: it must hold `evidence.yaml`. Reads the ids of the
    /// recorded runs (a run file that does not parse still reserves its file name).
    pub fn open(root: &Path) -> Result<RunStore, ProbeError> {
        if !root.join("evidence.yaml").is_file() {
            return Err(ProbeError::other(
                format!("{} holds no evidence.yaml", root.display()),
                "run evidence in the site folder, or pass --root DIR",
            ));
        }
        let runs_dir = root.join("data").join("runs");
        let existing = recorded_ids(root)?;
        let config = evidence_core::load::config(root).map_err(|d| {
            ProbeError::other(
                format!(
                    "{}:{}:{}: {}",
                    d.span.file, d.span.line, d.span.column, d.message
                ),
                "fix evidence.yaml; `evidence check` says more",
            )
        })?;
        // The theme's problems are `check`'s to report; the probe needs only its words.
        let theme = evidence_core::load::Theme::load(root, &config, &mut Default::default());
        let messages = evidence_core::load::messages::Messages::load(&theme, config.languages());
        Ok(RunStore {
            root: root.to_path_buf(),
            runs_dir,
            existing,
            messages,
        })
    }

    /// A run's note (`--note`) as the investigator wrote it: once, in no language of the
    /// site's (it is not translated); none for a blank one.
    pub fn note(&self, note: Option<&str>) -> Option<evidence_core::model::Text> {
        let n = note.filter(|n| !n.trim().is_empty())?;
        Some(evidence_core::model::Text::untranslated(n))
    }

    /// The site's message `key` with string `args`, in each of its languages (a run's
    /// origin).
    /// A language that lacks the message stops the probe: a run file is never rewritten,
    /// so it must not be written with a message id in place of its words.
    pub fn text(
        &self,
        key: &str,
        args: &[(&'static str, String)],
    ) -> Result<evidence_core::model::Text, ProbeError> {
        if let Some(lang) = self
            .messages
            .langs()
            .into_iter()
            .find(|&l| !self.messages.has(l, key))
        {
            return Err(ProbeError::other(
                format!("the site has no message `{key}` in `{lang}`"),
                format!("add `{key} = …` to locales/{lang}/*.ftl (see the other languages')"),
            ));
        }
        Ok(self.messages.text_args(key, args))
    }

    /// Gives `run` a fresh id `<probe>-<host>-<UTC time>` (with `-2`, `-3`… if taken), so
    /// that runs recorded on several machines at once never collide; writes it
    /// atomically, and checks the site with it.
    pub fn write_run(&self, mut run: Run, probe: &str, at: &Clock) -> Result<Written, ProbeError> {
        let host = host_tag();
        std::fs::create_dir_all(&self.runs_dir).map_err(|e| {
            ProbeError::other(
                format!("cannot create {}: {e}", self.runs_dir.display()),
                "",
            )
        })?;
        let base = format!("{probe}-{host}-{}", at.compact());
        for attempt in 1..=MAX_ID_ATTEMPTS {
            let id = if attempt == 1 {
                base.clone()
            } else {
                format!("{base}-{attempt}")
            };
            if self.existing.contains(&id) {
                continue;
            }
            run.id = new_id(&id);
            let file = format!("data/runs/{id}.yaml");
            let text = to_yaml(&run, &file)?;
            let path = self.runs_dir.join(format!("{id}.yaml"));
            match write_new(&self.runs_dir, &path, text.as_bytes()) {
                Ok(()) => {
                    // What the site says with the new run in it: the checked evidence,
                    // no render (the run changes data, which check judges).
                    let diagnostics = match evidence_core::pipeline::checked(&self.root) {
                        Ok(checked) => checked.diagnostics,
                        Err(diagnostics) => diagnostics,
                    };
                    let (warnings, diagnostics) = subject_warnings(diagnostics, &file);
                    return Ok(Written {
                        id,
                        path,
                        diagnostics,
                        warnings,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(ProbeError::other(
                        format!("cannot write {}: {e}", path.display()),
                        "nothing was recorded; check the folder's permissions and free space",
                    ));
                }
            }
        }
        Err(ProbeError::other(
            format!("no free run id after {MAX_ID_ATTEMPTS} attempts from `{base}`"),
            "",
        ))
    }
}

/// The site's findings with a new run in it, split in two: what `check` says of the
/// subject of the run just written to `file` (values its subject does not declare: an
/// error until the run's subject is said), as warnings for the probe to show, and the
/// rest as they are. The run is recorded either way; the warning says how to say whose
/// run it is.
fn subject_warnings(all: Diagnostics, file: &str) -> (Diagnostics, Diagnostics) {
    let (mut warnings, mut rest) = (Diagnostics::default(), Diagnostics::default());
    for d in all {
        if d.code == evidence_core::check::subjects::CODE && d.span.file == file {
            warnings.push(evidence_core::diagnostics::Diagnostic {
                severity: evidence_core::diagnostics::Severity::Warning,
                ..d
            });
        } else {
            rest.push(d);
        }
    }
    (warnings, rest)
}

/// What a probe can tell of the machine it runs on, for a run's environment: `host` (as
/// in run ids), `os` (`PRETTY_NAME` of /etc/os-release) and `cpu` (the first model name
/// of /proc/cpuinfo), each only where it is known. No path and no user name.
pub fn this_machine() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    out.insert("host".to_string(), host_tag());
    let read = |p: &str| std::fs::read_to_string(p).ok();
    if let Some(os) = read("/etc/os-release").and_then(|t| {
        t.lines()
            .find_map(|l| l.strip_prefix("PRETTY_NAME="))
            .map(|v| v.trim().trim_matches('"').to_string())
    }) && !os.is_empty()
    {
        out.insert("os".to_string(), os);
    }
    if let Some(cpu) = read("/proc/cpuinfo").and_then(|t| {
        t.lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.split_whitespace().collect::<Vec<_>>().join(" "))
    }) && !cpu.is_empty()
    {
        out.insert("cpu".to_string(), cpu);
    }
    out
}

/// This machine's name as a part of a run id: `EVIDENCE_HOST` if set (a runner whose host
/// name says nothing), else the host name; lower case, letters, digits and `-` only, at
/// most 32 characters, `host` when nothing is left.
pub fn host_tag() -> String {
    let raw = std::env::var("EVIDENCE_HOST")
        .ok()
        .filter(|h| !h.trim().is_empty())
        .unwrap_or_else(|| gethostname::gethostname().to_string_lossy().into_owned());
    id_part(&raw)
}

/// `raw` made fit for a run id: see [`host_tag`].
fn id_part(raw: &str) -> String {
    let mut out = String::new();
    for c in raw.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 32 {
            break;
        }
    }
    let out = out.trim_end_matches('-');
    if out.is_empty() {
        "host".to_string()
    } else {
        out.to_string()
    }
}

/// Just the id of a run file (other fields are ignored).
#[derive(Debug, serde::Deserialize)]
struct RunId {
    id: String,
}

/// A run file of the site: where it is, its text, and the names it takes — the file's stem
/// and, when it parses that far, the id it holds.
pub struct RecordedFile {
    pub path: PathBuf,
    pub text: String,
    pub names: Vec<String>,
}

/// Every `.yaml` file under `data/runs/` with its text, and what could not be read or
/// listed. A file that does not parse still takes its name; `check` reports it.
pub fn recorded_files(root: &Path) -> (Vec<RecordedFile>, Diagnostics) {
    let (files, problems) = evidence_core::load::walk::files(root, "data/runs");
    let mut diags = Diagnostics::default();
    diags.extend(problems);
    let mut out = Vec::new();
    for path in files {
        let Some(stem) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".yaml"))
            .map(String::from)
        else {
            // The loader reads only `.yaml` files; nothing else holds a run.
            continue;
        };
        match evidence_core::load::read::read_text(&path, evidence_core::load::read::SOURCE) {
            Ok(text) => {
                let mut names = vec![stem];
                if let Ok(run) = evidence_core::load::yaml::parse::<RunId>("", &text, 0) {
                    names.push(run.id);
                }
                out.push(RecordedFile { path, text, names });
            }
            Err(e) => diags.push(evidence_core::load::read_error(&rel_path(root, &path), &e)),
        }
    }
    (out, diags)
}

/// The ids taken by the recorded runs. A run file that cannot be read stops the probe (it
/// would be an error at `check`).
fn recorded_ids(root: &Path) -> Result<BTreeSet<String>, ProbeError> {
    let (files, diags) = recorded_files(root);
    if diags.has_errors() {
        return Err(ProbeError::Input(diags));
    }
    Ok(files.into_iter().flat_map(|f| f.names).collect())
}

/// Writes `bytes` to `path` atomically, failing with `AlreadyExists` when `path` exists.
/// The data goes to a temporary file in `dir` first and is linked into place.
pub fn write_new(dir: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("run.yaml");
    let mut tmp = None;
    for n in 0..100u32 {
        let candidate = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(f) => {
                tmp = Some((candidate, f));
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    let Some((tmp_path, mut f)) = tmp else {
        return Err(std::io::Error::other("no free temporary file name"));
    };
    let result = (|| {
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        match std::fs::hard_link(&tmp_path, path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(e),
            // No hard links on this file system: create the name exclusively instead
            // (still never overwrites; a crash mid-write could leave a partial file).
            Err(_) => {
                let mut out = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(path)?;
                out.write_all(bytes)?;
                out.sync_all()
            }
        }
    })();
    let _ = std::fs::remove_file(&tmp_path);
    if result.is_ok()
        && let Ok(d) = std::fs::File::open(dir)
    {
        let _ = d.sync_all();
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_formatting_and_parsing() {
        let c = Clock {
            secs: 1_691_176_965,
        };
        assert_eq!(c.rfc3339(), "2023-08-04T19:22:45Z");
        assert_eq!(c.compact(), "20230804T192245Z");
        assert_eq!(Clock::parse_rfc3339("2023-08-04T19:22:45.499127Z"), Some(c));
        assert_eq!(
            Clock::parse_rfc3339("2024-06-04T14:38:31.83753-07:00").map(|c| c.rfc3339()),
            Some("2024-06-04T21:38:31Z".to_string())
        );
        assert_eq!(Clock { secs: 0 }.rfc3339(), "1970-01-01T00:00:00Z");
        assert_eq!(
            Clock::parse_rfc3339("2000-02-29T00:00:00Z").map(|c| c.rfc3339()),
            Some("2000-02-29T00:00:00Z".to_string())
        );
        for odd in [
            "2023-08-04T19:22:45é",
            "2023-08-04T19:22:4é5Z",
            "２０２３-08-04T19:22:45Z",
            "2023-08-04T19:22:45.1+0é:00",
        ] {
            assert_eq!(Clock::parse_rfc3339(odd), None, "{odd}");
        }
        for bad in [
            "",
            "2023-08-04",
            "2023-13-04T00:00:00Z",
            "2023-08-04T25:00:00Z",
            "2023-08-04T19:22:45",
            "2023-08-04T19:22:45.Z",
        ] {
            assert_eq!(Clock::parse_rfc3339(bad), None, "{bad}");
        }
    }

    #[test]
    fn this_machine_says_its_host_and_no_path() {
        let m = this_machine();
        assert!(m.get("host").is_some_and(|h| !h.is_empty()));
        let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
        assert!(m.values().all(|v| !v.contains(&home)), "{m:?}");
        assert!(
            m.keys()
                .all(|k| ["host", "os", "cpu"].contains(&k.as_str()))
        );
    }

    #[test]
    fn host_names_become_id_parts() {
        assert_eq!(id_part("GPU-Box.local"), "gpu-box-local");
        assert_eq!(id_part("  ラボ "), "host");
        assert_eq!(id_part("a__b"), "a-b");
        assert_eq!(id_part(&"x".repeat(40)).len(), 32);
    }

    #[test]
    fn write_new_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.yaml");
        write_new(dir.path(), &p, b"one").unwrap();
        let e = write_new(dir.path(), &p, b"two").unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "one");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names.len(), 1, "no temporary file is left: {names:?}");
    }
}
