//! The PTX inside CUDA binaries: standalone fatbins, cubins, and ELF (or
//! PE) executables, shared libraries and relocatable objects carrying
//! fatbin sections.
//!
//! [`read`] lists a binary's fatbin entries (PTX, SASS, LTO-IR) with what
//! their headers say; [`ptx_text`] gives back one PTX entry's text,
//! decompressed if it was stored compressed (LZ4 or Zstandard).
//! Nothing in a header is trusted: every offset and size is checked
//! against the input, decompressed sizes are capped, and a truncated or
//! corrupt binary gives an [`Error`], never a panic.
//!
//! ```
//! // A fatbin of one uncompressed PTX entry for sm_80, built by hand.
//! let ptx = b".version 9.0\n.target sm_80\n.address_size 64\n\0\0\0\0\0";
//! let mut entry = Vec::new();
//! entry.extend(1u16.to_le_bytes()); // kind: PTX
//! entry.extend(0x0101u16.to_le_bytes());
//! entry.extend(64u32.to_le_bytes()); // header size
//! entry.extend((ptx.len() as u64).to_le_bytes());
//! entry.extend([0; 8]); // compressed size, options offset
//! entry.extend(0u16.to_le_bytes()); // PTX 9.0
//! entry.extend(9u16.to_le_bytes());
//! entry.extend(80u32.to_le_bytes()); // sm_80
//! entry.extend([0; 8]); // name offset and length
//! entry.extend(0x11u64.to_le_bytes()); // flags
//! entry.extend([0; 16]);
//! entry.extend(ptx);
//! let mut fatbin = Vec::new();
//! fatbin.extend(0xBA55_ED50u32.to_le_bytes());
//! fatbin.extend(1u16.to_le_bytes());
//! fatbin.extend(16u16.to_le_bytes());
//! fatbin.extend((entry.len() as u64).to_le_bytes());
//! fatbin.extend(entry);
//!
//! let bin = ptxkit::binary::read(&fatbin).unwrap();
//! assert_eq!(bin.entries.len(), 1);
//! let e = &bin.entries[0];
//! assert_eq!(e.arch_name(), "sm_80");
//! let text = ptxkit::binary::ptx_text(&fatbin, e).unwrap();
//! assert!(text.starts_with(b".version 9.0"));
//! assert!(!text.contains(&0));
//! ```

pub mod compat;
mod decompress;
mod elf;
mod fatbin;
pub mod nvinfo;
pub mod occupancy;
pub mod rules;
pub mod scan;
pub mod usage;

pub use decompress::Compression;
pub use fatbin::{Entry, Kind, CONTAINER_MAGIC};
pub use usage::{usage_of, FunctionUsage, Usage};

/// The largest PTX text [`ptx_text`] produces (the parser's own limit).
pub const MAX_PTX_SIZE: usize = crate::MAX_FILE_SIZE;

/// The largest payload one entry may have once decompressed (512 MiB):
/// an entry whose header says more is refused with an "entry too large"
/// error before anything is decompressed, and a payload that decodes past
/// its header's size is stopped there. Real PTX entries stay far below
/// (the largest in the CUDA 13 libraries is tens of MB); a zstd frame of
/// 132 KB can claim gigabytes.
pub const MAX_ENTRY_SIZE: usize = 512 << 20;

/// The most one input's chosen entries may hold together once
/// decompressed (4 GiB), checked from their headers by [`check_total`]
/// before any is decompressed.
pub const MAX_TOTAL_SIZE: u64 = 4 << 30;

/// The most entries [`read`] lists for one input.
pub const MAX_ENTRIES: usize = 1 << 20;

/// What kind of file a binary input is.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// A standalone fatbin (`nvcc -fatbin`): containers back to back.
    Fatbin,
    /// A host object file (ELF or PE: executable, shared library or
    /// relocatable object) whose fatbin sections were read.
    Object,
    /// A cubin (`nvcc -cubin`): an NVIDIA ELF of machine code for one
    /// GPU. It carries no PTX.
    Cubin,
}

/// One fatbin container: its place and its header.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Container {
    /// The section it sits in (empty for a standalone fatbin).
    pub section: String,
    /// Its byte offset in the input.
    pub offset: usize,
    /// The container format version (1).
    pub version: u16,
    /// The size of its header (16).
    pub header_size: u16,
    /// The size of the entries after the header.
    pub body_size: u64,
}

/// What [`read`] found in a binary.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Binary {
    /// The kind of file.
    pub format: Format,
    /// The fatbin sections read, by name (objects only).
    pub sections: Vec<String>,
    /// The host wrapper records found in `.nvFatBinSegment` (objects
    /// only): each names a fatbin the CUDA runtime registers.
    pub wrappers: usize,
    /// Every container, in input order.
    pub containers: Vec<Container>,
    /// Every entry of every container, in input order.
    pub entries: Vec<Entry>,
    /// For a cubin, the SM architecture its ELF header names, if known.
    pub cubin_arch: Option<u32>,
    /// For a host object file, which kind it is (`None` for fatbins and
    /// cubins).
    pub object_kind: Option<ObjectKind>,
}

/// What kind of host object file a [`Format::Object`] binary is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectKind {
    /// A shared library (`.so`, `.dll`).
    SharedLibrary,
    /// An executable (position-independent or not).
    Executable,
    /// A relocatable object (`.o`, e.g. from `nvcc -rdc=true -c`).
    Relocatable,
    /// Another kind (a core dump…).
    Other,
}

impl ObjectKind {
    /// How people call it: `shared library`, `executable`,
    /// `relocatable object`, `object file`.
    pub fn as_str(self) -> &'static str {
        match self {
            ObjectKind::SharedLibrary => "shared library",
            ObjectKind::Executable => "executable",
            ObjectKind::Relocatable => "relocatable object",
            ObjectKind::Other => "object file",
        }
    }
}

impl Binary {
    /// The PTX entries, in input order.
    pub fn ptx_entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.kind == Kind::Ptx)
    }
}

/// Why a binary could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The byte offset in the input the problem was found at.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl Error {
    pub(crate) fn at(offset: usize, message: impl Into<String>) -> Error {
        Error {
            offset,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {:#x}: {}", self.offset, self.message)
    }
}

impl std::error::Error for Error {}

/// ELF's magic number.
const ELF_MAGIC: &[u8] = b"\x7fELF";

/// Whether `bytes` look like a binary [`read`] handles (an ELF or PE
/// file, or a fatbin container) rather than PTX text.
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes.starts_with(ELF_MAGIC)
        || bytes.starts_with(&CONTAINER_MAGIC.to_le_bytes())
        || bytes.starts_with(b"MZ")
}

/// Read a binary's fatbin containers and their entries' headers.
///
/// Only the headers are read here; [`ptx_text`] decompresses one entry.
pub fn read(bytes: &[u8]) -> Result<Binary, Error> {
    if bytes.starts_with(&CONTAINER_MAGIC.to_le_bytes()) {
        let mut bin = Binary {
            object_kind: None,
            format: Format::Fatbin,
            sections: Vec::new(),
            wrappers: 0,
            containers: Vec::new(),
            entries: Vec::new(),
            cubin_arch: None,
        };
        fatbin::read_containers(bytes, 0, bytes.len(), "", &mut bin)?;
        return Ok(bin);
    }
    elf::read_object(bytes)
}

/// The text of PTX entry `e` of `bytes` (the input [`read`] listed it
/// from): decompressed if stored compressed, up to its terminating NUL.
pub fn ptx_text(bytes: &[u8], e: &Entry) -> Result<Vec<u8>, Error> {
    if e.kind != Kind::Ptx {
        return Err(Error::at(
            e.offset,
            format!("entry {} holds {}, not PTX", e.index, e.kind.name()),
        ));
    }
    let mut out = payload(bytes, e)?;
    if let Some(nul) = memchr::memchr(0, &out) {
        out.truncate(nul);
    }
    Ok(out)
}

/// Write the text of PTX entry `e` of `bytes` to `w` as it decompresses
/// (the streaming form of [`ptx_text`]: memory stays constant for a zstd
/// payload, whatever its size); the number of bytes of text written. On an
/// error, part of the text may have been written.
pub fn write_ptx_text(bytes: &[u8], e: &Entry, w: &mut dyn std::io::Write) -> Result<u64, Error> {
    if e.kind != Kind::Ptx {
        return Err(Error::at(
            e.offset,
            format!("entry {} holds {}, not PTX", e.index, e.kind.name()),
        ));
    }
    let stored = bytes
        .get(e.payload.clone())
        .ok_or_else(|| Error::at(e.offset, "entry payload lies outside the input"))?;
    let mut text = UpToNul {
        inner: w,
        written: 0,
        done: false,
    };
    decompress::write(stored, e, &mut text)?;
    Ok(text.written)
}

/// A writer passing bytes on up to the first NUL (PTX text ends there).
struct UpToNul<'a> {
    inner: &'a mut dyn std::io::Write,
    written: u64,
    done: bool,
}

impl std::io::Write for UpToNul<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !self.done {
            let keep = match memchr::memchr(0, buf) {
                Some(nul) => {
                    self.done = true;
                    buf.get(..nul).unwrap_or_default()
                }
                None => buf,
            };
            self.inner.write_all(keep)?;
            self.written = self
                .written
                .saturating_add(u64::try_from(keep.len()).unwrap_or(u64::MAX));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// An "entry too large" error when one of `entries` would decompress to
/// more than [`MAX_ENTRY_SIZE`], or all together to more than
/// [`MAX_TOTAL_SIZE`], as their headers say (decompression never goes
/// past a header's size).
pub fn check_total<'a>(entries: impl IntoIterator<Item = &'a Entry>) -> Result<(), Error> {
    let mut total = 0u64;
    for e in entries {
        let size = decompress::declared_size(e)?;
        total = total.saturating_add(u64::try_from(size).unwrap_or(u64::MAX));
        if total > MAX_TOTAL_SIZE {
            return Err(Error::at(
                e.offset,
                format!(
                    "entries too large: up to entry {} they hold {total} bytes once decompressed, above the limit of {MAX_TOTAL_SIZE} bytes for one input",
                    e.index
                ),
            ));
        }
    }
    Ok(())
}

/// The payload of entry `e`, decompressed if stored compressed.
pub fn payload(bytes: &[u8], e: &Entry) -> Result<Vec<u8>, Error> {
    let stored = bytes
        .get(e.payload.clone())
        .ok_or_else(|| Error::at(e.offset, "entry payload lies outside the input"))?;
    decompress::payload(stored, e)
}
