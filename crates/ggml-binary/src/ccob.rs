//! Compressed clang offload bundles (`CCOB`, versions 1–3) and their decoding.
//!
//! Header: `"CCOB"`, u16 version, u16 method (0 zlib, 1 zstd), then
//! v1: u32 uncompressed size, u64 hash (20 bytes);
//! v2: u32 total size, u32 uncompressed size, u64 hash (24 bytes);
//! v3: u64 total size, u64 uncompressed size, u64 hash (32 bytes).
//! The hash is the low 64 bits of the MD5 of the uncompressed bundle; it is recorded, not
//! checked (the zlib and zstd streams carry their own checks). The decoded bytes are a plain
//! bundle. Decoding streams into a buffer that grows with the output and stops at a caller's
//! cap: the recorded uncompressed size is never trusted as an allocation size.

use std::io::Read;

use serde::{Deserialize, Serialize};

use super::bundle::COMPRESSED_MAGIC;
use super::bytes::{Reader, sub, to_usize};
use super::error::Error;

/// Compression method of a compressed bundle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// zlib stream (method 0).
    Zlib,
    /// zstd frame (method 1).
    Zstd,
}

impl Method {
    fn name(self) -> &'static str {
        match self {
            Method::Zlib => "zlib",
            Method::Zstd => "zstd",
        }
    }
}

/// A compressed bundle header, as recorded in reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Format version, 1 to 3.
    pub version: u16,
    /// Compression method.
    pub method: Method,
    /// Header size in bytes.
    pub header_size: u64,
    /// Total size (header and compressed data); absent in version 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_size: Option<u64>,
    /// Uncompressed size as recorded.
    pub uncompressed_size: u64,
    /// The recorded hash, hex (low 64 bits of the MD5 of the uncompressed bundle).
    pub hash: String,
}

/// Parses the header at the start of `data` (`base` = its file offset).
pub fn parse_header(data: &[u8], base: u64) -> Result<Header, Error> {
    let mut r = Reader::new(data, base);
    if r.take(4, "compressed bundle magic")? != COMPRESSED_MAGIC {
        return Err(Error::BadMagic {
            what: "compressed offload bundle",
            offset: base,
        });
    }
    let version = r.u16("compressed bundle version")?;
    let method_at = r.offset();
    let method = match r.u16("compressed bundle method")? {
        0 => Method::Zlib,
        1 => Method::Zstd,
        other => {
            return Err(Error::Unsupported {
                what: "compressed bundle method",
                value: u64::from(other),
                offset: method_at,
            });
        }
    };
    let (total_size, uncompressed_size) = match version {
        1 => (None, u64::from(r.u32("compressed bundle size")?)),
        2 => (
            Some(u64::from(r.u32("compressed bundle size")?)),
            u64::from(r.u32("compressed bundle size")?),
        ),
        3 => (
            Some(r.u64("compressed bundle size")?),
            r.u64("compressed bundle size")?,
        ),
        other => {
            return Err(Error::Unsupported {
                what: "compressed bundle version",
                value: u64::from(other),
                offset: base.saturating_add(4),
            });
        }
    };
    let hash = r.u64("compressed bundle hash")?;
    Ok(Header {
        version,
        method,
        header_size: r.pos() as u64,
        total_size,
        uncompressed_size,
        hash: format!("{hash:016x}"),
    })
}

/// A decoded compressed bundle.
pub struct Decoded {
    /// The header.
    pub header: Header,
    /// The uncompressed bundle.
    pub bytes: Vec<u8>,
    /// Bytes the compressed bundle occupies in the section (header and compressed data).
    pub extent: u64,
}

/// Decodes the compressed bundle at the start of `data` (the rest of the section), refusing
/// to produce more than `max_output` bytes.
pub fn decode(data: &[u8], base: u64, max_output: u64) -> Result<Decoded, Error> {
    let header = parse_header(data, base)?;
    let compressed = compressed_bytes(data, &header, base)?;
    if header.uncompressed_size > max_output {
        return Err(Error::TooLarge {
            what: "compressed bundle uncompressed size",
            value: header.uncompressed_size,
            limit: max_output,
            offset: base,
        });
    }
    let (bytes, consumed) = inflate(compressed, &header, base)?;
    if bytes.len() as u64 != header.uncompressed_size {
        return Err(Error::SizeMismatch {
            what: "decoded compressed bundle",
            offset: base,
            expected: header.uncompressed_size,
            actual: bytes.len() as u64,
        });
    }
    let extent = header
        .total_size
        .unwrap_or_else(|| header.header_size.saturating_add(consumed));
    Ok(Decoded {
        header,
        bytes,
        extent,
    })
}

fn compressed_bytes<'a>(data: &'a [u8], header: &Header, base: u64) -> Result<&'a [u8], Error> {
    match header.total_size {
        Some(total) => {
            if total < header.header_size {
                return Err(Error::Invalid {
                    what: "compressed bundle",
                    offset: base,
                    message: format!(
                        "total size {total} is smaller than its {}-byte header",
                        header.header_size
                    ),
                });
            }
            sub(
                data,
                header.header_size,
                total - header.header_size,
                "compressed bundle data",
                base,
            )
        }
        None => data
            .get(to_usize(header.header_size)?..)
            .ok_or(Error::Truncated {
                what: "compressed bundle",
                offset: base,
                needed: header.header_size,
                available: data.len() as u64,
            }),
    }
}

/// Decodes `input`; returns the output and the compressed bytes consumed.
fn inflate(input: &[u8], header: &Header, base: u64) -> Result<(Vec<u8>, u64), Error> {
    let limit = header.uncompressed_size;
    let decode_error = |message: String| Error::Decompress {
        method: header.method.name(),
        offset: base,
        message,
    };
    let mut out = Vec::new();
    let mut source = input;
    match header.method {
        Method::Zlib => {
            // The buffered decoder consumes exactly the stream, so `source` tells what is left.
            let mut decoder = flate2::bufread::ZlibDecoder::new(&mut source);
            read_capped(&mut decoder, limit, &mut out).map_err(|e| decode_error(e.to_string()))?;
        }
        Method::Zstd => {
            let mut frame = ruzstd::decoding::FrameDecoder::new();
            frame.set_max_window_size(window_limit(limit));
            let mut decoder =
                ruzstd::decoding::StreamingDecoder::new_with_decoder(&mut source, frame)
                    .map_err(|e| decode_error(e.to_string()))?;
            read_capped(&mut decoder, limit, &mut out).map_err(|e| decode_error(e.to_string()))?;
        }
    }
    let consumed = (input.len() - source.len()) as u64;
    Ok((out, consumed))
}

/// The largest zstd window accepted: enough for the recorded output, never above 128 MiB.
fn window_limit(uncompressed: u64) -> u64 {
    uncompressed
        .max(1 << 20)
        .checked_next_power_of_two()
        .unwrap_or(u64::MAX)
        .min(128 << 20)
}

/// Reads at most `limit + 1` bytes, so that an overlong stream shows as a size mismatch
/// without being decoded further.
fn read_capped(reader: &mut impl Read, limit: u64, out: &mut Vec<u8>) -> std::io::Result<()> {
    reader.take(limit.saturating_add(1)).read_to_end(out)?;
    Ok(())
}
