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
}

/// One printed line.
#[derive(Serialize)]
pub struct ShownLine {
    /// Source line it comes from (for canonical output: the line of the
    /// statement, or of the header).
    pub line: u32,
    /// The text.
    pub text: String,
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
            })
            .collect()
    } else {
        canonical_function_lines(f)
            .into_iter()
            .map(|(span, text)| ShownLine {
                line: l.lines.line_col(span.start).line,
                text,
            })
            .collect()
    };
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
    for x in &shown {
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
