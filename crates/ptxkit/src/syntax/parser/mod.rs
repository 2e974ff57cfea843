//! The parser: one pass over a streaming lexer, building the tree directly.
//!
//! Recovery: a statement that does not parse is skipped to its `;` (or to
//! the `}` closing its block) and kept as an `Error` node; at top level the
//! parser skips to the next directive. So one run reports every syntax error.

mod body;
mod decl;
mod expr;
mod inst;
mod items;
mod literal;

use crate::diag::{codes, Diagnostic};
use crate::lex::{Lexer, Token, TokenKind};
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
            codes::FILE_TOO_LARGE,
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
}

impl Parsed {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }
}

/// Parse `src` into a module.
pub fn parse(src: &[u8]) -> Parsed {
    if let Some(d) = too_large(src.len()) {
        return Parsed {
            module: Module::default(),
            diagnostics: vec![d],
        };
    }
    let mut p = Parser::new(src);
    let module = p.module();
    let mut diagnostics = p.diags;
    diagnostics.sort_by_key(|d| d.span.start);
    Parsed {
        module,
        diagnostics,
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
    let mut diags = p.diags;
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
    lx: Lexer<'s>,
    /// Current significant token.
    pub(crate) tok: Token,
    /// The one after it, when peeked.
    peeked: Option<Token>,
    /// End of the last consumed token.
    pub(crate) prev_end: u32,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) depth: u32,
    /// Form-match cache: (opcode, modifiers) → candidate forms.
    pub(crate) form_cache: inst::FormCache,
    /// Resolution cache: (opcode, modifiers, operand shapes) → (form, mask).
    pub(crate) bound_cache: inst::BoundCache,
    /// Names seen in this source, so each distinct spelling goes through the
    /// process-wide interner once.
    names: rustc_hash::FxHashMap<&'s [u8], Name>,
}

impl<'s> Parser<'s> {
    fn new(src: &'s [u8]) -> Parser<'s> {
        let mut p = Parser {
            src,
            lx: Lexer::new(src),
            tok: Token {
                kind: TokenKind::Eof,
                span: Span::at(0),
            },
            peeked: None,
            prev_end: 0,
            diags: Vec::new(),
            depth: 0,
            form_cache: Default::default(),
            bound_cache: Default::default(),
            names: Default::default(),
        };
        p.tok = p.fetch();
        p
    }

    /// Next significant token; lexical errors are reported here, once.
    fn fetch(&mut self) -> Token {
        loop {
            let t = self.lx.next_significant();
            match t.kind {
                TokenKind::Unknown => {
                    let shown = t.span.text(self.src);
                    let shown: String = shown.chars().take(8).collect();
                    self.diags.push(Diagnostic::error(
                        codes::UNKNOWN_CHAR,
                        t.span,
                        format!("unexpected character {shown:?}"),
                    ));
                }
                TokenKind::UnterminatedComment => {
                    self.diags.push(Diagnostic::error(
                        codes::UNTERMINATED,
                        Span::new(t.span.start, t.span.start.saturating_add(2)),
                        "unterminated block comment",
                    ));
                }
                TokenKind::UnterminatedStr => {
                    self.diags.push(Diagnostic::error(
                        codes::UNTERMINATED,
                        t.span,
                        "unterminated string literal",
                    ));
                    return Token {
                        kind: TokenKind::Str,
                        span: t.span,
                    };
                }
                TokenKind::BadNumber => {
                    self.diags.push(Diagnostic::error(
                        codes::BAD_NUMBER,
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
    }

    /// Consume the current token and return it.
    #[inline]
    pub(crate) fn bump(&mut self) -> Token {
        let t = self.tok;
        self.prev_end = t.span.end;
        self.tok = match self.peeked.take() {
            Some(p) => p,
            None => self.fetch(),
        };
        t
    }

    /// Continue lexing at byte `pos` (after raw text the lexer must not see).
    pub(crate) fn reposition(&mut self, pos: usize) {
        self.lx = Lexer::at(self.src, pos);
        self.peeked = None;
        self.tok = self.fetch();
    }

    /// The token after the current one.
    #[inline]
    pub(crate) fn peek(&mut self) -> Token {
        if let Some(p) = self.peeked {
            return p;
        }
        let t = self.fetch();
        self.peeked = Some(t);
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

    /// Text of a token (identifiers, dot words and numbers are ASCII).
    #[inline]
    pub(crate) fn text(&self, t: Token) -> &'s str {
        std::str::from_utf8(t.span.slice(self.src)).unwrap_or("")
    }

    /// Whether the current token is the dot word `w`.
    #[inline]
    pub(crate) fn at_word(&self, w: &str) -> bool {
        self.tok.kind == TokenKind::DotWord && self.text(self.tok) == w
    }

    pub(crate) fn name(&mut self, t: Token) -> Name {
        let bytes = t.span.slice(self.src);
        // Short names are stored inline: cheaper to build than to look up.
        if bytes.len() <= 14 {
            return Name::new(std::str::from_utf8(bytes).unwrap_or_default());
        }
        if let Some(&n) = self.names.get(bytes) {
            return n;
        }
        let n = Name::new(&String::from_utf8_lossy(bytes));
        self.names.insert(bytes, n);
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
                codes::UNEXPECTED_EOF,
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
                codes::SYNTAX,
                t.span,
                format!("expected {what}, found {found}"),
            )
        };
        self.diags.push(d);
        Fail
    }

    pub(crate) fn expect(&mut self, k: TokenKind, what: &str) -> PResult<Token> {
        if self.at(k) {
            Ok(self.bump())
        } else {
            Err(self.expected(what))
        }
    }

    pub(crate) fn error(&mut self, code: &'static str, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(code, span, msg));
    }

    /// Enter one nesting level; fails past [`MAX_DEPTH`].
    pub(crate) fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_DEPTH {
            let s = self.tok.span;
            self.error(
                codes::LIMIT,
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
        let mut items = Vec::new();
        while !self.at(TokenKind::Eof) {
            let start = self.tok.span.start;
            match self.item() {
                Ok(item) => items.push(item),
                Err(Fail) => {
                    self.recover_item();
                    let span = self.since(start);
                    items.push(crate::syntax::Item::Error(span));
                }
            }
            // Always make progress.
            if self.tok.span.start == start && !self.at(TokenKind::Eof) {
                self.bump();
            }
        }
        self.check_header(&items);
        Module { items }
    }

    /// A module starts with `.version`, then `.target` (ptxas's fatal errors
    /// name the line of the first token that is not what it should be).
    fn check_header(&mut self, items: &[crate::syntax::Item]) {
        use crate::syntax::Item;
        let at = |i: usize| {
            items
                .get(i)
                .map(|it| it.span())
                .unwrap_or(Span::at(self.src.len() as u32))
        };
        match items.first() {
            Some(Item::Version(_)) => {
                if !matches!(items.get(1), Some(Item::Target(_))) {
                    let d = Diagnostic::error(
                        codes::MISSING_TARGET,
                        at(1),
                        "missing `.target` directive after `.version`",
                    )
                    .with_note("a module starts with `.version`, then `.target` (spec 11.1)");
                    self.diags.push(d);
                }
            }
            Some(Item::Error(_)) => {}
            // ptxas reads a leading `.target` and stops at what follows it.
            Some(Item::Target(_)) => {
                let d = Diagnostic::error(
                    codes::MISSING_VERSION,
                    at(1),
                    "missing `.version` directive at the start of the module",
                )
                .with_note("a module starts with `.version`, then `.target` (spec 11.1)");
                self.diags.push(d);
            }
            _ => {
                let d = Diagnostic::error(
                    codes::MISSING_VERSION,
                    at(0),
                    "missing `.version` directive at the start of the module",
                )
                .with_note("a module starts with `.version`, then `.target` (spec 11.1)");
                self.diags.push(d);
            }
        }
        for it in items.iter().skip(1) {
            if let Item::Version(v) = it {
                self.diags.push(Diagnostic::error(
                    codes::SYNTAX,
                    v.span,
                    "`.version` may appear only once, at the start of the module",
                ));
            }
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
        assert_eq!(d, Some(crate::diag::codes::FILE_TOO_LARGE));
    }
}
