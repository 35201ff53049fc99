//! The two sides of a diff: a folder, or a git revision read through `git archive` into a
//! temporary folder (the working tree is never checked out or touched).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Why a side could not be opened.
#[derive(Debug)]
pub enum SideError {
    UnknownRevision(String),
    NotASite { label: String, path: PathBuf },
    Git(String),
}

impl std::fmt::Display for SideError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SideError::UnknownRevision(r) => {
                write!(
                    f,
                    "`{r}` is neither a folder nor a git revision of this repository"
                )
            }
            SideError::NotASite { label, path } => {
                write!(
                    f,
                    "{label} is not an evidence site: no evidence.yaml in {}",
                    path.display()
                )
            }
            SideError::Git(msg) => write!(f, "git failed: {msg}"),
        }
    }
}

/// An opened side: its label, the folder holding its files, and the temporary folder
/// that must live as long as the side is read.
pub struct Side {
    pub label: String,
    pub root: PathBuf,
    _tmp: Option<tempfile::TempDir>,
}

/// Opens `spec`: an existing folder, or a revision of the git repository holding `site_root`.
pub fn open(spec: &str, site_root: &Path) -> Result<Side, SideError> {
    let dir = Path::new(spec);
    if dir.is_dir() {
        return checked(Side {
            label: spec.to_string(),
            root: dir.to_path_buf(),
            _tmp: None,
        });
    }
    let commit = git(
        site_root,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{spec}^{{commit}}"),
        ],
    )
    .map_err(|_| SideError::UnknownRevision(spec.to_string()))?;
    let commit = commit.trim().to_string();
    if commit.is_empty() {
        return Err(SideError::UnknownRevision(spec.to_string()));
    }
    let prefix = git(site_root, &["rev-parse", "--show-prefix"])?
        .trim()
        .to_string();
    let tmp = tempfile::tempdir().map_err(|e| SideError::Git(e.to_string()))?;
    extract(site_root, &commit, &prefix, tmp.path())?;
    let root = tmp.path().to_path_buf();
    checked(Side {
        label: spec.to_string(),
        root,
        _tmp: Some(tmp),
    })
}

/// The working tree as a side.
pub fn working_tree(site_root: &Path) -> Result<Side, SideError> {
    checked(Side {
        label: "working tree".into(),
        root: site_root.to_path_buf(),
        _tmp: None,
    })
}

fn checked(side: Side) -> Result<Side, SideError> {
    if side.root.join("evidence.yaml").is_file() {
        Ok(side)
    } else {
        Err(SideError::NotASite {
            label: side.label,
            path: side.root,
        })
    }
}

fn git(dir: &Path, args: &[&str]) -> Result<String, SideError> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| SideError::Git(format!("cannot run git: {e}")))?;
    if !out.status.success() {
        return Err(SideError::Git(
            String::from_utf8_lossy(&out.stderr).trim().to_string(),
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Writes the site's tree at `commit` into `dest` (`git archive | tar -x`).
fn extract(repo: &Path, commit: &str, prefix: &str, dest: &Path) -> Result<(), SideError> {
    let tree = if prefix.is_empty() {
        commit.to_string()
    } else {
        format!("{commit}:{}", prefix.trim_end_matches('/'))
    };
    let mut archive = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["archive", "--format=tar", &tree])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| SideError::Git(format!("cannot run git archive: {e}")))?;
    let stdout = archive
        .stdout
        .take()
        .ok_or_else(|| SideError::Git("no output from git archive".into()))?;
    let tar = Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(dest)
        .stdin(stdout)
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| SideError::Git(format!("cannot run tar: {e}")))?;
    let archived = archive
        .wait_with_output()
        .map_err(|e| SideError::Git(e.to_string()))?;
    // git's own complaint comes first: when it fails, tar's is only about the empty input.
    if !archived.status.success() {
        let folder = prefix.trim_end_matches('/');
        let why = String::from_utf8_lossy(&archived.stderr).trim().to_string();
        return Err(SideError::Git(if folder.is_empty() {
            format!("git archive {commit} failed: {why}")
        } else {
            format!("the site folder `{folder}` is not in {commit} ({why})")
        }));
    }
    if !tar.status.success() {
        return Err(SideError::Git(format!(
            "tar could not unpack {tree}: {}",
            String::from_utf8_lossy(&tar.stderr).trim()
        )));
    }
    Ok(())
}
