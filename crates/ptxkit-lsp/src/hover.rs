//! Hover: an instruction's catalog entry (the head line and modifier
//! meanings of `ptx explain`, from [`ptxkit::analysis::explain_text`],
//! narrowed to the form and modifiers written), a symbol's declaration, a
//! special register's type; on a `.loc`, the source line it points at
//! (the `hover_loc` module); over a diagnostic, its code's explanation
//! ([`crate::hover_diag`]).

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};
use ptxkit::analysis::explain::{explain, Entry};
use ptxkit::analysis::explain_text;
use ptxkit::check::target::{Env, Sm, Unmet};
use ptxkit::isa::{catalog, PtxVersion, Requirement};
use ptxkit::syntax::Instruction;
use ptxkit::Module;

use crate::document::Document;
use crate::index::Kind;
use crate::locate::{instruction_at, one_line, word_at};

/// The hover at byte offset `off` of `doc`, followed by the explanation of
/// a diagnostic reported there ([`crate::hover_diag`]).
pub fn hover(doc: &Document, off: u32) -> Option<Hover> {
    let found = entry(doc, off);
    let (text, span) = match (found, crate::hover_diag::explanations_at(doc, off)) {
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

/// What the hover at `off` says of the symbol, instruction or special
/// register there, and its span.
fn entry(doc: &Document, off: u32) -> Option<(String, ptxkit::Span)> {
    let a = &doc.analysis;
    let src = a.text.as_bytes();
    let (text, span) = if let Some(found) = crate::hover_loc::source_line(doc, off) {
        found
    } else if let Some(o) = a.index().at(off) {
        (symbol(doc, o.decl)?, o.span)
    } else if let Some(i) =
        instruction_at(&a.module, off).filter(|i| i.opcode_span.start <= off && off <= mods_end(i))
    {
        let span = ptxkit::Span::new(i.opcode_span.start, mods_end(i));
        (instruction(doc, i, off), span)
    } else {
        let (span, w) = word_at(src, off)?;
        (special_register(w)?, span)
    };
    Some((text, span))
}

fn mods_end(i: &Instruction) -> u32 {
    i.mods
        .iter()
        .map(|m| m.span().end)
        .max()
        .unwrap_or(i.opcode_span.end)
        .max(i.opcode_span.end)
}

/// What the document is checked against: its `.version` and the
/// configured target or its `.target`.
pub fn env_of(m: &Module, target: Option<&str>) -> Env {
    Env {
        ptx: m.version().and_then(|v| {
            Some(PtxVersion {
                major: u8::try_from(v.major).ok()?,
                minor: u8::try_from(v.minor).ok()?,
            })
        }),
        sm: target.and_then(Sm::parse).or_else(|| {
            m.target()
                .and_then(|t| t.arch())
                .and_then(|a| Sm::parse(a.as_str()))
        }),
        opts: 0,
    }
}

fn describe(req: &Requirement) -> String {
    let mut parts = Vec::new();
    if let Some(p) = req.ptx {
        parts.push(format!("PTX {p}"));
    }
    if let Some(sm) = req.sm {
        parts.push(if sm == "all" {
            "any target".to_string()
        } else {
            sm.replace('|', " or ")
        });
    }
    if let Some(o) = req.opt {
        parts.push(format!("`.target` option {o}"));
    }
    if parts.is_empty() {
        "nothing beyond the module's".to_string()
    } else {
        parts.join(", ")
    }
}

fn unmet_text(u: &Unmet) -> String {
    match u {
        Unmet::Ptx(v) => format!("needs `.version {v}`"),
        Unmet::Target(t) => format!("needs {t}"),
        Unmet::Removed { ptx, sm } => format!(
            "removed{}{}",
            ptx.map(|v| format!(" from PTX {v}")).unwrap_or_default(),
            sm.map(|s| format!(" on {s} and later")).unwrap_or_default()
        ),
        Unmet::Option(o) => format!("needs the `.target` option {o}"),
    }
}

fn instruction(doc: &Document, i: &Instruction, off: u32) -> String {
    use std::fmt::Write;
    let cat = catalog();
    let written: String = std::iter::once(i.opcode_name())
        .chain(i.mods.iter().map(|m| m.as_str()))
        .collect::<Vec<_>>()
        .join("");
    let form = i.form();
    let section = form.and_then(|_| cat.section_of(i.form));
    let mut out = format!("**{}** `{written}`", i.name());
    let explained = explain(&written).or_else(|_| explain(i.name()));
    let entry: Option<Entry> = explained.ok().and_then(|e| {
        let name = section.map(|s| s.name).unwrap_or(i.name());
        e.entries.into_iter().find(|x| x.name == name)
    });
    if let Some(e) = &entry {
        // The head line of `ptx explain`'s entry: family, ISA sections,
        // what it needs.
        let _ = write!(out, " — {}", explain_text::summary(e));
    }
    out.push_str("\n\n");
    match form {
        Some(f) => {
            let _ = writeln!(out, "```ptx\n{}\n```", f.text);
            let roles: Vec<String> = f
                .operands
                .iter()
                .map(|o| format!("`{}`{}", o.role, if o.optional { "?" } else { "" }))
                .collect();
            if !roles.is_empty() {
                let _ = writeln!(out, "Operands: {}\n", roles.join(", "));
            }
        }
        None => out.push_str("No form of the catalog matches these modifiers and operands.\n\n"),
    }
    if let Some(e) = &entry {
        for n in &e.notes {
            let _ = writeln!(out, "{n}\n");
        }
        let used: Vec<String> = i
            .mods
            .iter()
            .map(|m| {
                let name = m.as_str();
                let here = m.span().start <= off && off <= m.span().end;
                let meaning = explain_text::modifier_meaning(e, name);
                let b = if here { "**" } else { "" };
                match meaning {
                    Some(t) => format!("- {b}`{name}`{b}: {t}"),
                    None => format!("- {b}`{name}`{b}"),
                }
            })
            .collect();
        if !used.is_empty() {
            let _ = writeln!(out, "Modifiers:\n{}\n", used.join("\n"));
        }
    }
    // What it needs, and whether this document's target has it.
    let mut reqs: Vec<Requirement> = Vec::new();
    if let Some(s) = section {
        reqs.push(s.req);
        for g in s.gates {
            if g.mods.iter().any(|m| i.mods.iter().any(|x| x.id == *m)) {
                reqs.push(g.req);
            }
        }
    }
    if let Some(f) = form {
        if !f.req.is_empty() {
            reqs.push(f.req);
        }
    }
    if !reqs.is_empty() {
        let needs: Vec<String> = reqs.iter().map(describe).collect();
        let _ = writeln!(out, "Needs: {}\n", needs.join("; "));
        let env = env_of(&doc.analysis.module, doc.analysis.target());
        let target = env
            .sm
            .map(|s| s.to_string())
            .unwrap_or_else(|| "no target".to_string());
        let version = env
            .ptx
            .map(|v| format!("PTX {v}"))
            .unwrap_or_else(|| "no .version".to_string());
        let unmet: Vec<String> = reqs
            .iter()
            .filter_map(|r| env.unmet(r))
            .map(|u| unmet_text(&u))
            .collect();
        if unmet.is_empty() {
            let _ = writeln!(out, "Available on this document's {target} ({version}).");
        } else {
            let _ = writeln!(
                out,
                "**Not available** on this document's {target} ({version}): {}.",
                unmet.join("; ")
            );
        }
    }
    out
}

fn kind_word(k: Kind) -> &'static str {
    match k {
        Kind::Register => "register",
        Kind::Variable => "variable",
        Kind::Param => "parameter",
        Kind::Label => "label",
        Kind::Function => "function",
        Kind::Kernel => "kernel",
    }
}

fn symbol(doc: &Document, id: u32) -> Option<String> {
    let a = &doc.analysis;
    let ix = a.index();
    let d = ix.decl(id)?;
    let src = a.text.as_bytes();
    let mut out = format!("```ptx\n{}\n```\n", one_line(src, d.decl_span, 300));
    let mut facts = vec![kind_word(d.kind).to_string()];
    if let Some(t) = d.ty {
        let v = d.vector.map(|n| format!(".v{n} ")).unwrap_or_default();
        facts.push(format!("type `{v}{}`", t.as_str()));
    }
    if let Some(s) = d.space {
        facts.push(format!("state space `{}`", s.as_str()));
    }
    if let Some(n) = d.range {
        facts.push(format!(
            "one of `{0}<{n}>`: `{0}0` … `{0}{1}`",
            d.name,
            n.saturating_sub(1)
        ));
    }
    if d.array {
        facts.push("array".to_string());
    }
    if let Some(f) = d
        .function
        .and_then(|f| ix.functions.get(f))
        .and_then(|f| ix.decl(f.decl))
    {
        facts.push(format!("in `{}`", f.name));
    }
    out.push_str(&facts.join(" · "));
    let line = doc.lines.line_of(d.name_span.start) + 1;
    out.push_str(&format!(" · declared on line {line}"));
    Some(out)
}

/// The hover text of special register `word` (`%tid`, `%tid.x`).
pub(crate) fn special_register(word: &str) -> Option<String> {
    let base = word.split('.').next().unwrap_or(word);
    let r = catalog().special_register(base)?;
    let mut out = format!(
        "```ptx\n{}\n```\nspecial register · type `{}`",
        word,
        r.ty.as_str()
    );
    if !r.components.is_empty() {
        out.push_str(&format!(" · components `.{}`", r.components.join("`, `.")));
    }
    if !r.req.is_empty() {
        out.push_str(&format!(" · needs {}", describe(&r.req)));
    }
    Some(out)
}
