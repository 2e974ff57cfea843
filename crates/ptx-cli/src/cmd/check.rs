//! `ptx check`: parse, check and report.

use std::path::PathBuf;

use ptxkit::LineIndex;

use crate::input;
use crate::report::{self, FileReport, Printer};

/// Arguments of `ptx check`.
#[derive(clap::Args)]
pub struct Args {
    /// Files or directories (searched for `*.ptx`); `-` reads stdin.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub report: report::Options,
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
    // order the files were named, each as soon as those before it are out
    // (one file stays on this thread).
    let mut printer = Printer::new(&a.report);
    crate::ordered::map_in_order(
        &files,
        |f| check_one(f, &a),
        |r| match r {
            Err(e) => printer.io_error(&e),
            Ok(r) => printer.file(r),
        },
    );
    Ok(printer.finish())
}

fn check_one(f: &input::Source, a: &Args) -> Result<FileReport, String> {
    let inp = input::open_source(f)?;
    let max = a.report.max_errors;
    let collected = if a.syntax_only {
        // Only the diagnostics are needed: the streaming check never holds
        // more than one statement of the tree.
        ptxkit::check::syntax_check_sorted(&inp.bytes, max)
    } else {
        // Parsed and checked one top-level item at a time.
        let opts = ptxkit::check::CheckOptions {
            target: a.target.clone(),
            version: a.ptx_version,
            ..Default::default()
        };
        // Pages of the file behind the piece just checked (an item or one
        // statement of a body) go back to the system as the check moves on.
        ptxkit::check::check_source_sorted(&inp.bytes, &opts, max, |done| {
            inp.bytes.release_before(done)
        })
    };
    Ok(FileReport::new(
        &inp.name,
        &inp.bytes,
        || index_releasing(&inp.bytes),
        collected,
        &a.report,
    ))
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
