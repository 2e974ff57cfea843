//! `ptxkit.check_asm`: the inline PTX `asm(...)` statements of CUDA C++
//! sources, found and checked as `ptx check-asm` does.

use std::sync::Arc;

use ptxkit::inline_asm::{self, Checked, Verdict};
use pyo3::prelude::*;

use crate::diagnostic::Diagnostic;
use crate::doc::Text;
use crate::module::{known_target, value_error};

/// One ``asm`` statement of a C++ source and what the check found.
#[pyclass(frozen, module = "ptxkit")]
pub struct AsmStatement {
    text: Arc<Text>,
    c: Checked,
}

/// How to check a source (as `ptx check-asm`'s options).
pub struct Setup {
    /// Targets (every known target when empty).
    pub targets: Vec<String>,
    /// The source's path, for `#include "..."`.
    pub path: Option<std::path::PathBuf>,
    /// `-I` directories.
    pub include_dirs: Vec<std::path::PathBuf>,
    /// `-D` definitions.
    pub defines: Vec<(String, String)>,
}

/// Check every statement of `bytes` (named `name`) as `setup` says.
pub fn check(
    py: Python<'_>,
    name: String,
    bytes: Vec<u8>,
    setup: Setup,
) -> PyResult<Vec<AsmStatement>> {
    let targets = setup.targets;
    for t in &targets {
        known_target(t)?;
    }
    if bytes.len() > ptxkit::MAX_FILE_SIZE {
        return Err(value_error(format!(
            "{name}: larger than {} bytes",
            ptxkit::MAX_FILE_SIZE
        )));
    }
    let text = Arc::new(Text::new(name, bytes));
    let t2 = Arc::clone(&text);
    let opts = inline_asm::Options {
        targets,
        path: setup.path,
        include_dirs: setup.include_dirs,
        defines: setup.defines,
        undefines: Vec::new(),
    };
    let checked = py.detach(move || inline_asm::check_file(&t2.bytes, &opts).checked);
    Ok(checked
        .into_iter()
        .map(|c| AsmStatement {
            text: Arc::clone(&text),
            c,
        })
        .collect())
}

#[pymethods]
impl AsmStatement {
    /// ``"valid"`` (some selected target accepts it), ``"invalid"`` or
    /// ``"skipped"`` (the template is not a string literal).
    #[getter]
    fn status(&self) -> PyResult<&'static str> {
        crate::errors::guard(|| Ok(self.c.verdict.status()))
    }

    /// Whether some selected target accepts the statement.
    #[getter]
    fn is_valid(&self) -> PyResult<bool> {
        crate::errors::guard(|| Ok(matches!(self.c.verdict, Verdict::Valid { .. })))
    }

    /// The targets that accept it (empty unless valid).
    #[getter]
    fn targets(&self) -> PyResult<Vec<String>> {
        crate::errors::guard(|| {
            Ok(match &self.c.verdict {
                Verdict::Valid { targets } => targets.to_vec(),
                _ => Vec::new(),
            })
        })
    }

    /// For an invalid statement, the target whose diagnostics are shown
    /// (``None`` when the problem is the same for every target).
    #[getter]
    fn closest_target(&self) -> PyResult<Option<String>> {
        crate::errors::guard(|| {
            Ok(match &self.c.verdict {
                Verdict::Invalid { closest, .. } => closest.clone(),
                _ => None,
            })
        })
    }

    /// The problems, at their line and column inside the C++ string
    /// literal; ``str(d)`` shows the C++ code frame, as ``ptx check-asm``.
    #[getter]
    fn diagnostics(&self) -> PyResult<Vec<Diagnostic>> {
        crate::errors::guard(|| {
            Ok({
                let ds = self.c.verdict.diagnostics(self.c.guard.checked_for.len());
                Diagnostic::list(&self.text, ds)
            })
        })
    }

    /// 1-based line of the ``asm`` keyword.
    #[getter]
    fn line(&self) -> PyResult<u32> {
        crate::errors::guard(|| Ok(self.text.line_col(self.c.statement.keyword.start).0))
    }

    /// 1-based column of the ``asm`` keyword.
    #[getter]
    fn col(&self) -> PyResult<u32> {
        crate::errors::guard(|| Ok(self.text.line_col(self.c.statement.keyword.start).1))
    }

    /// The template's string literals as written in the C++ source.
    #[getter]
    fn template(&self) -> PyResult<String> {
        crate::errors::guard(|| Ok(self.text.slice(self.c.statement.template_span)))
    }

    /// The whole statement as written, ``asm`` to the closing parenthesis.
    #[getter]
    fn source(&self) -> PyResult<String> {
        crate::errors::guard(|| Ok(self.text.slice(self.c.statement.span)))
    }

    /// Output and input operand constraints in order (``["=r", "r", "l"]``).
    #[getter]
    fn constraints(&self) -> PyResult<Vec<String>> {
        crate::errors::guard(|| {
            Ok(self
                .c
                .statement
                .operands()
                .map(|o| o.constraint.clone())
                .collect())
        })
    }

    /// Whether ``volatile`` was given.
    #[getter]
    fn volatile(&self) -> PyResult<bool> {
        crate::errors::guard(|| Ok(self.c.statement.volatile))
    }

    /// Where the statement is compiled, as ``ptx check-asm --json``'s
    /// ``guard``: ``conditions`` (the ``#if`` lines that restrict it),
    /// ``compiled_for`` (every target nvcc compiles it for),
    /// ``compiled_for_text``, ``checked_for`` (the selected ones),
    /// ``assumed_undefined`` and ``undecidable``.
    #[getter]
    fn guard<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        crate::errors::guard(|| {
            let g = &self.c.guard;
            let d = pyo3::types::PyDict::new(py);
            d.set_item("conditions", g.conditions.clone())?;
            d.set_item("compiled_for", g.compiled_for.to_vec())?;
            d.set_item("compiled_for_text", g.compiled_for_text.clone())?;
            d.set_item("checked_for", g.checked_for.to_vec())?;
            d.set_item("assumed_undefined", g.assumed_undefined.clone())?;
            d.set_item("undecidable", g.undecidable.clone())?;
            Ok(d)
        })
    }

    /// The macros expanded to read the statement.
    #[getter]
    fn expanded(&self) -> PyResult<Vec<String>> {
        crate::errors::guard(|| Ok(self.c.expanded.clone()))
    }

    /// How many readings its inner ``#if`` groups give (1 without any).
    #[getter]
    fn variants(&self) -> PyResult<usize> {
        crate::errors::guard(|| Ok(self.c.variants))
    }

    /// What was assumed (an ``"n"`` operand whose value is not known, a
    /// condition that could not be decided).
    #[getter]
    fn notes(&self) -> PyResult<Vec<String>> {
        crate::errors::guard(|| Ok(self.c.notes.clone()))
    }

    fn __repr__(&self) -> PyResult<String> {
        crate::errors::guard(|| {
            Ok(format!(
                "<AsmStatement {}:{}:{} {}>",
                self.text.name,
                self.line()?,
                self.col()?,
                self.status()?
            ))
        })
    }
}
