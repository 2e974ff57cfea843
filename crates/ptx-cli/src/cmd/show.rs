//! `ptx show`: one function, printed canonically or as written.

use std::path::PathBuf;

use ptxkit::print::canonical_function_lines;
use serde::Serialize;

use crate::out;

/// Arguments of `ptx show`.
#[derive(clap::Args)]
pub struct Args {
    /// The file; `-` reads stdin.
    pub path: PathBuf,
    /// The function (exact name, or a part of it that names only one).
    pub name: String,
    /// Print the function exactly as written (comments and layout kept)
    /// instead of in canonical form.
    #[arg(long)]
    pub lossless: bool,
    /// Prefix every line with the source line it comes from.
    #[arg(long)]
    pub lines: bool,
    /// Print JSON: the lines with their source line numbers.
    #[arg(long)]
    pub json: bool,
    /// Interleave the source lines that `.loc` directives point at (the
    /// `.file` at the path written, or by its file name beside the PTX
    /// file): `// kernel.cu:55: <the line>` before the code of that line.
    /// In JSON, each `.loc` line gets a `source` object.
    #[arg(long)]
    pub source: bool,
}

/// One printed line.
#[derive(Serialize)]
pub struct ShownLine {
    /// Source line it comes from (for canonical output: the line of the
    /// statement, or of the header).
    pub line: u32,
    /// The text.
    pub text: String,
    /// With `--source`, on a `.loc` line: the source line it points at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<ptxkit::analysis::lineinfo::SourceLine>,
}

#[derive(Serialize)]
struct Shown<'a> {
    function: &'a str,
    mode: &'static str,
    lines: Vec<ShownLine>,
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    let l = out::load(&a.path)?;
    let f = l.function(&a.name)?;
    let shown: Vec<ShownLine> = if a.lossless {
        let first = l.lines.line_col(f.span.start).line;
        let text = f.span.text(&l.input.bytes);
        // Start at the beginning of the first line, so indentation shows.
        let line_start = l.lines.line_span(first, &l.input.bytes).start;
        let lead = String::from_utf8_lossy(
            l.input
                .bytes
                .get(line_start as usize..f.span.start as usize)
                .unwrap_or_default(),
        );
        let whole = if lead.trim().is_empty() {
            format!("{lead}{text}")
        } else {
            text.into_owned()
        };
        whole
            .lines()
            .enumerate()
            .map(|(i, t)| ShownLine {
                line: first.saturating_add(i as u32),
                text: t.to_string(),
                source: None,
            })
            .collect()
    } else {
        canonical_function_lines(f)
            .into_iter()
            .map(|(span, text)| ShownLine {
                line: l.lines.line_col(span.start).line,
                text,
                source: None,
            })
            .collect()
    };
    let mut shown = shown;
    if a.source {
        let ptx = (a.path.as_os_str() != "-").then_some(a.path.as_path());
        let info = ptxkit::analysis::lineinfo::LineInfo::new(&l.parsed.module, &l.lines, ptx);
        for x in &mut shown {
            if x.text.trim_start().starts_with(".loc") {
                x.source = info.at(x.line);
            }
        }
        let mut located = shown.iter().filter_map(|x| x.source.as_ref()).peekable();
        if info.is_empty() || located.peek().is_none() {
            eprintln!(
                "ptx: {}: no .loc directives here (compile with -lineinfo or -G)",
                l.input.name
            );
        } else if located.all(|s| s.text.is_none()) {
            eprintln!(
                "ptx: {}: the source files its .loc directives point at were not found (at the path written, or by file name beside the PTX file)",
                l.input.name
            );
        }
    }
    if a.json {
        out::json(&Shown {
            function: f.name.as_str(),
            mode: if a.lossless { "lossless" } else { "canonical" },
            lines: shown,
        });
        return Ok(l.status());
    }
    let on = out::color();
    let width = shown
        .iter()
        .map(|s| s.line)
        .max()
        .unwrap_or(0)
        .to_string()
        .len();
    let mut s = String::new();
    let mut prev = 0;
    // The source line shown last: a `.loc` repeating it adds nothing.
    let mut last_source = None;
    for x in &shown {
        if let Some(src) = x.source.as_ref().filter(|src| src.text.is_some()) {
            let key = (src.file.clone(), src.line);
            if last_source.as_ref() != Some(&key) {
                if a.lines {
                    s.push_str(&" ".repeat(width));
                    s.push_str(" | ");
                }
                let name = std::path::Path::new(&src.file)
                    .file_name()
                    .map_or(src.file.clone(), |n| n.to_string_lossy().into_owned());
                let note = format!(
                    "// {name}:{}: {}",
                    src.line,
                    src.text.as_deref().unwrap_or_default().trim()
                );
                s.push_str(&out::paint(&note, out::style::WARN, on));
                s.push('\n');
                last_source = Some(key);
            }
        }
        if a.lines {
            let n = if x.line == prev && !a.lossless {
                " ".repeat(width)
            } else {
                format!("{:>width$}", x.line)
            };
            s.push_str(&out::paint(&n, out::style::DIM, on));
            s.push_str(" | ");
            prev = x.line;
        }
        s.push_str(&x.text);
        s.push('\n');
    }
    out::print(&s);
    Ok(l.status())
}
