//! `--record`: the verdicts as test data, one file per (target, version):
//! `crates/ptxkit/tests/data/sweep/<target>-<version>.tsv` (format in
//! docs/sweep.md). `tests/sweep.rs` rebuilds every batch from it exactly.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::gen::{prelude, EPILOGUE};
use super::ptxas::{Batch, Verdict};
use super::Case;

/// Escape a header value: backslash, newline and tab.
pub fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\t', "\\t")
}

fn kind(c: &Case) -> String {
    if c.unspec {
        format!("{}~unspec", c.kind)
    } else {
        c.kind.clone()
    }
}

/// One file's accepted batches and rejected cases.
type FileCases<'a> = (Vec<&'a Batch>, Vec<usize>);

/// Write the files; returns the number of cases recorded. `compress`:
/// each file as `<target>-<version>.tsv.zst` (the operand dimension, whose
/// plain text would be several times the size of the rest of the record).
pub fn write(
    dir: &Path,
    cases: &[Case],
    verdicts: &[Verdict],
    batches: &[Batch],
    compress: bool,
) -> std::io::Result<usize> {
    std::fs::create_dir_all(dir)?;
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.extension().is_some_and(|x| x == "tsv" || x == "zst") {
            std::fs::remove_file(p)?;
        }
    }
    let mut files: BTreeMap<(String, String), FileCases> = BTreeMap::new();
    for b in batches {
        files
            .entry((b.target.clone(), b.version.clone()))
            .or_default()
            .0
            .push(b);
    }
    for (i, c) in cases.iter().enumerate() {
        if matches!(verdicts.get(i), Some(v @ Verdict::Reject { .. }) if !super::ptxas::is_crash(v))
        {
            files
                .entry((c.target.clone(), c.version.clone()))
                .or_default()
                .1
                .push(i);
        }
    }
    let mut n = 0;
    for ((t, v), (bs, rejected)) in files {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "# ptxkit sweep: ptxas verdicts on instructions generated from the catalog.\n\
             # Regenerate: cargo run --release -p xtask -- sweep --record (docs/sweep.md).\n\
             # verdict<TAB>ptxas (L<msg>: on the case's line, E<msg>: elsewhere)<TAB>kind<TAB>instruction"
        );
        let _ = writeln!(s, "#target\t{t}");
        let _ = writeln!(s, "#version\t{v}");
        let _ = writeln!(s, "#prelude\t{}", escape(&prelude(&t, &v)));
        let _ = writeln!(s, "#epilogue\t{}", escape(EPILOGUE));
        let mut msgs: Vec<String> = Vec::new();
        let mut body = String::new();
        for b in bs {
            body.push_str("#batch\n");
            for &i in &b.cases {
                if let Some(c) = cases.get(i) {
                    let _ = writeln!(body, "accept\t-\t{}\t{}", kind(c), c.text);
                    n += 1;
                }
            }
        }
        body.push_str("#alone\n");
        for i in rejected {
            let (Some(c), Some(Verdict::Reject { msg, on_line })) = (cases.get(i), verdicts.get(i))
            else {
                continue;
            };
            let id = match msgs.iter().position(|m| m == msg) {
                Some(k) => k,
                None => {
                    msgs.push(msg.clone());
                    msgs.len() - 1
                }
            };
            let at = if *on_line { 'L' } else { 'E' };
            let _ = writeln!(body, "reject\t{at}{id}\t{}\t{}", kind(c), c.text);
            n += 1;
        }
        for (k, m) in msgs.iter().enumerate() {
            let _ = writeln!(s, "#msg\t{k}\t{}", escape(m));
        }
        s.push_str(&body);
        if compress {
            let z = zstd::encode_all(s.as_bytes(), 19)?;
            std::fs::write(dir.join(format!("{t}-{v}.tsv.zst")), z)?;
        } else {
            std::fs::write(dir.join(format!("{t}-{v}.tsv")), s)?;
        }
    }
    Ok(n)
}
