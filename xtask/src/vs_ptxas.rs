//! `xtask bench --vs-ptxas FILE` (default: the 994 KB Kokkos module of the
//! corpus): the `ptx check` process against `ptxas -O0` on one file, wall
//! time of whole processes and `ptx check`'s peak RSS (GNU time when
//! installed, else `wait4`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::inputs::KOKKOS;

/// One run of a command: wall time, peak RSS in KiB, exit status.
struct Run {
    wall: Duration,
    max_rss_kib: u64,
    ok: bool,
}

/// Run `cmd` to completion with output discarded, measuring it.
fn measure(cmd: &mut Command) -> Option<Run> {
    let start = Instant::now();
    let child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let pid = libc::pid_t::try_from(child.id()).ok()?;
    let mut status: libc::c_int = 0;
    // SAFETY: `rusage` is plain data that `wait4` fills; all-zero is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, not yet waited for (the `Child` handle is
    // never waited on); the pointers are to live locals.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = start.elapsed();
    drop(child);
    (r == pid).then(|| Run {
        wall,
        max_rss_kib: u64::try_from(usage.ru_maxrss).unwrap_or(0),
        ok: libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
    })
}

/// Runs of `cmd` for at least `min` and at least `count` times.
fn runs(min: Duration, count: usize, mut cmd: impl FnMut() -> Command) -> Vec<Run> {
    let start = Instant::now();
    let mut out = Vec::new();
    while out.len() < count || start.elapsed() < min {
        match measure(&mut cmd()) {
            Some(r) => out.push(r),
            None => break,
        }
    }
    out
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Print the comparison; `file` defaults to the Kokkos module.
pub fn run(root: &Path, file: Option<PathBuf>, min: Duration) {
    let shared = root.join("../shared");
    let file = file.unwrap_or_else(|| shared.join("corpus").join(KOKKOS));
    let file = file.canonicalize().unwrap_or(file);
    let Ok(meta) = std::fs::metadata(&file) else {
        println!("ptx check vs ptxas: {} not found; skipped", file.display());
        return;
    };
    let Some(ptx) = crate::dist::release_ptx(root) else {
        println!("ptx check vs ptxas: could not build target/release/ptx; skipped");
        return;
    };
    let size = meta.len() as f64;
    println!(
        "ptx check vs ptxas -O0 on {} ({:.0} KB):",
        file.display(),
        size / 1e3
    );
    let Some((best, med)) = ours(&ptx, "ptx check", &file, size, min) else {
        return;
    };
    // The same check, statically linked (`xtask dist`).
    match crate::dist::build(root, true) {
        Some(p) => {
            ours(&p, "ptx check (static, dist)", &file, size, min);
        }
        None => println!("  static build (xtask dist) not available here"),
    }
    let ptxas = shared.join("tools/ptxas");
    if !ptxas.exists() {
        println!("  ptxas not found at {}; no ratio", ptxas.display());
        return;
    }
    let arch = target_of(&file).unwrap_or_else(|| "sm_80".into());
    // ptxas 13.5 takes sm_75 and later.
    let num: u32 = arch
        .trim_start_matches("sm_")
        .trim_end_matches(['a', 'f'])
        .parse()
        .unwrap_or(75);
    let arch = if num < 75 { "sm_75".to_string() } else { arch };
    let theirs = runs(min, 3, || {
        let mut c = Command::new(&ptxas);
        c.args(["-O0", &format!("-arch={arch}")])
            .arg(&file)
            .args(["-o", "/dev/null"]);
        c
    });
    let tbest = theirs.iter().map(|r| r.wall).min().unwrap_or_default();
    let tmed = median(theirs.iter().map(|r| r.wall.as_secs_f64()).collect());
    println!(
        "  {:<28} best {:>8.1} ms, median {:>8.1} ms over {} runs",
        format!("ptxas -O0 -arch={arch}"),
        tbest.as_secs_f64() * 1e3,
        tmed * 1e3,
        theirs.len()
    );
    println!(
        "  ptx check is {:.0}x faster (best vs best), {:.0}x (median vs median)",
        tbest.as_secs_f64() / best.as_secs_f64(),
        tmed / med
    );
}

/// Time `ptx check FILE` and print a line; (best, median) wall time.
fn ours(ptx: &Path, label: &str, file: &Path, size: f64, min: Duration) -> Option<(Duration, f64)> {
    let runs = runs(min, 20, || {
        let mut c = Command::new(ptx);
        c.arg("check").arg(file);
        c
    });
    let Some(first) = runs.first() else {
        println!("  {label} did not run");
        return None;
    };
    let ok = first.ok;
    let best = runs.iter().map(|r| r.wall).min().unwrap_or_default();
    let med = median(runs.iter().map(|r| r.wall.as_secs_f64()).collect());
    // Peak RSS moves by a few hundred KB between runs (how much of the
    // binary the kernel maps around each page fault depends on the page
    // cache): the range over several runs.
    let mut rss: Vec<u64> = (0..7).filter_map(|_| peak_rss_kib(ptx, file)).collect();
    if rss.is_empty() {
        rss = runs.iter().map(|r| r.max_rss_kib).collect();
    }
    let lo = rss.iter().copied().min().unwrap_or(0) as f64 * 1024.0;
    let hi = rss.iter().copied().max().unwrap_or(0) as f64 * 1024.0;
    println!(
        "  {:<28} best {:>8.1} ms, median {:>8.1} ms over {} runs; peak RSS {:.1}-{:.1} MB = {:.1}-{:.1}x the file{}",
        label,
        best.as_secs_f64() * 1e3,
        med * 1e3,
        runs.len(),
        lo / 1e6,
        hi / 1e6,
        lo / size,
        hi / size,
        if ok { "" } else { " (reported errors)" }
    );
    Some((best, med))
}

/// Peak RSS of `ptx check FILE` in KiB, through GNU time. `wait4`'s figure
/// cannot serve when this process is big: exec keeps the largest RSS the
/// process had, and a child spawned with a shared address space starts with
/// ours. GNU time forks from a small process, so its child starts small.
fn peak_rss_kib(ptx: &Path, file: &Path) -> Option<u64> {
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(ptx)
        .arg("check")
        .arg(file)
        .stdout(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stderr);
    text.lines().last()?.trim().parse().ok()
}

/// The first architecture of the file's `.target`.
fn target_of(file: &Path) -> Option<String> {
    let text = std::fs::read(file).ok()?;
    let parsed = ptxkit::parse(&text);
    Some(parsed.module.target()?.arch()?.as_str().to_string())
}
