//! `ptxkit.Cfg` and `ptxkit.CallGraph`: the control-flow graph of one
//! function and the call graph of a module.

use ptxkit::analysis::callgraph::CallGraph as Cg;
use ptxkit::analysis::flow::FlowReport;
use pyo3::prelude::*;

use crate::text::Str;
use pyo3::types::{PyDict, PyList};

use crate::convert::to_py;

/// The control-flow graph of one function: basic blocks, typed edges,
/// immediate dominators and natural loops (``ptx cfg``).
#[pyclass(frozen, module = "ptxkit")]
pub struct Cfg {
    r: FlowReport,
}

impl Cfg {
    /// Wrap a report.
    pub fn new(r: FlowReport) -> Cfg {
        Cfg { r }
    }
}

#[pymethods]
impl Cfg {
    /// The function's name.
    #[getter]
    fn function(&self) -> PyResult<&str> {
        crate::errors::guard(|| Ok(self.r.function.as_str()))
    }

    /// The blocks in source order: dicts with ``id``, ``label``, ``labels``,
    /// ``first_line``, ``last_line`` and ``instructions`` (a count).
    #[getter]
    fn blocks(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        crate::errors::guard(|| to_py(py, &self.r.blocks))
    }

    /// The edges: dicts with ``from``, ``to`` (``None`` when control
    /// leaves the function) and ``kind`` (``"fallthrough"``, ``"branch"``,
    /// ``"conditional"``, ``"indirect"``, ``"return"``, ``"exit"``,
    /// ``"trap"``).
    #[getter]
    fn edges(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        crate::errors::guard(|| to_py(py, &self.r.edges))
    }

    /// The entry block's id (0).
    #[getter]
    fn entry(&self) -> PyResult<usize> {
        crate::errors::guard(|| Ok(self.r.entry))
    }

    /// Block ids in reverse post-order.
    #[getter]
    fn rpo(&self) -> PyResult<Vec<usize>> {
        crate::errors::guard(|| Ok(self.r.rpo.clone()))
    }

    /// The immediate dominator of every block: ``{block: idom}``; ``None``
    /// for the entry and for unreachable blocks.
    #[getter]
    fn dominators(&self) -> PyResult<std::collections::BTreeMap<usize, Option<usize>>> {
        crate::errors::guard(|| Ok(self.r.idom.iter().copied().enumerate().collect()))
    }

    /// Whether block ``a`` dominates block ``b`` (every block dominates
    /// itself).
    fn dominates(&self, a: usize, b: usize) -> PyResult<bool> {
        crate::errors::guard(|| {
            let mut at = Some(b);
            let mut steps = 0usize;
            while let Some(x) = at {
                if x == a {
                    return Ok(true);
                }
                steps = steps.saturating_add(1);
                if steps > self.r.idom.len() {
                    break;
                }
                at = self.r.idom.get(x).copied().flatten();
            }
            Ok(false)
        })
    }

    /// Blocks not reachable from the entry.
    #[getter]
    fn unreachable(&self) -> PyResult<Vec<usize>> {
        crate::errors::guard(|| Ok(self.r.unreachable.clone()))
    }

    /// Natural loops: dicts with ``header``, ``latches``, ``own_blocks``
    /// (the blocks whose innermost loop it is), ``size`` (its blocks,
    /// nested loops' included), ``depth`` and ``parent``.
    #[getter]
    fn loops(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        crate::errors::guard(|| to_py(py, &self.r.loops))
    }

    /// The loop depth of every block (0 outside loops), by block id.
    #[getter]
    fn loop_depth(&self) -> PyResult<Vec<u32>> {
        crate::errors::guard(|| Ok(self.r.loop_depth.clone()))
    }

    /// Edges ``(a, b)`` entering a cycle that ``b`` does not dominate;
    /// empty when the flow is reducible.
    #[getter]
    fn irreducible_edges(&self) -> PyResult<Vec<(usize, usize)>> {
        crate::errors::guard(|| Ok(self.r.irreducible_edges.clone()))
    }

    /// ``brx.idx`` edges left out of ``edges`` past the graph's budget
    /// (0 unless ``brx.idx`` instructions share ``.branchtargets`` lists;
    /// see docs/limits.md).
    #[getter]
    fn omitted_edges(&self) -> PyResult<usize> {
        crate::errors::guard(|| Ok(self.r.omitted_edges))
    }

    /// Whether edge ``a -> b`` is a back edge (``b`` dominates ``a``).
    fn is_back_edge(&self, a: usize, b: usize) -> PyResult<bool> {
        crate::errors::guard(|| Ok(self.r.is_back_edge(a, b)))
    }

    /// Graphviz DOT (``ptx cfg --dot``); render with ``dot -Tsvg``.
    fn to_dot(&self) -> PyResult<String> {
        crate::errors::guard(|| Ok(ptxkit::analysis::dot::cfg_dot(&self.r)))
    }

    /// Everything as a dict (``ptx cfg NAME --json``).
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        crate::errors::guard(|| to_py(py, &self.r))
    }

    /// A ``networkx.DiGraph``: one node per block id (attributes
    /// ``label``, ``first_line``, ``last_line``, ``instructions``,
    /// ``loop_depth``), one edge per edge between blocks (attribute
    /// ``kind``); edges leaving the function go to the node ``"exit"``.
    /// Raises ``ImportError`` when networkx is not installed.
    fn to_networkx<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::errors::guard(|| {
            let nx = py.import("networkx")?;
            let g = nx.getattr("DiGraph")?.call0()?;
            g.getattr("graph")?.set_item("function", &self.r.function)?;
            for b in &self.r.blocks {
                let kw = PyDict::new(py);
                kw.set_item("label", &b.label)?;
                kw.set_item("first_line", b.first_line)?;
                kw.set_item("last_line", b.last_line)?;
                kw.set_item("instructions", b.instructions)?;
                kw.set_item(
                    "loop_depth",
                    self.r.loop_depth.get(b.id).copied().unwrap_or(0),
                )?;
                g.call_method("add_node", (b.id,), Some(&kw))?;
            }
            for e in &self.r.edges {
                let kw = PyDict::new(py);
                kw.set_item("kind", e.kind.as_str())?;
                match e.to {
                    Some(t) => g.call_method("add_edge", (e.from, t), Some(&kw))?,
                    None => g.call_method("add_edge", (e.from, "exit"), Some(&kw))?,
                };
            }
            Ok(g)
        })
    }

    fn __repr__(&self) -> PyResult<String> {
        crate::errors::guard(|| {
            Ok(format!(
                "<Cfg {}: {} blocks, {} edges, {} loops>",
                self.r.function,
                self.r.blocks.len(),
                self.r.edges.len(),
                self.r.loops.len()
            ))
        })
    }
}

/// The call graph of a module: direct calls, indirect calls resolved
/// through ``.calltargets`` or prototypes, recursion (``ptx callgraph``).
#[pyclass(frozen, module = "ptxkit")]
pub struct CallGraph {
    g: Cg,
}

impl CallGraph {
    /// Wrap a graph.
    pub fn new(g: Cg) -> CallGraph {
        CallGraph { g }
    }

    fn name(&self, k: usize) -> &str {
        self.g.nodes.get(k).map_or("?", |n| n.name.as_str())
    }
}

#[pymethods]
impl CallGraph {
    /// The functions: dicts with ``name``, ``kernel``, ``declaration``,
    /// ``address_taken`` and ``recursive``.
    #[getter]
    fn nodes(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        crate::errors::guard(|| to_py(py, &self.g.nodes))
    }

    /// The call edges: dicts with ``caller`` and ``callee`` (names),
    /// ``kind`` (``"direct"``/``"indirect"``), ``via`` (the prototype or
    /// ``.calltargets`` label of an indirect call), ``calls`` (how many
    /// call sites), ``lines`` and ``recursive``.
    #[getter]
    fn edges<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        crate::errors::guard(|| {
            let out = PyList::empty(py);
            for e in &self.g.edges {
                let d = PyDict::new(py);
                d.set_item("caller", self.name(e.from))?;
                d.set_item("callee", self.name(e.to))?;
                d.set_item("kind", to_py(py, &e.kind)?)?;
                d.set_item("via", e.via.as_deref())?;
                d.set_item("calls", e.calls)?;
                d.set_item("lines", e.lines.clone())?;
                d.set_item("recursive", e.recursive)?;
                out.append(d)?;
            }
            Ok(out)
        })
    }

    /// Names of the recursive functions.
    #[getter]
    fn recursive(&self) -> PyResult<Vec<String>> {
        crate::errors::guard(|| {
            Ok(self
                .g
                .nodes
                .iter()
                .filter(|n| n.recursive)
                .map(|n| n.name.clone())
                .collect())
        })
    }

    /// Indirect calls that could not be resolved: ``(caller, via, line)``.
    #[getter]
    fn unresolved(&self) -> PyResult<Vec<(String, Option<String>, u32)>> {
        crate::errors::guard(|| {
            Ok(self
                .g
                .unresolved
                .iter()
                .map(|u| (self.name(u.from).to_string(), u.via.clone(), u.line))
                .collect())
        })
    }

    /// Names of the functions ``name`` reaches through calls (itself
    /// excluded unless recursive).
    fn reachable(&self, name: Str) -> PyResult<Vec<String>> {
        crate::errors::guard(|| {
            let k = self.g.node(&name).ok_or_else(|| {
                pyo3::exceptions::PyValueError::new_err(format!("no function `{name}`"))
            })?;
            Ok(self
                .g
                .reachable(k)
                .into_iter()
                .map(|r| self.name(r).to_string())
                .collect())
        })
    }

    /// Graphviz DOT (``ptx callgraph --dot``).
    fn to_dot(&self) -> PyResult<String> {
        crate::errors::guard(|| Ok(ptxkit::analysis::dot::callgraph_dot(&self.g)))
    }

    /// Everything as a dict (``ptx callgraph --json``).
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        crate::errors::guard(|| to_py(py, &self.g))
    }

    /// A ``networkx.MultiDiGraph`` keyed by function name (node attributes
    /// as in ``nodes``, edge attributes as in ``edges``). Raises
    /// ``ImportError`` when networkx is not installed.
    fn to_networkx<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::errors::guard(|| {
            let nx = py.import("networkx")?;
            let g = nx.getattr("MultiDiGraph")?.call0()?;
            for n in &self.g.nodes {
                let kw = PyDict::new(py);
                kw.set_item("kernel", n.kernel)?;
                kw.set_item("declaration", n.declaration)?;
                kw.set_item("address_taken", n.address_taken)?;
                kw.set_item("recursive", n.recursive)?;
                g.call_method("add_node", (&n.name,), Some(&kw))?;
            }
            for e in &self.g.edges {
                let kw = PyDict::new(py);
                kw.set_item("kind", to_py(py, &e.kind)?)?;
                kw.set_item("via", e.via.as_deref())?;
                kw.set_item("calls", e.calls)?;
                g.call_method("add_edge", (self.name(e.from), self.name(e.to)), Some(&kw))?;
            }
            Ok(g)
        })
    }

    fn __repr__(&self) -> PyResult<String> {
        crate::errors::guard(|| {
            Ok(format!(
                "<CallGraph {} functions, {} edges>",
                self.g.nodes.len(),
                self.g.edges.len()
            ))
        })
    }
}
