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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Check(a) => cmd::check::run(a),
        Command::Fmt(a) => cmd::fmt::run(a),
        Command::Ast(a) => cmd::ast::run(a),
        Command::Summary(a) => cmd::summary::run(a),
    };
    ExitCode::from(code)
}
