//! `xtask mutants [--count N] [--seed S]`: a differential test of the
//! checker. Mutates the repository's own ptxas-accepted PTX (examples and
//! `tests/data/ok`) — swap an instruction's type, drop an operand, rename a
//! register, drop or duplicate a declaration, lower the target, put a
//! literal of another kind, another register of the function or another
//! `cvt` rounding in an operand's or modifier's place — and
//! compares `ptx check`'s verdict and error line with ptxas on each mutant.
//! `--dir DIR` (repeatable) mutates the `.ptx` files under DIR instead
//! (e.g. freshly generated producer output; give only ptxas-accepted files).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use ptxkit::check::CheckOptions;
use ptxkit::syntax::{Expr, Item, Stmt};
use ptxkit::{LineIndex, Span};

/// A tiny deterministic generator (xorshift), so runs are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

struct Mutant {
    kind: &'static str,
    source: String,
    text: Vec<u8>,
}

fn replace(src: &[u8], span: Span, with: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(src.len() + with.len());
    out.extend_from_slice(src.get(..span.start as usize).unwrap_or_default());
    out.extend_from_slice(with.as_bytes());
    out.extend_from_slice(src.get(span.end as usize..).unwrap_or_default());
    out
}

const TYPES: &[&str] = &[
    ".u32", ".s32", ".b32", ".f32", ".u64", ".s64", ".b64", ".f64", ".u16", ".f16", ".b16",
    ".pred", ".u8",
];
const TARGETS: &[&str] = &["sm_75", "sm_80", "sm_90"];
const LITERALS: &[&str] = &["1", "0", "1.0", "0f3F800000", "0d3FF0000000000000", "-1"];
const ROUNDINGS: &[&str] = &[".rn", ".rz", ".rm", ".rp", ".rni", ".rzi", ".rmi", ".rpi"];

/// A plain register operand (`%r1`) and where it is.
fn register(o: &ptxkit::Operand) -> Option<(ptxkit::Name, Span)> {
    match o {
        ptxkit::Operand::Expr(Expr::Name(n, s)) if n.as_str().starts_with('%') => Some((*n, *s)),
        _ => None,
    }
}

/// Make one mutant of `src`, or `None` when the chosen operator has nothing to act on.
fn mutate(name: &str, src: &[u8], rng: &mut Rng) -> Option<Mutant> {
    let parsed = ptxkit::parse(src);
    let mut insts = Vec::new();
    let mut decls = Vec::new();
    // The registers each function's instructions name, by function.
    let mut regs_by_fn: Vec<Vec<(ptxkit::Name, Span)>> = Vec::new();
    for item in &parsed.module.items {
        if let Item::Function(f) = item {
            if let Some(b) = &f.body {
                fn walk<'a>(
                    stmts: &'a [Stmt],
                    insts: &mut Vec<&'a ptxkit::Instruction>,
                    decls: &mut Vec<Span>,
                ) {
                    for s in stmts {
                        match s {
                            Stmt::Instruction(i) => insts.push(i),
                            Stmt::Var(v) => decls.push(v.span),
                            Stmt::Block(b) => walk(&b.stmts, insts, decls),
                            _ => {}
                        }
                    }
                }
                let first = insts.len();
                walk(&b.stmts, &mut insts, &mut decls);
                regs_by_fn.push(
                    insts
                        .get(first..)
                        .unwrap_or_default()
                        .iter()
                        .flat_map(|i| i.operands.iter())
                        .filter_map(register)
                        .collect(),
                );
            }
        }
    }
    let op = rng.below(9);
    let (kind, text) = match op {
        0 => {
            let typed: Vec<_> = insts
                .iter()
                .flat_map(|i| i.mods.iter())
                .filter(|m| TYPES.contains(&m.as_str()))
                .collect();
            let m = typed.get(rng.below(typed.len()))?;
            let new = TYPES.get(rng.below(TYPES.len()))?;
            if *new == m.as_str() {
                return None;
            }
            ("swap type", replace(src, m.span(), new))
        }
        1 => {
            let many: Vec<_> = insts.iter().filter(|i| i.operands.len() >= 2).collect();
            let i = many.get(rng.below(many.len()))?;
            let (prev, last) = (i.operands.get(i.operands.len() - 2)?, i.operands.last()?);
            (
                "drop operand",
                replace(src, Span::new(prev.span().end, last.span().end), ""),
            )
        }
        2 => {
            let regs = regs_by_fn.concat();
            let (n, s) = regs.get(rng.below(regs.len()))?;
            ("rename register", replace(src, *s, &format!("{n}x")))
        }
        6 => {
            // A literal replaced by one of another kind.
            let lits: Vec<Span> = insts
                .iter()
                .flat_map(|i| i.operands.iter())
                .filter_map(|o| match o {
                    ptxkit::Operand::Expr(e @ (Expr::Int(_) | Expr::Float(_))) => Some(e.span()),
                    _ => None,
                })
                .collect();
            let s = lits.get(rng.below(lits.len()))?;
            let new = LITERALS.get(rng.below(LITERALS.len()))?;
            if s.text(src) == *new {
                return None;
            }
            ("swap literal", replace(src, *s, new))
        }
        7 => {
            // A register replaced by another one the same function uses.
            let regs = regs_by_fn.get(rng.below(regs_by_fn.len()))?;
            let (_, at) = regs.get(rng.below(regs.len()))?;
            let (other, _) = regs.get(rng.below(regs.len()))?;
            if at.text(src) == other.as_str() {
                return None;
            }
            ("swap register", replace(src, *at, other.as_str()))
        }
        8 => {
            // A conversion's rounding modifier replaced, or one added.
            let cvts: Vec<_> = insts.iter().filter(|i| i.opcode_name() == "cvt").collect();
            let i = cvts.get(rng.below(cvts.len()))?;
            let new = ROUNDINGS.get(rng.below(ROUNDINGS.len()))?;
            let text = match i.mods.iter().find(|m| ROUNDINGS.contains(&m.as_str())) {
                Some(m) if m.as_str() == *new => return None,
                Some(m) => replace(src, m.span(), new),
                None => replace(src, Span::new(i.opcode_span.end, i.opcode_span.end), new),
            };
            ("swap rounding", text)
        }
        3 => {
            let d = decls.get(rng.below(decls.len()))?;
            ("drop declaration", replace(src, *d, ""))
        }
        4 => {
            let d = decls.get(rng.below(decls.len()))?;
            let text = String::from_utf8_lossy(d.slice(src)).into_owned();
            (
                "duplicate declaration",
                replace(src, Span::new(d.end, d.end), &format!("\n\t{text}")),
            )
        }
        _ => {
            let t = parsed.module.target()?;
            let (_, span) = t.items.first()?;
            let new = TARGETS.get(rng.below(TARGETS.len()))?;
            if span.text(src) == *new {
                return None;
            }
            ("lower target", replace(src, *span, new))
        }
    };
    Some(Mutant {
        kind,
        source: name.to_string(),
        text,
    })
}

fn arch_of(src: &[u8]) -> String {
    let parsed = ptxkit::parse(src);
    let t = parsed
        .module
        .target()
        .and_then(|t| t.arch())
        .map(|a| a.to_string())
        .unwrap_or_else(|| "sm_75".into());
    let num: u32 = t
        .trim_start_matches("sm_")
        .trim_end_matches(['a', 'f'])
        .parse()
        .unwrap_or(0);
    if num >= 75 {
        t
    } else {
        "sm_75".into()
    }
}

/// Our verdict: first error line, if any.
fn ours(src: &[u8]) -> Option<u32> {
    // What `ptx check` reports: the streamed check, which checks every
    // piece without a syntax error of its own, as ptxas checks what comes
    // before a syntax error.
    let diags = ptxkit::check::check_source(src, &CheckOptions::default());
    let index = LineIndex::new(src);
    let mut lines: Vec<u32> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| index.line_col(d.span.start).line)
        .collect();
    lines.sort_unstable();
    lines.first().copied()
}

/// ptxas's verdict: `Some(line)` when rejected (0 when it names no line).
/// Relocatable code (calls to functions declared `.extern`, as numba's
/// fp16 helpers) is judged with `ptxas -c` when whole-program ptxas refuses
/// it only for an unresolved extern, as `producers/generate.py` does.
fn theirs(ptxas: &Path, arch: &str, file: &Path) -> Option<u32> {
    let run = |relocatable: bool| {
        let mut c = Command::new(ptxas);
        c.arg(format!("-arch={arch}"));
        if relocatable {
            c.arg("-c");
        }
        c.arg(file).arg("-o").arg("/dev/null").output().ok()
    };
    let mut out = run(false)?;
    let unresolved = |o: &std::process::Output| {
        let e = String::from_utf8_lossy(&o.stderr);
        e.contains("Unresolved extern") && !e.contains("error")
    };
    if !out.status.success() && unresolved(&out) {
        out = run(true)?;
    }
    if out.status.success() {
        return None;
    }
    // The first line in source order: ptxas prints some errors out of it
    // (a `.target` the `.version` does not support after a declaration's
    // error further on).
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err
        .lines()
        .filter(|l| l.contains("error") || l.contains("fatal"))
        // A line of ptxas's own macros (`<macro util>, line 2`) is none of
        // the file's.
        .filter(|l| !l.contains("<macro"))
        .filter_map(|l| {
            let i = l.find(", line ")?;
            l.get(i + 7..)?.split(';').next()?.parse().ok()
        })
        .min();
    Some(line.unwrap_or(0))
}

pub fn run(root: &Path, count: usize, seed: u64, jobs: usize, dirs: &[PathBuf]) -> i32 {
    let ptxas = root.join("../shared/tools/ptxas");
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    let defaults = [
        root.join("examples"),
        root.join("crates/ptxkit/tests/data/ok"),
        root.join("crates/ptxkit/tests/data/check/pass"),
    ];
    for dir in if dirs.is_empty() { &defaults[..] } else { dirs } {
        let mut files: Vec<PathBuf> = Vec::new();
        crate::inputs::collect(dir, &mut files);
        for f in files {
            if let Ok(b) = std::fs::read(&f) {
                inputs.push((
                    f.file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    b,
                ));
            }
        }
    }
    let mut rng = Rng(seed.max(1));
    let mut mutants = Vec::new();
    let mut guard = 0;
    while mutants.len() < count && guard < count * 20 {
        guard += 1;
        let Some((name, src)) = inputs.get(rng.below(inputs.len())) else {
            break;
        };
        if let Some(m) = mutate(name, src, &mut rng) {
            mutants.push(m);
        }
    }
    // One folder per run: concurrent runs (several worktrees) must not
    // overwrite each other's mutant files between writing and ptxas.
    let tmp = std::env::temp_dir().join(format!("ptxkit-mutants-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&tmp);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(&'static str, bool, bool, String)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for w in 0..jobs.max(1) {
            let (mutants, next, results, tmp, ptxas) = (&mutants, &next, &results, &tmp, &ptxas);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(m) = mutants.get(i) else { break };
                let path = tmp.join(format!("m{w}.ptx"));
                if std::fs::write(&path, &m.text).is_err() {
                    continue;
                }
                let us = ours(&m.text);
                let them = theirs(ptxas, &arch_of(&m.text), &path);
                let agree = us.is_some() == them.is_some();
                let same_line = match (us, them) {
                    (Some(a), Some(b)) => b == 0 || a == b,
                    (None, None) => true,
                    _ => false,
                };
                let mut note = format!(
                    "{} on {}: ours {:?}, ptxas {:?}",
                    m.kind, m.source, us, them
                );
                if !agree || !same_line {
                    // Keep the mutant, so that the disagreement can be read and replayed.
                    let kept = tmp.join(format!("disagree-{i}.ptx"));
                    if std::fs::write(&kept, &m.text).is_ok() {
                        note.push_str(&format!(" ({})", kept.display()));
                    }
                }
                if let Ok(mut r) = results.lock() {
                    r.push((m.kind, agree, same_line, note));
                }
            });
        }
    });
    let r = results.into_inner().unwrap_or_default();
    let total = r.len();
    let agree = r.iter().filter(|x| x.1).count();
    let both_reject = r
        .iter()
        .filter(|x| x.1 && !x.3.contains("ours None"))
        .count();
    let line = r
        .iter()
        .filter(|x| x.1 && x.2 && !x.3.contains("ours None"))
        .count();
    let mut kinds: Vec<&str> = r.iter().map(|x| x.0).collect();
    kinds.sort_unstable();
    kinds.dedup();
    for k in kinds {
        let n = r.iter().filter(|x| x.0 == k).count();
        let a = r.iter().filter(|x| x.0 == k && x.1).count();
        println!("{k:<24} {a:>5} / {n:<5} verdicts agree");
    }
    for x in r.iter().filter(|x| !x.1).take(40) {
        println!("DISAGREE {}", x.3);
    }
    for x in r.iter().filter(|x| x.1 && !x.2).take(40) {
        println!("OTHER LINE {}", x.3);
    }
    println!(
        "mutants: {total}; verdicts agree: {agree} ({:.1}%); both reject: {both_reject}, of which same line: {line}",
        100.0 * agree as f64 / total.max(1) as f64
    );
    0
}
