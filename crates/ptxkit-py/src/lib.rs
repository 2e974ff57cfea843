//! The `ptxkit` Python package's native module (`ptxkit._ptxkit`): PTX
//! read into a typed tree, printed, checked and explored from Python, over
//! the `ptxkit` library. The Python side (`python/ptxkit/`) re-exports it
//! and holds the type stubs.
//!
//! Every object is immutable (`frozen`) and shares its module through an
//! `Arc`, so objects can be used from several threads; parsing, checking
//! and the heavier analyses run with the GIL released.

mod asm;
mod binary;
mod binary_usage;
mod convert;
mod diagnostic;
mod doc;
mod errors;
mod function;
mod graphs;
mod instruction;
mod module;
mod text;

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::module::{value_error, Module};
use crate::text::Str;

/// The allocator of the `ptx` binary, for the parser's many small nodes
/// (Rust allocations only; Python's objects keep Python's allocator).
#[global_allocator]
static ALLOC: ptx_alloc::Mimalloc = ptx_alloc::Mimalloc;

/// The name of a module parsed from a string without a path.
pub(crate) const NO_PATH: &str = "<string>";

/// Parse `bytes` named `name` with the GIL released.
pub(crate) fn parse_bytes(py: Python<'_>, name: String, bytes: Vec<u8>) -> Module {
    let doc = py.detach(move || doc::Doc::parse(name, bytes));
    Module { doc: Arc::new(doc) }
}

/// Text given as `str` or `bytes`.
fn text_bytes(text: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(s) = text.cast::<PyString>() {
        // A lone surrogate (`"\ud800"`) cannot be UTF-8: `ptxkit.Error`
        // (still a `ValueError`, as Python's own `UnicodeEncodeError` is).
        let s = s.to_cow().map_err(|e| {
            errors::error(format!(
                "the text is not valid Unicode ({e}); pass bytes, or a str without lone surrogates"
            ))
        })?;
        return Ok(s.as_bytes().to_vec());
    }
    if let Ok(b) = text.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "expected str or bytes, not {}",
        text.get_type().name()?
    )))
}

/// Parse PTX text (``str`` or ``bytes``) into a :class:`Module`. ``path``
/// only names the text in diagnostics. Never raises for malformed PTX:
/// the problems are in ``Module.diagnostics`` (and ``Module.check()``).
#[pyfunction]
#[pyo3(signature = (text, path = None))]
fn parse(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    path: Option<&Bound<'_, PyAny>>,
) -> PyResult<Module> {
    errors::guard(|| {
        let bytes = text_bytes(text)?;
        let name = errors::display_name(path, NO_PATH)?;
        Ok(parse_bytes(py, name, bytes))
    })
}

/// Read and parse a PTX file. A CUDA binary (fatbin, executable, shared
/// library, object) gives its one PTX entry, or the one ``arch``
/// (``"sm_80"``) and ``entry`` (1-based among its PTX entries) select;
/// ``ValueError`` when none or several remain. ``OSError`` when the file
/// cannot be read.
#[pyfunction]
#[pyo3(signature = (path, arch = None, entry = None))]
fn parse_file(
    py: Python<'_>,
    path: &Bound<'_, PyAny>,
    arch: Option<Str>,
    entry: Option<usize>,
) -> PyResult<Module> {
    errors::guard(|| parse_file_at(py, &errors::fs_path(path)?, text::opt(&arch), entry))
}

fn parse_file_at(
    py: Python<'_>,
    path: &std::path::Path,
    arch: Option<&str>,
    entry: Option<usize>,
) -> PyResult<Module> {
    let bytes = py.detach(|| std::fs::read(path))?;
    let name = path.display().to_string();
    if !ptxkit::binary::is_binary(&bytes) {
        return Ok(parse_bytes(py, name, bytes));
    }
    let input = binary::BinaryInput { name, bytes };
    let label = input.name.clone();
    let picked = binary::select(py, input, arch, entry, false)?;
    match picked.as_slice() {
        [one] => one.parse(py),
        [] => Err(value_error(format!(
            "{label}: no PTX entry matches (see ptxkit.fatbin_entries)"
        ))),
        many => Err(value_error(format!(
            "{label}: {} PTX entries ({}); choose one with arch= or entry=",
            many.len(),
            many.iter()
                .map(|e| e.display())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The catalog entry of an instruction (``ptx explain``): syntax forms,
/// operand roles, modifier groups, what modifiers mean and the PTX
/// version and target each needs. ``query`` is an opcode, optionally with
/// modifiers (``"mma"``, ``"ld.global.v4"``). ``ValueError`` when the
/// catalog has no such instruction.
#[pyfunction]
fn explain(query: Str) -> PyResult<String> {
    crate::errors::guard(|| {
        let e = ptxkit::analysis::explain::explain(&query).map_err(value_error)?;
        Ok(ptxkit::analysis::explain_text::plain(&e))
    })
}

/// The data of :func:`explain` as a dict (``ptx explain --json``).
#[pyfunction]
fn explain_dict(py: Python<'_>, query: Str) -> PyResult<Py<PyAny>> {
    crate::errors::guard(|| {
        let e = ptxkit::analysis::explain::explain(&query).map_err(value_error)?;
        convert::to_py(py, &e)
    })
}

/// Every target the catalog knows (``"sm_20"`` … ``"sm_120a"``), oldest
/// first.
#[pyfunction]
fn targets() -> PyResult<Vec<String>> {
    crate::errors::guard(|| Ok(ptxkit::inline_asm::all_targets()))
}

/// Find and check the inline PTX ``asm(...)`` statements of CUDA C++
/// source text (``ptx check-asm``) against ``targets`` (every known
/// target when ``None``), each against the targets its ``#if`` guards
/// compile it for. ``path`` names the text in diagnostics (and locates
/// ``#include "..."``); ``include_dirs`` (``-I``) and ``defines``
/// (``-D``, ``{"NAME": "VALUE"}``) as for ``ptx check-asm``. Statements
/// no selected target compiles are left out.
#[pyfunction]
#[pyo3(signature = (source, targets = None, path = None, include_dirs = None, defines = None))]
fn check_asm(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    targets: Option<Vec<Str>>,
    path: Option<&Bound<'_, PyAny>>,
    include_dirs: Option<Vec<text::FsPath>>,
    defines: Option<std::collections::BTreeMap<Str, Str>>,
) -> PyResult<Vec<asm::AsmStatement>> {
    errors::guard(|| {
        let bytes = text_bytes(source)?;
        let name = errors::display_name(path, NO_PATH)?;
        let file = path.map(errors::fs_path).transpose().ok().flatten();
        asm::check(
            py,
            name,
            bytes,
            asm_setup(targets, file, include_dirs, defines),
        )
    })
}

/// The optional `targets`, `include_dirs` and `defines` arguments of
/// :func:`check_asm` and :func:`check_asm_file` as the checker takes them.
fn asm_setup(
    targets: Option<Vec<Str>>,
    path: Option<std::path::PathBuf>,
    include_dirs: Option<Vec<text::FsPath>>,
    defines: Option<std::collections::BTreeMap<Str, Str>>,
) -> asm::Setup {
    asm::Setup {
        targets: text::strings(targets),
        path,
        include_dirs: text::paths(include_dirs.unwrap_or_default()),
        defines: defines
            .unwrap_or_default()
            .into_iter()
            .map(|(k, v)| (k.0, v.0))
            .collect(),
    }
}

/// :func:`check_asm` on a file (``.cu``, ``.cuh``, ``.h``, ``.cpp``…).
#[pyfunction]
#[pyo3(signature = (path, targets = None, include_dirs = None, defines = None))]
fn check_asm_file(
    py: Python<'_>,
    path: &Bound<'_, PyAny>,
    targets: Option<Vec<Str>>,
    include_dirs: Option<Vec<text::FsPath>>,
    defines: Option<std::collections::BTreeMap<Str, Str>>,
) -> PyResult<Vec<asm::AsmStatement>> {
    errors::guard(|| {
        let path = errors::fs_path(path)?;
        let bytes = py.detach(|| std::fs::read(&path))?;
        asm::check(
            py,
            path.display().to_string(),
            bytes,
            asm_setup(targets, Some(path), include_dirs, defines),
        )
    })
}

/// The PTX entries of a CUDA binary (``ptx extract``): a path or the
/// binary's ``bytes``; ``arch`` (``"sm_80"``) and ``entry`` (1-based
/// among the PTX entries) select. ``ValueError`` for a file that is not a
/// CUDA binary or is corrupt, ``OSError`` when it cannot be read.
#[pyfunction]
#[pyo3(signature = (source, arch = None, entry = None))]
fn extract(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    arch: Option<Str>,
    entry: Option<usize>,
) -> PyResult<Vec<binary::FatbinEntry>> {
    errors::guard(|| {
        let input = binary::read_input(source)?;
        binary::select(py, input, text::opt(&arch), entry, false)
    })
}

/// Every fatbin entry of a CUDA binary, PTX or not (``ptx extract
/// --list``).
#[pyfunction]
fn fatbin_entries(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Vec<binary::FatbinEntry>> {
    errors::guard(|| {
        let input = binary::read_input(source)?;
        binary::select(py, input, None, None, true)
    })
}

/// The native module.
#[pymodule]
fn _ptxkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("Error", m.py().get_type::<errors::Error>())?;
    m.add("InternalError", m.py().get_type::<errors::InternalError>())?;
    m.add_class::<Module>()?;
    m.add_class::<function::Function>()?;
    m.add_class::<instruction::Instruction>()?;
    m.add_class::<instruction::Operand>()?;
    m.add_class::<diagnostic::Diagnostic>()?;
    m.add_class::<graphs::Cfg>()?;
    m.add_class::<graphs::CallGraph>()?;
    m.add_class::<asm::AsmStatement>()?;
    m.add_class::<binary::FatbinEntry>()?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(parse_file, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(explain_dict, m)?)?;
    m.add_function(wrap_pyfunction!(targets, m)?)?;
    m.add_function(wrap_pyfunction!(check_asm, m)?)?;
    m.add_function(wrap_pyfunction!(check_asm_file, m)?)?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(fatbin_entries, m)?)?;
    m.add_function(wrap_pyfunction!(binary_usage::resource_usage, m)?)?;
    m.add_function(wrap_pyfunction!(binary_usage::compat, m)?)?;
    m.add_function(wrap_pyfunction!(errors::_provoke_internal_error, m)?)?;
    Ok(())
}
