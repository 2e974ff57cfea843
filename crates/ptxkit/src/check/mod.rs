//! The semantic checker: what ptxas verifies after parsing, from the
//! catalog's data. Separate from the parser; it reads a parsed [`Module`].
//!
//! Passes (crate-private): module rules (`module_rules`), symbols and calls
//! (`symbols`), version/target gating of instructions (`gating`). The
//! public entry points are [`check`] (a parsed module), [`check_source`]
//! (source text, streamed) and [`ModuleChecker`] (fed item by item); every
//! diagnostic they report has a [`Code`] from the registry. Names are resolved by
//! the one resolver, [`crate::syntax::scope`] (`docs/names.md`). Each
//! instruction's facts (its form, its roles' types and sizes, the modifier
//! rule it breaks, its operands' declarations) are worked out once into a
//! context value that the operand checks, the gating and the rules read in
//! turn.

mod address;
mod aliases;
mod body;
mod const_div;
mod const_vectors;
mod elements;
mod end_facts;
mod exact;
mod files;
mod float_vectors;
mod gating;
mod handles;
mod held;
mod held_cold;
mod init_walk;
mod inst_ctx;
mod lowered;
pub(crate) mod mod_rules;
pub mod module_data;
mod module_rules;
mod offsets;
mod opaque;
mod opclass;
mod operand_kinds;
mod operands;
mod readings;
mod rules;
mod section_values;
mod shared_space;
mod symbols;
pub mod target;

use crate::diag::{Bounded, Code, Collected, Diagnostic, Sorted};
use crate::isa::PtxVersion;
use crate::syntax::{Instruction, Item, Module};
use crate::DataPiece;
pub use end_facts::EndFacts;
use symbols::ModuleScope;
use target::{Env, Sm};

/// Options of a check.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Check against this target (`sm_90a`) instead of the module's `.target`.
    pub target: Option<String>,
    /// Check against this PTX version instead of the module's `.version`.
    pub version: Option<PtxVersion>,
    /// A test aid: with no error cap, write diagnostics and the uses of
    /// names waiting for a label to their temporary files after a handful
    /// of them rather than after thousands, so that tests and fuzzing take
    /// the paths through disk on small inputs. The diagnostics are the same
    /// either way.
    pub small_spills: bool,
    /// Read a module-scope initializer list longer than this many bytes in
    /// parts, as the check goes, rather than whole (`None`:
    /// [`crate::LONG_INIT_BYTES`]). The diagnostics are the same either
    /// way when the module has no syntax errors.
    pub long_initializers: Option<usize>,
}

pub(crate) struct Checker<'o> {
    pub(crate) env: Env,
    pub(crate) diags: Vec<Diagnostic>,
    /// `.extern` variables seen so far (for the linkage rule).
    pub(crate) externs: crate::syntax::name_map::NameMap<crate::source::Span>,
    /// Catalog requirements the module meets (see `gating`).
    pub(crate) met: rustc_hash::FxHashSet<crate::isa::Requirement>,
    /// The order of the header so far (see `module_rules`).
    pub(crate) header: module_rules::HeaderState,
    /// `.file` indices declared so far, each with its first span (see
    /// `files`).
    pub(crate) files: rustc_hash::FxHashMap<i32, crate::source::Span>,
    /// The source locations (file, line, column) `.loc` directives gave
    /// so far, each once (see `files`).
    pub(crate) locs: rustc_hash::FxHashSet<(u32, u32, u32)>,
    /// The labels `.loc` directives name as `function_name`, each with its
    /// first use: each must be a label of a `.section`, which usually
    /// comes after the functions (see `files`).
    pub(crate) function_names: rustc_hash::FxHashMap<crate::syntax::Name, crate::source::Span>,
    /// Role types and vector sizes already worked out, by instruction
    /// shape (see `operands`).
    pub(crate) resolved: operands::Resolved,
    /// The lookup memo of the last body and its last generation, for the
    /// next body to reuse (see `body`).
    memo: Option<(body::Memo, u32)>,
    /// The error cap diagnostics held for a later label are bounded by
    /// (0: none; see `held`).
    hold_cap: usize,
    /// Errors found past that cap: counted, not kept.
    uncounted: u64,
    /// The end of the last body, when its held uses were written out: its
    /// diagnostics, made as they are taken ([`held::Settling`]).
    settling: Option<held::Settling<'static>>,
    /// Past that cap, diagnostics that no broken declaration could have
    /// caused, counted and dropped (errors, warnings): see
    /// [`Checker::emit`].
    unkept: [usize; 2],
    /// The static shared memory of each function so far, for the kernels'
    /// limit at the module's end (see `shared_space`).
    pub(crate) shared: shared_space::SharedSpace,
    /// The architecture of the last `.target` read, at module scope or in
    /// a body, and where (see `module_rules`).
    pub(crate) last_target: Option<(Sm, crate::source::Span)>,
    /// Whether an error was reported outside the checker (a syntax
    /// error): the limits ptxas judges only in a module without errors
    /// are then not judged ([`ModuleChecker::note_errors`]).
    pub(crate) errors_elsewhere: bool,
    /// Where the module declares `.address_size 32`, if it does: its
    /// addresses are then 32-bit, and the module is refused at its end
    /// (`module_rules`).
    pub(crate) address32: Option<crate::source::Span>,
    /// The first generic or `.global` address held in a 32-bit register,
    /// and how many more the module has: ptxas then reads the module as
    /// 32-bit and refuses it at its end, only without other errors
    /// (`module_rules`).
    pub(crate) narrow_globals: Option<(Box<Diagnostic>, u64)>,
    /// The first read of a body `.param` before a `call` returns into it,
    /// and how many more: ptxas reports this too only at the module's end
    /// without other errors ("Function call sequence invalid").
    pub(crate) early_param_reads: Option<(Box<Diagnostic>, u64)>,
    /// A `.target`'s errors that ptxas reports only once an item follows
    /// the header (`module_rules`): none when the module is a header alone.
    pub(crate) after_header: Vec<Diagnostic>,
    opts: &'o CheckOptions,
}

impl Checker<'_> {
    /// Record diagnostic `d`. With an error cap, past twice the cap the
    /// diagnostics not yet taken are put in source order and all but the
    /// first `hold_cap` counted and dropped: one item with an error per
    /// element (a million-element initializer of undeclared names) is not
    /// held whole before the caller's cap applies.
    pub(crate) fn emit(&mut self, d: Diagnostic) {
        self.diags.push(d);
        if self.hold_cap != 0 && self.diags.len() >= self.hold_cap.saturating_mul(2) {
            self.compact();
        }
    }

    #[cold]
    fn compact(&mut self) {
        self.diags.sort_by_key(|d| d.span.start);
        for d in self.diags.drain(self.hold_cap..) {
            let [errors, warnings] = &mut self.unkept;
            if !d.is_error() {
                *warnings = warnings.saturating_add(1);
            } else if d.code.may_cascade() {
                // Of the family a broken declaration causes: the caller
                // counts them only when nothing was broken.
                self.uncounted = self.uncounted.saturating_add(1);
            } else {
                *errors = errors.saturating_add(1);
            }
        }
    }
}

/// Check a parsed module; diagnostics in source order.
pub fn check(m: &Module, opts: &CheckOptions) -> Vec<Diagnostic> {
    let mut c = ModuleChecker::new(opts);
    for item in &m.items {
        c.item(item);
    }
    c.finish()
}

/// Parse and check `src` piece by piece ([`crate::PieceStream`]), never
/// holding more than one statement of the tree: the full check in memory
/// proportional to the module's declarations, not to its code. Diagnostics
/// in source order.
///
/// A syntax error does not end the check: every piece (an item, or one
/// statement of a body) that parsed without error is still checked, so the
/// semantic errors of the rest of the module are reported too (ptxas stops
/// at its first syntax error). What a broken piece would have declared is
/// unknown, so after a broken declaration, label or function header the
/// "not declared" family of errors ([`Code::may_cascade`]) is not reported: for the
/// rest of the function when the piece is in a body, for the rest of the
/// module when it is at module scope. Without syntax errors the result is
/// exactly [`crate::parse`] then [`check`].
///
/// ```
/// let src = b".version 8.0\n.target sm_90\n.address_size 64\n\
///     .visible .entry k() {\n  call.uni f, ();\n  ret;\n}\n\
///     .func f() {\n  ret;\n}\n";
/// let diags = ptxkit::check::check_source(src, &Default::default());
/// // Like ptxas, a function must be declared before it is called.
/// assert_eq!(diags.len(), 1);
/// assert_eq!(diags[0].code, "E0601");
/// ```
pub fn check_source(src: &[u8], opts: &CheckOptions) -> Vec<Diagnostic> {
    check_source_with(src, opts, |_| {})
}

/// [`check_source`], calling `done(offset)` as it goes with the offset
/// before which the check will not read `src` again. A caller holding
/// `src` in a memory map can give those pages back, so the source is never
/// resident as a whole either (`ptx check` does).
pub fn check_source_with(
    src: &[u8],
    opts: &CheckOptions,
    done: impl FnMut(usize),
) -> Vec<Diagnostic> {
    check_source_bounded(src, opts, 0, done).diagnostics
}

/// [`check_source_with`], keeping only the first `max` diagnostics in
/// source order (all with `max == 0`) and counting the others: memory stays
/// bounded however many errors the input has (`ptx check --max-errors`).
///
/// ```
/// let src = b".version 8.0\n.target sm_90\n.entry k() { a; b; c; d; }\n";
/// let c = ptxkit::check::check_source_bounded(src, &Default::default(), 2, |_| {});
/// assert_eq!(c.diagnostics.len(), 2);
/// assert_eq!((c.errors, c.omitted()), (4, 2));
/// ```
pub fn check_source_bounded(
    src: &[u8],
    opts: &CheckOptions,
    max: usize,
    done: impl FnMut(usize),
) -> Collected {
    let mut checker = ModuleChecker::new(opts).with_max_errors(max);
    stream_check(src, Some(&mut checker), max, done).finish()
}

/// [`check_source_bounded`], giving the diagnostics one at a time in
/// source order rather than in one list. With `max == 0` (all of them),
/// past a few tens of thousands they are sorted in runs into a temporary
/// file and merged back as they are read, so a check of millions of errors
/// does not hold them all (`ptx check --max-errors 0`).
///
/// ```
/// let src = b".version 8.0\n.target sm_90\n.entry k() { a; b; c; d; }\n";
/// let sorted = ptxkit::check::check_source_sorted(src, &Default::default(), 0, |_| {});
/// assert_eq!(sorted.errors, 4);
/// assert_eq!(sorted.count(), 4);
/// ```
pub fn check_source_sorted(
    src: &[u8],
    opts: &CheckOptions,
    max: usize,
    done: impl FnMut(usize),
) -> Sorted {
    let mut checker = ModuleChecker::new(opts).with_max_errors(max);
    stream_check(src, Some(&mut checker), max, done).into_sorted()
}

/// [`syntax_check_bounded`], giving the diagnostics one at a time in source
/// order (see [`check_source_sorted`]).
pub fn syntax_check_sorted(src: &[u8], max: usize) -> Sorted {
    stream_check(src, None, max, |_| {}).into_sorted()
}

/// The syntax errors of `src` ([`crate::syntax_check`]), keeping only the
/// first `max` (all with `max == 0`) and counting the others. Read one
/// statement at a time on one thread, so memory stays bounded whatever the
/// input.
pub fn syntax_check_bounded(src: &[u8], max: usize) -> Collected {
    if max == 0 {
        let diagnostics = crate::syntax_check(src);
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        return Collected {
            warnings: diagnostics.len().saturating_sub(errors),
            errors,
            diagnostics,
        };
    }
    stream_check(src, None, max, |_| {}).finish()
}

/// Whether a statement that did not parse may have been meant to declare
/// something: a directive (`.reg`, `.local`, ...) or a label, not an
/// instruction.
fn may_declare(text: &[u8]) -> bool {
    let text = text.trim_ascii_start();
    if text.first() == Some(&b'.') {
        return true;
    }
    let word = text
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'%')))
        .unwrap_or(text.len());
    text.get(word..)
        .is_some_and(|rest| rest.trim_ascii_start().first() == Some(&b':'))
}

/// The run of diagnostics written out at a time with
/// [`CheckOptions::small_spills`].
const SMALL_RUN: usize = 3;

/// Read `src` piece by piece; check each piece without syntax errors when
/// a checker is given (see [`check_source`]).
fn stream_check(
    src: &[u8],
    mut checker: Option<&mut ModuleChecker<'_>>,
    max: usize,
    mut done: impl FnMut(usize),
) -> Bounded {
    use crate::syntax::Stmt;
    use crate::Piece;
    let mut stream = crate::PieceStream::new(src).with_max_diagnostics(max);
    if let Some(n) = checker.as_ref().and_then(|c| c.c.opts.long_initializers) {
        stream = stream.with_long_initializers(n);
    }
    let small = checker.as_ref().is_some_and(|c| c.c.opts.small_spills);
    let mut sink = Bounded::new(max);
    if small {
        sink = sink.spill_every(SMALL_RUN);
    }
    // Offsets from which cascading errors are not reported: in the module,
    // and in the function being read.
    let mut module_poison = u32::MAX;
    let mut body_poison = u32::MAX;
    while let Some((mut piece, diags)) = stream.next() {
        let unkept = stream.take_unkept();
        sink.add_unkept(unkept);
        let broken = unkept.0 > 0 || diags.iter().any(Diagnostic::is_error);
        // What kind of piece, told apart once.
        let (structural, function_end, data) = match &piece {
            Piece::BlockStart(_) | Piece::BlockEnd(_) => (true, false, None),
            Piece::FunctionEnd(_) => (true, true, None),
            Piece::Data(d) => (matches!(**d, DataPiece::Broken(_)), false, Some(&**d)),
            _ => (false, false, None),
        };
        if broken {
            let at = diags.first().map_or(0, |d| d.span.start);
            let in_body = stream.in_body();
            match &piece {
                Piece::Stmt(Stmt::Instruction(_)) => {}
                Piece::Stmt(Stmt::Error(sp)) if !may_declare(sp.slice(src)) => {}
                Piece::Stmt(_) => body_poison = body_poison.min(at),
                Piece::Data(_) if in_body => body_poison = body_poison.min(at),
                Piece::Item(_) | Piece::FunctionStart(_) | Piece::Data(_) => {
                    module_poison = module_poison.min(at)
                }
                _ => {}
            }
        }
        sink.extend(diags);

        if let Some(c) = checker.as_deref_mut() {
            if broken && matches!(data, Some(DataPiece::Part(_) | DataPiece::End(_))) {
                // A declaration read in parts is checked whole or not at
                // all, as an item is: given up at its first broken part.
                c.long = None;
            } else if !broken || structural {
                if matches!(piece, Piece::FunctionStart(_)) {
                    // The header is handed over, not copied; what is left
                    // in its place recycles as nothing. (Other pieces are
                    // lent: moving each statement in and out costs.)
                    let _ = c.take_piece(std::mem::replace(&mut piece, Piece::BlockStart(0)));
                } else {
                    c.piece(&piece);
                }
            }
            let poison = module_poison.min(body_poison);
            // The end of a body reports what it resolves late (labels
            // used before their definition), anywhere in the body.
            let end = poison != u32::MAX && function_end;
            c.drain_into(&mut sink, |d| {
                !d.code.may_cascade()
                    || (d.span.start < poison && !(end && d.code == Code::UndefinedLabel))
            });
            sink.add_unkept(c.take_unkept());
            // Errors past the cap, counted only, are of the "not declared"
            // family: not counted after a broken declaration.
            let uncounted = c.take_uncounted_errors();
            if poison == u32::MAX {
                sink.add_unkept_errors(uncounted);
            }
        }
        if function_end {
            body_poison = u32::MAX;
        }
        stream.recycle(piece);
        done(stream.consumed());
    }
    sink.add_unkept(stream.take_unkept());
    sink.extend(stream.finish());
    if let Some(c) = checker {
        if sink.has_errors() {
            c.note_errors();
        }
        c.end();
        let clean = module_poison == u32::MAX;
        c.drain_into(&mut sink, |d| clean || !d.code.may_cascade());
        sink.add_unkept(c.take_unkept());
        let uncounted = c.take_uncounted_errors();
        if clean {
            sink.add_unkept_errors(uncounted);
        }
    }
    sink
}

/// The checker fed one module-scope item at a time, in source order, the
/// way ptxas reads a module: a name must be declared before it is used.
/// What it keeps between items is a summary of the declarations, so a
/// caller that parses item by item ([`crate::ItemStream`]) can drop each
/// item once checked and hold one function at a time.
pub struct ModuleChecker<'o> {
    c: Checker<'o>,
    ms: ModuleScope,
    /// The function whose body is being fed piece by piece, and the state
    /// of its check.
    body: Option<(Box<crate::syntax::Function>, body::BodyWalk)>,
    /// The declaration whose last initializer is being fed in parts
    /// ([`crate::DataPiece::Start`]), and the walk of that list.
    long: Option<LongVar>,
}

/// A declaration whose last initializer comes in parts.
struct LongVar {
    v: Box<crate::syntax::VarDecl>,
    walk: init_walk::InitWalk,
    /// The outermost list's span and length, once it closed.
    outer: Option<(crate::source::Span, u64)>,
}

impl<'o> ModuleChecker<'o> {
    /// A checker at the start of a module.
    pub fn new(opts: &'o CheckOptions) -> ModuleChecker<'o> {
        ModuleChecker {
            c: Checker {
                env: Env {
                    ptx: opts.version,
                    sm: opts.target.as_deref().and_then(Sm::parse),
                    opts: 0,
                },
                diags: Vec::new(),
                externs: Default::default(),
                met: Default::default(),
                resolved: Default::default(),
                memo: None,
                hold_cap: 0,
                uncounted: 0,
                settling: None,
                unkept: [0; 2],
                header: Default::default(),
                files: Default::default(),
                locs: Default::default(),
                function_names: Default::default(),
                shared: Default::default(),
                last_target: None,
                errors_elsewhere: false,
                address32: None,
                narrow_globals: None,
                early_param_reads: None,
                after_header: Vec::new(),
                opts,
            },
            ms: ModuleScope::default(),
            body: None,
            long: None,
        }
    }

    /// Hold at most about `max` diagnostics per name while waiting for a
    /// function's labels (a use of an unknown name may be a label defined
    /// further on), counting the others: with `max` the caller's error
    /// cap, the first `max` errors in source order are still all reported
    /// and memory stays bounded however many uses a body has (0: hold
    /// everything). The errors counted, not kept, are
    /// [`ModuleChecker::take_uncounted_errors`].
    pub fn with_max_errors(mut self, max: usize) -> ModuleChecker<'o> {
        self.c.hold_cap = max;
        self
    }

    /// The errors found past the cap of [`ModuleChecker::with_max_errors`]
    /// (counted, never made into diagnostics) since the last call.
    pub fn take_uncounted_errors(&mut self) -> usize {
        usize::try_from(std::mem::take(&mut self.c.uncounted)).unwrap_or(usize::MAX)
    }

    /// The errors and warnings dropped past the cap of
    /// [`ModuleChecker::with_max_errors`] since the last call, other than
    /// those of [`ModuleChecker::take_uncounted_errors`].
    pub fn take_unkept(&mut self) -> (usize, usize) {
        let [e, w] = std::mem::take(&mut self.c.unkept);
        (e, w)
    }

    /// Check the next module-scope item.
    pub fn item(&mut self, item: &Item) {
        let c = &mut self.c;
        if !matches!(
            item,
            Item::Version(_) | Item::Target(_) | Item::AddressSize(_)
        ) {
            c.header_read();
        }
        c.header_order(item);
        match item {
            Item::Version(v) => {
                c.version_rules(v);
                if c.env.ptx.is_none() {
                    c.env.ptx = u8::try_from(v.major)
                        .ok()
                        .zip(u8::try_from(v.minor).ok())
                        .map(|(major, minor)| PtxVersion { major, minor });
                    // Requirements met under the old environment may not be.
                    c.met.clear();
                }
            }
            Item::Target(t) => {
                if c.opts.target.is_none() && c.env.sm.is_none() {
                    c.env.sm = t.arch().and_then(|a| Sm::parse(a.as_str()));
                    c.met.clear();
                }
                let data = module_data::data();
                let opts = t
                    .items
                    .iter()
                    .filter_map(|(n, _)| data.option_index(n.as_str()))
                    .filter(|&k| k < 32)
                    .fold(0u32, |acc, k| acc | 1 << k);
                if opts != c.env.opts {
                    c.env.opts = opts;
                    c.met.clear();
                }
                c.target_rules(t);
            }
            Item::AddressSize(a) => c.address_size_rules(a),
            Item::Var(v) => {
                c.declare(item, &mut self.ms);
                c.shared.module_var(v);
                // Names first: an initializer read in parts has its names
                // checked as it goes by, its rules at its end.
                c.check_initializers(v, &self.ms);
                c.global_rules(v);
            }
            Item::Function(f) => {
                // Declared first: a function may call itself.
                c.declare(item, &mut self.ms);
                // Symbols, gating and rules in one walk of the body.
                c.check_function(f, &mut self.ms);
                c.function_rules(f);
            }
            Item::Section(s) => {
                c.declare(item, &mut self.ms);
                c.section_rules(s);
            }
            Item::Alias(a) => {
                c.since_rule(crate::syntax::Alias::KEYWORD, a.span);
                c.declare(item, &mut self.ms);
            }
            Item::File(f) => {
                c.file_rules(f);
                c.declare(item, &mut self.ms);
            }
            Item::Loc(l) => {
                c.loc_rules(l, false);
                c.declare(item, &mut self.ms);
            }
            Item::Pragma(p) => {
                c.pragma_rules(&p.strings, p.span, "module");
                c.declare(item, &mut self.ms);
            }
            _ => c.declare(item, &mut self.ms),
        }
    }

    /// [`ModuleChecker::item`], and what the item leaves for the module's
    /// end (empty unless it is a function with a body): what
    /// [`ModuleChecker::kept_function`] is given when the item is not
    /// walked again.
    pub fn item_facts(&mut self, item: &Item) -> EndFacts {
        if !matches!(item, Item::Function(f) if f.body.is_some()) {
            self.item(item);
            return EndFacts::default();
        }
        let aside = self.c.facts_begin();
        self.item(item);
        self.c.facts_end(aside)
    }

    /// A function with a body that is not walked again (unchanged since
    /// the check that gave `facts`, [`ModuleChecker::item_facts`]): its
    /// header declares it, and its facts count at the module's end as if
    /// its body had been walked. Its own diagnostics are the caller's to
    /// keep.
    pub fn kept_function(&mut self, f: &crate::syntax::Function, facts: &EndFacts) {
        let header = crate::syntax::Function {
            linkage: f.linkage,
            kind: f.kind,
            rets: f.rets.clone(),
            name: f.name,
            name_span: f.name_span,
            params: f.params.clone(),
            directives: f.directives.clone(),
            body: f.body.as_ref().map(|b| crate::syntax::Block {
                stmts: Vec::new(),
                span: crate::source::Span::at(b.span.start),
            }),
            span: f.span,
        };
        self.piece(&crate::Piece::FunctionStart(Box::new(header)));
        self.piece(&crate::Piece::FunctionEnd(f.span));
        self.c.replay_function(facts);
    }

    /// Check the next piece of a module read by [`crate::PieceStream`]
    /// (the same diagnostics as [`ModuleChecker::item`] on whole items).
    pub fn piece(&mut self, piece: &crate::Piece) {
        use crate::Piece;
        let c = &mut self.c;
        match piece {
            Piece::Item(item) => self.item(item),
            Piece::FunctionStart(f) => self.function_start(f.clone()),
            Piece::BlockStart(_) => {
                if let Some((_, w)) = &mut self.body {
                    c.block_start(w);
                }
            }
            Piece::Stmt(s) => {
                if let Some((_, w)) = &mut self.body {
                    c.body_stmt(s, w, &mut self.ms);
                }
            }
            Piece::BlockEnd(_) => {
                if let Some((_, w)) = &mut self.body {
                    c.block_end(w);
                }
            }
            Piece::FunctionEnd(span) => {
                if let Some((mut f, w)) = self.body.take() {
                    c.body_end(w);
                    f.span = *span;
                    c.function_rules(&f);
                }
            }
            Piece::Data(d) => self.data_piece(d),
        }
    }

    /// [`ModuleChecker::piece`] for the pieces of a declaration whose
    /// initializer is read in parts.
    fn data_piece(&mut self, piece: &DataPiece) {
        if self.body.is_none() && matches!(piece, DataPiece::Start(_)) {
            self.c.header_read();
        }
        let c = &mut self.c;
        match piece {
            DataPiece::Start(v) => {
                // As `item` and `body_stmt` do, the names first and the
                // rules at the end.
                let (long, before) = v
                    .decls
                    .split_last()
                    .map_or((None, &[][..]), |(l, b)| (Some(l), b));
                if let Some((_, w)) = &mut self.body {
                    c.body_var_start(v, w);
                    for init in before.iter().filter_map(|d| d.init.as_ref()) {
                        c.init_function_offsets(init, &self.ms);
                    }
                } else {
                    c.declare_var(v, &mut self.ms);
                    c.check_initializers_of(before, &self.ms);
                }
                self.long = long.map(|d| LongVar {
                    walk: init_walk::InitWalk::new(v, d),
                    v: v.clone(),
                    outer: None,
                });
            }
            DataPiece::Part(events) => {
                let Some(l) = &mut self.long else { return };
                for e in events {
                    match e {
                        crate::InitEvent::Open(_) => l.walk.open(),
                        crate::InitEvent::Item(i) => {
                            l.walk.item(i);
                            if self.body.is_some() {
                                c.init_function_offsets(i, &self.ms);
                            } else {
                                c.init_item_names(i, &self.ms);
                            }
                        }
                        crate::InitEvent::Close(span) => {
                            let len = l.walk.close(*span);
                            if l.walk.depth() == 0 {
                                l.outer = Some((*span, len));
                            }
                        }
                    }
                }
            }
            DataPiece::End(span) => {
                let Some(LongVar { mut v, walk, outer }) = self.long.take() else {
                    return;
                };
                let (list, len) = outer.unwrap_or((*span, 0));
                v.span = *span;
                if let Some(d) = v.decls.last_mut() {
                    d.span = crate::source::Span::new(d.span.start, list.end);
                }
                let long = module_rules::ListInParts {
                    span: list,
                    len,
                    first: walk.finish(),
                };
                if let Some((_, w)) = &self.body {
                    c.decl_rules_with(&v, Some(long));
                    c.body_var_end(&v, w);
                    return;
                }
                let item = Item::Var(*v);
                c.header_order(&item);
                if let Item::Var(v) = &item {
                    c.long_global_rules(v, long);
                }
            }
            DataPiece::Broken(_) => self.long = None,
        }
    }

    /// [`ModuleChecker::piece`] for a piece the caller is done with: a
    /// function's header is kept as it comes, not copied (a header of
    /// 100,000 parameters is megabytes). Any other piece is given back,
    /// for [`crate::PieceStream::recycle`].
    pub fn take_piece(&mut self, piece: crate::Piece) -> Option<crate::Piece> {
        match piece {
            crate::Piece::FunctionStart(f) => {
                self.function_start(f);
                None
            }
            p => {
                self.piece(&p);
                Some(p)
            }
        }
    }

    /// Start the body of `f`, whose header is kept for the rules that need
    /// the function's whole span (at its end).
    fn function_start(&mut self, f: Box<crate::syntax::Function>) {
        let c = &mut self.c;
        c.header_read();
        c.header.declare(f.name_span);
        c.declare_function(&f, &mut self.ms);
        let walk = c.body_start(&f);
        self.body = Some((f, walk));
    }

    /// Tell the checker, before [`ModuleChecker::end`], that the module has
    /// an error it did not report itself (a syntax error, or one of a
    /// reused item's diagnostics). ptxas judges a kernel's static shared
    /// memory and refuses `.address_size 32` only in a module without
    /// other errors (13.5: a kernel of 464,896 bytes on sm_90a beside an
    /// undeclared register elsewhere draws only the register's errors),
    /// and so does [`ModuleChecker::end`].
    pub fn note_errors(&mut self) {
        self.c.errors_elsewhere = true;
    }

    /// The diagnostics found so far, taken out (in the order found), so a
    /// caller can tell which items they came from.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        self.c.flush_settling();
        std::mem::take(&mut self.c.diags)
    }

    /// Move the diagnostics found so far into `sink`, those that `keep`.
    fn drain_into(&mut self, sink: &mut Bounded, keep: impl Fn(&Diagnostic) -> bool) {
        if self.c.diags.is_empty() && self.c.settling.is_none() {
            return;
        }
        for d in self.c.diags.drain(..) {
            if keep(&d) {
                sink.push(d);
            }
        }
        // A body's end settled as it is read (no cap, uses on disk).
        if let Some(settling) = self.c.settling.take() {
            for d in settling {
                if keep(&d) {
                    sink.push(d);
                }
            }
        }
    }

    /// The end of the module: what only the whole module tells (a
    /// function declared but defined nowhere, a `.loc`'s `function_name`
    /// that no `.section` defines). Called by
    /// [`ModuleChecker::finish`]; a caller that takes the diagnostics as
    /// it goes calls it after the last item, then takes them.
    pub fn end(&mut self) {
        self.c.unresolved_functions(&self.ms);
        self.c.unresolved_function_names(&self.ms);
        self.c.fatal_at_end_rules();
        self.c.shared_space_rule();
        self.c.last_target_rule();
    }

    /// The diagnostics, in source order, after [`ModuleChecker::end`].
    pub fn finish(mut self) -> Vec<Diagnostic> {
        self.end();
        self.c.flush_settling();
        let mut diags = self.c.diags;
        diags.sort_by_key(|d| d.span.start);
        diags
    }
}

/// `ld.global.u32`: the instruction's name with its modifiers.
pub(crate) fn inst_name(i: &Instruction) -> String {
    let mut s = i.opcode_name().to_string();
    for m in &i.mods {
        s.push_str(m.as_str());
    }
    s
}
