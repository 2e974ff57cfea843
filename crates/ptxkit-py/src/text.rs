//! Text arguments: names, queries, targets and defines given as `str`.
//!
//! pyo3 converts a `str` argument with a lone surrogate (`"\ud800"`, which
//! UTF-8 cannot hold) by raising `UnicodeEncodeError`, before the
//! function's body and its boundary run. Arguments typed [`Str`] raise
//! `ptxkit.Error` instead, which callers catching the package's errors
//! expect (and which is still a `ValueError`, as `UnicodeEncodeError` is).

use std::ops::Deref;

use pyo3::prelude::*;
use pyo3::types::PyString;

/// A `str` argument, as UTF-8. Anything that is not a `str` raises
/// `TypeError`; a `str` that is not valid Unicode raises `ptxkit.Error`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Str(pub String);

impl<'a, 'py> FromPyObject<'a, 'py> for Str {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let Ok(s) = obj.cast::<PyString>() else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "expected str, not {}",
                obj.get_type().name()?
            )));
        };
        match s.to_cow() {
            Ok(text) => Ok(Str(text.into_owned())),
            Err(e) => Err(crate::errors::error(format!(
                "the argument is not valid Unicode ({e}): a str without lone surrogates is needed"
            ))),
        }
    }
}

impl Deref for Str {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl From<Str> for String {
    fn from(s: Str) -> String {
        s.0
    }
}

/// `Some(&str)` of an optional [`Str`] argument.
pub fn opt(s: &Option<Str>) -> Option<&str> {
    s.as_deref()
}

/// Plain strings of a list of [`Str`] arguments.
pub fn strings(v: Option<Vec<Str>>) -> Vec<String> {
    v.unwrap_or_default()
        .into_iter()
        .map(String::from)
        .collect()
}

impl std::fmt::Display for Str {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A path argument (`str`, `bytes` or `os.PathLike`) inside a list, as
/// [`crate::errors::fs_path`] converts one: a `str` with a lone surrogate
/// raises `ptxkit.Error` (pyo3's own `PathBuf` conversion panics on it).
pub struct FsPath(pub std::path::PathBuf);

impl<'a, 'py> FromPyObject<'a, 'py> for FsPath {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        crate::errors::fs_path(&obj).map(FsPath)
    }
}

/// Plain paths of a list of [`FsPath`] arguments.
pub fn paths(v: Vec<FsPath>) -> Vec<std::path::PathBuf> {
    v.into_iter().map(|p| p.0).collect()
}
