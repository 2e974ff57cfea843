//! `--per-file`: each file both parsers read, timed alone, and how the
//! ratio between them spreads over the input. A total can hide that the
//! gap is wide on some kinds of module and narrow on others; this shows
//! where a faster ptxkit would move the total most.

use std::path::Path;
use std::time::Duration;

use crate::inputs::{best_run, byte_quantile, file_name, PER_FILE_MIN};

/// Each file's parse is repeated at least this long (and three times),
/// per parser, and its best run kept.
const MIN_PER_FILE: Duration = Duration::from_millis(2);

struct Row<'a> {
    path: &'a Path,
    bytes: usize,
    ptxkit: f64,
    peer: f64,
}

impl Row<'_> {
    fn ratio(&self) -> f64 {
        self.peer / self.ptxkit.max(1e-12)
    }
}

/// Time both parsers on each of `files` alone and print the spread of the
/// ratio: byte-weighted percentiles, the files and time in each band, and
/// the files of at least [`PER_FILE_MIN`] bytes where the gap is narrowest and widest.
pub fn report<T, U>(
    files: &[(&Path, &[u8])],
    mut ptxkit: impl FnMut(&[u8]) -> T,
    mut peer: impl FnMut(&[u8]) -> U,
) {
    let mut rows: Vec<Row> = files
        .iter()
        .map(|&(path, src)| Row {
            path,
            bytes: src.len(),
            ptxkit: best_run(MIN_PER_FILE, src, &mut ptxkit),
            peer: best_run(MIN_PER_FILE, src, &mut peer),
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    rows.sort_by(|a, b| a.ratio().total_cmp(&b.ratio()));
    let sum = |f: fn(&Row) -> f64, rs: &[&Row]| rs.iter().map(|r| f(r)).sum::<f64>();
    let all: Vec<&Row> = rows.iter().collect();
    let (k, p) = (sum(|r| r.ptxkit, &all), sum(|r| r.peer, &all));
    let weighted: Vec<(usize, f64)> = rows.iter().map(|r| (r.bytes, r.ratio())).collect();
    let at = |q: f64| byte_quantile(&weighted, q);
    println!(
        "per file (each alone and warm, best run, tree in hand, one core): {} files; \
         sums {:.1} ms against {:.0} ms, {:.0}x; ratio by bytes p10 {:.0}x, p50 {:.0}x, p90 {:.0}x",
        rows.len(),
        k * 1e3,
        p * 1e3,
        p / k.max(1e-12),
        at(0.1),
        at(0.5),
        at(0.9)
    );
    println!(
        "  {:<12} {:>6} {:>8} {:>12} {:>12}",
        "ratio", "files", "MB", "ptxkit ms", "peer ms"
    );
    let bands = [0.0, 30.0, 50.0, 70.0, 100.0, 150.0, f64::INFINITY];
    for w in bands.windows(2) {
        let (lo, hi) = (w[0], w[1]);
        let band: Vec<&Row> = rows
            .iter()
            .filter(|r| r.ratio() >= lo && r.ratio() < hi)
            .collect();
        if band.is_empty() {
            continue;
        }
        let label = if hi.is_finite() {
            format!("{lo:.0}-{hi:.0}x")
        } else {
            format!(">= {lo:.0}x")
        };
        println!(
            "  {:<12} {:>6} {:>8.1} {:>12.1} {:>12.0}",
            label,
            band.len(),
            band.iter().map(|r| r.bytes).sum::<usize>() as f64 / 1e6,
            sum(|r| r.ptxkit, &band) * 1e3,
            sum(|r| r.peer, &band) * 1e3
        );
    }
    let listed: Vec<&Row> = rows.iter().filter(|r| r.bytes >= PER_FILE_MIN).collect();
    let show = |label: &str, r: &Row| {
        let name = file_name(r.path);
        println!(
            "  {label} {:>5.0}x {:>9} B  ptxkit {:>6.0} MB/s  peer {:>5.2} MB/s  {name}",
            r.ratio(),
            r.bytes,
            r.bytes as f64 / 1e6 / r.ptxkit.max(1e-12),
            r.bytes as f64 / 1e6 / r.peer.max(1e-12),
        );
    };
    for r in listed.iter().take(5) {
        show("narrowest", r);
    }
    for r in listed.iter().rev().take(5) {
        show("widest   ", r);
    }
}
