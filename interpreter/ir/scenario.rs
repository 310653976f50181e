//! A compiled scenario (the checker's output for a `scenario` item): the state it builds, what
//! it runs, the answers and random results it scripts, and what it expects. The scenario runner
//! (`arbiter-tools`) runs it.

use crate::BlockId;
use crate::code::{CallIr, ChooseCountIr, ExprIr, TextExpr};
use crate::ids::EventId;
use arbiter_syntax::span::Span;

#[derive(Debug, Clone)]
pub struct ScenarioIr {
    pub id: String,
    /// Deck lists by seat (0-based), by index into `Game::decks`.
    pub decks: Vec<(usize, usize)>,
    pub title: String,
    pub game: String,
    pub players: usize,
    pub variants: Vec<String>,
    pub cite: Option<String>,
    pub note: Option<String>,
    pub steps: Vec<StepAt>,
    pub slots: u16,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct StepAt {
    pub step: Step,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum Step {
    /// Ordinary statements that build or change the state.
    Exec(BlockId),
    /// Start a procedure and run until it needs a decision or finishes.
    Run(CallIr),
    Answer {
        who: ExprIr,
        value: ExprIr,
    },
    Random(RandomIr),
    Expect(ExpectIr),
    Stop,
}

#[derive(Debug, Clone)]
pub enum RandomIr {
    Roll(ExprIr),
    Keep,
    Order(ExprIr),
    Pick(ExprIr),
}

#[derive(Debug, Clone)]
pub enum ExpectIr {
    Options {
        who: ExprIr,
        labels: ExprIr,
        count: Option<ChooseCountIr>,
        message: Option<TextExpr>,
    },
    Finished,
    /// The game has no result.
    NotFinished,
    /// The game is over: these seats won (`None`: a draw, nobody won).
    Winner(Option<ExprIr>),
    /// This answer is refused, with a message containing `fragment`.
    Refused {
        who: ExprIr,
        value: ExprIr,
        fragment: Option<String>,
    },
    /// An event of this kind has (or has not) happened.
    Event {
        event: EventId,
        name: String,
        happened: bool,
    },
    /// No event's text contains this.
    NoLog(ExprIr),
    Decision {
        who: ExprIr,
        prompt: Option<String>,
    },
    /// No decision of this seat's (whose prompt contains the text) has been asked so far.
    NoDecision {
        who: ExprIr,
        prompt: Option<String>,
    },
    Log(ExprIr),
    Deck {
        deck: usize,
        valid: bool,
        fragment: Option<String>,
    },
    True {
        cond: ExprIr,
        text: String,
        message: Option<TextExpr>,
    },
    Sees {
        who: ExprIr,
        what: ExprIr,
        sees: bool,
    },
}
