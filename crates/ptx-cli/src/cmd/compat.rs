//! `ptx compat`: for every CUDA binary under the paths (files,
//! directories, Python environments, wheels read in place), which GPUs
//! and drivers it runs on: natively, by JIT compilation of its PTX, or
//! not at all.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use ptxkit::binary::compat::{self, Level, Target, Verdict};
use ptxkit::binary::{self, rules, scan};
use serde::Serialize;

use crate::out::{self, style, Align, Table};

/// Arguments of `ptx compat`.
#[derive(clap::Args)]
pub struct Args {
    /// Binaries, directories (site-packages, conda environments) or
    /// wheels (`.whl`, read in place).
    #[arg(required_unless_present = "rules")]
    pub paths: Vec<PathBuf>,
    /// A GPU to judge for (`sm_86`, `8.6`, `86`); repeat for several.
    /// Default: sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_103 sm_120.
    #[arg(long, value_name = "sm_XX", value_parser = gpu)]
    pub gpu: Vec<u32>,
    /// The driver: its CUDA version (`12.4`) or driver version
    /// (`550.54.15`). Default: one that compiles every PTX version.
    #[arg(long, value_name = "CUDA_VERSION", value_parser = driver)]
    pub driver: Option<(u16, u16)>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Exit 1 when any binary is at or past this level on any GPU.
    #[arg(long, value_name = "LEVEL")]
    pub fail_on: Option<FailOn>,
    /// List the rules and their sources, and exit.
    #[arg(long)]
    pub rules: bool,
    /// Also name the kernels that would have no image on a GPU where the
    /// binary runs (reads every cubin: slower).
    #[arg(long)]
    pub kernels: bool,
}

/// `--fail-on` levels.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum FailOn {
    /// Fail when a binary needs JIT compilation (or cannot run).
    Jit,
    /// Fail when a binary cannot run.
    CannotRun,
}

fn gpu(s: &str) -> Result<u32, String> {
    compat::parse_gpu(s).ok_or_else(|| format!("`{s}` is not a GPU (sm_86, 8.6 or 86)"))
}

fn driver(s: &str) -> Result<(u16, u16), String> {
    compat::parse_driver(s).ok_or_else(|| {
        format!("`{s}` is not a driver (a CUDA version like 12.4, or a driver version like 550.54)")
    })
}

/// One binary's report.
#[derive(Serialize)]
struct Report {
    path: String,
    /// Where in the package (the path below site-packages, or in the
    /// wheel).
    name: String,
    #[serde(flatten)]
    report: Option<compat::Report>,
    error: Option<String>,
}

#[derive(Serialize)]
struct Package {
    package: String,
    binaries: Vec<Report>,
}

#[derive(Serialize)]
struct Output<'a> {
    gpus: Vec<String>,
    driver: Option<String>,
    rules: &'a [rules::Rule],
    packages: Vec<Package>,
    errors: Vec<String>,
}

/// The part of `path` below its package root, for display.
fn short_name(path: &str) -> String {
    if let Some((_, member)) = path.split_once(".whl!") {
        return member.to_string();
    }
    for root in ["/site-packages/", "/dist-packages/"] {
        if let Some(i) = path.rfind(root) {
            return path
                .get(i.saturating_add(root.len())..)
                .unwrap_or(path)
                .to_string();
        }
    }
    path.to_string()
}

fn version(v: (u16, u16)) -> String {
    compat::version_name(v)
}

/// A progress bar on a terminal only.
fn progress(total: u64) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() || total < (256 << 20) {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total);
    if let Ok(s) = indicatif::ProgressStyle::with_template(
        "{spinner} scanning {bytes}/{total_bytes} ({eta} left) {wide_bar}",
    ) {
        bar.set_style(s);
    }
    Some(bar)
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    if a.rules {
        return Ok(print_rules(a.json));
    }
    let gpus = if a.gpu.is_empty() {
        rules::COMMON_GPUS.to_vec()
    } else {
        a.gpu.clone()
    };
    let targets: Vec<Target> = gpus
        .iter()
        .map(|&gpu| Target {
            gpu,
            driver: a.driver,
        })
        .collect();
    let cands = scan::candidates(&a.paths);
    let total: u64 = cands.items.iter().map(|c| c.size).sum();
    let bar = progress(total);
    let scanned = scan::scan(
        &cands,
        |_, bytes| {
            if a.kernels {
                compat::report_kernels(bytes, &targets)
            } else {
                compat::report(bytes, &targets)
            }
        },
        |n| {
            if let Some(b) = &bar {
                b.inc(n);
            }
        },
    );
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut packages: BTreeMap<String, Vec<Report>> = BTreeMap::new();
    for s in scanned {
        let r = s.result.and_then(|r| r);
        let (report, error) = match r {
            Ok(r) => (Some(r), None),
            Err(e) => (None, Some(e)),
        };
        let mut name = short_name(&s.candidate.path);
        if let Some(rest) = name.strip_prefix(s.candidate.package.as_str()) {
            let rest = rest.trim_start_matches('/');
            if !rest.is_empty() {
                name = rest.to_string();
            }
        }
        let rep = Report {
            name,
            path: s.candidate.path,
            report,
            error,
        };
        packages.entry(s.candidate.package).or_default().push(rep);
    }
    let fail_level = a.fail_on.map(|f| match f {
        FailOn::Jit => Level::Jit,
        FailOn::CannotRun => Level::CannotRun,
    });
    let failed = fail_level.is_some_and(|lvl| {
        packages
            .values()
            .flatten()
            .filter_map(|r| r.report.as_ref())
            .flat_map(|r| &r.verdicts)
            // A file with no kernel of its own launches nothing: no
            // "no kernel image" error can come from it.
            .any(|v| v.verdict.level >= lvl && v.verdict.rule != rules::NO_KERNELS)
    });
    let out = Output {
        gpus: gpus.iter().map(|g| format!("sm_{g}")).collect(),
        driver: a.driver.map(version),
        rules: rules::RULES,
        packages: packages
            .into_iter()
            .map(|(package, binaries)| Package { package, binaries })
            .collect(),
        errors: cands.errors,
    };
    for e in &out.errors {
        eprintln!("ptx: {e}");
    }
    if a.json {
        out::json(&out);
    } else {
        print_text(&out, &gpus);
    }
    Ok(if !out.errors.is_empty() {
        2
    } else {
        u8::from(failed)
    })
}

/// The most kernel names a table line lists (JSON lists up to
/// [`compat::MAX_KERNEL_NAMES`]).
const TEXT_KERNEL_NAMES: usize = 3;

/// A verdict in a table cell: the cubin used, `jit 8.0`, or `no`.
fn cell(v: &Verdict) -> (String, anstyle::Style) {
    match v.level {
        Level::Native => (
            v.via.as_deref().unwrap_or("native").to_string(),
            anstyle::Style::new(),
        ),
        Level::Jit => {
            let isa = v
                .via
                .as_deref()
                .and_then(|s| s.split("PTX ").nth(1))
                .map(|s| s.trim_end_matches(')'))
                .unwrap_or("");
            (format!("jit {isa}"), style::WARN)
        }
        Level::CannotRun if v.rule == rules::NO_KERNELS => ("none".to_string(), style::DEL),
        Level::CannotRun => ("no".to_string(), style::DEL),
    }
}

fn print_text(o: &Output, gpus: &[u32]) {
    let on = out::color();
    let mut w = std::io::BufWriter::new(std::io::stdout().lock());
    let driver = o
        .driver
        .as_deref()
        .map_or("any (compiles every PTX version)".to_string(), |d| {
            format!("CUDA {d}")
        });
    let _ = writeln!(w, "driver: {driver}");
    if o.packages.is_empty() {
        let _ = writeln!(w, "no CUDA binaries found");
    }
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    // Binaries with no kernel of their own: no GPU is a reason, so they are
    // listed apart from the ones that cannot run.
    let mut no_kernels: Vec<String> = Vec::new();
    let mut gaps: Vec<String> = Vec::new();
    for p in &o.packages {
        let _ = writeln!(
            w,
            "\n{} ({} binar{})",
            out::paint(&p.package, style::HEAD, on),
            p.binaries.len(),
            if p.binaries.len() == 1 { "y" } else { "ies" }
        );
        let mut cols: Vec<(String, Align)> = vec![
            ("binary".into(), Align::Left),
            ("sass".into(), Align::Left),
            ("ptx".into(), Align::Left),
        ];
        cols.extend(gpus.iter().map(|g| (format!("sm_{g}"), Align::Left)));
        let heads: Vec<(&str, Align)> = cols.iter().map(|(h, a)| (h.as_str(), *a)).collect();
        let mut t = Table::new(&heads);
        for b in &p.binaries {
            let empty = compat::Report {
                format: binary::Format::Object,
                sass: Vec::new(),
                ptx: Vec::new(),
                lto_ir: Vec::new(),
                verdicts: Vec::new(),
            };
            let r = b.report.as_ref().unwrap_or(&empty);
            let mut row = vec![
                (b.name.clone(), anstyle::Style::new()),
                (compact(&r.sass), anstyle::Style::new()),
                (
                    r.ptx
                        .iter()
                        .map(|x| format!("{}@{}", x.arch.trim_start_matches("compute_"), x.ptx_isa))
                        .collect::<Vec<_>>()
                        .join(" "),
                    anstyle::Style::new(),
                ),
            ];
            if let Some(e) = &b.error {
                row.push((format!("unreadable: {e}"), style::DEL));
            }
            for v in &r.verdicts {
                row.push(cell(&v.verdict));
                if v.missing_kernel_count > 0 {
                    // The table names a few; JSON has more.
                    let shown: Vec<&str> = v
                        .missing_kernels
                        .iter()
                        .take(TEXT_KERNEL_NAMES)
                        .map(String::as_str)
                        .collect();
                    let more = v.missing_kernel_count.saturating_sub(shown.len());
                    gaps.push(format!(
                        "  {} on {}: {} kernel{} with no image: {}{}",
                        b.name,
                        v.gpu,
                        v.missing_kernel_count,
                        if v.missing_kernel_count == 1 { "" } else { "s" },
                        shown.join(", "),
                        if more > 0 {
                            format!(" and {more} more")
                        } else {
                            String::new()
                        }
                    ));
                }
                if v.verdict.rule == rules::NO_KERNELS {
                    if no_kernels.last() != Some(&b.name) {
                        no_kernels.push(b.name.clone());
                    }
                } else if v.verdict.level == Level::CannotRun {
                    let n = reasons
                        .entry(format!("{}: {}", v.gpu, v.verdict.reason))
                        .or_default();
                    *n = n.saturating_add(1);
                }
            }
            t.styled_row(row);
        }
        let _ = write!(w, "{}", t.render("  ", on));
    }
    if !gaps.is_empty() {
        let _ = writeln!(w, "\nmissing kernels (the binary runs, these do not):");
        for g in &gaps {
            let _ = writeln!(w, "{g}");
        }
    }
    if !reasons.is_empty() {
        let _ = writeln!(w, "\ncannot run:");
        for (r, n) in &reasons {
            let _ = writeln!(w, "  {r} ({n} binar{})", if *n == 1 { "y" } else { "ies" });
        }
    }
    if !no_kernels.is_empty() {
        let _ = writeln!(
            w,
            "\nno kernels of their own (nothing to launch, on any GPU): {}",
            no_kernels.join(", ")
        );
    }
    let _ = writeln!(
        w,
        "\n{}",
        out::paint(
            "sm_XX: runs the cubin for sm_XX; jit V: the driver compiles PTX of ISA version V; \
             no: cannot run; none: no kernel in this file. ptx compat --rules lists the rules, --json says which decided.",
            style::DIM,
            on
        )
    );
    let _ = w.flush();
}

/// Architectures as a short list: `sm_50 sm_60 sm_70 sm_80 sm_90`.
fn compact(archs: &[String]) -> String {
    let shown: Vec<&str> = archs.iter().map(|s| s.trim_start_matches("sm_")).collect();
    if shown.is_empty() {
        String::new()
    } else {
        format!("sm_{}", shown.join(","))
    }
}

fn print_rules(json: bool) -> u8 {
    if json {
        out::json(&rules::RULES);
        return 0;
    }
    let mut t = Table::new(&[
        ("rule", Align::Left),
        ("says", Align::Left),
        ("source", Align::Left),
    ]);
    for r in rules::RULES {
        t.row([r.id, r.says, r.source]);
    }
    out::print(&t.render("", out::color()));
    0
}
