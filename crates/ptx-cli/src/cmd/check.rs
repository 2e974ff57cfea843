//! `ptx check`: parse, check and report.

use std::io::Write;
use std::path::PathBuf;

use ptxkit::diag::{render, JsonDiagnostic};
use ptxkit::LineIndex;
use rayon::prelude::*;

use crate::input;

/// Arguments of `ptx check`.
#[derive(clap::Args)]
pub struct Args {
    /// Files or directories (searched for `*.ptx`); `-` reads stdin.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Print diagnostics as JSON (one array) on stdout.
    #[arg(long)]
    pub json: bool,
    /// Print nothing but the exit status.
    #[arg(long, short)]
    pub quiet: bool,
    /// Check against this target (e.g. `sm_80`) instead of the module's `.target`.
    #[arg(long, value_name = "sm_XX", value_parser = crate::validate::target)]
    pub target: Option<String>,
    /// Check against this PTX ISA version (e.g. `7.8`) instead of the
    /// module's `.version`.
    #[arg(long, value_name = "M.m", value_parser = crate::validate::version)]
    pub ptx_version: Option<ptxkit::isa::PtxVersion>,
    /// Only parse: skip the semantic checks.
    #[arg(long)]
    pub syntax_only: bool,
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    let files = input::expand(&a.paths)?;
    // Files are checked in parallel (all cores); reports come out in the
    // order the files were named.
    // One file stays on this thread: no pool to start.
    let reports: Vec<Report> = if files.len() == 1 {
        files.iter().map(|f| check_one(f, &a)).collect()
    } else {
        files.par_iter().map(|f| check_one(f, &a)).collect()
    };
    let mut any_error = false;
    let mut io_error = false;
    let mut json = Vec::new();
    let mut err = std::io::stderr().lock();
    for r in reports {
        match r {
            Report::Io(e) => {
                let _ = writeln!(err, "ptx: {e}");
                io_error = true;
            }
            Report::Done {
                errors,
                text,
                json: j,
            } => {
                any_error |= errors;
                let _ = err.write_all(text.as_bytes());
                json.extend(j);
            }
        }
    }
    drop(err);
    if a.json && !a.quiet {
        println!(
            "{}",
            serde_json::to_string_pretty(&json).unwrap_or_default()
        );
    }
    Ok(if io_error { 2 } else { u8::from(any_error) })
}

/// The outcome of checking one file.
enum Report {
    /// It could not be read.
    Io(String),
    /// Whether it has errors, and its diagnostics rendered as text or JSON.
    Done {
        errors: bool,
        text: String,
        json: Vec<serde_json::Value>,
    },
}

fn check_one(f: &input::Source, a: &Args) -> Report {
    let inp = match input::open_source(f) {
        Ok(i) => i,
        Err(e) => return Report::Io(e),
    };
    let diagnostics = if a.syntax_only {
        // Only the diagnostics are needed: the streaming check never holds
        // more than one top-level item (per thread) of the tree.
        ptxkit::syntax_check(&inp.bytes)
    } else {
        // Parsed and checked one top-level item at a time.
        let opts = ptxkit::check::CheckOptions {
            target: a.target.clone(),
            version: a.ptx_version,
        };
        // Pages of the file behind the piece just checked (an item or one
        // statement of a body) go back to the system as the check moves on.
        ptxkit::check::check_source_with(&inp.bytes, &opts, |done| inp.bytes.release_before(done))
    };
    let errors = diagnostics.iter().any(|d| d.is_error());
    let mut text = String::new();
    let mut json = Vec::new();
    if !a.quiet && !diagnostics.is_empty() {
        let index = index_releasing(&inp.bytes);
        for d in &diagnostics {
            if a.json {
                json.push(
                    serde_json::to_value(JsonDiagnostic::new(&inp.name, d, &index))
                        .unwrap_or_default(),
                );
            } else {
                text.push_str(&render(d, &inp.name, &inp.bytes, &index));
            }
        }
    }
    Report::Done { errors, text, json }
}

/// The line index of `bytes`, built a megabyte at a time, giving back each
/// megabyte's pages once indexed: rendering reads only the quoted lines
/// again, so a large mapped file never becomes resident as a whole.
fn index_releasing(bytes: &input::Bytes) -> LineIndex {
    const CHUNK: usize = 1 << 20;
    let mut index = LineIndex::empty();
    for (i, chunk) in bytes.chunks(CHUNK).enumerate() {
        let at = i.saturating_mul(CHUNK);
        index.extend(at, chunk);
        bytes.release(at, at.saturating_add(chunk.len()));
    }
    index
}
