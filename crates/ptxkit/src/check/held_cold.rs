//! Held uses written out to a temporary file: with no error cap
//! (`ptx check --max-errors 0`) every use of an unknown name waits for the
//! labels of its block as a built diagnostic, and a body of millions of
//! them held about 850 bytes each (8.4 MB of `add.s32 %r1, %r2, %r3;`
//! with nothing declared: 1.1 GB). Past [`HOT`] twice over, the oldest
//! [`HOT`] of a list go to disk as a chunk; a closing block or the body's
//! end reads the chunks it settles back one at a time.

use std::fs::File;
use std::io;

use crate::diag::Diagnostic;
use crate::syntax::Name;

/// Uses of a list kept in memory; past twice this many, the oldest this
/// many are written out as one chunk.
pub(super) const HOT: usize = 1 << 13;

/// A run of held uses on disk, in the order held (so of nondecreasing
/// depth).
#[derive(Clone, Copy, Debug)]
pub(super) struct Chunk {
    at: u64,
    bytes: u64,
    pub(super) count: usize,
    /// The depth of its first and last use.
    pub(super) depths: (usize, usize),
}

/// A held use read back: its name, diagnostic and depth.
pub(super) type ColdUse = (Name, Diagnostic, usize);

/// The file the chunks of both lists are written to (unlinked: it goes
/// with the check).
pub(super) struct Store {
    file: File,
    len: u64,
}

impl Store {
    /// A new store, or `None` without a temporary file.
    pub(super) fn new() -> Option<Store> {
        Some(Store {
            file: tempfile::tempfile().ok()?,
            len: 0,
        })
    }

    /// Write `uses` (in order, nonempty) as a chunk.
    pub(super) fn write(&mut self, uses: &[ColdUse]) -> io::Result<Chunk> {
        let mut buf = Vec::new();
        let mut count = 0usize;
        let mut depths = (usize::MAX, 0);
        for &(n, ref d, depth) in uses {
            let name = n.as_str().as_bytes();
            buf.extend_from_slice(&u32::try_from(name.len()).unwrap_or(0).to_le_bytes());
            buf.extend_from_slice(name.get(..u32::MAX as usize).unwrap_or(name));
            buf.extend_from_slice(&u64::try_from(depth).unwrap_or(0).to_le_bytes());
            crate::diag::encode(d, &mut buf);
            count = count.saturating_add(1);
            depths = (depths.0.min(depth), depth);
        }
        write_at(&self.file, &buf, self.len)?;
        let chunk = Chunk {
            at: self.len,
            bytes: buf.len() as u64,
            count,
            depths,
        };
        self.len = self.len.saturating_add(buf.len() as u64);
        Ok(chunk)
    }

    /// Read a chunk back, in order.
    pub(super) fn read(&self, c: Chunk) -> io::Result<Vec<ColdUse>> {
        let len = usize::try_from(c.bytes).map_err(io::Error::other)?;
        let mut buf = vec![0u8; len];
        read_at(&self.file, &mut buf, c.at)?;
        let mut r = buf.as_slice();
        let mut out = Vec::with_capacity(c.count);
        for _ in 0..c.count {
            let n = take::<4>(&mut r).map(u32::from_le_bytes)? as usize;
            let name = r.get(..n).ok_or_else(cut)?;
            let name = Name::new(std::str::from_utf8(name).map_err(io::Error::other)?);
            r = r.get(n..).unwrap_or_default();
            let depth = usize::try_from(take::<8>(&mut r).map(u64::from_le_bytes)?)
                .map_err(io::Error::other)?;
            let d = crate::diag::decode(&mut r)?;
            out.push((name, d, depth));
        }
        Ok(out)
    }
}

fn cut() -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, "held uses cut short")
}

fn take<const N: usize>(r: &mut &[u8]) -> io::Result<[u8; N]> {
    let (head, rest) = r.split_first_chunk::<N>().ok_or_else(cut)?;
    *r = rest;
    Ok(*head)
}

#[cfg(unix)]
fn write_at(f: &File, buf: &[u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(f, buf, at)
}

#[cfg(unix)]
fn read_at(f: &File, buf: &mut [u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(f, buf, at)
}

#[cfg(windows)]
fn write_at(f: &File, mut buf: &[u8], mut at: u64) -> io::Result<()> {
    while !buf.is_empty() {
        let n = std::os::windows::fs::FileExt::seek_write(f, buf, at)?;
        if n == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        buf = buf.get(n..).unwrap_or_default();
        at = at.saturating_add(n as u64);
    }
    Ok(())
}

#[cfg(windows)]
fn read_at(f: &File, mut buf: &mut [u8], mut at: u64) -> io::Result<()> {
    while !buf.is_empty() {
        let n = std::os::windows::fs::FileExt::seek_read(f, buf, at)?;
        if n == 0 {
            return Err(cut());
        }
        let rest = std::mem::take(&mut buf);
        buf = rest.get_mut(n..).unwrap_or_default();
        at = at.saturating_add(n as u64);
    }
    Ok(())
}
