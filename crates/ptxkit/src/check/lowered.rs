//! Vector elements that ptxas lowers through a `mov` (`mov-on=`, see
//! docs/catalog.md): on some targets ptxas rewrites an instruction into
//! `mov`s of its float operands before the instruction itself, and that
//! `mov` takes less than the instruction does.
//!
//! What ptxas 13.5 takes there (probed on tex.grad's `.cube`, `.acube` and
//! `.3d` forms, both texturing modes, sm_75 to sm_121; `tests/data/
//! operands/texture/grad_lowered.ptx`): a register of the element's float
//! type or an untyped one of its width, and a float constant. It refuses a
//! special register ("Special register argument not allowed for
//! instruction 'mov'"), a predicate, a packed or integer register and an
//! integer constant ("Arguments mismatch for instruction 'mov'"), all of
//! which the instruction alone takes among `.b32` elements on older
//! targets. Elements of an integer type are not lowered.

use super::operand_kinds::{lit, Lit};
use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::isa::vocab::ScalarType;
use crate::isa::RoleSpec;
use crate::syntax::{Expr, Instruction};

impl Checker<'_> {
    /// Element `e` of role `spec` (type `ty`) of `i`, where `reg` is the
    /// type of the register it names and `special` whether it is a special
    /// register: when ptxas lowers the role through a `mov` on this target,
    /// report what that `mov` refuses. Whether the element passes.
    pub(super) fn lowered_element(
        &mut self,
        i: &Instruction,
        spec: &RoleSpec,
        ty: Option<ScalarType>,
        e: &Expr,
        reg: Option<ScalarType>,
        special: bool,
    ) -> bool {
        if spec.mov_on.is_empty() || !spec.lowered_on(self.env.sm.map(|s| s.num)) {
            return true;
        }
        let Some(t) = ty.filter(|t| t.is_float() && !t.is_packed()) else {
            return true;
        };
        let what = if special {
            "a special register".to_string()
        } else if let Some(r) = reg {
            if r == t || (r.is_untyped() && r.bits() == t.bits()) {
                return true;
            }
            format!("a {r} register")
        } else if lit(e) == Some(Lit::Int) {
            "an integer constant".to_string()
        } else {
            return true;
        };
        self.emit(
            Diagnostic::error(
                Code::OperandType,
                e.span(),
                format!(
                    "{what} cannot be an element of `{}` of `{}` on this target",
                    spec.role,
                    super::inst_name(i)
                ),
            )
            .with_note(format!(
                "ptxas lowers `{}` through a `mov{t}` here: its elements are {t} or .b{} registers or float constants",
                spec.role,
                t.bits()
            )),
        );
        false
    }
}

impl Checker<'_> {
    /// A lone value `e` of role `spec` of `i`, where `reg` is the type of
    /// the register it names: when the role says `typed-on=` this target,
    /// an untyped register is refused, since ptxas reads one there as
    /// another operand that it then refuses (tex.grad's lone trailing
    /// `.b32` after a sampler in unified mode, read as the depth-compare
    /// value and lowered through a `mov` from sm_90 on; `tests/data/
    /// operands/texture/grad_lone_trailing_*.ptx`). Whether it passes.
    pub(super) fn typed_lone(
        &mut self,
        i: &Instruction,
        spec: &RoleSpec,
        e: &Expr,
        reg: Option<ScalarType>,
    ) -> bool {
        let Some(r) = reg.filter(|r| r.is_untyped()) else {
            return true;
        };
        if !spec.typed_on_target(self.env.sm.map(|s| s.num)) {
            return true;
        }
        self.emit(
            Diagnostic::error(
                Code::OperandType,
                e.span(),
                format!(
                    "a lone {r} register cannot be `{}` of `{}` on this target",
                    spec.role,
                    super::inst_name(i)
                ),
            )
            .with_note(
                "ptxas reads a lone untyped register here as another operand, which it refuses on this target; write a typed register or a vector",
            ),
        );
        false
    }
}

impl Checker<'_> {
    /// A lone value `e` of role `spec` of `i`, where `reg` is the type of
    /// the register it names (`None`: not a register): when the role says
    /// `untyped-on=` this target, only an untyped register passes, since
    /// ptxas moves the value through an untyped store there (tex.grad's
    /// lone offset beside a depth value from sm_90 on: "Arguments mismatch
    /// for instruction 'st'"; `tests/data/operands/texture/
    /// grad_offset_with_depth_*.ptx`; tex.level's depth value after a
    /// 64-bit sampler with `.s32` coordinates, every target). Whether it
    /// passes.
    pub(super) fn untyped_lone(
        &mut self,
        i: &Instruction,
        spec: &RoleSpec,
        e: &Expr,
        reg: Option<ScalarType>,
    ) -> bool {
        if reg.is_some_and(ScalarType::is_untyped)
            || !spec.untyped_on_target(self.env.sm.map(|s| s.num))
        {
            return true;
        }
        let what = match reg {
            Some(r) => format!("a lone {r} register"),
            None => "a lone value that is not a register".to_string(),
        };
        self.emit(
            Diagnostic::error(
                Code::OperandType,
                e.span(),
                format!(
                    "{what} cannot be `{}` of `{}` on this target",
                    spec.role,
                    super::inst_name(i)
                ),
            )
            .with_note(
                "ptxas takes only an untyped (.bN) register alone here on this target (it moves it through an untyped store, or reads it as another operand)",
            ),
        );
        false
    }
}
