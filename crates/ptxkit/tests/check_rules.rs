//! One failing and one passing case per checker rule (`data/check/{fail,pass}`),
//! with ptxas 13.5's verdict recorded in `data/check/fail/PTXAS.tsv`.

use std::path::Path;

use ptxkit::check::{check, CheckOptions};
use ptxkit::diag::render;
use ptxkit::LineIndex;

fn diagnostics(src: &[u8]) -> Vec<ptxkit::Diagnostic> {
    let parsed = ptxkit::parse(src);
    assert!(
        !parsed.has_errors(),
        "case must parse: {:?}",
        parsed.diagnostics
    );
    check(&parsed.module, &CheckOptions::default())
}

#[test]
fn failing_cases() {
    let tsv = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/check/fail/PTXAS.tsv"),
    )
    .unwrap_or_default();
    insta::glob!("data/check/fail/*.ptx", |path| {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let src = std::fs::read(path).unwrap_or_default();
        let diags = diagnostics(&src);
        assert!(
            diags.iter().any(|d| d.is_error()),
            "{name}: ptxas rejects it, the checker must too"
        );
        let index = LineIndex::new(&src);
        let want: Option<u32> = tsv
            .lines()
            .find(|l| l.starts_with(&format!("{name}\t")))
            .and_then(|l| l.split('\t').nth(1))
            .and_then(|n| n.parse().ok());
        if let Some(want) = want {
            let first = diags
                .iter()
                .find(|d| d.is_error())
                .map(|d| index.line_col(d.span.start).line);
            assert_eq!(first, Some(want), "{name}: first error line vs ptxas");
        }
        let text: String = diags
            .iter()
            .map(|d| render(d, &name, &src, &index))
            .collect();
        insta::assert_snapshot!("check", text);
    });
}

#[test]
fn passing_cases() {
    insta::glob!("data/check/pass/*.ptx", |path| {
        let src = std::fs::read(path).unwrap_or_default();
        let diags = diagnostics(&src);
        assert!(diags.is_empty(), "{}: {:?}", path.display(), diags);
    });
}

#[test]
fn target_override() {
    let src = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/check/pass/needs_target.ptx"),
    )
    .unwrap_or_default();
    let parsed = ptxkit::parse(&src);
    let diags = check(
        &parsed.module,
        &CheckOptions {
            target: Some("sm_80".into()),
            ..CheckOptions::default()
        },
    );
    assert!(diags.iter().any(|d| d.code == "E0502"), "{diags:?}");
}
