//! The one error type of the binary probes, and the warnings a scan records and goes on.
//!
//! Every error that comes from file data names the file offset where it was found, so a
//! message reads like `truncated offload bundle entry table at 0xc80020: needs 24 bytes,
//! 3 left`. [`Warning`] is the serializable form recorded in a report when one bundle, entry
//! or tensor is bad and the rest of the scan goes on.

use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Why a probe could not read a file, or one part of it.
#[derive(Debug)]
pub enum Error {
    /// The file could not be opened, mapped or read.
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The file is not an object file (ELF or PE) that can be parsed.
    NotObject {
        /// What the object parser said.
        message: String,
    },
    /// The object file has no section of the expected name.
    MissingSection {
        /// The section names looked for.
        names: &'static str,
    },
    /// Fewer bytes are left than a structure needs.
    Truncated {
        /// What was being read.
        what: &'static str,
        /// File offset where it starts.
        offset: u64,
        /// Bytes it needs.
        needed: u64,
        /// Bytes that are left.
        available: u64,
    },
    /// The bytes at `offset` do not start with the expected magic.
    BadMagic {
        /// What was expected.
        what: &'static str,
        /// File offset.
        offset: u64,
    },
    /// A version, method or type this reader does not know.
    Unsupported {
        /// What the value is.
        what: &'static str,
        /// The value found.
        value: u64,
        /// File offset.
        offset: u64,
    },
    /// A count or size that cannot be right: larger than the bytes left could hold, or
    /// than a fixed limit.
    TooLarge {
        /// What was counted.
        what: &'static str,
        /// The value found.
        value: u64,
        /// The largest value accepted there.
        limit: u64,
        /// File offset.
        offset: u64,
    },
    /// A range that points outside the data that holds it.
    OutOfBounds {
        /// What the range is.
        what: &'static str,
        /// File offset of the field that holds it.
        offset: u64,
        /// Start of the range, relative to its container.
        start: u64,
        /// Length of the range.
        len: u64,
        /// Size of the container.
        limit: u64,
    },
    /// Compressed data did not decode.
    Decompress {
        /// zlib or zstd.
        method: &'static str,
        /// File offset of the compressed bundle.
        offset: u64,
        /// What the decoder said.
        message: String,
    },
    /// A decoded or computed size differs from the one recorded.
    SizeMismatch {
        /// What was measured.
        what: &'static str,
        /// File offset.
        offset: u64,
        /// The recorded size.
        expected: u64,
        /// The measured size.
        actual: u64,
    },
    /// An AMDGPU code object whose ELF structure or metadata note could not be read.
    CodeObject {
        /// File offset of the code object (of the compressed bundle when it was compressed).
        offset: u64,
        /// What went wrong.
        message: String,
    },
    /// Anything else that is malformed.
    Invalid {
        /// What was being read.
        what: &'static str,
        /// File offset.
        offset: u64,
        /// What is wrong with it.
        message: String,
    },
}

impl Error {
    /// A short stable code for the kind of error, used in recorded warnings.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Io { .. } => "io",
            Error::NotObject { .. } => "not-object",
            Error::MissingSection { .. } => "missing-section",
            Error::Truncated { .. } => "truncated",
            Error::BadMagic { .. } => "bad-magic",
            Error::Unsupported { .. } => "unsupported",
            Error::TooLarge { .. } => "too-large",
            Error::OutOfBounds { .. } => "out-of-bounds",
            Error::Decompress { .. } => "decompress",
            Error::SizeMismatch { .. } => "size-mismatch",
            Error::CodeObject { .. } => "code-object",
            Error::Invalid { .. } => "invalid",
        }
    }

    /// The file offset the error is about, when it is about one.
    pub fn offset(&self) -> Option<u64> {
        match self {
            Error::Io { .. } | Error::NotObject { .. } | Error::MissingSection { .. } => None,
            Error::Truncated { offset, .. }
            | Error::BadMagic { offset, .. }
            | Error::Unsupported { offset, .. }
            | Error::TooLarge { offset, .. }
            | Error::OutOfBounds { offset, .. }
            | Error::Decompress { offset, .. }
            | Error::SizeMismatch { offset, .. }
            | Error::CodeObject { offset, .. }
            | Error::Invalid { offset, .. } => Some(*offset),
        }
    }

    /// The error as a recorded warning.
    pub fn to_warning(&self) -> Warning {
        Warning {
            code: self.code().to_string(),
            offset: self.offset(),
            message: self.to_string(),
        }
    }

    /// The error of reading the file at `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::NotObject { message } => {
                write!(f, "not an ELF or PE object file: {message}")
            }
            Error::MissingSection { names } => write!(f, "no {names} section"),
            Error::Truncated {
                what,
                offset,
                needed,
                available,
            } => write!(
                f,
                "truncated {what} at {offset:#x}: needs {needed} bytes, {available} left"
            ),
            Error::BadMagic { what, offset } => write!(f, "not a {what} at {offset:#x}"),
            Error::Unsupported {
                what,
                value,
                offset,
            } => write!(f, "unsupported {what} {value} at {offset:#x}"),
            Error::TooLarge {
                what,
                value,
                limit,
                offset,
            } => write!(
                f,
                "{what} {value} at {offset:#x} is too large (at most {limit} fits)"
            ),
            Error::OutOfBounds {
                what,
                offset,
                start,
                len,
                limit,
            } => write!(
                f,
                "{what} at {offset:#x} points past the end: {start:#x}+{len:#x} > {limit:#x}"
            ),
            Error::Decompress {
                method,
                offset,
                message,
            } => write!(
                f,
                "{method} data of the compressed bundle at {offset:#x} does not decode: {message}"
            ),
            Error::SizeMismatch {
                what,
                offset,
                expected,
                actual,
            } => write!(
                f,
                "{what} at {offset:#x} is {actual} bytes, the header says {expected}"
            ),
            Error::CodeObject { offset, message } => {
                write!(f, "AMDGPU code object at {offset:#x}: {message}")
            }
            Error::Invalid {
                what,
                offset,
                message,
            } => write!(f, "invalid {what} at {offset:#x}: {message}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A problem recorded in a report while the rest of the scan went on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    /// The error code ([`Error::code`]).
    pub code: String,
    /// File offset, when the problem is at one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// The rendered message.
    pub message: String,
}

impl Warning {
    /// A warning that is not an [`Error`].
    pub fn new(code: &str, offset: Option<u64>, message: impl Into<String>) -> Self {
        Warning {
            code: code.to_string(),
            offset,
            message: message.into(),
        }
    }
}

impl From<&Error> for Warning {
    fn from(error: &Error) -> Self {
        error.to_warning()
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}]", self.message, self.code)
    }
}
