//! `binary::maps` on a synthetic maps text and on this test process.

mod binary_support;
mod common;

use binary_support::MAPS;
use evidence::packs::ggml::binary::maps::{self, FileKind, MapsReport};

#[test]
fn files_are_merged_flagged_and_ordered() {
    let report = maps::parse(MAPS);
    assert_eq!(report.mappings, 12);
    assert_eq!(report.anonymous_mappings, 3);
    assert_eq!(report.warnings.len(), 1);
    assert_eq!(report.warnings[0].offset, Some(12));
    let paths: Vec<&str> = report.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/usr/bin/ollama",
            "/root/.ollama/models/blobs/sha256-6e4c38e1172f42fdbff13edf9a7a017679fb82b0fde415a3e8b3c31c6ed4a4e4",
            "/opt/ollama/lib/libggml-hip.so",
            "/tmp/My Models/tiny.Q4_K_M.gguf",
            "/usr/lib/x86_64-linux-gnu/libc.so.6",
        ]
    );
    let hip = &report.files[2];
    assert_eq!(hip.kind, FileKind::SharedLibrary);
    assert_eq!(hip.mappings, 3);
    assert_eq!(hip.ranges.len(), 2);
    assert_eq!(hip.ranges[0].start, 0x7f10_0000_0000);
    assert_eq!(hip.ranges[0].end, 0x7f10_0090_0000);
    assert_eq!(hip.perms, ["r--p", "r-xp"]);
    let blob = &report.files[1];
    assert_eq!(blob.kind, FileKind::Model);
    assert_eq!(blob.ranges.len(), 1);
    assert_eq!(blob.bytes, 0x20_0000);
    assert!(report.files[4].deleted);
    assert_eq!(report.models.len(), 2);
    assert_eq!(
        report.shared_libraries,
        [
            "/opt/ollama/lib/libggml-hip.so",
            "/usr/lib/x86_64-linux-gnu/libc.so.6"
        ]
    );
    assert_eq!(report.files[0].kind, FileKind::Other);
}

#[test]
fn report_round_trips_through_yaml_with_hex_addresses() {
    let report = maps::parse(MAPS);
    let yaml = serde_saphyr::to_string(&report).expect("yaml");
    assert!(yaml.contains("0x7f1000000000"), "{yaml}");
    let back: MapsReport = serde_saphyr::from_str(&yaml).expect("reads back");
    assert_eq!(back, report);
}

#[test]
fn garbage_never_panics() {
    for text in [
        "",
        "\n\n",
        "-",
        "zz-yy r-xp 0 0:0 0 /x",
        "1-0 r-xp 0 08:01 1 /x",
        "1-2 rwxp",
    ] {
        let report = maps::parse(text);
        assert!(report.files.is_empty(), "{text}");
    }
}

#[test]
fn this_process_maps_its_own_libraries() {
    let report = match maps::read_pid(std::process::id()) {
        Ok(r) => r,
        Err(e) if !cfg!(target_os = "linux") => {
            eprintln!("skipped: {e}");
            return;
        }
        Err(e) => panic!("{e}"),
    };
    assert_eq!(report.pid, Some(std::process::id()));
    assert!(report.warnings.is_empty(), "{:#?}", report.warnings);
    assert!(
        report
            .files
            .iter()
            .any(|f| f.ranges.iter().any(|r| r.end > r.start))
    );
    assert!(maps::read_pid(u32::MAX).is_err());
}
