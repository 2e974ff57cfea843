//! The language server's name features — go to definition, find
//! references, rename and hover — on the module whose names ptxkit's
//! `tests/names.rs` resolves through the checker and the register analyses
//! (`crates/ptxkit/tests/data/names/tricky.ptx`, also run by Python's
//! `tests/test_names.py`). All of them resolve through `ptxkit::syntax::scope`,
//! so they must agree: `%v20` and `%q3` are nothing, `%q01` is the range
//! `%q<3>`'s register, an inner block's `%q1` hides it, labels are found
//! before and after their definition and in `.branchtargets`, parameters
//! and functions by name.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use lsp_types::{HoverContents, Position, Uri};
use ptxkit_lsp::document::{Document, Encoding};
use ptxkit_lsp::hover::hover;
use ptxkit_lsp::navigation::{definition, prepare_rename, references, rename};

const SRC: &str = include_str!("../../ptxkit/tests/data/names/tricky.ptx");

fn doc() -> Document {
    let uri: Uri = "file:///tricky.ptx".parse().unwrap();
    Document::new(uri, 1, SRC.to_string(), Encoding::Utf8, None)
}

/// Byte offset of the `nth` occurrence of `needle` that is a whole line
/// fragment `before` + name (the name starts after `before`).
fn off(needle: &str, nth: usize) -> u32 {
    SRC.match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("{needle} #{nth}"))
        .0 as u32
}

/// The 0-based position of byte offset `o`.
fn pos(o: u32) -> Position {
    let before = &SRC[..o as usize];
    let line = before.matches('\n').count() as u32;
    let col = (o as usize - before.rfind('\n').map_or(0, |i| i + 1)) as u32;
    Position::new(line, col)
}

/// Where go-to-definition on the `nth` `needle` (at `at` bytes into it)
/// leads, as a position.
fn def(d: &Document, needle: &str, nth: usize, at: u32) -> Option<Position> {
    definition(d, off(needle, nth) + at).map(|l| l.range.start)
}

#[test]
fn definition_follows_the_one_resolver() {
    let d = doc();
    // `%q01` is register 1 of `%q<3>`: the range's name.
    assert_eq!(def(&d, "%q01", 0, 1), Some(pos(off("%q<3>", 0))));
    // Undeclared: `%v20` (the range `%v2<4>` names nothing), `%q3` (past
    // `%q<3>`).
    assert_eq!(def(&d, "%v20", 0, 1), None);
    assert_eq!(def(&d, "%q3", 0, 1), None);
    // The inner block's `%q1` is its own declaration, and after the block
    // `%q01` is the range's again.
    assert_eq!(
        def(&d, "mov.b64 %q1", 0, 9),
        Some(pos(off(".reg .b64 %q1;", 0) + 10))
    );
    assert_eq!(def(&d, "%q01", 1, 1), Some(pos(off("%q<3>", 0))));
    // Labels: used before (`bra L;`) and after (`@%p bra L;`) the
    // definition, and in `.branchtargets`; the table's own name.
    let l = Some(pos(off("\nL:", 0) + 1));
    assert_eq!(def(&d, "bra L;", 0, 4), l);
    assert_eq!(def(&d, "@%p bra L;", 0, 8), l);
    assert_eq!(def(&d, ".branchtargets L", 0, 15), l);
    assert_eq!(
        def(&d, ".branchtargets L, M", 0, 18),
        Some(pos(off("\nM:", 0) + 1))
    );
    assert_eq!(def(&d, "brx.idx %q2, Ts", 0, 13), Some(pos(off("Ts:", 0))));
    // Parameters of the kernel, of the function, and of a call's block;
    // the function called.
    assert_eq!(def(&d, "[k_p]", 0, 1), Some(pos(off("k_p)", 0))));
    assert_eq!(def(&d, "[f_a]", 0, 1), Some(pos(off("f_a)", 0))));
    assert_eq!(def(&d, "[f_ret]", 0, 1), Some(pos(off("f_ret)", 0))));
    assert_eq!(
        def(&d, "(r), f, (x)", 0, 1),
        Some(pos(off(".param .b32 r;", 0) + 12))
    );
    assert_eq!(
        def(&d, "(r), f, (x)", 0, 5),
        Some(pos(off(" f(.param", 0) + 1))
    );
    // `f`'s `%r1` is `f`'s range, not anything of `k`.
    assert_eq!(def(&d, "%r1", 0, 1), Some(pos(off("%r<2>", 0))));
}

#[test]
fn references_and_rename_agree_with_definition() {
    let d = doc();
    // The label `L`: its definition, `bra L`, `@%p bra L`, `.branchtargets L`.
    let at = off("bra L;", 0) + 4;
    assert_eq!(references(&d, at, true).unwrap().len(), 4);
    assert_eq!(references(&d, at, false).unwrap().len(), 3);
    // The inner `%q1` is not the range's `%q1`/`%q01`.
    let inner = off("mov.b64 %q1", 0) + 9;
    assert_eq!(references(&d, inner, true).unwrap().len(), 2);
    // A range's register: its two uses as `%q01`, not the inner block's
    // `%q1` (another declaration) nor `%q2` (another register).
    let q01 = references(&d, off("%q01", 0) + 1, true).unwrap();
    assert_eq!(q01.len(), 2, "{q01:?}");
    // Nothing to find on an undeclared name.
    assert!(references(&d, off("%v20", 0) + 1, true).unwrap().is_empty());
    // Rename: a label and a parameter rename at every use; a range's
    // register cannot be renamed alone; an undeclared name has no symbol.
    let edit = rename(&d, at, "L_top").unwrap();
    let edits: usize = edit.changes.unwrap().values().map(Vec::len).sum();
    assert_eq!(edits, 4);
    let edit = rename(&d, off("[k_p]", 0) + 1, "p").unwrap();
    let edits: usize = edit.changes.unwrap().values().map(Vec::len).sum();
    assert_eq!(edits, 2);
    assert!(prepare_rename(&d, off("%q01", 0) + 1).is_err());
    assert!(rename(&d, off("%v20", 0) + 1, "%w").is_err());
}

#[test]
fn hover_names_the_declaration_the_resolver_found() {
    let d = doc();
    let text = |o: u32| -> String {
        match hover(&d, o).map(|h| h.contents) {
            Some(HoverContents::Markup(m)) => m.value,
            other => format!("{other:?}"),
        }
    };
    let q01 = text(off("%q01", 0) + 1);
    assert!(q01.contains(".reg .b32 %q<3>;"), "{q01}");
    assert!(q01.contains("`%q0` … `%q2`"), "{q01}");
    let inner = text(off("mov.b64 %q1", 0) + 9);
    assert!(inner.contains(".reg .b64 %q1;"), "{inner}");
    let label = text(off("@%p bra L;", 0) + 8);
    assert!(label.contains("line 30"), "{label}");
    let param = text(off("[k_p]", 0) + 1);
    assert!(param.contains(".param .u64 k_p"), "{param}");
    // `%v20` is no register: the hover (if any) is the diagnostic's.
    let v20 = text(off("%v20", 0) + 1);
    assert!(!v20.contains("%v2<4>"), "{v20}");
    assert!(v20.contains("E0401"), "{v20}");
}
