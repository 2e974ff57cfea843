//! The editor suite (issue #30): `ptx lsp` in a real editor. A headless
//! Neovim (the Debian package, 0.7) runs `editor_test.lua`: it starts the
//! server as a language client, opens a PTX file with two errors, waits
//! for the diagnostics to land in Neovim's diagnostic store and asks for a
//! hover on an instruction; this side checks what came back. Skipped with
//! a note when `nvim` is missing (a failure under CI, whose `.ci/run`
//! installs it).

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

/// Runs the end-to-end editor test.
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
    let file = dir.join("kernel.ptx");
    let out = dir.join("result.txt");
    let _ = std::fs::remove_file(&out);
    if let Err(e) = std::fs::write(&file, PTX) {
        return Outcome::Failed(format!("cannot write {}: {e}", file.display()));
    }
    let script = root.join("xtask/src/test_all/editor_test.lua");
    let wgmma_line = PTX.lines().position(|l| l.contains("wgmma")).unwrap_or(0);
    eprintln!(
        "xtask test: running {nvim} --headless with {}",
        script.display()
    );
    let child = Command::new(&nvim)
        .args(["--headless", "--clean", "-n", "-i", "NONE", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("PTX_BIN", &ptx)
        .env("PTX_FILE", &file)
        .env("PTX_OUT", &out)
        .env("PTX_HOVER_LINE", wgmma_line.to_string())
        .env("PTX_HOVER_COL", "3")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return Outcome::Failed(format!("{nvim} could not start: {e}")),
    };
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > Duration::from_secs(90) => {
                let _ = child.kill();
                let _ = child.wait();
                return Outcome::Failed("nvim did not finish within 90 s".into());
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Outcome::Failed(format!("waiting for nvim: {e}")),
        }
    }
    let result = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    check(&result, wgmma_line)
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
