//! Analyses over the tree: constant evaluation, module summary, control
//! flow, dominators, loops, liveness, call graph, resources, statistics,
//! instruction search, module diff and catalog explanations.

pub mod callgraph;
pub mod cfg;
pub mod consteval;
pub mod diff;
pub mod dom;
pub mod dot;
pub mod explain;
pub mod flow;
pub mod functions;
pub mod grep;
pub mod liveness;
pub mod loops;
pub mod regs;
pub mod resources;
pub mod stats;
pub mod summary;
