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
    // A name that starts with `_`, `$` or `%` needs a character after it;
    // `WARP_SZ` and the special registers (`%tid`, `%clock64`) are taken.
    let spelled = match b.split_first() {
        Some((&f, rest)) => {
            first_ok(f)
                && rest.iter().all(|&c| rest_ok(c))
                && (f.is_ascii_alphabetic() || !rest.is_empty())
        }
        None => false,
    };
    spelled && name != "WARP_SZ" && ptxkit::isa::catalog().special_register(name).is_none()
}

/// Whether `name` would name something else where the symbol `id` is
/// known, or be taken by it: a declaration of that name (or a register of
/// a range it falls in) or a use of that name, in the symbol's function
/// and at module scope for a function's symbol, anywhere for a module's.
/// Renaming then would make two declarations of one name, or take over
/// uses of another symbol (a parameter renamed to a global's name hides
/// the global from the uses that named it). Why, when it would.
fn conflict(doc: &Document, id: u32, name: &str) -> Option<String> {
    let ix = doc.analysis.index();
    let src = doc.analysis.text.as_bytes();
    let this = ix.decl(id)?;
    let within = this
        .function
        .and_then(|f| ix.functions.get(f))
        .map(|f| f.span);
    let near = |d: &crate::index::Decl| match (this.function, d.function) {
        (Some(f), Some(g)) => f == g,
        _ => true,
    };
    // `%r7` is a register of `%r<10>`.
    let names = |d: &crate::index::Decl| match d.range {
        None => d.name == name,
        Some(n) => name
            .strip_prefix(d.name.as_str())
            .filter(|k| !k.is_empty() && k.bytes().all(|c| c.is_ascii_digit()))
            .and_then(|k| k.parse::<u64>().ok())
            .is_some_and(|k| k < n),
    };
    let line = |span: ptxkit::Span| doc.range(span).start.line + 1;
    if let Some(d) = ix.decls.iter().filter(|d| near(d)).find(|d| names(d)) {
        return Some(format!(
            "`{name}` is already declared on line {}",
            line(d.name_span)
        ));
    }
    let used = ix.occurrences.iter().find(|o| {
        within.is_none_or(|w| w.start <= o.span.start && o.span.end <= w.end)
            && o.span.slice(src) == name.as_bytes()
    });
    used.map(|o| format!("`{name}` is already used on line {}", line(o.span)))
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
    if o.span.slice(doc.analysis.text.as_bytes()) != new_name.as_bytes() {
        if let Some(why) = conflict(doc, o.decl, new_name) {
            return Err(why);
        }
    }
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
#[allow(clippy::unwrap_used)]
mod tests {
    use super::{rename, valid_name};
    use crate::document::{Document, Encoding};

    const SRC: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
        .global .u64 g;\n\
        .entry k(.param .u64 p)\n{\n\
        \t.reg .b64 %rd<3>;\n\t.reg .b32 %a;\n\t.reg .b32 %b;\n\
        \tld.param.u64 %rd1, [p];\n\tmov.u64 %rd2, g;\n\
        L1:\n\tadd.s32 %a, %a, %b;\n\tbra L1;\n}\n\
        .entry k2()\n{\n\t.reg .b32 %c;\n\tmov.b32 %c, 0;\n}\n";

    /// Renames that would declare a name twice, take over another
    /// symbol's uses, or spell no identifier are refused with why; a name
    /// used only in another function is free.
    #[test]
    fn renames_that_would_change_meaning_are_refused() {
        let uri: lsp_types::Uri = "file:///r.ptx".parse().unwrap();
        let doc = Document::new(uri, 1, SRC.to_string(), Encoding::Utf8, None);
        let at = |what: &str| SRC.find(what).unwrap() as u32;
        let refused = |what: &str, to: &str| rename(&doc, at(what), to).unwrap_err();
        // The parameter renamed to the global's name would hide it from
        // `mov.u64 %rd2, g`.
        assert!(
            refused("p)", "g").contains("already"),
            "{}",
            refused("p)", "g")
        );
        assert!(refused("%a;", "%b").contains("line 9"));
        assert!(refused("%a;", "%rd1").contains("already declared"));
        assert!(refused("g;", "k").contains("already declared"));
        for bad in ["_", "$", "WARP_SZ", "%tid", "%laneid"] {
            assert!(
                refused("L1:", bad).contains("not a PTX identifier"),
                "{bad}"
            );
        }
        // `%c` is declared in k2 only: free in k.
        assert!(rename(&doc, at("%a;"), "%c").is_ok());
        assert!(rename(&doc, at("%a;"), "%rd9").is_ok());
        assert!(rename(&doc, at("%a;"), "%a").is_ok());
    }

    #[test]
    fn identifiers() {
        for ok in ["a", "%r", "%r1", "$L__BB0_1", "_Z3fooi", "x_1$"] {
            assert!(valid_name(ok), "{ok}");
        }
        for bad in [
            "", "%", "_", "$", "1a", "a.b", "a b", "a-b", "WARP_SZ", "%tid", "%clock64",
        ] {
            assert!(!valid_name(bad), "{bad}");
        }
    }
}
