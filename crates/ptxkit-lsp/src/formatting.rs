//! Formatting: the whole document through ptxkit's canonical printer.

use lsp_types::{Position, Range, TextEdit};

use crate::document::Document;

/// The edit that formats `doc`, or why it cannot be formatted: a module
/// with syntax errors is left alone. Comments are kept (as `ptx fmt` keeps
/// them: before the statement they precede, or at the end of the line
/// they end).
pub fn format(doc: &Document) -> Result<Vec<TextEdit>, String> {
    let a = &doc.analysis;
    if let Some(size) = a.large() {
        return Err(format!(
            "the document ({size} bytes) is over the size analysed in full (`largeAbove`); \
             format it with `ptx fmt`"
        ));
    }
    if a.syntax.iter().any(ptxkit::Diagnostic::is_error) {
        return Err("the document has syntax errors; fix them before formatting".into());
    }
    let text = ptxkit::print::canonical_with_comments(&a.module, doc.text.as_bytes());
    if text == doc.text {
        return Ok(Vec::new());
    }
    let end = doc.lines.position(&doc.text, doc.text.len() as u32);
    Ok(vec![TextEdit::new(
        Range::new(Position::new(0, 0), end),
        text,
    )])
}
