//! With no error cap, the streaming check writes its diagnostics, and the
//! uses of names that wait for a label, to temporary files once it holds
//! tens of thousands of them. `CheckOptions::small_spills` makes it do so
//! after a handful, so that ordinary inputs take those paths: the result
//! must be exactly the one held in memory (`props::spills_change_nothing`,
//! also a property of the `check` fuzz target).
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

use common::{corpus_rows, shared_dir};

/// Every corpus file: a body's forward branches are held uses, so nearly
/// every kernel writes some out; the rejected files add diagnostics.
#[test]
#[cfg_attr(
    ptxkit_no_shared,
    ignore = "needs ../shared (the PTX corpus, ISA text and NVIDIA tools); absent when built"
)]
fn small_spills_change_nothing_on_the_corpus() {
    let (Some(rows), Some(shared)) = (corpus_rows(), shared_dir()) else {
        eprintln!("note: ../shared/corpus not found; spill test skipped");
        return;
    };
    let mut n = 0;
    for row in &rows {
        let Ok(src) = std::fs::read(shared.join("corpus").join(&row.path)) else {
            continue;
        };
        props::spills_change_nothing(&src, &row.path);
        n += 1;
    }
    assert!(n > 1000, "only {n} corpus files read");
}

/// A small random generator (the test must not depend on a crate's
/// sequence staying the same).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Bodies of nested blocks, branches forward and back to labels defined
/// in the block, an enclosing one, a sibling or nowhere, undeclared
/// registers and duplicate labels: what the held uses settle on as
/// blocks close and bodies end, with many diagnostics.
fn generated(seed: u64) -> String {
    let mut r = Lcg(seed);
    let mut s = String::from(".version 8.5\n.target sm_90\n.address_size 64\n");
    for f in 0..1 + r.below(3) {
        s.push_str(&format!(".visible .entry k{f}()\n{{\n.reg .b32 %r<4>;\n"));
        let mut depth = 0;
        for _ in 0..r.below(120) {
            match r.below(10) {
                0 if depth < 6 => {
                    s.push_str("{\n");
                    depth += 1;
                }
                1 if depth > 0 => {
                    s.push_str("}\n");
                    depth -= 1;
                }
                2 | 3 => s.push_str(&format!("L{}:\n", r.below(12))),
                4..=6 => s.push_str(&format!("bra L{};\n", r.below(14))),
                7 => s.push_str(&format!("add.s32 %r1, %q{}, 1;\n", r.below(5))),
                8 => s.push_str("mov.b32 %r2, %r1;\n"),
                _ => s.push_str(&format!(".reg .b32 %q{};\n", r.below(5))),
            }
        }
        for _ in 0..depth {
            s.push_str("}\n");
        }
        s.push_str("ret;\n}\n");
    }
    s
}

#[test]
fn small_spills_change_nothing_on_generated_bodies() {
    for seed in 0..400 {
        let src = generated(seed);
        props::spills_change_nothing(src.as_bytes(), &format!("seed {seed}:\n{src}"));
    }
}

/// One body of 1,500 forward branches (1,000 of them to labels nowhere,
/// half from nested blocks) and 500 undeclared registers: hundreds of
/// written-out chunks of held uses and of diagnostics, all given back.
#[test]
fn small_spills_give_back_every_diagnostic() {
    let mut s = String::from(
        ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<4>;\n",
    );
    for i in 0..500 {
        s.push_str(&format!(
            "bra L{i};\nadd.s32 %r1, %x{i}, 1;\n{{\nbra M{i};\n}}\n"
        ));
    }
    for i in (0..500).step_by(2) {
        s.push_str(&format!("L{i}:\n"));
    }
    s.push_str("ret;\n}\n");
    let small = ptxkit::check::CheckOptions {
        small_spills: true,
        ..Default::default()
    };
    let spilled = ptxkit::check::check_source(s.as_bytes(), &small);
    // 500 undeclared registers, 250 undefined labels `L`, 500 `M`.
    assert_eq!(spilled.len(), 1250);
    props::spills_change_nothing(s.as_bytes(), "forward branches");
}
