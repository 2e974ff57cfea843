//! Function bodies: blocks, labels, local declarations, instructions.

use super::{Fail, PResult, Parser};
use crate::diag::Code;
use crate::isa::vocab::Linkage;
use crate::lex::TokenKind as K;
use crate::syntax::{Block, CallPrototype, Stmt, TargetList};

impl Parser<'_> {
    /// `{ stmts }`; the current token is `{`.
    pub(crate) fn block(&mut self) -> PResult<Block> {
        let start = self.tok.span.start;
        self.expect(K::LBrace, "`{`")?;
        self.enter()?;
        // Statements go on the parser's shared stack, and come off it as
        // this block's list at the end (see `take_stmts`). The loop has no
        // early exit, so a nested block always takes its own statements off
        // before this one goes on.
        let mark = self.stmt_stack.len();
        if mark == 0 {
            self.stmt_stack.reserve(self.stmt_hint);
        }
        loop {
            match self.tok.kind {
                K::RBrace => {
                    self.bump();
                    break;
                }
                K::Eof => {
                    self.leave();
                    self.block_not_closed(start);
                    return Ok(Block {
                        stmts: self.take_stmts(mark),
                        span: self.since(start),
                    });
                }
                _ => {}
            }
            self.stmt_step_to(|p, s| p.stmt_stack.push(s));
        }
        self.leave();
        Ok(Block {
            stmts: self.take_stmts(mark),
            span: self.since(start),
        })
    }

    /// Report the end of input inside the block whose `{` is at `start`.
    pub(super) fn block_not_closed(&mut self, start: u32) {
        let open = crate::source::Span::new(start, start.saturating_add(1));
        let d = crate::diag::Diagnostic::error(
            Code::UnexpectedEof,
            self.tok.span,
            "unexpected end of file: block is not closed",
        )
        .with_label(open, "this `{` is not closed");
        self.report(d);
    }

    /// The statements on the stack from `mark` on, as a list of their own.
    /// The outermost block takes the stack itself, trimmed in place, rather
    /// than a copy: a function body is then never held twice, and the next
    /// function's body starts a new stack.
    fn take_stmts(&mut self, mark: usize) -> Vec<Stmt> {
        if mark == 0 {
            // The next body likely has about as many statements: its stack
            // is made that large when it starts (not now, while this body
            // is still held), so most never grow.
            self.stmt_hint = self.stmt_stack.len();
            let mut stmts = std::mem::take(&mut self.stmt_stack);
            stmts.shrink_to_fit();
            stmts
        } else {
            self.stmt_stack.drain(mark..).collect()
        }
    }

    /// Statements up to the end of input (a stray `}` is reported and skipped).
    pub(crate) fn stmts_until_eof(&mut self) -> Vec<Stmt> {
        let mut stmts = Vec::new();
        while !self.at(K::Eof) {
            if self.at(K::RBrace) {
                let t = self.bump();
                self.error(Code::Syntax, t.span, "unmatched `}`");
                continue;
            }
            stmts.push(self.stmt_step());
        }
        stmts
    }

    /// The next statement of a body, or after a syntax error an
    /// [`Stmt::Error`] over the text skipped to recover. Always moves on,
    /// unless at a `}` or the end of input, which the caller handles.
    #[inline]
    pub(super) fn stmt_step(&mut self) -> Stmt {
        self.stmt_step_to(|_, s| s)
    }

    /// [`Parser::stmt_step`], handing the statement to `put` (a body's
    /// loop pushes it onto the statement stack straight from the result).
    #[inline(always)]
    fn stmt_step_to<R>(&mut self, put: impl FnOnce(&mut Self, Stmt) -> R) -> R {
        let s0 = self.tok.span.start;
        let r = match self.stmt() {
            Ok(s) => put(self, s),
            Err(Fail) => {
                self.recover_stmt();
                let s = Stmt::Error(self.since(s0));
                put(self, s)
            }
        };
        if self.tok.span.start == s0 && !self.at(K::Eof) && !self.at(K::RBrace) {
            self.bump();
        }
        r
    }

    /// One statement of a body; the current token starts it.
    pub(super) fn stmt(&mut self) -> PResult<Stmt> {
        let start = self.tok.span.start;
        let kind = self.tok.kind;
        let label = kind == K::Ident && self.peek().kind == K::Colon;
        match kind {
            K::LBrace => Ok(Stmt::Block(self.block()?)),
            K::At => self.instruction(),
            K::Ident if label => {
                let t = self.bump();
                self.not_reserved(t);
                self.bump();
                let label = self.name(t);
                if self.at(K::DotWord) {
                    match self.text(self.tok) {
                        ".callprototype" => {
                            self.bump();
                            let (rets, params) = self.signature()?;
                            let noreturn = if self.at_word(".noreturn") {
                                self.bump();
                                true
                            } else {
                                false
                            };
                            // ptxas 13.5 takes the ABI directives after
                            // `.noreturn` (before it: a syntax error).
                            let mut directives = Vec::new();
                            while self.at_word(".abi_preserve")
                                || self.at_word(".abi_preserve_control")
                            {
                                directives.push(self.func_directive()?);
                            }
                            self.expect(K::Semi, "`;` after `.callprototype`")?;
                            return Ok(Stmt::CallPrototype(Box::new(CallPrototype {
                                label,
                                rets,
                                params,
                                noreturn,
                                directives,
                                span: self.since(start),
                            })));
                        }
                        w @ (".calltargets" | ".branchtargets") => {
                            let is_call = w == ".calltargets";
                            self.bump();
                            let mut targets = Vec::new();
                            loop {
                                let t = self.expect(K::Ident, "a target name")?;
                                targets.push((self.name(t), t.span));
                                if !self.eat(K::Comma) {
                                    break;
                                }
                            }
                            self.expect(K::Semi, "`;`")?;
                            let tl = TargetList {
                                label,
                                targets,
                                span: self.since(start),
                            };
                            return Ok(if is_call {
                                Stmt::CallTargets(tl)
                            } else {
                                Stmt::BranchTargets(tl)
                            });
                        }
                        _ => {}
                    }
                }
                Ok(Stmt::Label(label, self.since(start)))
            }
            K::Ident => self.instruction(),
            K::DotWord => {
                let w = self.text(self.tok);
                match w {
                    ".reg" | ".local" | ".shared" | ".param" | ".const" | ".global" | ".tex" => {
                        Ok(Stmt::Var(Box::new(self.var_decl(None)?)))
                    }
                    ".loc" => Ok(Stmt::Loc(Box::new(self.loc()?))),
                    ".pragma" => Ok(Stmt::Pragma(self.pragma()?)),
                    ".loc_intermediate" => Ok(Stmt::Directive(self.loc_intermediate()?)),
                    ".target" => Ok(Stmt::Target(self.target_directive()?)),
                    ".func" => Ok(Stmt::Function(Box::new(self.body_function(None)?))),
                    _ => {
                        // `.extern .func f(…);` and the other linkages: a
                        // function declared for the rest of the module.
                        if let Some(l) = Linkage::from_spelling(w) {
                            self.bump();
                            let f = self.body_function(Some((l, start)))?;
                            return Ok(Stmt::Function(Box::new(f)));
                        }
                        let t = self.tok;
                        let what = if super::items::starts_item(w) {
                            "is not allowed in a function body"
                        } else {
                            "is unknown"
                        };
                        self.error(
                            Code::UnknownDirective,
                            t.span,
                            format!("directive `{}` {what}", super::truncate(w, 40)),
                        );
                        Err(Fail)
                    }
                }
            }
            _ => Err(self.expected("a statement")),
        }
    }
}
