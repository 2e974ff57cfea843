//! Analyses over the tree: constant evaluation, module summary, control
//! flow, dominators, loops, liveness, call graph, resources, statistics,
//! instruction search, module diff and catalog explanations.

pub mod cfg;
pub mod consteval;
pub mod dom;
pub mod liveness;
pub mod loops;
pub mod regs;
pub mod summary;
