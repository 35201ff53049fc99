//! `evidence import runs PATH…`: run files recorded on other machines (the artifacts of a
//! probe matrix, see `.github/workflows/probes.yml`), merged into `data/runs/`.
//!
//! Every file is read and checked before anything is written: it must parse as a run of
//! the site (in its languages) and its id must be free. A run whose id is already taken by
//! a file with exactly the same bytes (same SHA-256) is skipped, so importing one artifact
//! twice changes nothing; the same id with other bytes is a clash, and nothing is imported.
//! Files are written under their run's id with the bytes they came with, each atomically
//! and never over another file; if one write fails, the runs this import wrote are removed.

use super::ProbeError;
use super::record::write_new;
use evidence_core::diagnostics::{Diagnostic, Diagnostics, Span};
use evidence_core::load::read::{SOURCE, read_text};
use evidence_core::model::refs::valid_id;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `evidence import runs PATH…`
#[derive(clap::Args, Debug)]
pub struct ImportRunsArgs {
    /// Run files, or folders searched for `*.yaml` run files (an artifact download).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Folder holding evidence.yaml.
    #[arg(long, default_value = ".")]
    pub root: PathBuf,
}

/// What an import did.
#[derive(Debug, Default)]
pub struct Imported {
    /// The runs written: id and file.
    pub written: Vec<(String, PathBuf)>,
    /// Runs already in the site with the same bytes: (id, the file that holds them).
    pub skipped: Vec<(String, PathBuf)>,
    /// What `check` says about the site with the runs in it.
    pub diagnostics: Diagnostics,
}

/// One file to import, read and parsed.
struct Incoming {
    path: PathBuf,
    id: String,
    text: String,
    sha256: [u8; 32],
}

/// A run file the site already holds.
struct Existing {
    path: PathBuf,
    text: String,
    sha256: [u8; 32],
    /// The id of the run it holds, when it parses.
    id: Option<String>,
}

/// Imports the run files at `args.paths` into the site at `args.root`.
pub fn import_runs(args: &ImportRunsArgs) -> Result<Imported, ProbeError> {
    let root = &args.root;
    let config = evidence_core::load::config(root).map_err(|d| {
        let mut ds = Diagnostics::default();
        ds.push(*d);
        ProbeError::Input(ds)
    })?;
    let langs = config.languages();
    let packs = config.pack_list();
    let mut diags = Diagnostics::default();
    let mut incoming: Vec<Incoming> = Vec::new();
    for path in files(&args.paths, &mut diags) {
        let shown = path.display().to_string();
        let text = match read_text(&path, SOURCE) {
            Ok(t) => t,
            Err(e) => {
                diags.push(evidence_core::load::read_error(&shown, &e));
                continue;
            }
        };
        let run = evidence_core::model::lang::expecting(langs, || {
            evidence_core::model::fields::expecting(packs, || {
                evidence_core::load::yaml::parse_run(&shown, &text)
            })
        });
        let run = match run {
            Ok(r) => r,
            Err(d) => {
                diags.push(*d);
                continue;
            }
        };
        if !valid_id(&run.id.value) {
            diags.push(Diagnostic::error(
                "import",
                evidence_core::model::span_of(&shown, &run.id),
                format!("`{}` is not a valid run id", run.id.value),
            ));
            continue;
        }
        incoming.push(Incoming {
            sha256: Sha256::digest(text.as_bytes()).into(),
            path,
            id: run.id.value,
            text,
        });
    }
    let existing = existing_runs(root, &mut diags);
    // The same id twice among the files: one run if the bytes agree, else a clash.
    let mut by_id: BTreeMap<&str, &Incoming> = BTreeMap::new();
    let mut plan: Vec<&Incoming> = Vec::new();
    let mut skipped = Vec::new();
    for run in &incoming {
        if let Some(first) = by_id.get(run.id.as_str()) {
            if first.sha256 != run.sha256 {
                diags.push(clash(run, &first.path.display().to_string(), &first.text));
            }
            continue;
        }
        by_id.insert(&run.id, run);
        match existing.get(&run.id) {
            Some(e) if e.sha256 == run.sha256 => {
                skipped.push((run.id.clone(), e.path.clone()));
            }
            Some(e) => {
                let file = evidence_core::diagnostics::rel_path(root, &e.path);
                match e.id.as_deref().filter(|id| *id != run.id) {
                    Some(other) => diags.push(name_taken(run, &file, other)),
                    None => diags.push(clash(run, &file, &e.text)),
                }
            }
            None => plan.push(run),
        }
    }
    if diags.has_errors() {
        return Err(ProbeError::Input(diags));
    }
    let runs_dir = root.join("data").join("runs");
    std::fs::create_dir_all(&runs_dir)
        .map_err(|e| ProbeError::other(format!("cannot create {}: {e}", runs_dir.display()), ""))?;
    let mut written: Vec<(String, PathBuf)> = Vec::new();
    for run in plan {
        let path = runs_dir.join(format!("{}.yaml", run.id));
        if let Err(e) = write_new(&runs_dir, &path, run.text.as_bytes()) {
            // All or nothing: take back what this import wrote (and nothing else).
            for (_, file) in &written {
                let _ = std::fs::remove_file(file);
            }
            let why = if e.kind() == std::io::ErrorKind::AlreadyExists {
                "the file appeared while importing".to_string()
            } else {
                e.to_string()
            };
            return Err(ProbeError::other(
                format!("cannot write {}: {why}", path.display()),
                "nothing was imported; check the folder's permissions and free space",
            ));
        }
        written.push((run.id.clone(), path));
    }
    let diagnostics = match evidence_core::pipeline::checked(root) {
        Ok(checked) => checked.diagnostics,
        Err(diagnostics) => diagnostics,
    };
    Ok(Imported {
        written,
        skipped,
        diagnostics,
    })
}

/// Two runs under one id with other contents: placed at the first character where `run`'s
/// text differs from `theirs` (the other file's).
fn clash(run: &Incoming, other: &str, theirs: &str) -> Diagnostic {
    Diagnostic::error(
        "import",
        first_difference(&run.path.display().to_string(), &run.text, theirs),
        format!(
            "run `{}` clashes with {other}: same id, other contents",
            run.id
        ),
    )
    .with_hint(
        "a run is recorded once and never rewritten: give the new one another id (probes \
         name runs by host and time), or leave it out",
    )
}

/// The place in `ours` (the text of file `shown`) of its first character that differs
/// from `theirs` (the end of the shorter text when one is the start of the other).
fn first_difference(shown: &str, ours: &str, theirs: &str) -> Span {
    let mut at = ours
        .bytes()
        .zip(theirs.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(ours.len().min(theirs.len()));
    while !ours.is_char_boundary(at) {
        at -= 1;
    }
    evidence_core::diagnostics::span_at(shown, ours, at, 1)
}

/// A run whose id names a file of the site that holds another run (`data/runs/x.yaml`
/// whose id is `other`): placed at the run's id.
fn name_taken(run: &Incoming, file: &str, other: &str) -> Diagnostic {
    let shown = run.path.display().to_string();
    let at = run
        .text
        .find(&format!("id: {}", run.id))
        .map_or(0, |i| i + "id: ".len());
    Diagnostic::error(
        "import",
        evidence_core::diagnostics::span_at(&shown, &run.text, at, 1),
        format!(
            "run `{}` would be written to {file}, which holds run `{other}`: the file name is taken",
            run.id
        ),
    )
    .with_hint(
        "a run file is named by its run's id: give the new run another id, or rename the \
         site's file after the id it holds",
    )
}

/// The `.yaml` files at `paths`: each file as given, each folder searched recursively, in
/// path order.
fn files(paths: &[PathBuf], diags: &mut Diagnostics) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = walkdir::WalkDir::new(p)
                .into_iter()
                .filter_map(|e| match e {
                    Ok(e) => Some(e),
                    Err(err) => {
                        diags.push(Diagnostic::error(
                            "import",
                            Span::file(p.display().to_string()),
                            format!("cannot list: {err}"),
                        ));
                        None
                    }
                })
                .filter(|e| e.file_type().is_file())
                .map(|e| e.into_path())
                .filter(|f| f.extension().is_some_and(|x| x == "yaml"))
                .collect();
            found.sort();
            if found.is_empty() {
                diags.push(Diagnostic::error(
                    "import",
                    Span::file(p.display().to_string()),
                    "no run file (`*.yaml`) in this folder",
                ));
            }
            out.extend(found);
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            diags.push(Diagnostic::error(
                "import",
                Span::file(p.display().to_string()),
                not_a_run_file(p),
            ));
        }
    }
    out
}

/// Why `path`, neither a folder nor a regular file, cannot be imported: what it is.
fn not_a_run_file(path: &Path) -> String {
    use std::os::unix::fs::FileTypeExt;
    let kind = match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return "no such file or folder".into();
        }
        Err(e) => return format!("cannot read: {e}"),
        Ok(m) => m.file_type(),
    };
    let what = if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "neither a file nor a folder"
    };
    format!("not a regular file: this is {what}; a run file is a `.yaml` file")
}

/// The site's recorded runs by the names they take (file stem and id): the file that holds
/// each and the SHA-256 of its bytes.
fn existing_runs(root: &Path, diags: &mut Diagnostics) -> BTreeMap<String, std::rc::Rc<Existing>> {
    let (files, problems) = super::record::recorded_files(root);
    diags.extend(problems);
    let mut out = BTreeMap::new();
    for f in files {
        // The names are the file's stem, then the id it holds when it parses.
        let file = std::rc::Rc::new(Existing {
            sha256: Sha256::digest(f.text.as_bytes()).into(),
            id: f.names.get(1).cloned(),
            path: f.path,
            text: f.text,
        });
        for name in f.names {
            out.insert(name, file.clone());
        }
    }
    out
}
