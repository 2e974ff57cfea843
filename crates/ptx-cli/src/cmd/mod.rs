//! One module per subcommand.
//!
//! Each command's `run` is `#[inline(never)]`: kept out of `main`, only the
//! command that runs is mapped in, and the link layout
//! (`layout/hot-text.ld`) can place `check` apart from the others.

pub mod ast;
pub mod callgraph;
pub mod cfg;
pub mod check;
pub mod check_asm;
pub mod compat;
pub mod completions;
pub mod diff;
pub mod explain;
mod explain_code;
pub mod extract;
pub mod fmt;
pub mod functions;
pub mod grep;
pub mod lsp;
pub mod man;
pub mod resources;
// Parts of `resources` (not subcommands).
mod resources_bin;
mod resources_ptxas;
pub mod show;
pub mod stats;
pub mod summary;
