//! The syntax tree and the parser that builds it.
//!
//! Every node carries a [`Span`](crate::source::Span); equality ignores spans
//! (see [`Span`](crate::source::Span)), so trees compare by content.

mod decl;
mod expr;
mod inst;
mod module;
mod name;
pub(crate) mod parser;

pub use decl::*;
pub use expr::*;
pub use inst::*;
pub use module::*;
pub use name::Name;
