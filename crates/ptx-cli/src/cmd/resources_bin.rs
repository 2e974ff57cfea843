//! `ptx resources BIN`: what each kernel of a CUDA binary's cubins uses
//! (the figures of `cuobjdump -res-usage`, and more), per kernel and
//! architecture, with the theoretical occupancy on the GPUs asked for.

use std::io::Write;

use ptxkit::binary::compat::{self, Image, Level, Target};
use ptxkit::binary::occupancy::{self, Occupancy};
use ptxkit::binary::usage::{EntryUsage, FunctionUsage, Usage};
use ptxkit::binary::{self, Binary};
use serde::Serialize;

use crate::input::binary as bin_input;
use crate::out::{self, style, Align, Table};

/// Options of the binary report.
pub struct Options<'a> {
    /// Print JSON.
    pub json: bool,
    /// Print as `cuobjdump -res-usage` does.
    pub res_usage: bool,
    /// Only the functions whose name contains this.
    pub name: Option<&'a str>,
    /// GPUs to compute the occupancy on.
    pub gpus: &'a [u32],
    /// Threads per block for the occupancy (else the kernel's launch
    /// bounds, else 256).
    pub block: Option<u32>,
    /// Dynamic shared memory per block, bytes.
    pub dynamic_shared: u64,
}

/// One kernel on one architecture, as `--json` gives it.
#[derive(Serialize)]
struct Row<'a> {
    binary: &'a str,
    /// The fatbin entry (as `ptx extract --list` lists them, from 0).
    entry: Option<usize>,
    arch: &'a str,
    demangled: Option<String>,
    #[serde(flatten)]
    usage: &'a FunctionUsage,
    occupancy: Vec<OccupancyOn>,
}

#[derive(Serialize)]
struct OccupancyOn {
    gpu: String,
    #[serde(flatten)]
    result: OccupancyResult,
}

#[derive(Serialize)]
#[serde(untagged)]
enum OccupancyResult {
    Fits(Occupancy),
    NoFit { error: String },
}

/// The block size the occupancy assumes for `f`.
fn block_of(f: &FunctionUsage, block: Option<u32>) -> u32 {
    let prod = |d: [u32; 3]| d.iter().fold(1u32, |a, &b| a.saturating_mul(b.max(1)));
    block
        .or(f.required_threads.map(prod))
        .or(f.max_threads.map(prod))
        .unwrap_or(256)
}

/// The occupancy of `f` (in a cubin `u` for `arch`) on each GPU that runs
/// the cubin natively.
fn occupancies(u: &Usage, arch: &Image, f: &FunctionUsage, o: &Options) -> Vec<OccupancyOn> {
    o.gpus
        .iter()
        .filter(|&&gpu| {
            compat::verdict(std::slice::from_ref(arch), &Target { gpu, driver: None }).level
                == Level::Native
        })
        .map(|&gpu| {
            let result = match occupancy::limits(gpu) {
                None => OccupancyResult::NoFit {
                    error: format!("no published limits for sm_{gpu} held"),
                },
                Some(l) => {
                    let own = if u.shared_includes_reserved {
                        f.shared
                            .saturating_sub(u64::from(l.reserved_shared_per_block))
                    } else {
                        f.shared
                    };
                    match occupancy::occupancy(
                        l,
                        block_of(f, o.block),
                        f.registers.max(f.section_registers),
                        own.saturating_add(o.dynamic_shared),
                    ) {
                        Ok(x) => OccupancyResult::Fits(x),
                        Err(e) => OccupancyResult::NoFit { error: e.0 },
                    }
                }
            };
            OccupancyOn {
                gpu: format!("sm_{gpu}"),
                result,
            }
        })
        .collect()
}

/// Report the cubins of binary `bytes` (read as `bin`); `None` when it
/// has no cubin the `--arch` selection keeps.
pub fn run(name: &str, bytes: &[u8], bin: &Binary, o: &Options) -> Option<u8> {
    let sel = bin_input::selection();
    if sel.entry.is_some() {
        return None;
    }
    let all = binary::usage_of(bytes, bin);
    let picked: Vec<&EntryUsage> = all
        .iter()
        .filter(|eu| {
            sel.arch.as_deref().is_none_or(|want| {
                let bare = |s: &str| {
                    s.trim_start_matches("sm_")
                        .trim_start_matches("compute_")
                        .to_ascii_lowercase()
                };
                bare(&eu.arch_name) == bare(want)
            })
        })
        .collect();
    if picked.is_empty() {
        return None;
    }
    let mut status = 0u8;
    let keep = |f: &FunctionUsage| {
        o.name.is_none_or(|n| {
            f.name.contains(n) || ptxkit::demangle(&f.name).is_some_and(|d| d.contains(n))
        })
    };
    let mut w = std::io::BufWriter::new(std::io::stdout().lock());
    if o.res_usage {
        let _ = writeln!(w, "\nResource usage:");
    }
    let mut rows: Vec<serde_json::Value> = Vec::new();
    let on = out::color();
    for eu in &picked {
        let u = match &eu.usage {
            Ok(u) => u,
            Err(e) => {
                eprintln!("ptx: {name}: {}: {e}", eu.arch_name);
                status = 2;
                continue;
            }
        };
        let arch = bin
            .entries
            .get(eu.entry.unwrap_or(usize::MAX))
            .map(Image::of)
            .unwrap_or_else(|| Image::sass(bin.cubin_arch.unwrap_or(u.arch), ""));
        if o.res_usage {
            let _ = write!(w, "{}", u.cuobjdump_text());
            continue;
        }
        let fs: Vec<&FunctionUsage> = u.functions.iter().filter(|f| keep(f)).collect();
        if o.json {
            for f in fs {
                let row = Row {
                    binary: name,
                    entry: eu.entry,
                    arch: &eu.arch_name,
                    demangled: ptxkit::demangle(&f.name),
                    usage: f,
                    occupancy: occupancies(u, &arch, f, o),
                };
                rows.push(serde_json::to_value(&row).unwrap_or_default());
            }
            continue;
        }
        let entry = eu.entry.map(|i| format!(", entry {i}")).unwrap_or_default();
        let consts: String = u
            .constant
            .iter()
            .map(|b| format!(", constant[{}] {} B", b.bank, b.bytes))
            .collect();
        let _ = writeln!(
            w,
            "{} {}{entry}: global {} B{consts}",
            out::paint(name, style::HEAD, on),
            out::paint(&eu.arch_name, style::HEAD, on),
            u.global
        );
        let mut cols = vec![
            ("function", Align::Left),
            ("reg", Align::Right),
            ("stack", Align::Right),
            ("shared", Align::Right),
            ("local", Align::Right),
            ("constant", Align::Left),
            ("bar", Align::Right),
            ("threads", Align::Left),
            ("cluster", Align::Left),
        ];
        let gpus: Vec<String> = o
            .gpus
            .iter()
            .filter(|&&gpu| {
                compat::verdict(std::slice::from_ref(&arch), &Target { gpu, driver: None }).level
                    == Level::Native
            })
            .map(|g| format!("sm_{g}"))
            .collect();
        for g in &gpus {
            cols.push((g.as_str(), Align::Left));
        }
        let mut t = Table::new(&cols);
        let dims =
            |d: Option<[u32; 3]>| d.map_or(String::new(), |[x, y, z]| format!("{x}x{y}x{z}"));
        for f in fs {
            let mut row = vec![
                format!(
                    "{}{}",
                    out::name(&f.name),
                    if f.kernel { "" } else { " (device)" }
                ),
                f.registers.to_string(),
                f.stack.map_or("unknown".into(), |s| s.to_string()),
                f.shared.to_string(),
                f.local.to_string(),
                f.constant
                    .iter()
                    .map(|b| format!("{}:{}", b.bank, b.bytes))
                    .collect::<Vec<_>>()
                    .join(" "),
                f.barriers.to_string(),
                match (f.required_threads, f.max_threads) {
                    (Some(r), _) => format!("={}", dims(Some(r))),
                    (None, Some(m)) => format!("<={}", dims(Some(m))),
                    _ => String::new(),
                },
                dims(f.cluster),
            ];
            for oc in occupancies(u, &arch, f, o) {
                row.push(match oc.result {
                    OccupancyResult::Fits(x) => format!(
                        "{} x {} threads, {} warps, {}% ({})",
                        x.blocks,
                        x.threads_per_block,
                        x.warps,
                        x.percent,
                        x.limiter.name()
                    ),
                    OccupancyResult::NoFit { error } => format!("none: {error}"),
                });
            }
            t.row(row);
        }
        let _ = write!(w, "{}", t.render("  ", on));
        let _ = writeln!(w);
    }
    if o.json {
        let _ = serde_json::to_writer_pretty(&mut w, &rows);
        let _ = writeln!(w);
    } else if !o.res_usage {
        let _ = writeln!(
            w,
            "{}",
            out::paint(
                "bytes per thread (stack, local) or per block (shared); constant: bank:bytes; \
                 bar: named barriers; threads: = required, <= launch bound",
                style::DIM,
                on
            )
        );
    }
    let _ = w.flush();
    Some(status)
}
