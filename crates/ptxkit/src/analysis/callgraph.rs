//! The call graph of a module: direct calls by name, indirect calls through
//! `.calltargets` lists, call tables and `.callprototype`s, and recursion.
//!
//! An indirect call that names a `.calltargets` list (or a module variable
//! whose initializer lists functions: a call table) gets an edge to each
//! listed function. One that names only a `.callprototype` may reach any
//! function whose address is taken (used as a value outside a call, or in an
//! initializer) and whose parameter and return sizes match the prototype;
//! an edge goes to each such candidate, and the call is reported as
//! unresolved when there is none. Functions in a strongly connected
//! component with more than one function, or calling themselves, are
//! recursive.

use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;

use super::facts;
use super::params::param_summary;
use super::regs::{expr_names, operand_names};
use crate::isa::{Flags, Kinds};
use crate::source::LineIndex;
use crate::syntax::{
    Block, CallPrototype, Function, Initializer, Instruction, Item, Module, Name, Param, Stmt,
};

/// How a call reaches its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CallKind {
    /// `call f, …`: the function is named.
    Direct,
    /// `call %rd, …, list`: through a register.
    Indirect,
}

/// A function of the graph.
#[derive(Clone, Debug, Serialize)]
pub struct CgNode {
    /// The name.
    pub name: String,
    /// Its readable C++ name when the name is mangled ([`crate::demangle()`]).
    pub demangled: Option<String>,
    /// Whether a kernel.
    pub kernel: bool,
    /// Whether only declared in this module (no body).
    pub declaration: bool,
    /// Whether its address is taken.
    pub address_taken: bool,
    /// Whether it can call itself, directly or through others.
    pub recursive: bool,
}

/// Calls from one function to another.
#[derive(Clone, Debug, Serialize)]
pub struct CgEdge {
    /// Caller (index in [`CallGraph::nodes`]).
    pub from: usize,
    /// Callee.
    pub to: usize,
    /// Direct or indirect.
    pub kind: CallKind,
    /// For indirect calls: the `.calltargets` list, call table or prototype used.
    pub via: Option<String>,
    /// Number of call instructions.
    pub calls: usize,
    /// Source line of each call; for an indirect edge, of its first
    /// [`MAX_INDIRECT_LINES`] calls (`calls` counts them all).
    pub lines: Vec<u32>,
    /// Whether the edge lies on a cycle (caller and callee are in the same
    /// strongly connected component).
    pub recursive: bool,
}

/// An indirect call whose possible targets are unknown.
#[derive(Clone, Debug, Serialize)]
pub struct UnresolvedCall {
    /// Caller.
    pub from: usize,
    /// The list, table or prototype named, if any.
    pub via: Option<String>,
    /// Source line.
    pub line: u32,
}

/// The call graph.
#[derive(Clone, Debug, Serialize)]
pub struct CallGraph {
    /// Functions, in module order (a declared-then-defined function once).
    pub nodes: Vec<CgNode>,
    /// Edges, grouped by caller.
    pub edges: Vec<CgEdge>,
    /// Indirect calls with no known target.
    pub unresolved: Vec<UnresolvedCall>,
    /// What [`CallGraph::build`] indexes once so that every query is linear
    /// in the graph, never in the graph times the number of queries.
    #[serde(skip)]
    index: Adjacency,
}

/// The graph's lookups: node by name, edges and distinct callees by caller,
/// and the strongly connected components callees first.
#[derive(Clone, Debug, Default)]
struct Adjacency {
    by_name: FxHashMap<String, usize>,
    /// `edges[edge_start[u]..edge_start[u + 1]]` are the edges from `u`.
    edge_start: Vec<usize>,
    /// Distinct callees of each node.
    succ: Vec<Vec<usize>>,
    /// The components, each a list of nodes, a component after every
    /// component it calls.
    bottom_up: Vec<Vec<usize>>,
}

impl Adjacency {
    fn new(nodes: &[CgNode], edges: &[CgEdge], comp: &[usize], order: &[usize]) -> Adjacency {
        let n = nodes.len();
        let mut by_name = FxHashMap::default();
        for (i, node) in nodes.iter().enumerate() {
            by_name.entry(node.name.clone()).or_insert(i);
        }
        let mut edge_start = vec![0usize; n.saturating_add(1)];
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
        for e in edges {
            if let Some(c) = edge_start.get_mut(e.from.saturating_add(1)) {
                *c = c.saturating_add(1);
            }
            if let Some(s) = succ.get_mut(e.from) {
                s.push(e.to);
            }
        }
        for i in 1..edge_start.len() {
            let prev = edge_start.get(i.saturating_sub(1)).copied().unwrap_or(0);
            if let Some(c) = edge_start.get_mut(i) {
                *c = c.saturating_add(prev);
            }
        }
        for s in &mut succ {
            s.sort_unstable();
            s.dedup();
        }
        // `order` lists the component roots callers first; reversed, every
        // component comes after the ones it calls.
        let mut members: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
        for (u, &c) in comp.iter().enumerate() {
            members.entry(c).or_default().push(u);
        }
        let bottom_up = order
            .iter()
            .rev()
            .filter_map(|root| members.remove(root))
            .collect();
        Adjacency {
            by_name,
            edge_start,
            succ,
            bottom_up,
        }
    }
}

/// A parameter list's sizes, for matching prototypes.
fn sizes(ps: Option<&[Param]>) -> Vec<u64> {
    ps.unwrap_or_default()
        .iter()
        .map(|p| param_summary(p).bytes)
        .collect()
}

/// The most call lines an indirect edge lists. Each indirect call may
/// reach every function whose address is taken: a body of N calls through
/// one prototype matching N functions has N edges, and listing every line
/// on each would be N² lines.
pub const MAX_INDIRECT_LINES: usize = 256;

/// The indirect calls of one caller through one list, table or prototype
/// (`via`): the edge of each target the first such call counted on, with
/// how many times the target is listed (each call counts it that often),
/// how many later calls, and their first lines.
struct IndirectGroup {
    edges: Vec<(usize, usize)>,
    calls: usize,
    lines: Vec<u32>,
}

#[derive(Default)]
struct Scope<'a> {
    targets: FxHashMap<Name, Vec<Name>>,
    protos: FxHashMap<Name, &'a CallPrototype>,
    calls: Vec<&'a Instruction>,
}

fn scan<'a>(b: &'a Block, s: &mut Scope<'a>) {
    for st in &b.stmts {
        match st {
            Stmt::Instruction(i) if facts::flags(i).has(Flags::CALL) => s.calls.push(i),
            Stmt::CallTargets(t) => {
                s.targets
                    .insert(t.label, t.targets.iter().map(|(n, _)| *n).collect());
            }
            Stmt::CallPrototype(p) => {
                s.protos.insert(p.label, p);
            }
            Stmt::Block(inner) => scan(inner, s),
            _ => {}
        }
    }
}

fn init_names(i: &Initializer, f: &mut impl FnMut(Name)) {
    match i {
        Initializer::Expr(e) => expr_names(e, f),
        Initializer::Field(fi) => expr_names(&fi.value, f),
        Initializer::List { items, .. } => items.iter().for_each(|x| init_names(x, f)),
        Initializer::Decimals(_) => {}
    }
}

impl CallGraph {
    /// Build the call graph of `m`; `lines` indexes the source it was parsed from.
    pub fn build(m: &Module, lines: &LineIndex) -> CallGraph {
        let mut index: FxHashMap<Name, usize> = FxHashMap::default();
        let mut nodes: Vec<CgNode> = Vec::new();
        let mut funcs: Vec<Option<&Function>> = Vec::new();
        for f in m.functions() {
            match index.get(&f.name) {
                Some(&i) => {
                    if f.body.is_some() {
                        if let (Some(n), Some(slot)) = (nodes.get_mut(i), funcs.get_mut(i)) {
                            n.declaration = false;
                            *slot = Some(f);
                        }
                    }
                }
                None => {
                    index.insert(f.name, nodes.len());
                    nodes.push(CgNode {
                        name: f.name.to_string(),
                        demangled: crate::demangle(f.name.as_str()),
                        kernel: f.is_kernel(),
                        declaration: f.body.is_none(),
                        address_taken: false,
                        recursive: false,
                    });
                    funcs.push(Some(f));
                }
            }
        }
        for it in &m.items {
            if let Item::Alias(a) = it {
                if let Some(&t) = index.get(&a.target) {
                    index.insert(a.alias, t);
                }
            }
        }
        // Call tables: module variables initialised with function names.
        let mut tables: FxHashMap<Name, Vec<usize>> = FxHashMap::default();
        let mut taken: FxHashSet<usize> = FxHashSet::default();
        for v in m.globals() {
            for d in &v.decls {
                let mut fs = Vec::new();
                if let Some(init) = &d.init {
                    init_names(init, &mut |n| fs.extend(index.get(&n).copied()));
                }
                taken.extend(fs.iter().copied());
                if !fs.is_empty() {
                    tables.insert(d.name, fs);
                }
            }
        }
        let scopes: Vec<Scope> = funcs
            .iter()
            .map(|f| {
                let mut s = Scope::default();
                if let Some(b) = f.and_then(|f| f.body.as_ref()) {
                    scan(b, &mut s);
                    // Address-taken: function names used outside call targets.
                    for i in b.instructions() {
                        if facts::flags(i).has(Flags::CALL) {
                            continue;
                        }
                        for o in &i.operands {
                            operand_names(o, &mut |n| taken.extend(index.get(&n).copied()));
                        }
                    }
                }
                s
            })
            .collect();
        for t in &taken {
            if let Some(n) = nodes.get_mut(*t) {
                n.address_taken = true;
            }
        }
        // The address-taken functions by signature (return and parameter
        // sizes), each list in index order: what a call through a
        // prototype of that signature may reach.
        let mut by_sig: FxHashMap<(Vec<u64>, Vec<u64>), Vec<usize>> = FxHashMap::default();
        let mut taken_sorted: Vec<usize> = taken.iter().copied().collect();
        taken_sorted.sort_unstable();
        for &t in &taken_sorted {
            if let Some(f) = funcs.get(t).copied().flatten() {
                by_sig
                    .entry((sizes(f.rets.as_deref()), sizes(f.params.as_deref())))
                    .or_default()
                    .push(t);
            }
        }
        let mut groups: FxHashMap<(usize, Name), IndirectGroup> = FxHashMap::default();
        let mut edge_index: FxHashMap<(usize, usize, CallKind, Option<String>), usize> =
            FxHashMap::default();
        let mut edges: Vec<CgEdge> = Vec::new();
        let mut unresolved = Vec::new();
        for (from, s) in scopes.iter().enumerate() {
            for call in &s.calls {
                let line = lines.line_col(call.span.start).line;
                // The index of the edge the call is counted on.
                let mut add = |to: usize, kind: CallKind, via: Option<String>| -> usize {
                    let key = (from, to, kind, via.clone());
                    let e = match edge_index.get(&key) {
                        Some(&e) => e,
                        None => {
                            edge_index.insert(key, edges.len());
                            edges.push(CgEdge {
                                from,
                                to,
                                kind,
                                via,
                                calls: 0,
                                lines: Vec::new(),
                                recursive: false,
                            });
                            edges.len().saturating_sub(1)
                        }
                    };
                    if let Some(edge) = edges.get_mut(e) {
                        edge.calls = edge.calls.saturating_add(1);
                        edge.lines.push(line);
                    }
                    e
                };
                let roles = call.roles();
                // The operand of the role that takes this kind: a function
                // name (direct call), or a `.calltargets` / `.callprototype`
                // label (indirect call through a register).
                let taking = |kind: Kinds| {
                    roles
                        .iter()
                        .find(|(t, _)| facts::spec(t.spec).is_some_and(|s| s.kinds.has(kind)))
                        .and_then(|(_, o)| o.as_name())
                };
                if let Some(f) = taking(Kinds::FUNC) {
                    match index.get(&f) {
                        Some(&to) => {
                            add(to, CallKind::Direct, None);
                        }
                        None => unresolved.push(UnresolvedCall {
                            from,
                            via: Some(f.to_string()),
                            line,
                        }),
                    }
                    continue;
                }
                let list = taking(Kinds::PROTO);
                // A later call of the same caller through the same name
                // reaches the same functions: counted on its group.
                if let Some(g) = list.and_then(|l| groups.get_mut(&(from, l))) {
                    g.calls = g.calls.saturating_add(1);
                    if g.lines.len() < MAX_INDIRECT_LINES {
                        g.lines.push(line);
                    }
                    continue;
                }
                let via = list.map(|n| n.to_string());
                let targets: Vec<usize> = match list {
                    Some(l) if s.targets.contains_key(&l) => s
                        .targets
                        .get(&l)
                        .map(|v| v.iter().filter_map(|n| index.get(n).copied()).collect())
                        .unwrap_or_default(),
                    Some(l) if tables.contains_key(&l) => {
                        tables.get(&l).cloned().unwrap_or_default()
                    }
                    Some(l) => match s.protos.get(&l) {
                        Some(p) => {
                            let want = (sizes(p.rets.as_deref()), sizes(p.params.as_deref()));
                            by_sig.get(&want).cloned().unwrap_or_default()
                        }
                        None => Vec::new(),
                    },
                    None => Vec::new(),
                };
                if targets.is_empty() {
                    unresolved.push(UnresolvedCall {
                        from,
                        via: via.clone(),
                        line,
                    });
                    continue;
                }
                // Each edge once, in the order first met, with how often
                // its target is listed.
                let mut counted: Vec<(usize, usize)> = Vec::new();
                let mut at: FxHashMap<usize, usize> = FxHashMap::default();
                for t in targets {
                    let e = add(t, CallKind::Indirect, via.clone());
                    let k = *at.entry(e).or_insert(counted.len());
                    match counted.get_mut(k) {
                        Some((_, times)) => *times = times.saturating_add(1),
                        None => counted.push((e, 1)),
                    }
                }
                if let Some(l) = list {
                    groups.insert(
                        (from, l),
                        IndirectGroup {
                            edges: counted,
                            calls: 0,
                            lines: Vec::new(),
                        },
                    );
                }
            }
        }
        // The later calls of each group, on each of its edges.
        for g in groups.values() {
            for &(k, times) in &g.edges {
                let Some(e) = edges.get_mut(k) else { continue };
                e.calls = e.calls.saturating_add(g.calls.saturating_mul(times));
                let room = MAX_INDIRECT_LINES.saturating_sub(e.lines.len());
                let each = g.lines.iter().flat_map(|&l| std::iter::repeat_n(l, times));
                e.lines.extend(each.take(room));
            }
        }
        // Edges are grouped by caller: scopes are walked in node order.
        edges.sort_by_key(|e| e.from);
        let (comp, roots) = components(nodes.len(), &edges);
        let mut comp_size: FxHashMap<usize, usize> = FxHashMap::default();
        for &c in &comp {
            {
                let e = comp_size.entry(c).or_default();
                *e = e.saturating_add(1);
            }
        }
        for e in &mut edges {
            let (cf, ct) = (comp.get(e.from), comp.get(e.to));
            e.recursive = cf.is_some() && cf == ct;
            if e.recursive {
                for k in [e.from, e.to] {
                    if let Some(n) = nodes.get_mut(k) {
                        n.recursive = true;
                    }
                }
            }
        }
        let index = Adjacency::new(&nodes, &edges, &comp, &roots);
        CallGraph {
            nodes,
            edges,
            unresolved,
            index,
        }
    }

    /// Index of the function named `name`.
    pub fn node(&self, name: &str) -> Option<usize> {
        self.index.by_name.get(name).copied()
    }

    /// The edges from `u`, in the order its calls were found.
    pub fn edges_from(&self, u: usize) -> &[CgEdge] {
        let at = |i: usize| self.index.edge_start.get(i).copied().unwrap_or(0);
        self.edges
            .get(at(u)..at(u.saturating_add(1)))
            .unwrap_or_default()
    }

    /// The distinct functions `u` calls, in index order.
    pub fn successors(&self, u: usize) -> &[usize] {
        self.index
            .succ
            .get(u)
            .map(|v| v.as_slice())
            .unwrap_or_default()
    }

    /// The strongly connected components (a recursive cycle, or one
    /// function), each listed after every component it calls: a walk in
    /// this order sees a function's callees before the function, except
    /// within its own cycle.
    pub fn bottom_up(&self) -> &[Vec<usize>] {
        &self.index.bottom_up
    }

    /// Every function reachable from `from` by calls, `from` included.
    pub fn reachable(&self, from: usize) -> Vec<usize> {
        let mut seen = vec![false; self.nodes.len()];
        let mut out = Vec::new();
        let mut work = vec![from];
        while let Some(u) = work.pop() {
            match seen.get_mut(u) {
                Some(s) if !*s => *s = true,
                _ => continue,
            }
            out.push(u);
            work.extend(self.successors(u).iter().copied());
        }
        out.sort_unstable();
        out
    }
}

/// Strongly connected components (Kosaraju, iterative): a component id per
/// node (the id of its first node found), and the component ids callers
/// first (a topological order of the condensed graph).
fn components(n: usize, edges: &[CgEdge]) -> (Vec<usize>, Vec<usize>) {
    let mut fwd: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut rev: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in edges {
        if let (Some(f), Some(r)) = (fwd.get_mut(e.from), rev.get_mut(e.to)) {
            f.push(e.to);
            r.push(e.from);
        }
    }
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for s in 0..n {
        if seen.get(s).copied().unwrap_or(true) {
            continue;
        }
        if let Some(x) = seen.get_mut(s) {
            *x = true;
        }
        let mut stack = vec![(s, 0usize)];
        while let Some(top) = stack.last_mut() {
            let (u, i) = *top;
            match fwd.get(u).and_then(|l| l.get(i)) {
                Some(&v) => {
                    top.1 = top.1.saturating_add(1);
                    if let Some(x) = seen.get_mut(v) {
                        if !*x {
                            *x = true;
                            stack.push((v, 0));
                        }
                    }
                }
                None => {
                    order.push(u);
                    stack.pop();
                }
            }
        }
    }
    let mut comp = vec![usize::MAX; n];
    let mut roots = Vec::new();
    // A node with a self-loop is its own cyclic component; others alone get
    // a fresh id that no edge shares unless one exists.
    for &s in order.iter().rev() {
        if comp.get(s).copied() != Some(usize::MAX) {
            continue;
        }
        let mut work = vec![s];
        roots.push(s);
        if let Some(c) = comp.get_mut(s) {
            *c = s;
        }
        while let Some(u) = work.pop() {
            for &v in rev.get(u).map(|l| l.as_slice()).unwrap_or_default() {
                if let Some(c) = comp.get_mut(v) {
                    if *c == usize::MAX {
                        *c = s;
                        work.push(v);
                    }
                }
            }
        }
    }
    (comp, roots)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    /// A caller's later calls through one list count on its targets' edges
    /// as the first did: a target listed twice, twice a call; every call's
    /// line listed.
    #[test]
    fn repeated_indirect_calls_count_like_the_first() {
        let src = ".version 8.0\n.target sm_90\n.address_size 64\n\
            .func f()\n{\n\tret;\n}\n\
            .func g()\n{\n\tret;\n}\n\
            .visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, f;\n\
            tl: .calltargets f, g, f;\n\
            \tcall %rd1, tl;\n\tcall %rd1, tl;\n\tcall %rd1, tl;\n\tret;\n}\n";
        let parsed = crate::parse(src.as_bytes());
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let g = CallGraph::build(&parsed.module, &LineIndex::new(src.as_bytes()));
        let by_callee = |name: &str| {
            g.edges
                .iter()
                .find(|e| g.nodes[e.to].name == name)
                .map(|e| (e.calls, e.lines.clone()))
                .unwrap()
        };
        assert_eq!(by_callee("f"), (6, vec![17, 17, 18, 18, 19, 19]));
        assert_eq!(by_callee("g"), (3, vec![17, 18, 19]));
    }

    #[test]
    fn direct_indirect_and_recursive_calls() {
        let src = r#".version 8.0
.target sm_90
.address_size 64
.func (.param .b32 r) even(.param .b32 x);
.func (.param .b32 r) odd(.param .b32 x)
{
	.reg .b32 %r<3>;
	.param .b32 a;
	.param .b32 b;
	call (b), even, (a);
	ret;
}
.func (.param .b32 r) even(.param .b32 x)
{
	.param .b32 a;
	.param .b32 b;
	call (b), odd, (a);
	ret;
}
.func leaf(.param .b64 p)
{
	ret;
}
.func other(.param .b64 p)
{
	ret;
}
.func self()
{
	call self;
	ret;
}
.visible .entry k()
{
	.reg .b64 %rd<3>;
	.param .b64 q;
	mov.u64 %rd1, leaf;
	mov.u64 %rd2, other;
	tl: .calltargets leaf;
	call %rd1, (q), tl;
	pr: .callprototype _ (.param .b64 _);
	call %rd2, (q), pr;
	call self;
	ret;
}
"#;
        let parsed = crate::parse(src.as_bytes());
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let g = CallGraph::build(&parsed.module, &LineIndex::new(src.as_bytes()));
        let names: Vec<&str> = g.nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, vec!["even", "odd", "leaf", "other", "self", "k"]);
        let e: Vec<(&str, &str, CallKind, Option<&str>, bool)> = g
            .edges
            .iter()
            .map(|e| {
                (
                    names[e.from],
                    names[e.to],
                    e.kind,
                    e.via.as_deref(),
                    e.recursive,
                )
            })
            .collect();
        use CallKind::*;
        assert_eq!(
            e,
            vec![
                ("even", "odd", Direct, None, true),
                ("odd", "even", Direct, None, true),
                ("self", "self", Direct, None, true),
                ("k", "leaf", Indirect, Some("tl"), false),
                ("k", "leaf", Indirect, Some("pr"), false),
                ("k", "other", Indirect, Some("pr"), false),
                ("k", "self", Direct, None, false),
            ]
        );
        let rec: Vec<bool> = g.nodes.iter().map(|n| n.recursive).collect();
        assert_eq!(rec, vec![true, true, false, false, true, false]);
        assert!(g.nodes[2].address_taken && !g.nodes[0].address_taken);
        assert!(g.unresolved.is_empty());
        assert_eq!(g.reachable(5), vec![2, 3, 4, 5]);
        assert_eq!(g.edges[0].lines, vec![17]);
    }
}
