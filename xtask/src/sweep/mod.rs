//! `xtask sweep`: a differential sweep of the checker against ptxas over
//! instructions generated from the catalog alone (docs/sweep.md).
//!
//! For every form: well-typed instances over its modifier combinations
//! (operands from the `@operand` descriptions), on every target they meet,
//! one PTX version and one target too low, and role-wise mutations (a
//! register of the wrong width or kind, an immediate destination, a vector
//! of the wrong length, …). ptxas decides each case in batches
//! ([`ptxas`]); our verdict is `ptxkit::parse` + `check::check` on the same
//! text. `--record` writes the verdicts to `crates/ptxkit/tests/data/sweep/`,
//! which `tests/sweep.rs` replays without ptxas.

mod cache;
mod gen;
mod operands;
mod order;
mod ptxas;
mod record;
mod report;

use std::path::{Path, PathBuf};

use ptxkit::check::{check, CheckOptions};
use ptxkit::LineIndex;
use rayon::prelude::*;

pub use ptxas::Verdict;

/// A tiny deterministic generator (xorshift), so runs are reproducible.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// One generated instruction and where it is tried.
#[derive(Clone, Debug)]
pub struct Case {
    /// `.target` (and `-arch`).
    pub target: String,
    /// `.version`.
    pub version: String,
    /// `valid`, `version-low`, `target-low` or a mutation `name@role`.
    pub kind: String,
    /// Some operand role of its form has no `@operand` description.
    pub unspec: bool,
    /// The catalog form it was made from.
    pub form: u16,
    /// The instruction, one line.
    pub text: String,
}

/// Our verdict on one case.
#[derive(Clone, Debug, Default)]
pub struct Ours {
    pub reject: bool,
    /// An error names the case's own line.
    pub on_line: bool,
    pub code: String,
    pub msg: String,
}

/// Options of `xtask sweep`.
pub struct Opts {
    pub record: bool,
    pub limit: Option<usize>,
    pub jobs: usize,
    pub only: Option<String>,
    pub seed: u64,
    pub batch: usize,
    pub combos: usize,
    pub mutate: usize,
    /// Ignore the verdicts cached by earlier runs.
    pub fresh: bool,
    /// `--targets LIST`: the targets to try instances on instead of the
    /// main ones (items `sm_70` or `sm_70@6.4`).
    pub targets: Option<String>,
    /// `--version V` / `--versions LIST`: the PTX versions for the items of
    /// `--targets` and `--also-targets` that name none (default: the
    /// newest).
    pub versions: Vec<String>,
    /// `--also-targets LIST`: the default cases, and each instance's
    /// `valid`/`removed`/`version-low` cases on these targets too.
    pub also_targets: Option<String>,
    /// `--operands N`: the operand dimension of the first N instances of
    /// each form instead of the default cases; `--record` writes it to
    /// `tests/data/sweep/operands/` (zstd-compressed).
    pub operands: usize,
    /// `--order N`: the modifier-order dimension of the first N instances
    /// of each form instead of the default cases; `--record` writes it to
    /// `tests/data/sweep/order/` (zstd-compressed).
    pub order: usize,
}

/// Errors (line, code, message) of parse + check on `src`.
pub fn our_errors(src: &[u8]) -> Vec<(u32, String, String)> {
    let parsed = ptxkit::parse(src);
    let mut diags = parsed.diagnostics.clone();
    if !parsed.has_errors() {
        diags.extend(check(&parsed.module, &CheckOptions::default()));
    }
    let index = LineIndex::new(src);
    let mut out: Vec<(u32, String, String)> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            (
                index.line_col(d.span.start).line,
                d.code.to_string(),
                d.message.clone(),
            )
        })
        .collect();
    out.sort_by_key(|e| e.0);
    out
}

/// Our verdicts: accepted cases in the batches ptxas accepted (an error on
/// a case's line rejects it; an error on no case's line rejects them all),
/// every other case alone.
pub fn our_verdicts(cases: &[Case], verdicts: &[Verdict], batches: &[ptxas::Batch]) -> Vec<Ours> {
    let mut ours = vec![Ours::default(); cases.len()];
    let from_batches: Vec<(usize, Ours)> = batches
        .par_iter()
        .flat_map_iter(|b| {
            let pre = gen::prelude(&b.target, &b.version);
            let pre_lines = pre.matches('\n').count() as u32;
            let text = ptxas::batch_text(
                &pre,
                b.cases
                    .iter()
                    .filter_map(|&i| cases.get(i).map(|c| c.text.as_str())),
            );
            let errs = our_errors(text.as_bytes());
            let mut got: Vec<Ours> = vec![Ours::default(); b.cases.len()];
            for (line, code, msg) in &errs {
                let k = line
                    .checked_sub(pre_lines + 1)
                    .map(|k| k as usize)
                    .filter(|&k| k < b.cases.len());
                match k {
                    Some(k) => {
                        if let Some(o) = got.get_mut(k) {
                            if !o.on_line {
                                *o = Ours {
                                    reject: true,
                                    on_line: true,
                                    code: code.clone(),
                                    msg: msg.clone(),
                                };
                            }
                        }
                    }
                    None => {
                        for o in got.iter_mut().filter(|o| !o.reject) {
                            *o = Ours {
                                reject: true,
                                on_line: false,
                                code: code.clone(),
                                msg: msg.clone(),
                            };
                        }
                    }
                }
            }
            b.cases.clone().into_iter().zip(got)
        })
        .collect();
    for (i, o) in from_batches {
        if let Some(x) = ours.get_mut(i) {
            *x = o;
        }
    }
    let alone: Vec<(usize, Ours)> = cases
        .par_iter()
        .enumerate()
        .filter(|(i, _)| verdicts.get(*i) != Some(&Verdict::Accept))
        .map(|(i, c)| (i, alone_verdict(c)))
        .collect();
    for (i, o) in alone {
        if let Some(x) = ours.get_mut(i) {
            *x = o;
        }
    }
    ours
}

/// Our verdict on one case in a file of its own.
pub fn alone_verdict(c: &Case) -> Ours {
    let pre = gen::prelude(&c.target, &c.version);
    let line = pre.matches('\n').count() as u32 + 1;
    let text = ptxas::batch_text(&pre, std::iter::once(c.text.as_str()));
    let errs = our_errors(text.as_bytes());
    let pick = errs.iter().find(|e| e.0 == line).or_else(|| errs.first());
    match pick {
        Some((l, code, msg)) => Ours {
            reject: true,
            on_line: *l == line,
            code: code.clone(),
            msg: msg.clone(),
        },
        None => Ours::default(),
    }
}

pub fn run(root: &Path, o: Opts) -> i32 {
    let ptxas = root.join("../shared/tools/ptxas");
    if !ptxas.exists() {
        eprintln!("sweep: no ptxas at {}", ptxas.display());
        return 2;
    }
    if !o.versions.is_empty() && o.targets.is_none() && o.also_targets.is_none() {
        eprintln!("sweep: --version/--versions need --targets or --also-targets");
        return 2;
    }
    let mut versions = Vec::new();
    for v in &o.versions {
        match gen::parse_version(v) {
            Some(v) => versions.push(v),
            None => {
                eprintln!("sweep: bad PTX version `{v}`");
                return 2;
            }
        }
    }
    let named = |list: &Option<String>, what: &str| -> Result<Option<Vec<gen::Pair>>, ()> {
        let Some(t) = list else { return Ok(None) };
        match gen::parse_pairs(t, &versions) {
            Ok(p) => {
                let names: Vec<String> = p.iter().map(|(t, v)| format!("{t}@{v}")).collect();
                eprintln!("sweep: {what} {}", names.join(", "));
                Ok(Some(p))
            }
            Err(e) => {
                eprintln!("sweep: {what}: {e}");
                Err(())
            }
        }
    };
    let Ok(pairs) = named(&o.targets, "--targets") else {
        return 2;
    };
    let Ok(also) = named(&o.also_targets, "--also-targets") else {
        return 2;
    };
    let mut cases = gen::generate(&gen::GenOpts {
        seed: o.seed,
        combos: o.combos,
        mutate: o.mutate,
        only: o.only.clone(),
        pairs,
        also,
        operands: o.operands,
        order: o.order,
    });
    eprintln!("sweep: {} cases generated", cases.len());
    if let Some(limit) = o.limit.filter(|&l| l > 0 && l < cases.len()) {
        // Evenly spaced, so every part of the catalog keeps some cases.
        let n = cases.len();
        cases = (0..limit)
            .filter_map(|k| cases.get(k * n / limit).cloned())
            .collect();
    }
    eprintln!("sweep: {} cases to run", cases.len());
    let tmp: PathBuf = std::env::temp_dir().join(format!("ptxkit-sweep-{}", std::process::id()));
    let t0 = std::time::Instant::now();
    let cache_path = root.join("target/sweep-cache.tsv");
    let cache = if o.fresh {
        cache::Cache::default()
    } else {
        cache::Cache::load(&cache_path)
    };
    let known: Vec<Option<Verdict>> = cases.iter().map(|c| cache.get(c)).collect();
    eprintln!(
        "sweep: {} cases known from {}",
        known.iter().filter(|k| k.is_some()).count(),
        cache_path.display()
    );
    let mut cache = cache;
    let (verdicts, batches) = ptxas::resolve(&cases, &known, &ptxas, o.jobs, o.batch, &tmp, |v| {
        // Keep what is decided, should the run be stopped.
        cache.update(&cases, v);
        let _ = cache.save(&cache_path);
    });
    cache.update(&cases, &verdicts);
    if let Err(e) = cache.save(&cache_path) {
        eprintln!("sweep: {}: {e}", cache_path.display());
    }
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!(
        "sweep: ptxas verdicts in {:.1}s",
        t0.elapsed().as_secs_f64()
    );
    let t1 = std::time::Instant::now();
    let ours = our_verdicts(&cases, &verdicts, &batches);
    eprintln!("sweep: our verdicts in {:.1}s", t1.elapsed().as_secs_f64());
    let text = report::render(&cases, &verdicts, &ours);
    let out = root.join("target/sweep-report.txt");
    let _ = std::fs::create_dir_all(root.join("target"));
    match std::fs::write(&out, &text.full) {
        Ok(()) => eprintln!("sweep: full report in {}", out.display()),
        Err(e) => eprintln!("sweep: {}: {e}", out.display()),
    }
    print!("{}", text.short);
    if o.record {
        let mut dir = root.join("crates/ptxkit/tests/data/sweep");
        if o.operands > 0 {
            dir.push("operands");
        } else if o.order > 0 {
            dir.push("order");
        }
        let compress = o.operands > 0 || o.order > 0;
        match record::write(&dir, &cases, &verdicts, &batches, compress) {
            Ok(n) => eprintln!("sweep: recorded {n} cases in {}", dir.display()),
            Err(e) => {
                eprintln!("sweep: recording failed: {e}");
                return 1;
            }
        }
    }
    0
}
