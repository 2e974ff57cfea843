//! `ptx cfg`: the control-flow graph of a function: blocks, edges,
//! dominators and loops, as a table, JSON or Graphviz DOT.

use std::path::PathBuf;

use ptxkit::analysis::dot::{cfg_dot, cfgs_dot};
use ptxkit::analysis::flow::FlowReport;
use ptxkit::syntax::Function;

use crate::out::{self, style, Align, Table};

/// Arguments of `ptx cfg`.
#[derive(clap::Args)]
pub struct Args {
    /// The file; `-` reads stdin.
    pub path: PathBuf,
    /// The function (exact name, or a part of it that names only one);
    /// every function with a body when left out.
    pub name: Option<String>,
    /// Print Graphviz DOT, one digraph (render with `dot -Tsvg`): the named
    /// function's, or every function as a cluster of one graph.
    #[arg(long, conflicts_with = "json")]
    pub dot: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    let l = out::load(&a.path)?;
    let fs: Vec<&Function> = match &a.name {
        Some(n) => vec![l.function(n)?],
        None => l
            .parsed
            .module
            .functions()
            .filter(|f| f.body.is_some())
            .collect(),
    };
    let reports: Vec<FlowReport> = fs.iter().map(|f| FlowReport::build(f, &l.lines)).collect();
    if a.json {
        if a.name.is_some() {
            if let Some(r) = reports.first() {
                out::json(r);
            }
        } else {
            out::json(&reports);
        }
    } else if a.dot {
        match (&a.name, reports.as_slice()) {
            (Some(_), [r]) => out::print(&cfg_dot(r)),
            _ => out::print(&cfgs_dot(&l.input.name, &reports)),
        }
    } else {
        let on = out::color();
        let text: Vec<String> = reports.iter().map(|r| render(r, on)).collect();
        out::print(&text.join("\n"));
    }
    Ok(l.status())
}

/// The human-readable report of one function.
pub fn render(r: &FlowReport, on: bool) -> String {
    let mut s = String::new();
    let depth = r.loops.iter().map(|l| l.depth).max().unwrap_or(0);
    let flow = if r.irreducible_edges.is_empty() {
        "reducible".to_string()
    } else {
        out::paint(
            &format!(
                "irreducible ({})",
                out::count(r.irreducible_edges.len() as u64, "edge")
            ),
            style::WARN,
            on,
        )
    };
    s.push_str(&format!(
        "{}: {}, {}, {}{}, {flow}\n",
        out::title(&r.function, on),
        out::count(r.blocks.len() as u64, "block"),
        out::count(r.edges.len() as u64, "edge"),
        out::count(r.loops.len() as u64, "loop"),
        if depth > 0 {
            format!(" (max depth {depth})")
        } else {
            String::new()
        }
    ));
    let mut t = Table::new(&[
        ("block", Align::Right),
        ("label", Align::Left),
        ("lines", Align::Left),
        ("insts", Align::Right),
        ("idom", Align::Right),
        ("loop", Align::Right),
        ("successors", Align::Left),
    ]);
    // Edges by source block, gathered once (time linear in the graph).
    let mut out_edges: Vec<Vec<&ptxkit::analysis::cfg::Edge>> = vec![Vec::new(); r.blocks.len()];
    for e in &r.edges {
        if let Some(v) = out_edges.get_mut(e.from) {
            v.push(e);
        }
    }
    for b in &r.blocks {
        let succ: Vec<String> = out_edges
            .get(b.id)
            .map(|v| v.as_slice())
            .unwrap_or_default()
            .iter()
            .map(|e| {
                let to = e.to.map_or("exit".to_string(), |t| t.to_string());
                let back = e.to.is_some_and(|t| r.is_back_edge(b.id, t));
                format!(
                    "{to} ({}{})",
                    e.kind.as_str(),
                    if back { ", back" } else { "" }
                )
            })
            .collect();
        let idom = match r.idom.get(b.id).copied().flatten() {
            Some(d) => d.to_string(),
            None if b.id == r.entry => "-".into(),
            None => "unreachable".into(),
        };
        t.row([
            b.id.to_string(),
            b.label.clone(),
            format!("{}-{}", b.first_line, b.last_line),
            b.instructions.to_string(),
            idom,
            r.loop_depth.get(b.id).copied().unwrap_or(0).to_string(),
            succ.join(", "),
        ]);
    }
    s.push_str(&t.render("  ", on));
    s.push_str(&format!(
        "  reverse post-order: {}\n",
        r.rpo
            .iter()
            .map(|b| b.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    ));
    for l in &r.loops {
        let label = r.blocks.get(l.header).map_or("", |b| b.label.as_str());
        s.push_str(&format!(
            "  loop at block {} ({label}): depth {}, size {}, own blocks {}, back edges from {}\n",
            l.header,
            l.depth,
            l.size,
            l.own_blocks
                .iter()
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
                .join(","),
            l.latches
                .iter()
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
                .join(",")
        ));
    }
    for (a, b) in &r.irreducible_edges {
        s.push_str(&format!(
            "  {}\n",
            out::paint(
                &format!(
                    "irreducible: edge {a} -> {b} enters a cycle its target does not dominate"
                ),
                style::WARN,
                on
            )
        ));
    }
    if !r.unresolved_targets.is_empty() {
        s.push_str(&format!(
            "  unresolved branch targets: {}\n",
            r.unresolved_targets.join(", ")
        ));
    }
    if r.omitted_edges > 0 {
        s.push_str(&format!(
            "  {}\n",
            out::paint(
                &format!(
                    "{} left out: brx.idx instructions that share .branchtargets lists make more \
                     edges than the graph's budget (docs/limits.md)",
                    out::count(r.omitted_edges as u64, "brx.idx edge")
                ),
                style::WARN,
                on
            )
        ));
    }
    s
}
