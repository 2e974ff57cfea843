//! `ptxkit.Module`: a parsed PTX module and everything the CLI does with
//! one.

use std::sync::Arc;

use ptxkit::analysis::stats::{module_stats, StatsKey};
use ptxkit::check::CheckOptions;
use ptxkit::syntax::Item;
use pyo3::prelude::*;

use crate::text::Str;
use pyo3::types::PyDict;

use crate::convert::to_py;
use crate::diagnostic::Diagnostic;
use crate::doc::{instruction_paths, Doc};
use crate::function::Function;
use crate::graphs::{CallGraph, Cfg};
use crate::instruction::Instruction;

/// A parsed PTX module. Parsing never fails: a malformed module still
/// gives a ``Module`` (with ``diagnostics``) holding everything that
/// parsed. Immutable; safe to share between threads.
#[pyclass(frozen, module = "ptxkit")]
pub struct Module {
    pub(crate) doc: Arc<Doc>,
}

/// `ptxkit.Error(msg)` (a `ValueError`).
pub fn value_error(msg: impl Into<String>) -> PyErr {
    crate::errors::error(msg)
}

/// A target name the catalog knows, or a `ValueError`.
pub fn known_target(t: &str) -> PyResult<()> {
    if ptxkit::inline_asm::known_target(t) {
        Ok(())
    } else {
        Err(value_error(format!(
            "unknown target `{t}`; known: {}",
            ptxkit::inline_asm::all_targets().join(" ")
        )))
    }
}

impl Module {
    fn function_named(&self, name: &str) -> PyResult<usize> {
        self.doc.find_function(name).map_err(value_error)
    }
}

#[pymethods]
impl Module {
    /// The file it was read from, or ``None`` for a string with no path.
    #[getter]
    fn path(&self) -> PyResult<Option<&str>> {
        crate::errors::guard(|| {
            Ok({
                let n = self.doc.text.name.as_str();
                (n != crate::NO_PATH).then_some(n)
            })
        })
    }

    /// The ``.version`` as ``"8.0"``, or ``None`` when missing.
    #[getter]
    fn version(&self) -> PyResult<Option<String>> {
        crate::errors::guard(|| {
            Ok(self
                .doc
                .parsed
                .module
                .version()
                .map(|v| format!("{}.{}", v.major, v.minor)))
        })
    }

    /// The architecture the ``.target`` names (``"sm_90a"``), or ``None``.
    #[getter]
    fn target(&self) -> PyResult<Option<String>> {
        crate::errors::guard(|| {
            Ok(self
                .doc
                .parsed
                .module
                .target()
                .and_then(|t| t.arch())
                .map(|n| n.as_str().to_string()))
        })
    }

    /// Every item of the ``.target`` line: ``["sm_80", "debug"]``.
    #[getter]
    fn target_options(&self) -> PyResult<Vec<String>> {
        crate::errors::guard(|| {
            Ok(self
                .doc
                .parsed
                .module
                .target()
                .map(|t| {
                    t.items
                        .iter()
                        .map(|(n, _)| n.as_str().to_string())
                        .collect()
                })
                .unwrap_or_default())
        })
    }

    /// The ``.address_size`` (64 when not written).
    #[getter]
    fn address_size(&self) -> PyResult<u64> {
        crate::errors::guard(|| Ok(self.doc.parsed.module.address_size()))
    }

    /// Kernels and functions in source order (declarations included).
    #[getter]
    fn functions(&self) -> PyResult<Vec<Function>> {
        crate::errors::guard(|| {
            Ok(self
                .doc
                .function_items()
                .into_iter()
                .map(|k| Function::new(&self.doc, k))
                .collect())
        })
    }

    /// The kernels (``.entry``) in source order.
    #[getter]
    fn kernels(&self) -> PyResult<Vec<Function>> {
        crate::errors::guard(|| {
            Ok(self
                .doc
                .function_items()
                .into_iter()
                .filter(|k| self.doc.function(*k).is_some_and(|f| f.is_kernel()))
                .map(|k| Function::new(&self.doc, k))
                .collect())
        })
    }

    /// The function named ``name``: an exact match, else the only one
    /// whose name contains ``name``. Raises ``ValueError`` otherwise.
    fn function(&self, name: Str) -> PyResult<Function> {
        crate::errors::guard(|| Ok(Function::new(&self.doc, self.function_named(&name)?)))
    }

    /// Module-scope variables, one dict per declared name: ``name``,
    /// ``space`` (``".global"``, ``".shared"``, ``".const"``…), ``type``,
    /// ``vector``, ``align``, ``linkage``, ``bytes`` (``None`` when
    /// unsized) and ``line``.
    #[getter]
    fn globals<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        crate::errors::guard(|| {
            let mut out = Vec::new();
            for v in self.doc.parsed.module.globals() {
                for d in &v.decls {
                    let x = PyDict::new(py);
                    x.set_item("name", d.name.as_str())?;
                    x.set_item("space", v.space.as_str())?;
                    x.set_item("type", v.ty.as_str())?;
                    x.set_item("vector", v.vector)?;
                    x.set_item("align", v.align.map(|a| a.value))?;
                    x.set_item("linkage", v.linkage.map(|l| l.as_str()))?;
                    x.set_item(
                        "bytes",
                        ptxkit::analysis::params::declarator_bytes(v, &d.dims, d.init.as_ref()),
                    )?;
                    x.set_item("line", self.doc.text.line_col(d.span.start).0)?;
                    out.push(x);
                }
            }
            Ok(out)
        })
    }

    /// The syntax errors and warnings found while parsing, the first
    /// 10,000 in source order (``check()`` adds the semantic ones).
    #[getter]
    fn diagnostics(&self) -> PyResult<Vec<Diagnostic>> {
        crate::errors::guard(|| {
            Ok(Diagnostic::list(
                &self.doc.text,
                self.doc.parsed.diagnostics.clone(),
            ))
        })
    }

    /// How many syntax diagnostics were found past the first 10,000 and
    /// not kept in ``diagnostics`` (``check(max_errors=…)`` reads the text
    /// again and counts none of them).
    #[getter]
    fn omitted_diagnostics(&self) -> PyResult<usize> {
        crate::errors::guard(|| {
            let p = &self.doc.parsed;
            Ok(p.omitted_errors.saturating_add(p.omitted_warnings))
        })
    }

    /// Whether parsing found an error.
    #[getter]
    fn has_errors(&self) -> PyResult<bool> {
        crate::errors::guard(|| Ok(self.doc.parsed.has_errors()))
    }

    /// The source text.
    #[getter]
    fn source(&self) -> PyResult<String> {
        crate::errors::guard(|| Ok(String::from_utf8_lossy(&self.doc.text.bytes).into_owned()))
    }

    /// Check the module the way ptxas does (``ptx check``): the syntax
    /// diagnostics, then — for a module without syntax errors — symbols,
    /// calls, operands, version and target gating and module rules.
    /// ``target`` (``"sm_80"``) checks against another target than the
    /// module's ``.target``; ``syntax_only`` skips the semantic checks.
    /// Diagnostics in source order; an empty list means the module is
    /// valid. ``max_errors`` (above 0) gives what ``ptx check --max-errors
    /// N`` reports: the first that many in source order, no more of them
    /// held while checking (a module with an error at every token). The GIL
    /// is released while checking.
    #[pyo3(signature = (target = None, syntax_only = false, max_errors = 0))]
    fn check(
        &self,
        py: Python<'_>,
        target: Option<Str>,
        syntax_only: bool,
        max_errors: usize,
    ) -> PyResult<Vec<Diagnostic>> {
        crate::errors::guard(|| {
            let target = target.map(String::from);
            if let Some(t) = &target {
                known_target(t)?;
            }
            let doc = Arc::clone(&self.doc);
            let ds = py.detach(move || {
                if max_errors > 0 {
                    let src = &doc.text.bytes;
                    let found = if syntax_only {
                        ptxkit::check::syntax_check_bounded(src, max_errors)
                    } else {
                        let opts = CheckOptions {
                            target,
                            ..CheckOptions::default()
                        };
                        ptxkit::check::check_source_bounded(src, &opts, max_errors, |_| {})
                    };
                    return found.diagnostics;
                }
                let mut ds = doc.parsed.diagnostics.clone();
                if !syntax_only && !doc.parsed.has_errors() {
                    let opts = CheckOptions {
                        target,
                        ..CheckOptions::default()
                    };
                    ds.extend(ptxkit::check::check(&doc.parsed.module, &opts));
                    ds.sort_by_key(|d| d.span.start);
                }
                ds
            });
            Ok(Diagnostic::list(&self.doc.text, ds))
        })
    }

    /// The module printed canonically (``ptx fmt``), or exactly as read
    /// with ``lossless=True`` (``ptx fmt --lossless``).
    #[pyo3(signature = (lossless = false))]
    fn format(&self, py: Python<'_>, lossless: bool) -> PyResult<String> {
        crate::errors::guard(|| {
            Ok({
                let doc = Arc::clone(&self.doc);
                py.detach(move || {
                    if lossless {
                        String::from_utf8_lossy(&ptxkit::print::lossless(
                            &doc.parsed.module,
                            &doc.text.bytes,
                        ))
                        .into_owned()
                    } else {
                        ptxkit::print::canonical(&doc.parsed.module)
                    }
                })
            })
        })
    }

    /// The syntax tree as JSON text (``ptx ast --json``).
    #[pyo3(signature = (indent = None))]
    ///
    /// Raises ``ptxkit.Error`` rather than build text larger than
    /// ``MAX_JSON_BYTES`` (512 MiB; the JSON of a tree is about 15 to 30
    /// times the size of its source), or for an ``indent`` above 1,024
    /// (``MAX_INDENT``).
    fn to_json(&self, indent: Option<usize>) -> PyResult<String> {
        crate::errors::guard(|| {
            let m = &self.doc.parsed.module;
            let mut out = Capped {
                out: Vec::new(),
                limit: MAX_JSON_BYTES,
            };
            let r = match indent {
                None => serde_json::to_writer(&mut out, m),
                Some(n) if n > MAX_INDENT => {
                    return Err(crate::errors::error(format!(
                        "indent {n} is more than {MAX_INDENT}"
                    )))
                }
                Some(n) => {
                    let pad = " ".repeat(n);
                    let fmt = serde_json::ser::PrettyFormatter::with_indent(pad.as_bytes());
                    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
                    serde::Serialize::serialize(m, &mut ser)
                }
            };
            match r {
                Ok(()) => Ok(String::from_utf8_lossy(&out.out).into_owned()),
                Err(e) if e.is_io() => Err(crate::errors::error(format!(
                    "the JSON of this module is larger than {MAX_JSON_BYTES} bytes: not built"
                ))),
                Err(e) => Err(value_error(e.to_string())),
            }
        })
    }

    /// The syntax tree as plain Python objects (the same data as
    /// ``to_json()``).
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        crate::errors::guard(|| to_py(py, &self.doc.parsed.module))
    }

    /// Version, target, address size, functions with parameters,
    /// registers per type and instruction counts, module data sizes
    /// (``ptx summary --json``).
    fn summary(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        crate::errors::guard(|| {
            to_py(
                py,
                &ptxkit::analysis::summary::summarize(&self.doc.parsed.module),
            )
        })
    }

    /// The control-flow graph of function ``name`` (exact, or a part of
    /// the name that matches only one function).
    fn cfg(&self, name: Str) -> PyResult<Cfg> {
        crate::errors::guard(|| {
            let k = self.function_named(&name)?;
            let f = self
                .doc
                .function(k)
                .ok_or_else(|| value_error("no such function"))?;
            if f.body.is_none() {
                return Err(value_error(format!(
                    "`{}` is a declaration: it has no body",
                    f.name.as_str()
                )));
            }
            Ok(Cfg::new(ptxkit::analysis::flow::FlowReport::build(
                f,
                &self.doc.text.lines,
            )))
        })
    }

    /// The call graph (``ptx callgraph``).
    fn callgraph(&self) -> PyResult<CallGraph> {
        crate::errors::guard(|| Ok(CallGraph::new(self.doc.callgraph().clone())))
    }

    /// Registers (declared and an estimate of peak live), shared, local,
    /// param and const memory, barriers and launch directives
    /// (``ptx resources --json``): a dict for function ``name``, or a list
    /// of dicts for every function with a body when ``name`` is ``None``.
    #[pyo3(signature = (name = None))]
    fn resources(&self, py: Python<'_>, name: Option<Str>) -> PyResult<Py<PyAny>> {
        crate::errors::guard(|| {
            let doc = Arc::clone(&self.doc);
            match name {
                None => {
                    let rs = py.detach(move || {
                        ptxkit::analysis::resources::resources(
                            &doc.parsed.module,
                            &doc.text.lines,
                            None,
                        )
                    });
                    to_py(py, &rs)
                }
                Some(n) => {
                    let k = self.function_named(&n)?;
                    let exact = self
                        .doc
                        .function(k)
                        .map(|f| f.name.as_str().to_string())
                        .unwrap_or_default();
                    let rs = py.detach(move || {
                        ptxkit::analysis::resources::resources(
                            &doc.parsed.module,
                            &doc.text.lines,
                            Some(&exact),
                        )
                    });
                    match rs.first() {
                        Some(r) => to_py(py, r),
                        None => Err(value_error(format!("`{n}` has no body"))),
                    }
                }
            }
        })
    }

    /// Instruction counts (``ptx stats``): ``by`` is ``"opcode"`` (the
    /// catalog's instruction name, ``"ld"``, ``"wgmma.mma_async"``),
    /// ``"family"`` (``"data"``, ``"wgmma"``…) or ``"modifier"`` (the
    /// full mnemonic). A dict ``{key: count}``, most frequent first; with
    /// ``per_function=True``, ``{function: {key: count}}``.
    #[pyo3(
        signature = (by = Str("opcode".to_string()), per_function = false),
        text_signature = "(self, by='opcode', per_function=False)"
    )]
    fn stats(&self, py: Python<'_>, by: Str, per_function: bool) -> PyResult<Py<PyAny>> {
        crate::errors::guard(|| {
            let key = match &*by {
                "opcode" => StatsKey::Opcode,
                "family" => StatsKey::Family,
                "modifier" | "mnemonic" => StatsKey::Modifier,
                other => {
                    return Err(value_error(format!(
                        "by must be \"opcode\", \"family\" or \"modifier\", not {other:?}"
                    )))
                }
            };
            let s = module_stats(&self.doc.parsed.module, key);
            let hist = |h: &ptxkit::analysis::stats::Histogram| -> PyResult<Bound<'_, PyDict>> {
                let d = PyDict::new(py);
                for (k, n) in h.sorted() {
                    d.set_item(k, n)?;
                }
                Ok(d)
            };
            if per_function {
                let d = PyDict::new(py);
                for f in &s.functions {
                    d.set_item(&f.function, hist(&f.histogram)?)?;
                }
                Ok(d.into_any().unbind())
            } else {
                Ok(hist(&s.total)?.into_any().unbind())
            }
        })
    }

    /// The instructions matching ``pattern`` (``ptx grep``): opcode and
    /// modifiers separated by dots; ``*`` matches any run of modifiers,
    /// ``$`` at the end forbids trailing ones (``"atom.*.cas"``,
    /// ``"ld.global$"``). Raises ``ValueError`` for a malformed pattern.
    fn grep(&self, pattern: Str) -> PyResult<Vec<Instruction>> {
        crate::errors::guard(|| {
            let p = ptxkit::analysis::grep::Pattern::parse(&pattern).map_err(value_error)?;
            let mut out = Vec::new();
            for (k, item) in self.doc.parsed.module.items.iter().enumerate() {
                let Item::Function(f) = item else { continue };
                let Some(body) = &f.body else { continue };
                for (path, i) in instruction_paths(body) {
                    if p.matches(i) {
                        out.push(Instruction::new(&self.doc, k, path));
                    }
                }
            }
            Ok(out)
        })
    }

    /// A structural diff against ``other`` (``ptx diff --json``): header
    /// changes, functions added, removed and changed, per-function
    /// instruction-mix and resource deltas, and line hunks that ignore
    /// consistent register and label renumbering.
    fn diff(&self, py: Python<'_>, other: &Module) -> PyResult<Py<PyAny>> {
        crate::errors::guard(|| {
            let (a, b) = (Arc::clone(&self.doc), Arc::clone(&other.doc));
            let d = py.detach(move || {
                ptxkit::analysis::diff::diff_modules(
                    ptxkit::analysis::diff::Side {
                        module: &a.parsed.module,
                        src: &a.text.bytes,
                    },
                    ptxkit::analysis::diff::Side {
                        module: &b.parsed.module,
                        src: &b.text.bytes,
                    },
                )
            });
            to_py(py, &d)
        })
    }

    /// Two modules are equal when their trees are (positions, comments
    /// and layout aside): a module equals its canonical print parsed back.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        crate::errors::guard(|| {
            Ok(other
                .cast::<Module>()
                .is_ok_and(|o| o.get().doc.parsed.module == self.doc.parsed.module))
        })
    }

    fn __repr__(&self) -> PyResult<String> {
        crate::errors::guard(|| {
            Ok(format!(
                "<Module {} .version {} .target {} ({} functions)>",
                self.doc.text.name,
                self.version()?.unwrap_or_else(|| "?".into()),
                self.target()?.unwrap_or_else(|| "?".into()),
                self.doc.function_items().len()
            ))
        })
    }
}

/// The most text `Module.to_json` builds (512 MiB).
pub const MAX_JSON_BYTES: usize = 512 << 20;

/// The widest indent `Module.to_json` takes: each level repeats it, so a
/// huge one would make the text's size unbounded before the first key.
pub const MAX_INDENT: usize = 1024;

/// A writer that refuses to grow past `limit` bytes.
struct Capped {
    out: Vec<u8>,
    limit: usize,
}

impl std::io::Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.out.len().saturating_add(buf.len()) > self.limit {
            return Err(std::io::Error::other("size limit"));
        }
        self.out.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
