//! Finding the fat-binary section of a host shared library (ELF, or PE).
//!
//! Uses the `object` crate's read side only. The section's bytes are a sub-slice of the
//! memory-mapped file: nothing is copied. A section whose header claims more bytes than the
//! file holds is returned with the bytes that are there and a recorded truncation.

use object::{Object, ObjectSection};
use serde::{Deserialize, Serialize};

use super::error::Error;

/// Section names that hold HIP offload bundles: ELF, then PE (names are at most 8 bytes).
pub const FATBIN_SECTIONS: &[&str] = &[".hip_fatbin", ".hip_fat"];

/// Where a section lies in its file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionInfo {
    /// Section name.
    pub name: String,
    /// File offset of its first byte.
    pub file_offset: u64,
    /// Size the section header gives.
    pub size: u64,
    /// Bytes of it that are in the file (less than `size` when the file is truncated).
    pub available: u64,
}

/// A section found in an object file: its place and its bytes.
pub struct Section<'a> {
    /// Place and size.
    pub info: SectionInfo,
    /// Its bytes (only those present in the file).
    pub data: &'a [u8],
}

/// The first section of `file` named one of `names`.
pub fn find_section<'a>(file: &'a [u8], names: &[&str]) -> Result<Option<Section<'a>>, Error> {
    let object = object::File::parse(file).map_err(|e| Error::NotObject {
        message: e.to_string(),
    })?;
    for name in names {
        if let Some(section) = object.section_by_name(name) {
            return Ok(Some(section_bytes(file, name, &section)));
        }
    }
    Ok(None)
}

fn section_bytes<'a>(file: &'a [u8], name: &str, section: &object::Section<'_, '_>) -> Section<'a> {
    let (offset, size) = section.file_range().unwrap_or((0, 0));
    let len = file.len() as u64;
    let start = offset.min(len);
    let end = offset.saturating_add(size).min(len);
    let data = usize::try_from(start)
        .ok()
        .zip(usize::try_from(end).ok())
        .and_then(|(s, e)| file.get(s..e))
        .unwrap_or(&[]);
    Section {
        info: SectionInfo {
            name: name.to_string(),
            file_offset: offset,
            size,
            available: data.len() as u64,
        },
        data,
    }
}
