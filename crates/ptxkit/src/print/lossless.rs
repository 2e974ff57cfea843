//! The lossless printer: format-preserving printing.
//!
//! Every parsed node keeps its span, so the printer copies each node's bytes
//! and the trivia between nodes (whitespace, comments) from the source. A node
//! whose span is [`Span::SYNTHETIC`] (built or replaced by a program) is
//! printed canonically in its place, so edited trees keep the layout and
//! comments of everything that was not touched. For a freshly parsed module
//! the output is the input, byte for byte.

use super::canonical::{canonical_item, canonical_stmt};
use crate::source::Span;
use crate::syntax::{Block, Item, Module, Stmt};

/// Print `m`, parsed from `src`, preserving the source's layout.
pub fn lossless(m: &Module, src: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(src.len());
    let mut pos = 0u32;
    for item in &m.items {
        let span = item.span();
        if span.is_synthetic() {
            out.push(b'\n');
            out.extend_from_slice(canonical_item(item).as_bytes());
            out.push(b'\n');
            continue;
        }
        copy(&mut out, src, Span::new(pos, span.start));
        match item {
            Item::Function(f) => match &f.body {
                Some(b) if !b.span.is_synthetic() => {
                    copy(&mut out, src, Span::new(span.start, b.span.start));
                    block(&mut out, src, b, 1);
                    copy(&mut out, src, Span::new(b.span.end, span.end));
                }
                _ => copy(&mut out, src, span),
            },
            _ => copy(&mut out, src, span),
        }
        pos = pos.max(span.end);
    }
    copy(&mut out, src, Span::new(pos, src.len() as u32));
    out
}

fn copy(out: &mut Vec<u8>, src: &[u8], span: Span) {
    if span.start < span.end {
        out.extend_from_slice(span.slice(src));
    }
}

/// A block: `{`, statements with the trivia between them, `}`.
fn block(out: &mut Vec<u8>, src: &[u8], b: &Block, depth: usize) {
    let mut pos = b.span.start;
    for s in &b.stmts {
        let span = s.span();
        if span.is_synthetic() {
            out.push(b'\n');
            out.extend_from_slice(canonical_stmt(s, depth).as_bytes());
            continue;
        }
        copy(out, src, Span::new(pos, span.start));
        match s {
            Stmt::Block(inner) => block(out, src, inner, depth.saturating_add(1)),
            _ => copy(out, src, span),
        }
        pos = pos.max(span.end);
    }
    copy(out, src, Span::new(pos, b.span.end));
}
