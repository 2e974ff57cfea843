//! The comparison report: agreement, false rejections (we reject, ptxas
//! accepts), misses (ptxas rejects, we accept), shared rejections and their
//! lines, and where ptxas disagrees with the catalog itself (valid instances
//! it rejects, too-low versions and targets it accepts).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use ptxkit::isa::{catalog, FormId};

use super::{Case, Ours, Verdict};

pub struct Report {
    /// Printed: the table and the largest groups.
    pub short: String,
    /// `target/sweep-report.txt`: every group with an example.
    pub full: String,
}

/// The kind without its role (`wrong-width@d` → `wrong-width`).
fn kind_name(k: &str) -> &str {
    k.split('@').next().unwrap_or(k)
}

fn category(k: &str) -> &str {
    match kind_name(k) {
        "valid" => "valid",
        "version-low" => "version-low",
        "target-low" => "target-low",
        "removed" => "removed",
        _ => "mutation",
    }
}

/// Replace what a message quotes (`x`, 'x') so messages group by shape.
pub fn normalize(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    let mut quote: Option<char> = None;
    for ch in msg.chars() {
        match quote {
            Some(q) if ch == q => {
                out.push(ch);
                quote = None;
            }
            Some(_) => {}
            None => {
                out.push(ch);
                if ch == '`' || ch == '\'' {
                    out.push('_');
                    quote = Some(ch);
                }
            }
        }
    }
    out
}

/// Groups: key → (count, an example).
#[derive(Default)]
struct Groups(BTreeMap<String, (usize, String)>);

impl Groups {
    fn add(&mut self, key: String, example: &str) {
        let e = self.0.entry(key).or_insert((0, example.to_string()));
        e.0 += 1;
    }
    fn total(&self) -> usize {
        self.0.values().map(|v| v.0).sum()
    }
    fn write(&self, out: &mut String, title: &str, top: Option<usize>) {
        let mut v: Vec<_> = self.0.iter().collect();
        v.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(b.0)));
        let _ = writeln!(
            out,
            "\n{title}: {} cases in {} groups",
            self.total(),
            v.len()
        );
        for (k, (n, ex)) in v.iter().take(top.unwrap_or(usize::MAX)) {
            let _ = writeln!(out, "  {n:>6}  {k}\n          e.g. {ex}");
        }
        if let Some(t) = top {
            if v.len() > t {
                let _ = writeln!(
                    out,
                    "  … {} more groups (target/sweep-report.txt)",
                    v.len() - t
                );
            }
        }
    }
}

fn form_text(c: &Case) -> String {
    catalog()
        .form(FormId(c.form))
        .map(|f| f.text.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn example(c: &Case) -> String {
    format!("[{} {}] {}", c.target, c.version, c.text)
}

pub fn render(cases: &[Case], verdicts: &[Verdict], ours: &[Ours]) -> Report {
    #[derive(Default, Clone, Copy)]
    struct Row {
        n: usize,
        theirs: usize,
        ours: usize,
        agree: usize,
    }
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    let mut undecided = 0;
    let mut fr_form = Groups::default();
    let mut fr_msg = Groups::default();
    let mut fr_unspec = Groups::default();
    let mut miss_msg = Groups::default();
    let mut miss_form = Groups::default();
    let mut miss_unspec = Groups::default();
    let mut cat_valid = Groups::default();
    let mut cat_vlow = Groups::default();
    let mut cat_tlow = Groups::default();
    let mut cat_removed = Groups::default();
    let mut mut_accepted = Groups::default();
    let mut crashes = Groups::default();
    let (mut shared, mut shared_line, mut shared_theirs_elsewhere) = (0, 0, 0);
    for ((c, v), o) in cases.iter().zip(verdicts).zip(ours) {
        if super::ptxas::is_crash(v) {
            crashes.add(form_text(c), &example(c));
            continue;
        }
        let theirs = match v {
            Verdict::Unknown => {
                undecided += 1;
                continue;
            }
            Verdict::Accept => false,
            Verdict::Reject { .. } => true,
        };
        let agree = theirs == o.reject;
        let spec = if c.unspec { "unspecified" } else { "described" };
        for key in [
            format!("{:<12} {spec}", category(&c.kind)),
            if category(&c.kind) == "mutation" {
                format!("  {:<22} {spec}", kind_name(&c.kind))
            } else {
                String::new()
            },
            format!("~all {spec}"),
            "~all".to_string(),
        ] {
            if key.is_empty() {
                continue;
            }
            let r = rows.entry(key).or_default();
            r.n += 1;
            r.theirs += usize::from(theirs);
            r.ours += usize::from(o.reject);
            r.agree += usize::from(agree);
        }
        let ex = example(c);
        match (theirs, o.reject) {
            (false, true) => {
                let k = format!(
                    "{} | {}",
                    c.text.split_whitespace().next().unwrap_or(""),
                    form_text(c)
                );
                if c.unspec {
                    fr_unspec.add(k, &ex);
                } else {
                    fr_form.add(k, &ex);
                    fr_msg.add(format!("{} {}", o.code, normalize(&o.msg)), &ex);
                }
            }
            (true, false) => {
                let Verdict::Reject { msg, .. } = v else {
                    continue;
                };
                if c.unspec {
                    miss_unspec.add(format!("{} | {}", kind_name(&c.kind), normalize(msg)), &ex);
                } else {
                    miss_msg.add(format!("{} | {}", kind_name(&c.kind), normalize(msg)), &ex);
                    miss_form.add(format!("{} | {}", kind_name(&c.kind), form_text(c)), &ex);
                }
            }
            (true, true) => {
                shared += 1;
                if let Verdict::Reject { on_line, .. } = v {
                    if !on_line {
                        shared_theirs_elsewhere += 1;
                    } else if o.on_line {
                        shared_line += 1;
                    }
                }
            }
            (false, false) => {}
        }
        // Where ptxas disagrees with the catalog (described roles only for
        // valid instances: an undescribed role's operand is a guess).
        match (kind_name(&c.kind), v) {
            ("valid", Verdict::Reject { msg, .. }) if !c.unspec => {
                cat_valid.add(format!("{} | {}", form_text(c), msg), &ex)
            }
            ("version-low", Verdict::Accept) => cat_vlow.add(form_text(c), &ex),
            ("target-low", Verdict::Accept) => {
                cat_tlow.add(format!("{} | accepted on {}", form_text(c), c.target), &ex)
            }
            ("removed", Verdict::Accept) => cat_removed.add(
                format!("{} | accepted on {} {}", form_text(c), c.target, c.version),
                &ex,
            ),
            (k, Verdict::Accept) if category(k) == "mutation" && !c.unspec => {
                mut_accepted.add(format!("{} | {}", kind_name(k), form_text(c)), &ex)
            }
            _ => {}
        }
    }
    let mut head = String::new();
    let all = rows.get("~all").copied().unwrap_or_default();
    let _ = writeln!(
        head,
        "sweep: {} cases decided by ptxas, {undecided} undecided, {} crash ptxas (left out)",
        all.n,
        crashes.total()
    );
    let _ = writeln!(
        head,
        "{:<36} {:>8} {:>10} {:>10} {:>8}",
        "kind", "cases", "ptxas-rej", "ours-rej", "agree"
    );
    for (k, r) in &rows {
        let _ = writeln!(
            head,
            "{:<36} {:>8} {:>10} {:>10} {:>7.2}%",
            k.trim_start_matches('~'),
            r.n,
            r.theirs,
            r.ours,
            100.0 * r.agree as f64 / r.n.max(1) as f64
        );
    }
    let _ = writeln!(
        head,
        "false rejections: {} described + {} unspecified; misses: {} described + {} unspecified",
        fr_form.total(),
        fr_unspec.total(),
        miss_msg.total(),
        miss_unspec.total()
    );
    let _ = writeln!(
        head,
        "shared rejections: {shared}; ptxas names the case's line in {}; ours too in {shared_line}",
        shared - shared_theirs_elsewhere
    );
    let mut short = head.clone();
    let mut full = head;
    let sections: [(&Groups, &str, usize); 13] = [
        (
            &crashes,
            "ptxas CRASHES (left out of the agreement and the record), by form",
            10,
        ),
        (
            &fr_form,
            "FALSE REJECTIONS (described) by opcode | form",
            15,
        ),
        (
            &fr_msg,
            "FALSE REJECTIONS (described) by our code and message",
            15,
        ),
        (
            &fr_unspec,
            "false rejections (unspecified roles) by opcode | form",
            8,
        ),
        (
            &miss_msg,
            "MISSES (described) by case kind | ptxas message",
            20,
        ),
        (&miss_form, "misses (described) by case kind | form", 10),
        (
            &miss_unspec,
            "misses (unspecified roles) by case kind | ptxas message",
            8,
        ),
        (
            &cat_valid,
            "CATALOG: valid instances (described) ptxas rejects, by form | ptxas message",
            25,
        ),
        (
            &cat_vlow,
            "CATALOG: one version too low, ptxas accepts, by form",
            15,
        ),
        (
            &cat_tlow,
            "CATALOG: one target too low, ptxas accepts, by form",
            15,
        ),
        (
            &cat_removed,
            "CATALOG: past an upper bound (until_ptx/until_sm), ptxas accepts, by form",
            15,
        ),
        (
            &mut_accepted,
            "catalog/generator: mutations ptxas accepts, by mutation | form",
            15,
        ),
        (&Groups::default(), "", 0),
    ];
    for (g, title, top) in sections {
        if title.is_empty() {
            continue;
        }
        g.write(&mut short, title, Some(top));
        g.write(&mut full, title, None);
    }
    Report { short, full }
}
