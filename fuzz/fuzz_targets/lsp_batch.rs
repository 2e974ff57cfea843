//! One `didChange` of many edits: when the server applies the batch in one
//! pass (`ptxkit_lsp::batch`), the text must be the one the edits give
//! applied one at a time, whatever the positions (past the end of a line
//! or of the text, reversed ranges, edits that touch), in both column
//! encodings; and neither way may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lsp_types::{Position, Range, TextDocumentContentChangeEvent};
use ptxkit_lsp::document::{Encoding, LineMap};

/// Replacements an edit may insert.
const INSERTS: [&str; 8] = ["", "a", "é", "𝄞", "\n", "x\ny", "\r\n", "\n\n𝄞"];

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let enc = if head & 1 == 0 { Encoding::Utf16 } else { Encoding::Utf8 };
    let order = (head >> 1) % 3;
    // The edits come first (5 bytes each), the text after a 0xFF byte.
    let cut = rest.iter().position(|&b| b == 0xff).unwrap_or(rest.len());
    let (edits, text) = rest.split_at(cut);
    let text = String::from_utf8_lossy(text.get(1..).unwrap_or_default()).into_owned();
    let mut changes: Vec<TextDocumentContentChangeEvent> = edits
        .chunks_exact(5)
        .map(|e| TextDocumentContentChangeEvent {
            range: Some(Range::new(
                Position::new(u32::from(e[0] % 64), u32::from(e[1] % 64)),
                Position::new(u32::from(e[2] % 64), u32::from(e[3] % 64)),
            )),
            range_length: None,
            text: INSERTS[usize::from(e[4]) % INSERTS.len()].to_string(),
        })
        .collect();
    let key = |c: &TextDocumentContentChangeEvent| c.range.map(|r| (r.start.line, r.start.character));
    match order {
        0 => changes.sort_by_key(|c| std::cmp::Reverse(key(c))),
        1 => changes.sort_by_key(key),
        _ => {}
    }
    let lines = LineMap::new(&text, enc);
    let batch = ptxkit_lsp::batch::apply_in_one_pass(&text, &lines, &changes);
    // One at a time, as `Document::apply` does for a short batch.
    let mut one = text.clone();
    let mut map = LineMap::new(&one, enc);
    for c in &changes {
        let Some(r) = c.range else { continue };
        let s = map.span(&one, r);
        let (a, b) = (s.start as usize, s.end as usize);
        if one.is_char_boundary(a) && one.is_char_boundary(b) {
            one.replace_range(a..b, &c.text);
            map.edit(&one, a, b - a, c.text.len());
        }
    }
    if let Some(batch) = batch {
        assert_eq!(batch, one, "a batch in one pass differs from its edits one by one");
    }
});
