//! Diagnostics and their rendering.
//!
//! The text form starts with the GNU line `path:line:col: error: message`
//! (what editors and scripts jump to), followed by a code frame in the style
//! of GCC/Clang, secondary labels and notes. We render it ourselves because
//! the common Rust diagnostic crates lead with a `error[..]:` header instead of
//! the GNU line.

use serde::Serialize;

use crate::source::{LineIndex, Span};

/// How serious.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth a look; does not fail `ptx check`.
    Warning,
    /// The input is not valid PTX.
    Error,
}

/// A secondary location with a message.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What it is.
    pub message: String,
}

/// A problem found in the input.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Stable code, e.g. `E0101`.
    pub code: &'static str,
    /// One-line message.
    pub message: String,
    /// Primary location.
    pub span: Span,
    /// Secondary locations.
    pub labels: Vec<Label>,
    /// Notes: the rule, a hint.
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// An error.
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            span,
            labels: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// A warning.
    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }

    /// Add a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Add a secondary label.
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Whether an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The diagnostic codes of the front end.
pub mod codes {
    /// A byte that starts no token.
    pub const UNKNOWN_CHAR: &str = "E0001";
    /// A malformed or out-of-range number.
    pub const BAD_NUMBER: &str = "E0002";
    /// A comment or string not closed before the end of the file.
    pub const UNTERMINATED: &str = "E0003";
    /// A token that does not fit the grammar here.
    pub const SYNTAX: &str = "E0101";
    /// Input ended inside a construct.
    pub const UNEXPECTED_EOF: &str = "E0102";
    /// A directive the grammar does not know.
    pub const UNKNOWN_DIRECTIVE: &str = "E0103";
    /// Nesting (blocks, initializer braces, parentheses, expression chains)
    /// deeper than [`crate::MAX_DEPTH`].
    pub const LIMIT: &str = "E0104";
    /// A register range `%r<N>` beyond [`crate::MAX_REGISTER_RANGE`].
    pub const REGISTER_RANGE: &str = "E0105";
    /// An input larger than [`crate::MAX_FILE_SIZE`].
    pub const FILE_TOO_LARGE: &str = "E0106";
    /// An instruction the catalog does not know.
    pub const UNKNOWN_OPCODE: &str = "E0201";
    /// A modifier the opcode does not take.
    pub const UNKNOWN_MODIFIER: &str = "E0202";
    /// Modifiers that no form of the opcode accepts together.
    pub const BAD_MODIFIERS: &str = "E0203";
    /// Operands that fit no form of the instruction.
    pub const BAD_OPERANDS: &str = "E0204";
    /// `.version` missing or not first.
    pub const MISSING_VERSION: &str = "E0301";
    /// `.target` missing.
    pub const MISSING_TARGET: &str = "E0302";
}

/// Render `d` for a file: the GNU line, then a code frame, labels and notes.
pub fn render(d: &Diagnostic, path: &str, src: &[u8], index: &LineIndex) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let lc = index.line_col(d.span.start.min(src.len() as u32));
    let sev = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let _ = writeln!(
        out,
        "{path}:{}:{}: {sev}: {} [{}]",
        lc.line, lc.col, d.message, d.code
    );
    frame(&mut out, d.span, None, src, index);
    for l in &d.labels {
        let llc = index.line_col(l.span.start.min(src.len() as u32));
        let _ = writeln!(out, "{path}:{}:{}: note: {}", llc.line, llc.col, l.message);
        frame(&mut out, l.span, None, src, index);
    }
    for n in &d.notes {
        let _ = writeln!(out, "  = note: {n}");
    }
    out
}

/// One source line with a caret underline.
fn frame(out: &mut String, span: Span, label: Option<&str>, src: &[u8], index: &LineIndex) {
    use std::fmt::Write;
    let start = span.start.min(src.len() as u32);
    let lc = index.line_col(start);
    let line = index.line_span(lc.line, src);
    let text = line.text(src);
    // Keep frames readable on huge generated lines.
    let (shown, offset) = clip(&text, lc.col.saturating_sub(1) as usize);
    let gutter = lc.line.to_string();
    let _ = writeln!(out, " {gutter} | {shown}");
    let width = span.end.min(line.end).saturating_sub(start).max(1) as usize;
    let width = width.min(shown.len().saturating_sub(offset).max(1));
    let pad: String = shown
        .chars()
        .take(offset)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let _ = writeln!(
        out,
        " {} | {pad}^{}{}",
        " ".repeat(gutter.len()),
        "~".repeat(width.saturating_sub(1)),
        label.map(|l| format!(" {l}")).unwrap_or_default()
    );
}

/// Cut a long line to a window around byte column `col`; returns the window
/// and the column within it.
fn clip(text: &str, col: usize) -> (String, usize) {
    const MAX: usize = 160;
    if text.len() <= MAX {
        return (text.to_string(), col.min(text.len()));
    }
    let mut start = col.saturating_sub(MAX / 2);
    while !text.is_char_boundary(start) && start > 0 {
        start = start.saturating_sub(1);
    }
    let mut end = start.saturating_add(MAX).min(text.len());
    while !text.is_char_boundary(end) && end < text.len() {
        end = end.saturating_add(1);
    }
    let body = text.get(start..end).unwrap_or("");
    let prefix = if start > 0 { "..." } else { "" };
    (
        format!("{prefix}{body}"),
        col.saturating_sub(start).saturating_add(prefix.len()),
    )
}

/// A JSON-ready view of a diagnostic with resolved positions.
#[derive(Clone, Debug, Serialize)]
pub struct JsonDiagnostic<'a> {
    /// The file.
    pub file: &'a str,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// Line of the span's end.
    pub end_line: u32,
    /// Column of the span's end.
    pub end_column: u32,
    /// The diagnostic.
    #[serde(flatten)]
    pub diagnostic: &'a Diagnostic,
}

impl<'a> JsonDiagnostic<'a> {
    /// Resolve positions of `d` in `file`.
    pub fn new(file: &'a str, d: &'a Diagnostic, index: &LineIndex) -> JsonDiagnostic<'a> {
        let s = index.line_col(d.span.start);
        let e = index.line_col(d.span.end);
        JsonDiagnostic {
            file,
            line: s.line,
            column: s.col,
            end_line: e.line,
            end_column: e.col,
            diagnostic: d,
        }
    }
}
