//! `ptx explain`: the catalog entry of an instruction.

use ptxkit::analysis::explain::{explain, Explanation};

use crate::out::{self, style, Align, Table};

/// Arguments of `ptx explain`.
#[derive(clap::Args)]
pub struct Args {
    /// An instruction, optionally with modifiers: `mma`, `ld.global.v4`,
    /// `cp.async.bulk.tensor`. Only forms taking every modifier are shown.
    pub query: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[inline(never)]
pub fn run(a: Args) -> u8 {
    match explain(&a.query) {
        Ok(e) => {
            if a.json {
                out::json(&e);
            } else {
                out::print(&render(&e, out::color()));
            }
            0
        }
        // A query naming nothing is a usage error.
        Err(e) => {
            eprintln!("ptx: {e}");
            2
        }
    }
}

/// The human-readable entry.
pub fn render(e: &Explanation, on: bool) -> String {
    let mut s = String::new();
    for (k, x) in e.entries.iter().enumerate() {
        if k > 0 {
            s.push('\n');
        }
        let mut needs = Vec::new();
        if let Some(p) = &x.ptx {
            needs.push(format!("PTX {p}"));
        }
        if let Some(t) = &x.sm {
            needs.push(format!("target {t}"));
        }
        s.push_str(&format!(
            "{}  ({}; ISA section {}; {})\n",
            out::paint(&x.name, style::NAME, on),
            x.family,
            x.isa_sections.join(", "),
            if needs.is_empty() {
                "any version".to_string()
            } else {
                format!("since {}", needs.join(", "))
            }
        ));
        for n in &x.notes {
            s.push_str(&format!("  {n}\n"));
        }
        if !x.forms.is_empty() {
            s.push_str(&format!("\n  {}\n", out::paint("syntax", style::HEAD, on)));
            for f in &x.forms {
                let text: String = f.syntax.split_whitespace().collect::<Vec<_>>().join(" ");
                let mut req = Vec::new();
                if let Some(p) = &f.ptx {
                    req.push(format!("PTX {p}"));
                }
                if let Some(t) = &f.sm {
                    req.push(t.clone());
                }
                s.push_str(&format!(
                    "    {text}{}\n",
                    if req.is_empty() {
                        String::new()
                    } else {
                        out::paint(&format!("   [{}]", req.join(", ")), style::DIM, on)
                    }
                ));
                s.push_str(&out::paint(
                    &format!("      operands: {}\n", f.operands.join(", ")),
                    style::DIM,
                    on,
                ));
            }
        }
        if !x.groups.is_empty() {
            s.push_str(&format!(
                "\n  {}\n",
                out::paint("modifier groups", style::HEAD, on)
            ));
            for g in &x.groups {
                s.push_str(&format!("    .{} = {}\n", g.name, g.alternatives.join(" ")));
            }
        }
        if !x.modifiers.is_empty() {
            s.push_str(&format!(
                "\n  {}\n",
                out::paint("modifiers", style::HEAD, on)
            ));
            let mut t = Table::new(&[
                ("modifier", Align::Left),
                ("needs", Align::Left),
                ("meaning", Align::Left),
            ]);
            for m in &x.modifiers {
                let needs: Vec<String> = m
                    .ptx
                    .iter()
                    .map(|p| format!("PTX {p}"))
                    .chain(m.sm.iter().cloned())
                    .collect();
                let st = if m.queried {
                    style::HEAD
                } else {
                    anstyle::Style::new()
                };
                t.styled_row(vec![
                    (m.modifier.clone(), st),
                    (needs.join(", "), style::DIM),
                    (m.meaning.clone().unwrap_or_default(), anstyle::Style::new()),
                ]);
            }
            s.push_str(&t.render("    ", on));
        }
        for (op, vals) in &x.operand_values {
            s.push_str(&format!("  {op} is one of {}\n", vals.join(", ")));
        }
    }
    s
}
