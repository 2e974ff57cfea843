//! `ptx`: read, check, format and explore NVIDIA PTX from the command line.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod cmd;
mod input;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Read, check, format and explore NVIDIA PTX modules.
#[derive(Parser)]
#[command(name = "ptx", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse files (or directories of .ptx files) and report every problem.
    /// Exit status: 0 no errors, 1 errors found, 2 usage or I/O error.
    Check(cmd::check::Args),
    /// Print a module in canonical form (or losslessly) to stdout.
    Fmt(cmd::fmt::Args),
    /// Print the syntax tree.
    Ast(cmd::ast::Args),
    /// Version, target, kernels and functions, registers, data sizes.
    Summary(cmd::summary::Args),
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

fn main() -> ExitCode {
    restore_sigpipe();
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Check(a) => cmd::check::run(a),
        Command::Fmt(a) => cmd::fmt::run(a),
        Command::Ast(a) => cmd::ast::run(a),
        Command::Summary(a) => cmd::summary::run(a),
    };
    ExitCode::from(code)
}
