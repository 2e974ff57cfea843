//! The lexer as it was before the fast path (commit d0e7863), kept verbatim
//! for tests only: the differential tests check that the fast lexer yields
//! exactly the same tokens and spans. Do not optimise this file.
#![allow(dead_code, missing_docs)]

use super::token::{Token, TokenKind};
use crate::source::Span;

const FOLLOW: u8 = 1;
const SPACE: u8 = 2;

/// Byte classes: bit `FOLLOW` for identifier characters, `SPACE` for whitespace.
/// Indexed by a `u8`, so every index is in bounds.
#[allow(clippy::indexing_slicing)]
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'$' {
            t[i] = FOLLOW;
        }
        if matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c) {
            t[i] = SPACE;
        }
        i += 1;
    }
    t
};

/// Whether `b` may continue an identifier (`followsym` in the ISA).
#[inline(always)]
#[allow(clippy::indexing_slicing)] // a u8 index into a 256-entry table
pub fn is_follow(b: u8) -> bool {
    CLASS[b as usize] & FOLLOW != 0
}

#[inline(always)]
#[allow(clippy::indexing_slicing)] // a u8 index into a 256-entry table
fn is_space(b: u8) -> bool {
    CLASS[b as usize] & SPACE != 0
}

/// Index of the first byte at or after `from` for which `pred` is false.
#[inline(always)]
fn run_end(src: &[u8], from: usize, pred: impl Fn(u8) -> bool) -> usize {
    match src.get(from..) {
        Some(rest) => {
            from.saturating_add(rest.iter().position(|&b| !pred(b)).unwrap_or(rest.len()))
        }
        None => src.len(),
    }
}

/// A streaming lexer over a byte slice.
#[derive(Clone)]
pub struct RefLexer<'s> {
    src: &'s [u8],
    pos: usize,
}

impl<'s> RefLexer<'s> {
    /// A lexer at the start of `src`. The caller guarantees `src.len() < u32::MAX`.
    pub fn new(src: &'s [u8]) -> RefLexer<'s> {
        RefLexer { src, pos: 0 }
    }

    /// A lexer starting at byte `pos` of `src`.
    pub fn at(src: &'s [u8], pos: usize) -> RefLexer<'s> {
        RefLexer {
            src,
            pos: pos.min(src.len()),
        }
    }

    /// Current byte offset.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    #[inline]
    fn byte(&self, at: usize) -> u8 {
        self.src.get(at).copied().unwrap_or(0)
    }

    #[inline]
    fn more(&self, at: usize) -> bool {
        at < self.src.len()
    }

    /// The next token that is not trivia.
    #[inline(never)]
    pub fn next_significant(&mut self) -> Token {
        loop {
            // Skip plain whitespace without building a token.
            let start = run_end(self.src, self.pos, is_space);
            self.pos = start;
            let kind = self.scan();
            if !kind.is_trivia() {
                return Token {
                    kind,
                    span: Span::new(start as u32, self.pos as u32),
                };
            }
        }
    }

    /// The next token, trivia included. Returns [`TokenKind::Eof`] forever at the end.
    pub fn next_token(&mut self) -> Token {
        let start = self.pos;
        let kind = self.scan();
        debug_assert!(self.pos > start || kind == TokenKind::Eof);
        Token {
            kind,
            span: Span::new(start as u32, self.pos as u32),
        }
    }

    #[inline(always)]
    fn scan(&mut self) -> TokenKind {
        use TokenKind::*;
        let src = self.src;
        let p = self.pos;
        let Some(&b) = src.get(p) else {
            return Eof;
        };
        let b1 = self.byte(p.saturating_add(1));
        match b {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => {
                self.pos = run_end(src, p.saturating_add(1), is_space);
                Whitespace
            }
            b'/' if b1 == b'/' => {
                let rest = src.get(p..).unwrap_or_default();
                self.pos = p.saturating_add(memchr::memchr(b'\n', rest).unwrap_or(rest.len()));
                LineComment
            }
            b'/' if b1 == b'*' => {
                let rest = src.get(p.saturating_add(2)..).unwrap_or_default();
                match memchr::memmem::find(rest, b"*/") {
                    Some(i) => {
                        self.pos = p.saturating_add(i).saturating_add(4);
                        BlockComment
                    }
                    None => {
                        self.pos = src.len();
                        UnterminatedComment
                    }
                }
            }
            b'a'..=b'z' | b'A'..=b'Z' => {
                self.pos = self.follow_run(p.saturating_add(1));
                Ident
            }
            b'_' | b'$' | b'%' => {
                if is_follow(b1) {
                    self.pos = self.follow_run(p.saturating_add(1));
                    Ident
                } else if b == b'_' {
                    // The sink operand `_`.
                    self.pos = p.saturating_add(1);
                    Ident
                } else if b == b'%' {
                    self.pos = p.saturating_add(1);
                    Percent
                } else {
                    self.pos = p.saturating_add(1);
                    Unknown
                }
            }
            // Fast path: a dot word without `::` parts (`.u32`, `.global`).
            b'.' if is_follow_letter(b1) => {
                let q = self.follow_run(p.saturating_add(2));
                if self.byte(q) == b':' {
                    self.scan_dot(p)
                } else {
                    self.pos = q;
                    DotWord
                }
            }
            b'.' => self.scan_dot(p),
            b'0'..=b'9' => {
                // Fast path: a plain decimal (no leading zero, nothing glued).
                let q = run_end(src, p.saturating_add(1), |c| c.is_ascii_digit());
                let c = self.byte(q);
                if (b != b'0' || q == p.saturating_add(1)) && !is_follow(c) && c != b'.' {
                    self.pos = q;
                    Int
                } else {
                    self.scan_number(p)
                }
            }
            b'"' => {
                let mut q = p.saturating_add(1);
                while self.more(q) {
                    match self.byte(q) {
                        b'"' => {
                            self.pos = q.saturating_add(1);
                            return Str;
                        }
                        // As in ptxas, a string runs to the next `"`,
                        // over line ends, without escapes.
                        _ => q = q.saturating_add(1),
                    }
                }
                self.pos = q.min(src.len());
                UnterminatedStr
            }
            _ => {
                let (kind, len) = match (b, b1) {
                    (b'<', b'<') => (Shl, 2),
                    (b'>', b'>') => (Shr, 2),
                    (b'<', b'=') => (Le, 2),
                    (b'>', b'=') => (Ge, 2),
                    (b'=', b'=') => (EqEq, 2),
                    (b'!', b'=') => (Ne, 2),
                    (b'&', b'&') => (AmpAmp, 2),
                    (b'|', b'|') => (PipePipe, 2),
                    (b',', _) => (Comma, 1),
                    (b';', _) => (Semi, 1),
                    (b':', _) => (Colon, 1),
                    (b'{', _) => (LBrace, 1),
                    (b'}', _) => (RBrace, 1),
                    (b'[', _) => (LBracket, 1),
                    (b']', _) => (RBracket, 1),
                    (b'(', _) => (LParen, 1),
                    (b')', _) => (RParen, 1),
                    (b'<', _) => (Lt, 1),
                    (b'>', _) => (Gt, 1),
                    (b'+', _) => (Plus, 1),
                    (b'-', _) => (Minus, 1),
                    (b'*', _) => (Star, 1),
                    (b'/', _) => (Slash, 1),
                    (b'!', _) => (Bang, 1),
                    (b'~', _) => (Tilde, 1),
                    (b'&', _) => (Amp, 1),
                    (b'|', _) => (Pipe, 1),
                    (b'^', _) => (Caret, 1),
                    (b'@', _) => (At, 1),
                    (b'=', _) => (Eq, 1),
                    (b'?', _) => (Question, 1),
                    _ => {
                        // One unknown token per run of bytes that start nothing,
                        // so a binary blob yields one error, not thousands.
                        let mut q = p.saturating_add(1);
                        while self.more(q) && !starts_token(self.byte(q)) {
                            q = q.saturating_add(1);
                        }
                        self.pos = q;
                        return Unknown;
                    }
                };
                self.pos = p.saturating_add(len);
                kind
            }
        }
    }

    #[inline(always)]
    fn follow_run(&self, q: usize) -> usize {
        run_end(self.src, q, is_follow)
    }

    /// `.word`, `.word::sub::sub`, `.1d`, or a float such as `.5`.
    fn scan_dot(&mut self, p: usize) -> TokenKind {
        let b1 = self.byte(p.saturating_add(1));
        if b1.is_ascii_digit() {
            let mut q = p.saturating_add(1);
            while self.byte(q).is_ascii_digit() && self.more(q) {
                q = q.saturating_add(1);
            }
            let c = self.byte(q);
            let exp = matches!(c, b'e' | b'E')
                && (self.byte(q.saturating_add(1)).is_ascii_digit()
                    || (matches!(self.byte(q.saturating_add(1)), b'+' | b'-')
                        && self.byte(q.saturating_add(2)).is_ascii_digit()));
            if exp {
                self.pos = p;
                return self.scan_decimal(p);
            }
            if !is_follow(c) {
                self.pos = q;
                return TokenKind::Float;
            }
        } else if !is_follow(b1) {
            self.pos = p.saturating_add(1);
            return TokenKind::Dot;
        }
        let mut q = self.follow_run(p.saturating_add(1));
        while self.byte(q) == b':'
            && self.byte(q.saturating_add(1)) == b':'
            && is_follow(self.byte(q.saturating_add(2)))
        {
            q = self.follow_run(q.saturating_add(2));
        }
        // Ratios such as `.sp::2:4` (spcompress).
        while self.byte(q) == b':'
            && self.byte(q.saturating_add(1)).is_ascii_digit()
            && self.byte(q.saturating_sub(1)).is_ascii_digit()
        {
            q = self.follow_run(q.saturating_add(1));
        }
        self.pos = q;
        TokenKind::DotWord
    }

    fn scan_number(&mut self, p: usize) -> TokenKind {
        let b1 = self.byte(p.saturating_add(1));
        let kind = if self.byte(p) == b'0' && matches!(b1, b'x' | b'X') {
            let q = self.hex_run(p.saturating_add(2));
            if q == p.saturating_add(2) {
                self.pos = q;
                TokenKind::BadNumber
            } else {
                self.pos = if self.byte(q) == b'U' {
                    q.saturating_add(1)
                } else {
                    q
                };
                TokenKind::Int
            }
        } else if self.byte(p) == b'0'
            && matches!(b1, b'b' | b'B')
            && matches!(self.byte(p.saturating_add(2)), b'0' | b'1')
        {
            let mut q = p.saturating_add(2);
            while matches!(self.byte(q), b'0' | b'1') && self.more(q) {
                q = q.saturating_add(1);
            }
            self.pos = if self.byte(q) == b'U' {
                q.saturating_add(1)
            } else {
                q
            };
            TokenKind::Int
        } else if self.byte(p) == b'0' && matches!(b1, b'f' | b'F' | b'd' | b'D') {
            let want = if matches!(b1, b'f' | b'F') { 8 } else { 16 };
            let q = self.hex_run(p.saturating_add(2));
            self.pos = q;
            if q.saturating_sub(p.saturating_add(2)) == want {
                TokenKind::Float
            } else {
                TokenKind::BadNumber
            }
        } else {
            self.scan_decimal(p)
        };
        // A number glued to identifier characters (`12abc`, `0f3f80`) is malformed.
        if is_follow(self.byte(self.pos)) && self.more(self.pos) {
            self.pos = self.follow_run(self.pos);
            return TokenKind::BadNumber;
        }
        kind
    }

    /// Decimal integer or float starting at `p` (a digit or `.`).
    fn scan_decimal(&mut self, p: usize) -> TokenKind {
        let mut q = p;
        while self.byte(q).is_ascii_digit() && self.more(q) {
            q = q.saturating_add(1);
        }
        let mut float = false;
        if self.byte(q) == b'.' && !is_follow_letter(self.byte(q.saturating_add(1))) {
            float = true;
            q = q.saturating_add(1);
            while self.byte(q).is_ascii_digit() && self.more(q) {
                q = q.saturating_add(1);
            }
        }
        if matches!(self.byte(q), b'e' | b'E') {
            let mut r = q.saturating_add(1);
            if matches!(self.byte(r), b'+' | b'-') {
                r = r.saturating_add(1);
            }
            if self.byte(r).is_ascii_digit() {
                float = true;
                q = r;
                while self.byte(q).is_ascii_digit() && self.more(q) {
                    q = q.saturating_add(1);
                }
            }
        }
        if float {
            self.pos = q;
            return TokenKind::Float;
        }
        // Octal literals must not contain 8 or 9.
        let digits = self.src.get(p..q).unwrap_or_default();
        let bad_octal =
            digits.len() > 1 && digits.first() == Some(&b'0') && digits.iter().any(|&d| d > b'7');
        self.pos = if self.byte(q) == b'U' {
            q.saturating_add(1)
        } else {
            q
        };
        if bad_octal {
            TokenKind::BadNumber
        } else {
            TokenKind::Int
        }
    }

    fn hex_run(&self, mut q: usize) -> usize {
        while self.byte(q).is_ascii_hexdigit() && self.more(q) {
            q = q.saturating_add(1);
        }
        q
    }
}

/// A letter (or `_`/`$`) that would make `1.x` a number followed by a word.
#[inline]
fn is_follow_letter(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

fn starts_token(b: u8) -> bool {
    b.is_ascii_graphic() || b.is_ascii_whitespace()
}

/// Lex all of `src`, trivia included (for tests and tools; the parser streams).
pub fn tokenize(src: &[u8]) -> Vec<Token> {
    let mut lx = RefLexer::new(src);
    let mut out = Vec::new();
    loop {
        let t = lx.next_token();
        if t.kind == TokenKind::Eof {
            return out;
        }
        out.push(t);
    }
}
