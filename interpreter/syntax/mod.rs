//! Source text to typed AST: the pest grammar in `grammar/arbiter.pest`, lowered by `parse`.

pub mod ast;
pub mod parse;
mod parse_code;
mod parse_errors;
mod reindex;
pub mod span;

pub use parse::parse_file;
