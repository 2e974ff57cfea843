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

/// The outline of `doc`.
pub fn document(doc: &Document) -> Vec<DocumentSymbol> {
    let ix = doc.analysis.index();
    let mut out = Vec::new();
    let mut fns = ix.functions.iter().peekable();
    for (id, d) in ix.decls.iter().enumerate() {
        if d.function.is_some() {
            continue;
        }
        match d.kind {
            Kind::Variable | Kind::Register => out.push(symbol(doc, d, None)),
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
                            if matches!(cd.kind, Kind::Label | Kind::Param)
                                || cd.function.is_some() && cd.kind == Kind::Variable
                            {
                                children.push(symbol(doc, cd, None));
                            }
                        }
                    }
                    fns.next();
                }
                out.push(symbol(doc, d, Some(children)));
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
