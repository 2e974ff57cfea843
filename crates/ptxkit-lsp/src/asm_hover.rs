//! Hover inside the template of a C++ `asm` statement: over an opcode or
//! one of its modifiers, the catalog's entry (the head line and modifier
//! meanings of `ptx explain`, as the hover of a `.ptx` file gives them),
//! with what the statement's check found; over a special register, its
//! type; over a diagnostic, its code's explanation.

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};
use ptxkit::analysis::explain::explain;
use ptxkit::analysis::explain_text;
use ptxkit::diag::Code;
use ptxkit::inline_asm::{Checked, Verdict};
use ptxkit::Span;

use crate::cpp::{source_of, template_at};
use crate::document::Document;

/// Forms of an entry shown at most (an instruction with dozens of forms
/// shows the first and says how many more).
const MAX_FORMS: usize = 4;

fn word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'%' | b'.')
}

/// The word of `t` around byte `k`: its start and end.
fn word_around(t: &[u8], k: usize) -> Option<(usize, usize)> {
    let k = k.min(t.len());
    let mut a = k;
    while a > 0 && t.get(a - 1).copied().is_some_and(word_char) {
        a -= 1;
    }
    let mut b = k;
    while t.get(b).copied().is_some_and(word_char) {
        b += 1;
    }
    (a < b).then_some((a, b))
}

/// Whether the word starting at `a` is the first of its PTX statement
/// (after a label and a guard): the opcode.
fn is_opcode_position(t: &[u8], a: usize) -> bool {
    let head = t.get(..a).unwrap_or_default();
    let stmt = head
        .iter()
        .rposition(|&c| matches!(c, b';' | b'{' | b'}'))
        .map_or(head, |i| head.get(i + 1..).unwrap_or_default());
    let mut rest = std::str::from_utf8(stmt).unwrap_or("x").trim();
    if let Some((l, r)) = rest.split_once(':') {
        if !l.contains(char::is_whitespace) {
            rest = r.trim_start();
        }
    }
    if rest.starts_with('@') {
        // The guard, then the opcode (the guard alone: the opcode is next).
        rest = rest
            .split_once(char::is_whitespace)
            .map_or("", |x| x.1)
            .trim_start();
    }
    rest.is_empty()
}

/// The hover at C++ offset `off` of `doc` (a C++ document): the entry of
/// what is under the cursor inside a template, followed by the explanation
/// of a diagnostic reported there (as for PTX, [`crate::hover_diag`]).
pub fn hover(doc: &Document, off: u32) -> Option<Hover> {
    let (text, span) = match (entry(doc, off), explanations_at(doc, off)) {
        (Some((t, s)), Some((d, _))) => (format!("{t}\n\n---\n\n{d}"), s),
        (found, diag) => found.or(diag)?,
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: Some(doc.range(span)),
    })
}

/// The explanations of the codes of the `asm` diagnostics whose span holds
/// `off` (each code once), and the span of the first.
fn explanations_at(doc: &Document, off: u32) -> Option<(String, Span)> {
    let mut codes: Vec<Code> = Vec::new();
    let mut first: Option<Span> = None;
    let all = doc.asm.iter().flat_map(|c| match &c.verdict {
        Verdict::Invalid { diagnostics, .. } => diagnostics.as_slice(),
        Verdict::Skipped { diagnostic } => std::slice::from_ref(diagnostic),
        Verdict::Valid { .. } => &[],
    });
    for d in all {
        if d.span.start <= off && off <= d.span.end {
            first.get_or_insert(d.span);
            if !codes.contains(&d.code) {
                codes.push(d.code);
            }
        }
    }
    let span = first?;
    let text: Vec<String> = codes.into_iter().map(crate::hover_diag::markdown).collect();
    Some((text.join("\n\n---\n\n"), span))
}

/// What is under C++ offset `off` inside a template: an instruction's
/// entry or a special register's, and the span of the word.
fn entry(doc: &Document, off: u32) -> Option<(String, Span)> {
    let (checked, t, k) = template_at(&doc.asm, off)?;
    let stmt = &checked.statement;
    let (a, b) = word_around(t, k)?;
    let word = std::str::from_utf8(t.get(a..b)?).ok()?;
    let text = if word.starts_with('%') {
        // `%%tid.x` in a template with operands is PTX's `%tid.x`.
        let has_operands = stmt.operands().next().is_some();
        let reg = if has_operands && word.starts_with("%%") {
            word.get(1..).unwrap_or(word)
        } else {
            word
        };
        crate::hover::special_register(reg)?
    } else if is_opcode_position(t, a) {
        // The modifier under the cursor: the dotted part holding byte k.
        let here = word
            .get(..k.saturating_sub(a).min(word.len()))
            .and_then(|s| s.rfind('.'))
            .and_then(|d| {
                let tail = word.get(d..)?;
                let end = tail.get(1..)?.find('.').map_or(tail.len(), |e| e + 1);
                tail.get(..end)
            });
        instruction(word, here, Some(checked))?
    } else {
        return None;
    };
    let end = source_of(stmt, b.saturating_sub(1)).saturating_add(1);
    let span = Span::new(source_of(stmt, a), end.max(source_of(stmt, a)));
    Some((text, span))
}

/// The catalog's entry for opcode-and-modifiers `written` (`ld.global.f32`),
/// `here` the modifier under the cursor, and what the check of the
/// statement found.
fn instruction(written: &str, here: Option<&str>, checked: Option<&Checked>) -> Option<String> {
    use std::fmt::Write;
    let root = written.split('.').next().unwrap_or(written);
    let ex = explain(written).or_else(|_| explain(root)).ok()?;
    let e = ex.entries.first()?;
    let mut out = format!(
        "**{}** `{written}` — {}\n\n",
        e.name,
        explain_text::summary(e)
    );
    if !e.forms.is_empty() {
        out.push_str("```ptx\n");
        for f in e.forms.iter().take(MAX_FORMS) {
            let _ = writeln!(out, "{}", explain_text::syntax_text(&f.syntax));
        }
        out.push_str("```\n");
        if e.forms.len() > MAX_FORMS {
            let _ = writeln!(
                out,
                "({} more forms: `ptx explain {}`)\n",
                e.forms.len() - MAX_FORMS,
                e.name
            );
        }
    }
    for n in &e.notes {
        let _ = writeln!(out, "{n}\n");
    }
    let used: Vec<String> = written
        .split('.')
        .skip(1)
        .filter(|m| !m.is_empty())
        .map(|m| {
            let m = format!(".{m}");
            let b = if here == Some(m.as_str()) { "**" } else { "" };
            match explain_text::modifier_meaning(e, &m) {
                Some(t) => format!("- {b}`{m}`{b}: {t}"),
                None => format!("- {b}`{m}`{b}"),
            }
        })
        .collect();
    if !used.is_empty() {
        let _ = writeln!(out, "Modifiers:\n{}\n", used.join("\n"));
    }
    match checked.map(|c| &c.verdict) {
        Some(Verdict::Valid { targets }) => {
            let first = targets.first().map(String::as_str).unwrap_or("no target");
            let _ = writeln!(
                out,
                "This `asm` statement is accepted on {} of the targets tried (from {first}).",
                targets.len()
            );
        }
        Some(Verdict::Invalid { closest, .. }) => {
            let _ = writeln!(
                out,
                "**No target tried accepts this `asm` statement**{}.",
                closest
                    .as_deref()
                    .map(|t| format!(" (its diagnostics are as {t} sees it)"))
                    .unwrap_or_default()
            );
        }
        Some(Verdict::Skipped { .. }) | None => {}
    }
    Some(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn opcode_positions() {
        let t = b"{ .reg .pred p; @p ld.global.f32 %0, [%1]; L1: st.u32 [%0], %1; }";
        let at = |w: &str| {
            let s = std::str::from_utf8(t).unwrap();
            s.find(w).unwrap()
        };
        assert!(is_opcode_position(t, at("ld.global")));
        assert!(is_opcode_position(t, at("st.u32")));
        assert!(!is_opcode_position(t, at("%0, [%1]")));
        assert_eq!(
            word_around(t, at("global") + 2),
            Some((at("ld."), at(" %0, [%1];")))
        );
    }

    #[test]
    fn entry_names_the_modifier() {
        let h = instruction("ld.global.f32", Some(".global"), None).unwrap();
        assert!(h.starts_with("**ld**"), "{h}");
        assert!(h.contains("**`.global`**"), "{h}");
    }
}
