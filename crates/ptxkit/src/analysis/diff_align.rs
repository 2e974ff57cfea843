//! The alignment behind `ptx diff`'s line diff, with bounded work.
//!
//! Myers' algorithm costs O((N + M) · D) for two sequences of N and M
//! lines that need D insertions and deletions: linear when the bodies are
//! alike, quadratic when they are not (two unrelated 20,000-line bodies
//! took 10 s). So the edit distance of the part between the common prefix
//! and suffix is measured first, giving up past [`MAX_EDITS`]; only when it
//! is within the bound is the full alignment computed. Past it the whole
//! middle is shown as replaced: a coarser diff, still correct.

use rustc_hash::FxHashMap;
use similar::{capture_diff_slices, Algorithm, DiffOp};

/// The most insertions plus deletions a line diff is computed for; bodies
/// that differ more are shown as one replaced run between their common
/// prefix and suffix.
pub const MAX_EDITS: usize = 1024;

/// The edit script turning `a` into `b`: Myers' alignment when the two
/// differ by at most [`MAX_EDITS`] lines, else the common prefix, one
/// replaced run and the common suffix. Work O((N + M) · `MAX_EDITS`).
pub fn align(a: &[&str], b: &[&str]) -> Vec<DiffOp> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (
        a.get(prefix..).unwrap_or(&[]),
        b.get(prefix..).unwrap_or(&[]),
    );
    let suffix = ra
        .iter()
        .rev()
        .zip(rb.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let ma = ra.get(..ra.len().saturating_sub(suffix)).unwrap_or(&[]);
    let mb = rb.get(..rb.len().saturating_sub(suffix)).unwrap_or(&[]);
    if within(ma, mb, MAX_EDITS) {
        return capture_diff_slices(Algorithm::Myers, a, b);
    }
    let mut ops = Vec::with_capacity(3);
    if prefix > 0 {
        ops.push(DiffOp::Equal {
            old_index: 0,
            new_index: 0,
            len: prefix,
        });
    }
    // Neither side is empty here: an empty side is within any bound.
    ops.push(DiffOp::Replace {
        old_index: prefix,
        old_len: ma.len(),
        new_index: prefix,
        new_len: mb.len(),
    });
    if suffix > 0 {
        ops.push(DiffOp::Equal {
            old_index: prefix.saturating_add(ma.len()),
            new_index: prefix.saturating_add(mb.len()),
            len: suffix,
        });
    }
    ops
}

/// Whether `a` turns into `b` with at most `max` insertions and deletions
/// (Myers' greedy forward search, stopped at `max`; lines compared as
/// numbers).
fn within<'s>(a: &[&'s str], b: &[&'s str], max: usize) -> bool {
    if a.len().saturating_add(b.len()) <= max {
        return true;
    }
    let mut ids: FxHashMap<&'s str, u32> = FxHashMap::default();
    let mut id = |s: &'s str| {
        let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
        *ids.entry(s).or_insert(next)
    };
    let a: Vec<u32> = a.iter().map(|&s| id(s)).collect();
    let b: Vec<u32> = b.iter().map(|&s| id(s)).collect();
    // `v[max + 1 + k]`: the furthest x reached on diagonal k = x − y.
    let width = max.saturating_mul(2).saturating_add(3);
    let mut v = vec![0usize; width];
    let off = max.saturating_add(1);
    for d in 0..=max {
        let mut slot = off.saturating_sub(d);
        for step in 0..=d {
            // k = 2·step − d, stored at `slot` = off + k.
            let down = v.get(slot.saturating_add(1)).copied().unwrap_or(0);
            let right = v.get(slot.saturating_sub(1)).copied().unwrap_or(0);
            let mut x = if step == 0 || (step != d && right < down) {
                down
            } else {
                right.saturating_add(1)
            };
            // y = x − k = x + off − slot.
            let Some(mut y) = x.saturating_add(off).checked_sub(slot) else {
                slot = slot.saturating_add(2);
                continue;
            };
            while let (Some(p), Some(q)) = (a.get(x), b.get(y)) {
                if p != q {
                    break;
                }
                x = x.saturating_add(1);
                y = y.saturating_add(1);
            }
            if let Some(s) = v.get_mut(slot) {
                *s = x;
            }
            if x >= a.len() && y >= b.len() {
                return true;
            }
            slot = slot.saturating_add(2);
        }
    }
    false
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn distance_within(a: &str, b: &str, max: usize) -> bool {
        let a: Vec<&str> = a.split(' ').filter(|s| !s.is_empty()).collect();
        let b: Vec<&str> = b.split(' ').filter(|s| !s.is_empty()).collect();
        within(&a, &b, max)
    }

    #[test]
    fn edit_distance_bound() {
        // a b c d e f g → a x c d f g y: delete b, e; insert x, y = 4.
        let (a, b) = ("a b c d e f g", "a x c d f g y");
        assert!(distance_within(a, b, 4));
        assert!(!distance_within(a, b, 3));
        assert!(distance_within("a b", "a b", 0));
        assert!(!distance_within("a", "b", 1));
        assert!(distance_within("a", "b", 2));
        assert!(distance_within("", "a b c", 3));
    }

    #[test]
    fn unrelated_bodies_are_one_replaced_run() {
        let a: Vec<String> = (0..3000).map(|i| format!("a{i}")).collect();
        let b: Vec<String> = (0..3000).map(|i| format!("b{i}")).collect();
        let mut a: Vec<&str> = a.iter().map(String::as_str).collect();
        let mut b: Vec<&str> = b.iter().map(String::as_str).collect();
        a.insert(0, "same");
        b.insert(0, "same");
        a.push("end");
        b.push("end");
        let ops = align(&a, &b);
        assert_eq!(ops.len(), 3, "{ops:?}");
        assert!(matches!(
            ops[1],
            DiffOp::Replace {
                old_index: 1,
                old_len: 3000,
                new_index: 1,
                new_len: 3000
            }
        ));
        // Close bodies get the exact alignment.
        let mut c = a.clone();
        c.remove(5);
        c.insert(100, "new");
        let ops = align(&a, &c);
        assert_eq!(ops, capture_diff_slices(Algorithm::Myers, &a, &c));
    }
}
