//! Clang offload bundles: the plain bundle layout, bundle entry ids, and the walk that finds
//! every bundle in a fat-binary section.
//!
//! A plain bundle is `"__CLANG_OFFLOAD_BUNDLE__"`, a u64 entry count, then per entry a u64
//! offset (from the bundle start), a u64 size, a u64 id length and the id (no NUL), e.g.
//! `hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+` or `host-x86_64-unknown-linux--`. A compressed
//! bundle starts with `"CCOB"` (see [`super::ccob`]). A `.hip_fatbin` section holds many
//! bundles, usually 4096-aligned with zero padding; the walk does not rely on that alignment:
//! it skips zero bytes, recognises either magic, and searches for the next magic after
//! anything else, recording what it skipped.

use memchr::memmem;
use serde::{Deserialize, Serialize};

use super::bytes::{Reader, sub};
use super::error::{Error, Warning};

/// Magic of a plain offload bundle.
pub const PLAIN_MAGIC: &[u8] = b"__CLANG_OFFLOAD_BUNDLE__";
/// Magic of a compressed offload bundle.
pub const COMPRESSED_MAGIC: &[u8] = b"CCOB";

/// Bytes of one entry-table record before its id.
const ENTRY_FIXED: u64 = 24;
/// Longest entry id accepted (real ids are under 100 bytes).
const MAX_ID_LEN: u64 = 4096;

/// One entry of a plain bundle's table, with its bytes when they lie inside the bundle data.
pub struct RawEntry<'a> {
    /// The entry id as written.
    pub id: String,
    /// Offset from the bundle start.
    pub offset: u64,
    /// Size in bytes.
    pub size: u64,
    /// File offset of the entry's table record.
    pub record_offset: u64,
    /// The entry's bytes, or the error that says why they are not there.
    pub data: Result<&'a [u8], Error>,
}

/// A parsed plain bundle.
pub struct PlainBundle<'a> {
    /// Entries in table order.
    pub entries: Vec<RawEntry<'a>>,
    /// Bytes from the bundle start to the end of its last entry (or of its table).
    pub extent: u64,
}

/// Parses the plain bundle at the start of `data` (`base` = file offset of `data[0]`).
/// The entry count is checked against the bytes left before anything is read; an entry
/// whose bytes lie outside `data` keeps its table values and gets an error instead of bytes.
pub fn parse_plain(data: &[u8], base: u64) -> Result<PlainBundle<'_>, Error> {
    let mut r = Reader::new(data, base);
    let magic = r.take(PLAIN_MAGIC.len() as u64, "offload bundle magic")?;
    if magic != PLAIN_MAGIC {
        return Err(Error::BadMagic {
            what: "clang offload bundle",
            offset: base,
        });
    }
    let count_at = r.offset();
    let count = r.u64("offload bundle entry count")?;
    let limit = r.remaining() / ENTRY_FIXED;
    if count > limit {
        return Err(Error::TooLarge {
            what: "offload bundle entry count",
            value: count,
            limit,
            offset: count_at,
        });
    }
    let mut entries = Vec::new();
    let mut extent = 0u64;
    for _ in 0..count {
        let entry = read_entry(&mut r, data)?;
        if entry.data.is_ok() {
            extent = extent.max(entry.offset.saturating_add(entry.size));
        }
        entries.push(entry);
    }
    extent = extent.max(r.pos() as u64);
    Ok(PlainBundle { entries, extent })
}

fn read_entry<'a>(r: &mut Reader<'a>, data: &'a [u8]) -> Result<RawEntry<'a>, Error> {
    let record_offset = r.offset();
    let offset = r.u64("offload bundle entry offset")?;
    let size = r.u64("offload bundle entry size")?;
    let id_at = r.offset();
    let id_len = r.u64("offload bundle entry id length")?;
    if id_len > MAX_ID_LEN {
        return Err(Error::TooLarge {
            what: "offload bundle entry id length",
            value: id_len,
            limit: MAX_ID_LEN,
            offset: id_at,
        });
    }
    let id = String::from_utf8_lossy(r.take(id_len, "offload bundle entry id")?).into_owned();
    let data = sub(data, offset, size, "offload bundle entry", record_offset);
    Ok(RawEntry {
        id,
        offset,
        size,
        record_offset,
        data,
    })
}

/// A bundle entry id split into its parts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryId {
    /// Offload kind: `hipv4`, `hip`, `host`, `openmp`, …
    pub kind: String,
    /// Target triple: `amdgcn-amd-amdhsa-` (empty environment) or `x86_64-unknown-linux-gnu`.
    pub triple: String,
    /// Target id with features (`gfx90a:xnack+`), absent for host entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_id: Option<String>,
    /// Processor (`gfx90a`), absent for host entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processor: Option<String>,
    /// Target features in order (`xnack+`, `sramecc-`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
}

/// Splits `kind-arch-vendor-os[-env[-target_id]]`. The target id may itself end in `-`
/// (`gfx900:xnack-`), so the split stops after the fifth dash.
pub fn parse_entry_id(id: &str) -> EntryId {
    let mut parts = id.splitn(6, '-');
    let kind = parts.next().unwrap_or_default().to_string();
    let triple_parts: Vec<&str> = parts.by_ref().take(4).collect();
    let triple = triple_parts.join("-");
    let target = parts.next().filter(|t| !t.is_empty()).map(str::to_string);
    let (processor, features) = match &target {
        Some(t) => {
            let mut pieces = t.split(':');
            let processor = pieces.next().map(str::to_string);
            (processor, pieces.map(str::to_string).collect())
        }
        None => (None, Vec::new()),
    };
    EntryId {
        kind,
        triple,
        target_id: target,
        processor,
        features,
    }
}

/// What the walk found at one place of the section.
#[derive(Debug, PartialEq, Eq)]
pub enum Found {
    /// A plain bundle starts here.
    Plain(usize),
    /// A compressed bundle starts here.
    Compressed(usize),
}

/// Walks a section from bundle to bundle: [`BundleWalk::next`] skips zero padding, returns
/// the next magic, and records a warning for non-zero bytes that are not a bundle.
pub struct BundleWalk<'a> {
    data: &'a [u8],
    base: u64,
    pos: usize,
    plain: memmem::Finder<'static>,
    compressed: memmem::Finder<'static>,
}

impl<'a> BundleWalk<'a> {
    /// A walk over `data`, a section whose first byte is at file offset `base`.
    pub fn new(data: &'a [u8], base: u64) -> Self {
        BundleWalk {
            data,
            base,
            pos: 0,
            plain: memmem::Finder::new(PLAIN_MAGIC),
            compressed: memmem::Finder::new(COMPRESSED_MAGIC),
        }
    }

    /// Continues after a bundle that ended at `pos` (relative to the section).
    pub fn resume_at(&mut self, pos: usize) {
        self.pos = pos.max(self.pos);
    }

    /// Continues one byte after `start`: used when the bundle there turned out bad.
    pub fn resume_after(&mut self, start: usize) {
        self.pos = start.saturating_add(1).max(self.pos);
    }

    /// The next bundle start, skipping zero bytes; unrecognised bytes before it are
    /// reported through `warnings`.
    pub fn next(&mut self, warnings: &mut Vec<Warning>) -> Option<Found> {
        let rest = self.data.get(self.pos..)?;
        let nonzero = rest.iter().position(|&b| b != 0)?;
        let at = self.pos + nonzero;
        let tail = self.data.get(at..)?;
        if tail.starts_with(PLAIN_MAGIC) {
            self.pos = at;
            return Some(Found::Plain(at));
        }
        if tail.starts_with(COMPRESSED_MAGIC) {
            self.pos = at;
            return Some(Found::Compressed(at));
        }
        let next = self.find_magic(at);
        let end = next.as_ref().map_or(self.data.len(), |f| match f {
            Found::Plain(p) | Found::Compressed(p) => *p,
        });
        warnings.push(Warning::new(
            "unrecognised-bytes",
            Some(self.base.saturating_add(at as u64)),
            format!(
                "{} bytes at {:#x} are neither zero padding nor an offload bundle",
                end - at,
                self.base.saturating_add(at as u64)
            ),
        ));
        self.pos = end;
        next
    }

    fn find_magic(&self, from: usize) -> Option<Found> {
        let hay = self.data.get(from..)?;
        let plain = self.plain.find(hay).map(|p| from + p);
        let compressed = self.compressed.find(hay).map(|p| from + p);
        match (plain, compressed) {
            (Some(p), Some(c)) if c < p => Some(Found::Compressed(c)),
            (Some(p), _) => Some(Found::Plain(p)),
            (None, Some(c)) => Some(Found::Compressed(c)),
            (None, None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_ids_split_into_kind_triple_and_target() {
        let id = parse_entry_id("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+");
        assert_eq!(id.kind, "hipv4");
        assert_eq!(id.triple, "amdgcn-amd-amdhsa-");
        assert_eq!(id.target_id.as_deref(), Some("gfx90a:xnack+"));
        assert_eq!(id.processor.as_deref(), Some("gfx90a"));
        assert_eq!(id.features, vec!["xnack+".to_string()]);

        let id = parse_entry_id("hipv4-amdgcn-amd-amdhsa--gfx900:xnack-");
        assert_eq!(id.features, vec!["xnack-".to_string()]);

        let host = parse_entry_id("host-x86_64-unknown-linux--");
        assert_eq!(host.kind, "host");
        assert_eq!(host.triple, "x86_64-unknown-linux-");
        assert_eq!(host.target_id, None);

        let short = parse_entry_id("host-x86_64-unknown-linux");
        assert_eq!(short.triple, "x86_64-unknown-linux");
        let empty = parse_entry_id("");
        assert_eq!(empty.kind, "");
    }

    fn bundle(entries: &[(u64, u64, &str)]) -> Vec<u8> {
        let mut out = PLAIN_MAGIC.to_vec();
        out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
        for (offset, size, id) in entries {
            out.extend_from_slice(&offset.to_le_bytes());
            out.extend_from_slice(&size.to_le_bytes());
            out.extend_from_slice(&(id.len() as u64).to_le_bytes());
            out.extend_from_slice(id.as_bytes());
        }
        out
    }

    #[test]
    fn an_entry_past_the_end_keeps_its_record_and_an_error() {
        let mut data = bundle(&[(0, 0, "host-x86_64-unknown-linux--"), (200, 64, "hipv4-x")]);
        data.resize(128, 0);
        let parsed = parse_plain(&data, 0).expect("parses");
        assert_eq!(parsed.entries.len(), 2);
        assert!(parsed.entries[0].data.is_ok());
        assert!(matches!(
            parsed.entries[1].data,
            Err(Error::OutOfBounds { .. })
        ));
    }

    #[test]
    fn a_huge_entry_count_is_refused_before_reading() {
        let mut data = PLAIN_MAGIC.to_vec();
        data.extend_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(parse_plain(&data, 0), Err(Error::TooLarge { .. })));
    }

    #[test]
    fn the_walk_skips_padding_and_reports_junk() {
        let mut data = vec![0u8; 16];
        data.extend_from_slice(b"junk");
        data.extend_from_slice(&[0u8; 4]);
        data.extend_from_slice(PLAIN_MAGIC);
        let mut walk = BundleWalk::new(&data, 0x1000);
        let mut warnings = Vec::new();
        assert_eq!(walk.next(&mut warnings), Some(Found::Plain(24)));
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].offset, Some(0x1010));
        walk.resume_after(24);
        assert_eq!(walk.next(&mut warnings), None);
        assert_eq!(warnings.len(), 2);
    }
}
