//! Lexical analysis: bytes to tokens (spec chapter 4).

mod lexer;
mod token;

pub use lexer::{is_follow, tokenize, Lexer};
pub use token::{Token, TokenKind};
