//! The operands of the memory instructions against ptxas 13.5 (issue #39,
//! the operand sweep's share of `ld`, `st`, `atom`, `red`, `mbarrier`,
//! `cp.async.bulk`, `fence` and the `op-addr-*` cases): what an address's
//! brackets hold (constants only in `.local`, no function or label names,
//! no `.b128` registers, generic addresses naming only
//! `.global`/`.shared`/`.local` variables, `fence.proxy.tensormap`'s
//! lenient address), function names as the values of `atom`, `red` and
//! `st`, `_` in the 256-bit `st` vectors, `mbarrier` counts. Each file of
//! `data/memory_operands` is checked as `ptx check` does; the lines our
//! errors fall on must be the lines ptxas reports (recorded in
//! `data/memory_operands/PTXAS.tsv`). When ptxas is at hand
//! (`../shared/tools`) the recording itself is verified; without it that
//! test is skipped with a note, and fails under `CI=true`.

// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/memory_operands")
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
