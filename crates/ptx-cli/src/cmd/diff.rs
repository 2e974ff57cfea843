//! `ptx diff`: structural diff of two modules.

use std::path::PathBuf;

use ptxkit::analysis::diff::{diff_modules, Delta, ModuleDiff, Side};

use crate::out::{self, style, Align, Table};

/// Arguments of `ptx diff`.
#[derive(clap::Args)]
pub struct Args {
    /// The old module.
    pub a: PathBuf,
    /// The new module.
    pub b: PathBuf,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    // Both are read (and their diagnostics printed) before either error.
    let (la, lb) = (out::load(&a.a), out::load(&a.b));
    let (la, lb) = (la?, lb?);
    let d = diff_modules(
        Side {
            module: &la.parsed.module,
            src: &la.input.bytes,
        },
        Side {
            module: &lb.parsed.module,
            src: &lb.input.bytes,
        },
    );
    if a.json {
        out::json(&d);
    } else {
        out::print(&render(&d, &la.input.name, &lb.input.name, out::color()));
    }
    Ok(if la.parsed.has_errors() || lb.parsed.has_errors() {
        2
    } else {
        // diff(1) convention: 0 same, 1 different.
        u8::from(!d.is_empty())
    })
}

fn deltas(title: &str, ds: &[Delta], on: bool) -> String {
    let mut t = Table::new(&[
        (title, Align::Left),
        ("A", Align::Right),
        ("B", Align::Right),
        ("change", Align::Right),
    ]);
    for d in ds {
        let ch = (d.b as i128).saturating_sub(d.a as i128);
        let st = if ch > 0 { style::ADD } else { style::DEL };
        t.styled_row(vec![
            (d.what.clone(), anstyle::Style::new()),
            (d.a.to_string(), anstyle::Style::new()),
            (d.b.to_string(), anstyle::Style::new()),
            (format!("{ch:+}"), st),
        ]);
    }
    t.render("  ", on)
}

/// The human-readable report.
pub fn render(d: &ModuleDiff, a: &str, b: &str, on: bool) -> String {
    let mut s = format!("--- {a}\n+++ {b}\n");
    if d.is_empty() {
        s.push_str(&format!(
            "no differences ({} equal)\n",
            out::count(d.unchanged as u64, "function")
        ));
        return s;
    }
    for h in &d.header {
        s.push_str(&format!("header  {h}\n"));
    }
    for g in &d.removed_globals {
        s.push_str(&out::paint(&format!("- variable {g}\n"), style::DEL, on));
    }
    for g in &d.added_globals {
        s.push_str(&out::paint(&format!("+ variable {g}\n"), style::ADD, on));
    }
    for f in &d.removed {
        s.push_str(&out::paint(
            &format!("- function {}\n", out::name(f)),
            style::DEL,
            on,
        ));
    }
    for f in &d.added {
        s.push_str(&out::paint(
            &format!("+ function {}\n", out::name(f)),
            style::ADD,
            on,
        ));
    }
    s.push_str(&format!(
        "{} changed, {} added, {} removed, {} unchanged\n",
        d.changed.len(),
        d.added.len(),
        d.removed.len(),
        d.unchanged
    ));
    for c in &d.changed {
        s.push('\n');
        s.push_str(&format!(
            "{} {}{}\n",
            out::paint("changed", style::HEAD, on),
            out::title(&c.name, on),
            if c.only_renaming {
                "  (only registers or labels renumbered)"
            } else {
                ""
            }
        ));
        if !c.mix.is_empty() {
            s.push_str(&deltas("instruction mix", &c.mix, on));
        }
        if !c.resources.is_empty() {
            s.push_str(&deltas("resources", &c.resources, on));
        }
        for h in &c.hunks {
            let first_a = h.iter().find_map(|l| l.a_line).unwrap_or(0);
            let first_b = h.iter().find_map(|l| l.b_line).unwrap_or(0);
            s.push_str(&out::paint(
                &format!("  @@ A line {first_a}, B line {first_b} @@\n"),
                style::DIM,
                on,
            ));
            for l in h {
                let text = format!("  {}{}\n", l.tag, l.text);
                let st = match l.tag {
                    '-' => style::DEL,
                    '+' => style::ADD,
                    _ => anstyle::Style::new(),
                };
                s.push_str(&out::paint(&text, st, on));
            }
        }
    }
    s
}
