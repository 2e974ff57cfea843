//! Builders for new nodes: instructions from text or from parts, register
//! declarations, labels, operands.
//!
//! Built nodes carry [`Span::SYNTHETIC`] everywhere, so the lossless printer
//! prints them canonically wherever they are put. Instructions are parsed
//! through the catalog like any other, so their form, modifier slots and
//! operand roles are bound.
//!
//! ```
//! use ptxkit::syntax::build;
//! use ptxkit::isa::vocab::ScalarType;
//!
//! let add = build::instruction("add.s32 %r1, %r2, 4;").unwrap();
//! assert_eq!(add.name(), "add");
//! let same = build::instruction_from_parts(
//!     "add",
//!     &[".s32"],
//!     &[build::name("%r1"), build::name("%r2"), build::int(4)],
//! )
//! .unwrap();
//! assert_eq!(add, same);
//! let decl = build::reg_decl(ScalarType::B32, &["%tmp"]);
//! assert_eq!(ptxkit::print::stmt_text(&decl), ".reg .b32 %tmp;");
//! assert_eq!(ptxkit::print::stmt_text(&build::label("LOOP")), "LOOP:");
//! ```

use super::visit_mut::VisitMut;
use super::*;
use crate::diag::Diagnostic;
use crate::isa::vocab::{ScalarType, StateSpace};
use crate::source::Span;

/// Why a builder could not make a node.
#[derive(Clone, Debug, PartialEq)]
pub enum BuildError {
    /// The text did not parse (or did not check as one instruction form):
    /// the diagnostics, positioned in the text given.
    Invalid {
        /// The text that was parsed.
        text: String,
        /// What the parser said.
        diagnostics: Vec<Diagnostic>,
    },
    /// The text parsed, but not to what was asked (e.g. two statements
    /// where one instruction was wanted).
    Unexpected {
        /// The text that was parsed.
        text: String,
        /// What was wanted.
        wanted: &'static str,
    },
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Invalid { text, diagnostics } => {
                write!(f, "`{text}` does not parse")?;
                if let Some(d) = diagnostics.first() {
                    write!(f, ": {}", d.message)?;
                }
                Ok(())
            }
            BuildError::Unexpected { text, wanted } => write!(f, "`{text}` is not {wanted}"),
        }
    }
}

impl std::error::Error for BuildError {}

/// Sets every span to [`Span::SYNTHETIC`].
struct Unplace;

impl VisitMut for Unplace {
    fn visit_span_mut(&mut self, span: &mut Span) {
        *span = Span::SYNTHETIC;
    }
}

/// Mark `s` and everything in it as built rather than parsed (every span
/// [`Span::SYNTHETIC`]): the lossless printer then prints it canonically.
pub fn unplace_stmt(s: &mut Stmt) {
    Unplace.visit_stmt_mut(s);
}

/// Mark `i` and everything in it as built rather than parsed.
pub fn unplace_item(i: &mut Item) {
    Unplace.visit_item_mut(i);
}

/// The statements of a function body written as text (instructions, labels,
/// declarations, nested blocks), marked as built.
pub fn stmts(text: &str) -> Result<Vec<Stmt>, BuildError> {
    let (block, diagnostics) = crate::parse_body(text.as_bytes());
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(BuildError::Invalid {
            text: text.to_string(),
            diagnostics,
        });
    }
    let mut out = block.stmts;
    for s in &mut out {
        unplace_stmt(s);
    }
    Ok(out)
}

/// One statement written as text, marked as built.
pub fn stmt(text: &str) -> Result<Stmt, BuildError> {
    let mut all = stmts(text)?;
    match (all.pop(), all.is_empty()) {
        (Some(s), true) => Ok(s),
        _ => Err(BuildError::Unexpected {
            text: text.to_string(),
            wanted: "one statement",
        }),
    }
}

/// One instruction written as text (the `;` may be left out), its form
/// matched in the catalog, marked as built.
pub fn instruction(text: &str) -> Result<Instruction, BuildError> {
    let t = text.trim_end();
    let owned;
    let t = if t.ends_with(';') {
        t
    } else {
        owned = format!("{t};");
        &owned
    };
    match stmt(t)? {
        Stmt::Instruction(i) if i.form().is_some() => Ok(i),
        _ => Err(BuildError::Unexpected {
            text: text.to_string(),
            wanted: "an instruction of the catalog",
        }),
    }
}

/// An instruction from its opcode (`add`), modifiers with their dots
/// (`[".s32"]`) and operands, matched in the catalog like parsed text.
pub fn instruction_from_parts(
    opcode: &str,
    mods: &[&str],
    operands: &[Operand],
) -> Result<Instruction, BuildError> {
    let mut text = String::from(opcode);
    for m in mods {
        text.push_str(m);
    }
    for (k, o) in operands.iter().enumerate() {
        text.push_str(if k == 0 { " " } else { ", " });
        text.push_str(&crate::print::operand_text(o));
    }
    instruction(&text)
}

/// `label:` as a statement.
pub fn label(name: &str) -> Stmt {
    Stmt::Label(Name::new(name), Span::SYNTHETIC)
}

/// `.reg TYPE a, b, …;` as a statement.
pub fn reg_decl(ty: ScalarType, names: &[&str]) -> Stmt {
    Stmt::Var(Box::new(VarDecl {
        linkage: None,
        space: StateSpace::Reg,
        bank: None,
        attribute: None,
        align: None,
        vector: None,
        ty,
        decls: names.iter().map(|n| declarator(n, None)).collect(),
        span: Span::SYNTHETIC,
    }))
}

/// `.reg TYPE prefix<count>;`: `count` registers `prefix0`…, as a statement.
pub fn reg_range(ty: ScalarType, prefix: &str, count: u64) -> Stmt {
    let mut s = reg_decl(ty, &[prefix]);
    if let Stmt::Var(v) = &mut s {
        for d in &mut v.decls {
            d.range = Some(int_lit(count));
        }
    }
    s
}

fn declarator(name: &str, range: Option<IntLit>) -> Declarator {
    Declarator {
        name: Name::new(name),
        name_span: Span::SYNTHETIC,
        range,
        dims: Vec::new(),
        init: None,
        span: Span::SYNTHETIC,
    }
}

fn int_lit(value: u64) -> IntLit {
    IntLit {
        value,
        radix: Radix::Dec,
        unsigned: false,
        span: Span::SYNTHETIC,
    }
}

/// A name operand: a register, variable, label or function (`%r1`, `buf`).
pub fn name(n: &str) -> Operand {
    Operand::Expr(Expr::Name(Name::new(n), Span::SYNTHETIC))
}

/// A decimal integer operand (negative values are written `-n`).
pub fn int(value: i64) -> Operand {
    let lit = Expr::Int(int_lit(value.unsigned_abs()));
    Operand::Expr(if value < 0 {
        Expr::Unary {
            op: UnOp::Neg,
            expr: Box::new(lit),
            span: Span::SYNTHETIC,
        }
    } else {
        lit
    })
}

/// An address operand `[base]` or `[base+offset]` (`[base+-n]` for a
/// negative offset: ptxas refuses `[base-n]` as a syntax error).
pub fn address(base: &str, offset: i64) -> Operand {
    let b = Expr::Name(Name::new(base), Span::SYNTHETIC);
    let addr = if offset == 0 {
        b
    } else {
        let rhs = match int(offset) {
            Operand::Expr(e) => e,
            _ => Expr::Int(int_lit(offset.unsigned_abs())),
        };
        Expr::Binary(Box::new(BinaryExpr {
            op: BinOp::Add,
            lhs: b,
            rhs,
            span: Span::SYNTHETIC,
        }))
    };
    Operand::Address {
        addr,
        at: AddressAt::new(Span::SYNTHETIC, None),
    }
}
