//! # ptxkit
//!
//! A front end for NVIDIA PTX: lexer, parser into a typed tree with spans,
//! lossless and canonical printers, and an instruction catalog that drives them.
//!
//! ```
//! let src = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n";
//! let parsed = ptxkit::parse(src.as_bytes());
//! assert!(parsed.diagnostics.is_empty());
//! assert_eq!(parsed.module.functions().count(), 1);
//! ```
#![deny(missing_docs)]
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

pub mod lex;
pub mod source;
pub mod isa;
