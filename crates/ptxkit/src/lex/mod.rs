//! Lexical analysis: bytes to tokens (spec chapter 4).

mod class;
#[cfg(test)]
mod differential_tests;
mod lexer;
#[cfg(test)]
mod reference;
mod scan;
mod token;

pub use class::is_follow;

/// The end of the run of whitespace (as the lexer skips it) at `from`.
#[inline]
pub(crate) fn space_end(src: &[u8], from: usize) -> usize {
    class::run(src, from, class::SPACE)
}

pub(crate) use lexer::{pack_token, unpack};
pub use lexer::{tokenize, Lexer};
pub use token::{Token, TokenKind};
