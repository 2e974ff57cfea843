//! Usage errors and generated help: option values checked against the
//! catalog (exit 2 with the valid choices and a "did you mean"), inputs
//! that name no file, unknown opcodes, shell completions and man pages.
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn ptx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptx"))
        .current_dir(root())
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("run ptx")
}

/// Run; assert the exit code; return (stdout, stderr).
fn run(args: &[&str], code: i32) -> (String, String) {
    let o = ptx(args);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(code), "ptx {}: {err}", args.join(" "));
    (out, err)
}

const EX: &str = "examples/vector_add.ptx";

#[test]
fn targets_are_checked_against_the_catalog() {
    for bad in ["banana", "sm_999", "sm_8O", "compute_1000"] {
        let (_, err) = run(&["check", "--target", bad, EX], 2);
        assert!(err.contains(&format!("unknown target `{bad}`")), "{err}");
        assert!(err.contains("valid targets: sm_10 "), "{err}");
        assert!(err.contains(" sm_90a "), "{err}");
    }
    let (_, err) = run(&["check", "--target", "sm_8O", EX], 2);
    assert!(err.contains("did you mean `sm_80`?"), "{err}");
    // A bare number is the sm_ target; compute_ spellings are accepted.
    run(&["check", "--target", "80", EX], 0);
    run(&["check", "--target", "compute_90", EX], 0);
    // check-asm's repeatable --target and the global --arch likewise.
    let (_, err) = run(&["check-asm", "--target", "sm_80,banana", "examples"], 2);
    assert!(err.contains("unknown target `banana`"), "{err}");
    let (_, err) = run(&["summary", "--arch", "sm_999", EX], 2);
    assert!(err.contains("unknown target `sm_999`"), "{err}");
}

#[test]
fn ptx_versions_are_checked_against_the_catalog() {
    let (_, err) = run(&["check", "--ptx-version", "7.9", EX], 2);
    assert!(err.contains("unknown PTX version `7.9`"), "{err}");
    assert!(err.contains("did you mean `7.8`?"), "{err}");
    assert!(err.contains("valid versions: 1.0 "), "{err}");
    run(&["check", "--ptx-version", "banana", EX], 2);
    // A known version is used in place of the module's `.version`: the
    // wgmma example needs PTX 8.0, so 7.8 rejects it.
    run(
        &["check", "--ptx-version", "8.5", "examples/wgmma_tma.ptx"],
        0,
    );
    let (_, err) = run(
        &["check", "--ptx-version", "7.8", "examples/wgmma_tma.ptx"],
        1,
    );
    assert!(err.contains("error"), "{err}");
}

#[test]
fn no_input_files_is_a_usage_error() {
    let dir = std::env::temp_dir().join(format!("ptx-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let d = dir.display().to_string();
    for cmd in ["check", "stats"] {
        let (_, err) = run(&[cmd, &d], 2);
        assert!(err.contains("no input files: found no *.ptx in"), "{err}");
    }
    let (_, err) = run(&["grep", "ld", &d], 2);
    assert!(err.contains("no input files"), "{err}");
    let (_, err) = run(&["check-asm", &d], 2);
    assert!(err.contains("found no *.cu *.cuh"), "{err}");
    // A shell glob that matched nothing reaches us as written.
    let (_, err) = run(&["check", &format!("{d}/*.ptx")], 2);
    assert!(err.contains("no file matches this pattern"), "{err}");
    let _ = std::fs::remove_dir(&dir);
}

#[test]
fn unknown_opcodes_get_a_suggestion() {
    let (_, err) = run(&["explain", "wgmm"], 2);
    assert!(err.contains("no instruction named `wgmm`"), "{err}");
    assert!(err.contains("did you mean `wgmma"), "{err}");
    let (_, err) = run(&["explain", "mvo"], 2);
    assert!(err.contains("did you mean `mov`?"), "{err}");
    let (_, err) = run(&["grep", "ldd.global", "examples"], 2);
    assert!(err.contains("no instruction `ldd` in the catalog"), "{err}");
    assert!(err.contains("did you mean `ld`?"), "{err}");
    // A known opcode with no match is still "nothing found".
    run(&["grep", "tex.1d", EX], 1);
}

#[test]
fn completions_for_each_shell() {
    let subcommands = ["check", "check-asm", "resources", "explain", "completions"];
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (out, _) = run(&["completions", shell], 0);
        assert!(out.len() > 1000, "{shell}: {out}");
        for s in subcommands {
            assert!(out.contains(s), "{shell} completion lacks {s}");
        }
        assert!(out.contains("no-demangle"), "{shell}");
    }
    run(&["completions", "tcsh"], 2);
    // The bash script is valid bash.
    let (script, _) = run(&["completions", "bash"], 0);
    let path = std::env::temp_dir().join(format!("ptx-completion-{}.bash", std::process::id()));
    std::fs::write(&path, &script).expect("write script");
    match Command::new("bash").arg("-n").arg(&path).output() {
        Ok(o) => assert!(
            o.status.success(),
            "bash -n: {}",
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => println!("note: bash not available ({e}); syntax not checked"),
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn man_pages() {
    let (page, _) = run(&["man"], 0);
    assert!(page.starts_with(".ie"), "{}", &page[..page.len().min(200)]);
    assert!(page.contains(".TH ptx 1"), "{page}");
    for s in ["check", "resources", "completions", "man"] {
        assert!(page.contains(s), "ptx.1 lacks {s}");
    }
    let (page, _) = run(&["man", "check"], 0);
    assert!(
        page.contains(".TH check 1") || page.contains(".TH ptx-check 1"),
        "{page}"
    );
    assert!(page.contains("\\-\\-target"), "{page}");
    let (_, err) = run(&["man", "chekc"], 2);
    assert!(err.contains("did you mean `check`?"), "{err}");
    let dir = std::env::temp_dir().join(format!("ptx-man-{}", std::process::id()));
    run(&["man", "--out-dir", &dir.display().to_string()], 0);
    let pages = std::fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);
    assert!(pages >= 17, "{pages} pages");
    let _ = std::fs::remove_dir_all(&dir);
}
