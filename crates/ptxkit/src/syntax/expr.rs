//! Expressions and literals: instruction operands and initializer values
//! (spec 4.5 and 6).

use serde::Serialize;

use super::Name;
use crate::source::Span;

/// How an integer literal was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Radix {
    /// `42`
    Dec,
    /// `0x2A`
    Hex,
    /// `052`
    Oct,
    /// `0b101010`
    Bin,
}

/// An integer literal, decoded exactly, with how it was written.
/// (Serialised by `crate::json`: a document leaves out the defaults.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntLit {
    /// The value. Literals are 64-bit; larger ones are diagnosed.
    pub value: u64,
    /// The notation.
    pub radix: Radix,
    /// Whether written with the `U` suffix.
    pub unsigned: bool,
    /// Where.
    pub span: Span,
}

/// How a floating-point literal was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum FloatForm {
    /// Decimal (`1.5`, `1e-3`, `.5`): the value is an `f64`.
    Decimal,
    /// `0f` + 8 hex digits: exact single-precision bits.
    HexSingle,
    /// `0d` + 16 hex digits: exact double-precision bits.
    HexDouble,
}

/// A floating-point literal, decoded exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct FloatLit {
    /// The bits: `f64` bits for decimal and `0d`, `f32` bits (zero-extended)
    /// for `0f`.
    pub bits: u64,
    /// The notation.
    pub form: FloatForm,
    /// Where.
    pub span: Span,
}

impl FloatLit {
    /// The value as an `f64`.
    pub fn value(&self) -> f64 {
        match self.form {
            FloatForm::HexSingle => f64::from(f32::from_bits(self.bits as u32)),
            _ => f64::from_bits(self.bits),
        }
    }
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum UnOp {
    /// `-`
    Neg,
    /// `+`
    Plus,
    /// `!`
    Not,
    /// `~`
    BitNot,
}

/// A binary operator, C precedence (spec 4.5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[allow(missing_docs)]
pub enum BinOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
}

impl BinOp {
    /// Binding power: higher binds tighter.
    pub fn precedence(self) -> u8 {
        use BinOp::*;
        match self {
            Mul | Div | Rem => 10,
            Add | Sub => 9,
            Shl | Shr => 8,
            Lt | Gt | Le | Ge => 7,
            Eq | Ne => 6,
            BitAnd => 5,
            BitXor => 4,
            BitOr => 3,
            And => 2,
            Or => 1,
        }
    }

    /// The operator's spelling.
    pub fn as_str(self) -> &'static str {
        use BinOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            BitAnd => "&",
            BitXor => "^",
            BitOr => "|",
            And => "&&",
            Or => "||",
        }
    }
}

/// An expression: a name, a literal, or a constant expression over them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Expr {
    /// A register, variable, label or function name; `_` is the sink.
    Name(Name, Span),
    /// An integer literal.
    Int(IntLit),
    /// A floating-point literal.
    Float(FloatLit),
    /// `-a`, `!p`, `~x`.
    Unary {
        /// The operator.
        op: UnOp,
        /// The operand.
        expr: Box<Expr>,
        /// Where.
        span: Span,
    },
    /// `a + b` and friends.
    ///
    /// Both operands in one allocation (`[%rd1+8]` is the most common
    /// compound operand).
    Binary(Box<BinaryExpr>),
    /// A long run of binary operators read left to right, `a+b+c+…`, kept
    /// flat so that its length does not deepen the tree: the value is
    /// `first`, then each link's operator applied with the value so far on
    /// the left. The parser builds it once a run passes [`CHAIN_MIN`]
    /// operators (shorter runs are [`Expr::Binary`] nodes), so any walk of a
    /// tree stays as deep as its parentheses, whatever the run's length.
    Chain(Box<ChainExpr>),
    /// `c ? a : b` (rare: boxed whole, so it does not size every `Expr`).
    Cond(Box<CondExpr>),
    /// `( e )`, kept so printing gives back the same tree.
    Paren(Box<Expr>, Span),
    /// `(.s64) e` or `(.u64) e` (boxed whole: a name beside a box would
    /// size every `Expr`).
    Cast(Box<CastExpr>),
    /// `generic(sym)`.
    Generic(Box<Expr>, Span),
    /// `0xff(expr)`: the bytes of `expr` selected by the mask (rare: boxed
    /// whole).
    Mask(Box<MaskExpr>),
    /// `A[5]`: the address of an array element.
    Index {
        /// The array.
        base: Box<Expr>,
        /// The element index.
        index: Box<Expr>,
        /// Where.
        span: Span,
    },
    /// `%tid.x`, `a.b0`: a name with a component or selector suffix (boxed
    /// whole: one allocation, as a boxed base alone would be).
    Field(Box<FieldExpr>),
}

/// Runs of binary operators longer than this are read as one
/// [`Expr::Chain`]; shorter ones as nested [`Expr::Binary`] nodes.
pub const CHAIN_MIN: usize = 16;

/// The payload of [`Expr::Chain`]: `first op₁ e₁ op₂ e₂ …`, evaluated left
/// to right. Each link's operand binds tighter than its operator, and the
/// operators never bind tighter than the one before, so printing the run
/// flat reads back as the same chain.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChainExpr {
    /// The leftmost operand.
    pub first: Expr,
    /// The operators and operands after it, in order.
    pub links: Vec<ChainLink>,
    /// Where, the whole run.
    pub span: Span,
}

/// One `op operand` step of an [`Expr::Chain`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChainLink {
    /// The operator.
    pub op: BinOp,
    /// Its right operand.
    pub rhs: Expr,
}

/// The payload of [`Expr::Binary`], `a + b`. (Serialized like a struct
/// variant: `{"Binary": {"op": …, "lhs": …, "rhs": …, "span": …}}`.)
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BinaryExpr {
    /// The operator.
    pub op: BinOp,
    /// Left operand.
    pub lhs: Expr,
    /// Right operand.
    pub rhs: Expr,
    /// Where.
    pub span: Span,
}

/// The payload of [`Expr::Cond`], `c ? a : b`. (Serialized like a struct
/// variant: `{"Cond": {"cond": …, "then": …, "otherwise": …, "span": …}}`.)
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CondExpr {
    /// Condition.
    pub cond: Expr,
    /// Value when true.
    pub then: Expr,
    /// Value when false.
    pub otherwise: Expr,
    /// Where.
    pub span: Span,
}

/// The payload of [`Expr::Mask`], `0xff(expr)`. (Serialized like a struct
/// variant.)
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MaskExpr {
    /// The mask literal.
    pub mask: IntLit,
    /// The masked expression.
    pub expr: Expr,
    /// Where.
    pub span: Span,
}

/// The payload of [`Expr::Cast`], `(.s64) e`. (Serialized like a struct
/// variant.)
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CastExpr {
    /// The target type spelling (`.s64`, `.u64`).
    pub ty: Name,
    /// The operand.
    pub expr: Expr,
    /// Where.
    pub span: Span,
}

/// The payload of [`Expr::Field`], `%tid.x`. (Serialized like a struct
/// variant.)
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldExpr {
    /// The base.
    pub base: Expr,
    /// The suffix spelling, with its dot (`.x`, `.b0`, `.h1`).
    pub field: Name,
    /// Where.
    pub span: Span,
}

impl Expr {
    /// Where the expression is.
    pub fn span(&self) -> Span {
        match self {
            Expr::Name(_, s) | Expr::Paren(_, s) | Expr::Generic(_, s) => *s,
            Expr::Int(l) => l.span,
            Expr::Float(l) => l.span,
            Expr::Cond(c) => c.span,
            Expr::Mask(m) => m.span,
            Expr::Cast(c) => c.span,
            Expr::Field(f) => f.span,
            Expr::Binary(b) => b.span,
            Expr::Chain(c) => c.span,
            Expr::Unary { span, .. } | Expr::Index { span, .. } => *span,
        }
    }

    /// The name, if the expression is a bare name.
    pub fn as_name(&self) -> Option<Name> {
        match self {
            Expr::Name(n, _) => Some(*n),
            _ => None,
        }
    }

    /// Whether this is the sink `_`.
    pub fn is_sink(&self) -> bool {
        matches!(self, Expr::Name(n, _) if n.is_sink())
    }

    /// Call `f` with every name the expression uses as a symbol, left to
    /// right (a field name after `.` is not a symbol).
    pub fn for_each_name(&self, f: &mut impl FnMut(Name, Span)) {
        match self {
            Expr::Name(n, sp) => f(*n, *sp),
            Expr::Int(_) | Expr::Float(_) => {}
            Expr::Unary { expr, .. } | Expr::Paren(expr, _) | Expr::Generic(expr, _) => {
                expr.for_each_name(f)
            }
            Expr::Mask(m) => m.expr.for_each_name(f),
            Expr::Binary(b) => {
                b.lhs.for_each_name(f);
                b.rhs.for_each_name(f);
            }
            Expr::Chain(c) => {
                c.first.for_each_name(f);
                for l in &c.links {
                    l.rhs.for_each_name(f);
                }
            }
            Expr::Cond(c) => {
                c.cond.for_each_name(f);
                c.then.for_each_name(f);
                c.otherwise.for_each_name(f);
            }
            Expr::Index { base, index, .. } => {
                base.for_each_name(f);
                index.for_each_name(f);
            }
            Expr::Cast(c) => c.expr.for_each_name(f),
            Expr::Field(x) => x.base.for_each_name(f),
        }
    }
}
