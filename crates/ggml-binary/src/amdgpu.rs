//! AMDGPU code objects: the ELF header fields (`e_flags` processor and features, code
//! object version from the ABI version) and the `NT_AMDGPU_METADATA` note's kernels.
//!
//! The note (owner `AMDGPU`, type 32) is a MessagePack map read with `rmp-serde` into typed
//! structs; unknown keys (`.args`, …) are skipped. Only the ELF header, section and program
//! header tables and the note bytes are touched, never the code.

use object::Endianness;
use object::read::elf::{FileHeader, ProgramHeader, SectionHeader};
use serde::{Deserialize, Serialize};

use super::error::Error;

/// `e_machine` of AMDGPU code objects.
pub const EM_AMDGPU: u16 = 224;
/// `EI_OSABI` of the HSA runtime.
pub const ELFOSABI_AMDGPU_HSA: u8 = 64;
/// Note type of the MessagePack metadata.
pub const NT_AMDGPU_METADATA: u32 = 32;

/// `EF_AMDGPU_MACH` values (`e_flags & 0xff`) and their processor names.
pub const MACHS: &[(u32, &str)] = &[
    (0x20, "gfx600"),
    (0x21, "gfx601"),
    (0x22, "gfx700"),
    (0x23, "gfx701"),
    (0x24, "gfx702"),
    (0x25, "gfx703"),
    (0x26, "gfx704"),
    (0x28, "gfx801"),
    (0x29, "gfx802"),
    (0x2a, "gfx803"),
    (0x2b, "gfx810"),
    (0x2c, "gfx900"),
    (0x2d, "gfx902"),
    (0x2e, "gfx904"),
    (0x2f, "gfx906"),
    (0x30, "gfx908"),
    (0x31, "gfx909"),
    (0x32, "gfx90c"),
    (0x33, "gfx1010"),
    (0x34, "gfx1011"),
    (0x35, "gfx1012"),
    (0x36, "gfx1030"),
    (0x37, "gfx1031"),
    (0x38, "gfx1032"),
    (0x39, "gfx1033"),
    (0x3a, "gfx602"),
    (0x3b, "gfx705"),
    (0x3c, "gfx805"),
    (0x3d, "gfx1035"),
    (0x3e, "gfx1034"),
    (0x3f, "gfx90a"),
    (0x40, "gfx940"),
    (0x41, "gfx1100"),
    (0x42, "gfx1013"),
    (0x43, "gfx1150"),
    (0x44, "gfx1103"),
    (0x45, "gfx1036"),
    (0x46, "gfx1101"),
    (0x47, "gfx1102"),
    (0x48, "gfx1200"),
    (0x49, "gfx1250"),
    (0x4a, "gfx1151"),
    (0x4b, "gfx941"),
    (0x4c, "gfx942"),
    (0x4e, "gfx1201"),
    (0x4f, "gfx950"),
    (0x51, "gfx9-generic"),
    (0x52, "gfx10-1-generic"),
    (0x53, "gfx10-3-generic"),
    (0x54, "gfx11-generic"),
    (0x55, "gfx1152"),
    (0x58, "gfx1153"),
    (0x59, "gfx12-generic"),
    (0x5f, "gfx9-4-generic"),
];

/// The processor name of an `EF_AMDGPU_MACH` value.
pub fn mach_name(mach: u32) -> Option<&'static str> {
    MACHS.iter().find(|(m, _)| *m == mach).map(|(_, n)| *n)
}

/// State of a target feature (xnack, sramecc) as the code object's `e_flags` record it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Setting {
    /// The processor does not have the feature.
    Unsupported,
    /// Code runs with the feature on or off.
    Any,
    /// Built for the feature off (`xnack-`).
    Off,
    /// Built for the feature on (`xnack+`).
    On,
}

impl Setting {
    /// The setting a target id feature list gives for `feature` (`xnack+` → On), when the
    /// list names it.
    pub fn from_target(features: &[String], feature: &str) -> Option<Setting> {
        features.iter().find_map(|f| {
            let rest = f.strip_prefix(feature)?;
            match rest {
                "+" => Some(Setting::On),
                "-" => Some(Setting::Off),
                _ => None,
            }
        })
    }
}

/// What the ELF header of a code object says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// `EI_OSABI` (64 = HSA).
    pub os_abi: u8,
    /// `EI_ABIVERSION`.
    pub abi_version: u8,
    /// Code object version (ABI version 2/3/4 = v4/v5/v6 under the HSA OS ABI).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_object_version: Option<u32>,
    /// Raw `e_flags`.
    pub e_flags: u32,
    /// `e_flags & 0xff`.
    pub mach: u32,
    /// Processor decoded from `mach`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processor: Option<String>,
    /// xnack as recorded in `e_flags`.
    pub xnack: Setting,
    /// sramecc as recorded in `e_flags`.
    pub sramecc: Setting,
}

/// Whether `data` starts like an AMDGPU ELF code object (64-bit, little-endian, EM_AMDGPU).
pub fn is_code_object(data: &[u8]) -> bool {
    data.len() >= 20
        && data.starts_with(b"\x7fELF")
        && data.get(4) == Some(&2)
        && data.get(5) == Some(&1)
        && data.get(18..20) == Some(&EM_AMDGPU.to_le_bytes()[..])
}

type Elf = object::elf::FileHeader64<Endianness>;

fn co_error(offset: u64, message: impl std::fmt::Display) -> Error {
    Error::CodeObject {
        offset,
        message: message.to_string(),
    }
}

/// Reads the header of the code object `data` (`offset` = its file offset, for messages).
pub fn header(data: &[u8], offset: u64) -> Result<Header, Error> {
    let elf = Elf::parse(data).map_err(|e| co_error(offset, e))?;
    let endian = elf.endian().map_err(|e| co_error(offset, e))?;
    let ident = elf.e_ident();
    let e_flags = elf.e_flags(endian).0;
    Ok(decode_flags(ident.os_abi.0, ident.abi_version, e_flags))
}

/// Decodes `e_flags` for a code object of the given OS ABI and ABI version.
pub fn decode_flags(os_abi: u8, abi_version: u8, e_flags: u32) -> Header {
    let mach = e_flags & 0xff;
    let code_object_version = (os_abi == ELFOSABI_AMDGPU_HSA).then(|| u32::from(abi_version) + 2);
    let (xnack, sramecc) = match code_object_version {
        Some(v) if v >= 4 => (
            four_state(e_flags >> 8 & 0x3),
            four_state(e_flags >> 10 & 0x3),
        ),
        _ => (two_state(e_flags & 0x100), two_state(e_flags & 0x200)),
    };
    Header {
        os_abi,
        abi_version,
        code_object_version,
        e_flags,
        mach,
        processor: mach_name(mach).map(str::to_string),
        xnack,
        sramecc,
    }
}

fn four_state(bits: u32) -> Setting {
    match bits {
        0 => Setting::Unsupported,
        1 => Setting::Any,
        2 => Setting::Off,
        _ => Setting::On,
    }
}

fn two_state(bit: u32) -> Setting {
    if bit == 0 { Setting::Off } else { Setting::On }
}

/// The metadata document, as far as the probes need it.
#[derive(Debug, Default, Deserialize)]
pub struct Metadata {
    /// `amdhsa.version`.
    #[serde(rename = "amdhsa.version", default)]
    pub version: Option<Vec<u64>>,
    /// `amdhsa.target` (`amdgcn-amd-amdhsa--gfx90a:xnack+`, v4 and later).
    #[serde(rename = "amdhsa.target", default)]
    pub target: Option<String>,
    /// `amdhsa.kernels`.
    #[serde(rename = "amdhsa.kernels", default)]
    pub kernels: Vec<KernelMetadata>,
}

/// One entry of `amdhsa.kernels`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct KernelMetadata {
    /// `.name`: the kernel's (mangled) source name.
    #[serde(rename = ".name")]
    pub name: String,
    /// `.symbol`: the kernel descriptor symbol (`<name>.kd`).
    #[serde(rename = ".symbol", default)]
    pub symbol: Option<String>,
    /// `.sgpr_count`.
    #[serde(rename = ".sgpr_count", default)]
    pub sgpr_count: Option<u32>,
    /// `.vgpr_count`.
    #[serde(rename = ".vgpr_count", default)]
    pub vgpr_count: Option<u32>,
    /// `.agpr_count` (gfx90a and later).
    #[serde(rename = ".agpr_count", default)]
    pub agpr_count: Option<u32>,
    /// `.wavefront_size`.
    #[serde(rename = ".wavefront_size", default)]
    pub wavefront_size: Option<u32>,
    /// `.group_segment_fixed_size` (LDS bytes).
    #[serde(rename = ".group_segment_fixed_size", default)]
    pub group_segment_fixed_size: Option<u64>,
    /// `.private_segment_fixed_size` (scratch bytes per work-item).
    #[serde(rename = ".private_segment_fixed_size", default)]
    pub private_segment_fixed_size: Option<u64>,
    /// `.kernarg_segment_size`.
    #[serde(rename = ".kernarg_segment_size", default)]
    pub kernarg_segment_size: Option<u64>,
    /// `.max_flat_workgroup_size`.
    #[serde(rename = ".max_flat_workgroup_size", default)]
    pub max_flat_workgroup_size: Option<u32>,
    /// `.sgpr_spill_count`.
    #[serde(rename = ".sgpr_spill_count", default)]
    pub sgpr_spill_count: Option<u32>,
    /// `.vgpr_spill_count`.
    #[serde(rename = ".vgpr_spill_count", default)]
    pub vgpr_spill_count: Option<u32>,
}

/// Finds the `NT_AMDGPU_METADATA` note of the code object `data` and decodes it. `None`
/// when the code object has no such note.
pub fn metadata(data: &[u8], offset: u64) -> Result<Option<Metadata>, Error> {
    match metadata_note(data, offset)? {
        Some(desc) => decode_metadata(desc, offset).map(Some),
        None => Ok(None),
    }
}

/// Deepest MessagePack nesting accepted in a metadata note (real notes nest 5 deep:
/// document, kernel list, kernel, argument list, argument).
const MAX_METADATA_DEPTH: usize = 32;

/// Decodes a metadata note's descriptor (MessagePack). Unknown keys are skipped; nesting
/// deeper than 32 levels is refused, so a hostile note cannot exhaust the stack.
pub fn decode_metadata(desc: &[u8], offset: u64) -> Result<Metadata, Error> {
    let mut de = rmp_serde::Deserializer::from_read_ref(desc);
    de.set_max_depth(MAX_METADATA_DEPTH);
    Metadata::deserialize(&mut de).map_err(|e| co_error(offset, format!("metadata note: {e}")))
}

/// The descriptor bytes of the metadata note, from the note sections or, when the
/// section headers have none, the note segments.
fn metadata_note(data: &[u8], offset: u64) -> Result<Option<&[u8]>, Error> {
    let elf = Elf::parse(data).map_err(|e| co_error(offset, e))?;
    let endian = elf.endian().map_err(|e| co_error(offset, e))?;
    let sections = elf
        .sections(endian, data)
        .map_err(|e| co_error(offset, e))?;
    for section in sections.iter() {
        let notes = section
            .notes(endian, data)
            .map_err(|e| co_error(offset, e))?;
        if let Some(found) = find_note(notes, endian, offset)? {
            return Ok(Some(found));
        }
    }
    let segments = elf
        .program_headers(endian, data)
        .map_err(|e| co_error(offset, e))?;
    for segment in segments {
        let notes = segment
            .notes(endian, data)
            .map_err(|e| co_error(offset, e))?;
        if let Some(found) = find_note(notes, endian, offset)? {
            return Ok(Some(found));
        }
    }
    Ok(None)
}

fn find_note<'a>(
    notes: Option<object::read::elf::NoteIterator<'a, Elf>>,
    endian: Endianness,
    offset: u64,
) -> Result<Option<&'a [u8]>, Error> {
    let Some(mut notes) = notes else {
        return Ok(None);
    };
    while let Some(note) = notes.next().map_err(|e| co_error(offset, e))? {
        if note.name() == b"AMDGPU" && note.n_type(endian).0 == NT_AMDGPU_METADATA {
            return Ok(Some(note.desc()));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_of_real_code_objects_decode() {
        // Seen in librocrand 5.3.3 (v4) and libggml-hip (v5).
        let h = decode_flags(64, 2, 0x73f);
        assert_eq!(h.processor.as_deref(), Some("gfx90a"));
        assert_eq!(h.code_object_version, Some(4));
        assert_eq!((h.xnack, h.sramecc), (Setting::On, Setting::Any));
        let h = decode_flags(64, 2, 0x63f);
        assert_eq!(h.xnack, Setting::Off);
        let h = decode_flags(64, 3, 0x41);
        assert_eq!(h.processor.as_deref(), Some("gfx1100"));
        assert_eq!(h.code_object_version, Some(5));
        assert_eq!(h.xnack, Setting::Unsupported);
        assert_eq!(
            decode_flags(64, 3, 0x54c).processor.as_deref(),
            Some("gfx942")
        );
        assert_eq!(
            decode_flags(64, 3, 0x4e).processor.as_deref(),
            Some("gfx1201")
        );
        assert_eq!(
            decode_flags(64, 3, 0x48).processor.as_deref(),
            Some("gfx1200")
        );
        assert_eq!(decode_flags(0, 0, 0x4e).code_object_version, None);
    }

    #[test]
    fn target_features_map_to_settings() {
        let f = vec!["sramecc-".to_string(), "xnack+".to_string()];
        assert_eq!(Setting::from_target(&f, "xnack"), Some(Setting::On));
        assert_eq!(Setting::from_target(&f, "sramecc"), Some(Setting::Off));
        assert_eq!(Setting::from_target(&[], "xnack"), None);
    }

    #[test]
    fn deep_or_wrong_metadata_is_an_error() {
        // {"x": [[[[…]]]]} nested 100,000 deep.
        let mut deep = vec![0x81, 0xa1, b'x'];
        deep.extend(std::iter::repeat_n(0x91u8, 100_000));
        deep.push(0xc0);
        let err = decode_metadata(&deep, 0x40)
            .map(|_| ())
            .map_err(|e| e.to_string());
        assert!(err.is_err_and(|e| e.contains("depth")));
        assert!(decode_metadata(&[0xc1], 0).is_err());
        // An empty map is an empty document.
        assert!(decode_metadata(&[0x80], 0).is_ok_and(|m| m.kernels.is_empty()));
    }

    #[test]
    fn machs_are_unique() {
        for (i, (m, _)) in MACHS.iter().enumerate() {
            assert!(MACHS.iter().skip(i + 1).all(|(o, _)| o != m), "{m:#x}");
        }
    }
}
