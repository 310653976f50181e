//! Arbiter: a rules language and a game-agnostic interpreter for tabletop games.
//!
//! Pipeline: source text → [`syntax`] (pest parse, typed AST with spans) → [`check`] (names,
//! kinds, fields, variants, references; every error at once) → a compiled [`check::ir::Game`]
//! → [`runtime::Engine`] runs a [`runtime::State`] → events → views, logs, traces.

pub mod agents;
pub mod budgets;
pub mod check;
pub mod cli;
pub mod diag;
pub mod fuzz;
pub mod runtime;
pub mod save;
pub mod scenario;
pub mod syntax;
