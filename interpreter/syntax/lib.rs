//! The bottom layer: source text to typed AST. The pest grammar in `grammar/arbiter.pest`,
//! built into the tree by `parse`; each file read gets its id once, in the project's `source_map`, and every
//! span carries it. The diagnostics every later phase reports (`diag`) and every budget that
//! stops a runaway rule (`budgets`) live here too, so that every layer above can use them.

// pest is built without its `std` feature (see the workspace's Cargo.toml): the parser it
// derives names `alloc` for its boxes and vectors.
extern crate alloc;

pub mod ast;
mod ast_overlays;
pub mod budgets;
pub mod diag;
pub mod fmt;
pub mod lex;
pub mod parse;
mod parse_code;
mod parse_context;
mod parse_errors;
mod parse_overlays;
pub mod source_map;
pub mod span;

pub use parse::parse_file;
