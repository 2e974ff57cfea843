//! Reporting the diagnostics of `ptx check` and `ptx check-asm`: as text
//! frames on stderr (colour when stderr is a terminal and `NO_COLOR` is
//! unset), as JSON, SARIF 2.1.0 or GitHub workflow commands on stdout; the
//! first `--max-errors` of each file with a count of the rest; a summary
//! line `N errors, M warnings in K files` on stderr.

mod github;
mod sarif;
mod sarif_uri;

use std::io::{IsTerminal, Write};

use crate::spool::{json_element, Spool};

use ptxkit::diag::{render_styled, Code, JsonDiagnostic, Sorted};
use ptxkit::{Diagnostic, LineIndex};

/// The default of `--max-errors`.
pub const DEFAULT_MAX_ERRORS: usize = 100;

/// How diagnostics are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `path:line:col: error: message [code]` and a code frame, on stderr.
    #[default]
    Text,
    /// One JSON document on stdout.
    Json,
    /// A SARIF 2.1.0 log on stdout (code scanning, IDEs).
    Sarif,
    /// GitHub Actions workflow commands (`::error file=...`) on stdout.
    Github,
}

/// The reporting options shared by the check commands.
#[derive(clap::Args, Clone, Debug)]
pub struct Options {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Same as `--format json`.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Print nothing but the exit status.
    #[arg(long, short)]
    pub quiet: bool,
    /// Report at most N diagnostics per file (the first in source order),
    /// then how many more there were; 0 reports all.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_ERRORS)]
    pub max_errors: usize,
}

impl Options {
    /// The format asked for.
    pub fn format(&self) -> Format {
        if self.json {
            Format::Json
        } else {
            self.format
        }
    }
}

/// Whether to colour standard error.
pub fn stderr_color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// A diagnostic with its positions resolved, for the machine formats.
#[derive(Clone, Debug)]
pub struct Located {
    /// The file.
    pub file: String,
    /// Start and end, 1-based line and column.
    pub start: (u32, u32),
    /// End (exclusive column).
    pub end: (u32, u32),
    /// The label positions (start and end), in the order of the labels.
    pub labels: Vec<((u32, u32), (u32, u32))>,
    /// The diagnostic.
    pub diagnostic: Diagnostic,
}

impl Located {
    /// Resolve `d`'s positions in `file`.
    pub fn new(file: &str, d: &Diagnostic, index: &LineIndex) -> Located {
        let lc = |o: u32| {
            let p = index.line_col(o);
            (p.line, p.col)
        };
        Located {
            file: file.to_string(),
            start: lc(d.span.start),
            end: lc(d.span.end),
            labels: d
                .labels
                .iter()
                .map(|l| (lc(l.span.start), lc(l.span.end)))
                .collect(),
            diagnostic: d.clone(),
        }
    }
}

/// What checking one file gives the printer, built on a worker thread:
/// its report already written out in the chosen format, in a [`Spool`]
/// (in memory while small, in a temporary file past that), so a file of
/// millions of errors is never held as a report.
#[derive(Default)]
pub struct FileReport {
    /// The file's display name.
    pub name: String,
    /// The report: text frames (for stderr), JSON array elements, GitHub
    /// commands or SARIF results (for stdout), as [`Printer::file`]
    /// expects them.
    out: Spool,
    /// The codes of the SARIF results, sorted, one each.
    codes: Vec<Code>,
    /// Errors and warnings found (shown or not).
    pub errors: usize,
    /// Warnings found.
    pub warnings: usize,
    /// Errors and warnings found but not shown.
    pub omitted: (usize, usize),
    /// Why some diagnostics could not be read back, if so.
    lost: Option<String>,
}

impl FileReport {
    /// The report of `found`, in `bytes` of file `name`, in the chosen
    /// format (nothing kept when quiet); `index` gives the line index of
    /// `bytes` when one is needed. The diagnostics are written out one at
    /// a time as they are read.
    pub fn new(
        name: &str,
        bytes: &[u8],
        index: impl FnOnce() -> LineIndex,
        mut found: Sorted,
        o: &Options,
    ) -> FileReport {
        let mut r = FileReport {
            name: name.to_string(),
            errors: found.errors,
            warnings: found.warnings,
            omitted: (found.omitted_errors(), found.omitted_warnings()),
            ..FileReport::default()
        };
        if o.quiet || found.is_empty() {
            return r;
        }
        let index = index();
        r.add(&mut found, bytes, &index, o);
        if let Some(e) = found.failed() {
            r.lost = Some(e.to_string());
        }
        r
    }

    /// The counts of `found` alone, its diagnostics reported by the caller
    /// (`check-asm`'s JSON document) rather than by the printer.
    pub fn counted(name: &str, found: &Sorted) -> FileReport {
        FileReport {
            name: name.to_string(),
            errors: found.errors,
            warnings: found.warnings,
            omitted: (found.omitted_errors(), found.omitted_warnings()),
            ..FileReport::default()
        }
    }

    /// Write out the diagnostics of this file, found in `bytes` (with
    /// `index`).
    pub fn add(
        &mut self,
        ds: &mut dyn Iterator<Item = Diagnostic>,
        bytes: &[u8],
        index: &LineIndex,
        o: &Options,
    ) {
        if o.quiet {
            return;
        }
        match o.format() {
            Format::Text => {
                let color = stderr_color();
                for d in ds {
                    self.out
                        .push(render_styled(&d, &self.name, bytes, index, color).as_bytes());
                }
            }
            Format::Json => {
                for d in ds {
                    json_element(
                        &mut self.out,
                        &JsonDiagnostic::new(&self.name, &d, index),
                        0,
                    );
                }
            }
            Format::Github => {
                for d in ds {
                    let l = Located::new(&self.name, &d, index);
                    self.out.push(github::command(&l).as_bytes());
                    self.out.push(b"\n");
                }
            }
            Format::Sarif => {
                let base = sarif_uri::Base::current();
                for d in ds {
                    add_code(&mut self.codes, d.code);
                    let l = Located::new(&self.name, &d, index);
                    sarif::result_element(&mut self.out, &l, &base);
                }
            }
        }
    }
}

/// Prints file reports as they come (in the order files were named) and
/// the totals at the end: text and GitHub commands at once, JSON elements
/// at once inside one array, SARIF results into a spool until the log's
/// envelope (which lists the files and the rules first) can be written.
pub struct Printer<'o> {
    opts: &'o Options,
    files: usize,
    errors: usize,
    warnings: usize,
    io_errors: usize,
    /// JSON elements printed so far.
    json_elements: usize,
    /// Whether the caller prints the JSON document itself (`check-asm`).
    own_json: bool,
    /// SARIF: the results so far, the files that have results or none,
    /// and the codes of the results (sorted, one each).
    results: Spool,
    artifacts: Vec<String>,
    codes: Vec<Code>,
}

impl<'o> Printer<'o> {
    /// A printer for these options.
    pub fn new(opts: &'o Options) -> Printer<'o> {
        Printer {
            opts,
            files: 0,
            errors: 0,
            warnings: 0,
            io_errors: 0,
            json_elements: 0,
            own_json: false,
            results: Spool::new(),
            artifacts: Vec::new(),
            codes: Vec::new(),
        }
    }

    /// A printer whose caller writes the JSON document itself (the
    /// printer then writes only the notes on stderr for that format).
    pub fn with_own_json(opts: &'o Options) -> Printer<'o> {
        Printer {
            own_json: true,
            ..Printer::new(opts)
        }
    }

    /// A file that could not be read or is not PTX.
    pub fn io_error(&mut self, e: &str) {
        self.io_errors = self.io_errors.saturating_add(1);
        eprintln!("ptx: {e}");
    }

    /// A checked file.
    pub fn file(&mut self, r: FileReport) {
        self.files = self.files.saturating_add(1);
        self.errors = self.errors.saturating_add(r.errors);
        self.warnings = self.warnings.saturating_add(r.warnings);
        if self.opts.quiet {
            return;
        }
        let FileReport {
            name,
            out,
            codes,
            omitted: (oe, ow),
            lost,
            ..
        } = r;
        let failed = match self.opts.format() {
            Format::Text => out.copy_to(0, &mut std::io::stderr().lock(), None),
            Format::Github => out.copy_to(0, &mut std::io::stdout().lock(), None),
            Format::Json if self.own_json => Ok(()),
            Format::Json => {
                let mut w = std::io::stdout().lock();
                let mut skip = 0;
                if self.json_elements == 0 && !out.is_empty() {
                    // The array opens before the first element, which has
                    // no comma before it.
                    let _ = w.write_all(b"[");
                    skip = 1;
                }
                if !out.is_empty() {
                    self.json_elements = self.json_elements.saturating_add(1);
                }
                out.copy_to(skip, &mut w, None)
            }
            Format::Sarif => {
                let artifact = self.artifacts.len();
                self.artifacts.push(name.clone());
                for c in codes {
                    add_code(&mut self.codes, c);
                }
                let mut line = |l: &[u8], w: &mut dyn Write| sarif::set_artifact(l, artifact, w);
                out.copy_to(0, &mut self.results, Some(&mut line))
            }
        };
        let mut err = std::io::stderr().lock();
        if let Some(e) = lost.or_else(|| failed.err().map(|e| e.to_string())) {
            let _ = writeln!(err, "ptx: {name}: some diagnostics not shown: {e}");
        }
        if oe > 0 || ow > 0 {
            let _ = writeln!(
                err,
                "ptx: {}: ... and {} not shown (--max-errors {}; 0 shows all)",
                name,
                more(oe, ow),
                self.opts.max_errors
            );
        }
    }

    /// End the JSON array of diagnostics (`[]` when there were none), the
    /// SARIF log, or the summary line; the exit status.
    pub fn finish(self) -> u8 {
        let o = self.opts;
        if !o.quiet {
            match o.format() {
                Format::Json if self.own_json => {}
                Format::Json => {
                    let mut out = std::io::stdout().lock();
                    let _ = out.write_all(if self.json_elements == 0 {
                        b"[]\n"
                    } else {
                        b"\n]\n"
                    });
                    let _ = out.flush();
                }
                Format::Sarif => {
                    let log = sarif::Log::new(self.codes, &self.artifacts);
                    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
                    let _ = log
                        .write_pretty(self.results, &mut out)
                        .and_then(|()| writeln!(out))
                        .and_then(|()| out.flush());
                }
                // The summary line ends every run, a clean one too (`-q`
                // silences it): `0 errors, 0 warnings in 9 files`.
                Format::Text | Format::Github => {
                    let files = self.files;
                    let unread = match self.io_errors {
                        0 => String::new(),
                        n => format!("; {} not read", plural(n, "file")),
                    };
                    eprintln!(
                        "{} in {}{unread}",
                        counts(self.errors, self.warnings),
                        plural(files, "file")
                    );
                }
            }
        }
        if self.io_errors > 0 {
            2
        } else {
            u8::from(self.errors > 0)
        }
    }
}

/// Add `c` to `codes` (sorted, one each: the rules of a SARIF log).
fn add_code(codes: &mut Vec<Code>, c: Code) {
    if let Err(at) = codes.binary_search(&c) {
        codes.insert(at, c);
    }
}

/// `3 errors, 1 warning`.
fn counts(errors: usize, warnings: usize) -> String {
    format!(
        "{}, {}",
        plural(errors, "error"),
        plural(warnings, "warning")
    )
}

/// `1 file`, `2,000 files`.
fn plural(n: usize, one: &str) -> String {
    format!("{} {one}{}", thousands(n), if n == 1 { "" } else { "s" })
}

/// `150 more errors and 2 more warnings`.
fn more(errors: usize, warnings: usize) -> String {
    let mut parts = Vec::new();
    for (n, what) in [(errors, "error"), (warnings, "warning")] {
        if n > 0 {
            parts.push(format!(
                "{} more {what}{}",
                thousands(n),
                if n == 1 { "" } else { "s" }
            ));
        }
    }
    parts.join(" and ")
}

/// `2499900` as `2,499,900`.
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len().saturating_add(s.len() / 3));
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len().saturating_sub(i)) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_counts() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(2_499_900), "2,499,900");
        assert_eq!(counts(1, 0), "1 error, 0 warnings");
        assert_eq!(counts(1234, 1), "1,234 errors, 1 warning");
        assert_eq!(more(150, 0), "150 more errors");
        assert_eq!(more(1, 2), "1 more error and 2 more warnings");
    }
}
