//! Everything `ptx cfg` reports about one function: blocks, edges,
//! reverse post-order, dominators and loops, in one serialisable value.

use serde::Serialize;

use super::cfg::{BasicBlock, Cfg, Edge};
use super::dom::Dominators;
use super::loops::{find_loops, Loop};
use crate::source::LineIndex;
use crate::syntax::Function;

/// The control flow of one function.
#[derive(Clone, Debug, Serialize)]
pub struct FlowReport {
    /// The function.
    pub function: String,
    /// Its readable C++ name when the function's name is mangled ([`crate::demangle()`]).
    pub demangled: Option<String>,
    /// Basic blocks in source order.
    pub blocks: Vec<BasicBlock>,
    /// Edges; `to: null` leaves the function.
    pub edges: Vec<Edge>,
    /// The entry block.
    pub entry: usize,
    /// Reverse post-order of the blocks reachable from the entry.
    pub rpo: Vec<usize>,
    /// Immediate dominator of each block (`null` for the entry and for
    /// unreachable blocks).
    pub idom: Vec<Option<usize>>,
    /// Blocks not reachable from the entry.
    pub unreachable: Vec<usize>,
    /// Natural loops, outer before inner.
    pub loops: Vec<Loop>,
    /// Loop depth of each block.
    pub loop_depth: Vec<u32>,
    /// Edges that make the flow irreducible (empty when reducible).
    pub irreducible_edges: Vec<(usize, usize)>,
    /// `.branchtargets` entries naming no label of the function.
    pub unresolved_targets: Vec<String>,
    /// `brx.idx` edges left out of `edges` past the graph's budget
    /// ([`super::cfg::indirect_edge_budget`]; 0 unless `brx.idx`
    /// instructions share `.branchtargets` lists).
    pub omitted_edges: usize,
    /// Every back edge (latch, header), sorted: [`FlowReport::is_back_edge`]
    /// in O(log n).
    #[serde(skip)]
    back_edges: Vec<(usize, usize)>,
}

impl FlowReport {
    /// Analyse `f`.
    pub fn build(f: &Function, lines: &LineIndex) -> FlowReport {
        let cfg = Cfg::build(f, lines);
        let succs = cfg.successors();
        let dom = Dominators::compute(&succs, cfg.entry);
        let lf = find_loops(&succs, &dom);
        let mut back_edges: Vec<(usize, usize)> = lf
            .loops
            .iter()
            .flat_map(|l| l.latches.iter().map(|&f| (f, l.header)))
            .collect();
        back_edges.sort_unstable();
        FlowReport {
            back_edges,
            function: f.name.to_string(),
            demangled: crate::demangle(f.name.as_str()),
            idom: (0..cfg.blocks.len()).map(|b| dom.idom(b)).collect(),
            unreachable: (0..cfg.blocks.len())
                .filter(|&b| !dom.is_reachable(b))
                .collect(),
            rpo: dom.rpo,
            loops: lf.loops,
            loop_depth: lf.block_depth,
            irreducible_edges: lf.irreducible_edges,
            entry: cfg.entry,
            unresolved_targets: cfg.unresolved_targets,
            omitted_edges: cfg.omitted_edges,
            edges: cfg.edges,
            blocks: cfg.blocks,
        }
    }

    /// Whether `from → to` is a back edge of some loop.
    pub fn is_back_edge(&self, from: usize, to: usize) -> bool {
        self.back_edges.binary_search(&(from, to)).is_ok()
    }
}
