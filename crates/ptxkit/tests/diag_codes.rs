//! The registry of diagnostic codes (`ptxkit::diag::Code`) against the
//! sources and against ptxas: every code literal in the sources is a
//! registered code, every registered code is reported somewhere, and each
//! explanation's examples do what the text says (the erroneous one is
//! reported with its code and rejected by `../shared/tools/ptxas`, the
//! fixed one is clean and accepted; ptxas is skipped with a note when
//! ../shared is absent, required under `CI=true`).
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use std::path::{Path, PathBuf};

use ptxkit::diag::Code;

/// Codes whose examples are not PTX (inline `asm` in C++) or cannot be
/// written out (limits of the parser): their examples are `cuda` or
/// `text` blocks.
const NOT_PTX: [Code; 9] = [
    Code::Limit,
    Code::RegisterRange,
    Code::FileTooLarge,
    Code::OperandRange,
    Code::NamedOperand,
    Code::Constraint,
    Code::NotLiteral,
    Code::TooLong,
    Code::ExpansionBudget,
];

/// The fenced blocks of `md` whose info string is `lang`, in order.
fn blocks<'a>(md: &'a str, lang: &str) -> Vec<&'a str> {
    let open = format!("```{lang}\n");
    let mut out = Vec::new();
    let mut rest = md;
    while let Some(i) = rest.find(&open) {
        let body = &rest[i + open.len()..];
        let Some(end) = body.find("```") else { break };
        out.push(&body[..end]);
        rest = &body[end + 3..];
    }
    out
}

/// An example as a module: with [`Code::EXAMPLE_HEADER`] unless it writes
/// its own `.version` or `.target`.
fn module(example: &str) -> String {
    if example.contains(".version") || example.contains(".target") {
        example.to_string()
    } else {
        format!("{}{example}", Code::EXAMPLE_HEADER)
    }
}

/// The codes and severities `ptx check` reports on `src`.
fn reported(src: &str) -> Vec<(Code, bool)> {
    ptxkit::check::check_source(src.as_bytes(), &Default::default())
        .iter()
        .map(|d| (d.code, d.is_error()))
        .collect()
}

#[test]
fn each_ptx_example_is_reported_as_its_text_says() {
    for &c in Code::ALL {
        let ex = blocks(c.explanation(), "ptx");
        if NOT_PTX.contains(&c) {
            assert!(
                ex.is_empty(),
                "{c}: PTX examples are checked; drop it from NOT_PTX"
            );
            continue;
        }
        let [bad, good] = ex[..] else {
            panic!(
                "{c}: the explanation needs an erroneous and a fixed ```ptx example, has {}",
                ex.len()
            );
        };
        let got = reported(&module(bad));
        assert!(
            got.iter().any(|&(g, _)| g == c),
            "{c}: the erroneous example reports {got:?}\n{bad}"
        );
        let got = reported(&module(good));
        assert!(
            got.iter().all(|&(g, error)| g != c && !error),
            "{c}: the fixed example reports {got:?}\n{good}"
        );
    }
}

#[test]
fn each_asm_example_is_reported_as_its_text_says() {
    for &c in &NOT_PTX {
        let ex = blocks(c.explanation(), "cuda");
        if ex.is_empty() {
            continue;
        }
        let [bad, good] = ex[..] else {
            panic!(
                "{c}: an erroneous and a fixed ```cuda example, not {}",
                ex.len()
            );
        };
        let codes = |stmt: &str| -> Vec<Code> {
            let src = format!(
                "__global__ void k(int *p) {{\n  int x, y = 1, z = 2;\n  {stmt}  *p = x;\n}}\n"
            );
            ptxkit::inline_asm::check_source(src.as_bytes(), &["sm_90".to_string()])
                .iter()
                .flat_map(|s| s.verdict.diagnostics(0))
                .map(|d| d.code)
                .collect()
        };
        assert!(codes(bad).contains(&c), "{c}: {:?}\n{bad}", codes(bad));
        assert!(codes(good).is_empty(), "{c}: {:?}\n{good}", codes(good));
    }
}

#[test]
fn ptxas_agrees_with_each_example() {
    let Some(ptxas) = common::ptxas_or_skip("the examples' ptxas verdicts") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("ptxkit-diag-codes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_default();
    let mut wrong = Vec::new();
    for &c in Code::ALL {
        for (i, ex) in blocks(c.explanation(), "ptx").into_iter().enumerate() {
            let src = module(ex);
            let path = dir.join(format!("{c}_{i}.ptx"));
            std::fs::write(&path, &src).unwrap_or_default();
            // ptxas compiles for the example's own target.
            let arch = src
                .split_once(".target ")
                .and_then(|(_, t)| t.split([',', '\n', ' ']).next())
                .unwrap_or("sm_90");
            let out = std::process::Command::new(&ptxas)
                .arg(format!("-arch={arch}"))
                .args(["-o", "/dev/null"])
                .arg(&path)
                .output();
            let Ok(out) = out else {
                panic!("ptxas did not run")
            };
            // The first example is the erroneous one.
            if out.status.success() != (i == 1) {
                wrong.push(format!(
                    "{c} example {}: ptxas {}\n{}",
                    i + 1,
                    if out.status.success() {
                        "accepts it"
                    } else {
                        "rejects it"
                    },
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "target") {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every code literal (`"E"` and four digits, quoted) in the sources (Rust, Python tests, docs).
fn code_literals(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for i in 0..b.len().saturating_sub(6) {
        let w = &b[i..i + 7];
        if w[0] == b'"' && w[1] == b'E' && w[2..6].iter().all(u8::is_ascii_digit) && w[6] == b'"' {
            out.push(String::from_utf8_lossy(&w[1..6]).into_owned());
        }
    }
    out
}

/// Spellings that tests use on purpose as codes that do not exist
/// (`ptx explain E0440` suggests `E0404`).
const NOT_CODES: [&str; 1] = ["E0440"];

#[test]
fn every_code_literal_in_the_sources_is_registered() {
    let mut files = Vec::new();
    for d in ["crates", "xtask/src", "fuzz/fuzz_targets"] {
        rust_files(&repo().join(d), &mut files);
    }
    assert!(files.len() > 100, "found {} Rust files", files.len());
    let mut unknown = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        for lit in code_literals(&text) {
            if Code::parse(&lit).is_none() && !NOT_CODES.contains(&lit.as_str()) {
                unknown.push(format!("{}: {lit}", f.display()));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "codes not in ptxkit::diag::Code:\n{}",
        unknown.join("\n")
    );
}

#[test]
fn every_registered_code_is_reported_somewhere() {
    let mut files = Vec::new();
    rust_files(&repo().join("crates/ptxkit/src"), &mut files);
    let mut text = String::new();
    for f in files.iter().filter(|f| !f.ends_with("diag/code.rs")) {
        let t = std::fs::read_to_string(f).unwrap_or_default();
        // Library code only: a test module is no reporter (a test-only
        // item elsewhere in the file is not the module).
        let t = t.split("#[cfg(test)]\nmod ").next().unwrap_or_default();
        text.push_str(t);
    }
    let unused: Vec<Code> = Code::ALL
        .iter()
        .copied()
        .filter(|c| !text.contains(&format!("Code::{}", c.name())))
        .collect();
    assert!(
        unused.is_empty(),
        "registered but never reported: {unused:?}"
    );
}
