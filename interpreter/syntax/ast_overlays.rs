//! The syntax tree of the items that describe a game's overlays and tests: decks and the
//! deckbuilding rules, variants (with their step changes) and scenarios, with their expectations.
//! Re-exported by `ast`.

use super::ast::{Block, ChooseCount, Expr, Item, Name, Prop, Stmt, StrLit};
use super::span::{Span, Spanned};

#[derive(Debug, Clone, PartialEq)]
pub struct DeckbuildingItem {
    pub cite: Option<Spanned<String>>,
    pub rules: Vec<DeckRule>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DeckRule {
    pub each: Option<(Name, Expr)>,
    pub cond: Expr,
    pub message: Spanned<StrLit>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DeckItem {
    pub name: Spanned<String>,
    pub sample: Option<Spanned<String>>,
    pub entries: Vec<DeckEntry>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DeckEntry {
    /// A section word (`base`) or a count.
    pub head: Spanned<DeckHead>,
    pub card: Spanned<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum DeckHead {
    Section(String),
    Count(i64),
}

#[derive(Debug, Clone, PartialEq)]
pub struct VariantItem {
    pub name: Name,
    pub title: Spanned<String>,
    /// `extends a, b`: the variants switched on before this one.
    pub extends: Vec<Name>,
    /// `expansion`, `option`, `reading` or `house`, when written.
    pub group: Option<String>,
    pub cite: Option<Spanned<String>>,
    pub ops: Vec<Spanned<VariantOp>>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum VariantOp {
    Replace(Box<Spanned<Item>>),
    Remove {
        kind: Name,
        name: Name,
    },
    Add(Box<Spanned<Item>>),
    /// `set name = value`: a constant's new value.
    Set {
        name: Name,
        value: Expr,
        cite: Option<Spanned<String>>,
    },
    /// `replace step s in p { .. }`, `insert step s before t in p { .. }`, `remove step s in p`.
    Step(Box<StepOp>),
}

/// A change to a named step of a procedure.
#[derive(Debug, Clone, PartialEq)]
pub struct StepOp {
    /// The procedure.
    pub proc: Name,
    /// The step replaced or removed, or the new step's name.
    pub step: Name,
    pub how: StepHow,
    pub cite: Option<Spanned<String>>,
    /// The new body (none for a removal).
    pub body: Option<Block>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StepHow {
    Replace,
    Remove,
    /// A new step before (`true`) or after the named one.
    Insert {
        before: bool,
        anchor: Name,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioItem {
    pub id: Name,
    pub title: Spanned<String>,
    pub props: Vec<Prop>,
    pub body: Vec<Stmt>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// `expect options P ["a", "b"] [up to N | exactly N | one | order] [else "message"]`
    Options {
        who: Expr,
        labels: Expr,
        count: Option<ChooseCount>,
        message: Option<Spanned<StrLit>>,
    },
    Finished,
    /// `expect goes on`: the game has no result. `written_not`: spelt `expect not finished`,
    /// which reads as the opposite of `expect finished` and is not (a warning says so).
    GoesOn {
        written_not: bool,
    },
    /// `expect winner P` / `expect winner [P1, P2]`; `expect draw` is `Winner(None)`.
    Winner(Option<Expr>),
    /// `expect refused answer P X ["part of the message"]`
    Refused {
        who: Expr,
        value: Expr,
        fragment: Option<Spanned<String>>,
    },
    /// `expect event NAME` (`happened`), `expect no event NAME`
    Event {
        name: Name,
        happened: bool,
    },
    /// `expect no log "text"`
    NoLog(Expr),
    Decision {
        who: Expr,
        prompt: Option<Spanned<String>>,
    },
    /// `expect no decision P ["prompt part"]`: no decision of P's (with that prompt) so far.
    NoDecision {
        who: Expr,
        prompt: Option<Spanned<String>>,
    },
    Log(Expr),
    Deck {
        name: Spanned<String>,
        valid: bool,
        fragment: Option<Spanned<String>>,
    },
    True {
        cond: Expr,
        message: Option<Spanned<StrLit>>,
    },
    /// `expect P2 sees x` (`sees`), `expect P1 cannot see x`
    Sees {
        who: Expr,
        what: Expr,
        sees: bool,
    },
}
