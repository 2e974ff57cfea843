//! The parser: one pass over a streaming lexer, building the tree directly.
//!
//! Recovery: a statement that does not parse is skipped to its `;` (or to
//! the `}` closing its block) and kept as an `Error` node; at top level the
//! parser skips to the next directive. So one run reports every syntax error.

mod body;
mod decl;
mod expr;
mod grouped;
mod inst;
mod items;
mod literal;
mod long_init;
mod pieces;
mod runs_tests;
mod split;
mod stream;

pub use long_init::{InitEvent, LONG_INIT_BYTES};
pub use pieces::{DataPiece, Piece, PieceStream};
pub use split::{parse_in_pieces, parse_parallel, parse_parallel_bounded, parse_range};
pub use stream::{syntax_check, ItemStream};

use crate::diag::{Code, Diagnostic};
use crate::lex::{self, pack_token, Lexer, Token, TokenKind};
use crate::source::Span;
use crate::syntax::{Module, Name};

/// Deepest nesting of blocks, braces and parentheses the parser follows.
pub const MAX_DEPTH: u32 = 256;

/// Largest register range `%r<N>` a declaration may have (2^24). See
/// `docs/limits.md`.
pub const MAX_REGISTER_RANGE: u64 = 1 << 24;

/// Largest input in bytes: spans are 32-bit offsets, so 4 GiB less one
/// byte (the end-of-file position must fit too).
pub const MAX_FILE_SIZE: usize = u32::MAX as usize - 1;

/// The error for an input larger than [`MAX_FILE_SIZE`], if it is.
fn too_large(len: usize) -> Option<Diagnostic> {
    (len > MAX_FILE_SIZE).then(|| {
        Diagnostic::error(
            Code::FileTooLarge,
            Span::at(0),
            format!("input of {len} bytes is larger than the limit of {MAX_FILE_SIZE} bytes"),
        )
    })
}

/// The outcome of parsing: a tree (always) and the problems found.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The module. With errors it still holds everything that parsed, and
    /// `Error` nodes for the rest.
    pub module: Module,
    /// Errors and warnings in source order.
    pub diagnostics: Vec<crate::diag::Diagnostic>,
    /// Errors found and not kept in `diagnostics` (past the cap of
    /// [`parse_bounded`]; always 0 for [`parse`]).
    pub omitted_errors: usize,
    /// Warnings found and not kept.
    pub omitted_warnings: usize,
}

impl Parsed {
    /// Whether any diagnostic is an error (kept or not).
    pub fn has_errors(&self) -> bool {
        self.omitted_errors > 0 || self.diagnostics.iter().any(|d| d.is_error())
    }

    /// A tree with these diagnostics, none omitted.
    pub(crate) fn new(module: Module, diagnostics: Vec<Diagnostic>) -> Parsed {
        Parsed {
            module,
            diagnostics,
            omitted_errors: 0,
            omitted_warnings: 0,
        }
    }
}

/// Put `diags` in source order and keep the first `max` (all with
/// `max == 0`), counting the others among the errors (`unkept[0]`) or
/// warnings (`unkept[1]`) not kept.
fn keep_first(diags: &mut Vec<Diagnostic>, max: usize, unkept: &mut [usize; 2]) {
    diags.sort_by_key(|d| d.span.start);
    if max == 0 || diags.len() <= max {
        return;
    }
    for d in diags.drain(max..) {
        let [errors, warnings] = &mut *unkept;
        let n = if d.is_error() { errors } else { warnings };
        *n = n.saturating_add(1);
    }
}

/// Parse `src` into a module.
pub fn parse(src: &[u8]) -> Parsed {
    parse_bounded(src, 0)
}

/// [`parse`], keeping only the first `max` diagnostics in source order (all
/// with `max == 0`) and counting the others ([`Parsed::omitted_errors`]):
/// a module with an error at every token does not hold a diagnostic for
/// each.
pub fn parse_bounded(src: &[u8], max: usize) -> Parsed {
    if let Some(d) = too_large(src.len()) {
        return Parsed::new(Module::default(), vec![d]);
    }
    let mut p = Parser::new(src);
    p.diag_cap = max;
    let module = p.module();
    let mut diagnostics = std::mem::take(&mut p.diags);
    let mut unkept = p.unkept;
    keep_first(&mut diagnostics, max, &mut unkept);
    let [omitted_errors, omitted_warnings] = unkept;
    Parsed {
        module,
        diagnostics,
        omitted_errors,
        omitted_warnings,
    }
}

/// Parse `src` as the statements of a function body (no braces needed):
/// instructions, labels, local declarations. For tools and tests that work
/// on snippets.
pub fn parse_body(src: &[u8]) -> (crate::syntax::Block, Vec<Diagnostic>) {
    if let Some(d) = too_large(src.len()) {
        return (
            crate::syntax::Block {
                stmts: Vec::new(),
                span: Span::at(0),
            },
            vec![d],
        );
    }
    let mut p = Parser::new(src);
    let stmts = p.stmts_until_eof();
    let mut diags = std::mem::take(&mut p.diags);
    diags.sort_by_key(|d| d.span.start);
    (
        crate::syntax::Block {
            stmts,
            span: Span::new(0, src.len() as u32),
        },
        diags,
    )
}

/// Failure of a sub-parse; the diagnostic is already recorded.
#[derive(Debug)]
pub(crate) struct Fail;

pub(crate) type PResult<T> = Result<T, Fail>;

pub(crate) struct Parser<'s> {
    pub(crate) src: &'s [u8],
    /// A stretch of `src` known to be valid UTF-8, and the offset where it
    /// starts: token texts inside it need no check of their own. It moves
    /// along with the parser (64 KB are validated at a time, not the whole
    /// source up front), so a streamed check keeps only a window of a
    /// mapped file resident.
    window: std::cell::Cell<(&'s str, usize)>,
    lx: Lexer<'s>,
    /// Current significant token.
    pub(crate) tok: Token,
    /// The one after it, when `has_peeked`. (A flag beside a plain token
    /// rather than an `Option`: the token is then always copied whole, which
    /// keeps these hot copies from stalling on partial stores.)
    peeked: Token,
    has_peeked: bool,
    /// End of the last consumed token.
    pub(crate) prev_end: u32,
    /// The diagnostics of what is being read (a statement, an item, or the
    /// whole source): taken by the caller after each.
    pub(crate) diags: Vec<Diagnostic>,
    /// With a cap (not 0), `diags` keeps only about the first `diag_cap`
    /// diagnostics in source order; the others are counted in `unkept`
    /// (errors, warnings). One item can have a diagnostic per token (a
    /// million-item initializer of bad characters): without the cap they
    /// would all be held until the item ends.
    pub(crate) diag_cap: usize,
    pub(crate) unkept: [usize; 2],
    pub(crate) depth: u32,
    /// Form-match and resolution caches (kept per thread across parsers).
    pub(crate) caches: Box<inst::Caches>,
    /// Names seen in this source, so each distinct spelling goes through the
    /// process-wide interner once. Keyed by the interned copy, not by the
    /// source: a lookup must not read an earlier part of the source again
    /// (`ptx check` gives the pages of a mapped file back as it goes).
    names: rustc_hash::FxHashMap<&'static [u8], Name>,
    /// Lexical errors of tokens starting at or after this offset are left
    /// to whoever parses from there (a parallel chunk's neighbour).
    lex_limit: u32,
    /// Statements of the blocks being parsed, innermost last (see
    /// `Parser::block`).
    stmt_stack: Vec<crate::syntax::Stmt>,
    /// How many statements the last function body had: room the next one
    /// gets on the stack from the start.
    stmt_hint: usize,
    /// Set for a [`PieceStream`]: a function's header is returned without
    /// its body, whose statements the stream reads one at a time.
    stream_bodies: bool,
    /// Where the body of the function just returned starts (its `{`), when
    /// `stream_bodies` left it unread.
    body_at: Option<u32>,
    /// An emptied operand list handed back by [`PieceStream::recycle`]: the
    /// next instruction's operands go into it instead of a new allocation.
    /// Always empty (no capacity) for a whole-tree parse.
    pub(crate) spare_operands: Vec<crate::syntax::Operand>,
    /// Set by a [`PieceStream`] at module scope: an initializer list longer
    /// than this many bytes is read in parts (0: never; see `long_init`).
    pub(crate) long_init_bytes: usize,
    /// The long initializer being read in parts, if any.
    pub(crate) long_init: Option<Box<long_init::LongInit>>,
}

impl Drop for Parser<'_> {
    fn drop(&mut self) {
        inst::Caches::keep(std::mem::take(&mut self.caches));
    }
}

impl<'s> Parser<'s> {
    fn new(src: &'s [u8]) -> Parser<'s> {
        Parser::starting_at(src, 0)
    }

    /// A parser whose first token starts at or after byte `pos` of `src`
    /// (spans stay offsets into the whole of `src`).
    fn starting_at(src: &'s [u8], pos: usize) -> Parser<'s> {
        let mut p = Parser {
            src,
            window: std::cell::Cell::new(("", 0)),
            lx: Lexer::at(src, pos),
            tok: Token {
                kind: TokenKind::Eof,
                span: Span::at(0),
            },
            peeked: Token {
                kind: TokenKind::Eof,
                span: Span::at(0),
            },
            has_peeked: false,
            prev_end: pos.min(src.len()) as u32,
            diags: Vec::new(),
            diag_cap: 0,
            unkept: [0; 2],
            depth: 0,
            caches: inst::Caches::take(),
            names: Default::default(),
            lex_limit: u32::MAX,
            stmt_stack: Vec::new(),
            stmt_hint: 0,
            stream_bodies: false,
            body_at: None,
            spare_operands: Vec::new(),
            long_init_bytes: 0,
            long_init: None,
        };
        p.tok = p.fetch();
        p
    }

    /// Record diagnostic `d`. Past twice the cap, the diagnostics are put in
    /// source order and all but the first `diag_cap` counted and dropped, so
    /// the first `diag_cap` in source order are always kept.
    pub(crate) fn report(&mut self, d: Diagnostic) {
        self.diags.push(d);
        if self.diag_cap != 0 && self.diags.len() >= self.diag_cap.saturating_mul(2) {
            keep_first(&mut self.diags, self.diag_cap, &mut self.unkept);
        }
    }

    /// Next significant token; lexical errors are reported here, once.
    #[inline]
    fn fetch(&mut self) -> Token {
        // Packed until stored: both paths then meet in registers, not in a
        // stack copy of the token.
        let mut t = self.lx.next_significant_packed();
        if t.0.is_error() {
            t = pack_token(self.lexical_error(lex::unpack(t)));
        }
        lex::unpack(t)
    }

    /// [`Parser::fetch`] for an error token `t`: report it (unless past
    /// `lex_limit`) and return the token the parser sees instead.
    #[cold]
    #[inline(never)]
    fn lexical_error(&mut self, mut t: Token) -> Token {
        loop {
            if t.span.start >= self.lex_limit {
                // Someone else reports this token's lexical error.
                match t.kind {
                    TokenKind::Unknown | TokenKind::UnterminatedComment => {}
                    TokenKind::UnterminatedStr => {
                        return Token {
                            kind: TokenKind::Str,
                            span: t.span,
                        }
                    }
                    TokenKind::BadNumber => {
                        return Token {
                            kind: TokenKind::Int,
                            span: t.span,
                        }
                    }
                    _ => return t,
                }
            } else {
                match t.kind {
                    TokenKind::Unknown => {
                        let shown = t.span.text(self.src);
                        let shown: String = shown.chars().take(8).collect();
                        self.report(Diagnostic::error(
                            Code::UnknownChar,
                            t.span,
                            format!("unexpected character {shown:?}"),
                        ));
                    }
                    TokenKind::UnterminatedComment => {
                        self.report(Diagnostic::error(
                            Code::Unterminated,
                            Span::new(t.span.start, t.span.start.saturating_add(2)),
                            "unterminated block comment",
                        ));
                    }
                    TokenKind::UnterminatedStr => {
                        self.report(Diagnostic::error(
                            Code::Unterminated,
                            t.span,
                            "unterminated string literal",
                        ));
                        return Token {
                            kind: TokenKind::Str,
                            span: t.span,
                        };
                    }
                    TokenKind::BadNumber => {
                        self.report(Diagnostic::error(
                            Code::BadNumber,
                            t.span,
                            format!("malformed number `{}`", t.span.text(self.src)),
                        ));
                        return Token {
                            kind: TokenKind::Int,
                            span: t.span,
                        };
                    }
                    _ => return t,
                }
            }
            t = self.lx.next_significant();
        }
    }

    /// Consume the current token and return it.
    #[inline]
    pub(crate) fn bump(&mut self) -> Token {
        let t = self.tok;
        self.prev_end = t.span.end;
        // Field by field, here and in `peek`: a whole-token copy also moves
        // the padding after the one-byte kind, and a load of those bytes
        // right after the kind's one-byte store waits for the store to land
        // (it cannot be forwarded), about 4% of a parse.
        if self.has_peeked {
            self.has_peeked = false;
            self.tok.kind = self.peeked.kind;
            self.tok.span = self.peeked.span;
        } else {
            let next = self.fetch();
            self.tok.kind = next.kind;
            self.tok.span = next.span;
        }
        t
    }

    /// Continue lexing at byte `pos` (after raw text the lexer must not see).
    pub(crate) fn reposition(&mut self, pos: usize) {
        self.lx = Lexer::at(self.src, pos);
        self.has_peeked = false;
        self.tok = self.fetch();
    }

    /// The token after the current one.
    #[inline]
    pub(crate) fn peek(&mut self) -> Token {
        if self.has_peeked {
            return self.peeked;
        }
        let t = self.fetch();
        self.peeked.kind = t.kind;
        self.peeked.span = t.span;
        self.has_peeked = true;
        t
    }

    #[inline]
    pub(crate) fn at(&self, k: TokenKind) -> bool {
        self.tok.kind == k
    }

    #[inline]
    pub(crate) fn eat(&mut self, k: TokenKind) -> bool {
        if self.at(k) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Text of a token (identifiers, dot words and numbers are ASCII); ""
    /// for a token that is not valid UTF-8.
    #[inline]
    pub(crate) fn text(&self, t: Token) -> &'s str {
        let (w, at) = self.window.get();
        let (start, end) = (t.span.start as usize, t.span.end as usize);
        if start >= at {
            if let Some(text) = w.get(start.wrapping_sub(at)..end.wrapping_sub(at)) {
                return text;
            }
        }
        self.text_outside_window(t)
    }

    /// [`Parser::text`] of a token outside the window: validate a new window
    /// from the token on. Every byte of a module goes through here once;
    /// `simdutf8` instead of the standard library's check made the whole
    /// parse 2% faster on the corpus.
    #[cold]
    #[inline(never)]
    fn text_outside_window(&self, t: Token) -> &'s str {
        /// Bytes validated at a time.
        const WINDOW: usize = 64 * 1024;
        let start = t.span.start as usize;
        let end = start
            .saturating_add(WINDOW)
            .max(t.span.end as usize)
            .min(self.src.len());
        let bytes = self.src.get(start..end).unwrap_or_default();
        let valid = match simdutf8::compat::from_utf8(bytes) {
            Ok(s) => s,
            // Up to the first invalid (or cut-off) character.
            Err(e) => bytes
                .get(..e.valid_up_to())
                .and_then(|b| std::str::from_utf8(b).ok())
                .unwrap_or(""),
        };
        self.window.set((valid, start));
        // A span that does not fall on character boundaries, or holds an
        // invalid byte, is not text.
        valid.get(..t.span.len() as usize).unwrap_or("")
    }

    /// Whether the current token is the dot word `w`.
    #[inline]
    pub(crate) fn at_word(&self, w: &str) -> bool {
        self.tok.kind == TokenKind::DotWord && self.text(self.tok) == w
    }

    /// The bytes of an identifier or dot word of at most 16 bytes, packed
    /// little-endian into a word (zero past its length). Such tokens are
    /// ASCII and hold no NUL, so the word identifies the text.
    #[inline]
    pub(crate) fn packed(&self, t: Token) -> Option<u128> {
        debug_assert!(matches!(t.kind, TokenKind::Ident | TokenKind::DotWord));
        let len = t.span.len();
        if len as usize > crate::isa::WORD_MAX {
            return None;
        }
        let start = t.span.start as usize;
        match self.src.get(start..start.saturating_add(16)) {
            // One 16-byte load, then the bytes past the token masked off.
            Some(chunk) => {
                let chunk: [u8; 16] = chunk.try_into().ok()?;
                let mask = u128::MAX.checked_shr(128u32.saturating_sub(len.saturating_mul(8)));
                Some(u128::from_le_bytes(chunk) & mask.unwrap_or(0))
            }
            // Near the end of the source: byte by byte, as the catalog's
            // tables were packed.
            None => crate::isa::pack_word(t.span.slice(self.src)),
        }
    }

    /// The name token `t` spells. Inlined for its common case, an
    /// identifier or dot word short enough to be stored inline: one masked
    /// load, no table.
    #[inline]
    pub(crate) fn name(&mut self, t: Token) -> Name {
        if matches!(t.kind, TokenKind::Ident | TokenKind::DotWord) {
            if let Some(n) = self
                .packed(t)
                .and_then(|w| Name::from_packed(w, t.span.len() as usize))
            {
                return n;
            }
        }
        Name::from_bits(self.name_slow(t))
    }

    /// [`Parser::name`] for a long name or another kind of token, as
    /// [`Name::to_bits`].
    #[inline(never)]
    fn name_slow(&mut self, t: Token) -> u128 {
        self.name_slow_inner(t).to_bits()
    }

    /// [`Parser::name_slow`] as a [`Name`].
    #[inline(always)]
    fn name_slow_inner(&mut self, t: Token) -> Name {
        let bytes = t.span.slice(self.src);
        // Short names are stored inline: cheaper to build than to look up.
        // A string whose bytes are not UTF-8 (`"a\x95"`) has no text: its
        // name is the lossy reading of its bytes, as a long one's is (an
        // empty name would print back as nothing).
        if bytes.len() <= crate::syntax::name::INLINE {
            let text = self.text(t);
            if text.len() == bytes.len() {
                return Name::new(text);
            }
            return Name::new(&String::from_utf8_lossy(bytes));
        }
        if let Some(&n) = self.names.get(bytes) {
            return n;
        }
        let text = self.text(t);
        let n = if text.len() == bytes.len() {
            Name::new(text)
        } else {
            Name::new(&String::from_utf8_lossy(bytes))
        };
        if let Some(key) = n.interned_bytes() {
            self.names.insert(key, n);
        }
        n
    }

    /// Span from `start` to the end of the last consumed token.
    #[inline]
    pub(crate) fn since(&self, start: u32) -> Span {
        Span::new(start, self.prev_end.max(start))
    }

    /// Report "expected X" at the current token.
    pub(crate) fn expected(&mut self, what: &str) -> Fail {
        let t = self.tok;
        let d = if t.kind == TokenKind::Eof {
            Diagnostic::error(
                Code::UnexpectedEof,
                t.span,
                format!("unexpected end of file, expected {what}"),
            )
        } else {
            let found = match t.kind {
                TokenKind::Ident | TokenKind::DotWord | TokenKind::Int | TokenKind::Float => {
                    format!("`{}`", truncate(&t.span.text(self.src), 40))
                }
                k => k.describe().to_string(),
            };
            Diagnostic::error(
                Code::Syntax,
                t.span,
                format!("expected {what}, found {found}"),
            )
        };
        self.report(d);
        Fail
    }

    pub(crate) fn expect(&mut self, k: TokenKind, what: &str) -> PResult<Token> {
        if self.at(k) {
            Ok(self.bump())
        } else {
            Err(self.expected(what))
        }
    }

    /// `WARP_SZ` names a constant, and `function_name` and `inlined_at`
    /// are words of `.loc`: ptxas's grammar takes none of them as a
    /// declared name (a variable, parameter, function or label of that
    /// name is a syntax error).
    pub(crate) fn not_reserved(&mut self, t: Token) {
        match self.text(t) {
            "WARP_SZ" => self.error(
                Code::Syntax,
                t.span,
                "`WARP_SZ` is the warp size constant, not a name to declare",
            ),
            // Keywords of `.loc` to ptxas 13.5, never names (a syntax
            // error wherever one is declared or used).
            w @ ("function_name" | "inlined_at") => {
                let w = w.to_string();
                self.error(
                    Code::Syntax,
                    t.span,
                    format!("`{w}` is a keyword of `.loc` directives, not a name to declare"),
                );
            }
            _ => {}
        }
    }

    pub(crate) fn error(&mut self, code: Code, span: Span, msg: impl Into<String>) {
        self.report(Diagnostic::error(code, span, msg));
    }

    /// Enter one nesting level; fails past [`MAX_DEPTH`].
    pub(crate) fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_DEPTH {
            let s = self.tok.span;
            self.error(
                Code::Limit,
                s,
                format!("nesting deeper than {MAX_DEPTH} levels"),
            );
            return Err(Fail);
        }
        self.depth = self.depth.saturating_add(1);
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Skip to the end of the current statement: past the next `;`, or up to
    /// (not past) a `}` that closes the enclosing block. Braces opened on
    /// the way are skipped whole.
    pub(crate) fn recover_stmt(&mut self) {
        let mut depth = 0u32;
        loop {
            match self.tok.kind {
                TokenKind::Eof => return,
                TokenKind::Semi if depth == 0 => {
                    self.bump();
                    return;
                }
                TokenKind::LBrace => depth = depth.saturating_add(1),
                TokenKind::RBrace => {
                    if depth == 0 {
                        return;
                    }
                    depth = depth.saturating_sub(1);
                }
                _ => {}
            }
            self.bump();
        }
    }

    fn module(&mut self) -> Module {
        let items = self.items_until(u32::MAX);
        self.check_header(&items);
        Module { items }
    }

    /// Top-level items up to the first one that starts at or after `end`
    /// (or the end of input).
    fn items_until(&mut self, end: u32) -> Vec<crate::syntax::Item> {
        let mut items = Vec::new();
        while let Some(item) = self.next_item(end) {
            items.push(item);
        }
        items
    }

    /// The next top-level item, unless the input ends (or the next item
    /// starts at or after `end`) first.
    fn next_item(&mut self, end: u32) -> Option<crate::syntax::Item> {
        if self.at(TokenKind::Eof) || self.tok.span.start >= end {
            return None;
        }
        // Every item starts afresh, so parsing from any item boundary gives
        // the same result as parsing from the start of the module.
        self.depth = 0;
        let start = self.tok.span.start;
        let item = match self.item() {
            Ok(item) => item,
            Err(Fail) => {
                self.recover_item();
                crate::syntax::Item::Error(self.since(start))
            }
        };
        // Always make progress.
        if self.tok.span.start == start && !self.at(TokenKind::Eof) {
            self.bump();
        }
        Some(item)
    }

    /// What a stream of items or pieces reports at its end: `refused` if
    /// the input was too large to read, else the diagnostics left over and
    /// those of the module header, in source order.
    pub(crate) fn finish_stream(
        &mut self,
        header: &Header,
        refused: Option<Diagnostic>,
    ) -> Vec<Diagnostic> {
        if let Some(d) = refused {
            return vec![d];
        }
        let mut diags = std::mem::take(&mut self.diags);
        header.check(self.src.len() as u32, &mut diags);
        diags.sort_by_key(|d| d.span.start);
        diags
    }

    /// A module starts with `.version`, then `.target` (ptxas's fatal errors
    /// name the line of the first token that is not what it should be).
    fn check_header(&mut self, items: &[crate::syntax::Item]) {
        let mut h = Header::default();
        for it in items {
            h.see(it);
        }
        h.check(self.src.len() as u32, &mut self.diags);
    }
}

/// What the module header check needs to know of the items, gathered as
/// they go by (so a streaming check need not keep them).
#[derive(Default)]
pub(crate) struct Header {
    /// Kind and span of the first two items.
    first: [Option<(HeadKind, Span)>; 2],
    seen: usize,
    /// `.version` directives after the second item.
    late_versions: Vec<Span>,
}

#[derive(Clone, Copy, PartialEq)]
enum HeadKind {
    Version,
    Target,
    Error,
    Other,
}

impl Header {
    pub(crate) fn see(&mut self, it: &crate::syntax::Item) {
        use crate::syntax::Item;
        let kind = match it {
            Item::Version(_) => HeadKind::Version,
            Item::Target(_) => HeadKind::Target,
            Item::Error(_) => HeadKind::Error,
            _ => HeadKind::Other,
        };
        self.see_kind(kind, it.span());
    }

    /// See a function whose body was streamed, once its whole span is known.
    pub(crate) fn see_function(&mut self, span: Span) {
        self.see_kind(HeadKind::Other, span);
    }

    /// See a declaration read in parts, once its whole span is known.
    pub(crate) fn see_other(&mut self, span: Span) {
        self.see_kind(HeadKind::Other, span);
    }

    fn see_kind(&mut self, kind: HeadKind, span: Span) {
        if let Some(slot) = self.first.get_mut(self.seen) {
            *slot = Some((kind, span));
        } else if kind == HeadKind::Version {
            self.late_versions.push(span);
        }
        self.seen = self.seen.saturating_add(1);
    }

    /// Add what `next` saw after what `self` saw.
    pub(crate) fn append(&mut self, next: Header) {
        for (kind, span) in next.first.into_iter().flatten() {
            self.see_kind(kind, span);
        }
        self.seen = self.seen.saturating_add(next.seen.saturating_sub(2));
        self.late_versions.extend(next.late_versions);
    }

    pub(crate) fn check(&self, src_len: u32, diags: &mut Vec<Diagnostic>) {
        let [first, second] = self.first;
        let at = |i: Option<(HeadKind, Span)>| i.map(|(_, s)| s).unwrap_or(Span::at(src_len));
        let note = "a module starts with `.version`, then `.target` (spec 11.1)";
        match first.map(|(k, _)| k) {
            Some(HeadKind::Version) => {
                if second.map(|(k, _)| k) != Some(HeadKind::Target) {
                    diags.push(
                        Diagnostic::error(
                            Code::MissingTarget,
                            at(second),
                            "missing `.target` directive after `.version`",
                        )
                        .with_note(note),
                    );
                }
            }
            Some(HeadKind::Error) => {}
            // ptxas reads a leading `.target` and stops at what follows it.
            Some(HeadKind::Target) => diags.push(
                Diagnostic::error(
                    Code::MissingVersion,
                    at(second),
                    "missing `.version` directive at the start of the module",
                )
                .with_note(note),
            ),
            _ => diags.push(
                Diagnostic::error(
                    Code::MissingVersion,
                    at(first),
                    "missing `.version` directive at the start of the module",
                )
                .with_note(note),
            ),
        }
        let second_version = second.filter(|(k, _)| *k == HeadKind::Version);
        for span in second_version
            .map(|(_, s)| s)
            .iter()
            .chain(&self.late_versions)
        {
            diags.push(Diagnostic::error(
                Code::Syntax,
                *span,
                "`.version` may appear only once, at the start of the module",
            ));
        }
    }
}

pub(crate) fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn file_size_limit_has_its_own_code() {
        assert!(super::too_large(super::MAX_FILE_SIZE).is_none());
        let d = super::too_large(super::MAX_FILE_SIZE + 1).map(|d| d.code);
        assert_eq!(d, Some(crate::diag::Code::FileTooLarge));
    }
}
