//! Instructions: guard, opcode, modifiers (matched against the catalog),
//! operands (bound to the form's roles).

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::{PResult, Parser};
use crate::diag::{Code, Diagnostic};
use crate::isa::{
    bind_operands, catalog, match_modifiers, FormId, ModId, ModMatch, OpcodeId, WrittenShape,
};
use crate::lex::TokenKind as K;
use crate::source::Span;
use crate::syntax::{Guard, Instruction, Modifier, Operand, Stmt};

/// Cache of modifier matching: real modules repeat the same few hundred
/// opcode/modifier combinations thousands of times.
pub(crate) type FormCache = FxHashMap<(OpcodeId, SmallVec<[ModId; 6]>), ModMatch>;

/// Cache of successful resolutions: opcode, modifiers and operand shapes
/// (as one key) to the form and operand mask. Most instructions of a module
/// hit it, skipping matching and binding altogether.
pub(crate) type BoundCache = FxHashMap<BoundKey, (FormId, u32, u128)>;

/// Longest [`BoundKey`]: opcode, modifiers, separator and operand shapes
/// of any real instruction fit; longer ones are resolved without the cache.
const KEY_LEN: usize = 20;

/// The opcode id, the modifier ids, `0xFFFF`, then the operand shape codes
/// (all at least `0xF000`), zero-filled: the zeros after the separator can
/// only be filling, so the key identifies the instruction's resolution.
/// The 16-bit codes are packed four to a word, and the words are filled
/// whole: a key read back right after being built must not wait on a
/// series of narrow stores.
#[derive(Clone, Copy, Eq)]
pub(crate) struct BoundKey([u64; KEY_LEN / 4]);

impl std::hash::Hash for BoundKey {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        for w in self.0 {
            h.write_u64(w);
        }
    }
}

/// Word by word without branches (an array's `==` calls `memcmp`).
impl PartialEq for BoundKey {
    #[inline]
    fn eq(&self, other: &BoundKey) -> bool {
        self.0
            .iter()
            .zip(&other.0)
            .fold(0u64, |d, (a, b)| d | (a ^ b))
            == 0
    }
}

/// The [`BoundKey`] of `inst`, if it fits.
fn bound_key(inst: &Parts<'_>) -> Option<BoundKey> {
    let shapes = inst.operands.iter().map(|o| shape_code(o.written_shape()));
    let mut codes = std::iter::once(inst.opcode.0)
        .chain(inst.mods.iter().map(|m| m.id.0))
        .chain(std::iter::once(0xFFFF))
        .chain(shapes)
        .fuse();
    let mut key = [0u64; KEY_LEN / 4];
    // Each word made in a register, four codes to it, the first in the low
    // bits.
    for word in &mut key {
        *word = [0, 16, 32, 48]
            .into_iter()
            .map_while(|shift| codes.next().map(|c| u64::from(c) << shift))
            .fold(0, |w, c| w | c);
    }
    // Too many codes to fit.
    if codes.next().is_some() {
        return None;
    }
    Some(BoundKey(key))
}

/// What resolving an instruction's form reads of it.
struct Parts<'a> {
    opcode: OpcodeId,
    opcode_span: Span,
    mods: &'a [Modifier],
    operands: &'a [Operand],
    span: Span,
}

/// The matching caches of a parser. Their contents depend only on the
/// process-wide catalog, so they outlive the parser: each thread keeps the
/// last parser's caches for the next one (a corpus of small files then
/// matches each combination once, not once per file).
#[derive(Default)]
pub(crate) struct Caches {
    /// See [`FormCache`].
    pub(crate) form: FormCache,
    /// See [`BoundCache`].
    pub(crate) bound: BoundCache,
    /// By opcode id: how many operands the opcode's last instruction had
    /// (0: none seen yet), the first capacity of the next one's list.
    arity: Vec<u8>,
}

/// Entries past which a thread's kept caches are dropped rather than kept
/// (bounds their memory; real modules use a few thousand combinations).
const KEEP_MAX: usize = 1 << 16;

thread_local! {
    static KEPT: std::cell::Cell<Option<Box<Caches>>> = const { std::cell::Cell::new(None) };
}

impl Caches {
    /// The caches the last parser on this thread left, or empty ones.
    pub(crate) fn take() -> Box<Caches> {
        KEPT.try_with(|k| k.take())
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Leave `c` for the next parser on this thread.
    pub(crate) fn keep(c: Box<Caches>) {
        let entries = [c.form.len(), c.bound.len()];
        if entries.iter().fold(0usize, |a, &n| a.saturating_add(n)) <= KEEP_MAX {
            // Fails only while the thread is being torn down.
            let _ = KEPT.try_with(|k| k.set(Some(c)));
        }
    }
}

fn shape_code(s: WrittenShape) -> u16 {
    match s {
        WrittenShape::Value => 0xF000,
        WrittenShape::Pair => 0xF001,
        WrittenShape::Vector => 0xF002,
        WrittenShape::List => 0xF003,
        WrittenShape::Element => 0xF004,
        WrittenShape::Bracket(n) => 0xF100 | u16::from(n),
    }
}

impl Parser<'_> {
    /// The catalog id of opcode token `t`.
    #[inline]
    fn opcode_id(&self, t: crate::lex::Token) -> Option<OpcodeId> {
        match self.packed(t) {
            Some(w) => catalog().opcode_id_word(w),
            None => catalog().opcode_id(self.text(t)),
        }
    }

    /// The catalog id of modifier token `t`.
    #[inline]
    fn mod_id(&self, t: crate::lex::Token) -> Option<ModId> {
        match self.packed(t) {
            Some(w) => catalog().mod_id_word(w),
            None => catalog().mod_id(self.text(t)),
        }
    }

    /// An instruction statement; the current token is `@` or the opcode.
    pub(crate) fn instruction(&mut self) -> PResult<Stmt> {
        let start = self.tok.span.start;
        let guard = if self.at(K::At) {
            self.bump();
            let negated = self.eat(K::Bang);
            let p = self.expect(K::Ident, "a predicate register after `@`")?;
            Some(Box::new(Guard {
                negated,
                pred: self.name(p),
                span: self.since(start),
            }))
        } else {
            None
        };
        let op_tok = self.expect(K::Ident, "an instruction")?;
        let op_text = self.text(op_tok);
        let Some(opcode) = self.opcode_id(op_tok) else {
            let d = Diagnostic::error(
                Code::UnknownOpcode,
                op_tok.span,
                format!("unknown instruction `{}`", super::truncate(op_text, 40)),
            );
            self.report(d);
            self.recover_stmt();
            return Ok(Stmt::Error(self.since(start)));
        };
        let mut mods: SmallVec<[Modifier; 3]> = SmallVec::new();
        let mut unknown = false;
        while self.at(K::DotWord) {
            let t = self.bump();
            let id = match self.mod_id(t) {
                Some(id) => id,
                None => {
                    unknown = true;
                    ModId::UNKNOWN
                }
            };
            mods.push(Modifier::new(id, t.span));
        }
        let lists = catalog().opcode_takes_lists(opcode);
        let operands = if self.at(K::Semi) {
            Vec::new()
        } else {
            // Room for as many operands as this opcode had last time (most
            // opcodes always take the same number): no list grows, and none
            // is bigger than needed.
            let slot = usize::from(opcode.0);
            let cap = self.caches.arity.get(slot).copied().unwrap_or(0);
            let cap = if cap == 0 { 4 } else { usize::from(cap) };
            // A list handed back by a streamed reader is reused as is.
            let mut items = std::mem::take(&mut self.spare_operands);
            items.reserve_exact(cap.max(1));
            let ops = self.operand_seq_into(items, K::Semi, lists)?;
            if self.caches.arity.len() <= slot {
                self.caches.arity.resize(slot.saturating_add(1), 0);
            }
            if let Some(a) = self.caches.arity.get_mut(slot) {
                *a = u8::try_from(ops.len()).unwrap_or(u8::MAX);
            }
            ops
        };
        self.expect(K::Semi, "`;` after the instruction")?;
        let span = self.since(start);
        let parts = Parts {
            opcode,
            opcode_span: op_tok.span,
            mods: &mods,
            operands: &operands,
            span,
        };
        let (form, present, slots) = if unknown {
            for m in &mods {
                if m.id == ModId::UNKNOWN {
                    let text = m.span().text(self.src).into_owned();
                    self.error(
                        Code::UnknownModifier,
                        m.span(),
                        format!(
                            "unknown modifier `{}` for `{}`",
                            super::truncate(&text, 40),
                            op_text
                        ),
                    );
                }
            }
            (FormId::NONE, 0, NO_SLOTS)
        } else {
            self.resolve_form(&parts, op_text)
        };
        if slots != NO_SLOTS {
            for (i, m) in mods.iter_mut().enumerate() {
                let shift = 8u32.saturating_mul(u32::try_from(i.min(15)).unwrap_or(15));
                let s = u8::try_from(slots.checked_shr(shift).unwrap_or(0) & 0xFF).ok();
                m.set_slot(s.filter(|&s| s != u8::MAX && i < 16));
            }
        }
        // Built once, whole, where it is returned.
        Ok(Stmt::Instruction(Instruction {
            guard,
            opcode,
            opcode_span: op_tok.span,
            form,
            mods,
            operands,
            present,
            span,
        }))
    }

    /// Pick the form from the modifiers, then bind operands: the form and
    /// the mask of present operand templates ([`FormId::NONE`] and 0 if
    /// none fits, reported).
    fn resolve_form(&mut self, inst: &Parts<'_>, op_text: &str) -> (FormId, u32, u128) {
        let Some(key) = bound_key(inst) else {
            return self.resolve_form_slow(inst, op_text);
        };
        if let Some(&found) = self.caches.bound.get(&key) {
            return found;
        }
        let found = self.resolve_form_slow(inst, op_text);
        if found.0 != FormId::NONE {
            self.caches.bound.insert(key, found);
        }
        found
    }

    fn resolve_form_slow(&mut self, inst: &Parts<'_>, op_text: &str) -> (FormId, u32, u128) {
        let cat = catalog();
        let ids: SmallVec<[ModId; 6]> = inst.mods.iter().map(|m| m.id).collect();
        let key = (inst.opcode, ids);
        let m = match self.caches.form.get(&key) {
            Some(m) => m.clone(),
            None => {
                let m = match_modifiers(cat, inst.opcode, &key.1);
                self.caches.form.insert(key.clone(), m.clone());
                m
            }
        };
        let ids = key.1;
        match m {
            ModMatch::Unknown(i) => {
                let span = inst
                    .mods
                    .get(i)
                    .map(|m| m.span())
                    .unwrap_or(inst.opcode_span);
                let name = inst.mods.get(i).map(|m| m.as_str()).unwrap_or("?");
                self.error(
                    Code::UnknownModifier,
                    span,
                    format!("`{op_text}` does not take modifier `{name}`"),
                );
            }
            ModMatch::NoForm { closest, at } => {
                let (span, msg) = match at.and_then(|i| inst.mods.get(i)) {
                    Some(m) => (
                        m.span(),
                        format!(
                            "modifier `{}` cannot be combined with the others on `{op_text}`",
                            m.as_str()
                        ),
                    ),
                    None => (
                        inst.opcode_span,
                        format!("`{op_text}` is missing a required modifier"),
                    ),
                };
                let mut d = Diagnostic::error(Code::BadModifiers, span, msg);
                if let Some(f) = closest.and_then(|f| cat.form(f)) {
                    d = d.with_note(format!("closest form: {}", f.text));
                }
                self.report(d);
            }
            ModMatch::Misordered { form, at } => {
                let span = inst
                    .mods
                    .get(at)
                    .map(|m| m.span())
                    .unwrap_or(inst.opcode_span);
                let word = cat
                    .form(form)
                    .map(|f| head_name(cat, f, &ids, op_text))
                    .unwrap_or_default();
                let name = inst.mods.get(at).map(|m| m.as_str()).unwrap_or("?");
                self.error(
                    Code::BadModifiers,
                    span,
                    format!(
                        "`{name}` belongs to the instruction name `{word}`, written right \
                         after `{op_text}` and in that order"
                    ),
                );
            }
            ModMatch::Forms(forms) => {
                let shapes: SmallVec<[WrittenShape; 8]> =
                    inst.operands.iter().map(|o| o.written_shape()).collect();
                for &f in &forms {
                    let Some(form) = cat.form(f) else { continue };
                    if let Some(mask) = bind_operands(cat, form, &ids, &shapes) {
                        return (f, mask, packed_slots(cat, form, &ids));
                    }
                }
                let span = operands_span(inst);
                let mut d = Diagnostic::error(
                    Code::BadOperands,
                    span,
                    format!(
                        "operands do not fit any form of `{}`",
                        name_for_diag(inst.mods, op_text)
                    ),
                );
                for f in forms.iter().take(4).filter_map(|f| cat.form(*f)) {
                    d = d.with_note(format!("expected: {}", f.text));
                }
                self.report(d);
            }
        }
        (FormId::NONE, 0, NO_SLOTS)
    }
}

/// The instruction name `mods` spell in `form` (`barrier.cta.red`): the
/// root and the modifiers of its name slots, in slot order.
fn head_name(
    cat: &crate::isa::Catalog,
    form: &crate::isa::Form,
    mods: &[ModId],
    root: &str,
) -> String {
    let Ok(slots) = crate::isa::assign_slots(cat, form, mods) else {
        return root.to_string();
    };
    let mut named: SmallVec<[(u8, ModId); 4]> = slots
        .iter()
        .zip(mods)
        .filter(|(s, _)| **s < form.head)
        .map(|(s, m)| (*s, *m))
        .collect();
    named.sort_unstable();
    named.dedup();
    let mut s = root.to_string();
    for (_, m) in named {
        s.push_str(cat.mod_name(m));
    }
    s
}

/// No slot known for any modifier.
const NO_SLOTS: u128 = u128::MAX;

/// The slots `mods` fill in `form`, a byte each (the first modifier in the
/// low byte; `0xFF` for none, and for every modifier past the sixteenth).
fn packed_slots(cat: &crate::isa::Catalog, form: &crate::isa::Form, mods: &[ModId]) -> u128 {
    let Ok(slots) = crate::isa::assign_slots(cat, form, mods) else {
        return NO_SLOTS;
    };
    let mut packed = NO_SLOTS;
    for (i, &s) in slots.iter().enumerate().take(16) {
        let shift = 8u32.saturating_mul(u32::try_from(i).unwrap_or(15));
        packed &= !0xFFu128.checked_shl(shift).unwrap_or(0);
        packed |= u128::from(s).checked_shl(shift).unwrap_or(0);
    }
    packed
}

fn operands_span(inst: &Parts<'_>) -> Span {
    match (inst.operands.first(), inst.operands.last()) {
        (Some(a), Some(b)) => a.span().to(b.span()),
        _ => inst.span,
    }
}

/// The instruction's name as written (`root` and the modifiers).
fn name_for_diag(mods: &[Modifier], root: &str) -> String {
    let mut s = root.to_string();
    for m in mods {
        s.push_str(m.as_str());
    }
    s
}
