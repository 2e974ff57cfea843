//! `ptx fmt` (comments kept, `--check`, `--write`) and `ptx ast --json`.
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ptx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptx"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("run ptx: {e}"))
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ptx-fmt-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
    d
}

const COMMENTED: &str = "// header comment
.version 8.0
.target sm_90 // the target
.address_size 64

/* kernel
   doc */
.visible .entry k(
\t.param .u64 p // param comment
)
{
  .reg .b64 %rd<2>;
  .reg .pred %p;
  // before ld
  ld.param.u64 %rd1, /* inside */ [p]; // load
  @%p bra DONE;   // skip
DONE: // label
  {
    // nested
    ret;
    // end of nested
  }
  // end of body
}
// trailer
";

const CANONICAL: &str = "// header comment
.version 8.0
.target sm_90 // the target
.address_size 64

/* kernel
   doc */
// param comment
.visible .entry k(
\t.param .u64 p
)
{
\t.reg .b64 %rd<2>;
\t.reg .pred %p;
\t// before ld
\t/* inside */
\tld.param.u64\t%rd1, [p]; // load
\t@%p bra\tDONE; // skip
DONE: // label
\t{
\t\t// nested
\t\tret;
\t\t// end of nested
\t}
\t// end of body
}
// trailer
";

fn path_str(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn fmt_keeps_comments_and_the_tree() {
    let d = scratch("comments");
    let f = d.join("k.ptx");
    std::fs::write(&f, COMMENTED).unwrap_or_default();
    let out = ptx(&["fmt", &path_str(&f)]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text, CANONICAL);
    // The canonical print parses to the same tree, and is a fixed point.
    let a = ptxkit::parse(COMMENTED.as_bytes());
    let b = ptxkit::parse(text.as_bytes());
    assert!(!b.has_errors(), "{:?}", b.diagnostics);
    assert_eq!(a.module, b.module);
    assert_eq!(
        ptxkit::print::canonical_with_comments(&b.module, text.as_bytes()),
        text
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn fmt_check_names_files_and_first_differing_line() {
    let d = scratch("check");
    let good = d.join("good.ptx");
    let bad = d.join("bad.ptx");
    std::fs::write(&good, CANONICAL).unwrap_or_default();
    std::fs::write(&bad, COMMENTED).unwrap_or_default();
    let ok = ptx(&["fmt", "--check", &path_str(&good)]);
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stdout)
    );
    assert!(ok.stdout.is_empty() && ok.stderr.is_empty());
    let both = ptx(&["fmt", "--check", &path_str(&d)]);
    assert_eq!(both.status.code(), Some(1));
    let text = String::from_utf8_lossy(&both.stdout);
    assert_eq!(
        text,
        format!(
            "{}:8: not canonical\n  - \".visible .entry k(\"\n  + \"// param comment\"\n",
            bad.display()
        )
    );
    let err = String::from_utf8_lossy(&both.stderr);
    assert!(err.contains("1 of 2 files not canonical"), "{err}");
    // --check changes nothing.
    assert_eq!(std::fs::read_to_string(&bad).unwrap_or_default(), COMMENTED);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn fmt_write_rewrites_in_place() {
    let d = scratch("write");
    let bad = d.join("bad.ptx");
    let good = d.join("good.ptx");
    let broken = d.join("broken.ptx");
    std::fs::write(&bad, COMMENTED).unwrap_or_default();
    std::fs::write(&good, CANONICAL).unwrap_or_default();
    let broken_text = ".version 8.0\n.target sm_90\n.entry k() {\n  frobnicate %r1;\n}\n";
    std::fs::write(&broken, broken_text).unwrap_or_default();
    let w = ptx(&["fmt", "--write", &path_str(&bad), &path_str(&good)]);
    assert_eq!(
        w.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&w.stderr)
    );
    assert!(w.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&bad).unwrap_or_default(), CANONICAL);
    assert_eq!(
        std::fs::read_to_string(&good).unwrap_or_default(),
        CANONICAL
    );
    let again = ptx(&[
        "fmt",
        "--check",
        &path_str(&d.join("bad.ptx")),
        &path_str(&good),
    ]);
    assert_eq!(again.status.code(), Some(0));
    // A file with syntax errors is reported and left alone.
    let e = ptx(&["fmt", "--write", &path_str(&broken)]);
    assert_eq!(e.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&e.stderr).contains("frobnicate"));
    assert_eq!(
        std::fs::read_to_string(&broken).unwrap_or_default(),
        broken_text
    );
    // No temporary files left behind.
    let n = std::fs::read_dir(&d).map(|r| r.count()).unwrap_or_default();
    assert_eq!(n, 3);
    // stdin cannot be written back; --check and --write exclude each other.
    assert_eq!(ptx(&["fmt", "--write", "-"]).status.code(), Some(2));
    assert_eq!(
        ptx(&["fmt", "--write", "--check", &path_str(&good)])
            .status
            .code(),
        Some(2)
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// `--write` on a symbolic link formats its target and keeps the link;
/// a link or FIFO planted where the old fixed temporary name
/// (`FILE.ptxfmt.tmp`) was is not written through (a link there made
/// `--write` overwrite the file it named; a FIFO hung it).
#[test]
#[cfg(unix)]
fn fmt_write_follows_links_and_ignores_planted_names() {
    let d = scratch("write-links");
    let real = d.join("real.ptx");
    let link = d.join("link.ptx");
    let victim = d.join("victim.txt");
    std::fs::write(&real, COMMENTED).unwrap_or_default();
    std::fs::write(&victim, "keep me").unwrap_or_default();
    std::os::unix::fs::symlink(&real, &link).unwrap_or_default();
    std::os::unix::fs::symlink(&victim, d.join("real.ptx.ptxfmt.tmp")).unwrap_or_default();
    std::os::unix::fs::symlink(&victim, d.join("link.ptx.ptxfmt.tmp")).unwrap_or_default();
    let w = ptx(&["fmt", "--write", &path_str(&link)]);
    assert_eq!(
        w.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&w.stderr)
    );
    assert!(std::fs::symlink_metadata(&link)
        .map(|m| m.file_type().is_symlink())
        .unwrap_or(false));
    assert_eq!(
        std::fs::read_to_string(&real).unwrap_or_default(),
        CANONICAL
    );
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap_or_default(),
        "keep me"
    );
    let _ = std::fs::remove_dir_all(&d);
}

fn shared_ptxas() -> Option<PathBuf> {
    let shared = match std::env::var("PTXKIT_SHARED") {
        Ok(p) => PathBuf::from(p),
        Err(_) => root().join("../shared"),
    };
    let ptxas = shared.join("tools/ptxas");
    if ptxas.exists() {
        return Some(ptxas);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "ptxas is required on CI"
    );
    eprintln!("note: ../shared/tools/ptxas is absent; ptxas verdicts not compared");
    None
}

fn ptxas_ok(ptxas: &Path, file: &Path, arch: &str) -> bool {
    Command::new(ptxas)
        .args([&format!("-arch={arch}"), "-o", "/dev/null"])
        .arg(file)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The examples, formatted: the same tree, every comment line kept, and
/// ptxas's verdict unchanged.
#[test]
fn fmt_of_the_examples_keeps_tree_comments_and_ptxas_verdict() {
    let d = scratch("examples");
    let ptxas = shared_ptxas();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("examples"))
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|f| f.extension().is_some_and(|e| e == "ptx"));
    files.sort();
    assert!(files.len() >= 5);
    for f in &files {
        let src = std::fs::read(f).unwrap_or_default();
        let out = ptx(&["fmt", &path_str(f)]);
        assert_eq!(out.status.code(), Some(0), "{}", f.display());
        let a = ptxkit::parse(&src);
        let b = ptxkit::parse(&out.stdout);
        assert!(!b.has_errors(), "{}: {:?}", f.display(), b.diagnostics);
        assert_eq!(a.module, b.module, "{}", f.display());
        let comments = |t: &[u8]| {
            String::from_utf8_lossy(t)
                .lines()
                .filter_map(|l| l.find("//").map(|i| l[i..].trim_end().to_string()))
                .collect::<Vec<_>>()
        };
        assert_eq!(comments(&src), comments(&out.stdout), "{}", f.display());
        if let Some(ptxas) = &ptxas {
            let arch = a
                .module
                .target()
                .and_then(|t| t.arch())
                .map(|n| n.to_string())
                .unwrap_or_else(|| "sm_90".into());
            let formatted = d.join(f.file_name().unwrap_or_default());
            std::fs::write(&formatted, &out.stdout).unwrap_or_default();
            assert_eq!(
                ptxas_ok(ptxas, f, &arch),
                ptxas_ok(ptxas, &formatted, &arch),
                "{}: ptxas's verdict changed",
                f.display()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn ast_json_is_self_describing() {
    let f = root().join("crates/ptxkit/tests/data/json/shapes.ptx");
    let out = ptx(&["ast", "--json", &path_str(&f)]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(v["schema_version"], ptxkit::json::SCHEMA_VERSION);
    let inst = &v["module"]["items"][6]["Function"]["body"]["stmts"][6]["Instruction"];
    assert_eq!(inst["opcode"], "setp");
    assert_eq!(inst["mods"][0][0], ".lt");
    assert_eq!(inst["mods"][0][1], "CmpOpS");
    assert_eq!(inst["operands"][0]["role"], "p");
    assert_eq!(inst["operands"][0]["kind"], "pair");
    assert_eq!(inst["operands"][0]["text"], "%p|%q");
    // Line 27, column 2, by the document's line starts.
    let start = inst["span"][0].as_u64().unwrap_or(0);
    let starts: Vec<u64> = v["line_starts"]
        .as_array()
        .map(|a| a.iter().filter_map(serde_json::Value::as_u64).collect())
        .unwrap_or_default();
    let line = starts.iter().filter(|&&s| s <= start).count();
    assert_eq!(line, 27);
    assert_eq!(start - starts[line - 1] + 1, 2);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("\"id\":"), "catalog ids in the JSON");
    assert!(!text.contains("\"form\":2"), "catalog ids in the JSON");
    // One line, no whitespace between tokens.
    assert_eq!(text.lines().count(), 1);
}

#[test]
fn ast_json_lines_has_a_header_then_one_item_per_line() {
    let f = root().join("crates/ptxkit/tests/data/json/shapes.ptx");
    let whole = ptx(&["ast", "--json", &path_str(&f)]);
    let v: serde_json::Value = serde_json::from_slice(&whole.stdout).unwrap_or_default();
    let out = ptx(&["ast", "--json-lines", &path_str(&f)]);
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_default())
        .collect();
    let Some((head, items)) = lines.split_first() else {
        panic!("no output");
    };
    assert_eq!(head["schema_version"], ptxkit::json::SCHEMA_VERSION);
    assert_eq!(head["line_starts"], v["line_starts"]);
    assert_eq!(
        serde_json::Value::Array(items.to_vec()),
        v["module"]["items"],
        "the items, one per line, are the document's"
    );
}
