//! Developer tasks: `cargo run -p xtask -- <task>`.

mod bench;
mod bench_json;
mod catalog_check;
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
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn usage() -> ! {
    eprintln!(
        "usage: xtask catalog-gen\n       xtask section-titles [--spec DIR]\n       xtask catalog-check [--dir DIR] [--spec DIR] [--file NAME.ptxisa] [--line 'INSTR;']... [-v] [--corpus]\n       xtask ptxas-roundtrip [--shared DIR] [--jobs N] [--limit N]\n       xtask bench [--seconds S] [--no-split|--split-only] [--no-ptxas|--ptxas-only] [--ptxas-file F] [--write-big FILE] [--per-file] [--stage WORD] [FILES|DIRS]...\n       xtask mutants [--count N] [--seed S] [--jobs N] [--dir DIR]...\n       xtask sweep [--record] [--limit N] [--jobs N] [--only OPCODE] [--seed S] [--batch N] [--combos N] [--mutate N] [--fresh] [--targets LIST | --also-targets LIST] [--version V | --versions LIST]\n       xtask dist\n       xtask layout\n       xtask test [--only rust|python|editor]... [-- CARGO_TEST_ARGS]"
    );
    std::process::exit(2)
}

fn main() {
    // The repository root: every task reads or writes relative to it.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut args = std::env::args().skip(1);
    match args.next().as_deref() {
        Some("section-titles") => {
            let spec = match (args.next().as_deref(), args.next()) {
                (Some("--spec"), Some(d)) => PathBuf::from(d),
                _ => root.join("../shared/spec"),
            };
            std::process::exit(section_titles::run(&root, &spec))
        }
        Some("catalog-gen") => std::process::exit(catalog_gen(
            &root.join("crates/ptxkit/src/isa/generated.rs"),
        )),
        Some("catalog-check") => {
            let mut o = catalog_check::Opts {
                dir: root.join("crates/ptxkit/isa"),
                spec: root.join("../shared/spec"),
                only_file: None,
                lines: Vec::new(),
                verbose: false,
                corpus: false,
            };
            while let Some(a) = args.next() {
                match a.as_str() {
                    "--dir" => o.dir = args.next().map(PathBuf::from).unwrap_or_else(|| usage()),
                    "--spec" => o.spec = args.next().map(PathBuf::from).unwrap_or_else(|| usage()),
                    "--file" => o.only_file = Some(args.next().unwrap_or_else(|| usage())),
                    "--line" => o.lines.push(args.next().unwrap_or_else(|| usage())),
                    "-v" => o.verbose = true,
                    "--corpus" => o.corpus = true,
                    _ => usage(),
                }
            }
            std::process::exit(catalog_check::run(o));
        }
        Some("bench") => {
            inputs::heap_like_ptx();
            let mut o = bench::Opts {
                paths: Vec::new(),
                seconds: 2.0,
                no_split: false,
                split_only: false,
                write_big: None,
                ptxas: true,
                ptxas_only: false,
                ptxas_file: None,
                per_file: false,
                stage: None,
            };
            while let Some(a) = args.next() {
                match a.as_str() {
                    "--seconds" => {
                        o.seconds = args
                            .next()
                            .and_then(|s| s.parse().ok())
                            .unwrap_or_else(|| usage())
                    }
                    "--no-split" => o.no_split = true,
                    "--split-only" => o.split_only = true,
                    "--no-ptxas" => o.ptxas = false,
                    "--per-file" => o.per_file = true,
                    "--stage" => o.stage = Some(args.next().unwrap_or_else(|| usage())),
                    "--ptxas-only" => o.ptxas_only = true,
                    "--ptxas-file" => {
                        o.ptxas_file =
                            Some(args.next().map(PathBuf::from).unwrap_or_else(|| usage()))
                    }
                    "--write-big" => {
                        o.write_big =
                            Some(args.next().map(PathBuf::from).unwrap_or_else(|| usage()))
                    }
                    _ => o.paths.push(a),
                }
            }
            std::process::exit(bench::run(&root, o));
        }
        Some("test") => {
            let mut only = Vec::new();
            let mut cargo_args = Vec::new();
            while let Some(a) = args.next() {
                match a.as_str() {
                    "--only" => only.push(args.next().unwrap_or_else(|| usage())),
                    "--" => cargo_args.extend(args.by_ref()),
                    _ => usage(),
                }
            }
            std::process::exit(test_all::main(&root, &only, &cargo_args))
        }
        Some("layout") => std::process::exit(layout::run(&root)),
        Some("dist") => match dist::build(&root, false) {
            Some(p) => println!("{}", p.display()),
            None => std::process::exit(1),
        },
        Some("mutants") => {
            let (mut count, mut seed) = (1000usize, 1u64);
            let mut dirs: Vec<std::path::PathBuf> = Vec::new();
            let mut jobs = std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2);
            while let Some(a) = args.next() {
                match a.as_str() {
                    "--count" => {
                        count = args
                            .next()
                            .and_then(|s| s.parse().ok())
                            .unwrap_or_else(|| usage())
                    }
                    "--seed" => {
                        seed = args
                            .next()
                            .and_then(|s| s.parse().ok())
                            .unwrap_or_else(|| usage())
                    }
                    "--jobs" => {
                        jobs = args
                            .next()
                            .and_then(|s| s.parse().ok())
                            .unwrap_or_else(|| usage())
                    }
                    "--dir" => dirs.push(args.next().unwrap_or_else(|| usage()).into()),
                    _ => usage(),
                }
            }
            std::process::exit(mutants::run(&root, count, seed, jobs, &dirs));
        }
        Some("sweep") => {
            let mut o = sweep::Opts {
                record: false,
                limit: None,
                jobs: std::thread::available_parallelism()
                    .map(|n| n.get())
                    .unwrap_or(2),
                only: None,
                seed: 1,
                batch: 1000,
                combos: 40,
                mutate: 3,
                fresh: false,
                targets: None,
                versions: Vec::new(),
                also_targets: None,
            };
            let num = |args: &mut std::iter::Skip<std::env::Args>| -> usize {
                args.next()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or_else(|| usage())
            };
            while let Some(a) = args.next() {
                match a.as_str() {
                    "--record" => o.record = true,
                    "--limit" => o.limit = Some(num(&mut args)),
                    "--jobs" => o.jobs = num(&mut args),
                    "--only" => o.only = Some(args.next().unwrap_or_else(|| usage())),
                    "--seed" => o.seed = num(&mut args) as u64,
                    "--batch" => o.batch = num(&mut args),
                    "--combos" => o.combos = num(&mut args),
                    "--mutate" => o.mutate = num(&mut args),
                    "--fresh" => o.fresh = true,
                    "--targets" => o.targets = Some(args.next().unwrap_or_else(|| usage())),
                    "--also-targets" => {
                        o.also_targets = Some(args.next().unwrap_or_else(|| usage()))
                    }
                    "--version" | "--versions" => o.versions.extend(
                        args.next()
                            .unwrap_or_else(|| usage())
                            .split(',')
                            .map(str::to_string),
                    ),
                    _ => usage(),
                }
            }
            std::process::exit(sweep::run(&root, o));
        }
        Some("ptxas-roundtrip") => {
            let mut shared = root.join("../shared");
            let mut jobs = std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2);
            let mut limit = None;
            while let Some(a) = args.next() {
                match a.as_str() {
                    "--shared" => {
                        shared = args.next().map(PathBuf::from).unwrap_or_else(|| usage())
                    }
                    "--jobs" => {
                        jobs = args
                            .next()
                            .and_then(|j| j.parse().ok())
                            .unwrap_or_else(|| usage())
                    }
                    "--limit" => limit = args.next().and_then(|j| j.parse().ok()),
                    _ => usage(),
                }
            }
            std::process::exit(ptxas_roundtrip::run(shared, jobs, limit));
        }
        _ => usage(),
    }
}

/// `xtask catalog-gen`: write the built-in catalog tables (static data) from
/// the `.ptxisa` files compiled into this binary.
fn catalog_gen(out: &std::path::Path) -> i32 {
    let cat = ptxkit::isa::Catalog::from_sources(ptxkit::isa::SOURCES);
    if !cat.errors().is_empty() {
        for e in cat.errors() {
            eprintln!("{e}");
        }
        return 1;
    }
    let text = ptxkit::isa::render_tables(&cat.tables());
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
