//! `ptxkit.Diagnostic`: one problem found in a source, with its position
//! and the CLI's code frame as its `str()`.

use std::sync::Arc;

use pyo3::prelude::*;

use crate::doc::Text;

/// A problem found in the input: an error or a warning, where it is, and
/// what it is. ``str(d)`` is the report ``ptx check`` prints: the
/// ``path:line:col: error: message [code]`` line, a code frame and notes.
#[pyclass(frozen, module = "ptxkit")]
pub struct Diagnostic {
    text: Arc<Text>,
    d: ptxkit::Diagnostic,
    start: (u32, u32),
    end: (u32, u32),
}

impl Diagnostic {
    /// A diagnostic of `text`.
    pub fn new(text: &Arc<Text>, d: ptxkit::Diagnostic) -> Diagnostic {
        Diagnostic {
            start: text.line_col(d.span.start),
            end: text.line_col(d.span.end),
            text: Arc::clone(text),
            d,
        }
    }

    /// Python objects for `ds`.
    pub fn list(text: &Arc<Text>, ds: Vec<ptxkit::Diagnostic>) -> Vec<Diagnostic> {
        ds.into_iter().map(|d| Diagnostic::new(text, d)).collect()
    }
}

#[pymethods]
impl Diagnostic {
    /// ``"error"`` or ``"warning"``.
    #[getter]
    fn severity(&self) -> PyResult<&'static str> {
        crate::errors::guard(|| Ok(self.d.severity.as_str()))
    }

    /// Whether this is an error (not a warning).
    #[getter]
    fn is_error(&self) -> PyResult<bool> {
        crate::errors::guard(|| Ok(self.d.is_error()))
    }

    /// The stable code, e.g. ``"E0201"``.
    #[getter]
    fn code(&self) -> PyResult<&'static str> {
        crate::errors::guard(|| Ok(self.d.code.as_str()))
    }

    /// The one-line message.
    #[getter]
    fn message(&self) -> PyResult<&str> {
        crate::errors::guard(|| Ok(self.d.message.as_str()))
    }

    /// The file name (or ``"<string>"``) the diagnostic is about.
    #[getter]
    fn path(&self) -> PyResult<&str> {
        crate::errors::guard(|| Ok(self.text.name.as_str()))
    }

    /// 1-based line of the start.
    #[getter]
    fn line(&self) -> PyResult<u32> {
        crate::errors::guard(|| Ok(self.start.0))
    }

    /// 1-based column (in bytes) of the start.
    #[getter]
    fn col(&self) -> PyResult<u32> {
        crate::errors::guard(|| Ok(self.start.1))
    }

    /// 1-based line of the end.
    #[getter]
    fn end_line(&self) -> PyResult<u32> {
        crate::errors::guard(|| Ok(self.end.0))
    }

    /// 1-based column (in bytes) just past the end.
    #[getter]
    fn end_col(&self) -> PyResult<u32> {
        crate::errors::guard(|| Ok(self.end.1))
    }

    /// The notes: the rule broken, a hint.
    #[getter]
    fn notes(&self) -> PyResult<Vec<String>> {
        crate::errors::guard(|| Ok(self.d.notes.clone()))
    }

    /// Secondary locations: ``(line, col, message)`` tuples.
    #[getter]
    fn labels(&self) -> PyResult<Vec<(u32, u32, String)>> {
        crate::errors::guard(|| {
            Ok(self
                .d
                .labels
                .iter()
                .map(|l| {
                    let (line, col) = self.text.line_col(l.span.start);
                    (line, col, l.message.clone())
                })
                .collect())
        })
    }

    /// The source text the diagnostic points at.
    #[getter]
    fn snippet(&self) -> PyResult<String> {
        crate::errors::guard(|| Ok(self.text.slice(self.d.span)))
    }

    /// The fields as a dict (the shape of one entry of ``ptx check --json``).
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        crate::errors::guard(|| {
            let j = ptxkit::diag::JsonDiagnostic::new(&self.text.name, &self.d, &self.text.lines);
            crate::convert::to_py(py, &j)
        })
    }

    fn __str__(&self) -> PyResult<String> {
        crate::errors::guard(|| {
            Ok(ptxkit::diag::render(
                &self.d,
                &self.text.name,
                &self.text.bytes,
                &self.text.lines,
            ))
        })
    }

    fn __repr__(&self) -> PyResult<String> {
        crate::errors::guard(|| {
            Ok(format!(
                "<Diagnostic {} {} {}:{}:{}: {}>",
                self.severity()?,
                self.d.code,
                self.text.name,
                self.start.0,
                self.start.1,
                self.d.message
            ))
        })
    }
}
