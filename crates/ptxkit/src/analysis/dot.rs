//! Graphviz DOT output for control-flow and call graphs.

use std::fmt::Write;

use super::callgraph::{CallGraph, CallKind};
use super::cfg::EdgeKind;
use super::flow::FlowReport;

/// Quote `s` as a DOT string.
pub fn quote(s: &str) -> String {
    let mut o = String::with_capacity(s.len().saturating_add(2));
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if c.is_control() => {}
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// Graphs with more blocks than this get layout settings that keep `dot`
/// fast: edge labels placed after layout (`xlabel`) and a bounded number of
/// network-simplex iterations. Without them a 500-block CFG takes minutes.
pub const LARGE_GRAPH: usize = 150;

/// The control-flow graph of one function as a DOT digraph. Blocks show
/// their label, lines and instruction count; loop headers are doubled,
/// back edges bold, and irreducible edges red. Edges leaving the function
/// go to one `exit` node.
pub fn cfg_dot(r: &FlowReport) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "digraph {} {{", quote(&format!("cfg {}", r.function)));
    let _ = writeln!(o, "  label={};", quote(&r.function));
    if r.blocks.len() > LARGE_GRAPH {
        o.push_str("  graph [nslimit=2, nslimit1=2];\n");
    }
    o.push_str("  node [shape=box, fontname=\"monospace\"];\n");
    cfg_body(r, "", "  ", &mut o);
    o.push_str("}\n");
    o
}

/// The control-flow graphs of several functions as one DOT digraph named
/// `title`, each function a cluster (`subgraph cluster_N`) labelled with
/// its name and its nodes prefixed `fN_`: one graph, so `dot -Tsvg` gives
/// one picture.
pub fn cfgs_dot(title: &str, rs: &[FlowReport]) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "digraph {} {{", quote(&format!("cfg {title}")));
    let _ = writeln!(o, "  label={};", quote(title));
    if rs.iter().any(|r| r.blocks.len() > LARGE_GRAPH) {
        o.push_str("  graph [nslimit=2, nslimit1=2];\n");
    }
    o.push_str("  node [shape=box, fontname=\"monospace\"];\n");
    for (i, r) in rs.iter().enumerate() {
        let _ = writeln!(o, "  subgraph cluster_{i} {{");
        let _ = writeln!(o, "    label={};", quote(&r.function));
        cfg_body(r, &format!("f{i}_"), "    ", &mut o);
        o.push_str("  }\n");
    }
    o.push_str("}\n");
    o
}

/// `1 instruction`, `2 instructions`.
fn instructions(n: usize) -> String {
    format!("{n} instruction{}", if n == 1 { "" } else { "s" })
}

/// The nodes and edges of one function's graph, node ids prefixed with
/// `p`, each line indented by `ind`.
fn cfg_body(r: &FlowReport, p: &str, ind: &str, o: &mut String) {
    let large = r.blocks.len() > LARGE_GRAPH;
    // Per-block facts looked up once (output and time linear in the graph).
    let mut header = vec![false; r.blocks.len()];
    for l in &r.loops {
        if let Some(h) = header.get_mut(l.header) {
            *h = true;
        }
    }
    let mut unreachable = vec![false; r.blocks.len()];
    for &b in &r.unreachable {
        if let Some(u) = unreachable.get_mut(b) {
            *u = true;
        }
    }
    for b in &r.blocks {
        let mut text = b.label.clone();
        if b.labels.len() > 1 {
            text.push_str(&format!(" (+{})", b.labels.len().saturating_sub(1)));
        }
        let _ = write!(
            text,
            "\nlines {}-{}\n{}",
            b.first_line,
            b.last_line,
            instructions(b.instructions)
        );
        if let Some(d) = r.loop_depth.get(b.id).filter(|d| **d > 0) {
            let _ = write!(text, "\nloop depth {d}");
        }
        let mut attrs = format!("label={}", quote(&text));
        if header.get(b.id).copied().unwrap_or(false) {
            attrs.push_str(", peripheries=2");
        }
        if b.id == r.entry {
            attrs.push_str(", style=bold");
        }
        if unreachable.get(b.id).copied().unwrap_or(false) {
            attrs.push_str(", style=dashed, color=gray");
        }
        let _ = writeln!(o, "{ind}{p}b{} [{attrs}];", b.id);
    }
    if r.omitted_edges > 0 {
        let _ = writeln!(
            o,
            "{ind}// {} brx.idx edges left out (past the graph's budget)",
            r.omitted_edges
        );
    }
    if r.edges.iter().any(|e| e.to.is_none()) {
        let _ = writeln!(o, "{ind}{p}exit [shape=doublecircle, label=\"exit\"];");
    }
    for e in &r.edges {
        let to = match e.to {
            Some(t) => format!("{p}b{t}"),
            None => format!("{p}exit"),
        };
        let mut attrs: Vec<String> = Vec::new();
        match e.kind {
            EdgeKind::Fallthrough => attrs.push("style=dashed".into()),
            EdgeKind::Branch => {}
            EdgeKind::Conditional => attrs.push("label=\"taken\"".into()),
            EdgeKind::Indirect => {
                attrs.push("style=dotted".into());
                attrs.push("label=\"brx.idx\"".into());
            }
            EdgeKind::Return | EdgeKind::Exit | EdgeKind::Trap => {
                attrs.push(format!("label={}", quote(e.kind.as_str())));
            }
        }
        if let Some(t) = e.to {
            if r.is_back_edge(e.from, t) {
                attrs.push("penwidth=2".into());
                attrs.push("label=\"back\"".into());
            }
            if r.irreducible_edges.binary_search(&(e.from, t)).is_ok() {
                attrs.push("color=red".into());
            }
        }
        // Later labels override earlier ones in DOT; keep the last only.
        let mut seen_label = false;
        let attrs: Vec<String> = attrs
            .into_iter()
            .rev()
            .filter(|a| {
                let is_label = a.starts_with("label=");
                let keep = !(is_label && seen_label);
                seen_label |= is_label;
                keep
            })
            .collect();
        let attrs: Vec<String> = if large {
            attrs
                .into_iter()
                .map(|a| match a.strip_prefix("label=") {
                    Some(v) => format!("xlabel={v}"),
                    None => a,
                })
                .collect()
        } else {
            attrs
        };
        if attrs.is_empty() {
            let _ = writeln!(o, "{ind}{p}b{} -> {to};", e.from);
        } else {
            let _ = writeln!(o, "{ind}{p}b{} -> {to} [{}];", e.from, attrs.join(", "));
        }
    }
}

/// The call graph as a DOT digraph: kernels bold, declarations dashed,
/// indirect calls dashed, recursive calls red.
pub fn callgraph_dot(g: &CallGraph) -> String {
    let mut o = String::from("digraph callgraph {\n  node [shape=box, fontname=\"monospace\"];\n");
    for (i, n) in g.nodes.iter().enumerate() {
        let mut attrs = vec![format!("label={}", quote(&n.name))];
        if n.kernel {
            attrs.push("style=bold".into());
        } else if n.declaration {
            attrs.push("style=dashed".into());
        }
        if n.recursive {
            attrs.push("color=red".into());
        }
        let _ = writeln!(o, "  f{i} [{}];", attrs.join(", "));
    }
    for e in &g.edges {
        let mut attrs = Vec::new();
        if e.kind == CallKind::Indirect {
            attrs.push("style=dashed".to_string());
        }
        if e.recursive {
            attrs.push("color=red".into());
        }
        let mut label = String::new();
        if let Some(v) = &e.via {
            label.push_str(v);
        }
        if e.calls > 1 {
            if !label.is_empty() {
                label.push(' ');
            }
            let _ = write!(label, "x{}", e.calls);
        }
        if !label.is_empty() {
            attrs.push(format!("label={}", quote(&label)));
        }
        if attrs.is_empty() {
            let _ = writeln!(o, "  f{} -> f{};", e.from, e.to);
        } else {
            let _ = writeln!(o, "  f{} -> f{} [{}];", e.from, e.to, attrs.join(", "));
        }
    }
    o.push_str("}\n");
    o
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn quoting() {
        assert_eq!(quote("a\"b\\c\nd"), "\"a\\\"b\\\\c\\nd\"");
    }
}
