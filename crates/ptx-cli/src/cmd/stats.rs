//! `ptx stats`: instruction histograms over files and directories, read in
//! parallel.

use std::path::PathBuf;

use ptxkit::analysis::stats::{module_stats, Histogram, StatsKey};
use rayon::prelude::*;
use serde::Serialize;

use crate::input;
use crate::out::{self, Align, Table};

/// What to count by.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum By {
    /// The instruction as the catalog names it (`ld`, `cp.async.bulk.tensor`).
    Opcode,
    /// The ISA area (`data`, `float`, `sync`, `mma`, …: the catalog file).
    Family,
    /// The full mnemonic with every modifier as written (`ld.global.v4.f32`).
    Modifier,
}

/// Arguments of `ptx stats`.
#[derive(clap::Args)]
pub struct Args {
    /// Files or directories (searched for `*.ptx`); `-` reads stdin.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// What to count instructions by.
    #[arg(long, value_enum, default_value = "opcode")]
    pub by: By,
    /// One histogram per function instead of one in total.
    #[arg(long)]
    pub per_function: bool,
    /// Show only the N most frequent entries of each table (0: all).
    #[arg(long, default_value_t = 0)]
    pub top: usize,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// One function's histogram.
#[derive(Serialize)]
pub struct FnHist {
    /// The file.
    pub file: String,
    /// The function.
    pub function: String,
    /// Its readable C++ name when the name is mangled.
    pub demangled: Option<String>,
    /// Its counts.
    pub histogram: Histogram,
}

/// The JSON report.
#[derive(Serialize)]
pub struct Report {
    /// What was counted by.
    pub by: StatsKey,
    /// Files read.
    pub files: usize,
    /// Files with syntax errors (counted as far as they parsed).
    pub files_with_errors: Vec<String>,
    /// All instructions.
    pub total: Histogram,
    /// Per function, with `--per-function`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub functions: Option<Vec<FnHist>>,
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    let files = input::expand(&a.paths)?;
    let key = match a.by {
        By::Opcode => StatsKey::Opcode,
        By::Family => StatsKey::Family,
        By::Modifier => StatsKey::Modifier,
    };
    let results: Vec<Result<(String, bool, ptxkit::analysis::stats::ModuleStats), String>> = files
        .par_iter()
        .map(|p| {
            let inp = input::read_source(p)?;
            let parsed = ptxkit::parse_bounded(&inp.bytes, 1);
            Ok((
                inp.name,
                parsed.has_errors(),
                module_stats(&parsed.module, key),
            ))
        })
        .collect();
    let mut report = Report {
        by: key,
        files: 0,
        files_with_errors: Vec::new(),
        total: Histogram::default(),
        functions: a.per_function.then(Vec::new),
    };
    let mut status = 0;
    for r in results {
        match r {
            Ok((name, errs, st)) => {
                report.files = report.files.saturating_add(1);
                if errs {
                    eprintln!(
                        "ptx: {name}: has syntax errors (run `ptx check`); counted as parsed"
                    );
                    report.files_with_errors.push(name.clone());
                    status = 1;
                }
                report.total.merge(&st.total);
                if let Some(fs) = &mut report.functions {
                    for f in st.functions {
                        fs.push(FnHist {
                            file: name.clone(),
                            function: f.function,
                            demangled: f.demangled,
                            histogram: f.histogram,
                        });
                    }
                }
            }
            Err(e) => {
                eprintln!("ptx: {e}");
                status = 2;
            }
        }
    }
    if a.json {
        out::json(&report);
    } else {
        out::print(&render(&report, a.top, out::color()));
    }
    Ok(status)
}

fn table(h: &Histogram, top: usize, head: &str, on: bool) -> String {
    let mut t = Table::new(&[
        (head, Align::Left),
        ("count", Align::Right),
        ("share", Align::Right),
    ]);
    let sorted = h.sorted();
    let shown = if top == 0 {
        sorted.len()
    } else {
        top.min(sorted.len())
    };
    for (k, c) in sorted.iter().take(shown) {
        let pct = if h.total == 0 {
            0.0
        } else {
            *c as f64 * 100.0 / h.total as f64
        };
        t.row([k.to_string(), c.to_string(), format!("{pct:.1}%")]);
    }
    let mut s = t.render("  ", on);
    if shown < sorted.len() {
        let rest: u64 = sorted.iter().skip(shown).map(|(_, c)| c).sum();
        s.push_str(&format!(
            "  … {} more ({})\n",
            sorted.len().saturating_sub(shown),
            out::count(rest, "instruction")
        ));
    }
    s
}

/// The human-readable report.
pub fn render(r: &Report, top: usize, on: bool) -> String {
    let head = match r.by {
        StatsKey::Opcode => "opcode",
        StatsKey::Family => "family",
        StatsKey::Modifier => "instruction",
    };
    let mut s = String::new();
    if let Some(fs) = &r.functions {
        {
            for f in fs {
                s.push_str(&format!(
                    "{}: {}  ({})\n",
                    f.file,
                    out::title(&f.function, on),
                    out::count(f.histogram.total, "instruction")
                ));
                s.push_str(&table(&f.histogram, top, head, on));
                s.push('\n');
            }
        }
    }
    s.push_str(&format!(
        "{} in {}, {} distinct\n",
        out::count(r.total.total, "instruction"),
        out::count(r.files as u64, "file"),
        r.total.counts.len()
    ));
    s.push_str(&table(&r.total, top, head, on));
    s
}
