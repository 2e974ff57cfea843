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
pub fn functions(m: &Module, lines: &LineIndex, cg: &CallGraph) -> Vec<FunctionInfo> {
    m.functions().map(|f| function_info(f, lines, cg)).collect()
}

/// Describe one function.
pub fn function_info(f: &Function, lines: &LineIndex, cg: &CallGraph) -> FunctionInfo {
    let node = cg.node(f.name.as_str());
    let mut calls: Vec<CallInfo> = Vec::new();
    if f.body.is_some() {
        for e in node.map(|u| cg.edges_from(u)).unwrap_or_default() {
            let (callee, callee_demangled) = cg
                .nodes
                .get(e.to)
                .map(|n| (n.name.clone(), n.demangled.clone()))
                .unwrap_or_default();
            match calls
                .iter_mut()
                .find(|c| c.callee == callee && c.kind == e.kind)
            {
                Some(c) => c.calls = c.calls.saturating_add(e.calls),
                None => calls.push(CallInfo {
                    callee,
                    callee_demangled,
                    kind: e.kind,
                    calls: e.calls,
                }),
            }
        }
    }
    FunctionInfo {
        header: FunctionHeader::of(f),
        line: lines.line_col(f.span.start).line,
        calls,
        unresolved_calls: if f.body.is_some() {
            cg.unresolved
                .iter()
                .filter(|u| Some(u.from) == node)
                .count()
        } else {
            0
        },
        recursive: f.body.is_some()
            && node
                .and_then(|n| cg.nodes.get(n))
                .is_some_and(|n| n.recursive),
    }
}
