//! Long runs of binary operators (`1+1+…`), which ptxas 13.5 reads at any
//! length: each is one flat `Expr::Chain` in the tree, so no later walk
//! (checking, printing, JSON, dropping) recurses once per operator.
//!
//! The files of `data/long_chains` are checked as `ptx check` does, and
//! the lines our errors fall on must be the lines ptxas reports (recorded
//! in `data/long_chains/PTXAS.tsv`; verified against ptxas when it is at
//! hand, skipped with a note otherwise, a failure under `CI=true`). Then
//! runs of 200,000 operators go through the parser, the checker, both
//! printers and the JSON writer on a thread with a small stack, in time
//! that grows linearly.

// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;
#[path = "common/props.rs"]
mod props;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ptxkit::syntax::visit::{walk_expr, Visit};
use ptxkit::syntax::{Expr, CHAIN_MIN};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/long_chains")
}

#[test]
fn every_case_is_recorded() {
    common::recorded::assert_every_case_is_recorded(&dir());
}

#[test]
fn errors_fall_on_the_lines_ptxas_reports() {
    common::recorded::assert_errors_fall_on_the_recorded_lines(&dir());
}

#[test]
fn recorded_verdicts_are_ptxas_s() {
    common::recorded::assert_recorded_verdicts_are_ptxas_s(&dir(), "sm_90");
}

/// The shapes of the initializers of a module: the longest chain and the
/// deepest nesting of `Binary` nodes, and every constant's value.
#[derive(Default)]
struct Shapes {
    longest_chain: usize,
    chains: usize,
    deepest_binary: usize,
    depth: usize,
    values: Vec<Option<i64>>,
    top: bool,
}

impl<'a> Visit<'a> for Shapes {
    fn visit_expr(&mut self, e: &'a Expr) {
        if !self.top {
            self.top = true;
            self.values.push(ptxkit::syntax::consteval::eval_int(e));
        }
        let binary = matches!(e, Expr::Binary(_));
        if binary {
            self.depth += 1;
            self.deepest_binary = self.deepest_binary.max(self.depth);
        } else {
            // A chain's operands start a new run of nesting.
            let saved = self.depth;
            self.depth = 0;
            if let Expr::Chain(c) = e {
                self.chains += 1;
                self.longest_chain = self.longest_chain.max(c.links.len());
            }
            let was = self.top;
            walk_expr(self, e);
            self.top = was;
            self.depth = saved;
            return;
        }
        walk_expr(self, e);
        self.depth -= 1;
    }
}

fn module(init: &str, operand: &str) -> String {
    format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .global .u64 g = {init};\n\
         .entry k()\n{{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n\
         add.s32 %r1, %r2, {operand};\nld.global.u32 %r1, [%rd1+{operand}];\nret;\n}}\n"
    )
}

fn run(n: usize, op: &str) -> String {
    vec!["1"; n].join(op)
}

fn shapes(src: &str) -> Shapes {
    let parsed = ptxkit::parse(src.as_bytes());
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let mut s = Shapes::default();
    // The initializers' expressions, each from its top.
    for item in &parsed.module.items {
        let ptxkit::syntax::Item::Var(v) = item else {
            continue;
        };
        let mut one = Shapes::default();
        for d in &v.decls {
            if let Some(ptxkit::syntax::Initializer::Expr(e)) = &d.init {
                one.visit_expr(e);
            }
        }
        s.longest_chain = s.longest_chain.max(one.longest_chain);
        s.deepest_binary = s.deepest_binary.max(one.deepest_binary);
        s.chains += one.chains;
        s.values.extend(one.values);
    }
    s
}

/// Up to [`CHAIN_MIN`] operators stay nested `Binary` nodes (the tree
/// every consumer knows); one more makes a chain; both have the same value.
#[test]
fn short_runs_nest_and_long_runs_are_flat() {
    let short = shapes(&module(&run(CHAIN_MIN + 1, "+"), "1"));
    assert_eq!(short.chains, 0);
    assert_eq!(short.deepest_binary, CHAIN_MIN);
    assert_eq!(short.values, vec![Some(CHAIN_MIN as i64 + 1)]);
    let long = shapes(&module(&run(CHAIN_MIN + 2, "+"), "1"));
    assert_eq!(long.chains, 1);
    assert_eq!(long.longest_chain, CHAIN_MIN + 1);
    assert_eq!(long.deepest_binary, 0);
    assert_eq!(long.values, vec![Some(CHAIN_MIN as i64 + 2)]);
    // Mixed precedence: the first `2*3` opens the run (its `*` is the
    // first link), each later one is a `Binary` operand of a `+`, and `-`
    // and `+` fold left to right.
    let mixed = shapes(&module(&format!("{}-1+1", vec!["2*3"; 100].join("+")), "1"));
    assert_eq!(mixed.chains, 1);
    assert_eq!(mixed.longest_chain, 102);
    assert_eq!(mixed.deepest_binary, 1);
    assert_eq!(mixed.values, vec![Some(600)]);
    // Subtraction is not reassociated: 100 - 1 - 1 - … - 1 (30 ones).
    let sub = shapes(&module(&format!("100-{}", run(30, "-")), "1"));
    assert_eq!(sub.values, vec![Some(70)]);
}

/// Each property of the fuzz targets on runs of `n` operators in an
/// initializer, an operand and an address offset.
fn read_everywhere(n: usize) -> Duration {
    let t = Instant::now();
    let src = module(&run(n, "+"), &run(n, "+"));
    let parsed = ptxkit::parse(src.as_bytes());
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let diags = ptxkit::check::check_source(src.as_bytes(), &Default::default());
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    props::all(src.as_bytes());
    let json = serde_json::to_string(&parsed.module).unwrap();
    assert!(json.len() > n * 3 * 20);
    let s = shapes(&src);
    assert_eq!(s.values[0], Some(n as i64));
    assert_eq!(s.longest_chain, n - 1);
    drop(parsed);
    t.elapsed()
}

/// 200,000 operators (ptxas reads such runs; before the chain they were
/// refused as nesting deeper than 256) on a 256 KiB stack, in time linear
/// in the run: ten times the operators may take at most 30 times as long.
#[test]
fn long_runs_are_read_on_a_small_stack_in_linear_time() {
    let worker = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(|| {
            let small = read_everywhere(20_000);
            let big = read_everywhere(200_000);
            (small, big)
        })
        .unwrap();
    let (small, big) = worker.join().expect("no stack overflow or panic");
    assert!(
        big < small * 30 + Duration::from_millis(200),
        "20,000 operators: {small:?}; 200,000: {big:?}"
    );
}
