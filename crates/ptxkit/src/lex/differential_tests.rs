//! The fast lexer against the reference one (`reference.rs`): the same token
//! kinds and spans, trivia included and not, from any start offset, over the
//! corpus, every short string of interesting bytes, and random bytes.
#![allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic
)]

use super::reference::RefLexer;
use super::{Lexer, Token, TokenKind};
use proptest::prelude::*;

/// A token as comparable data (`Span`'s `==` ignores positions).
type Tok = (TokenKind, u32, u32);

/// Tokens from `next` up to and including the first `Eof`, and one call more.
fn collect(mut next: impl FnMut() -> Token) -> Vec<Tok> {
    let mut out = Vec::new();
    loop {
        let t = next();
        out.push((t.kind, t.span.start, t.span.end));
        if t.kind == TokenKind::Eof {
            // Eof again, at the same place.
            let t = next();
            out.push((t.kind, t.span.start, t.span.end));
            return out;
        }
    }
}

fn all_tokens(src: &[u8], from: usize) -> (Vec<Tok>, Vec<Tok>) {
    let (mut new, mut old) = (Lexer::at(src, from), RefLexer::at(src, from));
    (collect(|| new.next_token()), collect(|| old.next_token()))
}

fn significant_tokens(src: &[u8], from: usize) -> (Vec<Tok>, Vec<Tok>) {
    let (mut new, mut old) = (Lexer::at(src, from), RefLexer::at(src, from));
    (
        collect(|| new.next_significant()),
        collect(|| old.next_significant()),
    )
}

/// Panics with the first difference, if any, lexing `src` from `from`.
fn assert_same(src: &[u8], from: usize) {
    for (what, (new, old)) in [
        ("next_token", all_tokens(src, from)),
        ("next_significant", significant_tokens(src, from)),
    ] {
        if new != old {
            let i = new.iter().zip(&old).take_while(|(a, b)| a == b).count();
            let at = old.get(i).map_or(0, |t| t.1 as usize);
            let near = &src[at.saturating_sub(40)..(at + 40).min(src.len())];
            panic!(
                "{what} from {from} differs at token {i}: new {:?}, reference {:?}, near {:?}",
                new.get(i),
                old.get(i),
                String::from_utf8_lossy(near)
            );
        }
    }
}

/// Bytes that start, continue or end tokens in interesting ways.
const ALPHABET: &[u8] = b" \t\n.:_$%0179xXbBfFdDeEU+-*/\"\\<>=!&|,;{}[]()@~^?aZ\x00\xff\x0b";

#[test]
fn every_short_string() {
    let n = ALPHABET.len();
    let mut src = Vec::with_capacity(3);
    for len in 0..=3u32 {
        for mut code in 0..n.pow(len) {
            src.clear();
            for _ in 0..len {
                src.push(ALPHABET[code % n]);
                code /= n;
            }
            for from in 0..=src.len() {
                assert_same(&src, from);
            }
        }
    }
}

#[test]
fn corpus() {
    let Some(files) = crate::test_corpus::files("corpus differential test") else {
        return;
    };
    for (_, src) in &files {
        assert_same(src, 0);
        // A few starts inside the file, as the parser's repositioning and
        // parallel chunks use.
        for from in (0..src.len()).step_by(src.len() / 3 + 1).skip(1) {
            assert_same(src, from);
        }
    }
    eprintln!("lexed {} corpus files both ways", files.len());
}

/// Strings of PTX-like pieces, so that random tests reach the long runs and
/// the 8-byte chunks too.
fn ptx_like() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"%rd12".to_vec()),
        Just(b"$L__BB0_3".to_vec()),
        Just(b".global".to_vec()),
        Just(b".L2::cache_hint".to_vec()),
        Just(b".sp::2:4".to_vec()),
        Just(b"0f3F800000".to_vec()),
        Just(b"0x1FU".to_vec()),
        Just(b"1.5e-3".to_vec()),
        Just(b"\n\t\t".to_vec()),
        Just(b"        ".to_vec()),
        Just(b"// c\n".to_vec()),
        Just(b"/* c */".to_vec()),
        Just(b"\"s\\\"\"".to_vec()),
        Just(b"abcdefghijklmnopq".to_vec()),
        Just(b"1234567890123".to_vec()),
        prop::collection::vec(prop::sample::select(ALPHABET), 1..4),
        prop::collection::vec(any::<u8>(), 1..4),
    ];
    prop::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes(src in prop::collection::vec(any::<u8>(), 0..64)) {
        for from in 0..=src.len() {
            assert_same(&src, from);
        }
    }

    #[test]
    fn random_ptx_like(src in ptx_like()) {
        for from in 0..=src.len() {
            assert_same(&src, from);
        }
    }
}
