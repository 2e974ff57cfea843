//! Running ptxas on batches of cases and pinning each case's verdict.
//!
//! Many cases share one file (one instruction per line inside one kernel),
//! grouped by (target, version). ptxas names the line of each error, so a
//! rejected case is pinned at once; but some checks run only on a file that
//! had no error before them, and a syntax error stops ptxas, so a case counts
//! as accepted only once it was in a batch ptxas accepted as a whole. The
//! cases of failing batches that were not pinned are batched again until
//! every case is decided: a case whose line ptxas stopped on is re-run
//! alone, and a batch whose error names no case is split in halves.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use rayon::prelude::*;

use super::gen::{prelude, EPILOGUE};
use super::Case;

/// ptxas's verdict on one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Not decided yet (or never: see [`MAX_ROUNDS`]).
    Unknown,
    /// In a batch ptxas accepted as a whole.
    Accept,
    /// Rejected; `on_line` when ptxas named the case's own line.
    Reject { msg: String, on_line: bool },
}

/// How a ptxas crash is reported: such a case is neither accepted nor
/// rejected, and is left out of the agreement and the recorded data.
pub const CRASH: &str = "ptxas crashed";

/// One error line of ptxas.
#[derive(Clone, Debug)]
pub struct PtxasError {
    pub line: Option<u32>,
    pub fatal: bool,
    pub msg: String,
}

/// What one ptxas run said.
pub struct PtxasRun {
    pub ok: bool,
    pub errors: Vec<PtxasError>,
}

/// Parse ptxas's stderr: `ptxas F, line N; error   : msg`,
/// `ptxas fatal   : msg`; warnings are left out, and so is the closing
/// "Ptx assembly aborted due to errors".
pub fn parse_stderr(err: &str) -> Vec<PtxasError> {
    let mut out = Vec::new();
    for l in err.lines() {
        let Some(rest) = l.strip_prefix("ptxas") else {
            continue;
        };
        let (line, rest) = match rest.find(", line ") {
            Some(i) => {
                let after = rest.get(i + 7..).unwrap_or("");
                let (n, tail) = after.split_once(';').unwrap_or((after, ""));
                (n.trim().parse::<u32>().ok(), tail)
            }
            None => (None, rest),
        };
        let rest = rest.trim_start();
        let (sev, msg) = rest.split_once(':').unwrap_or((rest, ""));
        let sev = sev.trim();
        let msg = msg.trim().to_string();
        if sev != "error" && sev != "fatal" {
            continue;
        }
        if line.is_none() && msg.starts_with("Ptx assembly aborted") {
            continue;
        }
        out.push(PtxasError {
            line,
            fatal: sev == "fatal",
            msg,
        });
    }
    out
}

/// How ptxas reports a defect of its own (C7907 and the like): an
/// internal compiler error says nothing about the input, and whether it
/// happens depends on the code around the case (a predicate register that
/// was never set, …), so such a case counts as a crash.
pub const INTERNAL_ERROR: &str = "Internal compiler error";

/// Whether a verdict is a ptxas crash (a signal, or an internal compiler
/// error).
pub fn is_crash(v: &Verdict) -> bool {
    matches!(v, Verdict::Reject { msg, .. }
        if msg.starts_with(CRASH) || msg.contains(INTERNAL_ERROR))
}

/// Seconds one ptxas run may take before it is killed and counted as a
/// crash (`PTXKIT_SWEEP_TIMEOUT` overrides): a run that hangs must not
/// stall the sweep.
fn timeout() -> std::time::Duration {
    let secs = std::env::var("PTXKIT_SWEEP_TIMEOUT")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(180);
    std::time::Duration::from_secs(secs)
}

/// Run ptxas on `file` for `arch`.
pub fn run_ptxas(ptxas: &Path, arch: &str, file: &Path) -> PtxasRun {
    run_with_limit(ptxas, arch, file, timeout())
}

/// [`run_ptxas`] with a time limit.
fn run_with_limit(ptxas: &Path, arch: &str, file: &Path, limit: std::time::Duration) -> PtxasRun {
    let fail = |msg: String| PtxasRun {
        ok: false,
        errors: vec![PtxasError {
            line: None,
            fatal: true,
            msg,
        }],
    };
    let mut cmd = Command::new(ptxas);
    cmd.arg(format!("-arch={arch}"))
        .arg(file)
        .arg("-o")
        .arg("/dev/null")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    // Its own process group, so that a kill reaches whatever it started
    // (the tool may be a wrapper script).
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let child = cmd.spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return fail(format!("could not run ptxas: {e}")),
    };
    // stderr is read on a thread so that a full pipe never blocks ptxas.
    let reader = child.stderr.take().map(|mut e| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = std::io::Read::read_to_end(&mut e, &mut buf);
            buf
        })
    });
    let start = std::time::Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break Some(st),
            Ok(None) if start.elapsed() < limit => {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            Ok(None) => {
                if let Ok(pid) = i32::try_from(child.id()) {
                    // SAFETY: kill(2) on the group this function created.
                    unsafe {
                        libc::kill(-pid, libc::SIGKILL);
                    }
                }
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Err(e) => return fail(format!("could not wait for ptxas: {e}")),
        }
    };
    let stderr = reader.and_then(|r| r.join().ok()).unwrap_or_default();
    let Some(status) = status else {
        return fail(format!("{CRASH} (timed out after {} s)", limit.as_secs()));
    };
    let mut errors = parse_stderr(&String::from_utf8_lossy(&stderr));
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            errors.push(PtxasError {
                line: None,
                fatal: true,
                msg: format!("{CRASH} (signal {sig})"),
            });
        }
    }
    PtxasRun {
        ok: status.success(),
        errors,
    }
}

/// The text of a batch file: the prelude, one case per line, the epilogue.
pub fn batch_text(pre: &str, lines: impl Iterator<Item = impl AsRef<str>>) -> String {
    let mut s = String::from(pre);
    for l in lines {
        s.push_str(l.as_ref());
        s.push('\n');
    }
    s.push_str(EPILOGUE);
    s
}

/// A batch ptxas accepted as a whole.
#[derive(Clone, Debug)]
pub struct Batch {
    pub target: String,
    pub version: String,
    pub cases: Vec<usize>,
}

/// How many rounds of re-batching at most; a case still undecided after
/// them stays [`Verdict::Unknown`].
pub const MAX_ROUNDS: usize = 400;

/// The rounds a run makes at most: [`MAX_ROUNDS`], or fewer with
/// `PTXKIT_SWEEP_ROUNDS=N` (cases still undecided then are left out and
/// reported as undecided: a time budget for runs whose cases often stop
/// ptxas, such as the operand dimension's).
fn max_rounds() -> usize {
    std::env::var("PTXKIT_SWEEP_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(MAX_ROUNDS)
        .min(MAX_ROUNDS)
}

/// Decide every case. Returns the verdicts and the accepted batches.
///
/// `known` holds verdicts of earlier runs (the cache): a rejection is taken
/// as it is; a case accepted before is batched with other such cases, so
/// that their batches pass at once and still prove the batch accepted.
pub fn resolve(
    cases: &[Case],
    known: &[Option<Verdict>],
    ptxas: &Path,
    jobs: usize,
    batch: usize,
    tmp: &Path,
    mut progress: impl FnMut(&[Verdict]),
) -> (Vec<Verdict>, Vec<Batch>) {
    let n = cases.len();
    let mut verdict = vec![Verdict::Unknown; n];
    for (v, k) in verdict.iter_mut().zip(known) {
        if let Some(r @ Verdict::Reject { .. }) = k {
            *v = r.clone();
        }
    }
    let likely = |i: usize| matches!(known.get(i), Some(Some(Verdict::Accept)));
    // A 32-bit address is judged module-wide by ptxas: another line that
    // takes a variable's address into a 16-bit register turns its "32-Bit
    // ABI" fatal into a warning. Such cases are run alone, so that their
    // verdict is the one a module of their own gets.
    let mut cap: Vec<usize> = cases
        .iter()
        .map(|c| {
            if c.kind.starts_with("addr-32bit") || super::operands::runs_alone(&c.kind) {
                1
            } else {
                batch.max(1)
            }
        })
        .collect();
    let mut accepted = Vec::new();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .expect("thread pool");
    let _ = std::fs::create_dir_all(tmp);
    let mut runs = 0usize;
    for round in 0..max_rounds() {
        if round % 4 == 3 {
            progress(&verdict);
        }
        let mut groups: BTreeMap<(&str, &str, bool, usize), Vec<usize>> = BTreeMap::new();
        for (i, c) in cases.iter().enumerate() {
            if verdict.get(i) == Some(&Verdict::Unknown) {
                let k = cap.get(i).copied().unwrap_or(1);
                groups
                    .entry((c.target.as_str(), c.version.as_str(), !likely(i), k))
                    .or_default()
                    .push(i);
            }
        }
        if groups.is_empty() {
            break;
        }
        let mut batches: Vec<(&str, &str, Vec<usize>)> = Vec::new();
        for ((t, v, _, k), ids) in groups {
            for ch in ids.chunks(k) {
                batches.push((t, v, ch.to_vec()));
            }
        }
        runs += batches.len();
        let pending = batches.iter().map(|b| b.2.len()).sum::<usize>();
        eprintln!(
            "sweep: round {round}: {} ptxas runs over {pending} undecided cases",
            batches.len()
        );
        let results: Vec<(PtxasRun, u32)> = pool.install(|| {
            batches
                .par_iter()
                .enumerate()
                .map(|(bi, (t, v, ids))| {
                    let pre = prelude(t, v);
                    let pre_lines = pre.matches('\n').count() as u32;
                    let text = batch_text(
                        &pre,
                        ids.iter()
                            .filter_map(|&i| cases.get(i).map(|c| c.text.as_str())),
                    );
                    let path: PathBuf = tmp.join(format!("b{bi}.ptx"));
                    if let Err(e) = std::fs::write(&path, text) {
                        return (
                            PtxasRun {
                                ok: false,
                                errors: vec![PtxasError {
                                    line: None,
                                    fatal: true,
                                    msg: format!("write {}: {e}", path.display()),
                                }],
                            },
                            pre_lines,
                        );
                    }
                    // A case's target may carry `.target` options after a comma
                    // (`sm_75, texmode_independent`): -arch takes the name (or
                    // the lowest ptxas still compiles for, `gen::arch_for`).
                    let arch = super::gen::arch_for(t);
                    (run_ptxas(ptxas, &arch, &path), pre_lines)
                })
                .collect()
        });
        for ((t, v, ids), (run, pre_lines)) in batches.into_iter().zip(results) {
            apply(
                &ids,
                &run,
                pre_lines,
                &mut verdict,
                &mut cap,
                &mut accepted,
                (t, v),
            );
        }
    }
    eprintln!("sweep: {runs} ptxas runs");
    (verdict, accepted)
}

fn set(verdict: &mut [Verdict], i: usize, v: Verdict) {
    if let Some(x) = verdict.get_mut(i) {
        *x = v;
    }
}

/// Fold one batch's ptxas run into the verdicts.
fn apply(
    ids: &[usize],
    run: &PtxasRun,
    pre_lines: u32,
    verdict: &mut [Verdict],
    cap: &mut [usize],
    accepted: &mut Vec<Batch>,
    (t, v): (&str, &str),
) {
    if run.ok {
        for &i in ids {
            set(verdict, i, Verdict::Accept);
        }
        accepted.push(Batch {
            target: t.to_string(),
            version: v.to_string(),
            cases: ids.to_vec(),
        });
        return;
    }
    let pos = |line: Option<u32>| -> Option<usize> {
        let l = line?;
        let k = l.checked_sub(pre_lines + 1)? as usize;
        (k < ids.len()).then_some(k)
    };
    let len = ids.len();
    let mut on_case = false;
    let mut first_fatal: Option<usize> = None;
    for e in &run.errors {
        let Some(k) = pos(e.line) else { continue };
        on_case = true;
        let Some(&i) = ids.get(k) else { continue };
        if e.fatal {
            first_fatal = Some(first_fatal.map_or(k, |f| f.min(k)));
            if len == 1 {
                set(
                    verdict,
                    i,
                    Verdict::Reject {
                        msg: e.msg.clone(),
                        on_line: true,
                    },
                );
            } else if let Some(c) = cap.get_mut(i) {
                // Stopped on this line: decide it alone.
                *c = 1;
            }
        } else if verdict.get(i) == Some(&Verdict::Unknown) {
            set(
                verdict,
                i,
                Verdict::Reject {
                    msg: e.msg.clone(),
                    on_line: true,
                },
            );
        }
    }
    if let Some(f) = first_fatal {
        // The cases after the line ptxas stopped on were not read: batch
        // them about as far apart as the fatal errors seem to be, and at
        // least half as many as before, so that a run of fatal cases takes
        // a logarithmic number of rounds.
        let k = f.max(len / 2).max(1);
        for &i in ids.get(f + 1..).unwrap_or_default() {
            if let Some(c) = cap.get_mut(i) {
                *c = (*c).min(k);
            }
        }
    }
    let off_case = run.errors.is_empty() || run.errors.iter().any(|e| pos(e.line).is_none());
    if on_case {
        if off_case {
            // Besides the cases it named, an error of the file's own (a
            // crash, a line of the epilogue): split what is left.
            for &i in ids {
                if let Some(c) = cap.get_mut(i) {
                    *c = (*c).min((len / 2).max(1));
                }
            }
        }
        return;
    }
    // No error names a case: the error is the file's (a line of the
    // prelude or epilogue, or none).
    if len == 1 {
        let msg = run
            .errors
            .first()
            .map(|e| e.msg.clone())
            .unwrap_or_else(|| "ptxas failed without a message".into());
        if let Some(&i) = ids.first() {
            set(
                verdict,
                i,
                Verdict::Reject {
                    msg,
                    on_line: false,
                },
            );
        }
    } else {
        for &i in ids {
            if let Some(c) = cap.get_mut(i) {
                *c = (len / 2).max(1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ptxas that hangs is killed at the limit and counted as a crash;
    /// one that answers in time is read as usual.
    #[test]
    fn hung_ptxas_is_a_crash() {
        let dir = std::env::temp_dir().join(format!("xtask-ptxas-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let hang = dir.join("hang.sh");
        std::fs::write(&hang, "#!/bin/sh\nsleep 20\n").unwrap();
        let quick = dir.join("quick.sh");
        std::fs::write(
            &quick,
            "#!/bin/sh\necho 'ptxas f.ptx, line 7; error   : bad' >&2\nexit 1\n",
        )
        .unwrap();
        for f in [&hang, &quick] {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let t = std::time::Instant::now();
        let r = run_with_limit(
            &hang,
            "sm_90",
            Path::new("f.ptx"),
            std::time::Duration::from_secs(1),
        );
        assert!(t.elapsed() < std::time::Duration::from_secs(10));
        assert!(!r.ok);
        assert!(r
            .errors
            .iter()
            .any(|e| e.msg.starts_with(CRASH) && e.msg.contains("timed out")));
        let r = run_with_limit(
            &quick,
            "sm_90",
            Path::new("f.ptx"),
            std::time::Duration::from_secs(30),
        );
        assert!(!r.ok);
        assert_eq!(r.errors.len(), 1);
        assert_eq!(r.errors[0].line, Some(7));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
