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
use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::load::read::{SOURCE, read_text};
use crate::model::refs::valid_id;
use crate::model::types::Run;
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
    bytes: Vec<u8>,
    sha256: [u8; 32],
}

/// Imports the run files at `args.paths` into the site at `args.root`.
pub fn import_runs(args: &ImportRunsArgs) -> Result<Imported, ProbeError> {
    let root = &args.root;
    let config = crate::load::config(root).map_err(|d| {
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
                diags.push(crate::load::read_error(&shown, &e));
                continue;
            }
        };
        let run = crate::model::lang::expecting(langs, || {
            crate::model::fields::expecting(&packs, || {
                crate::load::yaml::parse::<Run>(&shown, &text, 0)
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
                crate::model::span_of(&shown, &run.id),
                format!("`{}` is not a valid run id", run.id.value),
            ));
            continue;
        }
        let bytes = text.into_bytes();
        incoming.push(Incoming {
            sha256: Sha256::digest(&bytes).into(),
            path,
            id: run.id.value,
            bytes,
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
                diags.push(clash(run, &first.path.display().to_string()));
            }
            continue;
        }
        by_id.insert(&run.id, run);
        match existing.get(&run.id) {
            Some((file, sha)) if *sha == run.sha256 => {
                skipped.push((run.id.clone(), file.clone()));
            }
            Some((file, _)) => diags.push(clash(run, &crate::diagnostics::rel_path(root, file))),
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
        if let Err(e) = write_new(&runs_dir, &path, &run.bytes) {
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
    let diagnostics = match crate::pipeline::checked(root) {
        Ok(checked) => checked.diagnostics,
        Err(diagnostics) => diagnostics,
    };
    Ok(Imported {
        written,
        skipped,
        diagnostics,
    })
}

fn clash(run: &Incoming, other: &str) -> Diagnostic {
    Diagnostic::error(
        "import",
        Span::file(run.path.display().to_string()),
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
                "no such file or folder",
            ));
        }
    }
    out
}

/// The site's recorded runs by the names they take (file stem and id): the file that holds
/// each and the SHA-256 of its bytes.
fn existing_runs(root: &Path, diags: &mut Diagnostics) -> BTreeMap<String, (PathBuf, [u8; 32])> {
    let (files, problems) = super::record::recorded_files(root);
    diags.extend(problems);
    let mut out = BTreeMap::new();
    for f in files {
        let sha: [u8; 32] = Sha256::digest(f.text.as_bytes()).into();
        for name in f.names {
            out.insert(name, (f.path.clone(), sha));
        }
    }
    out
}
