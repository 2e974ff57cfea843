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
//! distinct names, not with the uses (one entry of 24 bytes and its
//! control byte per name, whichever way its uses settle). The error count stays exact, and the
//! first `N` errors are among those kept unless more than all but `N` of
//! the kept uses turn out to be labels.
//!
//! A closing block settles its counted uses by looking up its own labels
//! (not by reading every name counted so far) and merges what is left into
//! the enclosing block's table, the smaller table into the larger: each
//! block end costs its labels plus the smaller table, never every name held
//! in the body (which was quadratic: 60,000 names held, then 50,000 blocks,
//! ran for minutes).

use super::held_cold::{Chunk, ColdUse, Store, HOT};
use crate::diag::Diagnostic;
use crate::source::Span;
use crate::syntax::name_map::NameMap;
use crate::syntax::Name;

/// Kept diagnostics, in all, per unit of the error cap.
const KEPT_PER_CAP: usize = 64;

/// What settles a held diagnostic when a label of its name is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Settle {
    /// A label of that name makes the use correct: the diagnostic goes.
    DropIfLabel = 0,
    /// The diagnostic stands only if the name is a label.
    KeepIfLabel = 1,
}

/// A held diagnostic: built already, or to be built only if it stands.
/// A branch to a label further on is held until the label is seen, and
/// most such labels come: building its message (a `String`) at the branch
/// was work thrown away on nearly every forward branch.
pub(super) enum Pending {
    /// Built when held (boxed: a kept use is then 48 bytes, not 112, and
    /// most held uses are branches to labels further on, built later).
    Built(Box<Diagnostic>),
    /// Built from the name and this span if it stands.
    Later(Span, fn(Name, Span) -> Diagnostic),
}

impl Pending {
    /// The diagnostic about `n`.
    fn build(self, n: Name) -> Diagnostic {
        match self {
            Pending::Built(d) => *d,
            Pending::Later(span, make) => make(n, span),
        }
    }
}

/// A kept use: the name, its diagnostic, the depth of its block.
pub(super) type Kept = (Name, Pending, usize);

/// Uses counted past the kept ones, by name: how many of each [`Settle`]
/// (indexed by it). One table serves both, so a name used where either
/// settling applies costs one entry, not two; and the entries are a
/// [`NameMap`] (24 bytes each, found through a table of 32-bit indices of
/// 5 bytes a slot), not a map of 25-byte slots of which up to half are
/// empty: 2,000,000 distinct names held cost about 72 MB, not 210.
#[derive(Default)]
struct Counts {
    /// Each name counted, once, in the order first counted.
    map: NameMap<[u32; 2]>,
}

impl Counts {
    /// Names in the table (settled ones included, with no uses left).
    fn len(&self) -> usize {
        self.map.len()
    }

    fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Add `c` to the counts of `n`.
    fn add(&mut self, n: Name, c: [u32; 2]) {
        // (`None` past 2^32 names: each takes a byte or more of an input
        // under 4 GiB.)
        if let Some(e) = self.map.get_or_insert(n, [0, 0]) {
            *e = [e[0].saturating_add(c[0]), e[1].saturating_add(c[1])];
        }
    }

    /// The counts of `n`, taken out (the name stays, with none).
    fn take(&mut self, n: Name) -> Option<[u32; 2]> {
        self.map.get_mut(&n).map(std::mem::take)
    }

    /// Each name and its counts.
    fn into_entries(self) -> impl Iterator<Item = (Name, [u32; 2])> {
        self.map.into_entries().filter(|e| e.1 != [0, 0])
    }
}

/// Diagnostics about names whose labels are not yet known, of both
/// [`Settle`]s.
pub(super) struct Held {
    /// The error cap (0: keep everything).
    cap: usize,
    /// Kept, for each [`Settle`] (indexed by it), in the order held.
    kept: [Vec<Kept>; 2],
    /// Scratch list for [`Held::block_end`], kept for its capacity.
    tail: Vec<Kept>,
    /// Uses past the kept ones: at index `d`, those held in the open block
    /// at depth `d`. A count fits in 32 bits: the input is under 4 GiB and
    /// every use takes a byte or more.
    counted: Vec<Counts>,
    /// Every use held past the kept ones (counted or lost), ever.
    past: u64,
    /// With no cap: for each [`Settle`], the uses written out, older than
    /// every use in `kept` ([`super::held_cold`]).
    cold: [Vec<Chunk>; 2],
    /// Where they are written; `None` until needed.
    store: Option<Store>,
    /// Set when no store could be made or written: everything stays in
    /// memory from then on.
    no_store: bool,
    /// Set when a list reached twice [`HOT`] with no cap: the next
    /// [`Held::settle_point`] writes its oldest uses out.
    spill_due: bool,
    /// How many uses go out at a time: [`HOT`], or [`SMALL_HOT`] to test
    /// the disk on small inputs.
    hot: usize,
    /// Twice that: a list this long is due to be written out.
    spill_at: usize,
}

/// [`Held::hot`] for [`crate::check::CheckOptions::small_spills`].
const SMALL_HOT: usize = 2;

/// How much is held ([`Held::mark`]): the kept diagnostics of each
/// [`Settle`] and the uses counted past them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct HeldMark {
    kept: [usize; 2],
    /// Uses counted so far: those cannot be taken back.
    pub(super) past: u64,
}

/// What [`Held::split_off`] took out, for [`Held::restore`].
pub(super) type Taken = [Vec<Kept>; 2];

impl Held {
    pub(super) fn new(cap: usize) -> Held {
        Held {
            cap,
            kept: [Vec::new(), Vec::new()],
            tail: Vec::new(),
            counted: Vec::new(),
            past: 0,
            cold: [Vec::new(), Vec::new()],
            store: None,
            no_store: false,
            spill_due: false,
            hot: HOT,
            spill_at: HOT.saturating_mul(2),
        }
    }

    /// With `small`, write uses out a few at a time (see
    /// [`crate::check::CheckOptions::small_spills`]).
    pub(super) fn small(mut self, small: bool) -> Held {
        if small {
            self.hot = SMALL_HOT;
            self.spill_at = SMALL_HOT.saturating_mul(2);
        }
        self
    }

    /// Between statements (no [`Held::mark`] outstanding): with no cap,
    /// write the oldest uses of a list out once it holds twice [`HOT`].
    #[inline]
    pub(super) fn settle_point(&mut self) {
        if self.spill_due {
            self.spill();
        }
    }

    #[cold]
    fn spill(&mut self) {
        self.spill_due = false;
        for s in 0..2 {
            let Some(kept) = self.kept.get_mut(s) else {
                continue;
            };
            if kept.len() < self.spill_at {
                continue;
            }
            if self.store.is_none() {
                self.store = Store::new();
            }
            let Some(store) = self.store.as_mut() else {
                self.no_store = true;
                return;
            };
            let out: Vec<ColdUse> = kept
                .drain(..self.hot)
                .map(|(n, p, depth)| (n, p.build(n), depth))
                .collect();
            match store.write(&out) {
                Ok(chunk) => {
                    if let Some(cold) = self.cold.get_mut(s) {
                        cold.push(chunk);
                    }
                }
                Err(_) => {
                    // Put them back, built, and keep everything in memory.
                    let back = out
                        .into_iter()
                        .map(|(n, d, depth)| (n, Pending::Built(Box::new(d)), depth));
                    kept.splice(0..0, back);
                    self.no_store = true;
                    return;
                }
            }
        }
    }

    /// Whether uses were written out (the body's end then settles them as
    /// they are read: [`Settling`]).
    pub(super) fn has_cold(&self) -> bool {
        self.cold.iter().any(|c| !c.is_empty())
    }

    /// The uses of list `s` written out and held in a block at `depth` or
    /// deeper, settled as that block closes: those its labels settle go
    /// (into `out` if they stand), the rest wait at `outer`. Returns the
    /// uses that could not be read back (counted only).
    #[cold]
    fn block_end_cold(
        &mut self,
        s: usize,
        depth: usize,
        outer: usize,
        is_label: &impl Fn(Name) -> bool,
        out: &mut Vec<Diagnostic>,
    ) -> u64 {
        let keep_if_label = s == Settle::KeepIfLabel as usize;
        let (Some(cold), Some(store)) = (self.cold.get_mut(s), self.store.as_mut()) else {
            return 0;
        };
        let Some(first) = cold.iter().position(|c| c.depths.1 >= depth) else {
            return 0;
        };
        let mut lost = 0u64;
        for c in cold.split_off(first) {
            let Ok(uses) = store.read(c) else {
                lost = lost.saturating_add(c.count as u64);
                continue;
            };
            let mut rest = Vec::with_capacity(uses.len());
            for (n, d, at) in uses {
                if at < depth {
                    rest.push((n, d, at));
                } else if is_label(n) {
                    if keep_if_label {
                        out.push(d);
                    }
                } else {
                    rest.push((n, d, outer));
                }
            }
            if rest.is_empty() {
                continue;
            }
            let n = rest.len() as u64;
            match store.write(&rest) {
                Ok(chunk) => cold.push(chunk),
                Err(_) => lost = lost.saturating_add(n),
            }
        }
        lost
    }

    /// Hold a diagnostic about `n`, used at block depth `depth`, settled
    /// as `settle` says; `make` builds it, only when it is kept.
    #[inline]
    pub(super) fn hold(
        &mut self,
        settle: Settle,
        n: Name,
        depth: usize,
        make: impl FnOnce() -> Diagnostic,
    ) {
        self.hold_pending(settle, n, depth, || Pending::Built(Box::new(make())));
    }

    /// [`Held::hold`], the diagnostic built by `make` from `n` and `span`
    /// only if it stands.
    #[inline]
    pub(super) fn hold_later(
        &mut self,
        settle: Settle,
        n: Name,
        depth: usize,
        span: Span,
        make: fn(Name, Span) -> Diagnostic,
    ) {
        self.hold_pending(settle, n, depth, || Pending::Later(span, make));
    }

    #[inline]
    fn hold_pending(
        &mut self,
        settle: Settle,
        n: Name,
        depth: usize,
        make: impl FnOnce() -> Pending,
    ) {
        let s = settle as usize;
        let Some(kept) = self.kept.get_mut(s) else {
            return;
        };
        debug_assert!(kept.last().is_none_or(|&(_, _, at)| at <= depth));
        if self.cap == 0 {
            kept.push((n, make(), depth));
            if kept.len() >= self.spill_at && !self.no_store {
                self.spill_due = true;
            }
            return;
        }
        if kept.len() < self.cap.saturating_mul(KEPT_PER_CAP) {
            kept.push((n, make(), depth));
            return;
        }
        self.past = self.past.saturating_add(1);
        if self.counted.len() <= depth {
            self.counted
                .resize_with(depth.saturating_add(1), Counts::default);
        }
        if let Some(table) = self.counted.get_mut(depth) {
            let mut one = [0, 0];
            if let Some(c) = one.get_mut(s) {
                *c = 1;
            }
            table.add(n, one);
        }
    }

    /// How much is held (for [`Held::split_off`], [`Held::restore`]).
    #[inline]
    pub(super) fn mark(&self) -> HeldMark {
        HeldMark {
            kept: self.kept.each_ref().map(Vec::len),
            past: self.past,
        }
    }

    /// The diagnostics kept since `mark`, taken out.
    pub(super) fn split_off(&mut self, mark: HeldMark) -> Taken {
        let mut taken: Taken = [Vec::new(), Vec::new()];
        for ((kept, at), out) in self.kept.iter_mut().zip(mark.kept).zip(&mut taken) {
            if at < kept.len() {
                *out = kept.split_off(at);
            }
        }
        taken
    }

    /// Put back what [`Held::split_off`] took out, dropping what was held
    /// since `mark`.
    pub(super) fn restore(&mut self, mark: HeldMark, taken: Taken) {
        for ((kept, at), back) in self.kept.iter_mut().zip(mark.kept).zip(taken) {
            kept.truncate(at);
            kept.extend(back);
        }
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
        if self.kept.iter().all(Vec::is_empty) && !deep && !self.has_cold() {
            return counted;
        }
        let outer = depth.saturating_sub(1);
        let mut tail = std::mem::take(&mut self.tail);
        for s in 0..self.kept.len() {
            let keep_if_label = s == Settle::KeepIfLabel as usize;
            let Some(kept) = self.kept.get(s) else {
                continue;
            };
            // Depths never decrease along a kept list (a use is held at
            // the depth of its block, and a closing block lowers its own
            // to the enclosing depth), so the uses of this block are its
            // tail: only they are read and moved, not everything held
            // since the body began (moving it all at every block end was
            // quadratic).
            let start = kept
                .iter()
                .rposition(|&(_, _, at)| at < depth)
                .map_or(0, |i| i.saturating_add(1));
            if start == 0 && self.cold.get(s).is_some_and(|c| !c.is_empty()) {
                // The uses written out come first: settle those of this
                // block before the ones in memory.
                let lost = self.block_end_cold(s, depth, outer, &is_label, out);
                counted = counted.saturating_add(lost);
            }
            let Some(kept) = self.kept.get_mut(s) else {
                continue;
            };
            tail.extend(kept.drain(start..));
            for (n, d, _) in tail.drain(..) {
                if is_label(n) {
                    if keep_if_label {
                        out.push(d.build(n));
                    }
                } else {
                    kept.push((n, d, outer));
                }
            }
        }
        self.tail = tail;
        if deep {
            // The tables of this block and of any deeper one (closed
            // already, so empty unless the walk skipped a block end).
            let mut inner = Counts::default();
            for table in self.counted.drain(depth..) {
                inner = merge(inner, table);
            }
            if !inner.is_empty() {
                for n in labels {
                    if let Some([_, keep]) = inner.take(n) {
                        counted = counted.saturating_add(u64::from(keep));
                    }
                }
                if self.counted.len() <= outer {
                    self.counted
                        .resize_with(outer.saturating_add(1), Counts::default);
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
        if self.has_cold() {
            out.extend(Settling::new(self, Box::new(is_label)));
            return 0;
        }
        if self.kept.iter().all(Vec::is_empty) && self.counted.is_empty() {
            return 0;
        }
        let mut counted = 0u64;
        for (s, kept) in self.kept.into_iter().enumerate() {
            let keep_if_label = s == Settle::KeepIfLabel as usize;
            for (n, d, _) in kept {
                if keep_if_label == is_label(n) {
                    out.push(d.build(n));
                }
            }
        }
        for table in self.counted {
            for (n, [drop, keep]) in table.into_entries() {
                let c = if is_label(n) { keep } else { drop };
                counted = counted.saturating_add(u64::from(c));
            }
        }
        counted
    }
}

/// The end of a body some of whose held uses were written out (so with no
/// cap, hence nothing counted): the diagnostics that stand, read back and
/// settled one at a time, the lists in order, each from its oldest use
/// (what [`Held::finish`] gives, without holding them all at once).
pub(super) struct Settling<'l> {
    held: Held,
    is_label: Box<dyn Fn(Name) -> bool + 'l>,
    /// The list being read and its next chunk.
    list: usize,
    chunk: usize,
    /// The uses of the chunk read last.
    uses: std::vec::IntoIter<ColdUse>,
    /// The list's uses in memory, once its chunks are read.
    hot: Option<std::vec::IntoIter<Kept>>,
}

impl<'l> Settling<'l> {
    /// Settle what `held` holds, a name being a label if `is_label`.
    pub(super) fn new(held: Held, is_label: Box<dyn Fn(Name) -> bool + 'l>) -> Settling<'l> {
        Settling {
            held,
            is_label,
            list: 0,
            chunk: 0,
            uses: Vec::new().into_iter(),
            hot: None,
        }
    }
}

impl Iterator for Settling<'_> {
    type Item = Diagnostic;

    fn next(&mut self) -> Option<Diagnostic> {
        loop {
            let keep_if_label = self.list == Settle::KeepIfLabel as usize;
            if let Some((n, d, _)) = self.uses.next() {
                if keep_if_label == (self.is_label)(n) {
                    return Some(d);
                }
                continue;
            }
            if let Some(hot) = &mut self.hot {
                match hot.next() {
                    Some((n, p, _)) => {
                        if keep_if_label == (self.is_label)(n) {
                            return Some(p.build(n));
                        }
                    }
                    None => {
                        self.hot = None;
                        self.list = self.list.saturating_add(1);
                        self.chunk = 0;
                    }
                }
                continue;
            }
            let cold = self.held.cold.get(self.list)?;
            if let Some(&c) = cold.get(self.chunk) {
                self.chunk = self.chunk.saturating_add(1);
                // A chunk that cannot be read back (a failing disk) is
                // lost: its diagnostics are not given.
                if let Some(uses) = self.held.store.as_ref().and_then(|st| st.read(c).ok()) {
                    self.uses = uses.into_iter();
                }
                continue;
            }
            let kept = self.held.kept.get_mut(self.list)?;
            self.hot = Some(std::mem::take(kept).into_iter());
        }
    }
}

/// The counts of `a` and `b` added by name: the smaller table is read into
/// the larger, so a name moving out through many blocks costs little.
fn merge(a: Counts, b: Counts) -> Counts {
    let (mut big, small) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    for (n, c) in small.into_entries() {
        big.add(n, c);
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

    /// With no cap, uses written out to disk settle as the ones held in
    /// memory do: the same diagnostics in the same order, through nested
    /// blocks that close over written-out uses, both settlings, and the
    /// lazy end of the body.
    #[test]
    fn written_out_uses_settle_as_held_ones() {
        let run = |spill: bool| {
            let mut h = Held::new(0);
            h.no_store = !spill;
            let mut out = Vec::new();
            let mut x = 7u64;
            let mut depth = 1usize;
            let names: Vec<Name> = (0..50).map(|i| Name::new(&format!("n{i}"))).collect();
            let is_label = |n: Name| n.as_str().ends_with('3') || n.as_str().ends_with('7');
            for i in 0..200_000u32 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let n = names[((x >> 33) % 50) as usize];
                let settle = if (x >> 20).is_multiple_of(2) {
                    Settle::KeepIfLabel
                } else {
                    Settle::DropIfLabel
                };
                let make = move || {
                    Diagnostic::error(crate::diag::Code::Undeclared, Span::at(i), "x")
                        .with_note("held")
                };
                if (x >> 40).is_multiple_of(3) {
                    h.hold_later(settle, n, depth, Span::at(i), |n, sp| {
                        Diagnostic::error(crate::diag::Code::UndefinedLabel, sp, n.as_str())
                    });
                } else {
                    h.hold(settle, n, depth, make);
                }
                h.settle_point();
                // Blocks that close over many more uses than stay in
                // memory, nested, and one still open at the end.
                match i {
                    10_000 | 20_000 | 160_000 => depth += 1,
                    120_000 | 150_000 => {
                        let labels = names.iter().copied().filter(|&n| is_label(n));
                        assert_eq!(h.block_end(depth, labels, is_label, &mut out), 0);
                        depth -= 1;
                    }
                    _ => {}
                }
            }
            assert_eq!(spill, h.has_cold());
            let before = out.len();
            assert_eq!(h.finish(is_label, &mut out), 0);
            (before, out)
        };
        let (a_mid, a) = run(true);
        let (b_mid, b) = run(false);
        assert!(a_mid > 0 && a.len() > a_mid, "{a_mid} {}", a.len());
        assert_eq!((a_mid, a.len()), (b_mid, b.len()));
        assert!(a == b, "written-out uses settle differently");
    }

    /// A kept use stays small: with no error cap every use of an unknown
    /// name is kept until its block ends.
    #[test]
    fn a_kept_use_is_small() {
        assert!(std::mem::size_of::<Kept>() <= 48);
    }

    #[test]
    fn past_the_cap_uses_are_counted_not_kept() {
        let mut h = Held::new(2);
        for _ in 0..1000 {
            h.hold(Settle::DropIfLabel, Name::new("%r1"), 1, d);
            h.hold(Settle::DropIfLabel, Name::new("L"), 1, d);
        }
        assert_eq!(h.kept[0].len(), 2 * KEPT_PER_CAP);
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
        let mut drop = Held::new(1);
        let mut keep = Held::new(1);
        for &n in &names {
            drop.hold(Settle::DropIfLabel, n, 3, d);
            keep.hold(Settle::KeepIfLabel, n, 3, d);
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
        let mut drop = Held::new(1);
        for &n in &names {
            drop.hold(Settle::DropIfLabel, n, 4, d);
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
        let mut h = Held::new(1);
        for _ in 0..KEPT_PER_CAP {
            h.hold(Settle::KeepIfLabel, Name::new("M"), 1, d);
        }
        h.hold(Settle::KeepIfLabel, Name::new("L"), 2, d);
        h.hold(Settle::KeepIfLabel, Name::new("L"), 2, d);
        h.hold(Settle::KeepIfLabel, Name::new("L"), 1, d);
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
        let mut h = Held::new(0);
        let mut out = Vec::new();
        h.hold(Settle::DropIfLabel, Name::new("A"), 2, d);
        h.hold(Settle::DropIfLabel, Name::new("L"), 3, d);
        assert_eq!(
            h.block_end(
                3,
                [Name::new("L")].into_iter(),
                |n| n == Name::new("L"),
                &mut out
            ),
            0
        );
        h.hold(Settle::DropIfLabel, Name::new("L"), 3, d);
        h.hold(Settle::DropIfLabel, Name::new("M"), 4, d);
        h.hold(Settle::DropIfLabel, Name::new("L"), 4, d);
        // The inner block defines `M`: its `L` waits for the outer ones.
        h.block_end(
            4,
            [Name::new("M")].into_iter(),
            |n| n == Name::new("M"),
            &mut out,
        );
        let held: Vec<(&str, usize)> = h.kept[0]
            .iter()
            .map(|(n, _, at)| (n.as_str(), *at))
            .collect();
        assert_eq!(held, [("A", 2), ("L", 3), ("L", 3)]);
        // The block at depth 3 defines `L`: both of its uses go, `A` stays.
        h.block_end(
            3,
            [Name::new("L")].into_iter(),
            |n| n == Name::new("L"),
            &mut out,
        );
        let held: Vec<(&str, usize)> = h.kept[0]
            .iter()
            .map(|(n, _, at)| (n.as_str(), *at))
            .collect();
        assert_eq!(held, [("A", 2)]);
        assert_eq!(h.finish(|_| false, &mut out), 0);
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn one_count_table_serves_both_settlings() {
        // Past the cap, a name held both ways is one entry; at the end its
        // uses stand one way or the other, never both.
        let mut h = Held::new(1);
        for _ in 0..KEPT_PER_CAP {
            h.hold(Settle::DropIfLabel, Name::new("x"), 1, d);
            h.hold(Settle::KeepIfLabel, Name::new("x"), 1, d);
        }
        for _ in 0..3 {
            h.hold(Settle::DropIfLabel, Name::new("L"), 1, d);
            h.hold(Settle::DropIfLabel, Name::new("%r"), 1, d);
        }
        for _ in 0..5 {
            h.hold(Settle::KeepIfLabel, Name::new("L"), 1, d);
            h.hold(Settle::KeepIfLabel, Name::new("%r"), 1, d);
        }
        assert_eq!(h.counted.first().map_or(0, Counts::len), 0);
        assert_eq!(h.counted.get(1).map_or(0, Counts::len), 2);
        let mut out = Vec::new();
        let counted = h.finish(|n| n == Name::new("L"), &mut out);
        // `x` is no label: its 64 held-to-drop uses stand, kept.
        assert_eq!(out.len(), KEPT_PER_CAP);
        // `L` is a label: its 5 uses where no label may stand; `%r` is
        // not: its 3 undeclared uses.
        assert_eq!(counted, 5 + 3);
    }
}
