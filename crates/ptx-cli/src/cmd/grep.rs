//! `ptx grep`: find instructions by opcode and modifiers.

use std::path::PathBuf;

use ptxkit::analysis::grep::{grep_module, Hit, Pattern};
use rayon::prelude::*;
use serde::Serialize;

use crate::input;
use crate::out::{self, style};

/// Arguments of `ptx grep`.
#[derive(clap::Args)]
#[command(after_help = "\
PATTERN is dot-separated components matched against the instruction's opcode
followed by its modifiers in written order (ld.global.nc.v4.f32 reads as
ld, global, nc, v4, f32):
  * a word equals exactly one element; the first element is the opcode;
  * a component that is exactly `*` matches any run of zero or more elements;
  * further modifiers after the last component are allowed; end the pattern
    with `$` to forbid them.
Examples: 'ld.global.*.v4'  'wgmma.*'  'atom.*.cas'  '*.shared::cluster'  'bar.sync$'")]
pub struct Args {
    /// The pattern (see below).
    pub pattern: String,
    /// Files or directories (searched for `*.ptx`); `-` reads stdin.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Print only the number of matches per file.
    #[arg(short = 'c', long)]
    pub count: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Matches in one file.
#[derive(Serialize)]
pub struct FileHits {
    /// The file.
    pub file: String,
    /// Its matches.
    pub hits: Vec<Hit>,
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    let pat = Pattern::parse(&a.pattern).map_err(|e| format!("bad pattern: {e}"))?;
    if let Some(why) = pat.unknown_opcode() {
        return Err(format!("bad pattern: {why}"));
    }
    let files = input::expand(&a.paths)?;
    let results: Vec<Result<FileHits, String>> = files
        .par_iter()
        .map(|p| {
            let inp = input::read_source(p)?;
            let parsed = ptxkit::parse_bounded(&inp.bytes, 1);
            let lines = ptxkit::LineIndex::new(&inp.bytes);
            Ok(FileHits {
                hits: grep_module(&parsed.module, &lines, &pat),
                file: inp.name,
            })
        })
        .collect();
    let mut found = Vec::new();
    let mut io_error = false;
    for r in results {
        match r {
            Ok(h) => found.push(h),
            Err(e) => {
                eprintln!("ptx: {e}");
                io_error = true;
            }
        }
    }
    let any = found.iter().any(|f| !f.hits.is_empty());
    if a.json {
        found.retain(|f| !f.hits.is_empty());
        out::json(&found);
    } else {
        let on = out::color();
        let mut s = String::new();
        for f in &found {
            if a.count {
                if !f.hits.is_empty() {
                    s.push_str(&format!("{}: {}\n", f.file, f.hits.len()));
                }
                continue;
            }
            for h in &f.hits {
                s.push_str(&format!(
                    "{}:{}: {}  {}\n",
                    f.file,
                    h.line,
                    h.instruction.replace('\t', " "),
                    out::paint(&format!("[{}]", out::name(&h.function)), style::DIM, on)
                ));
            }
        }
        out::print(&s);
    }
    // grep(1) convention: 0 found, 1 none, 2 trouble.
    Ok(if io_error {
        2
    } else if any {
        0
    } else {
        1
    })
}
