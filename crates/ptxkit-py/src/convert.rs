//! Serialised library data (serde) as plain Python objects: dicts, lists,
//! strings, numbers, booleans and `None`.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde::Serialize;
use serde_json::Value;

/// `v` as Python objects.
///
/// Python's cyclic garbage collector is paused while they are made: each
/// collection it starts walks every container made so far, and a module's
/// tree is millions of dicts and lists (`Module.to_dict()` of 50,000
/// functions: 13.9 s with it running, 3.2 s paused). Nothing made here
/// can be garbage before it is returned; the collector is started again
/// whatever happens (the GIL is held throughout, so no other thread runs
/// Python code meanwhile).
pub fn to_py<T: Serialize + ?Sized>(py: Python<'_>, v: &T) -> PyResult<Py<PyAny>> {
    let value = serde_json::to_value(v)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    let gc = py.import("gc")?;
    let was_enabled: bool = gc.call_method0("isenabled")?.extract()?;
    if was_enabled {
        gc.call_method0("disable")?;
    }
    let made = value_to_py(py, &value);
    if was_enabled {
        gc.call_method0("enable")?;
    }
    made
}

/// A JSON value as Python objects.
pub fn value_to_py(py: Python<'_>, v: &Value) -> PyResult<Py<PyAny>> {
    Ok(match v {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any().unbind()
            } else if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any().unbind()
            } else {
                n.as_f64()
                    .unwrap_or(f64::NAN)
                    .into_pyobject(py)?
                    .into_any()
                    .unbind()
            }
        }
        Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        Value::Array(a) => {
            let items = a
                .iter()
                .map(|x| value_to_py(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, value_to_py(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}
