//! Evaluation of integer constant expressions (spec 4.5.4), for array sizes
//! and initializers. Symbols are not constants: they evaluate to `None`
//! (but `WARP_SZ`, which is 32).

use crate::source::Span;
use crate::syntax::{BinOp, BinaryExpr, Expr, UnOp};

/// The value of `WARP_SZ`, a constant wherever an integer is (ptxas 13.5:
/// `[%rd1+WARP_SZ]`, `a[WARP_SZ]`, `g+WARP_SZ`).
const WARP_SIZE: i64 = 32;

/// Evaluate `e` as a 64-bit integer constant expression, with wrapping
/// arithmetic. `None` when it names a symbol, has a floating-point value,
/// or divides by zero; floats compared give an integer (`1.0 < 2.0` is 1,
/// as ptxas 13.5 takes it in an address).
pub fn eval_int(e: &Expr) -> Option<i64> {
    match eval_depth(e, 0) {
        Some(v) => Some(v),
        None => match scan(e, 0, &mut None)? {
            Value::Int(v) => Some(v),
            Value::Float(_) => None,
        },
    }
}

fn eval_depth(e: &Expr, depth: u32) -> Option<i64> {
    if depth > crate::MAX_DEPTH {
        return None;
    }
    let d = depth.saturating_add(1);
    Some(match e {
        Expr::Int(l) => l.value as i64,
        Expr::Name(n, _) if n.is_warp_size() => WARP_SIZE,
        Expr::Paren(inner, _) => eval_depth(inner, d)?,
        Expr::Cast(c) => eval_depth(&c.expr, d)?,
        Expr::Unary { op, expr, .. } => {
            let v = eval_depth(expr, d)?;
            match op {
                UnOp::Neg => v.wrapping_neg(),
                UnOp::Plus => v,
                UnOp::Not => i64::from(v == 0),
                UnOp::BitNot => !v,
            }
        }
        Expr::Binary(bin) => {
            let BinaryExpr { op, lhs, rhs, .. } = &**bin;
            let a = eval_depth(lhs, d)?;
            let b = eval_depth(rhs, d)?;
            apply(*op, a, b)?
        }
        Expr::Chain(c) => {
            let mut v = eval_depth(&c.first, d)?;
            for l in &c.links {
                v = apply(l.op, v, eval_depth(&l.rhs, d)?)?;
            }
            v
        }
        Expr::Cond(c) => {
            if eval_depth(&c.cond, d)? != 0 {
                eval_depth(&c.then, d)?
            } else {
                eval_depth(&c.otherwise, d)?
            }
        }
        Expr::Name(..)
        | Expr::Float(_)
        | Expr::Generic(..)
        | Expr::Mask(_)
        | Expr::Field(_)
        | Expr::Index { .. } => return None,
    })
}

/// The first `/` or `%` of `e` whose right operand is a constant zero (its
/// divisor's span), anywhere in the expression: ptxas 13.5 rejects such an
/// expression ("Constant expression has division by zero") in
/// initializers and operands alike, even in the arm of a `?:` not taken and
/// after a `0 &&`. One walk over the tree (bounded in depth by the parser's
/// limit), each node evaluated once.
#[inline]
pub fn division_by_zero(e: &Expr) -> Option<Span> {
    let leaf = |e: &Expr| matches!(e, Expr::Int(_) | Expr::Float(_) | Expr::Name(..));
    match e {
        // The usual operands: nothing to divide.
        Expr::Int(_) | Expr::Float(_) | Expr::Name(..) => None,
        // An address `[%rd1+4]`, a negative number `-1`: one operator,
        // not a division, between leaves.
        Expr::Binary(b)
            if !matches!(b.op, BinOp::Div | BinOp::Rem) && leaf(&b.lhs) && leaf(&b.rhs) =>
        {
            None
        }
        Expr::Unary { expr, .. } if leaf(expr) => None,
        _ => {
            let mut found = None;
            scan(e, 0, &mut found);
            found
        }
    }
}

/// `a op rhs` for [`scan`]: `rhs` scanned, a division by a constant zero
/// noted in `found`.
fn combine(
    op: BinOp,
    a: Option<Value>,
    rhs: &Expr,
    d: u32,
    found: &mut Option<Span>,
) -> Option<Value> {
    let b = scan(rhs, d, found);
    let zero = match b {
        Some(Value::Int(v)) => v == 0,
        Some(Value::Float(v)) => v == 0.0,
        None => false,
    };
    if matches!(op, BinOp::Div | BinOp::Rem) && zero && found.is_none() {
        *found = Some(rhs.span());
    }
    match (a?, b?) {
        (Value::Int(a), Value::Int(b)) => apply(op, a, b).map(Value::Int),
        (Value::Float(a), Value::Float(b)) => match op {
            BinOp::Lt => Some(Value::Int(i64::from(a < b))),
            BinOp::Gt => Some(Value::Int(i64::from(a > b))),
            BinOp::Le => Some(Value::Int(i64::from(a <= b))),
            BinOp::Ge => Some(Value::Int(i64::from(a >= b))),
            BinOp::Eq => Some(Value::Int(i64::from(a == b))),
            BinOp::Ne => Some(Value::Int(i64::from(a != b))),
            _ => apply_float(op, a, b).map(Value::Float),
        },
        _ => None,
    }
}

/// A constant's value while [`scan`] folds: ptxas folds floating-point
/// expressions too (`1.0/(1.0-1.0)` is a division by zero for it).
#[derive(Clone, Copy)]
enum Value {
    Int(i64),
    Float(f64),
}

/// [`eval_depth`] over the whole tree, never stopping early, folding
/// floating-point operations too: the value of `e` when it is a constant,
/// the first division by zero noted in `found`.
fn scan(e: &Expr, depth: u32, found: &mut Option<Span>) -> Option<Value> {
    if depth > crate::MAX_DEPTH {
        return None;
    }
    let d = depth.saturating_add(1);
    match e {
        Expr::Int(l) => Some(Value::Int(l.value as i64)),
        Expr::Name(n, _) if n.is_warp_size() => Some(Value::Int(WARP_SIZE)),
        Expr::Float(f) => Some(Value::Float(f.value())),
        Expr::Paren(inner, _) => scan(inner, d, found),
        Expr::Generic(inner, _) => {
            scan(inner, d, found);
            None
        }
        Expr::Cast(c) => match scan(&c.expr, d, found)? {
            Value::Int(v) => Some(Value::Int(v)),
            Value::Float(_) => None,
        },
        Expr::Mask(m) => {
            scan(&m.expr, d, found);
            None
        }
        Expr::Field(x) => {
            scan(&x.base, d, found);
            None
        }
        Expr::Index { base, index, .. } => {
            scan(base, d, found);
            scan(index, d, found);
            None
        }
        Expr::Unary { op, expr, .. } => match (scan(expr, d, found)?, op) {
            (Value::Int(v), UnOp::Neg) => Some(Value::Int(v.wrapping_neg())),
            (Value::Int(v), UnOp::Plus) => Some(Value::Int(v)),
            (Value::Int(v), UnOp::Not) => Some(Value::Int(i64::from(v == 0))),
            (Value::Int(v), UnOp::BitNot) => Some(Value::Int(!v)),
            (Value::Float(v), UnOp::Neg) => Some(Value::Float(-v)),
            (Value::Float(v), UnOp::Plus) => Some(Value::Float(v)),
            (Value::Float(_), UnOp::Not | UnOp::BitNot) => None,
        },
        Expr::Binary(bin) => {
            let BinaryExpr { op, lhs, rhs, .. } = &**bin;
            let a = scan(lhs, d, found);
            combine(*op, a, rhs, d, found)
        }
        Expr::Chain(c) => {
            let mut v = scan(&c.first, d, found);
            for l in &c.links {
                v = combine(l.op, v, &l.rhs, d, found);
            }
            v
        }
        Expr::Cond(c) => {
            let cond = scan(&c.cond, d, found);
            let then = scan(&c.then, d, found);
            let otherwise = scan(&c.otherwise, d, found);
            match cond? {
                Value::Int(0) => otherwise,
                Value::Int(_) => then,
                Value::Float(_) => None,
            }
        }
        Expr::Name(..) => None,
    }
}

/// `a op b` for the arithmetic operators on floating-point values (the
/// others give no float, and are not folded).
fn apply_float(op: BinOp, a: f64, b: f64) -> Option<f64> {
    match op {
        BinOp::Mul => Some(a * b),
        BinOp::Div if b != 0.0 => Some(a / b),
        BinOp::Add => Some(a + b),
        BinOp::Sub => Some(a - b),
        _ => None,
    }
}

/// `a op b` with wrapping arithmetic; `None` for a division by zero.
fn apply(op: BinOp, a: i64, b: i64) -> Option<i64> {
    Some(match op {
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div => a.checked_div(b)?,
        BinOp::Rem => a.checked_rem(b)?,
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Shl => a.wrapping_shl(b as u32),
        BinOp::Shr => a.wrapping_shr(b as u32),
        BinOp::Lt => i64::from(a < b),
        BinOp::Gt => i64::from(a > b),
        BinOp::Le => i64::from(a <= b),
        BinOp::Ge => i64::from(a >= b),
        BinOp::Eq => i64::from(a == b),
        BinOp::Ne => i64::from(a != b),
        BinOp::BitAnd => a & b,
        BinOp::BitXor => a ^ b,
        BinOp::BitOr => a | b,
        BinOp::And => i64::from(a != 0 && b != 0),
        BinOp::Or => i64::from(a != 0 || b != 0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The initializer expression of `.global .u64 g = {src};`.
    fn expr(src: &str) -> Expr {
        let text =
            format!(".version 8.0\n.target sm_90\n.address_size 64\n.global .u64 g = {src};\n");
        let parsed = crate::parse(text.as_bytes());
        let Some(crate::syntax::Item::Var(v)) = parsed.module.items.last().cloned() else {
            panic!("no variable: {src}")
        };
        match v.decls.first().and_then(|d| d.init.clone()) {
            Some(crate::syntax::Initializer::Expr(e)) => e,
            _ => panic!("no initializer: {src}"),
        }
    }

    #[test]
    fn divisions_by_zero_as_ptxas_finds_them() {
        // Each rejected by ptxas 13.5: "Constant expression has division by zero".
        for src in [
            "5/0",
            "5%(1-1)",
            "1 ? 4 : 4/(2-2)",
            "0 && 1/0",
            "5/(0 ? 1 : 0)",
            "1/(0U)",
            "1/((.s64)0)",
            "1.0/(1.0-1.0)",
            "0.0/-0.0",
            "1.0/(1e-200*1e-200)",
        ] {
            assert!(division_by_zero(&expr(src)).is_some(), "{src}");
        }
        // Accepted by ptxas 13.5.
        for src in [
            "5/1",
            "5%-1",
            "0x8000000000000000/-1",
            "1.0/1e-300",
            "1.0/(1e200*1e200-1e200*1e200)",
            "0 ? 1/1 : 5 % 3",
        ] {
            assert_eq!(division_by_zero(&expr(src)), None, "{src}");
        }
    }
}
