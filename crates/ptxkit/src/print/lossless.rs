//! The lossless printer: format-preserving printing, also of edited trees.
//!
//! The tree is compared with the tree of the source it was parsed from
//! (items and statements matched by their spans; equality ignores spans).
//! A node equal to its original is printed as the source's bytes, with the
//! whitespace and comments around it; a node that was edited, or built
//! ([`Span::SYNTHETIC`]), is printed canonically; a node that was removed
//! takes its leading comments and the rest of its line with it. The
//! whitespace and comments between two nodes are split at the first line
//! break: what is on the line where a node ends belongs to that node, the
//! rest to the node that follows. For a freshly parsed module the output is
//! the input, byte for byte.

use super::canonical::{canonical_item, canonical_stmt};
use crate::source::Span;
use crate::syntax::{Block, Function, Item, Module, Stmt};

/// Print `m`, parsed from `src` and perhaps edited since, preserving the
/// source's layout and comments for everything not edited. Parses `src`
/// again to know what was; [`lossless_from`] takes that tree instead.
pub fn lossless(m: &Module, src: &[u8]) -> Vec<u8> {
    let original = crate::parse(src).module;
    lossless_from(m, &original, src)
}

/// [`lossless`] given `original`, the tree parsed from `src` (for a module
/// known to be unedited, `m` itself: the output is then `src`).
pub fn lossless_from(m: &Module, original: &Module, src: &[u8]) -> Vec<u8> {
    if std::ptr::eq(m, original) || m == original {
        return src.to_vec();
    }
    let mut p = Printer {
        src,
        out: Vec::with_capacity(src.len()),
    };
    let whole = Span::new(0, src.len() as u32);
    p.list(&m.items, &original.items, whole, 0);
    p.out
}

/// A node the printer lays out: an item or a statement.
trait Node: PartialEq {
    fn span(&self) -> Span;
    /// Print `self`, which sits where `orig` was but differs from it.
    fn changed(&self, orig: &Self, p: &mut Printer, depth: usize);
    /// Print `self`, a node with no original, on lines of its own.
    fn fresh(&self, p: &mut Printer, depth: usize);
}

struct Printer<'s> {
    src: &'s [u8],
    out: Vec<u8>,
}

impl Printer<'_> {
    fn copy(&mut self, span: Span) {
        if span.start < span.end {
            self.out.extend_from_slice(span.slice(self.src));
        }
    }

    fn newline(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with(b"\n") {
            self.out.push(b'\n');
        }
    }

    /// The edited list `edited` in place of `orig`, whose nodes lie in
    /// `inner` (between the braces of a block, or the whole source).
    fn list<N: Node>(&mut self, edited: &[N], orig: &[N], inner: Span, depth: usize) {
        // gaps[k]: between node k-1 (or the start) and node k (or the end).
        let mut gaps = Vec::with_capacity(orig.len().saturating_add(1));
        let mut pos = inner.start;
        for n in orig {
            let s = n.span();
            let start = s.start.clamp(pos, inner.end.max(pos));
            gaps.push(split(self.src, Span::new(pos, start)));
            pos = pos.max(s.end.min(inner.end));
        }
        gaps.push(split(self.src, Span::new(pos, inner.end.max(pos))));
        // What follows the opening brace (or the source's start).
        if let Some(g) = gaps.first() {
            self.copy(g.0);
        }
        for e in edited {
            match find(orig, e.span()) {
                Some(k) => {
                    self.copy(gaps.get(k).map_or(Span::at(0), |g| g.1));
                    let o = orig.get(k);
                    match o {
                        Some(o) if o == e => self.copy(o.span()),
                        Some(o) => e.changed(o, self, depth),
                        None => {}
                    }
                    self.copy(gaps.get(k.saturating_add(1)).map_or(Span::at(0), |g| g.0));
                }
                None => e.fresh(self, depth),
            }
        }
        // What precedes the closing brace (or the source's end).
        if let Some(g) = gaps.last() {
            self.copy(g.1);
        }
    }

    fn block(&mut self, edited: &Block, orig: &Block, depth: usize) {
        let open = orig.span.start;
        let close = orig.span.end.saturating_sub(1).max(open);
        self.copy(Span::new(open, open.saturating_add(1).min(close)));
        let inner = Span::new(open.saturating_add(1).min(close), close);
        self.list(&edited.stmts, &orig.stmts, inner, depth.saturating_add(1));
        self.copy(Span::new(close, orig.span.end));
    }
}

/// Split the trivia `gap` after its first line break (outside a block
/// comment): the part on the line of the node before, and the rest.
fn split(src: &[u8], gap: Span) -> (Span, Span) {
    let bytes = gap.slice(src);
    let mut i = 0usize;
    while let Some(&b) = bytes.get(i) {
        let next = bytes.get(i.saturating_add(1)).copied();
        if b == b'/' && next == Some(b'*') {
            let rest = bytes.get(i.saturating_add(2)..).unwrap_or_default();
            i = match memchr::memmem::find(rest, b"*/") {
                Some(at) => i.saturating_add(at).saturating_add(4),
                None => bytes.len(),
            };
            continue;
        }
        if b == b'/' && next == Some(b'/') {
            let rest = bytes.get(i..).unwrap_or_default();
            match memchr::memchr(b'\n', rest) {
                Some(at) => i = i.saturating_add(at),
                None => return (gap, Span::at(gap.end)),
            }
            continue;
        }
        if b == b'\n' {
            let cut = gap.start.saturating_add(i as u32).saturating_add(1);
            return (Span::new(gap.start, cut), Span::new(cut, gap.end));
        }
        i = i.saturating_add(1);
    }
    (Span::at(gap.start), gap)
}

/// The original node at exactly `span`, if any.
fn find<N: Node>(orig: &[N], span: Span) -> Option<usize> {
    if span.is_synthetic() {
        return None;
    }
    let k = orig.partition_point(|n| n.span().start < span.start);
    let o = orig.get(k)?;
    (o.span().start == span.start && o.span().end == span.end).then_some(k)
}

/// Whether two functions differ at most in their bodies' contents.
fn same_header(a: &Function, b: &Function) -> bool {
    a.linkage == b.linkage
        && a.kind == b.kind
        && a.rets == b.rets
        && a.name == b.name
        && a.params == b.params
        && a.directives == b.directives
}

impl Node for Item {
    fn span(&self) -> Span {
        Item::span(self)
    }

    fn changed(&self, orig: &Item, p: &mut Printer, depth: usize) {
        if let (Item::Function(f), Item::Function(o)) = (self, orig) {
            if let (Some(b), Some(ob)) = (&f.body, &o.body) {
                if same_header(f, o) && b.span.start == ob.span.start && b.span.end == ob.span.end {
                    p.copy(Span::new(o.span.start, ob.span.start));
                    p.block(b, ob, depth);
                    p.copy(Span::new(ob.span.end, o.span.end));
                    return;
                }
            }
        }
        p.out.extend_from_slice(canonical_item(self).as_bytes());
    }

    fn fresh(&self, p: &mut Printer, _depth: usize) {
        p.newline();
        if matches!(self, Item::Function(f) if f.body.is_some()) && !p.out.is_empty() {
            p.out.push(b'\n');
        }
        p.out.extend_from_slice(canonical_item(self).as_bytes());
        p.out.push(b'\n');
    }
}

impl Node for Stmt {
    fn span(&self) -> Span {
        Stmt::span(self)
    }

    fn changed(&self, orig: &Stmt, p: &mut Printer, depth: usize) {
        if let (Stmt::Block(b), Stmt::Block(ob)) = (self, orig) {
            p.block(b, ob, depth);
            return;
        }
        // The original's indentation is kept before it.
        let text = canonical_stmt(self, depth);
        p.out
            .extend_from_slice(text.trim_start_matches('\t').as_bytes());
    }

    fn fresh(&self, p: &mut Printer, depth: usize) {
        p.newline();
        p.out
            .extend_from_slice(canonical_stmt(self, depth).as_bytes());
        p.out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_at_the_first_line_break_outside_comments() {
        let src = b"A; /* x\n y */ // c\n\t// lead\n\tB;";
        let gap = Span::new(2, 29);
        let (t, l) = split(src, gap);
        assert_eq!(t.text(src), " /* x\n y */ // c\n");
        assert_eq!(l.text(src), "\t// lead\n\t");
        let (t, l) = split(b"a; b;", Span::new(2, 3));
        assert!(t.is_empty());
        assert_eq!(l.len(), 1);
    }
}
