//! # ptxkit
//!
//! A front end for NVIDIA PTX: a lexer that never fails, a one-pass parser
//! into a typed tree with spans, lossless and canonical printers, and an
//! instruction catalog ([`isa`]) that drives them.
//!
//! ```
//! let src = ".version 8.0\n.target sm_90\n.address_size 64\n\
//!            .visible .entry k(.param .u64 p) {\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [p];\n  ret;\n}\n";
//! let parsed = ptxkit::parse(src.as_bytes());
//! assert!(parsed.diagnostics.is_empty());
//! let k = parsed.module.functions().next().unwrap();
//! assert_eq!(k.name.as_str(), "k");
//! let body = k.body.as_ref().unwrap();
//! let ld = body.instructions()[0];
//! assert_eq!(ld.name(), "ld");
//! assert_eq!(ld.group("ss").map(|m| m.as_str()), Some(".param"));
//! // Canonical printing gives back an equal tree.
//! let text = ptxkit::print::canonical(&parsed.module);
//! assert_eq!(ptxkit::parse(text.as_bytes()).module, parsed.module);
//! ```
//!
//! ## Names
//!
//! Which declaration a name refers to is decided by one resolver,
//! [`syntax::scope`], by ptxas's rules (block scoping, labels seen in their
//! whole block, `%r<N>` ranges with ptxas's reading of their indices). The
//! checker ([`check`]), the register analyses ([`analysis::regs`]) and the
//! language server all look names up through it.
//!
//! ```
//! use ptxkit::syntax::scope::Scope;
//! use ptxkit::{Name, Span};
//!
//! let mut s: Scope<&str> = Scope::default();
//! let _ = s.declare_range(Name::new("%r"), 4, Span::new(0, 0), "%r<4>");
//! assert_eq!(s.find(Name::new("%r01")), Some("%r<4>")); // leading zeros count
//! assert_eq!(s.find(Name::new("%r4")), None);
//! ```
//!
//! ## Editing
//!
//! Trees are plain data: change them directly or with the visitors
//! ([`syntax::visit::Visit`], [`syntax::visit_mut::VisitMut`]), make new nodes
//! with [`syntax::build`], and print them back. The lossless printer keeps
//! the source's text for what was not edited and prints the rest
//! canonically (see `docs/editing.md`).
//!
//! ```
//! use ptxkit::syntax::{build, Stmt};
//! use ptxkit::Item;
//!
//! let src = b".version 8.0\n.target sm_90\n.entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, 1; // one\n\tret;\n}\n";
//! let mut m = ptxkit::parse(src).module;
//! let Some(Item::Function(k)) = m.items.last_mut() else { unreachable!() };
//! let body = &mut k.body.as_mut().unwrap().stmts;
//! // Double %r1 after the `mov`, and drop the `ret`... then put it back.
//! let add = build::instruction("add.s32 %r2, %r1, %r1").unwrap();
//! body.insert(2, Stmt::Instruction(add));
//! let ret = body.pop().unwrap();
//! body.push(ret);
//! let out = ptxkit::print::lossless(&m, src);
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     ".version 8.0\n.target sm_90\n.entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, 1; // one\n\tadd.s32\t%r2, %r1, %r1;\n\tret;\n}\n"
//! );
//! ```
#![deny(missing_docs)]
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

pub mod analysis;
pub mod binary;
pub mod check;
pub mod demangle;
pub mod diag;
pub mod inline_asm;
pub mod isa;
pub mod json;
pub mod lex;
pub mod print;
pub mod sniff;
pub mod source;
pub mod suggest;
pub mod syntax;
#[cfg(test)]
mod test_corpus;

pub use demangle::demangle;
pub use diag::{Diagnostic, Severity};
pub use source::{LineIndex, Span};
pub use syntax::parser::{
    parse, parse_body, parse_in_pieces, parse_parallel, parse_range, syntax_check, ItemStream,
    Parsed, Piece, PieceStream, MAX_DEPTH, MAX_FILE_SIZE, MAX_REGISTER_RANGE,
};
pub use syntax::{Instruction, Item, Module, Name, Operand, Stmt};
