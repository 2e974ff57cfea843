//! Parsing one large module on several threads: the source is cut at
//! top-level item boundaries, each piece is parsed on its own thread with
//! absolute spans, and the pieces are joined into one tree.
//!
//! The cuts come from a byte scan (brace depth, comments and strings, the
//! same way the lexer sees them). Each piece's parser then confirms its cut:
//! it must stop exactly at the next piece's first token, at an item
//! boundary. Since every item is parsed afresh from its first token, the
//! joined result is then the sequential one; if any cut is not confirmed
//! (malformed input can fool the scan), the module is parsed sequentially.

use super::{parse, Header, Parsed, Parser};
use crate::diag::Diagnostic;
use crate::syntax::{Item, Module};

/// Pieces smaller than this are not worth a thread of their own.
const MIN_PIECE: usize = 512 * 1024;

/// Parse `src` like [`parse`], using all threads of the current rayon pool
/// for a large module (it is cut at top-level item boundaries). The result
/// is identical to [`parse`]'s: the same tree, spans and diagnostics.
pub fn parse_parallel(src: &[u8]) -> Parsed {
    parse_in_pieces(src, pieces_for(src.len()))
}

/// [`parse_parallel`], keeping only the first `max` diagnostics in source
/// order (all with `max == 0`) and counting the others, as
/// [`parse_bounded`](super::parse_bounded) does.
pub fn parse_parallel_bounded(src: &[u8], max: usize) -> Parsed {
    match joined(src, pieces_for(src.len()), true, max) {
        Some((items, diagnostics, [omitted_errors, omitted_warnings])) => Parsed {
            module: Module { items },
            diagnostics,
            omitted_errors,
            omitted_warnings,
        },
        None => super::parse_bounded(src, max),
    }
}

#[cfg(feature = "parallel")]
fn threads() -> usize {
    rayon::current_num_threads()
}

#[cfg(not(feature = "parallel"))]
fn threads() -> usize {
    1
}

/// Parse `src` cut into about `pieces` pieces at top-level item
/// boundaries, the pieces in parallel (on the current rayon pool). The result
/// is identical to [`parse`]'s; with `pieces <= 1`, or when no cut is found,
/// it is [`parse`].
pub fn parse_in_pieces(src: &[u8], pieces: usize) -> Parsed {
    match joined(src, pieces, true, 0) {
        Some((items, diagnostics, _)) => Parsed::new(Module { items }, diagnostics),
        None => parse(src),
    }
}

/// Parse the items of `src` from offset `start` up to the item that starts
/// at `end` (`u32::MAX`: to the end of the input), with spans in `src`'s
/// coordinates, as [`parse`] would parse them in the whole module. For a
/// tool that holds a module and parses again only the item an edit
/// touched (a language server). The header rules (`.version` first, a
/// `.target`) are not checked. `None` unless a token starts at `start` and
/// the parse ends exactly at `end`.
///
/// ```
/// let src = b".version 8.0\n.target sm_90\n.entry a() { ret; }\n.entry b() { ret; }\n";
/// let b = src.windows(9).position(|w| w == b".entry b(").unwrap() as u32;
/// let a = ptxkit::parse_range(src, 27, b).unwrap();
/// assert_eq!(a.module.items.len(), 1);
/// assert_eq!(a.module.items[0].span().start, 27);
/// // The end must be where an item starts.
/// assert!(ptxkit::parse_range(src, 27, b - 4).is_none());
/// ```
pub fn parse_range(src: &[u8], start: u32, end: u32) -> Option<Parsed> {
    if super::too_large(src.len()).is_some() || src.len() >= u32::MAX as usize {
        return None;
    }
    let piece = parse_piece(src, start, end, true, 0)?;
    let mut diagnostics = piece.diags;
    diagnostics.sort_by_key(|d| d.span.start);
    Some(Parsed::new(Module { items: piece.items }, diagnostics))
}

/// How many pieces [`parse_parallel`] and [`check`](super::check) cut `src`
/// into (0 or 1: none).
pub(crate) fn pieces_for(len: usize) -> usize {
    let pieces = threads().min(len / MIN_PIECE);
    // A few pieces per thread even out the load.
    if pieces < 2 {
        0
    } else {
        pieces.saturating_mul(2)
    }
}

/// The pieces' items (when `keep`; else none are kept) and diagnostics
/// (the first `max` in source order, 0: all, with the number of errors and
/// warnings not kept), joined, or `None` when there is nothing to cut or a
/// cut is not confirmed.
pub(crate) fn joined(
    src: &[u8],
    pieces: usize,
    keep: bool,
    max: usize,
) -> Option<(Vec<Item>, Vec<Diagnostic>, [usize; 2])> {
    if pieces <= 1 || src.len() >= u32::MAX as usize {
        return None;
    }
    // Raw text between `.source_begin` and `.source_end` is not lexed; the
    // scan would have to know about it. Rare enough to parse sequentially.
    if memchr::memmem::find(src, b".source_begin").is_some() {
        return None;
    }
    let starts = cuts(src, pieces);
    if starts.len() < 2 {
        return None;
    }
    let ranges: Vec<(u32, u32)> = starts
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            (
                s,
                starts.get(i.saturating_add(1)).copied().unwrap_or(u32::MAX),
            )
        })
        .collect();
    let parts = map_pieces(&ranges, |&(start, end)| {
        parse_piece(src, start, end, keep, max)
    });
    let mut items = Vec::new();
    let mut diagnostics = Vec::new();
    let mut header = Header::default();
    let mut omitted = [0usize; 2];
    for part in parts {
        let part = part?;
        items.extend(part.items);
        diagnostics.extend(part.diags);
        header.append(part.header);
        let ([e, w], [pe, pw]) = (&mut omitted, part.unkept);
        *e = e.saturating_add(pe);
        *w = w.saturating_add(pw);
    }
    header.check(src.len() as u32, &mut diagnostics);
    super::keep_first(&mut diagnostics, max, &mut omitted);
    Some((items, diagnostics, omitted))
}

/// What parsing one piece gives.
struct Piece {
    items: Vec<Item>,
    header: Header,
    diags: Vec<Diagnostic>,
    /// Errors and warnings not kept in `diags`.
    unkept: [usize; 2],
}

#[cfg(feature = "parallel")]
fn map_pieces(
    ranges: &[(u32, u32)],
    f: impl Fn(&(u32, u32)) -> Option<Piece> + Sync + Send,
) -> Vec<Option<Piece>> {
    use rayon::prelude::*;
    ranges.par_iter().map(f).collect()
}

#[cfg(not(feature = "parallel"))]
fn map_pieces(
    ranges: &[(u32, u32)],
    f: impl Fn(&(u32, u32)) -> Option<Piece>,
) -> Vec<Option<Piece>> {
    ranges.iter().map(f).collect()
}

/// Items from `start` up to the one starting at `end`; `None` unless the
/// parse really reaches an item boundary at `end` (or the end of input).
fn parse_piece(src: &[u8], start: u32, end: u32, keep: bool, max: usize) -> Option<Piece> {
    let mut p = Parser::starting_at(src, start as usize);
    p.diag_cap = max;
    if start > 0 && p.tok.span.start != start {
        return None;
    }
    p.lex_limit = end;
    let mut items = Vec::new();
    let mut header = Header::default();
    while let Some(item) = p.next_item(end) {
        header.see(&item);
        if keep {
            items.push(item);
        }
    }
    let reached = p.tok.span.start;
    let at_eof = p.at(crate::lex::TokenKind::Eof);
    if end != u32::MAX && (reached != end || at_eof) {
        return None;
    }
    Some(Piece {
        items,
        header,
        diags: std::mem::take(&mut p.diags),
        unkept: p.unkept,
    })
}

/// Offsets where about `pieces` pieces start (the first is 0): from each
/// multiple of `len / pieces` on, the first top-level directive that follows
/// a line starting with `}` (the end of a function as compilers write it).
///
/// This is a guess, not a parse: it costs next to nothing (no byte-by-byte
/// scan of the module), and the parse of each piece confirms it or the
/// module is parsed sequentially (see [`joined`]).
pub(crate) fn cuts(src: &[u8], pieces: usize) -> Vec<u32> {
    let step = src.len().checked_div(pieces.max(1)).unwrap_or(0).max(1);
    let mut out = vec![0u32];
    let mut from = step;
    while let Some(k) = cut_after(src, from) {
        out.push(k as u32);
        from = k.saturating_add(step);
    }
    out
}

/// The first top-level directive at or after `from` that follows a line
/// starting with `}`.
fn cut_after(src: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    loop {
        let k = find(src, i, |r| memchr::memmem::find(r, b"\n}")).checked_add(2)?;
        if k > src.len() {
            return None;
        }
        let t = skip_trivia(src, k);
        if src.get(t) == Some(&b'.') && starts_item_at(src, t) {
            return Some(t);
        }
        i = k;
    }
}

/// Absolute offset of what `f` finds in `src[from..]`, or `src.len()`.
#[inline]
fn find(src: &[u8], from: usize, f: impl Fn(&[u8]) -> Option<usize>) -> usize {
    src.get(from..)
        .and_then(|r| f(r).map(|k| from.saturating_add(k)))
        .unwrap_or(src.len())
}

/// End of the comment starting at `at`, if one starts there (an
/// unterminated block comment has none).
fn skip_comment(src: &[u8], at: usize) -> Option<usize> {
    match src.get(at.saturating_add(1)) {
        Some(b'/') => Some(find(src, at, |r| memchr::memchr(b'\n', r))),
        Some(b'*') => {
            let rest = src.get(at.saturating_add(2)..)?;
            memchr::memmem::find(rest, b"*/").map(|k| at.saturating_add(4).saturating_add(k))
        }
        _ => None,
    }
}

/// The first byte at or after `i` that is neither whitespace nor comment.
fn skip_trivia(src: &[u8], mut i: usize) -> usize {
    loop {
        match src.get(i) {
            Some(b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c) => i = i.saturating_add(1),
            Some(b'/') => match skip_comment(src, i) {
                Some(end) => i = end,
                None => return i,
            },
            _ => return i,
        }
    }
}

/// Whether the dot word at `i` is a directive that starts a top-level item.
fn starts_item_at(src: &[u8], i: usize) -> bool {
    let rest = src.get(i.saturating_add(1)..).unwrap_or_default();
    let n = rest
        .iter()
        .position(|&c| !crate::lex::is_follow(c))
        .unwrap_or(rest.len());
    let word = src
        .get(i..i.saturating_add(1).saturating_add(n))
        .unwrap_or_default();
    std::str::from_utf8(word).is_ok_and(super::items::starts_item)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spans take no part in `==`; compare everything through JSON.
    fn same(a: &Parsed, b: &Parsed) -> bool {
        serde_json::to_string(&a.module).ok() == serde_json::to_string(&b.module).ok()
            && serde_json::to_string(&a.diagnostics).ok()
                == serde_json::to_string(&b.diagnostics).ok()
    }

    const K: &str = ".visible .entry k{N}(.param .u64 p)\n{\n  .reg .b64 %rd<3>;\n  ld.param.u64 %rd1, [p];\n  ret;\n}\n";

    fn module(n: usize, between: &str) -> String {
        let mut s = String::from(".version 8.0\n.target sm_90\n.address_size 64\n\n");
        for i in 0..n {
            s.push_str(&K.replace("{N}", &i.to_string()));
            s.push_str(between);
        }
        s
    }

    #[test]
    fn cuts_fall_on_items_after_blocks() {
        let src = module(8, "\n// a comment\n/* } */ \n");
        let c = cuts(src.as_bytes(), 4);
        assert!(c.len() >= 3, "{c:?}");
        assert_eq!(c.first(), Some(&0));
        for &at in c.iter().skip(1) {
            assert!(src[at as usize..].starts_with(".visible .entry"), "{at}");
        }
        let with_vars = module(4, "\n.global .u8 s[3] = {1,2,3};\n");
        let c = cuts(with_vars.as_bytes(), 8);
        assert!(c.len() >= 3, "{c:?}");
        for &at in c.iter().skip(1) {
            let rest = &with_vars[at as usize..];
            assert!(rest.starts_with(".global"), "{:?}", &rest[..20]);
        }
        // No `}` line, no cut.
        assert_eq!(cuts(b".version 8.0\n.target sm_90\n", 4), vec![0]);
    }

    #[test]
    fn pieces_join_to_the_sequential_parse() {
        let cases = [
            module(10, "\n"),
            module(10, "\n.global .u32 g = 1;\n"),
            // Errors inside pieces and at their edges.
            module(10, "\n")
                .replace("k3(", "k3((")
                .replace("k5(", "k5 (.reg")
                .replace(
                    "ret;\n}\n\n.visible .entry k8",
                    "ret\n}\n\n.visible .entry k8",
                ),
            module(10, "\nfoo;\n"),
            // A missing `;` right before a cut, an unknown character after it.
            module(6, "\n.global .u32 h\n") + "\u{1}.entry x() { ret; }",
            // Unbalanced braces: cuts the scan finds are not item boundaries.
            module(6, "\n}\n"),
            module(6, "\n{\n"),
            // A stray `.version`, a missing header.
            module(6, "\n.version 8.0\n"),
            module(6, "\n").replacen(".version 8.0\n", "", 1),
            module(6, "\n").replacen(".version 8.0\n.target sm_90\n.address_size 64\n", "", 1),
            module(6, "\n").replacen(".target sm_90\n", "", 1),
            module(3, "\n\"unterminated {\n"),
            module(3, "\n/* unterminated { "),
            // The guess is fooled: a cut inside a comment, inside a function.
            module(6, "\n/*\n}\n.visible .entry x() {}\n*/\n"),
            module(6, "\n").replace("ret;\n}", "{\n}\n.shared .u32 x;\nret;\n}"),
        ];
        // The clean cases really are cut.
        for src in cases.iter().take(3) {
            assert!(joined(src.as_bytes(), 4, true, 0).is_some());
        }
        for (n, src) in cases.iter().enumerate() {
            let seq = parse(src.as_bytes());
            for pieces in [2, 3, 5, 16, 100] {
                let par = parse_in_pieces(src.as_bytes(), pieces);
                assert!(same(&seq, &par), "case {n}, {pieces} pieces:\n{src}");
                if let Some((items, diags, _)) = joined(src.as_bytes(), pieces, false, 0) {
                    assert!(items.is_empty());
                    assert_eq!(
                        serde_json::to_string(&diags).ok(),
                        serde_json::to_string(&seq.diagnostics).ok(),
                        "check: case {n}, {pieces} pieces"
                    );
                }
            }
        }
    }

    #[test]
    fn wrong_guesses_fall_back() {
        let in_comment = module(6, "\n/*\n}\n.visible .entry x() {}\n*/\n");
        let in_function = module(6, "\n").replace("ret;\n}", "{\n}\n.shared .u32 x;\nret;\n}");
        for src in [in_comment, in_function] {
            let c = cuts(src.as_bytes(), 100);
            assert!(c.len() > 6, "{c:?}");
            assert!(joined(src.as_bytes(), 100, true, 0).is_none());
            assert!(same(
                &parse(src.as_bytes()),
                &parse_in_pieces(src.as_bytes(), 100)
            ));
        }
    }

    #[test]
    fn examples_split_identically() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
        let mut seen = 0;
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "ptx") {
                let src = std::fs::read(&p).unwrap_or_default();
                let seq = parse(&src);
                for pieces in [2, 4, 64] {
                    assert!(same(&seq, &parse_in_pieces(&src, pieces)), "{p:?}");
                }
                seen += 1;
            }
        }
        assert!(seen > 3);
    }
}
