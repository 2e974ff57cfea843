//! Function bodies, checked one statement at a time, in source order: a
//! register or variable is known from its declaration on, a label in the
//! whole block that defines it and in the blocks nested in it. A body can
//! therefore be checked while it is parsed, without its tree (see
//! [`crate::PieceStream`]).
//!
//! A label may be used before it is defined, so a name that is not known
//! when it is used is not an error yet: its diagnostic waits for the end of
//! its block and is dropped if that block, or one around it, defines a
//! label of that name.

use super::held::{Held, HeldMark, Settle};
use super::inst_ctx::InstCtx;
use super::symbols::{
    clash_span, declarator_decl, is_predefined, Decl, Kind, LabelSort, ModuleScope, Scope,
};
use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::isa::vocab::StateSpace;
use crate::source::Span;
use crate::syntax::{Expr, Function, Instruction, Name, Operand, Stmt, VarDecl};

/// The state of the check of one function body.
pub(crate) struct BodyWalk {
    /// The labels defined so far in each open block, parallel to `stack`
    /// (ptxas scopes labels by block: a label is seen in its block, before
    /// and after its definition, and in the blocks nested in it).
    labels: Vec<Scope>,
    /// The parameters, the body's block, then one scope per open nested
    /// block.
    stack: Vec<Scope>,
    /// Diagnostics about names not known where they are used, each with
    /// the depth of the block it was found in, settled when that block, or
    /// one around it, defines a label of the name: those that stand unless
    /// the name is a label ([`Settle::DropIfLabel`]) and those that stand
    /// only if it is (a label where its role takes none,
    /// [`Settle::KeepIfLabel`]). Bounded by the error cap ([`Held`]).
    held: Held,
    /// Recent lookups, direct-mapped by name: an instruction's registers
    /// recur in the next ones, and a scope search (hash maps and `%r<N>`
    /// ranges, block by block) was the checker's largest cost. An entry is
    /// good while its generation is [`BodyWalk::generation`].
    memo: Memo,
    /// Bumped when a register range is declared or a block that declared
    /// one closes; a single name declared or gone forgets its own entry.
    generation: u32,
    /// Whether the body is a kernel's (`.entry`).
    pub(super) entry: bool,
    /// The function's return parameters (ptxas: a function reads none
    /// of them and writes none of its input parameters).
    pub(super) rets: rustc_hash::FxHashSet<Name>,
    /// The `.param` variables of the body that a `call` so far has
    /// returned into: `ld.param` of another body `.param` is "Function
    /// call sequence invalid" to ptxas 13.5.
    pub(super) returned: rustc_hash::FxHashSet<Name>,
    /// What an indirect call through each `.callprototype` or
    /// `.calltargets` label of the body so far passes (a target list: its
    /// first declared function's prototype).
    pub(super) protos: rustc_hash::FxHashMap<Name, Proto>,
    /// The formal types of the body's `.callprototype`s, one entry a
    /// return value or parameter, each prototype's a run of them
    /// ([`Proto::formals`]), as the module keeps its functions'.
    pub(super) proto_formals: Vec<Option<crate::isa::vocab::ScalarType>>,
}

/// An indirect call's prototype: its counts, and where its formal types
/// are.
#[derive(Clone, Copy, Debug)]
pub(super) struct Proto {
    /// Return values.
    pub(super) rets: usize,
    /// Parameters.
    pub(super) params: usize,
    /// The formal types, return values first.
    pub(super) formals: ProtoFormals,
    /// Where the prototype (or the target list's function) is declared.
    pub(super) at: Span,
}

/// Where a [`Proto`]'s formal types are kept.
#[derive(Clone, Copy, Debug)]
pub(super) enum ProtoFormals {
    /// A module function's (a `.calltargets` list's first function).
    Function(Name),
    /// A run of [`BodyWalk::proto_formals`]: start and length.
    Body(usize, usize),
}

/// The formal type of a return value or parameter, as calls check it:
/// none (not checked) for an array or a vector.
pub(super) fn formal_type(p: &crate::syntax::Param) -> Option<crate::isa::vocab::ScalarType> {
    (p.dims.is_empty() && p.vector.is_none()).then_some(p.ty)
}

/// The lookup memo of a body: entries direct-mapped by name, each with
/// the generation it was made in. It outlives the body: the next one
/// takes it over under a newer generation.
pub(super) type Memo = Box<[std::cell::Cell<(Name, u32, Found)>]>;

/// Entries of [`BodyWalk::memo`] (a power of two).
const MEMO: usize = 256;

/// What a name denotes where it is used, as far as known there.
#[derive(Clone, Copy)]
pub(super) struct Found {
    pub(super) decl: Option<Decl>,
    /// Whether the use is bound for good: found in the function (its
    /// blocks, parameters or labels so far) or in the module, which a
    /// later label cannot change.
    settled: bool,
}

impl BodyWalk {
    pub(super) fn lookup(&self, ms: &ModuleScope, n: Name) -> Found {
        let slot = self.memo.get(n.memo_index(MEMO));
        if let Some((m, g, f)) = slot.map(std::cell::Cell::get) {
            if g == self.generation && m == n {
                return f;
            }
        }
        let found = self.search(ms, n);
        if let Some(c) = slot {
            c.set((n, self.generation, found));
        }
        found
    }

    /// `n` was declared: forget its lookup (the others stand).
    fn forget(&mut self, n: Name) {
        if let Some(c) = self.memo.get(n.memo_index(MEMO)) {
            if c.get().0 == n {
                c.set((c.get().0, u32::MAX, c.get().2));
            }
        }
    }

    /// `names` were declared, or went out of scope with their block:
    /// forget their lookups, or all lookups when a register range (which
    /// declares names by pattern) was among them.
    fn declared(&mut self, names: impl Iterator<Item = Name>, range: bool) {
        if range {
            self.changed();
        } else {
            names.for_each(|n| self.forget(n));
        }
    }

    /// A register range was declared or went out of scope: forget the
    /// lookups made so far.
    fn changed(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == u32::MAX {
            // Never equal to a fresh entry's mark.
            self.generation = 0;
            self.memo
                .iter()
                .for_each(|c| c.set((c.get().0, u32::MAX, c.get().2)));
        }
    }

    fn search(&self, ms: &ModuleScope, n: Name) -> Found {
        let local = self
            .stack
            .iter()
            .rev()
            .find_map(|s| s.find(n))
            .or_else(|| self.labels.iter().rev().find_map(|s| s.find(n)));
        match local {
            Some(d) => Found {
                decl: Some(d),
                settled: true,
            },
            // A module-scope declaration binds the use for good: ptxas
            // 13.5 resolves a name where it is used, so a label of that
            // name further on does not take it over (`bra g; g:` with a
            // variable `g` is "Label expected", `call f; f:` calls `f`).
            None => {
                let decl = ms.find(n);
                Found {
                    decl,
                    settled: decl.is_some(),
                }
            }
        }
    }

    /// The innermost range `n` names a register of, but past its count.
    fn range_beyond(&self, n: Name) -> Option<&crate::syntax::scope::Range<Decl>> {
        self.stack.iter().rev().find_map(|s| s.range_beyond(n))
    }
}

/// Where the diagnostics stood before an instruction's checks: the
/// reported ones and the held ones ([`Held::mark`]).
struct Mark {
    diags: usize,
    held: HeldMark,
}

impl Mark {
    #[inline]
    fn of(c: &Checker<'_>, w: &BodyWalk) -> Mark {
        Mark {
            diags: c.diags.len(),
            held: w.held.mark(),
        }
    }
}

impl Checker<'_> {
    /// Check a whole function body (the tree-walking form of the
    /// statement-by-statement check).
    pub(super) fn check_function(&mut self, f: &Function, ms: &mut ModuleScope) {
        let Some(body) = &f.body else { return };
        let mut w = self.body_start(f);
        for s in &body.stmts {
            self.body_stmt(s, &mut w, ms);
        }
        self.body_end(w);
        self.flush_settling();
    }

    /// Start the body of `f`: its parameters are in scope, and the body's
    /// own block is open.
    pub(super) fn body_start(&mut self, f: &Function) -> BodyWalk {
        self.shared.body_start(f);
        let mut top = Scope::default();
        let entry = f.kind == crate::syntax::FuncKind::Entry;
        // A parameter's space says whose it is: `.param::entry` for a
        // kernel's, `.param::func` for a function's (a `.param` declared in
        // a body stays `.param`).
        let param_space = if entry {
            StateSpace::ParamEntry
        } else {
            StateSpace::ParamFunc
        };
        for p in f.rets.iter().flatten().chain(f.params()) {
            let kind = if p.space == StateSpace::Reg {
                Kind::Reg
            } else {
                Kind::Var
            };
            let decl = Decl {
                kind,
                span: p.name_span,
                // A register's type, or a memory parameter's (which tells a
                // `.texref` parameter from a `.u64` one where a handle goes).
                ty: (kind == Kind::Var || p.vector.is_none()).then_some(p.ty),
                space: Some(if p.space == StateSpace::Param {
                    param_space
                } else {
                    p.space
                }),
                array: !p.dims.is_empty(),
            };
            if let Err(c) = top.declare(p.name, decl) {
                let first = clash_span(c);
                self.duplicate(p.name, p.name_span, first);
            }
        }
        // The memo of the last body, reused: its entries are stale under
        // the new generation. Built in place on the heap the first time
        // (an array built on the stack and then boxed costs a copy).
        let (memo, generation) = match self.memo.take() {
            Some((memo, g)) if g < u32::MAX.saturating_sub(1) => (memo, g.saturating_add(1)),
            _ => (
                vec![
                    std::cell::Cell::new((
                        Name::new(""),
                        u32::MAX,
                        Found {
                            decl: None,
                            settled: false,
                        },
                    ));
                    MEMO
                ]
                .into_boxed_slice(),
                0,
            ),
        };
        BodyWalk {
            labels: vec![Scope::default(), Scope::default()],
            stack: vec![top, Scope::default()],
            held: Held::new(self.hold_cap).small(self.opts.small_spills),
            memo,
            generation,
            entry,
            rets: f
                .rets
                .iter()
                .flatten()
                .filter(|p| p.space != StateSpace::Reg)
                .map(|p| p.name)
                .collect(),
            returned: rustc_hash::FxHashSet::default(),
            protos: rustc_hash::FxHashMap::default(),
            proto_formals: Vec::new(),
        }
    }

    /// A nested block opens.
    pub(super) fn block_start(&mut self, w: &mut BodyWalk) {
        // An empty scope changes no lookup made so far.
        w.stack.push(Scope::default());
        w.labels.push(Scope::default());
    }

    /// The innermost open block closes.
    pub(super) fn block_end(&mut self, w: &mut BodyWalk) {
        // The parameters' and the body's scopes stay until the body ends.
        let depth = w.stack.len();
        if depth > 2 {
            let inner = w.stack.pop().unwrap_or_default();
            let labels = w.labels.pop().unwrap_or_default();
            // Only the lookups of the names the block declared change.
            let gone = inner.names().chain(labels.names()).map(|(n, _)| *n);
            w.declared(gone, !inner.ranges().is_empty());
            // Uses in this block (or deeper) that its labels settle are
            // gone (or, for a label where none may stand, reported); the
            // others wait for the enclosing block's labels.
            let is_label = |n: Name| labels.get(n).is_some();
            let names = || labels.names().map(|(n, _)| *n);
            let n = w.held.block_end(depth, names(), is_label, &mut self.diags);
            self.uncounted = self.uncounted.saturating_add(n);
        }
    }

    /// The body ends: names still unknown are reported unless they are
    /// labels.
    pub(super) fn body_end(&mut self, w: BodyWalk) {
        self.shared.body_end();
        self.memo = Some((w.memo, w.generation));
        self.flush_settling();
        if w.held.has_cold() {
            // Uses written out to disk (no cap, very many): settled as the
            // caller reads the diagnostics, not all made at once.
            let labels = w.labels;
            let is_label = move |n: Name| labels.iter().any(|s| s.get(n).is_some());
            self.settling = Some(super::held::Settling::new(w.held, Box::new(is_label)));
            return;
        }
        let labels = &w.labels;
        let is_label = |n: Name| labels.iter().any(|s| s.get(n).is_some());
        let n = w.held.finish(is_label, &mut self.diags);
        self.uncounted = self.uncounted.saturating_add(n);
    }

    /// The diagnostics of a body's end still to be settled
    /// ([`Checker::body_end`]), made now.
    pub(super) fn flush_settling(&mut self) {
        if let Some(s) = self.settling.take() {
            self.diags.extend(s);
        }
    }

    /// The next statement of the body (a nested block whole).
    pub(super) fn body_stmt(&mut self, s: &Stmt, w: &mut BodyWalk, ms: &mut ModuleScope) {
        w.held.settle_point();
        match s {
            Stmt::Label(n, sp) => self.define_label(*n, *sp, LabelSort::Plain, w),
            Stmt::CallPrototype(c) => {
                self.define_label(c.label, c.span, LabelSort::CallTargets, w);
                self.prototype_rules(c);
                let count = |l: &Option<Vec<crate::syntax::Param>>| l.as_ref().map_or(0, Vec::len);
                let at = w.proto_formals.len();
                w.proto_formals.extend(
                    c.rets
                        .iter()
                        .flatten()
                        .chain(c.params.iter().flatten())
                        .map(formal_type),
                );
                let len = w.proto_formals.len().saturating_sub(at);
                w.protos.insert(
                    c.label,
                    Proto {
                        rets: count(&c.rets),
                        params: count(&c.params),
                        formals: ProtoFormals::Body(at, len),
                        at: c.span,
                    },
                );
            }
            Stmt::CallTargets(t) => {
                self.define_label(t.label, t.span, LabelSort::CallTargets, w);
                if let Some((n, f)) = t
                    .targets
                    .iter()
                    .find_map(|(n, _)| ms.callee(*n).map(|f| (*n, f)))
                {
                    let proto = Proto {
                        rets: f.rets,
                        params: f.params,
                        formals: ProtoFormals::Function(n),
                        at: f.name_span,
                    };
                    w.protos.insert(t.label, proto);
                }
                for (n, sp) in &t.targets {
                    if !ms.is_function(*n) {
                        self.emit(Diagnostic::error(
                            Code::UndeclaredCallee,
                            *sp,
                            format!("`{n}` in `.calltargets` is not a declared function"),
                        ));
                    }
                }
            }
            Stmt::BranchTargets(t) => {
                self.define_label(t.label, t.span, LabelSort::BranchTargets, w);
                for (n, sp) in &t.targets {
                    let found = w.lookup(ms, *n);
                    if !matches!(
                        found.decl,
                        Some(Decl {
                            kind: Kind::Label(_),
                            ..
                        })
                    ) {
                        let d = Diagnostic::error(
                            Code::UndefinedLabel,
                            *sp,
                            format!("label `{n}` is not defined in this function"),
                        );
                        self.report(*n, d, found, w);
                    }
                }
            }
            Stmt::Var(v) => {
                // In the order a declaration read in parts takes: its
                // names, its initializers' items, then its rules.
                self.body_var_start(v, w);
                for init in v.decls.iter().filter_map(|d| d.init.as_ref()) {
                    self.init_function_offsets(init, ms);
                }
                self.decl_rules(v);
                self.body_var_end(v, w);
            }
            Stmt::Instruction(i) => {
                // The instruction's facts, once, for every check after.
                let mark = Mark::of(self, w);
                self.whole_instruction(i, w, ms);
                // Only on the error path: a few compares otherwise.
                if self.errors_since(&mark, w)
                    && crate::isa::catalog()
                        .flags(i.form)
                        .has(crate::isa::Flags::FLAT_TUPLE)
                {
                    self.other_readings(i, &mark, w, ms);
                }
            }
            Stmt::Block(inner) => {
                self.block_start(w);
                for s in &inner.stmts {
                    self.body_stmt(s, w, ms);
                }
                self.block_end(w);
            }
            Stmt::Loc(l) => self.loc_rules(l, true),
            // ptxas checks a body's `.target` as one at module scope.
            Stmt::Target(t) => self.body_target_rules(t),
            Stmt::Function(f) => self.body_function(f, w, ms),
            // Every string ptxas knows may stand in a body; each from its
            // version.
            Stmt::Pragma(p) => self.pragma_rules(&p.strings, p.span, "body"),
            Stmt::Directive(_) | Stmt::Error(_) => {}
        }
    }

    /// A function declared in the body (`.extern .func f(…);`): ptxas
    /// 13.5 declares it from here on for the whole module, as if at module
    /// scope (another body may call it; a later prototype must agree), so
    /// it goes into `ms` with the module's rules. Its name may not be one
    /// the innermost block already has (a variable, register or label; in
    /// the body's own block a parameter too: "Inconsistent redefinition of
    /// symbol"); a later declaration of the block may take it.
    fn body_function(&mut self, f: &Function, w: &mut BodyWalk, ms: &mut ModuleScope) {
        let own_block = w.stack.len() == 2;
        let here = w
            .stack
            .last()
            .and_then(|s| s.find(f.name))
            .or_else(|| w.labels.last().and_then(|s| s.find(f.name)))
            .or_else(|| {
                w.stack
                    .first()
                    .filter(|_| own_block)
                    .and_then(|s| s.find(f.name))
            });
        if let Some(first) = here {
            self.duplicate(f.name, f.name_span, first.span);
        }
        self.declare_function(f, ms);
        self.function_rules(f);
        // Lookups of the name made before now no longer stand.
        w.forget(f.name);
    }

    /// Every check of instruction `i`.
    fn whole_instruction(&mut self, i: &Instruction, w: &mut BodyWalk, ms: &ModuleScope) {
        // The instruction's facts, once, for every check after.
        let mut cx = InstCtx::new(i);
        self.fill_inst_ctx(&mut cx, w, ms);
        self.instruction(&cx, w, ms);
        self.gate_instruction(&cx);
        self.instruction_rules(&cx);
    }

    /// Whether an error was reported, or held until the labels are known,
    /// since `mark`.
    fn errors_since(&self, mark: &Mark, w: &BodyWalk) -> bool {
        w.held.mark() != mark.held
            || self
                .diags
                .get(mark.diags..)
                .is_some_and(|d| d.iter().any(|d| d.severity == crate::diag::Severity::Error))
    }

    /// `i` failed its checks (what they reported starts at `mark`): check
    /// the other groupings of its flat operand list ([`super::readings`])
    /// and keep the first that passes, or else `i`'s own diagnostics.
    fn other_readings(&mut self, i: &Instruction, mark: &Mark, w: &mut BodyWalk, ms: &ModuleScope) {
        // Uses counted past the error cap cannot be taken back.
        if w.held.mark().past != mark.held.past {
            return;
        }
        let own = self.diags.split_off(mark.diags);
        let held = w.held.split_off(mark.held);
        for alt in super::readings::readings(i) {
            self.whole_instruction(&alt, w, ms);
            if !self.errors_since(mark, w) {
                return;
            }
            self.diags.truncate(mark.diags);
            if w.held.mark().past != mark.held.past {
                break;
            }
            w.held.restore(mark.held, Default::default());
        }
        self.diags.truncate(mark.diags);
        self.diags.extend(own);
        w.held.restore(mark.held, held);
    }

    /// [`Checker::report`], for the operand checks.
    pub(super) fn report_found(&mut self, n: Name, d: Diagnostic, found: Found, w: &mut BodyWalk) {
        self.report(n, d, found, w);
    }

    /// Report `d` about the use of `n`, not yet known, if a label of that
    /// name is defined later in a block that sees the use.
    pub(super) fn report_if_label(
        w: &mut BodyWalk,
        n: Name,
        found: Found,
        make: impl FnOnce() -> Diagnostic,
    ) {
        if !found.settled {
            let depth = w.stack.len();
            w.held.hold(Settle::KeepIfLabel, n, depth, make);
        }
    }

    /// Report `d` about the use of `n` now, or at the end of the body if a
    /// later label of that name would make the use correct.
    fn report(&mut self, n: Name, d: Diagnostic, found: Found, w: &mut BodyWalk) {
        if found.settled {
            self.emit(d);
        } else {
            let depth = w.stack.len();
            w.held.hold(Settle::DropIfLabel, n, depth, || d);
        }
    }

    fn define_label(&mut self, name: Name, span: Span, sort: LabelSort, w: &mut BodyWalk) {
        // A label changes the lookup of its own name only.
        w.forget(name);
        let Some(labels) = w.labels.last_mut() else {
            return;
        };
        if let Err(c) = labels.declare(name, Decl::of(Kind::Label(sort), span)) {
            let first = clash_span(c);
            self.duplicate(name, span, first);
            return;
        }
        // A label and a variable of one block share its names (ptxas
        // 13.5: "Duplicate definition of label"), and so do a label of
        // the body's own block and a parameter; ranges (`%r<4>`) do not.
        let depth = w.stack.len();
        let own = w.stack.last().and_then(|s| s.get(name));
        let param = (depth == 2)
            .then(|| w.stack.first().and_then(|s| s.get(name)))
            .flatten();
        if let Some(d) = own.or(param) {
            let first = d.span;
            self.duplicate(name, span, first);
        }
    }

    /// What a declaration in a body does before its initializers: its
    /// names change the lookups and enter the block's scope.
    pub(super) fn body_var_start(&mut self, v: &VarDecl, w: &mut BodyWalk) {
        self.shared.body_var(v);
        let range = v.decls.iter().any(|d| d.range.is_some());
        w.declared(v.decls.iter().map(|d| d.name), range);
        if let Some(scope) = w.stack.last_mut() {
            self.declare_vars(v, scope);
        }
        self.param_clashes(v, w);
    }

    /// What a declaration in a body checks after its rules: a state space
    /// kept out of functions (`.tex`), and a variable named like a label of
    /// its block (ptxas 13.5: "Duplicate definition of variable").
    pub(super) fn body_var_end(&mut self, v: &VarDecl, w: &BodyWalk) {
        self.function_space_rule(v);
        if let Some(labels) = w.labels.last() {
            for d in v.decls.iter().filter(|d| d.range.is_none()) {
                if let Some(l) = labels.get(d.name) {
                    self.duplicate(d.name, d.name_span, l.span);
                }
            }
        }
    }

    /// The declarations of the body's own block share their names with
    /// the function's parameters and return values (ptxas 13.5:
    /// "Duplicate definition of variable"; a nested block may reuse
    /// them): report each name of `v` a parameter has, a register of a
    /// range included.
    fn param_clashes(&mut self, v: &VarDecl, w: &mut BodyWalk) {
        if w.stack.len() != 2 {
            return;
        }
        let Some(params) = w.stack.first_mut() else {
            return;
        };
        for d in &v.decls {
            let clash = match &d.range {
                None => params.get(d.name).map(|p| (d.name, p.span)),
                Some(r) => params.covered_by(d.name, r.value).map(|(n, p)| (n, p.span)),
            };
            if let Some((n, first)) = clash {
                self.duplicate(n, d.name_span, first);
            }
        }
    }

    /// Declare the names of `v` in `scope`, reporting duplicates.
    fn declare_vars(&mut self, v: &VarDecl, scope: &mut Scope) {
        for d in &v.decls {
            let decl = declarator_decl(v, d);
            let clash = match &d.range {
                Some(r) => scope.declare_range(d.name, r.value, d.name_span, decl),
                None => scope.declare(d.name, decl),
            };
            if let Err(c) = clash {
                let first = clash_span(c);
                self.duplicate(d.name, d.name_span, first);
            }
        }
    }

    /// The module `.shared` variables `i` names (see `shared_space`):
    /// only names of such variables are looked up. Out of line: most
    /// modules have none, and the instruction path stays as it was.
    #[inline(never)]
    #[cold]
    fn shared_names(&mut self, i: &Instruction, w: &mut BodyWalk, ms: &ModuleScope) {
        let shared = &mut self.shared;
        for o in &i.operands {
            o.for_each_name(&mut |n, _| {
                if shared.is_global(n) {
                    if let Some(d) = w.lookup(ms, n).decl {
                        shared.named(n, d.span);
                    }
                }
            });
        }
    }

    fn instruction(&mut self, cx: &InstCtx<'_>, w: &mut BodyWalk, ms: &ModuleScope) {
        let i = cx.i;
        if let Some(g) = &i.guard {
            let found = w.lookup(ms, g.pred);
            self.name_found(g.pred, g.span, found, w);
            self.guard(g, found, w);
        }
        let flags = crate::isa::catalog().flags(i.form);
        // Each plain-name operand was looked up once (`cx.found`), for the
        // type check and the declaration check.
        let found = &cx.found;
        if self.shared.has_globals() {
            self.shared_names(i, w, ms);
        }
        if flags.has(crate::isa::Flags::CALL) {
            // The callee, the first plain name (a register's name, for an
            // indirect call, is no function and counts nothing).
            let callee = i.operands.iter().find_map(|o| match o {
                Operand::Expr(Expr::Name(n, _)) => Some(*n),
                _ => None,
            });
            if let Some(n) = callee {
                self.shared.call(n);
            }
            // The roles first (what the callee or function pointer may be),
            // then the call's own checks (callee, argument counts).
            self.operands(cx, w, ms);
            return self.call(i, w, ms);
        }
        // Vector operands whose names the operand check looked up and
        // reported itself.
        let handled = self.operands(cx, w, ms);
        let branch = flags.has(crate::isa::Flags::BRANCH);
        // Bracketed operands so far: the `k`th goes with the `k`th state
        // space written on the instruction.
        let mut brackets = 0usize;
        for (k, (o, found)) in i.operands.iter().zip(found).enumerate() {
            let ordinal = brackets;
            if matches!(o, Operand::Tuple { .. } | Operand::Address { .. }) {
                brackets = brackets.saturating_add(1);
            }
            if k < 32 && handled & (1 << k) != 0 {
                // Checked for names by the operand check; not for constants.
                if let Some(d) = super::const_div::in_operand(o) {
                    self.emit(d);
                }
                continue;
            }
            let (Operand::Expr(Expr::Name(n, sp)), Some(found)) = (o, found) else {
                if let Operand::Address { addr, .. } = o {
                    self.address_base(i, addr, ordinal, w, ms);
                }
                self.operand_names(o, w, ms);
                continue;
            };
            if !branch {
                // Declared (the common case): nothing to report.
                if found.decl.is_none() {
                    self.name_found(*n, *sp, *found, w);
                }
            } else if found.decl.is_none() && !is_predefined(n.as_str()) {
                // Most such labels come further on: the message is made
                // only if the use stands.
                if found.settled {
                    self.emit(undefined_label(*n, *sp));
                } else {
                    let depth = w.stack.len();
                    w.held
                        .hold_later(Settle::DropIfLabel, *n, depth, *sp, undefined_label);
                }
            }
        }
    }

    /// `call{.uni} (rets), f, (args){, proto|targets}`. Its errors are
    /// reported at the `call` itself, with a label on the operand at
    /// fault: ptxas 13.5 names the line where the statement starts, and
    /// compilers write a call over several lines (`call.uni (retval0),`,
    /// the callee, then the arguments one a line).
    fn call(&mut self, i: &Instruction, w: &mut BodyWalk, ms: &ModuleScope) {
        let at = i.opcode_span;
        let mut lists = Vec::new();
        let mut list_items: smallvec::SmallVec<[&[Operand]; 2]> = smallvec::SmallVec::new();
        let mut callee: Option<(Name, Span)> = None;
        let mut rest = Vec::new();
        for o in &i.operands {
            match o {
                Operand::List { items, .. } => {
                    for it in items {
                        self.operand_names(it, w, ms);
                    }
                    lists.push(items.len());
                    list_items.push(items);
                }
                Operand::Expr(Expr::Name(n, sp)) if callee.is_none() => callee = Some((*n, *sp)),
                other => rest.push(other),
            }
        }
        for o in &rest {
            self.operand_names(o, w, ms);
        }
        // The body `.param`s this call returns into may be read from now on.
        if let Some(Operand::List { items, .. }) = i.operands.first() {
            for it in items {
                if let Operand::Expr(Expr::Name(n, _)) = it {
                    w.returned.insert(*n);
                }
            }
        }
        let Some((name, span)) = callee else { return };
        if let Some(f) = ms.callee(name) {
            if f.kernel {
                let d = Diagnostic::error(
                    Code::UndeclaredCallee,
                    at,
                    format!("`{name}` is a kernel; `call` needs a device function (`.func`)"),
                )
                .with_label(span, "the callee")
                .with_label(f.name_span, format!("`{name}` is declared here"));
                self.emit(d);
                return;
            }
            // Direct call: check counts. `call (r), f, (a)` has lists [rets, args];
            // `call f, (a)` has [args]; `call (r), f` has [rets].
            let ret_first = i
                .operands
                .first()
                .is_some_and(|o| matches!(o, Operand::List { .. }));
            let (rets, args) = match (ret_first, lists.as_slice()) {
                (true, [r, a, ..]) => (Some(*r), Some(*a)),
                (true, [r]) => (Some(*r), None),
                (false, [a, ..]) => (None, Some(*a)),
                _ => (None, None),
            };
            let want_rets = f.rets;
            let want_args = f.params;
            let mut problems = Vec::new();
            // Return values may not be left out either (ptxas 13.5: "Call
            // has wrong number of parameters").
            if rets.unwrap_or(0) != want_rets {
                problems.push(format!(
                    "{} return value(s) for {want_rets}",
                    rets.unwrap_or(0)
                ));
            }
            if args.unwrap_or(0) != want_args {
                problems.push(format!(
                    "{} argument(s) for {want_args} parameter(s)",
                    args.unwrap_or(0)
                ));
            }
            if !problems.is_empty() {
                let d = Diagnostic::error(
                    Code::CallArity,
                    at,
                    format!("call to `{name}` passes {}", problems.join(" and ")),
                )
                .with_label(span, "the callee")
                .with_label(f.name_span, format!("`{name}` is declared here"));
                self.emit(d);
                return;
            }
            // Each argument (and return value) of the type of its formal
            // parameter, as an instruction's operand is (ptxas 13.5: "Type
            // of argument does not match formal parameter").
            let formals = ms.formals(name).unwrap_or_default();
            let skip = if ret_first { 0 } else { want_rets };
            let whose = (name, f.name_span);
            self.argument_types(at, &list_items, formals, skip, whose, w, ms);
            return;
        }
        let found = w.lookup(ms, name);
        if let (
            Some(Decl {
                kind: Kind::Reg, ..
            }),
            true,
        ) = (found.decl, rest.is_empty())
        {
            let d = Diagnostic::error(
                Code::CallPrototype,
                at,
                format!("the indirect call through `{name}` names no prototype"),
            )
            .with_label(span, "the register called through")
            .with_note("after the arguments, name a `.callprototype` or `.calltargets` label: `call (r), %rd1, (a), proto;`");
            self.emit(d);
            return;
        }
        if let (
            Some(Decl {
                kind: Kind::Reg, ..
            }),
            Some(Operand::Expr(Expr::Name(p, psp))),
        ) = (found.decl, rest.last())
        {
            if let Some(&Proto {
                rets: want_rets,
                params: want_args,
                formals,
                at: proto_at,
            }) = w.protos.get(p)
            {
                // Through a prototype the counts are exact: leaving the
                // return values out is no exception (ptxas 13.5: "Call has
                // wrong number of parameters").
                let ret_first = matches!(i.operands.first(), Some(Operand::List { .. }));
                let (rets, args) = match (ret_first, lists.as_slice()) {
                    (true, [r, a, ..]) => (*r, *a),
                    (true, [r]) => (*r, 0),
                    (false, [a, ..]) => (0, *a),
                    _ => (0, 0),
                };
                if (rets, args) != (want_rets, want_args) {
                    self.emit(
                        Diagnostic::error(
                            Code::CallArity,
                            at,
                            format!(
                                "the call through `{name}` passes {rets} return value(s) and {args} argument(s); `{p}` takes {want_rets} and {want_args}"
                            ),
                        )
                        .with_label(*psp, "the prototype"),
                    );
                } else {
                    // The counts agree: each of the prototype's type, as
                    // for a direct call (ptxas 13.5 the same).
                    let formals = match formals {
                        ProtoFormals::Function(f) => ms.formals(f).unwrap_or_default(),
                        ProtoFormals::Body(at, len) => w
                            .proto_formals
                            .get(at..at.saturating_add(len))
                            .unwrap_or_default(),
                    };
                    self.argument_types(at, &list_items, formals, 0, (*p, proto_at), w, ms);
                }
            }
        }
        if found.decl.is_none() {
            let d = Diagnostic::error(Code::UndeclaredCallee, at, format!("call to `{name}`, which is not declared"))
                .with_label(span, "the callee")
                .with_note("declare the function before the call (a prototype such as `.extern .func …;` will do), or call through a register with a `.callprototype`");
            self.report(name, d, found, w);
        }
    }

    /// Each operand of the call's lists (return values, then arguments),
    /// against `formals` from `skip` on (without a list of return values
    /// the lists start at the parameters): a `.param` variable or register
    /// of a type compatible with its formal's (ptxas 13.5: "Type of
    /// argument does not match formal parameter"). `whose` names the
    /// function or prototype, and where it is declared; the errors are
    /// reported at `at`, the `call`.
    #[allow(clippy::too_many_arguments)]
    fn argument_types(
        &mut self,
        at: Span,
        lists: &[&[Operand]],
        formals: &[Option<crate::isa::vocab::ScalarType>],
        skip: usize,
        whose: (Name, Span),
        w: &BodyWalk,
        ms: &ModuleScope,
    ) {
        let given = lists.iter().flat_map(|l| l.iter());
        for (o, formal) in given.zip(formals.iter().skip(skip)) {
            let (Operand::Expr(Expr::Name(n, sp)), Some(formal)) = (o, formal) else {
                continue;
            };
            let Some(d) = w.lookup(ms, *n).decl else {
                continue;
            };
            let actual = match d.kind {
                Kind::Reg => d.ty,
                Kind::Var if d.space == Some(StateSpace::Param) => d.ty,
                _ => None,
            };
            if let Some(actual) = actual.filter(|a| !super::symbols::compatible(*formal, *a, false))
            {
                let (name, decl_at) = whose;
                self.emit(
                    Diagnostic::error(
                        Code::OperandType,
                        at,
                        format!(
                            "`{n}` is {actual}, which does not fit `{name}`'s {formal} parameter"
                        ),
                    )
                    .with_label(*sp, "the argument")
                    .with_label(decl_at, format!("`{name}` is declared here")),
                );
            }
        }
    }

    fn operand_names(&mut self, o: &Operand, w: &mut BodyWalk, ms: &ModuleScope) {
        o.for_each_name(&mut |n, sp| self.name_use(n, sp, w, ms));
        if let Some(d) = super::const_div::in_operand(o) {
            self.emit(d);
        }
    }

    pub(super) fn name_use(&mut self, n: Name, span: Span, w: &mut BodyWalk, ms: &ModuleScope) {
        let found = w.lookup(ms, n);
        self.name_found(n, span, found, w);
    }

    /// Report the use of `n` if its lookup found nothing and it is not a
    /// special register.
    pub(super) fn name_found(&mut self, n: Name, span: Span, found: Found, w: &mut BodyWalk) {
        if found.decl.is_some() || is_predefined(n.as_str()) {
            return;
        }
        // A register just past a `%r<N>` range gets a precise message.
        let beyond = w.range_beyond(n).map(|r| {
            let (prefix, count) = (r.name, r.count);
            let declares = if count == 0 {
                "which declares no register".to_string()
            } else {
                format!(
                    "which declares {prefix}0 to {}",
                    r.register(count.saturating_sub(1))
                )
            };
            Diagnostic::error(
                Code::OutOfRange,
                span,
                format!("`{n}` is outside `{prefix}<{count}>`, {declares}"),
            )
            .with_label(r.span, "range declared here")
        });
        let d = beyond.unwrap_or_else(|| super::symbols::undeclared(n, span));
        self.report(n, d, found, w);
    }
}

/// A branch to `n`, which no label of the function defines.
fn undefined_label(n: Name, span: Span) -> Diagnostic {
    Diagnostic::error(
        Code::UndefinedLabel,
        span,
        format!("label `{n}` is not defined in this function"),
    )
}
