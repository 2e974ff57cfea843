//! Host object files (ELF, and PE through the same reader): the fatbin
//! sections nvcc links in, and cubins.
//!
//! An executable or shared library keeps its fatbins in `.nv_fatbin`
//! (`.nv_fatb` in PE files); a relocatable object built with `-rdc=true`
//! keeps them in `__nv_relfatbin`, which a device link later turns into
//! `.nv_fatbin`. As `cuobjdump` does, the linked fatbins are read when
//! there are any, the relocatable ones otherwise. `.nvFatBinSegment`
//! holds the host-side wrapper records (magic `0x466243B1`, version,
//! address of the fatbin, address of a name or of prelinked fatbins), 24
//! bytes each; they are counted, not followed.
//!
//! Libraries that load their own kernels through the driver API
//! (`cuModuleLoadData`, `cuLibraryLoadData`) keep fatbins as plain data
//! instead: cuFFT 11 has one sm_52 stub in `.nv_fatbin` and some 24,000
//! fatbins in `.ldata`, with no wrapper records. So every data section
//! (allocated, not code, not a fatbin section) is searched too: a
//! container is taken where its magic sits at an 8-byte aligned offset
//! and its header and every entry header check out within the section;
//! anything else there is data and is skipped.
//!
//! A cubin is an ELF file of machine `EM_CUDA` (190): one GPU's code,
//! with no PTX in it.

use object::{Object, ObjectSection};

use super::fatbin::{self, u32_at};
use super::{Binary, Error, Format, ObjectKind, MAX_ENTRIES};

/// The ELF machine number of NVIDIA GPU code.
const EM_CUDA: u16 = 190;

/// Sections of linked fatbins.
const LINKED: &[&str] = &[".nv_fatbin", ".nv_fatb"];
/// Sections of relocatable fatbins.
const RELOCATABLE: &[&str] = &["__nv_relfatbin"];
/// The section of host wrapper records.
const WRAPPERS: &str = ".nvFatBinSegment";
/// The magic number of a wrapper record.
const WRAPPER_MAGIC: u32 = 0x4662_43B1;
/// The size of a wrapper record.
const WRAPPER_SIZE: usize = 24;

/// Read an ELF or PE file's fatbin sections, or a cubin's header.
pub(super) fn read_object(bytes: &[u8]) -> Result<Binary, Error> {
    let mut bin = Binary {
        object_kind: None,
        format: Format::Object,
        sections: Vec::new(),
        wrappers: 0,
        containers: Vec::new(),
        entries: Vec::new(),
        cubin_arch: None,
    };
    if let Some(arch) = cubin_arch(bytes) {
        bin.format = Format::Cubin;
        bin.cubin_arch = Some(arch).filter(|&a| a != 0);
        return Ok(bin);
    }
    let file = object::File::parse(bytes).map_err(|e| {
        Error::at(
            0,
            format!("not a fatbin, cubin or readable object file: {e}"),
        )
    })?;
    bin.object_kind = Some(match file.kind() {
        // A position-independent executable is ELF type "dynamic" too: it
        // names its program interpreter, a shared library does not.
        object::ObjectKind::Dynamic if file.section_by_name(".interp").is_some() => {
            ObjectKind::Executable
        }
        object::ObjectKind::Dynamic => ObjectKind::SharedLibrary,
        object::ObjectKind::Executable => ObjectKind::Executable,
        object::ObjectKind::Relocatable => ObjectKind::Relocatable,
        _ => ObjectKind::Other,
    });
    let sections_named = |names: &[&str]| {
        file.sections()
            .filter(|s| s.name().is_ok_and(|n| names.contains(&n)))
            .collect::<Vec<_>>()
    };
    let mut chosen = sections_named(LINKED);
    if chosen.is_empty() {
        chosen = sections_named(RELOCATABLE);
    }
    let mut ranges = Vec::with_capacity(chosen.len());
    for s in chosen {
        let name = s.name().unwrap_or_default().to_string();
        let Some((off, size)) = s.file_range() else {
            continue;
        };
        let range = usize::try_from(off)
            .ok()
            .zip(usize::try_from(size).ok())
            .and_then(|(o, n)| Some((o, o.checked_add(n)?)))
            .filter(|&(_, end)| end <= bytes.len())
            .ok_or_else(|| Error::at(0, format!("section {name} lies outside the file")))?;
        ranges.push((range, name));
    }
    // A section header may be repeated, or several may cover the same
    // bytes: each byte of the file is read once (the first section to
    // cover it, in file order), so the work stays linear in the file
    // however many headers name it.
    ranges.sort_by_key(|&((start, end), _)| (start, std::cmp::Reverse(end)));
    let mut covered = 0usize;
    for ((start, end), name) in ranges {
        if start < covered || start == end {
            continue;
        }
        fatbin::read_containers(bytes, start, end, &name, &mut bin)?;
        covered = end;
        bin.sections.push(name);
    }
    read_embedded(bytes, &file, &mut bin);
    for s in file.sections().filter(|s| s.name() == Ok(WRAPPERS)) {
        if let Ok(data) = s.data() {
            bin.wrappers = bin.wrappers.saturating_add(
                data.chunks_exact(WRAPPER_SIZE)
                    .filter(|r| u32_at(r, 0) == Some(WRAPPER_MAGIC))
                    .count(),
            );
        }
    }
    Ok(bin)
}

/// Section kinds that hold data a library may load as a fatbin.
fn is_data(kind: object::SectionKind) -> bool {
    use object::SectionKind as K;
    matches!(
        kind,
        K::Data | K::ReadOnlyData | K::ReadOnlyDataWithRel | K::ReadOnlyString
    )
}

/// The alignment nvcc and `ld` give fatbins kept as data.
const EMBEDDED_ALIGN: usize = 8;

/// Read the fatbin containers kept as plain data (see the module
/// documentation), adding them to `bin` with their section's name.
/// Candidates that do not check out cost at most [`MAX_ENTRIES`] entry
/// headers in all, so the search stays linear in the file.
fn read_embedded(bytes: &[u8], file: &object::File<'_>, bin: &mut Binary) {
    let magic = fatbin::CONTAINER_MAGIC.to_le_bytes();
    let finder = memchr::memmem::Finder::new(&magic);
    let mut budget = MAX_ENTRIES;
    let mut ranges: Vec<((usize, usize), String)> = file
        .sections()
        .filter(|s| is_data(s.kind()))
        .filter_map(|s| {
            let name = s.name().ok()?;
            if LINKED.contains(&name) || RELOCATABLE.contains(&name) || name == WRAPPERS {
                return None;
            }
            let (off, size) = s.file_range()?;
            let start = usize::try_from(off).ok()?;
            let end = start.checked_add(usize::try_from(size).ok()?)?;
            (end <= bytes.len()).then(|| ((start, end), name.to_string()))
        })
        .collect();
    ranges.sort_by_key(|&((start, end), _)| (start, std::cmp::Reverse(end)));
    // Each byte is searched once, however many section headers name it;
    // the containers already read (from the fatbin sections, in file
    // order) are not read again should a data section cover them.
    let mut covered = 0usize;
    let taken: Vec<(usize, usize)> = bin
        .containers
        .iter()
        .map(|c| {
            let end = usize::try_from(c.body_size)
                .unwrap_or(usize::MAX)
                .saturating_add(c.offset)
                .saturating_add(usize::from(c.header_size));
            (c.offset, end)
        })
        .collect();
    for ((start, end), name) in ranges {
        let start = start.max(covered);
        covered = covered.max(end);
        let Some(data) = bytes.get(start..end) else {
            continue;
        };
        let mut found = false;
        let mut at = 0usize;
        while let Some(hit) = data.get(at..).and_then(|d| finder.find(d)) {
            let pos = start.saturating_add(at).saturating_add(hit);
            at = at.saturating_add(hit).saturating_add(1);
            if pos % EMBEDDED_ALIGN != 0 || inside(&taken, pos) {
                continue;
            }
            let mut one = Binary {
                format: Format::Object,
                sections: Vec::new(),
                wrappers: 0,
                containers: Vec::new(),
                entries: Vec::new(),
                cubin_arch: None,
                object_kind: None,
            };
            let Ok(next) = fatbin::read_container(bytes, pos, end, &name, &mut one) else {
                budget = budget.saturating_sub(one.entries.len().max(1));
                if budget == 0 {
                    return;
                }
                continue;
            };
            if one.entries.is_empty()
                || bin.entries.len().saturating_add(one.entries.len()) > MAX_ENTRIES
            {
                continue;
            }
            fatbin::append(bin, one);
            found = true;
            at = next.saturating_sub(start);
        }
        if found {
            bin.sections.push(name);
        }
    }
}

/// Whether `pos` lies in one of the `ranges` (sorted, not overlapping).
fn inside(ranges: &[(usize, usize)], pos: usize) -> bool {
    let after = ranges.partition_point(|&(start, _)| start <= pos);
    after
        .checked_sub(1)
        .and_then(|i| ranges.get(i))
        .is_some_and(|&(_, end)| pos < end)
}

/// For an ELF file of machine `EM_CUDA`, the SM architecture its header
/// flags name (0 when unknown); `None` for any other file.
fn cubin_arch(bytes: &[u8]) -> Option<u32> {
    if !bytes.starts_with(b"\x7fELF") {
        return None;
    }
    let little = bytes.get(5) == Some(&1);
    let machine = fatbin::le::<2>(bytes, 18)?;
    let machine = if little {
        u16::from_le_bytes(machine)
    } else {
        u16::from_be_bytes(machine)
    };
    if machine != EM_CUDA {
        return None;
    }
    // e_flags: offset 48 in a 64-bit header, 36 in a 32-bit one; the SM
    // number sits in bits 8..16.
    let flags_at = if bytes.get(4) == Some(&2) { 48 } else { 36 };
    let flags = u32_at(bytes, flags_at).unwrap_or(0);
    Some((flags >> 8) & 0xff)
}
