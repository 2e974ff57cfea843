//! Memory budgets: the heap a parsed tree holds, and the peak heap of a
//! streamed check, per byte of source. A counting allocator measures them.

mod common;

use common::examples;
#[path = "common/counting.rs"]
mod counting;

use counting::{measure, Counting};
use std::sync::Mutex;

#[global_allocator]
static A: Counting = Counting;

/// The counters are process-wide: one test at a time, each holding this
/// from its first line, since any allocation of another test (building its
/// input, say) counts in a measurement.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

#[test]
fn tree_and_check_memory_per_source_byte() {
    let _one = ONE_AT_A_TIME.lock();
    let ex = examples();
    // Warm up: the catalog and the interned names are loaded once per process.
    for (_, src) in &ex {
        drop(ptxkit::parse(src));
    }
    let mut src_bytes = 0;
    let mut tree = 0;
    let mut check_peak = 0;
    for (name, src) in &ex {
        let (held, _, parsed) = measure(|| ptxkit::parse(src));
        drop(parsed);
        let (_, peak, diags) = measure(|| ptxkit::syntax_check(src));
        drop(diags);
        eprintln!(
            "{name}: {} bytes, tree {:.1}x, check peak {:.1}x",
            src.len(),
            held as f64 / src.len() as f64,
            peak as f64 / src.len() as f64
        );
        src_bytes += src.len();
        tree += held;
        check_peak = check_peak.max(peak);
    }
    let ratio = tree as f64 / src_bytes as f64;
    eprintln!("all: tree {ratio:.1}x the source; largest check peak {check_peak} bytes");
    // Budgets with some headroom over today's figures (6.6x; 270 KB). The
    // tree's size is also its parse time: writing it is much of the work.
    assert!(ratio < 8.0, "the tree is {ratio:.1}x the source");
    assert!(check_peak < 400_000 * 5 / 4, "check peak {check_peak}");
}

/// The corpus's largest many-function file (a 994 KB Kokkos module): the
/// streamed check must not hold the tree. Skips without ../shared.
#[test]
#[cfg_attr(
    ptxkit_no_shared,
    ignore = "needs ../shared (the PTX corpus, ISA text and NVIDIA tools); absent when built"
)]
fn streamed_check_of_a_large_module() {
    // First, before this test allocates anything (reading the file too):
    // another test may be measuring.
    let _one = ONE_AT_A_TIME.lock();
    let path = common::shared_dir().map(|d| d.join("corpus").join(common::files::KOKKOS));
    let Some(src) = path.and_then(|p| std::fs::read(p).ok()) else {
        eprintln!("note: ../shared/corpus not found; large-module memory test skipped");
        return;
    };
    drop(ptxkit::parse(&src));
    let (tree, _, parsed) = measure(|| ptxkit::parse(&src));
    drop(parsed);
    let (_, peak, diags) = measure(|| ptxkit::syntax_check(&src));
    assert!(diags.is_empty());
    let (n, t, p) = (src.len() as f64, tree as f64, peak as f64);
    eprintln!(
        "{} bytes: tree {:.1}x, streamed check peak {:.2}x the source",
        src.len(),
        t / n,
        p / n
    );
    assert!(
        p < 2.0 * n,
        "streamed check peak is {:.2}x the source",
        p / n
    );
    // 8.1x today.
    assert!(t < 9.5 * n, "the tree is {:.1}x the source", t / n);
}

/// One function of about 2 MB: the full check (`check_source`, `ptx
/// check`'s path) reads it piece by piece and holds one statement of the
/// tree at a time, so its peak heap is a small part of the source, while
/// the function's tree alone is many times the source.
#[test]
fn full_check_of_one_large_function() {
    // First, before the 2 MB source is built: its growing string would
    // otherwise count in another test's measurement.
    let _one = ONE_AT_A_TIME.lock();
    let mut s = String::from(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<100>;\n\t.reg .b64 %rd<3>;\n\
         \tld.param.u64 %rd1, [p];\n",
    );
    for i in 0..80_000 {
        s.push_str(&format!(
            "\tadd.s32 %r{}, %r{}, {i};\n",
            i % 100,
            (i + 1) % 100
        ));
    }
    s.push_str("\tbra L_end;\nL_end:\n\tret;\n}\n");
    let src = s.as_bytes();
    let opts = ptxkit::check::CheckOptions::default();
    // Warm up: the catalog and the checker's tables are built once.
    drop(ptxkit::check::check_source(
        &src[..src.len().min(4096)],
        &opts,
    ));
    let (tree, _, parsed) = measure(|| ptxkit::parse(src));
    drop(parsed);
    let (_, peak, diags) = measure(|| ptxkit::check::check_source(src, &opts));
    assert!(diags.is_empty(), "{diags:?}");
    let (n, t, p) = (src.len() as f64, tree as f64, peak as f64);
    eprintln!(
        "one function of {} bytes: tree {:.1}x, full check peak {:.3}x the source ({peak} bytes)",
        src.len(),
        t / n,
        p / n
    );
    assert!(t > 5.0 * n, "the tree should dwarf the source");
    assert!(p < 0.02 * n, "full check peak is {:.3}x the source", p / n);
}
