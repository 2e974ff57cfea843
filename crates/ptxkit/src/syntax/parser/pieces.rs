//! Streaming below items: function bodies statement by statement, so that a
//! reader holds one statement of the tree at a time, whatever the size of
//! the function (a single unrolled kernel can be tens of megabytes).

use super::{Header, InitEvent, Parser};
use crate::diag::Diagnostic;
use crate::lex::TokenKind as K;
use crate::source::Span;
use crate::syntax::{Function, Item, Stmt, VarDecl};

/// What a [`PieceStream`] yields.
#[derive(Clone, Debug)]
pub enum Piece {
    /// A module-scope item that is not a function with a body (function
    /// declarations and prototypes included). Boxed, as is the function
    /// header below: items are few and large, statements many and small,
    /// and a piece is moved by value on every step of the stream.
    Item(Box<Item>),
    /// The header of a function with a body. The body's pieces follow, up
    /// to [`Piece::FunctionEnd`]. Meanwhile the function's `body` is an
    /// empty block at its `{`, and its span ends with the header.
    FunctionStart(Box<Function>),
    /// A `{` opening a nested block, at this offset.
    BlockStart(u32),
    /// The end of a nested block, with the block's whole span.
    BlockEnd(Span),
    /// The end of the function's body, with the function's whole span.
    FunctionEnd(Span),
    /// A declaration whose initializer is read in parts (see
    /// [`DataPiece`]; boxed: rare, and a larger payload here would make
    /// telling the common pieces apart dearer).
    Data(Box<DataPiece>),
    /// A statement of the body. Never [`Stmt::Block`]: a nested block comes
    /// as [`Piece::BlockStart`], its statements, [`Piece::BlockEnd`].
    /// (Last: the other variants' tags are then one range of values beside
    /// a statement's, as cheap to tell apart as before there were six.)
    Stmt(Stmt),
}

/// The pieces of a variable declaration whose last initializer is a list
/// too long to hold whole (over [`crate::LONG_INIT_BYTES`]: a constant
/// table of megabytes). At module scope they stand for an [`Item::Var`], in
/// a body for a [`Stmt::Var`]. (One variant of [`Piece`], so that telling
/// the other pieces apart stays as cheap as it was.)
#[derive(Clone, Debug)]
pub enum DataPiece {
    /// The declaration up to that initializer's `=`: its declarator's
    /// `init` left `None` and its span ending at the `=`. The list follows
    /// in [`DataPiece::Part`]s, then [`DataPiece::End`], or
    /// [`DataPiece::Broken`] if it does not parse.
    Start(Box<VarDecl>),
    /// The next part of that list, in source order.
    Part(Vec<InitEvent>),
    /// The end of that declaration, with its whole span.
    End(Span),
    /// That declaration did not parse after all: its span up to where
    /// reading resumed (what the whole parse makes an [`Item::Error`], or
    /// a [`Stmt::Error`] in a body).
    Broken(Span),
}

/// A module read piece by piece: items, and the statements of function
/// bodies one at a time.
///
/// Each piece comes with the diagnostics found while reading it (sorted by
/// position); diagnostics about the module as a whole come from
/// [`PieceStream::finish`]. Together they are exactly those of
/// [`parse`](super::parse), and the pieces put together are its tree.
///
/// ```
/// use ptxkit::{Piece, PieceStream};
/// let src = b".version 8.0\n.target sm_90\n.entry k() { { ret; } ret; }\n";
/// let mut stream = PieceStream::new(src);
/// let kinds: Vec<&str> = (&mut stream)
///     .map(|(piece, diags)| {
///         assert!(diags.is_empty());
///         match piece {
///             Piece::Item(_) => "item",
///             Piece::FunctionStart(_) => "function",
///             Piece::BlockStart(_) => "{",
///             Piece::Stmt(_) => "stmt",
///             Piece::BlockEnd(_) => "}",
///             Piece::FunctionEnd(_) => "end",
///             // Initializers of over a megabyte, in parts.
///             Piece::Data(_) => "data",
///         }
///     })
///     .collect();
/// assert_eq!(kinds, ["item", "item", "function", "{", "stmt", "}", "stmt", "end"]);
/// assert!(stream.finish().is_empty());
/// ```
pub struct PieceStream<'s> {
    p: Parser<'s>,
    header: Header,
    /// Set when the input is too large to parse.
    refused: Option<Diagnostic>,
    /// Offsets of the `{` of the open blocks of the body being read,
    /// outermost (the body's own) first.
    open: Vec<u32>,
    /// Where the function whose body is being read starts.
    function_start: u32,
}

impl<'s> PieceStream<'s> {
    /// Start reading `src`.
    pub fn new(src: &'s [u8]) -> PieceStream<'s> {
        let refused = super::too_large(src.len());
        let mut p = Parser::new(if refused.is_some() { &[] } else { src });
        p.stream_bodies = true;
        p.long_init_bytes = super::LONG_INIT_BYTES;
        PieceStream {
            p,
            header: Header::default(),
            refused,
            open: Vec::new(),
            function_start: 0,
        }
    }

    /// Read initializer lists longer than `bytes` in parts rather than
    /// [`crate::LONG_INIT_BYTES`] (at least 1: a test reads small lists
    /// in parts this way).
    pub fn with_long_initializers(mut self, bytes: usize) -> PieceStream<'s> {
        self.p.long_init_bytes = bytes.max(1);
        self
    }

    /// Keep at most about `max` diagnostics per piece (the first `max` in
    /// source order; 0: all), counting the others
    /// ([`PieceStream::take_unkept`]): a caller that shows only the first
    /// `max` of the whole module loses nothing, and one item with a
    /// diagnostic per token is not held whole.
    pub fn with_max_diagnostics(mut self, max: usize) -> PieceStream<'s> {
        self.p.diag_cap = max;
        self
    }

    /// The errors and warnings found and not kept since the last call
    /// (see [`PieceStream::with_max_diagnostics`]).
    pub fn take_unkept(&mut self) -> (usize, usize) {
        let [e, w] = std::mem::take(&mut self.p.unkept);
        (e, w)
    }

    /// Whether the last piece was read inside a function's body.
    pub(crate) fn in_body(&self) -> bool {
        !self.open.is_empty()
    }

    /// The offset up to which the source has been read: nothing before it
    /// is read again.
    pub fn consumed(&self) -> usize {
        self.p.tok.span.start as usize
    }

    /// Diagnostics about the module as a whole, and any left over from
    /// reading (call after the last piece).
    pub fn finish(mut self) -> Vec<Diagnostic> {
        self.p.finish_stream(&self.header, self.refused)
    }

    /// Hand back a piece the reader is done with: its storage is reused
    /// for the pieces that follow, so that reading a body statement by
    /// statement allocates next to nothing per instruction. Dropping a
    /// piece instead is always correct, only slower.
    #[inline]
    pub fn recycle(&mut self, piece: Piece) {
        if let Piece::Stmt(crate::syntax::Stmt::Instruction(mut i)) = piece {
            if i.operands.capacity() > self.p.spare_operands.capacity() {
                use crate::syntax::{Expr, Operand};
                // Most operands (a name, a literal) own nothing: they are
                // let go without a call to their drop code each.
                while let Some(o) = i.operands.pop() {
                    if matches!(
                        o,
                        Operand::Expr(Expr::Name(..) | Expr::Int(_) | Expr::Float(_))
                    ) {
                        std::mem::forget(o);
                    }
                }
                self.p.spare_operands = std::mem::take(&mut i.operands);
            }
        }
    }

    /// The next piece of the long initializer being read.
    #[cold]
    fn long_init_piece(&mut self) -> Piece {
        let p = &mut self.p;
        let (closed, start) = p
            .long_init
            .as_ref()
            .map_or((true, 0), |l| (l.closed, l.var_start));
        let read = if closed {
            // The list is the declaration's last initializer.
            p.expect(K::Semi, "`;` after the declaration").map(|_| None)
        } else {
            p.init_part().map(Some)
        };
        match read {
            Ok(Some(events)) => Piece::Data(Box::new(DataPiece::Part(events))),
            Ok(None) => {
                p.long_init = None;
                let span = p.since(start);
                if self.open.is_empty() {
                    self.header.see_other(span);
                }
                Piece::Data(Box::new(DataPiece::End(span)))
            }
            Err(_) if !self.open.is_empty() => {
                // As `Parser::stmt_step` gives a statement up.
                p.long_init = None;
                p.recover_stmt();
                Piece::Data(Box::new(DataPiece::Broken(p.since(start))))
            }
            Err(_) => {
                // As `Parser::next_item` gives an item up.
                p.long_init = None;
                p.recover_item();
                let span = p.since(start);
                self.header.see(&Item::Error(span));
                Piece::Data(Box::new(DataPiece::Broken(span)))
            }
        }
    }

    /// A statement of a body that starts with a directive (a declaration
    /// among them, which may start a long initializer: then the piece that
    /// starts it). Out of the instructions' way.
    #[inline(never)]
    fn directive_piece(&mut self) -> Piece {
        match self.p.stmt_step() {
            Stmt::Var(v) if self.p.long_init.is_some() => {
                Piece::Data(Box::new(DataPiece::Start(v)))
            }
            s => Piece::Stmt(s),
        }
    }

    /// The next piece of the body being read, as `Parser::block` would
    /// read it.
    fn body_piece(&mut self) -> Piece {
        let p = &mut self.p;
        match p.tok.kind {
            K::RBrace | K::Eof => {
                let start = self.open.pop().unwrap_or(self.function_start);
                if p.tok.kind == K::RBrace {
                    p.bump();
                    p.leave();
                } else {
                    p.leave();
                    p.block_not_closed(start);
                }
                if self.open.is_empty() {
                    let span = p.since(self.function_start);
                    self.header.see_function(span);
                    return Piece::FunctionEnd(span);
                }
                return Piece::BlockEnd(p.since(start));
            }
            _ => {}
        }
        if !p.at(K::LBrace) {
            if p.at(K::DotWord) {
                // A declaration may start a long initializer.
                return self.directive_piece();
            }
            return Piece::Stmt(p.stmt_step());
        }
        // A nested block, opened as `Parser::block` opens it.
        let s0 = p.tok.span.start;
        p.bump();
        if p.enter().is_ok() {
            self.open.push(s0);
            return Piece::BlockStart(s0);
        }
        p.recover_stmt();
        Piece::Stmt(Stmt::Error(p.since(s0)))
    }
}

impl Iterator for PieceStream<'_> {
    type Item = (Piece, Vec<Diagnostic>);

    fn next(&mut self) -> Option<(Piece, Vec<Diagnostic>)> {
        if self.refused.is_some() {
            return None;
        }
        let piece = if self.p.long_init.is_some() {
            self.long_init_piece()
        } else if self.open.is_empty() {
            let item = self.p.next_item(u32::MAX)?;
            match (item, self.p.body_at.take()) {
                // Seen by the header check at its end, whole.
                (Item::Var(v), _) if self.p.long_init.is_some() => {
                    Piece::Data(Box::new(DataPiece::Start(Box::new(v))))
                }
                (Item::Function(f), Some(brace)) => {
                    // Open the body as `Parser::block` does. The depth is
                    // that of a fresh item, far below the limit.
                    self.p.bump();
                    let _ = self.p.enter();
                    self.function_start = f.span.start;
                    self.open.push(brace);
                    Piece::FunctionStart(Box::new(f))
                }
                (item, _) => {
                    self.header.see(&item);
                    Piece::Item(Box::new(item))
                }
            }
        } else {
            self.body_piece()
        };
        let mut diags = std::mem::take(&mut self.p.diags);
        diags.sort_by_key(|d| d.span.start);
        Some((piece, diags))
    }
}
