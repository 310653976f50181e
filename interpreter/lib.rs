//! Arbiter: a rules language and a game-agnostic interpreter for tabletop games.
//!
//! Pipeline: source text → [`syntax`] (pest parse, typed AST with spans) → [`check`] (names,
//! kinds, fields, variants, references; every error at once) → a compiled [`ir::Game`]
//! → [`runtime::Engine`] runs a [`runtime::State`] → events → views, logs, traces.
//!
//! The house reads top-down: [`ir`] (the compiled game, its code, values and the builtins'
//! signatures) and [`budgets`] are at the bottom and use nothing above them; [`syntax`] parses;
//! [`check`] lowers the syntax into `ir`; [`runtime`] runs `ir`; [`scenario`], [`save`],
//! [`agents`] and [`cli`] are built on those.

pub mod agents;
pub mod budgets;
pub mod check;
pub mod cli;
pub mod diag;
pub mod fuzz;
pub mod ir;
pub mod lsp;
pub mod runtime;
pub mod save;
pub mod scenario;
pub mod sim;
pub mod syntax;
pub mod web;
