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
    /// The nodes whose innermost loop this is, header included, ascending.
    /// The loop's other nodes are those of the loops nested in it (see
    /// [`LoopForest::blocks`]): listed once each, a forest of deeply nested
    /// loops stays proportional to the graph.
    pub own_blocks: Vec<usize>,
    /// The number of nodes of the loop, nested loops' included.
    pub size: usize,
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

impl LoopForest {
    /// Every node of loop `i` (index in [`LoopForest::loops`]), nested
    /// loops' included, ascending.
    pub fn blocks(&self, i: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut work = vec![i];
        while let Some(l) = work.pop() {
            if let Some(lp) = self.loops.get(l) {
                out.extend_from_slice(&lp.own_blocks);
            }
            // Loops nested in `l` come after it (their headers are later in
            // reverse post-order).
            for (j, inner) in self.loops.iter().enumerate().skip(l.saturating_add(1)) {
                if inner.parent == Some(l) {
                    work.push(j);
                }
            }
        }
        out.sort_unstable();
        out
    }
}

/// Find the natural loops of `succs` given its dominators.
///
/// Headers are taken innermost first (reverse post-order backwards), and
/// each loop's walk back from its latches steps over a loop found before
/// in one step, through a union-find of the loops absorbed so far: only a
/// natural loop's header has predecessors outside it, so the walk goes on
/// from the inner header's predecessors. Each node and edge is visited a
/// constant number of times (near-linear time, whatever the nesting).
pub fn find_loops(succs: &[Vec<usize>], dom: &Dominators) -> LoopForest {
    let n = succs.len();
    let preds = predecessors(succs);
    // Loops in reverse post-order of their headers (outer before inner).
    let mut loops: Vec<Loop> = Vec::new();
    for &h in &dom.rpo {
        let mut latches: Vec<usize> = preds
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
        latches.sort_unstable();
        latches.dedup();
        loops.push(Loop {
            header: h,
            latches,
            own_blocks: Vec::new(),
            size: 0,
            depth: 0,
            parent: None,
        });
    }
    const NONE: usize = usize::MAX;
    // The innermost loop of every node, and the loop of every header.
    let mut innermost = vec![NONE; n];
    let mut loop_of_header = vec![NONE; n];
    for (i, l) in loops.iter().enumerate() {
        if let Some(x) = loop_of_header.get_mut(l.header) {
            *x = i;
        }
    }
    // Union-find over nodes: a node absorbed into a loop points (through
    // `up`) at the header of the outermost loop found so far around it.
    let mut up: Vec<usize> = (0..n).collect();
    let find = |up: &mut Vec<usize>, x: usize| -> usize {
        let mut r = x;
        while let Some(&p) = up.get(r).filter(|&&p| p != r) {
            r = p;
        }
        let mut y = x;
        while let Some(&p) = up.get(y).filter(|&&p| p != y) {
            if let Some(s) = up.get_mut(y) {
                *s = r;
            }
            y = p;
        }
        r
    };
    let mut stamp = vec![NONE; n];
    let mut work: Vec<usize> = Vec::new();
    for li in (0..loops.len()).rev() {
        let Some(h) = loops.get(li).map(|l| l.header) else {
            continue;
        };
        if let Some(x) = innermost.get_mut(h) {
            *x = li;
        }
        if let Some(x) = stamp.get_mut(h) {
            *x = li;
        }
        let mut size = 1usize;
        work.clear();
        for &l in loops
            .get(li)
            .map(|l| l.latches.as_slice())
            .unwrap_or_default()
        {
            let r = find(&mut up, l);
            if stamp.get(r).is_some_and(|&s| s != li) {
                if let Some(x) = stamp.get_mut(r) {
                    *x = li;
                }
                work.push(r);
            }
        }
        while let Some(r) = work.pop() {
            match loop_of_header
                .get(r)
                .copied()
                .filter(|&j| j != NONE && j != li)
            {
                // The header of a loop found before: it nests in this one.
                Some(j) => {
                    let inner = loops.get(j).map_or(0, |l| l.size);
                    size = size.saturating_add(inner);
                    if let Some(l) = loops.get_mut(j) {
                        l.parent = Some(li);
                    }
                }
                None => {
                    size = size.saturating_add(1);
                    if let Some(x) = innermost.get_mut(r) {
                        *x = li;
                    }
                }
            }
            if let Some(x) = up.get_mut(r) {
                *x = h;
            }
            for &p in preds.get(r).map(|p| p.as_slice()).unwrap_or_default() {
                if !dom.is_reachable(p) {
                    continue;
                }
                let q = find(&mut up, p);
                if stamp.get(q).is_some_and(|&s| s != li) {
                    if let Some(x) = stamp.get_mut(q) {
                        *x = li;
                    }
                    work.push(q);
                }
            }
        }
        if let Some(l) = loops.get_mut(li) {
            l.size = size;
        }
    }
    for (b, &li) in innermost.iter().enumerate() {
        if let Some(l) = loops.get_mut(li) {
            l.own_blocks.push(b);
        }
    }
    // Depths, outer loops first.
    for i in 0..loops.len() {
        let d = loops
            .get(i)
            .and_then(|l| l.parent)
            .and_then(|p| loops.get(p))
            .map_or(1, |p| p.depth.saturating_add(1));
        if let Some(l) = loops.get_mut(i) {
            l.depth = d;
        }
    }
    let block_depth = innermost
        .iter()
        .map(|&li| loops.get(li).map_or(0, |l| l.depth))
        .collect();
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
                own_blocks: vec![1, 4],
                size: 4,
                depth: 1,
                parent: None
            }
        );
        assert_eq!(
            f.loops[1],
            Loop {
                header: 2,
                latches: vec![3],
                own_blocks: vec![2, 3],
                size: 2,
                depth: 2,
                parent: Some(0)
            }
        );
        assert_eq!(f.block_depth, vec![0, 1, 2, 2, 1, 0]);
        assert_eq!(f.blocks(0), vec![1, 2, 3, 4]);
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
        assert_eq!(f.blocks(0), vec![1]);
        assert_eq!(f.loops[1].header, 2);
        assert_eq!(f.loops[1].latches, vec![3, 4]);
        assert_eq!(f.blocks(1), vec![2, 3, 4]);
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
        assert_eq!(f.blocks(0), vec![1, 2, 3, 4]);
        assert!(f.is_irreducible());
    }

    #[test]
    fn unreachable_cycle_is_ignored() {
        let f = forest(4, &[(0, 1), (2, 3), (3, 2)]);
        assert!(f.loops.is_empty() && !f.is_irreducible());
        assert_eq!(f.block_depth, vec![0, 0, 0, 0]);
    }
}
