//! What the checker's rules need to know of an opcode or a catalog section,
//! worked out once from the catalog: comparing opcode names and scanning
//! `@gate` lists on every instruction were a visible share of the check.

use std::sync::OnceLock;

use crate::isa::{catalog, ModId, ModSets, OpcodeId};

/// The classes an opcode belongs to.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct OpClass {
    /// `vote`.
    pub vote: bool,
}

struct Table {
    classes: Vec<OpClass>,
    /// Per catalog section, the modifiers some `@gate` of the section names.
    gated: ModSets,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let cat = catalog();
        let classes = cat
            .opcodes()
            .map(|(_, o)| {
                let n = o.name;
                OpClass { vote: n == "vote" }
            })
            .collect();
        let mut gated = ModSets::new(cat.sections().len(), cat.mod_count());
        for (i, section) in cat.sections().iter().enumerate() {
            for &m in section.gates.iter().flat_map(|g| g.mods) {
                gated.insert(i, m);
            }
        }
        Table { classes, gated }
    })
}

/// The classes of `op`.
#[inline]
pub(crate) fn class(op: OpcodeId) -> OpClass {
    table()
        .classes
        .get(usize::from(op.0))
        .copied()
        .unwrap_or_default()
}

/// Whether some `@gate` of catalog section `section` names modifier `m`.
#[inline]
pub(crate) fn gated(section: u16, m: ModId) -> bool {
    table().gated.contains(usize::from(section), m)
}
