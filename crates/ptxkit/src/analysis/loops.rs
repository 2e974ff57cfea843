//! Natural loops and their nesting, plus detection of irreducible flow.
//!
//! A back edge is an edge `n → h` whose target `h` dominates its source `n`.
//! The natural loop of header `h` is `h` together with every node that
//! reaches one of its back-edge sources without passing through `h`; back
//! edges sharing a header form one loop. Loop A is nested in loop B when B
//! contains A's header; depth counts the loops around a loop (outermost 1).
//!
//! Flow is irreducible when a depth-first search from the entry meets a
//! retreating edge (to a node still on the search stack) whose target does
//! not dominate its source: such a cycle has more than one entry and forms
//! no natural loop. Those edges are reported; the cycle is not counted as a
//! loop.

use serde::Serialize;

use super::cfg::predecessors;
use super::dom::Dominators;

/// One natural loop.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Loop {
    /// The header: the only entry of the loop.
    pub header: usize,
    /// Sources of the back edges to the header.
    pub latches: Vec<usize>,
    /// Every node of the loop, header included, ascending.
    pub blocks: Vec<usize>,
    /// 1 for an outermost loop, 2 for a loop inside it, …
    pub depth: u32,
    /// Index (in [`LoopForest::loops`]) of the innermost enclosing loop.
    pub parent: Option<usize>,
}

/// The loops of a graph.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LoopForest {
    /// Loops, ordered by their header's position in reverse post-order
    /// (an enclosing loop comes before the loops inside it).
    pub loops: Vec<Loop>,
    /// Loop depth of every node (0 outside every loop).
    pub block_depth: Vec<u32>,
    /// Retreating edges that are not back edges: each witnesses an
    /// irreducible cycle. Empty for reducible graphs.
    pub irreducible_edges: Vec<(usize, usize)>,
}

impl LoopForest {
    /// Whether the graph has irreducible flow.
    pub fn is_irreducible(&self) -> bool {
        !self.irreducible_edges.is_empty()
    }
}

/// Find the natural loops of `succs` given its dominators.
pub fn find_loops(succs: &[Vec<usize>], dom: &Dominators) -> LoopForest {
    let n = succs.len();
    let preds = predecessors(succs);
    // Back edges grouped by header, headers in reverse post-order.
    let mut loops: Vec<Loop> = Vec::new();
    for &h in &dom.rpo {
        let latches: Vec<usize> = preds
            .get(h)
            .map(|p| p.as_slice())
            .unwrap_or_default()
            .iter()
            .copied()
            .filter(|&u| dom.is_reachable(u) && dom.dominates(h, u))
            .collect();
        if latches.is_empty() {
            continue;
        }
        let mut inside = vec![false; n];
        if let Some(x) = inside.get_mut(h) {
            *x = true;
        }
        let mut work: Vec<usize> = Vec::new();
        for &l in &latches {
            if let Some(x) = inside.get_mut(l) {
                if !*x {
                    *x = true;
                    work.push(l);
                }
            }
        }
        while let Some(u) = work.pop() {
            for &p in preds.get(u).map(|p| p.as_slice()).unwrap_or_default() {
                if !dom.is_reachable(p) {
                    continue;
                }
                if let Some(x) = inside.get_mut(p) {
                    if !*x {
                        *x = true;
                        work.push(p);
                    }
                }
            }
        }
        let mut latches = latches;
        latches.sort_unstable();
        latches.dedup();
        loops.push(Loop {
            header: h,
            latches,
            blocks: (0..n)
                .filter(|&b| inside.get(b).copied().unwrap_or(false))
                .collect(),
            depth: 0,
            parent: None,
        });
    }
    // Parent: the smallest other loop containing the header. Natural loops
    // with distinct headers are disjoint or nested, so this is well defined.
    let parents: Vec<Option<usize>> = loops
        .iter()
        .enumerate()
        .map(|(i, l)| {
            loops
                .iter()
                .enumerate()
                .filter(|(j, o)| *j != i && o.blocks.binary_search(&l.header).is_ok())
                .min_by_key(|(_, o)| o.blocks.len())
                .map(|(j, _)| j)
        })
        .collect();
    for (l, p) in loops.iter_mut().zip(&parents) {
        l.parent = *p;
    }
    for i in 0..loops.len() {
        let mut depth = 1u32;
        let mut cur = parents.get(i).copied().flatten();
        while let Some(p) = cur {
            depth = depth.saturating_add(1);
            cur = parents.get(p).copied().flatten();
            if depth as usize > loops.len() {
                break;
            }
        }
        if let Some(l) = loops.get_mut(i) {
            l.depth = depth;
        }
    }
    let mut block_depth = vec![0u32; n];
    for l in &loops {
        for &b in &l.blocks {
            if let Some(d) = block_depth.get_mut(b) {
                {
                    let e = d;
                    *e = e.saturating_add(1);
                }
            }
        }
    }
    LoopForest {
        loops,
        block_depth,
        irreducible_edges: irreducible_edges(succs, dom),
    }
}

/// Retreating edges of a DFS from the entry that are not back edges.
fn irreducible_edges(succs: &[Vec<usize>], dom: &Dominators) -> Vec<(usize, usize)> {
    let n = succs.len();
    let mut out = Vec::new();
    if dom.entry >= n {
        return out;
    }
    // 0 = unvisited, 1 = on the stack, 2 = done.
    let mut state = vec![0u8; n];
    let mut stack = vec![(dom.entry, 0usize)];
    if let Some(s) = state.get_mut(dom.entry) {
        *s = 1;
    }
    while let Some(top) = stack.last_mut() {
        let (u, i) = *top;
        match succs.get(u).and_then(|l| l.get(i)) {
            Some(&v) => {
                top.1 = top.1.saturating_add(1);
                match state.get(v).copied() {
                    Some(0) => {
                        if let Some(s) = state.get_mut(v) {
                            *s = 1;
                        }
                        stack.push((v, 0));
                    }
                    Some(1) if !dom.dominates(v, u) => out.push((u, v)),
                    _ => {}
                }
            }
            None => {
                if let Some(s) = state.get_mut(u) {
                    *s = 2;
                }
                stack.pop();
            }
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn forest(n: usize, edges: &[(usize, usize)]) -> LoopForest {
        let mut g = vec![Vec::new(); n];
        for &(a, b) in edges {
            g[a].push(b);
        }
        let d = Dominators::compute(&g, 0);
        find_loops(&g, &d)
    }

    #[test]
    fn nested_loops_with_depths() {
        // 0 -> 1 (outer header) -> 2 (inner header) -> 3 -> 2, 3 -> 4 -> 1, 4 -> 5.
        let f = forest(6, &[(0, 1), (1, 2), (2, 3), (3, 2), (3, 4), (4, 1), (4, 5)]);
        assert_eq!(f.loops.len(), 2);
        assert_eq!(
            f.loops[0],
            Loop {
                header: 1,
                latches: vec![4],
                blocks: vec![1, 2, 3, 4],
                depth: 1,
                parent: None
            }
        );
        assert_eq!(
            f.loops[1],
            Loop {
                header: 2,
                latches: vec![3],
                blocks: vec![2, 3],
                depth: 2,
                parent: Some(0)
            }
        );
        assert_eq!(f.block_depth, vec![0, 1, 2, 2, 1, 0]);
        assert!(!f.is_irreducible());
    }

    #[test]
    fn self_loop_and_two_latches() {
        // 0 -> 1 -> 1 (self loop); 1 -> 2 -> 3 -> 2 and 2 -> 4 -> 2; 4 -> 5.
        let f = forest(
            6,
            &[
                (0, 1),
                (1, 1),
                (1, 2),
                (2, 3),
                (3, 2),
                (2, 4),
                (4, 2),
                (4, 5),
            ],
        );
        assert_eq!(f.loops.len(), 2);
        assert_eq!(f.loops[0].blocks, vec![1]);
        assert_eq!(f.loops[1].header, 2);
        assert_eq!(f.loops[1].latches, vec![3, 4]);
        assert_eq!(f.loops[1].blocks, vec![2, 3, 4]);
        assert_eq!(f.loops[1].depth, 1);
    }

    #[test]
    fn irreducible_cycle_is_reported_not_a_loop() {
        // Two entries into the 1 <-> 2 cycle.
        let f = forest(4, &[(0, 1), (0, 2), (1, 2), (2, 1), (2, 3)]);
        assert!(f.loops.is_empty());
        assert!(f.is_irreducible());
        assert_eq!(f.irreducible_edges.len(), 1);
        // A reducible loop around the irreducible part is still found.
        let f = forest(
            6,
            &[
                (0, 1),
                (1, 2),
                (1, 3),
                (2, 3),
                (3, 2),
                (3, 4),
                (4, 1),
                (4, 5),
            ],
        );
        assert_eq!(f.loops.len(), 1);
        assert_eq!(f.loops[0].header, 1);
        assert_eq!(f.loops[0].blocks, vec![1, 2, 3, 4]);
        assert!(f.is_irreducible());
    }

    #[test]
    fn unreachable_cycle_is_ignored() {
        let f = forest(4, &[(0, 1), (2, 3), (3, 2)]);
        assert!(f.loops.is_empty() && !f.is_irreducible());
        assert_eq!(f.block_depth, vec![0, 0, 0, 0]);
    }
}
