//! `ptx check-asm`: check the inline PTX `asm(...)` statements of CUDA C++
//! sources.

use std::io::Write;
use std::path::PathBuf;

use ptxkit::diag::{render, JsonDiagnostic};
use ptxkit::inline_asm::{self, Verdict};
use ptxkit::{Diagnostic, LineIndex};
use rayon::prelude::*;
use serde::Serialize;

use crate::input;

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
    /// Print JSON on stdout: an object with `statements` and `diagnostics`.
    #[arg(long)]
    pub json: bool,
    /// Print nothing but the exit status.
    #[arg(long, short)]
    pub quiet: bool,
    /// Also list every statement with the targets that accept it, and a
    /// summary (on stdout).
    #[arg(long, short)]
    pub verbose: bool,
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
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

/// Counts over all files.
#[derive(Default)]
struct Tally {
    statements: usize,
    valid: usize,
    invalid: usize,
    skipped: usize,
}

enum Report {
    Io(String),
    Done {
        tally: Tally,
        text: String,
        list: String,
        json: Vec<serde_json::Value>,
    },
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
    let reports: Vec<Report> = files
        .par_iter()
        .map(|f| check_one(f, &a, &targets))
        .collect();
    let mut total = Tally::default();
    let mut io_error = false;
    let mut statements = Vec::new();
    let mut diagnostics = Vec::new();
    let mut err = std::io::stderr().lock();
    let mut out = std::io::stdout().lock();
    for r in reports {
        match r {
            Report::Io(e) => {
                let _ = writeln!(err, "ptx: {e}");
                io_error = true;
            }
            Report::Done {
                tally,
                text,
                list,
                json,
            } => {
                total.statements = total.statements.saturating_add(tally.statements);
                total.valid = total.valid.saturating_add(tally.valid);
                total.invalid = total.invalid.saturating_add(tally.invalid);
                total.skipped = total.skipped.saturating_add(tally.skipped);
                let _ = err.write_all(text.as_bytes());
                if !a.json {
                    let _ = out.write_all(list.as_bytes());
                }
                for s in json {
                    if let Some(ds) = s.get("diagnostics").and_then(|d| d.as_array()) {
                        diagnostics.extend(ds.iter().cloned());
                    }
                    statements.push(s);
                }
            }
        }
    }
    drop(err);
    if a.json && !a.quiet {
        let v = serde_json::json!({ "statements": statements, "diagnostics": diagnostics });
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&v).unwrap_or_default()
        );
    } else if a.verbose && !a.quiet {
        let _ = writeln!(
            out,
            "{} asm statement(s) in {} file(s): {} valid, {} invalid, {} skipped (template not literal); {} target(s)",
            total.statements,
            files.len(),
            total.valid,
            total.invalid,
            total.skipped,
            targets.len()
        );
    }
    Ok(if io_error {
        2
    } else {
        u8::from(total.invalid > 0)
    })
}

fn check_one(f: &std::path::Path, a: &Args, targets: &[String]) -> Report {
    let inp = match input::read(f) {
        Ok(i) => i,
        Err(e) => return Report::Io(e),
    };
    if inp.bytes.len() > ptxkit::MAX_FILE_SIZE {
        return Report::Io(format!(
            "{}: larger than {} bytes",
            inp.name,
            ptxkit::MAX_FILE_SIZE
        ));
    }
    let checked = inline_asm::check_source(&inp.bytes, targets);
    let index = LineIndex::new(&inp.bytes);
    let mut tally = Tally::default();
    let mut text = String::new();
    let mut list = String::new();
    let mut json = Vec::new();
    for c in &checked {
        tally.statements = tally.statements.saturating_add(1);
        let lc = index.line_col(c.statement.keyword.start);
        let (status, accepted, closest, diags): (_, &[String], _, Vec<Diagnostic>) = match &c
            .verdict
        {
            Verdict::Valid { targets } => {
                tally.valid = tally.valid.saturating_add(1);
                ("valid", targets, None, Vec::new())
            }
            Verdict::Invalid {
                closest,
                diagnostics,
            } => {
                tally.invalid = tally.invalid.saturating_add(1);
                let note = match closest {
                    Some(t) if targets.len() > 1 => format!(
                        "no selected target accepts this asm statement; shown as {t} sees it (the closest of {})",
                        targets.len()
                    ),
                    Some(t) => format!("checked as an asm statement for {t}"),
                    None => "in an asm statement: the same for every target".to_string(),
                };
                let ds = diagnostics
                    .iter()
                    .map(|d| d.clone().with_note(note.clone()))
                    .collect();
                ("invalid", &[], closest.as_deref(), ds)
            }
            Verdict::Skipped { diagnostic } => {
                tally.skipped = tally.skipped.saturating_add(1);
                ("skipped", &[], None, vec![diagnostic.clone()])
            }
        };
        if a.quiet {
            continue;
        }
        if a.verbose {
            list.push_str(&format!(
                "{}:{}:{}: {status}{}{}\n",
                inp.name,
                lc.line,
                lc.col,
                if accepted.is_empty() { "" } else { ": " },
                accepted.join(" ")
            ));
        }
        if a.json {
            let s = JsonStatement {
                file: &inp.name,
                line: lc.line,
                column: lc.col,
                status,
                targets: accepted,
                closest_target: closest,
                diagnostics: diags
                    .iter()
                    .map(|d| JsonDiagnostic::new(&inp.name, d, &index))
                    .collect(),
            };
            json.push(serde_json::to_value(&s).unwrap_or_default());
        } else {
            for d in &diags {
                text.push_str(&render(d, &inp.name, &inp.bytes, &index));
            }
        }
    }
    Report::Done {
        tally,
        text,
        list,
        json,
    }
}
