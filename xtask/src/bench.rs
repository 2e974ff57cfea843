//! `xtask bench [FILES|DIRS]`: throughput of lexing, parsing and printing
//! on files read into memory first. Default input: the ptxas-accepted files
//! of ../shared/corpus plus the repository's examples.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn collect(p: &Path, out: &mut Vec<PathBuf>) {
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

fn default_inputs(root: &Path) -> Vec<PathBuf> {
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

/// Run `f` over all inputs repeatedly for at least `min` and return seconds per pass.
fn time_pass(files: &[Vec<u8>], min: Duration, mut f: impl FnMut(&[u8]) -> usize) -> (f64, usize) {
    let mut passes = 0u32;
    let mut sink = 0usize;
    let start = Instant::now();
    loop {
        for src in files {
            sink = sink.wrapping_add(f(src));
        }
        passes += 1;
        if start.elapsed() >= min {
            break;
        }
    }
    (start.elapsed().as_secs_f64() / f64::from(passes), sink)
}

pub fn run(root: &Path, args: Vec<String>, seconds: f64) -> i32 {
    let mut paths = Vec::new();
    for a in &args {
        collect(Path::new(a), &mut paths);
    }
    if args.is_empty() {
        paths = default_inputs(root);
    }
    let files: Vec<Vec<u8>> = paths.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    let bytes: usize = files.iter().map(Vec::len).sum();
    if files.is_empty() {
        eprintln!("no input files");
        return 2;
    }
    let instructions: usize = files
        .iter()
        .map(|f| {
            let p = ptxkit::parse(f);
            p.module
                .functions()
                .filter_map(|f| f.body.as_ref())
                .map(|b| b.instructions().len())
                .sum::<usize>()
        })
        .sum();
    let mb = bytes as f64 / 1e6;
    println!(
        "input: {} files, {:.1} MB, {} instructions",
        files.len(),
        mb,
        instructions
    );
    let min = Duration::from_secs_f64(seconds);
    let (lex, _) = time_pass(&files, min, |src| {
        let mut lx = ptxkit::lex::Lexer::new(src);
        let mut n = 0;
        while lx.next_token().kind != ptxkit::lex::TokenKind::Eof {
            n += 1;
        }
        n
    });
    let (parse, _) = time_pass(&files, min, |src| ptxkit::parse(src).module.items.len());
    let (print, _) = time_pass(&files, min, |src| {
        let p = ptxkit::parse(src);
        ptxkit::print::lossless(&p.module, src).len()
    });
    println!(
        "{:<28} {:>10} {:>16}",
        "stage (one core)", "MB/s", "instructions/s"
    );
    for (name, secs) in [
        ("lex", lex),
        ("parse to tree", parse),
        ("parse + lossless print", print),
    ] {
        println!(
            "{:<28} {:>10.1} {:>16.0}",
            name,
            mb / secs,
            instructions as f64 / secs
        );
    }
    0
}
