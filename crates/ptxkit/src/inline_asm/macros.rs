//! Macros as the finder sees them: `#define`s of the source and of the
//! headers it includes, each live in a set of passes, and their expansion
//! (object- and function-like, `#`, `##`, `__VA_ARGS__`) into tokens that
//! remember where in the source they came from.

use std::cell::Cell;
use std::collections::HashMap;

use super::cpp_lex::{Kind, Lexer};
use super::literal::Decoded;
use super::passes::Mask;

/// Most tokens one expansion may produce (bounds a hostile input).
pub const MAX_EXPANDED: usize = 1 << 14;
/// Deepest nesting of expansions.
pub const MAX_DEPTH: usize = 64;
/// Tokens the expansions of one source and its headers may make in all,
/// beyond [`BUDGET_PER_BYTE`] per byte of their text: macros that expand
/// to the bounds above at every use (self-referring ones, arguments that
/// are macro calls again) would otherwise cost each statement 10 ms.
pub const BUDGET_BASE: u64 = 1 << 20;
/// Tokens of expansion allowed per byte of source and header text.
pub const BUDGET_PER_BYTE: u64 = 4;

/// A token's text: most are a few bytes, kept inline (a statement's tokens
/// are made again on every check of the source).
pub type TokText = smallvec::SmallVec<[u8; 16]>;

/// A token that may come from a macro body.
#[derive(Clone, Debug)]
pub struct PTok {
    /// What it is (a string's body offsets are relative to `text`).
    pub kind: Kind,
    /// Its text.
    pub text: TokText,
    /// Where it is in the checked source (spliced offset): its own place,
    /// or, for a token made elsewhere (a header, `#`, `##`), the use site.
    pub at: u32,
    /// Whether `at` is the token's own place (so each byte maps exactly).
    pub exact: bool,
    /// Whether whitespace came before it.
    pub space: bool,
}

impl PTok {
    /// A token of the checked source's spliced `text`.
    pub fn of(text: &[u8], t: &super::cpp_lex::Token, exact: bool, space: bool) -> PTok {
        PTok {
            kind: relative(t.kind, t.start),
            text: TokText::from_slice(
                text.get(t.start as usize..t.end as usize)
                    .unwrap_or_default(),
            ),
            at: t.start,
            exact,
            space,
        }
    }

    fn is_ident(&self, w: &[u8]) -> bool {
        self.kind == Kind::Ident && self.text.as_slice() == w
    }

    /// Append a string token's decoded bytes to `d` (offsets in the
    /// spliced source).
    pub fn decode_into(&self, d: &mut Decoded) {
        if let Kind::Str {
            raw,
            body_start,
            body_end,
        } = self.kind
        {
            // Decoded in place, then its offsets made the token's.
            let from = d.from.len();
            d.append(&self.text, body_start, body_end, raw);
            for f in d.from.iter_mut().skip(from) {
                *f = if self.exact {
                    self.at.saturating_add(*f)
                } else {
                    self.at
                };
            }
        }
    }
}

/// A string kind's body offsets made relative to the token's start.
fn relative(k: Kind, start: u32) -> Kind {
    match k {
        Kind::Str {
            raw,
            body_start,
            body_end,
        } => Kind::Str {
            raw,
            body_start: body_start.saturating_sub(start),
            body_end: body_end.saturating_sub(start),
        },
        k => k,
    }
}

/// One definition of a macro.
#[derive(Clone, Debug)]
pub struct Def {
    /// The passes in which it may be defined.
    pub mask: Mask,
    /// The passes in which it surely is (no undecided `#if` around it).
    pub sure: Mask,
    /// Parameters of a function-like macro.
    pub params: Option<Vec<Vec<u8>>>,
    /// `...` ends the parameters.
    pub variadic: bool,
    /// The replacement.
    pub body: Vec<PTok>,
}

/// Every macro definition seen, by name.
#[derive(Default, Debug)]
pub struct Table {
    defs: HashMap<Vec<u8>, Vec<Def>>,
    /// Every name a `#define` or `-U` of the sources names, even in code no
    /// pass compiles: not defined in a pass is then decided.
    seen: std::collections::HashSet<Vec<u8>>,
    /// Tokens made by expansions so far (see [`BUDGET_BASE`]).
    spent: Cell<u64>,
    /// The budget beyond [`BUDGET_BASE`]: [`BUDGET_PER_BYTE`] per byte of
    /// the text read.
    allowance: Cell<u64>,
    /// The first expansion given up: where (spliced offset) and why.
    gave_up: Cell<Option<(u32, GaveUp)>>,
}

/// Why an expansion was given up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GaveUp {
    /// It made more than [`MAX_EXPANDED`] tokens.
    Size,
    /// Its macros nested more than [`MAX_DEPTH`] deep.
    Depth,
    /// The file's expansions used up their budget ([`BUDGET_BASE`]).
    Budget,
}

impl Table {
    /// Add `bytes` of source or header text to the expansion budget.
    pub fn allow(&self, bytes: usize) {
        let more = u64::try_from(bytes)
            .unwrap_or(u64::MAX)
            .saturating_mul(BUDGET_PER_BYTE);
        self.allowance
            .set(self.allowance.get().saturating_add(more));
    }

    /// Whether the expansions have used up their budget: every expansion
    /// fails from then on.
    pub fn exhausted(&self) -> bool {
        self.spent.get() > BUDGET_BASE.saturating_add(self.allowance.get())
    }

    /// Where (spliced offset) and why the first expansion given up was,
    /// if one was: the statements it would have made are not checked.
    pub fn gave_up(&self) -> Option<(u32, GaveUp)> {
        self.gave_up.get()
    }

    /// Record that an expansion at `at` was given up for `why` (the first
    /// one is kept); `None`, for `?`.
    fn give_up(&self, at: u32, why: GaveUp) -> Option<()> {
        if self.gave_up.get().is_none() {
            self.gave_up.set(Some((at, why)));
        }
        None
    }

    /// Charge `n` tokens of expansion made at `at`; `None` once the budget
    /// is used up.
    fn spend(&self, n: usize, at: u32) -> Option<()> {
        let n = u64::try_from(n).unwrap_or(u64::MAX);
        self.spent.set(self.spent.get().saturating_add(n));
        if !self.exhausted() {
            return Some(());
        }
        self.give_up(at, GaveUp::Budget)
    }

    /// Record a `#define` made of `toks` (name first), live in `mask`.
    pub fn define(&mut self, toks: &[PTok], mask: Mask) {
        self.define_maybe(toks, mask, mask);
    }

    /// Record a `#define` live in `mask`, surely in `sure`.
    pub fn define_maybe(&mut self, toks: &[PTok], mask: Mask, sure: Mask) {
        let Some(name) = toks.first().filter(|t| t.kind == Kind::Ident) else {
            return;
        };
        self.seen.insert(name.text.to_vec());
        if mask == 0 {
            return;
        }
        let mut rest = toks.get(1..).unwrap_or_default();
        let mut params = None;
        let mut variadic = false;
        if let Some(open) = rest.first() {
            if open.kind == Kind::Punct(b'(') && !open.space {
                let close = rest
                    .iter()
                    .position(|t| t.kind == Kind::Punct(b')'))
                    .unwrap_or(rest.len());
                let mut ps = Vec::new();
                for t in rest.get(1..close).unwrap_or_default() {
                    match t.kind {
                        Kind::Ident => ps.push(t.text.to_vec()),
                        Kind::Punct(b'.') => variadic = true,
                        _ => {}
                    }
                }
                params = Some(ps);
                rest = rest.get(close.saturating_add(1)..).unwrap_or_default();
            }
        }
        self.undef(&name.text, mask);
        let defs = self.defs.entry(name.text.to_vec()).or_default();
        if defs.len() < 64 {
            defs.push(Def {
                mask,
                sure: sure & mask,
                params,
                variadic,
                body: rest.to_vec(),
            });
        }
    }

    /// Whether a `#define` (or `-U`) of the sources names `name`.
    pub fn seen(&self, name: &[u8]) -> bool {
        self.seen.contains(name)
    }

    /// `-U name`: known to be undefined.
    pub fn forget(&mut self, name: &[u8]) {
        self.defs.remove(name);
        self.seen.insert(name.to_vec());
    }

    /// `#undef name` in `mask`.
    pub fn undef(&mut self, name: &[u8], mask: Mask) {
        if let Some(defs) = self.defs.get_mut(name) {
            for d in defs.iter_mut() {
                d.mask &= !mask;
            }
            defs.retain(|d| d.mask != 0);
        }
    }

    /// Whether `name` is defined in pass `k`: `Some(true)` surely,
    /// `Some(false)` surely not (the sources name it elsewhere), `None`
    /// not known (no source defines it, or an undecided `#if` does).
    pub fn is_defined(&self, name: &[u8], k: usize) -> Option<bool> {
        match self.get(name, k) {
            Some(d) if d.sure & super::passes::bit(k) != 0 => Some(true),
            Some(_) => None,
            None if self.seen(name) => Some(false),
            None => None,
        }
    }

    /// The definition of `name` in pass `k`.
    pub fn get(&self, name: &[u8], k: usize) -> Option<&Def> {
        let b = super::passes::bit(k);
        self.defs.get(name)?.iter().rev().find(|d| d.mask & b != 0)
    }

    /// Expand the macros of `toks` as pass `k` sees them. `None` when the
    /// expansion is too large or deep, or over the file's budget (the
    /// first such is [`Table::gave_up`]), or a call is not closed.
    pub fn expand(&self, toks: &[PTok], k: usize, used: &mut Vec<String>) -> Option<Vec<PTok>> {
        let mut out = Vec::new();
        let mut hide = Vec::new();
        self.expand_into(toks, k, &mut hide, &mut out, used, 0)?;
        Some(out)
    }

    fn expand_into(
        &self,
        toks: &[PTok],
        k: usize,
        hide: &mut Vec<Vec<u8>>,
        out: &mut Vec<PTok>,
        used: &mut Vec<String>,
        depth: usize,
    ) -> Option<()> {
        if depth > MAX_DEPTH {
            return self.give_up(toks.first().map_or(0, |t| t.at), GaveUp::Depth);
        }
        let mut i = 0usize;
        while let Some(t) = toks.get(i) {
            i = i.saturating_add(1);
            if out.len() > MAX_EXPANDED {
                return self.give_up(t.at, GaveUp::Size);
            }
            self.spend(1, t.at)?;
            if t.kind != Kind::Ident || hide.iter().any(|h| h.as_slice() == t.text.as_slice()) {
                out.push(t.clone());
                continue;
            }
            let Some(def) = self.get(&t.text, k) else {
                out.push(t.clone());
                continue;
            };
            let name = String::from_utf8_lossy(&t.text).into_owned();
            let body: Vec<PTok> = match &def.params {
                None => def.body.iter().map(|b| anchor(b, t)).collect(),
                Some(params) => {
                    if toks.get(i).is_none_or(|n| n.kind != Kind::Punct(b'(')) {
                        out.push(t.clone());
                        continue;
                    }
                    let (args, next) = arguments(toks, i)?;
                    i = next;
                    self.substitute(def, params, &args, t, k, hide, used, depth)?
                }
            };
            if !used.contains(&name) && used.len() < 64 {
                used.push(name);
            }
            hide.push(t.text.to_vec());
            let r = self.expand_into(&body, k, hide, out, used, depth.saturating_add(1));
            hide.pop();
            r?;
        }
        Some(())
    }

    /// A function-like macro's body with its parameters replaced.
    #[allow(clippy::too_many_arguments)]
    fn substitute(
        &self,
        def: &Def,
        params: &[Vec<u8>],
        args: &[Vec<PTok>],
        site: &PTok,
        k: usize,
        hide: &mut Vec<Vec<u8>>,
        used: &mut Vec<String>,
        depth: usize,
    ) -> Option<Vec<PTok>> {
        let arg_of = |w: &[u8]| -> Option<Vec<PTok>> {
            if let Some(p) = params.iter().position(|p| p.as_slice() == w) {
                return Some(args.get(p).cloned().unwrap_or_default());
            }
            if def.variadic && w == b"__VA_ARGS__" {
                let mut all = Vec::new();
                for (n, a) in args.iter().enumerate().skip(params.len()) {
                    if n > params.len() {
                        all.push(punct(b',', site));
                    }
                    all.extend(a.iter().cloned());
                }
                return Some(all);
            }
            None
        };
        let body = &def.body;
        let mut out: Vec<PTok> = Vec::new();
        // Each argument is expanded once, however often the body uses it.
        let mut expanded: Vec<Option<Vec<PTok>>> = vec![None; params.len()];
        let mut j = 0usize;
        while let Some(b) = body.get(j) {
            j = j.saturating_add(1);
            if out.len() > MAX_EXPANDED {
                self.give_up(site.at, GaveUp::Size)?;
            }
            self.spend(1, site.at)?;
            // `# param`: the argument as a string.
            if b.kind == Kind::Punct(b'#') {
                if let Some(a) = body
                    .get(j)
                    .filter(|n| n.kind == Kind::Ident)
                    .and_then(|n| arg_of(&n.text))
                {
                    j = j.saturating_add(1);
                    out.push(stringify(&a, site));
                    continue;
                }
                // `##`: paste the last token with the next.
                if body.get(j).is_some_and(|n| n.kind == Kind::Punct(b'#')) {
                    j = j.saturating_add(1);
                    let Some(rhs) = body.get(j) else { break };
                    j = j.saturating_add(1);
                    let rhs_toks = match rhs.kind {
                        Kind::Ident => arg_of(&rhs.text).unwrap_or_else(|| vec![rhs.clone()]),
                        _ => vec![rhs.clone()],
                    };
                    let mut rest = rhs_toks.into_iter();
                    match (out.pop(), rest.next()) {
                        (Some(l), Some(r)) => out.extend(paste(&l, &r, site)),
                        (Some(l), None) => out.push(l),
                        (None, Some(r)) => out.push(r),
                        (None, None) => {}
                    }
                    out.extend(rest);
                    continue;
                }
            }
            if b.kind == Kind::Ident {
                if let Some(a) = arg_of(&b.text) {
                    // An operand of `##` is not expanded first.
                    let pasted = body.get(j).is_some_and(|n| n.kind == Kind::Punct(b'#'))
                        && body
                            .get(j.saturating_add(1))
                            .is_some_and(|n| n.kind == Kind::Punct(b'#'));
                    if pasted {
                        out.extend(a);
                        continue;
                    }
                    let p = params
                        .iter()
                        .position(|p| p.as_slice() == b.text.as_slice());
                    if let Some(e) = p.and_then(|p| expanded.get(p)).and_then(Option::as_ref) {
                        self.spend(e.len(), site.at)?;
                        out.extend(e.iter().cloned());
                        continue;
                    }
                    let mut e = Vec::new();
                    self.expand_into(&a, k, hide, &mut e, used, depth.saturating_add(1))?;
                    if let Some(slot) = p.and_then(|p| expanded.get_mut(p)) {
                        *slot = Some(e.clone());
                    }
                    out.extend(e);
                    continue;
                }
            }
            out.push(anchor(b, site));
        }
        Some(out)
    }
}

/// A token of a macro body as placed at use site `site`: a token written
/// in the checked source keeps its place only when the macro is too.
fn anchor(b: &PTok, site: &PTok) -> PTok {
    let mut t = b.clone();
    if !b.exact {
        t.at = site.at;
    }
    t
}

fn punct(c: u8, site: &PTok) -> PTok {
    PTok {
        kind: Kind::Punct(c),
        text: TokText::from_slice(&[c]),
        at: site.at,
        exact: false,
        space: false,
    }
}

/// The arguments of a call whose `(` is at `toks[i]`, and the index after
/// its `)`.
fn arguments(toks: &[PTok], i: usize) -> Option<(Vec<Vec<PTok>>, usize)> {
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    let mut j = i.saturating_add(1);
    loop {
        let t = toks.get(j)?;
        j = j.saturating_add(1);
        match t.kind {
            Kind::Punct(b'(') => depth = depth.saturating_add(1),
            Kind::Punct(b')') if depth == 0 => break,
            Kind::Punct(b')') => depth = depth.saturating_sub(1),
            Kind::Punct(b',') if depth == 0 => {
                args.push(Vec::new());
                continue;
            }
            _ => {}
        }
        if let Some(a) = args.last_mut() {
            a.push(t.clone());
        }
    }
    Some((args, j))
}

/// `#arg`: the argument's spelling as a string literal.
fn stringify(arg: &[PTok], site: &PTok) -> PTok {
    let mut s = vec![b'"'];
    for (n, t) in arg.iter().enumerate() {
        if n > 0 && t.space {
            s.push(b' ');
        }
        for &c in &t.text {
            if matches!(t.kind, Kind::Str { .. } | Kind::Char) && matches!(c, b'"' | b'\\') {
                s.push(b'\\');
            }
            s.push(c);
        }
    }
    s.push(b'"');
    let end = s.len().saturating_sub(1) as u32;
    let at = arg.first().filter(|t| t.exact).map_or(site.at, |t| t.at);
    PTok {
        kind: Kind::Str {
            raw: false,
            body_start: 1,
            body_end: end,
        },
        text: TokText::from_vec(s),
        at,
        exact: false,
        space: true,
    }
}

/// `l ## r`: the tokens of the joined spelling.
fn paste(l: &PTok, r: &PTok, site: &PTok) -> Vec<PTok> {
    let mut text = l.text.clone();
    text.extend_from_slice(&r.text);
    let at = if l.exact { l.at } else { site.at };
    retokenize(&text, at, l.space)
}

/// Lex `text` into tokens placed at `at` (not exactly).
pub fn retokenize(text: &[u8], at: u32, space: bool) -> Vec<PTok> {
    let mut out = Vec::new();
    let mut last_end = None;
    for t in Lexer::new(text) {
        out.push(PTok {
            kind: relative(t.kind, t.start),
            text: TokText::from_slice(
                text.get(t.start as usize..t.end as usize)
                    .unwrap_or_default(),
            ),
            at,
            exact: false,
            space: last_end.map_or(space, |e: u32| e < t.start),
        });
        last_end = Some(t.end);
    }
    out
}

impl PTok {
    /// Whether this is the identifier `defined`.
    pub fn is_defined(&self) -> bool {
        self.is_ident(b"defined")
    }
}
