//! Developer tasks: `cargo run -p xtask -- <task>`.

mod catalog_check;

use std::path::PathBuf;

fn usage() -> ! {
    eprintln!(
        "usage: xtask catalog-check [--dir DIR] [--spec DIR] [--file NAME.ptxisa] [--line 'INSTR;']... [-v] [--corpus]"
    );
    std::process::exit(2)
}

fn main() {
    let mut args = std::env::args().skip(1);
    match args.next().as_deref() {
        Some("catalog-check") => {
            let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
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
        _ => usage(),
    }
}
