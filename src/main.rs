//! The `carta` binary: parse the arguments, run, exit.

use std::process::ExitCode;

use clap::Parser;

// A compiler allocates many small strings and tables per card; mimalloc
// serves that pattern markedly faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    carta::cli::run(carta::cli::Cli::parse())
}
