//! Every analysis on every ptxas-accepted file of ../shared/corpus (and the
//! repository's examples): nothing panics, and the results are consistent
//! (edges in range, dominators dominate, loop headers dominate their loops,
//! every instruction in exactly one block, diff of a module with itself
//! empty). Skips the corpus with a note when ../shared is absent.
//!
//! The `#[ignore]`d test renders the DOT of every function's CFG with
//! graphviz: `cargo test -p ptxkit --test analyses -- --ignored`.
// Tests fail by panicking: the workspace's no-panic lints are for library code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod common;

use std::path::PathBuf;

use common::{corpus_rows, shared_dir};
use ptxkit::analysis::callgraph::CallGraph;
use ptxkit::analysis::diff::{diff_modules, Side};
use ptxkit::analysis::dom::Dominators;
use ptxkit::analysis::dot::{callgraph_dot, cfg_dot};
use ptxkit::analysis::flow::FlowReport;
use ptxkit::analysis::functions::functions;
use ptxkit::analysis::grep::{grep_module, Pattern};
use ptxkit::analysis::resources::resources;
use ptxkit::analysis::stats::{module_stats, StatsKey};
use ptxkit::LineIndex;

fn accepted_files() -> Option<Vec<PathBuf>> {
    let rows = corpus_rows()?;
    let dir = shared_dir()?.join("corpus");
    Some(
        rows.iter()
            .filter(|r| r.verdict == "accept")
            .map(|r| dir.join(&r.path))
            .collect(),
    )
}

fn example_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|x| x == "ptx"));
    v.sort();
    v
}

/// Run every analysis on one file; return problems found.
fn check_file(path: &std::path::Path, patterns: &[Pattern]) -> Vec<String> {
    let name = path.display().to_string();
    let mut problems = Vec::new();
    let Ok(src) = std::fs::read(path) else {
        return vec![format!("{name}: cannot read")];
    };
    let parsed = ptxkit::parse(&src);
    if parsed.has_errors() {
        return vec![format!("{name}: parse errors")];
    }
    let m = &parsed.module;
    let lines = LineIndex::new(&src);
    let cg = CallGraph::build(m, &lines);
    let _ = callgraph_dot(&cg);
    for e in &cg.edges {
        if e.from >= cg.nodes.len() || e.to >= cg.nodes.len() {
            problems.push(format!("{name}: call edge out of range"));
        }
    }
    let fs = functions(m, &lines, &cg);
    let defined = m.functions().filter(|f| f.body.is_some()).count();
    if fs.iter().filter(|f| !f.declaration).count() > defined {
        problems.push(format!("{name}: more functions listed than defined"));
    }
    for f in m.functions().filter(|f| f.body.is_some()) {
        let fname = format!("{name}: {}", f.name);
        let r = FlowReport::build(f, &lines);
        let _ = cfg_dot(&r);
        let n = r.blocks.len();
        let insts: usize = r.blocks.iter().map(|b| b.instructions).sum();
        let body = f.body.as_ref().map_or(0, |b| b.instructions().len());
        if insts != body {
            problems.push(format!(
                "{fname}: blocks hold {insts} of {body} instructions"
            ));
        }
        if r.edges
            .iter()
            .any(|e| e.from >= n || e.to.is_some_and(|t| t >= n))
        {
            problems.push(format!("{fname}: edge out of range"));
        }
        let mut succs = vec![Vec::new(); n];
        for e in &r.edges {
            if let Some(t) = e.to {
                if !succs[e.from].contains(&t) {
                    succs[e.from].push(t);
                }
            }
        }
        let dom = Dominators::compute(&succs, r.entry);
        for b in 0..n {
            if let Some(d) = r.idom[b] {
                if !dom.dominates(d, b) || !dom.dominates(r.entry, b) {
                    problems.push(format!("{fname}: idom of {b} does not dominate it"));
                }
            }
        }
        for l in &r.loops {
            if l.own_blocks.iter().any(|&b| !dom.dominates(l.header, b)) {
                problems.push(format!(
                    "{fname}: loop header {} does not dominate its body",
                    l.header
                ));
            }
        }
        if r.rpo.len() + r.unreachable.len() != n {
            problems.push(format!(
                "{fname}: rpo and unreachable do not cover the blocks"
            ));
        }
    }
    let res = resources(m, &lines, None);
    if res.len() != defined {
        problems.push(format!(
            "{name}: resources for {} of {defined} functions",
            res.len()
        ));
    }
    for key in [StatsKey::Opcode, StatsKey::Family, StatsKey::Modifier] {
        let s = module_stats(m, key);
        let total: usize = m
            .functions()
            .filter_map(|f| f.body.as_ref())
            .map(|b| b.instructions().len())
            .sum();
        if s.total.total as usize != total {
            problems.push(format!("{name}: stats count {} of {total}", s.total.total));
        }
    }
    for p in patterns {
        let _ = grep_module(m, &lines, p);
    }
    let d = diff_modules(
        Side {
            module: m,
            src: &src,
        },
        Side {
            module: m,
            src: &src,
        },
    );
    if !d.is_empty() {
        problems.push(format!("{name}: diff with itself is not empty"));
    }
    problems
}

fn patterns() -> Vec<Pattern> {
    [
        "ld.global.*.v4",
        "wgmma.*",
        "atom.*.cas",
        "*.shared::cluster",
        "bar.sync$",
        "*",
    ]
    .iter()
    .filter_map(|p| Pattern::parse(p).ok())
    .collect()
}

#[test]
fn analyses_run_on_examples() {
    let files = example_files();
    assert!(files.len() >= 8);
    let pats = patterns();
    let problems: Vec<String> = files.iter().flat_map(|f| check_file(f, &pats)).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn analyses_run_on_every_accepted_corpus_file() {
    let Some(files) = accepted_files() else {
        eprintln!("note: ../shared/corpus not found; corpus analyses test skipped");
        return;
    };
    assert!(files.len() >= 1696, "expected the accepted corpus files");
    let pats = patterns();
    // Two threads: the machine has two cores.
    let (a, b) = files.split_at(files.len() / 2);
    let run = |part: &[PathBuf]| -> Vec<String> {
        part.iter().flat_map(|f| check_file(f, &pats)).collect()
    };
    let (pa, pb) = std::thread::scope(|s| {
        let h = s.spawn(|| run(a));
        let pb = run(b);
        (
            h.join().unwrap_or_else(|_| vec!["thread panicked".into()]),
            pb,
        )
    });
    let problems: Vec<String> = pa.into_iter().chain(pb).collect();
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn every_catalog_section_explains() {
    let cat = ptxkit::isa::catalog();
    for s in cat.sections() {
        let e = ptxkit::analysis::explain::explain(s.name);
        let e = e.unwrap_or_else(|err| panic!("{}: {err}", s.name));
        assert!(!e.entries.is_empty(), "{}", s.name);
        assert!(
            e.entries.iter().all(|x| !x.notes.is_empty()),
            "{} has no note",
            s.name
        );
    }
}

/// Render every function's CFG of the corpus (and examples) with graphviz.
#[test]
#[ignore = "needs graphviz `dot`; slow"]
fn cfg_dot_renders_with_graphviz() {
    use std::process::Command;
    let mut files = example_files();
    files.extend(accepted_files().unwrap_or_default());
    let mut functions = 0usize;
    let mut failures = Vec::new();
    let mut laid_out_too_slowly = Vec::new();
    for path in &files {
        let Ok(src) = std::fs::read(path) else {
            continue;
        };
        let parsed = ptxkit::parse(&src);
        let lines = LineIndex::new(&src);
        let mut dot = String::new();
        let mut n = 0;
        for f in parsed.module.functions().filter(|f| f.body.is_some()) {
            dot.push_str(&cfg_dot(&FlowReport::build(f, &lines)));
            n += 1;
        }
        if n == 0 {
            continue;
        }
        // The input through a file: dot writes each graph's SVG before reading the
        // next graph, so feeding a pipe while not reading its output
        // deadlocks; its output is read by a thread while the run is timed.
        let tmp = std::env::temp_dir().join(format!("ptxkit-cfg-{}.dot", std::process::id()));
        std::fs::write(&tmp, &dot).expect("write temp dot file");
        match run_for(Command::new("dot").arg("-Tsvg").arg(&tmp), DOT_BUDGET) {
            Some((ok, stdout, stderr)) => {
                let svgs = stdout.matches("</svg>").count();
                if !ok || svgs != n {
                    failures.push(format!(
                        "{}: {} of {n} graphs rendered: {stderr}",
                        path.display(),
                        svgs
                    ));
                }
            }
            None => {
                // dot's layout of a very large graph (a 10,275-edge CUTLASS
                // kernel: minutes, on some machines more than the budget) is
                // dot's time, not our output's: the file must still be
                // valid DOT of n graphs, which `gc` (graphviz's graph
                // counter) reads without laying it out.
                let counted = Command::new("gc")
                    .arg("-n")
                    .arg(&tmp)
                    .output()
                    .expect("graphviz `gc` not found (it comes with graphviz)");
                let graphs = String::from_utf8_lossy(&counted.stdout)
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .count();
                if !counted.status.success() || graphs < n {
                    failures.push(format!(
                        "{}: dot ran past {DOT_BUDGET:?}, and gc read {graphs} of {n} graphs: {}",
                        path.display(),
                        String::from_utf8_lossy(&counted.stderr)
                    ));
                } else {
                    laid_out_too_slowly.push(path.display().to_string());
                }
            }
        }
        let _ = std::fs::remove_file(&tmp);
        functions += n;
    }
    eprintln!(
        "rendered the CFGs of {functions} functions from {} files",
        files.len()
    );
    if !laid_out_too_slowly.is_empty() {
        eprintln!(
            "note: dot's layout ran past {DOT_BUDGET:?} on {} file(s), checked as DOT by gc only: {}",
            laid_out_too_slowly.len(),
            laid_out_too_slowly.join(", ")
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The time dot may take to lay out one file's graphs.
const DOT_BUDGET: std::time::Duration = std::time::Duration::from_secs(120);

/// Run `cmd` for at most `budget`: whether it succeeded, its standard
/// output and its standard error (read by threads, so that it never waits
/// on a full pipe), or `None` if it was killed at the budget.
fn run_for(
    cmd: &mut std::process::Command,
    budget: std::time::Duration,
) -> Option<(bool, String, String)> {
    use std::io::Read;
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("graphviz `dot` not found: apt-get install graphviz");
    let reader = |p: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut p) = p {
                let _ = p.read_to_string(&mut s);
            }
            s
        })
    };
    let out = reader(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = reader(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait for dot") {
            let out = out.join().unwrap_or_default();
            let err = err.join().unwrap_or_default();
            return Some((status.success(), out, err));
        }
        if start.elapsed() >= budget {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}
