//! The catalog's data model: opcodes, forms, modifier groups, operand templates.

use serde::Serialize;

/// A modifier spelling known to the catalog (`.u32`, `.L2::cache_hint`, `.sync`…).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct ModId(pub u16);

impl ModId {
    /// A modifier the catalog does not know (kept so the tree can still print it).
    pub const UNKNOWN: ModId = ModId(u16::MAX);
}

/// An opcode root (`ld`, `cp`, `tcgen05`…): the first word of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct OpcodeId(pub u16);

impl OpcodeId {
    /// An opcode the catalog does not know.
    pub const UNKNOWN: OpcodeId = OpcodeId(u16::MAX);
}

/// One syntax form of an instruction (one template line of the catalog).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct FormId(pub u16);

impl FormId {
    /// No form matched (the instruction carries an error).
    pub const NONE: FormId = FormId(u16::MAX);
}

/// A modifier group (`.type`, `.ss`, `.scope`…) of one catalog section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct GroupId(pub u16);

/// A PTX ISA version such as 7.8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Default)]
pub struct PtxVersion {
    /// Major number.
    pub major: u8,
    /// Minor number.
    pub minor: u8,
}

impl std::fmt::Display for PtxVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// A version/target requirement attached to a section, form or modifier.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Requirement {
    /// Minimum PTX ISA version, when stated.
    pub ptx: Option<PtxVersion>,
    /// Target requirement as written in the catalog: `all`, `sm_80` (that or
    /// higher), `sm_90a` (arch-specific), `sm_100f` (family), or a `|` list.
    pub sm: Option<&'static str>,
}

impl Requirement {
    /// Whether nothing is required.
    pub fn is_empty(&self) -> bool {
        self.ptx.is_none() && self.sm.is_none()
    }
}

/// A modifier slot in a form: a fixed spelling or a group of alternatives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SlotKind {
    /// Exactly this modifier.
    Lit(ModId),
    /// Any alternative of this group.
    Group(GroupId),
}

/// One modifier position of a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Slot {
    /// What may fill it.
    pub kind: SlotKind,
    /// Whether it may be left out (`{.sat}` in the syntax).
    pub optional: bool,
}

/// The shape an operand must have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Shape {
    /// A register, symbol, immediate, expression or vector.
    Value,
    /// An immediate written in the template (`16` in `cp.async.cg … 16`).
    Literal(&'static str),
    /// `a|b`: a predicate pair; the second may be optional (`d{|p}`).
    Pair {
        /// Role of the second operand.
        second: &'static str,
        /// Whether the `|b` part may be left out.
        optional: bool,
    },
    /// `[ … ]`: an address or a bracketed tuple of operands.
    Bracket(&'static [OperandTpl]),
    /// `{ … }`: a vector of operands written in the template.
    Vector(&'static [OperandTpl]),
    /// `( … )`: a parenthesised list (call arguments and returns).
    List,
}

/// One operand position of a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct OperandTpl {
    /// The role as the ISA names it: `d`, `a`, `a-desc`, `cache-policy`…
    pub role: &'static str,
    /// What it must look like.
    pub shape: Shape,
    /// Whether the operand may be omitted.
    pub optional: bool,
    /// For an optional operand: present exactly when this modifier (or a
    /// member of this group) is present on the instruction.
    pub when: Option<SlotKind>,
    /// May be negated with `-`.
    pub neg: bool,
    /// May be inverted with `!`.
    pub not: bool,
    /// Operand suffix modifiers the template allows (`a{.asel}`, `[a]{.unified}`).
    pub suffixes: &'static [SlotKind],
}

/// One template line of the catalog.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Form {
    /// The opcode root it belongs to.
    pub opcode: OpcodeId,
    /// Index of the section (see [`Section`]) it was written in.
    pub section: u16,
    /// The instruction name this form spells, e.g. `cp.async.bulk.tensor`.
    pub name: &'static str,
    /// Modifier slots in the written order.
    pub slots: &'static [Slot],
    /// Operand templates in order.
    pub operands: &'static [OperandTpl],
    /// Requirement specific to this form.
    pub req: Requirement,
    /// The template line as written in the catalog (for `ptx explain`).
    pub text: &'static str,
}

/// A named group of alternative modifiers.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Group {
    /// Its name without the dot, e.g. `type`, `level::cache_hint`.
    pub name: &'static str,
    /// The alternatives.
    pub alts: &'static [ModId],
    /// Alternatives written as patterns (`.b[0-7][0-7][0-7][0-7]`): each
    /// `[a-b]` stands for one character of that range. Used for operand
    /// selectors with thousands of spellings.
    pub patterns: &'static [&'static str],
}

impl Group {
    /// Whether `spelling` is one of the group's alternatives or matches one
    /// of its patterns.
    pub fn matches_spelling(&self, spelling: &str, cat: &super::Catalog) -> bool {
        self.alts.iter().any(|&m| cat.mod_name(m) == spelling)
            || self.patterns.iter().any(|p| pattern_matches(p, spelling))
    }
}

/// Match `s` against a pattern made of literal characters and `[a-b]` ranges.
pub fn pattern_matches(pattern: &str, s: &str) -> bool {
    let mut p = pattern.chars().peekable();
    let mut t = s.chars();
    while let Some(c) = p.next() {
        let Some(x) = t.next() else { return false };
        if c == '[' {
            let lo = p.next();
            let dash = p.next();
            let hi = p.next();
            let close = p.next();
            match (lo, dash, hi, close) {
                (Some(lo), Some('-'), Some(hi), Some(']')) if (lo..=hi).contains(&x) => {}
                _ => return false,
            }
        } else if c != x {
            return false;
        }
    }
    t.next().is_none()
}

/// A version/target gate on modifiers within one section.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Gate {
    /// The modifiers it applies to.
    pub mods: &'static [ModId],
    /// What they need.
    pub req: Requirement,
}

/// One `@opcode` block of the catalog: usually one ISA section.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Section {
    /// The instruction name this block documents (`add`, `cp.async.bulk`).
    pub name: &'static str,
    /// The ISA section number(s) it was written from.
    pub isa_sections: &'static [&'static str],
    /// What the whole section needs.
    pub req: Requirement,
    /// Gates on individual modifiers.
    pub gates: &'static [Gate],
    /// Sentences in our own words for `ptx explain`.
    pub notes: &'static [&'static str],
    /// Meaning of individual modifiers, for `ptx explain`.
    pub mod_notes: &'static [(ModId, &'static str)],
    /// Value sets for immediate operands (`cp-size = { 4, 8, 16 }`).
    pub operand_values: &'static [(&'static str, &'static [&'static str])],
    /// Which file of the catalog it came from.
    pub file: &'static str,
}

/// An opcode root and the forms filed under it.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Opcode {
    /// The root word: `ld`, `cp`, `mbarrier`…
    pub name: &'static str,
    /// Its forms in catalog order (match order).
    pub forms: &'static [FormId],
}
