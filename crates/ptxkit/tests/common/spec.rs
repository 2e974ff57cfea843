//! Reading the spec pack: the statements of each section's Examples.
//! Shared by the spec test and `xtask catalog-check`.
#![allow(dead_code)]

/// Rows of spec/INDEX.tsv as (section key, opcode, spec file). The key of a
/// section numbered in the 9.4 document is `N@9.4`.
pub fn index_rows(tsv: &str) -> Vec<(String, String, String)> {
    tsv.lines()
        .skip(1)
        .filter_map(|row| {
            let cols: Vec<&str> = row.split('\t').collect();
            let (op, file, sec) = (cols.first()?, cols.get(1)?, cols.get(5)?);
            let num = sec.split_whitespace().next().unwrap_or("");
            let key = if sec.contains("9.4 numbering") {
                format!("{num}@9.4")
            } else {
                num.to_string()
            };
            Some((key, op.to_string(), file.to_string()))
        })
        .collect()
}

/// Statements of the `Examples` part of a spec section, one per `;`,
/// joined across lines.
pub fn example_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_examples = false;
    let mut in_code = false;
    let mut cur = String::new();
    for line in text.lines() {
        let t = line.trim();
        if !in_code
            && (t == "Examples"
                || t.starts_with("#### Examples")
                || t.starts_with("### Examples")
                || t == "**Examples**")
        {
            in_examples = true;
            continue;
        }
        if t.starts_with("```") {
            in_code = !in_code;
            cur.clear();
            continue;
        }
        if in_examples && in_code {
            let code = t.split("//").next().unwrap_or("");
            let mut rest = code;
            while let Some(i) = rest.find(';') {
                cur.push(' ');
                cur.push_str(rest.get(..i).unwrap_or(""));
                let s = cur.trim().to_string();
                cur.clear();
                rest = rest.get(i + 1..).unwrap_or("");
                // Drop labels in front.
                let s = match s.split_once(':') {
                    Some((l, r)) if !l.contains(' ') && !r.starts_with(':') && !l.is_empty() => {
                        r.trim().to_string()
                    }
                    _ => s,
                };
                if s.is_empty() || s.starts_with('.') || s.starts_with('{') || s.starts_with('}') {
                    continue;
                }
                out.push(format!("{s};"));
            }
            let r = rest.trim();
            if !r.is_empty() && !r.ends_with(':') && !r.starts_with('.') && r != "{" && r != "}" {
                cur.push(' ');
                cur.push_str(r);
            }
        }
    }
    out
}
