//! The output folder `build` owns, and the rules that keep it from touching anything else.
//!
//! A build may only replace a folder it wrote before: every output carries a marker file
//! ([`MARKER`]) written first into each staging folder. [`Output::claim`] refuses, before
//! anything is created or removed, an output that
//!
//! - is a symlink, a file, a device or anything else that is not a plain folder;
//! - is the site's root, a folder holding it, one of its input folders ([`INPUTS`]) or a
//!   folder inside one (the build would read its own output back, or replace the sources);
//! - lies inside a `.git` folder;
//! - is a folder with files in it but no marker (someone else's folder).
//!
//! A claim holds an exclusive lock on a file next to the output (`.<name>.lock`, removed
//! when the build ends), so two builds of one output run one after the other instead of
//! renaming each other's folders away. Under the lock, whatever a killed build left next to the output is put right:
//! an output moved aside and never replaced is moved back, and the temporary folders of
//! dead builds (`<name>.tmp-*`, `.<name>.old-*`) are removed — only when they carry the
//! marker or are empty, so a user's folder of the same name is never deleted.

use std::fmt;
use std::fs::{self, File};
use std::io;
use std::path::{Component, Path, PathBuf};

/// The file that marks a folder as written by `evidence build`.
pub const MARKER: &str = ".evidence-output";

/// What the marker says to a person who opens it.
pub const MARKER_TEXT: &str = "This folder is written by `evidence build` and replaced whole by each build.\n\
Files put here by hand are removed by the next build.\n";

/// The folders of a site that hold its sources; an output may be none of them, nor lie
/// inside one. `.evidence-cache` is the tool's own and is pruned by it.
pub const INPUTS: &[&str] = &[
    "content",
    "data",
    "templates",
    "static",
    "locales",
    ".evidence-cache",
];

/// Why an output folder is refused. Nothing has been created or removed when one is
/// returned.
#[derive(Debug)]
pub enum OutputError {
    /// The output path is a symbolic link (building would replace the link's target).
    Symlink(PathBuf),
    /// Something other than a folder is at the output path.
    NotAFolder(PathBuf),
    /// The output is the site's root, or a folder that holds it.
    HoldsRoot(PathBuf),
    /// The output is an input folder of the site, or inside one.
    Input { out: PathBuf, input: PathBuf },
    /// The output lies inside a git repository's `.git` folder.
    InsideGit(PathBuf),
    /// The output's lock file is a symbolic link (opening it would create or lock its
    /// target).
    LockSymlink(PathBuf),
    /// A folder with files in it, but without the marker of an earlier build.
    NotOurs(PathBuf),
    /// The file system refused something on the way.
    Io { path: PathBuf, error: io::Error },
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::Symlink(p) => write!(
                f,
                "the output {} is a symbolic link; `build` writes only into a real folder it owns \
                 (remove the link, or give the link's target as --out)",
                p.display()
            ),
            OutputError::NotAFolder(p) => write!(
                f,
                "the output {} exists and is not a folder; choose another --out",
                p.display()
            ),
            OutputError::HoldsRoot(p) => write!(
                f,
                "the output {} is the site's root or a folder that holds it; \
                 building there would replace the sources (use the default site/ or another --out)",
                p.display()
            ),
            OutputError::Input { out, input } => write!(
                f,
                "the output {} is the input folder {} or inside it; choose an --out outside the sources",
                out.display(),
                input.display()
            ),
            OutputError::LockSymlink(p) => write!(
                f,
                "the lock file {} is a symbolic link; a build never makes one and does not \
                 follow it: remove the link",
                p.display()
            ),
            OutputError::InsideGit(p) => write!(
                f,
                "the output {} is inside a .git folder; choose another --out",
                p.display()
            ),
            OutputError::NotOurs(p) => write!(
                f,
                "the output {} has files in it but no {MARKER} marker, so it was not written by \
                 `evidence build` (outputs of older versions have no marker either); `build` \
                 replaces its output whole and never deletes a folder it did not write: move it \
                 away, empty it, or choose another --out",
                p.display()
            ),
            OutputError::Io { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for OutputError {}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> OutputError + '_ {
    move |error| OutputError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// An output folder claimed for one build: checked, locked, and cleared of what killed
/// builds left behind. The lock is released when this is dropped.
#[derive(Debug)]
pub struct Output {
    /// The output path as given (what messages show).
    pub(crate) path: PathBuf,
    /// The folder that holds the output, its staging folders and its lock.
    pub(crate) parent: PathBuf,
    /// The output's file name.
    pub(crate) name: String,
    /// Held locked while the claim lives; its file is removed on release.
    lock: File,
    lock_path: PathBuf,
}

impl Drop for Output {
    /// Removes the lock file while still holding its lock: a build waiting on the same
    /// file then finds it unlinked and locks a new one (`lock`). A killed build leaves
    /// the file, which the next build locks and removes in turn.
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.lock_path);
        let _ = self.lock.unlock();
    }
}

/// Opens and locks the file at `path`, waiting for another holder, and retries until the
/// locked file is still the one at `path` (the holder may have removed it meanwhile).
fn lock(path: &Path) -> io::Result<File> {
    loop {
        let file = open_lock(path)?;
        file.lock()?;
        if same_file(&file, path) {
            return Ok(file);
        }
    }
}

/// Opens (creating) the lock file without following a symlink put there since the check
/// (`O_NOFOLLOW`: the open fails instead of making the link's target).
fn open_lock(path: &Path) -> io::Result<File> {
    let mut options = File::options();
    options.create(true).truncate(false).write(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32);
    }
    options.open(path)
}

#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_: &File, path: &Path) -> bool {
    path.exists()
}

impl Output {
    /// Checks that `out` may be written by a build of the site at `root`, then locks it
    /// (waiting for another build of the same output to finish) and recovers from a build
    /// that was killed.
    pub fn claim(root: &Path, out: &Path) -> Result<Output, OutputError> {
        let name = out
            .file_name()
            .and_then(|n| n.to_str())
            .filter(|n| !n.is_empty())
            .ok_or_else(|| OutputError::HoldsRoot(out.to_path_buf()))?
            .to_string();
        let root_real = fs::canonicalize(root).map_err(io_err(root))?;
        let out_real = resolve(out).map_err(io_err(out))?;
        refuse_what_is_there(out, Some((&root_real, &out_real)))?;
        let parent = out
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        fs::create_dir_all(&parent).map_err(io_err(&parent))?;
        let lock_path = parent.join(format!(".{name}.lock"));
        if fs::symlink_metadata(&lock_path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(OutputError::LockSymlink(lock_path));
        }
        let lock = lock(&lock_path).map_err(io_err(&lock_path))?;
        let claimed = Output {
            path: out.to_path_buf(),
            parent,
            name,
            lock,
            lock_path,
        };
        claimed.recover()?;
        // Checked again under the lock: the folder may have changed while we waited.
        refuse_what_is_there(out, None)?;
        Ok(claimed)
    }

    /// The prefix of this output's staging folders.
    pub(crate) fn tmp_prefix(&self) -> String {
        format!("{}.tmp-", self.name)
    }

    /// The prefix of an old output moved aside.
    pub(crate) fn old_prefix(&self) -> String {
        format!(".{}.old-", self.name)
    }

    /// Puts right what a build killed before or during its swap left: an output moved
    /// aside and not replaced goes back; staging and old folders of dead builds go away.
    /// Runs under the lock, so no live build owns any of them.
    fn recover(&self) -> Result<(), OutputError> {
        let entries = match fs::read_dir(&self.parent) {
            Ok(e) => e,
            Err(error) => return Err(io_err(&self.parent)(error)),
        };
        let mut leftovers: Vec<(String, PathBuf)> = Vec::new();
        for entry in entries {
            let entry = entry.map_err(io_err(&self.parent))?;
            let Some(file_name) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            if file_name.starts_with(&self.tmp_prefix())
                || file_name.starts_with(&self.old_prefix())
            {
                leftovers.push((file_name, entry.path()));
            }
        }
        leftovers.sort();
        if fs::symlink_metadata(&self.path).is_err() {
            // The output was moved aside and the new one never moved in: move it back.
            if let Some((_, old)) = leftovers
                .iter()
                .rev()
                .find(|(n, p)| n.starts_with(&self.old_prefix()) && is_ours(p))
            {
                fs::rename(old, &self.path).map_err(io_err(old))?;
            }
        }
        for (_, path) in leftovers {
            if fs::symlink_metadata(&path).is_err() {
                continue; // moved back above
            }
            if is_ours(&path) || is_empty_dir(&path) {
                remove_tree(&path).map_err(io_err(&path))?;
            } else {
                eprintln!(
                    "warning: leaving {}: its name is that of a build's temporary folder, \
                     but it has no {MARKER} marker",
                    path.display()
                );
            }
        }
        Ok(())
    }
}

/// Refuses an output path that holds something other than a folder this tool wrote, or,
/// given the real paths of the root and the output, one among the sources. The most
/// telling reason comes first: what the path is, then where, then whose.
fn refuse_what_is_there(out: &Path, real: Option<(&Path, &Path)>) -> Result<(), OutputError> {
    let meta = match fs::symlink_metadata(out) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(io_err(out)(e)),
    };
    if let Some(meta) = &meta {
        if meta.file_type().is_symlink() {
            return Err(OutputError::Symlink(out.to_path_buf()));
        }
        if !meta.is_dir() {
            return Err(OutputError::NotAFolder(out.to_path_buf()));
        }
    }
    if let Some((root, out_real)) = real {
        refuse_sources(root, out, out_real)?;
    }
    if meta.is_none() || is_ours(out) || is_empty_dir(out) {
        Ok(())
    } else {
        Err(OutputError::NotOurs(out.to_path_buf()))
    }
}

/// Refuses an output that is, holds or lies in the sources or a `.git` folder.
fn refuse_sources(root: &Path, out: &Path, out_real: &Path) -> Result<(), OutputError> {
    if out_real
        .components()
        .any(|c| c == Component::Normal(".git".as_ref()))
    {
        return Err(OutputError::InsideGit(out.to_path_buf()));
    }
    if root.starts_with(out_real) {
        return Err(OutputError::HoldsRoot(out.to_path_buf()));
    }
    for input in INPUTS {
        let input_path = root.join(input);
        if out_real.starts_with(&input_path) {
            return Err(OutputError::Input {
                out: out.to_path_buf(),
                input: input_path,
            });
        }
    }
    Ok(())
}

/// The real path `out` names, whether or not it exists yet: component by component, each
/// existing prefix resolved by the file system (links followed), `..` taking the parent of
/// what is already real, and the rest of a path that does not exist appended as written.
fn resolve(out: &Path) -> io::Result<PathBuf> {
    let mut real = PathBuf::new();
    for part in std::path::absolute(out)?.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                real.pop();
            }
            other => {
                real.push(other);
                if fs::symlink_metadata(&real).is_ok() {
                    real = fs::canonicalize(&real)?;
                }
            }
        }
    }
    Ok(real)
}

/// Whether `dir` is a real folder holding the marker.
pub(crate) fn is_ours(dir: &Path) -> bool {
    fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir())
        && fs::symlink_metadata(dir.join(MARKER)).is_ok_and(|m| m.is_file())
}

fn is_empty_dir(dir: &Path) -> bool {
    fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir())
        && fs::read_dir(dir).is_ok_and(|mut e| e.next().is_none())
}

/// Removes a folder tree, its top-level entries in parallel: on a file system that
/// discards freed blocks each folder's removal waits on the disk, and the waits overlap.
/// Links are removed, never followed. The marker goes last, so a removal cut short still
/// leaves a folder the next build knows as its own.
pub(crate) fn remove_tree(dir: &Path) -> io::Result<()> {
    use rayon::prelude::*;
    let marker = dir.join(MARKER);
    let entries: Vec<PathBuf> = fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .filter(|p| p.as_ref().map_or(true, |p| *p != marker))
        .collect::<io::Result<_>>()?;
    entries.par_iter().try_for_each(|p| {
        if fs::symlink_metadata(p)?.is_dir() {
            fs::remove_dir_all(p)
        } else {
            fs::remove_file(p)
        }
    })?;
    match fs::remove_file(&marker) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    fs::remove_dir(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site_root() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for input in ["content", "data"] {
            fs::create_dir_all(dir.path().join(input)).unwrap();
        }
        fs::write(dir.path().join("content/index.md"), "x").unwrap();
        dir
    }

    fn refused(root: &Path, out: &Path) -> OutputError {
        match Output::claim(root, out) {
            Ok(_) => panic!("{} was accepted", out.display()),
            Err(e) => e,
        }
    }

    #[test]
    fn refuses_the_sources_and_what_holds_them() {
        let dir = site_root();
        let root = dir.path();
        assert!(matches!(refused(root, root), OutputError::HoldsRoot(_)));
        assert!(matches!(
            refused(root, &root.join("..")),
            OutputError::HoldsRoot(_)
        ));
        assert!(matches!(
            refused(root, &root.join("content")),
            OutputError::Input { .. }
        ));
        assert!(matches!(
            refused(root, &root.join("data/new/site")),
            OutputError::Input { .. }
        ));
        assert!(matches!(
            refused(root, &root.join("nothing/../static")),
            OutputError::Input { .. }
        ));
        fs::create_dir_all(root.join(".git/objects")).unwrap();
        assert!(matches!(
            refused(root, &root.join(".git/site")),
            OutputError::InsideGit(_)
        ));
        assert!(!root.join("data/new").exists(), "nothing was created");
    }

    #[test]
    fn refuses_links_files_and_foreign_folders() {
        let dir = site_root();
        let root = dir.path();
        let www = root.join("www");
        fs::create_dir(&www).unwrap();
        fs::write(www.join("KEEP.txt"), "keep").unwrap();
        std::os::unix::fs::symlink(&www, root.join("site")).unwrap();
        assert!(matches!(
            refused(root, &root.join("site")),
            OutputError::Symlink(_)
        ));
        assert!(matches!(refused(root, &www), OutputError::NotOurs(_)));
        fs::write(root.join("notes.txt"), "x").unwrap();
        assert!(matches!(
            refused(root, &root.join("notes.txt")),
            OutputError::NotAFolder(_)
        ));
        assert!(matches!(
            refused(root, Path::new("/dev/null")),
            OutputError::NotAFolder(_)
        ));
        assert_eq!(fs::read_to_string(www.join("KEEP.txt")).unwrap(), "keep");
    }

    #[test]
    fn accepts_a_new_an_empty_and_a_marked_folder() {
        let dir = site_root();
        let root = dir.path();
        drop(Output::claim(root, &root.join("site")).unwrap());
        fs::create_dir(root.join("empty")).unwrap();
        drop(Output::claim(root, &root.join("empty")).unwrap());
        fs::create_dir(root.join("old")).unwrap();
        fs::write(root.join("old").join(MARKER), MARKER_TEXT).unwrap();
        fs::write(root.join("old/a.html"), "a").unwrap();
        drop(Output::claim(root, &root.join("old")).unwrap());
    }

    #[test]
    fn recovery_restores_a_moved_output_and_clears_leftovers() {
        let dir = site_root();
        let root = dir.path();
        let marked = |p: &Path| {
            fs::create_dir_all(p).unwrap();
            fs::write(p.join(MARKER), MARKER_TEXT).unwrap();
        };
        marked(&root.join(".site.old-1-0"));
        fs::write(root.join(".site.old-1-0/index.html"), "old").unwrap();
        marked(&root.join("site.tmp-2-0"));
        fs::create_dir(root.join("site.tmp-3-0")).unwrap();
        fs::create_dir(root.join("site.tmp-users")).unwrap();
        fs::write(root.join("site.tmp-users/mine.txt"), "mine").unwrap();
        drop(Output::claim(root, &root.join("site")).unwrap());
        assert_eq!(
            fs::read_to_string(root.join("site/index.html")).unwrap(),
            "old"
        );
        for gone in [".site.old-1-0", "site.tmp-2-0", "site.tmp-3-0"] {
            assert!(!root.join(gone).exists(), "{gone} is left");
        }
        assert!(root.join("site.tmp-users/mine.txt").exists());
    }
}
