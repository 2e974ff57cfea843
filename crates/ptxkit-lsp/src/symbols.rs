//! Document symbols (kernels, functions and module variables, with their
//! labels, parameters and locals as children) and workspace symbols.

use lsp_types::{DocumentSymbol, Location, SymbolInformation, SymbolKind};

use crate::document::Document;
use crate::index::{Decl, Kind};
use crate::locate::one_line;

fn kind(k: Kind) -> SymbolKind {
    match k {
        Kind::Register => SymbolKind::VARIABLE,
        Kind::Variable => SymbolKind::VARIABLE,
        Kind::Param => SymbolKind::TYPE_PARAMETER,
        Kind::Label => SymbolKind::KEY,
        Kind::Function => SymbolKind::FUNCTION,
        Kind::Kernel => SymbolKind::METHOD,
    }
}

fn detail(d: &Decl) -> Option<String> {
    match d.kind {
        Kind::Kernel => Some("kernel".into()),
        Kind::Function => Some("function".into()),
        Kind::Label => Some("label".into()),
        _ => {
            let ty = d.ty.map(|t| t.as_str()).unwrap_or("");
            let space = d.space.map(|s| s.as_str()).unwrap_or("");
            Some(format!("{space} {ty}").trim().to_string())
        }
    }
}

#[allow(deprecated)]
fn symbol(doc: &Document, d: &Decl, children: Option<Vec<DocumentSymbol>>) -> DocumentSymbol {
    let range = doc.range(d.decl_span.to(d.name_span));
    let name = match d.range {
        Some(n) => format!("{}<{n}>", d.name),
        None => d.name.clone(),
    };
    DocumentSymbol {
        name,
        detail: detail(d),
        kind: kind(d.kind),
        tags: None,
        deprecated: None,
        range,
        selection_range: doc.range(d.name_span),
        children,
    }
}

/// Most symbols an outline lists (children included): a module of 100,000
/// globals answered 23 MB of JSON and peaked at 600 MB. Past it, one last
/// entry says how many were left out.
pub const MAX_OUTLINE: usize = 10_000;

/// The outline of `doc`: at most [`MAX_OUTLINE`] symbols, then a note of
/// how many more there are.
pub fn document(doc: &Document) -> Vec<DocumentSymbol> {
    outline(doc, MAX_OUTLINE)
}

/// [`document`] with at most `max` symbols.
#[allow(deprecated)]
fn outline(doc: &Document, max: usize) -> Vec<DocumentSymbol> {
    let ix = doc.analysis.index();
    let mut out = Vec::new();
    let mut fns = ix.functions.iter().peekable();
    let mut listed = 0usize;
    for (id, d) in ix.decls.iter().enumerate() {
        if d.function.is_some() {
            continue;
        }
        if listed >= max {
            let more = ix
                .decls
                .iter()
                .skip(id)
                .filter(|d| {
                    d.function.is_none()
                        && matches!(
                            d.kind,
                            Kind::Variable | Kind::Register | Kind::Function | Kind::Kernel
                        )
                })
                .count();
            if more > 0 {
                let at = doc.range(d.name_span);
                out.push(DocumentSymbol {
                    name: format!("… {more} more not listed (an outline lists {max})"),
                    detail: None,
                    kind: SymbolKind::NULL,
                    tags: None,
                    deprecated: None,
                    range: at,
                    selection_range: at,
                    children: None,
                });
            }
            break;
        }
        match d.kind {
            Kind::Variable | Kind::Register => {
                out.push(symbol(doc, d, None));
                listed += 1;
            }
            Kind::Function | Kind::Kernel => {
                // The scopes of this function (a prototype and its
                // definition share one symbol).
                let mut children = Vec::new();
                while let Some(f) = fns.peek() {
                    if f.decl as usize != id {
                        break;
                    }
                    for &c in &f.decls {
                        if let Some(cd) = ix.decl(c) {
                            if (matches!(cd.kind, Kind::Label | Kind::Param)
                                || cd.function.is_some() && cd.kind == Kind::Variable)
                                && listed < max
                            {
                                children.push(symbol(doc, cd, None));
                                listed += 1;
                            }
                        }
                    }
                    fns.next();
                }
                out.push(symbol(doc, d, Some(children)));
                listed += 1;
            }
            _ => {}
        }
    }
    out
}

/// The kernels, functions and module variables of the open documents
/// whose names contain `query` (case-insensitively), at most `limit`.
#[allow(deprecated)]
pub fn workspace<'a>(
    docs: impl Iterator<Item = &'a Document>,
    query: &str,
    limit: usize,
) -> Vec<SymbolInformation> {
    let q = query.to_lowercase();
    let mut out = Vec::new();
    for doc in docs {
        let ix = doc.analysis.index();
        for d in &ix.decls {
            if d.function.is_some() || !d.name.to_lowercase().contains(&q) {
                continue;
            }
            if out.len() >= limit {
                return out;
            }
            out.push(SymbolInformation {
                name: d.name.clone(),
                kind: kind(d.kind),
                tags: None,
                deprecated: None,
                location: Location::new(doc.uri.clone(), doc.range(d.name_span)),
                container_name: Some(one_line(doc.analysis.text.as_bytes(), d.decl_span, 60)),
            });
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::document::Encoding;

    fn module(globals: usize) -> Document {
        let mut text = String::from(".version 8.0\n.target sm_90\n.address_size 64\n");
        for i in 0..globals {
            text.push_str(&format!(".global .u32 g{i};\n"));
        }
        text.push_str(".visible .entry k(.param .u32 p)\n{\nL: ret;\n}\n");
        let uri: lsp_types::Uri = "file:///m.ptx".parse().unwrap();
        Document::new(uri, 1, text, Encoding::Utf16, None)
    }

    #[test]
    fn outlines_are_bounded_and_say_what_they_leave_out() {
        let small = outline(&module(3), 100);
        // Three globals, the kernel with its parameter and label.
        assert_eq!(small.len(), 4);
        assert_eq!(small[3].children.as_ref().map(Vec::len), Some(2));
        let big = outline(&module(250), 100);
        assert_eq!(big.len(), 101);
        assert_eq!(
            big[100].name,
            "… 151 more not listed (an outline lists 100)"
        );
        assert!(big[..100].iter().all(|s| s.name.starts_with('g')));
    }
}
