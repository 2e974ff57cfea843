//! What a kernel asks of the hardware, as far as the PTX says: registers
//! (declared, and an estimate of the peak live), shared, local, parameter
//! and constant memory, barriers, and launch directives.
//!
//! See [`super::regs`] for how the peak of live registers is estimated. The
//! figures describe the PTX, before ptxas allocates registers and lays out
//! memory: registers are PTX's virtual registers, not the physical ones
//! `ptxas -v` reports; `docs/analyses.md` says how each figure relates to
//! `ptxas -v`.

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;

use super::callgraph::CallGraph;
use super::cfg::Cfg;
use super::params::{declarator_bytes, directive_text, param_summary};
use super::regs::{analyze, operand_names};
use crate::isa::vocab::{Linkage, StateSpace};
use crate::isa::{catalog, Flags};
use crate::source::LineIndex;
use crate::syntax::{Block, Expr, Function, Instruction, Module, Name, Operand, Param, Stmt};

/// The virtual registers of a function (PTX's `.reg` declarations). ptxas
/// maps them onto physical registers; its `Used N registers` is closest to
/// [`RegisterUse::peak_live_units`], never to the declared count.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RegisterUse {
    /// Declared virtual registers per class (`.b32` → 40, `.pred` → 6,
    /// `.v2 .f32` → 1).
    pub declared: BTreeMap<String, u64>,
    /// Declared virtual registers per width in bits (1 = predicate).
    pub declared_by_width: BTreeMap<u32, u64>,
    /// Declared virtual registers in 32-bit units (predicates excluded).
    pub declared_units: u64,
    /// Distinct virtual registers the body mentions.
    pub used: usize,
    /// Estimated peak of live virtual registers, in 32-bit units
    /// (predicates excluded).
    pub peak_live_units: u32,
    /// Estimated peak of live predicates.
    pub peak_live_predicates: u32,
    /// Source line of an instruction where the peak is reached.
    pub peak_line: Option<u32>,
    /// Registers read before being written on some path from the entry.
    pub live_at_entry: u32,
    /// The function's liveness was past its budget (blocks × registers,
    /// or the sweeps to settle it; `analysis::liveness::Budget`), so the
    /// peak is not estimated: the peak fields and `live_at_entry` are 0
    /// and `peak_line` is `None`.
    pub liveness_over_budget: bool,
}

/// Shared memory.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SharedUse {
    /// Bytes of statically sized `.shared` variables the function (or a
    /// function it calls) declares or refers to.
    pub static_bytes: u64,
    /// Those variables.
    pub variables: Vec<String>,
    /// Whether it refers to an unsized `.extern .shared` array (memory sized
    /// at launch).
    pub dynamic: bool,
    /// The unsized arrays referred to.
    pub dynamic_variables: Vec<String>,
}

/// Local (per-thread) memory.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LocalUse {
    /// Bytes of `.local` variables declared in the function (and the module
    /// `.local` variables it refers to).
    pub frame_bytes: u64,
    /// The deepest frame total along any call chain from this function;
    /// `None` when the chain is unbounded (recursion) or reaches a function
    /// without a body here.
    pub with_callees: Option<u64>,
    /// Whether it allocates stack dynamically (`alloca`, `stacksave`).
    pub dynamic_stack: bool,
}

/// Constant memory.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ConstUse {
    /// Module `.const` variables referred to.
    pub variables: Vec<String>,
    /// Their total size in bytes.
    pub bytes: u64,
    /// Instructions that access the `.const` space (`ld.const`).
    pub accesses: usize,
}

/// Barriers and synchronisation.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BarrierUse {
    /// CTA barrier instructions (`bar`/`barrier` `.sync`, `.arrive`, `.red`).
    pub cta_barriers: usize,
    /// Barrier ids written as constants.
    pub ids: Vec<u64>,
    /// Whether some barrier id is in a register (any of 16 may be used).
    pub register_ids: bool,
    /// Named barriers as `ptxas -v` counts them ("used N barriers"): the
    /// highest constant id + 1 over the function and every function it
    /// calls, 16 when an id is in a register (ptxas may find fewer when it
    /// can tell the register's value).
    pub named_barriers: u64,
    /// `barrier.cluster.*` instructions.
    pub cluster_barriers: usize,
    /// `mbarrier.*` instructions (and `cp.async.mbarrier.arrive`).
    pub mbarrier_ops: usize,
    /// `bar.warp.sync` instructions.
    pub warp_syncs: usize,
}

/// Resources of one function.
#[derive(Clone, Debug, Serialize)]
pub struct Resources {
    /// The function, as written.
    pub name: String,
    /// Its readable C++ name when `name` is mangled ([`crate::demangle()`]).
    pub demangled: Option<String>,
    /// `entry` or `func`.
    #[serde(serialize_with = "super::serialize_func_kind")]
    pub kind: crate::syntax::FuncKind,
    /// For a device function: the kernels whose calls reach it. When none
    /// does, ptxas drops the function in a whole-program compile (it keeps
    /// it with `-c`, for separate linking).
    pub called_by_kernels: Vec<String>,
    /// Registers.
    pub registers: RegisterUse,
    /// Shared memory.
    pub shared: SharedUse,
    /// Local memory.
    pub local: LocalUse,
    /// Bytes of the parameter list, laid out with each parameter aligned
    /// to its `.align` (or its element size).
    pub param_bytes: u64,
    /// Constant memory.
    pub constant: ConstUse,
    /// Barriers.
    pub barriers: BarrierUse,
    /// Launch and performance directives (`.maxntid`, `.reqntid`,
    /// `.minnctapersm`, `.maxnreg`, `.reqnctapercluster`, …).
    pub directives: Vec<String>,
}

/// A module variable: space, size (if known), whether an unsized extern.
struct Global {
    space: StateSpace,
    bytes: Option<u64>,
}

/// Parameter list size with alignment.
pub fn params_bytes(ps: &[Param]) -> u64 {
    let mut off = 0u64;
    for p in ps {
        let s = param_summary(p).bytes;
        let elem = p.ty.size_bytes().max(1);
        let align = p.align.map(|a| a.value).unwrap_or(elem).max(1);
        off = off.div_ceil(align).saturating_mul(align).saturating_add(s);
    }
    off
}

fn body_names(b: &Block, out: &mut FxHashSet<Name>) {
    for i in b.instructions() {
        for o in &i.operands {
            operand_names(o, &mut |n| {
                out.insert(n);
            });
        }
    }
}

fn local_decls(b: &Block, space: StateSpace, out: &mut Vec<(String, u64)>) {
    for s in &b.stmts {
        match s {
            Stmt::Var(v) if v.space == space => {
                for d in &v.decls {
                    let bytes = declarator_bytes(v, &d.dims, d.init.as_ref()).unwrap_or(0);
                    out.push((d.name.to_string(), bytes));
                }
            }
            Stmt::Block(inner) => local_decls(inner, space, out),
            _ => {}
        }
    }
}

/// The resources of every function with a body (or only `name`).
pub fn resources(m: &Module, lines: &LineIndex, name: Option<&str>) -> Vec<Resources> {
    resources_of(m, lines, |n| name.is_none_or(|x| x == n))
}

/// The resources of the functions with a body whose names `wanted`
/// accepts (the module's facts are worked out whole, the reports only for
/// those: `ptx diff` needs the changed functions').
pub fn resources_of(
    m: &Module,
    lines: &LineIndex,
    wanted: impl Fn(&str) -> bool,
) -> Vec<Resources> {
    let cg = CallGraph::build(m, lines);
    let mut globals: FxHashMap<Name, Global> = FxHashMap::default();
    for v in m.globals() {
        for d in &v.decls {
            let bytes = declarator_bytes(v, &d.dims, d.init.as_ref());
            let extern_unsized = v.linkage == Some(Linkage::Extern) && bytes.is_none();
            globals.insert(
                d.name,
                Global {
                    space: v.space,
                    bytes: if extern_unsized {
                        None
                    } else {
                        Some(bytes.unwrap_or(0))
                    },
                },
            );
        }
    }
    // Per call-graph node: the function's own names and local frame.
    let defs: FxHashMap<&str, &Function> = m
        .functions()
        .filter(|f| f.body.is_some())
        .map(|f| (f.name.as_str(), f))
        .collect();
    let mut names_of: Vec<FxHashSet<Name>> = vec![FxHashSet::default(); cg.nodes.len()];
    let mut frame_of: Vec<u64> = vec![0; cg.nodes.len()];
    let mut shared_of: Vec<Vec<(String, u64)>> = vec![Vec::new(); cg.nodes.len()];
    let mut barriers_of: Vec<OwnBarriers> = vec![OwnBarriers::default(); cg.nodes.len()];
    for (i, n) in cg.nodes.iter().enumerate() {
        let Some(f) = defs.get(n.name.as_str()) else {
            continue;
        };
        let Some(b) = &f.body else { continue };
        let mut names = FxHashSet::default();
        body_names(b, &mut names);
        let mut locals = Vec::new();
        local_decls(b, StateSpace::Local, &mut locals);
        let mut frame: u64 = locals.iter().map(|(_, b)| *b).sum();
        for nm in &names {
            if let Some(g) = globals.get(nm) {
                if g.space == StateSpace::Local {
                    frame = frame.saturating_add(g.bytes.unwrap_or(0));
                }
            }
        }
        let mut sh = Vec::new();
        local_decls(b, StateSpace::Shared, &mut sh);
        if let Some(x) = names_of.get_mut(i) {
            *x = names;
        }
        if let Some(x) = frame_of.get_mut(i) {
            *x = frame;
        }
        if let Some(x) = shared_of.get_mut(i) {
            *x = sh;
        }
        if let Some(x) = barriers_of.get_mut(i) {
            *x = own_barriers(b);
        }
    }
    // The kernels whose call trees reach each node.
    let mut kernels_of: Vec<Vec<String>> = vec![Vec::new(); cg.nodes.len()];
    for (k, n) in cg.nodes.iter().enumerate().filter(|(_, n)| n.kernel) {
        for r in cg.reachable(k) {
            if let Some(v) = kernels_of.get_mut(r).filter(|_| r != k) {
                v.push(n.name.clone());
            }
        }
    }
    let facts = NodeFacts {
        globals: &globals,
        names_of: &names_of,
        frame_of: &frame_of,
        shared_of: &shared_of,
        barriers_of: &barriers_of,
        kernels_of: &kernels_of,
    };
    let (trees, tree_of) = call_trees(&cg, &facts);
    let mut out = Vec::new();
    for f in m.functions() {
        if f.body.is_none() || !wanted(f.name.as_str()) {
            continue;
        }
        let Some(node) = cg.node(f.name.as_str()) else {
            continue;
        };
        let Some(tree) = tree_of
            .get(node)
            .copied()
            .flatten()
            .and_then(|t| trees.get(t))
        else {
            continue;
        };
        out.push(function_resources(f, lines, node, tree, &facts));
    }
    // Kernels first, then device functions, each in module order.
    out.sort_by_key(|r| r.kind != crate::syntax::FuncKind::Entry);
    out
}

/// What [`resources`] works out per call-graph node before the report of
/// each function.
struct NodeFacts<'a> {
    globals: &'a FxHashMap<Name, Global>,
    names_of: &'a [FxHashSet<Name>],
    frame_of: &'a [u64],
    shared_of: &'a [Vec<(String, u64)>],
    barriers_of: &'a [OwnBarriers],
    kernels_of: &'a [Vec<String>],
}

/// What a function and every function it calls use, worked out once per
/// strongly connected component of the call graph, callees first, so that
/// the whole module costs time linear in the graph (plus the size of the
/// sets themselves), whatever the depth of its call chains.
#[derive(Clone, Debug, Default)]
struct Tree {
    /// The nodes reached that declare `.shared` variables of their own.
    shared_locals: Vec<usize>,
    /// The module `.shared` variables referred to.
    shared_globals: Vec<Name>,
    /// Named barriers used.
    barriers: OwnBarriers,
    /// The deepest sum of `.local` frames along a call chain (`None` for
    /// recursion or a function without a body).
    frame: Option<u64>,
}

/// The [`Tree`] of every component, and of every node its component's index.
fn call_trees(cg: &CallGraph, facts: &NodeFacts<'_>) -> (Vec<Tree>, Vec<Option<usize>>) {
    let mut tree_of: Vec<Option<usize>> = vec![None; cg.nodes.len()];
    let mut trees: Vec<Tree> = Vec::with_capacity(cg.bottom_up().len());
    for members in cg.bottom_up() {
        let id = trees.len();
        for &u in members {
            if let Some(t) = tree_of.get_mut(u) {
                *t = Some(id);
            }
        }
        let mut t = Tree::default();
        let mut below = Some(0u64);
        let mut own_frame = 0u64;
        let mut bounded = members.len() == 1;
        for &u in members {
            let Some(n) = cg.nodes.get(u) else { continue };
            bounded &= !n.recursive && !n.declaration;
            own_frame = facts.frame_of.get(u).copied().unwrap_or(0);
            if facts.shared_of.get(u).is_some_and(|v| !v.is_empty()) {
                t.shared_locals.push(u);
            }
            for nm in facts.names_of.get(u).into_iter().flatten() {
                if facts.globals.get(nm).is_some_and(|g| g.space.is_shared()) {
                    t.shared_globals.push(*nm);
                }
            }
            if let Some(b) = facts.barriers_of.get(u) {
                t.barriers.merge(*b);
            }
            for &v in cg.successors(u) {
                let Some(c) = tree_of.get(v).copied().flatten().filter(|&c| c != id) else {
                    continue;
                };
                let Some(child) = trees.get(c) else { continue };
                t.shared_locals.extend_from_slice(&child.shared_locals);
                t.shared_globals.extend_from_slice(&child.shared_globals);
                t.barriers.merge(child.barriers);
                below = below.zip(child.frame).map(|(a, b)| a.max(b));
            }
        }
        t.shared_locals.sort_unstable();
        t.shared_locals.dedup();
        t.shared_globals.sort_unstable();
        t.shared_globals.dedup();
        t.frame = below
            .filter(|_| bounded)
            .map(|b| own_frame.saturating_add(b));
        trees.push(t);
    }
    (trees, tree_of)
}

/// The named barriers a function's own instructions use.
#[derive(Clone, Copy, Debug, Default)]
struct OwnBarriers {
    /// Highest constant id.
    max_id: Option<u64>,
    /// Whether an id is in a register.
    register: bool,
}

impl OwnBarriers {
    /// Add the barriers of `other` (a callee) to these.
    fn merge(&mut self, other: OwnBarriers) {
        self.max_id = self.max_id.max(other.max_id);
        self.register |= other.register;
    }
}

/// The id operand of a CTA barrier instruction: the role whose constants
/// the catalog bounds (`@operand a … range=0..15`).
fn barrier_id(i: &Instruction) -> Option<&Operand> {
    i.roles()
        .into_iter()
        .find(|(t, _)| catalog().role(t.spec).is_some_and(|r| r.range.is_some()))
        .map(|(_, o)| o)
}

fn own_barriers(b: &Block) -> OwnBarriers {
    let mut own = OwnBarriers::default();
    for i in b.instructions() {
        if kind_of(i) != SectionKind::CtaBarrier {
            continue;
        }
        match barrier_id(i) {
            Some(Operand::Expr(Expr::Int(l))) => {
                own.max_id = own.max_id.max(Some(l.value));
            }
            Some(_) => own.register = true,
            None => {}
        }
    }
    own
}

/// Hardware named barriers per CTA.
const NAMED_BARRIERS: u64 = 16;

fn function_resources(
    f: &Function,
    lines: &LineIndex,
    node: usize,
    tree: &Tree,
    facts: &NodeFacts<'_>,
) -> Resources {
    let NodeFacts {
        globals,
        names_of,
        frame_of,
        shared_of,
        kernels_of,
        ..
    } = *facts;
    let cfg = Cfg::build(f, lines);
    let ra = analyze(f, &cfg);
    let mut registers = RegisterUse {
        used: ra.ids.len(),
        peak_live_units: ra.pressure.peak_units,
        peak_live_predicates: ra.pressure.peak_predicates,
        peak_line: ra
            .pressure
            .peak_at
            .and_then(|k| cfg.insts.get(k))
            .map(|i| lines.line_col(i.span.start).line),
        live_at_entry: ra.pressure.live_at_entry,
        liveness_over_budget: ra.liveness.is_err(),
        ..RegisterUse::default()
    };
    for (t, n) in ra.ids.table().declared() {
        {
            let e = registers.declared.entry(t.class()).or_default();
            *e = e.saturating_add(*n);
        }
        {
            let e = registers.declared_by_width.entry(t.bits()).or_default();
            *e = e.saturating_add(*n);
        }
        registers.declared_units = registers
            .declared_units
            .saturating_add(u64::from(t.units()).saturating_mul(*n));
    }
    // Shared, const and local variables referred to along the call tree.
    let mut shared = SharedUse::default();
    let mut constant = ConstUse::default();
    for &r in &tree.shared_locals {
        for (n, b) in shared_of.get(r).map(|v| v.as_slice()).unwrap_or_default() {
            shared.static_bytes = shared.static_bytes.saturating_add(*b);
            shared.variables.push(n.clone());
        }
    }
    for nm in &tree.shared_globals {
        let Some(g) = globals.get(nm) else { continue };
        match g.bytes {
            Some(b) => {
                shared.static_bytes = shared.static_bytes.saturating_add(b);
                shared.variables.push(nm.to_string());
            }
            None => {
                shared.dynamic = true;
                shared.dynamic_variables.push(nm.to_string());
            }
        }
    }
    for nm in names_of.get(node).into_iter().flatten() {
        let Some(g) = globals.get(nm) else { continue };
        if g.space == StateSpace::Const {
            constant.bytes = constant.bytes.saturating_add(g.bytes.unwrap_or(0));
            constant.variables.push(nm.to_string());
        }
    }
    shared.variables.sort();
    shared.dynamic_variables.sort();
    constant.variables.sort();
    let mut barriers = BarrierUse::default();
    let mut dynamic_stack = false;
    let const_space = catalog().mod_id(StateSpace::Const.as_str());
    for i in &cfg.insts {
        if const_space.is_some_and(|c| i.mods.iter().any(|m| m.id == c)) {
            constant.accesses = constant.accesses.saturating_add(1);
        }
        match kind_of(i) {
            SectionKind::Other => {}
            SectionKind::Stack => dynamic_stack = true,
            SectionKind::WarpSync => barriers.warp_syncs = barriers.warp_syncs.saturating_add(1),
            SectionKind::CtaBarrier => {
                barriers.cta_barriers = barriers.cta_barriers.saturating_add(1);
                match barrier_id(i) {
                    Some(Operand::Expr(Expr::Int(l))) => barriers.ids.push(l.value),
                    Some(_) => barriers.register_ids = true,
                    None => {}
                }
            }
            SectionKind::ClusterBarrier => {
                barriers.cluster_barriers = barriers.cluster_barriers.saturating_add(1)
            }
            SectionKind::Mbarrier => {
                barriers.mbarrier_ops = barriers.mbarrier_ops.saturating_add(1)
            }
        }
    }
    // Sorted, then each id once (a search per barrier instruction was
    // quadratic: 300,000 distinct ids took 10 s).
    barriers.ids.sort_unstable();
    barriers.ids.dedup();
    barriers.named_barriers = if tree.barriers.register {
        NAMED_BARRIERS
    } else {
        tree.barriers.max_id.map_or(0, |m| m.saturating_add(1))
    };
    let local = LocalUse {
        frame_bytes: frame_of.get(node).copied().unwrap_or(0),
        with_callees: tree.frame,
        dynamic_stack,
    };
    Resources {
        name: f.name.to_string(),
        demangled: crate::demangle(f.name.as_str()),
        kind: f.kind,
        called_by_kernels: kernels_of.get(node).cloned().unwrap_or_default(),
        registers,
        shared,
        local,
        param_bytes: params_bytes(f.params()),
        constant,
        barriers,
        directives: f.directives.iter().map(directive_text).collect(),
    }
}

/// What the resource report counts an instruction as, by catalog section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SectionKind {
    /// Nothing the report counts.
    Other,
    /// Allocates stack dynamically (`alloca`, `stacksave`).
    Stack,
    /// `bar.warp.sync`: a barrier within the warp (flagged `barrier warp`).
    WarpSync,
    /// A named CTA barrier (`bar`, `barrier`).
    CtaBarrier,
    /// `barrier.cluster.*`.
    ClusterBarrier,
    /// An `mbarrier.*` operation (and `cp.async.mbarrier.arrive`).
    Mbarrier,
}

/// What the report counts an instruction of a section with `flags` as.
fn classify(flags: Flags) -> SectionKind {
    if flags.has(Flags(Flags::BARRIER.0 | Flags::WARP.0)) {
        SectionKind::WarpSync
    } else if flags.has(Flags::STACK) {
        SectionKind::Stack
    } else if flags.has(Flags::MBARRIER) {
        SectionKind::Mbarrier
    } else if flags.has(Flags::CLUSTER) {
        SectionKind::ClusterBarrier
    } else if flags.has(Flags::CTA) {
        SectionKind::CtaBarrier
    } else {
        SectionKind::Other
    }
}

/// The kind of every catalog section (by section index) and of every
/// opcode root (by opcode id, for instructions that matched no form).
struct Kinds {
    sections: Vec<SectionKind>,
    opcodes: Vec<SectionKind>,
}

fn kinds() -> &'static Kinds {
    static KINDS: std::sync::OnceLock<Kinds> = std::sync::OnceLock::new();
    KINDS.get_or_init(|| {
        let cat = catalog();
        let sections = cat
            .sections()
            .iter()
            .map(|s| classify(s.flags))
            .collect::<Vec<_>>();
        // An instruction that matched no form counts as the section named
        // like its opcode, or else as what every section of that opcode
        // root agrees on.
        let mut opcodes = Vec::new();
        for (id, op) in cat.opcodes() {
            let k = usize::from(id.0);
            if opcodes.len() <= k {
                opcodes.resize(k.saturating_add(1), SectionKind::Other);
            }
            let kind_of = |s: &crate::isa::Section| classify(s.flags);
            let exact = cat
                .sections()
                .iter()
                .find(|s| s.name == op.name)
                .map(kind_of);
            let mut root = cat
                .sections()
                .iter()
                .filter(|s| s.name.split('.').next() == Some(op.name))
                .map(kind_of);
            let first = root.next();
            let agreed = first.filter(|f| root.all(|k| k == *f));
            if let Some(slot) = opcodes.get_mut(k) {
                *slot = exact.or(agreed).unwrap_or(SectionKind::Other);
            }
        }
        Kinds { sections, opcodes }
    })
}

/// The kind of instruction `i`.
fn kind_of(i: &Instruction) -> SectionKind {
    let k = kinds();
    match catalog().form(i.form) {
        Some(f) => k.sections.get(usize::from(f.section)),
        None => k.opcodes.get(usize::from(i.opcode.0)),
    }
    .copied()
    .unwrap_or(SectionKind::Other)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]
mod tests {
    use super::*;

    /// Each kind the report counts comes from the catalog's flags, for the
    /// sections that carry them and for opcode roots that matched no form.
    #[test]
    fn kinds_from_flags() {
        let cat = catalog();
        let section = |name: &str| {
            let s = cat
                .sections()
                .iter()
                .position(|s| s.name == name)
                .unwrap_or_else(|| panic!("{name}"));
            kinds().sections[s]
        };
        assert_eq!(section("bar"), SectionKind::CtaBarrier);
        assert_eq!(section("barrier"), SectionKind::CtaBarrier);
        assert_eq!(section("bar.warp.sync"), SectionKind::WarpSync);
        assert_eq!(section("barrier.cluster"), SectionKind::ClusterBarrier);
        assert_eq!(section("mbarrier.arrive"), SectionKind::Mbarrier);
        assert_eq!(section("cp.async.mbarrier.arrive"), SectionKind::Mbarrier);
        assert_eq!(section("alloca"), SectionKind::Stack);
        assert_eq!(section("stackrestore"), SectionKind::Other);
        assert_eq!(section("add"), SectionKind::Other);
        let opcode = |name: &str| kinds().opcodes[usize::from(cat.opcode_id(name).unwrap().0)];
        assert_eq!(opcode("bar"), SectionKind::CtaBarrier);
        assert_eq!(opcode("alloca"), SectionKind::Stack);
        assert_eq!(opcode("mov"), SectionKind::Other);
    }
}
