//! Stage 6: put the rendered site on disk, all or nothing, or compare it with what is there.
//!
//! The output folder is claimed first ([`output::Output::claim`]): only a folder an
//! earlier build wrote (it holds the [`output::MARKER`] file), an empty one or a new one
//! is accepted, and never the sources. Pages are written as they are rendered into a
//! temporary sibling folder ([`Staging`]), which then takes the place of the output
//! (`swap`). A build that fails or is killed leaves the previous output as it was.

pub mod output;
mod swap;

use crate::render::{Sink, Site};
pub use output::{MARKER, Output, OutputError};
use std::collections::{BTreeSet, HashSet};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Writes `site` to `out` atomically (from the point of view of readers of `out`), as a
/// build of the site at `root`.
pub fn write(site: &Site, root: &Path, out: &Path) -> Result<(), WriteError> {
    let output = Output::claim(root, out)?;
    let staging = Staging::new(&output)?;
    let sink = staging.sink();
    for (rel, bytes) in &site.files {
        sink.put(rel.clone(), bytes.to_vec());
    }
    sink.finish()?;
    Ok(staging.commit()?)
}

/// Why the output could not be written.
#[derive(Debug)]
pub enum WriteError {
    /// The output folder was refused; nothing was touched.
    Refused(OutputError),
    /// Writing failed; the previous output is as it was.
    Io(io::Error),
}

impl From<OutputError> for WriteError {
    fn from(e: OutputError) -> Self {
        WriteError::Refused(e)
    }
}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> Self {
        WriteError::Io(e)
    }
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Refused(e) => write!(f, "{e}"),
            WriteError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// A temporary folder next to the output that becomes the output on [`Staging::commit`];
/// dropped without a commit, it is removed and the output stays as it was. It holds the
/// marker from the start, so a build killed at any point leaves a folder the next build
/// recognises as its own and removes.
pub struct Staging<'a> {
    tmp: PathBuf,
    output: &'a Output,
    committed: bool,
}

impl<'a> Staging<'a> {
    pub fn new(output: &'a Output) -> io::Result<Staging<'a>> {
        let tmp = unique(&output.parent, &output.tmp_prefix());
        std::fs::create_dir(&tmp)?;
        let staging = Staging {
            tmp,
            output,
            committed: false,
        };
        std::fs::write(staging.tmp.join(MARKER), output::MARKER_TEXT)?;
        Ok(staging)
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
        swap::swap(&self.tmp, self.output)?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for Staging<'_> {
    fn drop(&mut self) {
        if !self.committed {
            let _ = output::remove_tree(&self.tmp);
        }
    }
}

/// Writes each file as it arrives; the first I/O error is kept for [`DirSink::finish`].
pub struct DirSink {
    dir: PathBuf,
    made: Mutex<HashSet<PathBuf>>,
    error: Mutex<Option<io::Error>>,
}

impl DirSink {
    fn try_put(&self, rel: &str, bytes: &[u8]) -> io::Result<()> {
        self.create(rel)?.write_all(bytes)
    }

    /// Keeps the first error, with the file it came from.
    fn keep(&self, rel: &str, result: io::Result<()>) {
        if let Err(e) = result
            && let Ok(mut slot) = self.error.lock()
            && slot.is_none()
        {
            *slot = Some(io::Error::new(e.kind(), format!("{rel}: {e}")));
        }
    }

    /// Creates `rel` (and its folder, once) for writing.
    fn create(&self, rel: &str) -> io::Result<std::fs::File> {
        let path = self.dir.join(rel);
        if let Some(p) = path.parent() {
            let known = self.made.lock().is_ok_and(|m| m.contains(p));
            // Made first, noted after: a folder noted before it exists would let another
            // thread write into it too early. Two threads may both make it; that is harmless.
            if !known {
                std::fs::create_dir_all(p)?;
                if let Ok(mut m) = self.made.lock() {
                    m.insert(p.to_path_buf());
                }
            }
        }
        std::fs::File::create(&path)
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
        let result = self.try_put(&path, &bytes);
        self.keep(&path, result);
    }

    /// Writes the pieces through a buffer of a megabyte: the export of a site with many
    /// probe runs is hundreds of megabytes, never held whole.
    fn put_pieces(&self, path: String, write: &mut crate::render::Pieces) {
        let result = self.create(&path).and_then(|file| {
            let mut out = io::BufWriter::with_capacity(1 << 20, file);
            let mut result = Ok(());
            write(&mut |piece| {
                if result.is_ok() {
                    result = out.write_all(piece);
                }
            });
            result?;
            out.flush()
        });
        self.keep(&path, result);
    }
}

/// A path in `dir` starting with `prefix` that does not exist yet.
pub(crate) fn unique(dir: &Path, prefix: &str) -> PathBuf {
    let pid = std::process::id();
    (0u32..)
        .map(|i| dir.join(format!("{prefix}{pid}-{i}")))
        .find(|p| std::fs::symlink_metadata(p).is_err())
        .unwrap_or_else(|| dir.join(format!("{prefix}{pid}")))
}

/// How the output on disk differs from a fresh build.
#[derive(Debug, Default, PartialEq)]
pub struct Staleness {
    pub changed: Vec<String>,
    pub missing: Vec<String>,
    /// Regular files the build did not produce.
    pub extra: Vec<String>,
    /// Entries that are not a regular file or folder the build writes, each with what it
    /// is: a symlink (never followed), a FIFO or other special file, an empty folder the
    /// build does not make, a folder that cannot be listed. A publishing step that
    /// follows links would ship what a link points to.
    pub foreign: Vec<String>,
}

impl Staleness {
    pub fn is_fresh(&self) -> bool {
        self.changed.is_empty()
            && self.missing.is_empty()
            && self.extra.is_empty()
            && self.foreign.is_empty()
    }
}

/// Compares `site` with the files under `out`.
pub fn compare(site: &Site, out: &Path) -> Staleness {
    let sink = CompareSink::new(out);
    for (rel, bytes) in &site.files {
        sink.put(rel.clone(), bytes.to_vec());
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

    /// What differs; regular files on disk that the build did not produce are `extra`,
    /// every other entry it would not write is `foreign`.
    pub fn finish(self) -> Staleness {
        let (produced, mut st) = self.seen.into_inner().unwrap_or_default();
        st.changed.sort();
        st.missing.sort();
        let (extra, foreign) = unwritten(&self.out, &produced);
        st.extra = extra;
        st.foreign = foreign;
        st
    }
}

/// The entries under `out` that a build producing `produced` would not write: regular
/// files by path, and every other entry by path and what it is. Nothing is followed: a
/// symlink is reported, never read or listed through.
fn unwritten(out: &Path, produced: &BTreeSet<String>) -> (Vec<String>, Vec<String>) {
    let folders: BTreeSet<&str> = produced
        .iter()
        .flat_map(|p| p.match_indices('/').map(move |(i, _)| &p[..i]))
        .collect();
    let mut extra = Vec::new();
    let mut foreign = Vec::new();
    let walk = walkdir::WalkDir::new(out)
        .follow_links(false)
        .follow_root_links(false)
        .sort_by_file_name();
    for entry in walk {
        let entry = match entry {
            Ok(e) => e,
            Err(e) if e.depth() == 0 && is_not_found(&e) => break,
            Err(e) => {
                let rel = e.path().map_or_else(String::new, |p| rel_path(out, p));
                foreign.push(format!("{rel} (cannot be listed: {e})"));
                continue;
            }
        };
        let rel = rel_path(out, entry.path());
        let t = entry.file_type();
        if entry.depth() == 0 {
            if !t.is_dir() {
                foreign.push(format!(
                    "{} ({}, not a folder)",
                    out.display(),
                    kind(&entry)
                ));
            }
            continue;
        }
        if t.is_file() {
            let ours = produced.contains(&rel) || (rel == MARKER && entry.depth() == 1);
            if !ours {
                extra.push(rel);
            }
        } else if t.is_dir() {
            // A folder the build does not make is named when it is empty; anything in it
            // is named itself.
            if !folders.contains(rel.as_str()) && is_empty_folder(entry.path()) {
                foreign.push(format!("{rel} (a folder)"));
            }
        } else {
            foreign.push(format!("{rel} ({})", kind(&entry)));
        }
    }
    (extra, foreign)
}

/// What a listed entry that is not a regular file is, in words; a symlink with its target.
fn kind(entry: &walkdir::DirEntry) -> String {
    let t = entry.file_type();
    if t.is_symlink() {
        return match std::fs::read_link(entry.path()) {
            Ok(to) => format!("a symlink to `{}`", to.display()),
            Err(_) => "a symlink".to_string(),
        };
    }
    crate::load::read::kind_of(t).to_string()
}

fn is_not_found(e: &walkdir::Error) -> bool {
    e.io_error()
        .is_some_and(|io| io.kind() == io::ErrorKind::NotFound)
}

fn is_empty_folder(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut e| e.next().is_none())
}

/// `dir`-relative, `/`-separated.
fn rel_path(dir: &Path, path: &Path) -> String {
    crate::diagnostics::rel_path(dir, path)
}

/// What is at an output path, as `build --check` compares it.
enum OnDisk {
    Missing,
    File(Vec<u8>),
    /// A symlink, a folder or a special file: never read, and named by [`unwritten`].
    Other,
}

/// Reads the regular file at `path` without following a symlink in its last component
/// and without waiting on a FIFO put there.
fn on_disk(path: &Path) -> OnDisk {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_file() => {}
        Ok(_) => return OnDisk::Other,
        Err(_) => return OnDisk::Missing,
    }
    let Ok(file) = open_no_follow(path) else {
        return OnDisk::Other;
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return OnDisk::Other;
    }
    let mut bytes = Vec::new();
    match io::Read::read_to_end(&mut &file, &mut bytes) {
        Ok(_) => OnDisk::File(bytes),
        Err(_) => OnDisk::Missing,
    }
}

/// Opens for reading, refusing a symlink (`O_NOFOLLOW`) and never blocking (`O_NONBLOCK`).
#[cfg(target_os = "linux")]
fn open_no_follow(path: &Path) -> io::Result<std::fs::File> {
    use rustix::fs::OFlags;
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags((OFlags::NOFOLLOW | OFlags::NONBLOCK).bits() as i32)
        .open(path)
}

#[cfg(not(target_os = "linux"))]
fn open_no_follow(path: &Path) -> io::Result<std::fs::File> {
    std::fs::File::open(path)
}

impl Sink for CompareSink {
    fn put(&self, path: String, bytes: Vec<u8>) {
        let status = match on_disk(&self.out.join(&path)) {
            OnDisk::File(b) if b == bytes => None,
            OnDisk::File(_) => Some(true),
            OnDisk::Missing => Some(false),
            OnDisk::Other => None,
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
                .map(|(k, v)| (k.to_string(), v.as_bytes().into()))
                .collect(),
        }
    }

    /// The names in `dir`, sorted with the output first.
    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort_by_key(|n| (n != "site", n.clone()));
        names
    }

    #[test]
    fn writes_and_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        write(
            &site(&[("a/index.html", "1"), ("b.txt", "x")]),
            dir.path(),
            &out,
        )
        .unwrap();
        write(&site(&[("a/index.html", "2")]), dir.path(), &out).unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("a/index.html")).unwrap(),
            "2"
        );
        assert!(!out.join("b.txt").exists());
        assert_eq!(entries(dir.path()), ["site"], "no temporary folders remain");
        assert!(out.join(MARKER).is_file(), "the output is marked");
    }

    /// A file handed over in pieces is written whole, in order, into its folder; one
    /// that cannot be written is the error `finish` gives, naming it.
    #[test]
    fn a_file_in_pieces_is_written_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        let output = Output::claim(dir.path(), &out).unwrap();
        let staging = Staging::new(&output).unwrap();
        let sink = staging.sink();
        let big = vec![b'x'; 3 << 20];
        sink.put_pieces("d/e.json".into(), &mut |piece| {
            piece(b"{");
            piece(&big);
            piece(b"}");
        });
        sink.put("f".into(), b"file".to_vec());
        sink.put_pieces("f/g.json".into(), &mut |piece| piece(b"lost"));
        let e = sink.finish().unwrap_err();
        assert!(e.to_string().starts_with("f/g.json: "), "{e}");
        let written = std::fs::read(staging.tmp.join("d/e.json")).unwrap();
        assert_eq!(written.len(), big.len() + 2);
        assert!(written.starts_with(b"{x") && written.ends_with(b"x}"));
    }

    #[test]
    fn an_abandoned_staging_leaves_the_output() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        write(&site(&[("a.html", "old")]), dir.path(), &out).unwrap();
        {
            let output = Output::claim(dir.path(), &out).unwrap();
            let staging = Staging::new(&output).unwrap();
            staging.sink().put("a.html".into(), b"new".to_vec());
        }
        assert_eq!(std::fs::read_to_string(out.join("a.html")).unwrap(), "old");
        assert_eq!(entries(dir.path()), ["site"]);
    }

    #[test]
    fn compare_finds_changes() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        write(&site(&[("a.html", "1"), ("b.html", "2")]), dir.path(), &out).unwrap();
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

    /// An output that is itself a link to a copy of the build is not up to date: what
    /// it points to is not the build's.
    #[test]
    fn compare_names_a_linked_output() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        write(&site(&[("a.html", "1")]), dir.path(), &real).unwrap();
        let out = dir.path().join("site");
        std::os::unix::fs::symlink(&real, &out).unwrap();
        let st = compare(&site(&[("a.html", "1")]), &out);
        assert_eq!(st.foreign.len(), 1, "{st:?}");
        assert!(st.foreign[0].contains("a symlink to"), "{st:?}");
        assert!(!st.is_fresh());
    }
}
