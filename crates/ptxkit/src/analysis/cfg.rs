//! The control-flow graph of a function body: basic blocks and typed edges.
//!
//! A block starts at the first instruction, at every label, and after every
//! instruction that transfers control: one whose catalog section is flagged
//! `branch` (`bra`, `brx.idx`), `return` (`ret`) or `exit` (`exit`, `trap`).
//! Consecutive labels share a block. Nested `{ }` scopes are
//! flattened. A guarded transfer (`@p bra L`, `@p ret`) ends its block with
//! two edges: the taken one and a fall-through. Edges that leave the function
//! (`ret`, `exit`, `trap`, or running off the end of the body) have no target
//! block (`to: None`).

use rustc_hash::FxHashMap;
use serde::Serialize;

use super::facts;
use crate::isa::{Flags, Kinds};
use crate::source::{LineIndex, Span};
use crate::syntax::{Block, Function, Instruction, Name, Stmt};

/// What kind of control transfer an edge is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EdgeKind {
    /// Falls into the next block (no transfer, or the not-taken side of a
    /// guarded transfer).
    Fallthrough,
    /// An unguarded `bra`.
    Branch,
    /// The taken side of a guarded `@p bra`.
    Conditional,
    /// One of the targets of `brx.idx` (from its `.branchtargets` list).
    Indirect,
    /// `ret`: leaves the function.
    Return,
    /// `exit`: ends the thread.
    Exit,
    /// `trap`: aborts.
    Trap,
}

impl EdgeKind {
    /// The lowercase name used in JSON and DOT.
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Fallthrough => "fallthrough",
            EdgeKind::Branch => "branch",
            EdgeKind::Conditional => "conditional",
            EdgeKind::Indirect => "indirect",
            EdgeKind::Return => "return",
            EdgeKind::Exit => "exit",
            EdgeKind::Trap => "trap",
        }
    }
}

/// One edge of the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Edge {
    /// Source block.
    pub from: usize,
    /// Target block; `None` when control leaves the function.
    pub to: Option<usize>,
    /// The kind of transfer.
    pub kind: EdgeKind,
}

/// A basic block.
#[derive(Clone, Debug, Serialize)]
pub struct BasicBlock {
    /// Index in [`Cfg::blocks`].
    pub id: usize,
    /// The first label of the block, or `entry` / `bb<id>` for an unlabelled one.
    pub label: String,
    /// Every label that names the block (empty when unlabelled).
    pub labels: Vec<String>,
    /// Source line of the block's first statement (label or instruction).
    pub first_line: u32,
    /// Source line of its last statement.
    pub last_line: u32,
    /// Number of instructions.
    pub instructions: usize,
    /// Index of its first instruction in [`Cfg::insts`].
    #[serde(skip)]
    pub start: usize,
    /// Source span from the first to the last statement.
    #[serde(skip)]
    pub span: Span,
}

impl BasicBlock {
    /// The range of [`Cfg::insts`] that holds this block's instructions.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start..self.start.saturating_add(self.instructions)
    }
}

/// The control-flow graph of one function.
#[derive(Clone, Debug, Serialize)]
pub struct Cfg<'a> {
    /// Blocks in source order; block 0 is the entry (when there is any).
    pub blocks: Vec<BasicBlock>,
    /// Edges, grouped by source block in source order.
    pub edges: Vec<Edge>,
    /// The entry block (0).
    pub entry: usize,
    /// Every instruction of the body in source order (nested scopes
    /// flattened); blocks index into it.
    #[serde(skip)]
    pub insts: Vec<&'a Instruction>,
    /// Names in `.branchtargets` lists whose label is not in the function
    /// (each list's once, however many `brx.idx` name it).
    pub unresolved_targets: Vec<String>,
    /// `brx.idx` edges left out past [`indirect_edge_budget`] (0 for
    /// every function whose `brx.idx` instructions do not share lists).
    pub omitted_edges: usize,
}

enum Flat<'a> {
    Inst(&'a Instruction),
    Label(Name, Span),
}

fn flatten<'a>(
    b: &'a Block,
    out: &mut Vec<Flat<'a>>,
    tables: &mut FxHashMap<Name, &'a [(Name, Span)]>,
) {
    for s in &b.stmts {
        match s {
            Stmt::Instruction(i) => out.push(Flat::Inst(i)),
            Stmt::Label(n, sp) => out.push(Flat::Label(*n, *sp)),
            Stmt::Block(inner) => flatten(inner, out, tables),
            Stmt::BranchTargets(t) => {
                tables.insert(t.label, &t.targets);
            }
            _ => {}
        }
    }
}

/// How an instruction transfers control, if it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transfer {
    /// `bra`.
    Branch,
    /// `brx.idx`.
    Indirect,
    /// `ret`.
    Return,
    /// `exit`.
    Exit,
    /// `trap`.
    Trap,
}

/// The flags that make an instruction end its block.
const TRANSFERS: Flags = Flags(Flags::BRANCH.0 | Flags::RETURN.0 | Flags::EXIT.0);

/// The transfer an instruction makes (`None` for ordinary instructions and
/// calls), from its catalog flags: `branch` is a jump, indirect when the
/// branch also reads a register (`brx.idx`'s index picks the target from a
/// list) and direct when it takes only its label (`bra`); `return` leaves
/// the function; `exit` ends the thread (`abort` too: `trap`).
pub fn transfer(i: &Instruction) -> Option<Transfer> {
    let f = facts::flags(i);
    if f.0 & TRANSFERS.0 == 0 {
        return None;
    }
    if f.has(Flags::BRANCH) {
        let reads_register = facts::templates(i)
            .iter()
            .any(|(t, _)| facts::spec(t.spec).is_some_and(|s| s.kinds.has(Kinds::REG)));
        return Some(if reads_register {
            Transfer::Indirect
        } else {
            Transfer::Branch
        });
    }
    if f.has(Flags::RETURN) {
        return Some(Transfer::Return);
    }
    Some(if f.has(Flags::ABORT) {
        Transfer::Trap
    } else {
        Transfer::Exit
    })
}

/// The name written for the role of `i` that takes a label: the target of
/// `bra`, the `.branchtargets` list of `brx.idx`.
fn label_operand(i: &Instruction) -> Option<Name> {
    facts::templates(i)
        .into_iter()
        .find(|(t, _)| {
            facts::spec(t.spec)
                .is_some_and(|s| s.kinds.has(Kinds::LABEL) || s.kinds.has(Kinds::TARGETS))
        })
        .and_then(|(_, o)| o.as_name())
}

impl<'a> Cfg<'a> {
    /// Build the graph of `f` (an empty graph for a declaration).
    /// `lines` maps spans of the source `f` was parsed from to line numbers.
    pub fn build(f: &'a Function, lines: &LineIndex) -> Cfg<'a> {
        let mut flat = Vec::new();
        let mut tables = FxHashMap::default();
        if let Some(b) = &f.body {
            flatten(b, &mut flat, &mut tables);
        }
        let mut cfg = Cfg {
            blocks: Vec::new(),
            edges: Vec::new(),
            entry: 0,
            insts: Vec::new(),
            unresolved_targets: Vec::new(),
            omitted_edges: 0,
        };
        if f.body.is_none() {
            return cfg;
        }
        let line = |s: Span| lines.line_col(s.start).line;
        let mut label_block: FxHashMap<Name, usize> = FxHashMap::default();
        // The block being filled: (labels, first span, last span, start, count).
        let mut cur = Pending::default();
        for item in &flat {
            match item {
                Flat::Label(n, sp) => {
                    if cur.count > 0 {
                        cfg.close(&mut cur, line);
                    }
                    if cur.labels.is_empty() && cur.first.is_none() {
                        cur.first = Some(*sp);
                    }
                    label_block.insert(*n, cfg.blocks.len());
                    cur.labels.push(n.to_string());
                    cur.last = Some(*sp);
                }
                Flat::Inst(i) => {
                    if cur.count == 0 {
                        cur.start = cfg.insts.len();
                        if cur.first.is_none() {
                            cur.first = Some(i.span);
                        }
                    }
                    cfg.insts.push(i);
                    cur.count = cur.count.saturating_add(1);
                    cur.last = Some(i.span);
                    if transfer(i).is_some() {
                        cfg.close(&mut cur, line);
                    }
                }
            }
        }
        if cur.count > 0 || !cur.labels.is_empty() || cfg.blocks.is_empty() {
            if cur.count == 0 {
                cur.start = cfg.insts.len();
            }
            cfg.close(&mut cur, line);
        }
        cfg.link(&label_block, &tables);
        cfg
    }

    fn close(&mut self, cur: &mut Pending, line: impl Fn(Span) -> u32) {
        let id = self.blocks.len();
        let p = std::mem::take(cur);
        let first = p.first.unwrap_or_default();
        let last = p.last.unwrap_or(first);
        let label = match p.labels.first() {
            Some(l) => l.clone(),
            None if id == 0 => "entry".to_string(),
            None => format!("bb{id}"),
        };
        self.blocks.push(BasicBlock {
            id,
            label,
            labels: p.labels,
            first_line: if p.first.is_some() { line(first) } else { 0 },
            last_line: if p.last.is_some() { line(last) } else { 0 },
            instructions: p.count,
            start: p.start,
            span: first.to(last),
        });
    }

    fn link(
        &mut self,
        label_block: &FxHashMap<Name, usize>,
        tables: &FxHashMap<Name, &[(Name, Span)]>,
    ) {
        let n = self.blocks.len();
        let mut edges = Vec::new();
        let mut unresolved = Vec::new();
        // Each `.branchtargets` list is resolved once, into its distinct
        // target blocks; every `brx.idx` naming it reuses that list.
        let mut resolved: FxHashMap<Name, Vec<usize>> = FxHashMap::default();
        // `seen[t] == k` when the k-th list resolved already holds `t`: a
        // list of m labels costs O(m), not O(m²).
        let mut seen = vec![0usize; n];
        let entries = tables
            .values()
            .fold(0usize, |a, l| a.saturating_add(l.len()));
        let budget = indirect_edge_budget(entries);
        let mut indirect = 0usize;
        let mut omitted = 0usize;
        for b in &self.blocks {
            let next = (b.id.saturating_add(1) < n).then_some(b.id.saturating_add(1));
            let last = b
                .instructions
                .checked_sub(1)
                .and_then(|k| self.insts.get(b.start.saturating_add(k)));
            let Some(last) = last else {
                edges.push(Edge {
                    from: b.id,
                    to: next,
                    kind: EdgeKind::Fallthrough,
                });
                continue;
            };
            let guarded = last.guard.is_some();
            let mut falls = true;
            match transfer(last) {
                None => {}
                Some(Transfer::Branch) => {
                    if let Some(t) = label_operand(last).and_then(|l| label_block.get(&l)) {
                        let kind = if guarded {
                            EdgeKind::Conditional
                        } else {
                            EdgeKind::Branch
                        };
                        edges.push(Edge {
                            from: b.id,
                            to: Some(*t),
                            kind,
                        });
                    }
                    falls = guarded;
                }
                Some(Transfer::Indirect) => {
                    let name = label_operand(last);
                    let list = name.and_then(|t| tables.get(&t).map(|l| (t, *l)));
                    if let Some((name, list)) = list {
                        let stamp = resolved.len().saturating_add(1);
                        let targets = resolved.entry(name).or_insert_with(|| {
                            resolve_list(list, label_block, &mut seen, stamp, &mut unresolved)
                        });
                        let room = budget.saturating_sub(indirect);
                        let take = targets.len().min(room);
                        omitted = omitted.saturating_add(targets.len().saturating_sub(take));
                        indirect = indirect.saturating_add(take);
                        edges.extend(targets.iter().take(take).map(|&t| Edge {
                            from: b.id,
                            to: Some(t),
                            kind: EdgeKind::Indirect,
                        }));
                    }
                    falls = guarded;
                }
                Some(t @ (Transfer::Return | Transfer::Exit | Transfer::Trap)) => {
                    let kind = match t {
                        Transfer::Return => EdgeKind::Return,
                        Transfer::Exit => EdgeKind::Exit,
                        _ => EdgeKind::Trap,
                    };
                    edges.push(Edge {
                        from: b.id,
                        to: None,
                        kind,
                    });
                    falls = guarded;
                }
            }
            if falls {
                edges.push(Edge {
                    from: b.id,
                    to: next,
                    kind: EdgeKind::Fallthrough,
                });
            }
        }
        self.edges = edges;
        self.unresolved_targets = unresolved;
        self.omitted_edges = omitted;
    }

    /// Successor blocks of every block (edges leaving the function omitted,
    /// duplicates removed).
    pub fn successors(&self) -> Vec<Vec<usize>> {
        let n = self.blocks.len();
        let mut s: Vec<Vec<usize>> = vec![Vec::new(); n];
        // `last[to] == from + 1` when `from`'s list already holds `to`; the
        // edges are grouped by source block, so one mark per target is
        // enough and a block of k edges costs O(k), not O(k²).
        let mut last = vec![0usize; n];
        for e in &self.edges {
            let stamp = e.from.saturating_add(1);
            if let (Some(to), Some(list)) = (e.to, s.get_mut(e.from)) {
                if let Some(m) = last.get_mut(to) {
                    if *m != stamp {
                        *m = stamp;
                        list.push(to);
                    }
                }
            }
        }
        s
    }

    /// The instructions of block `b`.
    pub fn block_insts(&self, b: usize) -> &[&'a Instruction] {
        self.blocks
            .get(b)
            .and_then(|b| self.insts.get(b.range()))
            .unwrap_or_default()
    }
}

/// Most `brx.idx` edges one function's graph holds: four per entry of its
/// `.branchtargets` lists, and at least [`MIN_INDIRECT_EDGES`]. Without
/// sharing, a list's m entries give at most m edges, so only `brx.idx`
/// instructions that share lists (k of them over one list of m labels
/// make k × m edges) can reach it; the edges past it are left out and
/// counted in [`Cfg::omitted_edges`].
pub fn indirect_edge_budget(list_entries: usize) -> usize {
    list_entries.saturating_mul(4).max(MIN_INDIRECT_EDGES)
}

/// The least budget of [`indirect_edge_budget`]: 2^20 edges (24 MB).
pub const MIN_INDIRECT_EDGES: usize = 1 << 20;

/// The distinct blocks `list` names, in list order; names without a label
/// in the function go to `unresolved`. `seen` marks with `stamp` the
/// blocks already taken.
fn resolve_list(
    list: &[(Name, Span)],
    label_block: &FxHashMap<Name, usize>,
    seen: &mut [usize],
    stamp: usize,
    unresolved: &mut Vec<String>,
) -> Vec<usize> {
    let mut out = Vec::new();
    for (l, _) in list {
        match label_block.get(l) {
            Some(&t) => {
                if let Some(s) = seen.get_mut(t) {
                    if *s != stamp {
                        *s = stamp;
                        out.push(t);
                    }
                }
            }
            None => unresolved.push(l.to_string()),
        }
    }
    out
}

#[derive(Default)]
struct Pending {
    labels: Vec<String>,
    first: Option<Span>,
    last: Option<Span>,
    start: usize,
    count: usize,
}

/// Predecessor lists from successor lists.
pub fn predecessors(succs: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut p: Vec<Vec<usize>> = vec![Vec::new(); succs.len()];
    for (u, list) in succs.iter().enumerate() {
        for &v in list {
            if let Some(pl) = p.get_mut(v) {
                pl.push(u);
            }
        }
    }
    p
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn cfg_of(body: &str, f: impl FnOnce(&Cfg)) {
        let src = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 n)\n{{\n{body}\n}}\n"
        );
        let parsed = crate::parse(src.as_bytes());
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let func = parsed.module.functions().next().unwrap();
        let lines = LineIndex::new(src.as_bytes());
        f(&Cfg::build(func, &lines));
    }

    fn edges(c: &Cfg) -> Vec<(usize, Option<usize>, &'static str)> {
        c.edges
            .iter()
            .map(|e| (e.from, e.to, e.kind.as_str()))
            .collect()
    }

    #[test]
    fn guarded_branch_early_exit_and_labels() {
        cfg_of(
            ".reg .pred %p<2>;\n.reg .b32 %r<3>;\nld.param.u32 %r1, [n];\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 exit;\nL1:\nL2:\nadd.u32 %r1, %r1, 1;\n@%p1 bra L1;\nbra.uni L3;\nL3:\nret;",
            |c| {
                assert_eq!(c.blocks.len(), 4);
                assert_eq!(c.blocks[1].labels, vec!["L1", "L2"]);
                assert_eq!(c.blocks[0].label, "entry");
                assert_eq!(c.blocks[0].instructions, 3);
                assert_eq!(c.blocks[0].first_line, 8);
                assert_eq!(
                    edges(c),
                    vec![
                        (0, None, "exit"),
                        (0, Some(1), "fallthrough"),
                        (1, Some(1), "conditional"),
                        (1, Some(2), "fallthrough"),
                        (2, Some(3), "branch"),
                        (3, None, "return"),
                    ]
                );
            },
        );
    }

    #[test]
    fn brx_idx_targets_and_trap() {
        cfg_of(
            ".reg .b32 %r<3>;\nld.param.u32 %r1, [n];\nts: .branchtargets A, B, A;\nbrx.idx %r1, ts;\nA:\ntrap;\nB:\n{\nadd.u32 %r1, %r1, 1;\n}\nC:",
            |c| {
                assert_eq!(c.blocks.len(), 4);
                assert_eq!(
                    edges(c),
                    vec![
                        (0, Some(1), "indirect"),
                        (0, Some(2), "indirect"),
                        (1, None, "trap"),
                        (2, Some(3), "fallthrough"),
                        (3, None, "fallthrough"),
                    ]
                );
                assert_eq!(c.blocks[3].instructions, 0);
                assert_eq!(c.block_insts(2).len(), 1);
            },
        );
    }

    #[test]
    fn shared_lists_resolved_once() {
        cfg_of(
            ".reg .b32 %r<3>;\nts: .branchtargets A, Z, B, A;\n@%p1 brx.idx %r1, ts;\nA:\nbrx.idx %r1, ts;\nB:\nret;",
            |c| {
                assert_eq!(
                    edges(c),
                    vec![
                        (0, Some(1), "indirect"),
                        (0, Some(2), "indirect"),
                        (0, Some(1), "fallthrough"),
                        (1, Some(1), "indirect"),
                        (1, Some(2), "indirect"),
                        (2, None, "return"),
                    ]
                );
                // The list's missing label is named once, not once per use.
                assert_eq!(c.unresolved_targets, vec!["Z".to_string()]);
                assert_eq!(c.omitted_edges, 0);
            },
        );
    }

    #[test]
    fn indirect_edge_budget_grows_with_the_lists() {
        assert_eq!(indirect_edge_budget(0), MIN_INDIRECT_EDGES);
        assert_eq!(indirect_edge_budget(1 << 20), 1 << 22);
        assert_eq!(indirect_edge_budget(usize::MAX), usize::MAX);
    }

    #[test]
    fn empty_body_has_one_block() {
        cfg_of("", |c| {
            assert_eq!(c.blocks.len(), 1);
            assert_eq!(edges(c), vec![(0, None, "fallthrough")]);
        });
    }
}
