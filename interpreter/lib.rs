//! Arbiter: a rules language and a game-agnostic interpreter for tabletop games.
//!
//! Pipeline: source text → [`syntax`] (pest parse, typed AST with spans) → [`check`] (names,
//! kinds, fields, variants, references; every error at once) → a compiled [`ir::Game`]
//! → [`runtime::Engine`] runs a [`runtime::State`] → events → views, logs, traces.
//!
//! Each layer is a crate of its own (see ARCHITECTURE.md at the repository's root), so that the
//! compiler keeps the order: `arbiter-syntax` → `arbiter-ir` → `arbiter-check` and
//! `arbiter-runtime` → `arbiter-tools` → `arbiter-web` and `arbiter-lsp` → this package, the
//! `arbiter` binary and its commands
//! ([`cli`]). The crates are re-exported here under their layer's name, so that a test or a tool
//! built on Arbiter names them the way this package does (`arbiter::runtime::State`).

pub mod alloc;
pub mod cli;

pub use arbiter_check as check;
pub use arbiter_ir as ir;
pub use arbiter_lsp as lsp;
pub use arbiter_runtime as runtime;
pub use arbiter_syntax as syntax;
pub use arbiter_syntax::{budgets, diag};
pub use arbiter_tools::{agents, check_files, fuzz, save, scenario, sim};
pub use arbiter_web as web;
