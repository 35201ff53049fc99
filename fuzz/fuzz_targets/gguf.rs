//! Fuzzes the GGUF reader.
#![no_main]

use evidence::packs::ggml::binary::gguf;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = gguf::read_bytes(data);
});
