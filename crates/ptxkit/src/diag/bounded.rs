//! Keeping the first diagnostics of a check, up to a limit, and counting the
//! rest: a file of garbage has millions of errors, and nobody reads past the
//! first hundred, so a check keeps memory bounded whatever the input.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::spill::{Runs, Sorted, RUN};
use super::Diagnostic;

/// Collects diagnostics, keeping the `max` first in source order (all of
/// them with `max == 0`) and counting every error and warning pushed.
///
/// ```
/// use ptxkit::diag::{Bounded, Code, Diagnostic};
/// use ptxkit::Span;
/// let mut b = Bounded::new(2);
/// for at in [30, 10, 20, 40] {
///     b.push(Diagnostic::error(Code::Syntax, Span::at(at), "bad"));
/// }
/// let c = b.finish();
/// let kept: Vec<u32> = c.diagnostics.iter().map(|d| d.span.start).collect();
/// assert_eq!(kept, [10, 20]);
/// assert_eq!((c.errors, c.omitted()), (4, 2));
/// ```
#[derive(Default)]
pub struct Bounded {
    max: usize,
    /// With a limit: the kept diagnostics, the last in source order on top.
    heap: BinaryHeap<Entry>,
    /// Without a limit: the diagnostics not yet written out, in arrival
    /// order.
    all: Vec<Diagnostic>,
    /// Without a limit: the runs written out, each of [`RUN`] diagnostics
    /// sorted, once more than that many were found.
    spill: Option<Runs>,
    /// Set once writing a run failed: nothing more is written out.
    unspillable: bool,
    /// The length of a run written out (0: [`RUN`]).
    run: usize,
    /// Without a limit: the errors and warnings pushed (kept).
    pushed: (usize, usize),
    /// Arrival count, to keep the order of diagnostics at one offset.
    seq: u64,
    errors: usize,
    warnings: usize,
}

/// A kept diagnostic, ordered by position then arrival.
#[derive(Debug)]
struct Entry(u32, u64, Diagnostic);

impl PartialEq for Entry {
    fn eq(&self, other: &Entry) -> bool {
        (self.0, self.1) == (other.0, other.1)
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Entry) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Entry) -> Ordering {
        (self.0, self.1).cmp(&(other.0, other.1))
    }
}

/// What a [`Bounded`] collected.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Collected {
    /// The diagnostics kept, in source order (diagnostics at one offset in
    /// the order they were found).
    pub diagnostics: Vec<Diagnostic>,
    /// Errors found, kept or not.
    pub errors: usize,
    /// Warnings found, kept or not.
    pub warnings: usize,
}

impl Collected {
    /// How many diagnostics were found but not kept.
    pub fn omitted(&self) -> usize {
        self.errors
            .saturating_add(self.warnings)
            .saturating_sub(self.diagnostics.len())
    }

    /// Errors found but not kept.
    pub fn omitted_errors(&self) -> usize {
        let kept = self.diagnostics.iter().filter(|d| d.is_error()).count();
        self.errors.saturating_sub(kept)
    }

    /// Warnings found but not kept.
    pub fn omitted_warnings(&self) -> usize {
        let kept = self.diagnostics.iter().filter(|d| !d.is_error()).count();
        self.warnings.saturating_sub(kept)
    }

    /// Whether any error was found.
    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }
}

impl Bounded {
    /// A collector keeping at most `max` diagnostics (0: all).
    pub fn new(max: usize) -> Bounded {
        Bounded {
            max,
            ..Bounded::default()
        }
    }

    /// A test aid: without a limit, write a run out every `n` diagnostics
    /// (at least one) rather than every 65,536, so that small inputs take
    /// the path through disk. The diagnostics handed back are the same.
    pub fn spill_every(mut self, n: usize) -> Bounded {
        self.run = n.max(1);
        self
    }

    /// Add a diagnostic.
    pub fn push(&mut self, d: Diagnostic) {
        if d.is_error() {
            self.errors = self.errors.saturating_add(1);
        } else {
            self.warnings = self.warnings.saturating_add(1);
        }
        if self.max == 0 {
            if d.is_error() {
                self.pushed.0 = self.pushed.0.saturating_add(1);
            } else {
                self.pushed.1 = self.pushed.1.saturating_add(1);
            }
            self.all.push(d);
            let run = if self.run == 0 { RUN } else { self.run };
            if self.all.len() >= run && !self.unspillable {
                self.spill_run();
            }
            return;
        }
        let e = Entry(d.span.start, self.seq, d);
        self.seq = self.seq.wrapping_add(1);
        if self.heap.len() < self.max {
            self.heap.push(e);
        } else if self.heap.peek().is_some_and(|top| e < *top) {
            // Replaces the last kept one, which is dropped.
            self.heap.pop();
            self.heap.push(e);
        }
    }

    /// Count `n` errors found but never made into diagnostics (they would
    /// not have been kept).
    pub fn add_unkept_errors(&mut self, n: usize) {
        self.errors = self.errors.saturating_add(n);
    }

    /// Count `errors` and `warnings` found but never kept (see
    /// [`Bounded::add_unkept_errors`]).
    pub fn add_unkept(&mut self, (errors, warnings): (usize, usize)) {
        self.errors = self.errors.saturating_add(errors);
        self.warnings = self.warnings.saturating_add(warnings);
    }

    /// Whether an error was pushed or counted so far.
    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }

    /// The number of diagnostics pushed so far.
    pub fn count(&self) -> usize {
        self.errors.saturating_add(self.warnings)
    }

    /// Without a limit, past [`RUN`] diagnostics held: sort them and write
    /// them out as a run (they stay held if no file can be written).
    fn spill_run(&mut self) {
        if self.spill.is_none() {
            self.spill = Runs::new();
        }
        let Some(runs) = self.spill.as_mut() else {
            self.unspillable = true;
            return;
        };
        // Stable: diagnostics at one offset keep their arrival order.
        self.all.sort_by_key(|d| d.span.start);
        if runs.write(&self.all).is_ok() {
            self.all.clear();
        } else {
            // The failed run is not counted as one (the runs before it are
            // still merged); from here on everything stays in memory.
            self.unspillable = true;
        }
    }

    /// The kept diagnostics in source order, with the counts, all in
    /// memory (see [`Bounded::into_sorted`] to read them one at a time).
    pub fn finish(self) -> Collected {
        let (errors, warnings) = (self.errors, self.warnings);
        let sorted = self.into_sorted();
        Collected {
            diagnostics: sorted.collect(),
            errors,
            warnings,
        }
    }

    /// The kept diagnostics in source order, one at a time: without a
    /// limit, those written out are read back from their runs, so a check
    /// of millions of errors never holds more than a run of them.
    pub fn into_sorted(mut self) -> Sorted {
        let (errors, warnings) = (self.errors, self.warnings);
        if self.max != 0 {
            let kept = self
                .heap
                .into_sorted_vec()
                .into_iter()
                .map(|e| e.2)
                .collect();
            return Sorted::from_sorted(kept, errors, warnings);
        }
        self.all.sort_by_key(|d| d.span.start);
        match self.spill.take() {
            Some(runs) if runs.count() > 0 => {
                Sorted::merged(runs, self.all, self.pushed, errors, warnings)
            }
            _ => Sorted::from_sorted(self.all, errors, warnings),
        }
    }
}

impl Extend<Diagnostic> for Bounded {
    fn extend<I: IntoIterator<Item = Diagnostic>>(&mut self, iter: I) {
        for d in iter {
            self.push(d);
        }
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::diag::Code;
    use crate::Span;

    #[test]
    fn keeps_the_first_in_source_order_and_counts_the_rest() {
        let mut b = Bounded::new(3);
        for (i, at) in [5u32, 1, 9, 1, 7, 0].into_iter().enumerate() {
            let d = if i % 2 == 0 {
                Diagnostic::error(Code::Syntax, Span::at(at), format!("{i}"))
            } else {
                Diagnostic::warning(Code::NotLiteral, Span::at(at), format!("{i}"))
            };
            b.push(d);
        }
        let c = b.finish();
        let kept: Vec<(u32, &str)> = c
            .diagnostics
            .iter()
            .map(|d| (d.span.start, d.message.as_str()))
            .collect();
        // The two at offset 1 stay in arrival order.
        assert_eq!(kept, [(0, "5"), (1, "1"), (1, "3")]);
        assert_eq!((c.errors, c.warnings, c.omitted()), (3, 3, 3));
        assert_eq!((c.omitted_errors(), c.omitted_warnings()), (3, 0));
    }

    /// Past a run of diagnostics, the unlimited collector writes sorted
    /// runs out and merges them back: the same order (by position, then
    /// as found) as sorting them all in memory, across runs and ties.
    #[test]
    fn spilled_runs_merge_back_in_order() {
        let n = 3 * super::RUN + 123;
        let mut b = Bounded::new(0);
        let mut all = Vec::new();
        let mut x = 12345u64;
        for i in 0..n {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Few distinct offsets: many ties, within and across runs.
            let at = ((x >> 33) % 5000) as u32;
            let d = if i % 7 == 0 {
                Diagnostic::warning(Code::NotLiteral, Span::new(at, at + 1), format!("{i}"))
                    .with_note("n")
            } else {
                Diagnostic::error(Code::Syntax, Span::at(at), format!("{i}"))
                    .with_label(Span::at(1), "l")
            };
            all.push(d.clone());
            b.push(d);
        }
        assert!(b.spill.as_ref().is_some_and(|r| r.count() == 3));
        all.sort_by_key(|d| d.span.start);
        let sorted = b.into_sorted();
        assert_eq!(
            (sorted.errors + sorted.warnings, sorted.omitted_errors()),
            (n, 0)
        );
        let got: Vec<Diagnostic> = sorted.collect();
        assert_eq!(got.len(), n);
        assert!(got == all, "merged order differs from the sorted order");
    }

    #[test]
    fn zero_keeps_everything() {
        let mut b = Bounded::new(0);
        b.extend(
            (0..1000u32)
                .rev()
                .map(|i| Diagnostic::error(Code::Syntax, Span::at(i), "x")),
        );
        let c = b.finish();
        assert_eq!(c.diagnostics.len(), 1000);
        assert_eq!(c.omitted(), 0);
        assert!(c
            .diagnostics
            .windows(2)
            .all(|w| w[0].span.start <= w[1].span.start));
    }
}
