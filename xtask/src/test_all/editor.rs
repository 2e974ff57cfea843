//! The editor suite (issues #30 and #43): `ptx lsp` in real editors. A
//! headless Neovim (the Debian package, 0.7) runs `editor_test.lua`: it
//! starts the server as a language client, opens a PTX file with two
//! errors, waits for the diagnostics to land in Neovim's diagnostic store
//! and asks for a hover on an instruction; this side checks what came
//! back. The other parts: a `.cu` buffer beside clangd
//! (`editor_cuda.rs`), the documented Neovim snippets as written
//! (`editor_snippets.rs`), the VS Code extension in code-server
//! (`vscode.rs`). Skipped with a note when `nvim` is missing (a failure
//! under CI, whose `.ci/run` installs it).

use super::Outcome;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PTX: &str = "\
.version 8.0
.target sm_80
.address_size 64

.visible .entry k(.param .u64 p)
{
\t.reg .b32 %r<4>;
\t.reg .b32 %r<4>;
\t.reg .b64 %rd<3>;
\tld.param.u64 %rd1, [p];
\twgmma.fence.sync.aligned;
\tret;
}
";

/// Runs the editor suite: the PTX session, the CUDA C++ session beside
/// clangd, the documented Neovim snippets as written (on the Debian
/// Neovim and on a current one when one is at hand), and the VS Code
/// extension in code-server. Fails if any part fails; skipped parts are
/// listed with their reasons (under CI a skipped part fails the suite).
pub fn run(root: &Path) -> Outcome {
    let nvim = std::env::var("NVIM_BIN").unwrap_or_else(|_| "nvim".into());
    match Command::new(&nvim).arg("--version").output() {
        Ok(o) if o.status.success() => {}
        _ => return Outcome::Skipped(format!("`{nvim}` not found (apt-get install neovim)")),
    }
    // The `ptx` that `cargo test --workspace` built for the CLI's tests
    // (target/debug/ptx, test profile): after the Rust suite this build is
    // a no-op. A `cargo build -p ptx-cli` would compile ptxkit, the LSP and
    // the CLI once more, in the dev profile and with other dependency
    // features.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    if let Err(e) = super::run(
        root,
        Command::new(&cargo).args(["test", "--workspace", "--no-run", "-q"]),
    ) {
        return Outcome::Failed(e);
    }
    let ptx = root.join("target/debug/ptx");
    let dir = std::env::temp_dir().join(format!("ptxkit-editor-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let mut parts: Vec<(&str, Outcome)> =
        vec![("neovim ptx", ptx_session(root, &nvim, &ptx, &dir))];
    let cu_dir = dir.join("cuda");
    let _ = std::fs::create_dir_all(&cu_dir);
    parts.push((
        "neovim cuda+clangd",
        super::editor_cuda::run(root, &nvim, &ptx, &cu_dir),
    ));
    parts.extend(super::editor_snippets::run(root, &nvim, &ptx, &dir));
    parts.push(("vscode", super::vscode::run(root, &ptx, &dir)));
    let _ = std::fs::remove_dir_all(&dir);
    let mut failed = Vec::new();
    let mut skipped = Vec::new();
    for (name, o) in parts {
        match o {
            Outcome::Passed => eprintln!("xtask test: editor part `{name}`: passed"),
            Outcome::Skipped(why) => {
                eprintln!("xtask test: editor part `{name}`: SKIPPED ({why})");
                skipped.push(format!("{name}: {why}"));
            }
            Outcome::Failed(why) => {
                eprintln!("xtask test: editor part `{name}`: FAILED ({why})");
                failed.push(format!("{name}: {why}"));
            }
        }
    }
    if !failed.is_empty() {
        Outcome::Failed(failed.join("; "))
    } else if !skipped.is_empty() {
        Outcome::Skipped(format!("parts skipped: {}", skipped.join("; ")))
    } else {
        Outcome::Passed
    }
}

/// How to run one headless Neovim session.
pub struct NvimRun<'a> {
    /// Environment for the script (`PTX_OUT` is added).
    pub env: Vec<(String, String)>,
    /// Where `result.txt` is written.
    pub dir: &'a Path,
    /// Arguments before `-c luafile SCRIPT` (`-u init.lua FILE`); empty
    /// means `--clean`.
    pub args: Vec<String>,
    /// A directory put first on `PATH` (where `ptx` is).
    pub path_prepend: Option<&'a Path>,
}

/// Run `script` in a headless `nvim` (killed after 90 s) and return what
/// it wrote to `$PTX_OUT`.
pub fn nvim_script(nvim: &str, script: &Path, run: NvimRun<'_>) -> Result<String, String> {
    let out = run.dir.join("result.txt");
    let _ = std::fs::remove_file(&out);
    eprintln!(
        "xtask test: running {nvim} --headless with {}",
        script.display()
    );
    let mut cmd = Command::new(nvim);
    cmd.arg("--headless");
    if run.args.is_empty() {
        cmd.args(["--clean", "-n", "-i", "NONE"]);
    } else {
        cmd.args(["-n", "-i", "NONE"]).args(&run.args);
    }
    cmd.arg("-c")
        .arg(format!("luafile {}", script.display()))
        .env("PTX_OUT", &out)
        .envs(run.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .current_dir(run.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(p) = run.path_prepend {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut all = vec![p.to_path_buf()];
        all.extend(std::env::split_paths(&path));
        if let Ok(joined) = std::env::join_paths(all) {
            cmd.env("PATH", joined);
        }
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("{nvim} could not start: {e}"))?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > Duration::from_secs(90) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{nvim} did not finish within 90 s"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(format!("waiting for {nvim}: {e}")),
        }
    }
    Ok(std::fs::read_to_string(&out).unwrap_or_default())
}

/// The PTX session: a file with two errors, its diagnostics and a hover.
fn ptx_session(root: &Path, nvim: &str, ptx: &Path, dir: &Path) -> Outcome {
    let file = dir.join("kernel.ptx");
    if let Err(e) = std::fs::write(&file, PTX) {
        return Outcome::Failed(format!("cannot write {}: {e}", file.display()));
    }
    let wgmma_line = PTX.lines().position(|l| l.contains("wgmma")).unwrap_or(0);
    let result = nvim_script(
        nvim,
        &root.join("xtask/src/test_all/editor_test.lua"),
        NvimRun {
            env: vec![
                ("PTX_BIN".into(), ptx.display().to_string()),
                ("PTX_FILE".into(), file.display().to_string()),
                ("PTX_HOVER_LINE".into(), wgmma_line.to_string()),
                ("PTX_HOVER_COL".into(), "3".into()),
            ],
            dir,
            args: Vec::new(),
            path_prepend: None,
        },
    );
    match result {
        Ok(r) => check(&r, wgmma_line),
        Err(e) => Outcome::Failed(e),
    }
}

/// What Neovim must have seen: the duplicate declaration (line 8) and the
/// gated `wgmma` (with their codes, at their lines), and a hover naming
/// the instruction and saying the file's sm_80 lacks it.
fn check(result: &str, wgmma_line: usize) -> Outcome {
    let mut lines = result.lines();
    if lines.next() != Some("ok") {
        return Outcome::Failed(format!("the Neovim session failed: {result}"));
    }
    let body: Vec<&str> = lines.collect();
    let has = |p: &str| body.iter().any(|l| l.starts_with(p));
    let want = [
        "diagnostic E0402 7 ".to_string(),
        format!("diagnostic E0502 {wgmma_line} "),
    ];
    for w in &want {
        if !has(w) {
            return Outcome::Failed(format!("Neovim lacks `{w}…`; it got:\n{result}"));
        }
    }
    let hover = body
        .iter()
        .find(|l| l.starts_with("hover "))
        .copied()
        .unwrap_or("");
    if !(hover.contains("wgmma.fence")
        && hover.contains("Not available")
        && hover.contains("sm_90a"))
    {
        return Outcome::Failed(format!("unexpected hover in Neovim: {hover}"));
    }
    eprintln!(
        "xtask test: Neovim received {} diagnostics and the hover of `wgmma.fence`",
        body.len() - 1
    );
    Outcome::Passed
}
