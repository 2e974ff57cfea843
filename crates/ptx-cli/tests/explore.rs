//! Snapshot tests of the exploration subcommands on the repository's own
//! examples (`examples/*.ptx`), text and JSON, plus exit codes.
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
    run(&["grep", "frobnicate", "examples"], 2);
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
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn demangled_names_in_tables_and_json() {
    let calls = "examples/calls.ptx";
    let text = run(&["functions", calls], 0);
    assert!(
        text.contains("function act_relu(float, float)  [_Z8act_reluff]"),
        "{text}"
    );
    let raw = run(&["--no-demangle", "functions", calls], 0);
    assert!(raw.contains("function _Z8act_reluff  ("), "{raw}");
    assert!(!raw.contains("act_relu(float"), "{raw}");
    for (cmd, shown) in [
        ("callgraph", "eval_node(Node const*, int, int)"),
        (
            "resources",
            "device function gcd(unsigned long long, unsigned long long)",
        ),
        (
            "summary",
            ".func gcd(unsigned long long, unsigned long long)  [_Z3gcdyy]",
        ),
        ("cfg", "normalize3(Vec3*)  [_Z10normalize3P4Vec3]: "),
    ] {
        let out = run(&[cmd, calls], 0);
        assert!(out.contains(shown), "{cmd}: {out}");
        let out = run(&[cmd, calls, "--no-demangle"], 0);
        assert!(!out.contains(shown), "{cmd} --no-demangle: {out}");
    }
    let stats = run(&["stats", "--per-function", calls], 0);
    assert!(
        stats.contains("act_silu(float, float)  [_Z8act_siluff]"),
        "{stats}"
    );
    let grep = run(&["grep", "rsqrt", calls], 0);
    assert!(grep.contains("[normalize3(Vec3*)]"), "{grep}");

    // JSON: both forms, everywhere a function is named.
    let json =
        |args: &[&str]| -> serde_json::Value { serde_json::from_str(&run(args, 0)).expect("json") };
    let find = |v: &serde_json::Value, key: &str, name: &str| -> serde_json::Value {
        v.as_array()
            .and_then(|a| a.iter().find(|x| x[key] == name).cloned())
            .unwrap_or_default()
    };
    let fs = json(&["functions", "--json", calls]);
    assert_eq!(
        find(&fs, "name", "_Z3gcdyy")["demangled"],
        "gcd(unsigned long long, unsigned long long)"
    );
    assert!(find(&fs, "name", "apply_activation")["demangled"].is_null());
    let eval = find(&fs, "name", "eval_trees");
    assert_eq!(eval["calls"][0]["callee"], "_Z9eval_nodePK4Nodeii");
    assert_eq!(
        eval["calls"][0]["callee_demangled"],
        "eval_node(Node const*, int, int)"
    );
    let cg = json(&["callgraph", "--json", calls]);
    assert_eq!(
        find(&cg["nodes"], "name", "_Z4dot34Vec3S_")["demangled"],
        "dot3(Vec3, Vec3)"
    );
    let rs = json(&["resources", "--json", calls]);
    assert_eq!(
        find(&rs, "name", "_Z4dot34Vec3S_")["demangled"],
        "dot3(Vec3, Vec3)"
    );
    let sm = json(&["summary", "--json", calls]);
    assert_eq!(
        find(&sm["functions"], "name", "_Z4dot34Vec3S_")["demangled"],
        "dot3(Vec3, Vec3)"
    );
    let cfg = json(&["cfg", "--json", calls, "_Z4dot34Vec3S_"]);
    assert_eq!(cfg["demangled"], "dot3(Vec3, Vec3)", "{cfg}");
    let st = json(&["stats", "--json", "--per-function", calls]);
    assert_eq!(
        find(&st["functions"], "function", "_Z4dot34Vec3S_")["demangled"],
        "dot3(Vec3, Vec3)"
    );
    let gr = json(&["grep", "--json", "rsqrt", calls]);
    assert_eq!(gr[0]["hits"][0]["function_demangled"], "normalize3(Vec3*)");
    // A readable name picks the function too.
    let shown = run(&["show", calls, "normalize3(Vec3*)"], 0);
    assert!(shown.contains("_Z10normalize3P4Vec3"), "{shown}");
}

/// A module whose barriers and device functions are counted as ptxas
/// counts them (figures from `ptxas -arch=sm_80 -v`, 13.5): k1 "used 6
/// barriers" (ids 0 and 3, and 5 in the function it calls), k3 "used 1
/// barriers"; `helper` and `vis_helper` are dropped (no kernel calls them).
const BARRIERS: &str = "\
.version 8.0
.target sm_80
.address_size 64
.func helper(.param .b32 x) { .reg .b32 %r<2>; ld.param.b32 %r1, [x]; ret; }
.visible .func vis_helper() { ret; }
.func used_helper() { bar.sync 5; ret; }
.visible .entry k1(.param .u64 p) {
  bar.sync 0;
  bar.sync 0;
  bar.sync 3;
  call used_helper, ();
  ret;
}
.visible .entry k2(.param .u32 p) {
  .reg .b32 %r<4>;
  ld.param.u32 %r1, [p];
  bar.sync %r1;
  ret;
}
.visible .entry k3() {
  bar.sync 0;
  bar.sync 0;
  ret;
}
";

#[test]
fn resources_count_as_ptxas_does() {
    let path = std::env::temp_dir().join(format!("ptx-barriers-{}.ptx", std::process::id()));
    std::fs::write(&path, BARRIERS).expect("write");
    let p = path.display().to_string();
    let v: serde_json::Value =
        serde_json::from_str(&run(&["resources", "--json", &p], 0)).expect("json");
    let names: Vec<&str> = v
        .as_array()
        .map(|a| a.iter().filter_map(|r| r["name"].as_str()).collect())
        .unwrap_or_default();
    // Kernels first, then device functions, each in module order.
    assert_eq!(
        names,
        ["k1", "k2", "k3", "helper", "vis_helper", "used_helper"]
    );
    let named: Vec<u64> = v
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|r| r["barriers"]["named_barriers"].as_u64())
                .collect()
        })
        .unwrap_or_default();
    // k2's id is in a register (ptxas: "used 16 barriers").
    assert_eq!(named, [6, 16, 1, 0, 0, 6]);
    assert_eq!(v[0]["barriers"]["cta_barriers"], 3);
    assert_eq!(v[5]["called_by_kernels"], serde_json::json!(["k1"]));
    assert_eq!(v[3]["called_by_kernels"], serde_json::json!([]));
    let text = run(&["resources", &p], 0);
    assert!(text.contains("device function helper\n  (called by no kernel here: ptxas drops it, unless compiling with -c)"), "{text}");
    assert!(
        text.contains("device function used_helper\n  (called by kernel k1)"),
        "{text}"
    );
    assert!(
        text.contains("named barriers                6 (as ptxas -v counts them"),
        "{text}"
    );
    assert!(
        text.contains("barrier instructions          3 CTA barriers (ids 0, 3)"),
        "{text}"
    );
    assert!(text.contains("virtual registers declared"), "{text}");
    assert!(text.contains("peak live virtual registers"), "{text}");
    assert!(
        text.contains("note: registers here are PTX's virtual registers"),
        "{text}"
    );
    let _ = std::fs::remove_file(&path);
}

/// `ptx functions --json` and `ptx summary --json` embed one function
/// header (`analysis::header::FunctionHeader`): for every function that
/// both list, the shared fields are the same values, and each report keeps
/// its own fields.
#[test]
fn functions_and_summary_share_one_header() {
    const SHARED: [&str; 9] = [
        "name",
        "demangled",
        "kind",
        "linkage",
        "declaration",
        "params",
        "returns",
        "directives",
        "instructions",
    ];
    let mut compared = 0;
    for ex in examples() {
        let path = format!("examples/{ex}");
        let fs: serde_json::Value =
            serde_json::from_str(&run(&["functions", "--json", &path], 0)).expect("json");
        let sm: serde_json::Value =
            serde_json::from_str(&run(&["summary", "--json", &path], 0)).expect("json");
        for s in sm["functions"].as_array().expect("summary functions") {
            // `summary` lists a declared-then-defined function once, as its
            // definition; `functions` lists both.
            let f = fs
                .as_array()
                .expect("functions")
                .iter()
                .find(|f| f["name"] == s["name"] && f["declaration"] == s["declaration"])
                .unwrap_or_else(|| panic!("{ex}: {} not in functions", s["name"]));
            for key in SHARED {
                assert!(s.get(key).is_some(), "{ex}: summary lacks {key}");
                assert_eq!(f[key], s[key], "{ex} {}: {key}", s["name"]);
            }
            for key in ["line", "calls", "unresolved_calls", "recursive"] {
                assert!(f.get(key).is_some(), "{ex}: functions lacks {key}");
            }
            for key in ["registers", "local_bytes", "shared_bytes"] {
                assert!(s.get(key).is_some(), "{ex}: summary lacks {key}");
            }
            compared += 1;
        }
    }
    assert!(compared >= 10, "only {compared} functions compared");
}
