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
    fn severity(&self) -> &'static str {
        self.d.severity.as_str()
    }

    /// Whether this is an error (not a warning).
    #[getter]
    fn is_error(&self) -> bool {
        self.d.is_error()
    }

    /// The stable code, e.g. ``"E0201"``.
    #[getter]
    fn code(&self) -> &'static str {
        self.d.code.as_str()
    }

    /// The one-line message.
    #[getter]
    fn message(&self) -> &str {
        &self.d.message
    }

    /// The file name (or ``"<string>"``) the diagnostic is about.
    #[getter]
    fn path(&self) -> &str {
        &self.text.name
    }

    /// 1-based line of the start.
    #[getter]
    fn line(&self) -> u32 {
        self.start.0
    }

    /// 1-based column (in bytes) of the start.
    #[getter]
    fn col(&self) -> u32 {
        self.start.1
    }

    /// 1-based line of the end.
    #[getter]
    fn end_line(&self) -> u32 {
        self.end.0
    }

    /// 1-based column (in bytes) just past the end.
    #[getter]
    fn end_col(&self) -> u32 {
        self.end.1
    }

    /// The notes: the rule broken, a hint.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.d.notes.clone()
    }

    /// Secondary locations: ``(line, col, message)`` tuples.
    #[getter]
    fn labels(&self) -> Vec<(u32, u32, String)> {
        self.d
            .labels
            .iter()
            .map(|l| {
                let (line, col) = self.text.line_col(l.span.start);
                (line, col, l.message.clone())
            })
            .collect()
    }

    /// The source text the diagnostic points at.
    #[getter]
    fn snippet(&self) -> String {
        self.text.slice(self.d.span)
    }

    /// The fields as a dict (the shape of one entry of ``ptx check --json``).
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let j = ptxkit::diag::JsonDiagnostic::new(&self.text.name, &self.d, &self.text.lines);
        crate::convert::to_py(py, &j)
    }

    fn __str__(&self) -> String {
        ptxkit::diag::render(&self.d, &self.text.name, &self.text.bytes, &self.text.lines)
    }

    fn __repr__(&self) -> String {
        format!(
            "<Diagnostic {} {} {}:{}:{}: {}>",
            self.severity(),
            self.d.code,
            self.text.name,
            self.start.0,
            self.start.1,
            self.d.message
        )
    }
}
