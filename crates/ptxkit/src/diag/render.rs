//! A diagnostic as text: the GNU line `path:line:col: error: message
//! [code]` first (what editors, compilers' users and scripts expect), then
//! a code frame drawn by `annotate-snippets`: the primary span underlined,
//! each secondary label underlined with its message (on the same frame when
//! it is on the same line, else in a frame of its own), and the notes.

use annotate_snippets::renderer::Renderer;
use annotate_snippets::{AnnotationKind, Group, Level, Snippet};
use anstyle::{AnsiColor, Style};

use super::excerpt::{escape, Excerpt};
use super::{Diagnostic, Severity};
use crate::source::LineIndex;

/// Render `d` for a file: the GNU line, then a code frame with its labels
/// and notes, without colour. This is what `ptx check` prints when its
/// standard error is not a terminal.
///
/// ```
/// let src = b".version 8.0\n.target sm_90\n.entry k() { frob; }\n";
/// let parsed = ptxkit::parse(src);
/// let text = ptxkit::diag::render(&parsed.diagnostics[0], "k.ptx", src, &ptxkit::LineIndex::new(src));
/// assert!(text.starts_with("k.ptx:3:14: error: unknown instruction `frob` [E0201]\n"));
/// assert!(text.contains("3 | .entry k() { frob; }\n"));
/// ```
pub fn render(d: &Diagnostic, path: &str, src: &[u8], index: &LineIndex) -> String {
    render_styled(d, path, src, index, false)
}

/// [`render`], in colour (ANSI escapes) when `color`.
pub fn render_styled(
    d: &Diagnostic,
    path: &str,
    src: &[u8],
    index: &LineIndex,
    color: bool,
) -> String {
    let lc = index.line_col(d.span.start.min(src.len() as u32));
    let sev = d.severity.as_str();
    let sev_style = match d.severity {
        Severity::Error => AnsiColor::BrightRed.on_default().bold(),
        Severity::Warning => AnsiColor::BrightYellow.on_default().bold(),
    };
    let paint = |s: &str, st: Style| {
        if color {
            format!("{}{s}{}", st.render(), st.render_reset())
        } else {
            s.to_string()
        }
    };
    let mut out = format!(
        "{}: {}: {} [{}]\n",
        paint(
            &format!("{}:{}:{}", escape(path), lc.line, lc.col),
            Style::new().bold()
        ),
        paint(sev, sev_style),
        paint(&escape(&d.message), Style::new().bold()),
        d.code
    );
    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    // The primary line, and the labels on it.
    let primary = Excerpt::around(d.span.start, src, index);
    let mut main = Snippet::source(primary.text.as_str())
        .line_start(primary.line as usize)
        .fold(false)
        .annotation(AnnotationKind::Primary.span(primary.range(d.span)));
    let mut others = Vec::new();
    for l in &d.labels {
        let e = Excerpt::around(l.span.start, src, index);
        if e.line == primary.line {
            main = main.annotation(
                AnnotationKind::Context
                    .span(primary.range(l.span))
                    .label(escape(&l.message).into_owned()),
            );
        } else {
            others.push((e, l));
        }
    }
    let mut group = Group::with_level(level.clone()).element(main);
    for (e, l) in &others {
        group = group.element(
            Snippet::source(e.text.as_str())
                .line_start(e.line as usize)
                .path(escape(path).into_owned())
                .fold(false)
                .annotation(
                    AnnotationKind::Context
                        .span(e.range(l.span))
                        .label(escape(&l.message).into_owned()),
                ),
        );
    }
    for n in &d.notes {
        group = group.element(Level::NOTE.message(escape(n).into_owned()));
    }
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    out.push_str(&renderer.render(&[group]));
    out.push('\n');
    out
}
