//! What the README and docs/*.md show, run as shown.
//!
//! Every ```text block of README.md and docs/*.md that starts with
//! `$ ptx …` (or `$ cd … && ptx …`) is run by `sh` with the `ptx` under
//! test first on the `PATH`, stdout and stderr together, no colour, from
//! the repository's root (or from `tests/data/docs`, which holds the
//! illustrative files the docs name, such as `broken.ptx`); its output
//! must be the block's lines, where a line `...` stands for any number of
//! lines. Then the behaviours the README states in words, each as a
//! command and its exit status.

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

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/docs")
}

/// `sh -c script` in `dir`, the `ptx` under test first on the `PATH`.
fn sh(dir: &Path, script: &str) -> Output {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_ptx"));
    let path = format!(
        "{}:{}",
        bin.parent()
            .map(Path::display)
            .map(|d| d.to_string())
            .unwrap_or_default(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .expect("run sh")
}

fn ptx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptx"))
        .current_dir(root())
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("run ptx")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// One example: the commands of a block (`$ ` lines) with the output
/// shown after each.
struct Example {
    doc: String,
    /// The line of the block's opening fence: examples of one block share it.
    block: usize,
    line: usize,
    command: String,
    output: Vec<String>,
}

fn examples_in(doc: &Path) -> Vec<Example> {
    let src = std::fs::read_to_string(doc).unwrap_or_default();
    let name = doc
        .strip_prefix(root())
        .unwrap_or(doc)
        .display()
        .to_string();
    let mut out = Vec::new();
    let mut block = None;
    for (i, l) in src.lines().enumerate() {
        if l.starts_with("```") {
            block = (l == "```text" && block.is_none()).then_some(i + 1);
            continue;
        }
        let Some(b) = block else {
            continue;
        };
        match l.strip_prefix("$ ") {
            Some(cmd) => out.push(Example {
                doc: name.clone(),
                block: b,
                line: i + 1,
                command: cmd.to_string(),
                output: Vec::new(),
            }),
            None => {
                if let Some(e) = out.last_mut().filter(|e| e.block == b) {
                    e.output.push(l.trim_end().to_string());
                }
            }
        }
    }
    // Only the blocks that run ptx (others show how to build or install).
    out.retain(|e| e.command.contains("ptx "));
    out
}

/// Whether `got` is `want` with each `...` line standing for any lines.
fn matches(want: &[String], got: &[&str]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((w, rest)) if w == "..." => (0..=got.len()).any(|k| matches(rest, &got[k..])),
        Some((w, rest)) => got
            .split_first()
            .is_some_and(|(g, more)| g.trim_end() == w && matches(rest, more)),
    }
}

/// The directory an example runs in: the root, unless it names a file
/// that only `tests/data/docs` has.
fn dir_for(cmd: &str) -> PathBuf {
    let missing_here = cmd
        .split_whitespace()
        .filter(|w| w.ends_with(".ptx") || w.ends_with(".cu"))
        .any(|w| !root().join(w).exists() && fixtures().join(w).exists());
    if missing_here {
        fixtures()
    } else {
        root()
    }
}

#[test]
fn every_example_in_the_docs_prints_what_it_shows() {
    let mut docs = vec![root().join("README.md")];
    let mut more: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    more.retain(|p| p.extension().is_some_and(|e| e == "md"));
    more.sort();
    docs.extend(more);
    let examples: Vec<Example> = docs.iter().flat_map(|d| examples_in(d)).collect();
    assert!(examples.len() >= 12, "{} examples found", examples.len());
    // A `cd` carries over to the next command of the same block, as in a
    // shell session.
    let mut failures = Vec::new();
    let mut cd: Option<((String, usize), String)> = None;
    for e in &examples {
        let key = (e.doc.clone(), e.block);
        let prefix = match &cd {
            Some((doc, c)) if *doc == key => format!("{c} && "),
            _ => String::new(),
        };
        if let Some((c, _)) = e
            .command
            .split_once(" && ")
            .filter(|(c, _)| c.starts_with("cd "))
        {
            cd = Some((key, c.to_string()));
        }
        let o = sh(
            &dir_for(&e.command),
            &format!("{prefix}{{ {}; }} 2>&1", e.command),
        );
        let got = text(&o.stdout);
        let got: Vec<&str> = got.lines().collect();
        if !matches(&e.output, &got) {
            failures.push(format!(
                "{}:{}: $ {}\n--- shown\n{}\n--- printed\n{}",
                e.doc,
                e.line,
                e.command,
                e.output.join("\n"),
                got.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_clean_check_ends_with_the_summary_line() {
    let o = ptx(&["check", "examples/"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    let n = std::fs::read_dir(root().join("examples"))
        .map(|d| {
            d.flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "ptx"))
                .count()
        })
        .unwrap_or(0);
    assert_eq!(err, format!("0 errors, 0 warnings in {n} files\n"));
}

#[test]
fn a_file_that_is_not_ptx_is_exit_2() {
    let o = ptx(&["check", "README.md"]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.starts_with("ptx: README.md: not PTX: it starts with `#`"),
        "{err}"
    );
    // One line about it, not an error for every line of Markdown.
    assert!(!err.contains("error:"), "{err}");
    let o = ptx(&["check", "examples/vector_add.cu"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A copy of `examples/vector_add.ptx` with `edit` applied, in a scratch
/// directory.
fn edited(name: &str, edit: impl Fn(&str) -> String) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptx-documented-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch");
    let src = std::fs::read_to_string(root().join("examples/vector_add.ptx")).unwrap_or_default();
    let p = dir.join(name);
    std::fs::write(&p, edit(&src)).expect("write");
    p
}

#[test]
fn diff_exit_status_is_as_documented() {
    let a = "examples/vector_add.ptx";
    let same = ptx(&["diff", a, a]);
    assert_eq!(same.status.code(), Some(0));
    assert!(text(&same.stdout).contains("no differences (2 functions equal)"));
    let differs = ptx(&["diff", a, "examples/vector_add.debug.ptx"]);
    assert_eq!(differs.status.code(), Some(1));
    // A broken file: exit 2, and the statement that did not parse is shown
    // as written, not as a canonical print with `?` for what was not read.
    let broken = edited("broken.ptx", |s| {
        s.replacen("mul.wide.s32", "mul.wide.zz32", 1)
    });
    let o = ptx(&["diff", a, &broken.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    let out = text(&o.stdout);
    assert!(out.contains("+\tmul.wide.zz32 %rd13, %r27, 4;"), "{out}");
    assert!(!out.contains('?'), "{out}");
    // Context lines are B's: renumbered registers are shown as B has them.
    let d = text(&differs.stdout);
    assert!(
        d.contains("   \tld.param.u64\t%rd5, [vector_add_param_0];"),
        "{d}"
    );
    let help = text(&ptx(&["diff", "--help"]).stdout);
    assert!(help.contains("Exit status: 0 no differences"), "{help}");
}

#[test]
fn fmt_check_reports_the_examples_and_does_not_offer_write_for_broken_files() {
    let o = ptx(&["fmt", "--check", "examples"]);
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    // nvcc's output, kept as written: not canonical, each named with its
    // first differing line.
    assert!(
        out.contains(
            "examples/vector_add.ptx:8: not canonical\n  - (blank line)\n  + \".version 9.5\""
        ),
        "{out}"
    );
    let broken = edited("syntax.ptx", |s| {
        s.replacen("mul.wide.s32", "mul.wide.zz32", 1)
    });
    let o = ptx(&["fmt", "--check", &broken.display().to_string()]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(!err.contains("--write"), "{err}");
    assert!(
        err.contains("1 of 1 file not formatted: syntax errors"),
        "{err}"
    );
    // A canonical file passes.
    let canon = ptx(&["fmt", "examples/vector_add.ptx"]);
    let c = edited("canon.ptx", |_| text(&canon.stdout));
    let o = ptx(&["fmt", "--check", &c.display().to_string()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
}

#[test]
fn cfg_dot_of_a_file_is_one_graph() {
    let o = ptx(&["cfg", "--dot", "examples/vector_add.ptx"]);
    assert_eq!(o.status.code(), Some(0));
    let dot = text(&o.stdout);
    assert_eq!(dot.matches("digraph").count(), 1, "{dot}");
    assert_eq!(dot.matches("subgraph cluster_").count(), 2, "{dot}");
    assert!(dot.contains("f1_b0 [label=\"entry"), "{dot}");
    assert_eq!(dot.matches('{').count(), dot.matches('}').count());
    assert!(!dot.contains("\\n1 instructions"), "{dot}");
    // With graphviz installed, one SVG document.
    let svg = sh(
        &root(),
        "command -v dot >/dev/null || exit 77; ptx cfg --dot examples/vector_add.ptx | dot -Tsvg",
    );
    match svg.status.code() {
        Some(77) => eprintln!("note: graphviz `dot` not installed; the SVG is not rendered"),
        _ => assert_eq!(text(&svg.stdout).matches("<svg").count(), 1),
    }
}

#[test]
fn counts_are_in_words() {
    let s = text(&ptx(&["summary", "crates/ptxkit/tests/data/ok/functions.ptx"]).stdout);
    assert!(s.contains("(1 kernel, 4 device functions)"), "{s}");
    let s = text(&ptx(&["stats", "examples/vector_add.ptx"]).stdout);
    assert!(s.contains("103 instructions in 1 file,"), "{s}");
    let s = text(&ptx(&["cfg", "examples/vector_add.ptx", "vector_add"]).stdout);
    assert!(s.contains("4 blocks, 6 edges, 1 loop (max depth 1)"), "{s}");
}

#[test]
fn summary_columns_fit_long_types_and_list_each_function_once() {
    let triton = "crates/ptxkit/tests/data/producers/triton/argmax_rows.sm80.ptx";
    let s = text(&ptx(&["summary", triton]).stdout);
    let params: Vec<&str> = s.lines().filter(|l| l.starts_with("  param ")).collect();
    assert!(params.len() > 2, "{s}");
    // The sizes line up whatever the type's length.
    let at: Vec<Option<usize>> = params.iter().map(|l| l.find(" B  ")).collect();
    assert!(at.windows(2).all(|w| w[0] == w[1] && w[0].is_some()), "{s}");
    // calls.ptx declares functions before defining them: each once.
    let s = text(&ptx(&["summary", "examples/calls.ptx"]).stdout);
    let heads: Vec<&str> = s.lines().filter(|l| l.starts_with('.')).collect();
    let mut names: Vec<&str> = heads
        .iter()
        .map(|l| l.trim_end_matches("  (declaration)"))
        .collect();
    names.sort_unstable();
    let n = names.len();
    names.dedup();
    assert_eq!(n, names.len(), "{s}");
    assert!(
        s.contains("functions:     17 (5 kernels, 12 device functions)"),
        "{s}"
    );
}

#[test]
fn show_source_interleaves_the_lines_loc_points_at() {
    // The PTX names its .cu by an absolute path of another machine: found
    // by file name beside the PTX file.
    let dir = std::env::temp_dir().join(format!("ptx-documented-src-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch");
    let ptx_src = std::fs::read_to_string(root().join("examples/reduce_lineinfo.ptx"))
        .unwrap_or_default()
        .replace(
            "\"/work/main/examples/reduce_lineinfo.cu\"",
            "\"/elsewhere/build/reduce_lineinfo.cu\"",
        );
    assert!(ptx_src.contains("/elsewhere/build/reduce_lineinfo.cu"));
    let p = dir.join("reduce_lineinfo.ptx");
    std::fs::write(&p, ptx_src).expect("write");
    std::fs::copy(
        root().join("examples/reduce_lineinfo.cu"),
        dir.join("reduce_lineinfo.cu"),
    )
    .expect("copy");
    let path = p.display().to_string();
    let o = ptx(&["show", &path, "reduce_sum_f32", "--source"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let cu =
        std::fs::read_to_string(root().join("examples/reduce_lineinfo.cu")).unwrap_or_default();
    let line50 = cu.lines().nth(49).unwrap_or_default().trim().to_string();
    assert!(!line50.is_empty());
    assert!(
        out.contains(&format!(
            "// reduce_lineinfo.cu:50: {line50}\n\t.loc 1 50 9"
        )),
        "{out}"
    );
    // JSON: the .loc lines carry the source line.
    let o = ptx(&["show", &path, "reduce_sum_f32", "--source", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let with: Vec<&serde_json::Value> = v["lines"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|l| l.get("source").is_some())
        .collect();
    assert!(!with.is_empty());
    assert!(with.iter().any(|l| l["source"]["line"] == 50
        && l["source"]["text"]
            .as_str()
            .is_some_and(|t| t.trim() == line50)));
    // Without the source beside it: the code alone, and a note.
    std::fs::remove_file(dir.join("reduce_lineinfo.cu")).expect("rm");
    let o = ptx(&["show", &path, "reduce_sum_f32", "--source"]);
    assert_eq!(o.status.code(), Some(0));
    // (Other files its .loc lines name, the CUDA headers, may be found at
    // the path written on this machine.)
    assert!(!text(&o.stdout).contains("// reduce_lineinfo.cu:"));
    // A module without line information: the code, and a note.
    let o = ptx(&["show", "examples/vector_add.ptx", "vector_add", "--source"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        text(&o.stderr).contains("no .loc directives"),
        "{}",
        text(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
