//! The editor reports what the command line reports: for every file of
//! `../shared/corpus` that ptxas rejects (MANIFEST.tsv), the diagnostics
//! `ptx lsp` publishes for the open file (`ptxkit_lsp::diagnostics::of`,
//! what the server sends) are those of `ptx check --json --max-errors 0`:
//! the same codes at the same lines and columns, semantic errors alongside
//! a syntax error included.

// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use ptxkit_lsp::document::{Document, Encoding};

fn shared() -> Option<PathBuf> {
    let p = match std::env::var("PTXKIT_SHARED") {
        Ok(p) => PathBuf::from(p),
        Err(_) => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    let found = p.join("corpus/MANIFEST.tsv").is_file().then_some(p);
    assert!(
        found.is_some() || std::env::var("CI").as_deref() != Ok("true"),
        "../shared is required under CI=true"
    );
    found
}

/// `(code, line, column)`, 1-based, in source order.
type Found = Vec<(String, u64, u64)>;

#[test]
#[cfg_attr(
    ptxkit_no_shared,
    ignore = "needs ../shared (the PTX corpus, ISA text and NVIDIA tools); absent when built"
)]
fn lsp_and_check_agree_on_the_rejected_corpus() {
    let Some(shared) = shared() else {
        eprintln!("note: ../shared not found; LSP parity test skipped");
        return;
    };
    let corpus = shared.join("corpus");
    let manifest = std::fs::read_to_string(corpus.join("MANIFEST.tsv")).unwrap_or_default();
    let files: Vec<PathBuf> = manifest
        .lines()
        .skip(1)
        .filter(|l| l.split('\t').nth(7) == Some("reject"))
        .filter_map(|l| l.split('\t').next())
        .map(|p| corpus.join(p))
        .collect();
    assert!(files.len() > 200, "{} rejected files", files.len());
    // `ptx check`, all files in one run.
    let out = Command::new(env!("CARGO_BIN_EXE_ptx"))
        .args(["check", "--json", "--max-errors", "0"])
        .args(&files)
        .output()
        .expect("run ptx check");
    let all: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let mut by_file: BTreeMap<String, Found> = BTreeMap::new();
    for d in all.as_array().into_iter().flatten() {
        by_file
            .entry(d["file"].as_str().unwrap_or_default().to_string())
            .or_default()
            .push((
                d["code"].as_str().unwrap_or_default().to_string(),
                d["line"].as_u64().unwrap_or(0),
                d["column"].as_u64().unwrap_or(0),
            ));
    }
    let mut differ = Vec::new();
    let mut with_both = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let uri = format!("file://{}", f.display()).parse().expect("uri");
        let doc = Document::new(uri, 1, text, Encoding::Utf8, None);
        let lsp: Found = ptxkit_lsp::diagnostics::of(&doc)
            .iter()
            .map(|d| {
                let v = serde_json::to_value(d).unwrap_or_default();
                (
                    v["code"].as_str().unwrap_or_default().to_string(),
                    v["range"]["start"]["line"].as_u64().unwrap_or(0) + 1,
                    v["range"]["start"]["character"].as_u64().unwrap_or(0) + 1,
                )
            })
            .collect();
        let cli = by_file.remove(&f.display().to_string()).unwrap_or_default();
        // Codes below 300 are the lexer's and the parser's.
        let number = |c: &str| c.get(1..).and_then(|n| n.parse::<u32>().ok());
        let syntax = cli.iter().any(|(c, _, _)| number(c) < Some(300));
        let semantic = cli.iter().any(|(c, _, _)| number(c) >= Some(300));
        with_both += usize::from(syntax && semantic);
        if lsp.len().min(1000) != cli.len().min(1000) || lsp.iter().zip(&cli).any(|(a, b)| a != b) {
            differ.push(format!(
                "{}:\n  lsp   {:?}\n  check {:?}",
                f.display(),
                lsp.iter().take(6).collect::<Vec<_>>(),
                cli.iter().take(6).collect::<Vec<_>>()
            ));
        }
    }
    eprintln!(
        "{} rejected files; {} with syntax and semantic errors together",
        files.len(),
        with_both
    );
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}
