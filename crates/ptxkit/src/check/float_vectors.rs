//! A vector of floating-point elements where ptxas wants integers
//! (`int-vec` in the catalog, [`Kinds::INT_VEC`]): ptxas types a vector by
//! its elements, and one whose elements are all floats (registers of a
//! float type, floating-point constants) does not fit the integer
//! coordinates and sizes of the tensor copies, though a `.f32` register
//! beside a `.b32` one does (ptxas 13.5, sm_107f: `{%f1, %f2}`, `{0f…,
//! 0f…}`, `{1.5, 2.5}` and `{%hf1, %hf2}` refused, `{%f1, %r2}` and
//! `{0f…, %r2}` taken; `tests/data/memory_operands/float_vectors.ptx`).

use super::inst_ctx::Names;
use super::operand_kinds::{lit, Lit};
use super::symbols::{Decl, Kind};
use crate::diag::{Code, Diagnostic};
use crate::isa::{Kinds, RoleSpec};
use crate::source::Span;
use crate::syntax::{Expr, Instruction, Operand};

impl super::Checker<'_> {
    /// Vector `items` of role `spec` of `i`: when the role says `int-vec`
    /// and every element is a float register or a floating-point constant,
    /// report it. Whether the vector passes.
    pub(super) fn float_vector(
        &mut self,
        i: &Instruction,
        spec: &RoleSpec,
        items: &[Operand],
        span: Span,
        nm: Names<'_>,
    ) -> bool {
        if !spec.kinds.has(Kinds::INT_VEC) || !spec.dir.reads() || items.is_empty() {
            return true;
        }
        let Names { w, ms } = nm;
        let all_float = items.iter().all(|item| match item {
            Operand::Expr(Expr::Name(n, _)) => matches!(
                w.lookup(ms, *n).decl,
                Some(Decl {
                    kind: Kind::Reg,
                    ty: Some(t),
                    ..
                }) if t.is_float()
            ),
            Operand::Expr(e) => matches!(lit(e), Some(Lit::Single | Lit::Double)),
            _ => false,
        });
        if !all_float {
            return true;
        }
        self.emit(
            Diagnostic::error(
                Code::OperandType,
                span,
                format!(
                    "`{}` cannot take a vector of floating-point elements alone as `{}`",
                    super::inst_name(i),
                    spec.role
                ),
            )
            .with_note("ptxas types a vector by its elements: these are integers, so keep an integer register among them"),
        );
        false
    }
}
