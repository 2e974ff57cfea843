//! Formatting: the whole document through ptxkit's canonical printer.

use lsp_types::{Position, Range, TextEdit};
use ptxkit::lex::{Lexer, TokenKind};

use crate::document::Document;

/// The edit that formats `doc`, or why it cannot be formatted: a module
/// with syntax errors is left alone, and so is one with comments, which
/// the canonical printer does not keep.
pub fn format(doc: &Document) -> Result<Vec<TextEdit>, String> {
    let a = &doc.analysis;
    if a.syntax.iter().any(ptxkit::Diagnostic::is_error) {
        return Err("the document has syntax errors; fix them before formatting".into());
    }
    if has_comments(doc.text.as_bytes()) {
        return Err(
            "the document has comments, which the canonical printer does not keep; not formatted"
                .into(),
        );
    }
    let text = ptxkit::print::canonical(&a.module);
    if text == doc.text {
        return Ok(Vec::new());
    }
    let end = doc.lines.position(&doc.text, doc.text.len() as u32);
    Ok(vec![TextEdit::new(
        Range::new(Position::new(0, 0), end),
        text,
    )])
}

fn has_comments(src: &[u8]) -> bool {
    let mut lx = Lexer::new(src);
    loop {
        match lx.next_token().kind {
            TokenKind::Eof => return false,
            TokenKind::LineComment | TokenKind::BlockComment | TokenKind::UnterminatedComment => {
                return true
            }
            _ => {}
        }
    }
}
