//! `ptxkit.extract`: the PTX inside CUDA binaries (fatbins, executables,
//! shared libraries, objects), as `ptx extract` reads it.

use std::path::PathBuf;
use std::sync::Arc;

use ptxkit::binary::{self, Binary, Entry, Kind};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::module::{value_error, Module};

/// A binary given from Python: its name and bytes.
pub struct BinaryInput {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Read a `path_or_bytes` argument: `bytes` as they are, anything else as
/// a path (`str` or `os.PathLike`).
pub fn read_input(src: &Bound<'_, PyAny>) -> PyResult<BinaryInput> {
    if let Ok(b) = src.cast::<PyBytes>() {
        return Ok(BinaryInput {
            name: "<bytes>".into(),
            bytes: b.as_bytes().to_vec(),
        });
    }
    let path: PathBuf = crate::errors::fs_path(src)?;
    let py = src.py();
    let bytes = py.detach(|| std::fs::read(&path))?;
    Ok(BinaryInput {
        name: path.display().to_string(),
        bytes,
    })
}

/// One entry of a fatbin. PTX entries give their text with ``text`` (read
/// and decompressed when first asked for).
#[pyclass(frozen, module = "ptxkit")]
pub struct FatbinEntry {
    bytes: Arc<Vec<u8>>,
    file: String,
    e: Entry,
    number: Option<usize>,
}

/// The entries of `bin` (read from `bytes`, named `file`), each PTX one
/// numbered from 1 among the PTX entries.
fn entries(file: &str, bytes: &Arc<Vec<u8>>, bin: Binary) -> Vec<FatbinEntry> {
    let mut n = 0usize;
    bin.entries
        .into_iter()
        .map(|e| {
            let number = (e.kind == Kind::Ptx).then(|| {
                n = n.saturating_add(1);
                n
            });
            FatbinEntry {
                bytes: Arc::clone(bytes),
                file: file.to_string(),
                e,
                number,
            }
        })
        .collect()
}

/// The entries of a binary that `arch` and `entry` keep (PTX only unless
/// `all_kinds`).
pub fn select(
    py: Python<'_>,
    input: BinaryInput,
    arch: Option<&str>,
    entry: Option<usize>,
    all_kinds: bool,
) -> PyResult<Vec<FatbinEntry>> {
    let bytes = Arc::new(input.bytes);
    let b2 = Arc::clone(&bytes);
    let bin = py
        .detach(move || binary::read(&b2))
        .map_err(|e| value_error(format!("{}: {e}", input.name)))?;
    Ok(entries(&input.name, &bytes, bin)
        .into_iter()
        .filter(|x| all_kinds || x.number.is_some())
        .filter(|x| entry.is_none_or(|n| x.number == Some(n)))
        .filter(|x| arch.is_none_or(|a| x.e.is_for_arch(a)))
        .collect())
}

impl FatbinEntry {
    /// The decompressed PTX text, or a `ValueError`.
    pub fn ptx_bytes(&self, py: Python<'_>) -> PyResult<Vec<u8>> {
        let bytes = Arc::clone(&self.bytes);
        let e = self.e.clone();
        py.detach(move || binary::ptx_text(&bytes, &e))
            .map_err(|err| value_error(format!("{}: {err}", self.file)))
    }

    /// The display name, `file#3.sm_80`.
    pub fn display(&self) -> String {
        format!(
            "{}#{}.{}",
            self.file,
            self.number.unwrap_or(self.e.index),
            self.e.arch_name()
        )
    }
}

#[pymethods]
impl FatbinEntry {
    /// 1-based number among the binary's PTX entries (what ``entry=``
    /// selects); ``None`` for other kinds.
    #[getter]
    fn number(&self) -> PyResult<Option<usize>> {
        crate::errors::guard(|| Ok(self.number))
    }

    /// Index among all entries of the binary (0-based).
    #[getter]
    fn index(&self) -> PyResult<usize> {
        crate::errors::guard(|| Ok(self.e.index))
    }

    /// ``"ptx"``, ``"sass"``, ``"lto-ir"`` or ``"kind-N"``.
    #[getter]
    fn kind(&self) -> PyResult<String> {
        crate::errors::guard(|| Ok(self.e.kind.name()))
    }

    /// The architecture, ``"sm_80"``, ``"sm_90a"``.
    #[getter]
    fn arch(&self) -> PyResult<String> {
        crate::errors::guard(|| Ok(self.e.arch_name()))
    }

    /// The PTX ISA version the header names, ``"9.0"``.
    #[getter]
    fn ptx_version(&self) -> PyResult<String> {
        crate::errors::guard(|| Ok(format!("{}.{}", self.e.version.0, self.e.version.1)))
    }

    /// ``"none"``, ``"lz4"`` or ``"zstd"``.
    #[getter]
    fn compression(&self) -> PyResult<&'static str> {
        crate::errors::guard(|| Ok(self.e.compression.name()))
    }

    /// The header's flags by name (``"64-bit"``, ``"debug"``, ``"lz4"``…).
    #[getter]
    fn flags(&self) -> PyResult<Vec<&'static str>> {
        crate::errors::guard(|| Ok(self.e.flag_names()))
    }

    /// The compile options recorded in the header, if any.
    #[getter]
    fn options(&self) -> PyResult<Option<String>> {
        crate::errors::guard(|| Ok(self.e.options.clone()))
    }

    /// The payload's size once decompressed, in bytes.
    #[getter]
    fn size(&self) -> PyResult<u64> {
        crate::errors::guard(|| Ok(self.e.uncompressed_size))
    }

    /// The name ``ptx`` commands give the entry: ``"app#2.sm_90"``.
    #[getter]
    fn name(&self) -> PyResult<String> {
        crate::errors::guard(|| Ok(self.display()))
    }

    /// The PTX text, decompressed (byte-identical to ``cuobjdump -xptx``).
    /// Raises ``ValueError`` for an entry that is not PTX or is corrupt.
    #[getter]
    fn text(&self, py: Python<'_>) -> PyResult<String> {
        crate::errors::guard(|| Ok(String::from_utf8_lossy(&self.ptx_bytes(py)?).into_owned()))
    }

    /// Parse the entry's PTX into a ``Module``.
    pub fn parse(&self, py: Python<'_>) -> PyResult<Module> {
        crate::errors::guard(|| {
            let text = self.ptx_bytes(py)?;
            Ok(crate::parse_bytes(py, self.display(), text))
        })
    }

    /// The header fields as a dict (``ptx extract --list --json``).
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        crate::errors::guard(|| crate::convert::to_py(py, &self.e))
    }

    fn __repr__(&self) -> PyResult<String> {
        crate::errors::guard(|| {
            Ok(format!(
                "<FatbinEntry {} {} PTX {} {}>",
                self.display(),
                self.e.kind.name(),
                self.ptx_version()?,
                self.e.compression.name()
            ))
        })
    }
}
