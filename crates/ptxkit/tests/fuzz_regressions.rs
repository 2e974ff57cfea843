//! Replays the fuzz targets' properties (`common/props.rs`) on the inputs
//! the fuzzers once failed on (`fuzz/regressions/`) and on the seeds they
//! start from (the repo's examples and test data), so a fixed crash stays
//! fixed without running a fuzzer.
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

#[path = "common/props.rs"]
mod props;

use std::path::{Path, PathBuf};

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    out.retain(|p| p.is_file() && p.file_name().is_none_or(|n| n != ".keep"));
    out.sort();
    out
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn fuzz_regressions_hold() {
    let files = files_in(&root().join("fuzz/regressions"));
    for f in &files {
        let src = std::fs::read(f).expect("readable regression input");
        let r = std::panic::catch_unwind(|| props::all(&src));
        assert!(r.is_ok(), "{} fails a fuzz property", f.display());
    }
    eprintln!("{} fuzz regression inputs replayed", files.len());
}

#[test]
fn seeds_hold() {
    let r = root();
    let mut n = 0;
    for dir in [
        "examples",
        "crates/ptxkit/tests/data/ok",
        "crates/ptxkit/tests/data/err",
    ] {
        for f in files_in(&r.join(dir)) {
            if f.extension().is_some_and(|x| x == "ptx") {
                let src = std::fs::read(&f).expect("readable seed");
                props::all(&src);
                n += 1;
            }
        }
    }
    assert!(n >= 20, "only {n} seed files found");
}

/// Bodies whose shape the piece stream must follow exactly as the whole
/// parse does: nested and unclosed blocks, blocks past the nesting limit,
/// statements that do not parse, labels used before they appear.
#[test]
fn bodies_read_in_pieces() {
    let head = ".version 8.0\n.target sm_90\n.address_size 64\n";
    let deep = format!(".entry d() {{ {} ret; }}\n", "{ ".repeat(300));
    let bodies = [
        ".entry k() { { { ret; } } ret; }\n.func f() { ret; }\n".to_string(),
        ".entry k() { bra L; { L: ret; } }\n".to_string(),
        ".entry k() { { ret;\n".to_string(),
        ".entry k() {\n".to_string(),
        ".entry k() { mov.u32 ; } } .func g() { ret; }\n".to_string(),
        ".entry k() { .reg .b32 %r<2>; add.u32 %r1, %r0, %r2; @%p bra X; }\n".to_string(),
        ".entry k() { { } } }\n.entry j() { ret; }".to_string(),
        ".visible .entry k(.param .u64 p) .maxntid 32 { ld.param.u64 %rd1, [p]; }\n".to_string(),
        deep,
    ];
    for b in &bodies {
        let src = format!("{head}{b}");
        props::all(src.as_bytes());
        // Without the header too: the header check sees streamed functions.
        props::all(b.as_bytes());
    }
}

/// The property checks can fail: a diagnostic pointing past the input is
/// caught.
#[test]
#[should_panic(expected = "diagnostic span")]
fn properties_can_fail() {
    let d = ptxkit::Diagnostic::error(ptxkit::diag::Code::Syntax, ptxkit::Span::new(0, 10), "x");
    props::diagnostics_sound(b"abc", &[d]);
}

/// The fuzz dictionary is well formed and names every opcode root.
#[test]
fn dictionary_covers_the_catalog() {
    let dict = std::fs::read_to_string(root().join("fuzz/ptx.dict")).expect("fuzz/ptx.dict");
    let mut entries = std::collections::HashSet::new();
    for line in dict
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        assert!(
            line.len() >= 2 && line.starts_with('"') && line.ends_with('"'),
            "bad dictionary line {line:?}"
        );
        entries.insert(&line[1..line.len() - 1]);
    }
    let missing: Vec<&str> = ptxkit::isa::catalog()
        .opcodes()
        .map(|(_, o)| o.name)
        .filter(|n| !entries.contains(n))
        .collect();
    assert!(missing.is_empty(), "add to fuzz/ptx.dict: {missing:?}");
}
