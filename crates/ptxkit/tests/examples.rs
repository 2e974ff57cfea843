//! The repository's own PTX (compiled by nvcc 13.5 from `examples/*.cu`):
//! clean parse, lossless and canonical round trips, summary snapshots.
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use std::path::Path;

#[test]
fn examples_round_trip_and_summarize() {
    let files = common::examples();
    assert!(
        files.len() >= 8,
        "expected the example PTX files in examples/"
    );
    for (path, src) in files {
        let name = Path::new(&path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
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
