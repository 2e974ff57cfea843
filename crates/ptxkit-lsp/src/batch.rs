//! A `didChange` of many edits applied in one pass. Applied one at a time,
//! each edit moves the text after it and shifts the line starts after it:
//! about a millisecond an edit on 10 MB, so 4,000 edits (a rename, a
//! multi-cursor change, a formatting) took seconds. Clients send such
//! batches in document order: each edit after where the one before it
//! ended, or each before the one before it (VS Code's order, so that they
//! can be applied one by one). Then every edit's range can be found in
//! the text as it was before the batch, and the new text is built by one
//! copy and indexed once.

use lsp_types::{Position, TextDocumentContentChangeEvent};

use crate::document::{Encoding, LineMap};

/// Batches of fewer edits are applied one at a time (as cheap).
pub const MIN_BATCH: usize = 16;

/// Columns `s` takes in `enc` units, and the lines it adds.
fn extent(s: &str, enc: Encoding) -> (u32, u32) {
    let (lines, last) = match s.rfind('\n') {
        Some(i) => (
            s.bytes().filter(|&b| b == b'\n').count(),
            s.get(i + 1..).unwrap_or(""),
        ),
        None => (0, s),
    };
    let cols = match enc {
        Encoding::Utf8 => last.len(),
        Encoding::Utf16 => last.chars().map(char::len_utf16).sum(),
    };
    (
        u32::try_from(lines).unwrap_or(u32::MAX),
        u32::try_from(cols).unwrap_or(u32::MAX),
    )
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn key(p: Position) -> (u32, u32) {
    (p.line, p.character)
}

/// The text after `changes`, applied in order to `text` (indexed by
/// `lines`), built in one pass; `None` (nothing done) unless every change
/// has a range and the changes come in one of the two document orders.
pub fn apply_in_one_pass(
    text: &str,
    lines: &LineMap,
    changes: &[TextDocumentContentChangeEvent],
) -> Option<String> {
    let enc = lines.encoding();
    // Byte ranges in `text` and their replacements, as found.
    let mut edits: Vec<(usize, usize, &str)> = Vec::with_capacity(changes.len());
    let ascending = changes.len() < 2 || {
        let r = |i: usize| changes.get(i).and_then(|c| c.range);
        let (a, b) = (r(0)?, r(1)?);
        key(b.start) >= key(a.start)
    };
    // Ascending: where the last edit ended, in the text as it is after it
    // (positions the next edit is written in) and as it was before the
    // batch.
    let mut new_end: Option<(Position, Position)> = None;
    for c in changes {
        let r = c.range?;
        let (start, end) = if key(r.end) < key(r.start) {
            (r.end, r.start)
        } else {
            (r.start, r.end)
        };
        let (orig_start, orig_end) = if ascending {
            // Back to the text before the batch: a position on the line
            // where the last edit ended is moved by what it inserted; one
            // on a later line by the lines it added or took away.
            let back = |p: Position| -> Option<Position> {
                let Some((now, was)) = new_end else {
                    return Some(p);
                };
                if key(p) < key(now) {
                    return None;
                }
                Some(if p.line == now.line {
                    Position::new(
                        was.line,
                        was.character.saturating_add(p.character - now.character),
                    )
                } else {
                    Position::new(was.line.saturating_add(p.line - now.line), p.character)
                })
            };
            (back(start)?, back(end)?)
        } else {
            // Descending: each edit before the one before it, so in text
            // the batch has not yet changed.
            (start, end)
        };
        let a = lines.offset(text, orig_start) as usize;
        let b = lines.offset(text, orig_end) as usize;
        if b < a || !text.is_char_boundary(a) || !text.is_char_boundary(b) {
            return None;
        }
        // Only positions that name a place in the text exactly: one past
        // the end of a line or of the text, or inside a character, is
        // moved to a place there, and in the text as edited so far it may
        // name another (an edit past the end of the text, then one still
        // further on that the first made real).
        if lines.position(text, to_u32(a)) != orig_start
            || lines.position(text, to_u32(b)) != orig_end
        {
            return None;
        }
        // The byte ranges must follow the order too (clamped positions
        // could break it): otherwise the edits are applied one by one.
        match edits.last() {
            Some(&(_, pb, _)) if ascending && a < pb => return None,
            Some(&(pa, _, _)) if !ascending && b > pa => return None,
            _ => {}
        }
        if ascending {
            // Where the inserted text ends in the text as edited so far:
            // from where the edit's start really is (its position from
            // the byte it resolved to, which a column past a line's end or
            // inside a character moves), carried forward over the last
            // edit as `back` carried positions back, plus what it
            // inserted. The bytes after it are the bytes after `b`.
            let at = lines.position(text, to_u32(a));
            let at = match new_end {
                Some((now, was)) if at.line == was.line => Position::new(
                    now.line,
                    now.character
                        .saturating_add(at.character.saturating_sub(was.character)),
                ),
                Some((now, was)) => Position::new(
                    at.line.saturating_add(now.line).saturating_sub(was.line),
                    at.character,
                ),
                None => at,
            };
            let (dl, cols) = extent(&c.text, enc);
            let now = if dl == 0 {
                Position::new(at.line, at.character.saturating_add(cols))
            } else {
                Position::new(at.line.saturating_add(dl), cols)
            };
            new_end = Some((now, lines.position(text, to_u32(b))));
        }
        edits.push((a, b, c.text.as_str()));
    }
    if !ascending {
        edits.reverse();
    }
    let added: usize = edits.iter().map(|e| e.2.len()).sum();
    let mut out = String::with_capacity(text.len().saturating_add(added));
    let mut at = 0usize;
    for (a, b, t) in edits {
        out.push_str(text.get(at..a)?);
        out.push_str(t);
        at = b;
    }
    out.push_str(text.get(at..)?);
    Some(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use lsp_types::Range;

    /// The edits applied one at a time, as the server did before.
    fn one_by_one(text: &str, enc: Encoding, changes: &[TextDocumentContentChangeEvent]) -> String {
        let mut text = text.to_string();
        let mut lines = LineMap::new(&text, enc);
        for c in changes {
            let s = lines.span(&text, c.range.unwrap());
            let (a, b) = (s.start as usize, s.end as usize);
            text.replace_range(a..b, &c.text);
            lines.edit(&text, a, b - a, c.text.len());
        }
        text
    }

    fn change(l0: u32, c0: u32, l1: u32, c1: u32, t: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(l0, c0), Position::new(l1, c1))),
            range_length: None,
            text: t.to_string(),
        }
    }

    /// Random batches in both orders, with edits that add and remove lines
    /// and characters of one to four bytes, give the text of the edits
    /// applied one by one.
    #[test]
    fn a_batch_is_its_edits_one_by_one() {
        let base: String = (0..300)
            .map(|i| format!("line {i} é𝄞 {}\n", "x".repeat(i % 7)))
            .collect();
        let inserts = ["", "a", "é", "𝄞z", "\n", "two\nlines", "\nx\n"];
        let mut x = 99u64;
        let mut rnd = |n: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % n
        };
        for enc in [Encoding::Utf16, Encoding::Utf8] {
            for round in 0..200 {
                let lines = LineMap::new(&base, enc);
                // Positions at character boundaries of the base text.
                let mut offs: Vec<usize> = (0..40)
                    .map(|_| {
                        let mut o = rnd(base.len() as u64) as usize;
                        while !base.is_char_boundary(o) {
                            o -= 1;
                        }
                        o
                    })
                    .collect();
                offs.sort_unstable();
                offs.dedup();
                let pairs: Vec<(usize, usize)> = offs
                    .chunks(2)
                    .filter(|p| p.len() == 2)
                    .map(|p| (p[0], p[1]))
                    .collect();
                let ascending = round % 2 == 0;
                let mut changes = Vec::new();
                // Build the batch: descending ranges are in the base text;
                // ascending ones in the text as edited so far.
                let mut text = base.clone();
                let mut map = LineMap::new(&text, enc);
                let mut shift: isize = 0;
                let order: Vec<(usize, usize)> = if ascending {
                    pairs.clone()
                } else {
                    pairs.iter().rev().copied().collect()
                };
                for (a, b) in order {
                    let t = inserts[rnd(inserts.len() as u64) as usize];
                    let (a2, b2) = if ascending {
                        ((a as isize + shift) as usize, (b as isize + shift) as usize)
                    } else {
                        (a, b)
                    };
                    let pa = map.position(&text, a2 as u32);
                    let pb = map.position(&text, b2 as u32);
                    changes.push(change(pa.line, pa.character, pb.line, pb.character, t));
                    text.replace_range(a2..b2, t);
                    map.edit(&text, a2, b2 - a2, t.len());
                    if ascending {
                        shift += t.len() as isize - (b - a) as isize;
                    }
                }
                let want = one_by_one(&base, enc, &changes);
                assert_eq!(want, text);
                let got = apply_in_one_pass(&base, &lines, &changes);
                assert_eq!(got.as_deref(), Some(want.as_str()), "{enc:?} round {round}");
            }
        }
    }

    /// Out of order, overlapping or without a range: not done in one pass.
    #[test]
    fn other_batches_are_left_alone() {
        let text = "abc\ndef\nghi\n";
        let lines = LineMap::new(text, Encoding::Utf16);
        let mixed = [
            change(0, 1, 0, 2, "x"),
            change(2, 0, 2, 1, "y"),
            change(1, 0, 1, 1, "z"),
        ];
        assert_eq!(apply_in_one_pass(text, &lines, &mixed), None);
        let overlap = [change(1, 1, 1, 3, "x"), change(1, 0, 1, 2, "y")];
        assert_eq!(apply_in_one_pass(text, &lines, &overlap), None);
        // Past the end of the text: the first edit makes real a place the
        // second names, which in the text before the batch was clamped to
        // the end (found by the `lsp_batch` fuzz target).
        let past = [change(5, 0, 5, 0, "\n\n\nabc"), change(2, 1, 2, 2, "Z")];
        let empty = LineMap::new("", Encoding::Utf16);
        assert_eq!(one_by_one("", Encoding::Utf16, &past), "\n\nZ\nabc");
        assert_eq!(apply_in_one_pass("", &empty, &past), None);
        let whole = [TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: "new".into(),
        }];
        assert_eq!(apply_in_one_pass(text, &lines, &whole), None);
    }
}
