//! Which written modifier fills a group of a form, what the `@rule` atoms
//! say about the written modifiers, and which type an `@operand` role
//! takes: one evaluation shared by the checker (on a parsed instruction)
//! and the sweep's generator (on the modifiers it chose), so the two never
//! judge an instance differently.

use smallvec::SmallVec;

use super::catalog::Catalog;
use super::model::{AtomKind, Form, GroupId, ModId, RoleSpec, SlotKind, TypeRef};
use super::vocab::ScalarType;

/// One written modifier, in written order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    /// The modifier.
    pub id: ModId,
    /// The group whose slot of the form it fills (`None`: a literal slot,
    /// or not placed).
    pub group: Option<GroupId>,
    /// Whether it was placed in a slot at all (the parser records the slots
    /// of its first eight modifiers only).
    pub placed: bool,
}

/// The written modifiers of an instruction (a few, kept inline).
pub type WrittenMods = SmallVec<[Written; 8]>;

/// Whether `form` has a slot of group `g`.
fn has_slot(form: &Form, g: GroupId) -> bool {
    form.slots.iter().any(|s| s.kind == SlotKind::Group(g))
}

/// The index of the modifier written in a slot of group `g`.
pub fn slot_filler(written: &[Written], g: GroupId) -> Option<usize> {
    written.iter().position(|w| w.group == Some(g))
}

/// Whether `s` is spelled like a data type (`.s32`, `.bf16x2`, `.e2m1x4`,
/// `.s2f6x2`), including narrow float formats the vocabulary may not know.
pub fn spells_type(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('.') else {
        return false;
    };
    let prefix_len = rest.bytes().take_while(u8::is_ascii_lowercase).count();
    let (prefix, tail) = rest.split_at(prefix_len);
    matches!(prefix, "b" | "u" | "s" | "f" | "e" | "ue" | "bf" | "tf")
        && tail.starts_with(|c: char| c.is_ascii_digit())
        && tail
            .bytes()
            .all(|c| c.is_ascii_digit() || matches!(c, b'x' | b'm' | b'f'))
}

/// In a form without a slot of group `g`, the index of the written modifier
/// that stands for it: a form that spells `atom.add.f32` literally, or
/// through another group, in a section whose roles say `.type`. For a group
/// of types defined together with others (`.dtype = .atype = { … }`), the
/// written data type at the group's rank among them (the first for
/// `.dtype`, the second for `.atype`); for a lone group of types, the
/// instruction's only data type. Either must be one of the group's
/// alternatives.
pub fn implied_filler(
    cat: &Catalog,
    form: &Form,
    written: &[Written],
    g: GroupId,
) -> Option<usize> {
    if has_slot(form, g) {
        return None;
    }
    let alts = cat.group(g)?.alts;
    let rank = (0..g.0)
        .rev()
        .take_while(|&p| cat.group(GroupId(p)).is_some_and(|x| x.alts == alts))
        .count();
    let chained = rank > 0
        || cat
            .group(GroupId(g.0.saturating_add(1)))
            .is_some_and(|x| x.alts == alts);
    let nth = if alts.iter().any(|&a| cat.is_type(a)) {
        let mut types = written
            .iter()
            .enumerate()
            .filter(|(_, w)| cat.is_type(w.id) || spells_type(cat.mod_name(w.id)));
        if chained {
            types.nth(rank)
        } else {
            // A lone group stands for the instruction's only type.
            match (types.next(), types.next()) {
                (Some(m), None) => Some(m),
                _ => None,
            }
        }
    } else {
        written
            .iter()
            .enumerate()
            .filter(|(_, w)| alts.contains(&w.id))
            .nth(rank)
    };
    nth.filter(|(_, w)| alts.contains(&w.id)).map(|(k, _)| k)
}

/// The alternative of group `g` that the written modifiers give it, for a
/// rule atom: the one in its slot or the one standing for it
/// ([`implied_filler`]); else, in a form with a slot of the group, an
/// unplaced alternative (the parser places the first eight modifiers only);
/// in a form without one, any written alternative.
pub fn group_filled(cat: &Catalog, form: &Form, written: &[Written], g: GroupId) -> Option<ModId> {
    if let Some(k) = slot_filler(written, g).or_else(|| implied_filler(cat, form, written, g)) {
        return written.get(k).map(|w| w.id);
    }
    let alts = cat.group(g)?.alts;
    let slotted = has_slot(form, g);
    written
        .iter()
        .filter(|w| !slotted || !w.placed)
        .map(|w| w.id)
        .find(|m| alts.contains(m))
}

/// Whether rule atom `atom` holds for the written modifiers.
pub fn atom_holds(cat: &Catalog, form: &Form, written: &[Written], atom: AtomKind) -> bool {
    match atom {
        AtomKind::Mod(m) => written.iter().any(|w| w.id == m),
        AtomKind::Group(g) => group_filled(cat, form, written, g).is_some(),
        AtomKind::GroupIs(g, m) => group_filled(cat, form, written, g) == Some(m),
    }
}

/// The data type `spec` gives its operand: the first of its alternatives
/// that applies (`None`: untyped). A group applies when a modifier fills a
/// slot of it; only when none of the alternatives does is a group taken to
/// stand for a type the form spells otherwise ([`implied_filler`]).
pub fn role_type(
    cat: &Catalog,
    form: &Form,
    written: &[Written],
    spec: &RoleSpec,
) -> Option<ScalarType> {
    if spec.types.is_empty() {
        return None;
    }
    if let [TypeRef::Fixed(t), ..] = spec.types {
        return Some(*t);
    }
    let by = |fill: &dyn Fn(GroupId) -> Option<usize>| {
        let filled = |g| {
            fill(g)
                .and_then(|k| written.get(k))
                .and_then(|w| cat.mod_type(w.id))
        };
        spec.types.iter().find_map(|t| match *t {
            TypeRef::Fixed(ty) => Some(ty),
            TypeRef::Group(g) => filled(g),
            TypeRef::Double(g) => filled(g).and_then(|t| t.with_bits(t.bits().saturating_mul(2))),
            TypeRef::Half(g) => filled(g).and_then(|t| t.with_bits(t.bits() / 2)),
        })
    };
    by(&|g| slot_filler(written, g)).or_else(|| by(&|g| implied_filler(cat, form, written, g)))
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;
    use crate::isa::catalog;

    /// The parsed instruction of a one-instruction kernel.
    fn parsed(line: &str) -> crate::syntax::Instruction {
        let text = format!(
            ".version 9.4\n.target sm_90a\n.address_size 64\n.entry k() {{\n.reg .b32 %r<4>;\n.reg .b16 %h<4>;\n{line}\n}}\n"
        );
        let p = crate::parse(text.as_bytes());
        let f = p.module.functions().next().expect("a kernel");
        let body = f.body.as_ref().expect("a body");
        (*body.instructions().first().expect("an instruction")).clone()
    }

    /// A group's atom `.g=.m` among the rules of `i`'s section.
    fn group_is(i: &crate::syntax::Instruction, group: &str, m: &str) -> AtomKind {
        let cat = catalog();
        let m = cat.mod_id(m).expect("a modifier");
        let rules = cat.section_of(i.form).expect("a section").rules;
        rules
            .iter()
            .flat_map(|r| r.when.iter().chain(r.need.iter().flat_map(|c| c.iter())))
            .map(|a| a.kind)
            .find(|k| matches!(k, AtomKind::GroupIs(g, x) if *x == m && cat.group(*g).is_some_and(|g| g.name == group)))
            .expect("the atom")
    }

    #[test]
    fn an_unslotted_group_stands_for_the_written_type_at_its_rank() {
        // `cvt{.irnd}….dtype.atype`: the rules name `.bdtype`/`.batype`,
        // which have no slot there; `.batype` is the second written type.
        let i = parsed("cvt.rzi.f32.u16 %r1, %h1;");
        let cat = catalog();
        let form = i.form().expect("a form");
        let w = i.written();
        assert!(atom_holds(cat, form, &w, group_is(&i, "batype", ".u16")));
        assert!(!atom_holds(cat, form, &w, group_is(&i, "batype", ".f32")));
        assert!(atom_holds(cat, form, &w, group_is(&i, "bdtype", ".f32")));
        // The generator's view of the same modifiers (every one placed, the
        // groups of their slots) gives the same verdicts.
        let gen: WrittenMods = w.iter().map(|x| Written { placed: true, ..*x }).collect();
        let section = cat.section_of(i.form).expect("a section");
        for r in section.rules {
            assert_eq!(
                r.broken(|a| atom_holds(cat, form, &w, a)),
                r.broken(|a| atom_holds(cat, form, &gen, a)),
                "{}",
                r.text
            );
        }
        assert_eq!(
            crate::check::mod_rules::broken_rule(&i).is_some(),
            section
                .rules
                .iter()
                .any(|r| r.broken(|a| atom_holds(cat, form, &gen, a)).is_some())
        );
    }

    #[test]
    fn spelled_types() {
        for yes in [".s32", ".bf16x2", ".e2m1x4", ".s2f6x2", ".ue8m0x2", ".tf32"] {
            assert!(spells_type(yes), "{yes}");
        }
        for no in [".rn", ".v4", ".x2", ".sat", "s32", ".global"] {
            assert!(!spells_type(no), "{no}");
        }
    }
}
