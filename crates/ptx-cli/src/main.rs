//! `ptx`: read, check, format and explore NVIDIA PTX from the command line.
// Lints: `[workspace.lints]` in the root Cargo.toml.

mod cmd;
mod input;
mod ordered;
mod out;
mod report;
mod spool;
mod validate;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// mimalloc: parsing allocates many small tree nodes and frees them as it
/// streams; glibc's allocator spends noticeably more instructions on that.
#[global_allocator]
static ALLOC: ptx_alloc::Mimalloc = ptx_alloc::Mimalloc;

/// Read, check, format and explore NVIDIA PTX modules.
#[derive(Parser)]
#[command(name = "ptx", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// For CUDA binary inputs (fatbins, executables, shared libraries,
    /// objects): read only the PTX entries for this architecture
    /// (`sm_80`, `compute_90a`, `86`).
    #[arg(long, global = true, value_name = "sm_XX", value_parser = validate::arch)]
    arch: Option<String>,
    /// For CUDA binary inputs: read only the PTX entry of this number (as
    /// `ptx extract --list` numbers them, from 1).
    #[arg(long, global = true, value_name = "N")]
    entry: Option<usize>,
    /// Show C++ function names as written (`_Z10normalize3P4Vec3`) rather
    /// than demangled (`normalize3(Vec3*)`). JSON always has both.
    #[arg(long, global = true)]
    no_demangle: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Parse files (or directories of .ptx files) and report every problem,
    /// then the summary line (`0 errors, 0 warnings in 8 files`). Exit
    /// status: 0 no errors, 1 errors found, 2 usage or I/O error, or a
    /// file that is not PTX (a README, C++ source).
    Check(cmd::check::Args),
    /// Check the inline PTX `asm(...)` statements of CUDA C++ sources
    /// (files, or directories of .cu .cuh .h .hpp .cpp .inl). Exit status
    /// as for `check`.
    CheckAsm(cmd::check_asm::Args),
    /// Print modules in canonical form, comments kept (or losslessly) to
    /// stdout; --check reports files that are not canonical, --write
    /// rewrites them.
    Fmt(cmd::fmt::Args),
    /// Print the syntax tree.
    Ast(cmd::ast::Args),
    /// Version, target, kernels and functions, registers, data sizes.
    Summary(cmd::summary::Args),
    /// Kernels and functions: linkage, parameters, directives, size, calls.
    Functions(cmd::functions::Args),
    /// Print one function (canonically, or as written with --lossless).
    Show(cmd::show::Args),
    /// Control-flow graph of a function: blocks, edges, dominators, loops.
    Cfg(cmd::cfg::Args),
    /// Call graph: direct and indirect calls, recursion.
    Callgraph(cmd::callgraph::Args),
    /// Registers (declared and peak live), memory, barriers, directives.
    Resources(cmd::resources::Args),
    /// Instruction histograms over files and directories.
    Stats(cmd::stats::Args),
    /// Find instructions by opcode and modifiers.
    Grep(cmd::grep::Args),
    /// Structural diff of two modules: functions added, removed and
    /// changed, instruction-mix and resource deltas, and a line diff that
    /// ignores consistent renumbering of registers and labels (context
    /// lines are printed as B writes them). Exit status: 0 no differences,
    /// 1 differences (as diff(1)), 2 a file could not be read or has
    /// syntax errors (the diff is still printed; statements that did not
    /// parse are shown as written).
    Diff(cmd::diff::Args),
    /// The catalog entry of an instruction: syntax, modifiers, versions.
    Explain(cmd::explain::Args),
    /// List or write the PTX inside CUDA binaries: fatbins, cubins,
    /// executables, shared libraries and objects (compressed entries
    /// decompressed).
    Extract(cmd::extract::Args),
    /// Which GPUs and drivers CUDA binaries run on (natively, by JIT of
    /// their PTX, or not at all): files, directories, Python
    /// environments and wheels. Exit status: 0, 1 with --fail-on when a
    /// binary is at or past the level, 2 on a usage or I/O error.
    Compat(cmd::compat::Args),
    /// Print a completion script for a shell (bash, zsh, fish, elvish,
    /// powershell).
    Completions(cmd::completions::Args),
    /// Print the manual page (roff) of `ptx` or of one subcommand, or
    /// write them all with --out-dir.
    Man(cmd::man::Args),
    /// The PTX language server, on stdin and stdout (diagnostics, hover,
    /// navigation, completion, formatting… for any LSP editor).
    Lsp(cmd::lsp::Args),
}

/// Die quietly on a closed pipe (`ptx ast f.ptx | head`), as Unix tools do,
/// instead of panicking inside `println!`. Rust ignores SIGPIPE by default.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called once at start-up, before any thread exists; it only
    // resets one signal's disposition to the system default.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Let glibc's heap grow (and keep) 64 MB at a time rather than the
/// default 128 KB: a parse on several threads then does not take turns on
/// the kernel's memory-map lock to grow and shrink each thread's heap (the
/// 5 MB module of `xtask bench` splits 1.6x -> 1.85x faster on 2 cores).
/// Untouched reserve is not resident, so peak memory does not change.
fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: called once at start-up, before any thread exists; it sets
    // one of glibc's malloc parameters.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
    }
}

/// A command's status, or 2 after printing why it could not run (an
/// unreadable file, a function name that matches nothing).
fn or_usage(r: Result<u8, String>) -> u8 {
    r.unwrap_or_else(|e| {
        eprintln!("ptx: {e}");
        2
    })
}

fn main() -> ExitCode {
    restore_sigpipe();
    tune_allocator();
    let cli = Cli::parse();
    out::set_demangle(!cli.no_demangle);
    input::binary::select(input::binary::Selection {
        arch: cli.arch,
        entry: cli.entry,
    });
    let code = match cli.command {
        Command::Check(a) => or_usage(cmd::check::run(a)),
        Command::CheckAsm(a) => or_usage(cmd::check_asm::run(a)),
        Command::Fmt(a) => or_usage(cmd::fmt::run(a)),
        Command::Ast(a) => or_usage(cmd::ast::run(a)),
        Command::Summary(a) => or_usage(cmd::summary::run(a)),
        Command::Functions(a) => or_usage(cmd::functions::run(a)),
        Command::Show(a) => or_usage(cmd::show::run(a)),
        Command::Cfg(a) => or_usage(cmd::cfg::run(a)),
        Command::Callgraph(a) => or_usage(cmd::callgraph::run(a)),
        Command::Resources(a) => or_usage(cmd::resources::run(a)),
        Command::Stats(a) => or_usage(cmd::stats::run(a)),
        Command::Grep(a) => or_usage(cmd::grep::run(a)),
        Command::Diff(a) => or_usage(cmd::diff::run(a)),
        Command::Explain(a) => cmd::explain::run(a),
        Command::Extract(a) => or_usage(cmd::extract::run(a)),
        Command::Compat(a) => or_usage(cmd::compat::run(a)),
        Command::Completions(a) => cmd::completions::run(a, Cli::command()),
        Command::Man(a) => or_usage(cmd::man::run(a, Cli::command())),
        Command::Lsp(a) => or_usage(cmd::lsp::run(a)),
    };
    ExitCode::from(code)
}
