//! Developer tasks: `cargo run -p xtask -- <task>`.
// A developer tool reading the repository's own files: failing loudly is
// its error report, so the workspace's no-panic lints do not apply.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod bench;
mod bench_json;
mod bench_scan;
mod catalog;
mod catalog_check;
mod cli;
mod diag_docs;
mod dist;
mod inputs;
mod layout;
mod mutants;
mod ptxas_roundtrip;
mod section_titles;
mod sweep;
mod synth;
mod test_all;
mod vs_ptxas;

use std::path::PathBuf;

/// The allocator of the `ptx` binary, so that `xtask bench` measures what
/// `ptx check` does.
#[global_allocator]
static ALLOC: ptx_alloc::Mimalloc = ptx_alloc::Mimalloc;

fn main() {
    use clap::Parser;
    use cli::Task;
    // The repository root: every task reads or writes relative to it.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let status = match cli::Cli::parse().task {
        Task::SectionTitles(a) => section_titles::run(
            &root,
            &a.spec.unwrap_or_else(|| root.join("../shared/spec")),
        ),
        Task::CatalogGen => catalog_gen(&root.join("crates/ptxkit/src/isa/generated.rs")),
        Task::DiagnosticsGen => diag_docs::write(&root),
        Task::CatalogCheck(a) => catalog_check::run(a.opts(&root)),
        Task::Bench(a) => {
            inputs::heap_like_ptx();
            bench::run(&root, a.opts())
        }
        Task::BenchScan(a) => bench_scan::run(&a.paths, a.runs),
        Task::Test(a) => test_all::main(&root, &a.only, &a.cargo_args),
        Task::Layout(l) => layout::run(&root, l.check),
        Task::Dist => match dist::build(&root, false) {
            Some(p) => {
                println!("{}", p.display());
                0
            }
            None => 1,
        },
        Task::Mutants(a) => {
            let jobs = a.jobs.unwrap_or_else(cli::cores);
            mutants::run(&root, a.count, a.seed, jobs, &a.dirs)
        }
        Task::Sweep(a) => sweep::run(&root, a.opts()),
        Task::PtxasRoundtrip(a) => ptxas_roundtrip::run(
            a.shared.unwrap_or_else(|| root.join("../shared")),
            a.jobs.unwrap_or_else(cli::cores),
            a.limit,
        ),
    };
    std::process::exit(status)
}

/// `xtask catalog-gen`: write the built-in catalog tables (static data) from
/// the `.ptxisa` files compiled into this binary.
fn catalog_gen(out: &std::path::Path) -> i32 {
    let cat = catalog::Loaded::from_sources(catalog::SOURCES);
    if !cat.errors().is_empty() {
        for e in cat.errors() {
            eprintln!("{e}");
        }
        return 1;
    }
    let text = catalog::render_tables(&cat.tables());
    match std::fs::write(out, &text) {
        Ok(()) => {
            println!("wrote {} ({} bytes)", out.display(), text.len());
            0
        }
        Err(e) => {
            eprintln!("{}: {e}", out.display());
            1
        }
    }
}
