//! Names and operand types against ptxas 13.5: each file of `data/names`
//! is checked as `ptx check` does, and the lines our errors fall on must be
//! the lines ptxas reports (recorded in `data/names/PTXAS.tsv`; an empty
//! set is a file ptxas accepts). When ptxas is at hand (`../shared/tools`)
//! the recording itself is verified; without it that test is skipped with
//! a note, and fails under `CI=true`.
//!
//! Then one tricky module goes through the checker, the register analyses
//! and the LSP's resolver (`ptxkit::syntax::scope`), which must agree on
//! what every name is.

// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use ptxkit::analysis::regs::RegTable;
use ptxkit::check::{check_source, CheckOptions};
use ptxkit::{LineIndex, Name};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/names")
}

#[test]
fn every_case_is_recorded() {
    common::recorded::assert_every_case_is_recorded(&dir());
}

#[test]
fn errors_fall_on_the_lines_ptxas_reports() {
    common::recorded::assert_errors_fall_on_the_recorded_lines(&dir());
}

#[test]
fn recorded_verdicts_are_ptxas_s() {
    common::recorded::assert_recorded_verdicts_are_ptxas_s(&dir(), "sm_90");
}

/// A module whose names are hard to resolve (`data/names/tricky.ptx`):
/// ranges whose names end in a digit, leading zeros, a register past its
/// range, a block hiding a range's register, labels used before and after
/// their definition and in `.branchtargets`, parameters, a call. The LSP
/// runs the same file (its index in `index.rs`; definition, references,
/// rename and hover in ptxkit-lsp `tests/names.rs`), and so does Python
/// (`crates/ptxkit-py/tests/test_names.py`).
const TRICKY: &str = include_str!("data/names/tricky.ptx");

#[test]
fn checker_analyses_and_lsp_agree_on_names() {
    // The checker: `%v20` and `%q3` are not declared, nothing else.
    let src = TRICKY.as_bytes();
    let index = LineIndex::new(src);
    let diags = check_source(src, &CheckOptions::default());
    let undeclared: BTreeSet<(u32, String)> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            (
                index.line_col(d.span.start).line,
                String::from_utf8_lossy(d.span.slice(src)).into_owned(),
            )
        })
        .collect();
    let want: BTreeSet<(u32, String)> = [(22, "%v20".to_string()), (23, "%q3".to_string())]
        .into_iter()
        .collect();
    assert_eq!(undeclared, want, "{diags:?}");

    // The register analyses: the same names are registers, or not.
    let parsed = ptxkit::parse(src);
    let k = parsed
        .module
        .functions()
        .find(|f| f.name.as_str() == "k")
        .expect("kernel k");
    let regs = RegTable::of_function(k);
    for (name, declared) in [
        ("%q01", true),
        ("%q1", true),
        ("%q2", true),
        ("%v20", false),
        ("%v2", false),
        ("%q3", false),
    ] {
        assert_eq!(
            regs.lookup(Name::new(name)).is_some(),
            declared,
            "analyses on {name}"
        );
    }
    // `%q01` is the range's register: 32 bits, as the checker types it.
    assert_eq!(regs.lookup(Name::new("%q01")).map(|t| t.bits()), Some(32));
    // Parameters, labels and functions are not registers; `f`'s own range
    // is not `k`'s.
    for name in ["k_p", "L", "M", "Ts", "f", "%r1", "r", "x"] {
        assert!(regs.lookup(Name::new(name)).is_none(), "analyses on {name}");
    }
    // The resource report counts the registers `k` uses through the same
    // table: %q01 (= %q1), %q2, %rd1, %p and the inner block's %q1.
    let r = ptxkit::analysis::resources::resources(&parsed.module, &index, Some("k"));
    assert_eq!(r.first().map(|r| r.registers.used), Some(5));

    // The resolver the LSP index is built on, block by block: the inner
    // block's `%q1` hides the range's.
    use ptxkit::syntax::scope::Scopes;
    let mut scopes: Scopes<u32> = Scopes::default();
    scopes.push();
    let body = scopes.innermost().expect("a scope");
    let _ = body.declare_range(Name::new("%v2"), 4, ptxkit::Span::new(0, 0), 1);
    let _ = body.declare_range(Name::new("%q"), 3, ptxkit::Span::new(0, 0), 2);
    assert_eq!(scopes.find(Name::new("%q01")), Some(2));
    assert_eq!(scopes.find(Name::new("%v20")), None);
    scopes.push();
    let inner = scopes.innermost().expect("a scope");
    let _ = inner.declare(Name::new("%q1"), 3);
    assert_eq!(scopes.find(Name::new("%q1")), Some(3));
    assert_eq!(scopes.find(Name::new("%q01")), Some(2));
}

/// The lines the errors of checking `src` fall on.
fn error_lines(src: &[u8]) -> BTreeSet<u32> {
    let diags = check_source(src, &CheckOptions::default());
    common::error_lines_of(src, &diags).into_iter().collect()
}

/// ptxas on `text` (written to a temporary file) with `args`: whether it
/// accepted it, and what it printed.
fn ptxas_on(ptxas: &Path, args: &[&str], text: &[u8], tag: &str) -> (bool, String) {
    let path = std::env::temp_dir().join(format!("ptxkit-{tag}-{}.ptx", std::process::id()));
    std::fs::write(&path, text).expect("write");
    let out = std::process::Command::new(ptxas)
        .args(args)
        .arg(&path)
        .args(["-o", "/dev/null"])
        .output()
        .expect("ptxas runs");
    let _ = std::fs::remove_file(&path);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A body's `.param` read before any `call` returned into it: ptxas 13.5
/// stops with "Function call sequence invalid: 'ld.param' of 'pa' without
/// corresponding call" and names no line (so the case is not in
/// `data/names`, whose recordings are lines), at the module's end and only
/// when the module has no other error. Ours falls on the first read, with
/// a note counting the other.
#[test]
fn a_body_param_is_read_only_after_a_call_returned_into_it() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/call_sequence/reads_before_a_call.ptx");
    let src = std::fs::read(&path).expect("case");
    assert_eq!(error_lines(&src), BTreeSet::from([16]));
    let parsed = ptxkit::parse(&src);
    let diags = ptxkit::check::check(&parsed.module, &Default::default());
    assert!(
        diags
            .iter()
            .any(|d| d.notes.iter().any(|n| n.contains("1 more `.param`"))),
        "{diags:?}"
    );
    // With another error in the module, only that one is reported (ptxas
    // 13.5 reports the call sequence only in a module without errors).
    let mut broken = src.clone();
    broken.extend_from_slice(b"\n.visible .entry broken()\n{\n\tadd.s32 %r9, %r9, 1;\n\tret;\n}\n");
    let lines = error_lines(&broken);
    assert!(!lines.contains(&16) && !lines.is_empty(), "{lines:?}");
    let Some(ptxas) = common::ptxas_or_skip("ptxas's verdict on the call sequence") else {
        return;
    };
    let (ok, err) = ptxas_on(&ptxas, &["-arch=sm_90"], &src, "call-seq");
    assert!(!ok);
    assert!(err.contains("Function call sequence invalid"), "{err}");
    // Without the two reads, ptxas accepts the module.
    let text = String::from_utf8_lossy(&src);
    let kept: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|(i, _)| ![15, 27].contains(i))
        .map(|(_, l)| l)
        .collect();
    let (ok, err) = ptxas_on(
        &ptxas,
        &["-arch=sm_90"],
        kept.join("\n").as_bytes(),
        "call-seq",
    );
    assert!(ok, "{err}");
}

/// A function declared without `.extern` and defined nowhere in the
/// module: ptxas 13.5 stops with "Unresolved extern function" (with `-c`
/// too) and names no line. Ours fall on the two declarations; with both
/// made `.extern`, ptxas `-c` accepts the module.
#[test]
fn a_function_declared_is_defined_in_the_module() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/unresolved/declared_never_defined.ptx");
    let src = std::fs::read(&path).expect("case");
    assert_eq!(error_lines(&src), BTreeSet::from([7, 8]));
    let diags = check_source(&src, &CheckOptions::default());
    assert!(diags.iter().all(|d| d.code == "E0320"), "{diags:?}");
    let Some(ptxas) = common::ptxas_or_skip("ptxas's verdict on unresolved functions") else {
        return;
    };
    let args = ["-arch=sm_90", "-c"];
    let (ok, err) = ptxas_on(&ptxas, &args, &src, "unresolved");
    assert!(!ok);
    assert!(err.contains("Unresolved extern function"), "{err}");
    let text = String::from_utf8_lossy(&src)
        .replace("\n.func never_called", "\n.extern .func never_called")
        .replace(
            "\n.visible .func (.param .b32 r) called",
            "\n.extern .func (.param .b32 r) called",
        );
    assert!(check_source(text.as_bytes(), &CheckOptions::default()).is_empty());
    let (ok, err) = ptxas_on(&ptxas, &args, text.as_bytes(), "unresolved");
    assert!(ok, "{err}");
}
