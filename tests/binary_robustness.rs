//! Robustness of the binary parsers on stable Rust: proptest mutates valid inputs (bit
//! flips, overwritten fields, huge counts, truncations, random bytes) and every parser must
//! return, never panic. The same inputs seed `fuzz/corpus/` for `cargo fuzz` (nightly).

mod binary_support;
mod common;

use binary_support::*;
use evidence::packs::ggml::binary::classify::ggml_cuda_rules;
use evidence::packs::ggml::binary::fatbin::{self, KernelDetail, ScanOptions};
use evidence::packs::ggml::binary::{gguf, maps};
use proptest::prelude::*;

fn options() -> ScanOptions {
    ScanOptions {
        rules: ggml_cuda_rules(),
        kernels: KernelDetail::All,
        max_decompressed: 16 << 20,
    }
}

/// Valid fat-binary inputs: host libraries and bare sections with plain and compressed
/// bundles.
fn fatbin_seeds() -> Vec<Vec<u8>> {
    let plain = gfx1201_bundle();
    let zstd_v3 = ccob(3, 1, &plain);
    let zlib_v2 = ccob(2, 0, &plain);
    vec![
        host_library(&section(&[&plain])),
        host_library(&section(&[&zstd_v3])),
        host_library(&section(&[&zlib_v2])),
        section(&[&plain, &ccob(1, 0, &plain)]),
    ]
}

fn scan_all(data: &[u8]) {
    let opts = options();
    let _ = fatbin::scan_bytes(data, &opts);
    let _ = fatbin::scan_section(data, 0, &opts);
}

/// One mutation of a seed.
#[derive(Clone, Debug)]
enum Mutation {
    Flip { at: usize, bit: u8 },
    Word { at: usize, value: u64 },
    Truncate { keep: usize },
    Splice { at: usize, bytes: Vec<u8> },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let huge = prop_oneof![
        Just(u64::MAX),
        Just(1u64 << 63),
        Just(1u64 << 40),
        Just(u64::from(u32::MAX)),
        Just(0u64),
        any::<u64>(),
    ];
    prop_oneof![
        (any::<usize>(), 0u8..8).prop_map(|(at, bit)| Mutation::Flip { at, bit }),
        (any::<usize>(), huge).prop_map(|(at, value)| Mutation::Word { at, value }),
        any::<usize>().prop_map(|keep| Mutation::Truncate { keep }),
        (
            any::<usize>(),
            proptest::collection::vec(any::<u8>(), 1..64)
        )
            .prop_map(|(at, bytes)| Mutation::Splice { at, bytes }),
    ]
}

fn apply(seed: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut data = seed.to_vec();
    for m in mutations {
        if data.is_empty() {
            break;
        }
        let len = data.len();
        match m {
            Mutation::Flip { at, bit } => data[at % len] ^= 1 << bit,
            Mutation::Word { at, value } => {
                let at = at % len;
                let end = (at + 8).min(len);
                data[at..end].copy_from_slice(&value.to_le_bytes()[..end - at]);
            }
            Mutation::Truncate { keep } => data.truncate(keep % (len + 1)),
            Mutation::Splice { at, bytes } => {
                let at = at % len;
                let end = (at + bytes.len()).min(len);
                data[at..end].copy_from_slice(&bytes[..end - at]);
            }
        }
    }
    data
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    #[test]
    fn fatbin_never_panics(seed in 0usize..4, mutations in proptest::collection::vec(mutation(), 1..6)) {
        let seeds = fatbin_seeds();
        scan_all(&apply(&seeds[seed % seeds.len()], &mutations));
    }

    #[test]
    fn gguf_never_panics(mutations in proptest::collection::vec(mutation(), 1..6)) {
        let _ = gguf::read_bytes(&apply(&small_gguf(), &mutations));
    }

    #[test]
    fn maps_never_panics(mutations in proptest::collection::vec(mutation(), 1..6)) {
        let data = apply(MAPS.as_bytes(), &mutations);
        let _ = maps::parse(&String::from_utf8_lossy(&data));
    }

    #[test]
    fn random_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..2048)) {
        scan_all(&data);
        let _ = gguf::read_bytes(&data);
        let _ = maps::parse(&String::from_utf8_lossy(&data));
    }
}

/// Every truncation of every seed, not a sample.
#[test]
fn every_truncation_of_the_fatbin_seeds_returns() {
    for seed in fatbin_seeds() {
        for keep in (0..seed.len()).step_by(7) {
            scan_all(&seed[..keep]);
        }
    }
}

/// Mutations of a real plain bundle from libggml-hip (when the inputs are fetched).
#[test]
fn mutated_real_bundles_never_panic() {
    let Some(path) = real_input(GGML_HIP) else {
        return;
    };
    let report = fatbin::scan(&path, &ScanOptions::default()).expect("scans");
    let first = &report.bundles[0];
    let plain = {
        use std::io::{Read, Seek, SeekFrom};
        let mut f = std::fs::File::open(&path).expect("open");
        f.seek(SeekFrom::Start(first.file_offset)).expect("seek");
        let mut out = vec![0u8; first.extent as usize];
        f.read_exact(&mut out).expect("read");
        out
    };
    let seeds = [section(&[&plain]), section(&[&ccob(3, 1, &plain)])];
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 128,
        ..ProptestConfig::default()
    });
    let strategy = (0usize..2, proptest::collection::vec(mutation(), 1..8));
    runner
        .run(&strategy, |(seed, mutations)| {
            scan_all(&apply(&seeds[seed], &mutations));
            Ok(())
        })
        .expect("no panic");
}

/// Writes the seeds to `fuzz/corpus/<target>/` (run with EVIDENCE_WRITE_FUZZ_CORPUS=1).
#[test]
#[ignore = "writes fuzz/corpus; run by hand"]
fn write_fuzz_corpus() {
    if std::env::var_os("EVIDENCE_WRITE_FUZZ_CORPUS").is_none() {
        return;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let write = |target: &str, name: &str, data: &[u8]| {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join(name), data).expect("write");
    };
    let names = [
        "elf-plain",
        "elf-ccob-v3-zstd",
        "elf-ccob-v2-zlib",
        "section-plain-ccob-v1",
    ];
    for (name, seed) in names.iter().zip(fatbin_seeds()) {
        write("fatbin", name, &seed);
    }
    write("gguf", "small-v3", &small_gguf());
    let mut v2 = small_gguf();
    v2[4..8].copy_from_slice(&2u32.to_le_bytes());
    write("gguf", "small-v2", &v2);
    write("maps", "ollama-runner", MAPS.as_bytes());
}
