//! `ptx summary`: the module at a glance.

use std::path::PathBuf;

use crate::out;
use ptxkit::analysis::summary::summarize;

/// Arguments of `ptx summary`.
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
    let (inp, parsed) = (&l.input, &l.parsed);
    let s = summarize(&parsed.module);
    if a.json {
        out::json(&s);
        return Ok(l.status());
    }
    println!("file:          {}", inp.name);
    println!(
        "version:       {}",
        s.version.as_deref().unwrap_or("(none)")
    );
    println!(
        "target:        {}",
        if s.target.is_empty() {
            "(none)".to_string()
        } else {
            s.target.join(", ")
        }
    );
    println!("address size:  {}", s.address_size);
    println!("instructions:  {}", s.instructions);
    if !s.data_bytes.is_empty() || !s.unsized_data.is_empty() {
        let parts: Vec<String> = s
            .data_bytes
            .iter()
            .map(|(k, v)| format!("{k} {v} B"))
            .collect();
        let mut line = parts.join(", ");
        if !s.unsized_data.is_empty() {
            line.push_str(&format!(
                "{}unsized: {}",
                if line.is_empty() { "" } else { "; " },
                s.unsized_data.join(", ")
            ));
        }
        println!("module data:   {line}");
    }
    let kernels = s
        .functions
        .iter()
        .filter(|f| f.kind == ptxkit::syntax::FuncKind::Entry)
        .count();
    println!(
        "functions:     {} ({}, {})",
        s.functions.len(),
        out::count(kernels as u64, "kernel"),
        out::count(
            s.functions.len().saturating_sub(kernels) as u64,
            "device function"
        )
    );
    for f in &s.functions {
        println!();
        let link = f.linkage.map(|l| format!("{l} ")).unwrap_or_default();
        let decl = if f.declaration { "  (declaration)" } else { "" };
        let kind = match f.kind {
            ptxkit::syntax::FuncKind::Entry => "entry",
            ptxkit::syntax::FuncKind::Func => "func",
        };
        println!("{link}.{kind} {}{decl}", out::title(&f.name, false));
        // One table for returns and parameters: columns as wide as the
        // longest type (Triton's `.param .u64 .ptr .global .align 1`).
        let rows: Vec<(&str, _)> = f
            .returns
            .iter()
            .map(|r| ("returns", r))
            .chain(f.params.iter().map(|p| ("param", p)))
            .collect();
        let ty_w = rows
            .iter()
            .map(|(_, p)| p.ty.chars().count())
            .max()
            .unwrap_or(0);
        let b_w = rows
            .iter()
            .map(|(_, p)| p.bytes.to_string().len())
            .max()
            .unwrap_or(0);
        for (what, p) in rows {
            println!(
                "  {what:<8} {:<ty_w$}  {:>b_w$} B  {}",
                p.ty, p.bytes, p.name
            );
        }
        for d in &f.directives {
            println!("  directive {d}");
        }
        if !f.declaration {
            let regs: Vec<String> = f
                .registers
                .iter()
                .map(|(t, n)| format!("{t} x{n}"))
                .collect();
            println!(
                "  registers {}",
                if regs.is_empty() {
                    "(none)".into()
                } else {
                    regs.join(", ")
                }
            );
            println!("  instructions {}", f.instructions);
            if f.local_bytes > 0 || f.shared_bytes > 0 {
                println!("  local {} B, shared {} B", f.local_bytes, f.shared_bytes);
            }
        }
    }
    Ok(l.status())
}
