//! `bench-peers [--seconds S] [--per-file] [FILES|DIRS]`: parse the same
//! in-memory files with ptxkit and with each peer from the Rust package
//! registry (ptx-syntax 0.5.0, singe-ptx 0.1.0-alpha.7), in one process,
//! on one core and then with the files spread over all cores
//! (`RAYON_NUM_THREADS` sets how many), and print both throughputs and their
//! ratio (`--per-file`: then each file alone against ptx-syntax, one core,
//! and how the ratio spreads).
//!
//! Default input: the ptxas-accepted files of ../shared/corpus plus the
//! repository's examples. Files a peer rejects (an error, a panic, or text
//! that is not UTF-8) are counted and listed; each peer's throughput is
//! given over the files it parses and over all files.

use std::path::{Path, PathBuf};
use std::time::Duration;

mod all_cores;
#[path = "../../xtask/src/inputs.rs"]
#[allow(dead_code, unused_imports)]
mod inputs;
mod peers;
mod per_file;
use inputs::{collect, default_inputs, read_all, time_to_tree};

/// One peer's side of the comparison: which files `parse` (the peer) reads,
/// then ptxkit and the peer timed on the same files (those it reads, then
/// all files), one row per way of counting, on one core and then, given a
/// pool of more than one thread, on all of them. Returns the files it reads.
fn compare<'f, T>(
    name: &str,
    files: &'f [(PathBuf, Vec<u8>)],
    min: Duration,
    pool: Option<&rayon::ThreadPool>,
    parse: impl Fn(&[u8]) -> Result<T, &'static str> + Copy + Sync,
) -> Vec<(&'f Path, &'f [u8])> {
    let mut both = Vec::new();
    let mut failed = Vec::new();
    let mut why = std::collections::BTreeMap::new();
    for (p, b) in files {
        match parse(b) {
            Ok(_) => both.push((p.as_path(), b.as_slice())),
            Err(w) => {
                *why.entry(w).or_insert(0usize) += 1;
                failed.push(p);
            }
        }
    }
    let all: Vec<&[u8]> = files.iter().map(|(_, b)| b.as_slice()).collect();
    let read: Vec<&[u8]> = both.iter().map(|&(_, b)| b).collect();
    let mb = |v: &[&[u8]]| v.iter().map(|b| b.len()).sum::<usize>() as f64 / 1e6;
    println!();
    println!(
        "{name}: reads {} of {} files ({:.1} of {:.1} MB); fails on {}: {why:?}",
        read.len(),
        all.len(),
        mb(&read),
        mb(&all),
        failed.len(),
    );
    for p in failed.iter().take(5) {
        println!("  {name} fails: {}", p.display());
    }
    if failed.len() > 5 {
        println!("  … and {} more", failed.len() - 5);
    }
    if read.is_empty() {
        return both;
    }
    // Over all files, a peer that stops at an early error on most of them
    // is timed failing, not parsing: that row means little below half.
    let sets: &[(&str, &Vec<&[u8]>)] = if mb(&read) >= 0.5 * mb(&all) {
        &[("files both parse", &read), ("all files", &all)]
    } else {
        println!("  (no all-files rows: {name} fails on most of the input, and a failure is not a parse)");
        &[("files both parse", &read)]
    };
    println!(
        "{:<52} {:>9} {:>12} {:>12} {:>8}",
        "parse to tree, one core", "MB", "ptxkit MB/s", "peer MB/s", "ratio"
    );
    for &(label, set) in sets {
        let k = time_to_tree(min, set, ptxkit::parse);
        let p = time_to_tree(min, set, parse);
        let m = mb(set);
        let rows = [
            ("tree in hand, best pass", k.best_in_hand, p.best_in_hand),
            ("tree in hand, mean", k.mean_in_hand, p.mean_in_hand),
            ("freed after, best pass", k.best_freed, p.best_freed),
            ("freed after, mean", k.mean_freed, p.mean_freed),
            ("thread CPU, mean", k.mean_cpu, p.mean_cpu),
        ];
        for (how, kt, pt) in rows {
            row(&format!("{label} ({how})"), m, kt, pt);
        }
        let Some(pool) = pool else { continue };
        let threads = pool.current_num_threads();
        let kc = all_cores::time(pool, min, set, ptxkit::parse);
        let pc = all_cores::time(pool, min, set, parse);
        for (how, kt, pt) in [("best pass", kc.0, pc.0), ("mean", kc.1, pc.1)] {
            row(
                &format!("{label} ({threads} cores, freed after, {how})"),
                m,
                kt,
                pt,
            );
        }
        println!(
            "  {threads} cores over one (freed after, best pass): ptxkit {:.2}x, {name} {:.2}x",
            k.best_freed / kc.0,
            p.best_freed / pc.0
        );
    }
    both
}

/// One row of the table: `mb` megabytes parsed in `ptxkit` and in `peer`
/// seconds, as both throughputs and their ratio.
fn row(label: &str, mb: f64, ptxkit: f64, peer: f64) {
    println!(
        "{label:<52} {mb:>9.1} {:>12.1} {:>12.2} {:>7.0}x",
        mb / ptxkit,
        mb / peer,
        peer / ptxkit
    );
}

fn run(paths: Vec<PathBuf>, seconds: f64, per_file: bool) -> i32 {
    let files = read_all(paths);
    if files.is_empty() {
        eprintln!("no input files");
        return 2;
    }
    let ptxkit_errors = files
        .iter()
        .filter(|(_, b)| ptxkit::parse(b).has_errors())
        .count();
    let mb = files.iter().map(|(_, b)| b.len()).sum::<usize>() as f64 / 1e6;
    println!(
        "input: {} files, {mb:.1} MB; ptxkit reports errors in {ptxkit_errors}",
        files.len()
    );
    let min = Duration::from_secs_f64(seconds);
    // Quiet the panic messages of the peers while probing.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    // All cores (or RAYON_NUM_THREADS): rows of their own when more than one.
    let pool = all_cores::pool().filter(|p| p.current_num_threads() > 1);
    let pool = pool.as_ref();
    let both = compare(peers::PTX_SYNTAX, &files, min, pool, peers::ptx_syntax);
    compare(peers::SINGE_PTX, &files, min, pool, peers::singe_ptx);
    if per_file {
        println!();
        println!("per file, {}:", peers::PTX_SYNTAX);
        per_file::report(&both, ptxkit::parse, peers::ptx_syntax);
    }
    std::panic::set_hook(hook);
    0
}

fn main() {
    // Process-wide, so both parsers run with it.
    inputs::heap_like_ptx();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut args = std::env::args().skip(1);
    let mut paths = Vec::new();
    let mut seconds = 2.0;
    let mut per_file = false;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seconds" => match args.next().and_then(|s| s.parse().ok()) {
                Some(s) => seconds = s,
                None => {
                    eprintln!("usage: bench-peers [--seconds S] [--per-file] [FILES|DIRS]...");
                    std::process::exit(2)
                }
            },
            "--per-file" => per_file = true,
            _ => collect(Path::new(&a), &mut paths),
        }
    }
    if paths.is_empty() {
        paths = default_inputs(&root);
    }
    // ptx-syntax's parser combinators recurse deeply: give them room.
    let worker = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || run(paths, seconds, per_file));
    let code = match worker.map(|w| w.join()) {
        Ok(Ok(c)) => c,
        _ => 2,
    };
    std::process::exit(code)
}
