//! Long initializers read in parts: a [`super::PieceStream`] hands a
//! variable (at module scope or in a body) whose initializer list runs over
//! [`LONG_INIT_BYTES`] to its reader a few thousand items at a time
//! ([`crate::DataPiece::Part`]), so that a constant table of hundreds of
//! megabytes is never held whole. The items are the ones the whole parse
//! puts in the list, read by the same rules; only the list's nesting comes
//! as events ([`InitEvent`]) instead of as a tree.

use super::{PResult, Parser};
use crate::lex::TokenKind as K;
use crate::source::Span;
use crate::syntax::{DecimalItem, Initializer};

/// An initializer list (from its `{` to the `;` after it) longer than this
/// is read in parts by a [`super::PieceStream`].
pub const LONG_INIT_BYTES: usize = 1 << 20;

/// About how many items (a decimal of a run counts as one) a part holds.
const PART_ITEMS: usize = 4096;

/// One step through a long initializer read in parts, in source order.
#[derive(Clone, Debug, PartialEq)]
pub enum InitEvent {
    /// A `{` opening a list, at this offset.
    Open(u32),
    /// An item of the innermost open list. Never a list (a nested list
    /// comes as `Open`, its items, `Close`); consecutive
    /// [`Initializer::Decimals`] items are one run of the list, cut where
    /// a part ended.
    Item(Initializer),
    /// The `}` closing the innermost open list, with the list's span.
    Close(Span),
}

/// Where the parser is in a long initializer.
#[derive(Default)]
pub(crate) struct LongInit {
    /// Where the declaration starts.
    pub(crate) var_start: u32,
    /// The `{` of each open list, outermost first.
    open: Vec<u32>,
    /// Set after an item or a nested list: a `,` or a `}` comes next.
    after_item: bool,
    /// Plain decimals read since the list's last other item.
    run: Vec<DecimalItem>,
    /// Set once the outermost list is closed: the `;` comes next.
    pub(crate) closed: bool,
}

impl Parser<'_> {
    /// At the `{` of an initializer: whether the stream reads it in parts.
    /// Only a list longer than [`Parser::long_init_bytes`] that is its
    /// declaration's last initializer (only blanks between its `}` and the
    /// `;`) and holds no comment or string (whose braces would mislead the
    /// count): every other list is read whole, as by [`super::parse`].
    /// Looks no further than the list's own `}` (or a `;` before it), so
    /// the lists of a declaration of many declarators cost their own length
    /// each, not the rest of the declaration's.
    pub(super) fn long_last_list(&self) -> bool {
        let at = self.tok.span.start as usize;
        let rest = self.src.get(at..).unwrap_or_default();
        let mut depth = 0usize;
        let mut close = None;
        for i in memchr::memchr3_iter(b'{', b'}', b';', rest) {
            match rest.get(i) {
                Some(b'{') => depth = depth.saturating_add(1),
                Some(b'}') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                // A `;` inside the list: it does not parse as one.
                _ => return false,
            }
        }
        let Some(close) = close else { return false };
        let Some(list) = rest.get(..close) else {
            return false;
        };
        list.len() >= self.long_init_bytes
            && memchr::memchr2(b'/', b'"', list).is_none()
            && rest
                .get(close.saturating_add(1)..)
                .and_then(|t| t.iter().find(|b| !b.is_ascii_whitespace()))
                == Some(&b';')
    }

    /// The next part of the long initializer being read: up to about
    /// [`PART_ITEMS`] items, or to the end of its outermost list. A
    /// failure leaves the state as it is (the caller gives the declaration
    /// up).
    pub(crate) fn init_part(&mut self) -> PResult<Vec<InitEvent>> {
        let Some(mut st) = self.long_init.take() else {
            return Ok(Vec::new());
        };
        let r = self.init_events(&mut st);
        self.long_init = Some(st);
        r
    }

    /// The rules of `Parser::initializer`, one step at a time.
    fn init_events(&mut self, st: &mut LongInit) -> PResult<Vec<InitEvent>> {
        let mut out = Vec::new();
        let mut items = 0usize;
        loop {
            if items >= PART_ITEMS {
                flush_run(st, &mut out);
                return Ok(out);
            }
            if st.after_item {
                if self.eat(K::Comma) {
                    st.after_item = false;
                    self.init_item(st, &mut out, &mut items)?;
                    continue;
                }
                if self.close_list(st, &mut out)? {
                    return Ok(out);
                }
                continue;
            }
            if st.open.is_empty() || self.at(K::LBrace) {
                // A list opens (the outermost, or a nested one as an item).
                flush_run(st, &mut out);
                let s0 = self.tok.span.start;
                self.bump();
                self.enter()?;
                st.open.push(s0);
                out.push(InitEvent::Open(s0));
                items = items.saturating_add(1);
                if self.at(K::RBrace) {
                    // Empty.
                    if self.close_list(st, &mut out)? {
                        return Ok(out);
                    }
                    continue;
                }
                self.init_item(st, &mut out, &mut items)?;
                continue;
            }
            self.init_item(st, &mut out, &mut items)?;
        }
    }

    /// One item of the innermost open list (a nested list is opened by
    /// the caller instead).
    fn init_item(
        &mut self,
        st: &mut LongInit,
        out: &mut Vec<InitEvent>,
        items: &mut usize,
    ) -> PResult<()> {
        if self.at(K::LBrace) {
            // Opened by `init_events`.
            return Ok(());
        }
        st.after_item = true;
        if self.at_field_init() {
            let field = self.field_init()?;
            flush_run(st, out);
            out.push(InitEvent::Item(field));
            *items = items.saturating_add(1);
            return Ok(());
        }
        let room = PART_ITEMS.saturating_sub(*items).max(1);
        let before = st.run.len();
        if self.at(K::Int)
            && self.depth < super::MAX_DEPTH
            && self.decimal_run(&mut st.run, before.saturating_add(room))
        {
            *items = items.saturating_add(st.run.len().saturating_sub(before));
            return Ok(());
        }
        let e = self.expr()?;
        *items = items.saturating_add(1);
        if let Some(item) = super::decl::join_run(&mut st.run, Initializer::Expr(e)) {
            flush_run(st, out);
            out.push(InitEvent::Item(item));
        }
        Ok(())
    }

    /// The `}` of the innermost open list (an error if something else is
    /// there). Returns whether that was the outermost list.
    fn close_list(&mut self, st: &mut LongInit, out: &mut Vec<InitEvent>) -> PResult<bool> {
        self.leave();
        flush_run(st, out);
        self.expect(K::RBrace, "`}` or `,` in the initializer")?;
        let s0 = st.open.pop().unwrap_or(st.var_start);
        out.push(InitEvent::Close(self.since(s0)));
        st.after_item = true;
        if st.open.is_empty() {
            st.closed = true;
            return Ok(true);
        }
        Ok(false)
    }
}

/// The run of plain decimals read so far, as an item.
fn flush_run(st: &mut LongInit, out: &mut Vec<InitEvent>) {
    out.extend(super::decl::take_run(&mut st.run).map(InitEvent::Item));
}
