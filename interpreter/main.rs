//! The `arbiter` binary.

use clap::Parser;

/// mimalloc: the rules make and drop many small values; measured faster than the system's. Asked
/// through `arbiter::alloc`, which spares it its slow aligned path (see there).
#[global_allocator]
static GLOBAL: arbiter::alloc::Mimalloc = arbiter::alloc::Mimalloc;

fn main() {
    let cli = arbiter::cli::Cli::parse();
    std::process::exit(arbiter::cli::main_with(cli));
}
