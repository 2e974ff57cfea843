//! `ptx functions`: kernels and functions with their signatures, directives,
//! sizes and calls.

use std::path::PathBuf;

use ptxkit::analysis::callgraph::CallGraph;
use ptxkit::analysis::functions::{functions, FunctionInfo};

use crate::out::{self, style, Align, Table};

/// Arguments of `ptx functions`.
#[derive(clap::Args)]
pub struct Args {
    /// The file; `-` reads stdin.
    pub path: PathBuf,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    let l = out::load(&a.path)?;
    let cg = CallGraph::build(&l.parsed.module, &l.lines);
    let fs = functions(&l.parsed.module, &l.lines, &cg);
    if a.json {
        out::json(&fs);
    } else {
        out::print(&render(&fs, out::color()));
    }
    Ok(l.status())
}

/// The human-readable listing.
pub fn render(fs: &[FunctionInfo], on: bool) -> String {
    let mut s = String::new();
    for (k, f) in fs.iter().enumerate() {
        if k > 0 {
            s.push('\n');
        }
        let kind = if f.kind == ptxkit::syntax::FuncKind::Entry {
            "kernel"
        } else {
            "function"
        };
        let mut facts = Vec::new();
        if let Some(l) = f.linkage {
            facts.push(l.to_string());
        }
        facts.push(format!("line {}", f.line));
        if f.declaration {
            facts.push("declaration".into());
        } else {
            facts.push(out::count(f.instructions as u64, "instruction"));
        }
        if f.recursive {
            facts.push(out::paint("recursive", style::WARN, on));
        }
        s.push_str(&format!(
            "{} {}  ({})\n",
            out::paint(kind, style::HEAD, on),
            out::title(&f.name, on),
            facts.join(", ")
        ));
        let mut t = Table::new(&[
            ("", Align::Left),
            ("type", Align::Left),
            ("bytes", Align::Right),
            ("name", Align::Left),
        ]);
        for r in &f.returns {
            t.row(["returns", &r.ty, &r.bytes.to_string(), &r.name]);
        }
        for p in &f.params {
            t.row(["param", &p.ty, &p.bytes.to_string(), &p.name]);
        }
        if !t.is_empty() {
            s.push_str(&t.render("  ", on));
        }
        for d in &f.directives {
            s.push_str(&format!("  directive  {d}\n"));
        }
        for c in &f.calls {
            let kind = match c.kind {
                ptxkit::analysis::callgraph::CallKind::Direct => "direct",
                ptxkit::analysis::callgraph::CallKind::Indirect => "indirect",
            };
            s.push_str(&format!(
                "  calls      {}  ({kind}, {} call{})\n",
                out::paint(&out::name(&c.callee), style::NAME, on),
                c.calls,
                if c.calls == 1 { "" } else { "s" }
            ));
        }
        if f.unresolved_calls > 0 {
            s.push_str(&format!(
                "  {}\n",
                out::paint(
                    &format!(
                        "{} with unknown targets",
                        out::count(f.unresolved_calls as u64, "indirect call")
                    ),
                    style::WARN,
                    on
                )
            ));
        }
    }
    s
}
