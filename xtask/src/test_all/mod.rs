//! `xtask test`: the README's test command. Runs every suite of the project
//! in turn — the Rust workspace, then the Python package and the editor
//! integration — and exits non-zero when any of them fails.
//!
//! Each non-Rust suite lives in its own file and decides for itself what it
//! needs (a virtual environment, an editor binary). A suite whose tools are
//! missing prints a note and counts as skipped, except under CI (`CI=true`),
//! where a missing tool is a failure.

mod editor;
mod python;

use std::path::Path;
use std::process::Command;

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

/// Runs a command from the repository root, echoing it first.
pub fn run(root: &Path, cmd: &mut Command) -> Result<(), String> {
    eprintln!("xtask test: running {cmd:?}");
    match cmd.current_dir(root).status() {
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
    type Suite = fn(&Path, &[String]) -> Outcome;
    let suites: [(&str, Suite); 3] = [
        ("rust", rust),
        ("python", |r, _| python::run(r)),
        ("editor", |r, _| editor::run(r)),
    ];
    let mut failed = 0;
    let mut summary = Vec::new();
    for (name, suite) in suites {
        if !only.is_empty() && !only.iter().any(|o| o == name) {
            continue;
        }
        let outcome = suite(root, cargo_args);
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
    eprintln!("\nxtask test summary:");
    for l in &summary {
        eprintln!("  {l}");
    }
    i32::from(failed > 0)
}
