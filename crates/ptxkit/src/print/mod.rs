//! Printers: lossless (byte for byte) and canonical (normalised layout).

pub(crate) mod canonical;
mod lossless;

pub use canonical::{
    canonical, canonical_function_lines, canonical_with_comments, expr_text, instruction_text,
    operand_text, stmt_text,
};
pub use lossless::{lossless, lossless_from};
