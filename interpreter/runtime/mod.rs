//! Running a compiled game: values, the state, expression evaluation, statement execution,
//! modifiers, the engine's step loop, and per-seat views.

pub mod builtins;
pub mod chunked;
pub mod engine;
pub mod eval;
pub mod exec;
pub mod geometry;
pub mod modifiers;
pub mod picture;
pub mod state;
pub mod value;
pub mod view;
pub mod why;

pub use engine::{AnswerError, Engine, Setup, Status};
pub use state::{Answer, State};

use crate::diag::Diag;
use crate::syntax::span::Span;

/// A rule stopped while running: a message, where, and what to do about it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct RtError {
    pub message: String,
    pub span: Span,
    pub help: Option<String>,
}

impl RtError {
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn to_diag(&self) -> Diag {
        Diag::error(self.span, self.message.clone()).label("while running this").maybe_help(self.help.clone())
    }
}
