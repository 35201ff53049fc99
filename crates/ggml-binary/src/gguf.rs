//! `binary::gguf`: the header, metadata and tensor table of a GGUF model file (v2, v3), the
//! file type, and the census of tensor types.
//!
//! Layout (little-endian): `"GGUF"`, u32 version, u64 tensor count, u64 key-value count; the
//! key-values (string key, u32 value type, value); the tensor infos (string name, u32 dims,
//! u64 per dim, u32 ggml type, u64 offset into the data); the data at the next multiple of
//! `general.alignment` (32). Strings are a u64 length and bytes.
//!
//! The file is memory-mapped and only the header region is touched. Every count is checked
//! against the bytes left before it is used (a key-value takes at least 13 bytes, a tensor
//! info at least 24, an array element at least its type's size), so nothing is allocated by
//! an untrusted count. Only scalars and array lengths are kept; long strings are cut.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::bytes::{MappedFile, Reader, align_up};
use super::error::{Error, Warning};
use super::ggml::{self, TypeRef};

/// Smallest key-value: key length (8), type (4), one byte of value.
const MIN_KV: u64 = 13;
/// Smallest tensor info: name length (8), dims (4), type (4), offset (8).
const MIN_TENSOR: u64 = 24;
/// ggml's `GGML_MAX_DIMS`.
const MAX_DIMS: u32 = 4;
/// Longest key or tensor name accepted.
const MAX_NAME: u64 = 65_536;
/// String values longer than this are cut in the report.
const MAX_KEPT_STRING: usize = 1024;
/// Arrays nest at most this deep.
const MAX_ARRAY_DEPTH: u32 = 4;
/// Default `general.alignment`.
const DEFAULT_ALIGNMENT: u64 = 32;

/// A GGUF file's header, metadata, tensors and type census.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GgufReport {
    /// The file, when read from a path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// File size in bytes.
    pub file_size: u64,
    /// GGUF version (2 or 3).
    pub version: u32,
    /// Tensor count from the header.
    pub tensor_count: u64,
    /// Key-value count from the header.
    pub kv_count: u64,
    /// `general.alignment`, or 32.
    pub alignment: u64,
    /// File offset where tensor data starts.
    pub data_offset: u64,
    /// `general.architecture`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub architecture: Option<String>,
    /// `general.name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `general.file_type` with its llama.cpp name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_type: Option<FileType>,
    /// Every key-value in file order: scalars, and arrays as element type and length.
    pub metadata: Vec<KeyValue>,
    /// Every tensor in file order.
    pub tensors: Vec<TensorInfo>,
    /// Per ggml type (by id): tensors, elements and bytes.
    pub census: Vec<TypeCensus>,
    /// Sum of the tensors' data bytes (tensors of unknown type not counted).
    pub tensor_bytes: u64,
    /// Problems that did not stop the read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
}

/// `general.file_type`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileType {
    /// The stored value.
    pub id: u32,
    /// llama.cpp's name (`MOSTLY_Q4_1`), absent for values this reader does not know.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// A metadata value type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueType {
    /// 0
    U8,
    /// 1
    I8,
    /// 2
    U16,
    /// 3
    I16,
    /// 4
    U32,
    /// 5
    I32,
    /// 6
    F32,
    /// 7
    Bool,
    /// 8
    String,
    /// 9
    Array,
    /// 10
    U64,
    /// 11
    I64,
    /// 12
    F64,
}

impl ValueType {
    fn from_id(id: u32) -> Option<ValueType> {
        use ValueType::*;
        Some(match id {
            0 => U8,
            1 => I8,
            2 => U16,
            3 => I16,
            4 => U32,
            5 => I32,
            6 => F32,
            7 => Bool,
            8 => String,
            9 => Array,
            10 => U64,
            11 => I64,
            12 => F64,
            _ => return None,
        })
    }

    /// Bytes of one value; strings and arrays: the least they can take.
    fn min_size(self) -> u64 {
        use ValueType::*;
        match self {
            U8 | I8 | Bool => 1,
            U16 | I16 => 2,
            U32 | I32 | F32 => 4,
            U64 | I64 | F64 | String => 8,
            Array => 12,
        }
    }

    fn fixed_size(self) -> Option<u64> {
        match self {
            ValueType::String | ValueType::Array => None,
            other => Some(other.min_size()),
        }
    }
}

/// A scalar metadata value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Scalar {
    /// Booleans.
    Bool(bool),
    /// Unsigned integers.
    Unsigned(u64),
    /// Signed integers.
    Signed(i64),
    /// Floats.
    Float(f64),
    /// Strings (cut at 1024 bytes).
    Text(String),
}

/// One metadata key-value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeyValue {
    /// The key.
    pub key: String,
    /// Its value type.
    #[serde(rename = "type")]
    pub value_type: ValueType,
    /// The value, for scalars.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Scalar>,
    /// Length in bytes of a string value that was cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_len: Option<u64>,
    /// Element type, for arrays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element_type: Option<ValueType>,
    /// Length, for arrays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub len: Option<u64>,
}

/// One tensor info.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TensorInfo {
    /// Name.
    pub name: String,
    /// Dimensions, innermost first.
    pub dims: Vec<u64>,
    /// ggml type.
    pub ggml_type: TypeRef,
    /// Offset of its data from the data start.
    pub offset: u64,
    /// Elements (product of the dimensions).
    pub elements: u64,
    /// Data bytes, when the type is known and the first dimension is whole blocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
}

/// Tensors of one ggml type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeCensus {
    /// The type.
    pub ggml_type: TypeRef,
    /// Tensors.
    pub count: u64,
    /// Elements over them.
    pub elements: u64,
    /// Data bytes over them.
    pub bytes: u64,
    /// Their names, in file order.
    pub tensors: Vec<String>,
}

/// Reads the GGUF file `file`, opened from `path`.
pub fn read_file(path: &Path, file: &File) -> Result<GgufReport, Error> {
    let file = MappedFile::map(path, file)?;
    let mut report = read_bytes(file.bytes())?;
    report.path = Some(path.display().to_string());
    Ok(report)
}

/// Reads a GGUF file held in memory.
pub fn read_bytes(data: &[u8]) -> Result<GgufReport, Error> {
    let mut r = Reader::new(data, 0);
    let (version, tensor_count, kv_count) = read_header(&mut r)?;
    let mut warnings = Vec::new();
    let metadata = read_metadata(&mut r, kv_count)?;
    let alignment = alignment(&metadata, &mut warnings);
    let tensors = read_tensors(&mut r, tensor_count, &mut warnings)?;
    let data_offset = align_up(r.offset(), alignment).ok_or(Error::Invalid {
        what: "GGUF data offset",
        offset: r.offset(),
        message: "overflows".to_string(),
    })?;
    check_tensor_data(
        &tensors,
        data_offset,
        alignment,
        data.len() as u64,
        &mut warnings,
    );
    let census = census(&tensors);
    Ok(GgufReport {
        path: None,
        file_size: data.len() as u64,
        version,
        tensor_count,
        kv_count,
        alignment,
        data_offset,
        architecture: text_value(&metadata, "general.architecture"),
        name: text_value(&metadata, "general.name"),
        file_type: file_type(&metadata),
        tensor_bytes: census.iter().map(|c| c.bytes).sum(),
        metadata,
        tensors,
        census,
        warnings,
    })
}

fn read_header(r: &mut Reader<'_>) -> Result<(u32, u64, u64), Error> {
    if r.take(4, "GGUF magic")? != b"GGUF" {
        return Err(Error::BadMagic {
            what: "GGUF file",
            offset: 0,
        });
    }
    let version = r.u32("GGUF version")?;
    if !(2..=3).contains(&version) {
        return Err(Error::Unsupported {
            what: "GGUF version",
            value: u64::from(version),
            offset: 4,
        });
    }
    let tensor_count = r.u64("GGUF tensor count")?;
    let kv_count_at = r.offset();
    let kv_count = r.u64("GGUF key-value count")?;
    check_count(
        kv_count,
        MIN_KV,
        r.remaining(),
        "GGUF key-value count",
        kv_count_at,
    )?;
    check_count(
        tensor_count,
        MIN_TENSOR,
        r.remaining(),
        "GGUF tensor count",
        8,
    )?;
    Ok((version, tensor_count, kv_count))
}

/// Refuses a count whose items, at `min_size` bytes each, cannot fit in `remaining`.
fn check_count(
    count: u64,
    min_size: u64,
    remaining: u64,
    what: &'static str,
    offset: u64,
) -> Result<(), Error> {
    let limit = remaining / min_size.max(1);
    if count > limit {
        return Err(Error::TooLarge {
            what,
            value: count,
            limit,
            offset,
        });
    }
    Ok(())
}

fn read_string<'a>(r: &mut Reader<'a>, what: &'static str) -> Result<&'a [u8], Error> {
    let at = r.offset();
    let len = r.u64(what)?;
    if len > r.remaining() {
        return Err(Error::Truncated {
            what,
            offset: at,
            needed: len,
            available: r.remaining(),
        });
    }
    r.take(len, what)
}

fn read_name(r: &mut Reader<'_>, what: &'static str) -> Result<String, Error> {
    let at = r.offset();
    let bytes = read_string(r, what)?;
    if bytes.len() as u64 > MAX_NAME {
        return Err(Error::TooLarge {
            what,
            value: bytes.len() as u64,
            limit: MAX_NAME,
            offset: at,
        });
    }
    Ok(String::from_utf8_lossy(bytes).into_owned())
}

fn read_value_type(r: &mut Reader<'_>, what: &'static str) -> Result<ValueType, Error> {
    let at = r.offset();
    let id = r.u32(what)?;
    ValueType::from_id(id).ok_or(Error::Unsupported {
        what,
        value: u64::from(id),
        offset: at,
    })
}

fn read_metadata(r: &mut Reader<'_>, count: u64) -> Result<Vec<KeyValue>, Error> {
    let mut out = Vec::new();
    for _ in 0..count {
        let key = read_name(r, "GGUF metadata key")?;
        let value_type = read_value_type(r, "GGUF metadata value type")?;
        out.push(read_value(r, key, value_type)?);
    }
    Ok(out)
}

fn read_value(r: &mut Reader<'_>, key: String, value_type: ValueType) -> Result<KeyValue, Error> {
    let mut kv = KeyValue {
        key,
        value_type,
        value: None,
        full_len: None,
        element_type: None,
        len: None,
    };
    if value_type == ValueType::Array {
        let (element_type, len) = read_array(r, 0)?;
        kv.element_type = Some(element_type);
        kv.len = Some(len);
    } else if value_type == ValueType::String {
        let bytes = read_string(r, "GGUF string value")?;
        let (text, cut) = keep_text(bytes);
        kv.value = Some(Scalar::Text(text));
        kv.full_len = cut.then_some(bytes.len() as u64);
    } else {
        kv.value = Some(read_scalar(r, value_type)?);
    }
    Ok(kv)
}

/// The text of a string value, cut at [`MAX_KEPT_STRING`] bytes (on a character boundary).
fn keep_text(bytes: &[u8]) -> (String, bool) {
    let text = String::from_utf8_lossy(bytes);
    if text.len() <= MAX_KEPT_STRING {
        return (text.into_owned(), false);
    }
    let mut end = MAX_KEPT_STRING;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (text.get(..end).unwrap_or_default().to_string(), true)
}

fn read_scalar(r: &mut Reader<'_>, value_type: ValueType) -> Result<Scalar, Error> {
    const W: &str = "GGUF metadata value";
    Ok(match value_type {
        ValueType::U8 => Scalar::Unsigned(u64::from(r.u8(W)?)),
        ValueType::I8 => Scalar::Signed(i64::from(r.u8(W)? as i8)),
        ValueType::U16 => Scalar::Unsigned(u64::from(r.u16(W)?)),
        ValueType::I16 => Scalar::Signed(i64::from(r.u16(W)? as i16)),
        ValueType::U32 => Scalar::Unsigned(u64::from(r.u32(W)?)),
        ValueType::I32 => Scalar::Signed(i64::from(r.i32(W)?)),
        ValueType::F32 => Scalar::Float(f64::from(r.f32(W)?)),
        ValueType::Bool => Scalar::Bool(r.u8(W)? != 0),
        ValueType::U64 => Scalar::Unsigned(r.u64(W)?),
        ValueType::I64 => Scalar::Signed(r.i64(W)?),
        ValueType::F64 => Scalar::Float(r.f64(W)?),
        ValueType::String | ValueType::Array => {
            return Err(Error::Invalid {
                what: "GGUF metadata value",
                offset: r.offset(),
                message: "not a scalar".to_string(),
            });
        }
    })
}

/// Skips an array, returning its element type and length. The length is checked against
/// the bytes left before any element is read.
fn read_array(r: &mut Reader<'_>, depth: u32) -> Result<(ValueType, u64), Error> {
    let at = r.offset();
    if depth >= MAX_ARRAY_DEPTH {
        return Err(Error::TooLarge {
            what: "GGUF array nesting",
            value: u64::from(depth + 1),
            limit: u64::from(MAX_ARRAY_DEPTH),
            offset: at,
        });
    }
    let element_type = read_value_type(r, "GGUF array element type")?;
    let len_at = r.offset();
    let len = r.u64("GGUF array length")?;
    check_count(
        len,
        element_type.min_size(),
        r.remaining(),
        "GGUF array length",
        len_at,
    )?;
    match element_type.fixed_size() {
        Some(size) => r.skip(len * size, "GGUF array")?,
        None => {
            for _ in 0..len {
                if element_type == ValueType::String {
                    read_string(r, "GGUF array string")?;
                } else {
                    read_array(r, depth + 1)?;
                }
            }
        }
    }
    Ok((element_type, len))
}

fn read_tensors(
    r: &mut Reader<'_>,
    count: u64,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<TensorInfo>, Error> {
    let mut out = Vec::new();
    for _ in 0..count {
        out.push(read_tensor(r, warnings)?);
    }
    Ok(out)
}

fn read_tensor(r: &mut Reader<'_>, warnings: &mut Vec<Warning>) -> Result<TensorInfo, Error> {
    let at = r.offset();
    let name = read_name(r, "GGUF tensor name")?;
    let dims_at = r.offset();
    let n_dims = r.u32("GGUF tensor dimension count")?;
    if n_dims > MAX_DIMS {
        return Err(Error::TooLarge {
            what: "GGUF tensor dimension count",
            value: u64::from(n_dims),
            limit: u64::from(MAX_DIMS),
            offset: dims_at,
        });
    }
    let mut dims = Vec::new();
    for _ in 0..n_dims {
        dims.push(r.u64("GGUF tensor dimension")?);
    }
    let type_id = r.u32("GGUF tensor type")?;
    let offset = r.u64("GGUF tensor offset")?;
    let elements = dims.iter().try_fold(1u64, |acc, d| acc.checked_mul(*d));
    let Some(elements) = elements else {
        return Err(Error::Invalid {
            what: "GGUF tensor dimensions",
            offset: dims_at,
            message: format!("{name}: element count overflows"),
        });
    };
    let row = dims.first().copied().unwrap_or(1);
    let bytes = ggml::tensor_bytes(type_id, row, elements);
    if bytes.is_none() {
        warnings.push(Warning::new(
            "tensor-size",
            Some(at),
            format!(
                "tensor {name}: no size for ggml type {type_id} with a first dimension of {row}"
            ),
        ));
    }
    Ok(TensorInfo {
        name,
        dims,
        ggml_type: TypeRef::new(type_id),
        offset,
        elements,
        bytes,
    })
}

fn alignment(metadata: &[KeyValue], warnings: &mut Vec<Warning>) -> u64 {
    let Some(kv) = metadata.iter().find(|kv| kv.key == "general.alignment") else {
        return DEFAULT_ALIGNMENT;
    };
    match kv.value {
        Some(Scalar::Unsigned(a)) if a.is_power_of_two() => a,
        _ => {
            warnings.push(Warning::new(
                "alignment",
                None,
                format!(
                    "general.alignment {:?} is not a power of two; using 32",
                    kv.value
                ),
            ));
            DEFAULT_ALIGNMENT
        }
    }
}

fn check_tensor_data(
    tensors: &[TensorInfo],
    data_offset: u64,
    alignment: u64,
    file_size: u64,
    warnings: &mut Vec<Warning>,
) {
    for t in tensors {
        if t.offset % alignment != 0 {
            warnings.push(Warning::new(
                "tensor-alignment",
                None,
                format!(
                    "tensor {}: offset {} is not a multiple of {alignment}",
                    t.name, t.offset
                ),
            ));
        }
        let end = data_offset
            .checked_add(t.offset)
            .and_then(|s| s.checked_add(t.bytes.unwrap_or(0)));
        if end.is_none_or(|e| e > file_size) {
            warnings.push(Warning::new(
                "tensor-data",
                None,
                format!(
                    "tensor {}: data at {:#x}+{} runs past the end of the {file_size}-byte file",
                    t.name,
                    data_offset.saturating_add(t.offset),
                    t.bytes.unwrap_or(0)
                ),
            ));
        }
    }
}

fn census(tensors: &[TensorInfo]) -> Vec<TypeCensus> {
    let mut by_type: BTreeMap<u32, TypeCensus> = BTreeMap::new();
    for t in tensors {
        let c = by_type.entry(t.ggml_type.id).or_insert_with(|| TypeCensus {
            ggml_type: t.ggml_type.clone(),
            count: 0,
            elements: 0,
            bytes: 0,
            tensors: Vec::new(),
        });
        c.count += 1;
        c.elements = c.elements.saturating_add(t.elements);
        c.bytes = c.bytes.saturating_add(t.bytes.unwrap_or(0));
        c.tensors.push(t.name.clone());
    }
    by_type.into_values().collect()
}

fn text_value(metadata: &[KeyValue], key: &str) -> Option<String> {
    metadata
        .iter()
        .find(|kv| kv.key == key)
        .and_then(|kv| match &kv.value {
            Some(Scalar::Text(t)) => Some(t.clone()),
            _ => None,
        })
}

fn file_type(metadata: &[KeyValue]) -> Option<FileType> {
    let kv = metadata.iter().find(|kv| kv.key == "general.file_type")?;
    let id = match kv.value {
        Some(Scalar::Unsigned(v)) => u32::try_from(v).ok()?,
        Some(Scalar::Signed(v)) => u32::try_from(v).ok()?,
        _ => return None,
    };
    Some(FileType {
        id,
        name: ggml::file_type_name(id).map(str::to_string),
    })
}

impl GgufReport {
    /// The metadata value of `key`.
    pub fn get(&self, key: &str) -> Option<&KeyValue> {
        self.metadata.iter().find(|kv| kv.key == key)
    }

    /// The census entry of the type named `name` (`Q4_1`).
    pub fn census_of(&self, name: &str) -> Option<&TypeCensus> {
        self.census
            .iter()
            .find(|c| c.ggml_type.name.as_deref() == Some(name))
    }
}
