//! Compressed fatbin payloads.
//!
//! nvcc 13's `--compress-mode` picks the codec: `speed` stores a raw LZ4
//! block (flag `0x2000`); `default`, `size` and `balance` store one
//! Zstandard frame (flag `0x8000`); `none` stores the payload as is. The
//! header gives the stored size and the size once decompressed.
//! Decompression never produces more than that size (nor more than
//! [`MAX_ENTRY_SIZE`]: an entry said to be larger is refused before
//! anything is decompressed), and any mismatch is an error.

use std::io::{Read, Write};

use super::fatbin::{FLAG_LZ4, FLAG_ZSTD};
use super::{Entry, Error, MAX_ENTRY_SIZE};

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

/// The error for an entry whose payload would exceed the per-entry limit.
fn too_large(e: &Entry, size: u64) -> Error {
    Error::at(
        e.offset,
        format!(
            "entry too large: entry {} holds {size} bytes once decompressed, above the per-entry limit of {MAX_ENTRY_SIZE} bytes",
            e.index
        ),
    )
}

/// The size entry `e` has once decompressed, as its header says: an error
/// when it is above [`MAX_ENTRY_SIZE`] (before anything is decompressed).
pub(super) fn declared_size(e: &Entry) -> Result<usize, Error> {
    let size = match e.compression {
        Compression::None => e.stored_size,
        _ => e.uncompressed_size,
    };
    usize::try_from(size)
        .ok()
        .filter(|&n| n <= MAX_ENTRY_SIZE)
        .ok_or_else(|| too_large(e, size))
}

/// The payload of `e` from its `stored` bytes, decompressed if needed.
pub(super) fn payload(stored: &[u8], e: &Entry) -> Result<Vec<u8>, Error> {
    let want = declared_size(e)?;
    if e.compression == Compression::Lz4 {
        return lz4(packed(stored, e)?, want, e);
    }
    // Zstandard and stored payloads: the output grows only as the frame
    // really decodes (a lying header allocates nothing up front).
    let mut out = Vec::with_capacity(want.min(stored.len().saturating_mul(8)));
    write(stored, e, &mut out)?;
    Ok(out)
}

/// Write the payload of `e` (from its `stored` bytes) to `w` as it
/// decompresses, without holding it whole; the number of bytes written.
pub(super) fn write(stored: &[u8], e: &Entry, w: &mut dyn Write) -> Result<u64, Error> {
    let want = declared_size(e)?;
    let io = |err: std::io::Error| Error::at(e.offset, format!("cannot write the payload: {err}"));
    let got = match e.compression {
        Compression::None => {
            w.write_all(stored).map_err(io)?;
            stored.len()
        }
        Compression::Lz4 => {
            let out = lz4(packed(stored, e)?, want, e)?;
            w.write_all(&out).map_err(io)?;
            out.len()
        }
        Compression::Zstd => zstd(packed(stored, e)?, want, e, w)?,
    };
    if e.compression != Compression::None && got != want {
        return Err(Error::at(
            e.offset,
            format!(
                "{} payload decompressed to {got} bytes, the header says {want}",
                e.compression.name(),
            ),
        ));
    }
    Ok(u64::try_from(got).unwrap_or(u64::MAX))
}

/// The compressed bytes of `e`: the first `compressed_size` of `stored`.
fn packed<'a>(stored: &'a [u8], e: &Entry) -> Result<&'a [u8], Error> {
    let packed_len = usize::try_from(e.compressed_size).unwrap_or(usize::MAX);
    stored.get(..packed_len).ok_or_else(|| {
        Error::at(
            e.offset,
            format!(
                "compressed size {} exceeds the stored payload of {} bytes",
                e.compressed_size,
                stored.len()
            ),
        )
    })
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
    if n != want {
        return Err(Error::at(
            e.offset,
            format!("lz4 payload decompressed to {n} bytes, the header says {want}"),
        ));
    }
    Ok(out)
}

/// Decode the zstd frame `packed` into `w`, stopping one byte past `want`
/// (so a lying header is caught without decoding the rest); the number of
/// bytes decoded.
fn zstd(packed: &[u8], want: usize, e: &Entry, w: &mut dyn Write) -> Result<usize, Error> {
    let corrupt = |err: std::io::Error| Error::at(e.offset, format!("corrupt zstd payload: {err}"));
    let dec = zstd::stream::read::Decoder::with_buffer(packed).map_err(corrupt)?;
    let limit = u64::try_from(want).unwrap_or(u64::MAX).saturating_add(1);
    let mut from = dec.single_frame().take(limit);
    let mut buf = vec![0u8; 64 * 1024];
    let mut got = 0usize;
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(corrupt(err)),
        };
        got = got.saturating_add(n);
        if got > want {
            break;
        }
        w.write_all(buf.get(..n).unwrap_or_default())
            .map_err(|err| Error::at(e.offset, format!("cannot write the payload: {err}")))?;
    }
    Ok(got)
}
