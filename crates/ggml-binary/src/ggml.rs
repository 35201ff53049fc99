//! ggml's tensor types and llama.cpp's model file types, as tables.
//!
//! The type ids are the `enum ggml_type` values stored in GGUF tensor infos and in kernel
//! template arguments (`mul_mat_q<(ggml_type)12, …>`); block size and type size are ggml's
//! `type_traits` (bytes of one block of `block_size` elements). The file types are
//! llama.cpp's `enum llama_ftype`, stored in GGUF as `general.file_type`.

use serde::{Deserialize, Serialize};

/// One ggml tensor type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GgmlType {
    /// `enum ggml_type` value.
    pub id: u32,
    /// Name without the `GGML_TYPE_` prefix.
    pub name: &'static str,
    /// Elements per block.
    pub block_size: u64,
    /// Bytes per block.
    pub type_size: u64,
}

const fn t(id: u32, name: &'static str, block_size: u64, type_size: u64) -> GgmlType {
    GgmlType {
        id,
        name,
        block_size,
        type_size,
    }
}

/// Every ggml type this reader knows, by id (ids 4, 5, 31–33 and 36–38 were removed
/// from ggml and are not listed).
pub const GGML_TYPES: &[GgmlType] = &[
    t(0, "F32", 1, 4),
    t(1, "F16", 1, 2),
    t(2, "Q4_0", 32, 18),
    t(3, "Q4_1", 32, 20),
    t(6, "Q5_0", 32, 22),
    t(7, "Q5_1", 32, 24),
    t(8, "Q8_0", 32, 34),
    t(9, "Q8_1", 32, 36),
    t(10, "Q2_K", 256, 84),
    t(11, "Q3_K", 256, 110),
    t(12, "Q4_K", 256, 144),
    t(13, "Q5_K", 256, 176),
    t(14, "Q6_K", 256, 210),
    t(15, "Q8_K", 256, 292),
    t(16, "IQ2_XXS", 256, 66),
    t(17, "IQ2_XS", 256, 74),
    t(18, "IQ3_XXS", 256, 98),
    t(19, "IQ1_S", 256, 50),
    t(20, "IQ4_NL", 32, 18),
    t(21, "IQ3_S", 256, 110),
    t(22, "IQ2_S", 256, 82),
    t(23, "IQ4_XS", 256, 136),
    t(24, "I8", 1, 1),
    t(25, "I16", 1, 2),
    t(26, "I32", 1, 4),
    t(27, "I64", 1, 8),
    t(28, "F64", 1, 8),
    t(29, "IQ1_M", 256, 56),
    t(30, "BF16", 1, 2),
    t(34, "TQ1_0", 256, 54),
    t(35, "TQ2_0", 256, 66),
    t(39, "MXFP4", 32, 17),
    t(40, "NVFP4", 64, 36),
    t(41, "Q1_0", 128, 18),
    t(42, "Q2_0", 64, 18),
];

/// The ggml type with this id.
pub fn ggml_type(id: u32) -> Option<&'static GgmlType> {
    GGML_TYPES.iter().find(|t| t.id == id)
}

/// A ggml type id with its name when known, as recorded in reports.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TypeRef {
    /// `enum ggml_type` value.
    pub id: u32,
    /// Its name (`Q4_K`), absent for an id this reader does not know.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl TypeRef {
    /// The reference for `id`.
    pub fn new(id: u32) -> Self {
        TypeRef {
            id,
            name: ggml_type(id).map(|t| t.name.to_string()),
        }
    }
}

/// Bytes of a tensor of `elements` elements whose first dimension is `row`, or `None`
/// for an unknown type, a row that is not a whole number of blocks, or an overflow.
pub fn tensor_bytes(id: u32, row: u64, elements: u64) -> Option<u64> {
    let ty = ggml_type(id)?;
    if ty.block_size == 0 || !row.is_multiple_of(ty.block_size) {
        return None;
    }
    (elements / ty.block_size).checked_mul(ty.type_size)
}

/// llama.cpp's `enum llama_ftype`: `(value, name without LLAMA_FTYPE_)`.
pub const FILE_TYPES: &[(u32, &str)] = &[
    (0, "ALL_F32"),
    (1, "MOSTLY_F16"),
    (2, "MOSTLY_Q4_0"),
    (3, "MOSTLY_Q4_1"),
    (4, "MOSTLY_Q4_1_SOME_F16"),
    (7, "MOSTLY_Q8_0"),
    (8, "MOSTLY_Q5_0"),
    (9, "MOSTLY_Q5_1"),
    (10, "MOSTLY_Q2_K"),
    (11, "MOSTLY_Q3_K_S"),
    (12, "MOSTLY_Q3_K_M"),
    (13, "MOSTLY_Q3_K_L"),
    (14, "MOSTLY_Q4_K_S"),
    (15, "MOSTLY_Q4_K_M"),
    (16, "MOSTLY_Q5_K_S"),
    (17, "MOSTLY_Q5_K_M"),
    (18, "MOSTLY_Q6_K"),
    (19, "MOSTLY_IQ2_XXS"),
    (20, "MOSTLY_IQ2_XS"),
    (21, "MOSTLY_Q2_K_S"),
    (22, "MOSTLY_IQ3_XS"),
    (23, "MOSTLY_IQ3_XXS"),
    (24, "MOSTLY_IQ1_S"),
    (25, "MOSTLY_IQ4_NL"),
    (26, "MOSTLY_IQ3_S"),
    (27, "MOSTLY_IQ3_M"),
    (28, "MOSTLY_IQ2_S"),
    (29, "MOSTLY_IQ2_M"),
    (30, "MOSTLY_IQ4_XS"),
    (31, "MOSTLY_IQ1_M"),
    (32, "MOSTLY_BF16"),
    (36, "MOSTLY_TQ1_0"),
    (37, "MOSTLY_TQ2_0"),
    (38, "MOSTLY_MXFP4_MOE"),
    (39, "MOSTLY_NVFP4"),
    (40, "MOSTLY_Q1_0"),
    (41, "MOSTLY_Q2_0"),
    (1024, "GUESSED"),
];

/// The name of llama.cpp file type `id` (`3` → `MOSTLY_Q4_1`).
pub fn file_type_name(id: u32) -> Option<&'static str> {
    FILE_TYPES.iter().find(|(v, _)| *v == id).map(|(_, n)| *n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_sorted() {
        for pair in GGML_TYPES.windows(2) {
            assert!(pair[0].id < pair[1].id, "{:?}", pair);
        }
        for pair in FILE_TYPES.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{:?}", pair);
        }
    }

    #[test]
    fn common_types_and_sizes() {
        assert_eq!(ggml_type(12).map(|t| t.name), Some("Q4_K"));
        assert_eq!(file_type_name(3), Some("MOSTLY_Q4_1"));
        assert_eq!(file_type_name(15), Some("MOSTLY_Q4_K_M"));
        assert_eq!(file_type_name(5), None);
        // 576 x 49152 Q8_0: 884,736 blocks of 34 bytes.
        assert_eq!(
            tensor_bytes(8, 576, 576 * 49152),
            Some(576 * 49152 / 32 * 34)
        );
        assert_eq!(tensor_bytes(12, 100, 100), None);
        assert_eq!(tensor_bytes(99, 1, 1), None);
        assert_eq!(TypeRef::new(99).name, None);
    }
}
