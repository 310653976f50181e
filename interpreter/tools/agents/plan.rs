//! Which bot plays which seat: `--bots KIND` for every seat, `--bots N=KIND` for seat N, and
//! `--bots SIDE=KIND` for the seats on a side the rulebook declares (`side rebels(p) = ..`). A seat
//! named by number wins over its side, its side over the plain kind, and a seat nothing names is
//! played by the random bot. A seat's side is asked at each of its decisions, so a seat that changes
//! sides changes bots.

use super::greedy::Greedy;
use super::mcts::Mcts;
use super::{Agent, RandomAgent, Stop};
use arbiter_ir::Game;
use arbiter_ir::value::{Seat, Value};
use arbiter_runtime::state::{Answer, Decision, State};
use arbiter_runtime::{Engine, RtError};
use arbiter_syntax::diag::Diag;
use arbiter_syntax::span::Span;
use std::collections::HashMap;
use std::fmt;

/// Why a `--bots` value is refused (`arg`: the value as given).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotPlanError {
    #[error("unknown bot `{0}`: the bots are `random`, `greedy` and `mcts` (or `mcts:PLAYOUTS`, `mcts:PLAYOUTS:DEPTH`)")]
    UnknownBot(String),
    #[error("`{0}`: the playouts are a whole number from 1 to 1000000, like `mcts:200`")]
    Playouts(String),
    #[error("`{0}`: the playout depth is a whole number from 0 to 10000, like `mcts:200:30`")]
    Depth(String),
    /// A second bot for every seat.
    #[error("`--bots {arg}`: a bot for every seat is already given; name a seat (`2={arg}`) or a side")]
    EveryTwice { arg: String },
    #[error("`--bots {arg}`: there is no seat {seat} (seats are 1 to {players})")]
    NoSeat { arg: String, seat: usize, players: usize },
    #[error("`--bots {arg}`: seat {seat} is given a bot twice")]
    SeatTwice { arg: String, seat: usize },
    #[error("`--bots {arg}`: side `{side}` is given a bot twice")]
    SideTwice { arg: String, side: String },
    /// A name that is no seat and no side; `help`: the side meant, or the sides there are.
    #[error("`--bots {arg}`: no seat or side `{who}`\n  help: {help}")]
    NoSeatOrSide { arg: String, who: String, help: String },
}

impl BotPlanError {
    /// What to do about it.
    pub fn help(&self) -> String {
        match self {
            BotPlanError::UnknownBot(_) | BotPlanError::Playouts(_) | BotPlanError::Depth(_) => {
                "`--bots` takes `random`, `greedy`, `mcts`, `mcts:PLAYOUTS` or `mcts:PLAYOUTS:DEPTH`".to_string()
            }
            BotPlanError::EveryTwice { arg } => format!("name a seat (`2={arg}`) or a side"),
            BotPlanError::NoSeat { players, .. } => format!("seats are 1 to {players}"),
            BotPlanError::SeatTwice { .. } | BotPlanError::SideTwice { .. } => "give each seat and side one bot".to_string(),
            BotPlanError::NoSeatOrSide { help, .. } => help.clone(),
        }
    }

    /// The diagnostic: a refused value has no place in the rules. The help that a message ends
    /// with is the diagnostic's help.
    pub fn to_diag(&self) -> Diag {
        let message = match self {
            BotPlanError::EveryTwice { arg } => format!("`--bots {arg}`: a bot for every seat is already given"),
            BotPlanError::NoSeat { arg, seat, .. } => format!("`--bots {arg}`: there is no seat {seat}"),
            BotPlanError::NoSeatOrSide { arg, who, .. } => format!("`--bots {arg}`: no seat or side `{who}`"),
            other => other.to_string(),
        };
        Diag::error(Span::NONE, message).help(self.help())
    }
}

impl From<BotPlanError> for Diag {
    fn from(e: BotPlanError) -> Diag {
        e.to_diag()
    }
}

/// The search bot's playouts per decision when `mcts` gives none.
pub const DEFAULT_PLAYOUTS: u32 = 200;
/// Decisions a playout plays at random after the tree before the hints score it, where neither
/// `mcts` nor the game's `search_depth` gives a number.
pub const DEFAULT_DEPTH: u32 = 30;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotKind {
    Random,
    Greedy,
    /// `mcts:PLAYOUTS:DEPTH`: the playouts a decision (a step of a choice of up to N options
    /// counts as one), and the decisions a playout plays at
    /// random after the tree before the hints score it (for a game with hints; without a DEPTH,
    /// the game's `search_depth`, else `DEFAULT_DEPTH`).
    Mcts {
        playouts: u32,
        depth: Option<u32>,
    },
}

impl fmt::Display for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotKind::Random => write!(f, "random"),
            BotKind::Greedy => write!(f, "greedy"),
            BotKind::Mcts { playouts, depth: None } => write!(f, "mcts:{playouts}"),
            BotKind::Mcts { playouts, depth: Some(depth) } => write!(f, "mcts:{playouts}:{depth}"),
        }
    }
}

impl std::str::FromStr for BotKind {
    type Err = BotPlanError;
    fn from_str(s: &str) -> Result<Self, BotPlanError> {
        let mut parts = s.split(':');
        let name = parts.next().unwrap_or_default();
        let (playouts, depth) = (parts.next(), parts.next());
        match (name, playouts, depth, parts.next()) {
            ("random", None, ..) => Ok(BotKind::Random),
            ("greedy", None, ..) => Ok(BotKind::Greedy),
            ("mcts", p, d, None) => {
                let playouts = match p.map(str::parse::<u32>) {
                    None => DEFAULT_PLAYOUTS,
                    Some(Ok(n)) if (1..=1_000_000).contains(&n) => n,
                    Some(_) => return Err(BotPlanError::Playouts(s.to_string())),
                };
                let depth = match d.map(str::parse::<u32>) {
                    None => None,
                    Some(Ok(n)) if n <= 10_000 => Some(n),
                    Some(_) => return Err(BotPlanError::Depth(s.to_string())),
                };
                Ok(BotKind::Mcts { playouts, depth })
            }
            _ => Err(BotPlanError::UnknownBot(s.to_string())),
        }
    }
}

/// Who plays which seat (see the module's documentation).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BotPlan {
    pub every: Option<BotKind>,
    /// Seats by number (0-based here, 1-based as written).
    pub seats: Vec<(Seat, BotKind)>,
    pub sides: Vec<(String, BotKind)>,
}

impl BotPlan {
    /// From `--bots` values: `KIND`, `N=KIND` or `SIDE=KIND`, checked against the game.
    pub fn parse(args: &[String], game: &Game, players: usize) -> Result<BotPlan, BotPlanError> {
        let mut plan = BotPlan::default();
        for a in args {
            match a.split_once('=') {
                None => {
                    if plan.every.is_some() {
                        return Err(BotPlanError::EveryTwice { arg: a.clone() });
                    }
                    plan.every = Some(a.parse()?);
                }
                Some((who, kind)) => {
                    let kind: BotKind = kind.parse()?;
                    if let Ok(n) = who.parse::<usize>() {
                        if n == 0 || n > players {
                            return Err(BotPlanError::NoSeat { arg: a.clone(), seat: n, players });
                        }
                        let seat = Seat::try_from(n - 1).unwrap_or(0);
                        if plan.seats.iter().any(|(s, _)| *s == seat) {
                            return Err(BotPlanError::SeatTwice { arg: a.clone(), seat: n });
                        }
                        plan.seats.push((seat, kind));
                    } else if game.sides.iter().any(|s| s.name == who) {
                        if plan.sides.iter().any(|(s, _)| s == who) {
                            return Err(BotPlanError::SideTwice { arg: a.clone(), side: who.to_string() });
                        }
                        plan.sides.push((who.to_string(), kind));
                    } else {
                        let sides: Vec<&str> = game.sides.iter().map(|s| s.name.as_str()).collect();
                        let help = match arbiter_syntax::diag::did_you_mean(who, sides.iter().copied()) {
                            Some(h) => h,
                            None if sides.is_empty() => format!(
                                "{} declares no sides with these rules (a variant may add some: switch it on with `--variant`); name a seat, like `1={kind}`",
                                game.name
                            ),
                            None => format!("the sides are {}", sides.join(", ")),
                        };
                        return Err(BotPlanError::NoSeatOrSide { arg: a.clone(), who: who.to_string(), help });
                    }
                }
            }
        }
        Ok(plan)
    }

    /// The plan as `--bots` values, to save and to report.
    pub fn args(&self) -> Vec<String> {
        let mut v: Vec<String> = self.every.iter().map(|k| k.to_string()).collect();
        v.extend(self.seats.iter().map(|(s, k)| format!("{}={k}", s + 1)));
        v.extend(self.sides.iter().map(|(s, k)| format!("{s}={k}")));
        v
    }

    /// In words: `random`, `mcts:200`, `1=mcts:200, 2=greedy`.
    pub fn describe(&self) -> String {
        let v = self.args();
        if v.is_empty() { "random".into() } else { v.join(", ") }
    }

    /// Whether every seat is played by the random bot (the bots then cost nothing to look up).
    pub fn all_random(&self) -> bool {
        self.every.is_none_or(|k| k == BotKind::Random)
            && self.seats.iter().all(|(_, k)| *k == BotKind::Random)
            && self.sides.iter().all(|(_, k)| *k == BotKind::Random)
    }
}

/// The bots of one game: they answer every decision a bot has to take.
///
/// The looking-ahead bots remember what they answered at each situation they met (the decision
/// and the table as the seat saw it); met again, they try another answer while there is one, so a
/// bot cannot go round in circles (take back a move to put off a phase that would cost it, again
/// and again). What they remember is what their seat saw and did.
pub struct Bots {
    plan: BotPlan,
    seed: u64,
    answered: HashMap<u64, Vec<Answer>>,
    /// How long a bot may think about one decision (`--think`): it answers then with the best it
    /// has found. `None`: until its own bound (its playouts), the same on any machine.
    think: Option<std::time::Duration>,
    /// Decisions a bot answered when its time ran out.
    stopped: u64,
}

impl Bots {
    pub fn new(plan: BotPlan, seed: u64) -> Bots {
        Bots { plan, seed, answered: HashMap::new(), think: None, stopped: 0 }
    }

    /// These bots, thinking at most `think` about one decision (`None`: no limit).
    pub fn thinking_at_most(self, think: Option<std::time::Duration>) -> Bots {
        Bots { think, ..self }
    }

    /// How many decisions a bot answered with less thinking than its own bound (the search's
    /// playouts, the greedy bot's options) because its time ran out: where there are any, the game
    /// may go otherwise on a faster or slower machine.
    pub fn stopped_in_time(&self) -> u64 {
        self.stopped
    }

    /// Which bot plays `seat` now.
    pub fn kind_for(&self, engine: &Engine, st: &State, seat: Seat) -> Result<BotKind, RtError> {
        if let Some((_, k)) = self.plan.seats.iter().find(|(s, _)| *s == seat) {
            return Ok(*k);
        }
        for (name, k) in &self.plan.sides {
            if on_side(engine, st, name, seat)? {
                return Ok(*k);
            }
        }
        Ok(self.plan.every.unwrap_or(BotKind::Random))
    }

    /// The bot's answer; an error where a rulebook's hint or side fails (the bot cannot judge the
    /// game, or cannot tell who plays).
    pub fn decide(&mut self, engine: &Engine, st: &State, d: &Decision) -> Result<Answer, RtError> {
        let thinking = self.thinking(engine, st, d)?;
        let deadline = self.think.map(|t| std::time::Instant::now() + t);
        let fired = std::sync::atomic::AtomicBool::new(false);
        let a = thinking.answer(engine, st, d, &Stop { deadline, cancelled: None, fired: Some(&fired) })?;
        if fired.into_inner() {
            self.stopped += 1;
        }
        self.remember(&thinking, &a);
        Ok(a)
    }

    /// What the bot of `d`'s seat needs to think about `d` on its own, away from these bots (a
    /// web table's bots think on a pool of threads, the game unlocked meanwhile).
    pub fn thinking(&self, engine: &Engine, st: &State, d: &Decision) -> Result<Thinking, RtError> {
        let kind = self.kind_for(engine, st, d.seat)?;
        if kind == BotKind::Random {
            return Ok(Thinking { kind, seed: self.seed, seen: None, avoid: vec![] });
        }
        let seen = situation(engine, st, d);
        let avoid = self.answered.get(&seen).cloned().unwrap_or_default();
        Ok(Thinking { kind, seed: self.seed, seen: Some(seen), avoid })
    }

    /// Remember what was answered at a situation (see `Bots`).
    pub fn remember(&mut self, thinking: &Thinking, a: &Answer) {
        if let Some(seen) = thinking.seen {
            self.answered.entry(seen).or_default().push(a.clone());
        }
    }
}

/// A bot about to think about one decision: its kind, and the answers it gave before at the same
/// situation (which it passes over while there are others).
#[derive(Debug, Clone)]
pub struct Thinking {
    pub kind: BotKind,
    seed: u64,
    /// The situation, for a bot that remembers its answers (not the random bot).
    seen: Option<u64>,
    avoid: Vec<Answer>,
}

impl Thinking {
    /// The answer, the search stopping early when `stop` says so.
    pub fn answer(&self, engine: &Engine, st: &State, d: &Decision, stop: &Stop) -> Result<Answer, RtError> {
        match self.kind {
            BotKind::Random => Ok(RandomAgent { seed: self.seed }.decide(engine.game, st, d)),
            BotKind::Mcts { playouts, depth } => {
                let depth = depth.or(engine.game.search_depth).unwrap_or(DEFAULT_DEPTH);
                Mcts { seed: self.seed, playouts, depth }.choose_until(engine, st, d, &self.avoid, stop)
            }
            BotKind::Greedy => Greedy { seed: self.seed }.choose(engine, st, d, &self.avoid, stop),
        }
    }
}

/// A decision and the table as its seat sees them, as a number.
fn situation(engine: &Engine, st: &State, d: &Decision) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    arbiter_runtime::view::view(engine.game, st, Some(d.seat)).hash(&mut h);
    (d.seat, &*d.prompt, d.labels()).hash(&mut h);
    h.finish()
}

/// Whether `seat` is on the side named `name` (false if there is no such side); an error where the
/// side's condition fails, naming the side.
pub fn on_side(engine: &Engine, st: &State, name: &str, seat: Seat) -> Result<bool, RtError> {
    let Some(side) = engine.game.sides.iter().find(|s| s.name == name) else { return Ok(false) };
    match super::seat_call(engine, st, side, "side", seat)? {
        Value::Bool(b) => Ok(b),
        other => {
            Err(super::seat_call_error(engine, side, "side", format!("a side gave {}, not true or false", other.display(engine.game))))
        }
    }
}
