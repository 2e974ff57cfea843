//! Finding GNU-style `asm` statements in the C++ tokens and reading their
//! parts: the template, the output and input operands with their
//! constraints, the clobbers and the `goto` labels.

use super::cpp_lex::{Cond, Kind, Lexer, Spliced, Token};
use super::literal::Decoded;
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
    /// The expression's value when it is a string literal (for `"C"`).
    #[serde(skip)]
    pub expr_string: Option<Decoded>,
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
    /// The statement has more than [`MAX_STATEMENT_TOKENS`] tokens before
    /// its closing parenthesis (or has none): given up unread, and
    /// reported as an error rather than passed over.
    TooLong,
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

/// Every `asm` statement of a C++ source, in order.
pub fn find(src: &[u8]) -> Vec<AsmStatement> {
    let sp = Spliced::new(src);
    let mut lexer = Lexer::new(&sp.text).peekable();
    let mut out = Vec::new();
    while let Some(t) = lexer.next() {
        if t.kind != Kind::Ident || !is_asm_keyword(word(&sp.text, &t)) {
            continue;
        }
        let mut volatile = false;
        let mut goto = false;
        let mut open = None;
        while let Some(n) = lexer.peek().copied() {
            match n.kind {
                Kind::Ident => match qualifier(word(&sp.text, &n)) {
                    Some(q) => {
                        volatile |= q == Qual::Volatile;
                        goto |= q == Qual::Goto;
                        lexer.next();
                    }
                    None => break,
                },
                Kind::Punct(b'(') => {
                    lexer.next();
                    open = Some(n);
                    break;
                }
                _ => break,
            }
        }
        if open.is_none() {
            continue;
        }
        // The tokens up to the matching `)`. Inside a conditional group
        // (`#if A "x" #else "y" #endif`) only the first branch is read.
        let mut body = Vec::new();
        let mut depth = 0usize;
        let mut close = None;
        let mut groups: Vec<bool> = Vec::new();
        for n in lexer.by_ref() {
            match n.kind {
                Kind::Cond(Cond::Open) => {
                    groups.push(true);
                    continue;
                }
                Kind::Cond(Cond::Branch) => {
                    if let Some(g) = groups.last_mut() {
                        *g = false;
                    }
                    continue;
                }
                Kind::Cond(Cond::Close) => {
                    groups.pop();
                    continue;
                }
                _ if groups.contains(&false) => continue,
                _ => {}
            }
            match n.kind {
                Kind::Punct(b'(' | b'[' | b'{') => depth = depth.saturating_add(1),
                Kind::Punct(b')' | b']' | b'}') if depth > 0 => depth = depth.saturating_sub(1),
                Kind::Punct(b')') => {
                    close = Some(n);
                    break;
                }
                _ => {}
            }
            body.push(n);
            if body.len() > MAX_STATEMENT_TOKENS {
                break;
            }
        }
        let Some(close) = close else {
            if body.len() > MAX_STATEMENT_TOKENS {
                let last = body.last().copied().unwrap_or(t);
                out.push(too_long(&sp, t, last, volatile, goto));
            }
            continue;
        };
        let stmt = read_statement(&sp, t, close, &body, volatile, goto);
        out.push(stmt);
    }
    out
}

fn word<'a>(s: &'a [u8], t: &Token) -> &'a [u8] {
    s.get(t.start as usize..t.end as usize).unwrap_or_default()
}

/// Split `toks` at depth-0 occurrences of punctuation `sep`.
fn split_top(toks: &[Token], sep: u8) -> Vec<&[Token]> {
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

/// The decoded text of `toks` when they are all string literals.
fn literals(sp: &Spliced, toks: &[Token]) -> Option<Decoded> {
    if toks.is_empty() {
        return None;
    }
    let mut d = Decoded::default();
    for t in toks {
        match t.kind {
            Kind::Str {
                raw,
                body_start,
                body_end,
            } => d.append(&sp.text, body_start, body_end, raw),
            _ => return None,
        }
    }
    for f in &mut d.from {
        *f = sp.original(*f);
    }
    Some(d)
}

fn span_of(sp: &Spliced, toks: &[Token]) -> Span {
    match (toks.first(), toks.last()) {
        (Some(a), Some(b)) => Span::new(
            sp.original(a.start),
            sp.original(b.end.saturating_sub(1)).saturating_add(1),
        ),
        _ => Span::default(),
    }
}

fn read_statement(
    sp: &Spliced,
    kw: Token,
    close: Token,
    body: &[Token],
    volatile: bool,
    goto: bool,
) -> AsmStatement {
    let sections = split_top(body, b':');
    let template_toks = sections.first().copied().unwrap_or_default();
    let template = match literals(sp, template_toks) {
        Some(d) => Template::Literal(d),
        None => Template::NotLiteral,
    };
    let operands = |k: usize| -> Vec<AsmOperand> {
        sections
            .get(k)
            .map(|s| {
                operand_list(s)
                    .into_iter()
                    .map(|p| operand(sp, p))
                    .collect()
            })
            .unwrap_or_default()
    };
    let strings = |k: usize| -> Vec<String> {
        sections
            .get(k)
            .map(|s| {
                split_top(s, b',')
                    .into_iter()
                    .filter(|p| !p.is_empty())
                    .map(|p| match literals(sp, p) {
                        Some(d) => String::from_utf8_lossy(&d.bytes).into_owned(),
                        None => text(sp, p),
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    AsmStatement {
        span: Span::new(
            sp.original(kw.start),
            sp.original(close.start).saturating_add(1),
        ),
        keyword: Span::new(
            sp.original(kw.start),
            sp.original(kw.end.saturating_sub(1)).saturating_add(1),
        ),
        template_span: span_of(sp, template_toks),
        template,
        outputs: operands(1),
        inputs: operands(2),
        clobbers: strings(3),
        labels: strings(4),
        volatile,
        goto,
        in_macro: kw.in_define,
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

/// The source text of `toks`, tokens joined by single spaces where the
/// source had any space.
fn text(sp: &Spliced, toks: &[Token]) -> String {
    let mut s = String::new();
    let mut last_end = None;
    for t in toks {
        if last_end.is_some_and(|e| e < t.start) {
            s.push(' ');
        }
        s.push_str(&String::from_utf8_lossy(word(&sp.text, t)));
        last_end = Some(t.end);
    }
    s
}

/// The operands of a list: `[name] "c" (expr)`, separated by commas.
/// nvcc also reads operands with the comma missing (`"r"(a) "l"(b)`), so
/// an operand ends after its parenthesised expression either way.
fn operand_list(toks: &[Token]) -> Vec<&[Token]> {
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

/// `[name] "constraint" (expression)`.
fn operand(sp: &Spliced, toks: &[Token]) -> AsmOperand {
    let mut rest = toks;
    let mut name = None;
    if let Some(t) = rest.first() {
        if t.kind == Kind::Punct(b'[') {
            let end = rest
                .iter()
                .position(|t| t.kind == Kind::Punct(b']'))
                .unwrap_or(rest.len());
            name = Some(text(sp, rest.get(1..end).unwrap_or_default()));
            rest = rest.get(end.saturating_add(1)..).unwrap_or_default();
        }
    }
    // The constraint: the string literals before the `(`.
    let k = rest
        .iter()
        .position(|t| !matches!(t.kind, Kind::Str { .. }))
        .unwrap_or(rest.len());
    let (ctoks, after) = rest.split_at(k);
    let constraint = literals(sp, ctoks)
        .map(|d| String::from_utf8_lossy(&d.bytes).into_owned())
        .unwrap_or_default();
    // The expression: inside the outer parentheses.
    let inner = match (after.first(), after.last()) {
        (Some(a), Some(b))
            if a.kind == Kind::Punct(b'(') && b.kind == Kind::Punct(b')') && after.len() >= 2 =>
        {
            after
                .get(1..after.len().saturating_sub(1))
                .unwrap_or_default()
        }
        _ => after,
    };
    AsmOperand {
        name,
        constraint,
        constraint_span: span_of(sp, ctoks),
        expr: text(sp, inner),
        expr_span: span_of(sp, inner),
        expr_string: literals(sp, inner),
    }
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
