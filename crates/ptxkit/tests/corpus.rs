//! The whole corpus of ../shared/corpus against ptxas 13.5's verdicts.
//!
//! * every ptxas-accepted file parses without errors, prints losslessly byte
//!   for byte, and its canonical print reparses to an equal tree;
//! * every file ptxas rejects with a syntax-level message is rejected, with
//!   an error on the line ptxas names.
//!
//! Skips with a note when ../shared is absent.
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use common::{corpus_rows, shared_dir, Row};
use ptxkit::LineIndex;

fn load(row: &Row) -> Option<Vec<u8>> {
    std::fs::read(shared_dir()?.join("corpus").join(&row.path)).ok()
}

#[test]
#[cfg_attr(
    ptxkit_no_shared,
    ignore = "needs ../shared (the PTX corpus, ISA text and NVIDIA tools); absent when built"
)]
fn accepted_files_parse_print_and_reparse() {
    let Some(rows) = corpus_rows() else {
        eprintln!("note: ../shared/corpus not found; corpus test skipped");
        return;
    };
    let mut checked = 0;
    let mut failures = Vec::new();
    for row in rows.iter().filter(|r| r.verdict == "accept") {
        let Some(src) = load(row) else {
            failures.push(format!("{}: cannot read", row.path));
            continue;
        };
        checked += 1;
        let parsed = ptxkit::parse(&src);
        if let Some(d) = parsed.diagnostics.iter().find(|d| d.is_error()) {
            let lc = LineIndex::new(&src).line_col(d.span.start);
            failures.push(format!(
                "{}:{}:{}: {}",
                row.path, lc.line, lc.col, d.message
            ));
            continue;
        }
        let lossless = ptxkit::print::lossless(&parsed.module, &src);
        if lossless != src {
            failures.push(format!("{}: lossless print differs", row.path));
            continue;
        }
        let canon = ptxkit::print::canonical(&parsed.module);
        let again = ptxkit::parse(canon.as_bytes());
        if let Some(d) = again.diagnostics.iter().find(|d| d.is_error()) {
            let lc = LineIndex::new(canon.as_bytes()).line_col(d.span.start);
            failures.push(format!(
                "{}: canonical print does not reparse: {}:{}: {}",
                row.path, lc.line, lc.col, d.message
            ));
            continue;
        }
        if again.module != parsed.module {
            failures.push(format!(
                "{}: canonical print reparses to a different tree",
                row.path
            ));
        }
    }
    assert!(
        checked >= 1696,
        "expected the 1,696 accepted files, found {checked}"
    );
    assert!(
        failures.is_empty(),
        "{} of {checked} accepted files failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Messages of ptxas that are about syntax: the front end must reject these.
fn is_syntax_level(msg: &str) -> bool {
    [
        "syntax error",
        "Not a name of any known instruction",
        "Unknown modifier",
        "Unexpected EOF",
        "Missing .version",
        "Missing .target",
    ]
    .iter()
    .any(|k| msg.contains(k))
}

#[test]
#[cfg_attr(
    ptxkit_no_shared,
    ignore = "needs ../shared (the PTX corpus, ISA text and NVIDIA tools); absent when built"
)]
fn syntax_rejects_are_rejected_at_ptxas_line() {
    let Some(rows) = corpus_rows() else {
        eprintln!("note: ../shared/corpus not found; corpus test skipped");
        return;
    };
    let mut total = 0;
    let mut failures = Vec::new();
    for row in rows
        .iter()
        .filter(|r| r.verdict == "reject" && is_syntax_level(&r.first_error))
    {
        let Some(src) = load(row) else { continue };
        total += 1;
        let parsed = ptxkit::parse(&src);
        let index = LineIndex::new(&src);
        let lines: Vec<u32> = parsed
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| index.line_col(d.span.start).line)
            .collect();
        if lines.is_empty() {
            failures.push(format!(
                "{}: accepted, ptxas says: {}",
                row.path, row.first_error
            ));
            continue;
        }
        if let Some(want) = row.ptxas_line() {
            if !lines.contains(&want) {
                failures.push(format!(
                    "{}: errors on lines {lines:?}, ptxas names line {want}: {}",
                    row.path, row.first_error
                ));
            }
        }
    }
    assert!(
        total >= 100,
        "expected about 103 syntax-level rejects, found {total}"
    );
    assert!(
        failures.is_empty(),
        "{} of {total} syntax-level rejects:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
#[cfg_attr(
    ptxkit_no_shared,
    ignore = "needs ../shared (the PTX corpus, ISA text and NVIDIA tools); absent when built"
)]
fn no_panic_on_truncated_prefixes() {
    let Some(rows) = corpus_rows() else {
        eprintln!("note: ../shared/corpus not found; prefix test skipped");
        return;
    };
    // A dozen varied accepted files; every prefix at a stride that keeps the
    // test quick, plus every prefix of the first 2 KiB of each.
    let picks: Vec<&Row> = rows
        .iter()
        .filter(|r| r.verdict == "accept")
        .step_by(140)
        .take(12)
        .collect();
    assert_eq!(picks.len(), 12);
    for row in picks {
        let Some(src) = load(row) else { continue };
        let stride = (src.len() / 400).max(1);
        let mut cut = 0;
        while cut <= src.len() {
            let prefix = src.get(..cut).unwrap_or_default();
            let parsed = ptxkit::parse(prefix);
            assert_eq!(
                ptxkit::print::lossless(&parsed.module, prefix),
                prefix,
                "{} cut at {cut}",
                row.path
            );
            cut += if cut < 2048 { 1 } else { stride };
        }
    }
}
