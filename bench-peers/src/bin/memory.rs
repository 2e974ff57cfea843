//! `memory [FILES|DIRS]`: the heap each parser asks for while it parses
//! one file (its peak) and what its tree still holds when handed back, for
//! ptxkit and each peer, file by file. Default input: the Kokkos module the
//! speed issue names, then the three largest ptxas-accepted corpus files.
//!
//! Bytes are those requested from the allocator (its own bookkeeping and
//! the source text are not counted), by a counting allocator that only this
//! binary installs, so that the timing binary runs on the plain one. Each
//! parse runs on a new thread, so per-thread caches start empty and count;
//! ptxkit's process-wide name interner counts as far as the parse grows it.

use std::path::{Path, PathBuf};

#[path = "../../../crates/ptxkit/tests/common/counting.rs"]
mod counting;
#[path = "../../../xtask/src/inputs.rs"]
#[allow(dead_code)]
mod inputs;
#[path = "../peers.rs"]
mod peers;

#[global_allocator]
static ALLOC: counting::Counting = counting::Counting;

/// What one parse of one file used.
#[derive(Clone, Copy)]
struct Use {
    /// The most heap held at once during the parse.
    peak: usize,
    /// Heap held by the tree (and anything else the parse kept) once it
    /// was handed back.
    kept: usize,
}

/// Run `parse` on `src` on a new thread and count its heap; `None` if it
/// gives no tree.
fn measure<T>(src: &[u8], parse: fn(&[u8]) -> Result<T, &'static str>) -> Option<Use> {
    std::thread::scope(|s| {
        // The peers' parser combinators recurse deeply: give them room.
        let worker = std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(s, move || {
                let (kept, peak, tree) = counting::measure(|| parse(src));
                let ok = tree.is_ok();
                drop(tree);
                ok.then_some(Use { peak, kept })
            });
        worker.ok().and_then(|w| w.join().ok()).flatten()
    })
}

/// ptxkit's tree of `src` (always one; errors, if any, are inside it).
fn ptxkit_parse(src: &[u8]) -> Result<ptxkit::Parsed, &'static str> {
    Ok(ptxkit::parse(src))
}

/// The default files: the Kokkos module, then the three largest accepted
/// corpus files.
fn default_files(root: &Path) -> Vec<PathBuf> {
    let corpus = root.join("../shared/corpus");
    let mut out = vec![corpus.join(inputs::KOKKOS)];
    let mut all: Vec<(u64, PathBuf)> = inputs::default_inputs(root)
        .into_iter()
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.len(), p)))
        .collect();
    all.sort_by_key(|f| std::cmp::Reverse(f.0));
    out.extend(all.into_iter().take(3).map(|(_, p)| p));
    out
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = Vec::new();
    for a in std::env::args().skip(1) {
        inputs::collect(Path::new(&a), &mut paths);
    }
    if paths.is_empty() {
        paths = default_files(&root);
    }
    let files = inputs::read_all(paths);
    if files.is_empty() {
        eprintln!("no input files (is ../shared/corpus there?)");
        std::process::exit(2);
    }
    // Quiet the peers' panic messages.
    std::panic::set_hook(Box::new(|_| {}));
    let mb = |n: usize| n as f64 / 1e6;
    println!(
        "{:<28} {:>8}  {:>22}  {:>22}",
        "parser", "file MB", "peak heap MB (x file)", "tree kept MB (x file)"
    );
    for (path, src) in &files {
        println!("{}", inputs::file_name(path));
        let rows = [
            ("ptxkit", measure(src, ptxkit_parse)),
            (peers::PTX_SYNTAX, measure(src, peers::ptx_syntax)),
            (peers::SINGE_PTX, measure(src, peers::singe_ptx)),
        ];
        let size = src.len().max(1);
        for (name, u) in rows {
            match u {
                Some(u) => println!(
                    "  {:<26} {:>8.2}  {:>12.2} ({:>6.1}x)  {:>12.2} ({:>6.1}x)",
                    name,
                    mb(src.len()),
                    mb(u.peak),
                    u.peak as f64 / size as f64,
                    mb(u.kept),
                    u.kept as f64 / size as f64,
                ),
                None => println!("  {name:<26} {:>8.2}  fails on this file", mb(src.len())),
            }
        }
    }
}
