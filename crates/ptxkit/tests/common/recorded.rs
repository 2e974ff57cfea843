//! Probe files with the lines ptxas 13.5 reports errors on, recorded in a
//! `PTXAS.tsv` beside them (`file<TAB>line,line,…`): the harness of
//! `names.rs`, `matrix_operands.rs` and `memory_operands.rs`.

use std::collections::BTreeSet;
use std::path::Path;

use ptxkit::check::{check_source, CheckOptions};
use ptxkit::LineIndex;

/// The recorded verdicts of `dir`: file → the lines ptxas reports errors on.
pub fn recorded(dir: &Path) -> Vec<(String, BTreeSet<u32>)> {
    let tsv = std::fs::read_to_string(dir.join("PTXAS.tsv"))
        .unwrap_or_else(|e| panic!("{}/PTXAS.tsv: {e}", dir.display()));
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

/// Each `.ptx` file of `dir` has one row in its `PTXAS.tsv`, and there is
/// at least one.
pub fn assert_every_case_is_recorded(dir: &Path) {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ptx"))
        .collect();
    files.sort();
    let mut names: Vec<String> = recorded(dir).into_iter().map(|(f, _)| f).collect();
    names.sort();
    assert!(!files.is_empty(), "no cases in {}", dir.display());
    assert_eq!(files, names, "each case has one row in PTXAS.tsv");
}

/// Our checker's errors fall on exactly the recorded lines of each file.
pub fn assert_errors_fall_on_the_recorded_lines(dir: &Path) {
    let mut bad = Vec::new();
    for (file, want) in recorded(dir) {
        let src = std::fs::read(dir.join(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
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

/// The recording of `dir` is what ptxas says now (each file at its own
/// `.target`, else `default_arch`): the lines of its errors and fatal errors
/// (not of its warnings or `info` advisories) and its exit status. Skipped with a note
/// without ptxas; a failure under `CI=true`.
pub fn assert_recorded_verdicts_are_ptxas_s(dir: &Path, default_arch: &str) {
    let Some(ptxas) = super::ptxas_or_skip("the recorded verdicts") else {
        return;
    };
    for (file, want) in recorded(dir) {
        let path = dir.join(&file);
        let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let arch = src
            .lines()
            .find_map(|l| l.strip_prefix(".target "))
            .unwrap_or(default_arch)
            .trim()
            .to_string();
        let out = std::process::Command::new(&ptxas)
            .arg(format!("-arch={arch}"))
            .arg(&path)
            .args(["-o", "/dev/null"])
            .output()
            .expect("ptxas runs");
        let text = String::from_utf8_lossy(&out.stderr);
        // A fatal error in ptxas's own expansion of an instruction
        // (`ptxas <builtin>, line N; fatal`, after which it stops) names
        // a line of the expansion, not of the file: it stands for the one
        // recorded line no other report accounts for.
        let builtin = text
            .lines()
            .filter(|l| l.contains("<builtin>") && l.contains("; fatal"))
            .count();
        // Most reports say `FILE, line N; error`; a few fatal ones, found
        // after parsing (a function's address in arithmetic), say
        // `fatal   : Line No: N: …` instead.
        let got: BTreeSet<u32> = text
            .lines()
            .filter(|l| !l.contains("<builtin>"))
            .filter_map(|l| {
                let n = if l.contains("; error") || l.contains("; fatal") {
                    l.split("line ").nth(1)?.split(';').next()?
                } else if l.contains("fatal") {
                    l.split("Line No: ").nth(1)?.split(':').next()?
                } else {
                    return None;
                };
                n.trim().parse().ok()
            })
            .collect();
        assert!(got.is_subset(&want), "{file}: ptxas now says\n{text}");
        assert_eq!(
            want.len() - got.len(),
            builtin,
            "{file}: ptxas now says\n{text}"
        );
        assert_eq!(out.status.success(), want.is_empty(), "{file}: exit status");
    }
}
