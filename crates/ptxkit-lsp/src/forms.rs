//! Reading an instruction as it is being typed against the catalog: which
//! forms still fit the modifiers written so far, and which modifiers may
//! come next.

use ptxkit::isa::{catalog, Form, OpcodeId, SlotKind};

/// The forms of opcode `op` that accept `typed` (modifier spellings with
/// their dots, in written order), each with the index of its first slot
/// not filled yet.
pub fn fitting(op: OpcodeId, typed: &[&str]) -> Vec<(&'static Form, usize)> {
    let cat = catalog();
    let Some(opcode) = cat.opcode(op) else {
        return Vec::new();
    };
    let ids: Option<Vec<_>> = typed.iter().map(|m| cat.mod_id(m)).collect();
    let Some(ids) = ids else {
        return Vec::new();
    };
    let mut out = Vec::new();
    'forms: for &fid in opcode.forms {
        let Some(form) = cat.form(fid) else { continue };
        let mut si = 0;
        for &m in &ids {
            loop {
                let Some(slot) = form.slots.get(si) else {
                    continue 'forms;
                };
                si += 1;
                if cat.slot_accepts(slot.kind, m) {
                    break;
                }
                if !slot.optional {
                    continue 'forms;
                }
            }
        }
        out.push((form, si));
    }
    out
}

/// The modifiers that may follow `typed` on opcode `op`, each with how many
/// slots ahead it is (0: the very next one), nearest first, no repeats.
pub fn next_modifiers(op: OpcodeId, typed: &[&str]) -> Vec<(&'static str, usize)> {
    let cat = catalog();
    let mut out: Vec<(&'static str, usize)> = Vec::new();
    for (form, si) in fitting(op, typed) {
        for (dist, slot) in form.slots.iter().skip(si).enumerate() {
            let alts: Vec<&'static str> = match slot.kind {
                SlotKind::Lit(m) => vec![cat.mod_name(m)],
                SlotKind::Group(g) => cat
                    .group(g)
                    .map(|g| g.alts.iter().map(|&m| cat.mod_name(m)).collect())
                    .unwrap_or_default(),
            };
            for a in alts {
                match out.iter_mut().find(|(x, _)| *x == a) {
                    Some(e) => e.1 = e.1.min(dist),
                    None => out.push((a, dist)),
                }
            }
            if !slot.optional {
                break;
            }
        }
    }
    out.sort_by_key(|&(_, d)| d);
    out
}

/// The operand roles of `form` as they are written: `d`, `[a]`, `{d, e}`,
/// `p|q`; optional ones end in `?`.
pub fn operand_labels(form: &Form) -> Vec<String> {
    use ptxkit::isa::Shape;
    form.operands
        .iter()
        .map(|o| {
            let opt = if o.optional { "?" } else { "" };
            match &o.shape {
                Shape::Bracket(items) | Shape::Vector(items) if !items.is_empty() => {
                    let inner: Vec<&str> = items.iter().map(|i| i.role).collect();
                    let (l, r) = if matches!(o.shape, Shape::Bracket(_)) {
                        ("[", "]")
                    } else {
                        ("{", "}")
                    };
                    format!("{l}{}{r}{opt}", inner.join(", "))
                }
                Shape::Bracket(_) => format!("[{}]{opt}", o.role),
                Shape::Vector(_) => format!("{{{}}}{opt}", o.role),
                Shape::Pair { second, .. } => format!("{}|{second}{opt}", o.role),
                Shape::List => format!("({}){opt}", o.role),
                Shape::Literal(l) => format!("{l}{opt}"),
                Shape::Value => format!("{}{opt}", o.role),
            }
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn ld_offers_spaces_then_cache_operators_and_types() {
        let cat = catalog();
        let ld = cat.opcode_id("ld").unwrap();
        let first: Vec<&str> = next_modifiers(ld, &[]).iter().map(|x| x.0).collect();
        assert!(
            first.contains(&".global") && first.contains(&".shared"),
            "{first:?}"
        );
        let after: Vec<&str> = next_modifiers(ld, &[".global"])
            .iter()
            .map(|x| x.0)
            .collect();
        assert!(
            after.contains(&".ca") && after.contains(&".u32"),
            "{after:?}"
        );
        assert!(!after.contains(&".global"), "{after:?}");
        assert!(next_modifiers(ld, &[".frob"]).is_empty());
    }
}
