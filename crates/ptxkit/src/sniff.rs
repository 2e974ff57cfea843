//! Telling text from binary before parsing: a tool handed an image, an
//! archive or a compiled object by mistake says so once, rather than
//! reporting every byte of it as an error.
//!
//! Only the start of the input is looked at (see [`SNIFF`]), as `git` and
//! `grep` do. CUDA binaries are recognised by [`crate::binary::is_binary`]
//! and read with [`crate::binary`]; this module is for what is neither PTX
//! nor a CUDA binary.

use std::fmt;

/// Bytes looked at from the start of the input.
pub const SNIFF: usize = 64 * 1024;

/// Why an input is not text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotText {
    /// A NUL byte at this offset, with more than NUL bytes and whitespace
    /// after it (compilers that dump PTX as a C string leave a trailing
    /// NUL: that is read as text).
    Nul(usize),
    /// Too many bytes that are neither UTF-8 text nor whitespace: this many
    /// of the first `of`.
    Garbage {
        /// Invalid UTF-8 sequences and control bytes counted.
        bad: usize,
        /// Bytes looked at.
        of: usize,
    },
}

impl NotText {
    /// The reason, for an input that should have been `what` (`PTX`,
    /// `C++ source`): `not C++ source text: a NUL byte at offset 12`.
    pub fn describe(&self, what: &str) -> String {
        match self {
            NotText::Nul(at) => format!("not {what} text: a NUL byte at offset {at}"),
            NotText::Garbage { bad, of } => format!(
                "not {what} text: {bad} of its first {of} bytes are control bytes or not UTF-8"
            ),
        }
    }
}

impl fmt::Display for NotText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe("PTX"))
    }
}

/// Why `bytes` is not text, if it is not: a NUL byte before the end (NUL
/// padding at the end is allowed), or (at least 4 and) more than one byte in 32 of the first
/// [`SNIFF`] that is a control byte (other than whitespace) or part of an
/// invalid UTF-8 sequence. A few stray Latin-1 bytes in comments do not
/// make a file binary.
///
/// ```
/// use ptxkit::sniff::{not_text, NotText};
/// assert_eq!(not_text(b".version 8.0\n\0\0"), None);
/// assert_eq!(not_text(b".version\0 8.0\n"), Some(NotText::Nul(8)));
/// assert!(matches!(not_text(&[0xff, 0xfe, 0x1b, 0x01, b'a']), Some(NotText::Garbage { .. })));
/// ```
pub fn not_text(bytes: &[u8]) -> Option<NotText> {
    let head = bytes.get(..SNIFF).unwrap_or(bytes);
    if let Some(at) = memchr::memchr(0, head) {
        let rest = bytes.get(at..).unwrap_or_default();
        if !rest.iter().all(|&b| b == 0 || b.is_ascii_whitespace()) {
            return Some(NotText::Nul(at));
        }
    }
    let mut bad = 0usize;
    let truncated = head.len() < bytes.len();
    let mut chunks = head.utf8_chunks().peekable();
    while let Some(chunk) = chunks.next() {
        bad = bad.saturating_add(
            chunk
                .valid()
                .bytes()
                .filter(|&b| (b < 0x20 && !b.is_ascii_whitespace() && b != 0) || b == 0x7f)
                .count(),
        );
        let last = chunks.peek().is_none();
        // A character cut by the end of the window is not an error.
        let cut = last && truncated && chunk.invalid().len() < 4;
        if !chunk.invalid().is_empty() && !cut {
            bad = bad.saturating_add(1);
        }
    }
    (bad >= 4 && bad.saturating_mul(32) > head.len()).then_some(NotText::Garbage {
        bad,
        of: head.len(),
    })
}

/// Why text is not PTX, if it is not: its first token (after whitespace
/// and comments) is not a dot word, where a PTX module opens with a
/// directive (`.version`, `.target`, …). A Markdown page, C++ source or a
/// log handed to a PTX tool is then one clear error, not an error per
/// line. Empty text, or text that is only comments, is PTX (an empty
/// module).
///
/// ```
/// use ptxkit::sniff::not_ptx;
/// assert_eq!(not_ptx(b"// made by hand\n.version 8.0\n"), None);
/// assert_eq!(not_ptx(b""), None);
/// assert_eq!(not_ptx(b"# ptxkit\n").unwrap().first, "#");
/// assert_eq!(not_ptx(b"  #include <cuda.h>\n").unwrap().line, 1);
/// ```
pub fn not_ptx(bytes: &[u8]) -> Option<NotPtx> {
    first_token_not_ptx(bytes).map(|(why, _)| why)
}

/// [`not_ptx`] of a text of which `head` is only the start, answered only
/// when the rest cannot change it: the first token that shows the text is
/// not PTX ends before `head` does, or starts with a byte that no
/// directive and no comment starts with (a run of NUL bytes to the end of
/// `head` is one such token). A `.` or `/` cut at the end, a comment still
/// open there, only whitespace so far: `None`. So a stream can be refused
/// from its first bytes.
///
/// ```
/// use ptxkit::sniff::not_ptx_prefix;
/// assert!(not_ptx_prefix(b"# ptxkit\n").is_some());
/// assert_eq!(not_ptx_prefix(b"   "), None);
/// assert_eq!(not_ptx_prefix(b"/* a comment not closed yet"), None);
/// assert_eq!(not_ptx_prefix(b"\n\n."), None);
/// assert!(not_ptx_prefix(&[0; 100]).is_some());
/// ```
pub fn not_ptx_prefix(head: &[u8]) -> Option<NotPtx> {
    first_token_not_ptx(head)
        .filter(|&(_, (start, end))| {
            end < head.len() || !matches!(head.get(start), Some(b'.' | b'/'))
        })
        .map(|(why, _)| why)
}

/// [`not_ptx`], with the span of the token it quotes.
fn first_token_not_ptx(bytes: &[u8]) -> Option<(NotPtx, (usize, usize))> {
    use crate::lex::{Lexer, TokenKind};
    let mut lx = Lexer::new(bytes);
    loop {
        let t = lx.next_token();
        match t.kind {
            TokenKind::Whitespace | TokenKind::LineComment | TokenKind::BlockComment => {}
            TokenKind::Eof | TokenKind::DotWord => return None,
            _ => {
                let start = t.span.start as usize;
                let end = t.span.end as usize;
                let text = bytes.get(start..end).unwrap_or_default();
                let before = bytes.get(..start).unwrap_or_default();
                // Control bytes (a run of NULs) are quoted escaped.
                let first = String::from_utf8_lossy(text.get(..40).unwrap_or(text))
                    .chars()
                    .flat_map(|c| {
                        let esc = c.is_control().then(|| c.escape_default());
                        esc.into_iter()
                            .flatten()
                            .chain((!c.is_control()).then_some(c))
                    })
                    .take(40)
                    .collect();
                let why = NotPtx {
                    first,
                    line: before
                        .iter()
                        .filter(|&&b| b == b'\n')
                        .count()
                        .saturating_add(1),
                };
                return Some((why, (start, end)));
            }
        }
    }
}

/// Text that does not start as PTX does ([`not_ptx`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotPtx {
    /// The first token, as written (at most 40 bytes).
    pub first: String,
    /// Its 1-based line.
    pub line: usize,
}

impl fmt::Display for NotPtx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not PTX: it starts with `{}` (line {}), where a PTX module starts with a directive such as `.version`",
            self.first, self.line
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_with_a_few_latin1_bytes_is_text() {
        let mut src = b"// caf\xe9\n.version 8.0\n".to_vec();
        src.extend(std::iter::repeat_n(b' ', 100));
        assert_eq!(not_text(&src), None);
    }

    #[test]
    fn binary_noise_is_not_text() {
        // A deterministic byte soup without NULs.
        let noise: Vec<u8> = (1..5000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8 | 1)
            .collect();
        assert!(matches!(not_text(&noise), Some(NotText::Garbage { .. })));
    }

    #[test]
    fn a_character_cut_by_the_window_is_fine() {
        let mut src = vec![b'a'; SNIFF - 1];
        src.extend("é and more".as_bytes());
        assert_eq!(not_text(&src), None);
    }

    #[test]
    fn nul_inside_is_binary_nul_at_the_end_is_not() {
        assert_eq!(not_text(b"ab\0\0\n\0"), None);
        assert_eq!(not_text(b"ab\0c"), Some(NotText::Nul(2)));
    }
}
