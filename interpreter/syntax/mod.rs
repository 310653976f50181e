//! Source text to typed AST: the pest grammar in `grammar/arbiter.pest`, lowered by `parse`.

pub mod ast;
mod ast_overlays;
pub mod parse;
mod parse_code;
mod parse_errors;
mod parse_overlays;
mod reindex;
pub mod span;

pub use parse::parse_file;
