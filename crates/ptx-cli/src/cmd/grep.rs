//! `ptx grep`: find instructions by opcode and modifiers.

use std::path::PathBuf;

use ptxkit::analysis::grep::{grep_module, Hit, Pattern};
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
    let mut found = Vec::new();
    let mut io_error = false;
    let mut any = false;
    let on = out::color();
    // Files searched on all cores; each file's lines printed, in the files'
    // order, as soon as those before it are (not the whole output held).
    crate::ordered::map_in_order(
        &files,
        |p| {
            let inp = input::read_source(p)?;
            let parsed = ptxkit::parse_bounded(&inp.bytes, 1);
            let lines = ptxkit::LineIndex::new(&inp.bytes);
            Ok(FileHits {
                hits: grep_module(&parsed.module, &lines, &pat),
                file: inp.name,
            })
        },
        |r: Result<FileHits, String>| match r {
            Err(e) => {
                eprintln!("ptx: {e}");
                io_error = true;
            }
            Ok(f) => {
                any |= !f.hits.is_empty();
                if a.json {
                    if !f.hits.is_empty() {
                        found.push(f);
                    }
                } else {
                    out::print(&lines_of(&f, a.count, on));
                }
            }
        },
    );
    if a.json {
        out::json(&found);
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

/// The text lines of one file's matches (or its count, with `--count`).
fn lines_of(f: &FileHits, count: bool, on: bool) -> String {
    let mut s = String::new();
    if count {
        if !f.hits.is_empty() {
            s.push_str(&format!("{}: {}\n", f.file, f.hits.len()));
        }
        return s;
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
    s
}
