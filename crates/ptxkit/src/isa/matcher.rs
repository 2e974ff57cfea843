//! Choosing an instruction's form from its modifiers, and binding its operands
//! to the form's roles. No token is read twice: the parser collects the
//! modifiers and operands once, and these functions work on those lists.

use smallvec::SmallVec;

use super::catalog::Catalog;
use super::model::*;

/// Result of matching an instruction's modifiers against its opcode's forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModMatch {
    /// These forms accept the modifiers, in catalog order.
    Forms(SmallVec<[FormId; 4]>),
    /// The modifier at this index is taken by no form of the opcode.
    Unknown(usize),
    /// Every modifier is known but no form accepts the combination; the index
    /// is that of the first modifier the closest form could not place, or
    /// `None` when the closest form lacks a required modifier.
    NoForm {
        /// The closest form.
        closest: Option<FormId>,
        /// The modifier that did not fit it.
        at: Option<usize>,
    },
    /// A form takes the modifiers, but not in the written order: those
    /// that spell the instruction's name ([`Form::head`]) do not come
    /// first, in order. The index is that of the first one out of place.
    Misordered {
        /// The form.
        form: FormId,
        /// The modifier out of place.
        at: usize,
    },
}

/// Which form slots the written modifiers filled: for modifier `i`, the slot
/// index in the form.
pub type SlotAssignment = SmallVec<[u8; 8]>;

/// Place `mods` (in written order) into `form`'s slots. Each modifier goes to
/// the first free slot that accepts it, so distinct groups may be written in
/// any order (ptxas accepts `ld.u32.global`). Data types keep their relative
/// order (`cvt.f32.bf16` is not `cvt.bf16.f32`): a type only goes to a slot
/// after the previous type's slot, and so does a modifier that two slots of
/// the form take (`mma.….row.col`: `.alayout` then `.blayout`). A repeatable modifier written again
/// ([`Catalog::is_repeatable`]: `.sat.sat`) shares the slot of its first
/// writing. The order of the name's slots is [`head_misplaced`]'s.
pub fn assign_slots(
    cat: &Catalog,
    form: &Form,
    mods: &[ModId],
) -> Result<SlotAssignment, Option<usize>> {
    let mut filled: u64 = 0;
    let mut out = SlotAssignment::new();
    let mut last_type: Option<usize> = None;
    // The last slot filled by a positional modifier, per kind.
    let mut last_positional: SmallVec<[(u16, usize); 4]> = SmallVec::new();
    for (i, &m) in mods.iter().enumerate() {
        let mut placed = false;
        if let Some(k) = mods.get(..i).and_then(|b| b.iter().position(|&e| e == m)) {
            if cat.is_repeatable(m) {
                if let Some(&j) = out.get(k) {
                    out.push(j);
                    continue;
                }
            }
        }
        let is_type = cat.is_type(m);
        // A modifier two slots of the form take (`.row` of `.alayout` and
        // `.blayout`, `.shared::cta` of a copy's destination and source)
        // is placed by position, as ptxas does: after the previous one.
        // So is any modifier where two slots take its kind
        // ([`Catalog::mod_kind`]): a copy's destination, then its source
        // (ptxas refuses `cp.async.ca.global.shared`), `.row` then `.col`.
        let kind = cat.mod_kind(m);
        let positional = !is_type
            && form
                .slots
                .iter()
                .filter(|s| slot_takes_kind(cat, s, kind))
                .nth(1)
                .is_some();
        let from = if is_type {
            last_type.map_or(0, |t| t.saturating_add(1))
        } else if positional {
            last_positional
                .iter()
                .find(|(k, _)| *k == kind)
                .map_or(0, |&(_, t)| t.saturating_add(1))
        } else {
            0
        };
        for (j, slot) in form.slots.iter().enumerate().take(64).skip(from) {
            if filled & (1 << j) == 0 && cat.slot_accepts(slot.kind, m) {
                filled |= 1 << j;
                out.push(j as u8);
                placed = true;
                if is_type {
                    last_type = Some(j);
                } else if positional {
                    match last_positional.iter_mut().find(|(k, _)| *k == kind) {
                        Some(e) => e.1 = j,
                        None => last_positional.push((kind, j)),
                    }
                }
                break;
            }
        }
        if !placed {
            return Err(Some(i));
        }
    }
    for (j, slot) in form.slots.iter().enumerate().take(64) {
        if !slot.optional && filled & (1 << j) == 0 {
            return Err(None);
        }
    }
    Ok(out)
}

/// Whether `slot` takes a modifier of kind `kind` ([`Catalog::mod_kind`]).
fn slot_takes_kind(cat: &Catalog, slot: &Slot, kind: u16) -> bool {
    match slot.kind {
        SlotKind::Lit(m) => cat.mod_kind(m) == kind,
        SlotKind::Group(g) => cat
            .group(g)
            .is_some_and(|g| g.alts.iter().any(|&m| cat.mod_kind(m) == kind)),
    }
}

/// The first written modifier out of place in `form`'s name: the
/// modifiers filling its first [`Form::head`] slots must be the first
/// written, in slot order (`slots` as [`assign_slots`] gave them).
pub fn head_misplaced(form: &Form, slots: &[u8]) -> Option<usize> {
    let head = form.head;
    if head == 0 {
        return None;
    }
    let mut last: Option<u8> = None;
    let mut in_head = true;
    for (i, &s) in slots.iter().enumerate() {
        if s < head {
            // A repeated modifier of the name (`.sync.sync`) stays in place.
            if !in_head || last.is_some_and(|l| s < l) {
                return Some(i);
            }
            last = Some(s);
        } else {
            in_head = false;
        }
    }
    None
}

/// Find the forms of `op` that accept `mods`.
pub fn match_modifiers(cat: &Catalog, op: OpcodeId, mods: &[ModId]) -> ModMatch {
    if let Some(i) = mods.iter().position(|&m| !cat.opcode_takes(op, m)) {
        return ModMatch::Unknown(i);
    }
    let Some(opcode) = cat.opcode(op) else {
        return ModMatch::NoForm {
            closest: None,
            at: None,
        };
    };
    let mut forms = SmallVec::new();
    let mut best: Option<(usize, FormId, Option<usize>)> = None;
    let mut misordered: Option<(FormId, usize)> = None;
    for &fid in opcode.forms {
        let Some(form) = cat.form(fid) else { continue };
        match assign_slots(cat, form, mods) {
            Ok(slots) => match head_misplaced(form, &slots) {
                None => forms.push(fid),
                Some(at) => {
                    misordered.get_or_insert((fid, at));
                }
            },
            Err(at) => {
                // Closeness: how many modifiers were placed before failing.
                let score = at.unwrap_or(mods.len());
                if best.is_none_or(|(s, _, _)| score > s) {
                    best = Some((score, fid, at));
                }
            }
        }
    }
    if let (true, Some((form, at))) = (forms.is_empty(), misordered) {
        return ModMatch::Misordered { form, at };
    }
    if forms.is_empty() {
        ModMatch::NoForm {
            closest: best.map(|b| b.1),
            at: best.and_then(|b| b.2),
        }
    } else {
        ModMatch::Forms(forms)
    }
}

/// The shape of an operand as written, for binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WrittenShape {
    /// A register, symbol, literal or expression.
    Value,
    /// `a|b`.
    Pair,
    /// `[ … ]` with this many comma-separated items.
    Bracket(u8),
    /// `{ … }`.
    Vector,
    /// `( … )`.
    List,
    /// `arr[i]`: an array element, a value (`mov`) or, in place of a
    /// bracketed address, the address (`ld`, `st`).
    Element,
}

fn shape_fits(tpl: &OperandTpl, w: WrittenShape) -> bool {
    match (&tpl.shape, w) {
        (Shape::Value, WrittenShape::Value | WrittenShape::Vector | WrittenShape::Element) => true,
        // `ld.global.u32 d, arr[1]`: the element is the address.
        (Shape::Bracket([only]), WrittenShape::Element) => !only.optional,
        (Shape::Literal(_), WrittenShape::Value) => true,
        (Shape::Pair { .. }, WrittenShape::Pair) => true,
        (Shape::Pair { optional: true, .. }, WrittenShape::Value | WrittenShape::Vector) => true,
        // A vector template needs a written vector (it tells `{a}` from `a-desc`).
        (Shape::Vector(_), WrittenShape::Vector) => true,
        (Shape::List, WrittenShape::List) => true,
        (Shape::Bracket(inner), WrittenShape::Bracket(n)) => {
            let req = inner.iter().filter(|o| !o.optional).count();
            (req..=inner.len()).contains(&(n as usize))
        }
        _ => false,
    }
}

/// Bind written operands to a form's operand templates. Returns a bit mask of
/// the templates that are present (bit `i` = template `i`), or `None` when the
/// operands do not fit.
///
/// Optional operands whose presence is tied to a modifier (`{, cache-policy if
/// .level::cache_hint}`) are decided by the modifiers; the remaining optional
/// operands are taken left to right, skipping those whose shape does not fit.
pub fn bind_operands(
    cat: &Catalog,
    form: &Form,
    mods: &[ModId],
    written: &[WrittenShape],
) -> Option<u32> {
    let tpls = &form.operands;
    if tpls.len() > 32 {
        return None;
    }
    let mut forced: u32 = 0;
    let mut free: SmallVec<[usize; 8]> = SmallVec::new();
    for (i, t) in tpls.iter().enumerate() {
        if !t.optional {
            forced |= 1 << i;
        } else if let Some(w) = t.when {
            if mods.iter().any(|&m| cat.slot_accepts(w, m)) {
                forced |= 1 << i;
            }
        } else {
            free.push(i);
        }
    }
    let base = forced.count_ones() as usize;
    let need = written.len().checked_sub(base)?;
    if need > free.len() {
        return None;
    }
    // Try the combinations of `need` free optionals in lexicographic order.
    let mut pick: SmallVec<[usize; 8]> = (0..need).collect();
    loop {
        let mut mask = forced;
        for &p in &pick {
            if let Some(&f) = free.get(p) {
                mask |= 1 << f;
            }
        }
        if fits(tpls, mask, written) {
            return Some(mask);
        }
        // Next combination.
        let mut i = need;
        loop {
            if i == 0 {
                return None;
            }
            i = i.saturating_sub(1);
            let max = free.len().saturating_sub(need).saturating_add(i);
            if pick.get(i).is_some_and(|&v| v < max) {
                let v = pick.get(i).copied().unwrap_or(0).saturating_add(1);
                for (k, slot) in pick.iter_mut().enumerate().skip(i) {
                    *slot = v.saturating_add(k.saturating_sub(i));
                }
                break;
            }
        }
    }
}

fn fits(tpls: &[OperandTpl], mask: u32, written: &[WrittenShape]) -> bool {
    let mut w = written.iter();
    for (i, t) in tpls.iter().enumerate() {
        if mask & (1 << i) == 0 {
            continue;
        }
        match w.next() {
            Some(&shape) if shape_fits(t, shape) => {}
            _ => return false,
        }
    }
    w.next().is_none()
}
