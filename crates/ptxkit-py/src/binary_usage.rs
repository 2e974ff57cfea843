//! `ptxkit.resource_usage` and `ptxkit.compat`: what each kernel of a
//! CUDA binary's cubins uses, and which GPUs and drivers a binary runs on
//! (`ptx resources BIN` and `ptx compat`).

use ptxkit::binary::compat::{self as verdicts, Target};
use ptxkit::binary::{self, rules, scan};
use pyo3::prelude::*;

use crate::text::{FsPath, Str};

use crate::binary::read_input;
use crate::module::value_error;

/// One kernel on one architecture.
#[derive(serde::Serialize)]
struct Row<'a> {
    arch: &'a str,
    entry: Option<usize>,
    demangled: Option<String>,
    #[serde(flatten)]
    usage: &'a binary::FunctionUsage,
}

/// What each kernel of each cubin of a CUDA binary uses, as
/// ``ptx resources --json BIN`` gives it: one dict per function and
/// architecture (``registers``, ``stack`` (``None``: unknown),
/// ``shared``, ``local``, ``constant``, ``barriers``, ``max_threads``…).
/// ``arch`` keeps one architecture (``"sm_90a"``).
#[pyfunction]
#[pyo3(signature = (source, arch = None))]
pub fn resource_usage(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    arch: Option<Str>,
) -> PyResult<Py<PyAny>> {
    crate::errors::guard(|| {
        let input = read_input(source)?;
        let name = input.name.clone();
        let result = py.detach(move || -> Result<Vec<serde_json::Value>, String> {
            let bytes = input.bytes;
            let bin = binary::read(&bytes).map_err(|e| format!("{name}: {e}"))?;
            let mut rows = Vec::new();
            for eu in binary::usage_of(&bytes, &bin) {
                if arch
                    .as_deref()
                    .is_some_and(|a| !eu.arch_name.eq_ignore_ascii_case(a))
                {
                    continue;
                }
                let u = eu
                    .usage
                    .map_err(|e| format!("{name}: {}: {e}", eu.arch_name))?;
                for f in &u.functions {
                    let row = Row {
                        arch: &eu.arch_name,
                        entry: eu.entry,
                        demangled: ptxkit::demangle(&f.name),
                        usage: f,
                    };
                    rows.push(serde_json::to_value(&row).map_err(|e| e.to_string())?);
                }
            }
            Ok(rows)
        });
        crate::convert::to_py(py, &result.map_err(value_error)?)
    })
}

/// One binary's verdicts.
#[derive(serde::Serialize)]
struct Found {
    package: String,
    path: String,
    #[serde(flatten)]
    report: Option<verdicts::Report>,
    error: Option<String>,
}

/// Which GPUs and drivers the CUDA binaries under ``paths`` (files,
/// directories, site-packages, wheels) run on, as ``ptx compat --json``
/// reports them: one dict per binary with its ``sass`` and ``ptx``
/// images and a ``verdicts`` list (``gpu``, ``level``: ``"native"``,
/// ``"jit"`` or ``"cannot-run"``, ``via``, ``rule``, ``reason``).
/// ``gpus`` defaults to sm_75 … sm_120; ``driver`` is a CUDA version
/// (``"12.4"``) or a driver version (``"550.54"``), default: any.
#[pyfunction]
#[pyo3(signature = (paths, gpus = None, driver = None))]
pub fn compat(
    py: Python<'_>,
    paths: Vec<FsPath>,
    gpus: Option<Vec<Str>>,
    driver: Option<Str>,
) -> PyResult<Py<PyAny>> {
    crate::errors::guard(|| {
        let gpus: Vec<u32> = match gpus {
            None => rules::COMMON_GPUS.to_vec(),
            Some(v) => v
                .iter()
                .map(|g| {
                    verdicts::parse_gpu(g).ok_or_else(|| value_error(format!("`{g}` is not a GPU")))
                })
                .collect::<PyResult<_>>()?,
        };
        let driver = match driver {
            None => None,
            Some(d) => Some(
                verdicts::parse_driver(&d)
                    .ok_or_else(|| value_error(format!("`{d}` is not a CUDA or driver version")))?,
            ),
        };
        let targets: Vec<Target> = gpus.iter().map(|&gpu| Target { gpu, driver }).collect();
        let paths = crate::text::paths(paths);
        let found = py.detach(move || -> Result<Vec<Found>, String> {
            let cands = scan::candidates(&paths);
            if let Some(e) = cands.errors.first() {
                return Err(e.clone());
            }
            Ok(
                scan::scan(&cands, |_, bytes| verdicts::report(bytes, &targets), |_| {})
                    .into_iter()
                    .map(|s| {
                        let (report, error) = match s.result.and_then(|r| r) {
                            Ok(r) => (Some(r), None),
                            Err(e) => (None, Some(e)),
                        };
                        Found {
                            package: s.candidate.package,
                            path: s.candidate.path,
                            report,
                            error,
                        }
                    })
                    .collect(),
            )
        });
        crate::convert::to_py(py, &found.map_err(value_error)?)
    })
}
