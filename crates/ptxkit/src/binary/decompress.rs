//! Compressed fatbin payloads.
//!
//! nvcc 13's `--compress-mode` picks the codec: `speed` stores a raw LZ4
//! block (flag `0x2000`); `default`, `size` and `balance` store one
//! Zstandard frame (flag `0x8000`); `none` stores the payload as is. The
//! header gives the stored size and the size once decompressed.
//! Decompression never produces more than that size (nor more than
//! [`MAX_PTX_SIZE`]), and any mismatch is an error.

use std::io::Read;

use super::fatbin::{FLAG_LZ4, FLAG_ZSTD};
use super::{Entry, Error, MAX_PTX_SIZE};

/// How an entry's payload is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Compression {
    /// As is.
    None,
    /// A raw LZ4 block (`--compress-mode=speed`).
    Lz4,
    /// A Zstandard frame (`default`, `size` and `balance`).
    Zstd,
}

impl Compression {
    pub(super) fn from_flags(flags: u64) -> Compression {
        if flags & FLAG_ZSTD != 0 {
            Compression::Zstd
        } else if flags & FLAG_LZ4 != 0 {
            Compression::Lz4
        } else {
            Compression::None
        }
    }

    /// `none`, `lz4` or `zstd`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Lz4 => "lz4",
            Compression::Zstd => "zstd",
        }
    }
}

/// LZ4 cannot expand data by more than this factor (a match token of one
/// byte stands for at most 255 more bytes, plus one for the token).
const LZ4_MAX_RATIO: usize = 256;

/// The payload of `e` from its `stored` bytes, decompressed if needed.
pub(super) fn payload(stored: &[u8], e: &Entry) -> Result<Vec<u8>, Error> {
    if e.compression == Compression::None {
        if stored.len() > MAX_PTX_SIZE {
            return Err(Error::at(e.offset, "entry payload is too large"));
        }
        return Ok(stored.to_vec());
    }
    let packed_len = usize::try_from(e.compressed_size).unwrap_or(usize::MAX);
    let packed = stored.get(..packed_len).ok_or_else(|| {
        Error::at(
            e.offset,
            format!(
                "compressed size {} exceeds the stored payload of {} bytes",
                e.compressed_size,
                stored.len()
            ),
        )
    })?;
    let want = usize::try_from(e.uncompressed_size)
        .ok()
        .filter(|&n| n <= MAX_PTX_SIZE)
        .ok_or_else(|| {
            Error::at(
                e.offset,
                format!(
                    "uncompressed size {} is above the limit of {MAX_PTX_SIZE} bytes",
                    e.uncompressed_size
                ),
            )
        })?;
    let out = match e.compression {
        Compression::Lz4 => lz4(packed, want, e)?,
        Compression::Zstd => zstd(packed, want, e)?,
        Compression::None => Vec::new(),
    };
    if out.len() != want {
        return Err(Error::at(
            e.offset,
            format!(
                "{} payload decompressed to {} bytes, the header says {want}",
                e.compression.name(),
                out.len()
            ),
        ));
    }
    Ok(out)
}

fn lz4(packed: &[u8], want: usize, e: &Entry) -> Result<Vec<u8>, Error> {
    if want > packed.len().saturating_mul(LZ4_MAX_RATIO) {
        return Err(Error::at(
            e.offset,
            format!(
                "uncompressed size {want} is impossible for {} bytes of LZ4",
                packed.len()
            ),
        ));
    }
    let mut out = vec![0u8; want];
    let n = lz4_flex::block::decompress_into(packed, &mut out)
        .map_err(|err| Error::at(e.offset, format!("corrupt LZ4 payload: {err}")))?;
    out.truncate(n);
    Ok(out)
}

fn zstd(packed: &[u8], want: usize, e: &Entry) -> Result<Vec<u8>, Error> {
    let corrupt = |err: std::io::Error| Error::at(e.offset, format!("corrupt zstd payload: {err}"));
    let dec = zstd::stream::read::Decoder::with_buffer(packed).map_err(corrupt)?;
    // The output grows only as the frame really decodes (a lying header
    // allocates nothing up front), and stops one byte past `want`.
    let mut out = Vec::with_capacity(want.min(packed.len().saturating_mul(8)));
    let limit = u64::try_from(want).unwrap_or(u64::MAX).saturating_add(1);
    dec.single_frame()
        .take(limit)
        .read_to_end(&mut out)
        .map_err(corrupt)?;
    Ok(out)
}
