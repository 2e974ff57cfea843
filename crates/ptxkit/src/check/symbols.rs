//! Symbols: every name an instruction uses must be declared — a register,
//! variable or parameter in an enclosing scope, a label of the function, a
//! module-scope variable or function, or a special register. Duplicate
//! declarations in one scope, branches to missing labels and calls to
//! undeclared functions are reported.

use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::isa::vocab::ScalarType;
use crate::source::Span;
use crate::syntax::name_map::NameMap;
use crate::syntax::{BinOp, Expr, Function, Initializer, Item, Name, VarDecl};

/// What a name denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A register (or `.reg` parameter).
    Reg,
    /// A variable in memory (global, shared, local, const, param).
    Var,
    /// A label, of which sort.
    Label(LabelSort),
    /// A function.
    Func,
}

/// What a label names: ptxas takes each sort only where it is wanted (a
/// `bra` target is a plain label, `brx.idx`'s list a `.branchtargets` one,
/// an indirect `call`'s a `.calltargets` or `.callprototype` one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LabelSort {
    /// A label of an instruction (`L1:`) or of a `.section` entry.
    Plain,
    /// `L: .branchtargets …;`
    BranchTargets,
    /// `L: .calltargets …;` or `L: .callprototype …;`
    CallTargets,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Decl {
    pub kind: Kind,
    pub span: Span,
    /// Declared type of a register (scalar, not vector), or of a variable.
    pub ty: Option<ScalarType>,
    /// The state space of a variable.
    pub space: Option<crate::isa::vocab::StateSpace>,
    /// Whether a variable declared with dimensions (`buf[16]`, `buf[]`):
    /// only such a one takes an index (`buf[1]`).
    pub array: bool,
}

impl Decl {
    /// The declared type when this is a register declared with one.
    #[inline]
    pub(super) fn register_type(self) -> Option<ScalarType> {
        match self {
            Decl {
                kind: Kind::Reg,
                ty: Some(r),
                ..
            } => Some(r),
            _ => None,
        }
    }

    /// A declaration of `kind` at `span` with no type or space.
    pub(super) fn of(kind: Kind, span: Span) -> Decl {
        Decl {
            kind,
            span,
            ty: None,
            space: None,
            array: false,
        }
    }
}

/// One scope of the checker: the resolver's, each declaration summarised
/// as a [`Decl`].
pub(super) type Scope = crate::syntax::scope::Scope<Decl>;

/// The first declaration a new one clashes with, for the duplicate error.
pub(super) fn clash_span(c: crate::syntax::scope::Clash<'_, Decl>) -> Span {
    match c {
        crate::syntax::scope::Clash::Name(_, d) => d.span,
        crate::syntax::scope::Clash::Range(r) => r.span,
    }
}

/// Special registers (the catalog's `@sreg` entries, spec chapter 10) and
/// the predefined names `WARP_SZ` and `_` (see [`crate::syntax::scope`]).
pub fn is_predefined(name: &str) -> bool {
    crate::syntax::scope::is_predefined(name)
}

/// What a call needs to know of a function declared earlier.
#[derive(Clone, Copy, Debug)]
pub(super) struct Callee {
    pub(super) kernel: bool,
    /// The linkage written on the declaration.
    pub(super) linkage: Option<crate::isa::vocab::Linkage>,
    pub(super) name_span: Span,
    pub(super) rets: usize,
    pub(super) params: usize,
    /// The state space, type, vector width, alignment in effect and
    /// dimensions of each return and parameter, hashed: two prototypes of
    /// one function must agree on them (names aside).
    sig: u64,
    /// Where its return values' and parameters' types are in
    /// `ModuleScope::formals` (start, count).
    pub(super) formals: (u32, u32),
}

impl Callee {
    fn of(f: &Function) -> Callee {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        for p in f.rets.iter().flatten().chain(f.params()) {
            p.space.hash(&mut h);
            p.ty.hash(&mut h);
            p.vector.hash(&mut h);
            // The alignment in effect: written, or the element's size.
            let natural =
                p.ty.size_bytes()
                    .saturating_mul(u64::from(p.vector.unwrap_or(1)));
            p.align.map_or(natural, |a| a.value).hash(&mut h);
            for d in &p.dims {
                d.as_ref()
                    .and_then(crate::syntax::consteval::eval_int)
                    .hash(&mut h);
            }
            0xFFu8.hash(&mut h);
        }
        Callee {
            kernel: f.is_kernel(),
            linkage: f.linkage,
            name_span: f.name_span,
            rets: f.rets.as_ref().map_or(0, Vec::len),
            params: f.params.as_ref().map_or(0, Vec::len),
            sig: h.finish(),
            formals: (0, 0),
        }
    }

    /// How `self`'s prototype differs from `other`'s, if it does.
    pub(super) fn differs(&self, other: &Callee) -> Option<&'static str> {
        if (self.rets, self.params) != (other.rets, other.params) {
            Some("the number of parameters differs")
        } else if self.sig != other.sig {
            Some("the parameters' state spaces, types or alignments differ")
        } else {
            None
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
    funcs: NameMap<Callee>,
    /// Where each defined (not `.extern`, not prototype) name was defined.
    defined: NameMap<Span>,
    /// Functions declared without `.extern` and without a body, where
    /// first declared: each must be defined (or made an alias) in the
    /// module ([`Checker::unresolved_functions`]).
    /// (`None` once one is declared `.extern` or made an alias.)
    prototypes: NameMap<Option<Span>>,
    /// Each alias made so far, with the function it names.
    aliased: NameMap<Name>,
    /// The type of each return value and parameter of the functions
    /// declared so far, returns first, one run per function
    /// ([`Callee::formals`] says where; `None` for an array or a vector,
    /// which the argument check leaves alone): one byte a parameter.
    formals: Vec<Option<ScalarType>>,
}

impl ModuleScope {
    /// The module-scope declaration of `n`, if any.
    pub(super) fn find(&self, n: Name) -> Option<Decl> {
        self.scope.find(n)
    }

    /// Whether `n` is a function declared so far.
    pub(super) fn is_function(&self, n: Name) -> bool {
        self.funcs.contains_key(&n)
    }

    /// What a call needs of function `n`, if it is declared.
    pub(super) fn callee(&self, n: Name) -> Option<Callee> {
        self.funcs.get(&n).copied()
    }

    /// The types of function `n`'s return values then parameters.
    pub(super) fn formals(&self, n: Name) -> Option<&[Option<ScalarType>]> {
        let (at, len) = self.funcs.get(&n)?.formals;
        let at = usize::try_from(at).ok()?;
        self.formals
            .get(at..at.checked_add(usize::try_from(len).ok()?)?)
    }
}

/// A function declared and defined nowhere, ordered by where it is
/// declared.
struct Unresolved(Span, Name);

impl PartialEq for Unresolved {
    fn eq(&self, other: &Unresolved) -> bool {
        self.0.start == other.0.start
    }
}
impl Eq for Unresolved {}
impl PartialOrd for Unresolved {
    fn partial_cmp(&self, other: &Unresolved) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Unresolved {
    fn cmp(&self, other: &Unresolved) -> std::cmp::Ordering {
        self.0.start.cmp(&other.0.start)
    }
}

impl Checker<'_> {
    /// Enter the names a module-scope variable declaration declares.
    pub(super) fn declare_var(&mut self, v: &VarDecl, ms: &mut ModuleScope) {
        let ModuleScope {
            scope,
            defined,
            funcs,
            ..
        } = ms;
        for d in &v.decls {
            // A variable named like a function declared before, defined
            // or not (ptxas 13.5: "Inconsistent redefinition of variable").
            if let Some(f) = funcs
                .get(&d.name)
                .filter(|_| !defined.contains_key(&d.name))
            {
                self.duplicate(d.name, d.name_span, f.name_span);
            }
            let decl = declarator_decl(v, d);
            // Old PTX declares registers at module scope too.
            if let Some(r) = &d.range {
                if let Err(c) = scope.declare_range(d.name, r.value, d.name_span, decl) {
                    let first = clash_span(c);
                    self.duplicate(d.name, d.name_span, first);
                }
                continue;
            }
            let extern_ = v.linkage == Some(crate::isa::vocab::Linkage::Extern);
            if !extern_ {
                if let Some(first) = defined.insert(d.name, d.name_span) {
                    self.duplicate(d.name, d.name_span, first);
                }
            }
            scope.replace(d.name, decl);
        }
    }

    /// Enter what a module-scope item declares into `ms`.
    pub(super) fn declare(&mut self, item: &Item, ms: &mut ModuleScope) {
        let ModuleScope {
            scope,
            funcs,
            defined,
            prototypes,
            aliased,
            ..
        } = ms;
        match item {
            Item::Var(v) => self.declare_var(v, ms),
            Item::Function(f) => self.declare_function(f, ms),
            Item::Alias(a) => {
                let why = super::aliases::problem(a, funcs, defined, scope, aliased);
                aliased.insert_new(a.alias, a.target);
                if let Some(p) = prototypes.get_mut(&a.alias) {
                    *p = None;
                }
                if let Some(why) = why {
                    self.diags
                        .push(Diagnostic::error(Code::Duplicate, a.span, why));
                }
                scope.replace(a.alias, Decl::of(Kind::Func, a.span));
                if let Some(f) = funcs.get(&a.target).copied() {
                    funcs.insert(a.alias, f);
                }
            }
            Item::Section(s) => {
                for e in &s.entries {
                    if let crate::syntax::SectionEntry::Label(n, sp) = e {
                        // Labels of every section share one namespace
                        // (ptxas 13.5: "Duplicate definition of label");
                        // a variable or function of the name does not
                        // clash.
                        if let Some(Decl {
                            kind: Kind::Label(_),
                            span: first,
                            ..
                        }) = scope.get(*n).copied()
                        {
                            self.duplicate(*n, *sp, first);
                        }
                        scope.replace(*n, Decl::of(Kind::Label(LabelSort::Plain), *sp));
                    }
                }
            }
            _ => {}
        }
    }

    /// Enter a function (declared or defined) into `ms`.
    pub(super) fn declare_function(&mut self, f: &Function, ms: &mut ModuleScope) {
        let ModuleScope {
            scope,
            funcs,
            defined,
            prototypes,
            formals,
            ..
        } = ms;
        let this = Callee::of(f);
        // (Once declared `.extern` anywhere, the function is left to the
        // linkage rules.)
        if f.linkage == Some(crate::isa::vocab::Linkage::Extern) {
            if let Some(p) = prototypes.get_mut(&f.name) {
                *p = None;
            }
        } else if f.body.is_none() && !funcs.contains_key(&f.name) {
            prototypes.insert(f.name, Some(f.name_span));
        }
        if let Some(why) = funcs.get(&f.name).and_then(|prev| this.differs(prev)) {
            let first = funcs.get(&f.name).map_or(f.name_span, |p| p.name_span);
            self.emit(
                Diagnostic::error(
                    Code::Duplicate,
                    f.name_span,
                    format!(
                        "`{}` is declared again with another prototype: {why}",
                        f.name
                    ),
                )
                .with_label(first, "declared here before"),
            );
        }
        if let Some(prev) = funcs.get(&f.name) {
            self.linkage_agrees(f, prev);
        }
        if f.body.is_some() {
            if let Some(first) = defined.insert(f.name, f.name_span) {
                self.duplicate(f.name, f.name_span, first);
            }
        } else if let Some(first) = defined.get(&f.name).copied() {
            // A prototype after the definition (ptxas 13.5: "Duplicate
            // definition of function").
            self.duplicate(f.name, f.name_span, first);
        }
        scope.replace(f.name, Decl::of(Kind::Func, f.name_span));
        // Prefer the definition (it has the parameter names).
        if f.body.is_some() || !funcs.contains_key(&f.name) {
            let at = u32::try_from(formals.len()).unwrap_or(u32::MAX);
            formals.extend(
                f.rets
                    .iter()
                    .flatten()
                    .chain(f.params())
                    .map(super::body::formal_type),
            );
            let len = u32::try_from(formals.len())
                .unwrap_or(u32::MAX)
                .saturating_sub(at);
            funcs.insert(
                f.name,
                Callee {
                    formals: (at, len),
                    ..this
                },
            );
        }
    }

    /// At the end of the module: a function declared without `.extern`
    /// is defined in it (ptxas 13.5, with `-c` too: "Unresolved extern
    /// function", naming no line; reported at the first declaration).
    /// Past the error cap ([`super::ModuleChecker::with_max_errors`]) they
    /// are counted, not made: a million prototypes make no million
    /// diagnostics in memory.
    pub(super) fn unresolved_functions(&mut self, ms: &ModuleScope) {
        let unresolved = ms
            .prototypes
            .iter()
            .filter_map(|(n, s)| s.map(|s| (*n, s)))
            .filter(|(n, _)| !ms.defined.contains_key(n))
            // Named like a special register: refused as it is declared,
            // and ptxas says no more of it.
            .filter(|(n, _)| crate::isa::catalog().special_register(n.as_str()).is_none());
        // The first `hold_cap` in source order, kept in a heap whose top is
        // the last of them: the others are only counted.
        let mut left: Vec<(Name, Span)> = if self.hold_cap == 0 {
            unresolved.collect()
        } else {
            let mut heap = std::collections::BinaryHeap::new();
            for (n, span) in unresolved {
                heap.push(Unresolved(span, n));
                if heap.len() > self.hold_cap {
                    heap.pop();
                    self.uncounted = self.uncounted.saturating_add(1);
                }
            }
            heap.into_iter().map(|Unresolved(s, n)| (n, s)).collect()
        };
        left.sort_by_key(|(_, s)| s.start);
        for (n, span) in left {
            self.emit(
                Diagnostic::error(
                    Code::Unresolved,
                    span,
                    format!("`{n}` is declared here but defined nowhere in the module"),
                )
                .with_note("a function declared without `.extern` is defined in its own module; write `.extern` if another module defines it"),
            );
        }
    }

    /// A function declared again says the linkage it was declared with
    /// before, or none after `.visible` or `.weak` (ptxas 13.5,
    /// tests/data/names/function_linkage.ptx: "Inconsistent redefinition
    /// of variable"). A body after `.extern` is `function_linkage`'s.
    fn linkage_agrees(&mut self, f: &Function, prev: &Callee) {
        use crate::isa::vocab::Linkage;
        let ok = f.linkage == prev.linkage
            || (f.linkage.is_none()
                && matches!(prev.linkage, Some(Linkage::Visible | Linkage::Weak)));
        if ok || (f.body.is_some() && prev.linkage == Some(Linkage::Extern)) {
            return;
        }
        let say = |l: Option<Linkage>| {
            l.map_or("no linkage".to_string(), |l| format!("`{}`", l.as_str()))
        };
        self.emit(
            Diagnostic::error(
                Code::Linkage,
                f.name_span,
                format!(
                    "`{}` is declared here with {}, before with {}",
                    f.name,
                    say(f.linkage),
                    say(prev.linkage)
                ),
            )
            .with_label(prev.name_span, "declared here before")
            .with_note("every declaration of a function repeats its linkage; after `.visible` or `.weak` one may also leave it out"),
        );
    }

    pub(super) fn duplicate(&mut self, name: Name, span: Span, first: Span) {
        let d = Diagnostic::error(
            Code::Duplicate,
            span,
            format!("`{name}` is declared twice in the same scope"),
        )
        .with_label(first, format!("`{name}` was first declared here"));
        self.emit(d);
    }

    /// Resolve the names used in the initializers of a module-scope variable.
    pub(super) fn check_initializers(&mut self, v: &VarDecl, ms: &ModuleScope) {
        self.check_initializers_of(&v.decls, ms);
    }

    /// [`Checker::check_initializers`] of some declarators.
    pub(super) fn check_initializers_of(
        &mut self,
        decls: &[crate::syntax::Declarator],
        ms: &ModuleScope,
    ) {
        for d in decls {
            if let Some(init) = &d.init {
                self.init_names(init, ms);
            }
        }
    }

    /// A function's address stands alone in an initializer: `f+4` is
    /// "Initial value type mismatch" to ptxas 13.5 (module scope and
    /// function scope alike).
    pub(super) fn function_offset(&mut self, e: &Expr, ms: &ModuleScope) {
        let Expr::Binary(b) = e else { return };
        let Expr::Name(n, sp) = &b.lhs else { return };
        if b.op != BinOp::Add || !ms.scope.find(*n).is_some_and(|d| d.kind == Kind::Func) {
            return;
        }
        self.emit(
            Diagnostic::error(
                Code::InitKind,
                *sp,
                format!("initial value type mismatch: `{n}` is a function, whose address takes no offset"),
            )
            .with_note(format!("write `{n}` alone")),
        );
    }

    /// [`Checker::function_offset`] over every value of `init`.
    pub(super) fn init_function_offsets(&mut self, init: &Initializer, ms: &ModuleScope) {
        match init {
            Initializer::Expr(e) => self.function_offset(e, ms),
            Initializer::List { items, .. } => {
                for i in items {
                    self.init_function_offsets(i, ms);
                }
            }
            Initializer::Field(_) | Initializer::Decimals(_) => {}
        }
    }

    fn init_names(&mut self, init: &Initializer, ms: &ModuleScope) {
        match init {
            Initializer::List { items, .. } => {
                for i in items {
                    self.init_names(i, ms);
                }
            }
            leaf => self.init_item_names(leaf, ms),
        }
    }

    /// The names of one item of an initializer (a list's items one by
    /// one: see [`Checker::init_names`]).
    pub(super) fn init_item_names(&mut self, init: &Initializer, ms: &ModuleScope) {
        match init {
            Initializer::Expr(e) => {
                e.for_each_name(&mut |n, sp| {
                    if ms.scope.find(n).is_none() && !is_predefined(n.as_str()) {
                        self.emit(undeclared(n, sp));
                    }
                });
                if let Some(d) = super::const_div::in_expr(e) {
                    self.emit(d);
                }
                self.function_offset(e, ms);
            }
            Initializer::List { .. } => self.init_names(init, ms),
            // Sampler fields name enumerated values, not symbols; numbers
            // name nothing.
            Initializer::Field(_) | Initializer::Decimals(_) => {}
        }
    }
}

/// The error for a use of `n`, which nothing declares.
pub(super) fn undeclared(n: Name, span: Span) -> Diagnostic {
    Diagnostic::error(Code::Undeclared, span, format!("`{n}` is not declared"))
        .with_note("a name must be declared before its first use in the module")
}

/// Whether a register of type `reg` may stand where the instruction type is `ty`.
pub(super) fn compatible(ty: ScalarType, reg: ScalarType, wider_ok: bool) -> bool {
    let untyped = |t: ScalarType| {
        matches!(
            t,
            ScalarType::B8 | ScalarType::B16 | ScalarType::B32 | ScalarType::B64 | ScalarType::B128
        )
    };
    // `ld`/`st` may use a wider register: any register for an untyped
    // type, an untyped one for any type, an integer one for integer types.
    // ptxas reads an `.f16x2` register as 32 plain bits for an integer
    // type (`add.s32 %r1, %hh1, %hh2`, `ld.u16 %hh1, [a]`; probed), though
    // not for a float one.
    // The packed integer types take a `.b32` register (or an `.f16x2`
    // one), never a `.u32`, `.s32` or `.f32` one (ptxas 13.5, "Arguments
    // mismatch": `min.s16x2 %r1, %s2, %r3`, `add.u16x2 … %u3`); so do the
    // packed bytes (`neg.s8x4 %r1, %s2`, `set.eq.u8x4 %r1, %r2, %u3`).
    if matches!(
        ty,
        ScalarType::U16x2 | ScalarType::S16x2 | ScalarType::U8x4 | ScalarType::S8x4
    ) {
        let size_ok = reg.bits() == ty.bits() || (wider_ok && reg.bits() > ty.bits());
        return reg == ty || (size_ok && (untyped(reg) || reg == ScalarType::F16x2));
    }
    let packed = reg == ScalarType::F16x2 && !ty.is_float();
    let wider = wider_ok
        && reg.bits() > ty.bits()
        && (untyped(reg) || untyped(ty) || packed || (!ty.is_float() && !reg.is_float()));
    let size_ok = reg.bits() == ty.bits() || wider;
    if !size_ok {
        return false;
    }
    // A float register fits only its own float type: ptxas refuses an
    // .f32 register for .f16x2, .bf16x2 or .tf32 and an .f16x2 one for
    // .f32 ("Arguments mismatch"); .bN registers fit any type of their size.
    // A packed register (.f16x2) also fits an integer type of its size, as
    // a .b32 one would (`set.gtu.u32.f16x2 h, …`, `mul.lo.u32 h, h, h`,
    // `cvt.f32.u32 f, h`), though an integer register does not fit the
    // packed type (ptxas 13.5).
    untyped(ty)
        || untyped(reg)
        || packed
        || (ty.is_float() == reg.is_float() && (!ty.is_float() || ty == reg))
        || (reg.is_packed() && ty.is_integer())
}

/// What declarator `d` of `v` declares, in a module or in a function: a
/// register (each of a range `%r<N>`, or a name declared in `.reg`: old
/// PTX declares those at module scope too) with the declaration's scalar
/// type, or a variable of the declaration's state space. A variable's type
/// tells a texture handle from other data; old `.tex` variables (`.tex
/// .u32 t;`) are handles of any type, so theirs is left unknown.
pub(super) fn declarator_decl(v: &VarDecl, d: &crate::syntax::Declarator) -> Decl {
    use crate::isa::vocab::StateSpace;
    // A range in another space than `.reg` (`.global .b32 %g<4>;`)
    // declares variables, each named as a register of a range is: ptxas
    // 13.5 takes their addresses (`[%g1]`) and refuses them where a
    // register goes ("must be register").
    let (kind, ty) = if v.space == StateSpace::Reg {
        (Kind::Reg, reg_type(v))
    } else {
        (Kind::Var, (v.space != StateSpace::Tex).then_some(v.ty))
    };
    Decl {
        kind,
        span: d.name_span,
        ty,
        // A range's registers carry no space (a register found in one is
        // told apart from a variable by its kind alone).
        space: (d.range.is_none() || kind == Kind::Var).then_some(v.space),
        array: d.range.is_none() && !d.dims.is_empty(),
    }
}

/// The scalar type of a `.reg` declaration (`None` for vectors and other spaces).
pub(super) fn reg_type(v: &crate::syntax::VarDecl) -> Option<ScalarType> {
    (v.space == crate::isa::vocab::StateSpace::Reg && v.vector.is_none()).then_some(v.ty)
}
