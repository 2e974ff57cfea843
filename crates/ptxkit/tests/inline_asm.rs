//! Inline PTX (`ptxkit::inline_asm`): a snapshot on a source of our own, and
//! the `asm` statements of real headers — CUTLASS/CuTe (the `nvidia-cutlass`
//! wheel's `include/`) and CCCL's `cuda/__ptx` (in the toolkit that
//! `../shared/tools/nvcc` assembles) — all found and checked, and seeded
//! mutants of them reported on the mutated line.
//!
//! The headers are looked up at test time: `PTXKIT_CUTLASS_INCLUDE` /
//! `PTXKIT_CCCL_INCLUDE`, else `target/asm-headers` (where `.ci/run` puts
//! the wheel) and the nvcc wrapper's cache folder. Absent, the tests skip
//! with a note, and fail under `CI=true` (`.ci/run` installs them).
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::path::{Path, PathBuf};

use ptxkit::inline_asm::{self, Checked, Template, Verdict};
use ptxkit::LineIndex;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/inline_asm")
        .join(name)
}

/// A one-line account of a statement's targets: count, first and last.
fn targets_line(ts: &[String]) -> String {
    match (ts.first(), ts.last()) {
        (Some(a), Some(b)) if ts.len() > 1 => format!("{} targets, {a} … {b}", ts.len()),
        (Some(a), _) => format!("1 target, {a}"),
        _ => "no target".to_string(),
    }
}

fn report(name: &str, src: &[u8], checked: &[Checked]) -> String {
    let index = LineIndex::new(src);
    let mut out = String::new();
    for c in checked {
        let line = index.line_col(c.statement.keyword.start).line;
        match &c.verdict {
            Verdict::Valid { targets } => out.push_str(&format!(
                "line {line}: valid on {}\n",
                targets_line(targets)
            )),
            Verdict::Invalid {
                closest,
                diagnostics,
            } => {
                out.push_str(&format!(
                    "line {line}: invalid ({})\n",
                    closest.as_deref().unwrap_or("every target")
                ));
                for d in diagnostics {
                    out.push_str(&ptxkit::diag::render(d, name, src, &index));
                }
            }
            Verdict::Skipped { diagnostic } => {
                out.push_str(&format!("line {line}: skipped\n"));
                out.push_str(&ptxkit::diag::render(diagnostic, name, src, &index));
            }
        }
    }
    out
}

#[test]
fn own_source_snapshot() {
    let src = std::fs::read(data("mixed.cu")).expect("mixed.cu");
    let checked = inline_asm::check_source(&src, &[]);
    let text = report("mixed.cu", &src, &checked);
    // Every broken statement is invalid, every other one valid (the
    // macro `PTX_TYPE` in a template is expanded, giving a broken
    // `mov.b32 %0, .u32;`; `FENCE()` is checked at its call).
    let invalid = checked
        .iter()
        .filter(|c| matches!(c.verdict, Verdict::Invalid { .. }))
        .count();
    assert_eq!(invalid, 9, "{text}");
    insta::assert_snapshot!("inline_asm_mixed", text);
}

#[test]
fn narrowed_targets_and_wrapper_never_blamed() {
    // wgmma needs sm_90a: with sm_80 only it is invalid, with both valid.
    let src = br#"asm("wgmma.fence.sync.aligned;" ::: "memory");"#;
    let c = inline_asm::check_source(src, &["sm_80".into()]);
    let Verdict::Invalid {
        closest,
        diagnostics,
    } = &c[0].verdict
    else {
        panic!("{:?}", c[0].verdict)
    };
    assert_eq!(closest.as_deref(), Some("sm_80"));
    assert!(diagnostics.iter().all(|d| d.span.end as usize <= src.len()));
    let c = inline_asm::check_source(src, &["sm_80".into(), "sm_90a".into()]);
    assert!(matches!(&c[0].verdict, Verdict::Valid { targets } if targets[..] == ["sm_90a"]));
    // An unclosed block: blamed on the template's closing quote, not on
    // the wrapper.
    let src = br#"asm("{ mov.b32 %0, 1;" : "=r"(x));"#;
    let c = inline_asm::check_source(src, &["sm_90".into()]);
    let Verdict::Invalid { diagnostics, .. } = &c[0].verdict else {
        panic!("{:?}", c[0].verdict)
    };
    let s = diagnostics[0].span;
    assert_eq!(&src[s.start as usize..s.end as usize], b"\"");
    assert_eq!(
        s.start as usize,
        src.iter().rposition(|&b| b == b'"').unwrap() - 7
    );
}

// ---------------------------------------------------------------- headers

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

fn absent(what: &str) {
    assert!(
        !ci(),
        "{what} not found under CI (.ci/run installs it); see crates/ptxkit/tests/inline_asm.rs"
    );
    println!(
        "note: {what} not found; test skipped (set PTXKIT_CUTLASS_INCLUDE / PTXKIT_CCCL_INCLUDE)"
    );
}

fn cutlass_include() -> Option<PathBuf> {
    let p = std::env::var_os("PTXKIT_CUTLASS_INCLUDE")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target/asm-headers/cutlass_library/source/include"));
    p.join("cute").is_dir().then_some(p)
}

/// The CCCL include folder of the toolkit `../shared/tools/nvcc` assembles
/// (its cache folder, as the wrapper computes it).
fn cccl_include() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PTXKIT_CCCL_INCLUDE") {
        return Some(PathBuf::from(p));
    }
    let wrapper = std::fs::read_to_string(repo().join("../shared/tools/nvcc")).ok()?;
    let v = wrapper
        .lines()
        .find_map(|l| l.strip_prefix("V="))?
        .trim()
        .to_string();
    let home = match std::env::var_os("NVCC_HOME") {
        Some(h) => PathBuf::from(h),
        None => {
            let cache = std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
            cache.join(format!("cuda-{v}"))
        }
    };
    let p = home.join("include/cccl");
    p.join("cuda/__ptx").is_dir().then_some(p)
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| {
            ["cu", "cuh", "h", "hpp", "cpp", "inl"]
                .iter()
                .any(|e| x == *e)
        }) {
            out.push(p);
        }
    }
}

/// Statements whose rejection is known and explained in
/// docs/inline-asm.md: one that ptxas 13.5 rejects too. (The CCCL
/// statements the catalog lacked, PTX 9.5 forms and `tcgen05.ld.red
/// .spcompress`, are catalogued now.)
const KNOWN_INVALID: [&str; 1] = [
    // ptxas 13.5: "'.hi/.lo' modifier required for instruction 'dp2a'"
    "dp2a.s32.s32",
];

struct HeaderRun {
    files: usize,
    found: usize,
    checked: usize,
    skipped: usize,
    valid: usize,
    known: usize,
    unexplained: Vec<String>,
    /// (file bytes, statement) of the valid statements, for mutants.
    valid_stmts: Vec<(std::sync::Arc<Vec<u8>>, inline_asm::AsmStatement)>,
}

fn run_headers(root: &Path) -> HeaderRun {
    let mut files = Vec::new();
    sources(root, &mut files);
    files.sort();
    let mut r = HeaderRun {
        files: files.len(),
        found: 0,
        checked: 0,
        skipped: 0,
        valid: 0,
        known: 0,
        unexplained: Vec::new(),
        valid_stmts: Vec::new(),
    };
    for f in &files {
        let src = std::sync::Arc::new(std::fs::read(f).expect("read"));
        let index = LineIndex::new(&src);
        for c in inline_asm::check_source(&src, &[]) {
            r.found += 1;
            match &c.verdict {
                Verdict::Skipped { .. } => r.skipped += 1,
                Verdict::Valid { .. } => {
                    r.checked += 1;
                    r.valid += 1;
                    r.valid_stmts.push((src.clone(), c.statement));
                }
                Verdict::Invalid { diagnostics, .. } => {
                    r.checked += 1;
                    let text = match &c.statement.template {
                        Template::Literal(t) => String::from_utf8_lossy(&t.bytes).into_owned(),
                        Template::NotLiteral | Template::TooLong | Template::GivenUp(_) => {
                            String::new()
                        }
                    };
                    if KNOWN_INVALID.iter().any(|k| text.contains(k)) {
                        r.known += 1;
                    } else {
                        r.unexplained.push(
                            diagnostics
                                .iter()
                                .map(|d| {
                                    ptxkit::diag::render(d, &f.display().to_string(), &src, &index)
                                })
                                .collect(),
                        );
                    }
                }
            }
        }
    }
    r
}

fn headers(name: &str, root: Option<PathBuf>, min_found: usize) {
    let Some(root) = root else {
        return absent(name);
    };
    let t = std::time::Instant::now();
    let r = run_headers(&root);
    println!(
        "{name}: {} files, {} asm statements found, {} checked ({} skipped, template not literal): {} valid, {} known rejections, {} unexplained; {:.2?} on all {} targets",
        r.files,
        r.found,
        r.checked,
        r.skipped,
        r.valid,
        r.known,
        r.unexplained.len(),
        t.elapsed(),
        inline_asm::all_targets().len()
    );
    assert!(r.found >= min_found, "only {} statements found", r.found);
    assert!(
        r.unexplained.is_empty(),
        "{} unexplained rejections:\n{}",
        r.unexplained.len(),
        r.unexplained.join("\n")
    );
    let m = mutants(&r.valid_stmts, 160);
    println!(
        "{name}: {} mutants, {} reported on the mutated line ({:.1}%), by kind: {:?}",
        m.total,
        m.caught,
        100.0 * m.caught as f64 / m.total.max(1) as f64,
        m.by_kind
    );
    if let Some(log) = std::env::var_os("PTXKIT_MUTANT_LOG") {
        let _ = std::fs::write(log, m.missed.join("\n"));
    }
    if !m.missed.is_empty() {
        println!(
            "missed (first 10):\n{}",
            m.missed
                .iter()
                .take(10)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    assert!(m.total >= 100, "only {} mutants", m.total);
    assert!(
        m.caught * 100 >= m.total * 95,
        "{} of {} mutants reported on the mutated line",
        m.caught,
        m.total
    );
}

#[test]
fn cutlass_headers() {
    headers("CUTLASS/CuTe", cutlass_include(), 3000);
}

#[test]
fn cccl_ptx_headers() {
    headers(
        "CCCL cuda/__ptx",
        cccl_include().map(|p| p.join("cuda/__ptx")),
        2700,
    );
}

// ---------------------------------------------------------------- mutants

#[derive(Default)]
struct MutantRun {
    total: usize,
    caught: usize,
    by_kind: [(usize, usize); 4],
    missed: Vec<String>,
}

/// Where the first instruction's opcode starts in a decoded template, and
/// the byte after its last operand (its `;`).
fn first_instruction(t: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    while i < t.len() {
        let c = t[i];
        if c.is_ascii_whitespace() || c == b'{' || c == b'}' || c == b';' {
            i += 1;
            continue;
        }
        let end = t[i..].iter().position(|&b| b == b';').map(|k| i + k)?;
        let stmt = &t[i..end];
        if c == b'.' || c == b'/' || stmt.contains(&b':') && !stmt.contains(&b' ') {
            i = end + 1;
            continue;
        }
        // Skip a guard `@p ` / `@!p `.
        let mut j = i;
        if c == b'@' {
            j += t[j..end].iter().position(|b| b.is_ascii_whitespace())?;
            while j < end && t[j].is_ascii_whitespace() {
                j += 1;
            }
        }
        if j < end && t[j].is_ascii_lowercase() {
            return Some((j, end));
        }
        i = end + 1;
    }
    None
}

/// One mutant of `stmt` in `src` of kind `kind` (0 opcode, 1 type, 2
/// operand count, 3 constraint): the statement's text mutated, and the
/// offset (in that text) of the mutated byte.
fn mutate(src: &[u8], stmt: &inline_asm::AsmStatement, kind: usize) -> Option<(Vec<u8>, usize)> {
    let Template::Literal(t) = &stmt.template else {
        return None;
    };
    let base = stmt.span.start as usize;
    let text = src[base..stmt.span.end as usize].to_vec();
    let (op, semi) = first_instruction(&t.bytes)?;
    let at = |k: usize| t.from[k] as usize - base;
    // The original byte must be the decoded one (no escape there).
    let plain = |k: usize| text[at(k)] == t.bytes[k];
    let mut out = text.clone();
    match kind {
        0 => {
            // `mov` -> `mqov`.
            let k = op + 1;
            if !plain(k) {
                return None;
            }
            out.insert(at(k), b'q');
            Some((out, at(k)))
        }
        1 => {
            // The first 16/32/64-bit type of the instruction: `.u32` -> `.u23`.
            let ins = &t.bytes[op..semi];
            let k = [
                ".u32", ".s32", ".b32", ".f32", ".u64", ".s64", ".b64", ".f64", ".u16", ".s16",
                ".b16", ".f16",
            ]
            .iter()
            .filter_map(|ty| ins.windows(4).position(|w| w == ty.as_bytes()))
            .min()?
                + op
                + 2;
            if !plain(k) || !plain(k + 1) {
                return None;
            }
            let (a, b) = (out[at(k)], out[at(k + 1)]);
            out[at(k)] = b;
            out[at(k + 1)] = a;
            Some((out, at(k)))
        }
        2 => {
            // One operand too many: the last operand written twice.
            if !plain(semi) {
                return None;
            }
            let ins = &t.bytes[op..semi];
            let last = ins.iter().rposition(|&b| b == b',')?;
            let operand: Vec<u8> = ins[last + 1..].to_vec();
            if operand
                .iter()
                .any(|&b| b == b'}' || b == b']' || b == b'"' || b == b'\\')
            {
                return None;
            }
            let mut add = b",".to_vec();
            add.extend(operand);
            let pos = at(semi);
            out.splice(pos..pos, add);
            Some((out, pos))
        }
        _ => {
            // A register operand the template uses, given another type.
            let ops: Vec<_> = stmt.operands().collect();
            for (n, o) in ops.iter().enumerate() {
                let letter = o.constraint.trim_start_matches(['=', '+', '&']);
                // 16-bit for 32-bit, 32-bit for 64-bit, the other float
                // width, a double for a 16-bit value.
                let new = match letter {
                    "r" => b'h',
                    "l" => b'r',
                    "f" => b'd',
                    "d" => b'f',
                    "h" => b'd',
                    _ => continue,
                };
                // Used as a value somewhere (ptxas takes any integer
                // register as a shared-memory address).
                let used = String::from_utf8_lossy(&t.bytes);
                let r = format!("%{n}");
                let referenced = used.match_indices(&r).any(|(k, _)| {
                    let before = &used[..k];
                    let in_address = before.matches('[').count() > before.matches(']').count();
                    !in_address && !used[k + r.len()..].starts_with(|c: char| c.is_ascii_digit())
                });
                if !referenced {
                    continue;
                }
                let s = o.constraint_span;
                let lit = &text[s.start as usize - base..s.end as usize - base];
                let k = lit.iter().rposition(|&b| b == letter.as_bytes()[0])?;
                let pos = s.start as usize - base + k;
                out[pos] = new;
                return Some((out, pos));
            }
            None
        }
    }
}

fn mutants(
    stmts: &[(std::sync::Arc<Vec<u8>>, inline_asm::AsmStatement)],
    per_kind: usize,
) -> MutantRun {
    let mut run = MutantRun::default();
    let targets = inline_asm::all_targets();
    for kind in 0..4 {
        let mut made = 0;
        // A spread of statements: a stride through the list, from an offset
        // per kind.
        let n = stmts.len();
        if n == 0 {
            break;
        }
        let stride = (n / per_kind).max(1);
        let mut k = kind;
        let mut tried = 0;
        while made < per_kind && tried < n {
            let (src, stmt) = &stmts[k % n];
            k += stride;
            tried += 1;
            let Some((text, pos)) = mutate(src, stmt, kind) else {
                continue;
            };
            made += 1;
            let line = text[..pos].iter().filter(|&&b| b == b'\n').count() as u32 + 1;
            let index = LineIndex::new(&text);
            let checked = inline_asm::check_source(&text, &targets);
            // The error's span (or its note's) takes in the mutated line.
            let covers = |s: ptxkit::Span| {
                index.line_col(s.start).line <= line
                    && line <= index.line_col(s.end.max(s.start + 1) - 1).line
            };
            let hit = checked.first().is_some_and(|c| match &c.verdict {
                Verdict::Invalid { diagnostics, .. } => diagnostics.iter().any(|d| {
                    d.is_error() && (covers(d.span) || d.labels.iter().any(|l| covers(l.span)))
                }),
                _ => false,
            });
            run.total += 1;
            run.by_kind[kind].0 += 1;
            if hit {
                run.caught += 1;
                run.by_kind[kind].1 += 1;
            } else {
                run.missed.push(format!(
                    "kind {kind}, line {line}: {}\n  -> {:?}",
                    String::from_utf8_lossy(&text),
                    checked.first().map(|c| match &c.verdict {
                        Verdict::Invalid { diagnostics, .. } => diagnostics
                            .iter()
                            .map(|d| format!("{}@{}", d.message, index.line_col(d.span.start).line))
                            .collect::<Vec<_>>()
                            .join("; "),
                        v => format!("{v:?}").chars().take(80).collect(),
                    })
                ));
            }
        }
    }
    run
}

// ------------------------------------------------------- nvcc + ptxas

/// The verdicts on `mixed.cu` agree with nvcc + ptxas (sm_90a): its valid
/// statements compile to a cubin, and each statement we reject, put alone
/// in a small driver, fails in nvcc or ptxas. Needs `../shared/tools/nvcc`.
#[test]
fn own_source_agrees_with_nvcc_and_ptxas() {
    let nvcc = repo().join("../shared/tools/nvcc");
    if !nvcc.exists() || cccl_include().is_none() {
        return absent("../shared/tools/nvcc (with its toolkit)");
    }
    let src = std::fs::read_to_string(data("mixed.cu")).expect("mixed.cu");
    let checked = inline_asm::check_source(src.as_bytes(), &["sm_90a".to_string()]);
    let dir = std::env::temp_dir().join(format!("ptxkit-asm-nvcc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let compiles = |name: &str, text: &str| -> bool {
        let cu = dir.join(name);
        std::fs::write(&cu, text).unwrap();
        std::process::Command::new(&nvcc)
            .args(["-cubin", "-arch=sm_90a", "-o"])
            .arg(dir.join("out.cubin"))
            .arg(&cu)
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    // The valid part: everything before `broken`, less the skipped line.
    let head: String = src
        .split("__device__ int broken")
        .next()
        .unwrap()
        .lines()
        .filter(|l| !l.contains("PTX_TYPE \";\""))
        .map(|l| format!("{l}\n"))
        .collect();
    let driver = format!(
        "{head}__global__ void k(int* o) {{ o[0] = valid_forms(o[1], o[2], 1.f, 2.0, 3, (unsigned long long)o); FENCE(); }}\n"
    );
    assert!(
        compiles("valid.cu", &driver),
        "nvcc + ptxas reject the valid statements"
    );
    let mut rejected = 0;
    for c in &checked {
        if !matches!(c.verdict, Verdict::Invalid { .. }) {
            continue;
        }
        let s = c.statement.span;
        let stmt = &src[s.start as usize..s.end as usize];
        let driver = format!(
            "#define PTX_TYPE \".u32\"\n__device__ int g(int a, int b, unsigned long long p) {{ int c = 0;\n{stmt};\nreturn c; }}\n\
             __global__ void k(int* o) {{ o[0] = g(o[1], o[2], (unsigned long long)o); }}\n"
        );
        assert!(!compiles("bad.cu", &driver), "nvcc + ptxas accept:\n{stmt}");
        rejected += 1;
    }
    assert_eq!(rejected, 9);
    let _ = std::fs::remove_dir_all(&dir);
}

// ------------------------------------------------- real projects (ignored)

/// The measurement of `docs/inline-asm.md` on projects fetched by hand:
/// `PTXKIT_ASM_PROJECTS="name=dir[,dir...];name=dir..."` (each dir is
/// searched and given as an include directory). For each project: the
/// statements found, checked, skipped and not compiled, every rejection
/// re-checked with `ptxas` (`../shared/tools/ptxas`, or `PTXKIT_PTXAS`) on
/// the statement's module for the target it was reported for, and seeded
/// mutants (the four kinds above plus a guard mutant: an instruction valid
/// only on a target the statement's guard excludes) checked in their file.
/// `cargo test --workspace --test inline_asm -- --ignored real_projects --nocapture`
#[test]
#[ignore = "needs projects fetched by hand: PTXKIT_ASM_PROJECTS"]
fn real_projects() {
    let Some(spec) = std::env::var_os("PTXKIT_ASM_PROJECTS") else {
        println!("note: PTXKIT_ASM_PROJECTS not set; test skipped");
        return;
    };
    let ptxas = std::env::var_os("PTXKIT_PTXAS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("../shared/tools/ptxas"));
    let per_kind: usize = std::env::var("PTXKIT_ASM_MUTANTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let tmp = std::env::temp_dir().join(format!("ptxkit-asm-real-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut totals = [0usize; 8];
    let mut unconfirmed_all = Vec::new();
    let mut mut_total = (0usize, 0usize, [(0usize, 0usize); 5]);
    println!("| project | files | found | checked | skipped | not compiled | rejected | confirmed by ptxas |");
    for entry in spec.to_string_lossy().split(';').filter(|s| !s.is_empty()) {
        let (name, dirs) = entry.split_once('=').unwrap_or((entry, entry));
        let dirs: Vec<PathBuf> = dirs.split(',').map(PathBuf::from).collect();
        let mut files = Vec::new();
        for d in &dirs {
            sources(d, &mut files);
        }
        files.sort();
        let (mut found, mut checked, mut skipped, mut not_compiled, mut rejected, mut confirmed) =
            (0, 0, 0, 0, 0, 0);
        let mut pool = Vec::new();
        for f in &files {
            let src = std::fs::read(f).unwrap();
            let opts = inline_asm::Options {
                path: Some(f.clone()),
                include_dirs: dirs.clone(),
                ..Default::default()
            };
            let fc = inline_asm::check_file(&src, &opts);
            let index = LineIndex::new(&src);
            not_compiled += fc.not_compiled.len();
            found += fc.not_compiled.len() + fc.checked.len();
            for c in fc.checked {
                match &c.verdict {
                    Verdict::Skipped { diagnostic } => {
                        skipped += 1;
                        let lc = index.line_col(diagnostic.span.start);
                        println!(
                            "  skipped {}:{}: {}",
                            f.display(),
                            lc.line,
                            diagnostic.message
                        );
                    }
                    Verdict::Valid { .. } => {
                        checked += 1;
                        if c.expanded.is_empty() && !c.statement.in_macro && c.variants == 1 {
                            pool.push((f.clone(), c));
                        }
                    }
                    Verdict::Invalid {
                        closest,
                        diagnostics,
                    } => {
                        checked += 1;
                        rejected += 1;
                        let target = closest
                            .clone()
                            .or_else(|| c.guard.checked_for.last().cloned())
                            .unwrap_or_else(|| "sm_90a".into());
                        let stmt = c.rejected.as_deref().unwrap_or(&c.statement);
                        let lc = index.line_col(c.statement.keyword.start);
                        let first = diagnostics
                            .iter()
                            .find(|d| d.is_error())
                            .map(|d| d.message.clone())
                            .unwrap_or_default();
                        // Operand-number and constraint errors are nvcc's,
                        // not ptxas's: confirmed by the code alone.
                        let by_nvcc = diagnostics
                            .iter()
                            .any(|d| matches!(d.code.as_str(), "E0901" | "E0902" | "E0903"));
                        let ok = by_nvcc
                            || inline_asm::fragment_ptx(stmt, &target).is_some_and(|ptx| {
                                let p = tmp.join("f.ptx");
                                std::fs::write(&p, ptx).unwrap();
                                std::process::Command::new(&ptxas)
                                    .arg(format!("-arch={target}"))
                                    .arg(&p)
                                    .args(["-o", "/dev/null"])
                                    .output()
                                    .is_ok_and(|o| !o.status.success())
                            });
                        if ok {
                            confirmed += 1;
                        } else {
                            unconfirmed_all.push(format!("{}:{}: {first}", f.display(), lc.line));
                        }
                        println!(
                            "  rejected{} {}:{} ({target}): {first}",
                            if ok { "" } else { " UNCONFIRMED" },
                            f.display(),
                            lc.line
                        );
                    }
                }
            }
        }
        println!(
            "| {name} | {} | {found} | {checked} | {skipped} | {not_compiled} | {rejected} | {confirmed} |",
            files.len()
        );
        for (k, v) in [
            files.len(),
            found,
            checked,
            skipped,
            not_compiled,
            rejected,
            confirmed,
            0,
        ]
        .into_iter()
        .enumerate()
        {
            totals[k] += v;
        }
        let m = context_mutants(&pool, &dirs, per_kind);
        println!(
            "  mutants: {} reported on the mutated line of {} ({:?})",
            m.1, m.0, m.2
        );
        mut_total.0 += m.0;
        mut_total.1 += m.1;
        for k in 0..5 {
            mut_total.2[k].0 += m.2[k].0;
            mut_total.2[k].1 += m.2[k].1;
        }
    }
    println!(
        "total: {} files, {} found, {} checked, {} skipped ({:.2}%), {} not compiled, {} rejected, {} confirmed by ptxas or nvcc's rules",
        totals[0],
        totals[1],
        totals[2],
        totals[3],
        100.0 * totals[3] as f64 / totals[1].max(1) as f64,
        totals[4],
        totals[5],
        totals[6]
    );
    println!(
        "mutants: {} of {} reported on the mutated line ({:.1}%); by kind (opcode, type, operand count, constraint, guard): {:?}",
        mut_total.1,
        mut_total.0,
        100.0 * mut_total.1 as f64 / mut_total.0.max(1) as f64,
        mut_total.2
    );
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        unconfirmed_all.is_empty(),
        "rejections ptxas accepts:\n{}",
        unconfirmed_all.join("\n")
    );
}

/// A guard mutant: an instruction valid only on a target the statement's
/// guard excludes, written at the start of its template.
fn guard_mutant(src: &[u8], c: &Checked) -> Option<(Vec<u8>, usize)> {
    let Template::Literal(t) = &c.statement.template else {
        return None;
    };
    let g = &c.guard.compiled_for;
    let insert: &[u8] = if !g.iter().any(|t| t == "sm_90a") {
        b"wgmma.fence.sync.aligned; "
    } else if !g.iter().any(|t| t == "sm_100a") {
        b"tcgen05.fence::before_thread_sync; "
    } else {
        return None;
    };
    let pos = *t.from.first()? as usize;
    if src.get(pos) != t.bytes.first() {
        return None;
    }
    let mut out = src.to_vec();
    out.splice(pos..pos, insert.iter().copied());
    Some((out, pos))
}

/// Mutants of valid statements checked inside their own file (so their
/// guards apply): (made, reported on the mutated line, per kind).
fn context_mutants(
    pool: &[(PathBuf, Checked)],
    dirs: &[PathBuf],
    per_kind: usize,
) -> (usize, usize, [(usize, usize); 5]) {
    let mut r = (0, 0, [(0, 0); 5]);
    let n = pool.len();
    if n == 0 {
        return r;
    }
    for kind in 0..5 {
        let stride = (n / per_kind).max(1);
        let (mut made, mut k, mut tried) = (0, kind, 0);
        while made < per_kind && tried < n {
            let (f, c) = &pool[k % n];
            k += stride;
            tried += 1;
            let src = std::fs::read(f).unwrap();
            let base = c.statement.span.start as usize;
            let mutated = if kind == 4 {
                guard_mutant(&src, c)
            } else {
                mutate(&src, &c.statement, kind).map(|(text, pos)| {
                    let mut out = src[..base].to_vec();
                    out.extend(&text);
                    out.extend(&src[c.statement.span.end as usize..]);
                    (out, base + pos)
                })
            };
            let Some((text, pos)) = mutated else {
                continue;
            };
            made += 1;
            let line = text[..pos].iter().filter(|&&b| b == b'\n').count() as u32 + 1;
            let index = LineIndex::new(&text);
            let opts = inline_asm::Options {
                path: Some(f.clone()),
                include_dirs: dirs.to_vec(),
                ..Default::default()
            };
            let fc = inline_asm::check_file(&text, &opts);
            let covers = |s: ptxkit::Span| {
                index.line_col(s.start).line <= line
                    && line <= index.line_col(s.end.max(s.start + 1) - 1).line
            };
            let hit = fc.checked.iter().any(|x| {
                x.statement.keyword.start == c.statement.keyword.start
                    && match &x.verdict {
                        Verdict::Invalid { diagnostics, .. } => diagnostics.iter().any(|d| {
                            d.is_error()
                                && (covers(d.span) || d.labels.iter().any(|l| covers(l.span)))
                        }),
                        _ => false,
                    }
            });
            r.0 += 1;
            r.2[kind].0 += 1;
            if hit {
                r.1 += 1;
                r.2[kind].1 += 1;
            } else if std::env::var_os("PTXKIT_MUTANT_LOG").is_some() {
                println!("  missed kind {kind} {}:{line}", f.display());
            }
        }
    }
    r
}

// ------------------------------------- preprocessor and macros (issue #43)

fn check_with(src: &str, targets: &[&str]) -> inline_asm::FileCheck {
    inline_asm::check_file(
        src.as_bytes(),
        &inline_asm::Options {
            targets: targets.iter().map(|t| t.to_string()).collect(),
            ..Default::default()
        },
    )
}

fn errors_of(c: &Checked) -> Vec<ptxkit::Diagnostic> {
    match &c.verdict {
        Verdict::Invalid { diagnostics, .. } => diagnostics.clone(),
        _ => Vec::new(),
    }
}

fn line_of(src: &str, at: u32) -> u32 {
    LineIndex::new(src.as_bytes()).line_col(at).line
}

#[test]
fn cuda_arch_guards_pick_the_targets() {
    let src = "__device__ void f() {\n\
#if __CUDA_ARCH__ < 900\n\
  asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");\n\
#elif __CUDA_ARCH__ >= 1000\n\
  asm volatile(\"tcgen05.fence::before_thread_sync;\" ::: \"memory\");\n\
#else\n\
  asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");\n\
#endif\n\
}\n";
    let fc = check_with(src, &[]);
    assert_eq!(fc.checked.len(), 3);
    let [old, new, hopper] = &fc.checked[..] else {
        panic!()
    };
    // Only sm_90a has wgmma: the first branch, compiled below 900, is an
    // error naming the guard.
    assert!(old.guard.compiled_for.iter().all(|t| t.as_str() < "sm_90"));
    assert_eq!(old.guard.conditions, ["#if __CUDA_ARCH__ < 900"]);
    let e = errors_of(old);
    assert_eq!(line_of(src, e[0].span.start), 3);
    assert!(
        e[0].notes
            .iter()
            .any(|n| n.contains("valid only for sm_90a")
                && n.contains("this branch is compiled for sm_10..sm_89")
                && n.contains("`#if __CUDA_ARCH__ < 900`")),
        "{:?}",
        e[0].notes
    );
    // tcgen05 is for the 100-family `a`/`f` targets, all >= 1000.
    assert!(
        matches!(&new.verdict, Verdict::Valid { targets } if targets.iter().all(|t| t.as_str() >= "sm_100"))
    );
    assert!(new
        .guard
        .compiled_for
        .iter()
        .all(|t| t.as_str() >= "sm_100"));
    // The #else: 900 <= arch < 1000.
    assert!(matches!(&hopper.verdict, Verdict::Valid { targets } if targets[..] == ["sm_90a"]));
    assert_eq!(hopper.guard.compiled_for[..], ["sm_90", "sm_90a"]);
    // With only sm_80 selected, the last two are not compiled at all.
    let fc = check_with(src, &["sm_80"]);
    assert_eq!(fc.checked.len(), 1);
    assert_eq!(fc.not_compiled.len(), 2);
}

#[test]
fn feature_macros_and_versions() {
    let src = "\
#ifdef __CUDA_ARCH_FEAT_SM90_ALL\n\
asm(\"wgmma.fence.sync.aligned;\");\n\
#endif\n\
#if defined(__CUDA_ARCH_SPECIFIC__) && __CUDA_ARCH_SPECIFIC__ == 1000\n\
asm(\"tcgen05.fence::before_thread_sync;\");\n\
#endif\n\
#if __CUDA_ARCH_FAMILY_SPECIFIC__ >= 1000 && __CUDA_ARCH__ < 1100\n\
asm(\"membar.gl;\");\n\
#endif\n\
#if __CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 8)\n\
asm(\"membar.sys;\");\n\
#endif\n\
#if __CUDACC_VER_MAJOR__ < 12\n\
asm(\"membar.cta;\");\n\
#endif\n";
    let fc = check_with(src, &[]);
    let g: Vec<Vec<String>> = fc
        .checked
        .iter()
        .map(|c| c.guard.compiled_for.to_vec())
        .collect();
    assert_eq!(g[0], ["sm_90a"]);
    assert_eq!(g[1], ["sm_100a"]);
    assert!(g[2].iter().all(|t| t.ends_with('a') || t.ends_with('f')));
    assert!(g[2].contains(&"sm_103f".to_string()) && !g[2].contains(&"sm_110f".to_string()));
    assert_eq!(g[3].len(), inline_asm::all_targets().len());
    assert!(fc.checked.iter().all(|c| c.verdict.status() == "valid"));
    assert_eq!(fc.not_compiled.len(), 1);
}

#[test]
fn host_and_other_platforms_are_not_ptx() {
    let src = "\
#ifndef __CUDA_ARCH__\n\
asm(\"rdtsc\" : \"=A\"(t));\n\
#endif\n\
#if defined(__HIP_PLATFORM_AMD__) || defined(GGML_USE_HIP)\n\
asm volatile(\"s_waitcnt lgkmcnt(0)\" ::: \"memory\");\n\
#elif defined(__PPC__)\n\
asm(\"sync\");\n\
#else\n\
asm(\"membar.gl;\");\n\
#endif\n\
#if !defined(__CUDACC__)\n\
asm(\"pause\");\n\
#endif\n";
    let fc = check_with(src, &[]);
    assert_eq!(fc.checked.len(), 1);
    assert_eq!(fc.checked[0].verdict.status(), "valid");
    assert_eq!(fc.not_compiled.len(), 4);
    assert!(fc.not_compiled[0].reason.contains("host pass only"));
    assert_eq!(
        fc.not_compiled[1].guard.assumed_undefined,
        ["GGML_USE_HIP"],
        "an identifier no source defines is taken as undefined"
    );
    // -D decides otherwise.
    let fc = inline_asm::check_file(
        src.as_bytes(),
        &inline_asm::Options {
            defines: vec![("GGML_USE_HIP".into(), "1".into())],
            ..Default::default()
        },
    );
    assert_eq!(fc.checked.len(), 1);
    assert_eq!(fc.checked[0].verdict.status(), "invalid");
}

#[test]
fn branches_inside_a_statement_are_read_per_target() {
    let src = "__device__ void f(int* p) {\n\
  asm volatile(\n\
#if __CUDA_ARCH__ >= 900\n\
    \"wgmma.fence.sync.aligned;\\n\"\n\
#else\n\
    \"membar.gl;\\n\"\n\
#endif\n\
    ::: \"memory\");\n\
  asm volatile(\n\
#if __CUDA_ARCH__ >= 900\n\
    \"membar.gl;\\n\"\n\
#else\n\
    \"wgmma.fence.sync.aligned;\\n\"\n\
#endif\n\
    ::: \"memory\");\n\
}\n";
    let fc = check_with(src, &[]);
    assert_eq!(fc.checked[0].variants, 2);
    assert_eq!(fc.checked[0].verdict.status(), "valid");
    // The second puts wgmma where no target has it.
    let e = errors_of(&fc.checked[1]);
    assert_eq!(line_of(src, e[0].span.start), 13);
    assert!(e[0]
        .notes
        .iter()
        .any(|n| n.contains("valid only for sm_90a")));
}

#[test]
fn undecidable_conditions_check_every_branch() {
    let src = "#define HAS(x) x\n\
#if HAS(1)\n\
asm(\"membar.gl;\");\n\
#else\n\
asm(\"membar.gll;\");\n\
#endif\n";
    let fc = check_with(src, &["sm_90"]);
    assert_eq!(fc.checked.len(), 2);
    assert!(!fc.checked[0].guard.undecidable.is_empty());
    assert!(fc.checked[0]
        .notes
        .iter()
        .any(|n| n.contains("could not be decided")));
    assert_eq!(fc.checked[1].verdict.status(), "invalid");
}

#[test]
fn macros_expand_in_templates_and_constraints() {
    let src = r#"#define LD_NC "ld.global.nc"
#define STR(x) #x
#define CAT(a, b) a##b
#define TWO "add.s32 %0, %0, 1;" "\n\t"
#define PTR_C "l"
#define RC(size) RC_##size
#define RC_4 "r"
#define LDX(space) asm volatile("ld." #space ".b32 %0, [%1];" : "=r"(x) : "l"(p))
__device__ void f(int* p, int x) {
  asm volatile(LD_NC ".b32 %0, [%1];" : "=r"(x) : PTR_C(p));
  asm volatile("ld." STR(shared) ".b32 %0, [%1];" : "=" RC(4)(x) : "r"(p));
  asm volatile(CAT("ld.glo", "bal.b32 %0, [%1];") : "=r"(x) : "l"(p));
  asm volatile(TWO TWO : "+r"(x));
  asm volatile(LD_NC ".b23 %0, [%1];" : "=r"(x) : "l"(p));
  LDX(global);
  LDX(globl);
}
"#;
    let fc = check_with(src, &["sm_90"]);
    let st: Vec<&str> = fc.checked.iter().map(|c| c.verdict.status()).collect();
    assert_eq!(
        st,
        ["valid", "valid", "valid", "valid", "invalid", "valid", "invalid"]
    );
    assert_eq!(fc.checked[0].expanded, ["LD_NC", "PTR_C"]);
    assert_eq!(fc.checked[1].expanded, ["STR", "RC", "RC_4"]);
    // The error in a template partly from a macro is on its own literal.
    let e = errors_of(&fc.checked[4]);
    assert_eq!(line_of(src, e[0].span.start), 14);
    // A bad argument of a macro writing an asm statement: the error runs
    // from the macro's `"ld."` to the argument at the call.
    let e = errors_of(&fc.checked[6]);
    assert_eq!(line_of(src, e[0].span.start), 8);
    assert_eq!(line_of(src, e[0].span.end - 1), 16);
}

#[test]
fn macros_come_from_headers_through_include_dirs() {
    let dir = std::env::temp_dir().join(format!("ptxkit-asm-inc-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("inc/sub")).unwrap();
    std::fs::write(
        dir.join("inc/sub/defs.h"),
        "#pragma once\n#include \"more.h\"\n#define LD_OP \"ld.global\" SUFFIX\n",
    )
    .unwrap();
    std::fs::write(dir.join("inc/sub/more.h"), "#define SUFFIX \".nc\"\n").unwrap();
    std::fs::write(
        dir.join("k.cu"),
        "#include <sub/defs.h>\n__device__ void f(int* p, int x) {\n  asm(LD_OP \".b32 %0, [%1];\" : \"=r\"(x) : \"l\"(p));\n}\n",
    )
    .unwrap();
    let src = std::fs::read(dir.join("k.cu")).unwrap();
    let run = |inc: Vec<PathBuf>| {
        inline_asm::check_file(
            &src,
            &inline_asm::Options {
                path: Some(dir.join("k.cu")),
                include_dirs: inc,
                targets: vec!["sm_90".into()],
                ..Default::default()
            },
        )
    };
    let without = run(Vec::new());
    assert_eq!(without.checked[0].verdict.status(), "skipped");
    let with = run(vec![dir.join("inc")]);
    assert_eq!(with.checked[0].verdict.status(), "valid");
    assert_eq!(with.checked[0].expanded, ["LD_OP", "SUFFIX"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn n_operands_read_constexpr_constants_and_template_defaults() {
    let src = "static constexpr int kRegs = 240;\n\
constexpr int kBad = 241;\n\
template <int N = 232, int M = 8> __device__ void f() {\n\
  asm volatile(\"setmaxnreg.inc.sync.aligned.u32 %0;\" :: \"n\"(kRegs));\n\
  asm volatile(\"setmaxnreg.inc.sync.aligned.u32 %0;\" :: \"n\"(kBad));\n\
  asm volatile(\"setmaxnreg.inc.sync.aligned.u32 %0;\" :: \"n\"(N));\n\
  asm volatile(\"setmaxnreg.inc.sync.aligned.u32 %0;\" :: \"n\"(kRegs - M * 2));\n\
  asm volatile(\"setmaxnreg.inc.sync.aligned.u32 %0;\" :: \"n\"(Unknown));\n\
}\n";
    let fc = check_with(src, &["sm_90a"]);
    let st: Vec<&str> = fc.checked.iter().map(|c| c.verdict.status()).collect();
    assert_eq!(st, ["valid", "invalid", "valid", "valid", "valid"]);
    let v: Vec<Option<i128>> = fc
        .checked
        .iter()
        .map(|c| c.statement.inputs[0].value)
        .collect();
    assert_eq!(v, [Some(240), Some(241), Some(232), Some(224), None]);
    // Unknown: a value that makes it valid is tried, and said.
    assert!(fc.checked[4].notes.iter().any(|n| n.contains("not known")));
}

#[path = "support/self_referring_macros.rs"]
mod self_referring;
use self_referring::self_referring_macros;

/// The fuzzer's C++ whose function-like macro names itself through a
/// parameter (`fuzz/regressions/inline-asm-self-referring-macros.cu`),
/// repeated: its macro expansions hit the bounds at every use. Each
/// argument is expanded once now, and the file's expansions share one
/// budget: the first expansion given up is reported once (E0906), and a
/// statement written out after them is still checked. Before, 400 copies
/// (121 KB) took 36 s.
#[test]
fn macro_expansions_are_bounded_per_file() {
    let mut src = self_referring_macros(200);
    src.extend_from_slice(
        b"\n__device__ void last(int y) {\n  asm(\"add.s33 %0, %0, 1;\" : \"+r\"(y));\n}\n",
    );
    let t = std::time::Instant::now();
    let checked = inline_asm::check_source(&src, &["sm_90".into()]);
    let took = t.elapsed();
    let codes = |code: &str| {
        checked
            .iter()
            .flat_map(|c| c.verdict.diagnostics(1))
            .filter(|d| d.code.as_str() == code)
            .count()
    };
    assert_eq!(
        codes("E0906"),
        1,
        "the expansions given up are reported once"
    );
    let last = checked.last().expect("the statement written out is found");
    assert!(
        matches!(&last.verdict, Verdict::Invalid { .. }),
        "the statement after the macros is checked: {:?}",
        last.verdict
    );
    // 36 s before in a release build; generous for a debug one.
    assert!(took.as_secs() < 20, "{took:?}");
}

/// A statement in a macro's body is reported at the body, which every
/// invocation shares: each report is labelled with its invocation, so
/// three invocations of one wrong macro give three reports told apart
/// (they were three identical ones), and an `asm` written in a macro's
/// arguments, already placed at the invocation, gets no such label.
#[test]
fn reports_from_a_macro_body_name_their_invocation() {
    let src = b"#define BAD(x, y) asm volatile(\"add.s32 %0, %1;\" : \"=r\"(x) : \"r\"(y))\n\
#define WRAP(s) do { s; } while (0)\n\
__device__ void f(int *a) {\n\
  int x, y = a[0];\n\
  BAD(x, y);\n\
  BAD(x, y);\n\
  WRAP(asm(\"add.s32 %0, %1;\" : \"=r\"(x) : \"r\"(y)));\n\
  BAD(x, y);\n\
}\n";
    let checked = inline_asm::check_source(src, &["sm_90".into()]);
    let line_of = |at: u32| {
        src.get(..at as usize)
            .map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count() + 1)
    };
    let mut from_body = Vec::new();
    let mut from_args = 0;
    for d in checked.iter().flat_map(|c| c.verdict.diagnostics(1)) {
        match line_of(d.span.start) {
            1 => {
                assert_eq!(d.labels.len(), 1, "{d:?}");
                assert_eq!(d.labels[0].message, "in the expansion of `BAD` here");
                from_body.push(line_of(d.labels[0].span.start));
            }
            7 => {
                assert!(d.labels.is_empty(), "{d:?}");
                from_args += 1;
            }
            other => panic!("a report on line {other}: {d:?}"),
        }
    }
    assert_eq!(from_body, [5, 6, 8]);
    assert_eq!(from_args, 1);
}
