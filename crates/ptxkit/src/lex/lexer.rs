//! The lexer: a byte scanner that cannot fail.
//!
//! It streams tokens on demand (no token vector is built) so that memory stays
//! proportional to the tree, not to the token count. Malformed input becomes
//! error tokens ([`TokenKind::is_error`]) that the parser turns into
//! diagnostics.
//!
//! The common tokens (identifiers, plain dot words, short decimal integers,
//! one-byte punctuation, whitespace) are lexed by a small fast path here;
//! everything else goes to the general scanner in `scan.rs`, which lexes
//! every token the same way.

use super::class::{
    is_follow, is_follow_letter, punct_kind, run, start_of, Start, DIGIT, FOLLOW, SPACE,
};
use super::token::{Token, TokenKind};
use crate::source::Span;

/// A streaming lexer over a byte slice.
#[derive(Clone)]
pub struct Lexer<'s> {
    pub(super) src: &'s [u8],
    pub(super) pos: usize,
}

/// A token as two integers, kind and span packed by [`pack`]: small enough
/// to be returned in two registers, where a [`Token`] is returned through
/// memory (and read back right away, which stalls).
pub(crate) type PackedToken = (TokenKind, u64);

/// A span packed into one integer (`start | end << 32`).
#[inline(always)]
fn pack(start: usize, end: usize) -> u64 {
    u64::from(start as u32) | u64::from(end as u32) << 32
}

/// The token that `t` packs.
#[inline(always)]
pub(crate) fn unpack((kind, span): PackedToken) -> Token {
    Token {
        kind,
        span: Span::new(span as u32, (span >> 32) as u32),
    }
}

/// `t` packed.
#[inline(always)]
pub(crate) fn pack_token(t: Token) -> PackedToken {
    (
        t.kind,
        u64::from(t.span.start) | u64::from(t.span.end) << 32,
    )
}

/// Byte `at` of `src`, or 0 past the end.
#[inline(always)]
fn byte_at(src: &[u8], at: usize) -> u8 {
    src.get(at).copied().unwrap_or(0)
}

/// The common token that starts with `b` at `p` (`src[p] == b`): its kind
/// and end, or `None` for whitespace and for tokens left to [`Lexer::scan`].
/// Each case gives exactly what `scan` gives.
#[inline(always)]
fn fast(src: &[u8], p: usize, b: u8) -> Option<(TokenKind, usize)> {
    // `p < src.len()`, so `p + 1` does not overflow; nor does `p + 2` where
    // byte `p + 1` exists.
    let p1 = p.wrapping_add(1);
    // Tests in order of frequency rather than a jump table: each test is
    // a branch of its own that the predictor learns from the tokens'
    // order, where one indirect jump per token is often mispredicted.
    let s = start_of(b);
    if s.is(Start::Letter as u8 | Start::Sigil as u8) {
        // A sigil starts an identifier only when an identifier byte follows.
        let q = run(src, p1, FOLLOW);
        return (s == Start::Letter || q != p1).then_some((TokenKind::Ident, q));
    }
    if s.is(Start::Punct as u8) {
        return Some((punct_kind(b), p1));
    }
    if s.is(Start::Dot as u8) {
        if !is_follow_letter(byte_at(src, p1)) {
            return None;
        }
        // A dot word without `::` parts (`.u32`, `.global`).
        let q = run(src, p.wrapping_add(2), FOLLOW);
        return (byte_at(src, q) != b':').then_some((TokenKind::DotWord, q));
    }
    if s.is(Start::Digit as u8) {
        // A plain decimal (no leading zero, nothing glued).
        let q = run(src, p1, DIGIT);
        let c = byte_at(src, q);
        return ((b != b'0' || q == p1) && !is_follow(c) && c != b'.')
            .then_some((TokenKind::Int, q));
    }
    None
}

/// [`fast`] for the token at `p`, if any.
#[inline(always)]
fn fast_at(src: &[u8], p: usize) -> Option<(TokenKind, usize)> {
    fast(src, p, *src.get(p)?)
}

impl<'s> Lexer<'s> {
    /// A lexer at the start of `src`. The caller guarantees `src.len() < u32::MAX`.
    pub fn new(src: &'s [u8]) -> Lexer<'s> {
        Lexer { src, pos: 0 }
    }

    /// A lexer starting at byte `pos` of `src`.
    pub fn at(src: &'s [u8], pos: usize) -> Lexer<'s> {
        Lexer {
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
    pub(super) fn byte(&self, at: usize) -> u8 {
        byte_at(self.src, at)
    }

    #[inline]
    pub(super) fn more(&self, at: usize) -> bool {
        at < self.src.len()
    }

    /// The next token that is not trivia.
    #[inline]
    pub fn next_significant(&mut self) -> Token {
        unpack(self.next_significant_packed())
    }

    /// [`Lexer::next_significant`], packed. Only the fast path is here, so
    /// that the function needs few registers.
    #[inline(never)]
    pub(crate) fn next_significant_packed(&mut self) -> PackedToken {
        let src = self.src;
        // Whitespace runs are short (mostly none, one space or a line break
        // and a tab): a plain loop beats the 8-byte chunks of `run` here.
        let mut p = self.pos;
        let b = loop {
            match src.get(p) {
                Some(&b) if start_of(b) == Start::Space => p = p.wrapping_add(1),
                Some(&b) => break b,
                None => {
                    self.pos = src.len();
                    return (TokenKind::Eof, pack(src.len(), src.len()));
                }
            }
        };
        match fast(src, p, b) {
            Some((kind, end)) => {
                self.pos = end;
                (kind, pack(p, end))
            }
            None => self.significant_slow(p),
        }
    }

    /// [`Lexer::next_significant_packed`] for a token the fast path leaves to
    /// [`Lexer::scan`], starting at `p` (not whitespace).
    #[cold]
    #[inline(never)]
    fn significant_slow(&mut self, mut p: usize) -> PackedToken {
        loop {
            self.pos = p;
            let kind = self.scan();
            if !kind.is_trivia() {
                return (kind, pack(p, self.pos));
            }
            // After a comment, the next token is usually a common one.
            p = run(self.src, self.pos, SPACE);
            if let Some((kind, end)) = fast_at(self.src, p) {
                self.pos = end;
                return (kind, pack(p, end));
            }
        }
    }

    /// The next token, trivia included. Returns [`TokenKind::Eof`] forever at the end.
    #[inline]
    pub fn next_token(&mut self) -> Token {
        let src = self.src;
        let start = self.pos;
        let (kind, end) = match src.get(start) {
            Some(&b) => match fast_at(src, start) {
                Some(k) => k,
                None if start_of(b) == Start::Space => (
                    TokenKind::Whitespace,
                    run(src, start.wrapping_add(1), SPACE),
                ),
                None => (self.scan(), self.pos),
            },
            None => (TokenKind::Eof, start),
        };
        debug_assert!(end > start || kind == TokenKind::Eof);
        self.pos = end;
        Token {
            kind,
            span: Span::new(start as u32, end as u32),
        }
    }
}

/// Lex all of `src`, trivia included (for tests and tools; the parser streams).
pub fn tokenize(src: &[u8]) -> Vec<Token> {
    let mut lx = Lexer::new(src);
    let mut out = Vec::new();
    loop {
        let t = lx.next_token();
        if t.kind == TokenKind::Eof {
            return out;
        }
        out.push(t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TokenKind::*;

    fn kinds(s: &str) -> Vec<(TokenKind, String)> {
        tokenize(s.as_bytes())
            .into_iter()
            .filter(|t| t.kind != Whitespace)
            .map(|t| (t.kind, t.span.text(s.as_bytes()).into_owned()))
            .collect()
    }

    #[test]
    fn identifiers_and_dot_words() {
        let k = kinds("ld.global.L2::cache_hint.v4.u32 %r1, [$L__x+8]; _ %tid.x .1d");
        let got: Vec<_> = k.iter().map(|(k, s)| format!("{k:?}:{s}")).collect();
        assert_eq!(
            got,
            [
                "Ident:ld",
                "DotWord:.global",
                "DotWord:.L2::cache_hint",
                "DotWord:.v4",
                "DotWord:.u32",
                "Ident:%r1",
                "Comma:,",
                "LBracket:[",
                "Ident:$L__x",
                "Plus:+",
                "Int:8",
                "RBracket:]",
                "Semi:;",
                "Ident:_",
                "Ident:%tid",
                "DotWord:.x",
                "DotWord:.1d"
            ]
        );
        assert_eq!(
            kinds(".sp::2:4 .x:")
                .into_iter()
                .map(|k| k.1)
                .collect::<Vec<_>>(),
            [".sp::2:4", ".x", ":"]
        );
    }

    #[test]
    fn numbers() {
        for (s, k) in [
            ("0x1F", Int),
            ("0x1FU", Int),
            ("017", Int),
            ("0b101", Int),
            ("42U", Int),
            ("1.5", Float),
            ("1.", Float),
            (".5", Float),
            ("1e3", Float),
            ("1.5e-3", Float),
            ("0f3F800000", Float),
            ("0d3FF0000000000000", Float),
            ("0f3F80", BadNumber),
            ("0x", BadNumber),
            ("12abc", BadNumber),
            ("09", BadNumber),
            ("0", Int),
        ] {
            assert_eq!(kinds(s), vec![(k, s.to_string())], "{s}");
        }
    }

    #[test]
    fn never_fails_and_covers_input() {
        let inputs: [&[u8]; 5] = [
            b"/* unterminated",
            b"\"abc\n",
            b"\xff\xfe\x00 x",
            b"%",
            b"$",
        ];
        for src in inputs {
            let toks = tokenize(src);
            let mut pos = 0;
            for t in &toks {
                assert_eq!(t.span.start as usize, pos);
                pos = t.span.end as usize;
            }
            assert_eq!(pos, src.len());
        }
        assert_eq!(
            tokenize(b"/* x").first().map(|t| t.kind),
            Some(UnterminatedComment)
        );
        assert_eq!(tokenize(b"\xff\xfe\x00").len(), 1);
    }

    #[test]
    fn operators() {
        let k: Vec<_> = kinds("<< >> <= >= == != && || ! ~ ? : @ =")
            .into_iter()
            .map(|x| x.0)
            .collect();
        assert_eq!(
            k,
            [Shl, Shr, Le, Ge, EqEq, Ne, AmpAmp, PipePipe, Bang, Tilde, Question, Colon, At, Eq]
        );
    }
}
