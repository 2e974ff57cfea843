//! The text of a source line as a code frame shows it: clipped to a window
//! around the column of interest on long lines, with control characters,
//! invisible formatting characters and bytes that are not UTF-8 escaped
//! (`\x1b`, `\u{202e}`, `\xff`), so that a frame never writes raw control
//! bytes to a terminal and its carets stay under the right characters.

use crate::source::{LineIndex, Span};

/// Bytes of a line shown around the column of interest.
const WINDOW: usize = 160;

/// One line of source, ready for a frame.
pub(super) struct Excerpt {
    /// 1-based line number.
    pub line: u32,
    /// The text shown (escaped, perhaps clipped with `...` at either end).
    pub text: String,
    /// Source offset of the first byte of the window.
    from: usize,
    /// Source offset just past the window.
    to: usize,
    /// Length of the `...` shown before the window.
    lead: usize,
    /// For each byte of the window, where its text starts in `text`
    /// (with one more entry for the window's end).
    at: Vec<usize>,
}

impl Excerpt {
    /// The line holding offset `pos` of `src`, windowed around `pos`.
    pub(super) fn around(pos: u32, src: &[u8], index: &LineIndex) -> Excerpt {
        let pos = (pos as usize).min(src.len());
        let lc = index.line_col(pos as u32);
        let line = index.line_span(lc.line, src);
        let (start, end) = (line.start as usize, line.end as usize);
        let mut from = start;
        let mut to = end;
        if end.saturating_sub(start) > WINDOW {
            from = pos.saturating_sub(WINDOW / 2).max(start);
            to = from.saturating_add(WINDOW).min(end);
            // Start and end on character boundaries.
            while from > start && src.get(from).is_some_and(|&b| b & 0xC0 == 0x80) {
                from = from.saturating_sub(1);
            }
            while to < end && src.get(to).is_some_and(|&b| b & 0xC0 == 0x80) {
                to = to.saturating_add(1);
            }
        }
        let bytes = src.get(from..to).unwrap_or_default();
        let mut text = String::with_capacity(bytes.len().saturating_add(8));
        if from > start {
            text.push_str("...");
        }
        let lead = text.len();
        let mut at = Vec::with_capacity(bytes.len().saturating_add(1));
        for chunk in bytes.utf8_chunks() {
            for c in chunk.valid().chars() {
                let here = text.len();
                at.extend(std::iter::repeat_n(here, c.len_utf8()));
                push_shown(&mut text, c);
            }
            for b in chunk.invalid() {
                at.push(text.len());
                text.push_str(&format!("\\x{b:02x}"));
            }
        }
        at.push(text.len());
        if to < end {
            text.push_str("...");
        }
        Excerpt {
            line: lc.line,
            text,
            from,
            to,
            lead,
            at,
        }
    }

    /// Where `span` (clipped to this line's window) lies in [`Excerpt::text`];
    /// at least one character wide when the line has one there.
    pub(super) fn range(&self, span: Span) -> std::ops::Range<usize> {
        let map = |o: usize| -> usize {
            if o < self.from {
                return self.lead.saturating_sub(3).min(self.lead);
            }
            let k = o.min(self.to).saturating_sub(self.from);
            self.at.get(k).copied().unwrap_or(self.text.len())
        };
        let s = map(span.start as usize);
        let mut e = map(span.end as usize).max(s);
        if e == s {
            // A point: underline the character there, if any.
            e = self
                .text
                .get(s..)
                .and_then(|t| t.chars().next())
                .map_or(s, |c| s.saturating_add(c.len_utf8()));
        }
        s..e
    }
}

/// Whether `c` is shown escaped: control characters (tab aside) and the
/// invisible characters that reorder or hide text.
pub(crate) fn is_escaped(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}')
}

/// `c` as shown in a frame or a message.
fn push_shown(out: &mut String, c: char) {
    if !is_escaped(c) {
        out.push(c);
    } else if (c as u32) < 0x80 {
        out.push_str(&format!("\\x{:02x}", c as u32));
    } else {
        out.push_str(&format!("\\u{{{:x}}}", c as u32));
    }
}

/// `s` with the characters of [`is_escaped`] escaped (for messages that
/// quote the input).
pub(crate) fn escape(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(is_escaped) {
        return s.into();
    }
    let mut out = String::with_capacity(s.len().saturating_add(8));
    for c in s.chars() {
        push_shown(&mut out, c);
    }
    out.into()
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn excerpt(src: &[u8], pos: u32) -> Excerpt {
        Excerpt::around(pos, src, &LineIndex::new(src))
    }

    #[test]
    fn control_bytes_and_bad_utf8_are_escaped() {
        let src = b"ab\x1b[31mc\xff\xfed\x00e\n";
        let e = excerpt(src, 9);
        assert_eq!(e.text, "ab\\x1b[31mc\\xff\\xfed\\x00e");
        // The `\xff` byte (offset 8) maps to its escape.
        assert_eq!(&e.text[e.range(Span::new(8, 9))], "\\xff");
        assert_eq!(&e.text[e.range(Span::new(11, 12))], "\\x00");
        assert_eq!(&e.text[e.range(Span::new(12, 12))], "e");
    }

    #[test]
    fn bidi_controls_are_escaped() {
        let src = "x\u{202e}y".as_bytes();
        assert_eq!(excerpt(src, 0).text, "x\\u{202e}y");
        assert_eq!(escape("a\u{7}b"), "a\\x07b");
        assert_eq!(escape("plain"), "plain");
    }

    #[test]
    fn long_lines_are_windowed_on_char_boundaries() {
        let mut src = "é".repeat(200).into_bytes();
        src.extend_from_slice(b"XYZ");
        src.extend("é".repeat(200).into_bytes());
        let pos = 400;
        let e = excerpt(&src, pos);
        assert!(e.text.starts_with("...") && e.text.ends_with("..."));
        assert!(!e.text.contains("\\x"), "cut inside a character");
        assert_eq!(&e.text[e.range(Span::new(pos, pos + 3))], "XYZ");
    }
}
