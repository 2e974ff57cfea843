//! `ptx ast`: dump the tree.

use std::path::PathBuf;

use crate::out;

/// Arguments of `ptx ast`.
#[derive(clap::Args)]
pub struct Args {
    /// The file; `-` reads stdin.
    pub path: PathBuf,
    /// Print JSON instead of the Rust debug form: `{"schema_version", "module"}`,
    /// instructions by name, spans with lines and columns
    /// (docs/ast.schema.json).
    #[arg(long)]
    pub json: bool,
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    let l = out::load(&a.path)?;
    if a.json {
        out::json(&ptxkit::json::Document::with_lines(
            &l.parsed.module,
            l.lines.clone(),
        ));
    } else {
        out::print(&format!("{:#?}\n", l.parsed.module));
    }
    Ok(l.status())
}
