//! How `ptx check` and `ptx check-asm` report: the formats (text, JSON,
//! SARIF, GitHub), `--max-errors`, the summary line, non-PTX input, control
//! bytes in frames, and memory on a file with a million errors.
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A small module with a syntax error, then semantic errors (one with a
/// secondary label, one with a note) in a later function.
const MIXED: &str = ".version 8.0
.target sm_90
.address_size 64

.visible .entry first()
{
\t.reg .b32 %r<4>;
\tadd.u32 %r1, %r1 %r2;
\tmov.u32 %r2, %undeclared;
\tret;
}

.visible .entry second()
{
\t.reg .b32 %a;
\t.reg .b32 %a;
\tbra $L_missing;
\tret;
}
";

/// A scratch directory of this test binary.
fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("report")
        .join(name);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Run `ptx` in `cwd`.
fn ptx_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptx"))
        .current_dir(cwd)
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("run ptx")
}

/// `MIXED` written as `mixed.ptx` in a directory of its own.
fn mixed(name: &str) -> PathBuf {
    let d = dir(name);
    std::fs::write(d.join("mixed.ptx"), MIXED).expect("write");
    d
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn a_syntax_error_does_not_hide_later_semantic_errors() {
    let d = mixed("recovery");
    let out = ptx_in(&d, &["check", "mixed.ptx"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    let heads: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("mixed.ptx:"))
        .collect();
    assert_eq!(
        heads,
        [
            "mixed.ptx:8:19: error: expected `,` or `;`, found `%r2` [E0101]",
            "mixed.ptx:9:15: error: `%undeclared` is not declared [E0401]",
            "mixed.ptx:16:12: error: `%a` is declared twice in the same scope [E0402]",
            "mixed.ptx:17:6: error: label `$L_missing` is not defined in this function [E0403]",
        ],
        "{err}"
    );
    assert!(
        err.ends_with("4 errors, 0 warnings in 1 file\n"),
        "summary line: {err}"
    );
}

#[test]
fn the_frame_shows_the_secondary_label_and_no_colour_off_a_terminal() {
    let d = mixed("frame");
    let out = ptx_in(&d, &["check", "mixed.ptx"]);
    let err = text(&out.stderr);
    let dup = err
        .split("mixed.ptx:16:12:")
        .nth(1)
        .and_then(|s| s.split("\nmixed.ptx:").next())
        .expect("the duplicate's report");
    assert!(dup.contains("16 |     .reg .b32 %a;"), "{dup}");
    assert!(dup.contains("15 |     .reg .b32 %a;"), "{dup}");
    assert!(dup.contains("`%a` was first declared here"), "{dup}");
    // stderr is a pipe here: no ANSI escapes.
    assert!(!err.contains('\x1b'), "{err}");
}

#[test]
fn json_and_format_json_agree_and_print_no_summary() {
    let d = mixed("json");
    let a = ptx_in(&d, &["check", "--json", "mixed.ptx"]);
    let b = ptx_in(&d, &["check", "--format", "json", "mixed.ptx"]);
    assert_eq!(a.stdout, b.stdout);
    let v: serde_json::Value = serde_json::from_slice(&a.stdout).expect("json");
    assert_eq!(v.as_array().map(Vec::len), Some(4));
    assert_eq!(v[2]["code"], "E0402");
    assert_eq!(v[2]["labels"][0]["message"], "`%a` was first declared here");
    assert!(a.stderr.is_empty(), "{}", text(&a.stderr));
    let q = ptx_in(&d, &["check", "-q", "mixed.ptx"]);
    assert!(q.stderr.is_empty() && q.stdout.is_empty());
    assert_eq!(q.status.code(), Some(1));
}

#[test]
fn github_workflow_commands() {
    let d = mixed("github");
    let out = ptx_in(&d, &["check", "--format", "github", "mixed.ptx"]);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), 4, "{lines:#?}");
    assert_eq!(
        lines[0],
        "::error file=mixed.ptx,line=8,col=19,endLine=8,endColumn=22,title=E0101::expected `,` or `;`, found `%25r2`"
    );
    assert!(lines
        .iter()
        .all(|l| l.starts_with("::error file=mixed.ptx,line=")));
}

#[test]
fn sarif_log() {
    let d = mixed("sarif");
    let out = ptx_in(&d, &["check", "--format", "sarif", "mixed.ptx"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    // The fields SARIF 2.1.0 requires, and those code scanning reads.
    assert_eq!(v["version"], "2.1.0");
    assert!(v["$schema"]
        .as_str()
        .is_some_and(|s| s.contains("sarif-2.1.0")));
    let run = &v["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "ptx");
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .map(|r| r["id"].as_str().expect("rule id"))
        .collect();
    assert_eq!(rules, ["E0101", "E0401", "E0402", "E0403"]);
    // Each rule describes its code from the registry.
    for r in run["tool"]["driver"]["rules"].as_array().expect("rules") {
        for field in ["shortDescription", "fullDescription", "help"] {
            assert!(
                r[field]["text"].as_str().is_some_and(|t| !t.is_empty()),
                "{field}: {r}"
            );
        }
        assert!(r["name"].as_str().is_some_and(|n| !n.is_empty()), "{r}");
        assert!(r["help"]["markdown"]
            .as_str()
            .is_some_and(|m| m.contains("```ptx")));
    }
    assert_eq!(run["tool"]["driver"]["rules"][3]["name"], "UndefinedLabel");
    assert_eq!(run["artifacts"][0]["location"]["uri"], "mixed.ptx");
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), 4);
    for r in results {
        let id = r["ruleId"].as_str().expect("ruleId");
        assert_eq!(
            rules[r["ruleIndex"].as_u64().expect("ruleIndex") as usize],
            id
        );
        assert!(r["message"]["text"].as_str().is_some_and(|t| !t.is_empty()));
        assert_eq!(r["level"], "error");
        let loc = &r["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], "mixed.ptx");
        assert!(loc["region"]["startLine"].as_u64().is_some());
        assert!(loc["region"]["startColumn"].as_u64().is_some());
    }
    let dup = &results[2]["relatedLocations"][0];
    assert_eq!(dup["physicalLocation"]["region"]["startLine"], 15);
    // URIs relative to the directory ptx ran in, given once as SRCROOT.
    let base = run["originalUriBaseIds"]["SRCROOT"]["uri"]
        .as_str()
        .expect("SRCROOT");
    assert!(
        base.starts_with("file:///") && base.ends_with('/'),
        "{base}"
    );
    let name = d
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    assert!(base.ends_with(&format!("/{name}/")), "{base}");
    assert_eq!(run["artifacts"][0]["location"]["uriBaseId"], "SRCROOT");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"],
        "SRCROOT"
    );
    let shown = text(&out.stdout).replace(base, "file:///[DIR]/");
    insta::assert_snapshot!("sarif_of_mixed", shown);
}

/// `ptx explain CODE`: the code's explanation, in either case; a code that
/// does not exist is a usage error naming the closest.
#[test]
fn explain_a_diagnostic_code() {
    let d = dir("explain");
    let out = ptx_in(&d, &["explain", "E0404"]);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!("explain_E0404", text(&out.stdout));
    let lower = ptx_in(&d, &["explain", "e0404"]);
    assert_eq!(lower.stdout, out.stdout);
    let json = ptx_in(&d, &["explain", "--json", "E0404"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(v["code"], "E0404");
    assert_eq!(v["name"], "OutOfRange");
    let unknown = ptx_in(&d, &["explain", "E0440"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert_eq!(
        text(&unknown.stderr),
        "ptx: no diagnostic code `E0440`; did you mean `E0404` (A register beyond its `%r<N>` range)?\n"
    );
    assert!(unknown.stdout.is_empty());
}

#[test]
fn max_errors_bounds_each_file_and_counts_the_rest() {
    let d = dir("max");
    let mut src = String::from(".version 8.0\n.target sm_90\n.visible .entry k() {\n");
    for _ in 0..250 {
        src.push_str("  frob;\n");
    }
    src.push_str("}\n");
    std::fs::write(d.join("many.ptx"), &src).expect("write");
    let heads = |o: &Output| {
        text(&o.stderr)
            .lines()
            .filter(|l| l.starts_with("many.ptx:"))
            .count()
    };
    let def = ptx_in(&d, &["check", "many.ptx"]);
    assert_eq!(heads(&def), 100);
    let err = text(&def.stderr);
    assert!(
        err.contains(
            "ptx: many.ptx: ... and 150 more errors not shown (--max-errors 100; 0 shows all)"
        ),
        "{}",
        err.lines().rev().take(3).collect::<Vec<_>>().join("\n")
    );
    assert!(err.ends_with("250 errors, 0 warnings in 1 file\n"), "{err}");
    assert_eq!(
        heads(&ptx_in(&d, &["check", "--max-errors", "3", "many.ptx"])),
        3
    );
    let all = ptx_in(&d, &["check", "--max-errors", "0", "many.ptx"]);
    assert_eq!(heads(&all), 250);
    assert!(!text(&all.stderr).contains("not shown"));
    let json = ptx_in(&d, &["check", "--json", "--max-errors", "7", "many.ptx"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(v.as_array().map(Vec::len), Some(7));
}

#[test]
fn binary_input_is_one_clear_error() {
    let d = dir("binary");
    // Noise without a NUL byte, and an image-like file with some.
    let noise: Vec<u8> = (1..200_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8 | 1)
        .collect();
    std::fs::write(d.join("noise.ptx"), &noise).expect("write");
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend(&noise);
    std::fs::write(d.join("image.ptx"), &png).expect("write");
    for f in ["noise.ptx", "image.ptx"] {
        let out = ptx_in(&d, &["check", f]);
        assert_eq!(out.status.code(), Some(2), "{f}");
        let err = text(&out.stderr);
        assert!(err.lines().count() <= 3, "{f}: {err}");
        assert!(err.contains("not PTX text"), "{f}: {err}");
        assert!(!err.contains('\x1b'));
    }
    // An ELF file without CUDA code (this very program): pointed at `ptx extract`.
    let exe = env!("CARGO_BIN_EXE_ptx");
    let out = ptx_in(&d, &["check", exe]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.lines().count() <= 3, "{err}");
    assert!(
        err.contains("no PTX in this binary") && err.contains("ptx extract --list"),
        "{err}"
    );
    // The analyses say so too.
    let out = ptx_in(&d, &["summary", "noise.ptx"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).lines().count() <= 3);
}

#[test]
fn control_bytes_are_escaped_in_frames() {
    let d = dir("control");
    std::fs::write(
        d.join("esc.ptx"),
        b".version 8.0\n.target sm_90\n.visible .entry k() { \x1b[2J\x07frob; }\n",
    )
    .expect("write");
    let out = ptx_in(&d, &["check", "esc.ptx"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("\\x1b[2J\\x07frob"), "{err}");
    assert!(
        !out.stderr.iter().any(|&b| b < 0x20 && b != b'\n'),
        "a raw control byte: {err:?}"
    );
}

#[test]
fn check_asm_formats() {
    let d = dir("asm");
    std::fs::write(
        d.join("k.cu"),
        "__global__ void k(int *p) {\n  asm(\"frob.u32 %0, 1;\" : \"=r\"(*p));\n}\n",
    )
    .expect("write");
    let out = ptx_in(&d, &["check-asm", "--format", "github", "k.cu"]);
    assert_eq!(out.status.code(), Some(1));
    let gh = text(&out.stdout);
    assert!(
        gh.starts_with("::error file=k.cu,line=2,") && gh.contains("title=E0201::"),
        "{gh}"
    );
    let out = ptx_in(&d, &["check-asm", "--format", "sarif", "k.cu"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF");
    assert_eq!(v["runs"][0]["results"][0]["ruleId"], "E0201");
    let out = ptx_in(&d, &["check-asm", "k.cu"]);
    assert!(text(&out.stderr).ends_with("1 error, 0 warnings in 1 file\n"));
    // --json keeps its shape.
    let out = ptx_in(&d, &["check-asm", "--json", "k.cu"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(v["statements"].is_array() && v["diagnostics"].is_array());
}

/// A file with a million errors: the check keeps the first hundred, so its
/// peak memory stays far below the 100 MB budget.
#[cfg(target_os = "linux")]
#[test]
fn a_million_errors_in_bounded_memory() {
    let d = dir("million");
    let mut src = String::with_capacity(4_100_000);
    src.push_str(".version 8.0\n.target sm_90\n.visible .entry k() {\n");
    for _ in 0..1_000_000 {
        src.push_str("x;\n");
    }
    src.push_str("}\n");
    let path = d.join("million.ptx");
    std::fs::write(&path, &src).expect("write");
    drop(src);
    for extra in [&[][..], &["--syntax-only"][..]] {
        let child = Command::new(env!("CARGO_BIN_EXE_ptx"))
            .current_dir(&d)
            .arg("check")
            .args(extra)
            .arg("million.ptx")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run ptx");
        let (status, rss_kb, err) = wait_with_rusage(child);
        eprintln!("million errors {extra:?}: peak RSS {} MB", rss_kb / 1024);
        assert_eq!(status, Some(1));
        assert!(
            err.ends_with("1,000,000 errors, 0 warnings in 1 file\n"),
            "{}",
            err.lines().rev().take(3).collect::<Vec<_>>().join("\n")
        );
        assert!(
            err.contains("... and 999,900 more errors not shown"),
            "the count of the rest"
        );
        assert!(rss_kb < 100 * 1024, "peak RSS {} MB", rss_kb / 1024);
    }
}

/// Wait for `child`: exit code, peak RSS (KiB; an upper bound, since Linux
/// carries this process's high-water mark into the child), stderr.
#[cfg(target_os = "linux")]
fn wait_with_rusage(mut child: std::process::Child) -> (Option<i32>, i64, String) {
    use std::io::Read;
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value; wait4 fills it and the
    // status for our own child, which `child` never waits for.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4 failed");
    drop(child);
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    (code, usage.ru_maxrss, err)
}
