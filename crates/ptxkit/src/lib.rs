//! # ptxkit
//!
//! A front end for NVIDIA PTX: a lexer that never fails, a one-pass parser
//! into a typed tree with spans, a checker that rejects what `ptxas`
//! rejects, analyses (control flow, calls, registers, resources), and
//! lossless and canonical printers, all driven by one instruction catalog
//! ([`isa`]).
//!
//! ## Start here: parse, check, analyse, print
//!
//! Everything starts from the bytes of a module. [`parse`] never fails: it
//! gives a [`Module`] (the tree, each node with its [`Span`]) and the syntax
//! errors as [`Diagnostic`]s.
//!
//! ```
//! let src = b".version 8.5\n.target sm_90\n.address_size 64\n\
//!     .visible .entry k(.param .u64 p) {\n\
//!     \t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n\
//!     \tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n\
//!     \tadd.u32 %r2, %r1, 1;\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n";
//! let parsed = ptxkit::parse(src);
//! assert!(parsed.diagnostics.is_empty());
//! let k = parsed.module.functions().next().unwrap();
//! assert_eq!((k.name.as_str(), k.is_kernel()), ("k", true));
//! ```
//!
//! [`check`] then verifies what ptxas verifies after parsing: names
//! declared before use, operand types and kinds, the `.version` and
//! `.target` each instruction needs, the module's rules.
//! [`check::check_source`] does both steps on source text, streaming it
//! statement by statement. Each diagnostic has a [`diag::Code`] from one
//! registry, with a title and an explanation (`ptx explain E0404`), and
//! renders with a code frame by [`diag::render`].
//!
//! ```
//! use ptxkit::diag::Code;
//!
//! let src = b".version 8.5\n.target sm_90\n.address_size 64\n\
//!     .visible .entry k() {\n\t.reg .b32 %r<2>;\n\tmov.u32 %r2, 1;\n\tret;\n}\n";
//! let diags = ptxkit::check::check_source(src, &Default::default());
//! assert_eq!(diags.len(), 1);
//! let d = &diags[0];
//! assert_eq!(d.code, Code::OutOfRange);
//! assert_eq!(d.code.as_str(), "E0404");
//! assert!(d.code.explanation().contains("```ptx"));
//! let lines = ptxkit::LineIndex::new(src);
//! let text = ptxkit::diag::render(d, "k.ptx", src, &lines);
//! assert!(text.starts_with("k.ptx:6:10: error: "));
//! ```
//!
//! The [`analysis`] modules read the tree: [`analysis::summary`] (what a
//! module declares), [`analysis::cfg`] and [`analysis::callgraph`],
//! [`analysis::liveness`] and [`analysis::resources`] (registers, shared and
//! local memory, barriers per function), [`analysis::stats`],
//! [`analysis::grep`], [`analysis::diff`], and [`analysis::explain`] (the
//! catalog's entry for an instruction).
//!
//! ```
//! # let src = b".version 8.5\n.target sm_90\n.address_size 64\n\
//! #     .visible .entry k(.param .u64 p) {\n\
//! #     \t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n\
//! #     \tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n\
//! #     \tadd.u32 %r2, %r1, 1;\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n";
//! use ptxkit::analysis::{cfg::Cfg, resources::resources, summary::summarize};
//!
//! let m = ptxkit::parse(src).module;
//! let lines = ptxkit::LineIndex::new(src);
//! assert_eq!(summarize(&m).functions[0].params.len(), 1);
//! let k = m.functions().next().unwrap();
//! assert_eq!(Cfg::build(k, &lines).blocks.len(), 1);
//! let r = &resources(&m, &lines, Some("k"))[0];
//! assert_eq!(r.param_bytes, 8);
//! assert_eq!(r.registers.used, 3); // %rd1, %r1 and %r2
//! ```
//!
//! Finally [`print`](mod@print) writes a tree back: [`print::lossless`] gives the
//! source byte for byte (and only re-prints what was edited),
//! [`print::canonical`] a normalised text that parses back to the same
//! tree.
//!
//! ```
//! let src = b".version 8.5\n.target sm_90\n.address_size 64\n\
//!     .visible .entry k() {  ret;  }\n";
//! let m = ptxkit::parse(src).module;
//! assert_eq!(ptxkit::print::lossless(&m, src), src.to_vec());
//! let text = ptxkit::print::canonical(&m);
//! assert_eq!(ptxkit::parse(text.as_bytes()).module, m);
//! ```
//!
//! Around these: [`binary`] finds the PTX inside CUDA binaries (fatbins,
//! ELF, PE), [`inline_asm`] checks the `asm` statements of CUDA C++
//! sources, [`json`] is the tree's JSON, [`lex`] the tokens, [`syntax`]
//! the tree's types, visitors and builders, and [`isa`] the catalog
//! itself.
//!
//! ## The tree in detail
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
// Lints: `[workspace.lints]` in the root Cargo.toml (no unwrap, expect,
// panic, indexing or unchecked arithmetic; every public item documented).

pub mod analysis;
pub mod binary;
pub mod check;
pub mod demangle;
pub mod diag;
mod file_at;
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
    parse, parse_body, parse_bounded, parse_in_pieces, parse_parallel, parse_parallel_bounded,
    parse_range, syntax_check, DataPiece, InitEvent, ItemStream, Parsed, Piece, PieceStream,
    LONG_INIT_BYTES, MAX_DEPTH, MAX_FILE_SIZE, MAX_REGISTER_RANGE,
};
pub use syntax::{Instruction, Item, Module, Name, Operand, Stmt};
