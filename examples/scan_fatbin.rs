//! Scans a HIP fat binary and prints its summary: bundles, entries, and per target the
//! kernel counts per family, register ranges and the time the scan took.
//!
//! ```sh
//! cargo run --release --example scan_fatbin -- path/to/libggml-hip.so [--yaml]
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use evidence::packs::ggml::binary::classify::ggml_cuda_rules;
use evidence::packs::ggml::binary::fatbin::{self, KernelDetail, ScanOptions};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next().map(PathBuf::from) else {
        eprintln!("usage: scan_fatbin LIBRARY [--yaml]");
        return ExitCode::from(2);
    };
    let yaml = args.any(|a| a == "--yaml");
    let options = ScanOptions {
        rules: ggml_cuda_rules(),
        kernels: KernelDetail::None,
        ..ScanOptions::default()
    };
    let start = Instant::now();
    let report = match fatbin::scan(&path, &options) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let elapsed = start.elapsed();
    if yaml {
        match serde_saphyr::to_string(&report) {
            Ok(text) => print!("{text}"),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
        return ExitCode::SUCCESS;
    }
    let s = &report.stats;
    println!(
        "{}: section {} at {:#x}, {} bytes",
        path.display(),
        report.section.name,
        report.section.file_offset,
        report.section.size
    );
    println!(
        "bundles {} (compressed {}), entries {}, code objects {}, kernels {}, warnings {}",
        s.bundles, s.compressed_bundles, s.entries, s.code_objects, s.kernels, s.warnings
    );
    for t in &report.targets {
        let k = &t.kernels;
        let families: Vec<String> = k.families.iter().map(|(f, n)| format!("{f}={n}")).collect();
        let distinct: Vec<String> = t
            .distinct_families
            .iter()
            .map(|(f, n)| format!("{f}={n}"))
            .collect();
        println!(
            "  {:<16} entries {:>4} co-v{:?} kernels {:>6} [{}] distinct {} [{}] unclassified {} sgpr {:?} vgpr {:?} agpr {:?} spilling {}/{}",
            t.target,
            t.entries,
            t.code_object_versions,
            k.count,
            families.join(" "),
            t.distinct_kernels,
            distinct.join(" "),
            k.unclassified,
            k.sgpr.map(|r| (r.min, r.max)),
            k.vgpr.map(|r| (r.min, r.max)),
            k.agpr.map(|r| (r.min, r.max)),
            k.sgpr_spilling,
            k.vgpr_spilling,
        );
    }
    for w in report.warnings.iter().take(10) {
        println!("  warning: {w}");
    }
    println!("scan took {:.3} s", elapsed.as_secs_f64());
    ExitCode::SUCCESS
}
