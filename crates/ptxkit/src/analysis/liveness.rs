//! Live variables: the classic backward dataflow over a graph of blocks.
//!
//! For each block, `uses` holds the variables read before any write in the
//! block and `defs` the variables the block certainly writes. Then
//! `live_out(b) = ∪ live_in(s)` over successors `s`, and
//! `live_in(b) = uses(b) ∪ (live_out(b) − defs(b))`, iterated to the least
//! fixed point. Blocks that leave the function have nothing live after them.

use fixedbitset::FixedBitSet;

/// Live-in and live-out sets of every block.
#[derive(Clone, Debug)]
pub struct Liveness {
    /// Variables live on entry to each block.
    pub live_in: Vec<FixedBitSet>,
    /// Variables live on exit from each block.
    pub live_out: Vec<FixedBitSet>,
}

/// Solve liveness over `succs` for `nvars` variables. `uses` and `defs`
/// have one set per block (missing entries count as empty).
pub fn solve(
    succs: &[Vec<usize>],
    uses: &[FixedBitSet],
    defs: &[FixedBitSet],
    nvars: usize,
) -> Liveness {
    let n = succs.len();
    let empty = FixedBitSet::with_capacity(nvars);
    let mut live_in = vec![empty.clone(); n];
    let mut live_out = vec![empty.clone(); n];
    // Sweep from the last block to the first: for code laid out forwards
    // that is close to post-order, so few sweeps are needed.
    let mut changed = true;
    let mut scratch = empty.clone();
    while changed {
        changed = false;
        for b in (0..n).rev() {
            scratch.clear();
            for &s in succs.get(b).map(|v| v.as_slice()).unwrap_or_default() {
                if let Some(li) = live_in.get(s) {
                    scratch.union_with(li);
                }
            }
            if let Some(lo) = live_out.get_mut(b) {
                if *lo != scratch {
                    lo.clone_from(&scratch);
                }
            }
            // in = uses ∪ (out − defs)
            if let Some(d) = defs.get(b) {
                scratch.difference_with(d);
            }
            if let Some(u) = uses.get(b) {
                scratch.union_with(u);
            }
            if let Some(li) = live_in.get_mut(b) {
                if *li != scratch {
                    li.clone_from(&scratch);
                    changed = true;
                }
            }
        }
    }
    Liveness { live_in, live_out }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn set(n: usize, xs: &[usize]) -> FixedBitSet {
        let mut s = FixedBitSet::with_capacity(n);
        for &x in xs {
            s.insert(x);
        }
        s
    }

    fn ones(s: &FixedBitSet) -> Vec<usize> {
        s.ones().collect()
    }

    #[test]
    fn loop_carries_variables_around() {
        // Variables: 0 = i, 1 = n, 2 = sum, 3 = tmp.
        // b0: def i, n, sum          -> b1
        // b1: tmp = f(i); sum += tmp; i++; branch on i<n  -> b1, b2
        // b2: use sum                 -> exit
        let succs = vec![vec![1], vec![1, 2], vec![]];
        let uses = vec![set(4, &[]), set(4, &[0, 1, 2]), set(4, &[2])];
        let defs = vec![set(4, &[0, 1, 2]), set(4, &[0, 2, 3]), set(4, &[])];
        let l = solve(&succs, &uses, &defs, 4);
        assert_eq!(ones(&l.live_in[0]), Vec::<usize>::new());
        assert_eq!(ones(&l.live_out[0]), vec![0, 1, 2]);
        assert_eq!(ones(&l.live_in[1]), vec![0, 1, 2]);
        assert_eq!(ones(&l.live_out[1]), vec![0, 1, 2]);
        assert_eq!(ones(&l.live_in[2]), vec![2]);
        assert_eq!(ones(&l.live_out[2]), Vec::<usize>::new());
    }

    #[test]
    fn early_exit_kills_nothing_after_it() {
        // b0 defines a, b; exits early to nowhere or falls into b1 which uses b only.
        let succs = vec![vec![1], vec![]];
        let uses = vec![set(2, &[]), set(2, &[1])];
        let defs = vec![set(2, &[0, 1]), set(2, &[])];
        let l = solve(&succs, &uses, &defs, 2);
        assert_eq!(ones(&l.live_out[0]), vec![1]);
        assert!(l.live_in[0].is_clear());
    }

    #[test]
    fn irreducible_cycle_converges() {
        // 0 -> 1, 0 -> 2, 1 <-> 2, 2 -> 3; variable 0 defined in 0, used in 1 and 3.
        let succs = vec![vec![1, 2], vec![2], vec![1, 3], vec![]];
        let uses = vec![set(1, &[]), set(1, &[0]), set(1, &[]), set(1, &[0])];
        let defs = vec![set(1, &[0]), set(1, &[]), set(1, &[]), set(1, &[])];
        let l = solve(&succs, &uses, &defs, 1);
        for b in 1..4 {
            assert_eq!(ones(&l.live_in[b]), vec![0], "block {b}");
        }
        assert!(l.live_in[0].is_clear());
    }
}
