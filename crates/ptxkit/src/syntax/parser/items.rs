//! Top-level items: module directives, variables, functions, debug sections.

use super::{Fail, PResult, Parser};
use crate::diag::Code;
use crate::isa::vocab::{Linkage, ScalarType, StateSpace};
use crate::lex::TokenKind as K;
use crate::syntax::{
    AddressSize, Alias, CodeBlock, Directive, FileDirective, IntermediateSource, Item, Loc, Pragma,
    Section, SectionEntry, Target, Version,
};

/// Directives that may start a top-level item (used for recovery).
pub(crate) fn starts_item(w: &str) -> bool {
    matches!(
        w,
        ".version"
            | ".target"
            | ".address_size"
            | ".file"
            | ".loc"
            | ".section"
            | ".pragma"
            | ".alias"
            | ".entry"
            | ".func"
            | ".extern"
            | ".visible"
            | ".weak"
            | ".common"
            | ".global"
            | ".const"
            | ".shared"
            | ".local"
            | ".tex"
            | ".nv_intermediate_source_section"
    )
}

impl Parser<'_> {
    /// `.target sm_90a {, option}` (at module scope, or in a body, where
    /// ptxas 13.5 takes it too); the current token is `.target`.
    pub(crate) fn target_directive(&mut self) -> PResult<Target> {
        let start = self.bump().span.start;
        let mut items = Vec::new();
        loop {
            let t = self.expect(K::Ident, "a target such as `sm_90`")?;
            items.push((self.name(t), t.span));
            if !self.eat(K::Comma) {
                break;
            }
        }
        Ok(Target {
            items,
            span: self.since(start),
        })
    }
}

impl Parser<'_> {
    pub(crate) fn item(&mut self) -> PResult<Item> {
        let start = self.tok.span.start;
        if !self.at(K::DotWord) {
            return Err(self.expected("a directive"));
        }
        let w = self.text(self.tok);
        match w {
            ".version" => {
                self.bump();
                let t = self.tok;
                let text = self.text(t);
                let parsed = match t.kind {
                    K::Float => text
                        .split_once('.')
                        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?))),
                    _ => None,
                };
                let Some((major, minor)) = parsed else {
                    return Err(self.expected("a version number such as `8.5`"));
                };
                self.bump();
                Ok(Item::Version(Version {
                    major,
                    minor,
                    span: self.since(start),
                }))
            }
            ".target" => Ok(Item::Target(self.target_directive()?)),
            ".address_size" => {
                self.bump();
                let t = self.expect(K::Int, "32 or 64")?;
                let bits = self.int_lit(t);
                if bits.value != 32 && bits.value != 64 {
                    self.error(Code::Syntax, t.span, "`.address_size` must be 32 or 64");
                }
                Ok(Item::AddressSize(AddressSize {
                    bits,
                    span: self.since(start),
                }))
            }
            ".file" => {
                self.bump();
                let i = self.expect(K::Int, "a file number")?;
                let index = self.int_lit(i);
                let s = self.expect(K::Str, "a file name string")?;
                let mut extra = Vec::new();
                while self.eat(K::Comma) {
                    let t = self.expect(K::Int, "a number")?;
                    extra.push(self.int_lit(t));
                }
                Ok(Item::File(FileDirective {
                    index,
                    name: self.name(s),
                    extra,
                    span: self.since(start),
                }))
            }
            ".loc" => Ok(Item::Loc(self.loc()?)),
            ".pragma" => Ok(Item::Pragma(self.pragma()?)),
            ".section" => self.section(),
            crate::syntax::Alias::KEYWORD => {
                self.bump();
                let a = self.expect(K::Ident, "an alias name")?;
                self.expect(K::Comma, "`,`")?;
                let b = self.expect(K::Ident, "a function name")?;
                self.expect(K::Semi, "`;`")?;
                Ok(Item::Alias(Alias {
                    alias: self.name(a),
                    target: self.name(b),
                    span: self.since(start),
                }))
            }
            ".entry" | ".func" => Ok(Item::Function(self.function(None)?)),
            ".nv_intermediate_source_section" => self.intermediate_source(),
            _ => {
                if let Some(l) = Linkage::from_spelling(w) {
                    self.bump();
                    if self.at_word(".entry") || self.at_word(".func") {
                        return Ok(Item::Function(self.function(Some((l, start)))?));
                    }
                    return Ok(Item::Var(self.var_decl(Some((l, start)))?));
                }
                if StateSpace::from_spelling(w).is_some() {
                    return Ok(Item::Var(self.var_decl(None)?));
                }
                let t = self.tok;
                self.error(
                    Code::UnknownDirective,
                    t.span,
                    format!("unknown directive `{}`", super::truncate(w, 40)),
                );
                Err(Fail)
            }
        }
    }

    /// Skip to the next token that can start a top-level item, skipping
    /// brace blocks whole.
    pub(crate) fn recover_item(&mut self) {
        let mut depth = 0u32;
        loop {
            match self.tok.kind {
                K::Eof => return,
                K::LBrace => depth = depth.saturating_add(1),
                K::RBrace => {
                    depth = depth.saturating_sub(1);
                    self.bump();
                    if depth == 0 {
                        // A `;` right after a skipped block belongs to it.
                        self.eat(K::Semi);
                        return;
                    }
                    continue;
                }
                K::Semi if depth == 0 => {
                    self.bump();
                    return;
                }
                K::DotWord if depth == 0 && starts_item(self.text(self.tok)) => return,
                _ => {}
            }
            self.bump();
        }
    }

    /// `.loc file line col {, function_name lbl{+off}} {, inlined_at f l c}`
    pub(crate) fn loc(&mut self) -> PResult<Loc> {
        let start = self.bump().span.start;
        let f = self.expect(K::Int, "a file number")?;
        let l = self.expect(K::Int, "a line number")?;
        let c = self.expect(K::Int, "a column number")?;
        let (file, line, col) = (self.int_lit(f), self.int_lit(l), self.int_lit(c));
        // ptxas takes the two attributes together, `function_name` first
        // (either alone, or the other order, is a syntax error to it).
        let mut function_name = None;
        let mut inlined_at = None;
        if self.eat(K::Comma) {
            let kw = self.expect(K::Ident, "`function_name`")?;
            match self.text(kw) {
                "function_name" => {
                    function_name = Some(self.expr()?);
                    if !self.eat(K::Comma) {
                        return Err(self.expected(
                            "`, inlined_at file line column` (a `function_name` says where its body was inlined)",
                        ));
                    }
                    let kw = self.expect(K::Ident, "`inlined_at`")?;
                    if self.text(kw) != "inlined_at" {
                        self.error(
                            Code::Syntax,
                            kw.span,
                            "expected `inlined_at` after a `.loc`'s `function_name`",
                        );
                        return Err(Fail);
                    }
                    let a = self.expect(K::Int, "a file number")?;
                    let b = self.expect(K::Int, "a line number")?;
                    let c = self.expect(K::Int, "a column number")?;
                    inlined_at = Some([self.int_lit(a), self.int_lit(b), self.int_lit(c)]);
                }
                "inlined_at" => {
                    self.error(
                        Code::Syntax,
                        kw.span,
                        "`inlined_at` comes after a `function_name` naming the inlined function",
                    );
                    return Err(Fail);
                }
                other => {
                    let other = other.to_string();
                    self.error(
                        Code::Syntax,
                        kw.span,
                        format!("unknown `.loc` attribute `{other}`"),
                    );
                    return Err(Fail);
                }
            }
        }
        Ok(Loc {
            file,
            line,
            col,
            function_name,
            inlined_at,
            span: self.since(start),
        })
    }

    /// `.loc_intermediate file line col` (PTX 9.4): three numbers, no commas.
    pub(crate) fn loc_intermediate(&mut self) -> PResult<Directive> {
        let start = self.tok.span.start;
        let t = self.bump();
        let name = self.name(t);
        let mut args = Vec::new();
        for what in ["a file number", "a line number", "a column number"] {
            let n = self.expect(K::Int, what)?;
            args.push(crate::syntax::Expr::Int(self.int_lit(n)));
        }
        Ok(Directive {
            name,
            args,
            semi: false,
            span: self.since(start),
        })
    }

    /// `.pragma "a" {, "b"};`
    pub(crate) fn pragma(&mut self) -> PResult<Pragma> {
        let start = self.bump().span.start;
        let mut strings = Vec::new();
        loop {
            let s = self.expect(K::Str, "a string")?;
            strings.push(self.name(s));
            if !self.eat(K::Comma) {
                break;
            }
        }
        self.expect(K::Semi, "`;` after `.pragma`")?;
        Ok(Pragma {
            strings,
            span: self.since(start),
        })
    }

    /// `.nv_intermediate_source_section { .code_block { … } … }`
    fn intermediate_source(&mut self) -> PResult<Item> {
        let start = self.bump().span.start;
        self.expect(K::LBrace, "`{`")?;
        let mut blocks = Vec::new();
        while !self.eat(K::RBrace) {
            let b0 = self.tok.span.start;
            if !self.at_word(".code_block") {
                return Err(self.expected("`.code_block` or `}`"));
            }
            self.bump();
            self.expect(K::LBrace, "`{`")?;
            let mut block = CodeBlock {
                ir_name: None,
                file: None,
                source: None,
                span: crate::source::Span::at(b0),
            };
            loop {
                if self.eat(K::RBrace) {
                    break;
                }
                if !self.at(K::DotWord) {
                    return Err(
                        self.expected("`.ir_name`, `.sourceFileName`, `.source_begin` or `}`")
                    );
                }
                match self.text(self.tok) {
                    ".ir_name" => {
                        self.bump();
                        self.expect(K::Colon, "`:`")?;
                        let s = self.expect(K::Str, "a string")?;
                        block.ir_name = Some(self.name(s));
                    }
                    ".sourceFileName" => {
                        self.bump();
                        self.expect(K::Colon, "`:`")?;
                        let n = self.expect(K::Int, "a file number")?;
                        block.file = Some(self.int_lit(n));
                    }
                    ".source_begin" => block.source = Some(self.raw_source()?),
                    _ => {
                        return Err(
                            self.expected("`.ir_name`, `.sourceFileName`, `.source_begin` or `}`")
                        )
                    }
                }
            }
            block.span = self.since(b0);
            blocks.push(block);
        }
        Ok(Item::IntermediateSource(IntermediateSource {
            blocks,
            span: self.since(start),
        }))
    }

    /// The current token is `.source_begin`: take the raw text up to
    /// `.source_end` without lexing it, and continue after `.source_end`.
    fn raw_source(&mut self) -> PResult<String> {
        let begin = self.tok.span;
        let from = begin.end as usize;
        let rest = self.src.get(from..).unwrap_or_default();
        let Some(off) = memchr::memmem::find(rest, b".source_end") else {
            self.error(
                Code::UnexpectedEof,
                begin,
                "`.source_begin` without `.source_end`",
            );
            return Err(Fail);
        };
        let text = String::from_utf8_lossy(rest.get(..off).unwrap_or_default()).into_owned();
        self.reposition(from.saturating_add(off));
        // Now at `.source_end`.
        self.bump();
        Ok(text)
    }

    /// `.section name { entries }`
    fn section(&mut self) -> PResult<Item> {
        let start = self.bump().span.start;
        let n = self.tok;
        // ptxas 13.5: a section is named by a dotted word (`.section foo`
        // is a syntax error).
        if n.kind != K::DotWord {
            return Err(self.expected("a section name"));
        }
        self.bump();
        let name = self.name(n);
        self.expect(K::LBrace, "`{`")?;
        let mut entries = Vec::new();
        loop {
            let kind = self.tok.kind;
            let label = kind == K::Ident && self.peek().kind == K::Colon;
            match kind {
                K::RBrace => {
                    self.bump();
                    break;
                }
                K::Ident if label => {
                    let t = self.bump();
                    self.bump();
                    entries.push(SectionEntry::Label(self.name(t), self.since(t.span.start)));
                }
                K::DotWord => {
                    let s0 = self.tok.span.start;
                    let Some(ty) = ScalarType::from_spelling(self.text(self.tok)) else {
                        return Err(self.expected("a data directive such as `.b8`"));
                    };
                    self.bump();
                    // `.b8 N` alone on its line, N a plain decimal byte:
                    // one byte of a run (the bulk of debug sections).
                    if ty == ScalarType::B8
                        && self.at(K::Int)
                        && !matches!(self.peek().kind, K::Comma)
                        && super::expr::ends_literal(self.peek().kind)
                    {
                        if let Some(v) = crate::syntax::plain_byte(self.text(self.tok).as_bytes()) {
                            let end = self.bump().span.end;
                            match entries.last_mut() {
                                Some(SectionEntry::Bytes { values, span }) => {
                                    values.push(v);
                                    *span = crate::source::Span::new(span.start, end);
                                }
                                _ => entries.push(SectionEntry::Bytes {
                                    values: vec![v],
                                    span: crate::source::Span::new(s0, end),
                                }),
                            }
                            continue;
                        }
                    }
                    // `.b8 65, 66, 0`, every value a plain decimal byte: a
                    // byte each, read while they are; the bytes read become
                    // expressions if a later value is not one.
                    let mut bytes: Vec<u8> = Vec::new();
                    let mut starts: Vec<u32> = Vec::new();
                    if ty == ScalarType::B8 && self.at(K::Int) && self.peek().kind == K::Comma {
                        let mut whole = false;
                        while self.at(K::Int) && super::expr::ends_literal(self.peek().kind) {
                            let Some(v) = crate::syntax::plain_byte(self.text(self.tok).as_bytes())
                            else {
                                break;
                            };
                            let t = self.bump();
                            bytes.push(v);
                            starts.push(t.span.start);
                            if !self.eat(K::Comma) {
                                whole = true;
                                break;
                            }
                        }
                        if whole {
                            entries.push(SectionEntry::ByteList {
                                values: bytes.into_boxed_slice(),
                                span: self.since(s0),
                            });
                            continue;
                        }
                    }
                    // Most data lines hold one value (`.b8 0`): no heap.
                    let mut values = smallvec::SmallVec::new();
                    for (&v, &start) in bytes.iter().zip(&starts) {
                        let len = match v {
                            0..=9 => 1,
                            10..=99 => 2,
                            _ => 3,
                        };
                        let t = crate::lex::Token {
                            kind: K::Int,
                            span: crate::source::Span::new(start, start.saturating_add(len)),
                        };
                        values.push(crate::syntax::Expr::Int(self.int_lit(t)));
                    }
                    loop {
                        if self.at(K::Int)
                            && self.depth < super::MAX_DEPTH
                            && super::expr::ends_literal(self.peek().kind)
                        {
                            // What `expr` makes of a lone integer, quicker.
                            let t = self.bump();
                            values.push(crate::syntax::Expr::Int(self.int_lit(t)));
                        } else {
                            values.push(self.expr()?);
                        }
                        if !self.eat(K::Comma) {
                            break;
                        }
                    }
                    entries.push(SectionEntry::Data {
                        ty,
                        values,
                        span: self.since(s0),
                    });
                }
                _ => return Err(self.expected("a label, `.b8`…`.b64` data or `}`")),
            }
        }
        Ok(Item::Section(Section {
            name,
            entries,
            span: self.since(start),
        }))
    }
}
