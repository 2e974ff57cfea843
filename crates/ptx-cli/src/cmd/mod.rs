//! One module per subcommand.

pub mod ast;
pub mod callgraph;
pub mod cfg;
pub mod check;
pub mod diff;
pub mod explain;
pub mod fmt;
pub mod functions;
pub mod grep;
pub mod resources;
pub mod show;
pub mod stats;
pub mod summary;
