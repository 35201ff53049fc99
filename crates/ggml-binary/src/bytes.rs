//! Checked reading of little-endian binary data, and memory-mapping of input files.
//!
//! Every read is bounds-checked and fails with a located [`Error`] instead of panicking;
//! nothing here allocates by a count read from the data.

use std::fs::File;
use std::path::Path;

use memmap2::Mmap;

use super::error::Error;

/// A read-only view of a whole file: memory-mapped, or empty for an empty file.
pub struct MappedFile {
    map: Option<Mmap>,
}

impl MappedFile {
    /// Maps `file` (opened from `path`, which names it in errors) read-only. The file is
    /// never copied into memory: pages are read on demand, so a scan that touches only
    /// headers stays small. The caller opens it, so that it can refuse a FIFO or a device
    /// before the open, as the pack's readers do.
    pub fn map(path: &Path, file: &File) -> Result<Self, Error> {
        let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
        if len == 0 {
            return Ok(MappedFile { map: None });
        }
        // SAFETY: the map is read-only and private to this process. Another process
        // truncating the file while it is mapped could make a page access fault (SIGBUS);
        // that is the accepted risk of mapping an input file, as every mmap-based reader has.
        let map = unsafe { Mmap::map(file) }.map_err(|e| Error::io(path, e))?;
        Ok(MappedFile { map: Some(map) })
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }
}

/// `data[start..start + len]`, or a located error when that range is not inside `data`.
/// `base` is the file offset of `data[0]`, `field` the file offset of the field that
/// holds the range (used in the message).
pub fn sub<'a>(
    data: &'a [u8],
    start: u64,
    len: u64,
    what: &'static str,
    field: u64,
) -> Result<&'a [u8], Error> {
    let limit = data.len() as u64;
    let out_of_bounds = || Error::OutOfBounds {
        what,
        offset: field,
        start,
        len,
        limit,
    };
    let end = start.checked_add(len).ok_or_else(out_of_bounds)?;
    if end > limit {
        return Err(out_of_bounds());
    }
    let (s, e) = (to_usize(start)?, to_usize(end)?);
    data.get(s..e).ok_or_else(out_of_bounds)
}

/// Converts a length or offset known to fit in memory (it was compared with a slice length).
pub fn to_usize(value: u64) -> Result<usize, Error> {
    usize::try_from(value).map_err(|_| Error::TooLarge {
        what: "offset",
        value,
        limit: usize::MAX as u64,
        offset: 0,
    })
}

/// Rounds `value` up to a multiple of `align` (a power of two), or `None` on overflow.
pub fn align_up(value: u64, align: u64) -> Option<u64> {
    if align <= 1 {
        return Some(value);
    }
    let rem = value % align;
    if rem == 0 {
        Some(value)
    } else {
        value.checked_add(align - rem)
    }
}

/// A bounds-checked little-endian cursor over a byte slice.
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    base: u64,
}

impl<'a> Reader<'a> {
    /// A reader over `data`, whose first byte is at file offset `base`.
    pub fn new(data: &'a [u8], base: u64) -> Self {
        Reader { data, pos: 0, base }
    }

    /// Position within the data.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// File offset of the next byte.
    pub fn offset(&self) -> u64 {
        self.base.saturating_add(self.pos as u64)
    }

    /// Bytes left.
    pub fn remaining(&self) -> u64 {
        (self.data.len() - self.pos.min(self.data.len())) as u64
    }

    /// The next `len` bytes.
    pub fn take(&mut self, len: u64, what: &'static str) -> Result<&'a [u8], Error> {
        let available = self.remaining();
        if len > available {
            return Err(Error::Truncated {
                what,
                offset: self.offset(),
                needed: len,
                available,
            });
        }
        let len = to_usize(len)?;
        let end = self.pos + len;
        let out = self.data.get(self.pos..end).ok_or(Error::Truncated {
            what,
            offset: self.offset(),
            needed: len as u64,
            available,
        })?;
        self.pos = end;
        Ok(out)
    }

    /// Skips `len` bytes.
    pub fn skip(&mut self, len: u64, what: &'static str) -> Result<(), Error> {
        self.take(len, what).map(|_| ())
    }

    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], Error> {
        let bytes = self.take(N as u64, what)?;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }

    /// A byte.
    pub fn u8(&mut self, what: &'static str) -> Result<u8, Error> {
        Ok(self.array::<1>(what)?[0])
    }

    /// A little-endian u16.
    pub fn u16(&mut self, what: &'static str) -> Result<u16, Error> {
        Ok(u16::from_le_bytes(self.array(what)?))
    }

    /// A little-endian u32.
    pub fn u32(&mut self, what: &'static str) -> Result<u32, Error> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    /// A little-endian i32.
    pub fn i32(&mut self, what: &'static str) -> Result<i32, Error> {
        Ok(i32::from_le_bytes(self.array(what)?))
    }

    /// A little-endian u64.
    pub fn u64(&mut self, what: &'static str) -> Result<u64, Error> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }

    /// A little-endian i64.
    pub fn i64(&mut self, what: &'static str) -> Result<i64, Error> {
        Ok(i64::from_le_bytes(self.array(what)?))
    }

    /// A little-endian f32.
    pub fn f32(&mut self, what: &'static str) -> Result<f32, Error> {
        Ok(f32::from_le_bytes(self.array(what)?))
    }

    /// A little-endian f64.
    pub fn f64(&mut self, what: &'static str) -> Result<f64, Error> {
        Ok(f64::from_le_bytes(self.array(what)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_and_stops_at_the_end() {
        let data = [1, 0, 2, 0, 0, 0, 9];
        let mut r = Reader::new(&data, 0x100);
        assert_eq!(r.u16("a").ok(), Some(1));
        assert_eq!(r.u32("b").ok(), Some(2));
        assert_eq!(r.offset(), 0x106);
        let err = r.u64("c").err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("truncated c at 0x106: needs 8 bytes, 1 left")
        );
        assert_eq!(r.u8("d").ok(), Some(9));
    }

    #[test]
    fn sub_rejects_overflowing_and_outside_ranges() {
        let data = [0u8; 16];
        assert!(sub(&data, 8, 8, "x", 0).is_ok());
        assert!(sub(&data, 8, 9, "x", 0).is_err());
        assert!(sub(&data, u64::MAX, 2, "x", 0).is_err());
    }

    #[test]
    fn align_up_rounds_and_detects_overflow() {
        assert_eq!(align_up(33, 32), Some(64));
        assert_eq!(align_up(64, 32), Some(64));
        assert_eq!(align_up(5, 0), Some(5));
        assert_eq!(align_up(u64::MAX, 32), None);
    }
}
