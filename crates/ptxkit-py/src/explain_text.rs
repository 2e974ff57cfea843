//! `ptxkit.explain`: an instruction's catalog entry as text (the layout of
//! `ptx explain`, without colour) or as a dict.

use ptxkit::analysis::explain::Explanation;

/// Columns padded to their widest cell, two spaces apart.
fn table(rows: &[[String; 3]], indent: &str) -> String {
    let mut w = [0usize; 3];
    for r in rows {
        for (k, c) in r.iter().enumerate() {
            if let Some(x) = w.get_mut(k) {
                *x = (*x).max(c.chars().count());
            }
        }
    }
    let mut out = String::new();
    for r in rows {
        let mut line = String::from(indent);
        for (k, c) in r.iter().enumerate() {
            line.push_str(c);
            if k < 2 {
                let pad = w
                    .get(k)
                    .copied()
                    .unwrap_or(0)
                    .saturating_sub(c.chars().count());
                line.push_str(&" ".repeat(pad.saturating_add(2)));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The human-readable entry.
pub fn render(e: &Explanation) -> String {
    let mut s = String::new();
    for (k, x) in e.entries.iter().enumerate() {
        if k > 0 {
            s.push('\n');
        }
        let mut needs = Vec::new();
        if let Some(p) = &x.ptx {
            needs.push(format!("PTX {p}"));
        }
        if let Some(t) = &x.sm {
            needs.push(format!("target {t}"));
        }
        s.push_str(&format!(
            "{}  ({}; ISA section {}; {})\n",
            x.name,
            x.family,
            x.isa_sections.join(", "),
            if needs.is_empty() {
                "any version".to_string()
            } else {
                format!("since {}", needs.join(", "))
            }
        ));
        for n in &x.notes {
            s.push_str(&format!("  {n}\n"));
        }
        if !x.forms.is_empty() {
            s.push_str("\n  syntax\n");
            for f in &x.forms {
                let text = f.syntax.split_whitespace().collect::<Vec<_>>().join(" ");
                let req: Vec<String> = f
                    .ptx
                    .iter()
                    .map(|p| format!("PTX {p}"))
                    .chain(f.sm.iter().cloned())
                    .collect();
                s.push_str(&format!("    {text}"));
                if !req.is_empty() {
                    s.push_str(&format!("   [{}]", req.join(", ")));
                }
                s.push('\n');
                s.push_str(&format!("      operands: {}\n", f.operands.join(", ")));
            }
        }
        if !x.groups.is_empty() {
            s.push_str("\n  modifier groups\n");
            for g in &x.groups {
                s.push_str(&format!("    .{} = {}\n", g.name, g.alternatives.join(" ")));
            }
        }
        if !x.modifiers.is_empty() {
            s.push_str("\n  modifiers\n");
            let mut rows = vec![["modifier".into(), "needs".into(), "meaning".into()]];
            for m in &x.modifiers {
                let needs: Vec<String> = m
                    .ptx
                    .iter()
                    .map(|p| format!("PTX {p}"))
                    .chain(m.sm.iter().cloned())
                    .collect();
                rows.push([
                    m.modifier.clone(),
                    needs.join(", "),
                    m.meaning.clone().unwrap_or_default(),
                ]);
            }
            s.push_str(&table(&rows, "    "));
        }
        for (op, vals) in &x.operand_values {
            s.push_str(&format!("  {op} is one of {}\n", vals.join(", ")));
        }
    }
    s
}
