//! Other readings of an instruction whose bracketed tuple ptxas reads as
//! part of one flat operand list (`@flags flat-tuple`: `tex`, `tld4`).
//!
//! ptxas 13.5 does not care where such a tuple's `]` stands: `tex.2d … [t,
//! s], {x, y}` is `[t, s, {x, y}]`, and `[t, s, {x, y}, {e0, e1}]` is `[t,
//! s, {x, y}], {e0, e1}`. So `[%rd1, %rd9], %r7` has two readings, `[a,
//! c], e` and `[a, b, c]`, and ptxas takes the line when either fits. The
//! parser binds the written grouping to the first form whose shape fits;
//! when the checks then fail, the checker tries the other groupings
//! (built here) and keeps the line if one of them passes. Only the error
//! path pays for this.

use smallvec::SmallVec;

use crate::isa::{bind_operands, catalog, match_modifiers, ModId, ModMatch, WrittenShape};
use crate::syntax::{Expr, Instruction, Operand};

/// At most this many readings are tried (the error path only).
const MAX_READINGS: usize = 32;

/// The other readings of `i`: its grouping bound to the other forms its
/// shapes fit, then the regroupings of its first tuple, each bound to every
/// form its shapes fit (in catalog order): the tuple taking in the next
/// one, two… operands after it, then giving back its last one, two… items
/// (keeping at least two). At most [`MAX_READINGS`]; none when `i` has no
/// tuple.
pub(super) fn readings(i: &Instruction) -> Vec<Instruction> {
    let mut out = Vec::new();
    let Some(t) = i
        .operands
        .iter()
        .position(|o| matches!(o, Operand::Tuple { .. }))
    else {
        return out;
    };
    let Some(Operand::Tuple { items, span }) = i.operands.get(t) else {
        return out;
    };
    let (head, rest) = i.operands.split_at(t);
    let after = rest.get(1..).unwrap_or(&[]);
    let cat = catalog();
    let ids: SmallVec<[ModId; 6]> = i.mods.iter().map(|m| m.id).collect();
    let ModMatch::Forms(forms) = match_modifiers(cat, i.opcode, &ids) else {
        return out;
    };
    if !tuple_syntax(items) {
        return out;
    }
    // Every form the grouping's shapes fit, in catalog order (the written
    // grouping's own form was tried already).
    let mut try_ops = |ops: Vec<Operand>, skip: Option<crate::isa::FormId>| {
        let shapes: SmallVec<[WrittenShape; 8]> = ops.iter().map(|o| o.written_shape()).collect();
        for &f in &forms {
            let Some(form) = cat.form(f) else { continue };
            if Some(f) == skip || out.len() >= MAX_READINGS {
                continue;
            }
            if let Some(mask) = bind_operands(cat, form, &ids, &shapes) {
                let mut alt = i.clone();
                alt.form = f;
                alt.present = mask;
                alt.operands = ops.clone();
                out.push(alt);
            }
        }
    };
    try_ops(i.operands.clone(), Some(i.form));
    // Taking in the next `k` operands.
    for k in 1..=after.len() {
        let taken = after.get(..k).unwrap_or(&[]);
        let mut grown = items.clone();
        grown.extend(taken.iter().cloned());
        if !tuple_syntax(&grown) {
            break;
        }
        let end = taken.last().map_or(*span, |o| span.to(o.span()));
        let mut ops = head.to_vec();
        ops.push(Operand::Tuple {
            items: grown,
            span: end,
        });
        ops.extend(after.get(k..).unwrap_or(&[]).iter().cloned());
        try_ops(ops, None);
    }
    // Giving back its last `k` items.
    for keep in (2..items.len()).rev() {
        let (kept, given) = items.split_at(keep);
        let mut ops = head.to_vec();
        ops.push(Operand::Tuple {
            items: kept.to_vec(),
            span: *span,
        });
        ops.extend(given.iter().cloned());
        ops.extend(after.iter().cloned());
        try_ops(ops, None);
    }
    out
}

/// Whether ptxas's grammar takes `items` as a tuple: a name first, then
/// at most three items, each a plain name or a brace vector, where the
/// second is a vector only as the last item and the fourth is always one
/// (`[t, s, {x, y}, {e0, e1}]`; `[t, {x}, {e}]`, `[t, s, {x}, %r1]`,
/// `[t, s, %tid.x]` and `[t, s, %r1+1]` are syntax errors, probed with
/// ptxas 13.5).
fn tuple_syntax(items: &[Operand]) -> bool {
    let name = |o: &Operand| matches!(o, Operand::Expr(Expr::Name(..)));
    let vector = |o: &Operand| matches!(o, Operand::Vector { .. });
    let last = items.len().saturating_sub(1);
    items.len() <= 4
        && items.iter().enumerate().all(|(k, o)| match k {
            0 => name(o),
            1 => name(o) || (k == last && vector(o)),
            2 => name(o) || vector(o),
            _ => vector(o),
        })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used)]

    fn parsed(line: &str) -> crate::syntax::Instruction {
        let text = format!(
            ".version 9.4\n.target sm_90\n.address_size 64\n.entry k() {{\n.reg .b32 %r<64>;\n.reg .b64 %rd<8>;\n{line}\n}}\n"
        );
        let p = crate::parse(text.as_bytes());
        let f = p.module.functions().next().expect("a kernel");
        let body = f.body.as_ref().expect("a body");
        (*body.instructions().first().expect("an instruction")).clone()
    }

    #[test]
    fn readings_are_bounded_however_many_operands_follow_the_tuple() {
        // A line with other groupings to try has a few readings.
        let i =
            parsed("tex.level.2d.v4.u32.s32 {%r1, %r2, %r3, %r4}, [%rd1, %rd2], {%r5, %r6}, %r7;");
        let n = super::readings(&i).len();
        assert!((1..=super::MAX_READINGS).contains(&n), "{n}");
        // Many operands after the tuple do not make more than the bound.
        let ops: Vec<String> = (8..60).map(|k| format!("%r{k}")).collect();
        let i = parsed(&format!(
            "tex.level.2d.v4.u32.s32 {{%r1, %r2, %r3, %r4}}, [%rd1, %rd2], {{%r5, %r6}}, {};",
            ops.join(", ")
        ));
        assert!(super::readings(&i).len() <= super::MAX_READINGS);
    }
}
