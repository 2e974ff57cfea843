//! Shared helpers of the integration tests: where ../shared is, the corpus manifest.
#![allow(dead_code)]

use std::path::PathBuf;

pub mod files;
pub mod recorded;
pub mod spec;

/// The `shared` directory beside the repository (or `$PTXKIT_SHARED`).
/// Under `CI=true` its absence is a failure. (The tests that cannot run
/// without it are also `#[ignore]`d when it was absent at build time, see
/// crates/ptxkit/build.rs, so that they are reported as ignored.)
pub fn shared_dir() -> Option<PathBuf> {
    let p = match std::env::var("PTXKIT_SHARED") {
        Ok(p) => PathBuf::from(p),
        Err(_) => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    let found = p.is_dir().then_some(p);
    assert!(
        found.is_some() || std::env::var("CI").as_deref() != Ok("true"),
        "../shared (or $PTXKIT_SHARED) is required under CI=true"
    );
    found
}

/// `../shared/tools/ptxas`, or `None` with a note on stderr naming `what`
/// goes unchecked (a failure under `CI=true`, where it is always present).
pub fn ptxas_or_skip(what: &str) -> Option<PathBuf> {
    let found = shared_dir()
        .map(|d| d.join("tools/ptxas"))
        .filter(|p| p.exists());
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "ptxas is required on CI"
        );
        eprintln!("note: ../shared/tools/ptxas is absent; {what} not checked");
    }
    found
}

/// One row of corpus/MANIFEST.tsv.
#[derive(Clone, Debug)]
pub struct Row {
    pub path: String,
    pub verdict: String,
    pub first_error: String,
}

impl Row {
    /// The line ptxas's first message names (`…, line 12; …` or `… on line 12`).
    pub fn ptxas_line(&self) -> Option<u32> {
        let i = self.first_error.find("line ")?;
        let rest = self.first_error.get(i + 5..)?;
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        digits.parse().ok()
    }
}

/// The manifest rows, or `None` when ../shared is absent.
pub fn corpus_rows() -> Option<Vec<Row>> {
    let text = std::fs::read_to_string(shared_dir()?.join("corpus/MANIFEST.tsv")).ok()?;
    let mut rows = Vec::new();
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        rows.push(Row {
            path: cols.first()?.to_string(),
            verdict: cols.get(7)?.to_string(),
            first_error: cols.get(8).unwrap_or(&"").to_string(),
        });
    }
    Some(rows)
}

/// The repository's own PTX (`examples/*.ptx`), sorted, as (path, bytes).
pub fn examples() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    v.sort();
    v.into_iter()
        .filter_map(|p| Some((p.display().to_string(), std::fs::read(&p).ok()?)))
        .collect()
}

/// The 1-based lines the errors among `diags` start on, in their order.
pub fn error_lines_of(src: &[u8], diags: &[ptxkit::diag::Diagnostic]) -> Vec<u32> {
    let index = ptxkit::LineIndex::new(src);
    diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| index.line_col(d.span.start).line)
        .collect()
}
