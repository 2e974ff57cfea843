//! Printers: lossless (byte for byte) and canonical (normalised layout).

pub(crate) mod canonical;
mod lossless;

pub use canonical::{canonical, expr_text, instruction_text};
pub use lossless::lossless;
