//! The ggml pack's binary readers: what a GPU build of ggml carries and what a model file
//! holds, read from the files themselves.
//!
//! A crate of its own, apart from the pack (`evidence-ggml`), because these formats rarely
//! change and their readers (the `object` crate's ELF and PE readers, demangling,
//! decompression) are the slow part of the pack to compile: a change in the pack no longer
//! compiles them again, and, needing nothing of `evidence-core`, they compile beside it.
//!
//! - [`fatbin::scan_file`]: every clang offload bundle (plain or compressed) of a host library's
//!   `.hip_fatbin` section, every entry, and every kernel of each AMDGPU code object
//!   (registers, LDS, scratch, spills), classified into families by rules given as data.
//! - [`gguf::read_file`]: a GGUF file's header, metadata, tensor table, file type and type census.
//! - [`maps::parse`]: the libraries and model files a process maps.
//!
//! Nothing here writes or opens files: the pack opens them (refusing a FIFO or a device) and
//! reads `/proc/<pid>/maps` with the core's bounded reads. Inputs are memory-mapped and read through bounds-checked
//! helpers ([`bytes`]); a malformed input gives an [`Error`] with its file offset, or a
//! [`Warning`] in the report when only one part of it is bad. Reports serialize with serde
//! and list everything in a deterministic order.
//!
//! One job per file: [`elf`] finds the section, [`bundle`] walks the offload bundles,
//! [`ccob`] decodes compressed bundles, [`amdgpu`] reads code object headers and metadata,
//! [`classify`] applies the family rules, [`ggml`] holds the type tables, and [`error`]
//! the error type.

pub mod amdgpu;
pub mod bundle;
pub mod bytes;
pub mod ccob;
pub mod classify;
pub mod elf;
pub mod error;
pub mod fatbin;
pub mod ggml;
pub mod gguf;
pub mod maps;

pub use error::{Error, Warning};
