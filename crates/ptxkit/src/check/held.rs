//! Diagnostics held until the labels of a block are known, in bounded
//! memory.
//!
//! A name unknown where it is used may be a label defined further on, so
//! its diagnostic waits for the end of the block (see [`super::body`]).
//! A body of undeclared registers would hold one diagnostic per use until
//! it ends (50 MB of `add.s32 %r1, %r2, %r3;` held 2.9 GB). With an error
//! cap (`ptx check --max-errors N`), the first [`KEPT_PER_CAP`] times `N`
//! uses are kept as diagnostics, in source order; later uses are counted by
//! name, one table per block depth, not stored: memory grows with the
//! distinct names, not with the uses. The error count stays exact, and the
//! first `N` errors are among those kept unless more than all but `N` of
//! the kept uses turn out to be labels.
//!
//! A closing block settles its counted uses by looking up its own labels
//! (not by reading every name counted so far) and merges what is left into
//! the enclosing block's table, the smaller table into the larger: each
//! block end costs its labels plus the smaller table, never every name held
//! in the body (which was quadratic: 60,000 names held, then 50,000 blocks,
//! ran for minutes).

use rustc_hash::FxHashMap;

use crate::diag::Diagnostic;
use crate::source::Span;
use crate::syntax::Name;

/// Kept diagnostics, in all, per unit of the error cap.
const KEPT_PER_CAP: usize = 64;

/// What settles a held diagnostic when a label of its name is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Settle {
    /// A label of that name makes the use correct: the diagnostic goes.
    DropIfLabel,
    /// The diagnostic stands only if the name is a label.
    KeepIfLabel,
}

/// A held diagnostic: built already, or to be built only if it stands.
/// A branch to a label further on is held until the label is seen, and
/// most such labels come: building its message (a `String`) at the branch
/// was work thrown away on nearly every forward branch.
pub(super) enum Pending {
    /// Built when held.
    Built(Diagnostic),
    /// Built from the name and this span if it stands.
    Later(Span, fn(Name, Span) -> Diagnostic),
}

impl Pending {
    /// The diagnostic about `n`.
    fn build(self, n: Name) -> Diagnostic {
        match self {
            Pending::Built(d) => d,
            Pending::Later(span, make) => make(n, span),
        }
    }
}

/// Diagnostics about names whose labels are not yet known.
pub(super) struct Held {
    settle: Settle,
    /// The error cap (0: keep everything).
    cap: usize,
    /// Kept: the name, the diagnostic, the depth of its block.
    kept: Vec<(Name, Pending, usize)>,
    /// Scratch list for [`Held::block_end`], kept for its capacity.
    tail: Vec<(Name, Pending, usize)>,
    /// Uses past the kept ones: at index `d`, those held in the open block
    /// at depth `d`, by name. A count fits in 32 bits: the input is under
    /// 4 GiB and every use takes a byte or more.
    counted: Vec<FxHashMap<Name, u32>>,
    /// Every use held past the kept ones (counted or lost), ever.
    past: u64,
}

impl Held {
    pub(super) fn new(settle: Settle, cap: usize) -> Held {
        Held {
            settle,
            cap,
            kept: Vec::new(),
            tail: Vec::new(),
            counted: Vec::new(),
            past: 0,
        }
    }

    /// Hold a diagnostic about `n`, used at block depth `depth`; `make`
    /// builds it, only when it is kept.
    #[inline]
    pub(super) fn hold(&mut self, n: Name, depth: usize, make: impl FnOnce() -> Diagnostic) {
        self.hold_pending(n, depth, || Pending::Built(make()));
    }

    /// [`Held::hold`], the diagnostic built by `make` from `n` and `span`
    /// only if it stands.
    #[inline]
    pub(super) fn hold_later(
        &mut self,
        n: Name,
        depth: usize,
        span: Span,
        make: fn(Name, Span) -> Diagnostic,
    ) {
        self.hold_pending(n, depth, || Pending::Later(span, make));
    }

    #[inline]
    fn hold_pending(&mut self, n: Name, depth: usize, make: impl FnOnce() -> Pending) {
        debug_assert!(self.kept.last().is_none_or(|&(_, _, at)| at <= depth));
        if self.cap == 0 {
            self.kept.push((n, make(), depth));
            return;
        }
        if self.kept.len() < self.cap.saturating_mul(KEPT_PER_CAP) {
            self.kept.push((n, make(), depth));
            return;
        }
        self.past = self.past.saturating_add(1);
        if self.counted.len() <= depth {
            self.counted
                .resize_with(depth.saturating_add(1), FxHashMap::default);
        }
        if let Some(table) = self.counted.get_mut(depth) {
            let c = table.entry(n).or_insert(0);
            *c = c.saturating_add(1);
        }
    }

    /// How much is held: the kept diagnostics and the uses counted past
    /// them (for [`Held::split_off`], [`Held::restore`]).
    #[inline]
    pub(super) fn mark(&self) -> (usize, u64) {
        (self.kept.len(), self.past)
    }

    /// The diagnostics kept since `kept` (a [`Held::mark`]), taken out.
    pub(super) fn split_off(&mut self, kept: usize) -> Vec<(Name, Pending, usize)> {
        if kept < self.kept.len() {
            self.kept.split_off(kept)
        } else {
            Vec::new()
        }
    }

    /// Put back what [`Held::split_off`] took out, dropping what was held
    /// since.
    pub(super) fn restore(&mut self, kept: usize, taken: Vec<(Name, Pending, usize)>) {
        self.kept.truncate(kept);
        self.kept.extend(taken);
    }

    /// The block at `depth` closes, defining the labels `labels` (which
    /// `is_label` answers for): the diagnostics it settles as standing go to
    /// `out`, and the errors counted only are returned; the rest now waits
    /// in the enclosing block.
    pub(super) fn block_end(
        &mut self,
        depth: usize,
        labels: impl Iterator<Item = Name>,
        is_label: impl Fn(Name) -> bool,
        out: &mut Vec<Diagnostic>,
    ) -> u64 {
        let mut counted = 0u64;
        let deep = self.counted.len() > depth;
        if self.kept.is_empty() && !deep {
            return counted;
        }
        let outer = depth.saturating_sub(1);
        let keep_if_label = self.settle == Settle::KeepIfLabel;
        // Depths never decrease along `kept` (a use is held at the depth
        // of its block, and a closing block lowers its own to the
        // enclosing depth), so the uses of this block are its tail: only
        // they are read and moved, not everything held since the body
        // began (moving it all at every block end was quadratic).
        let start = self
            .kept
            .iter()
            .rposition(|&(_, _, at)| at < depth)
            .map_or(0, |i| i.saturating_add(1));
        let mut tail = std::mem::take(&mut self.tail);
        tail.extend(self.kept.drain(start..));
        for (n, d, _) in tail.drain(..) {
            if is_label(n) {
                if keep_if_label {
                    out.push(d.build(n));
                }
            } else {
                self.kept.push((n, d, outer));
            }
        }
        self.tail = tail;
        if deep {
            // The tables of this block and of any deeper one (closed
            // already, so empty unless the walk skipped a block end).
            let mut inner: FxHashMap<Name, u32> = FxHashMap::default();
            for table in self.counted.drain(depth..) {
                inner = merge(inner, table);
            }
            if !inner.is_empty() {
                for n in labels {
                    if let Some(c) = inner.remove(&n) {
                        if keep_if_label {
                            counted = counted.saturating_add(u64::from(c));
                        }
                    }
                }
                if self.counted.len() <= outer {
                    self.counted
                        .resize_with(outer.saturating_add(1), FxHashMap::default);
                }
                if let Some(slot) = self.counted.get_mut(outer) {
                    let table = std::mem::take(slot);
                    *slot = merge(table, inner);
                }
            }
        }
        counted
    }

    /// The body ends, its labels answering `is_label`: everything held is
    /// settled, the diagnostics that stand into `out`; returns the errors
    /// that stand, counted only.
    #[inline]
    pub(super) fn finish(self, is_label: impl Fn(Name) -> bool, out: &mut Vec<Diagnostic>) -> u64 {
        if self.kept.is_empty() && self.counted.is_empty() {
            return 0;
        }
        let stands = |n: Name| (self.settle == Settle::KeepIfLabel) == is_label(n);
        let mut counted = 0u64;
        for (n, d, _) in self.kept {
            if stands(n) {
                out.push(d.build(n));
            }
        }
        for table in self.counted {
            for (n, c) in table {
                if stands(n) {
                    counted = counted.saturating_add(u64::from(c));
                }
            }
        }
        counted
    }
}

/// The counts of `a` and `b` added by name: the smaller table is read into
/// the larger, so a name moving out through many blocks costs little.
fn merge(a: FxHashMap<Name, u32>, b: FxHashMap<Name, u32>) -> FxHashMap<Name, u32> {
    let (mut big, small) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    for (n, c) in small {
        let e = big.entry(n).or_insert(0);
        *e = e.saturating_add(c);
    }
    big
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    fn d() -> Diagnostic {
        Diagnostic::error(crate::diag::Code::Undeclared, Span::new(0, 1), "x")
    }

    #[test]
    fn past_the_cap_uses_are_counted_not_kept() {
        let mut h = Held::new(Settle::DropIfLabel, 2);
        for _ in 0..1000 {
            h.hold(Name::new("%r1"), 1, d);
            h.hold(Name::new("L"), 1, d);
        }
        assert_eq!(h.kept.len(), 2 * KEPT_PER_CAP);
        let mut out = Vec::new();
        let counted = h.finish(|n| n == Name::new("L"), &mut out);
        assert_eq!(
            (out.len(), counted),
            (KEPT_PER_CAP, 1000 - KEPT_PER_CAP as u64)
        );
    }

    #[test]
    fn every_counted_use_is_settled_however_many_names() {
        // Past 65,536 distinct names, uses were counted as errors at once:
        // a valid body of 200,000 forward branches had 128,064 errors.
        let names: Vec<Name> = (0..200_000).map(|i| Name::new(&format!("L{i}"))).collect();
        let mut drop = Held::new(Settle::DropIfLabel, 1);
        let mut keep = Held::new(Settle::KeepIfLabel, 1);
        for &n in &names {
            drop.hold(n, 3, d);
            keep.hold(n, 3, d);
        }
        let labels: rustc_hash::FxHashSet<Name> = names.iter().copied().collect();
        let mut out = Vec::new();
        let is_label = |n: Name| labels.contains(&n);
        assert_eq!(
            drop.block_end(3, names.iter().copied(), is_label, &mut out),
            0
        );
        assert_eq!(drop.finish(|_| false, &mut out), 0);
        let counted = keep.block_end(3, names.iter().copied(), is_label, &mut out);
        assert_eq!(counted as usize + out.len(), names.len());
        // Not labels: each use stands, once.
        let mut drop = Held::new(Settle::DropIfLabel, 1);
        for &n in &names {
            drop.hold(n, 4, d);
        }
        let mut out = Vec::new();
        assert_eq!(
            drop.block_end(4, std::iter::empty(), |_| false, &mut out),
            0
        );
        let counted = drop.block_end(3, std::iter::empty(), |_| false, &mut out);
        assert_eq!(counted, 0);
        let counted = drop.finish(|_| false, &mut out);
        assert_eq!(counted as usize + out.len(), names.len());
    }

    #[test]
    fn a_nested_label_settles_only_its_block() {
        let mut h = Held::new(Settle::KeepIfLabel, 1);
        for _ in 0..KEPT_PER_CAP {
            h.hold(Name::new("M"), 1, d);
        }
        h.hold(Name::new("L"), 2, d);
        h.hold(Name::new("L"), 2, d);
        h.hold(Name::new("L"), 1, d);
        let mut out = Vec::new();
        let counted = h.block_end(
            2,
            [Name::new("L")].into_iter(),
            |n| n == Name::new("L"),
            &mut out,
        );
        assert_eq!((out.len(), counted), (0, 2));
        let counted = h.finish(|_| false, &mut out);
        assert_eq!((out.len(), counted), (0, 0));
    }

    #[test]
    fn a_block_settles_only_the_uses_held_inside_it() {
        let mut h = Held::new(Settle::DropIfLabel, 0);
        let mut out = Vec::new();
        h.hold(Name::new("A"), 2, d);
        h.hold(Name::new("L"), 3, d);
        assert_eq!(
            h.block_end(
                3,
                [Name::new("L")].into_iter(),
                |n| n == Name::new("L"),
                &mut out
            ),
            0
        );
        h.hold(Name::new("L"), 3, d);
        h.hold(Name::new("M"), 4, d);
        h.hold(Name::new("L"), 4, d);
        // The inner block defines `M`: its `L` waits for the outer ones.
        h.block_end(
            4,
            [Name::new("M")].into_iter(),
            |n| n == Name::new("M"),
            &mut out,
        );
        let held: Vec<(&str, usize)> = h.kept.iter().map(|(n, _, at)| (n.as_str(), *at)).collect();
        assert_eq!(held, [("A", 2), ("L", 3), ("L", 3)]);
        // The block at depth 3 defines `L`: both of its uses go, `A` stays.
        h.block_end(
            3,
            [Name::new("L")].into_iter(),
            |n| n == Name::new("L"),
            &mut out,
        );
        let held: Vec<(&str, usize)> = h.kept.iter().map(|(n, _, at)| (n.as_str(), *at)).collect();
        assert_eq!(held, [("A", 2)]);
        assert_eq!(h.finish(|_| false, &mut out), 0);
        assert_eq!(out.len(), 1);
    }
}
