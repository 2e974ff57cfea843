//! Instruction and declaration rules that are not a matter of syntax:
//! `cvt` rounding, `vote` without `.sync` on newer targets, what local
//! declarations may contain.

use super::Checker;
use crate::diag::Diagnostic;
use crate::isa::PtxVersion;
use crate::syntax::{Instruction, Operand};

/// Diagnostic codes of this pass.
pub mod codes {
    /// A conversion that needs a rounding modifier.
    pub const ROUNDING_REQUIRED: &str = "E0701";
    /// An instruction form removed for the module's target and version.
    pub const REMOVED: &str = "E0702";
    /// The sink `_` where no result can be discarded.
    pub const SINK: &str = "E0704";
    /// A conversion with a rounding modifier of the wrong kind, or one
    /// where none applies.
    pub const ROUNDING_NOT_ALLOWED: &str = "E0706";
}

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
    pub(super) fn instruction_rules(&mut self, i: &Instruction) {
        let class = super::opclass::class(i.opcode);
        self.sink_rules(i);
        self.modifier_rules(i);
        // `cvt`'s roundings are catalog `@rule`s of its sections.
        if class.vote {
            self.vote_sync(i);
        }
    }

    /// `_` only receives results: never a source. (Which destinations may
    /// be `_` is the catalog's: the `sink` kind of a role.)
    fn sink_rules(&mut self, i: &Instruction) {
        for o in i.operands.iter().skip(1) {
            if let Some(span) = sink_in(o) {
                if crate::isa::catalog()
                    .flags(i.form)
                    .has(crate::isa::Flags::CALL)
                {
                    return;
                }
                self.diags.push(Diagnostic::error(
                    codes::SINK,
                    span,
                    "the sink `_` cannot be a source operand",
                ));
                return;
            }
        }
    }

    /// `vote` without `.sync` is gone from sm_70 on, as of PTX ISA 6.4.
    fn vote_sync(&mut self, i: &Instruction) {
        let new_target = self.env.sm.is_some_and(|s| s.num >= 70);
        let new_isa = self
            .env
            .ptx
            .is_some_and(|v| v >= PtxVersion { major: 6, minor: 4 });
        if new_target && new_isa && !i.has_mod(".sync") {
            self.diags.push(
                Diagnostic::error(
                    codes::REMOVED,
                    i.opcode_span,
                    "`vote` without `.sync` is not supported on sm_70 and later from PTX ISA 6.4",
                )
                .with_note("use `vote.sync` with a member mask"),
            );
        }
    }
}
