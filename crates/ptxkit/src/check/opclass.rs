//! What the checker's rules need to know of a catalog section, worked out
//! once from the catalog: scanning `@gate` lists on every instruction was a
//! visible share of the check.

use std::sync::OnceLock;

use crate::isa::{catalog, ModId, ModSets};

struct Table {
    /// Per catalog section, the modifiers some `@gate` of the section names.
    gated: ModSets,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let cat = catalog();
        let mut gated = ModSets::new(cat.sections().len(), cat.mod_count());
        for (i, section) in cat.sections().iter().enumerate() {
            for &m in section.gates.iter().flat_map(|g| g.mods) {
                gated.insert(i, m);
            }
        }
        Table { gated }
    })
}

/// Whether some `@gate` of catalog section `section` names modifier `m`.
#[inline]
pub(crate) fn gated(section: u16, m: ModId) -> bool {
    table().gated.contains(usize::from(section), m)
}
