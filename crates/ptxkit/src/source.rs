//! Source text positions: byte spans and line/column lookup.

use serde::Serialize;

/// A half-open byte range `start..end` into the source text.
///
/// Offsets are `u32`: larger sources are rejected before lexing.
///
/// **Spans never take part in equality**: `==` on two spans is always true,
/// so that trees derived with `PartialEq` compare their content only (a
/// parsed module equals the module parsed from its canonical print). Compare
/// `start` and `end` to compare positions.
/// Serialized as `{"start", "end"}` (with lines and columns inside a
/// [`crate::json::Document`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl PartialEq for Span {
    #[inline]
    fn eq(&self, _other: &Span) -> bool {
        true
    }
}

impl Eq for Span {}

impl std::hash::Hash for Span {
    fn hash<H: std::hash::Hasher>(&self, _state: &mut H) {}
}

impl Span {
    /// A span from `start` to `end`.
    #[inline]
    pub const fn new(start: u32, end: u32) -> Span {
        Span { start, end }
    }

    /// The empty span at `pos`.
    #[inline]
    pub const fn at(pos: u32) -> Span {
        Span {
            start: pos,
            end: pos,
        }
    }

    /// The smallest span covering both.
    #[inline]
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// Length in bytes.
    #[inline]
    pub fn len(self) -> u32 {
        self.end.saturating_sub(self.start)
    }

    /// [`Span::len`] in 16 bits, for nodes that keep a span in a few bytes
    /// (modifiers, addresses): a span longer than `u16::MAX` bytes is
    /// recorded at that length.
    #[inline]
    pub(crate) fn short_len(self) -> u16 {
        u16::try_from(self.len()).unwrap_or(u16::MAX)
    }

    /// The span of `len` bytes from `start` ([`Span::short_len`]'s inverse).
    #[inline]
    pub(crate) fn from_short(start: u32, len: u16) -> Span {
        Span::new(start, start.saturating_add(u32::from(len)))
    }

    /// Whether the span covers no bytes.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.end <= self.start
    }

    /// The bytes of `src` this span covers (empty when out of bounds).
    #[inline]
    pub fn slice(self, src: &[u8]) -> &[u8] {
        src.get(self.start as usize..self.end as usize)
            .unwrap_or_default()
    }

    /// The text of `src` this span covers, lossily decoded.
    pub fn text(self, src: &[u8]) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.slice(src))
    }

    /// Whether this span is the placeholder of a synthesized node.
    #[inline]
    pub fn is_synthetic(self) -> bool {
        self.start == u32::MAX
    }

    /// A span that marks a node built by a program rather than parsed: the
    /// lossless printer renders such nodes canonically.
    pub const SYNTHETIC: Span = Span {
        start: u32::MAX,
        end: u32::MAX,
    };
}

/// 1-based line and column (column counted in bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LineCol {
    /// Line number, starting at 1.
    pub line: u32,
    /// Column number in bytes, starting at 1.
    pub col: u32,
}

/// Maps byte offsets to lines and columns.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<u32>,
}

impl LineIndex {
    /// Index the line starts of `src`.
    pub fn new(src: &[u8]) -> LineIndex {
        let mut index = LineIndex::empty();
        index.extend(0, src);
        index
    }

    /// The index of a source not read yet: one line, starting at 0. Add the
    /// source with [`LineIndex::extend`].
    pub fn empty() -> LineIndex {
        LineIndex { starts: vec![0] }
    }

    /// Index `chunk`, the part of the source that starts at byte `at`. The
    /// chunks must come in order and without gaps, so a source can be
    /// indexed a piece at a time (a caller can let go of each piece).
    pub fn extend(&mut self, at: usize, chunk: &[u8]) {
        self.starts.extend(
            memchr::memchr_iter(b'\n', chunk)
                .map(|i| (at.saturating_add(i) as u32).saturating_add(1)),
        );
    }

    /// Line and column of byte offset `pos`.
    pub fn line_col(&self, pos: u32) -> LineCol {
        let line = match self.starts.binary_search(&pos) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.starts.get(line).copied().unwrap_or(0);
        LineCol {
            line: (line as u32).saturating_add(1),
            col: pos.saturating_sub(start).saturating_add(1),
        }
    }

    /// Byte range of 1-based line `line`, without its line terminator.
    pub fn line_span(&self, line: u32, src: &[u8]) -> Span {
        let idx = line.saturating_sub(1) as usize;
        let start = self.starts.get(idx).copied().unwrap_or(src.len() as u32);
        let mut end = self
            .starts
            .get(idx.saturating_add(1))
            .copied()
            .unwrap_or(src.len() as u32);
        while end > start
            && matches!(
                src.get((end as usize).saturating_sub(1)),
                Some(b'\n' | b'\r')
            )
        {
            end = end.saturating_sub(1);
        }
        Span::new(start, end)
    }

    /// The byte offset of each line's start, the first line's (0) first.
    pub fn starts(&self) -> &[u32] {
        &self.starts
    }

    /// Number of lines.
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexed_in_chunks_as_whole() {
        let src = b"a\nbb\n\nccc\r\nd\n\ne";
        let whole = LineIndex::new(src);
        for size in 1..=src.len() {
            let mut index = LineIndex::empty();
            for (i, chunk) in src.chunks(size).enumerate() {
                index.extend(i * size, chunk);
            }
            assert_eq!(index.starts, whole.starts, "chunks of {size}");
        }
        assert_eq!(whole.starts, [0, 2, 5, 6, 11, 13, 14]);
    }

    #[test]
    fn line_col_lookup() {
        let src = b"ab\ncd\r\n\nx";
        let idx = LineIndex::new(src);
        assert_eq!(idx.line_col(0), LineCol { line: 1, col: 1 });
        assert_eq!(idx.line_col(3), LineCol { line: 2, col: 1 });
        assert_eq!(idx.line_col(4), LineCol { line: 2, col: 2 });
        assert_eq!(idx.line_col(8), LineCol { line: 4, col: 1 });
        assert_eq!(idx.line_span(2, src).text(src), "cd");
        let s = idx.line_span(9, src);
        assert_eq!((s.start, s.end), (9, 9));
    }
}
