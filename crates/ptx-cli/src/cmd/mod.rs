//! One module per subcommand.

pub mod ast;
pub mod check;
pub mod fmt;
pub mod summary;
