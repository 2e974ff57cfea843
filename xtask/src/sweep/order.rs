//! The modifier-order dimension (`xtask sweep --order N`): for the first N
//! instances of every form, each written modifier moved to the end of the
//! modifiers, moved to the front (right after the opcode root), and written
//! twice. ptxas 13.5 reads some modifiers as part of the instruction's name
//! (`mul.lo`, `cp.async.bulk`, `barrier.cta.red`): those must come first and
//! in order ([`ptxkit::isa::Form::head`]); the others may come in any order,
//! and a few may be written twice (`@repeatable`). Generated from the
//! catalog alone (docs/sweep.md).

use ptxkit::isa::Catalog;

use super::gen::{
    max_ptx, push, target_meets, valid_version, Instance, LATEST, MAIN_TARGETS, MORE_TARGETS,
};
use super::{Case, Rng};

/// The order cases of one instance, on one target where it is valid.
pub fn emit(cat: &Catalog, inst: &Instance, rng: &mut Rng, cases: &mut Vec<Case>) {
    if inst.unspec || max_ptx(&inst.reqs).is_some_and(|v| v > LATEST) {
        return;
    }
    let valid: Vec<(&str, ptxkit::isa::PtxVersion)> = MAIN_TARGETS
        .iter()
        .chain(MORE_TARGETS)
        .copied()
        .filter(|t| target_meets(t, &inst.reqs))
        .filter_map(|t| valid_version(t, &inst.reqs).map(|v| (t, v)))
        .collect();
    let Some(&(target, version)) = valid.get(rng.below(valid.len().max(1))) else {
        return;
    };
    let mods = inst.mod_texts();
    let base = inst.text_with(cat, &mods);
    push(cases, inst, target, version, "valid".into(), base.clone());
    for (j, m) in mods.iter().enumerate() {
        let mut rest = mods.clone();
        let moved = rest.remove(j);
        let mut last = rest.clone();
        last.push(moved.clone());
        let mut first = rest;
        first.insert(0, moved);
        let mut twice = mods.clone();
        twice.insert(j, m.clone());
        for (what, list) in [
            ("mod-last", last),
            ("mod-first", first),
            ("mod-twice", twice),
        ] {
            let t = inst.text_with(cat, &list);
            if t != base && cases.last().is_none_or(|c| c.text != t) {
                push(cases, inst, target, version, format!("{what}@{m}"), t);
            }
        }
    }
}
