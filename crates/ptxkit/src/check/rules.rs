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
        let first_read = i
            .form()
            .and_then(|f| f.operands.first())
            .and_then(|t| crate::isa::catalog().role(t.spec))
            .is_some_and(|r| r.dir == crate::isa::Dir::In);
        let skip = usize::from(!first_read);
        for o in i.operands.iter().skip(skip) {
            if let Some(span) = sink_in(o) {
                if crate::isa::catalog()
                    .flags(i.form)
                    .has(crate::isa::Flags::CALL)
                {
                    return;
                }
                self.diags.push(Diagnostic::error(
                    Code::Sink,
                    span,
                    "the sink `_` cannot be a source operand",
                ));
                return;
            }
        }
    }
}
