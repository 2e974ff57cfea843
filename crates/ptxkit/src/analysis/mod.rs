//! Analyses over the tree: constant evaluation, module summary.

pub mod consteval;
pub mod summary;
