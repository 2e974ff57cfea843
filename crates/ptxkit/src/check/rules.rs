//! Instruction rules that are not a matter of one operand: where the sink
//! `_` may stand, and the catalog's `@rule`s (`mod_rules`). Roundings of
//! `cvt` are catalog `@rule`s; forms removed on newer targets (`vote`
//! without `.sync`) are catalog upper bounds (`until_ptx`, `until_sm`,
//! checked with the other version and target gates).

use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Instruction, Operand};

/// Whether an operand is, or contains, the sink `_`; returns its span.
fn sink_in(o: &Operand) -> Option<crate::source::Span> {
    match o {
        Operand::Expr(e) => e.is_sink().then(|| e.span()),
        Operand::Pair(p) => {
            sink_in(&p.first).or_else(|| p.second.is_sink().then(|| p.second.span()))
        }
        Operand::Vector { items, .. }
        | Operand::Tuple { items, .. }
        | Operand::List { items, .. } => items.iter().find_map(sink_in),
        Operand::Address { addr, .. } => addr.is_sink().then(|| addr.span()),
    }
}

/// Whether `o`, the `k`th operand of `i`, is a vector read by a role that
/// takes `_` as some of its elements (the `sink` kind on a read role: the
/// 256-bit `st`), and is not `_` throughout.
fn sink_elements(i: &Instruction, k: usize, o: &Operand) -> bool {
    let Operand::Vector { items, .. } = o else {
        return false;
    };
    let takes = i
        .form()
        .and_then(|f| f.operands.get(k))
        .filter(|t| matches!(t.shape, crate::isa::Shape::Value))
        .and_then(|t| crate::isa::catalog().role(t.spec))
        .is_some_and(|r| r.kinds.has(crate::isa::Kinds::SINK) && !r.dir.writes());
    takes
        && !items
            .iter()
            .all(|e| matches!(e, Operand::Expr(x) if x.is_sink()))
}

/// Whether the first operand of `i`'s form is read: a bracketed address
/// or tuple, or a value whose role only reads.
fn reads_first(i: &Instruction) -> bool {
    let Some(t) = i.form().and_then(|f| f.operands.first()) else {
        return false;
    };
    match t.shape {
        crate::isa::Shape::Bracket(_) => true,
        crate::isa::Shape::Value => crate::isa::catalog()
            .role(t.spec)
            .is_some_and(|r| !r.dir.writes()),
        // Another shape whose role is only read (`bar.sync _`, `bra _`,
        // `pmevent _`: "Result discard mode is not allowed").
        _ => crate::isa::catalog()
            .role(t.spec)
            .is_some_and(|r| r.dir == crate::isa::Dir::In),
    }
}

impl Checker<'_> {
    /// Rules on one instruction.
    pub(super) fn instruction_rules(&mut self, cx: &super::inst_ctx::InstCtx<'_>) {
        self.sink_rules(cx.i);
        self.modifier_rules(cx);
    }

    /// `_` only receives results: never a source. (Which destinations may
    /// be `_` is the catalog's: the `sink` kind of a role.) The first
    /// operand is a destination unless its role is only read (`bar.sync
    /// _`, `bra _`, `pmevent _`: "Result discard mode is not allowed").
    fn sink_rules(&mut self, i: &Instruction) {
        // The first operand is a destination unless its form says it is
        // read (`cp.async.wait_group N`, `cp.reduce.async.bulk.tensor
        // [tensorMap, {coords}], …`: ptxas refuses `_` there too).
        for (k, o) in i.operands.iter().enumerate() {
            // (Asked only of a first operand that holds `_`: rare.)
            if k == 0 && (sink_in(o).is_none() || !reads_first(i)) {
                continue;
            }
            if let Some(span) = sink_in(o) {
                if sink_elements(i, k, o) {
                    continue;
                }
                if crate::isa::catalog()
                    .flags(i.form)
                    .has(crate::isa::Flags::CALL)
                {
                    return;
                }
                self.emit(Diagnostic::error(
                    Code::Sink,
                    span,
                    "the sink `_` cannot be a source operand",
                ));
                return;
            }
        }
    }
}
