//! The catalog against the spec pack (../shared/spec):
//! * every ISA section of INDEX.tsv is covered by a catalog section;
//! * every statement of the Examples of those sections parses, except the
//!   ones listed in `data/spec_examples_known_bad.tsv` (typos in the spec,
//!   placeholders such as `...`, or code ptxas itself rejects).
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

use common::shared_dir;
use common::spec::{example_lines, index_rows};

#[test]
#[cfg_attr(
    ptxkit_no_shared,
    ignore = "needs ../shared (the PTX corpus, ISA text and NVIDIA tools); absent when built"
)]
fn catalog_covers_every_index_section() {
    let Some(shared) = shared_dir() else {
        eprintln!("note: ../shared not found; spec coverage test skipped");
        return;
    };
    let tsv = std::fs::read_to_string(shared.join("spec/INDEX.tsv")).unwrap_or_default();
    let rows = index_rows(&tsv);
    assert!(rows.len() >= 240, "INDEX.tsv has {} rows", rows.len());
    let cat = ptxkit::isa::catalog();
    let covered: BTreeSet<&str> = cat
        .sections()
        .iter()
        .flat_map(|s| s.isa_sections.iter().map(|x| &**x))
        .collect();
    let missing: Vec<String> = rows
        .iter()
        .filter(|(k, _, _)| !covered.contains(k.as_str()))
        .map(|(k, op, _)| format!("{k} {op}"))
        .collect();
    assert!(
        missing.is_empty(),
        "sections not in the catalog:\n{}",
        missing.join("\n")
    );
    // Every opcode family of the index is spelled by some catalog form.
    let names: BTreeSet<&str> = cat.sections().iter().map(|s| s.name).collect();
    let roots: BTreeSet<&str> = cat.opcodes().map(|(_, o)| o.name).collect();
    for (_, op, _) in &rows {
        let root = op.split('.').next().unwrap_or("");
        assert!(
            names.contains(op.as_str()) || roots.contains(root) || op == "{}" || op == "@",
            "opcode family {op} has no catalog entry"
        );
    }
}

#[test]
#[cfg_attr(
    ptxkit_no_shared,
    ignore = "needs ../shared (the PTX corpus, ISA text and NVIDIA tools); absent when built"
)]
fn spec_examples_parse() {
    let Some(shared) = shared_dir() else {
        eprintln!("note: ../shared not found; spec examples test skipped");
        return;
    };
    let tsv = std::fs::read_to_string(shared.join("spec/INDEX.tsv")).unwrap_or_default();
    let known_bad_text = include_str!("data/spec_examples_known_bad.tsv");
    let known_bad: BTreeSet<&str> = known_bad_text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split('\t').nth(1))
        .collect();
    let mut files: Vec<(String, String)> = index_rows(&tsv)
        .into_iter()
        .map(|(k, _, f)| (k, f))
        .collect();
    files.sort();
    files.dedup_by(|a, b| a.1 == b.1);
    let mut tried = 0;
    let mut unexpected = Vec::new();
    let mut now_ok = Vec::new();
    for (key, file) in &files {
        let text = std::fs::read_to_string(shared.join("spec").join(file)).unwrap_or_default();
        for stmt in example_lines(&text) {
            tried += 1;
            let (_, diags) = ptxkit::parse_body(stmt.as_bytes());
            let failed = diags.iter().any(|d| d.is_error());
            let listed = known_bad.contains(stmt.as_str());
            if failed && !listed {
                let msg = diags
                    .iter()
                    .find(|d| d.is_error())
                    .map(|d| d.message.clone())
                    .unwrap_or_default();
                unexpected.push(format!("{key}\t{stmt}\t{msg}"));
            } else if !failed && listed {
                now_ok.push(format!("{key}\t{stmt}"));
            }
        }
    }
    assert!(tried > 900, "only {tried} spec examples found");
    assert!(
        unexpected.is_empty(),
        "{} of {tried} spec examples fail to parse:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    assert!(
        now_ok.is_empty(),
        "listed as known bad but now parse (remove them from the list):\n{}",
        now_ok.join("\n")
    );
}
