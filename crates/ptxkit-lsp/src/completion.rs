//! Completion from the catalog and the document: opcodes, the modifiers
//! that may come next (`ld.` offers the state spaces, `ld.global.` the
//! cache operators and types), registers, variables, parameters, labels
//! and functions in scope, special registers, and directives.

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionResponse, CompletionTextEdit, Range, TextEdit,
};
use ptxkit::check::module_data;
use ptxkit::isa::catalog;
use ptxkit::isa::vocab::{Linkage, ScalarType, StateSpace};

use crate::document::Document;
use crate::forms::next_modifiers;
use crate::index::Kind;
use crate::locate::function_at;

/// Registers of a range offered one by one, at most this many.
const RANGE_ITEMS: u64 = 64;
/// Most names an operand completion offers: past it, only names that hold
/// the typed word's letters in order are offered, this many, and the list
/// is marked incomplete (the client asks again as the word grows). A module
/// of 100,000 globals answered 17 MB and peaked at 500 MB.
pub const MAX_NAMES: usize = 1_000;

/// Directives of the module level and of function bodies: PTX's grammar,
/// not its instruction set (the instructions come from the catalog).
const MODULE_DIRECTIVES: &[&str] = &[
    ".version",
    ".target",
    ".address_size",
    ".entry",
    ".func",
    ".file",
    ".loc",
    ".section",
    ".pragma",
    ".alias",
    ".align",
    ".attribute",
];
const BODY_DIRECTIVES: &[&str] = &[
    ".loc",
    ".pragma",
    ".align",
    ".callprototype",
    ".calltargets",
    ".branchtargets",
];

/// What the cursor is in.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Context<'t> {
    /// The first word of a statement in a body: an opcode with modifiers.
    Opcode(&'t str),
    /// A word starting with `.` where a statement or item starts.
    Directive(&'t str),
    /// An operand.
    Operand(&'t str),
    /// After `.target`.
    Target,
    /// After `.version`.
    Version,
}

fn word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'%' | b'.' | b':')
}

/// The context at `off`: the word being typed and what comes before it
/// on its statement.
pub(crate) fn context(text: &str, off: usize) -> (usize, Context<'_>) {
    let b = text.as_bytes();
    let mut start = off;
    while start > 0 && b.get(start - 1).copied().is_some_and(word_char) {
        start -= 1;
    }
    let word = text.get(start..off).unwrap_or("");
    // The statement so far: back to the last `;`, `{` or `}`.
    let stmt_start = b
        .get(..start)
        .unwrap_or_default()
        .iter()
        .rposition(|&c| matches!(c, b';' | b'{' | b'}'))
        .map_or(0, |i| i + 1);
    let before = text.get(stmt_start..start).unwrap_or("");
    let before = strip_comments(before);
    let mut rest = before.trim();
    // A label and a guard may come first.
    if let Some((l, r)) = rest.split_once(':') {
        if !l.contains(char::is_whitespace) && !r.starts_with(':') {
            rest = r.trim_start();
        }
    }
    if rest.starts_with('@') {
        rest = rest
            .split_once(char::is_whitespace)
            .map_or("", |x| x.1)
            .trim_start();
    }
    let line_start = b
        .get(..start)
        .unwrap_or_default()
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    let line = text.get(line_start..start).unwrap_or("").trim();
    let ctx = if line == ".target" || line.starts_with(".target ") && line.ends_with(',') {
        Context::Target
    } else if line == ".version" {
        Context::Version
    } else if rest.is_empty() || line.is_empty() && word.starts_with('.') {
        if word.starts_with('.') {
            Context::Directive(word)
        } else {
            Context::Opcode(word)
        }
    } else {
        Context::Operand(word)
    };
    (start, ctx)
}

fn strip_comments(s: &str) -> String {
    s.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

pub(crate) fn item(
    label: &str,
    kind: CompletionItemKind,
    detail: Option<String>,
) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail,
        ..CompletionItem::default()
    }
}

/// The completions of `word`, an opcode being typed from byte `start`
/// (`ld.global.` or `ld.glo`: the modifiers that may come next; `ld`: the
/// catalog's instructions), replacing the range `replace(from)` gives;
/// returns whether the list is incomplete (more typing narrows it).
pub(crate) fn opcode_items(
    word: &str,
    start: usize,
    replace: &dyn Fn(usize) -> Range,
    items: &mut Vec<CompletionItem>,
) -> bool {
    if let Some(dot) = word.find('.') {
        // `ld.global.` or `ld.glo`: the modifiers that may come next.
        let root = word.get(..dot).unwrap_or("");
        let last_dot = word.rfind('.').unwrap_or(dot);
        let typed: Vec<String> = word
            .get(dot..last_dot)
            .unwrap_or("")
            .split('.')
            .filter(|s| !s.is_empty())
            .map(|s| format!(".{s}"))
            .collect();
        let typed: Vec<&str> = typed.iter().map(String::as_str).collect();
        if let Some(op) = catalog().opcode_id(root) {
            let range = replace(start + last_dot);
            for (m, dist) in next_modifiers(op, &typed) {
                let meaning = ptxkit::analysis::explain::common_meaning(m);
                let mut it = item(m, CompletionItemKind::KEYWORD, meaning);
                it.sort_text = Some(format!("{dist:03}{m}"));
                it.filter_text = Some(m.to_string());
                it.text_edit = Some(CompletionTextEdit::Edit(TextEdit::new(
                    range,
                    m.to_string(),
                )));
                items.push(it);
            }
        }
    } else {
        let range = replace(start);
        for s in catalog().sections() {
            if items.iter().any(|i| i.label == s.name) {
                continue;
            }
            let detail = s.notes.first().map(|n| n.to_string());
            let mut it = item(s.name, CompletionItemKind::KEYWORD, detail);
            it.text_edit = Some(CompletionTextEdit::Edit(TextEdit::new(
                range,
                s.name.to_string(),
            )));
            items.push(it);
        }
        return true;
    }
    false
}

/// The completions at byte offset `off` of `doc`.
pub fn complete(doc: &Document, off: u32) -> CompletionResponse {
    let text = &doc.text;
    let off = (off as usize).min(text.len());
    let (start, ctx) = context(text, off);
    let a = &doc.analysis;
    let in_body = function_at(&a.module, off as u32)
        .and_then(|f| f.body.as_ref())
        .is_some_and(|b| b.span.start < off as u32 && (off as u32) < b.span.end)
        // A body being typed may not parse yet: an unclosed `{` before.
        || text.get(..off).is_some_and(|t| t.matches('{').count() > t.matches('}').count());
    let replace = |from: usize| {
        Range::new(
            doc.lines.position(text, from as u32),
            doc.lines.position(text, off as u32),
        )
    };
    let mut items: Vec<CompletionItem> = Vec::new();
    let mut incomplete = false;
    match ctx {
        Context::Opcode(word) if in_body => {
            incomplete = opcode_items(word, start, &replace, &mut items);
        }
        Context::Opcode(_) => {}
        Context::Directive(_) => {
            let range = replace(start);
            let list: Vec<String> = if in_body {
                BODY_DIRECTIVES
                    .iter()
                    .map(|s| s.to_string())
                    .chain(
                        [
                            StateSpace::Reg,
                            StateSpace::Local,
                            StateSpace::Shared,
                            StateSpace::Param,
                        ]
                        .iter()
                        .map(|s| s.as_str().to_string()),
                    )
                    .collect()
            } else {
                MODULE_DIRECTIVES
                    .iter()
                    .map(|s| s.to_string())
                    .chain(Linkage::ALL.iter().map(|l| l.as_str().to_string()))
                    .chain(
                        [StateSpace::Global, StateSpace::Const, StateSpace::Shared]
                            .iter()
                            .map(|s| s.as_str().to_string()),
                    )
                    .chain(
                        module_data::data()
                            .directives
                            .iter()
                            .map(|d| d.name.clone()),
                    )
                    .collect()
            };
            for d in list.iter().chain(
                ScalarType::ALL
                    .iter()
                    .filter(|t| t.declarable())
                    .map(|t| t.as_str().to_string())
                    .collect::<Vec<_>>()
                    .iter(),
            ) {
                if items.iter().any(|i| i.label == *d) {
                    continue;
                }
                let mut it = item(d, CompletionItemKind::KEYWORD, None);
                it.text_edit = Some(CompletionTextEdit::Edit(TextEdit::new(range, d.clone())));
                items.push(it);
            }
        }
        Context::Target => {
            for (t, v) in &module_data::data().targets {
                items.push(item(
                    t,
                    CompletionItemKind::ENUM_MEMBER,
                    Some(format!("PTX {v} and later")),
                ));
            }
        }
        Context::Version => {
            for v in &module_data::data().versions {
                items.push(item(&v.to_string(), CompletionItemKind::ENUM_MEMBER, None));
            }
        }
        Context::Operand(word) => {
            let range = replace(start);
            let ix = a.index();
            let mut push = |label: String, kind, detail: Option<String>| {
                let mut it = item(&label, kind, detail);
                it.text_edit = Some(CompletionTextEdit::Edit(TextEdit::new(range, label)));
                items.push(it);
            };
            let scope = ix.function_at(off as u32);
            let locals = scope.map(|f| f.decls.as_slice()).unwrap_or_default();
            let module = || {
                ix.decls
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| d.function.is_none())
                    .map(|(i, _)| i as u32)
            };
            let many = locals.len().saturating_add(module().count()) > MAX_NAMES;
            let typed = word.trim_start_matches('%').to_lowercase();
            let mut offered = 0usize;
            for id in locals.iter().copied().chain(module()) {
                let Some(d) = ix.decl(id) else { continue };
                if many {
                    if !holds_in_order(&d.name, &typed) {
                        continue;
                    }
                    if offered >= MAX_NAMES {
                        incomplete = true;
                        break;
                    }
                    offered += 1;
                }
                let kind = match d.kind {
                    Kind::Register | Kind::Variable | Kind::Param => CompletionItemKind::VARIABLE,
                    Kind::Label => CompletionItemKind::REFERENCE,
                    Kind::Function | Kind::Kernel => CompletionItemKind::FUNCTION,
                };
                let detail = match (d.ty, d.space) {
                    (Some(t), Some(s)) => Some(format!("{} {}", s.as_str(), t.as_str())),
                    _ => None,
                };
                match d.range {
                    Some(n) => {
                        for k in 0..n.min(RANGE_ITEMS) {
                            push(format!("{}{k}", d.name), kind, detail.clone());
                        }
                    }
                    None => push(d.name.clone(), kind, detail),
                }
            }
            if word.starts_with('%') || word.is_empty() {
                for r in catalog().special_registers() {
                    let detail = Some(format!("special register, {}", r.ty.as_str()));
                    if r.components.is_empty() {
                        push(r.name.to_string(), CompletionItemKind::CONSTANT, detail);
                    } else {
                        for c in r.components {
                            push(
                                format!("{}.{c}", r.name),
                                CompletionItemKind::CONSTANT,
                                detail.clone(),
                            );
                        }
                    }
                }
            }
        }
    }
    CompletionResponse::List(lsp_types::CompletionList {
        is_incomplete: incomplete,
        items,
    })
}

/// Whether `name` holds the letters of `typed` (lower case) in order, in
/// any case: the way editors match a completion to what was typed.
fn holds_in_order(name: &str, typed: &str) -> bool {
    let mut want = typed.chars().peekable();
    for c in name.chars().flat_map(char::to_lowercase) {
        if want.peek() == Some(&c) {
            want.next();
        }
    }
    want.peek().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_order_as_editors_match_them() {
        assert!(holds_in_order("g12345", "g15"));
        assert!(holds_in_order("SharedTile", "stil"));
        assert!(holds_in_order("anything", ""));
        assert!(!holds_in_order("g12345", "g51"));
    }

    /// Past `MAX_NAMES` candidates, an operand completion offers only the
    /// names matching the typed word, at most `MAX_NAMES`, marked
    /// incomplete; below it, every name.
    #[test]
    fn operand_completions_are_bounded() {
        let doc = |globals: usize| {
            let mut text = String::from(".version 8.0\n.target sm_90\n.address_size 64\n");
            for i in 0..globals {
                text.push_str(&format!(".global .u32 g{i};\n"));
            }
            text.push_str(".visible .entry k()\n{\n.reg .u32 %r<2>;\nld.global.u32 %r1, [g7");
            let uri: lsp_types::Uri = "file:///m.ptx".parse().unwrap();
            Document::new(uri, 1, text, crate::document::Encoding::Utf16, None)
        };
        let list = |d: &Document| match complete(d, d.text.len() as u32) {
            CompletionResponse::List(l) => l,
            CompletionResponse::Array(items) => lsp_types::CompletionList {
                is_incomplete: false,
                items,
            },
        };
        let few = list(&doc(20));
        assert!(!few.is_incomplete);
        assert!(few.items.iter().any(|i| i.label == "g19"));
        let many = list(&doc(20_000));
        assert!(many.is_incomplete);
        assert!(many.items.len() <= MAX_NAMES + 200, "{}", many.items.len());
        assert!(many.items.iter().any(|i| i.label == "g7"));
        assert!(many
            .items
            .iter()
            .filter(|i| i.label.starts_with('g'))
            .all(|i| i.label.contains('7')));
    }

    #[test]
    fn contexts() {
        let t = "  @%p ld.global.";
        assert_eq!(context(t, t.len()).1, Context::Opcode("ld.global."));
        let t = "L1: mov.u32 %r1, %t";
        assert_eq!(context(t, t.len()).1, Context::Operand("%t"));
        let t = "ret;\n  .re";
        assert_eq!(context(t, t.len()).1, Context::Directive(".re"));
        let t = ".version 8.0\n.target ";
        assert_eq!(context(t, t.len()).1, Context::Target);
    }
}
