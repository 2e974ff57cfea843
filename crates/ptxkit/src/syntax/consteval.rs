//! Evaluation of integer constant expressions (spec 4.5.4), for array sizes
//! and initializers. Symbols are not constants: they evaluate to `None`.

use crate::syntax::{BinOp, BinaryExpr, Expr, UnOp};

/// Evaluate `e` as a 64-bit integer constant expression, with wrapping
/// arithmetic. `None` when it names a symbol, uses floats, or divides by zero.
pub fn eval_int(e: &Expr) -> Option<i64> {
    eval_depth(e, 0)
}

fn eval_depth(e: &Expr, depth: u32) -> Option<i64> {
    if depth > crate::MAX_DEPTH {
        return None;
    }
    let d = depth.saturating_add(1);
    Some(match e {
        Expr::Int(l) => l.value as i64,
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
            match op {
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
            }
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
