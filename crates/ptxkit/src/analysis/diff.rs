//! Structural diff of two modules.
//!
//! Functions are matched by name: those only in B are added, those only in
//! A removed, and those whose trees differ (spans ignored) changed. For a
//! changed function the diff gives the change in instruction mix (by
//! catalog instruction name) and in resources, then a line diff of the two
//! bodies printed canonically.
//!
//! The line diff ignores consistent renaming of registers and labels. It
//! first aligns the two bodies on statements with every register reduced to
//! its name stem (`%r7` → `%r`) and every label to `L`, so renumbering does
//! not disturb the alignment. Then it walks the aligned pairs in order,
//! building a one-to-one map between A's and B's registers and labels: a
//! pair that agrees with the map so far (or extends it) counts as equal, a
//! pair that contradicts it (say `add %r1, %r2` against `add %r2, %r1`
//! after `%r1`↔`%r1` was seen) is shown as changed. A body that is the
//! same up to such a renaming has `only_renaming` set and no hunks. The
//! first pairing wins, so an early coincidence can make a later, genuinely
//! renamed line show as changed: the renaming is ignored where it can be.
//! Lines are printed as written in each module. Bodies that differ by more
//! than [`super::diff_align::MAX_EDITS`] lines are shown as one replaced run
//! between their common first and last lines, so the diff costs time linear
//! in their length.

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;
use similar::DiffTag;

use super::diff_align::align;

use super::regs::RegTable;
use super::resources::{resources_of, Resources};
use super::stats::StatsKey;
use crate::print::canonical::canonical_stmt;
use crate::print::instruction_text;
use crate::source::LineIndex;
use crate::syntax::{Block, Expr, Function, Instruction, Module, Name, Operand, Stmt};

/// A number in A and in B.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Delta {
    /// What is counted.
    pub what: String,
    /// Value in A.
    pub a: u64,
    /// Value in B.
    pub b: u64,
}

/// One line of a diff hunk.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiffLine {
    /// `-` (only in A), `+` (only in B) or ` ` (both).
    pub tag: char,
    /// The statement, printed canonically as written in its module.
    pub text: String,
    /// Source line in A, for `-` and ` ` lines.
    pub a_line: Option<u32>,
    /// Source line in B, for `+` and ` ` lines.
    pub b_line: Option<u32>,
}

/// A changed function.
#[derive(Clone, Debug, Serialize)]
pub struct FunctionDiff {
    /// The function.
    pub name: String,
    /// Its readable C++ name when the name is mangled ([`crate::demangle()`]).
    pub demangled: Option<String>,
    /// Whether the bodies are the same once registers and labels are renumbered.
    pub only_renaming: bool,
    /// Instruction counts that differ, by catalog instruction name.
    pub mix: Vec<Delta>,
    /// Resource figures that differ.
    pub resources: Vec<Delta>,
    /// Hunks of the line diff (three lines of context).
    pub hunks: Vec<Vec<DiffLine>>,
}

/// The diff of two modules.
#[derive(Clone, Debug, Serialize)]
pub struct ModuleDiff {
    /// Module header differences (`.version`, `.target`, `.address_size`),
    /// as `what: a -> b`.
    pub header: Vec<String>,
    /// Module variables only in B.
    pub added_globals: Vec<String>,
    /// Module variables only in A.
    pub removed_globals: Vec<String>,
    /// Functions only in B.
    pub added: Vec<String>,
    /// Functions only in A.
    pub removed: Vec<String>,
    /// Functions in both whose trees differ.
    pub changed: Vec<FunctionDiff>,
    /// Number of functions equal in both.
    pub unchanged: usize,
}

impl ModuleDiff {
    /// Whether the modules have no difference this diff reports.
    pub fn is_empty(&self) -> bool {
        self.header.is_empty()
            && self.added_globals.is_empty()
            && self.removed_globals.is_empty()
            && self.added.is_empty()
            && self.removed.is_empty()
            && self.changed.is_empty()
    }
}

/// A module with its source, for diffing.
pub struct Side<'a> {
    /// The tree.
    pub module: &'a Module,
    /// The text it was parsed from.
    pub src: &'a [u8],
}

fn header(m: &Module) -> [(&'static str, String); 3] {
    [
        (
            ".version",
            m.version()
                .map(|v| format!("{}.{}", v.major, v.minor))
                .unwrap_or_default(),
        ),
        (
            ".target",
            m.target()
                .map(|t| {
                    t.items
                        .iter()
                        .map(|(n, _)| n.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default(),
        ),
        (".address_size", m.address_size().to_string()),
    ]
}

/// Diff module `a` against module `b`.
pub fn diff_modules(a: Side<'_>, b: Side<'_>) -> ModuleDiff {
    let la = LineIndex::new(a.src);
    let lb = LineIndex::new(b.src);
    let mut hdr = Vec::new();
    for ((w, x), (_, y)) in header(a.module).into_iter().zip(header(b.module)) {
        if x != y {
            hdr.push(format!("{w}: {x} -> {y}"));
        }
    }
    let globals = |m: &Module| -> Vec<String> {
        m.globals()
            .flat_map(|v| v.decls.iter().map(|d| d.name.to_string()))
            .collect()
    };
    let (ga, gb) = (globals(a.module), globals(b.module));
    // Looked up by name: a linear search per global was quadratic (two
    // modules of 50,000 distinct globals took 7.6 s).
    let (sa, sb): (FxHashSet<&str>, FxHashSet<&str>) = (
        ga.iter().map(String::as_str).collect(),
        gb.iter().map(String::as_str).collect(),
    );
    let fa = defined(a.module);
    let fb = defined(b.module);
    let by_name_a: FxHashMap<Name, &Function> = fa.iter().map(|f| (f.name, *f)).collect();
    let by_name_b: FxHashMap<Name, &Function> = fb.iter().map(|f| (f.name, *f)).collect();
    // The pairs that differ, found first: the resources (a whole-module
    // analysis) are worked out only if there are any, and reported only
    // for them (a module diffed against itself held the resources of
    // every function of both).
    let mut pairs = Vec::new();
    let mut unchanged = 0usize;
    for f in &fb {
        let Some(g) = by_name_a.get(&f.name) else {
            continue;
        };
        if *g == *f {
            unchanged = unchanged.saturating_add(1);
        } else {
            pairs.push((*g, *f));
        }
    }
    let (ra, rb) = if pairs.is_empty() {
        (FxHashMap::default(), FxHashMap::default())
    } else {
        let names: FxHashSet<Name> = pairs.iter().map(|(_, f)| f.name).collect();
        let wanted = |n: &str| names.contains(&Name::new(n));
        let by_name = |rs: Vec<Resources>| -> FxHashMap<String, Resources> {
            rs.into_iter().map(|r| (r.name.clone(), r)).collect()
        };
        (
            by_name(resources_of(a.module, &la, wanted)),
            by_name(resources_of(b.module, &lb, wanted)),
        )
    };
    let mut changed = Vec::with_capacity(pairs.len());
    for (g, f) in pairs {
        let name = f.name.to_string();
        changed.push(function_diff(
            (g, a.src, &la),
            (f, b.src, &lb),
            ra.get(&name),
            rb.get(&name),
        ));
    }
    ModuleDiff {
        header: hdr,
        added_globals: gb
            .iter()
            .filter(|n| !sa.contains(n.as_str()))
            .cloned()
            .collect(),
        removed_globals: ga
            .iter()
            .filter(|n| !sb.contains(n.as_str()))
            .cloned()
            .collect(),
        added: fb
            .iter()
            .filter(|f| !by_name_a.contains_key(&f.name))
            .map(|f| f.name.to_string())
            .collect(),
        removed: fa
            .iter()
            .filter(|f| !by_name_b.contains_key(&f.name))
            .map(|f| f.name.to_string())
            .collect(),
        changed,
        unchanged,
    }
}

/// Functions by name, a definition preferred over a declaration.
fn defined(m: &Module) -> Vec<&Function> {
    let mut seen = FxHashSet::default();
    let mut v: Vec<&Function> = m.functions().filter(|f| f.body.is_some()).collect();
    v.extend(m.functions().filter(|f| f.body.is_none()));
    v.retain(|f| seen.insert(f.name));
    v
}

fn mix(f: &Function) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for i in f
        .body
        .as_ref()
        .map(|b| b.instructions())
        .unwrap_or_default()
    {
        {
            let e: &mut u64 = m.entry(StatsKey::Opcode.key(i)).or_default();
            *e = e.saturating_add(1);
        }
    }
    m
}

/// The figures of `r` compared by the diff, the peaks of liveness only
/// when `peaks` (both sides have them: a function past the liveness
/// budget has none).
fn resource_figures(r: Option<&Resources>, peaks: bool) -> Vec<(&'static str, u64)> {
    let Some(r) = r else { return Vec::new() };
    let mut figures = vec![
        (
            "virtual registers declared (32-bit units)",
            r.registers.declared_units,
        ),
        (
            "predicates declared",
            r.registers.declared_by_width.get(&1).copied().unwrap_or(0),
        ),
        ("shared bytes (static)", r.shared.static_bytes),
        ("local frame bytes", r.local.frame_bytes),
        ("param bytes", r.param_bytes),
        (
            "named barriers (as ptxas counts)",
            r.barriers.named_barriers,
        ),
        (
            "CTA barrier instructions",
            u64::try_from(r.barriers.cta_barriers).unwrap_or(u64::MAX),
        ),
    ];
    if peaks {
        figures.splice(
            2..2,
            [
                (
                    "peak live virtual registers (32-bit units)",
                    u64::from(r.registers.peak_live_units),
                ),
                (
                    "peak live predicates",
                    u64::from(r.registers.peak_live_predicates),
                ),
            ],
        );
    }
    figures
}

fn function_diff(
    (a, src_a, la): (&Function, &[u8], &LineIndex),
    (b, src_b, lb): (&Function, &[u8], &LineIndex),
    ra: Option<&Resources>,
    rb: Option<&Resources>,
) -> FunctionDiff {
    let (ma, mb) = (mix(a), mix(b));
    let mut keys: Vec<&String> = ma.keys().chain(mb.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut mix_delta = Vec::new();
    let (ia, ib): (u64, u64) = (ma.values().sum(), mb.values().sum());
    if ia != ib {
        mix_delta.push(Delta {
            what: "instructions".into(),
            a: ia,
            b: ib,
        });
    }
    for k in keys {
        let (x, y) = (
            ma.get(k).copied().unwrap_or(0),
            mb.get(k).copied().unwrap_or(0),
        );
        if x != y {
            mix_delta.push(Delta {
                what: k.clone(),
                a: x,
                b: y,
            });
        }
    }
    let estimated = |r: Option<&Resources>| r.is_none_or(|r| !r.registers.liveness_over_budget);
    let peaks = estimated(ra) && estimated(rb);
    let (fa, fb) = (resource_figures(ra, peaks), resource_figures(rb, peaks));
    let res: Vec<Delta> = fa
        .iter()
        .zip(&fb)
        .filter(|(x, y)| x.1 != y.1)
        .map(|(x, y)| Delta {
            what: x.0.to_string(),
            a: x.1,
            b: y.1,
        })
        .collect();
    let sa = statements(a, src_a, la);
    let sb = statements(b, src_b, lb);
    let na: Vec<&str> = sa.iter().map(|s| s.norm.as_str()).collect();
    let nb: Vec<&str> = sb.iter().map(|s| s.norm.as_str()).collect();
    let header_same = a.params == b.params && a.rets == b.rets && a.directives == b.directives;
    let ops = align(&na, &nb);
    // Every line with its tag, then hunks with three lines of context.
    let mut all: Vec<DiffLine> = Vec::new();
    let mut ab: FxHashMap<Name, Name> = FxHashMap::default();
    let mut ba: FxHashMap<Name, Name> = FxHashMap::default();
    let del = |x: &Line| DiffLine {
        tag: '-',
        text: x.text.clone(),
        a_line: Some(x.line),
        b_line: None,
    };
    let ins = |y: &Line| DiffLine {
        tag: '+',
        text: y.text.clone(),
        a_line: None,
        b_line: Some(y.line),
    };
    for op in ops {
        let (tag, ra, rb) = op.as_tag_tuple();
        if tag != DiffTag::Equal {
            all.extend(ra.filter_map(|i| sa.get(i)).map(del));
            all.extend(rb.filter_map(|j| sb.get(j)).map(ins));
            continue;
        }
        for (x, y) in ra
            .filter_map(|i| sa.get(i))
            .zip(rb.filter_map(|j| sb.get(j)))
        {
            let consistent = x.names.len() == y.names.len()
                && x.names.iter().zip(&y.names).all(|(p, q)| {
                    ab.get(p).is_none_or(|m| m == q) && ba.get(q).is_none_or(|m| m == p)
                });
            if consistent {
                for (p, q) in x.names.iter().zip(&y.names) {
                    ab.insert(*p, *q);
                    ba.insert(*q, *p);
                }
                all.push(DiffLine {
                    tag: ' ',
                    text: y.text.clone(),
                    a_line: Some(x.line),
                    b_line: Some(y.line),
                });
            } else {
                all.push(del(x));
                all.push(ins(y));
            }
        }
    }
    let only_renaming = header_same && all.iter().all(|l| l.tag == ' ');
    let hunks = hunks(all, 3);
    FunctionDiff {
        name: b.name.to_string(),
        demangled: crate::demangle(b.name.as_str()),
        only_renaming,
        mix: mix_delta,
        resources: res,
        hunks,
    }
}

struct Line {
    norm: String,
    names: Vec<Name>,
    text: String,
    line: u32,
}

/// Group tagged lines into hunks: runs of changes with up to `context`
/// unchanged lines around them (runs closer than twice that merge).
fn hunks(all: Vec<DiffLine>, context: usize) -> Vec<Vec<DiffLine>> {
    let changed: Vec<usize> = all
        .iter()
        .enumerate()
        .filter(|(_, l)| l.tag != ' ')
        .map(|(i, _)| i)
        .collect();
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for &i in &changed {
        let lo = i.saturating_sub(context);
        let hi = (i.saturating_add(context).saturating_add(1)).min(all.len());
        match ranges.last_mut() {
            Some(r) if lo <= r.1 => r.1 = hi,
            _ => ranges.push((lo, hi)),
        }
    }
    ranges
        .into_iter()
        .filter_map(|(lo, hi)| all.get(lo..hi).map(|s| s.to_vec()))
        .collect()
}

/// Reduces registers to their stem and labels to `L`, noting the names met.
struct Renamer {
    regs: RegTable,
    labels: FxHashSet<Name>,
    names: Vec<Name>,
}

impl Renamer {
    fn rename(&mut self, n: Name) -> Name {
        if self.labels.contains(&n) {
            self.names.push(n);
            Name::new("L")
        } else if self.regs.lookup(n).is_some() {
            self.names.push(n);
            Name::new(n.as_str().trim_end_matches(|c: char| c.is_ascii_digit()))
        } else {
            n
        }
    }

    fn expr(&mut self, e: &mut Expr) {
        match e {
            Expr::Name(n, _) => *n = self.rename(*n),
            Expr::Int(_) | Expr::Float(_) => {}
            Expr::Unary { expr, .. } | Expr::Paren(expr, _) | Expr::Generic(expr, _) => {
                self.expr(expr)
            }
            Expr::Mask(m) => self.expr(&mut m.expr),
            Expr::Cast(c) => self.expr(&mut c.expr),
            Expr::Field(f) => self.expr(&mut f.base),
            Expr::Binary(b) => {
                self.expr(&mut b.lhs);
                self.expr(&mut b.rhs);
            }
            Expr::Chain(c) => {
                self.expr(&mut c.first);
                for l in &mut c.links {
                    self.expr(&mut l.rhs);
                }
            }
            Expr::Index { base, index, .. } => {
                self.expr(base);
                self.expr(index);
            }
            Expr::Cond(c) => {
                self.expr(&mut c.cond);
                self.expr(&mut c.then);
                self.expr(&mut c.otherwise);
            }
        }
    }

    fn operand(&mut self, o: &mut Operand) {
        match o {
            Operand::Expr(e) => self.expr(e),
            Operand::Pair(p) => {
                self.operand(&mut p.first);
                self.expr(&mut p.second);
            }
            Operand::Address { addr, .. } => self.expr(addr),
            Operand::Tuple { items, .. }
            | Operand::Vector { items, .. }
            | Operand::List { items, .. } => {
                for i in items {
                    self.operand(i);
                }
            }
        }
    }

    fn instruction(&mut self, i: &Instruction) -> String {
        let mut c = i.clone();
        if let Some(g) = &mut c.guard {
            g.pred = self.rename(g.pred);
        }
        for o in &mut c.operands {
            self.operand(o);
        }
        instruction_text(&c)
    }
}

fn collect_labels(b: &Block, out: &mut FxHashSet<Name>) {
    for s in &b.stmts {
        match s {
            Stmt::Label(n, _) => {
                out.insert(*n);
            }
            Stmt::Block(inner) => collect_labels(inner, out),
            _ => {}
        }
    }
}

fn statements(f: &Function, src: &[u8], lines: &LineIndex) -> Vec<Line> {
    let mut r = Renamer {
        regs: RegTable::of_function(f),
        labels: FxHashSet::default(),
        names: Vec::new(),
    };
    let mut out = Vec::new();
    if let Some(b) = &f.body {
        collect_labels(b, &mut r.labels);
        walk(b, 1, &mut r, (src, lines), &mut out);
    }
    out
}

/// How a statement is shown: canonically, or as written when it did not
/// parse (an instruction that matched no form, a statement the parser
/// skipped), since the canonical printer has no text for what it could
/// not read.
fn shown(s: &Stmt, src: &[u8], depth: usize) -> String {
    let broken = match s {
        Stmt::Instruction(i) => i.form().is_none(),
        Stmt::Error(_) => true,
        _ => false,
    };
    if !broken {
        return canonical_stmt(s, depth);
    }
    let written = s.span().text(src);
    let written: Vec<&str> = written.split_whitespace().collect();
    format!("{}{}", "\t".repeat(depth), written.join(" "))
}

fn walk(
    b: &Block,
    depth: usize,
    r: &mut Renamer,
    (src, lines): (&[u8], &LineIndex),
    out: &mut Vec<Line>,
) {
    for s in &b.stmts {
        let line = lines.line_col(s.span().start).line;
        match s {
            Stmt::Block(inner) => {
                out.push(Line {
                    names: Vec::new(),
                    norm: "{".into(),
                    text: format!("{}{{", "\t".repeat(depth)),
                    line,
                });
                walk(inner, depth.saturating_add(1), r, (src, lines), out);
                out.push(Line {
                    names: Vec::new(),
                    norm: "}".into(),
                    text: format!("{}}}", "\t".repeat(depth)),
                    line: lines.line_col(inner.span.end.saturating_sub(1)).line,
                });
            }
            Stmt::Instruction(i) => {
                let norm = r.instruction(i);
                out.push(Line {
                    norm,
                    names: std::mem::take(&mut r.names),
                    text: shown(s, src, depth),
                    line,
                });
            }
            Stmt::Label(n, _) => {
                let norm = format!("{}:", r.rename(*n));
                out.push(Line {
                    norm,
                    names: std::mem::take(&mut r.names),
                    text: shown(s, src, depth),
                    line,
                });
            }
            Stmt::Loc(_) => {}
            _ => {
                let text = shown(s, src, depth);
                out.push(Line {
                    names: Vec::new(),
                    norm: text.trim().to_string(),
                    text,
                    line,
                });
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    const A: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
        .func f()\n{\nret;\n}\n\
        .entry k(.param .u64 p)\n{\n.reg .b32 %r<9>;\n.reg .b64 %rd<3>;\n\
        ld.param.u64 %rd1, [p];\nld.global.u32 %r1, [%rd1];\nadd.u32 %r2, %r1, 1;\n\
        st.global.u32 [%rd1], %r2;\nret;\n}\n";

    fn diff(a: &str, b: &str) -> ModuleDiff {
        let (ma, mb) = (crate::parse(a.as_bytes()), crate::parse(b.as_bytes()));
        assert!(ma.diagnostics.is_empty() && mb.diagnostics.is_empty());
        diff_modules(
            Side {
                module: &ma.module,
                src: a.as_bytes(),
            },
            Side {
                module: &mb.module,
                src: b.as_bytes(),
            },
        )
    }

    #[test]
    fn identical_modules() {
        let d = diff(A, A);
        assert!(d.is_empty());
        assert_eq!(d.unchanged, 2);
    }

    #[test]
    fn renaming_only() {
        let b = A.replace("%r1", "%r5").replace("%r2", "%r7");
        let d = diff(A, &b);
        assert_eq!(d.changed.len(), 1);
        assert!(d.changed[0].only_renaming);
        assert!(d.changed[0].hunks.is_empty());
        assert!(d.changed[0].mix.is_empty());
    }

    #[test]
    fn inserted_instruction_with_renumbering() {
        // B inserts a multiply and renumbers the registers after it.
        let b = A
            .replace(
                "add.u32 %r2, %r1, 1;",
                "mul.lo.u32 %r2, %r1, 3;\nadd.u32 %r3, %r2, 1;",
            )
            .replace("st.global.u32 [%rd1], %r2;", "st.global.u32 [%rd1], %r3;")
            .replace(".func f()\n{\nret;\n}\n", ".func g()\n{\nret;\n}\n")
            .replace(".target sm_90", ".target sm_100");
        let d = diff(A, &b);
        assert_eq!(d.added, vec!["g"]);
        assert_eq!(d.removed, vec!["f"]);
        assert_eq!(d.header, vec![".target: sm_90 -> sm_100"]);
        let c = &d.changed[0];
        assert!(!c.only_renaming);
        assert_eq!(
            c.mix,
            vec![
                Delta {
                    what: "instructions".into(),
                    a: 5,
                    b: 6
                },
                Delta {
                    what: "mul".into(),
                    a: 0,
                    b: 1
                }
            ]
        );
        let changed: Vec<(char, &str)> = c.hunks[0]
            .iter()
            .filter(|l| l.tag != ' ')
            .map(|l| (l.tag, l.text.trim()))
            .collect();
        // The store is the same after renaming (%r2 in A is %r3 in B); the
        // mul is new, and the add now reads the mul's result.
        assert_eq!(
            changed,
            vec![
                ('+', "mul.lo.u32\t%r2, %r1, 3;"),
                ('-', "add.u32\t%r2, %r1, 1;"),
                ('+', "add.u32\t%r3, %r2, 1;"),
            ]
        );
        // A swap of operands is not a renaming.
        let b = A.replace("add.u32 %r2, %r1, 1;", "add.u32 %r2, 1, %r1;");
        let d = diff(A, &b);
        assert!(!d.changed[0].only_renaming);
        let b = A.replace(
            "add.u32 %r2, %r1, 1;\nst.global.u32 [%rd1], %r2;",
            "add.u32 %r2, %r1, 1;\nst.global.u32 [%rd1], %r1;",
        );
        let d = diff(A, &b);
        let c = &d.changed[0];
        assert_eq!(c.hunks.len(), 1);
        let tags: String = c.hunks[0].iter().map(|l| l.tag).collect();
        assert_eq!(tags, "   -+ ");
    }
}
