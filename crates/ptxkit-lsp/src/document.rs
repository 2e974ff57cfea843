//! An open document: its text, the map between byte offsets and protocol
//! positions, and the last analysis of it.

use lsp_types::{Position, Range, TextDocumentContentChangeEvent, Uri};
use ptxkit::Span;

use crate::analysis::Analysis;
use crate::cpp::Lang;

/// How the client counts columns: in UTF-8 bytes (when it offers the
/// `utf-8` position encoding) or, by default, in UTF-16 code units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Encoding {
    /// Columns in UTF-16 code units (the protocol's default).
    #[default]
    Utf16,
    /// Columns in bytes.
    Utf8,
}

/// Line starts of a text, for converting offsets to positions and back.
#[derive(Clone, Debug)]
pub struct LineMap {
    starts: Vec<u32>,
    encoding: Encoding,
}

impl LineMap {
    /// Index the lines of `text`.
    pub fn new(text: &str, encoding: Encoding) -> LineMap {
        let mut starts = vec![0u32];
        starts
            .extend(memchr_iter(text.as_bytes()).map(|i| u32::try_from(i + 1).unwrap_or(u32::MAX)));
        LineMap { starts, encoding }
    }

    /// The byte range of line `line` (0-based), terminator excluded.
    fn line(&self, text: &str, line: usize) -> (usize, usize) {
        let len = text.len();
        let start = self.starts.get(line).map_or(len, |&s| s as usize);
        let end = self
            .starts
            .get(line + 1)
            .map_or(len, |&s| (s as usize).saturating_sub(1));
        (start.min(len), end.max(start).min(len))
    }

    /// The byte offset of `pos`, clamped to the text (a column past the end
    /// of its line is the line's end).
    pub fn offset(&self, text: &str, pos: Position) -> u32 {
        let (start, end) = self.line(text, pos.line as usize);
        let line = text.get(start..end).unwrap_or("");
        let col = pos.character as usize;
        let within = match self.encoding {
            Encoding::Utf8 => {
                let mut c = col.min(line.len());
                while !line.is_char_boundary(c) {
                    c -= 1;
                }
                c
            }
            Encoding::Utf16 => {
                let mut units = 0;
                let mut at = line.len();
                for (i, ch) in line.char_indices() {
                    if units >= col {
                        at = i;
                        break;
                    }
                    units += ch.len_utf16();
                }
                at
            }
        };
        u32::try_from(start + within).unwrap_or(u32::MAX)
    }

    /// The position of byte offset `off` (clamped to the text).
    pub fn position(&self, text: &str, off: u32) -> Position {
        let off = (off as usize).min(text.len()) as u32;
        let line = match self.starts.binary_search(&off) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.starts.get(line).copied().unwrap_or(0) as usize;
        let mut end = off as usize;
        while end > start && !text.is_char_boundary(end) {
            end -= 1;
        }
        let seg = text.get(start..end).unwrap_or("");
        let character = match self.encoding {
            Encoding::Utf8 => seg.len(),
            Encoding::Utf16 if seg.is_ascii() => seg.len(),
            Encoding::Utf16 => seg.encode_utf16().count(),
        };
        Position::new(line as u32, character as u32)
    }

    /// The range of `span`.
    pub fn range(&self, text: &str, span: Span) -> Range {
        Range::new(
            self.position(text, span.start),
            self.position(text, span.end.max(span.start)),
        )
    }

    /// The span of `range`.
    pub fn span(&self, text: &str, range: Range) -> Span {
        let a = self.offset(text, range.start);
        let b = self.offset(text, range.end);
        Span::new(a.min(b), a.max(b))
    }

    /// Number of lines.
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// 0-based line of byte offset `off`.
    pub fn line_of(&self, off: u32) -> u32 {
        match self.starts.binary_search(&off) {
            Ok(i) => i as u32,
            Err(i) => i.saturating_sub(1) as u32,
        }
    }
}

fn memchr_iter(b: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(b'\n', b)
}

/// An open document.
pub struct Document {
    /// Its URI.
    pub uri: Uri,
    /// The version the client gave with the last change.
    pub version: i32,
    /// The current text.
    pub text: String,
    /// Its lines.
    pub lines: LineMap,
    /// The last whole analysis: of `text` when [`Document::fresh`], else of
    /// an earlier version (a newer one is on its way).
    pub analysis: Analysis,
    /// The version `analysis` is of.
    pub analysed: i32,
    /// The diagnostics of `text`, by item.
    pub layout: crate::incremental::Layout,
    /// The version whose analysis is being made in the background.
    pub refreshing: Option<i32>,
    /// PTX, CUDA C++ (only its `asm` statements are served) or another
    /// language (nothing is).
    pub lang: Lang,
    /// A C++ document's `asm` statements with their verdicts, of `text`
    /// (empty for PTX).
    pub asm: Vec<ptxkit::inline_asm::Checked>,
    /// How many targets the `asm` statements were tried against.
    pub asm_targets: usize,
}

impl Document {
    /// A PTX document opened with `text`.
    pub fn new(
        uri: Uri,
        version: i32,
        text: String,
        encoding: Encoding,
        target: Option<String>,
    ) -> Document {
        Document::open(uri, version, text, encoding, target, Lang::Ptx)
    }

    /// A document of language `lang` opened with `text`: a PTX module is
    /// analysed, a C++ source has its `asm` statements checked, another
    /// language is kept as text only.
    pub fn open(
        uri: Uri,
        version: i32,
        text: String,
        encoding: Encoding,
        target: Option<String>,
        lang: Lang,
    ) -> Document {
        let lines = LineMap::new(&text, encoding);
        let target_c = target.clone();
        let (analysis, asm) = match lang {
            Lang::Ptx => (Analysis::new(text.clone(), target, None), Vec::new()),
            Lang::Cpp => (
                Analysis::new(String::new(), None, None),
                crate::cpp::check(&text, target.as_deref()),
            ),
            Lang::Other => (Analysis::new(String::new(), None, None), Vec::new()),
        };
        let layout = crate::incremental::Layout::of(&analysis);
        Document {
            uri,
            version,
            text,
            lines,
            analysis,
            analysed: version,
            layout,
            refreshing: None,
            lang,
            asm,
            asm_targets: crate::cpp::selected(target_c.as_deref()),
        }
    }

    /// Check a C++ document's `asm` statements again, after an edit;
    /// returns whether the document is C++ (else nothing is done).
    pub fn recheck_asm(&mut self, target: Option<&str>) -> bool {
        match self.lang {
            Lang::Cpp => {
                self.asm = crate::cpp::check(&self.text, target);
                self.asm_targets = crate::cpp::selected(target);
            }
            Lang::Other => self.asm.clear(),
            Lang::Ptx => return false,
        }
        self.analysed = self.version;
        true
    }

    /// Whether the analysis is of the current text.
    pub fn fresh(&self) -> bool {
        self.analysed == self.version
    }

    /// Install `a`, the whole analysis of `version`, if that is still
    /// the current one; returns whether it was.
    pub fn install(&mut self, version: i32, a: Analysis) -> bool {
        if version != self.version {
            return false;
        }
        self.layout = crate::incremental::Layout::of(&a);
        let old = std::mem::replace(&mut self.analysis, a);
        self.analysed = version;
        // A tree of megabytes takes tens of milliseconds to free: not on
        // the thread that answers the next keystroke.
        if old.text.len() > 1 << 20 {
            std::thread::spawn(move || drop(old));
        }
        true
    }

    /// Apply the changes of a `didChange` notification, in order. A change
    /// without a range replaces the whole text.
    pub fn apply(&mut self, changes: Vec<TextDocumentContentChangeEvent>, encoding: Encoding) {
        for ch in changes {
            match ch.range {
                Some(r) => {
                    let s = self.lines.span(&self.text, r);
                    let (a, b) = (s.start as usize, s.end as usize);
                    if self.text.is_char_boundary(a) && self.text.is_char_boundary(b) {
                        self.text.replace_range(a..b, &ch.text);
                    }
                }
                None => self.text = ch.text,
            }
            self.lines = LineMap::new(&self.text, encoding);
        }
    }

    /// The range of `span` in the current text.
    pub fn range(&self, span: Span) -> Range {
        self.lines.range(&self.text, span)
    }

    /// The byte offset of `pos` in the current text.
    pub fn offset(&self, pos: Position) -> u32 {
        self.lines.offset(&self.text, pos)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_in_both_encodings() {
        let text = "ab\n// é𝄞x\n\nlast";
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            let m = LineMap::new(text, enc);
            for (off, _) in text.char_indices() {
                let p = m.position(text, off as u32);
                assert_eq!(m.offset(text, p), off as u32, "{enc:?} {off}");
            }
        }
        let m = LineMap::new(text, Encoding::Utf16);
        // `x` follows a 2-byte and a 4-byte character: column 3 + 1 + 2.
        let x = text.find('x').unwrap() as u32;
        assert_eq!(m.position(text, x), Position::new(1, 6));
        let m8 = LineMap::new(text, Encoding::Utf8);
        assert_eq!(m8.position(text, x), Position::new(1, 9));
        // Past the end of a line clamps to its end.
        assert_eq!(m.offset(text, Position::new(0, 99)), 2);
        assert_eq!(m.offset(text, Position::new(99, 0)), text.len() as u32);
    }
}
