//! Work on many files on all cores, results handed over in the files'
//! order, with at most a window of finished results waiting for an earlier
//! one. Collecting every report first (what `ptx check DIR` did) held all
//! of their diagnostics at once: 5,000 files of 100 errors each, 171 MB
//! for 14.5 MB of input.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex};

/// How many results may be finished ahead of the first one not yet handed
/// over (so held at once), beyond one per thread.
pub const WINDOW: usize = 64;

/// `f` of each item, on all cores, given to `sink` in the items' order. No
/// item is started more than [`WINDOW`] places after the first result not
/// yet given to `sink`, so at most about that many results are held.
pub fn map_in_order<T, R, F, S>(items: &[T], f: F, mut sink: S)
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync,
    S: FnMut(R),
{
    let threads = rayon::current_num_threads().clamp(1, items.len().max(1));
    if threads == 1 {
        items.iter().map(&f).for_each(sink);
        return;
    }
    let next = AtomicUsize::new(0);
    // Set when a worker or `sink` panics, so that the workers stop waiting
    // for a result that will not come or a window that will not move (the
    // panic then reaches the caller).
    let stop = AtomicBool::new(false);
    // The index of the first result not yet handed to `sink`.
    let done = Mutex::new(0usize);
    let moved = Condvar::new();
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (f, next, done, moved, stop) = (&f, &next, &done, &moved, &stop);
            scope.spawn(move || {
                let _wake = WakeOnPanic { stop, done, moved };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else {
                        return;
                    };
                    // Wait while the results before it are too far behind.
                    let mut d = done.lock().unwrap_or_else(|e| e.into_inner());
                    while i >= d.saturating_add(WINDOW) && !stop.load(Ordering::Relaxed) {
                        d = moved.wait(d).unwrap_or_else(|e| e.into_inner());
                    }
                    drop(d);
                    if stop.load(Ordering::Relaxed) || tx.send((i, f(item))).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let _wake = WakeOnPanic {
            stop: &stop,
            done: &done,
            moved: &moved,
        };
        let mut waiting: BTreeMap<usize, R> = BTreeMap::new();
        let mut first = 0usize;
        for (i, r) in rx {
            waiting.insert(i, r);
            while let Some(r) = waiting.remove(&first) {
                sink(r);
                first = first.saturating_add(1);
                *done.lock().unwrap_or_else(|e| e.into_inner()) = first;
                moved.notify_all();
            }
        }
    });
}

/// Wakes the waiting workers when its thread (a worker, or the one handing
/// results to `sink`) unwinds from a panic.
struct WakeOnPanic<'a> {
    stop: &'a AtomicBool,
    done: &'a Mutex<usize>,
    moved: &'a Condvar,
}

impl Drop for WakeOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.stop.store(true, Ordering::Relaxed);
            let _d = self.done.lock().unwrap_or_else(|e| e.into_inner());
            self.moved.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Results come in order, and no more than the window (plus one a
    /// thread) are finished ahead of the one handed over, however uneven
    /// the items' costs.
    #[test]
    fn in_order_within_the_window() {
        let items: Vec<usize> = (0..2_000).collect();
        let ahead = AtomicUsize::new(0);
        let handed = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let mut got = Vec::new();
        map_in_order(
            &items,
            |&i| {
                if i % 500 == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                let now = ahead.fetch_add(1, Ordering::SeqCst) + 1;
                let behind = now.saturating_sub(handed.load(Ordering::SeqCst));
                most.fetch_max(behind, Ordering::SeqCst);
                i
            },
            |r| {
                handed.fetch_add(1, Ordering::SeqCst);
                got.push(r);
            },
        );
        assert_eq!(got, items);
        let threads = rayon::current_num_threads();
        assert!(
            most.load(Ordering::SeqCst) <= WINDOW + threads,
            "{} finished ahead",
            most.load(Ordering::SeqCst)
        );
    }

    /// A panic in the work reaches the caller instead of leaving the other
    /// workers waiting for its result.
    #[test]
    fn a_panic_is_not_a_hang() {
        let items: Vec<usize> = (0..1_000).collect();
        let r = std::panic::catch_unwind(|| {
            map_in_order(
                &items,
                |&i| {
                    assert!(i != 3, "item 3");
                    i
                },
                |_| std::thread::sleep(std::time::Duration::from_micros(10)),
            );
        });
        assert!(r.is_err());
    }

    /// The same when `sink` panics while workers wait for the window.
    #[test]
    fn a_panic_in_the_sink_is_not_a_hang() {
        let items: Vec<usize> = (0..1_000).collect();
        let r = std::panic::catch_unwind(|| {
            map_in_order(&items, |&i| i, |i| assert!(i != 3, "result 3"));
        });
        assert!(r.is_err());
    }

    #[test]
    fn no_items_and_one_item() {
        let mut got: Vec<u8> = Vec::new();
        map_in_order(&[] as &[u8], |&x| x, |r| got.push(r));
        assert!(got.is_empty());
        map_in_order(&[7u8], |&x| x + 1, |r| got.push(r));
        assert_eq!(got, [8]);
    }
}
