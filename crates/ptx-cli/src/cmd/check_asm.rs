//! `ptx check-asm`: check the inline PTX `asm(...)` statements of CUDA C++
//! sources.

use std::path::PathBuf;

use ptxkit::diag::{Bounded, JsonDiagnostic};
use ptxkit::inline_asm::{self, Verdict};
use ptxkit::LineIndex;
use serde::Serialize;

use crate::input;
use crate::report::{self, FileReport, Printer};
use crate::spool::{json_element, Spool};

/// The extensions searched in directories.
const EXTENSIONS: [&str; 6] = ["cu", "cuh", "h", "hpp", "cpp", "inl"];

/// Arguments of `ptx check-asm`.
#[derive(clap::Args)]
pub struct Args {
    /// C++ files, or directories (searched for .cu .cuh .h .hpp .cpp .inl);
    /// `-` reads stdin.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// A target to check against (repeatable, or comma-separated); by
    /// default every target the catalog knows. A statement is valid when
    /// one of them accepts it.
    #[arg(
        long = "target",
        value_name = "sm_XX",
        value_delimiter = ',',
        value_parser = crate::validate::target
    )]
    pub targets: Vec<String>,
    /// Output (`--format json` or `--json`: an object with `statements`
    /// and `diagnostics`).
    #[command(flatten)]
    pub report: report::Options,
    /// Also list every statement with the targets that accept it, its
    /// guard and expanded macros, and a summary (on stdout).
    #[arg(long, short)]
    pub verbose: bool,
    /// An include directory searched for the headers a source includes
    /// (their macros are expanded; repeatable).
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Define a macro, as nvcc's `-D NAME[=VALUE]` (repeatable).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// A macro known to be undefined, as nvcc's `-U NAME`: conditions on
    /// it are decided instead of checked both ways (repeatable).
    #[arg(short = 'U', value_name = "NAME")]
    pub undefine: Vec<String>,
}

/// One statement in the JSON output.
#[derive(Serialize)]
struct JsonStatement<'a> {
    file: &'a str,
    line: u32,
    column: u32,
    /// `valid`, `invalid` or `skipped`.
    status: &'static str,
    /// The targets that accept it.
    targets: &'a [String],
    /// For an invalid statement, the target whose diagnostics are given.
    closest_target: Option<&'a str>,
    /// The conditional compilation around it and the targets it is
    /// compiled and checked for.
    guard: &'a inline_asm::Guard,
    /// The macros expanded to read it.
    expanded: &'a [String],
    /// How many readings its inner `#if` groups give.
    variants: usize,
    /// What was assumed.
    notes: &'a [String],
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

/// A statement no selected device pass compiles, in the JSON output.
#[derive(Serialize)]
struct JsonNotCompiled<'a> {
    file: &'a str,
    line: u32,
    column: u32,
    /// Always `not_compiled`.
    status: &'static str,
    reason: &'a str,
    guard: &'a inline_asm::Guard,
}

/// Counts over all files.
#[derive(Default)]
struct Tally {
    statements: usize,
    valid: usize,
    invalid: usize,
    skipped: usize,
    not_compiled: usize,
}

/// What checking one file gives.
struct Report {
    tally: Tally,
    /// The diagnostics, for the printer.
    file: FileReport,
    /// The `-v` listing.
    list: String,
    /// The statements as JSON array elements ([`json_element`]).
    statements: Spool,
    /// Their diagnostics as JSON array elements.
    diagnostics: Spool,
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    for t in &a.targets {
        if !inline_asm::known_target(t) {
            return Err(format!(
                "unknown target `{t}`; known: {}",
                inline_asm::all_targets().join(" ")
            ));
        }
    }
    let targets = if a.targets.is_empty() {
        inline_asm::all_targets()
    } else {
        a.targets.clone()
    };
    let files = input::expand_with(&a.paths, &EXTENSIONS)?;
    let o = &a.report;
    let mut total = Tally::default();
    let mut printer = Printer::with_own_json(o);
    // The JSON document's two lists, written out as each file's turn
    // comes (in a temporary file past a size), printed at the end.
    let mut statements = Spool::new();
    let mut diagnostics = Spool::new();
    // Checked on all cores, each file's report given out as soon as those
    // before it are (`crate::ordered`), not all held to the end.
    crate::ordered::map_in_order(
        &files,
        |f| check_one(f, &a, &targets),
        |r| {
            let r = match r {
                Ok(r) => r,
                Err(e) => {
                    printer.io_error(&e);
                    return;
                }
            };
            total.statements = total.statements.saturating_add(r.tally.statements);
            total.valid = total.valid.saturating_add(r.tally.valid);
            total.invalid = total.invalid.saturating_add(r.tally.invalid);
            total.skipped = total.skipped.saturating_add(r.tally.skipped);
            total.not_compiled = total.not_compiled.saturating_add(r.tally.not_compiled);
            if o.format() == report::Format::Text && !o.quiet {
                crate::out::print(&r.list);
            }
            append(&mut statements, r.statements);
            append(&mut diagnostics, r.diagnostics);
            printer.file(r.file);
        },
    );
    if a.verbose && !o.quiet && o.format() == report::Format::Text {
        crate::out::print(&format!(
            "{} in {}: {} valid, {} invalid, {} skipped (template not literal), {} not compiled for a selected target; {}\n",
            crate::out::count(total.statements as u64, "asm statement"),
            crate::out::count(files.len() as u64, "file"),
            total.valid,
            total.invalid,
            total.skipped,
            total.not_compiled,
            crate::out::count(targets.len() as u64, "target")
        ));
    }
    if o.format() == report::Format::Json && !o.quiet {
        print_json(statements, diagnostics);
    }
    let status = printer.finish();
    Ok(if status == 2 {
        2
    } else {
        u8::from(total.invalid > 0)
    })
}

/// Append the elements of `more` to `list`, the first of all without its
/// comma.
fn append(list: &mut Spool, more: Spool) {
    let skip = u64::from(list.is_empty());
    if let Err(e) = more.copy_to(skip, list, None) {
        eprintln!("ptx: JSON output incomplete: {e}");
    }
}

/// Print the JSON document, `{"diagnostics": [...], "statements": [...]}`
/// as `serde_json::to_writer_pretty` prints it.
fn print_json(statements: Spool, diagnostics: Spool) {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let list = |name: &str, items: Spool, out: &mut dyn Write| {
        let any = !items.is_empty();
        write!(out, "  \"{name}\": [")?;
        items.copy_to(0, out, None)?;
        out.write_all(if any { b"\n  ]" } else { b"]" })
    };
    let _ = out
        .write_all(b"{\n")
        .and_then(|()| list("diagnostics", diagnostics, &mut out))
        .and_then(|()| out.write_all(b",\n"))
        .and_then(|()| list("statements", statements, &mut out))
        .and_then(|()| out.write_all(b"\n}\n"))
        .and_then(|()| out.flush());
}

fn check_one(f: &std::path::Path, a: &Args, targets: &[String]) -> Result<Report, String> {
    let inp = input::open_cpp(f)?;
    if inp.bytes.len() > ptxkit::MAX_FILE_SIZE {
        return Err(format!(
            "{}: larger than {} bytes",
            inp.name,
            ptxkit::MAX_FILE_SIZE
        ));
    }
    if let Some(why) = ptxkit::sniff::not_text(&inp.bytes) {
        return Err(format!(
            "{}: {} (check-asm reads C++ and CUDA source files)",
            inp.name,
            why.describe("C++ source")
        ));
    }
    let o = &a.report;
    let json_out = o.format() == report::Format::Json;
    let opts = inline_asm::Options {
        targets: targets.to_vec(),
        path: (f.as_os_str() != "-").then(|| f.to_path_buf()),
        include_dirs: a.include.clone(),
        defines: a
            .define
            .iter()
            .map(|d| match d.split_once('=') {
                Some((n, v)) => (n.to_string(), v.to_string()),
                None => (d.clone(), "1".to_string()),
            })
            .collect(),
        undefines: a.undefine.clone(),
    };
    let index = LineIndex::new(&inp.bytes);
    let mut tally = Tally::default();
    let mut all = Bounded::new(o.max_errors);
    let mut lines: Vec<(u32, String)> = Vec::new();
    // The statements compiled for no selected target come first in the
    // JSON list, then the checked ones, each in source order.
    let mut not_compiled = Spool::new();
    let mut statements = Spool::new();
    let mut diagnostics = Spool::new();
    // Each statement reported as it is checked: the results are not held.
    inline_asm::check_file_each(&inp.bytes, &opts, |outcome| match outcome {
        inline_asm::Outcome::NotCompiled(n) => {
            tally.statements = tally.statements.saturating_add(1);
            tally.not_compiled = tally.not_compiled.saturating_add(1);
            let lc = index.line_col(n.statement.keyword.start);
            if a.verbose && !o.quiet {
                lines.push((
                    n.statement.keyword.start,
                    format!(
                        "{}:{}:{}: not compiled: {}{}\n",
                        inp.name,
                        lc.line,
                        lc.col,
                        n.reason,
                        guard_text(&n.guard)
                    ),
                ));
            }
            if json_out {
                let s = JsonNotCompiled {
                    file: &inp.name,
                    line: lc.line,
                    column: lc.col,
                    status: "not_compiled",
                    reason: &n.reason,
                    guard: &n.guard,
                };
                json_element(&mut not_compiled, &s, 1);
            }
        }
        inline_asm::Outcome::Checked(c) => {
            tally.statements = tally.statements.saturating_add(1);
            let lc = index.line_col(c.statement.keyword.start);
            let status = c.verdict.status();
            let diags = c.verdict.diagnostics(c.guard.checked_for.len());
            let (accepted, closest): (&[String], _) = match &c.verdict {
                Verdict::Valid { targets } => {
                    tally.valid = tally.valid.saturating_add(1);
                    (&targets[..], None)
                }
                Verdict::Invalid { closest, .. } => {
                    tally.invalid = tally.invalid.saturating_add(1);
                    (&[], closest.as_deref())
                }
                Verdict::Skipped { .. } => {
                    tally.skipped = tally.skipped.saturating_add(1);
                    (&[], None)
                }
            };
            if o.quiet {
                all.extend(diags);
                return;
            }
            if a.verbose {
                let mut list = format!(
                    "{}:{}:{}: {status}{}{}{}{}\n",
                    inp.name,
                    lc.line,
                    lc.col,
                    if accepted.is_empty() { "" } else { ": " },
                    accepted.join(" "),
                    guard_text(&c.guard),
                    if c.expanded.is_empty() {
                        String::new()
                    } else {
                        format!(" [expanded: {}]", c.expanded.join(" "))
                    }
                );
                for n in &c.notes {
                    list.push_str(&format!("    note: {n}\n"));
                }
                lines.push((c.statement.keyword.start, list));
            }
            if json_out {
                let ds: Vec<JsonDiagnostic> = diags
                    .iter()
                    .map(|d| JsonDiagnostic::new(&inp.name, d, &index))
                    .collect();
                for d in &ds {
                    json_element(&mut diagnostics, d, 1);
                }
                let s = JsonStatement {
                    file: &inp.name,
                    line: lc.line,
                    column: lc.col,
                    status,
                    targets: accepted,
                    closest_target: closest,
                    guard: &c.guard,
                    expanded: &c.expanded,
                    variants: c.variants,
                    notes: &c.notes,
                    diagnostics: ds,
                };
                json_element(&mut statements, &s, 1);
            }
            all.extend(diags);
        }
    });
    if !statements.is_empty() {
        let _ = statements.copy_to(0, &mut not_compiled, None);
    }
    let statements = not_compiled;
    lines.sort_by_key(|(at, _)| *at);
    let list: String = lines.into_iter().map(|(_, l)| l).collect();
    let found = all.into_sorted();
    let file = if json_out {
        FileReport::counted(&inp.name, &found)
    } else {
        FileReport::new(&inp.name, &inp.bytes, || index, found, o)
    };
    Ok(Report {
        tally,
        file,
        list,
        statements,
        diagnostics,
    })
}

/// The `-v` text for a guard: its conditions and the targets they admit.
fn guard_text(g: &inline_asm::Guard) -> String {
    let mut s = String::new();
    if !g.conditions.is_empty() {
        s.push_str(&format!(
            " (guard {}: {})",
            g.conditions
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(" and "),
            g.compiled_for_text
        ));
    }
    if !g.assumed_undefined.is_empty() {
        s.push_str(&format!(
            " (taken as undefined: {})",
            g.assumed_undefined.join(" ")
        ));
    }
    if !g.undecidable.is_empty() {
        s.push_str(&format!(
            " (undecidable, every target: {})",
            g.undecidable.join("; ")
        ));
    }
    s
}
