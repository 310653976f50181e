//! Running a compiled game (its values are `ir::value`'s): the state, expression evaluation, statement execution,
//! modifiers, the engine's step loop, and per-seat views.

pub mod builtins;
pub mod calls;
pub mod checks;
pub mod chunked;
pub mod decisions;
pub mod decks;
pub mod engine;
pub mod eval;
pub mod exec;
pub mod fast;
pub mod geometry;
pub mod invariants;
pub mod items;
pub mod labels;
pub mod log;
pub mod lookup;
pub mod memo;
pub mod modifiers;
pub mod objects;
pub mod operators;
pub mod picture;
pub mod profile;
pub mod random;
mod running;
pub mod state;
pub mod talk;
pub mod trace;
pub mod view;
pub mod why;

pub use decisions::AnswerError;
pub use engine::{Engine, Setup, Status};
pub use random::{RandomSource, ScriptedResults, SeededRandom};
pub use state::{Answer, State};

/// What running the rules gives: a value (nothing for a statement) or the error that stopped them.
pub type RtResult<T = ()> = Result<T, RtError>;
pub use trace::{CauseRecorder, Forgetful, Profiler, Tracer};

/// How this engine plays a seeded game: a new number whenever the same rules, seed and answers
/// give another game through a change of the engine, not of a rule file (the golden logs of every
/// game change in one commit). Saves record it (`Header::plays`), so that the replay of a save
/// made by another engine can say why it parts from the save. 0: a save from before the number
/// was kept (2026-11-30); 1 logs a question before every answer settled at once (since 4708536);
/// 2 closes the last-known-information window at a decision settled at once too (565511b).
pub const PLAYS: u32 = 2;

use arbiter_syntax::diag::Diag;
use arbiter_syntax::span::Span;

/// A rule stopped while running: a message, where, and what to do about it. Boxed, so that
/// evaluation's results (`Result<Value, RtError>`) stay as small as a value.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", .0.message)]
pub struct RtError(Box<RtErrorData>);

#[derive(Debug, Clone, PartialEq)]
pub struct RtErrorData {
    pub message: String,
    pub span: Span,
    pub help: Option<String>,
    /// The rule item that was running (its name and citation), when the engine knows it.
    pub rule: Option<String>,
    /// Where the running procedures were called from, the nearest first (the engine's frames):
    /// a loop that ran out of budget inside a library procedure is shown where it was called.
    pub called_from: Vec<Span>,
}

impl std::ops::Deref for RtError {
    type Target = RtErrorData;
    fn deref(&self) -> &RtErrorData {
        &self.0
    }
}

impl RtError {
    pub fn new(message: String, span: Span) -> Self {
        RtError(Box::new(RtErrorData { message, span, help: None, rule: None, called_from: Vec::new() }))
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.0.help = Some(help.into());
        self
    }

    /// The parts, moved out.
    pub fn into_data(self) -> RtErrorData {
        *self.0
    }

    /// The same error, naming the rule that was running (if it names none yet).
    pub fn in_rule(mut self, rule: impl FnOnce() -> Option<String>) -> Self {
        if self.0.rule.is_none() {
            self.0.rule = rule();
        }
        self
    }

    /// The same error, with where the running procedures were called from (if it has none yet).
    pub fn called_from(mut self, spans: impl FnOnce() -> Vec<Span>) -> Self {
        if self.0.called_from.is_empty() {
            self.0.called_from = spans();
        }
        self
    }

    pub fn to_diag(&self) -> Diag {
        let label = match &self.rule {
            Some(r) => format!("while running {r}"),
            None => "while running this".to_string(),
        };
        let mut d = Diag::error(self.span, self.message.clone()).label(label).maybe_help(self.help.clone());
        for s in call_sites_shown(&self.called_from, self.span) {
            d = d.related(s, "called from");
        }
        d
    }
}

/// The call sites an error shows (`RtErrorData::called_from`): at most six (a runaway recursion
/// has hundreds), leaving out the error's own place `at`.
pub fn call_sites_shown(sites: &[Span], at: Span) -> impl Iterator<Item = Span> + '_ {
    sites.iter().copied().filter(move |s| *s != at).take(6)
}
