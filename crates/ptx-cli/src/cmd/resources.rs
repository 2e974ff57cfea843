//! `ptx resources`: registers, memory, barriers and launch directives per
//! kernel (and device function).

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
    }
    Ok(l.status())
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        String::new()
    } else {
        format!(" ({})", items.join(", "))
    }
}

/// The human-readable report of one function.
pub fn render(r: &Resources, on: bool) -> String {
    let kind = if r.kind == "entry" {
        "kernel"
    } else {
        "function"
    };
    let mut s = format!(
        "{} {}\n",
        out::paint(kind, style::HEAD, on),
        out::paint(&r.name, style::NAME, on)
    );
    let mut t = Table::new(&[("resource", Align::Left), ("figure", Align::Left)]);
    let reg = &r.registers;
    let declared: Vec<String> = reg
        .declared
        .iter()
        .map(|(c, n)| format!("{c} x{n}"))
        .collect();
    let preds = reg.declared_by_width.get(&1).copied().unwrap_or(0);
    t.row([
        "registers declared".to_string(),
        format!(
            "{} = {} x 32-bit units + {preds} predicates",
            if declared.is_empty() {
                "none".to_string()
            } else {
                declared.join(", ")
            },
            reg.declared_units
        ),
    ]);
    t.row([
        "registers used".to_string(),
        format!("{} distinct", reg.used),
    ]);
    t.row([
        "peak live (estimate)".to_string(),
        format!(
            "{} x 32-bit units + {} predicates{}{}",
            reg.peak_live_units,
            reg.peak_live_predicates,
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
            "{} B{}; {} access(es)",
            r.constant.bytes,
            list(&r.constant.variables),
            r.constant.accesses
        ),
    ]);
    let b = &r.barriers;
    let mut ids: Vec<String> = b.ids.iter().map(|i| i.to_string()).collect();
    if b.register_ids {
        ids.push("register".into());
    }
    t.row([
        "barriers".to_string(),
        format!(
            "{} CTA{}, {} cluster, {} mbarrier, {} warp sync",
            b.cta_barriers,
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
