//! Build script: a fingerprint of the core's sources and the workspace's locked dependencies, which
//! names the format of the parse cache (`src/load/cache.rs`): entries written by another
//! build are never read.

use std::hash::Hasher;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=../../Cargo.lock");
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    files.sort();
    files.push(PathBuf::from("../../Cargo.lock"));
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for f in &files {
        h.write(f.to_string_lossy().as_bytes());
        h.write(&std::fs::read(f).unwrap_or_default());
    }
    println!("cargo:rustc-env=EVIDENCE_SOURCE_HASH={:016x}", h.finish());
}
