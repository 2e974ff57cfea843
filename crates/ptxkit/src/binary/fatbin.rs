//! Fatbin containers and their entries.
//!
//! A container is a 16-byte header (magic `0xBA55ED50`, version `u16`,
//! header size `u16`, body size `u64`) followed by entries back to back.
//! Each entry is a header then its payload:
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 2 | kind: 1 PTX, 2 ELF (SASS), 8 LTO-IR |
//! | 2 | 2 | entry header version (`0x0101`) |
//! | 4 | 4 | header size (64 and up; the payload follows it) |
//! | 8 | 8 | payload size, padded to 8 bytes |
//! | 16 | 4 | stored size of a compressed payload (0: not compressed) |
//! | 20 | 4 | offset of the options record in the header (0: none) |
//! | 24 | 2 | minor version (PTX ISA for PTX, ELF code version otherwise) |
//! | 26 | 2 | major version |
//! | 28 | 4 | SM architecture (`80` for sm_80) |
//! | 32 | 4 | offset of the source name in the header (0: none) |
//! | 36 | 4 | length of the source name |
//! | 40 | 8 | flags (see [`Entry::flag_names`]) |
//! | 48 | 8 | zero |
//! | 56 | 8 | uncompressed payload size (compressed entries) |
//!
//! The options record holds a `u32` offset and a `u32` length, both
//! within the header, of the options text (`ptxas` options for PTX).
//! Every field was checked against fatbins built by nvcc 13.

use super::decompress::Compression;
use super::{Binary, Container, Error, MAX_ENTRIES};

/// The magic number opening a fatbin container.
pub const CONTAINER_MAGIC: u32 = 0xBA55_ED50;

/// The size of a container header.
const CONTAINER_HEADER: usize = 16;

/// The size of the fixed part of an entry header.
const ENTRY_HEADER: usize = 64;

/// What an entry holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// PTX text.
    Ptx,
    /// An ELF cubin of machine code (SASS).
    Sass,
    /// NVVM IR for link-time optimisation (`code=lto_XX`).
    LtoIr,
    /// A kind this reader does not know (its number).
    Other(u16),
}

impl Kind {
    fn from_u16(k: u16) -> Kind {
        match k {
            1 => Kind::Ptx,
            2 => Kind::Sass,
            8 => Kind::LtoIr,
            n => Kind::Other(n),
        }
    }

    /// A short name: `ptx`, `sass`, `lto-ir` or `kind-N`.
    pub fn name(self) -> String {
        match self {
            Kind::Ptx => "ptx".into(),
            Kind::Sass => "sass".into(),
            Kind::LtoIr => "lto-ir".into(),
            Kind::Other(n) => format!("kind-{n}"),
        }
    }
}

/// One fatbin entry, as its header describes it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Entry {
    /// Its position among all entries of the input (0-based).
    pub index: usize,
    /// The container it belongs to (index into [`Binary::containers`]).
    pub container: usize,
    /// Byte offset of its header in the input.
    pub offset: usize,
    /// What it holds.
    pub kind: Kind,
    /// The entry header's version field.
    pub header_version: u16,
    /// The size of its header.
    pub header_size: u32,
    /// The SM architecture number (`90` for sm_90 and sm_90a).
    pub arch: u32,
    /// The version it records: the PTX ISA version of a PTX entry
    /// (`(9, 5)` for 9.5), the ELF code version of a cubin.
    pub version: (u16, u16),
    /// Its flags.
    pub flags: u64,
    /// How its payload is stored.
    pub compression: Compression,
    /// The payload's size as stored, padding included.
    pub stored_size: u64,
    /// The compressed payload's size (0 when not compressed).
    pub compressed_size: u32,
    /// The payload's size once decompressed (0 when not compressed).
    pub uncompressed_size: u64,
    /// The source name, when the entry records one (debug builds).
    pub name: Option<String>,
    /// The options text (for PTX, the `ptxas` options nvcc recorded).
    pub options: Option<String>,
    /// Byte range of the payload in the input.
    #[serde(skip)]
    pub payload: std::ops::Range<usize>,
}

/// Flag bits with a known meaning.
const FLAG_NAMES: &[(u64, &str)] = &[
    (0x1, "64-bit"),
    (0x2, "debug"),
    (0x10, "linux"),
    (0x2000, "lz4"),
    (0x8000, "zstd"),
    (0x10000, "lto"),
    (0x10_0000, "arch-specific"),
    (0x20_0000, "family-specific"),
];

/// Flag: the entry is for the architecture-specific target (`sm_90a`).
const FLAG_ARCH_SPECIFIC: u64 = 0x10_0000;
/// Flag: the entry is for the family-specific target (`sm_100f`).
const FLAG_FAMILY_SPECIFIC: u64 = 0x20_0000;
/// Flag: the payload is LZ4-compressed (a raw LZ4 block).
pub(super) const FLAG_LZ4: u64 = 0x2000;
/// Flag: the payload is Zstandard-compressed (one zstd frame).
pub(super) const FLAG_ZSTD: u64 = 0x8000;

impl Entry {
    /// The target name: `sm_80`, `sm_90a`, `sm_100f`.
    pub fn arch_name(&self) -> String {
        let suffix = if self.flags & FLAG_ARCH_SPECIFIC != 0 {
            "a"
        } else if self.flags & FLAG_FAMILY_SPECIFIC != 0 {
            "f"
        } else {
            ""
        };
        format!("sm_{}{suffix}", self.arch)
    }

    /// Whether this entry is for architecture `want`, however it is
    /// spelled: `sm_80`, `compute_80`, `80`, `SM_90A`.
    pub fn is_for_arch(&self, want: &str) -> bool {
        let bare = |s: &str| {
            s.trim_start_matches("sm_")
                .trim_start_matches("compute_")
                .to_ascii_lowercase()
        };
        bare(&self.arch_name()) == bare(&want.to_ascii_lowercase())
    }

    /// The names of the flag bits set that have a known meaning.
    pub fn flag_names(&self) -> Vec<&'static str> {
        FLAG_NAMES
            .iter()
            .filter(|(bit, _)| self.flags & bit != 0)
            .map(|(_, n)| *n)
            .collect()
    }
}

/// Little-endian reads at checked offsets.
pub(super) fn le<const N: usize>(bytes: &[u8], at: usize) -> Option<[u8; N]> {
    bytes.get(at..at.checked_add(N)?)?.try_into().ok()
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    le(b, at).map(u16::from_le_bytes)
}

pub(super) fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    le(b, at).map(u32::from_le_bytes)
}

pub(super) fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    le(b, at).map(u64::from_le_bytes)
}

/// Read the containers lying back to back in `bytes[start..end]` into
/// `bin`; `section` names where they sit. Zero padding between
/// containers is skipped.
pub(super) fn read_containers(
    bytes: &[u8],
    start: usize,
    end: usize,
    section: &str,
    bin: &mut Binary,
) -> Result<(), Error> {
    let mut at = start;
    while at < end {
        // Sections may pad containers to an alignment with zeros.
        if bytes.get(at) == Some(&0) {
            at = at.saturating_add(1);
            continue;
        }
        at = read_container(bytes, at, end, section, bin)?;
    }
    Ok(())
}

/// Move the containers and entries `from` read (alone) to the end of
/// `bin`, numbering them after those already there.
pub(super) fn append(bin: &mut Binary, from: Binary) {
    let first = bin.containers.len();
    bin.containers.extend(from.containers);
    for mut e in from.entries {
        e.container = e.container.saturating_add(first);
        e.index = bin.entries.len();
        bin.entries.push(e);
    }
}

/// Read the container at `at` (ending by `end`); the offset after it.
pub(super) fn read_container(
    bytes: &[u8],
    at: usize,
    end: usize,
    section: &str,
    bin: &mut Binary,
) -> Result<usize, Error> {
    let truncated = || Error::at(at, "truncated fatbin container header");
    let magic = u32_at(bytes, at).ok_or_else(truncated)?;
    if magic != CONTAINER_MAGIC {
        return Err(Error::at(
            at,
            format!(
                "no fatbin container here (magic {magic:#010x}, expected {CONTAINER_MAGIC:#010x})"
            ),
        ));
    }
    let version = u16_at(bytes, at.saturating_add(4)).ok_or_else(truncated)?;
    let header_size = u16_at(bytes, at.saturating_add(6)).ok_or_else(truncated)?;
    let body_size = u64_at(bytes, at.saturating_add(8)).ok_or_else(truncated)?;
    if usize::from(header_size) < CONTAINER_HEADER {
        return Err(Error::at(
            at,
            format!("fatbin container header size {header_size} is below {CONTAINER_HEADER}"),
        ));
    }
    let body = at.saturating_add(usize::from(header_size));
    let body_end = usize::try_from(body_size)
        .ok()
        .and_then(|s| body.checked_add(s))
        .filter(|&e| e <= end)
        .ok_or_else(|| {
            Error::at(
                at,
                format!(
                    "fatbin container of {body_size} bytes runs past the end of its {} ({} bytes left)",
                    if section.is_empty() { "input" } else { "section" },
                    end.saturating_sub(body)
                ),
            )
        })?;
    let container = bin.containers.len();
    bin.containers.push(Container {
        section: section.to_string(),
        offset: at,
        version,
        header_size,
        body_size,
    });
    let mut p = body;
    while p < body_end {
        if bin.entries.len() >= MAX_ENTRIES {
            return Err(Error::at(
                p,
                format!("more than {MAX_ENTRIES} fatbin entries"),
            ));
        }
        let e = read_entry(bytes, p, body_end, container, bin.entries.len())?;
        p = e.payload.end;
        bin.entries.push(e);
    }
    Ok(body_end)
}

/// Read the entry header at `at` of a container body ending at `end`.
fn read_entry(
    bytes: &[u8],
    at: usize,
    end: usize,
    container: usize,
    index: usize,
) -> Result<Entry, Error> {
    let header = bytes
        .get(at..end)
        .and_then(|b| b.get(..ENTRY_HEADER))
        .ok_or_else(|| Error::at(at, "truncated fatbin entry header"))?;
    // `header` holds ENTRY_HEADER bytes: the reads below cannot fail.
    let u16f = |o| u16_at(header, o).unwrap_or(0);
    let u32f = |o| u32_at(header, o).unwrap_or(0);
    let u64f = |o| u64_at(header, o).unwrap_or(0);
    let header_size = u32f(4);
    let stored_size = u64f(8);
    let hs = usize::try_from(header_size).unwrap_or(usize::MAX);
    if hs < ENTRY_HEADER {
        return Err(Error::at(
            at,
            format!("fatbin entry header size {header_size} is below {ENTRY_HEADER}"),
        ));
    }
    let payload_start = at.checked_add(hs).filter(|&s| s <= end).ok_or_else(|| {
        Error::at(
            at,
            format!("fatbin entry header of {header_size} bytes runs past its container"),
        )
    })?;
    let payload_end = usize::try_from(stored_size)
        .ok()
        .and_then(|s| payload_start.checked_add(s))
        .filter(|&e| e <= end)
        .ok_or_else(|| {
            Error::at(
                at,
                format!(
                    "fatbin entry payload of {stored_size} bytes runs past its container ({} bytes left)",
                    end.saturating_sub(payload_start)
                ),
            )
        })?;
    // The whole header is inside the container: the optional fields
    // (name, options) are read from it alone.
    let full = bytes.get(at..payload_start).unwrap_or_default();
    let kind = Kind::from_u16(u16f(0));
    let flags = u64f(40);
    let name = text_field(full, u32f(32), u32f(36));
    let options = match u32f(20) {
        0 => None,
        o => {
            let o = usize::try_from(o).unwrap_or(usize::MAX);
            match (u32_at(full, o), u32_at(full, o.saturating_add(4))) {
                // Cubins keep binary attributes here; only PTX options are text.
                (Some(off), Some(len)) if kind == Kind::Ptx => text_field(full, off, len),
                _ => None,
            }
        }
    };
    let compressed_size = u32f(16);
    let compression = Compression::from_flags(flags);
    Ok(Entry {
        index,
        container,
        offset: at,
        kind,
        header_version: u16f(2),
        header_size,
        arch: u32f(28),
        version: (u16f(26), u16f(24)),
        flags,
        compression,
        stored_size,
        compressed_size,
        uncompressed_size: u64f(56),
        name,
        options,
        payload: payload_start..payload_end,
    })
}

/// The text of `len` bytes at `off` in `header`, trimmed of trailing
/// spaces and NULs; `None` when empty, out of range or not UTF-8.
fn text_field(header: &[u8], off: u32, len: u32) -> Option<String> {
    if off == 0 || len == 0 {
        return None;
    }
    let off = usize::try_from(off).ok()?;
    let len = usize::try_from(len).ok()?;
    let raw = header.get(off..off.checked_add(len)?)?;
    let s = std::str::from_utf8(raw).ok()?;
    let s = s.trim_end_matches([' ', '\0']).trim_start();
    (!s.is_empty()).then(|| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(arch: u32, flags: u64) -> Entry {
        Entry {
            index: 0,
            container: 0,
            offset: 0,
            kind: Kind::Ptx,
            header_version: 0,
            header_size: 0,
            arch,
            version: (0, 0),
            flags,
            compression: Compression::None,
            stored_size: 0,
            compressed_size: 0,
            uncompressed_size: 0,
            name: None,
            options: None,
            payload: 0..0,
        }
    }

    #[test]
    fn arch_spellings() {
        let e = entry(90, FLAG_ARCH_SPECIFIC);
        for want in ["sm_90a", "compute_90a", "90a", "SM_90A"] {
            assert!(e.is_for_arch(want), "{want}");
        }
        for want in ["sm_90", "90", "sm_80a", "90f"] {
            assert!(!e.is_for_arch(want), "{want}");
        }
        assert!(entry(80, 0).is_for_arch("compute_80"));
        assert!(entry(100, FLAG_FAMILY_SPECIFIC).is_for_arch("sm_100f"));
    }
}
