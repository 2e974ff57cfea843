//! The repository's own PTX (compiled by nvcc 13.5 from `examples/*.cu`):
//! clean parse, lossless and canonical round trips, summary snapshots.

use std::path::PathBuf;

#[test]
fn examples_round_trip_and_summarize() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    assert!(
        files.len() >= 8,
        "expected the example PTX files in {}",
        dir.display()
    );
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let src = std::fs::read(&path).unwrap_or_default();
        let parsed = ptxkit::parse(&src);
        assert!(
            parsed.diagnostics.is_empty(),
            "{name}: {:?}",
            parsed.diagnostics.first()
        );
        assert_eq!(
            ptxkit::print::lossless(&parsed.module, &src),
            src,
            "{name}: lossless"
        );
        let canon = ptxkit::print::canonical(&parsed.module);
        assert_eq!(
            ptxkit::parse(canon.as_bytes()).module,
            parsed.module,
            "{name}: canonical reparse"
        );
        let summary = ptxkit::analysis::summary::summarize(&parsed.module);
        insta::assert_json_snapshot!(format!("summary_{name}"), summary);
    }
}
