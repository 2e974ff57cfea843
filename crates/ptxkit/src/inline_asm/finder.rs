//! Finding GNU-style `asm` statements in the C++ tokens and reading their
//! parts: the template, the output and input operands with their
//! constraints, the clobbers and the `goto` labels.

use std::sync::Arc;

use super::cpp_lex::{Kind, Spliced, Token};
use super::literal::Decoded;
use super::macros::PTok;
use super::passes::{each, Mask, Passes};
use super::pp::{GuardInfo, Pp, PpOptions, State};
use crate::source::Span;

/// Most tokens one statement may have before it is given up as malformed
/// (bounds the memory a hostile input can make the finder hold).
pub const MAX_STATEMENT_TOKENS: usize = 1 << 16;

/// One operand of an `asm` statement: `[name] "constraint" (expression)`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct AsmOperand {
    /// The symbolic name (`[name]`), if any.
    pub name: Option<String>,
    /// The constraint string, decoded (`=r`, `+l`, `n`).
    pub constraint: String,
    /// The constraint literal in the C++ source.
    pub constraint_span: Span,
    /// The C++ expression between the parentheses, as written.
    pub expr: String,
    /// Where the expression is.
    pub expr_span: Span,
    /// The expression's value when it is a string literal (for `"C"`),
    /// after macros are expanded.
    #[serde(skip)]
    pub expr_string: Option<Box<Decoded>>,
    /// The expression's integer value (for `"n"`) when it is known: a
    /// literal, or made of macros and `constexpr` constants.
    pub value: Option<i128>,
}

/// The template of a statement.
#[derive(Clone, Debug)]
pub enum Template {
    /// Adjacent string literals, concatenated and decoded; `from` maps each
    /// byte to its offset in the original C++ source.
    Literal(Decoded),
    /// Not made of string literals only (a macro, a `constexpr` string):
    /// not checked.
    NotLiteral,
    /// The statement has more than 65,536 tokens (`MAX_STATEMENT_TOKENS`) before
    /// its closing parenthesis (or has none): given up unread, and
    /// reported as an error rather than passed over.
    TooLong,
    /// Not a statement: the place of the first macro expansion given up
    /// (too large, too deep, or past the file's budget), whose statements,
    /// and those of later expansions given up, are not checked (reported
    /// once per file).
    GivenUp(super::macros::GaveUp),
}

/// A GNU-style `asm` statement found in C++ source.
#[derive(Clone, Debug)]
pub struct AsmStatement {
    /// From the `asm` keyword to the closing parenthesis (original offsets).
    pub span: Span,
    /// The `asm` keyword.
    pub keyword: Span,
    /// The template's literals, from the first quote to the last.
    pub template_span: Span,
    /// The template.
    pub template: Template,
    /// Output operands, in order (numbered from 0).
    pub outputs: Vec<AsmOperand>,
    /// Input operands, in order (numbered after the outputs).
    pub inputs: Vec<AsmOperand>,
    /// Clobbers (`"memory"`, `"cc"`).
    pub clobbers: Vec<String>,
    /// `goto` labels.
    pub labels: Vec<String>,
    /// `volatile` / `__volatile__` was given.
    pub volatile: bool,
    /// `goto` was given.
    pub goto: bool,
    /// Written inside a `#define` body.
    pub in_macro: bool,
}

impl AsmStatement {
    /// Outputs then inputs: the operands `%0`, `%1`, … refer to.
    pub fn operands(&self) -> impl Iterator<Item = &AsmOperand> {
        self.outputs.iter().chain(&self.inputs)
    }
}

fn is_asm_keyword(w: &[u8]) -> bool {
    matches!(w, b"asm" | b"__asm__" | b"__asm")
}

fn qualifier(w: &[u8]) -> Option<Qual> {
    Some(match w {
        b"volatile" | b"__volatile__" | b"__volatile" => Qual::Volatile,
        b"goto" => Qual::Goto,
        b"inline" | b"__inline__" | b"__inline" => Qual::Inline,
        _ => return None,
    })
}

#[derive(PartialEq)]
enum Qual {
    Volatile,
    Goto,
    Inline,
}

/// Every `asm` statement of a C++ source, in order (for a statement with
/// conditional groups inside, as the first compile pass reads it).
pub fn find(src: &[u8]) -> Vec<AsmStatement> {
    find_all(src, &PpOptions::default(), Arc::new(Passes::new()))
        .into_iter()
        .map(|f| f.statement)
        .collect()
}

/// One way a statement is compiled: its text in some passes.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The statement as these passes read it.
    pub statement: AsmStatement,
    /// The device passes that read it so.
    pub mask: Mask,
}

/// A statement found, with what decides where it is compiled.
#[derive(Clone, Debug)]
pub struct Found {
    /// The statement as the first of its passes reads it.
    pub statement: AsmStatement,
    /// The device passes that read it as `statement` (its first reading);
    /// `None` when no device pass compiles it.
    pub first_mask: Option<Mask>,
    /// The other distinct readings and their device passes (most
    /// statements have none: the first is `statement` itself, not a copy).
    pub variants: Vec<Variant>,
    /// The passes that may compile it (bit 0: the host pass).
    pub mask: Mask,
    /// The conditions around it.
    pub guard: GuardInfo,
    /// The macros expanded to read it.
    pub expanded: Vec<String>,
    /// Inside the body of this macro (with parameters): its invocations
    /// are checked instead.
    pub macro_name: Option<Vec<u8>>,
    /// Found in the expansion of a macro invoked here.
    pub from_invocation: bool,
    /// For a statement found in a macro's expansion, the invocation (the
    /// macro's name to its closing parenthesis, original offsets): the
    /// statement's own spans point into the macro's body, which every
    /// invocation shares.
    pub invoked_at: Option<crate::source::Span>,
}

impl Found {
    /// Each distinct reading with the device passes that read it so, the
    /// first being `statement`.
    pub fn readings(&self) -> impl Iterator<Item = (&AsmStatement, Mask)> {
        let first = self.first_mask.map(|m| (&self.statement, m));
        first
            .into_iter()
            .chain(self.variants.iter().map(|v| (&v.statement, v.mask)))
    }

    /// How many readings [`Found::readings`] gives.
    pub fn reading_count(&self) -> usize {
        usize::from(self.first_mask.is_some()).saturating_add(self.variants.len())
    }
}

/// Every `asm` statement of a C++ source with its variants and guard.
pub fn find_all(src: &[u8], opts: &PpOptions, passes: Arc<Passes>) -> Vec<Found> {
    let sp = Spliced::new(src);
    let all = passes.all();
    let state = State::new(Arc::clone(&passes), opts);
    let dir = opts
        .path
        .as_deref()
        .and_then(std::path::Path::parent)
        .map(std::path::Path::to_path_buf);
    state.table.allow(sp.text.len());
    let mut pp = Pp::new(&sp.text, state, all, dir);
    let mut out = Vec::new();
    let mut peeked: Option<Token> = None;
    let next = |pp: &mut Pp, peeked: &mut Option<Token>| peeked.take().or_else(|| pp.next_token());
    let text = pp.text();
    while let Some(t) = next(&mut pp, &mut peeked) {
        if t.kind != Kind::Ident {
            continue;
        }
        let w = word(text, &t);
        if !is_asm_keyword(w) {
            if !t.in_define {
                invocation(&sp, &mut pp, t, &mut peeked, &mut out);
            }
            continue;
        }
        let mask = pp.maybe();
        let d0 = pp.depth();
        let macro_name = if t.in_define {
            pp.define_name.clone()
        } else {
            None
        };
        let mut volatile = false;
        let mut goto = false;
        let mut open = false;
        while let Some(n) = next(&mut pp, &mut peeked) {
            match n.kind {
                Kind::Ident => match qualifier(word(text, &n)) {
                    Some(q) => {
                        volatile |= q == Qual::Volatile;
                        goto |= q == Qual::Goto;
                    }
                    None => {
                        peeked = Some(n);
                        break;
                    }
                },
                Kind::Punct(b'(') => {
                    open = true;
                    break;
                }
                _ => {
                    peeked = Some(n);
                    break;
                }
            }
        }
        if !open {
            continue;
        }
        // The tokens up to the matching `)`, each with the passes that
        // read it.
        // (Two lists: a statement read by every pass alike, nearly all
        // of them, is read from the tokens as they are.)
        let mut body: Vec<PTok> = Vec::new();
        let mut masks: Vec<Mask> = Vec::new();
        let mut depth = 0usize;
        let mut close = None;
        let mut last_end = None;
        // In code no pass compiles, the groups inside still pick branches.
        let live = if mask == 0 { Mask::MAX } else { mask };
        while let Some(n) = next(&mut pp, &mut peeked) {
            let inner = pp.inner(d0);
            let counted = inner & live != 0;
            if counted {
                match n.kind {
                    Kind::Punct(b'(' | b'[' | b'{') => depth = depth.saturating_add(1),
                    Kind::Punct(b')' | b']' | b'}') if depth > 0 => depth = depth.saturating_sub(1),
                    Kind::Punct(b')') => {
                        close = Some(n);
                        break;
                    }
                    _ => {}
                }
            }
            let space = last_end.is_none_or(|e| e < n.start);
            last_end = Some(n.end);
            body.push(PTok::of(text, &n, true, space));
            masks.push(inner);
            if body.len() > MAX_STATEMENT_TOKENS {
                break;
            }
        }
        let kw = PTok::of(text, &t, true, true);
        let guard = pp.guard(d0);
        let Some(close) = close else {
            if body.len() > MAX_STATEMENT_TOKENS {
                let last = body.last().map_or(t, |p| Token {
                    kind: p.kind,
                    start: p.at,
                    end: p.at.saturating_add(p.text.len() as u32),
                    in_define: false,
                });
                let statement = too_long(&sp, t, last, volatile, goto);
                out.push(Found {
                    first_mask: Some(super::pp::device(mask)),
                    variants: Vec::new(),
                    statement,
                    mask,
                    guard,
                    expanded: Vec::new(),
                    macro_name,
                    from_invocation: false,
                    invoked_at: None,
                });
            }
            continue;
        };
        let close = PTok::of(text, &close, true, false);
        let mut expanded = Vec::new();
        let reader = Reader {
            sp: &sp,
            pp: &pp,
            in_macro: t.in_define,
        };
        let mut variants = variants(&body, &masks, mask)
            .into_iter()
            .map(|(toks, m)| {
                let k = each(m).next().unwrap_or(0);
                Variant {
                    statement: reader.read(&kw, &close, &toks, volatile, goto, k, &mut expanded),
                    mask: m,
                }
            })
            .collect::<Vec<_>>();
        let (statement, first_mask) = if variants.is_empty() {
            let toks: Vec<PTok> = body
                .iter()
                .zip(&masks)
                .filter(|(_, &m)| m & mask != 0 || m == Mask::MAX)
                .map(|(p, _)| p.clone())
                .collect();
            let k = each(mask).next().unwrap_or(0);
            let s = reader.read(&kw, &close, &toks, volatile, goto, k, &mut expanded);
            (s, None)
        } else {
            let first = variants.remove(0);
            (first.statement, Some(first.mask))
        };
        out.push(Found {
            statement,
            first_mask,
            variants,
            mask,
            guard,
            expanded,
            macro_name,
            from_invocation: false,
            invoked_at: None,
        });
    }
    // A statement in a macro with parameters is checked at the macro's
    // invocations when there are any.
    let mut invoked: Vec<Vec<u8>> = Vec::new();
    for f in out.iter().filter(|f| f.from_invocation) {
        for m in &f.expanded {
            if !invoked.iter().any(|x| x == m.as_bytes()) {
                invoked.push(m.as_bytes().to_vec());
            }
        }
    }
    out.retain(|f| f.from_invocation || f.macro_name.as_ref().is_none_or(|n| !invoked.contains(n)));
    // Expansions given up gave up their statements: said once, where
    // the first was.
    if let Some((at, why)) = pp.state.table.gave_up() {
        let t = Token {
            kind: Kind::Ident,
            start: at,
            end: at.saturating_add(1),
            in_define: false,
        };
        let mut statement = too_long(&sp, t, t, false, false);
        statement.template = Template::GivenUp(why);
        let place = out.partition_point(|f| f.statement.span.start <= statement.span.start);
        out.insert(
            place,
            Found {
                first_mask: Some(super::pp::device(all)),
                variants: Vec::new(),
                statement,
                mask: all,
                guard: pp.guard(0),
                expanded: Vec::new(),
                macro_name: None,
                from_invocation: false,
                invoked_at: None,
            },
        );
    }
    out
}

/// The distinct readings of a statement's `body` (each token read by the
/// passes of `masks`) among the device passes of `mask`.
fn variants<'b>(
    body: &'b [PTok],
    masks: &[Mask],
    mask: Mask,
) -> Vec<(std::borrow::Cow<'b, [PTok]>, Mask)> {
    let dev = super::pp::device(mask);
    if dev == 0 {
        return Vec::new();
    }
    if masks.iter().all(|m| *m & dev == dev) {
        return vec![(std::borrow::Cow::Borrowed(body), dev)];
    }
    let mut groups: Vec<(Vec<bool>, Mask)> = Vec::new();
    for k in each(dev) {
        let b = super::passes::bit(k);
        let sig: Vec<bool> = masks.iter().map(|m| m & b != 0).collect();
        match groups.iter().position(|(s, _)| *s == sig) {
            Some(g) => {
                if let Some((_, m)) = groups.get_mut(g) {
                    *m |= b;
                }
            }
            None if groups.len() < 32 => groups.push((sig, b)),
            None => {}
        }
    }
    groups
        .into_iter()
        .map(|(sig, m)| {
            let toks: Vec<PTok> = body
                .iter()
                .zip(sig)
                .filter(|(_, s)| *s)
                .map(|(p, _)| p.clone())
                .collect();
            (std::borrow::Cow::Owned(toks), m)
        })
        .collect()
}

/// At a non-`asm` identifier `t` outside `#define` bodies: when it invokes
/// a function-like macro whose body holds an `asm` statement, read the
/// statements of its expansion.
fn invocation(
    sp: &Spliced,
    pp: &mut Pp,
    t: Token,
    peeked: &mut Option<Token>,
    out: &mut Vec<Found>,
) {
    let text = pp.text();
    let mask = pp.maybe();
    let Some(k) = each(super::pp::device(mask)).next() else {
        return;
    };
    let name = word(text, &t);
    let Some(def) = pp.state.table.get(name, k) else {
        return;
    };
    if def.params.is_none() || !reaches_asm(&pp.state.table, &def.body, k, 0) {
        return;
    }
    // The call's tokens, `name ( ... )`.
    let Some(open) = peeked.take().or_else(|| pp.next_token()) else {
        return;
    };
    if open.kind != Kind::Punct(b'(') {
        *peeked = Some(open);
        return;
    }
    let mut call = vec![
        PTok::of(text, &t, true, true),
        PTok::of(text, &open, true, false),
    ];
    let mut depth = 0usize;
    let mut last_end = open.end;
    while let Some(n) = pp.next_token() {
        let space = last_end < n.start;
        last_end = n.end;
        call.push(PTok::of(text, &n, true, space));
        match n.kind {
            Kind::Punct(b'(') => depth = depth.saturating_add(1),
            Kind::Punct(b')') if depth == 0 => break,
            Kind::Punct(b')') => depth = depth.saturating_sub(1),
            _ => {}
        }
        if call.len() > MAX_STATEMENT_TOKENS {
            return;
        }
    }
    let call_span = crate::source::Span::new(
        sp.original(t.start),
        sp.original(last_end.saturating_sub(1)).saturating_add(1),
    );
    let mut expanded = vec![String::from_utf8_lossy(name).into_owned()];
    let Some(toks) = pp.state.table.expand(&call, k, &mut expanded) else {
        return;
    };
    let guard = pp.guard(pp.depth());
    let reader = Reader {
        sp,
        pp,
        in_macro: false,
    };
    let mut i = 0usize;
    while let Some(kw) = toks.get(i) {
        i = i.saturating_add(1);
        if kw.kind != Kind::Ident || !is_asm_keyword(&kw.text) {
            continue;
        }
        let mut volatile = false;
        let mut goto = false;
        while let Some(q) = toks.get(i).and_then(|n| {
            (n.kind == Kind::Ident)
                .then(|| qualifier(&n.text))
                .flatten()
        }) {
            volatile |= q == Qual::Volatile;
            goto |= q == Qual::Goto;
            i = i.saturating_add(1);
        }
        if toks.get(i).is_none_or(|n| n.kind != Kind::Punct(b'(')) {
            continue;
        }
        i = i.saturating_add(1);
        let from = i;
        let mut depth = 0usize;
        let mut close = None;
        while let Some(n) = toks.get(i) {
            i = i.saturating_add(1);
            match n.kind {
                Kind::Punct(b'(' | b'[' | b'{') => depth = depth.saturating_add(1),
                Kind::Punct(b')' | b']' | b'}') if depth > 0 => depth = depth.saturating_sub(1),
                Kind::Punct(b')') => {
                    close = Some(n.clone());
                    break;
                }
                _ => {}
            }
        }
        let Some(close) = close else { break };
        let body = toks.get(from..i.saturating_sub(1)).unwrap_or_default();
        let mut used = expanded.clone();
        let statement = reader.read(kw, &close, body, volatile, goto, k, &mut used);
        out.push(Found {
            first_mask: Some(super::pp::device(mask)),
            variants: Vec::new(),
            statement,
            mask,
            guard: guard.clone(),
            expanded: used,
            macro_name: Some(name.to_vec()),
            from_invocation: true,
            invoked_at: Some(call_span),
        });
    }
}

/// Whether a macro body holds an `asm` keyword, itself or through the
/// function-like macros it invokes (a few levels deep).
fn reaches_asm(table: &super::macros::Table, body: &[PTok], k: usize, depth: usize) -> bool {
    body.iter().filter(|b| b.kind == Kind::Ident).any(|b| {
        is_asm_keyword(&b.text)
            || (depth < 4
                && table.get(&b.text, k).is_some_and(|d| {
                    d.params.is_some() && reaches_asm(table, &d.body, k, depth.saturating_add(1))
                }))
    })
}

fn word<'a>(s: &'a [u8], t: &Token) -> &'a [u8] {
    s.get(t.start as usize..t.end as usize).unwrap_or_default()
}

/// Split `toks` at depth-0 occurrences of punctuation `sep`.
fn split_top(toks: &[PTok], sep: u8) -> Vec<&[PTok]> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut from = 0usize;
    for (i, t) in toks.iter().enumerate() {
        match t.kind {
            Kind::Punct(b'(' | b'[' | b'{') => depth = depth.saturating_add(1),
            Kind::Punct(b')' | b']' | b'}') => depth = depth.saturating_sub(1),
            Kind::Punct(c) if c == sep && depth == 0 => {
                parts.push(toks.get(from..i).unwrap_or_default());
                from = i.saturating_add(1);
            }
            _ => {}
        }
    }
    parts.push(toks.get(from..).unwrap_or_default());
    parts
}

/// Reads a statement's parts, expanding macros as pass `k` sees them.
struct Reader<'r, 'a> {
    sp: &'r Spliced<'a>,
    pp: &'r Pp<'a>,
    in_macro: bool,
}

impl Reader<'_, '_> {
    /// `toks` with macros expanded when they are not all string literals.
    fn expand<'t>(
        &self,
        toks: &'t [PTok],
        k: usize,
        used: &mut Vec<String>,
    ) -> std::borrow::Cow<'t, [PTok]> {
        if toks.iter().all(|t| matches!(t.kind, Kind::Str { .. })) {
            return std::borrow::Cow::Borrowed(toks);
        }
        match self.pp.state.table.expand(toks, k, used) {
            Some(v) => std::borrow::Cow::Owned(v),
            None => std::borrow::Cow::Borrowed(toks),
        }
    }

    /// The decoded text of `toks` when they are (or expand to) string
    /// literals only.
    fn literals(&self, toks: &[PTok], k: usize, used: &mut Vec<String>) -> Option<Decoded> {
        if toks.is_empty() {
            return None;
        }
        let toks = self.expand(toks, k, used);
        let mut d = Decoded::default();
        for t in toks.iter() {
            match t.kind {
                Kind::Str { .. } => t.decode_into(&mut d),
                _ => return None,
            }
        }
        for f in &mut d.from {
            *f = self.sp.original(*f);
        }
        Some(d)
    }

    fn span_of(&self, toks: &[PTok]) -> Span {
        match (toks.first(), toks.last()) {
            (Some(a), Some(b)) => {
                let end = if b.exact {
                    b.at.saturating_add(b.text.len() as u32)
                } else {
                    b.at.saturating_add(1)
                };
                let start = self.sp.original(a.at);
                let end = self.sp.original(end.saturating_sub(1)).saturating_add(1);
                // Tokens out of macro expansions may map back to places in
                // any order (the fuzzer's `#define A(x A(x)`): then the
                // first token's place alone, never a reversed span.
                if end > start {
                    Span::new(start, end)
                } else {
                    Span::new(start, start.saturating_add(1))
                }
            }
            _ => Span::default(),
        }
    }

    /// The integer value of an `"n"` operand's expression.
    fn value(&self, toks: &[PTok], k: usize, used: &mut Vec<String>) -> Option<i128> {
        let toks = self.expand(toks, k, used);
        let env = super::cond_expr::Env {
            table: &self.pp.state.table,
            passes: &self.pp.state.passes,
            constants: Some(&self.pp.state.constants),
        };
        super::cond_expr::eval(&env, &toks, k, &mut Vec::new())
    }

    #[allow(clippy::too_many_arguments)]
    fn read(
        &self,
        kw: &PTok,
        close: &PTok,
        body: &[PTok],
        volatile: bool,
        goto: bool,
        k: usize,
        used: &mut Vec<String>,
    ) -> AsmStatement {
        let sections = split_top(body, b':');
        let template_toks = sections.first().copied().unwrap_or_default();
        let template = match self.literals(template_toks, k, used) {
            Some(d) => Template::Literal(d),
            None => Template::NotLiteral,
        };
        let mut operands = |n: usize| -> Vec<AsmOperand> {
            sections
                .get(n)
                .map(|s| {
                    operand_list(s)
                        .into_iter()
                        .map(|p| self.operand(p, k, used))
                        .collect()
                })
                .unwrap_or_default()
        };
        let outputs = operands(1);
        let inputs = operands(2);
        let strings = |n: usize, used: &mut Vec<String>| -> Vec<String> {
            sections
                .get(n)
                .map(|s| {
                    split_top(s, b',')
                        .into_iter()
                        .filter(|p| !p.is_empty())
                        .map(|p| match self.literals(p, k, used) {
                            Some(d) => String::from_utf8_lossy(&d.bytes).into_owned(),
                            None => text(p),
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let clobbers = strings(3, used);
        let labels = strings(4, used);
        let keyword = self.span_of(std::slice::from_ref(kw));
        let close_at = self.sp.original(close.at);
        AsmStatement {
            span: Span::new(keyword.start, close_at.saturating_add(1).max(keyword.end)),
            keyword,
            template_span: self.span_of(template_toks),
            template,
            outputs,
            inputs,
            clobbers,
            labels,
            volatile,
            goto,
            in_macro: self.in_macro,
        }
    }

    /// `[name] "constraint" (expression)`.
    fn operand(&self, toks: &[PTok], k: usize, used: &mut Vec<String>) -> AsmOperand {
        let mut rest = toks;
        let mut name = None;
        if let Some(t) = rest.first() {
            if t.kind == Kind::Punct(b'[') {
                let end = rest
                    .iter()
                    .position(|t| t.kind == Kind::Punct(b']'))
                    .unwrap_or(rest.len());
                name = Some(text(rest.get(1..end).unwrap_or_default()));
                rest = rest.get(end.saturating_add(1)..).unwrap_or_default();
            }
        }
        // The constraint: what comes before the parenthesised expression
        // that ends the operand (string literals, or macros expanding to
        // them: `"=" RC(4)(x)`).
        let mut k0 = rest.len();
        if rest.last().is_some_and(|t| t.kind == Kind::Punct(b')')) {
            let mut depth = 0usize;
            for (i, t) in rest.iter().enumerate().rev() {
                match t.kind {
                    Kind::Punct(b')') => depth = depth.saturating_add(1),
                    Kind::Punct(b'(') => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            k0 = i;
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
        let (ctoks, after) = rest.split_at(k0.min(rest.len()));
        let constraint = self
            .literals(ctoks, k, used)
            .map(|d| String::from_utf8_lossy(&d.bytes).into_owned())
            .unwrap_or_default();
        let inner = match (after.first(), after.last()) {
            (Some(a), Some(b))
                if a.kind == Kind::Punct(b'(')
                    && b.kind == Kind::Punct(b')')
                    && after.len() >= 2 =>
            {
                after
                    .get(1..after.len().saturating_sub(1))
                    .unwrap_or_default()
            }
            _ => after,
        };
        let is_n = constraint
            .trim_start_matches(['=', '+', '&'])
            .starts_with('n');
        let is_c = constraint
            .trim_start_matches(['=', '+', '&'])
            .starts_with('C');
        AsmOperand {
            name,
            constraint,
            constraint_span: self.span_of(ctoks),
            expr: text(inner),
            expr_span: self.span_of(inner),
            expr_string: if is_c {
                self.literals(inner, k, used).map(Box::new)
            } else {
                None
            },
            value: if is_n {
                self.value(inner, k, used)
            } else {
                None
            },
        }
    }
}

/// The statement opened by keyword `kw` that was given up at token `last`
/// for being longer than [`MAX_STATEMENT_TOKENS`].
fn too_long(sp: &Spliced, kw: Token, last: Token, volatile: bool, goto: bool) -> AsmStatement {
    let keyword = Span::new(
        sp.original(kw.start),
        sp.original(kw.end.saturating_sub(1)).saturating_add(1),
    );
    AsmStatement {
        span: Span::new(
            keyword.start,
            sp.original(last.end.saturating_sub(1)).saturating_add(1),
        ),
        keyword,
        template_span: Span::new(keyword.start, keyword.start),
        template: Template::TooLong,
        outputs: Vec::new(),
        inputs: Vec::new(),
        clobbers: Vec::new(),
        labels: Vec::new(),
        volatile,
        goto,
        in_macro: kw.in_define,
    }
}

/// The text of `toks`, tokens joined by single spaces where the source
/// had any space.
fn text(toks: &[PTok]) -> String {
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        if i > 0 && t.space {
            s.push(' ');
        }
        s.push_str(&String::from_utf8_lossy(&t.text));
    }
    s
}

/// The operands of a list: `[name] "c" (expr)`, separated by commas.
/// nvcc also reads operands with the comma missing (`"r"(a) "l"(b)`), so
/// an operand ends after its parenthesised expression either way.
fn operand_list(toks: &[PTok]) -> Vec<&[PTok]> {
    let mut out = Vec::new();
    let mut from = 0usize;
    let mut depth = 0usize;
    let mut seen_expr = false;
    for (i, t) in toks.iter().enumerate() {
        // A new operand starts without a comma.
        if depth == 0 && seen_expr && matches!(t.kind, Kind::Str { .. } | Kind::Punct(b'[')) {
            if let Some(p) = toks.get(from..i).filter(|p| !p.is_empty()) {
                out.push(p);
            }
            from = i;
            seen_expr = false;
        }
        match t.kind {
            Kind::Punct(b'(' | b'[' | b'{') => depth = depth.saturating_add(1),
            Kind::Punct(b')' | b']' | b'}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 && t.kind == Kind::Punct(b')') {
                    seen_expr = true;
                }
            }
            Kind::Punct(b',') if depth == 0 => {
                if let Some(p) = toks.get(from..i).filter(|p| !p.is_empty()) {
                    out.push(p);
                }
                from = i.saturating_add(1);
                seen_expr = false;
            }
            _ => {}
        }
    }
    if let Some(p) = toks.get(from..).filter(|p| !p.is_empty()) {
        out.push(p);
    }
    out
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::panic,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::*;

    /// Found by the `inline_asm` fuzzer: an operand whose constraint
    /// tokens come out of a macro's expansion in reverse order of their
    /// places gave a reversed span (72..30).
    #[test]
    fn spans_out_of_macro_expansions_are_never_reversed() {
        let src: &[u8] = b"#define A(x A(x) asm##1efA(x d,pppp){ asm goto(\"\x07\0\0\0br\x03\0\0\0\0\0\0\0a(}l;\xcd\" ::0a\xbc\xc5\x9b\xd6\xf5\x82\xf5\xd6\x01\n\n)g\xdf\xdf\x87\xd7\xbe\xd6\xdf\x9eine A(xne A(x A(x) apm##de)\x8av )O\0{ aso";
        let targets = ["sm_90a".to_string(), "sm_80".to_string()];
        let mut seen = 0;
        for c in crate::inline_asm::check_source(src, &targets) {
            let ds = match &c.verdict {
                crate::inline_asm::Verdict::Invalid { diagnostics, .. } => diagnostics.clone(),
                crate::inline_asm::Verdict::Skipped { diagnostic } => vec![diagnostic.clone()],
                crate::inline_asm::Verdict::Valid { .. } => Vec::new(),
            };
            for d in ds {
                seen += 1;
                assert!(
                    d.span.start <= d.span.end && d.span.end as usize <= src.len(),
                    "{:?}: {}",
                    d.span,
                    d.message
                );
            }
        }
        assert!(seen > 0, "the input no longer gives diagnostics");
    }

    #[test]
    fn reads_a_full_statement() {
        let src = br#"x; asm volatile("add.s32 %0, %1, %2;" : "=r"(i) : "r"(a[1]), "r"(f(b, c)) : "memory");"#;
        let s = find(src);
        assert_eq!(s.len(), 1);
        let s = &s[0];
        assert!(s.volatile && !s.goto);
        let Template::Literal(t) = &s.template else {
            panic!("not literal")
        };
        assert_eq!(t.bytes, b"add.s32 %0, %1, %2;");
        assert_eq!(t.from[0] as usize, 17);
        assert_eq!(s.outputs.len(), 1);
        assert_eq!(s.inputs.len(), 2);
        assert_eq!(s.inputs[1].expr, "f(b, c)");
        assert_eq!(s.inputs[0].constraint, "r");
        assert_eq!(s.clobbers, ["memory"]);
        assert_eq!(
            &src[s.span.start as usize..s.span.end as usize][..3],
            b"asm"
        );
        assert_eq!(src[s.span.end as usize - 1], b')');
    }

    #[test]
    fn triple_colons_and_adjacent_literals() {
        let src = b"__asm__ __volatile__(\"a\" \"b\\n\"\n R\"(c)\" ::: \"memory\");";
        let s = find(src);
        assert_eq!(s.len(), 1);
        let Template::Literal(t) = &s[0].template else {
            panic!("not literal")
        };
        assert_eq!(t.bytes, b"ab\nc");
        assert!(s[0].outputs.is_empty() && s[0].inputs.is_empty());
        assert_eq!(s[0].clobbers, ["memory"]);
    }

    #[test]
    fn macro_templates_are_not_literal() {
        let s = find(b"asm(\"mov.\" PTX_TYPE \" %0;\" : \"=r\"(x));");
        assert!(matches!(s[0].template, Template::NotLiteral));
        let s = find(b"asm(kTemplate : \"=r\"(x));");
        assert!(matches!(s[0].template, Template::NotLiteral));
    }

    #[test]
    fn goto_labels_and_names() {
        let s = find(b"asm goto(\"bra %l[out];\" :: [v] \"r\"(x) :: out);");
        assert!(s[0].goto);
        assert_eq!(s[0].inputs[0].name.as_deref(), Some("v"));
        assert_eq!(s[0].labels, ["out"]);
    }

    #[test]
    fn missing_commas_and_conditional_branches() {
        let src = b"asm(\n#if L2\n \"a [%0];\"\n#else\n \"b [%0];\"\n#endif\n :: \"r\"(x)  \"l\"(y), \"n\"(4));";
        let s = find(src);
        let Template::Literal(t) = &s[0].template else {
            panic!("not literal")
        };
        // `L2` is defined nowhere: not known, and inside a statement the
        // first branch is read.
        assert_eq!(t.bytes, b"a [%0];");
        let c: Vec<&str> = s[0].inputs.iter().map(|o| o.constraint.as_str()).collect();
        assert_eq!(c, ["r", "l", "n"]);
        assert_eq!(s[0].inputs[1].expr, "y");
    }

    #[test]
    fn unclosed_statements_are_dropped() {
        assert!(find(b"asm(\"x\" : \"=r\"(y)").is_empty());
        assert!(find(b"int asm_count = 3; myasm(\"x\");").is_empty());
    }
}
