//! What each kernel of a cubin uses: the figures `cuobjdump -res-usage`
//! prints, read from the cubin's sections, symbols and `.nv.info`
//! attributes (see [`super::nvinfo`]).
//!
//! | figure | where it is |
//! | --- | --- |
//! | `REG` | a kernel's `EIATTR_REGCOUNT`; for a device function, or without the attribute, the top byte of the `.text.<f>` section's `sh_info` (0 in newer cubins) |
//! | `STACK` | `EIATTR_MIN_STACK_SIZE` (`0xffffffff`: unknown), else `EIATTR_MAX_STACK_SIZE` |
//! | `SHARED` | the size of `.nv.shared.<function>` (on sm_80 and later it includes the 1 KB the system reserves) |
//! | `LOCAL` | the size of `.nv.local.<function>` |
//! | `CONSTANT[n]` | the size of `.nv.constant<n>.<function>`; without a function, of the module's `.nv.constant<n>` |
//! | `GLOBAL` | the size of `.nv.global` and `.nv.global.init` |
//! | `TEXTURE`, `SURFACE`, `SAMPLER` | symbols of ELF type 10, 12 and 11 (texture, surface and sampler references) |
//!
//! and, beyond what cuobjdump prints: the frame size, named barriers,
//! `mbarrier` objects, the register limit ptxas was given, launch bounds
//! (`MAX_THREADS`), required block size, cluster dimensions and the size
//! of the code.

use object::read::elf::{FileHeader, SectionHeader, Sym};
use object::{elf, Endianness};

use super::nvinfo::{self, attr, Value};
use super::{Binary, Entry, Error, Kind};

/// ELF symbol type of a texture reference.
const STT_CUDA_TEXTURE: u8 = 10;
/// ELF symbol type of a sampler reference.
const STT_CUDA_SAMPLER: u8 = 11;
/// ELF symbol type of a surface reference.
const STT_CUDA_SURFACE: u8 = 12;
/// `st_other` bit of a kernel's symbol.
const STO_CUDA_ENTRY: u8 = 0x10;
/// `EIATTR_MIN_STACK_SIZE` when ptxas cannot bound the stack.
const UNKNOWN_STACK: u32 = u32::MAX;

/// One constant bank's size.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Bank {
    /// The bank number (`0` for `CONSTANT[0]`).
    pub bank: u32,
    /// Its size in bytes.
    pub bytes: u64,
}

/// What one function of a cubin uses.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FunctionUsage {
    /// The function's symbol (mangled).
    pub name: String,
    /// Whether it is a kernel (`.entry`), rather than a device function
    /// kept apart (relocatable code).
    pub kernel: bool,
    /// Registers per thread (`REG`, as cuobjdump reads it).
    pub registers: u32,
    /// The register count the function's code section records (the top
    /// byte of its `sh_info`; 0 in cubins of recent toolkits).
    pub section_registers: u32,
    /// Stack bytes per thread with callees (`STACK`); `None` when ptxas
    /// could not bound it (recursion, indirect calls).
    pub stack: Option<u64>,
    /// The function's own frame in bytes.
    pub frame: u64,
    /// Static shared memory per block in bytes (`SHARED`).
    pub shared: u64,
    /// `.local` memory per thread in bytes (`LOCAL`).
    pub local: u64,
    /// The function's constant banks (`CONSTANT[n]`), in section order.
    pub constant: Vec<Bank>,
    /// Texture references (`TEXTURE`).
    pub textures: u32,
    /// Surface references (`SURFACE`).
    pub surfaces: u32,
    /// Sampler references (`SAMPLER`).
    pub samplers: u32,
    /// Named barriers (highest id + 1).
    pub barriers: u32,
    /// `mbarrier` objects.
    pub mbarriers: u32,
    /// The register limit ptxas was given (`.maxnreg`, launch bounds).
    pub max_registers: Option<u32>,
    /// Launch bounds: the most threads per block (x, y, z).
    pub max_threads: Option<[u32; 3]>,
    /// The required block size (`.reqntid`).
    pub required_threads: Option<[u32; 3]>,
    /// Cluster dimensions (`__cluster_dims__`).
    pub cluster: Option<[u32; 3]>,
    /// The most blocks in a cluster (`.maxclusterrank`).
    pub max_cluster_rank: Option<u32>,
    /// Whether it must be launched as a cluster.
    pub explicit_cluster: bool,
    /// Size of the kernel parameters in bytes.
    pub param_bytes: Option<u32>,
    /// Size of its machine code in bytes.
    pub code_bytes: u64,
}

/// What a cubin uses: module-wide figures and each function's.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Usage {
    /// The SM architecture number its header names (`90`), 0 if unknown.
    pub arch: u32,
    /// Global memory the module defines, in bytes (`GLOBAL`).
    pub global: u64,
    /// The module's constant banks (`CONSTANT[n]` under `Common`).
    pub constant: Vec<Bank>,
    /// Whether the cubin reserves the system's shared memory in each
    /// kernel's `.nv.shared.<kernel>` (a `.nv.shared.reserved.0` section is
    /// there; sm_90 and later): `SHARED` then counts it already.
    pub shared_includes_reserved: bool,
    /// Each function with its own code section, in section order (the
    /// order `cuobjdump -res-usage` prints them).
    pub functions: Vec<FunctionUsage>,
}

impl Usage {
    /// The report as `cuobjdump -res-usage` prints it for one cubin
    /// (after its `Resource usage:` line).
    pub fn cuobjdump_text(&self) -> String {
        let banks = |bs: &[Bank]| {
            bs.iter()
                .map(|b| format!(" CONSTANT[{}]:{}", b.bank, b.bytes))
                .collect::<String>()
        };
        let mut s = format!(
            " Common:\n  GLOBAL:{}{}\n",
            self.global,
            banks(&self.constant)
        );
        for f in &self.functions {
            let stack = f
                .stack
                .map_or_else(|| "UNKNOWN".to_string(), |n| n.to_string());
            s.push_str(&format!(
                " Function {}:\n  REG:{} STACK:{stack} SHARED:{} LOCAL:{}{} TEXTURE:{} SURFACE:{} SAMPLER:{}\n",
                f.name,
                f.registers,
                f.shared,
                f.local,
                banks(&f.constant),
                f.textures,
                f.surfaces,
                f.samplers
            ));
        }
        s
    }
}

/// One SASS entry of a binary and what its cubin uses.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EntryUsage {
    /// The entry's index in [`Binary::entries`] (`None` for a cubin
    /// read on its own).
    pub entry: Option<usize>,
    /// `sm_90`, `sm_90a`, `sm_100f`.
    pub arch_name: String,
    /// The cubin's figures, or why they could not be read.
    pub usage: Result<Usage, String>,
}

/// The resource usage of every cubin in `bytes` (which [`super::read`]
/// read as `bin`): each SASS entry of a fatbin, or the cubin itself.
pub fn usage_of(bytes: &[u8], bin: &Binary) -> Vec<EntryUsage> {
    if bin.format == super::Format::Cubin {
        let usage = read(bytes).map_err(|e| e.to_string());
        let arch = usage.as_ref().map(|u| u.arch).unwrap_or(0);
        return vec![EntryUsage {
            entry: None,
            arch_name: format!("sm_{}", bin.cubin_arch.unwrap_or(arch)),
            usage,
        }];
    }
    bin.entries
        .iter()
        .filter(|e| e.kind == Kind::Sass)
        .map(|e| entry_usage(bytes, e))
        .collect()
}

/// The resource usage of one SASS entry `e` of `bytes`.
pub fn entry_usage(bytes: &[u8], e: &Entry) -> EntryUsage {
    let usage = super::payload(bytes, e)
        .and_then(|cubin| read(&cubin))
        .map_err(|err| err.to_string());
    EntryUsage {
        entry: Some(e.index),
        arch_name: e.arch_name(),
        usage,
    }
}

/// Read the resource usage of one cubin.
pub fn read(cubin: &[u8]) -> Result<Usage, Error> {
    let bad = |e: object::read::Error| Error::at(0, format!("unreadable cubin: {e}"));
    match cubin.get(4) {
        Some(2) => read_elf::<elf::FileHeader64<Endianness>>(cubin).map_err(bad),
        Some(1) => read_elf::<elf::FileHeader32<Endianness>>(cubin).map_err(bad),
        _ => Err(Error::at(4, "not an ELF file of 32 or 64 bits")),
    }
}

/// Parse a decimal suffix: `3` of `.nv.constant3`.
fn bank_of(rest: &str) -> Option<u32> {
    rest.parse().ok()
}

/// What a per-function section is about.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Shared,
    Local,
    Info,
    Constant(u32),
}

fn read_elf<H: FileHeader<Endian = Endianness>>(data: &[u8]) -> object::read::Result<Usage> {
    let header = H::parse(data)?;
    let endian = header.endian()?;
    let sections = header.sections(endian, data)?;
    let symbols = sections.symbols(endian, data, elf::SHT_SYMTAB)?;
    let flags: u64 = header.e_flags(endian).into();
    let mut u = Usage {
        arch: u32::try_from((flags >> 8) & 0xff).unwrap_or(0),
        ..Usage::default()
    };
    // Module-wide counts of texture, surface and sampler references.
    let (mut tex, mut surf, mut samp) = (0u32, 0u32, 0u32);
    for s in symbols.iter() {
        match s.st_type() {
            STT_CUDA_TEXTURE => tex = tex.saturating_add(1),
            STT_CUDA_SURFACE => surf = surf.saturating_add(1),
            STT_CUDA_SAMPLER => samp = samp.saturating_add(1),
            _ => {}
        }
    }
    // Per-function attributes of `.nv.info`, by symbol index.
    type BySection = rustc_hash::FxHashMap<u32, u32>;
    let (mut regs, mut frames) = (BySection::default(), BySection::default());
    let (mut min_stack, mut max_stack) = (BySection::default(), BySection::default());
    for s in sections.iter() {
        if sections.section_name(endian, s)? != b".nv.info" {
            continue;
        }
        let Ok(body) = s.data(endian, data) else {
            continue;
        };
        for a in nvinfo::records(body) {
            let map = match a.code {
                attr::REGCOUNT => &mut regs,
                attr::FRAME_SIZE => &mut frames,
                attr::MIN_STACK_SIZE => &mut min_stack,
                attr::MAX_STACK_SIZE => &mut max_stack,
                _ => continue,
            };
            if let Some((sym, v)) = nvinfo::per_function(&a) {
                map.insert(sym, v);
            }
        }
    }
    // The code sections, then the sections about each (linked to it by
    // `sh_info`, else by name).
    let mut texts: Vec<(usize, &str, u64, u32)> = Vec::new();
    let mut text_by_name = rustc_hash::FxHashMap::<&str, usize>::default();
    // (linked code section, function name, part, size, contents).
    type Found<'d> = (Option<usize>, &'d str, Part, u64, &'d [u8]);
    let mut parts: Vec<Found> = Vec::new();
    for (i, s) in sections.enumerate() {
        let Ok(name) = std::str::from_utf8(sections.section_name(endian, s)?) else {
            continue;
        };
        let size: u64 = s.sh_size(endian).into();
        let linked = (s.sh_flags(endian).into() & u64::from(elf::SHF_INFO_LINK) != 0)
            .then(|| usize::try_from(s.sh_info(endian)).ok())
            .flatten();
        if let Some(f) = name.strip_prefix(".text.") {
            texts.push((i.0, f, size, s.sh_info(endian) >> 24));
            text_by_name.entry(f).or_insert(i.0);
            continue;
        }
        if name.starts_with(".nv.shared.reserved.") {
            u.shared_includes_reserved = true;
            continue;
        }
        if name == ".nv.global" || name == ".nv.global.init" {
            u.global = u.global.saturating_add(size);
            continue;
        }
        let part = if let Some(f) = name.strip_prefix(".nv.shared.") {
            Some((f, Part::Shared))
        } else if let Some(f) = name.strip_prefix(".nv.local.") {
            Some((f, Part::Local))
        } else if let Some(f) = name.strip_prefix(".nv.info.") {
            Some((f, Part::Info))
        } else if let Some(rest) = name.strip_prefix(".nv.constant") {
            match rest.split_once('.') {
                None => {
                    if let Some(bank) = bank_of(rest) {
                        u.constant.push(Bank { bank, bytes: size });
                    }
                    None
                }
                Some((bank, f)) => bank_of(bank).map(|b| (f, Part::Constant(b))),
            }
        } else {
            None
        };
        if let Some((f, part)) = part {
            let body = if part == Part::Info {
                s.data(endian, data).unwrap_or_default()
            } else {
                &[]
            };
            parts.push((linked, f, part, size, body));
        }
    }
    // Each code section's own symbol: named as the section, defined in it
    // (other symbols may share the section: `$kernel$callee`), with
    // whether it is an entry (`STO_CUDA_ENTRY`).
    let mut own = rustc_hash::FxHashMap::<usize, (u32, bool)>::default();
    for (i, sym) in symbols.iter().enumerate() {
        let sec = usize::from(sym.st_shndx(endian));
        if let Some(&(_, f, _, _)) = texts.iter().find(|t| t.0 == sec) {
            if sym.name(endian, symbols.strings()) == Ok(f.as_bytes()) {
                let entry = sym.st_other() & STO_CUDA_ENTRY != 0;
                own.entry(sec)
                    .or_insert((u32::try_from(i).unwrap_or(u32::MAX), entry));
            }
        }
    }
    let mut by_text = rustc_hash::FxHashMap::<usize, Vec<(Part, u64, &[u8])>>::default();
    for (linked, f, part, size, body) in parts {
        let target = linked
            .filter(|t| texts.iter().any(|x| x.0 == *t))
            .or_else(|| text_by_name.get(f).copied());
        if let Some(t) = target {
            by_text.entry(t).or_default().push((part, size, body));
        }
    }
    for &(sec, f, code_bytes, info_regs) in &texts {
        // A kernel by its symbol's entry bit (device functions of linked
        // relocatable code have `.nv.info.<f>` sections too); without a
        // symbol, by its `.nv.info.<f>`.
        let kernel = match own.get(&sec) {
            Some(&(_, entry)) => entry,
            None => by_text
                .get(&sec)
                .is_some_and(|v| v.iter().any(|p| p.0 == Part::Info)),
        };
        let sym = own.get(&sec).map_or(u32::MAX, |o| o.0);
        let mut fu = FunctionUsage {
            name: f.to_string(),
            // As cuobjdump: a kernel's `REGCOUNT`, else (device functions,
            // cubins without the attribute) the count the code section
            // records in the top byte of its `sh_info`.
            registers: if kernel {
                regs.get(&sym).copied().unwrap_or(info_regs)
            } else {
                info_regs
            },
            section_registers: info_regs,
            stack: match min_stack.get(&sym).or_else(|| max_stack.get(&sym)) {
                Some(&UNKNOWN_STACK) => None,
                Some(&n) => Some(u64::from(n)),
                None => Some(0),
            },
            frame: u64::from(frames.get(&sym).copied().unwrap_or(0)),
            kernel,
            textures: tex,
            surfaces: surf,
            samplers: samp,
            code_bytes,
            ..FunctionUsage::default()
        };
        for &(part, size, body) in by_text.get(&sec).map(Vec::as_slice).unwrap_or_default() {
            match part {
                Part::Shared => fu.shared = size,
                Part::Local => fu.local = size,
                Part::Info => kernel_attrs(&mut fu, body),
                Part::Constant(bank) => fu.constant.push(Bank { bank, bytes: size }),
            }
        }
        u.functions.push(fu);
    }
    Ok(u)
}

/// Three `u32`s (x, y, z) of a sized value.
fn dims(v: &Value) -> Option<[u32; 3]> {
    match v.words().as_slice() {
        [x, y, z, ..] => Some([*x, *y, *z]),
        _ => None,
    }
}

/// Read a kernel's own `.nv.info.<kernel>` records into `fu`.
fn kernel_attrs(fu: &mut FunctionUsage, body: &[u8]) {
    for a in nvinfo::records(body) {
        match a.code {
            attr::NUM_BARRIERS => fu.barriers = a.value.int().unwrap_or(0),
            attr::NUM_MBARRIERS => fu.mbarriers = a.value.int().unwrap_or(0),
            attr::MAXREG_COUNT => fu.max_registers = a.value.int(),
            attr::MAX_THREADS => fu.max_threads = dims(&a.value),
            attr::REQNTID => fu.required_threads = dims(&a.value),
            attr::CTA_PER_CLUSTER => fu.cluster = dims(&a.value),
            attr::MAX_CLUSTER_RANK => fu.max_cluster_rank = a.value.int(),
            attr::EXPLICIT_CLUSTER => fu.explicit_cluster = true,
            attr::CBANK_PARAM_SIZE => fu.param_bytes = a.value.int(),
            _ => {}
        }
    }
}
