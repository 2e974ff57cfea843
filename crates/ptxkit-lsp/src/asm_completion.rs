//! Completion inside the template of a C++ `asm` statement: the catalog's
//! instructions where a PTX statement starts, the modifiers that may come
//! next after `ld.` (as in a `.ptx` file), and in operands the statement's
//! own `%0`, `%1`… (with their constraints and expressions) and the
//! special registers (`%%tid.x` in a statement with operands, where a
//! literal `%` is doubled).

use lsp_types::{CompletionItemKind, CompletionResponse, CompletionTextEdit, Range, TextEdit};
use ptxkit::isa::catalog;

use crate::completion::{context, item, opcode_items, Context};
use crate::cpp::{source_of, template_at};
use crate::document::Document;

/// The completions at C++ offset `off` of `doc` (a C++ document): none
/// outside a literal template.
pub fn complete(doc: &Document, off: u32) -> CompletionResponse {
    let mut items = Vec::new();
    let mut incomplete = false;
    if let Some((checked, t, k)) = template_at(&doc.asm, off) {
        let stmt = &checked.statement;
        // The decoded template up to the cursor, as PTX text.
        let prefix = String::from_utf8_lossy(t.get(..k).unwrap_or_default());
        let (start, ctx) = context(&prefix, prefix.len());
        let cursor = doc.lines.position(&doc.text, off);
        let replace =
            |from: usize| Range::new(doc.lines.position(&doc.text, source_of(stmt, from)), cursor);
        match ctx {
            Context::Opcode(word) => {
                incomplete = opcode_items(word, start, &replace, &mut items);
            }
            Context::Operand(word) if word.is_empty() || word.starts_with('%') => {
                let range = replace(start);
                let mut push = |label: String, kind, detail: Option<String>| {
                    let mut it = item(&label, kind, detail);
                    it.text_edit = Some(CompletionTextEdit::Edit(TextEdit::new(range, label)));
                    items.push(it);
                };
                for (n, op) in stmt.operands().enumerate() {
                    let detail = Some(format!("\"{}\"({})", op.constraint, op.expr));
                    push(format!("%{n}"), CompletionItemKind::VARIABLE, detail);
                }
                // With operands, a literal `%` is written `%%`.
                let pct = if stmt.operands().next().is_some() {
                    "%"
                } else {
                    ""
                };
                for r in catalog().special_registers() {
                    let detail = Some(format!("special register, {}", r.ty.as_str()));
                    if r.components.is_empty() {
                        push(
                            format!("{pct}{}", r.name),
                            CompletionItemKind::CONSTANT,
                            detail,
                        );
                    } else {
                        for c in r.components {
                            push(
                                format!("{pct}{}.{c}", r.name),
                                CompletionItemKind::CONSTANT,
                                detail.clone(),
                            );
                        }
                    }
                }
            }
            _ => {}
        }
    }
    CompletionResponse::List(lsp_types::CompletionList {
        is_incomplete: incomplete,
        items,
    })
}
