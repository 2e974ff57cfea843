//! The text of an instruction's catalog entry: the one layout that
//! `ptx explain`, Python's `ptxkit.explain()` and the editor hover share.
//!
//! It reads only an [`Explanation`] (what [`explain`](super::explain::explain)
//! took from the catalog). Front ends that colour their output pass a
//! painter that styles each [`Part`]; [`plain`] is the text without
//! colour.
//!
//! ```text
//! bra  (control; ISA “Control Flow Instructions: bra” (section 9.7.12.3); PTX ISA 1.0, any target)
//!   Jumps to a label; with a guard predicate the jump is conditional.
//!
//!   syntax
//!     bra{.uni} tgt;
//!       operands: tgt
//!
//!   modifiers
//!     modifier  needs  meaning
//!     .uni             promises the branch is non-divergent: ...
//! ```
//!
//! Requirements are written in words (`PTX ISA 7.0, sm_80 or later`), the
//! syntax without the catalog's annotations, and the register fragments
//! of matrix instructions after their operands (`d: 4 × .f32`).

use super::explain::{Entry, Explanation, FormInfo, ModInfo};

/// What a piece of the text is, for a front end that styles it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The instruction's name at the head of an entry.
    Name,
    /// A heading (`syntax`, `modifiers`), a table header, a queried
    /// modifier.
    Heading,
    /// Secondary text: what a form or modifier needs, operand roles.
    Dim,
    /// Everything else.
    Plain,
}

/// The entries of `e` as text without colour.
pub fn plain(e: &Explanation) -> String {
    render(e, &|s: &str, _| s.to_string())
}

/// The entries of `e` as text, each styled piece passed through `paint`
/// (which returns the piece as it is to be shown, e.g. wrapped in escape
/// codes). Padding is measured on the unstyled text.
pub fn render(e: &Explanation, paint: &dyn Fn(&str, Part) -> String) -> String {
    let mut s = String::new();
    for (k, x) in e.entries.iter().enumerate() {
        if k > 0 {
            s.push('\n');
        }
        entry(&mut s, x, paint);
    }
    s
}

fn entry(s: &mut String, x: &Entry, paint: &dyn Fn(&str, Part) -> String) {
    s.push_str(&format!(
        "{}  ({})\n",
        paint(&x.name, Part::Name),
        summary(x)
    ));
    for n in &x.notes {
        s.push_str(&format!("  {n}\n"));
    }
    if !x.forms.is_empty() {
        s.push_str(&format!("\n  {}\n", paint("syntax", Part::Heading)));
        for f in &x.forms {
            let text = syntax_text(&f.syntax);
            let req = form_needs(f);
            s.push_str(&format!(
                "    {text}{}\n",
                if req.is_empty() {
                    String::new()
                } else {
                    paint(&format!("   (needs {})", req.join(", ")), Part::Dim)
                }
            ));
            s.push_str(&paint(
                &format!("      operands: {}\n", f.operands.join(", ")),
                Part::Dim,
            ));
            if !f.fragments.is_empty() {
                let frags: Vec<String> = f
                    .fragments
                    .iter()
                    .map(|g| format!("{}: {} × {}", g.role, g.count, g.types.join("|")))
                    .collect();
                s.push_str(&paint(
                    &format!("      registers: {}\n", frags.join(", ")),
                    Part::Dim,
                ));
            }
        }
    }
    if !x.groups.is_empty() {
        s.push_str(&format!(
            "\n  {}\n",
            paint("modifier groups", Part::Heading)
        ));
        for g in &x.groups {
            s.push_str(&format!("    .{} = {}\n", g.name, g.alternatives.join(" ")));
        }
    }
    if !x.modifiers.is_empty() {
        s.push_str(&format!("\n  {}\n", paint("modifiers", Part::Heading)));
        let mut rows: Vec<[(String, Part); 3]> = vec![[
            ("modifier".to_string(), Part::Heading),
            ("needs".to_string(), Part::Heading),
            ("meaning".to_string(), Part::Heading),
        ]];
        for m in &x.modifiers {
            rows.push([
                (
                    m.modifier.clone(),
                    if m.queried {
                        Part::Heading
                    } else {
                        Part::Plain
                    },
                ),
                (modifier_needs(m).join(", "), Part::Dim),
                (m.meaning.clone().unwrap_or_default(), Part::Plain),
            ]);
        }
        s.push_str(&table(&rows, "    ", paint));
    }
    for (op, vals) in &x.operand_values {
        s.push_str(&format!("  {op} is one of {}\n", vals.join(", ")));
    }
}

/// A form's syntax as shown: whitespace collapsed, without the catalog's
/// trailing annotations (`[ptx=7.0 sm=sm_80]`).
pub fn syntax_text(catalog_text: &str) -> String {
    let text = match catalog_text.rsplit_once(';') {
        Some((code, rest)) if rest.trim().starts_with('[') => {
            catalog_text.get(..=code.len()).unwrap_or(catalog_text)
        }
        _ => catalog_text,
    };
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A target requirement in words: `any target`, `sm_80 or later`,
/// `sm_90a (arch-specific)`, `sm_100f (family)`, alternatives joined by
/// `or`.
pub fn target_words(sm: &str) -> String {
    if sm == "all" {
        return "any target".to_string();
    }
    sm.split('|')
        .map(|item| {
            let (t, since) = item.split_once('@').unwrap_or((item, ""));
            let since = if since.is_empty() {
                String::new()
            } else {
                format!(" from PTX ISA {since}")
            };
            let words = if t.ends_with('a') {
                format!("{t} (arch-specific)")
            } else if t.ends_with('f') {
                format!("{t} (family)")
            } else {
                format!("{t} or later")
            };
            words + &since
        })
        .collect::<Vec<_>>()
        .join(" or ")
}

/// An entry's family, ISA sections and what it needs, as in the head line
/// of the text: `control; ISA section 9.7.12.3; PTX ISA 1.0, any target`.
pub fn summary(x: &Entry) -> String {
    format!(
        "{}; ISA {}; {}",
        x.family,
        crate::isa::describe_sections(&x.isa_sections),
        since(x)
    )
}

/// What an entry needs, in words: `PTX ISA 8.0, sm_90a (arch-specific)`,
/// `PTX ISA 1.0, any target`, or `any version`.
pub fn since(x: &Entry) -> String {
    let needs = needs(x.ptx.as_deref(), x.sm.as_deref());
    if needs.is_empty() {
        "any version".to_string()
    } else {
        needs.join(", ")
    }
}

/// What a form needs beyond its entry: `PTX ISA 8.6`, `sm_100a
/// (arch-specific)`.
pub fn form_needs(f: &FormInfo) -> Vec<String> {
    needs(f.ptx.as_deref(), f.sm.as_deref())
}

/// What a modifier needs: `PTX ISA 7.8`, `sm_90 or later`.
pub fn modifier_needs(m: &ModInfo) -> Vec<String> {
    needs(m.ptx.as_deref(), m.sm.as_deref())
}

fn needs(ptx: Option<&str>, sm: Option<&str>) -> Vec<String> {
    ptx.map(|p| format!("PTX ISA {p}"))
        .into_iter()
        .chain(sm.map(target_words))
        .collect()
}

/// The meaning of modifier `m` (`.global`) in entry `x`: the entry's own
/// note on it, else the meaning many instructions share.
pub fn modifier_meaning(x: &Entry, m: &str) -> Option<String> {
    x.modifiers
        .iter()
        .find(|i| i.modifier == m)
        .and_then(|i| i.meaning.clone())
        .or_else(|| super::explain::common_meaning(m))
}

/// Left-aligned columns padded to their widest (unstyled) cell, two spaces
/// apart, trailing blanks trimmed.
fn table(
    rows: &[[(String, Part); 3]],
    indent: &str,
    paint: &dyn Fn(&str, Part) -> String,
) -> String {
    let mut w = [0usize; 3];
    for r in rows {
        for (slot, (c, _)) in w.iter_mut().zip(r) {
            *slot = (*slot).max(c.chars().count());
        }
    }
    let mut out = String::new();
    for r in rows {
        let mut line = String::from(indent);
        for (k, ((c, part), width)) in r.iter().zip(w).enumerate() {
            line.push_str(&paint(c, *part));
            if k.saturating_add(1) < r.len() {
                line.push_str(&" ".repeat(width.saturating_sub(c.chars().count())));
                line.push_str("  ");
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::analysis::explain::explain;

    /// The whole text of one entry, pinned.
    #[test]
    fn snapshot_bra() {
        insta::assert_snapshot!(plain(&explain("bra").unwrap()));
    }

    /// The layout's parts: head line, syntax, modifier table.
    #[test]
    fn plain_layout() {
        let e = explain("bra").unwrap();
        let t = plain(&e);
        let x = &e.entries[0];
        let head = t.lines().next().unwrap();
        assert_eq!(head, format!("bra  ({})", summary(x)));
        assert!(
            head.starts_with(
                "bra  (control; ISA “Control Flow Instructions: bra” (section 9.7.12.3); "
            ),
            "{head}"
        );
        assert!(head.ends_with(&format!("; {})", since(x))), "{head}");
        assert!(t.contains("\n  syntax\n    bra"), "{t}");
        assert!(t.contains("      operands: tgt\n"), "{t}");
        assert!(
            t.contains("\n  modifiers\n    modifier  needs  meaning\n"),
            "{t}"
        );
        // A modifier row: name padded to the header's width.
        assert!(t.contains("\n    .uni      "), "{t}");
        assert!(t.ends_with('\n'));
        assert!(!t.contains('\x1b'));
    }

    /// What a form or entry needs shows in brackets and in the head line.
    #[test]
    fn needs_are_shown() {
        let e = explain("wgmma.mma_async").unwrap();
        let t = plain(&e);
        let x = &e.entries[0];
        assert!(since(x).starts_with("PTX ISA 8.0"), "{}", since(x));
        assert!(since(x).contains("sm_90a (arch-specific)"), "{}", since(x));
        assert!(
            t.contains("   (needs PTX ISA ") || x.forms.iter().all(|f| form_needs(f).is_empty())
        );
        // No catalog annotations in the syntax shown.
        assert!(!t.contains("[ptx="), "{t}");
        // Matrix fragments from the catalog, per form.
        let mma = plain(&explain("mma").unwrap());
        assert!(
            mma.contains("registers: d: 8 × .f32, a: 2 × .f16x2, b: 2 × .f16x2, c: 8 × .f32"),
            "{mma}"
        );
        // Every layout modifier's meaning, also in the sections that do not
        // note it themselves.
        assert!(mma.matches("\n    .row ").count() >= 3, "{mma}");
        // A queried modifier reaches the painter as a heading.
        let e = explain("ld.global.v4").unwrap();
        let styled = render(&e, &|s: &str, p| match p {
            Part::Heading if s == ".v4" => format!("<{s}>"),
            Part::Name => format!("[{s}]"),
            _ => s.to_string(),
        });
        assert!(styled.starts_with("[ld]  ("), "{styled}");
        assert!(styled.contains("\n    <.v4>"), "{styled}");
        // Styling never moves the columns: the rows after a styled cell
        // line up with the plain text's.
        let text = plain(&e);
        let plain_rows: Vec<&str> = text.lines().filter(|l| l.starts_with("    .")).collect();
        assert!(!plain_rows.is_empty());
        let v4 = plain_rows
            .iter()
            .find(|l| l.starts_with("    .v4 "))
            .unwrap();
        assert!(styled.contains(&v4.replacen(".v4", "<.v4>", 1)), "{styled}");
    }

    #[test]
    fn meaning_falls_back_to_the_shared_one() {
        let e = explain("ld").unwrap();
        let x = &e.entries[0];
        assert!(modifier_meaning(x, ".global").is_some());
        assert_eq!(modifier_meaning(x, ".nonexistent-mod"), None);
    }
}
