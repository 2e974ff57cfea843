//! Criterion benches of the hot paths, on the repository's examples (so they
//! run without ../shared): lexing, parsing instructions, parsing whole
//! modules, printing. `cargo bench -p ptxkit` runs them; `cargo test
//! --all-targets` runs each once as a test.
// A bench fails by panicking, and criterion's macros make undocumented
// functions: the workspace's lints are for library code.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ptxkit::lex::{Lexer, TokenKind};

/// The examples' PTX, in name order.
fn examples() -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    paths.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "ptx"));
    paths.sort();
    paths.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

/// Every instruction of the examples, one per line (the input of
/// `parse_body`: instruction parsing without the module around it).
fn instruction_lines(files: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for src in files {
        let parsed = ptxkit::parse(src);
        for f in parsed.module.functions() {
            for i in f.body.iter().flat_map(|b| b.instructions()) {
                out.extend_from_slice(i.span.slice(src));
                out.push(b'\n');
            }
        }
    }
    let (_, diags) = ptxkit::parse_body(&out);
    assert!(
        diags.is_empty(),
        "instruction lines do not parse: {diags:?}"
    );
    out
}

fn bytes(files: &[Vec<u8>]) -> u64 {
    files.iter().map(|f| f.len() as u64).sum()
}

fn lexer(c: &mut Criterion) {
    let files = examples();
    let mut g = c.benchmark_group("lex");
    g.throughput(Throughput::Bytes(bytes(&files)));
    g.bench_function("examples", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for src in &files {
                let mut lx = Lexer::new(black_box(src));
                while lx.next_token().kind != TokenKind::Eof {
                    n += 1;
                }
            }
            n
        })
    });
    g.finish();
}

fn parser(c: &mut Criterion) {
    let files = examples();
    let lines = instruction_lines(&files);
    let mut g = c.benchmark_group("parse");
    g.throughput(Throughput::Bytes(lines.len() as u64));
    g.bench_function("instructions", |b| {
        b.iter(|| ptxkit::parse_body(black_box(&lines)).0.stmts.len())
    });
    g.throughput(Throughput::Bytes(bytes(&files)));
    g.bench_function("modules", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|src| ptxkit::parse(black_box(src)).module.items.len())
                .sum::<usize>()
        })
    });
    g.bench_function("syntax check (streamed)", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|src| ptxkit::syntax_check(black_box(src)).len())
                .sum::<usize>()
        })
    });
    let opts = ptxkit::check::CheckOptions::default();
    g.bench_function("semantic check (streamed)", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|src| ptxkit::check::check_source(black_box(src), &opts).len())
                .sum::<usize>()
        })
    });
    g.finish();
}

fn printer(c: &mut Criterion) {
    let files = examples();
    let parsed: Vec<_> = files.iter().map(|src| ptxkit::parse(src).module).collect();
    let mut g = c.benchmark_group("print");
    g.throughput(Throughput::Bytes(bytes(&files)));
    g.bench_function("lossless", |b| {
        b.iter(|| {
            parsed
                .iter()
                .zip(&files)
                .map(|(m, src)| ptxkit::print::lossless_from(black_box(m), m, src).len())
                .sum::<usize>()
        })
    });
    g.bench_function("canonical", |b| {
        b.iter(|| {
            parsed
                .iter()
                .map(|m| ptxkit::print::canonical(black_box(m)).len())
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, lexer, parser, printer);
criterion_main!(benches);
