//! Texture and surface operands (`tex`, `tld4`, `txq`, `suld`, `sust`,
//! `sured`, `suq`, `istypep`) and the grammar of grouped operands (brace
//! vectors, bracketed tuples) against ptxas 13.5.
//!
//! Each file of `data/operands/texture` is a module whose case lines end in
//! `// ok` or `// error`: ptxas's verdict on that line alone (a syntax
//! error is fatal to ptxas, so every case is judged in a module of its own:
//! the file with the other case lines blanked). Our checker must report an
//! error on the case's line exactly when ptxas does, and none elsewhere.
//! When ptxas is at hand (`../shared/tools`) the recorded verdicts are
//! verified; without it that test is skipped with a note, and fails under
//! `CI=true`.

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
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/operands/texture")
}

/// One case: the module with only this case line kept, its line (1-based)
/// and whether ptxas refuses it.
struct Case {
    file: String,
    line: u32,
    text: String,
    module: String,
    error: bool,
}

fn cases() -> Vec<Case> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = src.lines().collect();
        let verdict = |l: &str| {
            let l = l.trim_end();
            if l.ends_with("// ok") {
                Some(false)
            } else if l.ends_with("// error") {
                Some(true)
            } else {
                None
            }
        };
        for (k, l) in lines.iter().enumerate() {
            let Some(error) = verdict(l) else { continue };
            let module: String = lines
                .iter()
                .enumerate()
                .map(|(j, m)| {
                    if j == k || verdict(m).is_none() {
                        format!("{m}\n")
                    } else {
                        "\n".to_string()
                    }
                })
                .collect();
            out.push(Case {
                file: path.file_name().unwrap().to_string_lossy().into_owned(),
                line: k as u32 + 1,
                text: l.trim().to_string(),
                module,
                error,
            });
        }
    }
    out
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
fn there_are_cases_of_both_verdicts() {
    let all = cases();
    assert!(all.iter().any(|c| c.error), "no refused case");
    assert!(all.iter().any(|c| !c.error), "no accepted case");
}

#[test]
fn errors_fall_on_the_lines_ptxas_reports() {
    let mut bad = Vec::new();
    for c in cases() {
        let want: BTreeSet<u32> = if c.error {
            BTreeSet::from([c.line])
        } else {
            BTreeSet::new()
        };
        let got = our_lines(c.module.as_bytes());
        if got != want {
            bad.push(format!(
                "{}:{}: {} — ptxas {want:?}, ours {got:?}",
                c.file, c.line, c.text
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn recorded_verdicts_are_ptxas_s() {
    let Some(ptxas) = common::ptxas_or_skip("the recorded verdicts") else {
        return;
    };
    let tmp = std::env::temp_dir().join(format!("ptxkit-texture-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut bad = Vec::new();
    for c in cases() {
        let arch = c
            .module
            .lines()
            .find_map(|l| l.strip_prefix(".target "))
            .and_then(|t| t.split(',').next())
            .unwrap_or("sm_90")
            .trim()
            .to_string();
        let path = tmp.join("case.ptx");
        std::fs::write(&path, &c.module).unwrap();
        let out = std::process::Command::new(&ptxas)
            .arg(format!("-arch={arch}"))
            .arg(&path)
            .args(["-o", "/dev/null"])
            .output()
            .expect("ptxas runs");
        let text = String::from_utf8_lossy(&out.stderr);
        let lines: BTreeSet<u32> = text
            .split("line ")
            .skip(1)
            .filter_map(|s| s.split(';').next()?.trim().parse().ok())
            .collect();
        let want: BTreeSet<u32> = if c.error {
            BTreeSet::from([c.line])
        } else {
            BTreeSet::new()
        };
        if lines != want || out.status.success() == c.error {
            bad.push(format!(
                "{}:{}: {} — ptxas now says {text}",
                c.file, c.line, c.text
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
