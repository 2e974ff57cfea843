//! ptxas's verdicts of earlier sweeps (`target/sweep-cache.tsv`), keyed by
//! target, version and instruction: a case's verdict depends on nothing
//! else (the prelude is fixed), so a rerun after a catalog edit sends only
//! the new cases through ptxas (and the accepted ones once more, in
//! batches, to prove their batches accepted).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use super::{Case, Verdict};

/// The cache's first line: the prelude it was made with.
fn header() -> String {
    format!(
        "#prelude\t{}\t{}",
        super::record::escape(&super::gen::prelude("T", "9.4")),
        super::record::escape(super::gen::EPILOGUE)
    )
}

#[derive(Default)]
pub struct Cache(HashMap<(String, String, String), Verdict>);

impl Cache {
    pub fn load(path: &Path) -> Cache {
        let mut c = Cache::default();
        let Ok(text) = std::fs::read_to_string(path) else {
            return c;
        };
        // Verdicts hold only for the prelude they were made with.
        let first = text.lines().next().unwrap_or("");
        if first.starts_with("#prelude") && first != header() {
            return c;
        }
        for line in text.lines() {
            let f: Vec<&str> = line.splitn(6, '\t').collect();
            let [t, v, verdict, at, msg, inst] = f.as_slice() else {
                continue;
            };
            let verdict = match *verdict {
                "A" => Verdict::Accept,
                "R" => Verdict::Reject {
                    msg: msg.to_string(),
                    on_line: *at == "L",
                },
                _ => continue,
            };
            c.0.insert((t.to_string(), v.to_string(), inst.to_string()), verdict);
        }
        c
    }

    pub fn get(&self, c: &Case) -> Option<Verdict> {
        self.0
            .get(&(c.target.clone(), c.version.clone(), c.text.clone()))
            .cloned()
    }

    pub fn update(&mut self, cases: &[Case], verdicts: &[Verdict]) {
        for (c, v) in cases.iter().zip(verdicts) {
            if *v != Verdict::Unknown {
                self.0.insert(
                    (c.target.clone(), c.version.clone(), c.text.clone()),
                    v.clone(),
                );
            }
        }
    }

    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut keys: Vec<_> = self.0.iter().collect();
        keys.sort_by(|a, b| a.0.cmp(b.0));
        let mut s = header();
        s.push('\n');
        for ((t, v, inst), verdict) in keys {
            let (x, at, msg) = match verdict {
                Verdict::Accept => ("A", "-", ""),
                Verdict::Reject { msg, on_line } => {
                    ("R", if *on_line { "L" } else { "E" }, msg.as_str())
                }
                Verdict::Unknown => continue,
            };
            let msg = msg.replace(['\t', '\n'], " ");
            let _ = writeln!(s, "{t}\t{v}\t{x}\t{at}\t{msg}\t{inst}");
        }
        std::fs::write(path, s)
    }
}
