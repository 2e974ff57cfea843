//! Declarations: variables, parameters, functions.

use super::{Fail, PResult, Parser};
use crate::diag::Code;
use crate::isa::vocab::{Linkage, ScalarType, StateSpace};
use crate::lex::TokenKind as K;
use crate::syntax::{
    Attribute, DecimalItem, Declarator, Expr, FieldInit, FuncDirective, FuncKind, Function,
    Initializer, IntLit, Param, PtrAttr, VarDecl,
};

/// Return and parameter lists of a prototype.
pub(crate) type Signature = (Option<Vec<Param>>, Option<Vec<Param>>);

/// Function header directives and how many numbers each takes (min, max).
const FUNC_DIRECTIVES: &[(&str, usize, usize)] = &[
    (".maxntid", 1, 3),
    (".reqntid", 1, 3),
    (".maxnreg", 1, 1),
    (".minnctapersm", 1, 1),
    (".maxnctapersm", 1, 1),
    (".reqnctapercluster", 1, 3),
    (".explicitcluster", 0, 0),
    (".maxclusterrank", 1, 1),
    (".blocksareclusters", 0, 0),
    (".noreturn", 0, 0),
    (".abi_preserve", 1, 1),
    (".abi_preserve_control", 1, 1),
    (".minperctamemory", 1, 1),
    (".language", 1, 11),
];

fn vector_len(w: &str) -> Option<u8> {
    match w {
        ".v2" => Some(2),
        ".v4" => Some(4),
        ".v8" => Some(8),
        _ => None,
    }
}

impl Parser<'_> {
    fn int_token(&mut self, what: &str) -> PResult<IntLit> {
        let t = self.expect(K::Int, what)?;
        Ok(self.int_lit(t))
    }

    /// A variable declaration; the current token is the state space (the
    /// linkage, if any, was consumed by the caller and starts at `start`).
    pub(crate) fn var_decl(&mut self, linkage: Option<(Linkage, u32)>) -> PResult<VarDecl> {
        let start = linkage.map(|l| l.1).unwrap_or(self.tok.span.start);
        let mut space = None;
        let mut bank = None;
        let mut attribute = None;
        let mut align = None;
        let mut vector = None;
        let ty;
        loop {
            if !self.at(K::DotWord) {
                return Err(self.expected("a type"));
            }
            let w = self.text(self.tok);
            if let Some(t) = ScalarType::from_spelling(w).filter(|t| t.declarable()) {
                self.bump();
                ty = t;
                break;
            }
            if let Some(s) = StateSpace::from_spelling(w) {
                if space.is_some() {
                    return Err(self.expected("a type"));
                }
                self.bump();
                space = Some(s);
                if s == StateSpace::Const && self.at(K::LBracket) {
                    self.bump();
                    bank = Some(self.int_token("a constant bank number")?);
                    self.expect(K::RBracket, "`]`")?;
                }
                continue;
            }
            match w {
                ".align" => {
                    self.bump();
                    align = Some(self.int_token("an alignment")?);
                }
                ".attribute" => {
                    let a0 = self.bump().span.start;
                    self.expect(K::LParen, "`(`")?;
                    let mut names = Vec::new();
                    while self.at(K::DotWord) {
                        let t = self.bump();
                        names.push(self.name(t));
                        self.eat(K::Comma);
                    }
                    self.expect(K::RParen, "`)`")?;
                    attribute = Some(Attribute {
                        names,
                        span: self.since(a0),
                    });
                }
                _ => match vector_len(w) {
                    Some(n) => {
                        self.bump();
                        vector = Some(n);
                    }
                    None => return Err(self.expected("a type")),
                },
            }
        }
        let Some(space) = space else {
            let s = self.since(start);
            self.error(
                Code::Syntax,
                s,
                "variable declaration without a state space",
            );
            return Err(Fail);
        };
        // Most declarations declare one name.
        let mut decls = Vec::with_capacity(1);
        loop {
            decls.push(self.declarator()?);
            if let Some(l) = &mut self.long_init {
                // The rest comes in parts: the declaration so far.
                l.var_start = start;
                break;
            }
            if !self.eat(K::Comma) {
                break;
            }
        }
        if self.long_init.is_none() {
            self.expect(K::Semi, "`;` after the declaration")?;
        }
        Ok(VarDecl {
            linkage: linkage.map(|l| l.0),
            space,
            bank,
            attribute,
            align,
            vector,
            ty,
            decls,
            span: self.since(start),
        })
    }

    fn declarator(&mut self) -> PResult<Declarator> {
        let start = self.tok.span.start;
        let t = self.expect(K::Ident, "a variable name")?;
        self.not_reserved(t);
        let name = self.name(t);
        let mut range = None;
        if self.at(K::Lt) {
            self.bump();
            let n = self.int_token("a register count")?;
            if n.value > super::MAX_REGISTER_RANGE {
                self.error(
                    Code::RegisterRange,
                    n.span,
                    format!(
                        "register range of {} is larger than the limit of {}",
                        n.value,
                        super::MAX_REGISTER_RANGE
                    ),
                );
            }
            range = Some(n);
            self.expect(K::Gt, "`>`")?;
        }
        let dims = self.dims()?;
        let init = if self.eat(K::Eq) {
            if self.long_init_bytes != 0 && self.at(K::LBrace) && self.long_last_list() {
                // Read in parts by the stream (`long_init`): the declarator
                // ends here for now.
                self.long_init = Some(Box::default());
                return Ok(Declarator {
                    name,
                    name_span: t.span,
                    range,
                    dims,
                    init: None,
                    span: self.since(start),
                });
            }
            let hint = match dims.first() {
                Some(Some(Expr::Int(n))) => n.value,
                _ => 0,
            };
            Some(self.initializer(hint)?)
        } else {
            None
        };
        Ok(Declarator {
            name,
            name_span: t.span,
            range,
            dims,
            init,
            span: self.since(start),
        })
    }

    fn dims(&mut self) -> PResult<Vec<Option<Expr>>> {
        let mut dims = Vec::new();
        while self.at(K::LBracket) {
            self.bump();
            if self.eat(K::RBracket) {
                dims.push(None);
            } else {
                let e = self.expr()?;
                self.expect(K::RBracket, "`]`")?;
                // ptxas reads an integer literal or `WARP_SZ` here and
                // nothing else (`[4/2]`, `[(4)]`, `[-4]`, `[WARP_SZ*2]` are
                // syntax errors to it).
                let literal = match &e {
                    Expr::Int(_) => true,
                    Expr::Name(n, _) => n.is_warp_size(),
                    _ => false,
                };
                if !literal {
                    self.error(
                        Code::Syntax,
                        e.span(),
                        "an array size is an integer literal (or `WARP_SZ`), not an expression",
                    );
                }
                dims.push(Some(e));
            }
        }
        Ok(dims)
    }

    /// An initializer; `hint` is the declared length of the array (0 if
    /// unknown), to size the item list of `{…}` once.
    fn initializer(&mut self, hint: u64) -> PResult<Initializer> {
        let start = self.tok.span.start;
        if !self.at(K::LBrace) {
            return Ok(Initializer::Expr(self.expr()?));
        }
        self.bump();
        self.enter()?;
        let mut items = Vec::new();
        // The current run of plain decimal items (see `push_item`).
        let mut run = Vec::new();
        // Room for the whole array, but not more than the items the text up
        // to the next `}` can hold, given to what the first item starts: a
        // long list is one kind of item (a byte table is all one run; a
        // table of addresses all expressions), so it is allocated once, not
        // grown by doubling through a copy one and a half times its size.
        let mut room = if hint > 1 {
            usize::try_from(hint)
                .unwrap_or(usize::MAX)
                .min(self.items_before(b'}'))
        } else {
            0
        };
        let r = (|| -> PResult<()> {
            if self.at(K::RBrace) {
                return Ok(());
            }
            let first = std::mem::take(&mut room);
            if self.at(K::Int) {
                run.reserve(first);
            } else {
                items.reserve(first);
            }
            loop {
                if self.at_field_init() {
                    let field = self.field_init()?;
                    push_item(&mut items, &mut run, field);
                } else if self.at(K::Int)
                    && self.depth < super::MAX_DEPTH
                    && self.decimal_run(&mut run, usize::MAX)
                {
                    // The long byte arrays of constant tables went by in one
                    // run (the depth test keeps the nesting limit `expr`
                    // would apply).
                } else {
                    let item = self.initializer(0)?;
                    push_item(&mut items, &mut run, item);
                }
                if !self.eat(K::Comma) {
                    return Ok(());
                }
            }
        })();
        self.leave();
        r?;
        end_run(&mut items, &mut run);
        self.expect(K::RBrace, "`}` or `,` in the initializer")?;
        Ok(Initializer::List {
            items: items.into_boxed_slice(),
            span: self.since(start),
        })
    }

    /// Whether the current item is `field = value` (a sampler or texture
    /// initializer's).
    pub(super) fn at_field_init(&mut self) -> bool {
        self.at(K::Ident) && self.peek().kind == K::Eq
    }

    /// `field = value`; the current token is the field's name.
    pub(super) fn field_init(&mut self) -> PResult<Initializer> {
        let s0 = self.tok.span.start;
        let n = self.bump();
        self.bump();
        let value = self.expr()?;
        Ok(Initializer::Field(Box::new(FieldInit {
            name: self.name(n),
            value,
            span: self.since(s0),
        })))
    }

    /// From the current token, an integer: as many items of a list of
    /// plain decimal literals (`202, 29, 180, …`) as follow, read from the
    /// bytes without the lexer, each the element the token path would add
    /// to the run. Stops after an item, before the first text it does not
    /// handle (a comma not followed by such a literal, the closing brace, a
    /// comment, other notations…), and leaves the parser there. Returns
    /// whether it read any item (if not, nothing was consumed). Stops too
    /// once `run` holds `max` items.
    /// (Inlined: in a list read whole `max` is `usize::MAX`, and its test
    /// folds away from the loop over a table's items.)
    #[inline(always)]
    pub(super) fn decimal_run(&mut self, run: &mut Vec<DecimalItem>, max: usize) -> bool {
        // A peeked token was lexed (and its errors reported) already: let
        // the tokens take their usual way.
        if self.has_peeked || super::runs_tests::runs_off() {
            return false;
        }
        let src = self.src;
        let mut at = self.tok.span.start as usize;
        let Some((mut value, mut end, mut after)) = plain_item(src, at) else {
            return false;
        };
        let stop = loop {
            // `plain_item` takes no leading zero: the text is the value's
            // digits, as `DecimalItem` assumes.
            run.push(DecimalItem::new(value, at as u32));
            if src.get(after) != Some(&b',') || run.len() >= max {
                break after;
            }
            // The next item: most tables put one space after the comma.
            let next = after.wrapping_add(1);
            let next = match src.get(next) {
                Some(b' ')
                    if src
                        .get(next.wrapping_add(1))
                        .is_some_and(u8::is_ascii_digit) =>
                {
                    next.wrapping_add(1)
                }
                _ => crate::lex::space_end(src, next),
            };
            match plain_item(src, next) {
                Some(l) => {
                    at = next;
                    (value, end, after) = l;
                }
                None => break after,
            }
        };
        self.reposition(stop);
        self.prev_end = end as u32;
        true
    }

    /// How many comma-separated items the text from the current token up
    /// to the next `close` byte (or the end) can hold: one more than its
    /// commas. Only a first capacity: a comma or `close` inside a comment,
    /// string or nested list throws it off, never the parse.
    fn items_before(&self, close: u8) -> usize {
        let rest = self
            .src
            .get(self.tok.span.start as usize..)
            .unwrap_or_default();
        let upto = rest.get(..memchr::memchr(close, rest).unwrap_or(rest.len()));
        memchr::memchr_iter(b',', upto.unwrap_or_default())
            .count()
            .saturating_add(1)
    }

    /// `( param, … )`; the current token is `(`.
    pub(crate) fn param_list(&mut self) -> PResult<Vec<Param>> {
        self.expect(K::LParen, "`(`")?;
        if self.eat(K::RParen) {
            return Ok(Vec::new());
        }
        // Room for one parameter per comma up to the next `)`, so the list
        // of a kernel with many parameters is not grown (and copied) over
        // and over.
        let mut out = Vec::with_capacity(self.items_before(b')'));
        loop {
            match self.param() {
                Ok(p) => out.push(p),
                // Skip to the next parameter; the function is kept.
                Err(Fail) => self.recover_param()?,
            }
            if !self.eat(K::Comma) {
                break;
            }
        }
        self.expect(K::RParen, "`,` or `)` in the parameter list")?;
        Ok(out)
    }

    /// After a parameter that did not parse: skip to the `,` or `)` that
    /// ends it. Fails at a `{`, `;`, a directive that starts an item, or
    /// the end of input.
    fn recover_param(&mut self) -> PResult<()> {
        let mut depth = 0u32;
        loop {
            match self.tok.kind {
                K::LBrace | K::Semi | K::Eof => return Err(Fail),
                // The next item (a parameter list's `.ptr` may name spaces).
                K::DotWord
                    if super::items::starts_item(self.text(self.tok))
                        && StateSpace::from_spelling(self.text(self.tok)).is_none() =>
                {
                    return Err(Fail)
                }
                K::Comma | K::RParen if depth == 0 => return Ok(()),
                K::LParen | K::LBracket => depth = depth.saturating_add(1),
                K::RParen | K::RBracket => depth = depth.saturating_sub(1),
                _ => {}
            }
            self.bump();
        }
    }

    fn param(&mut self) -> PResult<Param> {
        let start = self.tok.span.start;
        let hidden = self.at_word(".hidden");
        if hidden {
            self.bump();
        }
        let space = match self
            .at(K::DotWord)
            .then(|| StateSpace::from_spelling(self.text(self.tok)))
            .flatten()
        {
            Some(s @ (StateSpace::Param | StateSpace::Reg)) => {
                self.bump();
                s
            }
            _ => return Err(self.expected("`.param` or `.reg`")),
        };
        let mut align = None;
        let mut vector = None;
        let mut ty = None;
        let mut ptr: Option<PtrAttr> = None;
        while self.at(K::DotWord) {
            let w = self.text(self.tok);
            if let Some(p) = ptr.as_mut() {
                if let Some(s) = StateSpace::from_spelling(w) {
                    self.bump();
                    p.space = Some(s);
                    p.span = self.since(p.span.start);
                    continue;
                }
                if w == ".align" {
                    self.bump();
                    p.align = Some(self.int_token("an alignment")?);
                    p.span = self.since(p.span.start);
                    continue;
                }
            }
            if let Some(t) = ScalarType::from_spelling(w).filter(|t| t.declarable()) {
                if ty.is_some() {
                    return Err(self.expected("a parameter name"));
                }
                self.bump();
                ty = Some(t);
            } else if w == ".align" {
                self.bump();
                align = Some(self.int_token("an alignment")?);
            } else if w == ".ptr" {
                let t = self.bump();
                ptr = Some(PtrAttr {
                    space: None,
                    align: None,
                    span: t.span,
                });
            } else if let Some(n) = vector_len(w).filter(|_| ty.is_none()) {
                // The vector length comes before the type (`.param .v2 .b32`).
                self.bump();
                vector = Some(n);
            } else if ty.is_some() {
                return Err(self.expected("a parameter name"));
            } else {
                return Err(self.expected("a parameter type"));
            }
        }
        let Some(ty) = ty else {
            return Err(self.expected("a parameter type"));
        };
        let t = self.expect(K::Ident, "a parameter name")?;
        self.not_reserved(t);
        let dims = self.dims()?;
        Ok(Param {
            hidden,
            space,
            align,
            vector,
            ty,
            ptr,
            name: self.name(t),
            name_span: t.span,
            dims,
            span: self.since(start),
        })
    }

    /// `{(rets)} name {(params)}` of a `.callprototype`, with `_` as name.
    pub(crate) fn signature(&mut self) -> PResult<Signature> {
        let rets = if self.at(K::LParen) {
            Some(self.param_list()?)
        } else {
            None
        };
        let name = self.expect(K::Ident, "`_`")?;
        if self.text(name) != "_" {
            self.error(
                Code::Syntax,
                name.span,
                "a `.callprototype` is named `_`: its label names it",
            );
            return Err(Fail);
        }
        let params = if self.at(K::LParen) {
            Some(self.param_list()?)
        } else {
            None
        };
        Ok((rets, params))
    }

    /// `.entry`/`.func` header and body; the current token is `.entry`/`.func`.
    pub(crate) fn function(&mut self, linkage: Option<(Linkage, u32)>) -> PResult<Function> {
        self.function_in(linkage, false)
    }

    /// A function declared in a body: a prototype (`.extern .func f(…);`,
    /// which ptxas 13.5 takes there), never a definition. The current token
    /// is `.func` (or `.entry`, refused as ptxas refuses it).
    pub(crate) fn body_function(&mut self, linkage: Option<(Linkage, u32)>) -> PResult<Function> {
        if !self.at_word(".func") {
            return Err(self.expected("`.func` (only a function may be declared in a body)"));
        }
        self.function_in(linkage, true)
    }

    /// [`Parser::function`]; `in_body` for a declaration inside a body,
    /// which ends with `;` and has no body of its own.
    fn function_in(&mut self, linkage: Option<(Linkage, u32)>, in_body: bool) -> PResult<Function> {
        let start = linkage.map(|l| l.1).unwrap_or(self.tok.span.start);
        let kw = self.bump();
        let kind = if self.text(kw) == ".entry" {
            FuncKind::Entry
        } else {
            FuncKind::Func
        };
        let rets = if kind == FuncKind::Func && self.at(K::LParen) {
            Some(self.param_list()?)
        } else {
            None
        };
        let n = self.expect(K::Ident, "a function name")?;
        self.not_reserved(n);
        let params = if self.at(K::LParen) {
            Some(self.param_list()?)
        } else {
            None
        };
        let mut directives = Vec::new();
        while self.at(K::DotWord)
            && (!super::items::starts_item(self.text(self.tok))
                || (self.at_word(".pragma") && self.pragma_before_body()))
        {
            if kind == FuncKind::Entry && self.at_word(".noreturn") {
                return Err(
                    self.expected("a kernel directive (`.noreturn` applies to `.func` only)")
                );
            }
            directives.push(self.func_directive()?);
        }
        let body = if in_body {
            if self.at(K::LBrace) {
                let t = self.tok;
                self.error(
                    Code::Syntax,
                    t.span,
                    "a function cannot be defined inside another function's body \
                     (only declared: end the header with `;`)",
                );
                return Err(Fail);
            }
            self.expect(K::Semi, "`;` after the function declaration")?;
            None
        } else if self.at(K::LBrace) && self.stream_bodies {
            // The stream reads the body's statements one at a time; the
            // function carries an empty body at its `{` meanwhile.
            let at = self.tok.span.start;
            self.body_at = Some(at);
            Some(crate::syntax::Block {
                stmts: Vec::new(),
                span: crate::source::Span::new(at, at),
            })
        } else if self.at(K::LBrace) {
            Some(self.block()?)
        } else if self.tok.kind == K::DotWord && super::items::starts_item(self.text(self.tok))
            || self.at(K::Eof)
        {
            // Old PTX (2.x) ends declarations without `;`.
            None
        } else {
            self.expect(K::Semi, "`{` or `;` after the function header")?;
            None
        };
        Ok(Function {
            linkage: linkage.map(|l| l.0),
            kind,
            rets,
            name: self.name(n),
            name_span: n.span,
            params,
            directives,
            body,
            span: self.since(start),
        })
    }

    /// At a `.pragma` after a function's header: whether the body's `{`
    /// follows its `;` (an entry-scoped pragma, one of the header's
    /// directives), rather than something else (a module-scope pragma after
    /// a declaration that old PTX ends without `;`). Reads only what the
    /// pragma itself may hold (blanks, commas and one-line strings) up to
    /// its `;`, then the blanks after it: anything else ends the look
    /// there, so a header costs no more than its own text.
    fn pragma_before_body(&self) -> bool {
        let at = self.tok.span.end as usize;
        let rest = self.src.get(at..).unwrap_or_default();
        let mut in_string = false;
        let mut escaped = false;
        let mut end = None;
        for (i, &b) in rest.iter().enumerate() {
            if in_string {
                match b {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => in_string = false,
                    b'\n' => return false,
                    _ => {}
                }
            } else {
                match b {
                    b'"' => in_string = true,
                    b';' => {
                        end = Some(i);
                        break;
                    }
                    b',' => {}
                    _ if b.is_ascii_whitespace() => {}
                    _ => return false,
                }
            }
        }
        let Some(end) = end else { return false };
        rest.get(end.saturating_add(1)..)
            .unwrap_or_default()
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            == Some(&b'{')
    }

    pub(crate) fn func_directive(&mut self) -> PResult<FuncDirective> {
        let start = self.tok.span.start;
        let t = self.bump();
        let w = self.text(t);
        let name = self.name(t);
        if w == ".pragma" {
            let mut strings = Vec::new();
            loop {
                let s = self.expect(K::Str, "a string")?;
                strings.push(self.name(s));
                if !self.eat(K::Comma) {
                    break;
                }
            }
            self.expect(K::Semi, "`;` after `.pragma`")?;
            return Ok(FuncDirective {
                name,
                args: Vec::new(),
                strings,
                span: self.since(start),
            });
        }
        let Some(&(_, min, max)) = FUNC_DIRECTIVES.iter().find(|d| d.0 == w) else {
            self.error(
                Code::UnknownDirective,
                t.span,
                format!("unknown function directive `{}`", super::truncate(w, 40)),
            );
            // Keep the function: skip the directive's arguments and go on
            // with the header (an unknown directive is likely newer syntax).
            while !matches!(self.tok.kind, K::LBrace | K::Semi | K::DotWord | K::Eof) {
                self.bump();
            }
            return Ok(FuncDirective {
                name,
                args: Vec::new(),
                strings: Vec::new(),
                span: self.since(start),
            });
        };
        let mut args = Vec::new();
        let mut strings = Vec::new();
        if max > 0 && (self.at(K::Int) || (w == ".language" && self.at(K::Str))) {
            loop {
                if w == ".language" && self.at(K::Str) {
                    let s = self.bump();
                    strings.push(self.name(s));
                } else {
                    args.push(self.int_token("a number")?);
                }
                if !self.eat(K::Comma) {
                    break;
                }
            }
        }
        let count = args.len().saturating_add(strings.len());
        if count < min || count > max {
            let s = self.since(start);
            let want = if min == max {
                format!("{min}")
            } else {
                format!("{min} to {max}")
            };
            self.error(
                Code::Syntax,
                s,
                format!("`{w}` takes {want} argument(s), found {count}"),
            );
        }
        Ok(FuncDirective {
            name,
            args,
            strings,
            span: self.since(start),
        })
    }
}

/// The item of a list at `i` if it is a plain decimal literal that
/// `plain_decimal` decodes (as `int_lit` does: 1 to 19 digits, no leading
/// zero) and the whole item, with only blanks before the `,` or `}` after
/// it: its value, the end of its digits and where that `,` or `}` is.
/// Digits are added in as they are read, in one pass.
#[inline(always)]
fn plain_item(src: &[u8], i: usize) -> Option<(u64, usize, usize)> {
    let (value, end) = match src.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        Some(chunk) => match eight_digits(u64::from_le_bytes(*chunk)) {
            Some((value, n)) => (value, i.wrapping_add(n)),
            None => digits_from(src, i)?,
        },
        None => digits_from(src, i)?,
    };
    let after = match src.get(end) {
        Some(b',' | b'}') => end,
        _ => crate::lex::space_end(src, end),
    };
    matches!(src.get(after), Some(b',' | b'}')).then_some((value, end, after))
}

/// The plain decimal that starts the eight bytes `w` (little-endian, the
/// first byte lowest) if it ends within them: its value and its number of
/// digits (1 to 7), all found without a branch on the digit count (the
/// items of a byte table have 1, 2 or 3 digits in no order a predictor
/// could learn). `None` when `w` does not start with a digit, has a
/// leading zero, or is all digits (left to [`digits_from`]).
#[inline(always)]
fn eight_digits(w: u64) -> Option<(u64, usize)> {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Each byte minus `'0'`, as bits: a digit becomes 0 to 9.
    let x = w ^ 0x3030_3030_3030_3030;
    // The top bit of a byte is set where it is not a digit: it was 0x80 or
    // more, or its low seven bits are 10 or more (adding 118 carries into
    // the top bit, and never out of the byte).
    let other = (x | (x & LOW7).wrapping_add(0x7676_7676_7676_7676)) & HIGH;
    let n = (other.trailing_zeros() / 8) as usize;
    if n == 0 || n == 8 || (n > 1 && x & 0xFF == 0) {
        return None;
    }
    // The digits moved to the top bytes, zeros below them: the eight-digit
    // number with leading zeros, combined pairwise, then in fours.
    // `n` is 1 to 7: the shift is 8 to 56 bits.
    let v = x << (8usize.wrapping_sub(n).wrapping_mul(8) as u32);
    let v = v.wrapping_mul(10).wrapping_add(v >> 8);
    let pairs = 0x0000_00FF_0000_00FF;
    let v = ((v & pairs)
        .wrapping_mul(100 + (1_000_000 << 32))
        .wrapping_add(((v >> 16) & pairs).wrapping_mul(1 + (10_000 << 32))))
        >> 32;
    Some((v, n))
}

/// [`plain_item`]'s digits, a byte at a time: the value and the end of
/// the plain decimal at `i`, as [`plain_decimal`](super::literal::plain_decimal)
/// decodes it (1 to 19 digits, no leading zero). Rare (an item of eight
/// digits or more, or one in the last eight bytes), so kept out of line.
#[cold]
#[inline(never)]
fn digits_from(src: &[u8], i: usize) -> Option<(u64, usize)> {
    let digits = src
        .get(i..)?
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let end = i.wrapping_add(digits);
    Some((super::literal::plain_decimal(src.get(i..end)?)?, end))
}

/// Add `item` to a list being read: a plain decimal literal joins the
/// current run of them, anything else ends the run and follows it. So a
/// list has one shape whichever way its items were read.
fn push_item(items: &mut Vec<Initializer>, run: &mut Vec<DecimalItem>, item: Initializer) {
    if let Some(item) = join_run(run, item) {
        end_run(items, run);
        items.push(item);
    }
}

/// A plain decimal literal joins `run` (`None`); anything else is given
/// back, to follow the run.
pub(super) fn join_run(run: &mut Vec<DecimalItem>, item: Initializer) -> Option<Initializer> {
    if let Initializer::Expr(Expr::Int(lit)) = &item {
        if let Some(d) = DecimalItem::from_lit(lit) {
            run.push(d);
            return None;
        }
    }
    Some(item)
}

/// Move the current run, if any, into the list's items.
fn end_run(items: &mut Vec<Initializer>, run: &mut Vec<DecimalItem>) {
    items.extend(take_run(run));
}

/// The current run, if any, as an item (the run left empty).
pub(super) fn take_run(run: &mut Vec<DecimalItem>) -> Option<Initializer> {
    (!run.is_empty()).then(|| Initializer::Decimals(std::mem::take(run).into_boxed_slice()))
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod digit_tests {
    use super::{digits_from, eight_digits};

    /// The eight-byte reader agrees with the byte-at-a-time one wherever it
    /// answers, and answers for every plain decimal of 1 to 7 digits
    /// followed by something else.
    fn agree(bytes: [u8; 8]) {
        let w = u64::from_le_bytes(bytes);
        if let Some((value, n)) = eight_digits(w) {
            assert_eq!(
                digits_from(&bytes, 0),
                Some((value, n)),
                "{:?}",
                String::from_utf8_lossy(&bytes)
            );
        } else {
            let plain = digits_from(&bytes, 0).filter(|&(_, end)| end < 8);
            assert_eq!(plain, None, "{:?}", String::from_utf8_lossy(&bytes));
        }
    }

    #[test]
    fn eight_byte_reader_matches() {
        for v in (0u64..100_000).chain([999_999, 1_000_000, 9_999_999, 12_345_678]) {
            for tail in [
                b", 7, 8, 9".as_slice(),
                b"}      ",
                b" ,1234567",
                b"U,      ",
            ] {
                let mut s = v.to_string().into_bytes();
                s.extend_from_slice(tail);
                agree(s[..8].try_into().unwrap_or([0; 8]));
            }
        }
        // Leading zeros, signs, letters, high bytes, all digits.
        for s in [
            b"0,      ",
            b"00,     ",
            b"01234567",
            b"12345678",
            b"-1,     ",
            b"1a,     ",
            b"1\xff,     ",
            b":0,     ",
            b"9/,     ",
            b"        ",
        ] {
            agree(*s);
        }
        // Every byte value in each place after a digit.
        for at in 1..8 {
            for b in 0..=255u8 {
                let mut s = *b"12345678";
                s[at] = b;
                agree(s);
            }
        }
    }
}
