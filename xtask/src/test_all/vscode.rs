//! The editor suite's VS Code part (issue #43): the extension of
//! `editors/vscode` in a real VS Code — code-server 4.99 (the last that
//! runs on Node 20) from npm, driven by Debian's headless Chromium
//! through puppeteer-core (`vscode_test.js`). It opens a broken `.ptx`
//! file and a `.cu` file, reads the Problems panel (both files' `ptx lsp`
//! diagnostics must be listed) and saves a screenshot to
//! `target/editor-artifacts/vscode.png`.
//!
//! code-server, puppeteer-core and vscode-languageclient are installed
//! into `target/code-server` by `.ci/install-code-server` (run by
//! `.ci/run`; `CODE_SERVER` and `PUPPETEER` name others). Without them, or
//! without `chromium`, the part is skipped with the reason.

use super::Outcome;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PTX: &str = ".version 8.0\n.target sm_80\n.address_size 64\n\n.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\t.reg .b32 %r<2>;\n\tret;\n}\n";
const CU: &str = "__device__ int f(int a) {\n  int c;\n  asm(\"add.s23 %0, %1, %1;\" : \"=r\"(c) : \"r\"(a));\n  return c;\n}\n";

fn on_path(name: &str) -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let name = e.file_name();
        if name == "node_modules" {
            continue;
        }
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(&name))?;
        } else {
            std::fs::copy(&p, to.join(&name))?;
        }
    }
    Ok(())
}

/// Runs the VS Code part with the built `ptx`.
pub fn run(root: &Path, ptx: &Path, dir: &Path) -> Outcome {
    let modules = root.join("target/code-server/node_modules");
    let code_server = std::env::var("CODE_SERVER")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| modules.join(".bin/code-server"));
    let puppeteer = std::env::var("PUPPETEER")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| modules.join("puppeteer-core"));
    let chromium = std::env::var("CHROMIUM")
        .map(std::path::PathBuf::from)
        .ok()
        .or_else(|| on_path("chromium"));
    let ready = std::env::var_os("CODE_SERVER").is_some()
        || root.join("target/code-server/.ready").exists();
    if !code_server.is_file() || !ready {
        return Outcome::Skipped(format!(
            "no complete code-server install at {} (`bash .ci/install-code-server`, run by .ci/run)",
            code_server.display()
        ));
    }
    if !puppeteer.is_dir() {
        return Outcome::Skipped(format!("no puppeteer-core at {}", puppeteer.display()));
    }
    let Some(chromium) = chromium else {
        return Outcome::Skipped("no `chromium` (apt-get install chromium)".into());
    };
    let languageclient = modules.join("vscode-languageclient");
    if !languageclient.is_dir() {
        return Outcome::Skipped(format!("no {}", languageclient.display()));
    }
    let base = dir.join("vscode");
    let work = base.join("work");
    let user = base.join("user");
    let exts = base.join("extensions");
    let ext = exts.join("ptxkit.ptxkit-ptx-0.1.0");
    for d in [&work, &user.join("User"), &exts] {
        let _ = std::fs::create_dir_all(d);
    }
    if let Err(e) = copy_dir(&root.join("editors/vscode"), &ext) {
        return Outcome::Failed(format!("cannot copy the extension: {e}"));
    }
    #[cfg(unix)]
    if let Err(e) = std::os::unix::fs::symlink(&modules, ext.join("node_modules")) {
        return Outcome::Failed(format!("cannot link the extension's node_modules: {e}"));
    }
    let settings = serde_json::json!({
        "ptx.server.path": ptx.display().to_string(),
        "workbench.startupEditor": "none",
        "security.workspace.trust.enabled": false,
        "extensions.autoCheckUpdates": false,
        "workbench.tips.enabled": false,
    });
    let _ = std::fs::write(user.join("User/settings.json"), settings.to_string());
    let _ = std::fs::write(work.join("kernel.ptx"), PTX);
    let _ = std::fs::write(work.join("kernel.cu"), CU);
    let artifacts = root.join("target/editor-artifacts");
    let _ = std::fs::create_dir_all(&artifacts);
    let shot = artifacts.join("vscode.png");
    let _ = std::fs::remove_file(&shot);
    let script = root.join("xtask/src/test_all/vscode_test.js");
    eprintln!(
        "xtask test: running node {} (code-server + chromium)",
        script.display()
    );
    let child = Command::new("node")
        .arg(&script)
        .env("CODE_SERVER", &code_server)
        .env("CHROMIUM", &chromium)
        .env("PUPPETEER", &puppeteer)
        .env("WORK", &work)
        .env("USER_DATA", &user)
        .env("EXTENSIONS", &exts)
        .env("SHOT", &shot)
        .env("PORT", (18000 + std::process::id() % 1000).to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return Outcome::Skipped(format!("node could not start: {e}")),
    };
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > Duration::from_secs(150) => {
                let _ = child.kill();
                let _ = child.wait();
                return Outcome::Failed(
                    "the code-server session did not finish within 150 s".into(),
                );
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => return Outcome::Failed(format!("waiting for node: {e}")),
        }
    }
    let mut out = String::new();
    if let Some(mut s) = child.stdout.take() {
        use std::io::Read;
        let _ = s.read_to_string(&mut out);
    }
    let v: serde_json::Value = match serde_json::from_str(out.trim()) {
        Ok(v) => v,
        Err(_) => return Outcome::Failed(format!("the code-server session printed: {out}")),
    };
    if v["ok"] != true {
        return Outcome::Failed(format!(
            "the Problems panel of code-server lacks the diagnostics of kernel.ptx and kernel.cu: {v} (screenshot {})",
            shot.display()
        ));
    }
    eprintln!(
        "xtask test: code-server's Problems panel lists {} rows for kernel.ptx and kernel.cu; screenshot {}",
        v["problems"].as_array().map_or(0, Vec::len),
        shot.display()
    );
    Outcome::Passed
}
