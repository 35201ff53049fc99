//! The parse cache on disk: run files parsed by an earlier build, kept in a binary form
//! under `.evidence-cache/` next to `evidence.yaml`.
//!
//! Parsing YAML is most of the time it takes to load a site with large probe runs (about
//! 10 MB/s), and a run file, once recorded, never changes. The other data files are few
//! and small, and parsed each time: the cache earned them nothing, and a decoder for every
//! record type was an eighth of the core's compiled code (PERFORMANCE.md, "The parse cache
//! holds run files"). An entry is found by a hash of the program (its version and a
//! fingerprint of the sources it was built from, made by `build.rs`), the file's path and
//! its text, so any change to one of them misses; an entry that cannot be read is parsed
//! again. An entry's name is only where to look: its first bytes are the SHA-256 of what
//! it was parsed from, and an entry whose digest is not that of the file's text now is
//! parsed again, so that an entry copied under another file's name (a cache committed to
//! the repository, say) can never stand for that file. Entries are written only after a
//! build succeeds, and entries the build did not use are removed then, so the cache holds
//! one entry per run file.

use super::read::{Limit, SOURCE, read_bytes};
use crate::diagnostics::Diagnostic;
use crate::model::Run;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The cache folder, under the site root.
pub const DIR: &str = ".evidence-cache";
const ENTRIES: &str = "parsed";
/// Largest entry read: a data file's records, encoded, from at most [`SOURCE`] of text.
const ENTRY: Limit = Limit {
    bytes: 4 * SOURCE.bytes,
    what: "a parse cache entry",
};
const TAG: &str = "Signature: 8a477f597d28d172789f06886806bc55\n\
# This file marks a cache folder made by evidence (https://bford.info/cachedir/).\n";

/// The length of the digest an entry starts with.
const DIGEST: usize = 32;

/// The cache of one site, and what one load found and parsed in it.
pub struct DiskCache {
    dir: PathBuf,
    program: &'static str,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    used: Vec<u128>,
    /// How many run files were read from the cache.
    read: usize,
    /// The run files parsed by this load, encoded, for [`DiskCache::store`].
    parsed: Vec<(u128, Vec<u8>)>,
}

impl DiskCache {
    /// The cache of the site at `root`.
    pub fn open(root: &Path) -> DiskCache {
        let program = concat!(env!("CARGO_PKG_VERSION"), " ", env!("EVIDENCE_SOURCE_HASH"));
        DiskCache {
            dir: root.join(DIR).join(ENTRIES),
            program,
            state: Mutex::new(State::default()),
        }
    }

    /// The SHA-256 of everything a parse depends on: the program, the languages a text
    /// must have (part of what a parse checked), the file's path and its text, each
    /// length-prefixed so that no two inputs run together alike.
    fn digest(&self, rel: &str, langs: &str, text: &str) -> [u8; DIGEST] {
        let mut h = Sha256::new();
        for part in [self.program, langs, rel, text] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
        h.finalize().into()
    }

    /// The cache of the site at `root` when it is this machine's own: a cache folder that
    /// git tracks (the folder or any file in it) came with the repository, from whoever
    /// committed it, and is not read; the warning to print says why and how to untrack it.
    pub fn open_own(root: &Path) -> Result<DiskCache, TrackedCache> {
        if tracked_by_git(root) {
            return Err(TrackedCache);
        }
        Ok(DiskCache::open(root))
    }

    /// The entry's name: the digest's first 128 bits.
    fn key(digest: &[u8; DIGEST]) -> u128 {
        let mut first = [0u8; 16];
        first.copy_from_slice(&digest[..16]);
        u128::from_be_bytes(first)
    }

    fn path(&self, key: u128) -> PathBuf {
        self.dir.join(format!("{key:032x}.bin"))
    }

    /// The run file `rel` with text `text`, parsed for a site in `langs` (the tags,
    /// comma-separated): from the cache, or from `parse`, whose result is kept for
    /// [`DiskCache::store`].
    pub(super) fn run(
        &self,
        rel: &str,
        langs: &str,
        text: &str,
        parse: impl FnOnce() -> Result<Run, Diagnostic>,
    ) -> Result<Run, Diagnostic> {
        let digest = self.digest(rel, langs, text);
        let key = Self::key(&digest);
        // An entry that is missing, cannot be read, was made from another text or does not
        // decode costs a parse, never a wrong result. The read is bounded and refuses a
        // FIFO all the same.
        let cached = read_bytes(&self.path(key), ENTRY)
            .ok()
            .and_then(|bytes| made_from(&bytes, &digest).map(rmp_serde::from_slice::<Run>))
            .and_then(Result::ok);
        let hit = cached.is_some();
        let (result, bytes) = match cached {
            Some(p) => (Ok(p), None),
            None => {
                let result = parse();
                let bytes = result.as_ref().ok().and_then(|p| entry(&digest, p));
                (result, bytes)
            }
        };
        if let Ok(mut st) = self.state.lock() {
            st.used.push(key);
            st.read += usize::from(hit);
            if let Some(b) = bytes {
                st.parsed.push((key, b));
            }
        }
        result
    }

    /// How many run files were read from the cache, and how many were parsed.
    pub fn counts(&self) -> (usize, usize) {
        self.state
            .lock()
            .map(|st| (st.read, st.used.len() - st.read))
            .unwrap_or_default()
    }

    /// Writes the entries this load parsed and removes those it did not use. Each entry
    /// is written to a temporary file and renamed, so none is ever half-written.
    pub fn store(self) -> std::io::Result<()> {
        let state = std::mem::take(&mut *self.state.lock().unwrap_or_else(|e| e.into_inner()));
        if state.parsed.is_empty() && !self.dir.exists() {
            return Ok(());
        }
        std::fs::create_dir_all(&self.dir)?;
        if let Some(top) = self.dir.parent() {
            let tag = top.join("CACHEDIR.TAG");
            if !tag.exists() {
                std::fs::write(tag, TAG)?;
            }
        }
        for (key, bytes) in &state.parsed {
            let mut tmp = tempfile::NamedTempFile::new_in(&self.dir)?;
            std::io::Write::write_all(&mut tmp, bytes)?;
            tmp.persist(self.path(*key)).map_err(|e| e.error)?;
        }
        let used: std::collections::HashSet<String> =
            state.used.iter().map(|k| format!("{k:032x}.bin")).collect();
        for entry in std::fs::read_dir(&self.dir)?.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.ends_with(".bin") && !used.contains(name.as_ref()) {
                std::fs::remove_file(entry.path())?;
            }
        }
        Ok(())
    }
}

/// Whether git tracks the cache folder of the site at `root` or anything in it. Only
/// asked when the folder exists; no git, or no repository, tracks nothing.
fn tracked_by_git(root: &Path) -> bool {
    if root.join(DIR).symlink_metadata().is_err() {
        return false;
    }
    std::process::Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "-z", "--cached", "--", DIR])
        .stderr(std::process::Stdio::null())
        .output()
        .is_ok_and(|out| out.status.success() && !out.stdout.is_empty())
}

/// Why the parse cache is not used: git tracks its folder, so it came with the repository.
/// `Display` is the warning, with how to untrack it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrackedCache;

impl std::fmt::Display for TrackedCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{DIR}/ is tracked by git, so it came with the repository rather than from a \
             build on this machine: the parse cache is not read or written; untrack it \
             with `git rm -r --cached {DIR}` and list it in .gitignore"
        )
    }
}

impl std::error::Error for TrackedCache {}

/// The encoded run of an entry, when its digest is `digest` (it was made from the same
/// text).
fn made_from<'a>(entry: &'a [u8], digest: &[u8; DIGEST]) -> Option<&'a [u8]> {
    let (head, run) = entry.split_at_checked(DIGEST)?;
    (head == digest).then_some(run)
}

/// An entry: the digest of what `run` was parsed from, then the run.
fn entry(digest: &[u8; DIGEST], run: &Run) -> Option<Vec<u8>> {
    let mut bytes = digest.to_vec();
    rmp_serde::encode::write_named(&mut bytes, run).ok()?;
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tracked_cache_is_refused_with_how_to_untrack_it() {
        assert_eq!(
            TrackedCache.to_string(),
            ".evidence-cache/ is tracked by git, so it came with the repository rather than \
             from a build on this machine: the parse cache is not read or written; untrack \
             it with `git rm -r --cached .evidence-cache` and list it in .gitignore"
        );
    }
}
