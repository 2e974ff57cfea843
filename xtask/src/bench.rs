//! `xtask bench [--seconds S] [--no-split|--split-only] [--no-ptxas|--ptxas-only]
//! [--ptxas-file F] [--write-big FILE] [FILES|DIRS]`: throughput of
//! lexing, parsing and printing on files read into memory first, on one core
//! and on all cores (files spread over rayon's threads; `RAYON_NUM_THREADS`
//! sets how many), then a module of at least 5 MB built from the inputs,
//! parsed whole and cut into pieces on 1 and 2 threads, and last the
//! `ptx check` process against `ptxas -O0` on one file (`vs_ptxas`).
//! The table has a row for `ptx ast --json`, and `bench_json` adds its
//! throughput and output size on the four largest inputs.
//!
//! Default input: the ptxas-accepted files of ../shared/corpus plus the
//! repository's examples.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::inputs::{
    best_run, byte_quantile, collect, default_inputs, file_name, read_all, repeat_for, thread_cpu,
    time_to_tree, PER_FILE_MIN,
};

use rayon::prelude::*;

use crate::synth;

/// Seconds per pass of `pass`, repeated for at least `min` and at least
/// three times: the best pass (wall; the machine may be shared, and the
/// best pass is the one least disturbed), and the mean CPU time of this
/// thread per pass.
pub(crate) fn time(min: Duration, mut pass: impl FnMut() -> usize) -> (f64, f64) {
    let mut sink = 0usize;
    let mut best = f64::INFINITY;
    let cpu0 = thread_cpu();
    let start = Instant::now();
    let passes = repeat_for(min, || {
        let t = Instant::now();
        sink = sink.wrapping_add(pass());
        best = best.min(t.elapsed().as_secs_f64());
    });
    let wall = start.elapsed().as_secs_f64();
    let cpu = match (cpu0, thread_cpu()) {
        (Some(a), Some(b)) => (b - a).as_secs_f64(),
        _ => wall,
    };
    std::hint::black_box(sink);
    (best, cpu / f64::from(passes))
}

fn lex(src: &[u8]) -> usize {
    let mut lx = ptxkit::lex::Lexer::new(src);
    let mut n = 0;
    while lx.next_token().kind != ptxkit::lex::TokenKind::Eof {
        n += 1;
    }
    n
}

fn parse(src: &[u8]) -> usize {
    ptxkit::parse(src).module.items.len()
}

fn print(src: &[u8]) -> usize {
    let p = ptxkit::parse(src);
    // A freshly parsed tree is its own original (`lossless` would parse
    // `src` again to find what was edited).
    ptxkit::print::lossless_from(&p.module, &p.module, src).len()
}

/// `ptx check --syntax-only`: the streamed parse, diagnostics only.
fn syntax_check(src: &[u8]) -> usize {
    ptxkit::syntax_check(src).len()
}

/// `ptx check`: the streamed parse and the semantic check.
fn check(src: &[u8]) -> usize {
    ptxkit::check::check_source(src, &ptxkit::check::CheckOptions::default()).len()
}

fn instructions(src: &[u8]) -> usize {
    ptxkit::parse(src)
        .module
        .functions()
        .filter_map(|f| f.body.as_ref())
        .map(|b| b.instructions().len())
        .sum()
}

/// One measured stage: work on one file, returning something to keep.
type Stage = fn(&[u8]) -> usize;

/// Options of `xtask bench`.
pub struct Opts {
    /// Files and directories; empty for the default input.
    pub paths: Vec<String>,
    /// Minimum seconds per measurement.
    pub seconds: f64,
    /// Skip the big-module measurement.
    pub no_split: bool,
    /// Only the big-module measurement.
    pub split_only: bool,
    /// Write the big module to this file too.
    pub write_big: Option<PathBuf>,
    /// End with `ptx check` against `ptxas -O0` on one file.
    pub ptxas: bool,
    /// Only that comparison.
    pub ptxas_only: bool,
    /// The file for it (default: the corpus's Kokkos module).
    pub ptxas_file: Option<PathBuf>,
    /// Also time each file alone and print the spread of throughputs.
    pub per_file: bool,
    /// Only the stages whose name contains this word (`semantic`,
    /// `syntax`, `lex`…), one core, no big module: for a profiler.
    pub stage: Option<String>,
}

pub fn run(root: &Path, o: Opts) -> i32 {
    let min = Duration::from_secs_f64(o.seconds);
    if o.ptxas_only {
        crate::vs_ptxas::run(root, o.ptxas_file, min);
        return 0;
    }
    let mut paths = Vec::new();
    for a in &o.paths {
        collect(Path::new(a), &mut paths);
    }
    if o.paths.is_empty() {
        paths = default_inputs(root);
    }
    let (paths, files): (Vec<PathBuf>, Vec<Vec<u8>>) = read_all(paths).into_iter().unzip();
    if files.is_empty() {
        eprintln!("no input files");
        return 2;
    }
    let bytes: usize = files.iter().map(Vec::len).sum();
    let insts: usize = files.iter().map(|f| instructions(f)).sum();
    let mb = bytes as f64 / 1e6;
    let threads = rayon::current_num_threads();
    println!(
        "input: {} files, {:.1} MB, {} instructions; {} threads for `all cores`",
        files.len(),
        mb,
        insts,
        threads
    );
    if o.split_only {
        split(&files, min, o.write_big.as_deref());
        return 0;
    }
    let stages: [(&str, Stage); 6] = [
        ("lex", lex),
        ("parse to tree, then free it", parse),
        ("parse + lossless print", print),
        ("syntax check (streamed)", syntax_check),
        ("semantic check (streamed)", check),
        ("ast --json", crate::bench_json::ast_json),
    ];
    println!(
        "{:<30} {:>10} {:>10} {:>14} {:>14}",
        "stage", "cores", "MB/s", "instr/s", "MB/s (CPU)"
    );
    // One stage on one core: its row of the table.
    let one_core = |name: &str, f: Stage| {
        let (wall, cpu) = time(min, || files.iter().map(|s| f(s)).sum());
        println!(
            "{:<30} {:>10} {:>10.1} {:>14.0} {:>14.1}",
            name,
            "1",
            mb / wall,
            insts as f64 / wall,
            mb / cpu
        );
    };
    if let Some(word) = &o.stage {
        for (name, f) in stages.iter().filter(|(n, _)| n.contains(word.as_str())) {
            one_core(name, *f);
        }
        if "ast --json".contains(word.as_str()) {
            crate::bench_json::largest(&paths, &files, 4, min);
        }
        return 0;
    }
    // Parsing proper: the clock stops with the tree in hand (as for the
    // big module below); freeing the tree is timed apart.
    let passes = time_to_tree(min, &files, ptxkit::parse);
    let (to_tree, freeing) = (passes.best_in_hand, passes.best_in_hand_freeing);
    println!(
        "{:<30} {:>10} {:>10.1} {:>14.0} {:>14}   (freeing the trees after: {:.1} ms more, {:.1} MB/s with it)",
        "parse to tree (in hand)",
        "1",
        mb / to_tree,
        insts as f64 / to_tree,
        "-",
        freeing * 1e3,
        mb / (to_tree + freeing)
    );
    for (name, f) in stages {
        one_core(name, f);
        let (wall, _) = time(min, || files.par_iter().map(|s| f(s)).sum());
        println!(
            "{:<30} {:>10} {:>10.1} {:>14.0} {:>14}",
            name,
            format!("all ({threads})"),
            mb / wall,
            insts as f64 / wall,
            "-"
        );
    }
    crate::bench_json::largest(&paths, &files, 4, min);
    if o.per_file {
        per_file(&paths, &files);
    }
    if !o.no_split {
        split(&files, min, o.write_big.as_deref());
    }
    if o.ptxas {
        crate::vs_ptxas::run(root, o.ptxas_file, min);
    }
    0
}

/// One module of ≥ 5 MB: parsed whole on one thread, then cut into pieces
/// on pools of 1 and 2 threads; the outputs must be identical.
fn split(files: &[Vec<u8>], min: Duration, write: Option<&Path>) {
    let big = synth::module(files, 5_000_000);
    if let Some(w) = write {
        if let Err(e) = std::fs::write(w, &big) {
            eprintln!("{}: {e}", w.display());
        }
    }
    let mb = big.len() as f64 / 1e6;
    let seq = ptxkit::parse(&big);
    let errors = seq.diagnostics.iter().filter(|d| d.is_error()).count();
    let json = |p: &ptxkit::Parsed| {
        (
            serde_json::to_string(&p.module).unwrap_or_default(),
            serde_json::to_string(&p.diagnostics).unwrap_or_default(),
        )
    };
    let want = json(&seq);
    drop(seq);
    println!(
        "big module: {:.1} MB built from the inputs ({} errors in it)",
        mb, errors
    );
    // The three ways are measured in turns, so that a busy spell of the
    // machine does not favour one of them; each keeps its best pass.
    let pools: Vec<rayon::ThreadPool> = [1, 2]
        .iter()
        .filter_map(|&n| rayon::ThreadPoolBuilder::new().num_threads(n).build().ok())
        .collect();
    let same: Vec<bool> = pools
        .iter()
        .enumerate()
        .map(|(i, pool)| pool.install(|| json(&ptxkit::parse_in_pieces(&big, 2 * (i + 1))) == want))
        .collect();
    // Timed: from the source to the tree in hand. Freeing the tree is not
    // parsing (a tool frees it when done, or never): it comes after the
    // clock stops, and its own time is printed apart.
    let mut best = vec![f64::INFINITY; 1 + pools.len()];
    let mut free = f64::INFINITY;
    let start = Instant::now();
    let mut rounds = 0;
    while rounds < 3 || start.elapsed() < min * 3 {
        let t = Instant::now();
        let tree = std::hint::black_box(ptxkit::parse(&big));
        best[0] = best[0].min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        drop(tree);
        free = free.min(t.elapsed().as_secs_f64());
        for (i, pool) in pools.iter().enumerate() {
            pool.install(|| {
                let t = Instant::now();
                let tree = std::hint::black_box(ptxkit::parse_in_pieces(&big, 2 * (i + 1)));
                if let Some(b) = best.get_mut(i + 1) {
                    *b = b.min(t.elapsed().as_secs_f64());
                }
                drop(tree);
            });
        }
        rounds += 1;
    }
    let one = best.first().copied().unwrap_or(f64::NAN);
    println!(
        "{:<30} {:>10} {:>10.1}   (freeing the tree after: {:.1} ms more)",
        "parse (sequential)",
        "1",
        mb / one,
        free * 1e3
    );
    for (i, t) in best.iter().skip(1).enumerate() {
        println!(
            "{:<30} {:>10} {:>10.1}   {:.2}x over sequential; output {}",
            format!("parse in {} pieces", 2 * (i + 1)),
            i + 1,
            mb / t,
            one / t,
            if same.get(i) == Some(&true) {
                "identical"
            } else {
                "DIFFERS"
            }
        );
    }
}

/// Rounds of [`per_file`].
const PER_FILE_ROUNDS: usize = 4;

/// Parse each file alone (best of [`PER_FILE_ROUNDS`] rounds over the
/// files, each of at least three runs and 3 ms, so the file is in cache:
/// higher than a pass over all files) and print
/// how throughput spreads over the input: percentiles weighted by bytes,
/// and the slowest and fastest files with what they hold. Throughput
/// depends on what a module is made of, and an average hides that.
fn per_file(paths: &[PathBuf], files: &[Vec<u8>]) {
    struct Row<'a> {
        path: &'a Path,
        src: &'a [u8],
        secs: f64,
        insts: usize,
    }
    let mut rows: Vec<Row> = paths
        .iter()
        .zip(files)
        .filter(|(_, f)| f.len() >= PER_FILE_MIN)
        .map(|(p, f)| Row {
            path: p,
            src: f,
            secs: f64::INFINITY,
            insts: instructions(f),
        })
        .collect();
    // Rounds over all files, so that a slow spell of a shared machine
    // (they last seconds) does not mark a run of files as slow.
    for _ in 0..PER_FILE_ROUNDS {
        for r in &mut rows {
            let best = best_run(Duration::from_millis(3), r.src, ptxkit::parse);
            r.secs = r.secs.min(best);
        }
    }
    if rows.is_empty() {
        return;
    }
    let rate = |r: &Row| r.src.len() as f64 / 1e6 / r.secs.max(1e-9);
    rows.sort_by(|a, b| rate(a).total_cmp(&rate(b)));
    let total: usize = rows.iter().map(|r| r.src.len()).sum();
    let weighted: Vec<(usize, f64)> = rows.iter().map(|r| (r.src.len(), rate(r))).collect();
    let at = |q: f64| byte_quantile(&weighted, q);
    println!(
        "per file (each alone and warm, to the tree in hand, one core; {} files of at least {} KB, \
         {:.1} MB): by bytes, p10 {:.0}, p50 {:.0}, p90 {:.0} MB/s",
        rows.len(),
        PER_FILE_MIN / 1024,
        total as f64 / 1e6,
        at(0.1),
        at(0.5),
        at(0.9)
    );
    let show = |label: &str, r: &Row| {
        let name = file_name(r.path);
        println!(
            "  {label} {:>7.1} MB/s {:>6.2} M instr/s {:>9} B {:>6.0} B/instr  {name}",
            rate(r),
            r.insts as f64 / 1e6 / r.secs.max(1e-9),
            r.src.len(),
            r.src.len() as f64 / r.insts.max(1) as f64,
        );
    };
    for r in rows.iter().take(5) {
        show("slowest", r);
    }
    for r in rows.iter().rev().take(5) {
        show("fastest", r);
    }
}

#[cfg(test)]
mod tests {
    use crate::inputs::byte_quantile;

    #[test]
    fn quantiles_are_weighted_by_bytes() {
        // One big slow file outweighs three small fast ones.
        let rows = [(900, 100.0), (50, 300.0), (30, 400.0), (20, 500.0)];
        assert_eq!(byte_quantile(&rows, 0.1), 100.0);
        assert_eq!(byte_quantile(&rows, 0.9), 100.0);
        assert_eq!(byte_quantile(&rows, 0.95), 300.0);
        assert_eq!(byte_quantile(&rows, 0.99), 500.0);
        assert_eq!(byte_quantile(&[], 0.5), 0.0);
    }
}
