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

/// Where [`LineMap::position_after`] last stopped: a line, a byte offset
/// on it and the column there.
#[derive(Clone, Copy, Debug)]
pub struct Columns {
    line: u32,
    at: usize,
    col: u32,
}

impl Default for Columns {
    fn default() -> Columns {
        Columns {
            line: u32::MAX,
            at: 0,
            col: 0,
        }
    }
}

/// Line starts of a text, for converting offsets to positions and back.
/// It follows an edit in the lines the edit touches and a shift of the
/// starts after it ([`LineMap::edit`]), not a new pass over the text.
#[derive(Clone, Debug)]
pub struct LineMap {
    starts: Vec<u32>,
    encoding: Encoding,
    /// When columns count UTF-16 units: the lines longer than [`STRIDE`]
    /// bytes, by line number, with (byte offset, column) checkpoints about
    /// every [`STRIDE`] bytes from the line's start (none for a line that
    /// is all ASCII), so that a column on a long line is counted from the
    /// nearest one. A shorter line is looked at whole when asked.
    long: Vec<(u32, Vec<(u32, u32)>)>,
}

/// Bytes between two checkpoints of a line's columns; lines longer than
/// this have checkpoints.
const STRIDE: usize = 1024;

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The checkpoints of the line `text[start..end]`, if it is long: empty
/// when it is all ASCII.
fn checkpoints(text: &str, start: usize, end: usize) -> Option<Vec<(u32, u32)>> {
    if end.saturating_sub(start) <= STRIDE {
        return None;
    }
    let seg = text.get(start..end).unwrap_or("");
    if seg.is_ascii() {
        return Some(Vec::new());
    }
    let mut marks = vec![(to_u32(start), 0u32)];
    let (mut next, mut col) = (STRIDE, 0u32);
    for (i, ch) in seg.char_indices() {
        if i >= next {
            marks.push((to_u32(start + i), col));
            next = i + STRIDE;
        }
        col = col.saturating_add(ch.len_utf16() as u32);
    }
    Some(marks)
}

impl LineMap {
    /// Index the lines of `text`.
    pub fn new(text: &str, encoding: Encoding) -> LineMap {
        let mut starts = vec![0u32];
        starts.extend(memchr_iter(text.as_bytes()).map(|i| to_u32(i + 1)));
        let mut m = LineMap {
            starts,
            encoding,
            long: Vec::new(),
        };
        m.long = m.checkpoints_of(text, 0, m.starts.len());
        m
    }

    /// How columns are counted.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The checkpoints of lines `from..to` that are long (UTF-16 only).
    fn checkpoints_of(&self, text: &str, from: usize, to: usize) -> Vec<(u32, Vec<(u32, u32)>)> {
        if self.encoding != Encoding::Utf16 {
            return Vec::new();
        }
        (from..to)
            .filter_map(|line| {
                let (start, end) = self.line(text, line);
                checkpoints(text, start, end).map(|c| (to_u32(line), c))
            })
            .collect()
    }

    /// Follow an edit: `removed` bytes at `at` were replaced by
    /// `inserted` bytes; `text` is the text after it. The starts of the
    /// lines after the edit are shifted, those inside it replaced, and the
    /// checkpoints of the lines it touched made again: no pass over the
    /// rest of the text.
    pub fn edit(&mut self, text: &str, at: usize, removed: usize, inserted: usize) {
        let end = at.saturating_add(removed);
        // Starts up to `at` stay; those inside the removed bytes go.
        let i0 = self.starts.partition_point(|&s| s as usize <= at).max(1);
        let i1 = self.starts.partition_point(|&s| s as usize <= end).max(i0);
        let new_bytes = text
            .as_bytes()
            .get(at..at.saturating_add(inserted))
            .unwrap_or_default();
        let new: Vec<u32> = memchr_iter(new_bytes).map(|i| to_u32(at + i + 1)).collect();
        let added = new.len();
        self.starts.splice(i0..i1, new);
        for s in self.starts.iter_mut().skip(i0 + added) {
            *s = to_u32(
                (*s as usize)
                    .saturating_sub(removed)
                    .saturating_add(inserted),
            );
        }
        if self.encoding != Encoding::Utf16 {
            return;
        }
        // Lines i0 - 1 ..= i1 - 1 were touched; they are now
        // i0 - 1 ..= i0 - 1 + added.
        let first = to_u32(i0 - 1);
        let (old_last, new_last) = (to_u32(i1 - 1), to_u32(i0 - 1 + added));
        let a = self.long.partition_point(|(l, _)| *l < first);
        let b = self.long.partition_point(|(l, _)| *l <= old_last);
        for (line, marks) in self.long.iter_mut().skip(b) {
            *line = (*line - old_last) + new_last;
            for (byte, _) in marks {
                *byte = to_u32(
                    (*byte as usize)
                        .saturating_sub(removed)
                        .saturating_add(inserted),
                );
            }
        }
        let fresh = self.checkpoints_of(text, i0 - 1, i0 + added);
        self.long.splice(a..b, fresh);
    }

    /// The checkpoints of `line`, when it is long and columns count UTF-16
    /// units (empty: the line is all ASCII).
    fn marks(&self, line: usize) -> Option<&[(u32, u32)]> {
        let line = u32::try_from(line).ok()?;
        let i = self.long.binary_search_by_key(&line, |(l, _)| *l).ok()?;
        self.long.get(i).map(|(_, m)| m.as_slice())
    }

    /// The checkpoint at or before byte `off` of a long `line` that is not
    /// all ASCII: (byte offset, column).
    fn mark_before(marks: &[(u32, u32)], off: usize) -> Option<(usize, u32)> {
        let i = marks.partition_point(|&(b, _)| b as usize <= off);
        marks.get(i.checked_sub(1)?).map(|&(b, c)| (b as usize, c))
    }

    /// The checkpoint at or before column `col` of a long line that is not
    /// all ASCII: (byte offset, column).
    fn mark_before_col(marks: &[(u32, u32)], col: usize) -> Option<(usize, u32)> {
        let i = marks.partition_point(|&(_, c)| c as usize <= col);
        marks.get(i.checked_sub(1)?).map(|&(b, c)| (b as usize, c))
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
                let marks = self.marks(pos.line as usize);
                let ascii = match marks {
                    Some(m) => m.is_empty(),
                    None => line.is_ascii(),
                };
                if ascii {
                    return to_u32(start + col.min(line.len()));
                }
                // From the nearest checkpoint (or the line's start).
                let (from, mut units) = marks
                    .and_then(|m| Self::mark_before_col(m, col))
                    .map_or((0, 0), |(b, c)| (b.saturating_sub(start), c as usize));
                let mut at = line.len();
                for (i, ch) in line.get(from..).unwrap_or("").char_indices() {
                    if units >= col {
                        at = from + i;
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
        // A long line that is not all ASCII is counted from its nearest
        // checkpoint, a short one from its start; ASCII by the bytes.
        let from = match self.encoding {
            Encoding::Utf16 => match self.marks(line) {
                Some(m) => Self::mark_before(m, end),
                None => Some((start, 0)),
            },
            Encoding::Utf8 => None,
        };
        let character = match from {
            Some((from, base)) => {
                let seg = text.get(from..end).unwrap_or("");
                let units = if seg.is_ascii() {
                    seg.len()
                } else {
                    seg.encode_utf16().count()
                };
                (base as usize).saturating_add(units)
            }
            None => end.saturating_sub(start),
        };
        Position::new(line as u32, character as u32)
    }

    /// The byte offset where line `line` ends (its terminator excluded).
    pub fn line_end(&self, text: &str, line: u32) -> u32 {
        u32::try_from(self.line(text, line as usize).1).unwrap_or(u32::MAX)
    }

    /// [`LineMap::position`] for offsets met in increasing order: each
    /// column is counted on from the last position of the same line, so
    /// the positions along one long line cost its length once, not once
    /// each (a 400 KB line of 20,000 parameters took 18 s of semantic
    /// tokens). Any order is answered right, only more slowly.
    pub fn position_after(&self, text: &str, c: &mut Columns, off: u32) -> Position {
        let mut end = (off as usize).min(text.len());
        while end > 0 && !text.is_char_boundary(end) {
            end -= 1;
        }
        let line = self.line_of(u32::try_from(end).unwrap_or(u32::MAX));
        let start = self.starts.get(line as usize).copied().unwrap_or(0) as usize;
        if c.line != line || c.at < start || c.at > end {
            *c = Columns {
                line,
                at: start,
                col: 0,
            };
        }
        let seg = text.get(c.at..end).unwrap_or("");
        let more = match self.encoding {
            Encoding::Utf8 => seg.len(),
            Encoding::Utf16 if seg.is_ascii() => seg.len(),
            Encoding::Utf16 => seg.encode_utf16().count(),
        };
        c.col = c
            .col
            .saturating_add(u32::try_from(more).unwrap_or(u32::MAX));
        c.at = end;
        Position::new(line, c.col)
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
    /// What checked them, keeping their results so that a check after an
    /// edit judges only the statements the edit changed (`None` but for
    /// C++).
    pub asm_checker: Option<ptxkit::inline_asm::Incremental>,
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
        Document::open(
            uri,
            version,
            text,
            encoding,
            target,
            Lang::Ptx,
            crate::analysis::LARGE_ABOVE,
        )
    }

    /// A document of language `lang` opened with `text`: a PTX module is
    /// analysed, a C++ source has its `asm` statements checked, another
    /// language is kept as text only. A PTX text over `large_above` bytes
    /// has its diagnostics only ([`crate::analysis::LARGE_ABOVE`]).
    pub fn open(
        uri: Uri,
        version: i32,
        text: String,
        encoding: Encoding,
        target: Option<String>,
        lang: Lang,
        large_above: usize,
    ) -> Document {
        let lines = LineMap::new(&text, encoding);
        let target_c = target.clone();
        let mut asm_checker = None;
        let (analysis, asm) = match lang {
            Lang::Ptx => (
                Analysis::of_text(&text, target, None, large_above),
                Vec::new(),
            ),
            Lang::Cpp => (
                Analysis::new(String::new(), None, None),
                crate::cpp::check_again(&mut asm_checker, &text, target.as_deref()),
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
            asm_checker,
            asm_targets: crate::cpp::selected(target_c.as_deref()),
        }
    }

    /// Check a C++ document's `asm` statements again, after an edit:
    /// the statements are found again, and those the last check judged
    /// (unchanged, or only moved) take their results back, moved; the
    /// others are judged. Returns whether the document is C++ (else
    /// nothing is done).
    pub fn recheck_asm(&mut self, target: Option<&str>) -> bool {
        match self.lang {
            Lang::Cpp => {
                let asm = crate::cpp::check_again(&mut self.asm_checker, &self.text, target);
                let old = std::mem::replace(&mut self.asm, asm);
                // Thousands of statements take milliseconds to free: not
                // on the thread that answers the next keystroke (but here
                // when no thread can be made).
                if old.len() > 1 << 12 {
                    let _ = std::thread::Builder::new().spawn(move || drop(old));
                }
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
        if changes.len() >= crate::batch::MIN_BATCH {
            // Many edits in document order: one copy and one new index,
            // not a move of the text after each edit.
            if let Some(text) = crate::batch::apply_in_one_pass(&self.text, &self.lines, &changes) {
                self.text = text;
                self.lines = LineMap::new(&self.text, self.lines.encoding());
                return;
            }
        }
        for ch in changes {
            match ch.range {
                Some(r) => {
                    let s = self.lines.span(&self.text, r);
                    let (a, b) = (s.start as usize, s.end as usize);
                    if self.text.is_char_boundary(a) && self.text.is_char_boundary(b) {
                        self.text.replace_range(a..b, &ch.text);
                        self.lines.edit(&self.text, a, b - a, ch.text.len());
                    }
                }
                None => {
                    self.text = ch.text;
                    self.lines = LineMap::new(&self.text, encoding);
                }
            }
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

    /// Random edits (line breaks, every UTF-16 width, lines longer than
    /// a checkpoint stride) followed by `LineMap::edit` give the map a new
    /// index of the edited text would, in both encodings.
    #[test]
    fn an_edited_map_is_the_map_of_the_edited_text() {
        let pieces = [
            "a",
            "\n",
            "é",
            "𝄞",
            "中",
            "bc\n",
            &"x".repeat(700),
            &"é".repeat(400),
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut with_long_lines = 0;
        for enc in [Encoding::Utf16, Encoding::Utf8] {
            let mut text = String::new();
            let mut map = LineMap::new(&text, enc);
            for _ in 0..2_000 {
                let at = {
                    let mut k = next(text.len() + 1);
                    while !text.is_char_boundary(k) {
                        k -= 1;
                    }
                    k
                };
                let mut end = (at + next(1_500)).min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                let inserted: String = (0..next(4)).map(|_| pieces[next(pieces.len())]).collect();
                text.replace_range(at..end, &inserted);
                map.edit(&text, at, end - at, inserted.len());
                let fresh = LineMap::new(&text, enc);
                assert_eq!(format!("{map:?}"), format!("{fresh:?}"), "{enc:?}");
                with_long_lines += usize::from(fresh.long.iter().any(|(_, m)| !m.is_empty()));
            }
            // And they answer alike.
            let fresh = LineMap::new(&text, enc);
            for (off, _) in text.char_indices().step_by(7) {
                let p = map.position(&text, off as u32);
                assert_eq!(p, fresh.position(&text, off as u32));
                assert_eq!(map.offset(&text, p), off as u32);
            }
        }
        // The edits went through long lines that are not all ASCII.
        assert!(with_long_lines > 200, "{with_long_lines}");
    }

    /// Long lines with characters of every UTF-16 width: positions and
    /// offsets through the checkpoints agree with counting from the
    /// line's start, and so do positions met in order.
    #[test]
    fn long_lines_count_from_checkpoints() {
        let mut text = String::from("first\n");
        for i in 0..3000 {
            text.push_str(["a", "é", "𝄞", "中"][i % 4]);
            if i % 777 == 0 {
                text.push_str(" ascii run ");
            }
        }
        text.push_str("\nplain ascii line\n");
        let naive = |off: usize| {
            let start = text[..off].rfind('\n').map_or(0, |i| i + 1);
            let line = text[..off].matches('\n').count() as u32;
            Position::new(line, text[start..off].encode_utf16().count() as u32)
        };
        let m = LineMap::new(&text, Encoding::Utf16);
        let mut cols = Columns::default();
        for (off, _) in text.char_indices() {
            let p = m.position(&text, off as u32);
            assert_eq!(p, naive(off), "{off}");
            assert_eq!(m.position_after(&text, &mut cols, off as u32), p, "{off}");
            assert_eq!(m.offset(&text, p), off as u32, "{off}");
        }
        // Out of order, too.
        let mut cols = Columns::default();
        for off in [900usize, 40, 5000, 7] {
            let off = (0..=off).rev().find(|&o| text.is_char_boundary(o)).unwrap();
            assert_eq!(m.position_after(&text, &mut cols, off as u32), naive(off));
        }
    }

    /// A CUDA C++ source with `asm` statements of every shape the
    /// incremental check has to move right: escapes, literals split by a
    /// comment, a template from a macro defined far above, statements from
    /// macro invocations (the body in one place, the arguments in
    /// another), `#if` branches (around statements and inside one, whose
    /// second reading is the one rejected), `"n"` operands from constants and from a
    /// template parameter, raw strings, and invalid ones to give
    /// diagnostics with labels.
    const CU: &str = r#"#include "none.h"
#define ADD(x, k) asm("add.s32 %0, %0, " #k ";" : "+r"(x))
#define BAD(x) asm volatile("add.s23 %0, %0, 1;" : "+r"(x))
#define TPL "mov.b32 %0, %1;"
constexpr int K = 4;
template <int N = 8> __device__ void g(int a) { asm("shl.b32 %0, %0, %1;" : "+r"(a) : "n"(N)); }
__device__ void f(int a, float b, short h) {
  asm volatile("add.s32 %0, %0, 1;" : "+r"(a));
  asm("add.s23 %0, %0, 2;" : "+r"(a));
  asm("mov.b32 %0, %2;" : "=r"(a) : "r"(a));
  asm(TPL : "=r"(a) : "r"(a));
  asm(TPL "\n\tadd.s23 %0, %0, 3;" : "=r"(a) : "r"(a));
  asm("ld.global" ".f33 %0, [%1];" : "=f"(b) : "l"(&a));
  asm("ld.global" /* a comment */ ".f32 %0, [%1];" : "=f"(b) : "l"(&a));
  asm("\tadd.s32 %0, %0, \x31;\n" : "+r"(a));
  asm("mov.b32 %0, %1;" : "=r"(a) : "h"(h));
  asm("mov.b16 %0, %1;" : "=h"(h) : "q"(a));
  ADD(a, 3);
  ADD(a, 300);
  BAD(a);
  BAD(
      a);
#if __CUDA_ARCH__ >= 900
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#else
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
  asm("mov.u32 %0, %%tid.x; // é" : "=r"(a));
  asm("add.s32 %0, %0, 1;"
#if __CUDA_ARCH__ >= 900
      "add.s23 %0, %0, 1;"
#endif
      : "+r"(a));
  asm("add.s32 %0, %0, %1;" : "+r"(a) : "n"(K));
  asm("bra.uni %l0;" :::: done);
  asm(R"(mov.b32 %0,
  %1;)" : "=r"(a) : "r"(a));
  asm("%[x]" : [x] "=r"(a));
done:
  asm(SOME_MACRO : "=r"(a));
}
"#;

    /// Random edits to [`CU`] (typing, deleting, pasting parts of it and
    /// of `asm` statements, breaking and mending literals, comments,
    /// macros and `#if`s), one `didChange` at a time: after each, the
    /// statements rechecked incrementally are exactly those a check from
    /// scratch gives (every span and offset hover, completion and
    /// diagnostics use: the whole results, compared by `Debug`), and so
    /// are the diagnostics published, positions included. Most statements
    /// took their results back rather than being judged again.
    #[test]
    fn asm_rechecked_after_random_edits_as_from_scratch() {
        let snippets = [
            " ",
            "\n",
            "7",
            "a",
            "\"",
            "/*",
            "*/",
            "//",
            "\\",
            "\\\n",
            "%0",
            "%1",
            "é",
            "𝄞",
            ";",
            ")",
            "(",
            ":",
            "s23",
            "s32",
            "  asm(\"add.s32 %0, %0, 5;\" : \"+r\"(a));\n",
            "  asm(\"sub.s32 %0, %0, \" \"5;\" : \"+r\"(a));\n",
            "#if __CUDA_ARCH__ >= 800\n",
            "#endif\n",
            "#define K 9\n",
            "#define TPL \"add.u32 %0, %1, 1;\"\n",
            "#undef TPL\n",
            "  ADD(a, 9);\n",
            "  BAD(b);\n",
            "// a line of comment\n",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n.max(1) as u64) as usize
        };
        let uri: Uri = "file:///t/k.cu".parse().unwrap();
        let enc = Encoding::Utf16;
        let open = |text: &str, target: Option<&str>| {
            Document::open(
                uri.clone(),
                1,
                text.to_string(),
                enc,
                target.map(str::to_string),
                Lang::Cpp,
                usize::MAX,
            )
        };
        let mut target: Option<&str> = None;
        let mut doc = open(CU, target);
        let (mut judged, mut found) = (0usize, 0usize);
        for step in 0..600 {
            // Back to the source (a change without a range) when the
            // edits have left few statements (an open literal or comment
            // swallows the rest), and now and then with another target.
            if step % 150 == 149 || doc.asm.len() < 20 {
                if step % 150 == 149 {
                    target = [None, Some("sm_90"), Some("sm_80")][next(3)];
                }
                doc.apply(
                    vec![TextDocumentContentChangeEvent {
                        range: None,
                        range_length: None,
                        text: CU.to_string(),
                    }],
                    enc,
                );
            } else {
                let mut changes = Vec::new();
                let mut text = doc.text.clone();
                let mut lines = LineMap::new(&text, enc);
                for _ in 0..1 + next(3) / 2 {
                    let boundary = |t: &str, mut k: usize| {
                        k = k.min(t.len());
                        while !t.is_char_boundary(k) {
                            k -= 1;
                        }
                        k
                    };
                    let at = boundary(&text, next(text.len() + 1));
                    let end = match next(4) {
                        0 => boundary(&text, at + next(40)),
                        _ => at,
                    };
                    let inserted = match next(5) {
                        0 => String::new(),
                        1 => {
                            // A copy of some of the text itself.
                            let a = boundary(&text, next(text.len() + 1));
                            let b = boundary(&text, a + next(120));
                            text[a..b].to_string()
                        }
                        _ => snippets[next(snippets.len())].to_string(),
                    };
                    let range = lines.range(&text, ptxkit::Span::new(at as u32, end as u32));
                    text.replace_range(at..end, &inserted);
                    lines = LineMap::new(&text, enc);
                    changes.push(TextDocumentContentChangeEvent {
                        range: Some(range),
                        range_length: None,
                        text: inserted,
                    });
                }
                doc.apply(changes, enc);
                assert_eq!(doc.text, text);
            }
            assert!(doc.recheck_asm(target));
            let inc = doc.asm_checker.as_ref().unwrap();
            judged += inc.judged_last();
            found += doc.asm.len();
            let full = crate::cpp::check(&doc.text, target);
            assert_eq!(
                format!("{:?}", doc.asm),
                format!("{full:?}"),
                "step {step}, target {target:?}:\n{}",
                doc.text
            );
            let fresh = open(&doc.text, target);
            assert_eq!(
                format!("{:?}", crate::diagnostics::of(&doc)),
                format!("{:?}", crate::diagnostics::of(&fresh)),
                "step {step}"
            );
        }
        // The edits kept most statements' results.
        eprintln!("{judged} of {found} statements judged");
        assert!(found > 10_000, "{found}");
        assert!(judged * 3 < found, "{judged} of {found} judged");
    }
}
