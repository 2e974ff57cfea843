//! Benchmark inputs, shared by `xtask bench` and `bench-peers` (which
//! includes this file by path): `.ptx` files below a path, the default set,
//! reading them, this thread's CPU time, and the heap setting of the `ptx`
//! binary.

use std::path::{Path, PathBuf};
use std::time::Duration;

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
