//! The loaded catalog: every instruction form of the ISA, read once from the
//! `.ptxisa` files embedded in the library.

use std::sync::OnceLock;

use rustc_hash::{FxHashMap, FxHashSet};

use super::dsl::{Builder, DslError};
use super::model::*;

/// The catalog files, in load order. Adding a file here is all it takes to
/// extend the instruction set.
pub const SOURCES: &[(&str, &str)] = &[
    ("int.ptxisa", include_str!("../../isa/int.ptxisa")),
    ("float.ptxisa", include_str!("../../isa/float.ptxisa")),
    ("compare.ptxisa", include_str!("../../isa/compare.ptxisa")),
    ("logic.ptxisa", include_str!("../../isa/logic.ptxisa")),
    ("data.ptxisa", include_str!("../../isa/data.ptxisa")),
    ("async.ptxisa", include_str!("../../isa/async.ptxisa")),
    ("texture.ptxisa", include_str!("../../isa/texture.ptxisa")),
    ("control.ptxisa", include_str!("../../isa/control.ptxisa")),
    ("sync.ptxisa", include_str!("../../isa/sync.ptxisa")),
    ("mma.ptxisa", include_str!("../../isa/mma.ptxisa")),
    ("wgmma.ptxisa", include_str!("../../isa/wgmma.ptxisa")),
    ("tcgen05.ptxisa", include_str!("../../isa/tcgen05.ptxisa")),
    ("misc.ptxisa", include_str!("../../isa/misc.ptxisa")),
];

/// The instruction catalog.
pub struct Catalog {
    mods: Vec<Box<str>>,
    mod_index: FxHashMap<Box<str>, ModId>,
    opcodes: Vec<Opcode>,
    opcode_index: FxHashMap<Box<str>, OpcodeId>,
    forms: Vec<Form>,
    groups: Vec<Group>,
    sections: Vec<Section>,
    /// Per opcode: every modifier any of its forms accepts.
    opcode_mods: Vec<FxHashSet<ModId>>,
    /// Per modifier: whether it spells a data type (`.u32`, `.f16x2`…).
    is_type: Vec<bool>,
    errors: Vec<DslError>,
}

static CATALOG: OnceLock<Catalog> = OnceLock::new();

/// Install `c` as the process-wide catalog instead of the embedded one
/// (tools that edit catalog files use it). Returns `false` if the catalog
/// is already in use.
pub fn install_catalog(c: Catalog) -> bool {
    CATALOG.set(c).is_ok()
}

/// The catalog, loaded on first use.
pub fn catalog() -> &'static Catalog {
    CATALOG.get_or_init(|| Catalog::from_sources(SOURCES))
}

impl Catalog {
    /// Build a catalog from `(file name, text)` pairs.
    pub fn from_sources(sources: &[(&'static str, &str)]) -> Catalog {
        let mut b = Builder::default();
        for (name, text) in sources {
            b.load(name, text);
        }
        let mut opcode_mods = Vec::with_capacity(b.opcodes.len());
        for op in &b.opcodes {
            let mut set = FxHashSet::default();
            for f in &op.forms {
                let Some(form) = b.forms.get(f.0 as usize) else {
                    continue;
                };
                for s in &form.slots {
                    match s.kind {
                        SlotKind::Lit(m) => {
                            set.insert(m);
                        }
                        SlotKind::Group(g) => {
                            if let Some(g) = b.groups.get(g.0 as usize) {
                                set.extend(g.alts.iter().copied());
                            }
                        }
                    }
                }
            }
            opcode_mods.push(set);
        }
        let is_type = b
            .mods
            .iter()
            .map(|m| super::vocab::ScalarType::from_spelling(m).is_some())
            .collect();
        Catalog {
            is_type,
            mods: b.mods,
            mod_index: b.mod_index,
            opcodes: b.opcodes,
            opcode_index: b.opcode_index,
            forms: b.forms,
            groups: b.groups,
            sections: b.sections,
            opcode_mods,
            errors: b.errors,
        }
    }

    /// Problems found while reading the catalog files (empty in a good build).
    pub fn errors(&self) -> &[DslError] {
        &self.errors
    }

    /// Look up an opcode root by its spelling.
    #[inline]
    pub fn opcode_id(&self, name: &str) -> Option<OpcodeId> {
        self.opcode_index.get(name).copied()
    }

    /// Look up a modifier by its spelling (with the leading dot).
    #[inline]
    pub fn mod_id(&self, spelling: &str) -> Option<ModId> {
        self.mod_index.get(spelling).copied()
    }

    /// The spelling of a modifier (`"?"` for [`ModId::UNKNOWN`]).
    pub fn mod_name(&self, id: ModId) -> &str {
        self.mods.get(id.0 as usize).map(|s| &**s).unwrap_or("?")
    }

    /// An opcode root.
    pub fn opcode(&self, id: OpcodeId) -> Option<&Opcode> {
        self.opcodes.get(id.0 as usize)
    }

    /// All opcode roots.
    pub fn opcodes(&self) -> impl Iterator<Item = (OpcodeId, &Opcode)> {
        self.opcodes
            .iter()
            .enumerate()
            .map(|(i, o)| (OpcodeId(i as u16), o))
    }

    /// A form.
    pub fn form(&self, id: FormId) -> Option<&Form> {
        self.forms.get(id.0 as usize)
    }

    /// All forms.
    pub fn forms(&self) -> impl Iterator<Item = (FormId, &Form)> {
        self.forms
            .iter()
            .enumerate()
            .map(|(i, f)| (FormId(i as u16), f))
    }

    /// A group.
    pub fn group(&self, id: GroupId) -> Option<&Group> {
        self.groups.get(id.0 as usize)
    }

    /// All sections.
    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// The section a form was written in.
    pub fn section_of(&self, form: FormId) -> Option<&Section> {
        self.form(form)
            .and_then(|f| self.sections.get(f.section as usize))
    }

    /// Whether any form of `op` accepts modifier `m`.
    #[inline]
    pub fn opcode_takes(&self, op: OpcodeId, m: ModId) -> bool {
        self.opcode_mods
            .get(op.0 as usize)
            .is_some_and(|s| s.contains(&m))
    }

    /// Whether slot kind `k` accepts modifier `m`.
    #[inline]
    pub fn slot_accepts(&self, k: SlotKind, m: ModId) -> bool {
        match k {
            SlotKind::Lit(l) => l == m,
            SlotKind::Group(g) => self
                .groups
                .get(g.0 as usize)
                .is_some_and(|g| g.alts.contains(&m)),
        }
    }

    /// Whether modifier `m` spells a data type.
    #[inline]
    pub fn is_type(&self, m: ModId) -> bool {
        self.is_type.get(m.0 as usize).copied().unwrap_or(false)
    }

    /// Number of modifier spellings known.
    pub fn mod_count(&self) -> usize {
        self.mods.len()
    }
}
