//! xtask's command line (clap derive, like the `ptx` CLI's): one variant
//! per task, each option spelled as the docs show it. Each task's options
//! become the `Opts` of its module.

use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand};

/// Developer tasks of the ptxkit workspace: `cargo run -p xtask -- <task>`.
#[derive(Parser)]
#[command(name = "xtask")]
pub struct Cli {
    #[command(subcommand)]
    pub task: Task,
}

/// The tasks.
#[derive(Subcommand)]
pub enum Task {
    /// Write the catalog tables (crates/ptxkit/src/isa/generated.rs) from
    /// the .ptxisa files.
    CatalogGen,
    /// Write the ISA sections' titles (crates/ptxkit/isa/sections.tsv)
    /// from the spec.
    SectionTitles(SectionTitles),
    /// Write the list of diagnostic codes in docs/diagnostics.md from the
    /// registry.
    DiagnosticsGen,
    /// Load the catalog files from disk, report format errors, and try
    /// the spec's example instructions against the forms.
    CatalogCheck(CatalogCheck),
    /// Print each ptxas-accepted corpus file canonically and ask ptxas
    /// whether it still accepts it.
    PtxasRoundtrip(PtxasRoundtrip),
    /// Throughput of each stage on one core, and `ptx check` against
    /// ptxas (docs/performance.md).
    Bench(Bench),
    /// How fast `ptx compat` scans binaries, wheels and environments
    /// (docs/binaries.md).
    BenchScan(BenchScan),
    /// Mutate ptxas-accepted PTX and compare `ptx check`'s verdict and
    /// error line with ptxas's on each mutant.
    Mutants(Mutants),
    /// Instances generated from the catalog, asked of ptxas
    /// (docs/sweep.md).
    Sweep(Sweep),
    /// The `ptx` binary linked statically.
    Dist,
    /// Regenerate crates/ptx-cli/layout/hot-text.ld, the link layout of
    /// `ptx check`'s code (or, with `--check`, fail if it misses the hot
    /// path of the current code).
    Layout(Layout),
    /// The whole test suite: Rust, Python, editors.
    Test(Test),
}

/// `xtask layout`.
#[derive(Args)]
pub struct Layout {
    /// Profile as for regenerating, but only compare: exit 1 when a
    /// function with at least 0.1% of the cost is not placed by the
    /// checked-in script (CI runs this).
    #[arg(long)]
    pub check: bool,
}

/// `xtask section-titles`.
#[derive(Args)]
pub struct SectionTitles {
    /// The ISA text (default: ../shared/spec).
    #[arg(long)]
    pub spec: Option<PathBuf>,
}

/// `xtask bench-scan`.
#[derive(Args)]
pub struct BenchScan {
    /// Timed runs; the best is reported.
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
    /// Files, directories, wheels or environments to scan.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

/// `xtask catalog-check`.
#[derive(Args)]
pub struct CatalogCheck {
    /// The catalog directory (default: crates/ptxkit/isa).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// The ISA text (default: ../shared/spec).
    #[arg(long)]
    spec: Option<PathBuf>,
    /// Only this catalog file.
    #[arg(long = "file", value_name = "NAME.ptxisa")]
    file: Option<String>,
    /// Check these instruction lines.
    #[arg(long = "line", value_name = "INSTR;")]
    lines: Vec<String>,
    /// Say more.
    #[arg(short)]
    v: bool,
    /// Also check the corpus.
    #[arg(long)]
    corpus: bool,
}

impl CatalogCheck {
    /// The task's options, paths relative to `root`.
    pub fn opts(self, root: &Path) -> crate::catalog_check::Opts {
        crate::catalog_check::Opts {
            dir: self.dir.unwrap_or_else(|| root.join("crates/ptxkit/isa")),
            spec: self.spec.unwrap_or_else(|| root.join("../shared/spec")),
            only_file: self.file,
            lines: self.lines,
            verbose: self.v,
            corpus: self.corpus,
        }
    }
}

/// `xtask ptxas-roundtrip`.
#[derive(Args)]
pub struct PtxasRoundtrip {
    /// The shared directory (default: ../shared).
    #[arg(long)]
    pub shared: Option<PathBuf>,
    /// Parallel jobs (default: the cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// At most this many files.
    #[arg(long)]
    pub limit: Option<usize>,
}

/// `xtask bench`.
#[derive(Args)]
pub struct Bench {
    /// Minimum seconds per measurement.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Skip the big-module measurement.
    #[arg(long)]
    no_split: bool,
    /// Only the big-module measurement.
    #[arg(long)]
    split_only: bool,
    /// Skip the comparison with `ptxas -O0`.
    #[arg(long)]
    no_ptxas: bool,
    /// Only that comparison.
    #[arg(long)]
    ptxas_only: bool,
    /// The file for it (default: the corpus's Kokkos module).
    #[arg(long, value_name = "F")]
    ptxas_file: Option<PathBuf>,
    /// Write the big module to this file too.
    #[arg(long, value_name = "FILE")]
    write_big: Option<PathBuf>,
    /// Also time each file alone and print the spread of throughputs.
    #[arg(long)]
    per_file: bool,
    /// Only the stages whose name contains this word (`semantic`,
    /// `syntax`, `lex`...), one core, no big module: for a profiler.
    #[arg(long, value_name = "WORD")]
    stage: Option<String>,
    /// Files and directories (default: the standard input set).
    #[arg(value_name = "FILES|DIRS")]
    paths: Vec<String>,
}

impl Bench {
    /// The task's options.
    pub fn opts(self) -> crate::bench::Opts {
        crate::bench::Opts {
            paths: self.paths,
            seconds: self.seconds,
            no_split: self.no_split,
            split_only: self.split_only,
            write_big: self.write_big,
            ptxas: !self.no_ptxas,
            ptxas_only: self.ptxas_only,
            ptxas_file: self.ptxas_file,
            per_file: self.per_file,
            stage: self.stage,
        }
    }
}

/// `xtask mutants`.
#[derive(Args)]
pub struct Mutants {
    /// How many mutants.
    #[arg(long, default_value_t = 1000)]
    pub count: usize,
    /// The random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Parallel jobs (default: the cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Mutate the `.ptx` files under these directories instead.
    #[arg(long = "dir")]
    pub dirs: Vec<PathBuf>,
}

/// `xtask sweep`.
#[derive(Args)]
pub struct Sweep {
    /// Write the verdicts to the committed files.
    #[arg(long)]
    record: bool,
    /// At most this many instances.
    #[arg(long)]
    limit: Option<usize>,
    /// Parallel jobs (default: the cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Only this opcode.
    #[arg(long, value_name = "OPCODE")]
    only: Option<String>,
    /// The random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Instances per ptxas run.
    #[arg(long, default_value_t = 1000)]
    batch: usize,
    /// Modifier combinations per form.
    #[arg(long, default_value_t = 40)]
    combos: usize,
    /// Mutations per instance.
    #[arg(long, default_value_t = 3)]
    mutate: usize,
    /// Instances per form whose operands are varied over every operand
    /// kind (the operand dimension; 0 leaves it out).
    #[arg(long, default_value_t = 0)]
    operands: usize,
    /// Instances per form whose modifiers are moved to the end, to the
    /// front and written twice (the modifier-order dimension; 0 leaves it
    /// out).
    #[arg(long, default_value_t = 0)]
    order: usize,
    /// Ignore the verdicts cached by earlier runs.
    #[arg(long)]
    fresh: bool,
    /// The targets to try instances on instead of the main ones (items
    /// `sm_70` or `sm_70@6.4`).
    #[arg(long, value_name = "LIST")]
    targets: Option<String>,
    /// The default cases, and each instance's valid/removed/version-low
    /// cases on these targets too.
    #[arg(long, value_name = "LIST")]
    also_targets: Option<String>,
    /// The PTX versions for the targets that name none (`--version V` or
    /// `--versions LIST`).
    #[arg(
        long = "versions",
        visible_alias = "version",
        value_name = "LIST",
        value_delimiter = ','
    )]
    versions: Vec<String>,
}

impl Sweep {
    /// The task's options.
    pub fn opts(self) -> crate::sweep::Opts {
        crate::sweep::Opts {
            record: self.record,
            limit: self.limit,
            jobs: self.jobs.unwrap_or_else(cores),
            only: self.only,
            seed: self.seed,
            batch: self.batch,
            combos: self.combos,
            mutate: self.mutate,
            operands: self.operands,
            order: self.order,
            fresh: self.fresh,
            targets: self.targets,
            versions: self.versions,
            also_targets: self.also_targets,
        }
    }
}

/// `xtask test`.
#[derive(Args)]
pub struct Test {
    /// Only these suites (`rust`, `python`, `editor`).
    #[arg(long, value_parser = ["rust", "python", "editor"])]
    pub only: Vec<String>,
    /// Arguments for `cargo test`, after `--`.
    #[arg(last = true, value_name = "CARGO_TEST_ARGS")]
    pub cargo_args: Vec<String>,
}

/// The default number of parallel jobs: the cores.
pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    /// The spellings the docs use still parse.
    #[test]
    fn documented_spellings_parse() {
        for line in [
            "xtask catalog-gen",
            "xtask diagnostics-gen",
            "xtask section-titles --spec ../shared/spec",
            "xtask catalog-check --dir d --spec s --file data.ptxisa --line add.s32; -v --corpus",
            "xtask ptxas-roundtrip --shared ../shared --jobs 2 --limit 10",
            "xtask bench --seconds 1 --no-split --no-ptxas --per-file --stage check a.ptx dir",
            "xtask bench --split-only --ptxas-only --ptxas-file f.ptx --write-big big.ptx",
            "xtask bench-scan --runs 2 site-packages a.whl",
            "xtask mutants --count 10 --seed 3 --jobs 2 --dir a --dir b",
            "xtask sweep --record --limit 5 --jobs 2 --only mma --seed 2 --batch 10 --combos 4 --mutate 1 --operands 1 --fresh --targets sm_70,sm_80@7.0 --version 8.0",
            "xtask sweep --also-targets sm_75 --versions 7.0,8.0",
            "xtask dist",
            "xtask layout",
            "xtask test --only rust --only python -- --test corpus",
        ] {
            let args: Vec<&str> = line.split(' ').collect();
            assert!(Cli::try_parse_from(&args).is_ok(), "{line}: {:?}", Cli::try_parse_from(&args).err().map(|e| e.to_string()));
        }
        let Ok(Cli {
            task: Task::Sweep(s),
        }) = Cli::try_parse_from([
            "xtask",
            "sweep",
            "--version",
            "8.0",
            "--versions",
            "7.0,7.8",
        ])
        else {
            panic!("sweep")
        };
        assert_eq!(s.opts().versions, ["8.0", "7.0", "7.8"]);
        let Ok(Cli {
            task: Task::Test(t),
        }) = Cli::try_parse_from(["xtask", "test", "--", "--test", "corpus"])
        else {
            panic!("test")
        };
        assert_eq!(t.cargo_args, ["--test", "corpus"]);
    }
}
