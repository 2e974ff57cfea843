//! Inlay hints where they help: the role of each operand of instructions
//! whose roles have names (`cache-policy`, `a-desc`, `tensorMap`), not the
//! one-letter `d, a, b` of the arithmetic, and the registers a range
//! declares (`%r<8>` → `%r0…%r7`).

use lsp_types::{InlayHint, InlayHintKind, InlayHintLabel};
use ptxkit::syntax::{Block, Stmt};
use ptxkit::{Item, Span};

use crate::document::Document;

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
    out
}
