//! `ptx fmt`: canonical or lossless printing.

use std::io::Write;
use std::path::PathBuf;

use ptxkit::diag::render;
use ptxkit::LineIndex;

use crate::input;

/// Arguments of `ptx fmt`.
#[derive(clap::Args)]
pub struct Args {
    /// The file; `-` reads stdin.
    pub path: PathBuf,
    /// Reproduce the input byte for byte from the tree instead of reformatting.
    #[arg(long)]
    pub lossless: bool,
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    let inp = input::read(&a.path)?;
    let parsed = ptxkit::parse_parallel(&inp.bytes);
    if parsed.has_errors() {
        let index = LineIndex::new(&inp.bytes);
        for d in &parsed.diagnostics {
            eprint!("{}", render(d, &inp.name, &inp.bytes, &index));
        }
        return Ok(1);
    }
    let out = if a.lossless {
        ptxkit::print::lossless(&parsed.module, &inp.bytes)
    } else {
        ptxkit::print::canonical(&parsed.module).into_bytes()
    };
    let _ = std::io::stdout().lock().write_all(&out);
    Ok(0)
}
