//! `ptx ast`: dump the tree.

use std::io::Write;
use std::path::PathBuf;

use crate::out;

/// Arguments of `ptx ast`.
#[derive(clap::Args)]
pub struct Args {
    /// The file; `-` reads stdin.
    pub path: PathBuf,
    /// Print compact JSON instead of the Rust debug form:
    /// `{"schema_version", "line_starts", "module"}` on one line,
    /// instructions by name, spans as `[start, end]` byte offsets
    /// (docs/ast.schema.json).
    #[arg(long, conflicts_with = "json_lines")]
    pub json: bool,
    /// Print the same JSON as JSON Lines: `{"schema_version",
    /// "line_starts"}`, then each top-level item of the module on a line of
    /// its own, for consumers that read one item at a time.
    #[arg(long)]
    pub json_lines: bool,
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    let l = out::load(&a.path)?;
    let doc = || ptxkit::json::Document::with_lines(&l.parsed.module, l.lines.clone());
    if a.json {
        out::json_compact(&doc());
    } else if a.json_lines {
        out::json_lines(doc().lines());
    } else {
        let mut o = out::stdout();
        let _ = writeln!(o, "{:#?}", l.parsed.module);
        let _ = o.flush();
    }
    Ok(l.status())
}
