//! The checker against ptxas 13.5's verdicts on ../shared/corpus:
//! no errors on accepted files; rejected files (other than for linking)
//! rejected, at ptxas's line.
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

/// Error lines of a file after parsing and (when it parses) checking. The
/// streaming check (`ptx check`'s path) must say exactly what parsing the
/// whole module and checking it says.
fn error_lines(src: &[u8], path: &str) -> Vec<u32> {
    let diags = props::streamed_equals_whole(src, path);
    common::error_lines_of(src, &diags)
}

fn out_of_scope(msg: &str) -> bool {
    msg.contains("Unresolved extern")
}

#[test]
#[cfg_attr(
    ptxkit_no_shared,
    ignore = "needs ../shared (the PTX corpus, ISA text and NVIDIA tools); absent when built"
)]
fn checker_agrees_with_ptxas_on_the_corpus() {
    let (Some(rows), Some(shared)) = (corpus_rows(), shared_dir()) else {
        eprintln!("note: ../shared/corpus not found; checker corpus test skipped");
        return;
    };
    let mut false_rejects = Vec::new();
    let (mut in_scope, mut rejected, mut at_line) = (0usize, 0usize, 0usize);
    let mut missed = Vec::new();
    for row in &rows {
        let Ok(src) = std::fs::read(shared.join("corpus").join(&row.path)) else {
            continue;
        };
        let lines = error_lines(&src, &row.path);
        if row.verdict == "accept" {
            if let Some(l) = lines.first() {
                false_rejects.push(format!("{}:{l}", row.path));
            }
            continue;
        }
        if out_of_scope(&row.first_error) {
            continue;
        }
        in_scope += 1;
        if lines.is_empty() {
            missed.push(format!("{}: {}", row.path, row.first_error));
            continue;
        }
        rejected += 1;
        if row.ptxas_line().is_none_or(|want| lines.contains(&want)) {
            at_line += 1;
        }
    }
    eprintln!("checker: {in_scope} rejected files in scope, {rejected} rejected, {at_line} at ptxas's line; {} false rejections", false_rejects.len());
    for m in &missed {
        eprintln!("  missed: {m}");
    }
    assert!(
        false_rejects.is_empty(),
        "errors on ptxas-accepted files:\n{}",
        false_rejects.join("\n")
    );
    assert!(
        in_scope >= 200,
        "expected about 214 in-scope rejects, found {in_scope}"
    );
    assert!(
        rejected * 100 >= in_scope * 99,
        "rejected {rejected} of {in_scope} (< 99%); missed:\n{}",
        missed.join("\n")
    );
    assert!(
        at_line * 100 >= in_scope * 96,
        "at ptxas's line for {at_line} of {in_scope} (< 96%)"
    );
}
