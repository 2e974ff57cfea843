//! Parsing in pieces (`parse_in_pieces`, `parse_parallel`) and streaming
//! (`syntax_check`, `ItemStream`) give exactly what `parse` gives: the same tree,
//! spans and diagnostics. On the examples, a synthetic module of more than
//! 5 MB, and (when ../shared is present) every corpus file.
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use common::examples;
use ptxkit::{Item, Parsed};

/// The synthetic module builder of `xtask bench`.
#[path = "../../../xtask/src/synth.rs"]
mod synth;

/// Spans take no part in `==`; compare through JSON, which has them.
fn json<T: serde::Serialize>(x: &T) -> String {
    serde_json::to_string(x).unwrap_or_default()
}

fn assert_same(name: &str, seq: &Parsed, other: &Parsed, full: bool) {
    assert_eq!(
        json(&seq.diagnostics),
        json(&other.diagnostics),
        "{name}: diagnostics differ"
    );
    assert_eq!(seq.module, other.module, "{name}: trees differ");
    let spans = |p: &Parsed| p.module.items.iter().map(|i| i.span()).collect::<Vec<_>>();
    assert_eq!(json(&spans(seq)), json(&spans(other)), "{name}: item spans");
    if full {
        assert!(
            json(&seq.module) == json(&other.module),
            "{name}: spans inside the tree differ"
        );
    }
}

#[test]
fn examples_in_pieces_and_streamed() {
    let ex = examples();
    assert!(ex.len() > 3);
    for (name, src) in &ex {
        let seq = ptxkit::parse(src);
        for pieces in [2, 3, 8] {
            assert_same(name, &seq, &ptxkit::parse_in_pieces(src, pieces), true);
        }
        assert_same(name, &seq, &ptxkit::parse_parallel(src), true);
        assert_eq!(
            json(&seq.diagnostics),
            json(&ptxkit::syntax_check(src)),
            "{name}"
        );
        let streamed: Vec<Item> = ptxkit::ItemStream::new(src).map(|(i, _)| i).collect();
        assert_eq!(json(&seq.module.items), json(&streamed), "{name}");
    }
}

#[test]
fn synthetic_module_over_5_mb() {
    let inputs: Vec<Vec<u8>> = examples().into_iter().map(|(_, s)| s).collect();
    let src = synth::module(&inputs, 5_000_000);
    assert!(src.len() >= 5_000_000);
    let seq = ptxkit::parse(&src);
    assert!(!seq.has_errors(), "{:?}", seq.diagnostics.first());
    assert!(seq.module.functions().count() > 1000);
    assert_same("synthetic", &seq, &ptxkit::parse_in_pieces(&src, 4), true);
    assert_same("synthetic", &seq, &ptxkit::parse_parallel(&src), true);
    // Errors sprinkled through it come out the same, in source order.
    let mut bad = src.clone();
    for at in (100_000..bad.len()).step_by(700_000) {
        if let Some(b) = bad.get_mut(at) {
            *b = b'#';
        }
    }
    let seq = ptxkit::parse(&bad);
    assert!(seq.diagnostics.len() >= 5);
    assert_same(
        "synthetic+errors",
        &seq,
        &ptxkit::parse_in_pieces(&bad, 7),
        true,
    );
    assert_eq!(json(&seq.diagnostics), json(&ptxkit::syntax_check(&bad)));
}

#[test]
#[cfg_attr(
    ptxkit_no_shared,
    ignore = "needs ../shared (the PTX corpus, ISA text and NVIDIA tools); absent when built"
)]
fn corpus_in_pieces_and_streamed() {
    let (Some(rows), Some(shared)) = (common::corpus_rows(), common::shared_dir()) else {
        eprintln!("note: ../shared/corpus not found; corpus split test skipped");
        return;
    };
    let mut checked = 0;
    for row in &rows {
        let Ok(src) = std::fs::read(shared.join("corpus").join(&row.path)) else {
            continue;
        };
        let seq = ptxkit::parse(&src);
        // Full span comparison (JSON of the whole tree) on the larger files.
        let full = src.len() > 300_000;
        let pieces = if src.len() > 100_000 { 4 } else { 2 };
        assert_same(
            &row.path,
            &seq,
            &ptxkit::parse_in_pieces(&src, pieces),
            full,
        );
        assert_eq!(
            json(&seq.diagnostics),
            json(&ptxkit::syntax_check(&src)),
            "{}",
            row.path
        );
        checked += 1;
    }
    assert!(checked > 1000, "only {checked} corpus files read");
}
