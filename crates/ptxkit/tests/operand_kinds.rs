//! Operand kinds against ptxas, one instruction at a time: every line of
//! `data/check/operand_kinds.tsv` is an instruction with ptxas 13.5's
//! verdict on it, placed in a kernel that declares a register of each
//! common type. The checker must give the same verdict, and report a
//! rejection on the instruction's line. When `../shared/tools/ptxas` runs,
//! the recorded verdicts are confirmed against it too.
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use std::path::Path;
use std::process::Command;

use ptxkit::check::{check, CheckOptions};
use ptxkit::LineIndex;

/// The kernel around each case; the instruction goes on line [`LINE`].
const HEAD: &str = ".version 8.0
.target sm_80
.address_size 64
.global .u32 g;
.shared .u32 s[4];
.func fn() { ret; }
.visible .entry k(.param .u64 p)
{
.reg .b32 %b<4>;
.reg .u32 %r<4>;
.reg .s32 %s<4>;
.reg .f32 %f<4>;
.reg .b64 %rd<4>;
.reg .pred %p<3>;
.reg .f64 %d<3>;
.reg .u16 %h<3>;
.reg .b16 %x<3>;
.reg .f16 %e<3>;
.reg .u64 %ud<3>;
.reg .f16x2 %hh<3>;
";
const LINE: u32 = 21;

fn module(inst: &str) -> String {
    format!("{HEAD}{inst}\nret;\n}}\n")
}

/// (accepted by ptxas, instruction) for each case.
fn cases() -> Vec<(bool, String)> {
    let tsv = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/check/operand_kinds.tsv"),
    )
    .unwrap_or_default();
    tsv.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .filter_map(|l| {
            let (verdict, inst) = l.split_once('\t')?;
            Some((verdict == "accept", inst.to_string()))
        })
        .collect()
}

#[test]
fn the_checker_agrees_with_ptxas_on_each_case() {
    let cases = cases();
    assert!(cases.len() > 200, "{} cases", cases.len());
    assert_eq!(HEAD.lines().count() as u32 + 1, LINE);
    let mut wrong = Vec::new();
    for (accepted, inst) in &cases {
        let src = module(inst);
        let parsed = ptxkit::parse(src.as_bytes());
        let mut diags = parsed.diagnostics.clone();
        if !parsed.has_errors() {
            diags.extend(check(&parsed.module, &CheckOptions::default()));
        }
        let index = LineIndex::new(src.as_bytes());
        let lines: Vec<u32> = diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| index.line_col(d.span.start).line)
            .collect();
        let ok = if *accepted {
            lines.is_empty()
        } else {
            lines.first() == Some(&LINE)
        };
        if !ok {
            wrong.push(format!(
                "{inst}: ptxas accepts: {accepted}; errors: {diags:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
#[cfg_attr(
    ptxkit_no_shared,
    ignore = "needs ../shared (the PTX corpus, ISA text and NVIDIA tools); absent when built"
)]
fn the_recorded_verdicts_are_ptxas_verdicts() {
    let Some(shared) = common::shared_dir() else {
        println!("note: ../shared is absent; the recorded ptxas verdicts are not re-checked");
        return;
    };
    let ptxas = shared.join("tools/ptxas");
    let dir = std::env::temp_dir().join(format!("ptxkit-operand-kinds-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err() {
        println!("note: no temporary directory; ptxas verdicts not re-checked");
        return;
    }
    let run = |src: &str| -> Option<bool> {
        let f = dir.join("case.ptx");
        std::fs::write(&f, src).ok()?;
        let out = Command::new(&ptxas)
            .arg("-arch=sm_80")
            .arg(&f)
            .args(["-o", "/dev/null"])
            .output()
            .ok()?;
        Some(out.status.success())
    };
    // ptxas must run and accept the kernel with a plain instruction.
    if run(&module("mov.u32 %r1, 1;")) != Some(true) {
        println!(
            "note: {} does not run here; verdicts not re-checked",
            ptxas.display()
        );
        return;
    }
    let mut wrong = Vec::new();
    for (accepted, inst) in cases() {
        let got = run(&module(&inst));
        if got != Some(accepted) {
            wrong.push(format!("{inst}: recorded {accepted}, ptxas {got:?}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
