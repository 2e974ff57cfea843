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
    /// CUDA binaries: the theoretical occupancy on this GPU (`sm_86`),
    /// repeat for several; shown for the cubins that GPU runs.
    #[arg(long, value_name = "sm_XX", value_parser = gpu)]
    pub gpu: Vec<u32>,
    /// CUDA binaries: threads per block for the occupancy (default: the
    /// kernel's required block size or launch bound, else 256).
    #[arg(long, value_name = "N")]
    pub block: Option<u32>,
    /// CUDA binaries: dynamic shared memory per block for the occupancy.
    #[arg(long, value_name = "BYTES", default_value_t = 0)]
    pub dynamic_shared: u64,
    /// CUDA binaries: print as `cuobjdump -res-usage` does.
    #[arg(long)]
    pub res_usage: bool,
    /// PTX files: assemble with ptxas (this one, else `ptxas` on PATH)
    /// and show its figures beside the estimate.
    #[arg(long, value_name = "PTXAS", num_args = 0..=1, default_missing_value = "ptxas")]
    pub ptxas: Option<PathBuf>,
}

fn gpu(s: &str) -> Result<u32, String> {
    ptxkit::binary::compat::parse_gpu(s)
        .ok_or_else(|| format!("`{s}` is not a GPU (sm_86, 8.6 or 86)"))
}

/// Report the cubins of a binary input; `None` when it has none (the PTX
/// it holds is then estimated as for a PTX file).
fn binary_input(a: &Args) -> Result<Option<u8>, String> {
    if a.path.as_os_str() == "-" || !crate::input::is_binary_file(&a.path) {
        return Ok(None);
    }
    let opened = crate::input::open_plain(&a.path)?;
    let bin = crate::input::binary::read_headers(&opened.name, &opened.bytes)?;
    let o = super::resources_bin::Options {
        json: a.json,
        res_usage: a.res_usage,
        name: a.name.as_deref(),
        gpus: &a.gpu,
        block: a.block,
        dynamic_shared: a.dynamic_shared,
    };
    Ok(super::resources_bin::run(
        &opened.name,
        &opened.bytes,
        &bin,
        &o,
    ))
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    if let Some(status) = binary_input(&a)? {
        return Ok(status);
    }
    let l = out::load(&a.path)?;
    let only = match &a.name {
        Some(n) => Some(l.function(n)?.name.to_string()),
        None => None,
    };
    let rs = resources(&l.parsed.module, &l.lines, only.as_deref());
    let assembled = match &a.ptxas {
        None => None,
        Some(p) => {
            let arch = l
                .parsed
                .module
                .target()
                .and_then(|t| t.arch())
                .map(|n| n.as_str().replace("compute_", "sm_"))
                .unwrap_or_else(|| "sm_52".to_string());
            match super::resources_ptxas::assemble(p, &l.input.bytes, &arch) {
                Ok(v) => Some((arch, v)),
                Err(e) => {
                    eprintln!("ptx: {e}");
                    return Ok(2);
                }
            }
        }
    };
    let real = |name: &str| {
        assembled
            .as_ref()
            .and_then(|(_, v)| v.iter().find(|x| x.usage.name == name))
    };
    if a.json {
        if assembled.is_some() {
            let rows: Vec<WithPtxas> = rs
                .iter()
                .map(|r| WithPtxas {
                    resources: r,
                    ptxas: real(&r.name),
                })
                .collect();
            out::json(&rows);
        } else {
            out::json(&rs);
        }
    } else {
        let on = out::color();
        let text: Vec<String> = rs
            .iter()
            .map(|r| {
                let mut s = render(r, on);
                if let Some((arch, _)) = &assembled {
                    s.push_str(&ptxas_line(arch, real(&r.name)));
                }
                s
            })
            .collect();
        out::print(&text.join("\n"));
        if !rs.is_empty() {
            let note = if assembled.is_some() {
                NOTE_PTXAS
            } else {
                NOTE
            };
            out::print(&format!("\n{}", out::paint(note, style::DIM, on)));
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
    let mut s = if r.kind == ptxkit::syntax::FuncKind::Entry {
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
    let peak = if reg.liveness_over_budget {
        "not estimated: the function's liveness is past its budget \
         (blocks x registers, or the sweeps to settle it; docs/limits.md)"
            .to_string()
    } else {
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
        )
    };
    t.row(["peak live virtual registers".to_string(), peak]);
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

/// One function's report with what ptxas made of it (`--ptxas --json`).
#[derive(serde::Serialize)]
struct WithPtxas<'a> {
    #[serde(flatten)]
    resources: &'a Resources,
    /// ptxas's figures (absent: ptxas kept no code for the function).
    ptxas: Option<&'a super::resources_ptxas::Assembled>,
}

/// The line of ptxas's figures under a function's report.
fn ptxas_line(arch: &str, a: Option<&super::resources_ptxas::Assembled>) -> String {
    let Some(a) = a else {
        return format!(
            "  ptxas ({arch}): no code section of its own (inlined, or placed in its callers')\n"
        );
    };
    let u = &a.usage;
    format!(
        "  ptxas ({arch}): {} registers, stack {}, {} B shared, {} named barriers{}\n",
        u.registers,
        u.stack.map_or("unknown".to_string(), |s| format!("{s} B")),
        u.shared,
        u.barriers,
        match (a.spill_stores, a.spill_loads) {
            (Some(st), Some(ld)) => format!(", spills {st} B stored / {ld} B loaded"),
            _ => String::new(),
        }
    )
}

/// The note after the reports: how the register figures relate to ptxas's.
pub const NOTE: &str = "\
note: registers here are PTX's virtual registers; ptxas allocates the
      physical ones, and its count can fall either side of the peak of live
      virtual registers (two Triton kernels: 30 and 254 used against peaks
      of 34 and 290). --ptxas assembles the module and shows the real figures.
";

/// The note when ptxas's figures are shown.
pub const NOTE_PTXAS: &str = "\
note: the `ptxas` lines are read from the cubin ptxas wrote (registers,
      stack, shared memory, barriers) and its -v output (spills); the
      figures above them are estimates from the PTX alone.
";
