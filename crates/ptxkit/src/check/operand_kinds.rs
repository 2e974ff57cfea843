//! Constants as operands: which kind of value a constant expression has
//! ([`lit`]) and whether that kind can be an operand of a type ([`fits`]),
//! as ptxas 13.5 decides it. The type itself comes from the catalog's
//! operand roles (see `operands`); where ptxas's behaviour was not pinned
//! down (packed and narrow float types) the check says nothing rather than
//! guess.

use crate::isa::vocab::ScalarType;
use crate::syntax::{BinOp, Expr, FloatForm, UnOp};

/// The kind of value a constant operand has, as ptxas types it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lit {
    /// An integer: integer literals, and integer operators and comparisons
    /// over constants.
    Int,
    /// A double: a decimal or `0d` float, negated or combined with `+ - * /`
    /// only with other doubles (a parenthesised `0f` single under an
    /// operator is one too).
    Double,
    /// A bare (or parenthesised) `0f` single.
    Single,
    /// A float where no constant expression may have one: a float mixed
    /// with an integer (in arithmetic or a comparison), a float under `%`,
    /// a bitwise or logical operator, or in a conditional.
    Bad,
}

/// The kind of the constant `e`, or `None` when it is not a constant made
/// of literals (a register, a symbol) or its kind is not known.
pub(crate) fn lit(e: &Expr) -> Option<Lit> {
    Some(match e {
        // `WARP_SZ` is the integer constant 32.
        Expr::Int(_) => Lit::Int,
        Expr::Name(n, _) if n.as_str() == "WARP_SZ" => Lit::Int,
        Expr::Float(f) if f.form == FloatForm::HexSingle => Lit::Single,
        Expr::Float(_) => Lit::Double,
        Expr::Paren(inner, _) => lit(inner)?,
        // A `0f` single under an operator (parenthesised: bare, it is a
        // syntax error) counts as a double: `-(0f3F800000)` and
        // `(0f3F800000)+1.0` are `.f32`, `.f64` and `.b64` operands to
        // ptxas 13.5, not `.b32` ones.
        Expr::Unary { op, expr, .. } => match (op, lit(expr)?) {
            (_, Lit::Int) => Lit::Int,
            (UnOp::Neg | UnOp::Plus, Lit::Double | Lit::Single) => Lit::Double,
            _ => Lit::Bad,
        },
        Expr::Binary(b) => lit_op(b.op, lit(&b.lhs)?, lit(&b.rhs)?),
        Expr::Chain(c) => {
            let mut k = lit(&c.first)?;
            for l in &c.links {
                k = lit_op(l.op, k, lit(&l.rhs)?);
            }
            k
        }
        // Conditionals are integer only ("Integer constant expression
        // expected" for a float in any of the three parts).
        Expr::Cond(c) => match (lit(&c.cond)?, lit(&c.then)?, lit(&c.otherwise)?) {
            (Lit::Int, Lit::Int, Lit::Int) => Lit::Int,
            _ => Lit::Bad,
        },
        Expr::Cast(c) => match lit(&c.expr)? {
            Lit::Int => Lit::Int,
            _ => return None,
        },
        _ => return None,
    })
}

/// The kind of `l op r`.
fn lit_op(op: BinOp, l: Lit, r: Lit) -> Lit {
    let widen = |k: Lit| if k == Lit::Single { Lit::Double } else { k };
    let (l, r) = (widen(l), widen(r));
    let arithmetic = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div);
    let comparison = matches!(
        op,
        BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne
    );
    match (l, r) {
        (Lit::Int, Lit::Int) => Lit::Int,
        (Lit::Double, Lit::Double) if arithmetic => Lit::Double,
        (Lit::Double, Lit::Double) if comparison => Lit::Int,
        // A float under `%`, a bitwise or logical operator, one beside an
        // integer (comparisons included: "Constant expression type
        // mismatch"), or a bad part.
        _ => Lit::Bad,
    }
}

/// Whether a constant of kind `k` can be an operand of type `t`: `Some`
/// where ptxas's answer is known, `None` where it is not checked.
pub(crate) fn fits(k: Lit, t: ScalarType) -> Option<bool> {
    use ScalarType::*;
    let int = matches!(t, U8 | U16 | U32 | U64 | S8 | S16 | S32 | S64);
    let narrow_float = matches!(t, F16 | Bf16);
    if takes_no_constant(t) {
        return Some(false);
    }
    // `.b128` takes only an integer (ptxas 13.5, atom.cas and mov).
    if t == B128 {
        return Some(k == Lit::Int);
    }
    Some(match k {
        Lit::Bad => false,
        Lit::Int => {
            if matches!(t, F16 | Bf16 | F32 | F64) {
                false
            } else if int || matches!(t, B8 | B16 | B32 | B64 | Pred) {
                true
            } else {
                return None;
            }
        }
        Lit::Double | Lit::Single => {
            let size = if k == Lit::Double { B64 } else { B32 };
            if matches!(t, F32 | F64) || t == size {
                true
            } else if int || narrow_float || matches!(t, B8 | B16 | B32 | B64 | Pred) {
                false
            } else {
                return None;
            }
        }
    })
}

/// Whether operands of type `t` take no constant of any kind: the packed
/// pairs of 16-bit integers and of singles (ptxas 13.5 refuses every
/// constant for add/min/max .u16x2/.s16x2, set .u16x2, add/fma .f32x2 and
/// the mixed-precision .f32x2 addend), and the packed bytes (`neg.s8x4`,
/// `set.eq.u8x4`, `add.u8x4`). Packed halves are not among them: mma
/// takes constants in its .f16x2 fragments.
pub(crate) fn takes_no_constant(t: ScalarType) -> bool {
    matches!(
        t,
        ScalarType::U16x2
            | ScalarType::S16x2
            | ScalarType::U8x4
            | ScalarType::S8x4
            | ScalarType::F32x2
    )
}

/// How a kind of constant is named in a diagnostic.
pub(crate) fn describe(k: Lit) -> &'static str {
    match k {
        Lit::Int => "an integer constant",
        Lit::Double => "a double-precision constant",
        Lit::Single => "a single-precision `0f` constant",
        Lit::Bad => "a constant expression that mixes kinds",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(src: &str) -> Option<Lit> {
        let text = format!(
            ".version 8.0\n.target sm_80\n.address_size 64\n.entry k() {{\n.reg .u32 %r;\nmov.u32 %r, {src};\n}}\n"
        );
        let parsed = crate::parse(text.as_bytes());
        let f = parsed.module.functions().next()?;
        let body = f.body.as_ref()?;
        let i = *body.instructions().first()?;
        match i.operands.get(1)? {
            crate::syntax::Operand::Expr(e) => lit(e),
            _ => None,
        }
    }

    #[test]
    fn kinds_of_constants() {
        for (src, want) in [
            ("1", Some(Lit::Int)),
            ("-1", Some(Lit::Int)),
            ("(1+2)*3", Some(Lit::Int)),
            ("1 ? 2 : 3", Some(Lit::Int)),
            ("(.s64) 1", Some(Lit::Int)),
            ("1.0 > 2.0", Some(Lit::Int)),
            ("1.5", Some(Lit::Double)),
            ("-1.5", Some(Lit::Double)),
            ("1.0 * 2.0", Some(Lit::Double)),
            ("0d3FF0000000000000", Some(Lit::Double)),
            ("-0d3FF0000000000000", Some(Lit::Double)),
            ("0f3F800000", Some(Lit::Single)),
            ("(0f3F800000)", Some(Lit::Single)),
            // A bare `0f` under an operator is a syntax error; in
            // parentheses it counts as a double there.
            ("-(0f3F800000)", Some(Lit::Double)),
            ("(0f3F800000)+(0f3F800000)", Some(Lit::Double)),
            ("(0f3F800000)*2", Some(Lit::Bad)),
            ("1.0+1", Some(Lit::Bad)),
            ("2.0 % 1.0", Some(Lit::Bad)),
            ("!1.0", Some(Lit::Bad)),
            ("1.0 && 2", Some(Lit::Bad)),
            ("1 ? 2.0 : 3.0", Some(Lit::Bad)),
            ("1.0 ? 2 : 3", Some(Lit::Bad)),
            ("1.0 > 2", Some(Lit::Bad)),
            ("%r", None),
            ("%r+1", None),
            ("WARP_SZ", Some(Lit::Int)),
            ("WARP_SZ * 2", Some(Lit::Int)),
        ] {
            assert_eq!(kind(src), want, "{src}");
        }
    }

    #[test]
    fn what_fits() {
        use ScalarType::*;
        for (k, t, want) in [
            (Lit::Int, U32, Some(true)),
            (Lit::Int, Pred, Some(true)),
            (Lit::Int, B16, Some(true)),
            (Lit::Int, F32, Some(false)),
            (Lit::Int, F64, Some(false)),
            (Lit::Int, F16, Some(false)),
            (Lit::Double, F32, Some(true)),
            (Lit::Double, B64, Some(true)),
            (Lit::Double, B32, Some(false)),
            (Lit::Double, U64, Some(false)),
            (Lit::Double, Pred, Some(false)),
            (Lit::Single, F64, Some(true)),
            (Lit::Single, B32, Some(true)),
            (Lit::Single, B64, Some(false)),
            (Lit::Single, S32, Some(false)),
            (Lit::Bad, F64, Some(false)),
            (Lit::Int, F16x2, None),
            (Lit::Double, F32x2, Some(false)),
            (Lit::Int, F32x2, Some(false)),
            (Lit::Int, U16x2, Some(false)),
            (Lit::Single, S16x2, Some(false)),
            (Lit::Int, B128, Some(true)),
            (Lit::Double, B128, Some(false)),
        ] {
            assert_eq!(fits(k, t), want, "{k:?} as {t}");
        }
    }
}
