//! Symbols: every name an instruction uses must be declared — a register,
//! variable or parameter in an enclosing scope, a label of the function, a
//! module-scope variable or function, or a special register. Duplicate
//! declarations in one scope, branches to missing labels and calls to
//! undeclared functions are reported.

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::Checker;
use crate::diag::Diagnostic;
use crate::isa::vocab::ScalarType;
use crate::source::Span;
use crate::syntax::{
    Block, Expr, Function, Initializer, Instruction, Item, Name, Operand, Stmt, VarDecl,
};

/// Diagnostic codes of this pass.
pub mod codes {
    /// A name that is declared nowhere in scope.
    pub const UNDECLARED: &str = "E0401";
    /// A name declared twice in one scope.
    pub const DUPLICATE: &str = "E0402";
    /// A branch to a label the function does not define.
    pub const UNDEFINED_LABEL: &str = "E0403";
    /// A register beyond a `%r<N>` range.
    pub const OUT_OF_RANGE: &str = "E0404";
    /// A call to a function that is not declared.
    pub const UNDECLARED_CALLEE: &str = "E0601";
    /// A call whose argument or return count differs from the callee's.
    pub const CALL_ARITY: &str = "E0602";
    /// A register whose declared type does not fit the instruction type.
    pub const OPERAND_TYPE: &str = "E0703";
}

/// What a name denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A register (or `.reg` parameter).
    Reg,
    /// A variable in memory (global, shared, local, const, param).
    Var,
    /// A label (including `.callprototype`/`.calltargets`/`.branchtargets`).
    Label,
    /// A function.
    Func,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Decl {
    pub kind: Kind,
    pub span: Span,
    /// Declared type of a register (scalar, not vector).
    pub ty: Option<ScalarType>,
}

/// One scope: plain names and `%r<N>` ranges.
#[derive(Default)]
struct Scope {
    names: FxHashMap<Name, Decl>,
    ranges: Vec<Range>,
    /// Names already matched against `ranges`, found or not: a register is
    /// used many times, and matching its text is the checker's most
    /// frequent work. Cleared when a range is added.
    memo: std::cell::RefCell<FxHashMap<Name, Option<Decl>>>,
}

/// `%r<N>`: registers `%r0` to `%r{N-1}`.
struct Range {
    name: Name,
    /// The name's text, kept to match register names against it.
    prefix: Box<str>,
    count: u64,
    span: Span,
    ty: Option<ScalarType>,
}

impl Scope {
    fn add_range(&mut self, name: Name, count: u64, span: Span, ty: Option<ScalarType>) {
        self.memo.get_mut().clear();
        self.ranges.push(Range {
            name,
            prefix: name.as_str().into(),
            count,
            span,
            ty,
        });
    }

    fn find(&self, n: Name) -> Option<Decl> {
        if let Some(d) = self.names.get(&n) {
            return Some(*d);
        }
        if self.ranges.is_empty() {
            return None;
        }
        if let Some(d) = self.memo.borrow().get(&n) {
            return *d;
        }
        let d = self.find_in_ranges(n.as_bytes());
        self.memo.borrow_mut().insert(n, d);
        d
    }

    /// The range that declares register `s`, if any.
    fn find_in_ranges(&self, s: &[u8]) -> Option<Decl> {
        // Fast path: `%r17` against a range named `%r` (the digits split off).
        let digits = s.iter().rev().take_while(|b| b.is_ascii_digit()).count();
        if let Some((prefix, _)) = s.split_at_checked(s.len().saturating_sub(digits)) {
            if let Some(r) = self.ranges.iter().find(|r| r.prefix.as_bytes() == prefix) {
                if let Some(d) = r.covers(s) {
                    return Some(d);
                }
            }
        }
        self.ranges.iter().find_map(|r| r.covers(s))
    }
}

impl Range {
    /// The declaration of register `s` if this range declares it: the
    /// prefix, then a canonical index below the count.
    fn covers(&self, s: &[u8]) -> Option<Decl> {
        let idx = s.strip_prefix(self.prefix.as_bytes())?;
        let canonical = !idx.is_empty()
            && idx.iter().all(u8::is_ascii_digit)
            && (idx == b"0" || !idx.starts_with(b"0"));
        let value = std::str::from_utf8(idx)
            .ok()
            .and_then(|t| t.parse::<u64>().ok());
        (canonical && value.is_some_and(|i| i < self.count)).then_some(Decl {
            kind: Kind::Reg,
            span: self.span,
            ty: self.ty,
        })
    }
}

/// Special registers (spec chapter 10) and predefined constants.
pub fn is_predefined(name: &str) -> bool {
    const FIXED: &[&str] = &[
        "%tid",
        "%ntid",
        "%laneid",
        "%warpid",
        "%nwarpid",
        "%ctaid",
        "%nctaid",
        "%smid",
        "%nsmid",
        "%gridid",
        "%is_explicit_cluster",
        "%clusterid",
        "%nclusterid",
        "%cluster_ctaid",
        "%cluster_nctaid",
        "%cluster_ctarank",
        "%cluster_nctarank",
        "%lanemask_eq",
        "%lanemask_le",
        "%lanemask_lt",
        "%lanemask_ge",
        "%lanemask_gt",
        "%clock",
        "%clock_hi",
        "%clock64",
        "%globaltimer",
        "%globaltimer_lo",
        "%globaltimer_hi",
        "%reserved_smem_offset_begin",
        "%reserved_smem_offset_end",
        "%reserved_smem_offset_cap",
        "%total_smem_size",
        "%aggr_smem_size",
        "%dynamic_smem_size",
        "%current_graph_exec",
        "%perctamemoryoffset",
        "%perctamemorysize",
        "WARP_SZ",
        "_",
    ];
    if FIXED.contains(&name) {
        return true;
    }
    let numbered = |prefix: &str, max: u32| {
        name.strip_prefix(prefix)
            .and_then(|d| d.parse::<u32>().ok())
            .is_some_and(|d| d < max)
    };
    numbered("%envreg", 32)
        || numbered("%pm", 8)
        || name
            .strip_prefix("%pm")
            .and_then(|r| r.strip_suffix("_64"))
            .and_then(|d| d.parse::<u32>().ok())
            .is_some_and(|d| d < 8)
        || numbered("%reserved_smem_offset_", 2)
}

/// What a call needs to know of a function declared earlier.
#[derive(Clone, Copy, Debug)]
struct Callee {
    kernel: bool,
    name_span: Span,
    rets: usize,
    params: usize,
}

impl Callee {
    fn of(f: &Function) -> Callee {
        Callee {
            kernel: f.is_kernel(),
            name_span: f.name_span,
            rets: f.rets.as_ref().map_or(0, Vec::len),
            params: f.params.as_ref().map_or(0, Vec::len),
        }
    }
}

/// Module scope: the variables and functions declared so far. Like ptxas,
/// the checker reads a module in order, so a name must be declared before
/// it is used; the scope holds summaries, not the items, so a module can be
/// checked one item at a time and each item dropped after.
#[derive(Default)]
pub(super) struct ModuleScope {
    scope: Scope,
    funcs: FxHashMap<Name, Callee>,
    /// Where each defined (not `.extern`, not prototype) name was defined.
    defined: FxHashMap<Name, Span>,
}

impl Checker<'_> {
    /// Enter what a module-scope item declares into `ms`.
    pub(super) fn declare(&mut self, item: &Item, ms: &mut ModuleScope) {
        let ModuleScope {
            scope,
            funcs,
            defined,
        } = ms;
        match item {
            Item::Var(v) => {
                for d in &v.decls {
                    // Old PTX declares registers at module scope too.
                    if let Some(r) = &d.range {
                        scope.add_range(d.name, r.value, d.name_span, reg_type(v));
                        continue;
                    }
                    let extern_ = v.linkage == Some(crate::isa::vocab::Linkage::Extern);
                    if !extern_ {
                        if let Some(first) = defined.insert(d.name, d.name_span) {
                            self.duplicate(d.name, d.name_span, first);
                        }
                    }
                    scope.names.insert(
                        d.name,
                        Decl {
                            kind: Kind::Var,
                            span: d.name_span,
                            ty: None,
                        },
                    );
                }
            }
            Item::Function(f) => {
                if f.body.is_some() {
                    if let Some(first) = defined.insert(f.name, f.name_span) {
                        self.duplicate(f.name, f.name_span, first);
                    }
                }
                scope.names.insert(
                    f.name,
                    Decl {
                        kind: Kind::Func,
                        span: f.name_span,
                        ty: None,
                    },
                );
                // Prefer the definition (it has the parameter names).
                if f.body.is_some() || !funcs.contains_key(&f.name) {
                    funcs.insert(f.name, Callee::of(f));
                }
            }
            Item::Alias(a) => {
                scope.names.insert(
                    a.alias,
                    Decl {
                        kind: Kind::Func,
                        span: a.span,
                        ty: None,
                    },
                );
                if let Some(f) = funcs.get(&a.target).copied() {
                    funcs.insert(a.alias, f);
                }
            }
            Item::Section(s) => {
                for e in &s.entries {
                    if let crate::syntax::SectionEntry::Label(n, sp) = e {
                        scope.names.insert(
                            *n,
                            Decl {
                                kind: Kind::Label,
                                span: *sp,
                                ty: None,
                            },
                        );
                    }
                }
            }
            _ => {}
        }
    }

    fn duplicate(&mut self, name: Name, span: Span, first: Span) {
        let d = Diagnostic::error(
            codes::DUPLICATE,
            span,
            format!("`{name}` is declared twice in the same scope"),
        )
        .with_label(first, format!("`{name}` was first declared here"));
        self.diags.push(d);
    }

    /// Resolve the names used in the initializers of a module-scope variable.
    pub(super) fn check_initializers(&mut self, v: &VarDecl, ms: &ModuleScope) {
        for d in &v.decls {
            if let Some(init) = &d.init {
                self.init_names(init, ms);
            }
        }
    }

    fn init_names(&mut self, init: &Initializer, ms: &ModuleScope) {
        match init {
            Initializer::Expr(e) => self.expr_names(e, &[], ms, true),
            Initializer::List { items, .. } => {
                for i in items {
                    self.init_names(i, ms);
                }
            }
            // Sampler fields name enumerated values, not symbols.
            Initializer::Field(_) => {}
        }
    }

    /// Check one function's body.
    pub(super) fn check_function(&mut self, f: &Function, ms: &ModuleScope) {
        let Some(body) = &f.body else { return };
        let mut top = Scope::default();
        for p in f.rets.iter().flatten().chain(f.params()) {
            let kind = if p.space == crate::isa::vocab::StateSpace::Reg {
                Kind::Reg
            } else {
                Kind::Var
            };
            if let Some(first) = top.names.insert(
                p.name,
                Decl {
                    kind,
                    span: p.name_span,
                    ty: (kind == Kind::Reg && p.vector.is_none()).then_some(p.ty),
                },
            ) {
                self.duplicate(p.name, p.name_span, first.span);
            }
        }
        // Labels are visible in the whole function.
        let mut labels = Scope::default();
        self.collect_labels(body, &mut labels);
        let mut stack = vec![labels, top];
        self.block(body, &mut stack, ms);
    }

    fn collect_labels(&mut self, b: &Block, labels: &mut Scope) {
        for s in &b.stmts {
            let (name, span) = match s {
                Stmt::Label(n, sp) => (*n, *sp),
                Stmt::CallPrototype(c) => (c.label, c.span),
                Stmt::CallTargets(t) | Stmt::BranchTargets(t) => (t.label, t.span),
                Stmt::Block(inner) => {
                    self.collect_labels(inner, labels);
                    continue;
                }
                _ => continue,
            };
            if let Some(first) = labels.names.insert(
                name,
                Decl {
                    kind: Kind::Label,
                    span,
                    ty: None,
                },
            ) {
                self.duplicate(name, span, first.span);
            }
        }
    }

    /// Declare the names of `v` in `scope`, reporting duplicates.
    fn declare_vars(&mut self, v: &VarDecl, scope: &mut Scope) {
        let kind = if v.space == crate::isa::vocab::StateSpace::Reg {
            Kind::Reg
        } else {
            Kind::Var
        };
        for d in &v.decls {
            if let Some(r) = &d.range {
                if let Some(first) = scope
                    .ranges
                    .iter()
                    .find(|x| x.name == d.name)
                    .map(|x| x.span)
                {
                    self.duplicate(d.name, d.name_span, first);
                }
                scope.add_range(d.name, r.value, d.name_span, reg_type(v));
                continue;
            }
            if let Some(first) = scope.names.insert(
                d.name,
                Decl {
                    kind,
                    span: d.name_span,
                    ty: reg_type(v),
                },
            ) {
                self.duplicate(d.name, d.name_span, first.span);
            }
        }
        self.decl_rules(v);
    }

    /// Walk a block in order. As in ptxas, a register or variable is known
    /// from its declaration on (a use before it is undeclared); labels are
    /// known in the whole function.
    fn block(&mut self, b: &Block, stack: &mut Vec<Scope>, ms: &ModuleScope) {
        stack.push(Scope::default());
        // One walk for the symbol, gating and instruction rules.
        for s in &b.stmts {
            match s {
                Stmt::Var(v) => {
                    if let Some(scope) = stack.last_mut() {
                        self.declare_vars(v, scope);
                    }
                }
                Stmt::Instruction(i) => {
                    self.instruction(i, stack, ms);
                    self.gate_instruction(i);
                    self.instruction_rules(i);
                }
                Stmt::Block(inner) => self.block(inner, stack, ms),
                Stmt::CallTargets(t) => {
                    for (n, sp) in &t.targets {
                        if !ms.funcs.contains_key(n) {
                            self.diags.push(Diagnostic::error(
                                codes::UNDECLARED_CALLEE,
                                *sp,
                                format!("`{n}` in `.calltargets` is not a declared function"),
                            ));
                        }
                    }
                }
                Stmt::BranchTargets(t) => {
                    for (n, sp) in &t.targets {
                        if !matches!(
                            lookup(stack, ms, *n),
                            Some(Decl {
                                kind: Kind::Label,
                                ..
                            })
                        ) {
                            self.diags.push(Diagnostic::error(
                                codes::UNDEFINED_LABEL,
                                *sp,
                                format!("label `{n}` is not defined in this function"),
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
        stack.pop();
    }

    fn instruction(&mut self, i: &Instruction, stack: &[Scope], ms: &ModuleScope) {
        if let Some(g) = &i.guard {
            self.name_use(g.pred, g.span, stack, ms);
        }
        let class = super::opclass::class(i.opcode);
        if class.call {
            return self.call(i, stack, ms);
        }
        // Each plain-name operand is looked up once, for the type check and
        // the declaration check.
        let found: SmallVec<[Option<Decl>; 8]> = i
            .operands
            .iter()
            .map(|o| match o {
                Operand::Expr(Expr::Name(n, _)) => lookup(stack, ms, *n),
                _ => None,
            })
            .collect();
        self.operand_types(i, &found);
        let branch = class.branch;
        for (o, decl) in i.operands.iter().zip(&found) {
            let Operand::Expr(Expr::Name(n, sp)) = o else {
                self.operand_names(o, stack, ms);
                continue;
            };
            if !branch {
                self.name_found(*n, *sp, *decl, stack);
            } else if decl.is_none() && !is_predefined(n.as_str()) {
                self.diags.push(Diagnostic::error(
                    codes::UNDEFINED_LABEL,
                    *sp,
                    format!("label `{n}` is not defined in this function"),
                ));
            }
        }
    }

    /// `call{.uni} (rets), f, (args){, proto|targets}`.
    fn call(&mut self, i: &Instruction, stack: &[Scope], ms: &ModuleScope) {
        let mut lists = Vec::new();
        let mut callee: Option<(Name, Span)> = None;
        let mut rest = Vec::new();
        for o in &i.operands {
            match o {
                Operand::List { items, .. } => {
                    for it in items {
                        self.operand_names(it, stack, ms);
                    }
                    lists.push(items.len());
                }
                Operand::Expr(Expr::Name(n, sp)) if callee.is_none() => callee = Some((*n, *sp)),
                other => rest.push(other),
            }
        }
        for o in rest {
            self.operand_names(o, stack, ms);
        }
        let Some((name, span)) = callee else { return };
        if let Some(f) = ms.funcs.get(&name) {
            if f.kernel {
                let d = Diagnostic::error(
                    codes::UNDECLARED_CALLEE,
                    span,
                    format!("`{name}` is a kernel; `call` needs a device function (`.func`)"),
                )
                .with_label(f.name_span, format!("`{name}` is declared here"));
                self.diags.push(d);
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
            if rets.unwrap_or(0) != want_rets && !(rets.is_none() && want_rets > 0) {
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
                    codes::CALL_ARITY,
                    span,
                    format!("call to `{name}` passes {}", problems.join(" and ")),
                )
                .with_label(f.name_span, format!("`{name}` is declared here"));
                self.diags.push(d);
            }
            return;
        }
        match lookup(stack, ms, name) {
            Some(Decl {
                kind: Kind::Reg | Kind::Var,
                ..
            }) => {}
            Some(_) => {}
            None => {
                let d = Diagnostic::error(codes::UNDECLARED_CALLEE, span, format!("call to `{name}`, which is not declared"))
                    .with_note("declare the function before the call (a prototype such as `.extern .func …;` will do), or call through a register with a `.callprototype`");
                self.diags.push(d);
            }
        }
    }

    fn operand_names(&mut self, o: &Operand, stack: &[Scope], ms: &ModuleScope) {
        match o {
            Operand::Expr(e) => self.expr_names(e, stack, ms, false),
            Operand::Address { addr, .. } => self.expr_names(addr, stack, ms, false),
            Operand::Pair(p) => {
                self.operand_names(&p.first, stack, ms);
                self.expr_names(&p.second, stack, ms, false);
            }
            Operand::Tuple { items, .. }
            | Operand::Vector { items, .. }
            | Operand::List { items, .. } => {
                for it in items {
                    self.operand_names(it, stack, ms);
                }
            }
        }
    }

    fn expr_names(&mut self, e: &Expr, stack: &[Scope], ms: &ModuleScope, module_level: bool) {
        match e {
            Expr::Name(n, sp) => {
                if module_level {
                    if ms.scope.find(*n).is_none() && !is_predefined(n.as_str()) {
                        self.undeclared(*n, *sp);
                    }
                } else {
                    self.name_use(*n, *sp, stack, ms);
                }
            }
            Expr::Int(_) | Expr::Float(_) => {}
            Expr::Unary { expr, .. } | Expr::Paren(expr, _) | Expr::Generic(expr, _) => {
                self.expr_names(expr, stack, ms, module_level)
            }
            Expr::Mask(m) => self.expr_names(&m.expr, stack, ms, module_level),
            Expr::Binary(b) => {
                self.expr_names(&b.lhs, stack, ms, module_level);
                self.expr_names(&b.rhs, stack, ms, module_level);
            }
            Expr::Cond(c) => {
                self.expr_names(&c.cond, stack, ms, module_level);
                self.expr_names(&c.then, stack, ms, module_level);
                self.expr_names(&c.otherwise, stack, ms, module_level);
            }
            Expr::Index { base, index, .. } => {
                self.expr_names(base, stack, ms, module_level);
                self.expr_names(index, stack, ms, module_level);
            }
            Expr::Cast(c) => self.expr_names(&c.expr, stack, ms, module_level),
            Expr::Field(f) => self.expr_names(&f.base, stack, ms, module_level),
        }
    }

    fn name_use(&mut self, n: Name, span: Span, stack: &[Scope], ms: &ModuleScope) {
        let decl = lookup(stack, ms, n);
        self.name_found(n, span, decl, stack);
    }

    /// Report the use of `n` if `decl` (its lookup) found nothing and it is
    /// not a special register.
    fn name_found(&mut self, n: Name, span: Span, decl: Option<Decl>, stack: &[Scope]) {
        if decl.is_some() || is_predefined(n.as_str()) {
            return;
        }
        // A register just past a `%r<N>` range gets a precise message.
        let s = n.as_str();
        for scope in stack.iter().rev() {
            for Range {
                prefix,
                count,
                span: decl,
                ..
            } in &scope.ranges
            {
                if let Some(idx) = s
                    .strip_prefix(&**prefix)
                    .and_then(|d| d.parse::<u64>().ok())
                {
                    if idx >= *count {
                        let d = Diagnostic::error(codes::OUT_OF_RANGE, span, format!("`{n}` is outside `{prefix}<{count}>`, which declares {prefix}0 to {prefix}{}", count.saturating_sub(1)))
                            .with_label(*decl, "range declared here");
                        self.diags.push(d);
                        return;
                    }
                }
            }
        }
        self.undeclared(n, span);
    }

    fn undeclared(&mut self, n: Name, span: Span) {
        self.diags.push(
            Diagnostic::error(codes::UNDECLARED, span, format!("`{n}` is not declared"))
                .with_note("a name must be declared before its first use in the module"),
        );
    }
}

impl Checker<'_> {
    /// Register operands against the instruction type, for instructions
    /// whose operands all share one type (`OpClass::typed`).
    /// `found` holds the lookup of each operand that is a plain name.
    fn operand_types(&mut self, i: &Instruction, found: &[Option<Decl>]) {
        let class = super::opclass::class(i.opcode);
        let wide = super::opclass::wide();
        if !class.typed || i.mods.iter().any(|m| Some(m.id) == wide) {
            return;
        }
        let cat = crate::isa::catalog();
        let mut types = i.mods.iter().filter(|m| cat.is_type(m.id));
        let (Some(only), None) = (types.next(), types.next()) else {
            return;
        };
        let Some(ty) = &ScalarType::from_spelling(only.as_str()) else {
            return;
        };
        if i.mods.iter().any(|m| m.as_str().starts_with(".v")) {
            return;
        }
        let wider_ok = class.memory;
        for (o, decl) in i.operands.iter().zip(found) {
            let (n, span) = match o {
                Operand::Expr(Expr::Name(n, sp)) => (*n, *sp),
                _ => continue,
            };
            let Some(Decl {
                kind: Kind::Reg,
                ty: Some(reg),
                ..
            }) = *decl
            else {
                continue;
            };
            if reg == ScalarType::Pred || *ty == ScalarType::Pred {
                continue;
            }
            if !compatible(*ty, reg, wider_ok) {
                self.diags.push(
                    Diagnostic::error(
                        codes::OPERAND_TYPE,
                        span,
                        format!(
                            "`{n}` is a {reg} register, which `{}` cannot use",
                            super::inst_name(i)
                        ),
                    )
                    .with_note(format!(
                        "a {ty} operand takes a register of the same size: {ty} or .b{}{}",
                        ty.bits(),
                        if ty.is_float() {
                            ""
                        } else {
                            " (or the other signedness)"
                        }
                    )),
                );
            }
        }
    }
}

/// Whether a register of type `reg` may stand where the instruction type is `ty`.
fn compatible(ty: ScalarType, reg: ScalarType, wider_ok: bool) -> bool {
    let untyped = |t: ScalarType| {
        matches!(
            t,
            ScalarType::B8 | ScalarType::B16 | ScalarType::B32 | ScalarType::B64 | ScalarType::B128
        )
    };
    // `ld`/`st` may use a wider register: any untyped one, or an integer one for integer types.
    let wider =
        wider_ok && reg.bits() > ty.bits() && (untyped(reg) || (!ty.is_float() && !reg.is_float()));
    let size_ok = reg.bits() == ty.bits() || wider;
    if !size_ok {
        return false;
    }
    untyped(ty) || untyped(reg) || ty.is_float() == reg.is_float()
}

fn lookup(stack: &[Scope], ms: &ModuleScope, n: Name) -> Option<Decl> {
    stack
        .iter()
        .rev()
        .find_map(|s| s.find(n))
        .or_else(|| ms.scope.find(n))
}

/// The scalar type of a `.reg` declaration (`None` for vectors and other spaces).
fn reg_type(v: &crate::syntax::VarDecl) -> Option<ScalarType> {
    (v.space == crate::isa::vocab::StateSpace::Reg && v.vector.is_none()).then_some(v.ty)
}
