//! Kernels and functions of a module: signature, directives, size, calls.

use serde::Serialize;

use super::callgraph::{CallGraph, CallKind};
pub use super::header::FunctionHeader;
pub use super::params::directive_text;
use crate::source::LineIndex;
use crate::syntax::{Function, Module};

/// One call made by a function.
#[derive(Clone, Debug, Serialize)]
pub struct CallInfo {
    /// The callee.
    pub callee: String,
    /// The callee's readable C++ name when its name is mangled.
    pub callee_demangled: Option<String>,
    /// Direct or indirect.
    pub kind: CallKind,
    /// Number of call instructions.
    pub calls: usize,
}

/// A kernel or function: its [`FunctionHeader`] (flattened into the same
/// JSON object), where it starts, and whom it calls.
#[derive(Clone, Debug, Serialize)]
pub struct FunctionInfo {
    /// Name, kind, linkage, signature, directives and instruction count.
    #[serde(flatten)]
    pub header: FunctionHeader,
    /// Source line of the header.
    pub line: u32,
    /// Calls made, in the order the callees first appear.
    pub calls: Vec<CallInfo>,
    /// Indirect calls whose targets are unknown.
    pub unresolved_calls: usize,
    /// Whether it may call itself.
    pub recursive: bool,
}

impl std::ops::Deref for FunctionInfo {
    type Target = FunctionHeader;
    fn deref(&self) -> &FunctionHeader {
        &self.header
    }
}

/// Describe every function of `m` (declarations included), in module order.
/// Linear in the module: the unresolved calls are counted per caller once,
/// not searched for each function.
pub fn functions(m: &Module, lines: &LineIndex, cg: &CallGraph) -> Vec<FunctionInfo> {
    let mut unresolved = vec![0usize; cg.nodes.len()];
    for u in &cg.unresolved {
        if let Some(n) = unresolved.get_mut(u.from) {
            *n = n.saturating_add(1);
        }
    }
    m.functions()
        .map(|f| {
            let node = cg.node(f.name.as_str());
            let n = node.and_then(|u| unresolved.get(u)).copied().unwrap_or(0);
            info(f, lines, cg, node, n)
        })
        .collect()
}

/// Describe one function.
pub fn function_info(f: &Function, lines: &LineIndex, cg: &CallGraph) -> FunctionInfo {
    let node = cg.node(f.name.as_str());
    let unresolved = cg
        .unresolved
        .iter()
        .filter(|u| Some(u.from) == node)
        .count();
    info(f, lines, cg, node, unresolved)
}

/// [`function_info`] of `f`, its node of `cg` and its number of unresolved
/// indirect calls.
fn info(
    f: &Function,
    lines: &LineIndex,
    cg: &CallGraph,
    node: Option<usize>,
    unresolved: usize,
) -> FunctionInfo {
    let mut calls: Vec<CallInfo> = Vec::new();
    if f.body.is_some() {
        // Calls to one callee of one kind are one entry, found by name (a
        // search of the list for each edge was quadratic: a kernel calling
        // 50,000 functions took 2 s).
        let mut at: rustc_hash::FxHashMap<(&str, CallKind), usize> = Default::default();
        for e in node.map(|u| cg.edges_from(u)).unwrap_or_default() {
            let Some(callee) = cg.nodes.get(e.to) else {
                continue;
            };
            match at
                .get(&(callee.name.as_str(), e.kind))
                .and_then(|&i| calls.get_mut(i))
            {
                Some(c) => c.calls = c.calls.saturating_add(e.calls),
                None => {
                    at.insert((callee.name.as_str(), e.kind), calls.len());
                    calls.push(CallInfo {
                        callee: callee.name.clone(),
                        callee_demangled: callee.demangled.clone(),
                        kind: e.kind,
                        calls: e.calls,
                    });
                }
            }
        }
    }
    FunctionInfo {
        header: FunctionHeader::of(f),
        line: lines.line_col(f.span.start).line,
        calls,
        unresolved_calls: if f.body.is_some() { unresolved } else { 0 },
        recursive: f.body.is_some()
            && node
                .and_then(|n| cg.nodes.get(n))
                .is_some_and(|n| n.recursive),
    }
}
