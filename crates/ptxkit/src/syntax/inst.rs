//! Instructions and their operands (spec 6 and 9).

use serde::Serialize;
use smallvec::SmallVec;

use super::{Expr, Name};
use crate::isa::{catalog, Form, FormId, ModId, OpcodeId, OperandTpl};
use crate::source::Span;

/// An instruction operand as written.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Operand {
    /// A register, symbol, label, immediate or constant expression.
    Expr(Expr),
    /// `p|q`: the two destinations of `setp` and friends (`{a, b}|p` for
    /// `tex` with a residency predicate).
    Pair(Box<PairOperand>),
    /// `[addr]`: a memory address, `[reg]`, `[reg+off]`, `[sym+off]`, `[imm]`.
    Address {
        /// The address expression.
        addr: Expr,
        /// Where, brackets included, and the suffix written after `]`
        /// (serialized as the two fields `span` and `suffix`).
        #[serde(flatten)]
        at: AddressAt,
    },
    /// `[a, b, {c, d}]`: a bracketed tuple (textures, surfaces, tensor maps).
    Tuple {
        /// The items.
        items: Vec<Operand>,
        /// Where.
        span: Span,
    },
    /// `{a, b, c}`: a vector of registers (or `_` sinks, or immediates).
    Vector {
        /// The elements.
        items: Vec<Operand>,
        /// Where.
        span: Span,
    },
    /// `(a, b)`: a call's argument or return list.
    List {
        /// The items.
        items: Vec<Operand>,
        /// Where.
        span: Span,
    },
}

/// Where an [`Operand::Address`] is and the suffix after its `]`
/// (`.unified`), in eight bytes: with the 32-byte address expression that
/// makes an address operand 40 bytes, the size of every operand. Equal when
/// the suffixes are (positions do not count, as for [`Span`]).
#[derive(Clone, Copy, Debug)]
pub struct AddressAt {
    /// First byte (the `[`).
    start: u32,
    /// Length in bytes, suffix included (an address longer than
    /// `u16::MAX` bytes is recorded at that length).
    len: u16,
    /// The suffix's modifier id, or [`AddressAt::NO_SUFFIX`].
    suffix: u16,
}

impl AddressAt {
    /// The `suffix` of an address without one (no catalog has this many
    /// modifiers; [`ModId::UNKNOWN`] is one above).
    const NO_SUFFIX: u16 = u16::MAX - 1;

    /// An address written at `span` with `suffix`.
    pub fn new(span: Span, suffix: Option<ModId>) -> AddressAt {
        AddressAt {
            start: span.start,
            len: span.short_len(),
            suffix: suffix.map_or(Self::NO_SUFFIX, |m| m.0),
        }
    }

    /// Where, brackets and suffix included.
    pub fn span(&self) -> Span {
        Span::from_short(self.start, self.len)
    }

    /// The suffix written after `]`, such as `.unified`.
    pub fn suffix(&self) -> Option<ModId> {
        (self.suffix != Self::NO_SUFFIX).then_some(ModId(self.suffix))
    }
}

impl PartialEq for AddressAt {
    fn eq(&self, other: &AddressAt) -> bool {
        self.suffix == other.suffix
    }
}

/// The payload of [`Operand::Pair`], boxed so that the rare pair does not
/// size every operand. (Serialized like a struct variant:
/// `{"Pair": {"first": …, "second": …, "span": …}}`.)
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairOperand {
    /// Left.
    pub first: Operand,
    /// Right.
    pub second: Expr,
    /// Where.
    pub span: Span,
}

impl Operand {
    /// Where the operand is.
    pub fn span(&self) -> Span {
        match self {
            Operand::Expr(e) => e.span(),
            Operand::Pair(p) => p.span,
            Operand::Address { at, .. } => at.span(),
            Operand::Tuple { span, .. }
            | Operand::Vector { span, .. }
            | Operand::List { span, .. } => *span,
        }
    }

    /// The shape used to bind operands to a form.
    pub fn written_shape(&self) -> crate::isa::WrittenShape {
        use crate::isa::WrittenShape as W;
        match self {
            Operand::Expr(Expr::Index { .. }) => W::Element,
            Operand::Expr(_) => W::Value,
            Operand::Pair(_) => W::Pair,
            Operand::Address { .. } => W::Bracket(1),
            Operand::Tuple { items, .. } => W::Bracket(items.len().min(255) as u8),
            Operand::Vector { .. } => W::Vector,
            Operand::List { .. } => W::List,
        }
    }

    /// Call `f` with every name the operand uses as a symbol, left to right
    /// (see [`Expr::for_each_name`]).
    pub fn for_each_name(&self, f: &mut impl FnMut(Name, Span)) {
        match self {
            Operand::Expr(e) | Operand::Address { addr: e, .. } => e.for_each_name(f),
            Operand::Pair(p) => {
                p.first.for_each_name(f);
                p.second.for_each_name(f);
            }
            Operand::Tuple { items, .. }
            | Operand::Vector { items, .. }
            | Operand::List { items, .. } => {
                for o in items {
                    o.for_each_name(f);
                }
            }
        }
    }

    /// The name, if the operand is a bare name.
    pub fn as_name(&self) -> Option<Name> {
        match self {
            Operand::Expr(e) => e.as_name(),
            _ => None,
        }
    }
}

/// `@p` or `@!p` before an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Guard {
    /// `@!p`.
    pub negated: bool,
    /// The predicate register.
    pub pred: Name,
    /// Where (from `@` to the predicate).
    pub span: Span,
}

/// One written modifier of an instruction: 8 bytes, so that the usual
/// modifiers of an instruction sit inside it. Equal when the ids are
/// (positions and slots do not count, as for [`Span`]).
#[derive(Clone, Copy, Debug)]
pub struct Modifier {
    /// The catalog's id for the spelling ([`ModId::UNKNOWN`] when unknown).
    pub id: ModId,
    /// Length of the spelling in bytes (modifier tokens longer than
    /// `u8::MAX` bytes, which no catalog spelling is, are recorded at that
    /// length).
    len: u8,
    /// The slot of the matched form it fills ([`Modifier::NO_SLOT`] while
    /// unknown).
    slot: u8,
    /// First byte.
    start: u32,
}

impl Modifier {
    /// The `slot` of a modifier not placed in a form.
    const NO_SLOT: u8 = u8::MAX;

    /// The modifier `id` written at `span`.
    pub fn new(id: ModId, span: Span) -> Modifier {
        Modifier {
            id,
            len: u8::try_from(span.len()).unwrap_or(u8::MAX),
            slot: Self::NO_SLOT,
            start: span.start,
        }
    }

    /// Where.
    pub fn span(&self) -> Span {
        Span::new(self.start, self.start.saturating_add(u32::from(self.len)))
    }

    /// The index of the slot of the instruction's form that this modifier
    /// fills (`Form::slots`), once the form is known.
    pub fn slot(&self) -> Option<usize> {
        (self.slot != Self::NO_SLOT).then_some(usize::from(self.slot))
    }

    /// Move the modifier to `span` (its slot and id unchanged).
    pub fn set_span(&mut self, span: Span) {
        let slot = self.slot;
        *self = Modifier::new(self.id, span);
        self.slot = slot;
    }

    /// Record the slot the modifier fills.
    pub(crate) fn set_slot(&mut self, slot: Option<u8>) {
        self.slot = slot.unwrap_or(Self::NO_SLOT);
    }

    /// The spelling, with its dot.
    pub fn as_str(&self) -> &'static str {
        catalog().mod_name(self.id)
    }
}

impl PartialEq for Modifier {
    fn eq(&self, other: &Modifier) -> bool {
        self.id == other.id
    }
}

/// An instruction statement. (Serialized by name: see [`crate::json`].)
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// Optional guard predicate (boxed: few instructions have one, and
    /// inline it would make every statement 24 bytes bigger).
    pub guard: Option<Box<Guard>>,
    /// The opcode root (`ld`, `cp`, `mma`…).
    pub opcode: OpcodeId,
    /// Where the opcode word is.
    pub opcode_span: Span,
    /// The catalog form the instruction matched ([`FormId::NONE`] if none).
    pub form: FormId,
    /// The modifiers in written order (room for three inline: 96% of the
    /// instructions of real modules have at most three).
    pub mods: SmallVec<[Modifier; 3]>,
    /// The operands in written order.
    pub operands: Vec<Operand>,
    /// Which of the form's operand templates are present (bit `i` = template `i`).
    pub present: u32,
    /// The whole statement, `;` included.
    pub span: Span,
}

impl Instruction {
    /// The opcode root's spelling.
    pub fn opcode_name(&self) -> &'static str {
        catalog().opcode(self.opcode).map(|o| o.name).unwrap_or("?")
    }

    /// The matched catalog form.
    pub fn form(&self) -> Option<&'static Form> {
        catalog().form(self.form)
    }

    /// The instruction name of the matched form, e.g. `cp.async.bulk.tensor`.
    pub fn name(&self) -> &'static str {
        self.form()
            .map(|f| f.name)
            .unwrap_or_else(|| self.opcode_name())
    }

    /// Whether the instruction has the modifier spelled `m` (with its dot).
    pub fn has_mod(&self, m: &str) -> bool {
        catalog()
            .mod_id(m)
            .is_some_and(|id| self.mods.iter().any(|x| x.id == id))
    }

    /// The modifier that fills the form's group named `group` (without its
    /// dot: `type`, `ss`, `scope`), if any.
    pub fn group(&self, group: &str) -> Option<Modifier> {
        let cat = catalog();
        let form = self.form()?;
        self.mods.iter().copied().find(|m| {
            m.slot()
                .and_then(|s| form.slots.get(s))
                .is_some_and(|s| match s.kind {
                    crate::isa::SlotKind::Group(g) => cat.group(g).is_some_and(|g| g.name == group),
                    crate::isa::SlotKind::Lit(_) => false,
                })
        })
    }

    /// The modifier that fills group `g` of the instruction's form, if one
    /// is written: the one in a slot of that group ([`Instruction::slot_mod`])
    /// or, in a form without such a slot, the one that stands for it
    /// ([`Instruction::implied_mod`]).
    #[inline]
    pub fn group_mod(&self, g: crate::isa::GroupId) -> Option<Modifier> {
        self.slot_mod(g).or_else(|| self.implied_mod(g))
    }

    /// The written modifiers with the groups whose slots they fill, for the
    /// catalog's shared evaluation ([`crate::isa::fill`]).
    pub fn written(&self) -> crate::isa::fill::WrittenMods {
        let form = self.form();
        self.mods
            .iter()
            .map(|m| {
                let slot = m.slot().and_then(|s| form.and_then(|f| f.slots.get(s)));
                crate::isa::fill::Written {
                    id: m.id,
                    group: slot.and_then(|s| match s.kind {
                        crate::isa::SlotKind::Group(g) => Some(g),
                        crate::isa::SlotKind::Lit(_) => None,
                    }),
                    placed: slot.is_some(),
                }
            })
            .collect()
    }

    /// The modifier written in a slot of group `g` of the instruction's form.
    #[inline]
    pub fn slot_mod(&self, g: crate::isa::GroupId) -> Option<Modifier> {
        let form = self.form()?;
        self.mods.iter().copied().find(|m| {
            m.slot()
                .and_then(|s| form.slots.get(s))
                .is_some_and(|s| s.kind == crate::isa::SlotKind::Group(g))
        })
    }

    /// In a form without a slot of group `g`, the written modifier that
    /// stands for it ([`crate::isa::fill::implied_filler`]): a form that
    /// spells `atom.add.f32` literally, or through another group, in a
    /// section whose roles say `.type`.
    pub fn implied_mod(&self, g: crate::isa::GroupId) -> Option<Modifier> {
        let form = self.form()?;
        let k = crate::isa::fill::implied_filler(catalog(), form, &self.written(), g)?;
        self.mods.get(k).copied()
    }

    /// The operands paired with their templates (role names), in order.
    pub fn roles(&self) -> Vec<(&'static OperandTpl, &Operand)> {
        let Some(form) = self.form() else {
            return Vec::new();
        };
        let tpls = form
            .operands
            .iter()
            .enumerate()
            .filter(|(i, _)| self.present & (1 << i) != 0)
            .map(|(_, t)| t);
        tpls.zip(self.operands.iter()).collect()
    }

    /// The operand bound to `role` (`d`, `a`, `cache-policy`…).
    pub fn operand(&self, role: &str) -> Option<&Operand> {
        self.roles()
            .into_iter()
            .find(|(t, _)| t.role == role)
            .map(|(_, o)| o)
    }
}
