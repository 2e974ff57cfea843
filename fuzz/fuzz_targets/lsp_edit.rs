//! `ptx lsp` on arbitrary text and an arbitrary edit: the quick path for
//! edits inside a function body (`Layout::edit`) must give the diagnostics
//! of a whole analysis of the edited text when the text before the edit
//! had no syntax error (after a syntax error elsewhere, the parser's
//! recovery can read an edited body differently as part of the whole
//! module; the background re-analysis corrects those), and no request may
//! panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lsp_types::Position;
use ptxkit_lsp::analysis::Analysis;
use ptxkit_lsp::document::{Document, Encoding};
use ptxkit_lsp::incremental::Layout;

fn shown(ds: Vec<&ptxkit::Diagnostic>) -> Vec<(&'static str, u32, u32)> {
    let mut v: Vec<_> = ds.iter().map(|d| (d.code.as_str(), d.span.start, d.span.end)).collect();
    v.sort();
    v
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (head, rest) = data.split_at(4);
    let text = String::from_utf8_lossy(rest).into_owned();
    let n = text.len().max(1);
    let mut at = usize::from(u16::from_le_bytes([head[0], head[1]])) % n;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let mut end = (at + usize::from(head[2] % 16)).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let insert: String = text.chars().skip(usize::from(head[3])).take(usize::from(head[3] % 8)).collect();
    let mut new = text.clone();
    new.replace_range(at..end, &insert);

    let a = Analysis::new(text.clone(), None, None);
    let mut layout = Layout::of(&a);
    let clean = !a.syntax.iter().any(ptxkit::Diagnostic::is_error);
    if layout.edit(&a, &text, &new, None) && clean {
        let whole = Analysis::new(new.clone(), None, None);
        assert_eq!(shown(layout.diagnostics()), shown(whole.diagnostics()));
    }

    let Ok(uri) = "file:///f.ptx".parse() else { return };
    let doc = Document::new(uri, 1, new, Encoding::Utf16, None);
    let off = at as u32;
    let p = doc.lines.position(&doc.text, off);
    let _ = doc.lines.offset(&doc.text, Position::new(p.line, p.character + 3));
    let _ = ptxkit_lsp::hover::hover(&doc, off);
    let _ = ptxkit_lsp::completion::complete(&doc, off);
    let _ = ptxkit_lsp::signature::help(&doc, off);
    let _ = ptxkit_lsp::navigation::references(&doc, off, true);
    let _ = ptxkit_lsp::navigation::rename(&doc, off, "%x");
    let _ = ptxkit_lsp::symbols::document(&doc);
    let _ = ptxkit_lsp::semantic_tokens::tokens(&doc, None);
    let _ = ptxkit_lsp::folding::ranges(&doc);
    let _ = ptxkit_lsp::inlay_hints::hints(&doc, ptxkit::Span::new(0, u32::MAX));
    let _ = ptxkit_lsp::formatting::format(&doc);
});
