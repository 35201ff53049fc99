//! Binary probes: the readers of `evidence-ggml-binary`, and the ways into them that open
//! files with the core's checked reads.
//!
//! The formats themselves (ELF and PE sections, offload bundles, AMDGPU code objects, GGUF,
//! `/proc/*/maps`) live in their own crate, which compiles apart from the pack; here each
//! reader that starts from a path opens it as every other input is opened: a FIFO or a
//! device is refused before the open, and a read is bounded.

pub use evidence_ggml_binary::{
    Error, Warning, amdgpu, bundle, bytes, ccob, classify, elf, error, ggml,
};

use std::fs::File;
use std::path::Path;

/// Opens `path` for a reader: a regular file only, never blocking on a FIFO.
fn open(path: &Path) -> Result<File, Error> {
    evidence_core::load::read::open_regular(path).map_err(|e| Error::io(path, e.into()))
}

/// Offload bundles of a host library: the reader's items, and [`fatbin::scan`].
pub mod fatbin {
    pub use evidence_ggml_binary::fatbin::*;

    use super::{Error, open};
    use std::path::Path;

    /// Scans the library at `path`.
    pub fn scan(path: &Path, options: &ScanOptions) -> Result<FatbinReport, Error> {
        scan_file(path, &open(path)?, options)
    }
}

/// GGUF model files: the reader's items, and [`gguf::read`].
pub mod gguf {
    pub use evidence_ggml_binary::gguf::*;

    use super::{Error, open};
    use std::path::Path;

    /// Reads the GGUF file at `path`.
    pub fn read(path: &Path) -> Result<GgufReport, Error> {
        read_file(path, &open(path)?)
    }
}

/// A process's mapped files: the reader's items, and [`maps::read_pid`].
pub mod maps {
    pub use evidence_ggml_binary::maps::*;

    use super::Error;
    use evidence_core::load::read::{Limit, read_text};
    use std::path::PathBuf;

    /// Largest maps file read: a line is about 100 bytes, and a process may map several
    /// hundred thousand areas when `vm.max_map_count` is raised.
    pub const MAPS_FILE: Limit = Limit {
        bytes: 64 * 1024 * 1024,
        what: "a maps file",
    };

    /// Reads and parses `/proc/<pid>/maps`.
    pub fn read_pid(pid: u32) -> Result<MapsReport, Error> {
        let path = PathBuf::from(format!("/proc/{pid}/maps"));
        // The file reports a size of 0: only the read's own limit bounds it.
        let text = read_text(&path, MAPS_FILE).map_err(|e| Error::io(&path, e.into()))?;
        let mut report = parse(&text);
        report.pid = Some(pid);
        Ok(report)
    }
}
