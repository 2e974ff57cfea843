//! A reading cursor on a shared file: each clone reads at its own
//! position with `pread`, so many readers (the members of a wheel, the
//! runs of a spill file) share one open file without sharing an offset.

use std::io::{Read, Seek, SeekFrom};
use std::sync::Arc;

/// A reading cursor on a file shared between threads: each clone reads
/// at its own position (`pread`), so the members of one wheel can be
/// inflated on all cores from one open file.
#[derive(Clone, Debug)]
pub(crate) struct At {
    file: Arc<std::fs::File>,
    pos: u64,
    len: u64,
}

impl At {
    /// A cursor at the start of `file`.
    pub(crate) fn new(file: std::fs::File) -> std::io::Result<At> {
        let len = file.metadata()?.len();
        Ok(At {
            file: Arc::new(file),
            pos: 0,
            len,
        })
    }
}

impl Read for At {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        #[cfg(unix)]
        let n = std::os::unix::fs::FileExt::read_at(&*self.file, buf, self.pos)?;
        #[cfg(windows)]
        let n = std::os::windows::fs::FileExt::seek_read(&*self.file, buf, self.pos)?;
        self.pos = self.pos.saturating_add(n as u64);
        Ok(n)
    }
}

impl Seek for At {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        let pos = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos = pos.ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "seek before the start")
        })?;
        Ok(self.pos)
    }
}
