//! The symbols of a module and every place each is named: the ground of
//! hover, go to definition, references, rename, highlights and symbols.
//!
//! Names are resolved by the library's one resolver
//! ([`ptxkit::syntax::scope`]), in the order the checker looks them up: a
//! register or variable in the innermost block that declares it (`%r<8>`
//! declares `%r0`…`%r7`, by ptxas's rules), then the function's
//! parameters, then its labels (each known in its whole block), then the
//! module's variables and functions.

use ptxkit::isa::vocab::{ScalarType, StateSpace};
use ptxkit::syntax::scope::Scope;
use ptxkit::syntax::{Block, Expr, Function, Initializer, Param, Stmt, VarDecl};
use ptxkit::{Item, Module, Name, Span};

/// What a symbol is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A `.reg` variable (register).
    Register,
    /// A variable in memory (`.global`, `.shared`, `.local`, `.const`, a
    /// local `.param`).
    Variable,
    /// A kernel or function parameter, or a function's return value.
    Param,
    /// A label (branch target, `.callprototype`, `.branchtargets`).
    Label,
    /// A device function.
    Function,
    /// A kernel.
    Kernel,
}

/// One declared symbol.
#[derive(Clone, Debug)]
pub struct Decl {
    /// Its name (for a register range, the prefix: `%r`).
    pub name: String,
    /// What it is.
    pub kind: Kind,
    /// Where its name is declared (the definition of a function with a
    /// body over an earlier prototype).
    pub name_span: Span,
    /// The whole declaration (statement, parameter or function header).
    pub decl_span: Span,
    /// Its type.
    pub ty: Option<ScalarType>,
    /// Its state space.
    pub space: Option<StateSpace>,
    /// `.v2`/`.v4` element count.
    pub vector: Option<u8>,
    /// For `%r<N>`: N.
    pub range: Option<u64>,
    /// The function it belongs to (index into [`Index::functions`]), or
    /// `None` at module scope.
    pub function: Option<usize>,
    /// Array dimensions written (`[4]`), for the hover.
    pub array: bool,
}

/// A place where a symbol is named.
#[derive(Clone, Copy, Debug)]
pub struct Occurrence {
    /// Where the name is.
    pub span: Span,
    /// The symbol (index into [`Index::decls`]).
    pub decl: u32,
    /// Whether this is a declaration of it.
    pub def: bool,
}

/// A function of the module with the symbols it declares.
#[derive(Clone, Debug)]
pub struct FunctionScope {
    /// The function's declaration.
    pub decl: u32,
    /// The whole function.
    pub span: Span,
    /// Its body, if it has one.
    pub body: Option<Span>,
    /// Its parameters, locals and labels.
    pub decls: Vec<u32>,
}

/// Every symbol and occurrence of a module.
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// The symbols.
    pub decls: Vec<Decl>,
    /// Their occurrences in source order.
    pub occurrences: Vec<Occurrence>,
    /// The functions in order.
    pub functions: Vec<FunctionScope>,
}

struct Builder<'s> {
    ix: Index,
    src: &'s [u8],
    /// The module's variables and functions.
    module: Scope<u32>,
    /// The parameters' scope, then one per open block.
    scopes: Vec<Scope<u32>>,
    /// The labels of each open block.
    labels: Vec<Scope<u32>>,
    function: Option<usize>,
}

/// The span of a name of `len` bytes at the start of `span`.
fn head(span: Span, name: Name) -> Span {
    Span::new(span.start, span.start + name.as_str().len() as u32)
}

impl Builder<'_> {
    fn decl(&mut self, d: Decl, def_at: Span) -> u32 {
        let id = self.ix.decls.len() as u32;
        self.ix.decls.push(d);
        self.ix.occurrences.push(Occurrence {
            span: def_at,
            decl: id,
            def: true,
        });
        if let Some(f) = self.function.and_then(|f| self.ix.functions.get_mut(f)) {
            f.decls.push(id);
        }
        id
    }

    fn var_decl(&mut self, v: &VarDecl) {
        let kind = if v.space == StateSpace::Reg {
            Kind::Register
        } else {
            Kind::Variable
        };
        for d in &v.decls {
            if let Some(init) = &d.init {
                self.initializer(init);
            }
            let id = self.decl(
                Decl {
                    name: d.name.as_str().to_string(),
                    kind,
                    name_span: d.name_span,
                    decl_span: v.span,
                    ty: Some(v.ty),
                    space: Some(v.space),
                    vector: v.vector,
                    range: d.range.map(|r| r.value),
                    function: self.function,
                    array: !d.dims.is_empty(),
                },
                d.name_span,
            );
            // A duplicate (the checker reports it) keeps the first.
            match (self.scopes.last_mut(), d.range) {
                (Some(s), Some(r)) => {
                    let _ = s.declare_range(d.name, r.value, d.name_span, id);
                }
                (Some(s), None) => {
                    let _ = s.declare(d.name, id);
                }
                (None, Some(r)) => {
                    let _ = self.module.declare_range(d.name, r.value, d.name_span, id);
                }
                (None, None) => {
                    let _ = self.module.declare(d.name, id);
                }
            }
        }
    }

    fn initializer(&mut self, init: &Initializer) {
        match init {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List { items, .. } => {
                for i in items.iter() {
                    self.initializer(i);
                }
            }
            Initializer::Field(f) => self.expr(&f.value),
            Initializer::Decimals(_) => {}
        }
    }

    fn expr(&mut self, e: &Expr) {
        e.for_each_name(&mut |n, sp| self.use_name(n, sp));
    }

    fn resolve(&self, n: Name) -> Option<u32> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.find(n))
            .or_else(|| self.labels.iter().rev().find_map(|s| s.find(n)))
            .or_else(|| self.module.find(n))
    }

    fn use_name(&mut self, n: Name, span: Span) {
        if n.is_sink() {
            return;
        }
        if let Some(id) = self.resolve(n) {
            self.ix.occurrences.push(Occurrence {
                span: head(span, n),
                decl: id,
                def: false,
            });
        }
    }

    fn param(&mut self, p: &Param) {
        if p.name.is_sink() {
            return;
        }
        let id = self.decl(
            Decl {
                name: p.name.as_str().to_string(),
                kind: Kind::Param,
                name_span: p.name_span,
                decl_span: p.span,
                ty: Some(p.ty),
                space: Some(p.space),
                vector: p.vector,
                range: None,
                function: self.function,
                array: !p.dims.is_empty(),
            },
            p.name_span,
        );
        if let Some(s) = self.scopes.last_mut() {
            let _ = s.declare(p.name, id);
        }
    }

    /// The labels `b` defines itself (not those of its nested blocks).
    fn labels(&mut self, b: &Block) {
        let mut scope = Scope::default();
        for s in &b.stmts {
            let (name, span) = match s {
                Stmt::Label(n, sp) => (*n, head(*sp, *n)),
                Stmt::CallPrototype(p) => (p.label, head(p.span, p.label)),
                Stmt::CallTargets(t) | Stmt::BranchTargets(t) => (t.label, head(t.span, t.label)),
                _ => continue,
            };
            let id = self.decl(
                Decl {
                    name: name.as_str().to_string(),
                    kind: Kind::Label,
                    name_span: span,
                    decl_span: s.span(),
                    ty: None,
                    space: None,
                    vector: None,
                    range: None,
                    function: self.function,
                    array: false,
                },
                span,
            );
            let _ = scope.declare(name, id);
        }
        self.labels.push(scope);
    }

    fn block(&mut self, b: &Block) {
        self.scopes.push(Scope::default());
        self.labels(b);
        for s in &b.stmts {
            match s {
                Stmt::Instruction(i) => {
                    if let Some(g) = &i.guard {
                        let len = g.pred.as_str().len() as u32;
                        self.use_name(
                            g.pred,
                            Span::new(g.span.end.saturating_sub(len), g.span.end),
                        );
                    }
                    for o in &i.operands {
                        o.for_each_name(&mut |n, sp| self.use_name(n, sp));
                    }
                }
                Stmt::Var(v) => self.var_decl(v),
                Stmt::Block(inner) => self.block(inner),
                Stmt::Function(f) => {
                    self.function_name(f);
                }
                Stmt::CallTargets(t) | Stmt::BranchTargets(t) => {
                    for (n, sp) in &t.targets {
                        self.use_name(*n, *sp);
                    }
                }
                _ => {}
            }
        }
        self.scopes.pop();
        self.labels.pop();
    }

    fn function(&mut self, f: &Function) {
        let id = self.function_name(f);
        self.function = Some(self.ix.functions.len());
        self.ix.functions.push(FunctionScope {
            decl: id,
            span: f.span,
            body: f.body.as_ref().map(|b| b.span),
            decls: Vec::new(),
        });
        self.scopes.push(Scope::default());
        for p in f.rets.iter().flatten().chain(f.params()) {
            self.param(p);
        }
        if let Some(b) = &f.body {
            self.block(b);
        }
        self.scopes.pop();
        self.function = None;
    }

    /// The module-scope symbol of function `f`, made at its first
    /// declaration (a prototype in a body included: ptxas declares it for
    /// the whole module from there).
    fn function_name(&mut self, f: &Function) -> u32 {
        let kind = if f.is_kernel() {
            Kind::Kernel
        } else {
            Kind::Function
        };
        let header_end = f.body.as_ref().map_or(f.span.end, |b| b.span.start);
        let header = Span::new(f.span.start, header_end);
        match self.module.get(f.name).copied() {
            Some(id) => {
                // A definition after its prototype: the definition is where
                // "go to definition" leads.
                if f.body.is_some() {
                    if let Some(d) = self.ix.decls.get_mut(id as usize) {
                        d.name_span = f.name_span;
                        d.decl_span = header;
                    }
                }
                self.ix.occurrences.push(Occurrence {
                    span: f.name_span,
                    decl: id,
                    def: true,
                });
                id
            }
            None => {
                let id = self.decl(
                    Decl {
                        name: f.name.as_str().to_string(),
                        kind,
                        name_span: f.name_span,
                        decl_span: header,
                        ty: None,
                        space: None,
                        vector: None,
                        range: None,
                        function: None,
                        array: false,
                    },
                    f.name_span,
                );
                self.module.replace(f.name, id);
                id
            }
        }
    }
}

impl Index {
    /// Index `m`, parsed from `src`.
    pub fn build(m: &Module, src: &[u8]) -> Index {
        let mut b = Builder {
            ix: Index::default(),
            src,
            module: Scope::default(),
            scopes: Vec::new(),
            labels: Vec::new(),
            function: None,
        };
        let _ = b.src;
        for item in &m.items {
            match item {
                Item::Var(v) => b.var_decl(v),
                Item::Function(f) => b.function(f),
                _ => {}
            }
        }
        b.ix.occurrences.sort_by_key(|o| o.span.start);
        b.ix
    }

    /// The occurrence at byte offset `off` (the cursor may be just after
    /// the name).
    pub fn at(&self, off: u32) -> Option<&Occurrence> {
        let i = self.occurrences.partition_point(|o| o.span.start <= off);
        let o = self.occurrences.get(i.checked_sub(1)?)?;
        (off <= o.span.end).then_some(o)
    }

    /// The symbol of an occurrence.
    pub fn decl(&self, id: u32) -> Option<&Decl> {
        self.decls.get(id as usize)
    }

    /// Every occurrence of the symbol of `o` spelled as `o` is (for a
    /// register of a range, that one register: `%r5`, not every `%rN`).
    pub fn same_symbol<'a>(
        &'a self,
        o: &Occurrence,
        src: &'a [u8],
    ) -> impl Iterator<Item = &'a Occurrence> + 'a {
        let text = o.span.slice(src).to_vec();
        let decl = o.decl;
        self.occurrences
            .iter()
            .filter(move |x| x.decl == decl && x.span.slice(src) == text.as_slice())
    }

    /// The function whose text holds `off`.
    pub fn function_at(&self, off: u32) -> Option<&FunctionScope> {
        self.functions
            .iter()
            .find(|f| f.span.start <= off && off <= f.span.end)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    /// A function declared in a body is a module symbol from there on:
    /// its calls in that body and in later ones lead to it, and its later
    /// definition is where "go to definition" goes.
    #[test]
    fn a_function_declared_in_a_body_is_a_module_symbol() {
        let src = ".version 8.0\n.target sm_90\n.address_size 64\n\
            .entry k() {\n  .param .b32 p;\n  .func h(.param .b32 a);\n  call h, (p);\n  ret;\n}\n\
            .entry k2() {\n  .param .b32 p;\n  call h, (p);\n  ret;\n}\n\
            .func h(.param .b32 a) {\n  ret;\n}\n";
        let m = ptxkit::parse(src.as_bytes());
        assert!(m.diagnostics.is_empty(), "{:?}", m.diagnostics);
        let ix = Index::build(&m.module, src.as_bytes());
        let at = |needle: &str, nth: usize| {
            let off = src.match_indices(needle).nth(nth).unwrap().0 as u32;
            ix.at(off + 1).unwrap().decl
        };
        let first = at("h(", 0);
        assert_eq!(at("h, (p)", 0), first);
        assert_eq!(at("h, (p)", 1), first);
        assert_eq!(at("h(", 1), first);
        let d = ix.decl(first).unwrap();
        assert_eq!(d.kind, Kind::Function);
        // The definition, the last of them.
        assert_eq!(d.name_span.start as usize, src.rfind("h(").unwrap());
        // Only the two kernels and the definition have scopes of their own.
        assert_eq!(ix.functions.len(), 3);
    }

    #[test]
    fn resolves_scopes_ranges_labels_and_functions() {
        let src = ".version 8.0\n.target sm_90\n.address_size 64\n\
            .global .u32 g;\n\
            .func f(.param .b32 x) {\n  ret;\n}\n\
            .visible .entry k(.param .u64 p) {\n  .reg .b32 %r<4>;\n  .reg .pred %p;\n\
            L1:\n  ld.param.u64 %rd, [p];\n  mov.b32 %r3, %r1;\n  @%p bra L1;\n\
            {\n  .reg .b32 %r1;\n  mov.b32 %r1, 0;\n }\n  ld.global.u32 %r2, [g];\n  ret;\n}\n";
        let m = ptxkit::parse(src.as_bytes());
        let ix = Index::build(&m.module, src.as_bytes());
        let at = |needle: &str, nth: usize| {
            let off = src.match_indices(needle).nth(nth).unwrap().0 as u32;
            ix.decl(ix.at(off + 1).unwrap().decl).unwrap().clone()
        };
        let r = at("%r1", 0);
        assert_eq!(
            (r.kind, r.name.as_str(), r.range),
            (Kind::Register, "%r", Some(4))
        );
        // The inner block's own %r1 hides the range.
        let inner = at("%r1", 2);
        assert_eq!(inner.range, None);
        assert_eq!(at("L1", 1).kind, Kind::Label);
        assert_eq!(at("[p]", 0).kind, Kind::Param);
        assert_eq!(at("[g]", 0).kind, Kind::Variable);
        assert_eq!(at("%p ", 0).ty, Some(ScalarType::Pred));
        assert_eq!(ix.functions.len(), 2);
        // `%rd` is not declared: no occurrence.
        let rd = src.find("%rd").unwrap() as u32;
        assert!(ix.at(rd + 1).is_none());
    }

    /// The module the checker and the register analyses resolve in
    /// ptxkit's `tests/names.rs`: the index must agree with them.
    #[test]
    fn agrees_with_the_checker_and_the_analyses() {
        let src = include_str!("../../ptxkit/tests/data/names/tricky.ptx");
        let m = ptxkit::parse(src.as_bytes());
        let ix = Index::build(&m.module, src.as_bytes());
        let at = |needle: &str, nth: usize| {
            let off = src.match_indices(needle).nth(nth).unwrap().0 as u32;
            ix.at(off + 1).and_then(|o| ix.decl(o.decl)).cloned()
        };
        // `%q01` is register 1 of `%q<3>`; `%v20` and `%q3` are nothing.
        let q01 = at("%q01", 0).unwrap();
        assert_eq!((q01.name.as_str(), q01.range), ("%q", Some(3)));
        assert!(at("%v20", 0).is_none());
        assert!(at("%q3", 0).is_none());
        // The inner block's `%q1` hides the range's register.
        let inner = at("%q1,", 0).unwrap();
        assert_eq!((inner.range, inner.ty), (None, Some(ScalarType::B64)));
        // After the block, `%q01` is the range's again; `L` is a label
        // used before its definition.
        assert_eq!(at("%q01", 1).unwrap().range, Some(3));
        assert_eq!(at("L;", 0).unwrap().kind, Kind::Label);
    }
}
