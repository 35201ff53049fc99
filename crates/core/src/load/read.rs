//! Reading a file the tool was given: only a regular file, and never more than a limit.
//!
//! Every file read from a user (the site's sources and theme, a cases file, a captured
//! response, a maps file) goes through [`read_bytes`] or [`read_text`]. A FIFO would block
//! the open and a device never ends, so the path must name a regular file before it is
//! opened, and the opened handle must still be that file. The read itself stops one byte
//! past the limit, whatever size the file reports (`/proc` files report 0).
//!
//! On Linux the open itself is non-blocking (`O_NONBLOCK`, which regular files ignore), so
//! even a FIFO put in place between the check and the open cannot hold the tool; the
//! opened handle's check then refuses it.

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::Path;

const MIB: u64 = 1024 * 1024;

/// The most bytes read from one kind of file, and what that kind is called in messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub bytes: u64,
    pub what: &'static str,
}

/// A site source: `evidence.yaml`, a data file, a page or a theme file. The largest run
/// file of a sweep is tens of megabytes; this leaves room without reading a disk image.
pub const SOURCE: Limit = Limit {
    bytes: 64 * MIB,
    what: "a site file",
};

/// What went wrong reading a file; the caller names the file.
#[derive(Debug)]
pub enum ReadError {
    /// The operating system refused (missing file, permission, …).
    Io(std::io::Error),
    /// Not a regular file: what it is instead ("a FIFO", "a folder", …).
    NotRegular(&'static str),
    /// The path was replaced by another file between the check and the open.
    Replaced,
    /// Longer than the limit.
    TooLarge(Limit),
    /// Not UTF-8; 1-based line and column (in characters) of the first bad byte.
    NotUtf8 {
        line: usize,
        column: usize,
        byte: u8,
    },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "cannot read the file: {e}"),
            ReadError::NotRegular(kind) => {
                write!(
                    f,
                    "is {kind}, not a regular file; only regular files are read"
                )
            }
            ReadError::Replaced => write!(f, "the file was replaced while it was being opened"),
            ReadError::TooLarge(limit) => write!(
                f,
                "the file is larger than {} MiB, the limit for {}",
                limit.bytes / MIB,
                limit.what
            ),
            ReadError::NotUtf8 { byte, .. } => {
                write!(
                    f,
                    "the file is not UTF-8: byte 0x{byte:02x} here is not valid"
                )
            }
        }
    }
}

impl std::error::Error for ReadError {}

impl ReadError {
    /// The error after the file's name, and its line and column when it has them:
    /// `cases.yaml:2:9: the file is not UTF-8 …`, for messages outside a site's diagnostics.
    pub fn at(&self, path: &Path) -> String {
        match self {
            ReadError::NotUtf8 { line, column, .. } => {
                format!("{}:{line}:{column}: {self}", path.display())
            }
            _ => format!("{}: {self}", path.display()),
        }
    }
}

impl From<ReadError> for std::io::Error {
    fn from(e: ReadError) -> std::io::Error {
        match e {
            ReadError::Io(e) => e,
            other => std::io::Error::new(std::io::ErrorKind::InvalidData, other.to_string()),
        }
    }
}

/// What a file that is not regular is, in words.
pub fn kind_of(t: std::fs::FileType) -> &'static str {
    if t.is_dir() {
        return "a folder";
    }
    if t.is_symlink() {
        return "a symlink";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    "a special file"
}

/// Opens `path` for reading if it is a regular file (a symlink is followed). Never blocks
/// on a FIFO: the type is checked before the open.
pub fn open_regular(path: &Path) -> Result<File, ReadError> {
    open_checked(path).map(|(file, _)| file)
}

/// [`open_regular`], with what the opened handle says about the file.
fn open_checked(path: &Path) -> Result<(File, Metadata), ReadError> {
    let before = std::fs::metadata(path).map_err(ReadError::Io)?;
    if !before.is_file() {
        return Err(ReadError::NotRegular(kind_of(before.file_type())));
    }
    let file = open_nonblocking(path).map_err(ReadError::Io)?;
    let opened = file.metadata().map_err(ReadError::Io)?;
    if !opened.is_file() {
        return Err(ReadError::NotRegular(kind_of(opened.file_type())));
    }
    if !same_file(&before, &opened) {
        return Err(ReadError::Replaced);
    }
    Ok((file, opened))
}

/// Opens for reading without waiting for a FIFO's writer.
#[cfg(target_os = "linux")]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
}

#[cfg(not(target_os = "linux"))]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

#[cfg(unix)]
fn same_file(a: &Metadata, b: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_file(_: &Metadata, _: &Metadata) -> bool {
    true
}

/// The bytes of the regular file `path`, at most `limit.bytes` of them.
pub fn read_bytes(path: &Path, limit: Limit) -> Result<Vec<u8>, ReadError> {
    let (file, meta) = open_checked(path)?;
    // The reported size only sizes the buffer; the limit holds while reading.
    read_limited(file, limit, meta.len())
}

/// Reads `from` to its end, or fails once it gives more than `limit.bytes`.
pub fn read_limited(from: impl Read, limit: Limit, size_hint: u64) -> Result<Vec<u8>, ReadError> {
    let capacity = size_hint.min(limit.bytes).saturating_add(1);
    let mut out = Vec::with_capacity(usize::try_from(capacity).unwrap_or(0));
    from.take(limit.bytes.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(ReadError::Io)?;
    if out.len() as u64 > limit.bytes {
        return Err(ReadError::TooLarge(limit));
    }
    Ok(out)
}

/// The text of the regular file `path`: UTF-8, at most `limit.bytes`, without a leading
/// byte order mark.
pub fn read_text(path: &Path, limit: Limit) -> Result<String, ReadError> {
    let bytes = read_bytes(path, limit)?;
    decode(bytes)
}

/// The text of a site file by its path relative to `root`, for the source line a
/// diagnostic quotes ([`crate::diagnostics::render`]). A file that cannot be read (often
/// what the finding is about: a FIFO, a file too large) has none, and neither has one
/// that is not inside the site once its links are followed: the target is judged before
/// it is read, so a page linked to `/proc/self/environ` never prints the environment.
/// Bounded, never blocking.
pub fn site_text(root: &Path) -> impl Fn(&str) -> Option<String> + '_ {
    let inside = std::fs::canonicalize(root).ok();
    move |file| {
        let real = std::fs::canonicalize(root.join(file)).ok()?;
        if !real.starts_with(inside.as_ref()?) {
            return None;
        }
        read_text(&real, SOURCE).ok()
    }
}

/// `bytes` as UTF-8 text without a leading byte order mark, or where the first bad byte is.
pub fn decode(bytes: Vec<u8>) -> Result<String, ReadError> {
    // simdutf8 validates Japanese text about ten times as fast as the standard library
    // (whose fast path is for ASCII): a tenth of `check`'s time on a large site.
    if simdutf8::basic::from_utf8(&bytes).is_ok() {
        // SAFETY: `bytes` was just validated as UTF-8.
        let text = unsafe { String::from_utf8_unchecked(bytes) };
        return Ok(strip_bom(text));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(strip_bom(text)),
        Err(e) => {
            let bytes = e.as_bytes();
            let at = e.utf8_error().valid_up_to();
            Err(not_utf8(bytes, at))
        }
    }
}

/// Where byte `at` of `bytes` (everything before it valid UTF-8) is, as line and column.
fn not_utf8(bytes: &[u8], at: usize) -> ReadError {
    // Everything before `at` is valid, so this borrows it unchanged.
    let before = String::from_utf8_lossy(&bytes[..at]);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    // A byte order mark is not a column an editor shows.
    let line_text = &before[line_start..];
    let line_text = if line_start == 0 {
        line_text.strip_prefix(BOM).unwrap_or(line_text)
    } else {
        line_text
    };
    ReadError::NotUtf8 {
        line: before.matches('\n').count() + 1,
        column: line_text.chars().count() + 1,
        // `at` is before the end: an invalid sequence starts there.
        byte: bytes[at],
    }
}

const BOM: char = '\u{feff}';

/// `text` without a leading byte order mark, which some editors write and none show.
pub fn strip_bom(text: String) -> String {
    match text.strip_prefix(BOM) {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: Limit = Limit {
        bytes: 8,
        what: "a test",
    };

    /// The window between the type check and the open: opening a FIFO must return at
    /// once (the handle's check refuses it), not wait for a writer. A hang fails the test
    /// after a generous deadline instead of hanging the suite.
    #[cfg(target_os = "linux")]
    #[test]
    fn opening_a_fifo_does_not_wait_for_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || {
            let opened = open_nonblocking(&path).map(|f| f.metadata().map(|m| m.file_type()));
            let _ = tx.send(opened.is_ok());
        });
        let got = rx.recv_timeout(std::time::Duration::from_secs(60));
        assert_eq!(got, Ok(true), "the open returned");
    }

    #[test]
    fn the_limit_holds_while_reading_an_endless_stream() {
        // `repeat` never ends and reports no size, like /dev/zero.
        let r = read_limited(std::io::repeat(0), TINY, 0);
        assert!(matches!(r, Err(ReadError::TooLarge(TINY))), "{r:?}");
        let r = read_limited(&b"12345678"[..], TINY, u64::MAX);
        assert_eq!(r.ok().as_deref(), Some(&b"12345678"[..]));
    }

    #[test]
    fn bad_utf8_is_located_by_line_and_character_column() {
        let r = decode(b"ab\nd\xc3\xa9f\xff\n".to_vec());
        match r {
            Err(ReadError::NotUtf8 { line, column, byte }) => {
                assert_eq!((line, column, byte), (2, 4, 0xff))
            }
            other => panic!("{other:?}"),
        }
        let r = decode(b"\xef\xbb\xbfx\xfe".to_vec());
        assert!(
            matches!(
                r,
                Err(ReadError::NotUtf8 {
                    line: 1,
                    column: 2,
                    ..
                })
            ),
            "{r:?}"
        );
    }

    proptest::proptest! {
        /// The fast validation accepts exactly what the standard library accepts: bytes
        /// of text (Japanese, ASCII, a mark), and the same bytes cut or with one changed.
        #[test]
        fn decoding_agrees_with_the_standard_library(
            text in "[a-z\\n 本文テスト\u{feff}\u{10000}]{0,40}",
            cut in 0usize..200,
            flip in proptest::option::of((0usize..200, proptest::num::u8::ANY)),
        ) {
            let mut bytes = text.into_bytes();
            bytes.truncate(cut.max(bytes.len() / 2));
            if let Some((at, b)) = flip && !bytes.is_empty() {
                let at = at % bytes.len();
                bytes[at] = b;
            }
            let want = String::from_utf8(bytes.clone()).ok().map(strip_bom);
            proptest::prop_assert_eq!(decode(bytes).ok(), want);
        }
    }

    #[test]
    fn a_leading_byte_order_mark_is_dropped() {
        let r = decode(b"\xef\xbb\xbf---\n".to_vec());
        assert_eq!(r.ok().as_deref(), Some("---\n"));
        assert_eq!(strip_bom("a\u{feff}".into()), "a\u{feff}");
    }

    #[test]
    fn a_folder_is_refused_before_reading() {
        let dir = tempfile::tempdir().expect("tempdir");
        let r = read_bytes(dir.path(), TINY);
        assert!(matches!(r, Err(ReadError::NotRegular("a folder"))), "{r:?}");
    }
}
