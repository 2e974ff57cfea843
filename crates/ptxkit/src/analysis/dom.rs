//! Dominators by the algorithm of Lengauer and Tarjan (1979), with path
//! compression: O(m log n) on any graph.
//!
//! The graph is given as successor lists over nodes `0..n` and an entry
//! node. Nodes unreachable from the entry have no dominator.

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
        let idom = lengauer_tarjan(succs, &preds, entry);
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

/// No node: the root's ancestor, an unreachable node's number.
const NONE: usize = usize::MAX;

/// Immediate dominators by Lengauer and Tarjan's algorithm ("A fast
/// algorithm for finding dominators in a flowgraph", 1979), in its simple
/// form with path compression: O(m log n) for any graph. (The iterative
/// algorithm it replaces is quadratic on a chain of blocks that all branch
/// to one target: each intersection walks the whole chain.) Every step is
/// iterative, so deep graphs need no stack.
fn lengauer_tarjan(succs: &[Vec<usize>], preds: &[Vec<usize>], entry: usize) -> Vec<Option<usize>> {
    let n = succs.len();
    let mut idom_out: Vec<Option<usize>> = vec![None; n];
    if entry >= n {
        return idom_out;
    }
    // Depth-first preorder numbers (`dfnum`), the node of each number
    // (`vertex`) and each number's tree parent.
    let mut dfnum = vec![NONE; n];
    let mut vertex: Vec<usize> = Vec::with_capacity(n);
    let mut parent: Vec<usize> = Vec::with_capacity(n);
    let mut stack = vec![(entry, NONE, 0usize)];
    while let Some(top) = stack.last_mut() {
        let (u, from, i) = *top;
        if i == 0 {
            if dfnum.get(u).copied() != Some(NONE) {
                stack.pop();
                continue;
            }
            if let Some(d) = dfnum.get_mut(u) {
                *d = vertex.len();
            }
            vertex.push(u);
            parent.push(from);
        }
        match succs.get(u).and_then(|l| l.get(i)) {
            Some(&v) => {
                top.2 = i.saturating_add(1);
                if dfnum.get(v).copied() == Some(NONE) {
                    let pu = dfnum.get(u).copied().unwrap_or(NONE);
                    stack.push((v, pu, 0));
                }
            }
            None => {
                stack.pop();
            }
        }
    }
    let count = vertex.len();
    let mut semi: Vec<usize> = (0..count).collect();
    let mut label: Vec<usize> = (0..count).collect();
    let mut ancestor = vec![NONE; count];
    let mut idom = vec![NONE; count];
    let mut bucket: Vec<Vec<usize>> = vec![Vec::new(); count];
    let at = |v: &[usize], i: usize| v.get(i).copied().unwrap_or(NONE);
    let mut path: Vec<usize> = Vec::new();
    // The node of least semidominator on the compressed path above `v`.
    let mut eval = |v: usize, ancestor: &mut [usize], label: &mut [usize], semi: &[usize]| {
        if at(ancestor, v) == NONE {
            return v;
        }
        path.clear();
        let mut x = v;
        while at(ancestor, at(ancestor, x)) != NONE {
            path.push(x);
            x = at(ancestor, x);
        }
        while let Some(y) = path.pop() {
            let a = at(ancestor, y);
            let (la, ly) = (at(label, a), at(label, y));
            if at(semi, la) < at(semi, ly) {
                if let Some(l) = label.get_mut(y) {
                    *l = la;
                }
            }
            let aa = at(ancestor, a);
            if let Some(anc) = ancestor.get_mut(y) {
                *anc = aa;
            }
        }
        at(label, v)
    };
    for w in (1..count).rev() {
        let node = at(&vertex, w);
        for &p in preds.get(node).map(|v| v.as_slice()).unwrap_or_default() {
            let v = at(&dfnum, p);
            if v == NONE {
                continue;
            }
            let u = eval(v, &mut ancestor, &mut label, &semi);
            if at(&semi, u) < at(&semi, w) {
                let su = at(&semi, u);
                if let Some(s) = semi.get_mut(w) {
                    *s = su;
                }
            }
        }
        let sw = at(&semi, w);
        if let Some(b) = bucket.get_mut(sw) {
            b.push(w);
        }
        let pw = at(&parent, w);
        if let Some(a) = ancestor.get_mut(w) {
            *a = pw;
        }
        let waiting = bucket.get_mut(pw).map(std::mem::take).unwrap_or_default();
        for v in waiting {
            let u = eval(v, &mut ancestor, &mut label, &semi);
            let d = if at(&semi, u) < at(&semi, v) { u } else { pw };
            if let Some(i) = idom.get_mut(v) {
                *i = d;
            }
        }
    }
    for w in 1..count {
        let d = at(&idom, w);
        if d != at(&semi, w) {
            let dd = at(&idom, d);
            if let Some(i) = idom.get_mut(w) {
                *i = dd;
            }
        }
    }
    for (w, &node) in vertex.iter().enumerate() {
        let d = if w == 0 {
            node
        } else {
            at(&vertex, at(&idom, w))
        };
        if let Some(slot) = idom_out.get_mut(node) {
            *slot = (d != NONE).then_some(d);
        }
    }
    idom_out
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
