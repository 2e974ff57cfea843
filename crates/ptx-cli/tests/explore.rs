//! Snapshot tests of the exploration subcommands on the repository's own
//! examples (`examples/*.ptx`), text and JSON, plus exit codes.

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

/// Run and return stdout, asserting the exit code.
fn run(args: &[&str], code: i32) -> String {
    let o = ptx(args);
    assert_eq!(
        o.status.code(),
        Some(code),
        "ptx {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn examples() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root().join("examples"))
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".ptx"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    assert!(v.len() >= 8, "examples missing");
    v
}

#[test]
fn per_file_subcommands_on_examples() {
    for ex in examples() {
        let path = format!("examples/{ex}");
        for cmd in ["functions", "callgraph", "resources", "cfg"] {
            let text = run(&[cmd, &path], 0);
            insta::assert_snapshot!(format!("{cmd}_{ex}"), text);
            // JSON parses and is not empty.
            let json = run(&[cmd, "--json", &path], 0);
            let v: serde_json::Value = serde_json::from_str(&json).expect("json");
            assert!(!v.is_null(), "{cmd} {ex}");
        }
        let stats = run(&["stats", "--by", "family", &path], 0);
        insta::assert_snapshot!(format!("stats_family_{ex}"), stats);
    }
}

#[test]
fn show_canonical_lossless_lines() {
    let canon = run(&["show", "examples/vector_add.ptx", "saxpy", "--lines"], 0);
    insta::assert_snapshot!("show_saxpy_lines", canon);
    let lossless = run(
        &["show", "examples/vector_add.ptx", "saxpy", "--lossless"],
        0,
    );
    let src = std::fs::read_to_string(root().join("examples/vector_add.ptx")).unwrap_or_default();
    assert!(
        src.contains(lossless.trim_end()),
        "lossless show is a slice of the file"
    );
    let json = run(&["show", "--json", "examples/vector_add.ptx", "saxpy"], 0);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["function"], "saxpy");
    // A part of a name that names one function is enough; an unknown one fails.
    run(&["show", "examples/calls.ptx", "eval_trees"], 0);
    let o = ptx(&["show", "examples/calls.ptx", "nosuchfunction"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn cfg_dot_and_json_shape() {
    let dot = run(
        &[
            "cfg",
            "--dot",
            "examples/reduce_lineinfo.ptx",
            "reduce_sum_f32",
        ],
        0,
    );
    insta::assert_snapshot!("cfg_dot_reduce_sum_f32", dot);
    let json = run(&["cfg", "--json", "examples/vector_add.ptx", "saxpy"], 0);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["function"], "saxpy");
    assert!(v["loops"].as_array().is_some_and(|l| !l.is_empty()));
    assert!(v["edges"][0]["kind"].is_string());
    let cg = run(&["callgraph", "--dot", "examples/calls.ptx"], 0);
    insta::assert_snapshot!("callgraph_dot_calls", cg);
}

#[test]
fn stats_over_directory() {
    let text = run(&["stats", "examples", "--top", "10"], 0);
    insta::assert_snapshot!("stats_examples_top10", text);
    let modif = run(&["stats", "examples", "--by", "modifier", "--top", "10"], 0);
    insta::assert_snapshot!("stats_examples_modifier_top10", modif);
    let per = run(
        &["stats", "--per-function", "--json", "examples/atomics.ptx"],
        0,
    );
    let v: serde_json::Value = serde_json::from_str(&per).expect("json");
    let fs = v["functions"].as_array().expect("functions");
    let sum: u64 = fs
        .iter()
        .map(|f| f["histogram"]["total"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(Some(sum), v["total"]["total"].as_u64());
}

#[test]
fn grep_patterns_and_exit_codes() {
    let out = run(&["grep", "atom.*.cas", "examples"], 0);
    insta::assert_snapshot!("grep_atom_cas", out);
    let out = run(&["grep", "*.shared::cluster", "examples"], 0);
    insta::assert_snapshot!("grep_shared_cluster", out);
    let out = run(&["grep", "wgmma.*", "examples/wgmma_tma.ptx", "--count"], 0);
    assert_eq!(out, "examples/wgmma_tma.ptx: 21\n");
    run(&["grep", "frobnicate", "examples"], 1);
    run(&["grep", "ld.glo*", "examples"], 2);
    let json = run(
        &["grep", "--json", "bar.sync", "examples/reduce_lineinfo.ptx"],
        0,
    );
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert!(v[0]["hits"][0]["line"].as_u64().is_some());
}

#[test]
fn diff_modules() {
    let out = run(
        &[
            "diff",
            "examples/vector_add.ptx",
            "examples/vector_add.debug.ptx",
        ],
        1,
    );
    insta::assert_snapshot!("diff_vector_add_debug", out);
    let same = run(&["diff", "examples/calls.ptx", "examples/calls.ptx"], 0);
    assert!(same.contains("no differences"));
    let json = run(
        &[
            "diff",
            "--json",
            "examples/vector_add.ptx",
            "examples/vector_add.debug.ptx",
        ],
        1,
    );
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["added"][0], "fmaf");
}

#[test]
fn explain_entries() {
    for q in [
        "bra",
        "ld.global.v4",
        "mbarrier.try_wait",
        "wgmma.mma_async",
    ] {
        let out = run(&["explain", q], 0);
        insta::assert_snapshot!(format!("explain_{q}"), out);
    }
    let json = run(&["explain", "--json", "cp.async.bulk.tensor"], 0);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["instruction"], "cp.async.bulk.tensor");
    let o = ptx(&["explain", "frobnicate"]);
    assert_eq!(o.status.code(), Some(1));
}
