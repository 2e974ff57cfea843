//! `ptx callgraph`: who calls whom, directly or through `.calltargets` and
//! prototypes, with recursion marked.

use std::path::PathBuf;

use ptxkit::analysis::callgraph::{CallGraph, CallKind};
use ptxkit::analysis::dot::callgraph_dot;

use crate::out::{self, style, Align, Table};

/// Arguments of `ptx callgraph`.
#[derive(clap::Args)]
pub struct Args {
    /// The file; `-` reads stdin.
    pub path: PathBuf,
    /// Print Graphviz DOT.
    #[arg(long, conflicts_with = "json")]
    pub dot: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    let l = out::load(&a.path)?;
    let g = CallGraph::build(&l.parsed.module, &l.lines);
    if a.json {
        out::json(&g);
    } else if a.dot {
        out::print(&callgraph_dot(&g));
    } else {
        out::print(&render(&g, out::color()));
    }
    Ok(l.status())
}

/// The human-readable report.
pub fn render(g: &CallGraph, on: bool) -> String {
    let mut s = String::new();
    let name = |i: usize| g.nodes.get(i).map_or("?".into(), |n| out::name(&n.name));
    let mut t = Table::new(&[
        ("caller", Align::Left),
        ("callee", Align::Left),
        ("kind", Align::Left),
        ("via", Align::Left),
        ("calls", Align::Right),
        ("lines", Align::Left),
    ]);
    for e in &g.edges {
        let kind = match e.kind {
            CallKind::Direct => "direct",
            CallKind::Indirect => "indirect",
        };
        let mut kind = kind.to_string();
        if e.recursive {
            kind.push_str(", recursive");
        }
        let kstyle = if e.recursive {
            style::WARN
        } else {
            anstyle::Style::new()
        };
        let mut lines: Vec<String> = e.lines.iter().map(|l| l.to_string()).collect();
        // An indirect edge lists its first calls' lines only.
        if e.calls > e.lines.len() {
            lines.push("…".into());
        }
        t.styled_row(vec![
            (name(e.from).to_string(), style::NAME),
            (name(e.to).to_string(), style::NAME),
            (kind, kstyle),
            (e.via.clone().unwrap_or_default(), anstyle::Style::new()),
            (e.calls.to_string(), anstyle::Style::new()),
            (lines.join(","), style::DIM),
        ]);
    }
    let kernels = g.nodes.iter().filter(|n| n.kernel).count();
    s.push_str(&format!(
        "{} ({}), {}\n",
        out::count(g.nodes.len() as u64, "function"),
        out::count(kernels as u64, "kernel"),
        out::count(g.edges.len() as u64, "call edge")
    ));
    if !t.is_empty() {
        s.push_str(&t.render("  ", on));
    }
    let rec: Vec<_> = g
        .nodes
        .iter()
        .filter(|n| n.recursive)
        .map(|n| out::name(&n.name))
        .collect();
    if !rec.is_empty() {
        s.push_str(&format!(
            "  {} {}\n",
            out::paint("recursive:", style::WARN, on),
            rec.join(", ")
        ));
    }
    let taken: Vec<_> = g
        .nodes
        .iter()
        .filter(|n| n.address_taken)
        .map(|n| out::name(&n.name))
        .collect();
    if !taken.is_empty() {
        s.push_str(&format!("  address taken: {}\n", taken.join(", ")));
    }
    for u in &g.unresolved {
        s.push_str(&format!(
            "  {} in {} at line {}{}\n",
            out::paint("unresolved indirect call", style::WARN, on),
            name(u.from),
            u.line,
            u.via
                .as_deref()
                .map(|v| format!(" (via {v})"))
                .unwrap_or_default()
        ));
    }
    // One pass over the edges (a search of them per function was quadratic:
    // 50,000 functions took 2 s).
    let mut called = vec![false; g.nodes.len()];
    for e in &g.edges {
        if let Some(c) = called.get_mut(e.to) {
            *c = true;
        }
    }
    let roots: Vec<_> = g
        .nodes
        .iter()
        .enumerate()
        .filter(|(i, n)| !n.declaration && !called.get(*i).copied().unwrap_or(false))
        .map(|(_, n)| out::name(&n.name))
        .collect();
    if !roots.is_empty() {
        s.push_str(&format!("  not called here: {}\n", roots.join(", ")));
    }
    s
}
