//! `xtask test`: the README's test command. Runs every suite of the project
//! in turn — the Rust workspace, then the Python package and the editor
//! integration — and exits non-zero when any of them fails.
//!
//! Each non-Rust suite lives in its own file and decides for itself what it
//! needs (a virtual environment, an editor binary). A suite whose tools are
//! missing prints a note and counts as skipped, except under CI (`CI=true`),
//! where a missing tool is a failure.

mod editor;
mod editor_cuda;
mod editor_snippets;
mod python;
mod vscode;

use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// What one suite came to.
pub enum Outcome {
    /// Every test ran and passed.
    Passed,
    /// The suite could not run here; the reason is printed.
    Skipped(String),
    /// Something failed; the reason is printed.
    Failed(String),
}

/// True under CI, where skipping a suite is not allowed.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Runs a command from the repository root, echoing it first and its
/// wall time after.
pub fn run(root: &Path, cmd: &mut Command) -> Result<(), String> {
    eprintln!("xtask test: running {cmd:?}");
    let start = Instant::now();
    let status = cmd.current_dir(root).status();
    eprintln!(
        "xtask test: {:.1} s for {:?}",
        start.elapsed().as_secs_f64(),
        cmd.get_program()
    );
    match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("{cmd:?} exited with {s}")),
        Err(e) => Err(format!("{cmd:?} could not start: {e}")),
    }
}

fn rust(root: &Path, extra: &[String]) -> Outcome {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args(["test", "--workspace"]).args(extra);
    match run(root, &mut cmd) {
        Ok(()) => Outcome::Passed,
        Err(e) => Outcome::Failed(e),
    }
}

/// Runs the suites named in `only` (all when empty) and returns the exit code.
pub fn main(root: &Path, only: &[String], cargo_args: &[String]) -> i32 {
    let wanted = |name: &str| only.is_empty() || only.iter().any(|o| o == name);
    // The Python suite's environment (a venv, packages from PyPI: mostly
    // download and unpacking) is made on a thread of its own while the
    // Rust suite compiles and runs; the package build and pytest wait for
    // the Rust suite, so the two never compile at the same time.
    let mut py_env = (wanted("python") && wanted("rust")).then(|| {
        let root = root.to_path_buf();
        std::thread::spawn(move || python::prepare(&root))
    });
    let mut failed = 0;
    let mut summary = Vec::new();
    let total = Instant::now();
    for name in ["rust", "python", "editor"] {
        if !wanted(name) {
            continue;
        }
        let start = Instant::now();
        let outcome = match name {
            "rust" => rust(root, cargo_args),
            "python" => python::run(
                root,
                py_env.take().map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err("preparing the venv panicked".into()))
                }),
            ),
            _ => editor::run(root),
        };
        eprintln!(
            "xtask test: the {name} suite took {:.1} s",
            start.elapsed().as_secs_f64()
        );
        let line = match outcome {
            Outcome::Passed => format!("{name}: passed"),
            Outcome::Skipped(why) if under_ci() => {
                failed += 1;
                format!("{name}: FAILED (cannot run under CI: {why})")
            }
            Outcome::Skipped(why) => format!("{name}: skipped ({why})"),
            Outcome::Failed(why) => {
                failed += 1;
                format!("{name}: FAILED ({why})")
            }
        };
        summary.push(line);
    }
    eprintln!(
        "\nxtask test summary ({:.1} s):",
        total.elapsed().as_secs_f64()
    );
    for l in &summary {
        eprintln!("  {l}");
    }
    i32::from(failed > 0)
}
