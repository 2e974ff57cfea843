//! Hover on a diagnostic: the explanation of each code reported at the
//! hovered position, from the registry ([`ptxkit::diag::Code`]), as
//! `ptx explain E0404` prints it.

use ptxkit::diag::Code;
use ptxkit::Span;

use crate::document::Document;

/// The explanations of the codes of the diagnostics whose span holds `off`
/// (each code once, in source order), and the span of the first such
/// diagnostic; `None` when no diagnostic is there.
pub fn explanations_at(doc: &Document, off: u32) -> Option<(String, Span)> {
    let mut codes: Vec<Code> = Vec::new();
    let mut first: Option<Span> = None;
    for d in doc.analysis.diagnostics() {
        if d.span.start <= off && off <= d.span.end {
            first.get_or_insert(d.span);
            if !codes.contains(&d.code) {
                codes.push(d.code);
            }
        }
    }
    let span = first?;
    let text: Vec<String> = codes.into_iter().map(markdown).collect();
    Some((text.join("\n\n---\n\n"), span))
}

/// One code's explanation: a heading with the code and its title, then the
/// explanation's Markdown.
pub fn markdown(c: Code) -> String {
    format!("**{c}**: {}\n\n{}", c.title(), c.explanation().trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Encoding;

    #[test]
    fn hover_on_a_diagnostic_explains_its_code() {
        let text = ".version 8.5\n.target sm_90\n.address_size 64\n\
                    .visible .entry k() {\n  .reg .b32 %r<2>;\n  mov.u32 %r2, 1;\n  ret;\n}\n";
        let uri = "file:///k.ptx".parse().unwrap_or_else(|_| unreachable!());
        let doc = Document::new(uri, 1, text.to_string(), Encoding::Utf8, None);
        let at = text.find("%r2").map_or(0, |i| i as u32 + 1);
        let (md, span) = explanations_at(&doc, at).unwrap_or_default();
        assert!(md.starts_with("**E0404**: "), "{md}");
        assert!(md.contains("```ptx"), "{md}");
        assert_eq!(span.start as usize, text.find("%r2").unwrap_or(0));
        assert!(explanations_at(&doc, 2).is_none());
    }
}
