//! Names and operand types against ptxas 13.5: each file of `data/names`
//! is checked as `ptx check` does, and the lines our errors fall on must be
//! the lines ptxas reports (recorded in `data/names/PTXAS.tsv`; an empty
//! set is a file ptxas accepts). When ptxas is at hand (`../shared/tools`)
//! the recording itself is verified; without it that test is skipped with
//! a note, and fails under `CI=true`.
//!
//! Then one tricky module goes through the checker, the register analyses
//! and the LSP's resolver (`ptxkit::syntax::scope`), which must agree on
//! what every name is.

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

use ptxkit::analysis::regs::RegTable;
use ptxkit::check::{check_source, CheckOptions};
use ptxkit::{LineIndex, Name};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/names")
}

/// The recorded verdicts: file → the lines ptxas reports errors on.
fn recorded() -> Vec<(String, BTreeSet<u32>)> {
    let tsv = std::fs::read_to_string(dir().join("PTXAS.tsv")).unwrap_or_default();
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

/// The lines our checker reports errors on.
fn our_lines(src: &[u8]) -> BTreeSet<u32> {
    let index = LineIndex::new(src);
    check_source(src, &CheckOptions::default())
        .iter()
        .filter(|d| d.is_error())
        .map(|d| index.line_col(d.span.start).line)
        .collect()
}

#[test]
fn every_case_is_recorded() {
    let rec = recorded();
    let mut files: Vec<String> = std::fs::read_dir(dir())
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".ptx"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut names: Vec<String> = rec.iter().map(|(f, _)| f.clone()).collect();
    names.sort();
    assert!(!files.is_empty(), "no cases in {}", dir().display());
    assert_eq!(files, names, "each case has one row in PTXAS.tsv");
}

#[test]
fn errors_fall_on_the_lines_ptxas_reports() {
    let mut bad = Vec::new();
    for (file, want) in recorded() {
        let src = std::fs::read(dir().join(&file)).unwrap_or_default();
        let got = our_lines(&src);
        if got != want {
            bad.push(format!("{file}: ptxas {want:?}, ours {got:?}"));
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
        let src = std::fs::read_to_string(&path).unwrap_or_default();
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

/// A module whose names are hard to resolve (`data/names/tricky.ptx`):
/// ranges whose names end in a digit, leading zeros, a register past its
/// range, a block hiding a range's register, a label used before its
/// definition. The LSP index runs the same file (ptxkit-lsp `index.rs`).
const TRICKY: &str = include_str!("data/names/tricky.ptx");

#[test]
fn checker_analyses_and_lsp_agree_on_names() {
    // The checker: `%v20` and `%q3` are not declared, nothing else.
    let src = TRICKY.as_bytes();
    let index = LineIndex::new(src);
    let diags = check_source(src, &CheckOptions::default());
    let undeclared: BTreeSet<(u32, String)> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            (
                index.line_col(d.span.start).line,
                String::from_utf8_lossy(d.span.slice(src)).into_owned(),
            )
        })
        .collect();
    let want: BTreeSet<(u32, String)> = [(12, "%v20".to_string()), (13, "%q3".to_string())]
        .into_iter()
        .collect();
    assert_eq!(undeclared, want, "{diags:?}");

    // The register analyses: the same names are registers, or not.
    let parsed = ptxkit::parse(src);
    let f = parsed.module.functions().next().expect("one function");
    let regs = RegTable::of_function(f);
    for (name, declared) in [
        ("%q01", true),
        ("%q1", true),
        ("%q2", true),
        ("%v20", false),
        ("%v2", false),
        ("%q3", false),
    ] {
        assert_eq!(
            regs.lookup(Name::new(name)).is_some(),
            declared,
            "analyses on {name}"
        );
    }
    // `%q01` is the range's register: 32 bits, as the checker types it.
    assert_eq!(regs.lookup(Name::new("%q01")).map(|t| t.bits()), Some(32));

    // The resolver the LSP index is built on, block by block: the inner
    // block's `%q1` hides the range's.
    use ptxkit::syntax::scope::Scopes;
    let mut scopes: Scopes<u32> = Scopes::default();
    scopes.push();
    let body = scopes.innermost().expect("a scope");
    let _ = body.declare_range(Name::new("%v2"), 4, ptxkit::Span::new(0, 0), 1);
    let _ = body.declare_range(Name::new("%q"), 3, ptxkit::Span::new(0, 0), 2);
    assert_eq!(scopes.find(Name::new("%q01")), Some(2));
    assert_eq!(scopes.find(Name::new("%v20")), None);
    scopes.push();
    let inner = scopes.innermost().expect("a scope");
    let _ = inner.declare(Name::new("%q1"), 3);
    assert_eq!(scopes.find(Name::new("%q1")), Some(3));
    assert_eq!(scopes.find(Name::new("%q01")), Some(2));
}
