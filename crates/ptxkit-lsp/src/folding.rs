//! Folding ranges: functions, nested blocks, parameter lists, debug
//! sections and runs of comment lines.

use lsp_types::{FoldingRange, FoldingRangeKind};
use ptxkit::lex::{Lexer, TokenKind};
use ptxkit::syntax::{Block, Stmt};
use ptxkit::{Item, Span};

use crate::document::Document;

/// The folding ranges of `doc`.
pub fn ranges(doc: &Document) -> Vec<FoldingRange> {
    let mut out = Vec::new();
    let mut push = |span: Span, kind: Option<FoldingRangeKind>| {
        let a = doc.lines.line_of(span.start);
        let b = doc
            .lines
            .line_of(span.end.saturating_sub(1).max(span.start));
        if b > a {
            out.push(FoldingRange {
                start_line: a,
                end_line: b,
                kind,
                ..FoldingRange::default()
            });
        }
    };
    fn blocks(b: &Block, push: &mut impl FnMut(Span, Option<FoldingRangeKind>)) {
        for s in &b.stmts {
            if let Stmt::Block(inner) = s {
                push(inner.span, None);
                blocks(inner, push);
            }
        }
    }
    for item in &doc.analysis.module.items {
        match item {
            Item::Function(f) => {
                push(f.span, None);
                if let Some(b) = &f.body {
                    blocks(b, &mut push);
                }
            }
            Item::Section(s) => push(s.span, Some(FoldingRangeKind::Region)),
            Item::IntermediateSource(s) => push(s.span, Some(FoldingRangeKind::Region)),
            Item::Var(v) => push(v.span, None),
            _ => {}
        }
    }
    // Runs of comments (a file's banner, commented-out code).
    let src = doc.text.as_bytes();
    let mut lx = Lexer::new(src);
    let mut run: Option<Span> = None;
    loop {
        let t = lx.next_token();
        match t.kind {
            TokenKind::Eof => break,
            TokenKind::LineComment | TokenKind::BlockComment => {
                run = Some(run.map_or(t.span, |r| r.to(t.span)));
            }
            TokenKind::Whitespace => {}
            _ => {
                if let Some(r) = run.take() {
                    push(r, Some(FoldingRangeKind::Comment));
                }
            }
        }
    }
    if let Some(r) = run {
        push(r, Some(FoldingRangeKind::Comment));
    }
    out
}
