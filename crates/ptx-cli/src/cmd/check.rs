//! `ptx check`: parse and report.

use std::io::Write;
use std::path::PathBuf;

use ptxkit::diag::{render, JsonDiagnostic};
use ptxkit::LineIndex;

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
    #[arg(long, value_name = "sm_XX")]
    pub target: Option<String>,
    /// Only parse: skip the semantic checks.
    #[arg(long)]
    pub syntax_only: bool,
}

pub fn run(a: Args) -> u8 {
    let files = match input::expand(&a.paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("ptx: {e}");
            return 2;
        }
    };
    let mut any_error = false;
    let mut io_error = false;
    let mut json = Vec::new();
    let stderr = std::io::stderr();
    for f in &files {
        let inp = match input::read(f) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("ptx: {e}");
                io_error = true;
                continue;
            }
        };
        let mut parsed = ptxkit::parse(&inp.bytes);
        if !parsed.has_errors() && !a.syntax_only {
            let opts = ptxkit::check::CheckOptions {
                target: a.target.clone(),
            };
            parsed
                .diagnostics
                .extend(ptxkit::check::check(&parsed.module, &opts));
            parsed.diagnostics.sort_by_key(|d| d.span.start);
        }
        if parsed.diagnostics.is_empty() {
            continue;
        }
        any_error |= parsed.has_errors();
        if a.quiet {
            continue;
        }
        let index = LineIndex::new(&inp.bytes);
        if a.json {
            for d in &parsed.diagnostics {
                json.push(
                    serde_json::to_value(JsonDiagnostic::new(&inp.name, d, &index))
                        .unwrap_or_default(),
                );
            }
        } else {
            let mut err = stderr.lock();
            for d in &parsed.diagnostics {
                let _ = err.write_all(render(d, &inp.name, &inp.bytes, &index).as_bytes());
            }
        }
    }
    if a.json && !a.quiet {
        println!(
            "{}",
            serde_json::to_string_pretty(&json).unwrap_or_default()
        );
    }
    if io_error {
        2
    } else {
        u8::from(any_error)
    }
}
