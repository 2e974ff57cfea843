//! Terminal output: colour (only on a terminal, and never with `NO_COLOR`
//! set), aligned tables, JSON, and loading a module for the analyses.

use std::io::{IsTerminal, Write};
use std::path::Path;

use anstyle::{AnsiColor, Style};
use ptxkit::diag::render_styled;
use ptxkit::syntax::Function;
use ptxkit::{LineIndex, Parsed};

use crate::input::{self, Input};

/// Whether to colour standard output.
pub fn color() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Styles used across subcommands.
pub mod style {
    use super::*;
    /// Table headers and titles.
    pub const HEAD: Style = Style::new().bold();
    /// Function names.
    pub const NAME: Style = AnsiColor::Cyan.on_default();
    /// Secondary text: lines, counts of little interest.
    pub const DIM: Style = Style::new().dimmed();
    /// Added lines and increases.
    pub const ADD: Style = AnsiColor::Green.on_default();
    /// Removed lines and decreases.
    pub const DEL: Style = AnsiColor::Red.on_default();
    /// Warnings: recursion, irreducible flow, unresolved calls.
    pub const WARN: Style = AnsiColor::Yellow.on_default();
}

static DEMANGLE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// Show C++ names demangled (the default) or as written (`--no-demangle`).
pub fn set_demangle(on: bool) {
    DEMANGLE.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// How tables show a function name: demangled unless `--no-demangle`.
pub fn name(n: &str) -> std::borrow::Cow<'_, str> {
    ptxkit::demangle::display(n, DEMANGLE.load(std::sync::atomic::Ordering::Relaxed))
}

/// A function name for a heading: the readable name in the name style,
/// followed by the symbol as written (dimmed) when the two differ.
pub fn title(n: &str, on: bool) -> String {
    let shown = name(n);
    if shown == n {
        paint(n, style::NAME, on)
    } else {
        format!(
            "{}  {}",
            paint(&shown, style::NAME, on),
            paint(&format!("[{n}]"), style::DIM, on)
        )
    }
}

/// `s` in `style` when `on`.
pub fn paint(s: &str, st: Style, on: bool) -> String {
    if on {
        format!("{}{s}{}", st.render(), st.render_reset())
    } else {
        s.to_string()
    }
}

/// Column alignment.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Left.
    Left,
    /// Right (numbers).
    Right,
}

/// A table printed with aligned columns (two spaces between columns).
pub struct Table {
    head: Vec<String>,
    align: Vec<Align>,
    rows: Vec<Vec<(String, Style)>>,
}

impl Table {
    /// A table with these column headers and alignments.
    pub fn new(cols: &[(&str, Align)]) -> Table {
        Table {
            head: cols.iter().map(|c| c.0.to_string()).collect(),
            align: cols.iter().map(|c| c.1).collect(),
            rows: Vec::new(),
        }
    }

    /// Add a row of plain cells.
    pub fn row<S: ToString>(&mut self, cells: impl IntoIterator<Item = S>) {
        self.rows.push(
            cells
                .into_iter()
                .map(|c| (c.to_string(), Style::new()))
                .collect(),
        );
    }

    /// Add a row of styled cells.
    pub fn styled_row(&mut self, cells: Vec<(String, Style)>) {
        self.rows.push(cells);
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The table as text, each line indented by `indent`.
    pub fn render(&self, indent: &str, on: bool) -> String {
        let n = self.head.len();
        let mut w = vec![0usize; n];
        for (slot, h) in w.iter_mut().zip(&self.head) {
            *slot = h.chars().count();
        }
        for r in &self.rows {
            for (slot, (c, _)) in w.iter_mut().zip(r) {
                *slot = (*slot).max(c.chars().count());
            }
        }
        let mut out = String::new();
        let line = |cells: Vec<(String, Style)>, out: &mut String| {
            let mut s = String::from(indent);
            for (i, ((c, st), (width, align))) in
                cells.iter().zip(w.iter().zip(&self.align)).enumerate()
            {
                let pad = width.saturating_sub(c.chars().count());
                let last = i.saturating_add(1) == n;
                let text = paint(c, *st, on);
                match align {
                    Align::Right => {
                        s.push_str(&" ".repeat(pad));
                        s.push_str(&text);
                    }
                    Align::Left => {
                        s.push_str(&text);
                        if !last {
                            s.push_str(&" ".repeat(pad));
                        }
                    }
                }
                if !last {
                    s.push_str("  ");
                }
            }
            out.push_str(s.trim_end());
            out.push('\n');
        };
        line(
            self.head.iter().map(|h| (h.clone(), style::HEAD)).collect(),
            &mut out,
        );
        for r in &self.rows {
            line(r.clone(), &mut out);
        }
        out
    }
}

/// Standard output, locked and buffered: what every command writes to, so
/// that output of any size goes out in large writes (the standard
/// `Stdout` flushes at each newline). Flush it when done.
pub fn stdout() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock())
}

/// Print `v` as pretty JSON, serialised straight into buffered stdout.
pub fn json<T: serde::Serialize>(v: &T) {
    let mut o = stdout();
    let _ = serde_json::to_writer_pretty(&mut o, v);
    let _ = writeln!(o);
    let _ = o.flush();
}

/// Print `v` as JSON on one line (no whitespace), serialised straight
/// into buffered stdout.
pub fn json_compact<T: serde::Serialize>(v: &T) {
    let mut o = stdout();
    let _ = serde_json::to_writer(&mut o, v);
    let _ = writeln!(o);
    let _ = o.flush();
}

/// Print each of `lines` as JSON on its own line (JSON Lines), serialised
/// straight into buffered stdout.
pub fn json_lines<T: serde::Serialize>(lines: impl IntoIterator<Item = T>) {
    let mut o = stdout();
    for l in lines {
        let _ = serde_json::to_writer(&mut o, &l);
        let _ = writeln!(o);
    }
    let _ = o.flush();
}

/// `1 kernel`, `2 kernels`, `0 kernels` (`n` then the word, singular for
/// one).
pub fn count(n: impl Into<u64>, one: &str) -> String {
    let n: u64 = n.into();
    let many = match one.strip_suffix('y') {
        Some(stem) if !one.ends_with("ay") => format!("{stem}ies"),
        _ if one.ends_with("ss") || one.ends_with('x') || one.ends_with("ch") => format!("{one}es"),
        _ => format!("{one}s"),
    };
    format!("{n} {}", if n == 1 { one } else { many.as_str() })
}

/// Print text to stdout, ignoring a closed pipe.
pub fn print(s: &str) {
    let mut o = stdout();
    let _ = o.write_all(s.as_bytes());
    let _ = o.flush();
}

/// A parsed input with its line index.
pub struct Loaded {
    /// The input.
    pub input: Input,
    /// The parse.
    pub parsed: Parsed,
    /// Lines of the input.
    pub lines: LineIndex,
}

impl Loaded {
    /// Exit status for the analysis: 1 when the input had syntax errors.
    pub fn status(&self) -> u8 {
        u8::from(self.parsed.has_errors())
    }

    /// The function named `name`: an exact match, else the only function
    /// whose name contains `name`. The error lists the candidates.
    pub fn function(&self, name: &str) -> Result<&Function, String> {
        let fs: Vec<&Function> = self.parsed.module.functions().collect();
        // Each name as written and, for a mangled one, demangled.
        let named: Vec<(&Function, Option<String>)> = fs
            .iter()
            .map(|f| (*f, ptxkit::demangle(f.name.as_str())))
            .collect();
        let is = |f: &Function, d: &Option<String>| {
            f.name.as_str() == name || d.as_deref() == Some(name)
        };
        if let Some(f) = pick(
            named
                .iter()
                .filter(|(f, d)| is(f, d))
                .map(|(f, _)| *f)
                .collect(),
        ) {
            return Ok(f);
        }
        let has = |f: &Function, d: &Option<String>| {
            f.name.as_str().contains(name) || d.as_deref().is_some_and(|d| d.contains(name))
        };
        let mut partial: Vec<&Function> = named
            .iter()
            .filter(|(f, d)| has(f, d))
            .map(|(f, _)| *f)
            .collect();
        partial.dedup_by(|a, b| a.name == b.name);
        match partial.len() {
            1 => pick(partial).ok_or_else(|| "no such function".to_string()),
            0 => Err(format!(
                "{}: no function `{name}`; functions: {}",
                self.input.name,
                fs.iter()
                    .map(|f| f.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            _ => Err(format!(
                "{}: `{name}` matches several functions: {}",
                self.input.name,
                partial
                    .iter()
                    .map(|f| f.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
}

/// A definition before a declaration of the same name.
fn pick(v: Vec<&Function>) -> Option<&Function> {
    v.iter().find(|f| f.body.is_some()).or(v.first()).copied()
}

/// Read and parse `path`, printing its diagnostics to stderr.
pub fn load(path: &Path) -> Result<Loaded, String> {
    let input = input::read(path)?;
    Ok(parse_input(input, true))
}

/// After a parse's diagnostics: the line saying how many were not kept, if
/// any.
pub fn report_omitted(name: &str, parsed: &ptxkit::Parsed) {
    let more = parsed
        .omitted_errors
        .saturating_add(parsed.omitted_warnings);
    if more > 0 {
        eprintln!(
            "ptx: {name}: ... and {} more diagnostics not shown (`ptx check --max-errors 0` shows all)",
            crate::report::thousands(more)
        );
    }
}

/// Parse an input; print its diagnostics when `report`.
pub fn parse_input(input: Input, report: bool) -> Loaded {
    // Identical to `parse`, on several threads for big modules.
    // Only the diagnostics shown are kept (a module with an error at every
    // token does not hold one each).
    let max = crate::report::DEFAULT_MAX_ERRORS;
    let parsed = ptxkit::parse_parallel_bounded(&input.bytes, max);
    let lines = LineIndex::new(&input.bytes);
    if report {
        let color = crate::report::stderr_color();
        for d in &parsed.diagnostics {
            eprint!(
                "{}",
                render_styled(d, &input.name, &input.bytes, &lines, color)
            );
        }
        report_omitted(&input.name, &parsed);
    }
    Loaded {
        input,
        parsed,
        lines,
    }
}
