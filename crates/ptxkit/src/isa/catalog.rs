//! The catalog in use: every instruction form of the ISA. The built-in one is
//! static data generated from the `.ptxisa` files (`generated.rs`, kept equal
//! to the files by a test), so a process pays only for building two small
//! lookup maps. Reading the files themselves is the build step's job
//! (`xtask catalog-gen`, `xtask/src/catalog/`), not the library's.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use super::mod_sets::ModSets;
use super::model::*;
use super::word_table::WordTable;

/// The instruction catalog.
pub struct Catalog {
    tables: Tables,
    mod_index: FxHashMap<&'static str, ModId>,
    opcode_index: FxHashMap<&'static str, OpcodeId>,
    /// [`Catalog::mod_index`]'s short spellings as words.
    mod_words: WordTable,
    /// [`Catalog::opcode_index`]'s short spellings as words.
    opcode_words: WordTable,
    /// For each opcode, a bit set over modifier ids: the modifiers any of
    /// its forms takes.
    opcode_mods: ModSets,
    /// Per modifier: the data type it spells (`.u32`, `.f16x2`…), if any.
    mod_types: Vec<Option<super::vocab::ScalarType>>,
    /// Per modifier: the element count of a vector modifier (`.v4`: 4).
    mod_lanes: Vec<Option<u8>>,
    /// Per modifier: the state space it spells (`.shared::cta`), if any.
    mod_spaces: Vec<Option<super::vocab::StateSpace>>,
    /// Per modifier: its kind, the least modifier id it shares a group
    /// with, directly or through other groups (`.row` and `.col`, the
    /// state spaces): see [`Catalog::mod_kind`].
    mod_kinds: Vec<u16>,
    /// Per opcode: whether a form takes a parenthesised list (`call`'s
    /// arguments), so that the parser reads `(a, b)` as one.
    opcode_lists: Vec<bool>,
    /// Special registers that are not numbered families, by name.
    sreg_index: FxHashMap<&'static str, usize>,
    /// The numbered families of special registers (`%envreg<32>`), apart:
    /// a register name that is no special register is tried against these
    /// few, not against every special register.
    sreg_families: Vec<&'static SpecialReg>,
}

/// The catalog's tables as data: what the `.ptxisa` files say, with ids as
/// indices. The built-in tables are static data generated from the files
/// (`generated.rs`); `xtask` builds them from the files.
#[derive(Clone, Copy, Debug)]
pub struct Tables {
    /// Modifier spellings, indexed by [`ModId`].
    pub mods: &'static [&'static str],
    /// Opcode roots, indexed by [`OpcodeId`].
    pub opcodes: &'static [Opcode],
    /// Forms, indexed by [`FormId`].
    pub forms: &'static [Form],
    /// Modifier groups, indexed by [`GroupId`].
    pub groups: &'static [Group],
    /// Catalog sections (one `@opcode` block each), indexed by `Form::section`.
    pub sections: &'static [Section],
    /// Operand role descriptions, indexed by [`RoleId`].
    pub roles: &'static [RoleSpec],
    /// Special registers.
    pub sregs: &'static [SpecialReg],
    /// Modifiers that may be written twice with the meaning of once
    /// (ptxas 13.5 takes `add.sat.sat.s32`, not `add.ftz.ftz.f32`).
    pub repeatable: &'static [ModId],
}

static CATALOG: OnceLock<Catalog> = OnceLock::new();

/// Install a catalog other than the built-in one (the `.ptxisa` files read
/// from disk by `xtask catalog-check`, say). Must come before the first [`catalog`] call; returns
/// `false` when a catalog is already in use.
pub fn install_catalog(c: Catalog) -> bool {
    CATALOG.set(c).is_ok()
}

/// The process-wide catalog: the built-in tables unless [`install_catalog`]
/// came first.
pub fn catalog() -> &'static Catalog {
    CATALOG.get_or_init(|| Catalog::from_tables(super::generated::TABLES))
}

impl Catalog {
    /// A catalog over ready tables; builds the lookup indexes.
    pub fn from_tables(tables: Tables) -> Catalog {
        let mod_index = tables
            .mods
            .iter()
            .enumerate()
            .map(|(i, &m)| (m, ModId(i as u16)))
            .collect();
        let opcode_index = tables
            .opcodes
            .iter()
            .enumerate()
            .map(|(i, o)| (o.name, OpcodeId(i as u16)))
            .collect();
        let mod_words = WordTable::new(tables.mods.iter().enumerate().map(|(i, &m)| (m, i as u16)));
        let opcode_words = WordTable::new(
            tables
                .opcodes
                .iter()
                .enumerate()
                .map(|(i, o)| (o.name, i as u16)),
        );
        let mut opcode_mods = ModSets::new(tables.opcodes.len(), tables.mods.len());
        for (i, op) in tables.opcodes.iter().enumerate() {
            let mut add = |m: ModId| opcode_mods.insert(i, m);
            for form in op
                .forms
                .iter()
                .filter_map(|f| tables.forms.get(f.0 as usize))
            {
                for s in form.slots {
                    match s.kind {
                        SlotKind::Lit(m) => add(m),
                        SlotKind::Group(g) => {
                            if let Some(g) = tables.groups.get(g.0 as usize) {
                                g.alts.iter().for_each(|&m| add(m));
                            }
                        }
                    }
                }
            }
        }
        let mod_types = tables
            .mods
            .iter()
            .map(|m| super::vocab::ScalarType::from_spelling(m))
            .collect();
        let opcode_lists = tables
            .opcodes
            .iter()
            .map(|op| {
                op.forms
                    .iter()
                    .filter_map(|f| tables.forms.get(f.0 as usize))
                    .flat_map(|f| f.operands.iter())
                    .any(|t| matches!(t.shape, super::model::Shape::List))
            })
            .collect();
        let mod_kinds = mod_kinds(&tables);
        Catalog {
            tables,
            mod_kinds,
            opcode_lists,
            mod_index,
            opcode_index,
            mod_words,
            opcode_words,
            opcode_mods,
            mod_types,
            mod_spaces: tables
                .mods
                .iter()
                .map(|m| super::vocab::StateSpace::from_spelling(m))
                .collect(),
            mod_lanes: tables
                .mods
                .iter()
                .map(|m| m.strip_prefix(".v").and_then(|n| n.parse().ok()))
                .collect(),
            sreg_index: tables
                .sregs
                .iter()
                .enumerate()
                .filter(|(_, r)| r.count == 0)
                .map(|(i, r)| (r.name, i))
                .collect(),
            sreg_families: tables.sregs.iter().filter(|r| r.count > 0).collect(),
        }
    }

    /// Whether a form of opcode `op` takes a parenthesised operand list.
    pub fn opcode_takes_lists(&self, op: OpcodeId) -> bool {
        self.opcode_lists
            .get(usize::from(op.0))
            .copied()
            .unwrap_or(false)
    }

    /// The tables behind this catalog.
    pub fn tables(&self) -> Tables {
        self.tables
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

    /// [`Catalog::opcode_id`] of a spelling of at most
    /// [`WORD_MAX`](super::word_table::WORD_MAX) bytes given as a word
    /// (its bytes little-endian, zero past its end).
    #[inline]
    pub fn opcode_id_word(&self, word: u128) -> Option<OpcodeId> {
        self.opcode_words.get(word).map(OpcodeId)
    }

    /// [`Catalog::mod_id`] of a spelling given as a word, as for
    /// [`Catalog::opcode_id_word`].
    #[inline]
    pub fn mod_id_word(&self, word: u128) -> Option<ModId> {
        self.mod_words.get(word).map(ModId)
    }

    /// The spelling of a modifier (`"?"` for [`ModId::UNKNOWN`]).
    pub fn mod_name(&self, id: ModId) -> &str {
        self.tables.mods.get(id.0 as usize).copied().unwrap_or("?")
    }

    /// An opcode root.
    pub fn opcode(&self, id: OpcodeId) -> Option<&Opcode> {
        self.tables.opcodes.get(id.0 as usize)
    }

    /// All opcode roots.
    pub fn opcodes(&self) -> impl Iterator<Item = (OpcodeId, &Opcode)> {
        self.tables
            .opcodes
            .iter()
            .enumerate()
            .map(|(i, o)| (OpcodeId(i as u16), o))
    }

    /// A form.
    pub fn form(&self, id: FormId) -> Option<&Form> {
        self.tables.forms.get(id.0 as usize)
    }

    /// All forms.
    pub fn forms(&self) -> impl Iterator<Item = (FormId, &Form)> {
        self.tables
            .forms
            .iter()
            .enumerate()
            .map(|(i, f)| (FormId(i as u16), f))
    }

    /// A group.
    pub fn group(&self, id: GroupId) -> Option<&Group> {
        self.tables.groups.get(id.0 as usize)
    }

    /// All sections.
    pub fn sections(&self) -> &[Section] {
        self.tables.sections
    }

    /// The section a form was written in.
    pub fn section_of(&self, form: FormId) -> Option<&Section> {
        self.form(form)
            .and_then(|f| self.tables.sections.get(f.section as usize))
    }

    /// Whether any form of `op` accepts modifier `m`.
    #[inline]
    pub fn opcode_takes(&self, op: OpcodeId, m: ModId) -> bool {
        self.opcode_mods.contains(usize::from(op.0), m)
    }

    /// Whether slot kind `k` accepts modifier `m`.
    #[inline]
    pub fn slot_accepts(&self, k: SlotKind, m: ModId) -> bool {
        match k {
            SlotKind::Lit(l) => l == m,
            SlotKind::Group(g) => self
                .tables
                .groups
                .get(g.0 as usize)
                .is_some_and(|g| g.alts.contains(&m)),
        }
    }

    /// The kind of modifier `m`: modifiers that share a group anywhere in
    /// the catalog, directly or through other groups, are of one kind
    /// (`.row`/`.col`; `.global`/`.shared::cta`/…). Two slots of a form
    /// that take one kind are filled by position, as ptxas fills them
    /// ([`super::assign_slots`]).
    pub fn mod_kind(&self, m: ModId) -> u16 {
        self.mod_kinds.get(usize::from(m.0)).copied().unwrap_or(m.0)
    }

    /// Whether modifier `m` may be written twice on one instruction, the
    /// second time to no effect ([`Tables::repeatable`]).
    pub fn is_repeatable(&self, m: ModId) -> bool {
        self.tables.repeatable.contains(&m)
    }

    /// Whether modifier `m` spells a data type.
    #[inline]
    pub fn is_type(&self, m: ModId) -> bool {
        self.mod_type(m).is_some()
    }

    /// How many elements vector modifier `m` (`.v2`, `.v4`, `.v8`) gives.
    #[inline]
    pub fn mod_lanes(&self, m: ModId) -> Option<u8> {
        self.mod_lanes.get(usize::from(m.0)).copied().flatten()
    }

    /// The state space modifier `m` spells, if it spells one.
    #[inline]
    pub fn mod_space(&self, m: ModId) -> Option<super::vocab::StateSpace> {
        self.mod_spaces.get(usize::from(m.0)).copied().flatten()
    }

    /// The data type modifier `m` spells, if it spells one.
    #[inline]
    pub fn mod_type(&self, m: ModId) -> Option<super::vocab::ScalarType> {
        self.mod_types.get(m.0 as usize).copied().flatten()
    }

    /// The description of an operand role ([`OperandTpl::spec`]).
    #[inline]
    pub fn role(&self, id: RoleId) -> Option<&'static RoleSpec> {
        self.tables.roles.get(usize::from(id.0))
    }

    /// The flags of the section form `id` belongs to (none for an unknown
    /// form).
    #[inline]
    pub fn flags(&self, id: FormId) -> Flags {
        self.section_of(id).map(|s| s.flags).unwrap_or_default()
    }

    /// Every special register.
    pub fn special_registers(&self) -> &'static [SpecialReg] {
        self.tables.sregs
    }

    /// The special register named `name` (`%tid`, `%envreg3`), without a
    /// component.
    pub fn special_register(&self, name: &str) -> Option<&'static SpecialReg> {
        if let Some(&i) = self.sreg_index.get(name) {
            return self.tables.sregs.get(i);
        }
        // Numbered families (`%envreg3`): few, tried in turn.
        self.sreg_families.iter().copied().find(|r| {
            name.strip_prefix(r.name).is_some_and(|n| {
                !n.is_empty()
                    && (n == "0" || !n.starts_with('0'))
                    && n.parse::<u32>().is_ok_and(|i| i < u32::from(r.count))
            })
        })
    }

    /// Number of modifier spellings known.
    pub fn mod_count(&self) -> usize {
        self.tables.mods.len()
    }
}

/// [`Catalog::mod_kind`] of every modifier: a union of the alternatives of
/// each group (types apart: they are ordered on their own), each set named
/// by its least id.
fn mod_kinds(tables: &Tables) -> Vec<u16> {
    let mut parent: Vec<u16> = (0..tables.mods.len()).map(|i| i as u16).collect();
    fn root(parent: &mut [u16], mut i: u16) -> u16 {
        while let Some(&p) = parent.get(usize::from(i)) {
            if p == i {
                break;
            }
            let gp = parent.get(usize::from(p)).copied().unwrap_or(p);
            if let Some(slot) = parent.get_mut(usize::from(i)) {
                *slot = gp;
            }
            i = p;
        }
        i
    }
    for g in tables.groups {
        let mut alts = g
            .alts
            .iter()
            .filter(|m| {
                let name = tables.mods.get(usize::from(m.0)).copied().unwrap_or("");
                super::vocab::ScalarType::from_spelling(name).is_none()
            })
            .map(|m| m.0);
        let Some(first) = alts.next() else { continue };
        for m in alts {
            let (a, b) = (root(&mut parent, first), root(&mut parent, m));
            let (lo, hi) = (a.min(b), a.max(b));
            if let Some(slot) = parent.get_mut(usize::from(hi)) {
                *slot = lo;
            }
        }
    }
    (0..parent.len())
        .map(|i| root(&mut parent, i as u16))
        .collect()
}
