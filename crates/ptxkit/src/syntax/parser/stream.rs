//! Streaming: top-level items one at a time, so a check need not hold the
//! whole tree.

use super::{Header, Parser};
use crate::diag::{Code, Diagnostic};
use crate::source::Span;
use crate::syntax::Item;

/// The top-level items of a module, parsed one at a time.
///
/// Each item comes with the diagnostics found while reading it (sorted by
/// position; one may point at the first token after the item, e.g. a missing
/// `;`). Diagnostics about the module as a whole (its `.version`/`.target`
/// header) come from [`ItemStream::finish`]. Together they are exactly the
/// diagnostics of [`parse`](super::parse); only the tree is not kept.
///
/// ```
/// let src = b".version 8.0\n.target sm_90\n.entry k() { ret; }\n";
/// let mut items = ptxkit::ItemStream::new(src);
/// let mut functions = 0;
/// for (item, diags) in &mut items {
///     assert!(diags.is_empty());
///     functions += usize::from(matches!(item, ptxkit::Item::Function(_)));
/// }
/// assert_eq!(functions, 1);
/// assert!(items.finish().is_empty());
/// ```
pub struct ItemStream<'s> {
    p: Parser<'s>,
    header: Header,
    /// Set when the input is too large to parse.
    refused: Option<Diagnostic>,
}

impl<'s> ItemStream<'s> {
    /// Start reading `src`.
    pub fn new(src: &'s [u8]) -> ItemStream<'s> {
        if src.len() >= u32::MAX as usize {
            let d = Diagnostic::error(
                Code::Limit,
                Span::at(0),
                "input larger than 4 GiB is not supported",
            );
            return ItemStream {
                p: Parser::new(&[]),
                header: Header::default(),
                refused: Some(d),
            };
        }
        ItemStream {
            p: Parser::new(src),
            header: Header::default(),
            refused: None,
        }
    }

    /// Diagnostics about the module as a whole, and any left over from
    /// reading (call after the last item).
    pub fn finish(mut self) -> Vec<Diagnostic> {
        self.p.finish_stream(&self.header, self.refused)
    }
}

impl Iterator for ItemStream<'_> {
    type Item = (Item, Vec<Diagnostic>);

    fn next(&mut self) -> Option<(Item, Vec<Diagnostic>)> {
        if self.refused.is_some() {
            return None;
        }
        let item = self.p.next_item(u32::MAX)?;
        self.header.see(&item);
        let mut diags = std::mem::take(&mut self.p.diags);
        diags.sort_by_key(|d| d.span.start);
        Some((item, diags))
    }
}

/// The diagnostics of [`parse`](super::parse), found while keeping only one
/// top-level item in memory at a time (per thread: a large module is cut
/// into pieces checked in parallel, like [`parse_parallel`](super::parse_parallel)).
pub fn syntax_check(src: &[u8]) -> Vec<Diagnostic> {
    if let Some((_, diags, _)) =
        super::split::joined(src, super::split::pieces_for(src.len()), false, 0)
    {
        return diags;
    }
    check_sequential(src)
}

/// [`check`] on one thread.
pub(crate) fn check_sequential(src: &[u8]) -> Vec<Diagnostic> {
    let mut stream = ItemStream::new(src);
    let mut all = Vec::new();
    for (_, diags) in &mut stream {
        all.extend(diags);
    }
    all.extend(stream.finish());
    all.sort_by_key(|d| d.span.start);
    all
}
