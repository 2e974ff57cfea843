//! The `ptx` binary: exit codes, output formats.
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

fn ptx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptx"))
        .args(args)
        .output()
        .expect("run ptx")
}

fn data(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../ptxkit/tests/data")
        .join(rel)
        .display()
        .to_string()
}

#[test]
fn check_exit_codes() {
    let ok = ptx(&["check", &data("ok/operands.ptx")]);
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    // A clean run ends with the summary line too.
    assert_eq!(
        String::from_utf8_lossy(&ok.stderr),
        "0 errors, 0 warnings in 1 file\n"
    );

    let bad = ptx(&["check", &data("err/unknown_opcode.ptx")]);
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.ends_with("unknown_opcode.ptx:8:2: error: unknown instruction `frobnicate` [E0201]"),
        "{first}"
    );

    let missing = ptx(&["check", "/nonexistent/file.ptx"]);
    assert_eq!(missing.status.code(), Some(2));

    let usage = ptx(&["check"]);
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn check_directory_and_json() {
    let dir = ptx(&["check", &data("ok")]);
    assert_eq!(dir.status.code(), Some(0));
    let both = ptx(&[
        "check",
        "--json",
        &data("ok/minimal.ptx"),
        &data("err/many_errors.ptx"),
    ]);
    assert_eq!(both.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&both.stdout).expect("json");
    let arr = v.as_array().expect("array");
    // The syntax errors, and the semantic error of a statement that parsed
    // after them (an undeclared address register).
    assert_eq!(arr.len(), 5, "{v}");
    assert_eq!(arr[3]["code"], "E0401");
    assert_eq!(arr[0]["line"], 8);
    assert_eq!(arr[0]["column"], 14);
    assert_eq!(arr[0]["severity"], "error");
    assert_eq!(arr[0]["code"], "E0101");
    assert!(arr[0]["file"]
        .as_str()
        .is_some_and(|f| f.ends_with("many_errors.ptx")));
}

#[test]
fn fmt_lossless_and_canonical() {
    let path = data("ok/functions.ptx");
    let src = std::fs::read(&path).expect("read");
    let lossless = ptx(&["fmt", "--lossless", &path]);
    assert_eq!(lossless.status.code(), Some(0));
    assert_eq!(lossless.stdout, src);
    let canon = ptx(&["fmt", &path]);
    assert_eq!(canon.status.code(), Some(0));
    let text = String::from_utf8_lossy(&canon.stdout);
    assert!(
        text.contains("\tcall.uni\t(ret0), square, (arg0);"),
        "{text}"
    );
    assert!(text.starts_with(
        "// Functions, declarations, prototypes, call targets, branch tables, directives.\n.version 8.0\n.target sm_80\n.address_size 64\n"
    ));
}

#[test]
fn summary_and_ast() {
    let s = ptx(&["summary", "--json", &data("ok/declarations.ptx")]);
    assert_eq!(s.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&s.stdout).expect("json");
    assert_eq!(v["version"], "8.0");
    assert_eq!(v["address_size"], 64);
    assert_eq!(v["data_bytes"][".shared"], 1024);
    assert_eq!(v["functions"][0]["name"], "uses");
    assert_eq!(v["functions"][0]["local_bytes"], 32);
    let text = ptx(&["summary", &data("ok/functions.ptx")]);
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(
        out.contains("functions:     5 (1 kernel, 4 device functions)"),
        "{out}"
    );
    let ast = ptx(&["ast", "--json", &data("ok/minimal.ptx")]);
    let v: serde_json::Value = serde_json::from_slice(&ast.stdout).expect("json");
    assert_eq!(v["module"]["items"][3]["Function"]["name"], "empty");
}

#[test]
fn closed_pipe_is_not_a_panic() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptx"))
        .args(["ast", &data("ok/functions.ptx")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    // Read one byte, then close our end of the pipe.
    let mut out = child.stdout.take().expect("stdout");
    let mut one = [0u8; 1];
    let _ = out.read(&mut one);
    drop(out);
    let status = child.wait().expect("wait");
    let mut err = String::new();
    let _ = child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err);
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(status.code(), Some(101), "exit code 101 is a panic");
}

#[test]
fn check_asm_exit_codes_and_json() {
    // Errors: exit 1, the GNU line inside the C++ literal.
    let bad = ptx(&["check-asm", &data("inline_asm/mixed.cu")]);
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.ends_with("mixed.cu:5:19: error: `.u32` is not declared [E0401]"),
        "{first}"
    );
    assert!(
        err.contains("mixed.cu:40:11: error: unknown modifier `.s23` for `add` [E0202]"),
        "{err}"
    );
    // A clean file: exit 0, only the summary line.
    let dir = std::env::temp_dir().join(format!("ptx-check-asm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ok = dir.join("ok.cuh");
    std::fs::write(
        &ok,
        "__device__ void f(int& x) { asm(\"add.s32 %0, %0, 1;\" : \"+r\"(x)); }\n",
    )
    .unwrap();
    let out = ptx(&["check-asm", "--target", "sm_80", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "0 errors, 0 warnings in 1 file\n"
    );
    // JSON: statements with their accepting targets, and the diagnostics.
    let out = ptx(&[
        "check-asm",
        "--json",
        "--target",
        "sm_80,sm_90a",
        &data("inline_asm/mixed.cu"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let st = v["statements"].as_array().unwrap();
    assert_eq!(st.len(), 21);
    let wgmma = st.iter().find(|s| s["line"] == 31).unwrap();
    assert_eq!(wgmma["status"], "valid");
    assert_eq!(wgmma["targets"], serde_json::json!(["sm_90a"]));
    assert_eq!(
        wgmma["guard"]["checked_for"],
        serde_json::json!(["sm_80", "sm_90a"])
    );
    let expanded = st.iter().find(|s| s["line"] == 32).unwrap();
    assert_eq!(expanded["expanded"], serde_json::json!(["PTX_TYPE"]));
    let bad = st.iter().find(|s| s["line"] == 40).unwrap();
    assert_eq!(bad["status"], "invalid");
    assert_eq!(bad["diagnostics"][0]["code"], "E0202");
    assert_eq!(bad["diagnostics"][0]["column"], 11);
    let n: usize = st
        .iter()
        .map(|s| s["diagnostics"].as_array().unwrap().len())
        .sum();
    assert_eq!(v["diagnostics"].as_array().unwrap().len(), n);
    // An unknown target is a usage error.
    let out = ptx(&["check-asm", "--target", "sm_99z", &ok.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_asm_guards_includes_and_defines() {
    let dir = std::env::temp_dir().join(format!("ptx-check-asm-pp-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("inc")).unwrap();
    std::fs::write(
        dir.join("inc/ops.h"),
        "#define FENCE_OP \"wgmma.fence.sync.aligned;\"\n",
    )
    .unwrap();
    let cu = dir.join("k.cu");
    std::fs::write(
        &cu,
        "#include \"ops.h\"\n\
         __device__ void f() {\n\
         #if __CUDA_ARCH__ < 900\n\
         asm volatile(FENCE_OP ::: \"memory\");\n\
         #endif\n\
         #ifdef USE_HIP\n\
         asm volatile(\"s_nop 0\");\n\
         #endif\n\
         }\n",
    )
    .unwrap();
    let cu = cu.to_str().unwrap();
    let inc = dir.join("inc");
    let inc = inc.to_str().unwrap();
    // Without -I the template is not known: skipped; the HIP one is not PTX.
    let out = ptx(&["check-asm", "-v", cu]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(":4:1: skipped (guard `#if __CUDA_ARCH__ < 900`: sm_10..sm_89)"),
        "{text}"
    );
    assert!(
        text.contains(":7:1: not compiled: compiled in no NVIDIA pass"),
        "{text}"
    );
    assert!(text.contains("(taken as undefined: USE_HIP)"), "{text}");
    // With -I: wgmma below sm_90 is an error naming the guard.
    let out = ptx(&["check-asm", "-I", inc, cu]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("valid only for sm_90a; this branch is compiled for sm_10..sm_89 (`#if __CUDA_ARCH__ < 900`)"),
        "{err}"
    );
    // -D makes the HIP branch compiled (and rejected as PTX).
    let out = ptx(&["check-asm", "--json", "-I", inc, "-D", "USE_HIP", cu]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let st = v["statements"].as_array().unwrap();
    assert_eq!(st.len(), 2);
    assert_eq!(
        st[0]["guard"]["conditions"],
        serde_json::json!(["#if __CUDA_ARCH__ < 900"])
    );
    assert_eq!(st[0]["expanded"], serde_json::json!(["FENCE_OP"]));
    assert_eq!(st[1]["status"], "invalid");
    let _ = std::fs::remove_dir_all(&dir);
}
