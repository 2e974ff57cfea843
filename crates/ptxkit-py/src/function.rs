//! `ptxkit.Function`: a kernel (`.entry`) or function (`.func`).

use std::sync::Arc;

use ptxkit::analysis::params::{directive_text, param_summary};
use ptxkit::syntax::Param;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::doc::{instruction_paths, Doc};
use crate::instruction::Instruction;

/// A kernel (``.entry``) or device function (``.func``) of a module.
#[pyclass(frozen, module = "ptxkit")]
pub struct Function {
    doc: Arc<Doc>,
    item: usize,
}

impl Function {
    /// The function at item index `item` of `doc`.
    pub fn new(doc: &Arc<Doc>, item: usize) -> Function {
        Function {
            doc: Arc::clone(doc),
            item,
        }
    }

    fn get(&self) -> PyResult<&ptxkit::syntax::Function> {
        self.doc
            .function(self.item)
            .ok_or_else(|| PyRuntimeError::new_err("function not found in its module"))
    }
}

/// Parameters as dicts: name, type text, size in bytes, line.
fn params_py<'py>(py: Python<'py>, doc: &Doc, ps: &[Param]) -> PyResult<Vec<Bound<'py, PyDict>>> {
    ps.iter()
        .map(|p| {
            let s = param_summary(p);
            let d = PyDict::new(py);
            d.set_item("name", s.name)?;
            d.set_item("type", s.ty)?;
            d.set_item("bytes", s.bytes)?;
            d.set_item("line", doc.text.line_col(p.span.start).0)?;
            Ok(d)
        })
        .collect()
}

/// Demangle an Itanium C++ name (``_Z…``): the library's bounded
/// demangler, as the CLI's tables use it.
pub fn demangle(name: &str) -> Option<String> {
    ptxkit::demangle(name)
}

#[pymethods]
impl Function {
    /// The name as written (mangled for C++).
    #[getter]
    fn name(&self) -> PyResult<String> {
        crate::errors::guard(|| Ok(self.get()?.name.as_str().to_string()))
    }

    /// The demangled C++ name (``"vector_add(float const*, float*, int)"``),
    /// or ``None`` when the name is not a mangled C++ name.
    #[getter]
    fn demangled(&self) -> PyResult<Option<String>> {
        crate::errors::guard(|| Ok(demangle(self.get()?.name.as_str())))
    }

    /// Whether it is a kernel (``.entry``).
    #[getter]
    fn is_kernel(&self) -> PyResult<bool> {
        crate::errors::guard(|| Ok(self.get()?.is_kernel()))
    }

    /// ``"kernel"`` or ``"function"``.
    #[getter]
    fn kind(&self) -> PyResult<&'static str> {
        crate::errors::guard(|| {
            Ok(if self.get()?.is_kernel() {
                "kernel"
            } else {
                "function"
            })
        })
    }

    /// ``".visible"``, ``".extern"``, ``".weak"``, ``".common"`` or ``None``.
    #[getter]
    fn linkage(&self) -> PyResult<Option<&'static str>> {
        crate::errors::guard(|| Ok(self.get()?.linkage.map(|l| l.as_str())))
    }

    /// Whether it is only declared here (no body).
    #[getter]
    fn is_declaration(&self) -> PyResult<bool> {
        crate::errors::guard(|| Ok(self.get()?.body.is_none()))
    }

    /// The parameters: dicts with ``name``, ``type`` (``".param .u64"``),
    /// ``bytes`` and ``line``.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        crate::errors::guard(|| params_py(py, &self.doc, self.get()?.params()))
    }

    /// The return parameters of a ``.func`` (same shape as ``params``).
    #[getter]
    fn returns<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        crate::errors::guard(|| {
            params_py(py, &self.doc, self.get()?.rets.as_deref().unwrap_or(&[]))
        })
    }

    /// Performance directives as written: ``[".maxntid 256, 1, 1"]``.
    #[getter]
    fn directives(&self) -> PyResult<Vec<String>> {
        crate::errors::guard(|| Ok(self.get()?.directives.iter().map(directive_text).collect()))
    }

    /// The instructions of the body in order (nested blocks flattened);
    /// empty for a declaration.
    #[getter]
    fn instructions(&self) -> PyResult<Vec<Instruction>> {
        crate::errors::guard(|| {
            let f = self.get()?;
            Ok(f.body
                .as_ref()
                .map(|b| {
                    instruction_paths(b)
                        .into_iter()
                        .map(|(p, _)| Instruction::new(&self.doc, self.item, p))
                        .collect()
                })
                .unwrap_or_default())
        })
    }

    /// The labels of the body, in order.
    #[getter]
    fn labels(&self) -> PyResult<Vec<String>> {
        crate::errors::guard(|| {
            fn walk(b: &ptxkit::syntax::Block, out: &mut Vec<String>) {
                for s in &b.stmts {
                    match s {
                        ptxkit::Stmt::Label(n, _) => out.push(n.as_str().to_string()),
                        ptxkit::Stmt::Block(inner) => walk(inner, out),
                        _ => {}
                    }
                }
            }
            let mut out = Vec::new();
            if let Some(b) = &self.get()?.body {
                walk(b, &mut out);
            }
            Ok(out)
        })
    }

    /// 1-based line where the function starts.
    #[getter]
    fn line(&self) -> PyResult<u32> {
        crate::errors::guard(|| Ok(self.doc.text.line_col(self.get()?.span.start).0))
    }

    /// 1-based line where the function ends.
    #[getter]
    fn end_line(&self) -> PyResult<u32> {
        crate::errors::guard(|| Ok(self.doc.text.line_col(self.get()?.span.end).0))
    }

    /// The function printed canonically, or exactly as written with
    /// ``lossless=True`` (``ptx show``).
    #[pyo3(signature = (lossless = false))]
    fn format(&self, lossless: bool) -> PyResult<String> {
        crate::errors::guard(|| {
            let f = self.get()?;
            if lossless {
                return Ok(self.doc.text.slice(f.span));
            }
            let mut s = String::new();
            for (_, l) in ptxkit::print::canonical_function_lines(f) {
                s.push_str(&l);
                s.push('\n');
            }
            Ok(s)
        })
    }

    /// What ``ptx functions --json`` says of it: linkage, parameters,
    /// returns, directives, instruction count, calls, recursion.
    fn info(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        crate::errors::guard(|| {
            let f = self.get()?;
            let cg = self.doc.callgraph();
            let info = ptxkit::analysis::functions::function_info(f, &self.doc.text.lines, cg);
            crate::convert::to_py(py, &info)
        })
    }

    /// The functions it calls directly or indirectly (resolved), by name.
    #[getter]
    fn calls(&self) -> PyResult<Vec<String>> {
        crate::errors::guard(|| {
            let f = self.get()?;
            let cg = self.doc.callgraph();
            let info = ptxkit::analysis::functions::function_info(f, &self.doc.text.lines, cg);
            Ok(info.calls.into_iter().map(|c| c.callee).collect())
        })
    }

    fn __repr__(&self) -> PyResult<String> {
        crate::errors::guard(|| {
            let f = self.get()?;
            Ok(format!(
                "<Function {} {} line {}>",
                if f.is_kernel() { "kernel" } else { "function" },
                f.name.as_str(),
                self.line()?
            ))
        })
    }
}
