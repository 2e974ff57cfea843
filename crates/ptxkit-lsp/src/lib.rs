//! # ptxkit-lsp
//!
//! A language server for NVIDIA PTX built on ptxkit's tree, checker and
//! instruction catalog, speaking the Language Server Protocol through
//! `lsp-server` and `lsp-types` (the crates rust-analyzer is built on).
//! `ptx lsp` runs it on stdin/stdout.
//!
//! Each open document is parsed and checked on every change
//! ([`analysis`]); after an edit inside one function body only that
//! function is checked again, and the diagnostics of the others are kept,
//! moved to their new positions. The requests read the last analysis:
//! hover ([`hover`]), navigation ([`navigation`]), symbols ([`symbols`]),
//! completion ([`completion`]), signature help ([`signature`]), semantic
//! tokens ([`semantic_tokens`]), folding ([`folding`]), formatting
//! ([`formatting`]) and inlay hints ([`inlay_hints`]).
//!
//! CUDA C++ documents (`.cu`, `.cuh`, `.h`, `.hpp`, `.inl`; language ids
//! `cuda`, `cuda-cpp`) are served beside a C++ server such as clangd: the
//! diagnostics of their `asm` statements at the C++ range inside the
//! string ([`cpp`]), hover ([`asm_hover`]) and completion
//! ([`asm_completion`]) inside the template; the other requests answer
//! nothing for them.
// Lints: `[workspace.lints]` in the root Cargo.toml, but for arithmetic:
// positions and offsets are bounded by the document, which the library
// bounds to `u32` (`ptxkit::MAX_FILE_SIZE`).
#![allow(clippy::arithmetic_side_effects)]

pub mod analysis;
pub mod asm_completion;
pub mod asm_hover;
pub mod batch;
pub mod completion;
pub mod cpp;
pub mod diagnostics;
pub mod document;
pub mod folding;
pub mod formatting;
pub mod forms;
pub mod framing;
pub mod hover;
pub mod hover_diag;
mod hover_loc;
pub mod incremental;
pub mod index;
pub mod inlay_hints;
pub mod locate;
pub mod navigation;
pub mod semantic_tokens;
pub mod server;
pub mod signature;
pub mod symbols;

pub use server::{run_stdio, run_stdio_hosted, run_stdio_with, serve, serve_hosted, Config, Host};
