//! Dominators by the iterative algorithm of Cooper, Harvey and Kennedy
//! ("A Simple, Fast Dominance Algorithm", 2001).
//!
//! The graph is given as successor lists over nodes `0..n` and an entry
//! node. Immediate dominators are found by intersecting the dominator-tree
//! paths of each node's processed predecessors, visiting nodes in reverse
//! post-order until nothing changes. Nodes unreachable from the entry have
//! no dominator.

use serde::Serialize;

use super::cfg::predecessors;

/// Reverse post-order of the nodes reachable from `entry` (iterative DFS,
/// successors visited in list order).
pub fn reverse_postorder(succs: &[Vec<usize>], entry: usize) -> Vec<usize> {
    let n = succs.len();
    if entry >= n {
        return Vec::new();
    }
    let mut seen = vec![false; n];
    let mut post = Vec::with_capacity(n);
    // (node, next successor index)
    let mut stack = vec![(entry, 0usize)];
    if let Some(s) = seen.get_mut(entry) {
        *s = true;
    }
    while let Some(top) = stack.last_mut() {
        let (u, i) = *top;
        match succs.get(u).and_then(|l| l.get(i)) {
            Some(&v) => {
                top.1 = top.1.saturating_add(1);
                if let Some(s) = seen.get_mut(v) {
                    if !*s {
                        *s = true;
                        stack.push((v, 0));
                    }
                }
            }
            None => {
                post.push(u);
                stack.pop();
            }
        }
    }
    post.reverse();
    post
}

/// The dominator tree of a graph.
#[derive(Clone, Debug, Serialize)]
pub struct Dominators {
    /// The entry node.
    pub entry: usize,
    /// Immediate dominator of each node; the entry's is itself, unreachable
    /// nodes have none.
    pub idom: Vec<Option<usize>>,
    /// Reverse post-order of the reachable nodes.
    pub rpo: Vec<usize>,
    /// Pre-order number in the dominator tree (for O(1) queries).
    #[serde(skip)]
    pre: Vec<u32>,
    /// Last pre-order number within each node's subtree.
    #[serde(skip)]
    last: Vec<u32>,
}

impl Dominators {
    /// Compute the dominators of the graph `succs` from `entry`.
    pub fn compute(succs: &[Vec<usize>], entry: usize) -> Dominators {
        let n = succs.len();
        let rpo = reverse_postorder(succs, entry);
        let preds = predecessors(succs);
        // Position of each node in `rpo` (usize::MAX: unreachable).
        let mut order = vec![usize::MAX; n];
        for (i, &b) in rpo.iter().enumerate() {
            if let Some(o) = order.get_mut(b) {
                *o = i;
            }
        }
        let mut idom: Vec<Option<usize>> = vec![None; n];
        if let Some(e) = idom.get_mut(entry) {
            *e = Some(entry);
        }
        let pos = |b: usize| order.get(b).copied().unwrap_or(usize::MAX);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new: Option<usize> = None;
                for &p in preds.get(b).map(|v| v.as_slice()).unwrap_or_default() {
                    if idom.get(p).copied().flatten().is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(cur) => intersect(&idom, &pos, p, cur),
                    });
                }
                if let Some(slot) = idom.get_mut(b) {
                    if new.is_some() && *slot != new {
                        *slot = new;
                        changed = true;
                    }
                }
            }
        }
        let mut d = Dominators {
            entry,
            idom,
            rpo,
            pre: vec![u32::MAX; n],
            last: vec![0; n],
        };
        d.number();
        d
    }

    /// Number the dominator tree in pre-order so that `a` dominates `b`
    /// exactly when `b`'s number falls within `a`'s subtree range.
    fn number(&mut self) {
        let n = self.idom.len();
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (b, d) in self.idom.iter().enumerate() {
            if let Some(d) = *d {
                if d != b {
                    if let Some(c) = children.get_mut(d) {
                        c.push(b);
                    }
                }
            }
        }
        if self.entry >= n {
            return;
        }
        let mut counter = 0u32;
        let mut stack = vec![(self.entry, 0usize)];
        if let Some(p) = self.pre.get_mut(self.entry) {
            *p = 0;
        }
        while let Some(top) = stack.last_mut() {
            let (u, i) = *top;
            match children.get(u).and_then(|c| c.get(i)) {
                Some(&v) => {
                    top.1 = top.1.saturating_add(1);
                    counter = counter.saturating_add(1);
                    if let Some(p) = self.pre.get_mut(v) {
                        *p = counter;
                    }
                    stack.push((v, 0));
                }
                None => {
                    if let Some(l) = self.last.get_mut(u) {
                        *l = counter;
                    }
                    stack.pop();
                }
            }
        }
    }

    /// The immediate dominator of `b` (`None` for the entry and unreachable nodes).
    pub fn idom(&self, b: usize) -> Option<usize> {
        self.idom.get(b).copied().flatten().filter(|&d| d != b)
    }

    /// Whether `b` is reachable from the entry.
    pub fn is_reachable(&self, b: usize) -> bool {
        self.idom.get(b).copied().flatten().is_some()
    }

    /// Whether `a` dominates `b` (every node dominates itself; nothing
    /// dominates or is dominated by an unreachable node).
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        match (self.pre.get(a), self.pre.get(b), self.last.get(a)) {
            (Some(&pa), Some(&pb), Some(&la)) => {
                pa != u32::MAX && pb != u32::MAX && pa <= pb && pb <= la
            }
            _ => false,
        }
    }
}

fn intersect(
    idom: &[Option<usize>],
    pos: &impl Fn(usize) -> usize,
    mut a: usize,
    mut b: usize,
) -> usize {
    while a != b {
        while pos(a) > pos(b) {
            match idom.get(a).copied().flatten() {
                Some(d) if d != a => a = d,
                _ => return b,
            }
        }
        while pos(b) > pos(a) {
            match idom.get(b).copied().flatten() {
                Some(d) if d != b => b = d,
                _ => return a,
            }
        }
    }
    a
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn graph(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
        let mut g = vec![Vec::new(); n];
        for &(a, b) in edges {
            g[a].push(b);
        }
        g
    }

    #[test]
    fn diamond_and_unreachable() {
        // 0 -> 1, 2 -> 3; 4 unreachable -> 3.
        let g = graph(5, &[(0, 1), (0, 2), (1, 3), (2, 3), (4, 3)]);
        let d = Dominators::compute(&g, 0);
        assert_eq!(d.idom, vec![Some(0), Some(0), Some(0), Some(0), None]);
        assert_eq!(d.rpo, vec![0, 2, 1, 3]);
        assert!(d.dominates(0, 3) && !d.dominates(1, 3) && d.dominates(3, 3));
        assert!(!d.dominates(0, 4) && !d.dominates(4, 3) && !d.is_reachable(4));
        assert_eq!(d.idom(0), None);
    }

    #[test]
    fn nested_loops() {
        // 0 -> 1 -> 2 -> 3 -> 2 (inner), 3 -> 4 -> 1 (outer), 4 -> 5.
        let g = graph(6, &[(0, 1), (1, 2), (2, 3), (3, 2), (3, 4), (4, 1), (4, 5)]);
        let d = Dominators::compute(&g, 0);
        assert_eq!(
            d.idom,
            vec![Some(0), Some(0), Some(1), Some(2), Some(3), Some(4)]
        );
        assert!(d.dominates(1, 5) && d.dominates(2, 4) && !d.dominates(4, 2));
    }

    #[test]
    fn irreducible() {
        // 0 -> 1, 0 -> 2, 1 <-> 2, 2 -> 3: neither 1 nor 2 dominates the other.
        let g = graph(4, &[(0, 1), (0, 2), (1, 2), (2, 1), (2, 3)]);
        let d = Dominators::compute(&g, 0);
        assert_eq!(d.idom, vec![Some(0), Some(0), Some(0), Some(2)]);
        assert!(!d.dominates(1, 2) && !d.dominates(2, 1));
    }

    #[test]
    fn classic_example() {
        // The example graph of Cooper, Harvey and Kennedy's figure 4 (node 6
        // is the entry; 0 is an isolated, unreachable node).
        // Edges: 6->5, 6->4, 5->1, 4->2, 4->3, 2->1, 1->2, 2->3, 3->2.
        let g = graph(
            7,
            &[
                (6, 5),
                (6, 4),
                (5, 1),
                (4, 2),
                (4, 3),
                (2, 1),
                (1, 2),
                (2, 3),
                (3, 2),
            ],
        );
        let d = Dominators::compute(&g, 6);
        for b in 1..=5 {
            assert_eq!(d.idom[b], Some(6), "node {b}");
        }
        assert_eq!(d.idom[0], None);
    }
}
