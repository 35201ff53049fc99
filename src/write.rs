//! Stage 6: put the rendered site on disk, all or nothing, or compare it with what is there.
//!
//! Pages are written as they are rendered into a temporary sibling folder
//! ([`Staging`]), which then takes the place of the output folder by rename. A build that
//! fails or is interrupted before the swap leaves the previous output as it was.

use crate::render::{Sink, Site};
use std::collections::{BTreeSet, HashSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Writes `site` to `out` atomically (from the point of view of readers of `out`).
pub fn write(site: &Site, out: &Path) -> io::Result<()> {
    let staging = Staging::new(out)?;
    let sink = staging.sink();
    for (rel, bytes) in &site.files {
        sink.put(rel.clone(), bytes.clone());
    }
    sink.finish()?;
    staging.commit()
}

/// A temporary folder next to the output that becomes the output on [`Staging::commit`];
/// dropped without a commit, it is removed and the output stays as it was.
pub struct Staging {
    tmp: PathBuf,
    out: PathBuf,
    committed: bool,
}

impl Staging {
    pub fn new(out: &Path) -> io::Result<Staging> {
        let parent = parent_of(out);
        std::fs::create_dir_all(parent)?;
        let tmp = unique(parent, &format!("{}.tmp-", name_of(out)));
        std::fs::create_dir_all(&tmp)?;
        Ok(Staging {
            tmp,
            out: out.to_path_buf(),
            committed: false,
        })
    }

    /// A sink that writes files into the temporary folder.
    pub fn sink(&self) -> DirSink {
        DirSink {
            dir: self.tmp.clone(),
            made: Mutex::new(HashSet::new()),
            error: Mutex::new(None),
        }
    }

    /// Swaps the temporary folder in place of the output.
    pub fn commit(mut self) -> io::Result<()> {
        swap(&self.tmp, &self.out)?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.tmp);
        }
    }
}

fn parent_of(out: &Path) -> &Path {
    out.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

fn name_of(out: &Path) -> &str {
    out.file_name().and_then(|n| n.to_str()).unwrap_or("site")
}

/// Writes each file as it arrives; the first I/O error is kept for [`DirSink::finish`].
pub struct DirSink {
    dir: PathBuf,
    made: Mutex<HashSet<PathBuf>>,
    error: Mutex<Option<io::Error>>,
}

impl DirSink {
    fn try_put(&self, rel: &str, bytes: &[u8]) -> io::Result<()> {
        let path = self.dir.join(rel);
        if let Some(p) = path.parent() {
            let new = self
                .made
                .lock()
                .map(|mut m| m.insert(p.to_path_buf()))
                .unwrap_or(true);
            if new {
                std::fs::create_dir_all(p)?;
            }
        }
        std::fs::write(&path, bytes)
    }

    /// The first write error, if any.
    pub fn finish(self) -> io::Result<()> {
        match self.error.into_inner().ok().flatten() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Sink for DirSink {
    /// Makes the page folders up front, one after another: threads creating entries in
    /// one parent folder (`docs/` with 10,000 pages) queue on its lock, and on ext4 two
    /// of them took more than twice as long as one.
    fn prepare(&self, folders: &[String]) {
        let Ok(mut made) = self.made.lock() else {
            return;
        };
        for f in folders {
            let path = self.dir.join(f);
            if made.contains(&path) {
                continue;
            }
            // A failure shows again, and is reported, when the page is written.
            if std::fs::create_dir_all(&path).is_ok() {
                made.insert(path);
            }
        }
    }

    fn put(&self, path: String, bytes: Vec<u8>) {
        if let Err(e) = self.try_put(&path, &bytes)
            && let Ok(mut slot) = self.error.lock()
            && slot.is_none()
        {
            *slot = Some(io::Error::new(e.kind(), format!("{path}: {e}")));
        }
    }
}

/// Moves the old output aside, the new one in, and removes the old one.
fn swap(tmp: &Path, out: &Path) -> io::Result<()> {
    if out.exists() {
        let old = unique(parent_of(out), &format!(".{}.old-", name_of(out)));
        std::fs::rename(out, &old)?;
        if let Err(e) = std::fs::rename(tmp, out) {
            let _ = std::fs::rename(&old, out);
            return Err(e);
        }
        remove_tree(&old)?;
    } else {
        std::fs::rename(tmp, out)?;
    }
    Ok(())
}

/// Removes a folder tree, its top-level entries in parallel: on a file system that
/// discards freed blocks each folder's removal waits on the disk, and the waits overlap.
fn remove_tree(dir: &Path) -> io::Result<()> {
    use rayon::prelude::*;
    let entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<io::Result<_>>()?;
    entries.par_iter().try_for_each(|p| {
        if p.is_dir() && !p.is_symlink() {
            std::fs::remove_dir_all(p)
        } else {
            std::fs::remove_file(p)
        }
    })?;
    std::fs::remove_dir(dir)
}

/// A path in `dir` starting with `prefix` that does not exist yet.
fn unique(dir: &Path, prefix: &str) -> PathBuf {
    let pid = std::process::id();
    (0u32..)
        .map(|i| dir.join(format!("{prefix}{pid}-{i}")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| dir.join(format!("{prefix}{pid}")))
}

/// How the output on disk differs from a fresh build.
#[derive(Debug, Default, PartialEq)]
pub struct Staleness {
    pub changed: Vec<String>,
    pub missing: Vec<String>,
    pub extra: Vec<String>,
}

impl Staleness {
    pub fn is_fresh(&self) -> bool {
        self.changed.is_empty() && self.missing.is_empty() && self.extra.is_empty()
    }
}

/// Compares `site` with the files under `out`.
pub fn compare(site: &Site, out: &Path) -> Staleness {
    let sink = CompareSink::new(out);
    for (rel, bytes) in &site.files {
        sink.put(rel.clone(), bytes.clone());
    }
    sink.finish()
}

/// Compares each file as it arrives with the same file under the output folder.
pub struct CompareSink {
    out: PathBuf,
    seen: Mutex<(BTreeSet<String>, Staleness)>,
}

impl CompareSink {
    pub fn new(out: &Path) -> CompareSink {
        CompareSink {
            out: out.to_path_buf(),
            seen: Mutex::new(Default::default()),
        }
    }

    /// What differs; files on disk that the build did not produce are `extra`.
    pub fn finish(self) -> Staleness {
        let (produced, mut st) = self.seen.into_inner().unwrap_or_default();
        st.changed.sort();
        st.missing.sort();
        st.extra = crate::load::files_under(&self.out)
            .into_iter()
            .filter(|f| !produced.contains(f))
            .collect();
        st
    }
}

impl Sink for CompareSink {
    fn put(&self, path: String, bytes: Vec<u8>) {
        let status = match std::fs::read(self.out.join(&path)) {
            Ok(b) if b == bytes => None,
            Ok(_) => Some(true),
            Err(_) => Some(false),
        };
        if let Ok(mut seen) = self.seen.lock() {
            match status {
                Some(true) => seen.1.changed.push(path.clone()),
                Some(false) => seen.1.missing.push(path.clone()),
                None => {}
            }
            seen.0.insert(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(files: &[(&str, &str)]) -> Site {
        Site {
            files: files
                .iter()
                .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
                .collect(),
        }
    }

    #[test]
    fn writes_and_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        write(&site(&[("a/index.html", "1"), ("b.txt", "x")]), &out).unwrap();
        write(&site(&[("a/index.html", "2")]), &out).unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("a/index.html")).unwrap(),
            "2"
        );
        assert!(!out.join("b.txt").exists());
        let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary folders remain");
    }

    #[test]
    fn an_abandoned_staging_leaves_the_output() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        write(&site(&[("a.html", "old")]), &out).unwrap();
        {
            let staging = Staging::new(&out).unwrap();
            staging.sink().put("a.html".into(), b"new".to_vec());
        }
        assert_eq!(std::fs::read_to_string(out.join("a.html")).unwrap(), "old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn compare_finds_changes() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        write(&site(&[("a.html", "1"), ("b.html", "2")]), &out).unwrap();
        let st = compare(
            &site(&[("a.html", "1"), ("b.html", "3"), ("c.html", "")]),
            &out,
        );
        assert_eq!(st.changed, vec!["b.html"]);
        assert_eq!(st.missing, vec!["c.html"]);
        assert!(st.extra.is_empty());
        let st = compare(&site(&[("a.html", "1")]), &out);
        assert_eq!(st.extra, vec!["b.html"]);
    }
}
