//! Benchmark inputs, shared by `xtask bench` and `bench-peers` (which
//! includes this file by path): `.ptx` files below a path, the default set,
//! reading them, timing passes of a parser over them, this thread's CPU
//! time, and the heap setting of the `ptx` binary.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Every `.ptx` file at or below `p`, sorted within each directory.
pub fn collect(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        if let Ok(rd) = std::fs::read_dir(p) {
            let mut v: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
            v.sort();
            for q in v {
                collect(&q, out);
            }
        }
    } else if p.extension().is_some_and(|x| x == "ptx") {
        out.push(p.to_path_buf());
    }
}

/// Each of `paths` with its bytes, read into memory up front (files that
/// cannot be read are left out).
pub fn read_all(paths: Vec<PathBuf>) -> Vec<(PathBuf, Vec<u8>)> {
    paths
        .into_iter()
        .filter_map(|p| {
            let b = std::fs::read(&p).ok()?;
            Some((p, b))
        })
        .collect()
}

#[path = "../../crates/ptxkit/tests/common/files.rs"]
mod files;

/// The corpus file the speed issue names (994 KB of Kokkos kernels), under
/// ../shared/corpus.
pub use files::KOKKOS;

/// The ptxas-accepted files of ../shared/corpus plus the repository's examples.
pub fn default_inputs(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let corpus = root.join("../shared/corpus");
    if let Ok(m) = std::fs::read_to_string(corpus.join("MANIFEST.tsv")) {
        for l in m.lines().skip(1) {
            let c: Vec<&str> = l.split('\t').collect();
            if c.get(7) == Some(&"accept") {
                if let Some(p) = c.first() {
                    out.push(corpus.join(p));
                }
            }
        }
    }
    collect(&root.join("examples"), &mut out);
    out
}

/// CPU time of the calling thread (Linux), if the kernel tells it.
pub fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// The allocator setting of the `ptx` binary (its `tune_allocator`: glibc's
/// heap grows 64 MB at a time), so that the library is timed as `ptx` runs
/// it. Process-wide; call before any thread starts.
pub fn heap_like_ptx() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: called at start-up, before any other thread exists; it sets
    // one of glibc's malloc parameters.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
    }
}

/// Call `pass` at least three times, and again until `min` has gone by
/// since the first call (the one repetition rule of every timing here);
/// returns how many times it was called.
pub fn repeat_for(min: Duration, mut pass: impl FnMut()) -> u32 {
    const MIN_PASSES: u32 = 3;
    let start = Instant::now();
    let mut passes = 0u32;
    loop {
        pass();
        passes += 1;
        if passes >= MIN_PASSES && start.elapsed() >= min {
            return passes;
        }
    }
}

/// Seconds per pass of parsing each of a set of files to its tree; see
/// [`time_to_tree`]. "Best" is the fastest pass: the machine may be
/// shared, and the best pass is the one least disturbed.
// Each of the two binaries that include this file reads only some fields.
#[allow(dead_code)]
pub struct Passes {
    /// The best pass up to each tree in hand.
    pub best_in_hand: f64,
    /// Freeing the trees in that same pass.
    pub best_in_hand_freeing: f64,
    /// The mean pass up to each tree in hand.
    pub mean_in_hand: f64,
    /// The best pass, wall time, freeing included.
    pub best_freed: f64,
    /// The mean pass, wall time, freeing included.
    pub mean_freed: f64,
    /// This thread's mean CPU time per pass, freeing included.
    pub mean_cpu: f64,
}

/// Parse each of `files` to its tree with `parse`, pass after pass, for at
/// least `min` and at least three passes. Each tree is freed as soon as it
/// is timed (so the heap is reused as in a tool that reads file after
/// file), outside the clock of the parse.
pub fn time_to_tree<S: AsRef<[u8]>, T>(
    min: Duration,
    files: &[S],
    mut parse: impl FnMut(&[u8]) -> T,
) -> Passes {
    let (mut best_in_hand, mut best_in_hand_freeing) = (f64::INFINITY, 0.0);
    let mut best_freed = f64::INFINITY;
    let (mut all_in_hand, mut all_freed) = (0.0, 0.0);
    let cpu0 = thread_cpu();
    let start = Instant::now();
    let passes = repeat_for(min, || {
        let pass = Instant::now();
        let (mut in_hand, mut freeing) = (Duration::ZERO, Duration::ZERO);
        for f in files {
            let t0 = Instant::now();
            let tree = std::hint::black_box(parse(f.as_ref()));
            let t1 = Instant::now();
            drop(tree);
            in_hand += t1 - t0;
            freeing += t1.elapsed();
        }
        let freed = pass.elapsed().as_secs_f64();
        let in_hand = in_hand.as_secs_f64();
        if in_hand < best_in_hand {
            best_in_hand = in_hand;
            best_in_hand_freeing = freeing.as_secs_f64();
        }
        best_freed = best_freed.min(freed);
        all_in_hand += in_hand;
        all_freed += freed;
    });
    let n = f64::from(passes);
    let cpu = match (cpu0, thread_cpu()) {
        (Some(a), Some(b)) => (b - a).as_secs_f64(),
        _ => start.elapsed().as_secs_f64(),
    };
    Passes {
        best_in_hand,
        best_in_hand_freeing,
        mean_in_hand: all_in_hand / n,
        best_freed,
        mean_freed: all_freed / n,
        mean_cpu: cpu / n,
    }
}

/// The value below which a share `q` of the bytes lies: `rows` are
/// (bytes, value) sorted by value, lowest first (a throughput per file, or
/// a ratio per file).
pub fn byte_quantile(rows: &[(usize, f64)], q: f64) -> f64 {
    let total: usize = rows.iter().map(|r| r.0).sum();
    let mut seen = 0usize;
    for &(bytes, rate) in rows {
        seen += bytes;
        if seen as f64 >= q * total as f64 {
            return rate;
        }
    }
    rows.last().map_or(0.0, |r| r.1)
}

/// Files smaller than this are left out of per-file lists (their times are
/// mostly the clock's own).
pub const PER_FILE_MIN: usize = 16 * 1024;

/// The best of at least three runs of `parse` on `src`, and of as many as
/// fit in `min`: one file timed alone, warm in cache (each tree is freed
/// after its clock stops).
pub fn best_run<T>(min: Duration, src: &[u8], mut parse: impl FnMut(&[u8]) -> T) -> f64 {
    let mut best = f64::INFINITY;
    repeat_for(min, || {
        let t = Instant::now();
        let tree = std::hint::black_box(parse(src));
        best = best.min(t.elapsed().as_secs_f64());
        drop(tree);
    });
    best
}

/// The file name of `path`, for a per-file row.
pub fn file_name(path: &Path) -> std::borrow::Cow<'_, str> {
    path.file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default()
}
