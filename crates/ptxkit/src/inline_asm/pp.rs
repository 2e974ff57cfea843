//! The preprocessor as the finder needs it: one pass over the source that
//! follows every compile pass at once. Each conditional branch gets the
//! set of passes ([`Mask`]) that compile it; `#define`/`#undef` record
//! macros for the passes they are live in; `#include "..."`/`<...>` read
//! headers found next to the file or in the include directories (for
//! their macros only); `constexpr` integer constants and template
//! parameters with a literal default are remembered for `"n"` operands.
//!
//! A condition that cannot be decided for a pass (a function-like macro,
//! `__has_include`) lets every branch of the group be compiled in that pass
//! for the statements around (`maybe`), while inside one statement the
//! first such branch is read (`first`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::cond_expr::{self, Env};
use super::cpp_lex::{Cond, Kind, Lexer, Spliced, Token};
use super::macros::{retokenize, PTok, Table};
use super::passes::{bit, each, Mask, Passes, HOST};

/// Most headers read for one source.
const MAX_HEADERS: usize = 4096;
/// Most header bytes read for one source.
const MAX_HEADER_BYTES: usize = 256 << 20;
/// Deepest `#include` nesting.
const MAX_INCLUDE_DEPTH: usize = 40;
/// Deepest conditional nesting followed.
const MAX_COND_DEPTH: usize = 256;

/// What the preprocessor is told.
#[derive(Clone, Debug, Default)]
pub struct PpOptions {
    /// The source's own path (for `#include "..."` next to it).
    pub path: Option<PathBuf>,
    /// Include directories (`-I`), searched in order.
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME[=VALUE]` definitions.
    pub defines: Vec<(String, String)>,
    /// `-U NAME`: macros known to be undefined.
    pub undefines: Vec<String>,
}

/// State shared with the headers a source includes.
pub struct State {
    /// The macros.
    pub table: Table,
    /// The passes.
    pub passes: Arc<Passes>,
    /// `constexpr` integer constants and template parameter defaults.
    pub constants: HashMap<Vec<u8>, Option<i128>>,
    include_dirs: Vec<PathBuf>,
    included: Vec<PathBuf>,
    header_bytes: usize,
}

impl State {
    /// A state for `opts`.
    pub fn new(passes: Arc<Passes>, opts: &PpOptions) -> State {
        let mut table = Table::default();
        let all = passes.all();
        // Macros of the CUDA headers nvcc includes by itself that asm
        // statements use (as CUDA 13.5 defines them on a 64-bit host).
        table.define(&retokenize(b"_CG_ASM_PTR_CONSTRAINT \"l\"", 0, false), all);
        for (name, value) in &opts.defines {
            let mut text = name.clone().into_bytes();
            text.push(b' ');
            text.extend_from_slice(value.as_bytes());
            let toks = retokenize(&text, 0, false);
            table.define(&toks, all);
        }
        for name in &opts.undefines {
            table.forget(name.as_bytes());
        }
        State {
            table,
            passes,
            constants: HashMap::new(),
            include_dirs: opts.include_dirs.clone(),
            included: Vec::new(),
            header_bytes: 0,
        }
    }
}

/// One open conditional group.
#[derive(Clone, Debug)]
struct Level {
    /// Passes compiling the enclosing code.
    parent: Mask,
    /// Passes that may compile the current branch.
    maybe: Mask,
    /// Passes for which the current branch is the first possible one.
    first: Mask,
    /// Passes for which an earlier branch was surely taken.
    done_true: Mask,
    /// Passes for which an earlier branch was possibly taken.
    done_first: Mask,
    /// Passes for which the current branch's condition was not decided.
    unknown: Mask,
    /// Passes that surely compile the enclosing code.
    parent_sure: Mask,
    /// Passes that surely compile the current branch.
    sure: Mask,
    /// The group's opening line.
    open: String,
    /// The current branch's line.
    text: String,
    /// Identifiers taken as undefined in the branch's conditions.
    assumed: Vec<String>,
}

/// What decides where a statement is compiled.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct GuardInfo {
    /// The conditional lines that restrict it, outermost first.
    pub conditions: Vec<String>,
    /// Identifiers the conditions read that no source defines (taken as
    /// undefined, as in a build without `-D`).
    pub assumed_undefined: Vec<String>,
    /// The conditions that could not be decided for some pass.
    pub undecidable: Vec<String>,
}

/// The preprocessor over one source.
pub struct Pp<'a> {
    text: &'a [u8],
    lexer: Lexer<'a>,
    /// Shared state.
    pub state: State,
    base: Mask,
    stack: Vec<Level>,
    /// Levels past [`MAX_COND_DEPTH`] (not followed).
    overflow: usize,
    dir: Option<PathBuf>,
    depth: usize,
    /// Whether the text is the checked source (tokens map exactly).
    exact: bool,
    recording: Option<(Vec<PTok>, Mask, Mask)>,
    /// The name of the `#define` being read.
    pub define_name: Option<Vec<u8>>,
    last_end: Option<u32>,
    recent: [Option<Token>; 3],
    constexpr_seen: bool,
    in_template: bool,
    pending_const: Option<(Vec<u8>, i128)>,
}

impl<'a> Pp<'a> {
    /// A preprocessor over spliced `text`, in `base` passes.
    pub fn new(text: &'a [u8], state: State, base: Mask, dir: Option<PathBuf>) -> Pp<'a> {
        Pp {
            text,
            lexer: Lexer::new(text),
            state,
            base,
            stack: Vec::new(),
            overflow: 0,
            dir,
            depth: 0,
            exact: true,
            recording: None,
            define_name: None,
            last_end: None,
            recent: [None; 3],
            constexpr_seen: false,
            in_template: false,
            pending_const: None,
        }
    }

    /// The passes that may compile the current token.
    pub fn maybe(&self) -> Mask {
        self.stack.last().map_or(self.base, |l| l.maybe)
    }

    /// The passes that surely compile the current token (no undecided
    /// condition around it).
    pub fn sure(&self) -> Mask {
        self.stack.last().map_or(self.base, |l| l.sure)
    }

    /// How many groups are open.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// The passes reading the current token when inside the statement
    /// that started at depth `d0`: each group opened since then contributes
    /// its first possible branch.
    pub fn inner(&self, d0: usize) -> Mask {
        self.stack
            .iter()
            .skip(d0)
            .fold(Mask::MAX, |m, l| m & l.first)
    }

    /// The guard of the code at depth `d` (the groups enclosing it).
    pub fn guard(&self, d: usize) -> GuardInfo {
        let mut g = GuardInfo::default();
        for l in self.stack.iter().take(d) {
            if l.maybe != l.parent {
                if g.conditions.len() < 16 {
                    g.conditions.push(l.text.clone());
                }
                for a in &l.assumed {
                    if !g.assumed_undefined.contains(a) {
                        g.assumed_undefined.push(a.clone());
                    }
                }
            }
            if l.unknown & l.parent != 0 && g.undecidable.len() < 16 {
                g.undecidable.push(l.text.clone());
            }
        }
        g
    }

    /// The spliced text.
    pub fn text(&self) -> &'a [u8] {
        self.text
    }

    fn word(&self, t: &Token) -> &'a [u8] {
        self.text
            .get(t.start as usize..t.end as usize)
            .unwrap_or_default()
    }

    fn finish_define(&mut self) {
        if let Some((toks, mask, sure)) = self.recording.take() {
            self.state.table.define_maybe(&toks, mask, sure);
        }
        self.define_name = None;
    }

    /// The next token that is not a directive.
    pub fn next_token(&mut self) -> Option<Token> {
        loop {
            let t = self.lexer.next()?;
            let space = self.last_end.is_none_or(|e| e < t.start);
            self.last_end = Some(t.end);
            if !t.in_define {
                self.finish_define();
            }
            match t.kind {
                Kind::Define => {
                    self.finish_define();
                    self.recording = Some((Vec::new(), self.maybe(), self.sure()));
                    continue;
                }
                Kind::Cond(c) => {
                    self.conditional(c, &t);
                    continue;
                }
                Kind::Directive => {
                    self.directive(&t);
                    continue;
                }
                _ => {}
            }
            let w = self.word(&t);
            if let Some((toks, _, _)) = &mut self.recording {
                if toks.is_empty() {
                    self.define_name = Some(w.to_vec());
                }
                if toks.len() < 1 << 14 {
                    toks.push(PTok::of(self.text, &t, self.exact, space));
                }
            } else {
                self.constants(&t);
            }
            return Some(t);
        }
    }

    /// Remember `constexpr` integers and template parameter defaults.
    fn constants(&mut self, t: &Token) {
        if let Some((name, v)) = self.pending_const.take() {
            if matches!(t.kind, Kind::Punct(b';' | b',' | b'>' | b'}' | b')')) {
                let e = self.state.constants.entry(name).or_insert(Some(v));
                if *e != Some(v) {
                    *e = None;
                }
            }
        }
        match t.kind {
            Kind::Ident => match self.word(t) {
                b"constexpr" => self.constexpr_seen = true,
                b"template" => self.in_template = true,
                _ => {}
            },
            Kind::Punct(b';' | b'{' | b'}') => {
                self.constexpr_seen = false;
                self.in_template = false;
            }
            Kind::Number if self.constexpr_seen || self.in_template => {
                if let [_, Some(a), Some(b)] = self.recent {
                    if a.kind == Kind::Ident && b.kind == Kind::Punct(b'=') {
                        let v = std::str::from_utf8(self.word(t))
                            .ok()
                            .and_then(super::fragment::integer);
                        if let Some(v) = v {
                            self.pending_const = Some((self.word(&a).to_vec(), v));
                        }
                    }
                }
            }
            _ => {}
        }
        self.recent = [self.recent[1], self.recent[2], Some(*t)];
    }

    fn conditional(&mut self, c: Cond, t: &Token) {
        let line = String::from_utf8_lossy(self.word(t)).trim().to_string();
        let line = format!("#{line}");
        let body = self.word(t);
        let name_len = body
            .iter()
            .position(|b| !b.is_ascii_alphabetic())
            .unwrap_or(body.len());
        let (name, rest) = body.split_at(name_len);
        match c {
            Cond::Open => {
                if self.stack.len() >= MAX_COND_DEPTH {
                    self.overflow = self.overflow.saturating_add(1);
                    return;
                }
                let parent = self.maybe();
                let parent_sure = self.sure();
                let mut l = Level {
                    parent,
                    parent_sure,
                    sure: 0,
                    maybe: 0,
                    first: 0,
                    done_true: 0,
                    done_first: 0,
                    unknown: 0,
                    open: line.clone(),
                    text: line,
                    assumed: Vec::new(),
                };
                let (t, u) = self.decide(name, rest, parent, &mut l.assumed);
                l.maybe = parent & (t | u);
                l.first = t | u;
                l.done_true = t;
                l.done_first = t | u;
                l.unknown = u;
                l.sure = parent_sure & t;
                self.stack.push(l);
            }
            Cond::Branch => {
                if self.overflow > 0 {
                    return;
                }
                let Some(mut l) = self.stack.pop() else {
                    return;
                };
                let eligible = l.parent & !l.done_true;
                if name == b"else" {
                    l.sure = l.parent_sure & !l.done_first;
                    l.maybe = eligible;
                    l.first = !l.done_first;
                    l.unknown = 0;
                    l.text = format!("#else (of `{}`)", l.open);
                    l.done_true = Mask::MAX;
                    l.done_first = Mask::MAX;
                } else {
                    let name = name.get(2..).unwrap_or_default();
                    let mut assumed = std::mem::take(&mut l.assumed);
                    let (t, u) = self.decide(name, rest, eligible, &mut assumed);
                    l.assumed = assumed;
                    l.maybe = eligible & (t | u);
                    l.sure = l.parent_sure & t & !l.done_first;
                    l.first = (t | u) & !l.done_first;
                    l.unknown = u;
                    l.done_true |= t;
                    l.done_first |= t | u;
                    l.text = format!("{line} (after `{}`)", l.open);
                }
                self.stack.push(l);
            }
            Cond::Close => {
                if self.overflow > 0 {
                    self.overflow = self.overflow.saturating_sub(1);
                } else {
                    self.stack.pop();
                }
            }
        }
    }

    /// The passes of `within` for which the condition is true, and those
    /// for which it is not known.
    fn decide(
        &self,
        name: &[u8],
        rest: &[u8],
        within: Mask,
        assumed: &mut Vec<String>,
    ) -> (Mask, Mask) {
        if within == 0 {
            return (0, 0);
        }
        let mut toks = retokenize(rest, 0, true);
        let negate = match name {
            b"ifdef" | b"def" => false,
            b"ifndef" | b"ndef" => true,
            _ => {
                toks.truncate(1 << 12);
                let env = Env {
                    table: &self.state.table,
                    passes: &self.state.passes,
                    constants: None,
                };
                let (mut t, mut u) = (0, 0);
                for k in each(within) {
                    match cond_expr::eval(&env, &toks, k, assumed) {
                        Some(0) => {}
                        Some(_) => t |= bit(k),
                        None => u |= bit(k),
                    }
                }
                return (t, u);
            }
        };
        let Some(id) = toks.first().filter(|t| t.kind == Kind::Ident) else {
            return (0, within);
        };
        let mut t = 0;
        let mut u = 0;
        for k in each(within) {
            let d = match self.state.passes.predefined(k, &id.text) {
                Some(v) => Some(v.is_some()),
                None => match self.state.table.is_defined(&id.text, k) {
                    None if cond_expr::other_platform(&id.text) => {
                        let s = String::from_utf8_lossy(&id.text).into_owned();
                        if !assumed.contains(&s) {
                            assumed.push(s);
                        }
                        Some(false)
                    }
                    d => d,
                },
            };
            match d {
                Some(d) if d != negate => t |= bit(k),
                Some(_) => {}
                None => u |= bit(k),
            }
        }
        (t, u)
    }

    fn directive(&mut self, t: &Token) {
        let body = self.word(t);
        let name_len = body
            .iter()
            .position(|b| !b.is_ascii_alphabetic())
            .unwrap_or(body.len());
        let (name, rest) = body.split_at(name_len);
        let mask = self.maybe();
        if mask == 0 {
            return;
        }
        match name {
            b"undef" => {
                if let Some(id) = retokenize(rest, 0, false).first() {
                    self.state.table.undef(&id.text, mask);
                }
            }
            b"include" | b"include_next" | b"import" => self.include(rest, mask),
            _ => {}
        }
    }

    fn include(&mut self, rest: &[u8], mask: Mask) {
        let rest = rest.trim_ascii();
        let (quoted, name) = match rest.first() {
            Some(b'"') => (
                true,
                rest.get(1..).and_then(|r| r.split(|&b| b == b'"').next()),
            ),
            Some(b'<') => (
                false,
                rest.get(1..).and_then(|r| r.split(|&b| b == b'>').next()),
            ),
            _ => return,
        };
        let Some(name) = name.and_then(|n| std::str::from_utf8(n).ok()) else {
            return;
        };
        if self.depth >= MAX_INCLUDE_DEPTH || self.state.included.len() >= MAX_HEADERS {
            return;
        }
        let mut candidates: Vec<PathBuf> = Vec::new();
        if quoted {
            if let Some(d) = &self.dir {
                candidates.push(d.join(name));
            }
        }
        candidates.extend(self.state.include_dirs.iter().map(|d| d.join(name)));
        let Some(path) = candidates.into_iter().find(|p| p.is_file()) else {
            return;
        };
        let path = path.canonicalize().unwrap_or(path);
        if self.state.included.contains(&path) {
            return;
        }
        self.state.included.push(path.clone());
        // The room left for headers, known before reading: a header past
        // it is not read at all (a 2 GB header was read whole, then
        // dropped), and a file growing meanwhile is read no further.
        let room = MAX_HEADER_BYTES
            .saturating_sub(self.state.header_bytes)
            .min(crate::MAX_FILE_SIZE);
        let fits = std::fs::metadata(&path)
            .is_ok_and(|m| usize::try_from(m.len()).is_ok_and(|n| n <= room));
        if !fits {
            return;
        }
        let mut bytes = Vec::new();
        let read = std::fs::File::open(&path).and_then(|f| {
            std::io::Read::read_to_end(
                &mut std::io::Read::take(
                    f,
                    u64::try_from(room).unwrap_or(u64::MAX).saturating_add(1),
                ),
                &mut bytes,
            )
        });
        if read.is_err() || bytes.len() > room {
            return;
        }
        self.state.header_bytes = self.state.header_bytes.saturating_add(bytes.len());
        self.state.table.allow(bytes.len());
        let sp = Spliced::new(&bytes);
        let passes = Arc::clone(&self.state.passes);
        let state = std::mem::replace(&mut self.state, State::new(passes, &PpOptions::default()));
        let mut inner = Pp::new(&sp.text, state, mask, path.parent().map(Path::to_path_buf));
        inner.exact = false;
        inner.depth = self.depth.saturating_add(1);
        while inner.next_token().is_some() {}
        inner.finish_define();
        self.state = inner.state;
    }
}

/// The device passes of `m` (the host pass compiles no PTX).
pub fn device(m: Mask) -> Mask {
    m & !HOST
}
