//! `.file` directives: ptxas reads the index into 32 bits and refuses one
//! declared twice. An index from 2³² to 2⁶³ − 1 is a "Constant overflow";
//! one of 2⁶³ or more reads as a negative 64-bit number and is kept modulo
//! 2³² (`.file 18446744073709551615` is index −1, as is `.file
//! 4294967295`), which is what "Duplicate file index" compares (probed
//! with ptxas 13.5).

use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::syntax::FileDirective;

impl Checker<'_> {
    /// The rules of one `.file` directive.
    pub(super) fn file_rules(&mut self, f: &FileDirective) {
        let v = f.index.value;
        if v > u64::from(u32::MAX) && i64::try_from(v).is_ok() {
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
}
