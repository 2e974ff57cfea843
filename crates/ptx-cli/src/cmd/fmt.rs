//! `ptx fmt`: canonical (comment-keeping) or lossless printing; `--check`
//! and `--write` for files.

use std::io::Write;
use std::path::{Path, PathBuf};

use ptxkit::diag::render;
use ptxkit::LineIndex;

use crate::input;

/// Arguments of `ptx fmt`.
#[derive(clap::Args)]
pub struct Args {
    /// The files (directories stand for the `.ptx` files below them); `-`
    /// reads stdin.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Reproduce the input byte for byte from the tree instead of reformatting.
    #[arg(long, conflicts_with_all = ["check", "write"])]
    pub lossless: bool,
    /// Print nothing but the files that are not canonical, each with its
    /// first differing line (as it is, then as `fmt` prints it); exit 1
    /// when there is one. Compiler output is rarely canonical (blank
    /// lines, alignment): the shipped examples, nvcc's output kept as
    /// written, are all reported.
    #[arg(long, conflicts_with = "write")]
    pub check: bool,
    /// Rewrite each file that is not canonical in place.
    #[arg(long)]
    pub write: bool,
}

/// What became of one file.
enum Outcome {
    /// Already canonical (or printed).
    Same,
    /// Not canonical: under `--check`, reported; under `--write`, rewritten.
    Changed,
    /// Syntax errors (reported) or an I/O error.
    Failed,
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    let files = input::expand_with(&a.paths, &["ptx"])?;
    if files.is_empty() {
        return Err("no input files".into());
    }
    if a.write && files.iter().any(|p| p.as_os_str() == "-") {
        return Err("--write needs files, not stdin".into());
    }
    let mut changed = 0usize;
    let mut failed = 0usize;
    for path in &files {
        match one(&a, path) {
            Ok(Outcome::Same) => {}
            Ok(Outcome::Changed) => changed = changed.saturating_add(1),
            Ok(Outcome::Failed) => failed = failed.saturating_add(1),
            Err(e) => {
                eprintln!("ptx: {e}");
                failed = failed.saturating_add(1);
            }
        }
    }
    let of = |n: usize| {
        format!(
            "{n} of {} file{}",
            files.len(),
            if files.len() == 1 { "" } else { "s" }
        )
    };
    if a.check && changed > 0 {
        // `--write` rewrites only files that parse: it is suggested for
        // those alone.
        eprintln!(
            "{} not canonical (`ptx fmt --write` rewrites {})",
            of(changed),
            if changed == 1 { "it" } else { "them" }
        );
    }
    if failed > 0 {
        eprintln!(
            "{} not formatted: syntax errors or unreadable (fix the errors above first)",
            of(failed)
        );
    }
    let failed = failed > 0;
    Ok(if failed || (a.check && changed > 0) {
        1
    } else {
        0
    })
}

fn one(a: &Args, path: &Path) -> Result<Outcome, String> {
    if (a.write || a.check) && path.as_os_str() != "-" && input::is_binary_file(path) {
        return Err(format!(
            "{}: a CUDA binary; extract its PTX with `ptx extract` first",
            path.display()
        ));
    }
    let inp = input::read(path)?;
    let max = crate::report::DEFAULT_MAX_ERRORS;
    let parsed = ptxkit::parse_parallel_bounded(&inp.bytes, max);
    if parsed.has_errors() {
        let index = LineIndex::new(&inp.bytes);
        for d in &parsed.diagnostics {
            eprint!("{}", render(d, &inp.name, &inp.bytes, &index));
        }
        crate::out::report_omitted(&inp.name, &parsed);
        return Ok(Outcome::Failed);
    }
    let out = if a.lossless {
        ptxkit::print::lossless_from(&parsed.module, &parsed.module, &inp.bytes)
    } else {
        ptxkit::print::canonical_with_comments(&parsed.module, &inp.bytes).into_bytes()
    };
    if !a.check && !a.write {
        let _ = std::io::stdout().lock().write_all(&out);
        return Ok(Outcome::Same);
    }
    if out == inp.bytes {
        return Ok(Outcome::Same);
    }
    if a.check {
        println!("{}", first_difference(&inp.name, &inp.bytes, &out));
        return Ok(Outcome::Changed);
    }
    write_in_place(path, &out)?;
    Ok(Outcome::Changed)
}

/// `name:LINE: not canonical` with the first line that differs, as it is
/// and as it would be.
fn first_difference(name: &str, old: &[u8], new: &[u8]) -> String {
    let mut a = old.split(|b| *b == b'\n');
    let mut b = new.split(|b| *b == b'\n');
    let mut line = 1usize;
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => line = line.saturating_add(1),
            (x, y) => {
                let show = |l: Option<&[u8]>| match l {
                    Some(b"") => "(blank line)".to_string(),
                    Some(l) => {
                        let t = String::from_utf8_lossy(l);
                        let t: String = t.chars().take(120).collect();
                        format!("{:?}", t)
                    }
                    None => "(end of file)".to_string(),
                };
                return format!(
                    "{name}:{line}: not canonical\n  - {}\n  + {}",
                    show(x),
                    show(y)
                );
            }
        }
    }
}

/// Replace `path`'s contents with `bytes` through a new file beside it,
/// renamed over it, so that an interrupted write leaves the original. A
/// symbolic link is followed (its target is formatted, the link stays),
/// only a regular file is written, and the new file is created under a
/// fresh name that nothing else can have put there (a fixed name beside
/// the file could be a link or a FIFO planted in its place).
fn write_in_place(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let target = std::fs::canonicalize(path).map_err(err)?;
    let meta = std::fs::metadata(&target).map_err(err)?;
    if !meta.is_file() {
        return Err(format!("{}: not a regular file", path.display()));
    }
    let dir = target.parent().unwrap_or_else(|| Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".ptxfmt.")
        .tempfile_in(dir)
        .map_err(err)?;
    tmp.write_all(bytes).map_err(err)?;
    tmp.as_file().sync_all().map_err(err)?;
    let _ = tmp.as_file().set_permissions(meta.permissions());
    // On error the temporary file is removed when dropped.
    tmp.persist(&target).map_err(|e| err(e.error))?;
    Ok(())
}
