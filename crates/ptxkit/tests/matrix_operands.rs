//! Operands of the matrix instructions (`wgmma`, `tcgen05`, `wmma`, `mma`) against ptxas
//! 13.5: each file of `data/operands/matrix` is checked as `ptx check`
//! does, and the lines our errors fall on must be the lines ptxas reports
//! (recorded in `data/operands/matrix/PTXAS.tsv`). The files hold the
//! probes behind the catalog's `exact` operands (docs/catalog.md). When
//! ptxas is at hand (`../shared/tools`) the recording itself is verified;
//! without it that test is skipped with a note, and fails under `CI=true`.

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
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/operands/matrix")
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
    common::recorded::assert_recorded_verdicts_are_ptxas_s(&dir(), "sm_90a");
}
