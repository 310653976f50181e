//! The `arbiter` binary.

use clap::Parser;

/// mimalloc: the rules make and drop many small values; measured faster than the system's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let cli = arbiter::cli::Cli::parse();
    std::process::exit(arbiter::cli::main_with(cli));
}
