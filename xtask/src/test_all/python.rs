//! The Python package's suite (issue #29): builds `crates/ptxkit-py` into a
//! virtual environment under `target/py-venv` and runs its pytest suite.
//!
//! Steps, each echoed: create the venv (once); install maturin, pytest,
//! networkx and mypy (its stubtest checks the `.pyi` stubs) into it;
//! install Triton from PyPI when it is not there yet (the Triton test
//! compiles a kernel without a GPU; if Triton cannot be installed that
//! test skips with a note, or fails under CI) — these three ([`prepare`])
//! run on a thread during the Rust suite when both run; build and
//! install the package with `pip install crates/ptxkit-py` (maturin, the
//! crate's `pytest` profile: optimised, no LTO, build files in
//! `target/py-build`); then `python -m pytest crates/ptxkit-py/tests`.
//! No Python 3 on the machine means the suite is skipped (a failure under
//! CI).

use super::{run as run_cmd, Outcome};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Python that makes the venv: `$PYTHON`, else `python3`.
fn host_python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".into())
}

/// The venv's `bin` folder.
fn venv_bin(root: &Path) -> PathBuf {
    root.join("target/py-venv/bin")
}

/// A command of the venv, with the venv's `bin` first on `PATH` (pip runs
/// `maturin` from there) and the build files under `target/py-build`.
fn venv_cmd(root: &Path, program: &str) -> Command {
    let bin = venv_bin(root);
    let mut c = Command::new(bin.join(program));
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![bin];
    dirs.extend(std::env::split_paths(&path));
    if let Ok(p) = std::env::join_paths(dirs) {
        c.env("PATH", p);
    }
    c.env("CARGO_TARGET_DIR", root.join("target/py-build"));
    // The package is built with its `pytest` profile (see its Cargo.toml):
    // maturin reads extra build arguments from this variable.
    c.env("MATURIN_PEP517_ARGS", "--profile pytest");
    c.env("PIP_DISABLE_PIP_VERSION_CHECK", "1");
    c
}

/// Whether `python -c code` succeeds in the venv.
fn venv_ok(root: &Path, code: &str) -> bool {
    venv_cmd(root, "python")
        .args(["-c", code])
        .current_dir(root)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `pip install --quiet ARGS` in the venv.
fn pip_install(root: &Path, args: &[&str]) -> Result<(), String> {
    let mut c = venv_cmd(root, "python");
    c.args(["-m", "pip", "install", "--quiet"]).args(args);
    run_cmd(root, &mut c)
}

/// The suite's environment: the venv (made once) with maturin, pytest,
/// networkx, mypy and (when it installs) Triton. `Err` is the reason the
/// suite cannot run. Safe to run while the Rust suite builds: it compiles
/// nothing of ours.
pub fn prepare(root: &Path) -> Result<(), String> {
    let root = canonical(root);
    let python = host_python();
    if !venv_bin(&root).join("python").exists() {
        let mut c = Command::new(&python);
        c.args(["-m", "venv", "target/py-venv"]);
        if let Err(e) = run_cmd(&root, &mut c) {
            return Err(format!("cannot create a Python venv with `{python}`: {e}"));
        }
    }
    if let Err(e) = pip_install(&root, &["maturin>=1.5,<2", "pytest", "networkx", "mypy"]) {
        return Err(format!("cannot install maturin and pytest: {e}"));
    }
    if !venv_ok(&root, "import triton") {
        if let Err(e) = pip_install(&root, &["triton"]) {
            eprintln!("note: Triton could not be installed ({e}); its test will say so");
        }
    }
    Ok(())
}

/// Builds the Python package into the prepared environment and runs pytest.
fn suite(root: &Path, prepared: Result<(), String>) -> Outcome {
    if let Err(why) = prepared {
        return Outcome::Skipped(why);
    }
    let package = [
        "--no-build-isolation",
        "--force-reinstall",
        "--no-deps",
        "crates/ptxkit-py",
    ];
    if let Err(e) = pip_install(root, &package) {
        return Outcome::Failed(format!("building the package failed: {e}"));
    }
    let mut c = venv_cmd(root, "python");
    c.args([
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-q",
        "-rs",
        "crates/ptxkit-py/tests",
    ]);
    match run_cmd(root, &mut c) {
        Ok(()) => Outcome::Passed,
        Err(e) => Outcome::Failed(e),
    }
}

/// One spelling of the repository root from run to run (cargo's build
/// records hold absolute paths; `xtask/..` would not match them).
fn canonical(root: &Path) -> PathBuf {
    root.canonicalize().unwrap_or_else(|_| root.to_path_buf())
}

/// Runs the Python suite; `prepared` is the outcome of [`prepare`] when it
/// already ran (on a thread, during the Rust suite), else it runs first.
pub fn run(root: &Path, prepared: Option<Result<(), String>>) -> Outcome {
    if !root.join("crates/ptxkit-py/pyproject.toml").exists() {
        return Outcome::Failed("crates/ptxkit-py/pyproject.toml is missing".into());
    }
    let prepared = prepared.unwrap_or_else(|| prepare(root));
    suite(&canonical(root), prepared)
}
