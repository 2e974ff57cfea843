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

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use ptxkit::check::{check_source, CheckOptions};
use ptxkit::LineIndex;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/memory_operands")
}

/// The recorded verdicts: file → the lines ptxas reports errors on.
fn recorded() -> Vec<(String, BTreeSet<u32>)> {
    let tsv = std::fs::read_to_string(dir().join("PTXAS.tsv")).unwrap();
    tsv.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (file, lines) = l.split_once('\t').unwrap_or((l, ""));
            let lines = lines
                .split(',')
                .filter_map(|n| n.trim().parse().ok())
                .collect();
            (file.to_string(), lines)
        })
        .collect()
}

#[test]
fn every_case_is_recorded() {
    let mut files: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ptx"))
        .collect();
    files.sort();
    let mut names: Vec<String> = recorded().into_iter().map(|(f, _)| f).collect();
    names.sort();
    assert!(!files.is_empty(), "no cases in {}", dir().display());
    assert_eq!(files, names, "each case has one row in PTXAS.tsv");
}

#[test]
fn errors_fall_on_the_lines_ptxas_reports() {
    let mut bad = Vec::new();
    for (file, want) in recorded() {
        let src = std::fs::read(dir().join(&file)).unwrap();
        let index = LineIndex::new(&src);
        let diags = check_source(&src, &CheckOptions::default());
        let got: BTreeSet<u32> = diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| index.line_col(d.span.start).line)
            .collect();
        if got != want {
            let msgs: Vec<String> = diags.iter().map(|d| format!("  {d:?}")).collect();
            bad.push(format!(
                "{file}: ptxas {want:?}, ours {got:?}\n{}",
                msgs.join("\n")
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn recorded_verdicts_are_ptxas_s() {
    let Some(ptxas) = common::shared_dir()
        .map(|d| d.join("tools/ptxas"))
        .filter(|p| p.exists())
    else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "ptxas is required on CI"
        );
        eprintln!("skipped: ../shared/tools/ptxas is absent");
        return;
    };
    for (file, want) in recorded() {
        let path = dir().join(&file);
        let src = std::fs::read_to_string(&path).unwrap();
        let arch = src
            .lines()
            .find_map(|l| l.strip_prefix(".target "))
            .unwrap_or("sm_90")
            .trim()
            .to_string();
        let out = std::process::Command::new(&ptxas)
            .arg(format!("-arch={arch}"))
            .arg(&path)
            .args(["-o", "/dev/null"])
            .output()
            .expect("ptxas runs");
        let text = String::from_utf8_lossy(&out.stderr);
        let got: BTreeSet<u32> = text
            .split("line ")
            .skip(1)
            .filter_map(|s| s.split(';').next()?.trim().parse().ok())
            .collect();
        assert_eq!(got, want, "{file}: ptxas now says\n{text}");
        assert_eq!(out.status.success(), want.is_empty(), "{file}: exit status");
    }
}
