//! A vector whose elements are all constants, read by a `typed-consts`
//! role (docs/catalog.md): ptxas types such a vector by its elements and
//! takes it only where that type fits the role's.
//!
//! What ptxas 13.5 takes (probed on `mma`'s dense fragments for sm_80,
//! sm_90a and sm_120a and on `mma.sp`'s; `tests/data/operands/matrix/
//! mma_constants.ptx`, `mma_sp_constants.ptx`):
//! integer constants alone (`{0, 0}`, `{-1, -1}`) only for a `.sN`/`.uN`
//! role (the `.s32` accumulator `c`), not for a `.b32` one; `0f`
//! constants alone only for a 32-bit float or untyped role (`.f32`,
//! `.b32`); other floating-point constants (`{1.5, 1.5}`, `0d`) nowhere a
//! 64-bit role is not wanted; nothing for a packed or narrow float type
//! (`.f16x2`, `.tf32`). Vectors mixing constants with registers or with
//! other kinds of constants are judged elsewhere. A role with `consts-on=`
//! takes such a vector only on those targets (`wmma.mma`'s 8-bit `a`/`b`
//! on sm_75 alone, its 4-bit ones from sm_90: ptxas lowers the instruction
//! elsewhere and refuses constants alone; `wmma_constants_*.ptx`).

use super::operand_kinds::{lit, Lit};
use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::isa::vocab::ScalarType;
use crate::isa::{Kinds, RoleSpec};
use crate::source::Span;
use crate::syntax::{Instruction, Operand};

/// Whether a vector of constants of kind `k` alone fits type `ty`.
fn fits(k: Lit, ty: ScalarType) -> bool {
    match k {
        Lit::Int => ty.is_integer(),
        Lit::Single => ty == ScalarType::F32 || ty == ScalarType::B32,
        Lit::Double => false,
        // Judged elsewhere.
        Lit::Bad => true,
    }
}

impl Checker<'_> {
    /// Vector `items` of role `spec` (type `ty`) of `i`: when the role says
    /// `typed-consts` and every element is a constant of one kind that does
    /// not fit the type, report it. Whether the vector passes.
    pub(super) fn typed_constants(
        &mut self,
        i: &Instruction,
        spec: &RoleSpec,
        ty: Option<ScalarType>,
        items: &[Operand],
        span: Span,
    ) -> bool {
        if !spec.kinds.has(Kinds::TYPED_CONSTS) || !spec.dir.reads() {
            return true;
        }
        let Some(ty) = ty else { return true };
        let mut kind: Option<Lit> = None;
        for item in items {
            let Operand::Expr(e) = item else { return true };
            let Some(k) = lit(e) else { return true };
            if kind.is_some_and(|seen| seen != k) {
                return true;
            }
            kind = Some(k);
        }
        let Some(k) = kind else { return true };
        let on_target = spec.takes_consts_on(self.env.sm.map(|s| s.num));
        if fits(k, ty) && on_target {
            return true;
        }
        if !on_target {
            self.emit(
                Diagnostic::error(
                    Code::OperandKind,
                    span,
                    format!(
                        "`{}` cannot take a vector of constants alone as its `{}` on this target",
                        super::inst_name(i),
                        spec.role
                    ),
                )
                .with_note(
                    "ptxas lowers this instruction on some targets, and the lowered code wants a register among the elements",
                ),
            );
            return false;
        }
        let what = match k {
            Lit::Int => "integer",
            Lit::Single => "`0f` (.f32)",
            Lit::Double | Lit::Bad => "double-precision",
        };
        self.emit(
            Diagnostic::error(
                Code::OperandKind,
                span,
                format!(
                    "`{}` cannot take a vector of {what} constants alone as its {ty} `{}`",
                    super::inst_name(i),
                    spec.role
                ),
            )
            .with_note(
                "ptxas types a vector of constants by its elements (integers, `0f` as .f32, other floats as .f64); keep a register among them",
            ),
        );
        false
    }
}
