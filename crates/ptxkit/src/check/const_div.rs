//! Division by zero in constant expressions: ptxas 13.5 refuses a `/` or
//! `%` whose divisor is a constant zero wherever it is written (an
//! instruction operand, an address offset, an initializer), even in the
//! arm of a `?:` that is not taken, as "Constant expression has division by
//! zero".

use crate::diag::{Code, Diagnostic};
use crate::syntax::consteval::division_by_zero;
use crate::syntax::{Expr, Operand};

/// The error for the first division by zero in `e`, if any.
#[inline]
pub(super) fn in_expr(e: &Expr) -> Option<Diagnostic> {
    division_by_zero(e).map(|sp| {
        Diagnostic::error(
            Code::BadNumber,
            sp,
            "the constant expression divides by zero",
        )
        .with_note("ptxas evaluates every `/` and `%` of a constant expression, even in a `?:` arm that is not taken")
    })
}

/// The error for the first division by zero in operand `o`, if any.
#[inline]
pub(super) fn in_operand(o: &Operand) -> Option<Diagnostic> {
    match o {
        Operand::Expr(e) | Operand::Address { addr: e, .. } => in_expr(e),
        Operand::Pair(p) => in_operand(&p.first).or_else(|| in_expr(&p.second)),
        Operand::Tuple { items, .. }
        | Operand::Vector { items, .. }
        | Operand::List { items, .. } => items.iter().find_map(in_operand),
    }
}
