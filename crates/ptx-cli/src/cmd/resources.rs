//! `ptx resources`: virtual registers, memory, barriers and launch
//! directives per kernel, then per device function (marked when no kernel
//! calls it: ptxas drops those).

use std::path::PathBuf;

use ptxkit::analysis::resources::{resources, Resources};

use crate::out::{self, style, Align, Table};

/// Arguments of `ptx resources`.
#[derive(clap::Args)]
pub struct Args {
    /// The file; `-` reads stdin.
    pub path: PathBuf,
    /// Only this function (exact name, or a part that names only one).
    pub name: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    let l = out::load(&a.path)?;
    let only = match &a.name {
        Some(n) => Some(l.function(n)?.name.to_string()),
        None => None,
    };
    let rs = resources(&l.parsed.module, &l.lines, only.as_deref());
    if a.json {
        out::json(&rs);
    } else {
        let on = out::color();
        let text: Vec<String> = rs.iter().map(|r| render(r, on)).collect();
        out::print(&text.join("\n"));
        if !rs.is_empty() {
            out::print(&format!("\n{}", out::paint(NOTE, style::DIM, on)));
        }
    }
    Ok(l.status())
}

/// Variable names in parentheses (demangled, as function names are).
fn list(items: &[String]) -> String {
    if items.is_empty() {
        String::new()
    } else {
        let names: Vec<_> = items.iter().map(|n| out::name(n)).collect();
        format!(" ({})", names.join(", "))
    }
}

/// `n` followed by `one` or `many`.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The human-readable report of one function.
pub fn render(r: &Resources, on: bool) -> String {
    let mut s = if r.kind == "entry" {
        format!(
            "{} {}\n",
            out::paint("kernel", style::HEAD, on),
            out::title(&r.name, on)
        )
    } else {
        let callers = if r.called_by_kernels.is_empty() {
            out::paint(
                "called by no kernel here: ptxas drops it, unless compiling with -c",
                style::WARN,
                on,
            )
        } else {
            let names: Vec<_> = r.called_by_kernels.iter().map(|k| out::name(k)).collect();
            format!(
                "called by {} {}",
                if names.len() == 1 {
                    "kernel"
                } else {
                    "kernels"
                },
                names.join(", ")
            )
        };
        format!(
            "{} {}\n  ({callers})\n",
            out::paint("device function", style::HEAD, on),
            out::title(&r.name, on)
        )
    };
    let mut t = Table::new(&[("resource", Align::Left), ("figure", Align::Left)]);
    let reg = &r.registers;
    let declared: Vec<String> = reg
        .declared
        .iter()
        .map(|(c, n)| format!("{c} x{n}"))
        .collect();
    let preds = reg.declared_by_width.get(&1).copied().unwrap_or(0);
    t.row([
        "virtual registers declared".to_string(),
        format!(
            "{} = {} x 32-bit + {}",
            if declared.is_empty() {
                "none".to_string()
            } else {
                declared.join(", ")
            },
            reg.declared_units,
            count(preds, "predicate", "predicates")
        ),
    ]);
    t.row([
        "virtual registers referenced".to_string(),
        format!("{} distinct", reg.used),
    ]);
    t.row([
        "peak live virtual registers".to_string(),
        format!(
            "{} x 32-bit + {}{}{} (estimate)",
            reg.peak_live_units,
            count(
                u64::from(reg.peak_live_predicates),
                "predicate",
                "predicates"
            ),
            reg.peak_line
                .map(|l| format!(", at line {l}"))
                .unwrap_or_default(),
            if reg.live_at_entry > 0 {
                format!("; {} live at entry", reg.live_at_entry)
            } else {
                String::new()
            }
        ),
    ]);
    t.row([
        ".shared".to_string(),
        format!(
            "{} B static{}; dynamic: {}",
            r.shared.static_bytes,
            list(&r.shared.variables),
            if r.shared.dynamic {
                format!("yes{}", list(&r.shared.dynamic_variables))
            } else {
                "no".into()
            }
        ),
    ]);
    t.row([
        ".local".to_string(),
        format!(
            "{} B frame; with callees: {}{}",
            r.local.frame_bytes,
            r.local
                .with_callees
                .map_or("unbounded or unknown".to_string(), |b| format!("{b} B")),
            if r.local.dynamic_stack {
                "; dynamic stack (alloca)"
            } else {
                ""
            }
        ),
    ]);
    t.row([".param".to_string(), format!("{} B", r.param_bytes)]);
    t.row([
        ".const".to_string(),
        format!(
            "{} B{}; {}",
            r.constant.bytes,
            list(&r.constant.variables),
            out::count(r.constant.accesses as u64, "access")
        ),
    ]);
    let b = &r.barriers;
    let mut ids: Vec<String> = b.ids.iter().map(|i| i.to_string()).collect();
    if b.register_ids {
        ids.push("an id in a register".into());
    }
    t.row([
        "named barriers".to_string(),
        format!(
            "{} ({})",
            b.named_barriers,
            if b.named_barriers == 16 && b.ids.len() < 16 {
                "an id in a register reserves all 16, unless ptxas can tell its value"
            } else {
                "as ptxas -v counts them: highest id + 1, callees included"
            }
        ),
    ]);
    t.row([
        "barrier instructions".to_string(),
        format!(
            "{}{}, {} cluster, {} mbarrier, {} warp sync",
            count(
                u64::try_from(b.cta_barriers).unwrap_or(u64::MAX),
                "CTA barrier",
                "CTA barriers"
            ),
            if ids.is_empty() {
                String::new()
            } else {
                format!(" (ids {})", ids.join(", "))
            },
            b.cluster_barriers,
            b.mbarrier_ops,
            b.warp_syncs
        ),
    ]);
    t.row([
        "directives".to_string(),
        if r.directives.is_empty() {
            "none".to_string()
        } else {
            r.directives.join("; ")
        },
    ]);
    s.push_str(&t.render("  ", on));
    s
}

/// The note after the reports: how the register figures relate to ptxas's.
pub const NOTE: &str = "\
note: registers here are PTX's virtual registers; ptxas allocates the
      physical ones. Its `Used N registers` (ptxas -v) is usually above the
      peak of live virtual registers (calls, addresses, temporaries) and
      below the count declared: run ptxas -v for the real figure.
";
