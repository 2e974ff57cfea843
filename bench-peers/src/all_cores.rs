//! Each parser on all cores: the files spread over the threads of one pool
//! (as `ptx check DIR` and `xtask bench` read a corpus), each tree freed by
//! the thread that made it. Beside the one-core rows this shows how much
//! each parser gains from the other cores, and so whether the ratio
//! between them holds when both use the whole machine.

use std::time::{Duration, Instant};

use rayon::prelude::*;

/// A pool of rayon's default size (`RAYON_NUM_THREADS`, or one thread per
/// core), each thread with the stack ptx-syntax's recursion needs (the same
/// for every parser, so that none is favoured).
pub fn pool() -> Option<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .stack_size(1 << 30)
        .build()
        .ok()
}

/// The best and the mean wall time of a pass that parses every one of
/// `files` with `parse` on `pool`'s threads and frees each tree right
/// after, over at least three passes and at least `min`.
pub fn time<T>(
    pool: &rayon::ThreadPool,
    min: Duration,
    files: &[&[u8]],
    parse: impl Fn(&[u8]) -> T + Sync,
) -> (f64, f64) {
    let (mut best, mut sum) = (f64::INFINITY, 0.0);
    let passes = crate::inputs::repeat_for(min, || {
        let t = Instant::now();
        // One job per file: called inside `install`, rayon's adaptive
        // splitting cuts the list into a few long runs, and the second
        // thread of a 2-thread pool then parsed a sixth of the bytes.
        pool.install(|| {
            files.par_iter().with_max_len(1).for_each(|f| {
                std::hint::black_box(parse(f));
            })
        });
        let pass = t.elapsed().as_secs_f64();
        best = best.min(pass);
        sum += pass;
    });
    (best, sum / f64::from(passes))
}
