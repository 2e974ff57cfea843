//! The catalog's `@rule`s: constraints between the modifiers of one
//! instruction (a modifier that needs another, or excludes a state space or
//! a type). The verdict depends only on the form and the written modifiers,
//! so it is worked out once per instruction shape ([`super::operands::Resolved`]).

use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::isa::{catalog, AtomKind, Rule};
use crate::syntax::Instruction;

/// The first rule of `i`'s section that its modifiers break, with the
/// clause not met.
pub(crate) fn broken_rule(i: &Instruction) -> Option<(u16, u16)> {
    let cat = catalog();
    let section = cat.section_of(i.form)?;
    let form = i.form()?;
    let written = i.written();
    section.rules.iter().enumerate().find_map(|(k, r)| {
        r.broken(|a| crate::isa::fill::atom_holds(cat, form, &written, a))
            .map(|c| (k as u16, c as u16))
    })
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
    pub(super) fn modifier_rules(&mut self, cx: &super::inst_ctx::InstCtx<'_>) {
        let i = cx.i;
        let Some((rule, clause)) = cx.broken_rule() else {
            return;
        };
        let cat = catalog();
        let Some(r) = cat
            .section_of(i.form)
            .and_then(|s| s.rules.get(usize::from(rule)))
        else {
            return;
        };
        self.emit(
            Diagnostic::error(
                Code::ModifierRule,
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
