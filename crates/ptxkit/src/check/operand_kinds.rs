//! What type each operand of an instruction takes, and whether an immediate
//! (a literal or a constant expression) can stand for it.
//!
//! ptxas types every operand from the instruction's type modifiers: the
//! plain ones all take the one type, `setp` writes predicates, `selp`
//! selects on one, `cvt` reads its source type and writes its destination
//! type, and so on ([`Typing`]). A register must then be of a compatible
//! type (see `symbols::compatible`), and an immediate of a fitting kind
//! ([`fits`]). The rules here were worked out against ptxas 13.5 one
//! instruction at a time; where its behaviour was not pinned down (packed
//! and narrow float types, vectors of `.b` immediates) the check says
//! nothing rather than guess.

use smallvec::SmallVec;

use crate::isa::vocab::ScalarType;
use crate::syntax::{BinOp, Expr, FloatForm, Instruction, UnOp};

/// How the operands of an opcode take their types.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Typing {
    /// Not checked.
    #[default]
    None,
    /// Every operand takes the instruction's one type (plain arithmetic,
    /// logic, `brev`, `prmt`).
    Uniform,
    /// `mov`: as [`Typing::Uniform`], and the source may be a special
    /// register when the type is an integer one, or a variable (its
    /// address) when it is not a float.
    Move,
    /// `setp`: predicate destination(s), two sources of the type, then an
    /// optional predicate.
    Setp,
    /// `selp`: three operands of the type, then a predicate.
    Selp,
    /// `set`: a destination of the first type, two sources of the second,
    /// then an optional predicate.
    Set,
    /// `shl`, `shr`: two operands of the type, then a `.u32` amount.
    Shift,
    /// `ld`, `ldu`: a destination of the type (its register may be wider),
    /// then the address.
    Load,
    /// `st`: the address, then a value of the type (its register may be
    /// wider).
    Store,
    /// `atom`: a destination, the address, then values of the type.
    Atom,
    /// `red`: the address, then a value of the type.
    Red,
    /// `cvt` with two operands: a destination of the first type and a
    /// source of the second (registers may be wider).
    Cvt,
    /// `cvta`: a destination and a source of the size type; the source may
    /// be a variable (its address).
    Cvta,
    /// `shfl`: every operand of the type (`.b32`), the destination's
    /// optional `|p` a predicate.
    Shfl,
    /// `bfe`: a destination and a source of the type, then a `.u32`
    /// position and length.
    Extract,
    /// `bfi`: a destination and two sources of the type, then a `.u32`
    /// position and length.
    Insert,
    /// `popc`, `clz`, `bfind`: a `.u32` result of a source of the type.
    Count,
}

impl Typing {
    /// The typing of the opcode named `op`.
    pub(crate) fn of(op: &str) -> Typing {
        match op {
            "setp" => Typing::Setp,
            "selp" => Typing::Selp,
            "set" => Typing::Set,
            "shl" | "shr" => Typing::Shift,
            "ld" | "ldu" => Typing::Load,
            "st" => Typing::Store,
            "atom" => Typing::Atom,
            "red" => Typing::Red,
            "cvt" => Typing::Cvt,
            "mov" => Typing::Move,
            "cvta" => Typing::Cvta,
            "shfl" => Typing::Shfl,
            "bfe" => Typing::Extract,
            "bfi" => Typing::Insert,
            "popc" | "clz" | "bfind" => Typing::Count,
            "brev" | "prmt" => Typing::Uniform,
            _ if super::plain_arithmetic(op) => Typing::Uniform,
            _ => Typing::None,
        }
    }
}

/// What one operand position takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    /// A value of this type.
    Ty(ScalarType),
    /// Whatever the position is (an address), or nothing known.
    Any,
}

/// The types an instruction's operands take, by position.
pub(crate) struct Wants {
    pub each: SmallVec<[Want; 6]>,
    /// What the value operands may be besides a register of a compatible
    /// type or a fitting constant.
    pub take: Take,
    /// Each element of a vector operand takes the type (`ld`, `st`); for
    /// other instructions a vector is a packing (`mov.b32 {%h1, %h2}`).
    pub elements: bool,
}

/// What a value operand may be beyond the plain case.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Take {
    /// A register wider than the type (`ld`, `st` and `cvt`; not `atom`).
    pub wider: bool,
    /// A variable, standing for its address: `cvta`, and `mov` into a
    /// type that is not a float.
    pub addresses: bool,
    /// A special register (`%tid.x`): `mov` into an integer type, `cvt`
    /// between integer types. Special registers hold integers.
    pub specials: bool,
}

/// Whether `m` is a vector modifier (`.v2`, `.v4`, `.v8`).
fn is_vector_mod(m: &str) -> bool {
    matches!(m, ".v2" | ".v4" | ".v8")
}

/// The operand types of `i` under `typing`, or `None` when they are not
/// checked (`.wide` products, vector forms other than loads and stores,
/// an unexpected number of type modifiers).
pub(crate) fn wants(i: &Instruction, typing: Typing) -> Option<Wants> {
    let wide_mod = super::opclass::wide();
    let wide = i.mods.iter().any(|m| Some(m.id) == wide_mod);
    if typing == Typing::None || (wide && typing != Typing::Uniform) {
        return None;
    }
    let vector = i.mods.iter().any(|m| is_vector_mod(m.as_str()));
    if vector && !matches!(typing, Typing::Load | Typing::Store) {
        return None;
    }
    let cat = crate::isa::catalog();
    let mut types: SmallVec<[ScalarType; 2]> = SmallVec::new();
    for m in i.mods.iter().filter(|m| cat.is_type(m.id)) {
        types.push(ScalarType::from_spelling(m.as_str())?);
    }
    let n = i.operands.len();
    let pred = Want::Ty(ScalarType::Pred);
    let u32 = Want::Ty(ScalarType::U32);
    let (each, wider): (SmallVec<[Want; 6]>, bool) = match (typing, types.as_slice()) {
        // `mul.wide`, `mad.wide`: d (and mad's c) twice as wide as a and b.
        (Typing::Uniform, [t]) if wide => {
            let w = Want::Ty(twice(*t)?);
            (
                [w, Want::Ty(*t), Want::Ty(*t), w]
                    .into_iter()
                    .take(n)
                    .collect(),
                false,
            )
        }
        (Typing::Uniform | Typing::Move | Typing::Shfl, [t]) => {
            ((0..n).map(|_| Want::Ty(*t)).collect(), false)
        }
        (Typing::Extract, [t]) => (
            [Want::Ty(*t), Want::Ty(*t), u32, u32]
                .into_iter()
                .take(n)
                .collect(),
            false,
        ),
        (Typing::Insert, [t]) => (
            [Want::Ty(*t), Want::Ty(*t), Want::Ty(*t), u32, u32]
                .into_iter()
                .take(n)
                .collect(),
            false,
        ),
        (Typing::Count, [t]) => ([u32, Want::Ty(*t)].into_iter().take(n).collect(), false),
        (Typing::Setp, [t]) => (
            [pred, Want::Ty(*t), Want::Ty(*t), pred]
                .into_iter()
                .take(n)
                .collect(),
            false,
        ),
        (Typing::Selp, [t]) => (
            [Want::Ty(*t), Want::Ty(*t), Want::Ty(*t), pred]
                .into_iter()
                .take(n)
                .collect(),
            false,
        ),
        (Typing::Set, [d, s]) => (
            [Want::Ty(*d), Want::Ty(*s), Want::Ty(*s), pred]
                .into_iter()
                .take(n)
                .collect(),
            false,
        ),
        (Typing::Shift, [t]) => (
            [Want::Ty(*t), Want::Ty(*t), Want::Ty(ScalarType::U32)]
                .into_iter()
                .take(n)
                .collect(),
            false,
        ),
        (Typing::Load, [t]) => (
            [Want::Ty(*t), Want::Any].into_iter().take(n).collect(),
            true,
        ),
        (Typing::Store, [t]) => (
            [Want::Any, Want::Ty(*t)].into_iter().take(n).collect(),
            true,
        ),
        (Typing::Atom, [t]) => (
            (0..n)
                .map(|k| if k == 1 { Want::Any } else { Want::Ty(*t) })
                .collect(),
            false,
        ),
        (Typing::Red, [t]) => (
            (0..n)
                .map(|k| if k == 0 { Want::Any } else { Want::Ty(*t) })
                .collect(),
            false,
        ),
        (Typing::Cvta, [t]) => (
            [Want::Ty(*t), Want::Ty(*t)].into_iter().take(n).collect(),
            false,
        ),
        (Typing::Cvt, [d, a]) if n == 2 => {
            ([Want::Ty(*d), Want::Ty(*a)].into_iter().collect(), true)
        }
        _ => return None,
    };
    let no_float = types.iter().all(|t| !t.is_float());
    let integers = no_float && !types.contains(&ScalarType::Pred);
    Some(Wants {
        each,
        take: Take {
            wider,
            addresses: typing == Typing::Cvta || (typing == Typing::Move && no_float),
            specials: matches!(typing, Typing::Move | Typing::Cvt) && integers,
        },
        elements: matches!(typing, Typing::Load | Typing::Store),
    })
}

/// The integer type twice as wide as `t` (the result of `mul.wide`).
fn twice(t: ScalarType) -> Option<ScalarType> {
    use ScalarType::*;
    Some(match t {
        U16 => U32,
        U32 => U64,
        S16 => S32,
        S32 => S64,
        _ => return None,
    })
}

/// The kind of value a constant operand has, as ptxas types it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lit {
    /// An integer: integer literals, and integer operators and comparisons
    /// over constants.
    Int,
    /// A double: a decimal or `0d` float, negated or combined with `+ - * /`
    /// only with other doubles.
    Double,
    /// A bare (or parenthesised) `0f` single.
    Single,
    /// A float where no constant expression may have one: a `0f` literal
    /// under an operator, a float mixed with an integer in arithmetic, a
    /// float under `%`, a bitwise or logical operator, or in a conditional.
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
        Expr::Unary { op, expr, .. } => match (op, lit(expr)?) {
            (_, Lit::Int) => Lit::Int,
            (UnOp::Neg | UnOp::Plus, Lit::Double) => Lit::Double,
            _ => Lit::Bad,
        },
        Expr::Binary(b) => {
            let (l, r) = (lit(&b.lhs)?, lit(&b.rhs)?);
            if [l, r].iter().any(|k| matches!(k, Lit::Bad | Lit::Single)) {
                return Some(Lit::Bad);
            }
            match (b.op, l == r, l) {
                (_, true, Lit::Int) => Lit::Int,
                (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, true, _) => Lit::Double,
                (
                    BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne,
                    true,
                    _,
                ) => Lit::Int,
                // Comparing an integer with a float: not pinned down.
                (
                    BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne,
                    false,
                    _,
                ) => return None,
                _ => Lit::Bad,
            }
        }
        Expr::Cond(c) => match (lit(&c.cond)?, lit(&c.then)?, lit(&c.otherwise)?) {
            (Lit::Int, Lit::Int, Lit::Int) => Lit::Int,
            (_, a, b) if a != Lit::Int || b != Lit::Int => Lit::Bad,
            _ => return None,
        },
        Expr::Cast(c) => match lit(&c.expr)? {
            Lit::Int => Lit::Int,
            _ => return None,
        },
        _ => return None,
    })
}

/// Whether a constant of kind `k` can be an operand of type `t`: `Some`
/// where ptxas's answer is known, `None` where it is not checked.
pub(crate) fn fits(k: Lit, t: ScalarType) -> Option<bool> {
    use ScalarType::*;
    let int = matches!(t, U8 | U16 | U32 | U64 | S8 | S16 | S32 | S64);
    let narrow_float = matches!(t, F16 | Bf16);
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
            ("-0f3F800000", Some(Lit::Bad)),
            ("0f3F800000+0f3F800000", Some(Lit::Bad)),
            ("1.0+1", Some(Lit::Bad)),
            ("2.0 % 1.0", Some(Lit::Bad)),
            ("!1.0", Some(Lit::Bad)),
            ("1.0 && 2", Some(Lit::Bad)),
            ("1 ? 2.0 : 3.0", Some(Lit::Bad)),
            ("1.0 > 2", None),
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
            (Lit::Double, F32x2, None),
        ] {
            assert_eq!(fits(k, t), want, "{k:?} as {t}");
        }
    }
}
