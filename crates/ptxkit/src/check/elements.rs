//! Array elements as operands, `arr[i]` (spec 6.4.2), as ptxas takes them:
//! the address of an element of an array variable, as a value where the
//! role takes a variable (`mov`, `cvta`) and, without brackets, as the
//! address of the memory instructions whose role says `elem` (`ld`, `ldu`,
//! `st`). The index is an integer or untyped register, a variable or a
//! label (their addresses), or a constant.

use super::body::BodyWalk;
use super::inst_ctx::Names;
use super::symbols::{Decl, Kind, ModuleScope};
use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::isa::vocab::ScalarType;
use crate::isa::{Kinds, RoleSpec};
use crate::syntax::{Expr, Instruction, Operand};

impl Checker<'_> {
    /// `arr[i]` (`e`, an [`Expr::Index`]) as operand `spec` of `i`, of type
    /// `ty`: in place of a bracketed address when `addr`, else a value.
    pub(super) fn array_element(
        &mut self,
        i: &Instruction,
        spec: &RoleSpec,
        ty: Option<ScalarType>,
        e: &Expr,
        addr: bool,
        nm: Names<'_>,
    ) {
        let Names { w, ms } = nm;
        let Expr::Index { base, index, span } = e else {
            return;
        };
        let Expr::Name(n, sp) = &**base else { return };
        let f = w.lookup(ms, *n);
        // Undeclared names are reported with the instruction's other names;
        // one that a later label declares is no array either.
        let Some(decl) = f.decl else {
            return Self::report_if_label(w, *n, f, || {
                Diagnostic::error(
                    Code::OperandKind,
                    *sp,
                    format!("`{n}` is a label: only an array variable takes an index"),
                )
            });
        };
        if decl.kind != Kind::Var {
            let d = Diagnostic::error(
                Code::OperandKind,
                *sp,
                format!("`{n}` is not a variable: only an array variable takes an index"),
            );
            return self.report_found(*n, d, f, w);
        }
        // ptxas 13.5: "Array indexing on non-array", for a scalar or
        // vector variable of any state space, a parameter too (`kp[0]`).
        if !decl.array {
            self.emit(Diagnostic::error(
                Code::OperandKind,
                *sp,
                format!("`{n}` is not an array: only a variable declared with dimensions takes an index"),
            ));
            return;
        }
        self.array_index(index, w, ms);
        if !addr {
            // As a value it is the variable's address moved on: checked
            // as the variable itself would be.
            return self.value(i, spec, ty, base, Some(f), Names { w, ms });
        }
        if !spec.kinds.has(Kinds::ELEM) {
            self.emit(
                Diagnostic::error(
                    Code::OperandShape,
                    *span,
                    format!(
                        "`{}` takes no array element as its address `{}`",
                        super::inst_name(i),
                        spec.role
                    ),
                )
                .with_note(format!(
                    "write the address in brackets: `[{n}+OFFSET]` or `[REG]`"
                )),
            );
            return;
        }
        // The variable must live where the address is, as in `[arr]`.
        let ordinal = i
            .operands
            .iter()
            .take_while(|o| !matches!(o, Operand::Expr(x) if std::ptr::eq(x, e)))
            .filter(|o| matches!(o, Operand::Address { .. } | Operand::Tuple { .. }))
            .count();
        self.address_base(i, base, ordinal, w, ms);
    }

    /// The register or name leading an array index: ptxas takes integer
    /// and untyped registers, variables and labels, not a predicate, a
    /// floating-point or `.b128` register or a function.
    fn array_index(&mut self, index: &Expr, w: &mut BodyWalk, ms: &ModuleScope) {
        let mut lead = index;
        loop {
            lead = match lead {
                Expr::Binary(b) => &b.lhs,
                Expr::Chain(c) => &c.first,
                _ => break,
            };
        }
        let Expr::Name(n, sp) = lead else { return };
        let f = w.lookup(ms, *n);
        let what = match f.decl {
            Some(Decl {
                kind: Kind::Reg,
                ty: Some(t),
                ..
            }) if t == ScalarType::Pred || t.is_float() || t == ScalarType::B128 => {
                format!("a `{t}` register")
            }
            Some(Decl {
                kind: Kind::Func, ..
            }) => "a function".to_string(),
            _ => return,
        };
        let d = Diagnostic::error(
            Code::OperandType,
            *sp,
            format!("`{n}` is {what}, which cannot index an array"),
        )
        .with_note("an array index is an integer or untyped register, or a constant");
        self.report_found(*n, d, f, w);
    }
}
