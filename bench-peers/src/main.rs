//! `bench-peers [--seconds S] [--per-file] [FILES|DIRS]`: parse the same
//! in-memory files with ptxkit and with ptx-syntax 0.5.0 (crates.io), one
//! core, in one process, and print both throughputs and their ratio
//! (`--per-file`: then each file alone, and how the ratio spreads).
//!
//! Default input: the ptxas-accepted files of ../shared/corpus plus the
//! repository's examples. Files ptx-syntax rejects (an error, a panic, or
//! text that is not UTF-8) are counted and listed; throughput is given over
//! the files both parse and over all files.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[path = "../../xtask/src/inputs.rs"]
mod inputs;
mod per_file;
use inputs::{collect, default_inputs, read_all, time_to_tree};

/// How ptx-syntax fares on one file: `None` if it parses, else why not.
fn ptx_syntax_fails(src: &[u8]) -> Option<&'static str> {
    let Ok(text) = std::str::from_utf8(src) else {
        return Some("not UTF-8");
    };
    match catch_unwind(AssertUnwindSafe(|| ptx_syntax::parse_ptx(text).is_ok())) {
        Ok(true) => None,
        Ok(false) => Some("parse error"),
        Err(_) => Some("panic"),
    }
}

/// ptx-syntax's tree of `src` (`None` if it fails or panics).
fn ptx_syntax_parse(src: &[u8]) -> Option<impl Sized> {
    let text = std::str::from_utf8(src).ok()?;
    catch_unwind(AssertUnwindSafe(|| ptx_syntax::parse_ptx(text).ok())).ok()?
}

fn run(paths: Vec<PathBuf>, seconds: f64, per_file: bool) -> i32 {
    let files = read_all(paths);
    if files.is_empty() {
        eprintln!("no input files");
        return 2;
    }
    // Quiet the panic messages of ptx-syntax while probing.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut both = Vec::new();
    let mut both_named = Vec::new();
    let mut failed = Vec::new();
    let mut why = std::collections::BTreeMap::new();
    for (p, b) in &files {
        match ptx_syntax_fails(b) {
            None => {
                both.push(b.as_slice());
                both_named.push((p.as_path(), b.as_slice()));
            }
            Some(w) => {
                *why.entry(w).or_insert(0usize) += 1;
                failed.push(p);
            }
        }
    }
    let ptxkit_errors = files
        .iter()
        .filter(|(_, b)| ptxkit::parse(b).has_errors())
        .count();
    let all: Vec<&[u8]> = files.iter().map(|(_, b)| b.as_slice()).collect();
    let mb = |v: &[&[u8]]| v.iter().map(|b| b.len()).sum::<usize>() as f64 / 1e6;
    println!(
        "input: {} files, {:.1} MB; ptxkit reports errors in {}; ptx-syntax 0.5.0 fails on {} ({:.1} MB)",
        all.len(),
        mb(&all),
        ptxkit_errors,
        failed.len(),
        mb(&all) - mb(&both)
    );
    println!("  ptx-syntax failures by kind: {why:?}");
    for p in failed.iter().take(10) {
        println!("  ptx-syntax fails: {}", p.display());
    }
    if failed.len() > 10 {
        println!("  … and {} more", failed.len() - 10);
    }
    let min = Duration::from_secs_f64(seconds);
    println!(
        "{:<44} {:>9} {:>12} {:>12} {:>8}",
        "parse to tree, one core", "MB", "ptxkit MB/s", "peer MB/s", "ratio"
    );
    for (label, set) in [("files both parse", &both), ("all files", &all)] {
        let k = time_to_tree(min, set, ptxkit::parse);
        let p = time_to_tree(min, set, ptx_syntax_parse);
        let m = mb(set);
        let rows = [
            ("tree in hand, best pass", k.best_in_hand, p.best_in_hand),
            ("tree in hand, mean", k.mean_in_hand, p.mean_in_hand),
            ("freed after, best pass", k.best_freed, p.best_freed),
            ("freed after, mean", k.mean_freed, p.mean_freed),
            ("thread CPU, mean", k.mean_cpu, p.mean_cpu),
        ];
        for (how, kt, pt) in rows {
            println!(
                "{:<44} {:>9.1} {:>12.1} {:>12.2} {:>7.0}x",
                format!("{label} ({how})"),
                m,
                m / kt,
                m / pt,
                pt / kt
            );
        }
    }
    if per_file {
        per_file::report(&both_named, ptxkit::parse, ptx_syntax_parse);
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
