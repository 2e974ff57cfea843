//! The values of a `.section` data line (`.b8 1, 2`, `.b32 L+4`,
//! `.b64 L-M`), as ptxas reads them: integers, each written plainly or
//! negated, in the range of the line's type (`section-range` in
//! `module.ptxisa`); or one value naming a label (`L`, `L+N`, `L-M`),
//! alone on its line and only in a type that holds an address
//! (`section-label-types`). Anything else (`L-1`, `1+L`, `(4)`, `-1U`)
//! is a syntax error to ptxas.

use super::module_data::{data, SectionRange};
use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::isa::vocab::ScalarType;
use crate::source::Span;
use crate::syntax::{BinOp, Expr, IntLit, UnOp};

/// What one value of a data line is.
enum Value<'e> {
    /// An integer, negated or not.
    Int { negated: bool, lit: &'e IntLit },
    /// `L`, `L+N` or `L-M`.
    Label,
    /// Anything else.
    Other,
}

fn classify(e: &Expr) -> Value<'_> {
    match e {
        Expr::Int(lit) => Value::Int {
            negated: false,
            lit,
        },
        Expr::Unary {
            op: UnOp::Neg,
            expr,
            ..
        } => match &**expr {
            // ptxas takes no `U` suffix after a minus (`-1U`).
            Expr::Int(lit) if !lit.unsigned => Value::Int { negated: true, lit },
            _ => Value::Other,
        },
        Expr::Name(..) => Value::Label,
        Expr::Binary(b) => match (b.op, &b.lhs, &b.rhs) {
            (BinOp::Add, Expr::Name(..), Expr::Int(_))
            | (BinOp::Sub, Expr::Name(..), Expr::Name(..)) => Value::Label,
            _ => Value::Other,
        },
        _ => Value::Other,
    }
}

/// Whether `range` holds the integer `lit`, negated or not: a negated
/// value runs from -1 down to the least one, so `-0` is outside.
fn in_range(range: SectionRange, negated: bool, lit: &IntLit) -> bool {
    if negated {
        range
            .min
            .is_none_or(|min| lit.value != 0 && i128::from(lit.value) <= min.saturating_neg())
    } else {
        range.max.is_none_or(|max| lit.value <= max)
    }
}

/// Types as a message lists them: `.b32 or .b64`.
fn join_types(types: &[ScalarType], sep: &str) -> String {
    types
        .iter()
        .map(|t| t.as_str())
        .collect::<Vec<_>>()
        .join(sep)
}

/// `range` as a message gives it: `-128 to 255`, `-2147483648 and up`.
fn describe(range: SectionRange) -> String {
    match (range.min, range.max) {
        (Some(min), Some(max)) => format!("{min} to {max}"),
        (Some(min), None) => format!("{min} and up"),
        (None, Some(max)) => format!("up to {max}"),
        (None, None) => "any value".to_string(),
    }
}

impl Checker<'_> {
    /// The values of one `.section` data line (at `line`) of type `ty`;
    /// `after` is the token after the line, where ptxas blames a value its
    /// type cannot hold (each is labelled at the value).
    pub(super) fn section_values(
        &mut self,
        ty: ScalarType,
        values: &[Expr],
        line: Span,
        after: Span,
    ) {
        let md = data();
        // A type no data line has (blamed, as a bad value is, after the
        // line).
        if !md.section_types.is_empty() && !md.section_types.contains(&ty) {
            self.emit(
                Diagnostic::error(
                    Code::InitKind,
                    after,
                    format!(
                        "{ty} is no type of `.section` data: a line holds {}",
                        join_types(&md.section_types, ", ")
                    ),
                )
                .with_label(line, "this line"),
            );
            return;
        }
        let several = values.len() > 1;
        for v in values {
            let blame = after;
            let at = |d: Diagnostic| d.with_label(v.span(), "this value");
            match classify(v) {
                Value::Int { negated, lit } => {
                    let Some(range) = md.section_range(ty) else {
                        continue;
                    };
                    if !in_range(range, negated, lit) {
                        let sign = if negated { "-" } else { "" };
                        self.emit(at(Diagnostic::error(
                            Code::ImmediateValue,
                            blame,
                            format!(
                                "{sign}{} is out of range for {ty} data in `.section`",
                                lit.value
                            ),
                        )
                        .with_note(format!(
                            "{ty} data takes {}; a negated value is never -0",
                            describe(range)
                        ))));
                    }
                }
                Value::Label if !md.section_label_types.contains(&ty) => {
                    self.emit(
                        at(Diagnostic::error(
                            Code::InitKind,
                            blame,
                            format!("a label's address cannot be {ty} data in `.section`"),
                        ))
                        .with_note(format!(
                            "an address is {} data",
                            join_types(&md.section_label_types, " or ")
                        )),
                    );
                }
                Value::Label if several => {
                    self.emit(Diagnostic::error(
                        Code::InitKind,
                        v.span(),
                        "a value naming a label stands alone on its `.section` data line",
                    ));
                }
                Value::Label => {}
                Value::Other => {
                    self.emit(Diagnostic::error(
                        Code::InitKind,
                        v.span(),
                        "a `.section` data value is a number (`7`, `-7`), a label (`L`), a label plus a number (`L+4`) or a difference of labels (`L-M`)",
                    ));
                }
            }
        }
    }
}
