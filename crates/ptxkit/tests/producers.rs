//! The checker against ptxas on PTX from real producers: Triton, numba-cuda,
//! NVRTC, nvcc, CUTLASS/CuTe through nvcc, and LLVM's NVPTX back end, made
//! here by `producers/generate.py` and kept in `tests/data/producers` with
//! ptxas's verdict per file in its `MANIFEST.tsv` (so this test needs nothing
//! outside the repository).
//!
//! A file ptxas accepts must give no error (parse and check, as `ptx check`
//! does it); a file ptxas rejects must give at least one. Files the checker
//! still rejects wrongly are listed in [`KNOWN_FALSE_REJECTIONS`]: they are
//! skipped, and the test fails once one of them passes, so the list only
//! shrinks as the checker is fixed.
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::path::{Path, PathBuf};

use ptxkit::check::{check_source, CheckOptions};
use ptxkit::LineIndex;

/// ptxas-accepted files on which the checker reports an error today, by
/// manifest path. Remove an entry once the checker accepts the file.
const KNOWN_FALSE_REJECTIONS: &[&str] = &[];

/// One row of `tests/data/producers/MANIFEST.tsv`.
struct Row {
    path: String,
    producer: String,
    verdict: String,
    ptxas_error: String,
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/producers")
}

fn manifest() -> Vec<Row> {
    let path = data_dir().join("MANIFEST.tsv");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("empty manifest").split('\t').collect();
    assert_eq!(
        header[..6],
        [
            "path",
            "producer",
            "version",
            "target",
            "verdict",
            "ptxas_error"
        ],
        "unexpected MANIFEST.tsv header"
    );
    lines
        .filter(|l| !l.is_empty())
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let col = |i: usize| cols.get(i).copied().unwrap_or("").to_string();
            Row {
                path: col(0),
                producer: col(1),
                verdict: col(4),
                ptxas_error: col(5),
            }
        })
        .collect()
}

/// The first error the checker reports, as `line:col: message`.
fn first_error(src: &[u8]) -> Option<String> {
    let diags = check_source(src, &CheckOptions::default());
    let d = diags.iter().find(|d| d.is_error())?;
    let lc = LineIndex::new(src).line_col(d.span.start);
    Some(format!("{}:{}: {}", lc.line, lc.col, d.message))
}

#[test]
fn checker_agrees_with_ptxas_on_producer_output() {
    let rows = manifest();
    assert!(
        rows.len() >= 150,
        "expected at least 150 producer files, the manifest lists {}",
        rows.len()
    );
    let mut failures = Vec::new();
    let (mut accepted, mut rejected, mut known) = (0usize, 0usize, 0usize);
    // Every ptxas-accepted file the checker rejects today: the list as it
    // should read now, printed with any failure.
    let mut wrongly_rejected = Vec::new();
    for row in &rows {
        let Ok(src) = std::fs::read(data_dir().join(&row.path)) else {
            failures.push(format!("{}: listed in MANIFEST.tsv but missing", row.path));
            continue;
        };
        let error = first_error(&src);
        let listed = KNOWN_FALSE_REJECTIONS.contains(&row.path.as_str());
        if row.verdict == "accept" && error.is_some() {
            wrongly_rejected.push(format!("    \"{}\",", row.path));
        }
        match (row.verdict.as_str(), error) {
            ("accept", None) if listed => failures.push(format!(
                "{}: the checker accepts it now; remove it from KNOWN_FALSE_REJECTIONS",
                row.path
            )),
            ("accept", None) => accepted += 1,
            ("accept", Some(_)) if listed => known += 1,
            ("accept", Some(e)) => failures.push(format!(
                "{}:{e}  (ptxas accepts this {} output)",
                row.path, row.producer
            )),
            ("reject", Some(_)) => rejected += 1,
            ("reject", None) => failures.push(format!(
                "{}: ptxas rejects it ({}) but the checker reports no error",
                row.path, row.ptxas_error
            )),
            (v, _) => failures.push(format!("{}: unknown verdict {v:?}", row.path)),
        }
    }
    for path in KNOWN_FALSE_REJECTIONS {
        if !rows
            .iter()
            .any(|r| r.path == *path && r.verdict == "accept")
        {
            failures.push(format!(
                "{path}: in KNOWN_FALSE_REJECTIONS but not an accepted file of the manifest"
            ));
        }
    }
    eprintln!(
        "producers: {} files; {accepted} accepted and {rejected} rejected as ptxas does; \
         {known} known false rejections skipped",
        rows.len()
    );
    assert!(
        failures.is_empty(),
        "{} disagreement(s) with ptxas:\n{}\n\nKNOWN_FALSE_REJECTIONS as it would read now ({} files):\n{}",
        failures.len(),
        failures.join("\n"),
        wrongly_rejected.len(),
        wrongly_rejected.join("\n")
    );
}
