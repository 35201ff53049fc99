//! The parse cache on disk: data files parsed by an earlier build, kept in a binary form
//! under `.evidence-cache/` next to `evidence.yaml`.
//!
//! Parsing YAML is most of the time it takes to load a site with large probe runs (about
//! 10 MB/s), and a run file, once recorded, never changes. An entry is found by a hash of
//! the program (its version and a fingerprint of the sources it was built from, made by
//! `build.rs`), the file's path and its text, so any change to one of them misses; an entry
//! that cannot be read is parsed again. Entries are written only after a build succeeds,
//! and entries the build did not use are removed then, so the cache holds one entry per
//! data file.

use super::Parsed;
use super::read::{Limit, SOURCE, read_bytes};
use crate::diagnostics::Diagnostic;
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

/// The cache of one site, and what one load found and parsed in it.
pub struct DiskCache {
    dir: PathBuf,
    program: u128,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    used: Vec<u128>,
    /// How many files were read from the cache.
    read: usize,
    /// The files parsed by this load, encoded, for [`DiskCache::store`].
    parsed: Vec<(u128, Vec<u8>)>,
}

impl DiskCache {
    /// The cache of the site at `root`.
    pub fn open(root: &Path) -> DiskCache {
        let program = concat!(env!("CARGO_PKG_VERSION"), " ", env!("EVIDENCE_SOURCE_HASH"));
        DiskCache {
            dir: root.join(DIR).join(ENTRIES),
            program: xxhash_rust::xxh3::xxh3_128(program.as_bytes()),
            state: Mutex::new(State::default()),
        }
    }

    fn key(&self, rel: &str, langs: &str, text: &str) -> u128 {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(&self.program.to_le_bytes());
        // The languages a text must have are part of what a parse checked.
        h.update(&(langs.len() as u64).to_le_bytes());
        h.update(langs.as_bytes());
        h.update(&(rel.len() as u64).to_le_bytes());
        h.update(rel.as_bytes());
        h.update(text.as_bytes());
        h.digest128()
    }

    fn path(&self, key: u128) -> PathBuf {
        self.dir.join(format!("{key:032x}.bin"))
    }

    /// The data file `rel` with text `text`, parsed for a site in `langs` (the tags,
    /// comma-separated): from the cache, or from `parse`, whose result is kept for
    /// [`DiskCache::store`].
    pub(super) fn parse(
        &self,
        rel: &str,
        langs: &str,
        text: &str,
        parse: impl FnOnce() -> Result<Parsed, Diagnostic>,
    ) -> Result<Parsed, Diagnostic> {
        let key = self.key(rel, langs, text);
        // The cache is this tool's own output, not the user's data: an entry that is
        // missing, cannot be read or does not decode costs a parse, never a wrong result
        // (its key covers the text). The read is bounded and refuses a FIFO all the same.
        let cached = read_bytes(&self.path(key), ENTRY)
            .ok()
            .and_then(|bytes| rmp_serde::from_slice::<Parsed>(&bytes).ok());
        let hit = cached.is_some();
        let (result, bytes) = match cached {
            Some(p) => (Ok(p), None),
            None => {
                let result = parse();
                let bytes = result
                    .as_ref()
                    .ok()
                    .and_then(|p| rmp_serde::to_vec_named(p).ok());
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

    /// How many data files were read from the cache, and how many were parsed.
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
