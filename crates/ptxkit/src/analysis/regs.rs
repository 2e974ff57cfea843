//! Registers of a function: what is declared, which registers each
//! instruction reads and writes, and peak register pressure from liveness.
//!
//! **Reads and writes.** Each operand goes the way the catalog's role
//! description says (`@operand ROLE in|out|inout …`): an `out` operand is
//! written, an `in` one read, an `inout` one (the accumulator of
//! `wgmma.mma_async`) both. The two halves of a pair `p|q` and the items of
//! a vector the template spells out (`{xdim, ydim, zdim}`) each follow
//! their own role. Registers inside brackets (an address) are always read.
//! A role the catalog does not describe (the parenthesised lists of
//! `call`, `mbarrier.arrive`'s `_`) is written when it is the first
//! operand (the return list of `call`) and read otherwise. An instruction
//! that matched no form reads all its operands. The guard predicate is
//! read. Only names declared with `.reg` (or `.reg` parameters) count;
//! special registers, variables, labels and functions do not.
//!
//! **Guarded writes** (`@p mov …`) do not end the life of the old value:
//! threads whose guard is false keep it.
//!
//! **Pressure.** After block-level liveness ([`super::liveness`]), each
//! block is walked backwards instruction by instruction. At every
//! instruction two points are measured: just before it (its live-in set)
//! and just after it with its results included (live-out ∪ written
//! registers, since a result occupies a register even if never read). The
//! size of a set is counted in 32-bit units: registers of up to 32 bits
//! count 1, 64-bit ones 2, 128-bit ones 4, vector registers the sum of
//! their elements; predicates are counted separately. The peak is the
//! largest count at any point.

use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;
use serde::Serialize;
use smallvec::SmallVec;

use super::cfg::Cfg;
use super::facts;
use super::liveness::{solve_within, Budget, Liveness, OverBudget};
use crate::isa::vocab::{ScalarType, StateSpace};
use crate::isa::{Dir, Shape};
use crate::syntax::scope::Scope;
use crate::syntax::{Block, Expr, Function, Instruction, Name, Operand, Stmt};

/// The declared type of a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct RegType {
    /// Element type.
    pub ty: ScalarType,
    /// Vector length (1 for a scalar register).
    pub vector: u8,
}

impl RegType {
    /// Width in bits (1 for a predicate).
    pub fn bits(self) -> u32 {
        let b = if self.ty == ScalarType::Pred {
            1
        } else {
            self.ty.bits()
        };
        b.saturating_mul(u32::from(self.vector.max(1)))
    }

    /// Whether a predicate register.
    pub fn is_pred(self) -> bool {
        self.ty == ScalarType::Pred
    }

    /// Size in 32-bit register units (0 for predicates).
    pub fn units(self) -> u32 {
        if self.is_pred() {
            return 0;
        }
        let per = self.ty.bits().div_ceil(32).max(1);
        per.saturating_mul(u32::from(self.vector.max(1)))
    }

    /// The declaration spelling: `.b32`, `.pred`, `.v2 .f32`.
    pub fn class(self) -> String {
        if self.vector > 1 {
            format!(".v{} {}", self.vector, self.ty.as_str())
        } else {
            self.ty.as_str().to_string()
        }
    }
}

/// The registers a function declares, with their types, named by the
/// rules of the one resolver ([`crate::syntax::scope`]).
///
/// The table is not positional: it answers for the function as a whole,
/// so a register declared in two blocks (an inner `%r1` hiding a range's)
/// takes the type of the outermost declaration met first. Each block is
/// read into a [`Scope`] (so duplicates and clashes follow the resolver's
/// rules), then the blocks are merged into one index, so that a lookup
/// costs the same whatever the number of blocks.
#[derive(Clone, Debug, Default)]
pub struct RegTable {
    /// Plain names: the first block (in the order blocks open) declaring
    /// each, and its type.
    names: FxHashMap<Name, (u32, RegType)>,
    /// Ranges by name, each list in the order blocks open.
    ranges: FxHashMap<Box<[u8]>, RangeList>,
    /// Every declaration: (class, number of registers).
    declared: Vec<(RegType, u64)>,
}

/// The ranges of one name in a function: (block, count, type) in block
/// order, and the running maximum of the counts (the first range that
/// covers index `i` is the first whose running maximum exceeds `i`).
#[derive(Clone, Debug, Default)]
struct RangeList {
    ranges: Vec<(u32, u64, RegType)>,
    max_so_far: Vec<u64>,
}

impl RegTable {
    /// The `.reg` declarations of `f` (nested scopes included) and its
    /// `.reg` parameters and return values.
    pub fn of_function(f: &Function) -> RegTable {
        let mut scopes = vec![Scope::default()];
        let mut declared = Vec::new();
        for p in f
            .params()
            .iter()
            .chain(f.rets.as_deref().unwrap_or_default())
        {
            if p.space == StateSpace::Reg {
                let rt = RegType {
                    ty: p.ty,
                    vector: p.vector.unwrap_or(1),
                };
                if let Some(s) = scopes.first_mut() {
                    let _ = s.declare(p.name, rt);
                }
                declared.push((rt, 1));
            }
        }
        if let Some(b) = &f.body {
            walk(b, &mut scopes, &mut declared);
        }
        let mut t = RegTable {
            declared,
            ..RegTable::default()
        };
        for (i, s) in scopes.iter().enumerate() {
            let i = u32::try_from(i).unwrap_or(u32::MAX);
            for (n, rt) in s.names() {
                t.names.entry(*n).or_insert((i, *rt));
            }
            for r in s.ranges() {
                let list = t.ranges.entry(r.name.as_bytes().into()).or_default();
                let max = list.max_so_far.last().copied().unwrap_or(0).max(r.count);
                list.ranges.push((i, r.count, r.value));
                list.max_so_far.push(max);
            }
        }
        t
    }

    /// The type of register `n`, if `n` is a declared register.
    pub fn lookup(&self, n: Name) -> Option<RegType> {
        let plain = self.names.get(&n).copied();
        let in_range =
            crate::syntax::scope::split_register(n.as_bytes()).and_then(|(prefix, digits)| {
                let list = self.ranges.get(prefix)?;
                let k = crate::syntax::scope::register_index(digits)?;
                let j = list.max_so_far.partition_point(|&m| m <= k);
                list.ranges.get(j).map(|&(block, _, rt)| (block, rt))
            });
        // In one block, a plain name is found before a range's register.
        match (plain, in_range) {
            (Some(p), Some(r)) if r.0 < p.0 => Some(r.1),
            (Some(p), _) => Some(p.1),
            (None, r) => r.map(|r| r.1),
        }
    }

    /// Every declaration as (type, number of registers).
    pub fn declared(&self) -> &[(RegType, u64)] {
        &self.declared
    }
}

/// Read block `b`'s `.reg` declarations, and its nested blocks', into a
/// scope each (in the order blocks open).
fn walk(b: &Block, scopes: &mut Vec<Scope<RegType>>, declared: &mut Vec<(RegType, u64)>) {
    let at = scopes.len();
    scopes.push(Scope::default());
    for s in &b.stmts {
        match s {
            Stmt::Var(v) if v.space == StateSpace::Reg => {
                let rt = RegType {
                    ty: v.ty,
                    vector: v.vector.unwrap_or(1),
                };
                let Some(scope) = scopes.get_mut(at) else {
                    continue;
                };
                for d in &v.decls {
                    // A duplicate (which the checker reports) keeps
                    // the first declaration.
                    match d.range {
                        Some(r) => {
                            let _ = scope.declare_range(d.name, r.value, d.name_span, rt);
                            declared.push((rt, r.value));
                        }
                        None => {
                            let _ = scope.declare(d.name, rt);
                            declared.push((rt, 1));
                        }
                    }
                }
            }
            Stmt::Block(inner) => walk(inner, scopes, declared),
            _ => {}
        }
    }
}

/// Dense numbering of the registers a function mentions.
#[derive(Clone, Debug, Default)]
pub struct RegIds {
    table: RegTable,
    ids: FxHashMap<Name, u32>,
    /// Name of each register, by id.
    pub names: Vec<Name>,
    /// Type of each register, by id.
    pub types: Vec<RegType>,
}

impl RegIds {
    /// Number registers as they are met, using `table` for their types.
    pub fn new(table: RegTable) -> RegIds {
        RegIds {
            table,
            ..RegIds::default()
        }
    }

    /// The id of `n`, if it is a declared register.
    pub fn id(&mut self, n: Name) -> Option<u32> {
        if let Some(&i) = self.ids.get(&n) {
            return Some(i);
        }
        let t = self.table.lookup(n)?;
        let i = self.names.len() as u32;
        self.ids.insert(n, i);
        self.names.push(n);
        self.types.push(t);
        Some(i)
    }

    /// Number of registers numbered so far.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no register was numbered.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The declarations.
    pub fn table(&self) -> &RegTable {
        &self.table
    }
}

/// The registers one instruction reads and writes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DefUse {
    /// Registers written (no duplicates).
    pub defs: SmallVec<[u32; 4]>,
    /// Registers read (no duplicates).
    pub uses: SmallVec<[u32; 8]>,
    /// Whether the instruction has a guard (its writes may not happen).
    pub guarded: bool,
}

/// Call `f` on every name inside `e`.
pub fn expr_names(e: &Expr, f: &mut impl FnMut(Name)) {
    e.for_each_name(&mut |n, _| f(n));
}

/// Call `f` on every name inside operand `o`.
pub fn operand_names(o: &Operand, f: &mut impl FnMut(Name)) {
    o.for_each_name(&mut |n, _| f(n));
}

/// Record the registers `visit` names as written and/or read, as `d` says.
fn flow(
    d: Dir,
    ids: &mut RegIds,
    defs: &mut SmallVec<[u32; 4]>,
    uses: &mut SmallVec<[u32; 8]>,
    visit: impl Fn(&mut dyn FnMut(Name)),
) {
    if d.writes() {
        visit(&mut |n| defs.extend(ids.id(n)));
    }
    if d.reads() {
        visit(&mut |n| uses.extend(ids.id(n)));
    }
}

/// The registers `i` reads and writes.
pub fn def_use(i: &Instruction, ids: &mut RegIds) -> DefUse {
    let mut du = DefUse {
        guarded: i.guard.is_some(),
        ..DefUse::default()
    };
    let mut defs: SmallVec<[u32; 4]> = SmallVec::new();
    let mut uses: SmallVec<[u32; 8]> = SmallVec::new();
    if let Some(g) = &i.guard {
        if let Some(id) = ids.id(g.pred) {
            uses.push(id);
        }
    }
    let roles = i.roles();
    if roles.is_empty() {
        for o in &i.operands {
            operand_names(o, &mut |n| uses.extend(ids.id(n)));
        }
    }
    for (k, (tpl, o)) in roles.into_iter().enumerate() {
        let (defs, uses) = (&mut defs, &mut uses);
        match (&tpl.shape, o) {
            (Shape::Bracket(_), _) | (_, Operand::Address { .. } | Operand::Tuple { .. }) => {
                flow(Dir::In, ids, defs, uses, |mut f| operand_names(o, &mut f));
            }
            (Shape::Pair { second_spec, .. }, Operand::Pair(p)) => {
                let first = facts::dir(tpl.spec, k);
                flow(first, ids, defs, uses, |mut f| {
                    operand_names(&p.first, &mut f)
                });
                let second = facts::dir(*second_spec, k);
                flow(second, ids, defs, uses, |mut f| {
                    expr_names(&p.second, &mut f)
                });
            }
            (Shape::Vector(inner), Operand::Vector { items, .. }) if inner.len() == items.len() => {
                for (t, item) in inner.iter().zip(items) {
                    let spec = if facts::spec(t.spec).is_some() {
                        t.spec
                    } else {
                        tpl.spec
                    };
                    flow(facts::dir(spec, k), ids, defs, uses, |mut f| {
                        operand_names(item, &mut f)
                    });
                }
            }
            _ => flow(facts::dir(tpl.spec, k), ids, defs, uses, |mut f| {
                operand_names(o, &mut f)
            }),
        }
    }
    for d in defs {
        if !du.defs.contains(&d) {
            du.defs.push(d);
        }
    }
    for u in uses {
        if !du.uses.contains(&u) {
            du.uses.push(u);
        }
    }
    du
}

/// Peak register pressure of a function.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pressure {
    /// Largest number of 32-bit register units live at once (predicates excluded).
    pub peak_units: u32,
    /// Index (in [`Cfg::insts`]) of an instruction where that peak is reached.
    pub peak_at: Option<usize>,
    /// Largest number of predicates live at once.
    pub peak_predicates: u32,
    /// Registers live at entry to the function (read before any write on
    /// some path: parameters passed in registers, or uninitialised reads).
    pub live_at_entry: u32,
}

/// Registers, liveness and pressure of one function.
#[derive(Clone, Debug)]
pub struct RegisterAnalysis {
    /// The registers met, numbered.
    pub ids: RegIds,
    /// Reads and writes of each instruction of [`Cfg::insts`].
    pub def_use: Vec<DefUse>,
    /// Block-level liveness, or why it was not solved: a function whose
    /// blocks × registers or sweeps pass its [`Budget`].
    pub liveness: Result<Liveness, OverBudget>,
    /// Peak pressure (the default, all zero, when the liveness was not
    /// solved).
    pub pressure: Pressure,
}

/// Analyse the registers of `f`, whose graph is `cfg`.
pub fn analyze(f: &Function, cfg: &Cfg<'_>) -> RegisterAnalysis {
    let mut ids = RegIds::new(RegTable::of_function(f));
    let du: Vec<DefUse> = cfg.insts.iter().map(|i| def_use(i, &mut ids)).collect();
    let n = ids.len();
    let budget = Budget::of_function(cfg.insts.len(), cfg.blocks.len());
    // The sets are not made past the budget (`solve_within` would refuse
    // them too, after they were built).
    let liveness = if budget.sets_fit(cfg.blocks.len(), n) {
        let (uses, defs) = block_sets(cfg, &du, n);
        solve_within(&cfg.successors(), &uses, &defs, n, budget)
    } else {
        Err(OverBudget {
            blocks: cfg.blocks.len(),
            vars: n,
        })
    };
    let pressure = match &liveness {
        Ok(l) => measure(cfg, &ids, &du, l),
        Err(_) => Pressure::default(),
    };
    RegisterAnalysis {
        ids,
        def_use: du,
        liveness,
        pressure,
    }
}

/// Each block's registers read before any write in it, and those it
/// certainly writes (a guarded write may not happen).
fn block_sets(cfg: &Cfg<'_>, du: &[DefUse], n: usize) -> (Vec<FixedBitSet>, Vec<FixedBitSet>) {
    let mut uses = Vec::with_capacity(cfg.blocks.len());
    let mut defs = Vec::with_capacity(cfg.blocks.len());
    for b in &cfg.blocks {
        let mut u = FixedBitSet::with_capacity(n);
        let mut d = FixedBitSet::with_capacity(n);
        for x in du.get(b.range()).unwrap_or_default() {
            for &r in &x.uses {
                if !d.contains(r as usize) {
                    u.insert(r as usize);
                }
            }
            if !x.guarded {
                for &r in &x.defs {
                    d.insert(r as usize);
                }
            }
        }
        uses.push(u);
        defs.push(d);
    }
    (uses, defs)
}

fn measure(cfg: &Cfg<'_>, ids: &RegIds, du: &[DefUse], live: &Liveness) -> Pressure {
    let weight = |r: u32| {
        ids.types
            .get(r as usize)
            .map(|t| (t.units(), u32::from(t.is_pred())))
            .unwrap_or((1, 0))
    };
    let mut p = Pressure::default();
    if let Some(entry) = live.live_in.get(cfg.entry) {
        p.live_at_entry = entry.count_ones(..) as u32;
    }
    let record = |units: u32, preds: u32, at: usize, p: &mut Pressure| {
        if units > p.peak_units || p.peak_at.is_none() {
            p.peak_units = p.peak_units.max(units);
            p.peak_at = Some(at);
        }
        p.peak_predicates = p.peak_predicates.max(preds);
    };
    for b in &cfg.blocks {
        let Some(out) = live.live_out.get(b.id) else {
            continue;
        };
        let mut set = out.clone();
        let (mut units, mut preds) = (0u32, 0u32);
        for r in set.ones() {
            let (u, pr) = weight(r as u32);
            units = units.saturating_add(u);
            preds = preds.saturating_add(pr);
        }
        for k in b.range().rev() {
            let Some(x) = du.get(k) else { continue };
            let (mut ua, mut pa) = (units, preds);
            for &d in &x.defs {
                if !set.contains(d as usize) {
                    let (u, pr) = weight(d);
                    ua = ua.saturating_add(u);
                    pa = pa.saturating_add(pr);
                }
            }
            record(ua, pa, k, &mut p);
            if !x.guarded {
                for &d in &x.defs {
                    if set.contains(d as usize) {
                        set.set(d as usize, false);
                        let (u, pr) = weight(d);
                        units = units.saturating_sub(u);
                        preds = preds.saturating_sub(pr);
                    }
                }
            }
            for &r in &x.uses {
                if !set.contains(r as usize) {
                    set.insert(r as usize);
                    let (u, pr) = weight(r);
                    units = units.saturating_add(u);
                    preds = preds.saturating_add(pr);
                }
            }
            record(units, preds, k, &mut p);
        }
    }
    p
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::source::LineIndex;

    fn with(body: &str, f: impl FnOnce(&Cfg, &RegisterAnalysis)) {
        let src = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p, .param .u32 n)\n{{\n{body}\n}}\n"
        );
        let parsed = crate::parse(src.as_bytes());
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let func = parsed.module.functions().next().unwrap();
        let lines = LineIndex::new(src.as_bytes());
        let cfg = Cfg::build(func, &lines);
        let ra = analyze(func, &cfg);
        f(&cfg, &ra);
    }

    fn names(ra: &RegisterAnalysis, s: &FixedBitSet) -> Vec<String> {
        let mut v: Vec<String> = s.ones().map(|i| ra.ids.names[i].to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn defs_and_uses_by_role() {
        with(
            ".reg .pred %p<3>;\n.reg .b32 %r<9>;\n.reg .b64 %rd<4>;\n\
             ld.param.u64 %rd1, [p];\n\
             ld.global.v2.u32 {%r1, %r2}, [%rd1+8];\n\
             setp.lt.u32 %p1|%p2, %r1, %r2;\n\
             @%p1 st.global.u32 [%rd1], %r1;\n\
             bar.sync %r2;\n\
             mov.b64 %rd2, {%r1, %r2};\n\
             ret;",
            |cfg, ra| {
                let du: Vec<(Vec<String>, Vec<String>, bool)> = ra
                    .def_use
                    .iter()
                    .map(|d| {
                        let n = |v: &[u32]| {
                            v.iter()
                                .map(|&i| ra.ids.names[i as usize].to_string())
                                .collect::<Vec<_>>()
                        };
                        (n(&d.defs), n(&d.uses), d.guarded)
                    })
                    .collect();
                assert_eq!(cfg.insts.len(), 7);
                assert_eq!(du[0], (vec!["%rd1".into()], vec![], false));
                assert_eq!(
                    du[1],
                    (vec!["%r1".into(), "%r2".into()], vec!["%rd1".into()], false)
                );
                assert_eq!(
                    du[2],
                    (
                        vec!["%p1".into(), "%p2".into()],
                        vec!["%r1".into(), "%r2".into()],
                        false
                    )
                );
                assert_eq!(
                    du[3],
                    (
                        vec![],
                        vec!["%p1".into(), "%rd1".into(), "%r1".into()],
                        true
                    )
                );
                assert_eq!(du[4], (vec![], vec!["%r2".into()], false));
                assert_eq!(
                    du[5],
                    (vec!["%rd2".into()], vec!["%r1".into(), "%r2".into()], false)
                );
                assert_eq!(ra.ids.types[0].bits(), 64);
            },
        );
    }

    #[test]
    fn loop_liveness_and_pressure() {
        // i (%r1) and n (%r2) and the accumulator %rd2 live around the loop;
        // %r3 is a short-lived temporary; %rd3 is used only after the loop.
        with(
            ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n\
             ld.param.u64 %rd1, [p];\n\
             ld.param.u32 %r2, [n];\n\
             mov.u32 %r1, 0;\n\
             mov.u64 %rd2, 0;\n\
             LOOP:\n\
             mul.lo.u32 %r3, %r1, 3;\n\
             cvt.u64.u32 %rd3, %r3;\n\
             add.u64 %rd2, %rd2, %rd3;\n\
             add.u32 %r1, %r1, 1;\n\
             setp.lt.u32 %p1, %r1, %r2;\n\
             @%p1 bra LOOP;\n\
             st.global.u64 [%rd1], %rd2;\n\
             ret;",
            |cfg, ra| {
                assert_eq!(cfg.blocks.len(), 3);
                assert_eq!(
                    names(ra, &ra.liveness.as_ref().unwrap().live_in[1]),
                    vec!["%r1", "%r2", "%rd1", "%rd2"]
                );
                assert_eq!(
                    names(ra, &ra.liveness.as_ref().unwrap().live_out[1]),
                    vec!["%r1", "%r2", "%rd1", "%rd2"]
                );
                assert_eq!(
                    names(ra, &ra.liveness.as_ref().unwrap().live_in[2]),
                    vec!["%rd1", "%rd2"]
                );
                assert!(ra.liveness.as_ref().unwrap().live_in[0].is_clear());
                // Peak: in the loop, %r1 %r2 (1 each) + %rd1 %rd2 (2 each) + %rd3 (2)
                // between the cvt and the add that reads %rd3 = 8 units; %r3
                // dies at the cvt.
                assert_eq!(ra.pressure.peak_units, 8);
                assert_eq!(ra.pressure.peak_at, Some(6));
                assert_eq!(ra.pressure.peak_predicates, 1);
                assert_eq!(ra.pressure.live_at_entry, 0);
            },
        );
    }

    #[test]
    fn guarded_write_keeps_old_value_alive() {
        with(
            ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n\
             ld.param.u32 %r1, [n];\n\
             setp.eq.u32 %p1, %r1, 0;\n\
             mov.u32 %r2, 7;\n\
             bra.uni NEXT;\n\
             NEXT:\n\
             @%p1 mov.u32 %r2, %r1;\n\
             add.u32 %r3, %r2, 1;\n\
             ret;",
            |cfg, ra| {
                assert_eq!(cfg.blocks.len(), 2);
                // The guarded mov may not happen: the 7 must still reach the add.
                assert_eq!(
                    names(ra, &ra.liveness.as_ref().unwrap().live_in[1]),
                    vec!["%p1", "%r1", "%r2"]
                );
                assert_eq!(ra.def_use[4].defs.len(), 1);
                assert!(ra.def_use[4].guarded);
            },
        );
    }

    #[test]
    fn brx_idx_targets_carry_liveness() {
        // %r2 is read only in target B, %r3 only in target A: both are live
        // out of the brx.idx block; after an early ret nothing is live.
        with(
            ".reg .b32 %r<5>;\n\
             ld.param.u32 %r1, [n];\n\
             add.u32 %r2, %r1, 1;\n\
             add.u32 %r3, %r1, 2;\n\
             ts: .branchtargets A, B;\n\
             brx.idx %r1, ts;\n\
             A:\n\
             add.u32 %r4, %r3, 1;\n\
             ret;\n\
             B:\n\
             add.u32 %r4, %r2, 1;\n\
             ret;",
            |cfg, ra| {
                assert_eq!(cfg.blocks.len(), 3);
                assert_eq!(
                    names(ra, &ra.liveness.as_ref().unwrap().live_out[0]),
                    vec!["%r2", "%r3"]
                );
                assert_eq!(
                    names(ra, &ra.liveness.as_ref().unwrap().live_in[1]),
                    vec!["%r3"]
                );
                assert_eq!(
                    names(ra, &ra.liveness.as_ref().unwrap().live_in[2]),
                    vec!["%r2"]
                );
                assert!(ra.liveness.as_ref().unwrap().live_out[1].is_clear());
                // Peak: %r1 %r2 %r3 live together before the brx.idx.
                assert_eq!(ra.pressure.peak_units, 3);
            },
        );
    }

    #[test]
    fn register_table_ranges_and_vectors() {
        let src = ".version 8.0\n.target sm_90\n.address_size 64\n.func (.reg .b32 out) f(.reg .b64 a)\n{\n.reg .b32 %r<10>;\n.reg .v2 .f32 v;\nret;\n}\n";
        let parsed = crate::parse(src.as_bytes());
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let f = parsed.module.functions().next().unwrap();
        let t = RegTable::of_function(f);
        assert_eq!(t.lookup(Name::new("%r9")).map(|t| t.bits()), Some(32));
        assert_eq!(t.lookup(Name::new("%r10")), None);
        // ptxas reads leading zeros (`%r01` is `%r1`).
        assert_eq!(t.lookup(Name::new("%r01")).map(|t| t.bits()), Some(32));
        assert_eq!(t.lookup(Name::new("%rd1")), None);
        assert_eq!(t.lookup(Name::new("v")).map(|t| t.units()), Some(2));
        assert_eq!(t.lookup(Name::new("a")).map(|t| t.units()), Some(2));
        assert_eq!(
            t.lookup(Name::new("out")).map(|t| t.class()),
            Some(".b32".into())
        );
    }
}
