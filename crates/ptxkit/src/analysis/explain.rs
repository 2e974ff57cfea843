//! Catalog entries for `ptx explain`: syntax forms, modifiers and their
//! meaning, operand roles, and the PTX version and target each needs.
//!
//! A query is an instruction name optionally followed by modifiers:
//! `cp.async.bulk.tensor`, `ld.global.v4`, `mma.sync.aligned`. The longest
//! leading part that names a catalog section is the instruction; the rest
//! are modifiers, and only the forms that accept every one of them are
//! shown.

use serde::Serialize;

use crate::isa::{catalog, Catalog, Form, Requirement, Section, Shape, SlotKind};

/// One syntax form.
#[derive(Clone, Debug, Serialize)]
pub struct FormInfo {
    /// The template as written in the catalog.
    pub syntax: String,
    /// Operand roles in order; optional ones end in `?`.
    pub operands: Vec<String>,
    /// PTX version this form needs, if it differs from the section's.
    pub ptx: Option<String>,
    /// Target this form needs, if it differs from the section's.
    pub sm: Option<String>,
    /// The register fragments of its vector operands whose length the
    /// form fixes (the `mma`/`wmma`/`wgmma` fragments), from the catalog's
    /// `@operand` and `@count` lines.
    pub fragments: Vec<Fragment>,
}

/// The register vector an operand of one form takes.
#[derive(Clone, Debug, Serialize)]
pub struct Fragment {
    /// The operand role (`d`, `a`).
    pub role: String,
    /// How many registers.
    pub count: u8,
    /// The type of each (alternatives, or the group that gives it:
    /// `.f16x2`, `.type`).
    pub types: Vec<String>,
}

/// A modifier group.
#[derive(Clone, Debug, Serialize)]
pub struct GroupInfo {
    /// Its name (`type`, `ss`, `level::cache_hint`).
    pub name: String,
    /// The spellings it allows.
    pub alternatives: Vec<String>,
}

/// A modifier with its meaning.
#[derive(Clone, Debug, Serialize)]
pub struct ModInfo {
    /// The spelling.
    pub modifier: String,
    /// What it means, if the catalog says.
    pub meaning: Option<String>,
    /// PTX version it needs, when gated.
    pub ptx: Option<String>,
    /// Target it needs, when gated.
    pub sm: Option<String>,
    /// Whether it was part of the query.
    pub queried: bool,
}

/// One catalog section.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    /// The instruction name.
    pub name: String,
    /// ISA section numbers.
    pub isa_sections: Vec<String>,
    /// PTX version that introduced it.
    pub ptx: Option<String>,
    /// Minimum target.
    pub sm: Option<String>,
    /// The catalog file (the ISA area).
    pub family: String,
    /// What it does.
    pub notes: Vec<String>,
    /// Syntax forms (those accepting the queried modifiers).
    pub forms: Vec<FormInfo>,
    /// Modifier groups used by those forms.
    pub groups: Vec<GroupInfo>,
    /// Modifiers with a meaning or a gate, and the queried ones.
    pub modifiers: Vec<ModInfo>,
    /// Allowed values of immediate operands.
    pub operand_values: Vec<(String, Vec<String>)>,
}

/// The answer to a query.
#[derive(Clone, Debug, Serialize)]
pub struct Explanation {
    /// The instruction name matched.
    pub instruction: String,
    /// The modifiers given after it.
    pub modifiers: Vec<String>,
    /// The matching sections.
    pub entries: Vec<Entry>,
}

/// A short meaning for modifiers that many instructions share (state
/// spaces, vector widths, data types, scopes), used when a section has no
/// `@mod` line for them.
pub fn common_meaning(m: &str) -> Option<String> {
    let fixed = match m {
        ".global" => "global memory: visible to every thread of the grid and the host",
        ".shared" | ".shared::cta" => "shared memory of the executing CTA",
        ".shared::cluster" => "shared memory of any CTA of the cluster",
        ".local" => "memory private to the thread (stack, spills)",
        ".const" => "the read-only constant banks",
        ".param" | ".param::entry" | ".param::func" => {
            "the parameter space of a kernel or function"
        }
        ".v2" => "a vector of two elements, one register each",
        ".v4" => "a vector of four elements, one register each",
        ".v8" => "a vector of eight elements, one register each",
        ".cta" => "scope: the threads of the same CTA",
        ".cluster" => "scope: the threads of the same cluster",
        ".gpu" => "scope: all threads of the device",
        ".sys" => "scope: the whole system, host included",
        ".pred" => "a predicate (true/false)",
        ".ftz" => "subnormal inputs and results are flushed to sign-preserving zero",
        ".sat" => "the result is clamped to the range of the type",
        ".aligned" => "every thread of the warp executes this same instruction",
        ".sync" => "the executing thread waits for the others taking part",
        _ => "",
    };
    if !fixed.is_empty() {
        return Some(fixed.to_string());
    }
    let t = crate::isa::vocab::ScalarType::from_spelling(m)?;
    use crate::isa::vocab::ScalarType as T;
    let kind = if matches!(t, T::B8 | T::B16 | T::B32 | T::B64 | T::B128) {
        "untyped bits"
    } else if t.is_signed() {
        "signed integer"
    } else if t.is_float() {
        "floating point"
    } else if matches!(t, T::U8 | T::U16 | T::U32 | T::U64 | T::U16x2 | T::U8x4) {
        "unsigned integer"
    } else {
        return None;
    };
    Some(format!("data type: {}-bit {kind}", t.bits()))
}

fn req_parts(r: &Requirement) -> (Option<String>, Option<String>) {
    (r.ptx.map(|v| v.to_string()), r.sm.map(String::from))
}

/// What `f` spells out: its slots' kinds, then its operands' suffixes.
fn slot_kinds(f: &Form) -> impl Iterator<Item = SlotKind> + '_ {
    f.slots
        .iter()
        .map(|s| s.kind)
        .chain(f.operands.iter().flat_map(|o| o.suffixes.iter().copied()))
}

fn form_takes(cat: &Catalog, f: &Form, m: &str) -> bool {
    let Some(id) = cat.mod_id(m) else {
        return false;
    };
    let slot = f.slots.iter().any(|s| cat.slot_accepts(s.kind, id));
    slot || f
        .operands
        .iter()
        .any(|o| o.suffixes.iter().any(|k| cat.slot_accepts(*k, id)))
}

fn operand_roles(f: &Form) -> Vec<String> {
    let mut out = Vec::new();
    for o in f.operands {
        let opt = if o.optional { "?" } else { "" };
        match &o.shape {
            Shape::Bracket(items) | Shape::Vector(items) if !items.is_empty() => {
                let inner: Vec<String> = items
                    .iter()
                    .map(|i| format!("{}{}", i.role, if i.optional { "?" } else { "" }))
                    .collect();
                let (l, r) = if matches!(o.shape, Shape::Bracket(_)) {
                    ("[", "]")
                } else {
                    ("{", "}")
                };
                out.push(format!("{l}{}{r}{opt}", inner.join(", ")));
            }
            Shape::Bracket(_) => out.push(format!("[{}]{opt}", o.role)),
            Shape::Pair { second, .. } => out.push(format!("{}|{second}{opt}", o.role)),
            Shape::List => out.push(format!("({}){opt}", o.role)),
            _ => out.push(format!("{}{opt}", o.role)),
        }
    }
    out
}

/// The fragments of `f`'s operands whose vector length the form fixes:
/// a fixed length, or the first `@count` row whose modifiers the form
/// spells out.
fn fragments(cat: &Catalog, f: &Form) -> Vec<Fragment> {
    use crate::isa::{Arity, TypeRef};
    let lits: Vec<crate::isa::ModId> = f
        .slots
        .iter()
        .filter_map(|s| match s.kind {
            SlotKind::Lit(m) => Some(m),
            SlotKind::Group(_) => None,
        })
        .collect();
    let group = |g| {
        cat.group(g)
            .map_or("?".to_string(), |g| format!(".{}", g.name))
    };
    f.operands
        .iter()
        .filter_map(|o| {
            let spec = cat.role(o.spec)?;
            let count = match spec.arity {
                Arity::Fixed(n) => n,
                Arity::Table(rows) => rows
                    .iter()
                    .find(|(_, ms)| ms.iter().all(|m| lits.contains(m)))
                    .map(|(n, _)| *n)?,
                _ => return None,
            };
            let types = spec
                .types
                .iter()
                .map(|t| match *t {
                    TypeRef::Fixed(st) => st.as_str().to_string(),
                    TypeRef::Group(g) => group(g),
                    TypeRef::Double(g) => format!("twice {}", group(g)),
                    TypeRef::Half(g) => format!("half {}", group(g)),
                })
                .collect();
            Some(Fragment {
                role: o.role.to_string(),
                count,
                types,
            })
        })
        .collect()
}

/// What `.mXnYkZ` means: the shape of a matrix operation.
fn shape_meaning(m: &str) -> Option<String> {
    let rest = m.strip_prefix(".m")?;
    let (mm, rest) = rest.split_once('n')?;
    let (nn, kk) = rest.split_once('k')?;
    let num = |s: &str| s.parse::<u32>().ok();
    let (mm, nn, kk) = (num(mm)?, num(nn)?, num(kk)?);
    Some(format!(
        "shape: the matrices are M×N×K = {mm}×{nn}×{kk} (A is M×K, B is K×N, C and D are M×N)"
    ))
}

/// The meaning of modifier `m` in the sections named `name`: the first
/// such section's `@mod` line about it, else a shape's or a common
/// modifier's meaning. (A section's forms may use a modifier that only a
/// sibling section explains: `mma`'s `.row` and `.col`.)
fn meaning_in(cat: &Catalog, name: &str, m: &str) -> Option<String> {
    cat.sections()
        .iter()
        .filter(|s| *s.name == *name)
        .find_map(|s| {
            s.mod_notes
                .iter()
                .find(|(id, _)| cat.mod_name(*id) == m)
                .map(|(_, t)| t.to_string())
        })
        .or_else(|| shape_meaning(m))
        .or_else(|| common_meaning(m))
}

fn entry(cat: &Catalog, idx: usize, s: &Section, mods: &[String]) -> Option<Entry> {
    let forms: Vec<&Form> = cat
        .forms()
        .map(|(_, f)| f)
        .filter(|f| f.section as usize == idx)
        .filter(|f| mods.iter().all(|m| form_takes(cat, f, m)))
        .collect();
    if forms.is_empty() && !mods.is_empty() {
        return None;
    }
    let mut groups: Vec<GroupInfo> = Vec::new();
    for f in &forms {
        let kinds = slot_kinds(f);
        for k in kinds {
            let SlotKind::Group(g) = k else { continue };
            let Some(g) = cat.group(g) else { continue };
            if groups.iter().any(|x| x.name == *g.name) {
                continue;
            }
            groups.push(GroupInfo {
                name: g.name.to_string(),
                alternatives: g
                    .alts
                    .iter()
                    .map(|&m| cat.mod_name(m).to_string())
                    .chain(g.patterns.iter().map(|p| p.to_string()))
                    .collect(),
            });
        }
    }
    let gate_of = |m: &str| {
        s.gates
            .iter()
            .find(|g| g.mods.iter().any(|&x| cat.mod_name(x) == m))
            .map(|g| req_parts(&g.req))
            .unwrap_or((None, None))
    };
    let mut modifiers: Vec<ModInfo> = Vec::new();
    let mut push = |m: &str, meaning: Option<String>| {
        if let Some(x) = modifiers.iter_mut().find(|x| x.modifier == m) {
            if x.meaning.is_none() {
                x.meaning = meaning;
            }
            return;
        }
        let (ptx, sm) = gate_of(m);
        modifiers.push(ModInfo {
            modifier: m.to_string(),
            meaning,
            ptx,
            sm,
            queried: mods.iter().any(|q| q == m),
        });
    };
    for m in mods {
        let note = s
            .mod_notes
            .iter()
            .find(|(id, _)| cat.mod_name(*id) == m)
            .map(|(_, t)| t.to_string())
            .or_else(|| common_meaning(m));
        push(m, note);
    }
    for (id, t) in s.mod_notes {
        push(cat.mod_name(*id), Some(t.to_string()));
    }
    for g in s.gates {
        for &m in g.mods {
            push(cat.mod_name(m), None);
        }
    }
    // Every modifier the shown forms spell out or let a group choose, with
    // its meaning where one is known.
    for f in &forms {
        let kinds = slot_kinds(f);
        for k in kinds {
            let ids: Vec<crate::isa::ModId> = match k {
                SlotKind::Lit(m) => vec![m],
                SlotKind::Group(g) => cat.group(g).map(|g| g.alts.to_vec()).unwrap_or_default(),
            };
            for id in ids {
                let m = cat.mod_name(id);
                if let Some(meaning) = meaning_in(cat, s.name, m) {
                    push(m, Some(meaning));
                }
            }
        }
    }
    for m in &mut modifiers {
        if m.meaning.is_none() {
            m.meaning = meaning_in(cat, s.name, &m.modifier);
        }
    }
    let (ptx, sm) = req_parts(&s.req);
    Some(Entry {
        name: s.name.to_string(),
        isa_sections: s.isa_sections.iter().map(|x| x.to_string()).collect(),
        ptx,
        sm,
        family: s.file.trim_end_matches(".ptxisa").to_string(),
        notes: s.notes.iter().map(|x| x.to_string()).collect(),
        forms: forms
            .iter()
            .map(|f| {
                let (ptx, sm) = req_parts(&f.req);
                FormInfo {
                    syntax: f.text.to_string(),
                    operands: operand_roles(f),
                    ptx,
                    sm,
                    fragments: fragments(cat, f),
                }
            })
            .collect(),
        groups,
        modifiers,
        operand_values: s
            .operand_values
            .iter()
            .map(|(k, v)| (k.to_string(), v.iter().map(|x| x.to_string()).collect()))
            .collect(),
    })
}

/// Look up `query` (`OPCODE[.MODS]`). The error names close matches.
pub fn explain(query: &str) -> Result<Explanation, String> {
    let cat = catalog();
    let q = query.trim().trim_start_matches('.');
    let words: Vec<&str> = q.split('.').collect();
    let sections = cat.sections();
    // An instruction's name is at most this many words: longer prefixes
    // of the query need no lookup (a query of many modifiers stays linear).
    let longest = sections
        .iter()
        .map(|s| s.name.split('.').count())
        .max()
        .unwrap_or(1);
    for k in (1..=words.len().min(longest)).rev() {
        let name = words.get(..k).unwrap_or_default().join(".");
        if !sections.iter().any(|s| *s.name == *name) {
            continue;
        }
        let mods: Vec<String> = words
            .get(k..)
            .unwrap_or_default()
            .iter()
            .map(|w| format!(".{w}"))
            .collect();
        let entries: Vec<Entry> = sections
            .iter()
            .enumerate()
            .filter(|(_, s)| *s.name == *name)
            .filter_map(|(i, s)| entry(cat, i, s, &mods))
            .collect();
        if entries.is_empty() {
            return Err(format!("no form of `{name}` takes {}", mods.join(" and ")));
        }
        return Ok(Explanation {
            instruction: name,
            modifiers: mods,
            entries,
        });
    }
    let first = words.first().copied().unwrap_or_default();
    let mut close: Vec<&str> = sections
        .iter()
        .map(|s| s.name)
        .filter(|n| n.starts_with(first) || (first.len() >= 3 && n.contains(first)))
        .collect();
    close.sort_unstable();
    close.dedup();
    close.truncate(12);
    // "Did you mean": the closest section name, else the closest opcode.
    let mean = crate::suggest::closest(q, sections.iter().map(|s| s.name))
        .or_else(|| crate::suggest::closest(first, crate::suggest::opcodes()))
        .map(|m| format!("; did you mean `{m}`?"))
        .unwrap_or_default();
    Err(if close.is_empty() {
        format!("no instruction named `{q}` in the catalog{mean}")
    } else {
        format!(
            "no instruction named `{q}` in the catalog{mean} (close: {})",
            close.join(", ")
        )
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn explains_with_and_without_modifiers() {
        let e = explain("bra").unwrap();
        assert_eq!(e.instruction, "bra");
        assert_eq!(e.entries.len(), 1);
        assert_eq!(e.entries[0].family, "control");
        assert!(!e.entries[0].notes.is_empty());
        assert_eq!(e.entries[0].forms[0].operands, vec!["tgt"]);
        assert!(e.entries[0]
            .modifiers
            .iter()
            .any(|m| m.modifier == ".uni" && m.meaning.is_some()));

        let e = explain("ld.global.v4").unwrap();
        assert_eq!(e.instruction, "ld");
        assert_eq!(e.modifiers, vec![".global", ".v4"]);
        assert!(e.entries.iter().all(|x| !x.forms.is_empty()));
        assert!(e.entries[0]
            .modifiers
            .iter()
            .any(|m| m.modifier == ".v4" && m.queried));

        let e = explain("cp.async.bulk.tensor").unwrap();
        assert_eq!(e.instruction, "cp.async.bulk.tensor");

        assert!(explain("bra.sat").unwrap_err().contains("no form"));
        let err = explain("frobnicate").unwrap_err();
        assert!(err.contains("no instruction"), "{err}");
        let err = explain("mbarrier").unwrap_err();
        assert!(err.contains("mbarrier.arrive"), "{err}");
    }
}
