//! `ptx ast`: dump the tree.

use std::path::PathBuf;

use ptxkit::diag::render;
use ptxkit::LineIndex;

use crate::input;

/// Arguments of `ptx ast`.
#[derive(clap::Args)]
pub struct Args {
    /// The file; `-` reads stdin.
    pub path: PathBuf,
    /// Print JSON instead of the Rust debug form.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: Args) -> u8 {
    let inp = match input::read(&a.path) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("ptx: {e}");
            return 2;
        }
    };
    let parsed = ptxkit::parse_parallel(&inp.bytes);
    let index = LineIndex::new(&inp.bytes);
    for d in &parsed.diagnostics {
        eprint!("{}", render(d, &inp.name, &inp.bytes, &index));
    }
    if a.json {
        match serde_json::to_string_pretty(&parsed.module) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("ptx: {e}");
                return 2;
            }
        }
    } else {
        println!("{:#?}", parsed.module);
    }
    u8::from(parsed.has_errors())
}
