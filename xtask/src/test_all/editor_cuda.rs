//! The editor suite's CUDA C++ part (issue #43): one `.cu` buffer in a
//! headless Neovim with `ptx lsp` and clangd (the Debian package) both
//! attached (`editor_cuda_test.lua`). Both servers' diagnostics must
//! arrive in the buffer — ours on the C++ line and column of the bad
//! opcode inside the `asm` string, clangd's on the undeclared name — and a
//! hover on the opcode inside the string must name the instruction.

use super::editor::{nvim_script, NvimRun};
use super::Outcome;
use std::path::Path;

/// Line 4 (0-based) has an `asm` statement whose opcode is misspelled
/// after an escaped tab; line 8 has a C++ error for clangd. The file
/// defines `__device__` itself so that clangd needs no CUDA installation
/// (its flags are in `compile_flags.txt`).
const CU: &str = r#"#define __device__ __attribute__((device))
__device__ int add(int a, int b)
{
    int c;
    asm volatile("\tadd.s23 %0, %1, %2;" : "=r"(c) : "r"(a), "r"(b));
    asm("mov.u32 %0, %%tid.x;" : "=r"(c));
    return c;
}
int host_side() { return undeclared_name; }
"#;

/// clangd's flags for the test directory: CUDA device-side parsing
/// without a CUDA installation.
const FLAGS: &str = "-xcuda\n--cuda-device-only\n-nocudainc\n-nocudalib\n--cuda-gpu-arch=sm_80\n";

/// Runs the CUDA C++ part with `nvim`, the built `ptx` and `clangd`.
pub fn run(root: &Path, nvim: &str, ptx: &Path, dir: &Path) -> Outcome {
    let clangd = std::env::var("CLANGD_BIN").unwrap_or_else(|_| "clangd".into());
    match std::process::Command::new(&clangd)
        .arg("--version")
        .output()
    {
        Ok(o) if o.status.success() => {}
        _ => return Outcome::Skipped(format!("`{clangd}` not found (apt-get install clangd)")),
    }
    let file = dir.join("kernel.cu");
    let _ = std::fs::write(dir.join("compile_flags.txt"), FLAGS);
    if let Err(e) = std::fs::write(&file, CU) {
        return Outcome::Failed(format!("cannot write {}: {e}", file.display()));
    }
    let asm_line = CU.lines().position(|l| l.contains("add.s23")).unwrap_or(0);
    let asm_col = CU
        .lines()
        .nth(asm_line)
        .and_then(|l| l.find("add.s23"))
        .unwrap_or(0);
    let cpp_line = CU
        .lines()
        .position(|l| l.contains("undeclared_name"))
        .unwrap_or(0);
    let result = nvim_script(
        nvim,
        &root.join("xtask/src/test_all/editor_cuda_test.lua"),
        NvimRun {
            env: vec![
                ("PTX_BIN".into(), ptx.display().to_string()),
                ("CLANGD_BIN".into(), clangd.clone()),
                ("PTX_FILE".into(), file.display().to_string()),
                ("PTX_HOVER_LINE".into(), asm_line.to_string()),
                ("PTX_HOVER_COL".into(), (asm_col + 2).to_string()),
            ],
            dir,
            args: Vec::new(),
            path_prepend: None,
        },
    );
    let result = match result {
        Ok(r) => r,
        Err(e) => return Outcome::Failed(e),
    };
    check(&result, asm_line, asm_col, cpp_line)
}

/// Ours at the bad opcode's line and column, clangd's at its line, the
/// hover of `add`.
fn check(result: &str, asm_line: usize, asm_col: usize, cpp_line: usize) -> Outcome {
    let mut lines = result.lines();
    if lines.next() != Some("ok") {
        return Outcome::Failed(format!("the Neovim session (with clangd) failed: {result}"));
    }
    let body: Vec<&str> = lines.collect();
    let ours = "diagnostic ptx ";
    let ours_here = body.iter().any(|l| {
        let mut w = l.strip_prefix(ours).unwrap_or("").split(' ');
        let code = w.next().unwrap_or("");
        let line = w.next().and_then(|x| x.parse::<usize>().ok());
        let col = w.next().and_then(|x| x.parse::<usize>().ok());
        code.starts_with('E')
            && line == Some(asm_line)
            && col.is_some_and(|c| c >= asm_col && c < asm_col + 7)
    });
    if !ours_here {
        return Outcome::Failed(format!(
            "Neovim lacks ptx lsp's diagnostic at {asm_line}:{asm_col} (inside the asm string); it got:\n{result}"
        ));
    }
    let clangds = body
        .iter()
        .any(|l| l.starts_with("diagnostic clang") && l.contains(&format!(" {cpp_line} ")));
    if !clangds {
        return Outcome::Failed(format!(
            "Neovim lacks clangd's diagnostic on line {cpp_line}; it got:\n{result}"
        ));
    }
    // Only our one error: the valid `mov` with `%%tid.x` is silent.
    let ours_count = body.iter().filter(|l| l.starts_with(ours)).count();
    if ours_count != 1 {
        return Outcome::Failed(format!(
            "ptx lsp should report exactly the bad opcode; Neovim got:\n{result}"
        ));
    }
    let hover = body
        .iter()
        .find(|l| l.starts_with("hover "))
        .copied()
        .unwrap_or("");
    if !hover.contains("**add**") {
        return Outcome::Failed(format!("unexpected hover inside the asm string: {hover}"));
    }
    eprintln!(
        "xtask test: Neovim with ptx lsp and clangd on one .cu buffer: {} diagnostics from both, and the hover of `add`",
        body.iter().filter(|l| l.starts_with("diagnostic ")).count()
    );
    Outcome::Passed
}
