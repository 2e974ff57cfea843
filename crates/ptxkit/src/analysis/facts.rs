//! What the catalog says an instruction does, as the analyses ask it: its
//! behaviour flags and which way data flows through each operand. The
//! analyses decide branches, calls, exits and register writes from these,
//! never from an opcode's name or a modifier's spelling.

use crate::isa::{catalog, Dir, Flags, OperandTpl, RoleId, RoleSpec};
use crate::syntax::{Instruction, Operand};

/// The behaviour flags of `i`: those of the section its form belongs to.
/// An instruction that matched no form (it carries an error) gets the flags
/// every form of its opcode root shares, so a malformed `bra` still ends
/// its block; an unknown opcode has none.
#[inline]
pub fn flags(i: &Instruction) -> Flags {
    let cat = catalog();
    if let Some(s) = cat.section_of(i.form) {
        return s.flags;
    }
    let Some(op) = cat.opcode(i.opcode) else {
        return Flags::default();
    };
    let mut common: Option<u32> = None;
    for &f in op.forms {
        let bits = cat.flags(f).0;
        common = Some(common.map_or(bits, |c| c & bits));
    }
    Flags(common.unwrap_or(0))
}

/// The description of role `id`, if the catalog has one.
#[inline]
pub fn spec(id: RoleId) -> Option<&'static RoleSpec> {
    catalog().role(id)
}

/// The operands of `i` paired with their templates. For an instruction
/// that matched no form, its operands are paired in order with the first
/// form of its opcode root, so that the roles of a malformed `bra` or
/// `brx.idx` can still be found.
pub fn templates(i: &Instruction) -> Vec<(&'static OperandTpl, &Operand)> {
    if i.form().is_some() {
        return i.roles();
    }
    let cat = catalog();
    let first = cat
        .opcode(i.opcode)
        .and_then(|op| op.forms.first())
        .and_then(|&f| cat.form(f));
    match first {
        Some(f) => f.operands.iter().zip(i.operands.iter()).collect(),
        None => Vec::new(),
    }
}

/// Which way data flows through the operand at position `k` whose role is
/// `id`: the role's direction when the catalog describes the role. A role
/// without a description (`call`'s parenthesised lists, `mbarrier.arrive`'s
/// `_`, a few optional `cp.async.bulk` operands) falls back to the rule
/// used before the catalog had directions: the first operand is written,
/// the others are read.
#[inline]
pub fn dir(id: RoleId, k: usize) -> Dir {
    match spec(id) {
        Some(s) => s.dir,
        None if k == 0 => Dir::Out,
        None => Dir::In,
    }
}
