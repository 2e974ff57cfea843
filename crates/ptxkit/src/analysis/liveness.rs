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

/// What solving liveness may cost a function. The sets take blocks ×
/// registers bits each, and each sweep over the blocks touches every set,
/// so a function of many blocks and many registers joined by back edges
/// (each block branching back to the one before it) costs blocks² ×
/// registers: 8,000 such blocks took 17.6 s. Past either bound the
/// liveness is not solved (see `docs/limits.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Most 64-bit words one of the four per-block sets (uses, defs, live
    /// in, live out) may take for all blocks together.
    pub set_words: usize,
    /// Most word operations the sweeps may take.
    pub steps: u64,
}

/// [`Budget::set_words`] of every function: 8 MB a set, 32 MB for the
/// four. The most any function of the corpus needs is 64,410 words (678
/// blocks, 6,043 registers).
pub const MAX_SET_WORDS: usize = 1 << 20;

/// Word operations allowed per instruction and block of a function
/// ([`Budget::steps`]). Code laid out by a compiler settles in a few
/// sweeps: the most any function of the corpus takes is 252 an
/// instruction and block.
pub const STEPS_PER_INSTRUCTION: u64 = 4096;

/// The least [`Budget::steps`] of any function.
pub const MIN_STEPS: u64 = 1 << 24;

impl Budget {
    /// The budget of a function of `insts` instructions in `blocks` blocks.
    pub fn of_function(insts: usize, blocks: usize) -> Budget {
        let size = u64::try_from(insts.saturating_add(blocks)).unwrap_or(u64::MAX);
        Budget {
            set_words: MAX_SET_WORDS,
            steps: size.saturating_mul(STEPS_PER_INSTRUCTION).max(MIN_STEPS),
        }
    }

    /// No bound (for tests and small graphs built by hand).
    pub const UNBOUNDED: Budget = Budget {
        set_words: usize::MAX,
        steps: u64::MAX,
    };

    /// Whether sets of `nvars` bits for `blocks` blocks fit.
    pub fn sets_fit(&self, blocks: usize, nvars: usize) -> bool {
        blocks.saturating_mul(words(nvars)) <= self.set_words
    }
}

/// 64-bit words of a set of `nvars` bits (at least one).
fn words(nvars: usize) -> usize {
    nvars.div_ceil(64).max(1)
}

/// Why liveness was not solved: the function's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverBudget {
    /// Blocks of the graph.
    pub blocks: usize,
    /// Registers (variables) of the sets.
    pub vars: usize,
}

/// Solve liveness over `succs` for `nvars` variables. `uses` and `defs`
/// have one set per block (missing entries count as empty).
pub fn solve(
    succs: &[Vec<usize>],
    uses: &[FixedBitSet],
    defs: &[FixedBitSet],
    nvars: usize,
) -> Liveness {
    match solve_within(succs, uses, defs, nvars, Budget::UNBOUNDED) {
        Ok(l) => l,
        // Unreachable with no bound; an empty answer rather than a panic.
        Err(_) => Liveness {
            live_in: Vec::new(),
            live_out: Vec::new(),
        },
    }
}

/// [`solve`], or [`OverBudget`] as soon as the sets or the sweeps would
/// pass `budget`.
pub fn solve_within(
    succs: &[Vec<usize>],
    uses: &[FixedBitSet],
    defs: &[FixedBitSet],
    nvars: usize,
    budget: Budget,
) -> Result<Liveness, OverBudget> {
    let n = succs.len();
    let over = OverBudget {
        blocks: n,
        vars: nvars,
    };
    if !budget.sets_fit(n, nvars) {
        return Err(over);
    }
    let w = u64::try_from(words(nvars)).unwrap_or(u64::MAX);
    let mut steps = 0u64;
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
            let out_of = succs.get(b).map(|v| v.as_slice()).unwrap_or_default();
            // Clearing, one union a successor, two compares and the two
            // set operations: each a pass over the set's words.
            let cost = u64::try_from(out_of.len())
                .unwrap_or(u64::MAX)
                .saturating_add(5)
                .saturating_mul(w);
            steps = steps.saturating_add(cost);
            if steps > budget.steps {
                return Err(over);
            }
            scratch.clear();
            for &s in out_of {
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
    Ok(Liveness { live_in, live_out })
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::unwrap_used
)]
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

    /// `n` blocks, block `k` using variable `k` and defining `k + 1`,
    /// falling into `k + 1` and branching back to `k - 1`.
    fn back_chain(n: usize) -> (Vec<Vec<usize>>, Vec<FixedBitSet>, Vec<FixedBitSet>) {
        let succs = (0..n)
            .map(|k| {
                let mut s = vec![k + 1];
                if k > 0 {
                    s.push(k - 1);
                }
                s.retain(|&b| b < n);
                s
            })
            .collect();
        let uses = (0..n).map(|k| set(n + 1, &[k])).collect();
        let defs = (0..n).map(|k| set(n + 1, &[k + 1])).collect();
        (succs, uses, defs)
    }

    #[test]
    fn a_chain_of_back_edges_is_solved_within_a_large_budget() {
        let (succs, uses, defs) = back_chain(200);
        let l = solve_within(&succs, &uses, &defs, 201, Budget::of_function(400, 200)).unwrap();
        // Variable 0 is read in block 0 and written nowhere: live on entry
        // to every block, since every block reaches block 0.
        assert!((0..200).all(|b| l.live_in[b].contains(0)));
        assert_eq!(l.live_in, solve(&succs, &uses, &defs, 201).live_in);
    }

    #[test]
    fn sweeps_past_the_budget_give_up() {
        // A sweep a block: 2,000 sweeps of 2,000 blocks of 32 words.
        let (succs, uses, defs) = back_chain(2_000);
        let budget = Budget::of_function(4_000, 2_000);
        let r = solve_within(&succs, &uses, &defs, 2_001, budget);
        assert_eq!(
            r.err(),
            Some(OverBudget {
                blocks: 2_000,
                vars: 2_001
            })
        );
    }

    #[test]
    fn sets_past_the_budget_are_not_made() {
        let budget = Budget::of_function(10, 10);
        assert!(budget.sets_fit(1_000, 64 * 1_000));
        assert!(!budget.sets_fit(1_000, 64 * 2_000));
        assert!(!budget.sets_fit(usize::MAX, 2));
        let tiny = Budget {
            set_words: 3,
            steps: u64::MAX,
        };
        let succs = vec![vec![1], vec![2], vec![3], vec![]];
        let none = vec![set(1, &[]); 4];
        assert!(solve_within(&succs, &none, &none, 1, tiny).is_err());
    }
}
