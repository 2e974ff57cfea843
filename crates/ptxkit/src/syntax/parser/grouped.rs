//! The items of grouped operands, brace vectors (`{%r1, %r2}`) and
//! bracketed tuples (`[tex, sampler, {x, y}]`, `[surf, {x}]`,
//! `[tmap, {c0, c1}]`): ptxas's grammar there is narrower than for a whole
//! operand (probed with ptxas 13.5 on `mov`, `st`, `tex`, `tex.grad`,
//! `suld` and `cp.reduce.async.bulk.tensor`; every refusal below is a
//! fatal "Parsing error").

use crate::source::Span;
use crate::syntax::{Expr, Operand};

/// Whether the vector element `el` is one ptxas's grammar refuses: an
/// element is a name alone (`_` too), a special register with its
/// component (`%tid.x`) or a constant expression (`1+2`, `-1`); not a name
/// plus a constant (`%r1+1`, `buf+8`), `-%r1`, `~%r1`, an array element
/// (`arr[1]`), a vector or a bracketed operand.
///
/// An element that [`super::expr`]'s general rule for values already
/// reports (`%r1-4`, `4+buf`) is not refused again, so that one mistake
/// gives one error.
pub(super) fn bad_vector_element(el: &Operand) -> Option<Span> {
    let ok = match el {
        Operand::Expr(Expr::Name(..)) => true,
        Operand::Expr(Expr::Field(f)) => matches!(f.base, Expr::Name(..)),
        Operand::Expr(Expr::Index { .. }) => false,
        Operand::Expr(e) => {
            let mut named = false;
            e.for_each_name(&mut |_, _| named = true);
            !named || super::expr::named_value_refused(e)
        }
        _ => false,
    };
    (!ok).then(|| el.span())
}

/// Why a vector element was refused.
pub(super) const VECTOR_ELEMENT: &str = "an element of a brace vector is a name, `%tid.x` or a constant (`{%r1, 2}`), not a name plus a constant, `-%r1`, an array element or another vector";

/// The first top-level item of `items` (a tuple's, at least two) that
/// ptxas's grammar refuses, with why: the first item is a name alone (not
/// `%rd1+8`, `buf+8`, a constant, `_`, an array element or a vector); a
/// later one a name alone (not `_`, `%tid.x`, a constant or `%r1+1`) or a
/// brace vector (whose elements [`bad_vector_element`] judges when it is
/// parsed). Items the general rule for values already reports are passed
/// over.
pub(super) fn bad_tuple_item(items: &[Operand]) -> Option<(Span, &'static str)> {
    for (k, item) in items.iter().enumerate() {
        let ok = match item {
            Operand::Expr(e @ Expr::Name(..)) => !e.is_sink(),
            Operand::Vector { .. } => k > 0,
            Operand::Expr(e) => super::expr::named_value_refused(e),
            _ => false,
        };
        if !ok {
            return Some((item.span(), if k == 0 { FIRST } else { LATER }));
        }
    }
    None
}

/// Why the first item of a tuple was refused.
const FIRST: &str = "the first item of a bracketed tuple is a name alone (`[%rd1, {%r1}]`, `[tex0, {%f1}]`), not an expression, a constant or `_`";
/// Why a later scalar item of a tuple was refused.
const LATER: &str = "an item of a bracketed tuple is a name alone or a brace vector (`[%rd1, %rd2, {%f1, %f2}]`), not an expression, a constant, `_` or `%tid.x`";
