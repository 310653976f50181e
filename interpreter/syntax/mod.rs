//! Source text to typed AST: the pest grammar in `grammar/arbiter.pest`, lowered by `parse`.
//! Each file read gets its id once, in the project's `source_map`; every span carries it.

pub mod ast;
mod ast_overlays;
pub mod fmt;
pub mod lex;
pub mod parse;
mod parse_code;
mod parse_errors;
mod parse_overlays;
pub mod source_map;
pub mod span;

pub use parse::parse_file;
