//! The files under a source folder (`content/`, `data/`, `templates/`, …), and a located
//! error for every entry that cannot be listed or is not something the tool reads.
//!
//! The rules, so that nothing is skipped without one:
//! - a folder that is missing is empty (a site may have no `templates/`);
//! - a hidden entry (name starting with `.`) is ignored with everything under it: editors
//!   leave lock and swap files there, Emacs's as dangling symlinks;
//! - a symlink is followed when its target is inside the site folder, and is an error when
//!   it leads outside, nowhere, or around in a loop;
//! - a folder that cannot be listed, and anything that is not a regular file or a folder
//!   (a FIFO, a socket, a device), is an error.
//!
//! Which of the files found are read (by extension) is up to the caller.

use super::read::kind_of;
use crate::diagnostics::{Diagnostic, Span, rel_path};
use std::path::{Path, PathBuf};

/// Regular files under `root/dir`, sorted by path so that output never depends on the
/// order the file system lists them in, and a diagnostic for each entry that breaks a
/// rule of the module.
pub fn files(root: &Path, dir: &str) -> (Vec<PathBuf>, Vec<Diagnostic>) {
    let (found, diags, _) = files_and_links(root, dir);
    (found, diags)
}

/// [`files`], and whether a symlink was followed on the way to one of them (its target
/// may change without an event in the folder: `serve` then lists it again each time).
pub fn files_and_links(root: &Path, dir: &str) -> (Vec<PathBuf>, Vec<Diagnostic>, bool) {
    let mut linked = false;
    let top = root.join(dir);
    let mut found = Vec::new();
    let mut diags = Vec::new();
    match std::fs::symlink_metadata(&top) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (found, diags, linked),
        _ => {}
    }
    let inside = match std::fs::canonicalize(root) {
        Ok(r) => r,
        Err(e) => {
            let message = format!("cannot resolve the site folder: {e}");
            diags.push(Diagnostic::error("io", whole(dir), message));
            return (found, diags, linked);
        }
    };
    let mut it = walkdir::WalkDir::new(&top)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter();
    while let Some(next) = it.next() {
        let entry = match next {
            Ok(entry) => entry,
            Err(e) => {
                let path = e.path().unwrap_or(&top).to_path_buf();
                if !hidden(&top, &path) {
                    diags.push(walk_error(root, &path, &e));
                }
                continue;
            }
        };
        let verdict = match hidden(&top, entry.path()) {
            true => Err(None),
            false => check(root, &inside, &entry).map_err(Some),
        };
        if let Err(problem) = verdict {
            diags.extend(problem);
            // Nothing under an ignored or refused folder is listed.
            if entry.file_type().is_dir() {
                it.skip_current_dir();
            }
            continue;
        }
        linked |= entry.path_is_symlink();
        if entry.file_type().is_file() {
            found.push(entry.into_path());
        }
    }
    found.sort();
    (found, diags, linked)
}

/// The span of a whole file or folder: its first line and column.
fn whole(rel: impl Into<String>) -> Span {
    Span::new(rel, 1, 1)
}

/// Whether `path` is, or is under, a hidden entry below `top`.
fn hidden(top: &Path, path: &Path) -> bool {
    path.strip_prefix(top).is_ok_and(|rest| {
        rest.components()
            .any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
    })
}

/// Checks one listed entry: a folder or a regular file, and inside the site when reached
/// through a symlink.
fn check(root: &Path, inside: &Path, entry: &walkdir::DirEntry) -> Result<(), Diagnostic> {
    let path = entry.path();
    let rel = rel_path(root, path);
    if entry.path_is_symlink() {
        let target = std::fs::canonicalize(path).map_err(|e| {
            Diagnostic::error("io", whole(&rel), format!("cannot follow the symlink: {e}"))
        })?;
        if !target.starts_with(inside) {
            return Err(Diagnostic::error(
                "io",
                whole(&rel),
                format!(
                    "is a symlink to `{}`, outside the site folder",
                    target.display()
                ),
            )
            .with_hint("copy the file into the site, or link to a file inside it"));
        }
    }
    let t = entry.file_type();
    if entry.depth() == 0 && !t.is_dir() {
        let message = format!("is {}, not a folder", kind_of(t));
        return Err(Diagnostic::error("io", whole(&rel), message));
    }
    if !t.is_dir() && !t.is_file() {
        let message = format!("is {}, not a regular file", kind_of(t));
        return Err(Diagnostic::error("io", whole(&rel), message)
            .with_hint("only regular files and folders belong in a site's sources"));
    }
    Ok(())
}

/// The diagnostic for an entry the walk could not list or follow.
fn walk_error(root: &Path, path: &Path, e: &walkdir::Error) -> Diagnostic {
    let rel = rel_path(root, path);
    if let Some(ancestor) = e.loop_ancestor() {
        let message = format!(
            "is a symlink loop: it leads back to `{}`",
            rel_path(root, ancestor)
        );
        return Diagnostic::error("io", whole(rel), message);
    }
    let cause = e
        .io_error()
        .map_or_else(|| e.to_string(), |io| io.to_string());
    let message = match std::fs::read_link(path) {
        Ok(target) if e.io_error().map(|io| io.kind()) == Some(std::io::ErrorKind::NotFound) => {
            format!(
                "is a symlink to `{}`, which does not exist",
                target.display()
            )
        }
        Ok(_) => format!("cannot follow the symlink: {cause}"),
        Err(_) => format!("cannot read: {cause}"),
    };
    Diagnostic::error("io", whole(rel), message)
}
