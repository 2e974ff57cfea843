//! Byte classes for the lexer, and the runs of bytes of one class.
//!
//! Every table is indexed by a `u8`, so every lookup is in bounds.

use super::token::TokenKind;

/// Bit in [`CLASS`]: may continue an identifier (`followsym`).
pub(super) const FOLLOW: u8 = 1;
/// Bit in [`CLASS`]: whitespace.
pub(super) const SPACE: u8 = 2;
/// Bit in [`CLASS`]: a decimal digit.
pub(super) const DIGIT: u8 = 4;

/// Byte classes: the bits [`FOLLOW`], [`SPACE`] and [`DIGIT`].
#[allow(clippy::indexing_slicing)] // `i < 256` in a 256-entry table
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'$' {
            t[i] = FOLLOW;
        }
        if b.is_ascii_digit() {
            t[i] |= DIGIT;
        }
        if matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c) {
            t[i] = SPACE;
        }
        i += 1;
    }
    t
};

/// What a byte starts, for the lexer's fast path ([`START`]). Each value
/// is one bit, so that the lexer can test for a group of them at once (see
/// [`Start::is`]).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Start {
    /// Whitespace.
    Space = 1,
    /// A letter: always an identifier.
    Letter = 2,
    /// `%`, `$` or `_`: an identifier when an identifier character follows.
    Sigil = 4,
    /// `.`: usually a dot word.
    Dot = 8,
    /// A decimal digit.
    Digit = 16,
    /// A one-byte token that never starts a longer one (see [`PUNCT`]).
    Punct = 32,
    /// Anything else: comments, strings, two-byte operators, unknown bytes.
    Other = 64,
}

impl Start {
    /// Whether this is one of `group` (values or-ed together). A bit test,
    /// not a comparison: a series of these stays a series of branches,
    /// which the compiler would otherwise merge into one jump table.
    #[inline(always)]
    pub(super) fn is(self, group: u8) -> bool {
        self as u8 & group != 0
    }
}

/// What each byte starts.
#[allow(clippy::indexing_slicing)] // `i < 256` in a 256-entry table
static START: [Start; 256] = {
    let mut t = [Start::Other; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = match b {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => Start::Space,
            b'a'..=b'z' | b'A'..=b'Z' => Start::Letter,
            b'%' | b'$' | b'_' => Start::Sigil,
            b'.' => Start::Dot,
            b'0'..=b'9' => Start::Digit,
            _ if punct(b) as u8 != TokenKind::Eof as u8 => Start::Punct,
            _ => Start::Other,
        };
        i += 1;
    }
    t
};

/// The kind of a one-byte token that never starts a longer token
/// ([`TokenKind::Eof`] for other bytes).
const fn punct(b: u8) -> TokenKind {
    use TokenKind::*;
    match b {
        b',' => Comma,
        b';' => Semi,
        b':' => Colon,
        b'{' => LBrace,
        b'}' => RBrace,
        b'[' => LBracket,
        b']' => RBracket,
        b'(' => LParen,
        b')' => RParen,
        b'+' => Plus,
        b'-' => Minus,
        b'*' => Star,
        b'~' => Tilde,
        b'^' => Caret,
        b'@' => At,
        b'?' => Question,
        _ => Eof,
    }
}

/// The kind of each [`Start::Punct`] byte.
#[allow(clippy::indexing_slicing)] // `i < 256` in a 256-entry table
static PUNCT: [TokenKind; 256] = {
    let mut t = [TokenKind::Eof; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = punct(i as u8);
        i += 1;
    }
    t
};

/// What `b` starts.
#[inline(always)]
#[allow(clippy::indexing_slicing)] // a u8 index into a 256-entry table
pub(super) fn start_of(b: u8) -> Start {
    START[b as usize]
}

/// The kind of the one-byte token `b`, for a [`Start::Punct`] byte.
#[inline(always)]
#[allow(clippy::indexing_slicing)] // a u8 index into a 256-entry table
pub(super) fn punct_kind(b: u8) -> TokenKind {
    PUNCT[b as usize]
}

/// Whether `b` may continue an identifier (`followsym` in the ISA).
#[inline(always)]
#[allow(clippy::indexing_slicing)] // a u8 index into a 256-entry table
pub fn is_follow(b: u8) -> bool {
    CLASS[b as usize] & FOLLOW != 0
}

/// A letter (or `_`/`$`) that would make `1.x` a number followed by a word.
#[inline]
pub(super) fn is_follow_letter(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

/// Index of the first byte at or after `from` whose [`CLASS`] has none of
/// the bits of `mask` (`src.len()` if there is none, or if `from` is past
/// the end).
///
/// Eight bytes at a time while eight remain, so the common short runs cost
/// one bounds check and three instructions a byte.
#[inline(always)]
#[allow(clippy::indexing_slicing)] // u8 indices into a 256-entry table
pub(super) fn run(src: &[u8], from: usize, mask: u8) -> usize {
    let mut q = from;
    while let Some(chunk) = src
        .get(q..q.wrapping_add(8))
        .and_then(<[u8]>::first_chunk::<8>)
    {
        if let Some(i) = chunk.iter().position(|&b| CLASS[b as usize] & mask == 0) {
            // `q + 8 <= src.len()`: no overflow.
            return q.wrapping_add(i);
        }
        q = q.wrapping_add(8);
    }
    match src.get(q..) {
        Some(rest) => {
            let n = rest
                .iter()
                .position(|&b| CLASS[b as usize] & mask == 0)
                .unwrap_or(rest.len());
            // `q + n <= src.len()`: no overflow.
            q.wrapping_add(n)
        }
        None => src.len(),
    }
}
