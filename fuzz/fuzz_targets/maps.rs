//! Fuzzes the `/proc/<pid>/maps` parser.
#![no_main]

use evidence::packs::ggml::binary::maps;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = maps::parse(&String::from_utf8_lossy(data));
});
