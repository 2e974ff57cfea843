//! Analyses over the tree: module summary, control
//! flow, dominators, loops, liveness, call graph, resources, statistics,
//! instruction search, module diff and catalog explanations (and their
//! text).

pub mod callgraph;
pub mod cfg;
/// Constant evaluation lives with the tree ([`crate::syntax::consteval`]); kept here for existing callers.
pub use crate::syntax::consteval;
pub mod diff;
pub mod diff_align;
pub mod dom;
pub mod dot;
pub mod explain;
pub mod explain_text;
pub mod facts;
pub mod flow;
pub mod functions;
pub mod grep;
pub mod header;
pub mod lineinfo;
pub mod liveness;
pub mod loops;
pub mod params;
pub mod regs;
pub mod resources;
pub mod stats;
pub mod summary;

/// A function's kind as the analyses' JSON writes it: `entry` (a kernel)
/// or `func` (the tree's own JSON writes the variant's name).
pub(crate) fn serialize_func_kind<S: serde::Serializer>(
    k: &crate::syntax::FuncKind,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_str(match k {
        crate::syntax::FuncKind::Entry => "entry",
        crate::syntax::FuncKind::Func => "func",
    })
}
