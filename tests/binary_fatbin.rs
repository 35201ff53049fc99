//! `binary::fatbin` on real fat binaries (downloaded by `scripts/fetch-binary-inputs.sh`),
//! on compressed bundles built here from a real plain bundle, and on synthetic and broken
//! inputs.

mod binary_support;
mod common;

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use binary_support::*;
use evidence::packs::ggml::binary::classify::{FamilyRule, ggml_cuda_rules};
use evidence::packs::ggml::binary::fatbin::{self, FatbinReport, KernelDetail, ScanOptions};
use evidence::packs::ggml::binary::{Error, amdgpu::Setting};

fn options(kernels: KernelDetail) -> ScanOptions {
    ScanOptions {
        rules: ggml_cuda_rules(),
        kernels,
        ..ScanOptions::default()
    }
}

fn targets(report: &FatbinReport) -> Vec<&str> {
    report.targets.iter().map(|t| t.target.as_str()).collect()
}

#[test]
fn libggml_hip_from_cyllama_rocm() {
    let Some(path) = real_input(GGML_HIP) else {
        return;
    };
    let report = fatbin::scan(&path, &options(KernelDetail::None)).expect("scans");
    assert_eq!(report.file_size, 168_778_617);
    assert_eq!(report.section.name, ".hip_fatbin");
    assert_eq!(report.section.size, 152_336_288);
    assert_eq!(report.stats.bundles, 130);
    assert_eq!(report.stats.compressed_bundles, 0);
    assert_eq!(report.stats.entries, 520);
    assert_eq!(report.stats.code_objects, 390);
    assert_eq!(report.stats.warnings, 0, "{:#?}", report.warnings);
    assert_eq!(targets(&report), ["gfx1100", "gfx90a", "gfx942", "host"]);
    assert!(report.target("gfx1201").is_none());
    for name in ["gfx1100", "gfx90a", "gfx942"] {
        let t = report.target(name).expect("target");
        assert_eq!(t.entries, 130, "{name}");
        assert_eq!(t.code_objects, 130, "{name}");
        assert_eq!(t.code_object_versions, [5], "{name}");
        assert_eq!(t.processors, [name], "{name}");
        assert_eq!(t.kernels.count, 6605, "{name}");
        // Distinct names, as DOMAIN.md counts them: kernels with internal linkage built
        // into two bundles (the Q1_0 MMQ instances) count once.
        assert_eq!(t.distinct_families.get("mmq"), Some(&672), "{name}");
        let mmvq = t.distinct_families.get("mmvq").copied().unwrap_or(0)
            + t.distinct_families.get("mmvq_moe").copied().unwrap_or(0);
        assert_eq!(mmvq, 264, "{name}");
        assert_eq!(t.kernels.families.get("mmq"), Some(&704), "{name}");
        // MMQ for Q4_K (ggml type 12) exists with tile widths 8..128 in steps of 8 and
        // need_check both ways: 16 tiles x 2.
        let q4k: Vec<i64> = t
            .variants
            .iter()
            .filter(|v| v.family == "mmq" && v.ggml_type.as_ref().map(|g| g.id) == Some(12))
            .filter_map(|v| v.tile)
            .collect();
        assert_eq!(q4k.len(), 16, "{name}: {q4k:?}");
        assert!(q4k.contains(&8) && q4k.contains(&128), "{name}: {q4k:?}");
    }
    let cdna = report.target("gfx90a").expect("gfx90a");
    assert!(cdna.kernels.agpr.is_some());
    assert!(
        report
            .target("gfx1100")
            .and_then(|t| t.kernels.agpr)
            .is_none()
    );
    let wave: Vec<u64> = report.bundles[0]
        .entries
        .iter()
        .filter_map(|e| e.code_object.as_ref())
        .map(|co| u64::from(co.elf.mach))
        .collect();
    assert_eq!(wave, [0x41, 0x3f, 0x4c]);
}

#[test]
fn data_driven_rules_count_like_a_substring_search() {
    let Some(path) = real_input(GGML_HIP) else {
        return;
    };
    let rules = vec![
        FamilyRule::new("mul_mat_vec_q", "mul_mat_vec_q"),
        FamilyRule::new("mul_mat_q", "mul_mat_q<"),
    ];
    let opts = ScanOptions {
        rules,
        kernels: KernelDetail::Classified,
        ..ScanOptions::default()
    };
    let report = fatbin::scan(&path, &opts).expect("scans");
    let t = report.target("gfx1100").expect("gfx1100");
    assert_eq!(t.distinct_families.get("mul_mat_vec_q"), Some(&264));
    assert_eq!(t.distinct_families.get("mul_mat_q"), Some(&672));
    // Listed kernels carry their registers and demangled names.
    let k = report
        .bundles
        .iter()
        .flat_map(|b| &b.entries)
        .filter_map(|e| e.code_object.as_ref())
        .flat_map(|co| &co.kernels)
        .find(|k| k.family.as_deref() == Some("mul_mat_q"))
        .expect("an mmq kernel");
    assert!(
        k.demangled
            .as_deref()
            .is_some_and(|d| d.contains("mul_mat_q<(ggml_type)"))
    );
    assert!(k.sgpr_count.is_some() && k.vgpr_count.is_some());
    assert!(k.wavefront_size.is_some() && k.kernarg_size.is_some());
}

#[test]
fn librocrand_from_debian() {
    let Some(path) = real_input(ROCRAND) else {
        return;
    };
    let report = fatbin::scan(&path, &options(KernelDetail::All)).expect("scans");
    assert_eq!(report.stats.bundles, 1);
    assert_eq!(report.stats.entries, 8);
    assert_eq!(
        report.stats.warnings, 0,
        "{:#?}",
        report.bundles[0].warnings
    );
    let ids: Vec<&str> = report.bundles[0]
        .entries
        .iter()
        .map(|e| e.id.as_str())
        .collect();
    assert!(
        ids.contains(&"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+"),
        "{ids:?}"
    );
    let xnack_on = report.bundles[0]
        .entries
        .iter()
        .find(|e| e.target_id.as_deref() == Some("gfx90a:xnack+"))
        .and_then(|e| e.code_object.as_ref())
        .expect("gfx90a:xnack+ code object");
    assert_eq!(xnack_on.elf.code_object_version, Some(4));
    assert_eq!(xnack_on.elf.xnack, Setting::On);
    assert!(xnack_on.matches_target);
    assert!(xnack_on.stats.count > 0);
    let t = report.target("gfx90a:xnack+").expect("target");
    assert_eq!(t.code_object_versions, [4]);
}

/// Reads `len` bytes at `offset` of `path` (a bundle: a few tens of KB).
fn read_range(path: &Path, offset: u64, len: u64) -> Vec<u8> {
    let mut f = std::fs::File::open(path).expect("open");
    f.seek(SeekFrom::Start(offset)).expect("seek");
    let mut out = vec![0u8; len as usize];
    f.read_exact(&mut out).expect("read");
    out
}

#[test]
fn compressed_bundles_built_from_a_real_plain_bundle_scan_back() {
    let Some(path) = real_input(GGML_HIP) else {
        return;
    };
    let opts = options(KernelDetail::All);
    let real = fatbin::scan(&path, &opts).expect("scans");
    let first = &real.bundles[0];
    let plain = read_range(&path, first.file_offset, first.extent);

    let layouts: [(u16, u16); 5] = [(2, 1), (3, 1), (2, 0), (3, 0), (1, 0)];
    let ccobs: Vec<Vec<u8>> = layouts.iter().map(|&(v, m)| ccob(v, m, &plain)).collect();
    let mut bundles: Vec<&[u8]> = vec![&plain];
    bundles.extend(ccobs.iter().map(Vec::as_slice));
    let lib = host_library(&section(&bundles));
    let report = fatbin::scan_bytes(&lib, &opts).expect("scans");

    assert_eq!(report.stats.bundles, 6, "{:#?}", report.warnings);
    assert_eq!(report.stats.compressed_bundles, 5);
    assert_eq!(report.stats.warnings, 0, "{:#?}", report);
    let hash = {
        use md5::{Digest, Md5};
        let d = Md5::digest(&plain);
        format!(
            "{:016x}",
            u64::from_le_bytes(d[..8].try_into().expect("8 bytes"))
        )
    };
    for (bundle, &(version, method)) in report.bundles[1..].iter().zip(&layouts) {
        let header = bundle.compressed.as_ref().expect("compressed");
        assert_eq!(header.version, version);
        assert_eq!(header.method as u16, method);
        assert_eq!(header.uncompressed_size, plain.len() as u64);
        assert_eq!(header.hash, hash);
        assert_eq!(bundle.entries, first.entries, "v{version} method {method}");
        assert_eq!(bundle.summary, first.summary);
    }
}

#[test]
fn synthetic_gfx1201_bundle_is_read_and_classified() {
    let lib = host_library(&section(&[&gfx1201_bundle()]));
    let report = fatbin::scan_bytes(&lib, &options(KernelDetail::All)).expect("scans");
    assert_eq!(report.stats.warnings, 0, "{report:#?}");
    let t = report.target("gfx1201").expect("gfx1201");
    assert_eq!(t.code_object_versions, [5]);
    assert_eq!(t.kernels.count, 2);
    assert_eq!(t.kernels.families.get("mmq"), Some(&1));
    assert_eq!(t.kernels.families.get("mmvq"), Some(&1));
    assert_eq!(t.kernels.vgpr_spilling, 1);
    let vgpr = t.kernels.vgpr.expect("vgpr range");
    assert_eq!((vgpr.min, vgpr.max), (64, 128));
    let mmq = t
        .variants
        .iter()
        .find(|v| v.family == "mmq")
        .expect("mmq variant");
    assert_eq!(
        mmq.ggml_type.as_ref().and_then(|g| g.name.as_deref()),
        Some("Q4_K")
    );
    assert_eq!(mmq.tile, Some(8));
    let co = report.bundles[0].entries[1]
        .code_object
        .as_ref()
        .expect("code object");
    assert_eq!(co.elf.processor.as_deref(), Some("gfx1201"));
    assert_eq!(
        co.metadata_target.as_deref(),
        Some("amdgcn-amd-amdhsa--gfx1201")
    );
    assert!(co.matches_target);
    assert_eq!(co.kernels[1].private_segment_size, Some(16));
}

#[test]
fn report_serializes_to_yaml_and_back() {
    let lib = host_library(&section(&[
        &gfx1201_bundle(),
        &ccob(3, 1, &gfx1201_bundle()),
    ]));
    let report = fatbin::scan_bytes(&lib, &options(KernelDetail::Classified)).expect("scans");
    let yaml = serde_saphyr::to_string(&report).expect("yaml");
    assert!(yaml.contains("target: gfx1201"), "{yaml}");
    let back: FatbinReport = serde_saphyr::from_str(&yaml).expect("reads back");
    assert_eq!(back.stats, report.stats);
    assert_eq!(back.targets, report.targets);
    // Deterministic: the same input gives the same text.
    let again = fatbin::scan_bytes(&lib, &options(KernelDetail::Classified)).expect("scans");
    assert_eq!(serde_saphyr::to_string(&again).expect("yaml"), yaml);
}

#[test]
fn a_target_id_that_disagrees_with_e_flags_is_a_warning() {
    let bundle = plain_bundle(&[("hipv4-amdgcn-amd-amdhsa--gfx1100", &gfx1201_code_object())]);
    let report =
        fatbin::scan_bytes(&host_library(&bundle), &options(KernelDetail::None)).expect("scans");
    let b = &report.bundles[0];
    assert_eq!(b.warnings.len(), 1);
    assert_eq!(b.warnings[0].code, "target-mismatch");
    assert_eq!(
        b.entries[0].code_object.as_ref().map(|c| c.matches_target),
        Some(false)
    );
}

#[test]
fn not_elf_and_no_section_are_typed_errors() {
    let opts = ScanOptions::default();
    assert!(matches!(
        fatbin::scan_bytes(b"GGUF\x03\0\0\0", &opts),
        Err(Error::NotObject { .. })
    ));
    assert!(matches!(
        fatbin::scan_bytes(&[], &opts),
        Err(Error::NotObject { .. })
    ));
    let other = elf64(
        62,
        0,
        0,
        0,
        &[Sec {
            name: ".text",
            sh_type: 1,
            align: 16,
            data: b"\xc3",
        }],
    );
    let err = fatbin::scan_bytes(&other, &opts).expect_err("no section");
    assert!(matches!(err, Error::MissingSection { .. }));
    assert_eq!(err.to_string(), "no .hip_fatbin (or PE .hip_fat) section");
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("nope.so");
    assert!(matches!(
        fatbin::scan(&missing, &opts),
        Err(Error::Io { .. })
    ));
}

#[test]
fn a_truncated_section_is_scanned_as_far_as_it_goes() {
    let one = gfx1201_bundle();
    let lib = host_library(&section(&[&one, &one]));
    // Cut the file in the middle of the second bundle's code object.
    let cut = lib.len() - 200;
    let report = fatbin::scan_bytes(&lib[..cut], &options(KernelDetail::None)).expect("scans");
    assert_eq!(
        report.warnings[0].code, "truncated",
        "{:#?}",
        report.warnings
    );
    assert!(report.section.available < report.section.size);
    assert_eq!(report.stats.bundles, 2);
    assert_eq!(report.bundles[0].warnings.len(), 0);
    assert_eq!(report.bundles[1].warnings[0].code, "out-of-bounds");
    assert_eq!(report.stats.code_objects, 1);
}

#[test]
fn an_entry_past_the_bundle_end_is_a_warning_and_the_scan_goes_on() {
    let mut bad = gfx1201_bundle();
    // Entry 1's size field: magic (24) + count (8) + entry 0 (24 + id) + offset (8).
    let size_at = 24 + 8 + 24 + HOST.len() + 8;
    bad[size_at..size_at + 8].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let lib = host_library(&section(&[&bad, &gfx1201_bundle()]));
    let report = fatbin::scan_bytes(&lib, &options(KernelDetail::None)).expect("scans");
    assert_eq!(report.stats.bundles, 2, "{report:#?}");
    assert_eq!(report.bundles[0].warnings[0].code, "out-of-bounds");
    assert!(
        report.bundles[0].warnings[0]
            .message
            .contains("points past the end")
    );
    assert_eq!(report.bundles[1].summary.code_objects, 1);
}

#[test]
fn a_corrupt_compressed_bundle_is_a_warning_and_the_scan_goes_on() {
    for method in [0u16, 1] {
        let mut bad = ccob(3, method, &gfx1201_bundle());
        let mid = 32 + (bad.len() - 32) / 2;
        for b in &mut bad[mid..mid + 16] {
            *b ^= 0x5a;
        }
        let lib = host_library(&section(&[&bad, &gfx1201_bundle()]));
        let report = fatbin::scan_bytes(&lib, &options(KernelDetail::None)).expect("scans");
        assert_eq!(report.stats.bundles, 2, "method {method}: {report:#?}");
        let code = &report.bundles[0].warnings[0].code;
        assert!(code == "decompress" || code == "size-mismatch", "{code}");
        assert_eq!(report.bundles[1].summary.code_objects, 1);
    }
}

#[test]
fn a_compressed_bundle_that_claims_a_huge_size_is_refused() {
    let mut bad = ccob(3, 1, &gfx1201_bundle());
    bad[16..24].copy_from_slice(&(1u64 << 50).to_le_bytes());
    let report = fatbin::scan_section(&section(&[&bad]), 0, &options(KernelDetail::None));
    assert_eq!(report.bundles[0].warnings[0].code, "too-large");
}

#[test]
fn junk_between_bundles_and_unaligned_bundles_are_found() {
    let one = gfx1201_bundle();
    let mut data = one.clone();
    data.extend_from_slice(b"\0\0\0junk junk\0\0");
    data.extend_from_slice(&one); // not 4096-aligned
    data.extend_from_slice(&[0u8; 100]);
    data.extend_from_slice(&ccob(2, 0, &one));
    let report = fatbin::scan_section(&data, 0x1000, &options(KernelDetail::None));
    assert_eq!(report.stats.bundles, 3, "{report:#?}");
    assert_eq!(report.stats.code_objects, 3);
    assert_eq!(report.warnings.len(), 1);
    assert_eq!(report.warnings[0].code, "unrecognised-bytes");
    assert_eq!(
        report.warnings[0].offset,
        Some(0x1000 + one.len() as u64 + 3)
    );
}
