//! `xtask bench-scan [--runs N] PATH...`: the speed of `ptx compat`'s
//! scan (ptxkit::binary::scan and compat::report on every candidate) over
//! files, directories and wheels, on all cores (`RAYON_NUM_THREADS` sets
//! how many): the best of N runs (the page cache warm after the first),
//! with the bytes of the candidates, how many were CUDA binaries, and the
//! peak resident memory of the process.

use std::path::PathBuf;
use std::time::Instant;

use ptxkit::binary::compat::{self, Target};
use ptxkit::binary::{rules, scan};

/// Peak resident memory of this process in MB (Linux), if known.
fn peak_rss_mb() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Run the benchmark; the exit status.
pub fn run(paths: &[PathBuf], runs: usize) -> i32 {
    if paths.is_empty() {
        eprintln!("xtask bench-scan: give files, directories or wheels to scan");
        return 2;
    }
    let targets: Vec<Target> = rules::COMMON_GPUS
        .iter()
        .map(|&gpu| Target { gpu, driver: None })
        .collect();
    let mut best = f64::INFINITY;
    let mut counts = (0usize, 0u64, 0usize, 0usize);
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let cands = scan::candidates(paths);
        let found = scan::scan(&cands, |_, b| compat::report(b, &targets), |_| {});
        best = best.min(t.elapsed().as_secs_f64());
        let bytes: u64 = cands.items.iter().map(|c| c.size).sum();
        let ok = found
            .iter()
            .filter(|s| matches!(s.result, Ok(Ok(_))))
            .count();
        counts = (cands.items.len(), bytes, found.len(), ok);
    }
    let largest = scan::candidates(paths)
        .items
        .iter()
        .map(|c| c.size)
        .max()
        .unwrap_or(0);
    println!(
        "scan: {} candidates, {:.1} MB, {} CUDA binaries ({} judged) in {:.3} s (best of {}; {:.0} MB/s), {} threads",
        counts.0,
        counts.1 as f64 / 1e6,
        counts.2,
        counts.3,
        best,
        runs.max(1),
        counts.1 as f64 / 1e6 / best,
        rayon::current_num_threads()
    );
    println!(
        "peak resident memory {:.0} MB; largest candidate {:.0} MB",
        peak_rss_mb().unwrap_or(f64::NAN),
        largest as f64 / 1e6
    );
    0
}
