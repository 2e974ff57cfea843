//! Checking a source again after an edit, judging only the statements
//! whose readings changed.
//!
//! Finding the statements (the preprocessor's pass over the text) is
//! cheap; judging them (each reading parsed and checked as a PTX module
//! on every selected target) is what costs. What judging a statement gives
//! ([`Judged`]) is a function of its readings (each statement with the
//! passes that read it so), of the conditions around it and of the
//! selected targets, nothing else (`guard::judge_readings`). So the
//! results of the last check are kept by a key that is exactly those
//! inputs, and a statement whose key is unchanged takes its result back.
//!
//! Offsets. Judging copies the source offsets it is given into its
//! diagnostics, or one byte either side (`end + 1`, `end - 1`), and only
//! compares them otherwise (which comes first); it never measures a
//! distance. A statement's offsets (its own, and those of the macro
//! definitions and invocations it was read from) fall into *clusters*:
//! runs in which each offset is within 2 bytes of the next (a literal's
//! bytes, a token's neighbours); clusters are 3 bytes apart or more. The
//! key writes each offset as its cluster's number and its place in the
//! cluster, so that moving the clusters apart or together (an edit between
//! two literals, between a macro's definition and its use, or before the
//! statement) leaves the key alone. A result taken back is moved with them:
//! each offset in it by as many bytes as the cluster it is in (or next to)
//! moved. Everything else of a result (the guard, the notes, the label of a
//! macro invocation) is made again from the statement found, as
//! [`super::check_file`] makes it.
//!
//! The keys are compared whole (no hash stands for a statement), so a
//! result taken back is the one judging the statement would give.

use std::collections::HashMap;
use std::sync::Arc;

use super::finder::{find_all, AsmOperand, AsmStatement, Found, Template};
use super::guard::{assemble, judge_readings, Judged, Selection, Shared};
use super::literal::Decoded;
use super::macros::GaveUp;
use super::passes::Mask;
use super::pp::PpOptions;
use super::{Checked, Verdict};
use crate::diag::Diagnostic;
use crate::source::Span;

/// Offsets this far apart or more are in different clusters.
const CLUSTER_GAP: u32 = 3;

/// The `asm` statements of one source checked again and again as it is
/// edited (what a language server does after each keystroke): each
/// [`Incremental::check`] gives what [`super::check_source`] gives for the
/// same text and targets, but judges only the statements that are new
/// since the last check, or whose text, conditions or macros changed
/// (statements alike but for where they are are judged once). The rest of
/// the text is still read once a check (finding the statements), which
/// costs far less than judging them.
///
/// ```
/// use ptxkit::inline_asm::Incremental;
/// let mut src = String::from("__device__ void f(int a) {\n");
/// for k in 0..50 {
///     src.push_str(&format!("  asm(\"add.s32 %0, %0, {k};\" : \"+r\"(a));\n"));
/// }
/// src.push_str("}\n");
/// let targets = ["sm_90".to_string()];
/// let mut inc = Incremental::new(&targets);
/// assert_eq!(inc.check(src.as_bytes()).len(), 50);
/// assert_eq!(inc.judged_last(), 50);
/// // A typo in the template of one statement: only that one is judged,
/// // and every result is the one a full check gives.
/// let src = src.replacen("add.s32 %0, %0, 7;", "add.s23 %0, %0, 7;", 1);
/// let again = inc.check(src.as_bytes());
/// assert_eq!(inc.judged_last(), 1);
/// let full = ptxkit::inline_asm::check_source(src.as_bytes(), &targets);
/// assert_eq!(format!("{again:?}"), format!("{full:?}"));
/// ```
pub struct Incremental {
    targets: Vec<String>,
    sel: Selection,
    /// The results of the last check by key ([`key`]), each with the
    /// clusters of the statement it was judged for.
    results: HashMap<Box<[u8]>, Kept>,
    judged: usize,
}

/// A result kept: what judging gave, and where the clusters of the
/// statement it was judged for were (first and last offset of each).
struct Kept {
    clusters: Box<[(u32, u32)]>,
    judged: Judged,
}

impl std::fmt::Debug for Incremental {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Incremental")
            .field("targets", &self.targets)
            .field("kept", &self.results.len())
            .field("judged", &self.judged)
            .finish()
    }
}

impl Incremental {
    /// Checks against `targets` (empty: every known target), as
    /// [`super::check_source`] does; nothing is kept yet.
    pub fn new(targets: &[String]) -> Incremental {
        Incremental {
            targets: targets.to_vec(),
            sel: Selection::new(targets),
            results: HashMap::new(),
            judged: 0,
        }
    }

    /// The targets given to [`Incremental::new`].
    pub fn targets(&self) -> &[String] {
        &self.targets
    }

    /// How many statements the last [`Incremental::check`] judged (the
    /// others' results were taken from the check before it, or from an
    /// identical statement).
    pub fn judged_last(&self) -> usize {
        self.judged
    }

    /// Find and check every `asm` statement of `src`: the same results as
    /// [`super::check_source`] with this checker's targets, judging only
    /// the statements whose readings the last check did not judge. Only
    /// the results of `src`'s statements are kept for the next check.
    pub fn check(&mut self, src: &[u8]) -> Vec<Checked> {
        self.judged = 0;
        if src.len() > crate::MAX_FILE_SIZE {
            self.results.clear();
            return Vec::new();
        }
        let found = find_all(src, &PpOptions::default(), Arc::clone(&self.sel.passes));
        let mut last = std::mem::take(&mut self.results);
        self.results
            .reserve(found.len().min(last.len().saturating_add(16)));
        let mut shared = Shared::default();
        let mut out = Vec::new();
        out.reserve_exact(found.len());
        let mut k = Key::default();
        for f in found {
            let guard = self.sel.guard(&f, &mut shared);
            if !self.sel.compiles(&f) {
                continue;
            }
            k.of(&f, &guard.conditions);
            // Kept from the last check (then not among this check's yet),
            // or made earlier in this one for a statement alike.
            let judged = if let Some((key, kept)) = last.remove_entry(k.bytes.as_slice()) {
                let now = moved(&kept, &k.clusters);
                self.results.insert(key, kept);
                now
            } else if let Some(kept) = self.results.get(k.bytes.as_slice()) {
                moved(kept, &k.clusters)
            } else {
                self.judged = self.judged.saturating_add(1);
                let j = judge_readings(&f, &guard.conditions, &self.sel, &mut shared);
                let kept = Kept {
                    clusters: k.clusters.as_slice().into(),
                    judged: j.clone(),
                };
                self.results.insert(k.bytes.as_slice().into(), kept);
                j
            };
            out.push(assemble(f, guard, judged));
        }
        out
    }
}

/// The result `kept` for a statement with the same key whose clusters are
/// `now` (as many as `kept`'s): each offset moved as its cluster moved.
fn moved(kept: &Kept, now: &[(u32, u32)]) -> Judged {
    let mut j = kept.judged.clone();
    let was = &kept.clusters;
    if was.iter().zip(now).all(|(a, b)| a.0 == b.0) {
        return j;
    }
    let mv = Mover { was, now };
    match &mut j.verdict {
        Verdict::Valid { .. } => {}
        Verdict::Invalid { diagnostics, .. } => {
            for d in diagnostics {
                mv.diagnostic(d);
            }
        }
        Verdict::Skipped { diagnostic } => mv.diagnostic(diagnostic),
    }
    if let Some(s) = &mut j.rejected {
        mv.statement(s);
    }
    j
}

/// Moves offsets from the clusters `was` to the clusters `now`.
struct Mover<'a> {
    was: &'a [(u32, u32)],
    now: &'a [(u32, u32)],
}

impl Mover<'_> {
    fn offset(&self, x: &mut u32) {
        // The cluster `x` is in or next to (one byte either side; clusters
        // are further apart than that). An offset near none is left as it
        // is: nothing judging makes.
        let i = self
            .was
            .partition_point(|&(_, last)| last.saturating_add(1) < *x);
        let (Some(&(a, _)), Some(&(b, _))) = (self.was.get(i), self.now.get(i)) else {
            return;
        };
        if a.saturating_sub(1) > *x {
            return;
        }
        let v = i64::from(*x)
            .saturating_add(i64::from(b))
            .saturating_sub(i64::from(a));
        *x = u32::try_from(v).unwrap_or(if v < 0 { 0 } else { u32::MAX });
    }

    fn span(&self, s: &mut Span) {
        self.offset(&mut s.start);
        self.offset(&mut s.end);
    }

    fn diagnostic(&self, d: &mut Diagnostic) {
        self.span(&mut d.span);
        for l in &mut d.labels {
            self.span(&mut l.span);
        }
    }

    fn decoded(&self, d: &mut Decoded) {
        for f in &mut d.from {
            self.offset(f);
        }
    }

    fn statement(&self, s: &mut AsmStatement) {
        self.span(&mut s.span);
        self.span(&mut s.keyword);
        self.span(&mut s.template_span);
        if let Template::Literal(d) = &mut s.template {
            self.decoded(d);
        }
        for op in s.outputs.iter_mut().chain(s.inputs.iter_mut()) {
            self.span(&mut op.constraint_span);
            self.span(&mut op.expr_span);
            if let Some(d) = &mut op.expr_string {
                self.decoded(d);
            }
        }
    }
}

/// The key of a statement, made again for each statement (its buffers
/// reused): everything [`judge_readings`] reads of it (its readings) and
/// the conditions around it, each offset as its cluster's number and its
/// place in the cluster. Two statements have the same key exactly when
/// one is the other with its clusters moved, as far as judging goes. The
/// encoding is unambiguous: lengths before contents, a tag before each
/// choice, and the offsets, in the order met, after everything else.
#[derive(Default)]
struct Key {
    bytes: Vec<u8>,
    offsets: Vec<u32>,
    runs: Vec<(u32, u32)>,
    clusters: Vec<(u32, u32)>,
}

impl Key {
    fn of(&mut self, f: &Found, conditions: &[String]) {
        // What judging reads: the readings. The rest makes the guard, the
        // notes and the label of an invocation, made again for each check.
        let Found {
            statement: _,
            first_mask: _,
            variants: _,
            mask: _,
            guard: _,
            expanded: _,
            macro_name: _,
            from_invocation: _,
            invoked_at: _,
        } = f;
        self.bytes.clear();
        self.offsets.clear();
        let mut w = Writer {
            out: &mut self.bytes,
            offsets: &mut self.offsets,
        };
        w.uint(conditions.len() as u64);
        for c in conditions {
            w.bytes(c.as_bytes());
        }
        for (s, mask) in f.readings() {
            w.out.push(1);
            w.mask(mask);
            w.statement(s);
        }
        w.out.push(0);
        // The clusters: first the runs of offsets met one after the other,
        // each within the gap of the one before it and not before it (a
        // literal's bytes: few runs a statement), then the runs in order,
        // merged where they overlap or are nearer than the gap. (Offsets
        // in one run are in one cluster, so these are the clusters of the
        // offsets sorted one by one.)
        self.runs.clear();
        for &x in &self.offsets {
            match self.runs.last_mut() {
                Some((first, last)) if *first <= x && x.saturating_sub(*last) < CLUSTER_GAP => {
                    *last = (*last).max(x);
                }
                _ => self.runs.push((x, x)),
            }
        }
        self.runs.sort_unstable();
        self.clusters.clear();
        for &(a, b) in &self.runs {
            match self.clusters.last_mut() {
                Some((_, last)) if a.saturating_sub(*last) < CLUSTER_GAP => *last = (*last).max(b),
                _ => self.clusters.push((a, b)),
            }
        }
        // The offsets in runs, each of offsets one after the other in one
        // cluster (a literal's bytes): its cluster, the distance of its
        // first from the offset before it in that cluster (from the
        // cluster's first when there is none), and its length.
        let mut w = Writer {
            out: &mut self.bytes,
            offsets: &mut Vec::new(),
        };
        w.uint(self.clusters.len() as u64);
        let mut prev: Option<(usize, u32)> = None;
        let mut run: Option<(usize, i64, u64)> = None;
        for &x in &self.offsets {
            // Mostly the cluster of the offset before.
            let i = match prev {
                Some((j, _)) if self.clusters.get(j).is_some_and(|&(a, b)| a <= x && x <= b) => j,
                _ => self.clusters.partition_point(|&(_, last)| last < x),
            };
            let (from, next) = match prev {
                Some((j, p)) if j == i => (p, p.checked_add(1) == Some(x)),
                _ => (self.clusters.get(i).map_or(0, |c| c.0), false),
            };
            match &mut run {
                Some((_, _, len)) if next => *len = len.saturating_add(1),
                _ => {
                    if let Some((c, d, len)) = run.take() {
                        w.run(c, d, len);
                    }
                    run = Some((i, i64::from(x).wrapping_sub(i64::from(from)), 1));
                }
            }
            prev = Some((i, x));
        }
        if let Some((c, d, len)) = run {
            w.run(c, d, len);
        }
    }
}

/// Writes a statement's parts: the offsets aside, in the order met.
struct Writer<'a> {
    out: &'a mut Vec<u8>,
    offsets: &'a mut Vec<u32>,
}

impl Writer<'_> {
    fn uint(&mut self, mut v: u64) {
        loop {
            let low = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.out.push(low);
                return;
            }
            self.out.push(low | 0x80);
        }
    }

    fn int(&mut self, v: i64) {
        // Zig-zag: small magnitudes of either sign in few bytes.
        self.uint(((v << 1) ^ (v >> 63)) as u64);
    }

    fn run(&mut self, cluster: usize, first: i64, len: u64) {
        self.uint(cluster as u64);
        self.int(first);
        self.uint(len);
    }

    fn span(&mut self, s: Span) {
        self.offsets.push(s.start);
        self.offsets.push(s.end);
    }

    fn bytes(&mut self, b: &[u8]) {
        self.uint(b.len() as u64);
        self.out.extend_from_slice(b);
    }

    fn mask(&mut self, m: Mask) {
        self.out.extend_from_slice(&m.to_le_bytes());
    }

    fn flag(&mut self, b: bool) {
        self.out.push(u8::from(b));
    }

    fn decoded(&mut self, d: &Decoded) {
        let Decoded { bytes, from } = d;
        self.bytes(bytes);
        self.uint(from.len() as u64);
        self.offsets.extend_from_slice(from);
    }

    fn statement(&mut self, s: &AsmStatement) {
        let AsmStatement {
            span,
            keyword,
            template_span,
            template,
            outputs,
            inputs,
            clobbers,
            labels,
            volatile,
            goto,
            in_macro,
        } = s;
        self.span(*span);
        self.span(*keyword);
        self.span(*template_span);
        match template {
            Template::Literal(d) => {
                self.out.push(0);
                self.decoded(d);
            }
            Template::NotLiteral => self.out.push(1),
            Template::TooLong => self.out.push(2),
            Template::GivenUp(why) => {
                self.out.push(3);
                self.out.push(match why {
                    GaveUp::Size => 0,
                    GaveUp::Depth => 1,
                    GaveUp::Budget => 2,
                });
            }
        }
        for ops in [outputs, inputs] {
            self.uint(ops.len() as u64);
            for op in ops {
                self.operand(op);
            }
        }
        for strings in [clobbers, labels] {
            self.uint(strings.len() as u64);
            for c in strings {
                self.bytes(c.as_bytes());
            }
        }
        self.flag(*volatile);
        self.flag(*goto);
        self.flag(*in_macro);
    }

    fn operand(&mut self, op: &AsmOperand) {
        let AsmOperand {
            name,
            constraint,
            constraint_span,
            expr,
            expr_span,
            expr_string,
            value,
        } = op;
        match name {
            Some(n) => {
                self.out.push(1);
                self.bytes(n.as_bytes());
            }
            None => self.out.push(0),
        }
        self.bytes(constraint.as_bytes());
        self.span(*constraint_span);
        self.bytes(expr.as_bytes());
        self.span(*expr_span);
        match expr_string {
            Some(d) => {
                self.out.push(1);
                self.decoded(d);
            }
            None => self.out.push(0),
        }
        match value {
            Some(v) => {
                self.out.push(1);
                self.out.extend_from_slice(&v.to_le_bytes());
            }
            None => self.out.push(0),
        }
    }
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::*;

    fn same(inc: &[Checked], full: &[Checked]) {
        assert_eq!(inc.len(), full.len());
        for (a, b) in inc.iter().zip(full) {
            assert_eq!(format!("{a:?}"), format!("{b:?}"));
        }
    }

    /// Statements moved by an edit before them are taken back, moved;
    /// statements whose macros, constants or conditions changed are judged
    /// again though their own text did not change.
    #[test]
    fn context_changes_are_judged_again() {
        let head = "#define OP add.s32\nconstexpr int K = 4;\n";
        let body = r#"
__device__ void f(int a) {
#if __CUDA_ARCH__ >= 900
  asm("OP %0, %0, 1;" : "+r"(a));
#endif
  asm("add.s32 %0, %0, %1;" : "+r"(a) : "n"(K));
  asm("add.s23 %0, %0, 2;" : "+r"(a));
  asm("mov.u32 %0, %%tid.x;" : "=r"(a));
}
"#;
        let targets = ["sm_80".to_string(), "sm_90".to_string()];
        let mut inc = Incremental::new(&targets);
        let check = |inc: &mut Incremental, src: &str| {
            let got = inc.check(src.as_bytes());
            same(&got, &super::super::check_source(src.as_bytes(), &targets));
            inc.judged_last()
        };
        let src = format!("{head}{body}");
        assert_eq!(check(&mut inc, &src), 4);
        // Moved, unchanged: nothing judged.
        assert_eq!(check(&mut inc, &format!("// a comment\n{src}")), 0);
        // The constant feeds the `"n"` operand: that statement again.
        let other = src.replace("K = 4", "K = 5");
        assert_eq!(check(&mut inc, &other), 1);
        // The condition: the statement under it again.
        // The condition (and the constant back as it was, which the last
        // check did not see): those two statements again.
        let other = src.replace(">= 900", ">= 800");
        assert_eq!(check(&mut inc, &other), 2);
        // Only the last check's results are kept.
        assert_eq!(check(&mut inc, &src), 1);
        // Identical statements are judged once.
        let twice = src.replace("}\n", "  asm(\"add.s23 %0, %0, 2;\" : \"+r\"(a));\n}\n");
        assert_eq!(check(&mut inc, &twice), 0);
    }

    /// Statements read from macros: a macro's body is where some of
    /// their offsets are, the invocation or the statement where the
    /// others are; an edit between the two moves them apart, and the
    /// results are taken back, each part moved as it moved.
    #[test]
    fn edits_between_a_macro_and_its_use() {
        let src = r#"#define ADD(x) asm("add.s23 %0, %0, 1;" : "+r"(x))
#define TPL "mov.b32 %0, %1;" "\n\tadd.s23 %0, %0, 2;"
__device__ void f(int a) {
  ADD(a);
  ADD(a);
  asm(TPL : "=r"(a) : "r"(a));
  asm("mov.b32 %0, %2;" : "=r"(a) : "r"(a));
}
"#;
        let targets = ["sm_90".to_string()];
        let mut inc = Incremental::new(&targets);
        let check = |inc: &mut Incremental, src: &str| {
            let got = inc.check(src.as_bytes());
            same(&got, &super::super::check_source(src.as_bytes(), &targets));
            assert!(got
                .iter()
                .all(|c| matches!(c.verdict, Verdict::Invalid { .. })));
            (got.len(), inc.judged_last())
        };
        // The two invocations are alike.
        assert_eq!(check(&mut inc, src), (4, 3));
        for edited in [
            src.replace("  ADD(a);\n}", "  int b = 0;\n  ADD(a);\n}"),
            src.replace("__device__", "// typed\n__device__"),
            src.replace("__device__", "#define N 3\n\n__device__"),
            src.replace("(x))\n", "(x) )\n"),
            src.replace(
                " : \"=r\"(a) : \"r\"(a));\n  asm(\"mov",
                " :  \"=r\"(a)  :  \"r\"(a));\n  asm(\"mov",
            ),
        ] {
            assert_eq!(check(&mut inc, &edited), (4, 0), "{edited}");
            assert_eq!(check(&mut inc, src), (4, 0), "{edited}");
        }
        // Inside a literal: that statement alone.
        let edited = src.replace("%0, 2;", "%0, 3;");
        assert_eq!(check(&mut inc, &edited), (4, 1));
    }
}
