//! Inlay hints where they help: the role of each operand of instructions
//! whose roles have names (`cache-policy`, `a-desc`, `tensorMap`), not the
//! one-letter `d, a, b` of the arithmetic, and the registers a range
//! declares (`%r<8>` → `%r0…%r7`).

use lsp_types::{InlayHint, InlayHintKind, InlayHintLabel};
use ptxkit::syntax::{Block, Stmt};
use ptxkit::{Item, Span};

use crate::document::Document;

/// At most this many hints an answer. Editors ask for the range on screen;
/// a request for a whole module of 100,000 calls through prototypes built
/// 56 MB of hints (1.2 GB of JSON values on the way) and an editor would
/// show none of the hints past the first screens anyway (docs/limits.md).
pub const MAX_HINTS: usize = 10_000;

fn hint(doc: &Document, at: u32, label: String, kind: InlayHintKind, left: bool) -> InlayHint {
    InlayHint {
        position: doc.lines.position(&doc.text, at),
        label: InlayHintLabel::String(label),
        kind: Some(kind),
        text_edits: None,
        tooltip: None,
        padding_left: Some(left),
        padding_right: Some(!left),
        data: None,
    }
}

fn block(doc: &Document, b: &Block, range: Span, out: &mut Vec<InlayHint>) {
    for s in &b.stmts {
        if out.len() >= MAX_HINTS {
            return;
        }
        let sp = s.span();
        if sp.end < range.start || sp.start > range.end {
            continue;
        }
        match s {
            Stmt::Instruction(i) => {
                let roles = i.roles();
                if roles.iter().any(|(t, _)| t.role.len() > 1) {
                    for (t, o) in roles {
                        out.push(hint(
                            doc,
                            o.span().start,
                            format!("{}:", t.role),
                            InlayHintKind::PARAMETER,
                            false,
                        ));
                    }
                }
            }
            Stmt::Var(v) => {
                for d in &v.decls {
                    if let Some(n) = d.range {
                        if n.value > 0 {
                            let name = d.name.as_str();
                            let label = format!("{name}0…{name}{}", n.value - 1);
                            out.push(hint(doc, d.span.end, label, InlayHintKind::TYPE, true));
                        }
                    }
                }
            }
            Stmt::Block(inner) => block(doc, inner, range, out),
            _ => {}
        }
    }
}

/// The hints of `doc` within `range`.
pub fn hints(doc: &Document, range: Span) -> Vec<InlayHint> {
    let mut out = Vec::new();
    for item in &doc.analysis.module.items {
        if out.len() >= MAX_HINTS {
            break;
        }
        let s = item.span();
        if s.end < range.start || s.start > range.end {
            continue;
        }
        if let Item::Function(f) = item {
            if let Some(b) = &f.body {
                block(doc, b, range, &mut out);
            }
        }
    }
    out.truncate(MAX_HINTS);
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::document::Encoding;

    fn doc(text: String) -> Document {
        let uri: lsp_types::Uri = "file:///t.ptx".parse().unwrap();
        Document::new(uri, 1, text, Encoding::Utf16, None)
    }

    #[test]
    fn hints_show_register_ranges_and_are_bounded() {
        let d = doc(
            ".version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n.reg .b32 %r<4>;\nret;\n}\n"
                .to_string(),
        );
        let all = Span::new(0, u32::MAX);
        let h = hints(&d, all);
        assert_eq!(h.len(), 1);
        assert!(matches!(&h[0].label, InlayHintLabel::String(l) if l == "%r0…%r3"));

        // One hint per declaration, far more than the bound.
        let mut text =
            String::from(".version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n");
        for i in 0..MAX_HINTS + 500 {
            text.push_str(&format!(".reg .b32 %q{i}x<2>;\n"));
        }
        text.push_str("ret;\n}\n");
        assert_eq!(hints(&doc(text), all).len(), MAX_HINTS);
    }
}
