//! The `arbiter` binary.

use clap::Parser;

fn main() {
    let cli = arbiter::cli::Cli::parse();
    std::process::exit(arbiter::cli::main_with(cli));
}
