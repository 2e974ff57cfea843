//! Go to definition, find references, rename and document highlights,
//! for registers, variables, parameters, labels and functions.

use std::collections::HashMap;

use lsp_types::{
    DocumentHighlight, DocumentHighlightKind, Location, PrepareRenameResponse, TextEdit,
    WorkspaceEdit,
};

use crate::document::Document;

/// Where the symbol at `off` is declared.
pub fn definition(doc: &Document, off: u32) -> Option<Location> {
    let ix = doc.analysis.index();
    let d = ix.decl(ix.at(off)?.decl)?;
    Some(Location::new(doc.uri.clone(), doc.range(d.name_span)))
}

/// The most locations one answer lists (references, highlights, the
/// edits of a rename). A response is built as a JSON tree of about 2.6 KB
/// per location before it is written: a register named 1.5 million times
/// (a 13 MB document) took the server past 4 GiB and aborted it. Past the
/// limit the request fails with the count, rather than answering with
/// part of the list.
pub const MAX_LOCATIONS: usize = 100_000;

/// The error for a symbol named `n` times, past [`MAX_LOCATIONS`].
fn too_many(n: usize) -> String {
    format!(
        "the symbol is named {n} times; ptxkit lists at most {MAX_LOCATIONS} places (docs/limits.md)"
    )
}

/// Every place the symbol at `off` is named, its declarations included
/// when `with_decl`; an error past [`MAX_LOCATIONS`].
pub fn references(doc: &Document, off: u32, with_decl: bool) -> Result<Vec<Location>, String> {
    let ix = doc.analysis.index();
    let Some(o) = ix.at(off) else {
        return Ok(Vec::new());
    };
    let src = doc.analysis.text.as_bytes();
    let all = || ix.same_symbol(o, src).filter(|x| with_decl || !x.def);
    let n = all().count();
    if n > MAX_LOCATIONS {
        return Err(too_many(n));
    }
    Ok(all()
        .map(|x| Location::new(doc.uri.clone(), doc.range(x.span)))
        .collect())
}

/// The occurrences of the symbol at `off`, declarations as writes; an
/// error past [`MAX_LOCATIONS`].
pub fn highlights(doc: &Document, off: u32) -> Result<Vec<DocumentHighlight>, String> {
    let ix = doc.analysis.index();
    let Some(o) = ix.at(off) else {
        return Ok(Vec::new());
    };
    let src = doc.analysis.text.as_bytes();
    let n = ix.same_symbol(o, src).count();
    if n > MAX_LOCATIONS {
        return Err(too_many(n));
    }
    Ok(ix
        .same_symbol(o, src)
        .map(|x| DocumentHighlight {
            range: doc.range(x.span),
            kind: Some(if x.def {
                DocumentHighlightKind::WRITE
            } else {
                DocumentHighlightKind::READ
            }),
        })
        .collect())
}

/// Whether `name` is a PTX identifier.
pub fn valid_name(name: &str) -> bool {
    let b = name.as_bytes();
    let first_ok = |c: u8| c.is_ascii_alphabetic() || matches!(c, b'_' | b'$' | b'%');
    let rest_ok = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$');
    match b.split_first() {
        Some((&f, rest)) => {
            first_ok(f) && rest.iter().all(|&c| rest_ok(c)) && (f != b'%' || !rest.is_empty())
        }
        None => false,
    }
}

/// The range that a rename at `off` would change, or why there is none.
pub fn prepare_rename(doc: &Document, off: u32) -> Result<PrepareRenameResponse, String> {
    let ix = doc.analysis.index();
    let o = ix.at(off).ok_or("no symbol here")?;
    let d = ix.decl(o.decl).ok_or("no symbol here")?;
    if d.range.is_some() {
        return Err(format!(
            "`{}` is one register of the range `{}<{}>`; rename the range's declaration by hand",
            o.span.text(doc.analysis.text.as_bytes()),
            d.name,
            d.range.unwrap_or(0)
        ));
    }
    Ok(PrepareRenameResponse::Range(doc.range(o.span)))
}

/// The edit renaming the symbol at `off` to `new_name`.
// `WorkspaceEdit` maps `Uri`s, whose lazily parsed parts clippy counts as
// interior mutability; they are never changed here.
#[allow(clippy::mutable_key_type)]
pub fn rename(doc: &Document, off: u32, new_name: &str) -> Result<WorkspaceEdit, String> {
    prepare_rename(doc, off)?;
    if !valid_name(new_name) {
        return Err(format!("`{new_name}` is not a PTX identifier"));
    }
    let ix = doc.analysis.index();
    let o = ix.at(off).ok_or("no symbol here")?;
    let n = ix.same_symbol(o, doc.analysis.text.as_bytes()).count();
    if n > MAX_LOCATIONS {
        return Err(too_many(n));
    }
    let edits: Vec<TextEdit> = ix
        .same_symbol(o, doc.analysis.text.as_bytes())
        .map(|x| TextEdit::new(doc.range(x.span), new_name.to_string()))
        .collect();
    let mut changes = HashMap::new();
    changes.insert(doc.uri.clone(), edits);
    Ok(WorkspaceEdit {
        changes: Some(changes),
        ..WorkspaceEdit::default()
    })
}

#[cfg(test)]
mod tests {
    use super::valid_name;

    #[test]
    fn identifiers() {
        for ok in ["a", "%r", "%r1", "$L__BB0_1", "_Z3fooi", "x_1$"] {
            assert!(valid_name(ok), "{ok}");
        }
        for bad in ["", "%", "1a", "a.b", "a b", "a-b"] {
            assert!(!valid_name(bad), "{bad}");
        }
    }
}
