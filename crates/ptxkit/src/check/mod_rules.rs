//! The catalog's `@rule`s: constraints between the modifiers of one
//! instruction (a modifier that needs another, or excludes a state space or
//! a type). The verdict depends only on the form and the written modifiers,
//! so it is worked out once per instruction shape ([`super::operands::Resolved`]).

use super::Checker;
use crate::diag::Diagnostic;
use crate::isa::{catalog, AtomKind, Rule};
use crate::syntax::Instruction;

/// Diagnostic codes of this pass.
pub mod codes {
    /// A combination of modifiers a catalog `@rule` forbids.
    pub const MODIFIER_RULE: &str = "E0710";
}

/// Whether `atom` holds for the written modifiers of `i`.
pub(crate) fn atom_holds(i: &Instruction, atom: AtomKind) -> bool {
    match atom {
        AtomKind::Mod(m) => i.mods.iter().any(|x| x.id == m),
        AtomKind::Group(g) => group_filled(i, g).is_some(),
        AtomKind::GroupIs(g, m) => group_filled(i, g) == Some(m),
    }
}

/// The alternative of group `g` that `i` writes: the one in its slot, or,
/// in a form without a slot of that group, the written type standing for
/// it or any written alternative.
fn group_filled(i: &Instruction, g: crate::isa::GroupId) -> Option<crate::isa::ModId> {
    if let Some(m) = i.group_mod(g) {
        return Some(m.id);
    }
    let form = i.form()?;
    let alts = catalog().group(g)?.alts;
    if form
        .slots
        .iter()
        .any(|s| s.kind == crate::isa::SlotKind::Group(g))
    {
        // The parser records the slots of the first eight modifiers only:
        // a later one of the group's alternatives has none but fills it.
        return i
            .mods
            .iter()
            .filter(|m| m.slot().is_none())
            .map(|m| m.id)
            .find(|m| alts.contains(m));
    }
    i.mods.iter().map(|m| m.id).find(|m| alts.contains(m))
}

/// The first rule of `i`'s section that its modifiers break, with the
/// clause not met.
pub(crate) fn broken_rule(i: &Instruction) -> Option<(u16, u16)> {
    let cat = catalog();
    let section = cat.section_of(i.form)?;
    section
        .rules
        .iter()
        .enumerate()
        .find_map(|(k, r)| r.broken(|a| atom_holds(i, a)).map(|c| (k as u16, c as u16)))
}

/// An atom in words: `` `.m` ``, "a `.scope` modifier", "no `.m`".
fn words(a: &crate::isa::Atom) -> String {
    let cat = catalog();
    let group = |g: crate::isa::GroupId| cat.group(g).map_or("?", |g| g.name);
    match (a.kind, a.neg) {
        (AtomKind::Mod(m), false) => format!("`{}`", cat.mod_name(m)),
        (AtomKind::GroupIs(g, m), false) => format!("`{}` as `.{}`", cat.mod_name(m), group(g)),
        (AtomKind::Mod(m), true) => format!("no `{}`", cat.mod_name(m)),
        (AtomKind::GroupIs(g, m), true) => {
            format!("a `.{}` other than `{}`", group(g), cat.mod_name(m))
        }
        (AtomKind::Group(g), false) => format!("a `.{}` modifier", group(g)),
        (AtomKind::Group(g), true) => format!("no `.{}` modifier", group(g)),
    }
}

/// The message for `rule` broken at clause `clause`: the catalog's own
/// words where it gives them, else one built from the atoms.
fn message(rule: &Rule, clause: usize) -> String {
    if !rule.message.is_empty() {
        return rule.message.to_string();
    }
    let when: Vec<String> = rule.when.iter().map(words).collect();
    let when = when.join(" with ");
    let atoms = rule.need.get(clause).copied().unwrap_or_default();
    match atoms {
        [a] if a.neg => {
            let mut a = *a;
            a.neg = false;
            format!("{when} cannot be used with {}", words(&a))
        }
        _ => {
            let need: Vec<String> = atoms.iter().map(words).collect();
            format!("{when} requires {}", need.join(" or "))
        }
    }
}

impl Checker<'_> {
    /// The catalog's modifier rules on one instruction.
    pub(super) fn modifier_rules(&mut self, i: &Instruction) {
        let Some((rule, clause)) = self.resolved.broken_rule(i) else {
            return;
        };
        let cat = catalog();
        let Some(r) = cat
            .section_of(i.form)
            .and_then(|s| s.rules.get(usize::from(rule)))
        else {
            return;
        };
        self.diags.push(
            Diagnostic::error(
                codes::MODIFIER_RULE,
                i.opcode_span,
                format!(
                    "`{}`: {}",
                    super::inst_name(i),
                    message(r, usize::from(clause))
                ),
            )
            .with_note(format!("catalog rule: {}", r.text)),
        );
    }
}
