//! The package's exceptions, and the boundary that turns a panic of the
//! Rust code into one of them.
//!
//! `ptxkit.Error` (a `ValueError`, so code catching that keeps working)
//! is what ptxkit raises for input it cannot take: a path that is not
//! text, a result above its size limit, a corrupt binary.
//! `ptxkit.InternalError` (a `ptxkit.Error`) reports a bug caught at the
//! boundary (a panic), which pyo3 would otherwise raise as
//! `PanicException`, a `BaseException` that `except Exception` lets
//! through.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

pyo3::create_exception!(
    _ptxkit,
    Error,
    pyo3::exceptions::PyValueError,
    "What ptxkit raises for input it cannot take (a ValueError)."
);
pyo3::create_exception!(
    _ptxkit,
    InternalError,
    Error,
    "A bug in ptxkit caught before it could end the interpreter."
);

/// A `ptxkit.Error` saying `msg`.
pub fn error(msg: impl Into<String>) -> PyErr {
    Error::new_err(msg.into())
}

/// Set by `_ptxkit._provoke_internal_error()`: the next [`guard`]ed call
/// panics inside the boundary, so that the tests can see every entry
/// point turn a panic into `ptxkit.InternalError`.
static PROVOKE: AtomicBool = AtomicBool::new(false);

/// Make the next call of any function or method of the package panic
/// inside its boundary (for the tests of the boundary; not public API).
#[pyfunction]
pub fn _provoke_internal_error() {
    PROVOKE.store(true, Ordering::SeqCst);
}

/// The panic `_provoke_internal_error` asked for.
#[allow(clippy::panic)] // the one deliberate panic: it tests the boundary
fn provoked() {
    if PROVOKE.load(Ordering::Relaxed) && PROVOKE.swap(false, Ordering::SeqCst) {
        panic!("provoked by _provoke_internal_error()");
    }
}

/// Run `f`, turning a panic into `ptxkit.InternalError`. Every function
/// and method the package exposes runs its body through it.
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(|| {
        provoked();
        f()
    })) {
        Ok(r) => r,
        Err(p) => {
            let why = p
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(InternalError::new_err(format!(
                "internal error in ptxkit (please report it): {why}"
            )))
        }
    }
}

/// A path argument (`str`, `bytes` or `os.PathLike`) as a file-system
/// path. A `str` that cannot be encoded for the file system (a lone
/// surrogate such as `"\ud800"`) raises `ptxkit.Error`; pyo3's own
/// conversion panics on it.
pub fn fs_path(obj: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    let py = obj.py();
    let os = py.import("os")?;
    let p = os.call_method1("fspath", (obj,))?;
    let bytes = if p.cast::<PyString>().is_ok() {
        os.call_method1("fsencode", (&p,))
            .map_err(|e| error(format!("path cannot be encoded for the file system: {e}")))?
    } else {
        p
    };
    let b = bytes
        .cast::<PyBytes>()
        .map_err(|_| error("path is neither str, bytes nor os.PathLike"))?
        .as_bytes()
        .to_vec();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        Ok(PathBuf::from(std::ffi::OsString::from_vec(b)))
    }
    #[cfg(not(unix))]
    {
        Ok(PathBuf::from(String::from_utf8_lossy(&b).into_owned()))
    }
}

/// A name for diagnostics from an optional path argument: any `str`
/// (lone surrogates replaced), `bytes` or `os.PathLike`.
pub fn display_name(obj: Option<&Bound<'_, PyAny>>, none: &str) -> PyResult<String> {
    let Some(obj) = obj else {
        return Ok(none.to_string());
    };
    let os = obj.py().import("os")?;
    let p = os
        .call_method1("fspath", (obj,))
        .map_err(|e| error(format!("path: {e}")))?;
    if let Ok(s) = p.cast::<PyString>() {
        return Ok(s.to_string_lossy().into_owned());
    }
    if let Ok(b) = p.cast::<PyBytes>() {
        return Ok(String::from_utf8_lossy(b.as_bytes()).into_owned());
    }
    Err(error("path is neither str, bytes nor os.PathLike"))
}
