//! The two sides of a diff: a folder, or a git revision whose committed files are written
//! into a temporary folder (the working tree is never checked out or touched).

use evidence_core::load::git::GitError;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Why a side could not be opened.
#[derive(Debug)]
pub enum SideError {
    UnknownRevision(String),
    NotASite {
        label: String,
        path: PathBuf,
    },
    /// A git command could not be run or failed.
    Command(GitError),
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
            SideError::Command(e) => write!(f, "git failed: {e}"),
            SideError::Git(msg) => write!(f, "git failed: {msg}"),
        }
    }
}

/// An opened side: its label, the folder holding its files, and the temporary folder
/// that must live as long as the side is read.
pub struct Side {
    pub label: String,
    pub root: PathBuf,
    /// The commit read, when the side is a revision.
    commit: Option<String>,
    /// Whether the side is the working tree of the site's repository.
    worktree: bool,
    _tmp: Option<tempfile::TempDir>,
}

/// Opens `spec`: an existing folder, or a revision of the git repository holding `site_root`.
pub fn open(spec: &str, site_root: &Path) -> Result<Side, SideError> {
    let dir = Path::new(spec);
    if dir.is_dir() {
        return checked(Side {
            label: spec.to_string(),
            root: dir.to_path_buf(),
            commit: None,
            worktree: false,
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
        commit: Some(commit),
        worktree: false,
        _tmp: Some(tmp),
    })
}

/// The working tree as a side.
pub fn working_tree(site_root: &Path) -> Result<Side, SideError> {
    checked(Side {
        label: "working tree".into(),
        root: site_root.to_path_buf(),
        commit: None,
        worktree: true,
        _tmp: None,
    })
}

/// A `.gitattributes` file that differs between the sides, by its path in the repository.
pub struct AttributesFile {
    pub path: String,
    /// `A`dded, `D`eleted, or anything else: changed.
    pub status: char,
}

/// The `.gitattributes` files that bear on the site (inside its folder, or in a folder
/// above it) and differ from `base` to `head`, when `base` is a revision and `head` a
/// revision or the working tree (two folders have no attributes git applies). The diff
/// reads neither side through them; a reviewer is told all the same.
pub fn attributes_changed(
    site_root: &Path,
    base: &Side,
    head: &Side,
) -> Result<Vec<AttributesFile>, SideError> {
    let Some(b) = &base.commit else {
        return Ok(Vec::new());
    };
    if head.commit.is_none() && !head.worktree {
        return Ok(Vec::new());
    }
    let prefix = git(site_root, &["rev-parse", "--show-prefix"])?
        .trim()
        .to_string();
    let specs = attribute_pathspecs(&prefix);
    let mut args = vec!["diff", "--name-status", "-z", "--no-renames", b.as_str()];
    if let Some(h) = &head.commit {
        args.push(h);
    }
    args.push("--");
    args.extend(specs.iter().map(String::as_str));
    let listing = git_bytes(site_root, &args).map_err(SideError::Command)?;
    let mut out = name_status(&listing);
    if head.commit.is_none() {
        // A new file the working tree has not added yet is a change all the same.
        let mut args = vec![
            "ls-files",
            "-z",
            "--others",
            "--exclude-standard",
            "--full-name",
            "--",
        ];
        args.extend(specs.iter().map(String::as_str));
        let untracked = git_bytes(site_root, &args).map_err(SideError::Command)?;
        out.extend(
            untracked
                .split(|&b| b == 0)
                .filter(|p| !p.is_empty())
                .map(|p| AttributesFile {
                    path: String::from_utf8_lossy(p).into_owned(),
                    status: 'A',
                }),
        );
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// Pathspecs, from the top of the repository, of every `.gitattributes` that bears on the
/// site in folder `prefix` (`a/b/`): those under it and those of `a/` and the top.
fn attribute_pathspecs(prefix: &str) -> Vec<String> {
    let mut specs = vec![format!(":(top,glob){prefix}**/.gitattributes")];
    let mut above = String::new();
    specs.push(":(top,literal).gitattributes".to_string());
    let parts: Vec<&str> = prefix.split('/').filter(|p| !p.is_empty()).collect();
    for part in parts.iter().take(parts.len().saturating_sub(1)) {
        above.push_str(part);
        above.push('/');
        specs.push(format!(":(top,literal){above}.gitattributes"));
    }
    specs
}

/// The files of `git diff --name-status -z` output: `<status>\0<path>\0` each.
fn name_status(listing: &[u8]) -> Vec<AttributesFile> {
    let fields: Vec<&[u8]> = listing.split(|&b| b == 0).collect();
    fields
        .chunks(2)
        .filter_map(|pair| match pair {
            [status, path] if !path.is_empty() => Some(AttributesFile {
                path: String::from_utf8_lossy(path).into_owned(),
                status: status.first().copied().map(char::from)?,
            }),
            _ => None,
        })
        .collect()
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

/// `git -C dir args`'s stdout as text (what is not UTF-8 replaced), or why there is none.
fn git(dir: &Path, args: &[&str]) -> Result<String, SideError> {
    let out = git_bytes(dir, args).map_err(SideError::Command)?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Writes the site's files as committed at `commit` into `dest`: every blob under the site
/// folder byte for byte (`git ls-tree` and `git cat-file --batch`), with no
/// `.gitattributes` applied, so that `export-ignore` cannot hide a file from the diff nor
/// `export-subst` change its text. A blob is streamed to its file, never held whole.
fn extract(repo: &Path, commit: &str, prefix: &str, dest: &Path) -> Result<(), SideError> {
    let folder = prefix.trim_end_matches('/');
    let tree = if folder.is_empty() {
        commit.to_string()
    } else {
        format!("{commit}:{folder}")
    };
    // --full-tree: paths relative to `tree`, wherever in the work tree git runs.
    let listing =
        git_bytes(repo, &["ls-tree", "-r", "-z", "--full-tree", &tree]).map_err(|why| {
            SideError::Git(if folder.is_empty() {
                format!("git ls-tree {commit} failed: {why}")
            } else {
                format!("the site folder `{folder}` is not in {commit} ({why})")
            })
        })?;
    let entries = tree_entries(&listing)?;
    let mut blobs = Blobs::open(repo)?;
    let mut links = Vec::new();
    for e in &entries {
        let path = dest.join(&e.path);
        match e.mode.as_str() {
            // A submodule: an empty folder, as `git archive` gave.
            "160000" => mkdir(&path)?,
            "120000" => links.push((path, blobs.read(&e.object)?)),
            _ => {
                if let Some(parent) = path.parent() {
                    mkdir(parent)?;
                }
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&path)
                    .map_err(|e| unpack_error(&path, &e))?;
                blobs.copy(&e.object, file, &path)?;
            }
        }
    }
    // Links last, so that no file is written through one.
    for (path, target) in links {
        if let Some(parent) = path.parent() {
            mkdir(parent)?;
        }
        let target = std::ffi::OsStr::from_bytes(&target);
        std::os::unix::fs::symlink(target, &path).map_err(|e| unpack_error(&path, &e))?;
    }
    Ok(())
}

/// One file of a committed tree: its mode, object id and path (relative, checked).
struct TreeEntry {
    mode: String,
    object: String,
    path: PathBuf,
}

/// The entries of `git ls-tree -r -z` output: `<mode> <type> <object>\t<path>\0` each. A
/// path that would leave the folder (`..`, absolute, `.git`) is refused, not skipped.
fn tree_entries(listing: &[u8]) -> Result<Vec<TreeEntry>, SideError> {
    let odd = || SideError::Git("git ls-tree printed an entry in an unexpected form".into());
    let mut out = Vec::new();
    for record in listing.split(|&b| b == 0).filter(|r| !r.is_empty()) {
        let tab = record.iter().position(|&b| b == b'\t').ok_or_else(odd)?;
        let (head, path) = (&record[..tab], &record[tab + 1..]);
        let head = std::str::from_utf8(head).map_err(|_| odd())?;
        let [mode, _kind, object] = head.split(' ').collect::<Vec<_>>()[..] else {
            return Err(odd());
        };
        let path = PathBuf::from(std::ffi::OsStr::from_bytes(path));
        let plain = path
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(n) if n != ".git"));
        if !plain {
            return Err(SideError::Git(format!(
                "the tree holds a path that would leave its folder: {}",
                path.display()
            )));
        }
        out.push(TreeEntry {
            mode: mode.to_string(),
            object: object.to_string(),
            path,
        });
    }
    Ok(out)
}

fn mkdir(path: &Path) -> Result<(), SideError> {
    std::fs::create_dir_all(path).map_err(|e| unpack_error(path, &e))
}

fn unpack_error(path: &Path, e: &std::io::Error) -> SideError {
    SideError::Git(format!("cannot write {}: {e}", path.display()))
}

/// Blobs of the side's commit, through the one `git cat-file --batch` reader.
struct Blobs(evidence_core::load::git::CatFile);

/// A failure talking to `git cat-file`.
fn cat_file_error(e: std::io::Error) -> SideError {
    SideError::Git(format!("git cat-file: {e}"))
}

impl Blobs {
    fn open(repo: &Path) -> Result<Blobs, SideError> {
        evidence_core::load::git::CatFile::open(repo)
            .map(Blobs)
            .map_err(|e| SideError::Git(format!("cannot run git cat-file: {e}")))
    }

    /// Asks for blob `object` and returns its size.
    fn ask(&mut self, object: &str) -> Result<u64, SideError> {
        match self.0.ask(object).map_err(cat_file_error)? {
            Some(o) if o.kind == "blob" => Ok(o.size),
            _ => Err(SideError::Git(format!("git cat-file: no blob {object}"))),
        }
    }

    /// Streams blob `object` into `file` (at `path`, for messages).
    fn copy(&mut self, object: &str, file: std::fs::File, path: &Path) -> Result<(), SideError> {
        let size = self.ask(object)?;
        let mut w = std::io::BufWriter::new(file);
        let copied = std::io::copy(&mut self.0.body(size), &mut w)
            .and_then(|n| std::io::Write::flush(&mut w).map(|()| n))
            .map_err(|e| unpack_error(path, &e))?;
        if copied != size {
            return Err(SideError::Git(format!(
                "git cat-file: {object} ended after {copied} of {size} bytes"
            )));
        }
        self.0.end().map_err(cat_file_error)
    }

    /// The bytes of blob `object` (a link's target: short).
    fn read(&mut self, object: &str) -> Result<Vec<u8>, SideError> {
        let size = self.ask(object)?;
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut self.0.body(size), &mut bytes).map_err(cat_file_error)?;
        self.0.end().map_err(cat_file_error)?;
        Ok(bytes)
    }
}

/// `git -C dir args`'s stdout as bytes, or why there is none.
fn git_bytes(dir: &Path, args: &[&str]) -> Result<Vec<u8>, GitError> {
    evidence_core::load::git::run(dir, args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_git_command_says_git_failed_and_what_git_said() {
        let failed = SideError::Command(GitError::Failed {
            stderr: "fatal: bad object nope".into(),
        });
        assert_eq!(failed.to_string(), "git failed: fatal: bad object nope");
    }
}
