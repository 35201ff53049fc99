//! Fuzzes the fat-binary scanner: the input as an object file, and as a bare section.
#![no_main]

use evidence::packs::ggml::binary::classify::ggml_cuda_rules;
use evidence::packs::ggml::binary::fatbin::{self, KernelDetail, ScanOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let options = ScanOptions {
        rules: ggml_cuda_rules(),
        kernels: KernelDetail::All,
        max_decompressed: 16 << 20,
    };
    let _ = fatbin::scan_bytes(data, &options);
    let _ = fatbin::scan_section(data, 0, &options);
});
