//! `.file` directives: ptxas reads the index into 32 bits and refuses one
//! declared twice. An index from 2³² to 2⁶³ − 1 is a "Constant overflow";
//! one of 2⁶³ or more reads as a negative 64-bit number and is kept modulo
//! 2³² (`.file 18446744073709551615` is index −1, as is `.file
//! 4294967295`), which is what "Duplicate file index" compares (probed
//! with ptxas 13.5).
//!
//! `.loc` directives: only in a function's body (at module scope ptxas
//! gives a syntax error); file, line and column read into 32 bits as a
//! `.file` index is; and the location an `inlined_at` names must be one a
//! `.loc` earlier in the module gave ("Source location … used in
//! inlined_at directive must be used in a preceding .loc directive"), so
//! the locations given so far are kept, once each. The label a
//! `function_name` names must be defined in a `.section`, which usually
//! follows the functions: each label named is kept with its first use
//! until the module's end.

use super::symbols::{Kind, ModuleScope};
use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::syntax::{BinOp, Expr, FileDirective, IntLit, Loc};

/// A number of a `.file` or `.loc` directive as ptxas reads it: `None`
/// for one from 2³² to 2⁶³ − 1 ("Constant overflow"), else its low 32
/// bits (a number of 2⁶³ or more reads as negative and is kept).
fn read32(v: u64) -> Option<u32> {
    if v > u64::from(u32::MAX) && i64::try_from(v).is_ok() {
        return None;
    }
    Some(v as u32)
}

impl Checker<'_> {
    /// The rules of one `.file` directive.
    pub(super) fn file_rules(&mut self, f: &FileDirective) {
        let v = f.index.value;
        if read32(v).is_none() {
            self.emit(
                Diagnostic::error(
                    Code::DirectiveValue,
                    f.index.span,
                    "`.file` takes a 32-bit index; this one does not fit",
                )
                .with_note("ptxas: Constant overflow"),
            );
            return;
        }
        // The low 32 bits, as ptxas names them (`#-1`).
        let index = v as u32 as i32;
        match self.files.entry(index) {
            std::collections::hash_map::Entry::Occupied(first) => {
                let d = Diagnostic::error(
                    Code::Duplicate,
                    f.index.span,
                    format!("file index {index} is declared twice"),
                )
                .with_label(*first.get(), "first declared here")
                .with_note("ptxas: Duplicate file index");
                self.emit(d);
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(f.index.span);
            }
        }
    }

    /// The rules of one `.loc` directive; `in_body` when it is in a
    /// function's body.
    pub(super) fn loc_rules(&mut self, l: &Loc, in_body: bool) {
        if !in_body {
            self.emit(Diagnostic::error(
                Code::Syntax,
                l.span,
                "`.loc` gives the source location of the instructions after it: it belongs in a function's body",
            ));
            return;
        }
        let key = |lit: &IntLit, what: &str, c: &mut Checker<'_>| {
            let v = read32(lit.value);
            if v.is_none() {
                c.emit(
                    Diagnostic::error(
                        Code::DirectiveValue,
                        lit.span,
                        format!("`.loc` takes a 32-bit {what}; this one does not fit"),
                    )
                    .with_note("ptxas: Constant overflow"),
                );
            }
            v
        };
        let here = (
            key(&l.file, "file index", self),
            key(&l.line, "line", self),
            key(&l.col, "column", self),
        );
        if let Some(e) = &l.function_name {
            let base = match e {
                Expr::Binary(b) if b.op == BinOp::Add => &b.lhs,
                other => other,
            };
            if let Expr::Name(n, span) = base {
                self.function_names.entry(*n).or_insert(*span);
            }
        }
        let Some([f, ln, c]) = &l.inlined_at else {
            if let (Some(f), Some(ln), Some(c)) = here {
                self.locs.insert((f, ln, c));
            }
            return;
        };
        let at = (
            key(f, "file index", self),
            key(ln, "line", self),
            key(c, "column", self),
        );
        if let (Some(f), Some(ln), Some(c)) = at {
            if !self.locs.contains(&(f, ln, c)) {
                self.emit(
                    Diagnostic::error(
                        Code::Undeclared,
                        l.span,
                        format!(
                            "`inlined_at {f} {ln} {c}` names a source location no earlier `.loc` gave"
                        ),
                    )
                    .with_note("the call an inlined body came from is itself located first: `.loc` that file, line and column before this"),
                );
            }
        }
        if let (Some(f), Some(ln), Some(c)) = here {
            self.locs.insert((f, ln, c));
        }
    }

    /// At the module's end: each label a `.loc`'s `function_name` named
    /// is one a `.section` defines (ptxas: "Unresolved label … used in
    /// function_name attribute", with no line; here at its first use).
    pub(super) fn unresolved_function_names(&mut self, ms: &ModuleScope) {
        let mut unresolved: Vec<_> = self
            .function_names
            .drain()
            .filter(|(n, _)| {
                !ms.find(*n)
                    .is_some_and(|d| matches!(d.kind, Kind::Label(_)))
            })
            .collect();
        unresolved.sort_by_key(|(_, s)| s.start);
        for (n, span) in unresolved {
            self.emit(
                Diagnostic::error(
                    Code::Undeclared,
                    span,
                    format!("`{n}` is no label of the module's debug sections"),
                )
                .with_note("a `.loc`'s function_name names the label of the inlined function's name in a `.section` (usually .debug_str)"),
            );
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    /// The lines of the errors of `ptx check` on a module holding `body`
    /// after its header (line 5 on).
    fn error_lines(body: &str) -> Vec<u32> {
        let src =
            format!(".version 9.0\n.target sm_90a\n.address_size 64\n.file 1 \"a.cu\"\n{body}");
        let index = crate::LineIndex::new(src.as_bytes());
        crate::check::check_source(src.as_bytes(), &Default::default())
            .iter()
            .filter(|d| d.is_error())
            .map(|d| index.line_col(d.span.start).line)
            .collect()
    }

    /// ptxas 13.5: "Unresolved label '…' used in function_name
    /// attribute" (with no line) unless a `.section`, before or after the
    /// function, defines the label; a function, a variable or a label of
    /// the body does not do.
    #[test]
    fn function_name_labels_come_from_sections() {
        let body = |name: &str, after: &str| {
            format!(
                ".global .u32 g;\n.entry k()\n{{\nL1:\n.loc 1 2 3\n\
                 .loc 1 1 1, function_name {name}, inlined_at 1 2 3\nret;\n}}\n{after}"
            )
        };
        let section = ".section .debug_str { $Lf:\n.b8 0 }\n";
        assert!(error_lines(&body("$Lf", section)).is_empty());
        assert!(error_lines(&body("$Lf+4", section)).is_empty());
        assert!(error_lines(&format!("{section}{}", body("$Lf", ""))).is_empty());
        for name in ["$Lnone", "k", "g", "L1"] {
            assert_eq!(error_lines(&body(name, section)), vec![10], "{name}");
        }
    }
}
