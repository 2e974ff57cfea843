//! Operands ptxas matches exactly (`exact` in the catalog,
//! [`Kinds::EXACT`]): the table-driven matrix instructions (`wgmma`,
//! `tcgen05`) take none of the leniencies ptxas shows elsewhere.

use super::inst_ctx::Names;
use super::symbols::compatible;
use crate::diag::{Code, Diagnostic};
use crate::isa::vocab::ScalarType;
use crate::isa::{Kinds, RoleSpec};
use crate::source::Span;
use crate::syntax::{Expr, Instruction, Operand};

/// Whether role `spec` is matched exactly.
#[inline]
pub(super) fn exact(spec: &RoleSpec) -> bool {
    spec.kinds.has(Kinds::EXACT)
}

/// Whether a register of type `reg` fits type `ty` of role `spec`: as
/// [`compatible`], but for an exact role an `.f16x2` register is not 32
/// bits of a `.uN`/`.sN` integer, and a typed address of a `.bN` type takes only a
/// `.bN` register (ptxas 13.5: `idesc` as `%hh1` and `tcgen05.mma [%u1]`
/// are refused).
pub(super) fn fits(spec: &RoleSpec, ty: ScalarType, reg: ScalarType) -> bool {
    if !compatible(ty, reg, spec.wider) {
        return false;
    }
    // `wider=N`: no register wider than N bits (the tensor copies' 8- or
    // 16-bit sizes).
    if spec.wider_max > 0 && reg.bits() > u32::from(spec.wider_max) {
        return false;
    }
    if !exact(spec) {
        return true;
    }
    // A typed address of a `.bN` type takes only a `.bN` register
    // (`tcgen05.mma [%u1]` is refused); a value of one takes any register
    // of its size (`mma`'s block-scale byte ids: `.b16`, `.u16`, `.f16`).
    if ty.is_untyped() && spec.kinds.has(Kinds::ADDR) {
        return reg.is_untyped();
    }
    // A packed register is not a `.uN`/`.sN` integer (a `.bN` type keeps
    // taking one: `wgmma`'s integer `a`).
    !(reg.is_packed() && ty.is_integer())
}

impl super::Checker<'_> {
    /// The register elements of vector `items` of an exact or
    /// `typed-vector` role of type `ty`: ptxas infers the vector's type
    /// from its typed (not `.bN`) registers, which must agree when one is
    /// a float ("Vector with elements of different types": `{%f1, %s2}`,
    /// `{%f1, %hh2}`, `{%sd1, %fd2}`); a vector whose elements are all
    /// registers of one type must fit the role's type: that type, another
    /// integer one for an integer type, any for a `.bN` type
    /// (`{%s1, %s2, %s3, %s4}` as `.f32` and `{%f1, %f2}` as `.s32` are
    /// refused; `{%s1, %r2, …}` and `{%u1, %s2, …}` pass). For a
    /// `typed-vector` role, constants are typed as well (an integer, a
    /// float) unless a `.bN` register is among the elements: `{0, %f2}`,
    /// `{1.5, %u2}` and `{0, 1.5}` mix types, `{0, %r2, %f3}` does not.
    /// `ty` is `None` for a spelled-out vector of several roles. Whether
    /// the vector passes.
    pub(super) fn exact_vector(
        &mut self,
        i: &Instruction,
        spec: &RoleSpec,
        ty: Option<ScalarType>,
        items: &[Operand],
        span: Span,
        nm: Names<'_>,
    ) -> bool {
        let Names { w, ms } = nm;
        let mut float: Option<ScalarType> = None;
        let mut mixed = false;
        let mut integer: Option<ScalarType> = None;
        // Every element a register of this one typed type.
        let mut one: Option<ScalarType> = None;
        let mut uniform = !items.is_empty();
        // The first typed register element not of the role's type: where
        // a mixed vector is reported (inline asm maps it to its operand).
        let mut odd: Option<Span> = None;
        // `typed-vector`: constants are typed too (an integer or a float),
        // unless a `.bN` register leaves the vector untyped.
        let typed = spec.kinds.has(Kinds::TYPED_VECTOR);
        let (mut int_const, mut float_const, mut bits) = (false, false, false);
        for item in items {
            if let Operand::Expr(e) = item {
                match super::operand_kinds::lit(e) {
                    Some(super::operand_kinds::Lit::Int) => int_const = true,
                    Some(_) => float_const = true,
                    None => {}
                }
            }
            let reg = match item {
                Operand::Expr(e @ Expr::Name(_, sp)) => {
                    super::operands::reg_type(e, w, ms).map(|r| (r, *sp))
                }
                _ => None,
            };
            bits |= reg.is_some_and(|(r, _)| r.is_untyped());
            let Some((r, sp)) = reg.filter(|(r, _)| !r.is_untyped() && *r != ScalarType::Pred)
            else {
                uniform = false;
                continue;
            };
            if odd.is_none() && ty.is_some_and(|t| t != r) {
                odd = Some(sp);
            }
            uniform &= one.is_none_or(|t| t == r);
            one = Some(r);
            if r.is_float() {
                mixed |= float.is_some_and(|f| f != r);
                float = Some(r);
            } else {
                integer = Some(r);
            }
        }
        let unfit = match (uniform, ty, one) {
            (true, Some(t), Some(r)) => {
                !(t.is_untyped() || t == r || (t.is_integer() && r.is_integer()))
            }
            // Constants of one kind alone, in a `typed-vector` role:
            // integers are no float fragment, floats no integer one
            // (`{0, 0, 0, 0}` as an FP8 `mma`'s `.f32` `c`).
            (_, Some(t), None) if typed && !bits && integer.is_none() && float.is_none() => {
                (int_const && !float_const && !t.is_untyped() && !t.is_integer())
                    || (float_const && !int_const && t.is_integer())
            }
            _ => false,
        };
        // A constant beside registers (or other constants) of the other
        // kind: `{0, %f2, %f3, %f4}`, `{1.5, %u2}`, `{0, 1.5}` (ptxas 13.5;
        // `{0, %r2, %f3, %r4}` passes).
        let consts_mixed = typed
            && !bits
            && ((int_const && (float.is_some() || float_const))
                || (float_const && integer.is_some()));
        let (what, at) = if mixed || (float.is_some() && integer.is_some()) {
            ("its registers' types differ", odd.unwrap_or(span))
        } else if consts_mixed {
            ("its elements mix integers and floats", span)
        } else if !unfit {
            return true;
        } else if one.is_some_and(ScalarType::is_integer) {
            ("its elements are integer registers", span)
        } else if one.is_some() {
            ("its elements are registers of another type", span)
        } else if int_const {
            ("its elements are integer constants", span)
        } else {
            ("its elements are float constants", span)
        };
        let t = ty.map_or(String::new(), |t| format!(" {t}"));
        self.emit(
            Diagnostic::error(
                Code::OperandType,
                at,
                format!(
                    "`{}` cannot take this vector as `{}`: {what}",
                    super::inst_name(i),
                    spec.role
                ),
            )
            .with_note(format!(
                "the elements of this{t} vector are registers of one type (or `.b` registers and constants)"
            )),
        );
        false
    }
}
