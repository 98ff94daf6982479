//! The `carta` binary: parse the arguments, run, exit.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    carta::cli::run(carta::cli::Cli::parse())
}
