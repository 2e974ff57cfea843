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
pub(crate) use lexer::{pack_token, unpack};
pub use lexer::{tokenize, Lexer};
pub use token::{Token, TokenKind};
