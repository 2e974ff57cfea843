//! `xtask catalog-check`: load the catalog files from disk, report format
//! errors, and try every example instruction of the spec sections they cover
//! against the forms (modifier match and operand binding).

use std::collections::BTreeMap;
use std::path::PathBuf;

use ptxkit::isa::Catalog;

#[path = "../../crates/ptxkit/tests/common/spec.rs"]
mod spec;
use spec::example_lines;

/// Options of the command.
pub struct Opts {
    pub dir: PathBuf,
    pub spec: PathBuf,
    pub only_file: Option<String>,
    pub lines: Vec<String>,
    pub verbose: bool,
    pub corpus: bool,
}

pub fn run(o: Opts) -> i32 {
    let mut sources: Vec<(&'static str, &'static str)> = Vec::new();
    let mut entries: Vec<_> = match std::fs::read_dir(&o.dir) {
        Ok(rd) => rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "ptxisa"))
            .collect(),
        Err(e) => {
            eprintln!("cannot read {}: {e}", o.dir.display());
            return 2;
        }
    };
    entries.sort();
    for p in &entries {
        let name: &'static str = Box::leak(
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
                .into_boxed_str(),
        );
        let text: &'static str = Box::leak(
            std::fs::read_to_string(p)
                .unwrap_or_default()
                .into_boxed_str(),
        );
        sources.push((name, text));
    }
    let loaded = crate::catalog::Loaded::from_sources(&sources);
    if !ptxkit::isa::install_catalog(loaded.catalog) {
        eprintln!("catalog already loaded");
        return 2;
    }
    let cat = ptxkit::isa::catalog();
    let mut bad = 0usize;
    for e in &loaded.errors {
        println!("FORMAT {e}");
        bad += 1;
    }
    println!(
        "catalog: {} opcode roots, {} forms, {} sections, {} modifier spellings",
        cat.opcodes().count(),
        cat.forms().count(),
        cat.sections().len(),
        cat.mod_count()
    );

    for l in &o.lines {
        match check_line(cat, l) {
            Ok(f) => println!("OK   {l}    => {f}"),
            Err(e) => {
                println!("FAIL {l}    => {e}");
                bad += 1;
            }
        }
    }

    if o.corpus {
        let (t, f) = corpus_check(cat, &o);
        println!("corpus: {t} distinct instruction shapes tried, {f} failed");
        return i32::from(bad > 0 || f > 0);
    }

    // Spec examples of the sections each file covers.
    let index = o.spec.join("INDEX.tsv");
    let Ok(tsv) = std::fs::read_to_string(&index) else {
        println!("(no {}: spec examples not checked)", index.display());
        return i32::from(bad > 0);
    };
    let mut sec_file: BTreeMap<String, String> = BTreeMap::new();
    let mut sec_opcode: BTreeMap<String, String> = BTreeMap::new();
    // Several opcodes may share a section (bar/barrier); keep them all.
    for row in tsv.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        if let (Some(op), Some(f), Some(sec)) = (cols.first(), cols.get(1), cols.get(5)) {
            let num = sec.split_whitespace().next().unwrap_or("");
            let sec = if sec.contains("9.4 numbering") {
                format!("{num}@9.4")
            } else {
                num.to_string()
            };
            sec_file.insert(sec.clone(), f.to_string());
            sec_opcode
                .entry(sec)
                .and_modify(|v| {
                    v.push(' ');
                    v.push_str(op)
                })
                .or_insert_with(|| op.to_string());
        }
    }
    let mut covered = std::collections::BTreeSet::new();
    let mut tried = 0;
    let mut failed = 0;
    for s in cat.sections() {
        for sec in s.isa_sections {
            covered.insert(sec.to_string());
            if o.only_file.as_deref().is_some_and(|f| f != s.file) {
                continue;
            }
            let Some(f) = sec_file.get(&**sec) else {
                println!(
                    "SECTION {} ({}): section {} is not in INDEX.tsv",
                    s.file, s.name, sec
                );
                bad += 1;
                continue;
            };
            let text = std::fs::read_to_string(o.spec.join(f)).unwrap_or_default();
            for line in example_lines(&text) {
                tried += 1;
                match check_line(cat, &line) {
                    Ok(form) => {
                        if o.verbose {
                            println!("OK   [{sec}] {line}    => {form}");
                        }
                    }
                    Err(e) => {
                        failed += 1;
                        println!("FAIL [{sec} {}] {line}    => {e}", s.file);
                    }
                }
            }
        }
    }
    println!("spec examples: {tried} tried, {failed} failed");
    if o.only_file.is_none() {
        let missing: Vec<String> = sec_opcode
            .iter()
            .filter(|(s, _)| !covered.contains(*s))
            .map(|(s, op)| format!("{s} {op}"))
            .collect();
        println!("INDEX sections not in the catalog: {}", missing.len());
        for m in missing {
            println!("  MISSING {m}");
        }
    }
    i32::from(bad > 0 || failed > 0)
}

/// Parse one statement with the real parser: `Ok(form text)` or the errors.
pub fn check_line(_cat: &Catalog, line: &str) -> Result<String, String> {
    let (block, diags) = ptxkit::parse_body(line.as_bytes());
    let errs: Vec<String> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let mut m = d.message.clone();
            if let Some(n) = d.notes.first() {
                m.push_str(&format!(" ({n})"));
            }
            m
        })
        .collect();
    if !errs.is_empty() {
        return Err(errs.join("; "));
    }
    let forms: Vec<String> = block
        .instructions()
        .iter()
        .filter_map(|i| i.form().map(|f| f.text.to_string()))
        .collect();
    Ok(forms.join(" | "))
}

/// Try every distinct instruction of the ptxas-accepted corpus files.
fn corpus_check(cat: &Catalog, o: &Opts) -> (usize, usize) {
    let corpus = o.spec.join("../corpus");
    let Ok(manifest) = std::fs::read_to_string(corpus.join("MANIFEST.tsv")) else {
        println!("(no corpus manifest)");
        return (0, 0);
    };
    // Roots covered by the selected file (all roots when no file is given).
    let roots: Option<std::collections::BTreeSet<String>> = o.only_file.as_ref().map(|f| {
        cat.sections()
            .iter()
            .filter(|s| s.file == f.as_str())
            .map(|s| s.name.split('.').next().unwrap_or("").to_string())
            .collect()
    });
    let mut seen: BTreeMap<String, (usize, String, String)> = BTreeMap::new();
    for row in manifest.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        if cols.get(7) != Some(&"accept") {
            continue;
        }
        let Some(path) = cols.first() else { continue };
        let Ok(bytes) = std::fs::read(corpus.join(path)) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("");
            for stmt in code.split(';') {
                let mut st = stmt.trim();
                // Drop a leading label.
                if let Some((l, rest)) = st.split_once(':') {
                    if !l.contains(' ')
                        && !l.contains('[')
                        && !rest.starts_with(':')
                        && !l.is_empty()
                        && !l.contains('.')
                    {
                        st = rest.trim();
                    }
                }
                let first = st.chars().next().unwrap_or(' ');
                if !(first.is_ascii_alphabetic() || first == '@') {
                    continue;
                }
                let body = st.trim_start_matches('@');
                let word_start = if st.starts_with('@') {
                    body.split_whitespace().nth(1).unwrap_or("")
                } else {
                    st
                };
                let root = word_start
                    .split(|c: char| c == '.' || c.is_whitespace())
                    .next()
                    .unwrap_or("");
                if let Some(r) = &roots {
                    if !r.contains(root) {
                        continue;
                    }
                }
                let key: String = st
                    .chars()
                    .map(|c| if c.is_ascii_digit() { '0' } else { c })
                    .collect();
                let e = seen
                    .entry(key)
                    .or_insert((0, format!("{st};"), path.to_string()));
                e.0 += 1;
            }
        }
    }
    let mut failed = 0;
    let mut by_err: BTreeMap<String, (usize, String, String)> = BTreeMap::new();
    for (n, st, path) in seen.values() {
        if let Err(e) = check_line(cat, st) {
            failed += 1;
            let e2: String = e.chars().take(160).collect();
            let ent = by_err.entry(e2).or_insert((0, st.clone(), path.clone()));
            ent.0 += n;
        }
    }
    let mut v: Vec<_> = by_err.into_iter().collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.1 .0));
    for (e, (n, st, path)) in v.iter().take(400) {
        println!("CORPUS x{n}: {st}    => {e}    ({path})");
    }
    (seen.len(), failed)
}
