//! Diagnostics and their rendering.
//!
//! The text form ([`render`]) starts with the GNU line
//! `path:line:col: error: message [code]` (what editors and scripts jump
//! to), followed by a code frame drawn by `annotate-snippets` with the
//! secondary labels and notes. [`Bounded`] keeps the first diagnostics of
//! a check up to a limit and counts the rest, so memory stays bounded
//! whatever the input.

use serde::Serialize;

use crate::source::{LineIndex, Span};

mod bounded;
mod code;
mod excerpt;
mod render;
mod spill;

pub use bounded::{Bounded, Collected};
pub use code::{Code, UnknownCode};
pub use spill::Sorted;
pub(crate) use spill::{decode, encode};

/// How serious.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth a look; does not fail `ptx check`.
    Warning,
    /// The input is not valid PTX.
    Error,
}

impl Severity {
    /// Every severity, the most serious first.
    pub const ALL: [Severity; 2] = [Severity::Error, Severity::Warning];

    /// Its name in every report: `error` or `warning`. The word of the
    /// `path:line:col: error:` line, the JSON's `severity`, the GitHub
    /// workflow command (`::error`) and the SARIF `level` all use it, so
    /// front ends map a severity by this name rather than each by its own
    /// `match`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
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
    /// What kind of problem ([`Code`]); serialised as its spelling,
    /// e.g. `"E0101"`.
    pub code: Code,
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
    pub fn error(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
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
    pub fn warning(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
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

    /// The message followed by each note on a line of its own
    /// (`\nnote: ...`): the text of a report with no room for a code
    /// frame (SARIF, GitHub annotations, editor diagnostics).
    pub fn message_with_notes(&self) -> String {
        let mut text = self.message.clone();
        for n in &self.notes {
            text.push_str("\nnote: ");
            text.push_str(n);
        }
        text
    }
}

pub use render::{render, render_styled};

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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The name of a severity is the one serde writes in the JSON.
    #[test]
    fn severity_names_match_the_json() {
        for s in Severity::ALL {
            let json = serde_json::to_value(s).unwrap();
            assert_eq!(json.as_str(), Some(s.as_str()));
        }
        assert_eq!(Severity::Error.as_str(), "error");
        assert_eq!(Severity::Warning.as_str(), "warning");
    }

    #[test]
    fn notes_follow_the_message() {
        let d = Diagnostic::warning(Code::NotLiteral, Span::new(0, 1), "odd")
            .with_note("one")
            .with_note("two");
        assert_eq!(d.message_with_notes(), "odd\nnote: one\nnote: two");
        let d = Diagnostic::error(Code::Syntax, Span::new(0, 1), "bad");
        assert_eq!(d.message_with_notes(), "bad");
    }
}
