//! Instruction and declaration rules that are not a matter of syntax:
//! `cvt` rounding, `vote` without `.sync` on newer targets, what local
//! declarations may contain.

use super::Checker;
use crate::diag::Diagnostic;
use crate::isa::vocab::ScalarType;
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
        if class.cvt {
            self.cvt_rounding(i);
        } else if class.vote {
            self.vote_sync(i);
        }
    }

    /// `_` only receives results: never a source. (Which destinations may
    /// be `_` is the catalog's: the `sink` kind of a role.)
    fn sink_rules(&mut self, i: &Instruction) {
        if crate::isa::catalog()
            .flags(i.form)
            .has(crate::isa::Flags::CALL)
        {
            return;
        }
        for o in i.operands.iter().skip(1) {
            if let Some(span) = sink_in(o) {
                self.diags.push(Diagnostic::error(
                    codes::SINK,
                    span,
                    "the sink `_` cannot be a source operand",
                ));
                return;
            }
        }
    }

    /// `cvt`'s rounding modifier (spec 9.7.9.21; checked against ptxas
    /// 13.5). A conversion between integer and float, or to a narrower
    /// float, needs one. Which kind it may be follows from the two types:
    /// a float rounding (`.rn`, `.rz`, `.rm`, `.rp`) where the result is a
    /// float rounded from a wider or integer value, an integer rounding
    /// (`.rni`, `.rzi`, `.rmi`, `.rpi`) where a float is rounded to an
    /// integral value (to an integer type, or to a float of its own size);
    /// none between integers or to a wider float.
    fn cvt_rounding(&mut self, i: &Instruction) {
        let cat = crate::isa::catalog();
        let types: smallvec::SmallVec<[ScalarType; 2]> =
            i.mods.iter().filter_map(|m| cat.mod_type(m.id)).collect();
        let [d, a] = types.as_slice() else { return };
        let float_rounding = i
            .mods
            .iter()
            .find(|m| matches!(m.as_str(), ".rn" | ".rz" | ".rm" | ".rp"));
        let int_rounding = i
            .mods
            .iter()
            .find(|m| matches!(m.as_str(), ".rni" | ".rzi" | ".rmi" | ".rpi"));
        let rounding = float_rounding.is_some()
            || int_rounding.is_some()
            || i.mods.iter().any(|m| matches!(m.as_str(), ".rna" | ".rs"));
        let int = |t: &ScalarType| t.is_integer();
        let scalar_float = |t: &ScalarType| {
            matches!(
                t,
                ScalarType::F16 | ScalarType::Bf16 | ScalarType::F32 | ScalarType::F64
            )
        };
        // PTX before 2.0 made rounding optional.
        let old = self
            .env
            .ptx
            .is_some_and(|v| v < PtxVersion { major: 2, minor: 0 });
        if old {
            return;
        }
        let needs = (int(d) && scalar_float(a))
            || (scalar_float(d) && int(a))
            || (scalar_float(d) && scalar_float(a) && d.bits() < a.bits());
        if needs && !rounding {
            self.diags.push(
                Diagnostic::error(codes::ROUNDING_REQUIRED, i.opcode_span, format!("`{}` needs a rounding modifier", super::inst_name(i)))
                    .with_note("conversions between integer and floating point, and to a narrower float, must say how to round (`.rn`, `.rz`, `.rm`, `.rp`, or `.rni`… for integers)"),
            );
            return;
        }
        // Which kind of rounding fits; `.bf16` is left out (ptxas takes
        // `cvt.rn.f32.bf16`, a widening).
        let ieee =
            |t: &ScalarType| matches!(t, ScalarType::F16 | ScalarType::F32 | ScalarType::F64);
        let (float_ok, int_ok, why) = match (int(d), ieee(d), int(a), ieee(a)) {
            (true, _, true, _) => (false, false, "both types are integers"),
            (_, true, true, _) => (true, false, "an integer is converted to a float"),
            (true, _, _, true) => (false, true, "a float is converted to an integer"),
            (_, true, _, true) if d.bits() < a.bits() => {
                (true, false, "a float is converted to a narrower float")
            }
            (_, true, _, true) if d.bits() == a.bits() => (
                false,
                true,
                "a float is rounded to an integral value of its own type",
            ),
            (_, true, _, true) => (
                false,
                false,
                "a float is converted to a wider float, exactly",
            ),
            _ => return,
        };
        let wrong = match (float_rounding, int_rounding) {
            (Some(m), _) if !float_ok => m,
            (_, Some(m)) if !int_ok => m,
            _ => return,
        };
        let takes = match (float_ok, int_ok) {
            (true, _) => "it takes `.rn`, `.rz`, `.rm` or `.rp`",
            (_, true) => "it takes `.rni`, `.rzi`, `.rmi` or `.rpi`, or none",
            _ => "it takes no rounding modifier",
        };
        self.diags.push(
            Diagnostic::error(
                codes::ROUNDING_NOT_ALLOWED,
                wrong.span(),
                format!(
                    "`{}` cannot round with `{}`: {why}",
                    super::inst_name(i),
                    wrong.as_str()
                ),
            )
            .with_note(takes),
        );
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
