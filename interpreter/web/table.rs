//! A game at the web table: its rules, its state, who plays each seat, and the digest of the
//! secret each human seat is played with. Everything a seat is sent is worked out here, from what
//! that seat may see.
//!
//! The quick bots move here, in the request that let them (for `budgets::WEB_INLINE` at most);
//! the searching bots on the bots' own threads (`bots.rs`), which take a copy of the state
//! (`prepare_bot`) and give their answer back (`take_bot_answer`).

use arbiter_check::Built;
use arbiter_check::project::Project;
use arbiter_runtime::decks::DeckChoiceError;
use arbiter_runtime::state::{Answer, Count, Decision, Mode, State};
use arbiter_runtime::view::{self, TableView};
use arbiter_runtime::{AnswerError, Engine, RtError, Setup, Status, talk};
use arbiter_syntax::budgets::WEB_EVENTS_SENT;
use arbiter_syntax::budgets::{WEB_DEPTH, WEB_INLINE, WEB_PLAYOUTS};
use arbiter_syntax::diag::Diag;
use arbiter_syntax::span::Span;
use arbiter_tools::agents::Stop;
use arbiter_tools::agents::plan::{BotKind, BotPlan, BotPlanError, Bots, Thinking};
use arbiter_tools::save::{SaveError, SeatSecret, secret_digest};
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Who plays a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatKind {
    Human,
    /// A bot, as `--bots` names it: `random`, `greedy`, `mcts`, `mcts:PLAYOUTS[:DEPTH]`.
    Bot(String),
}

/// Why a seat's kind is refused: not a kind of player at all (400), or a bot larger than a web
/// table runs (422).
#[derive(Debug)]
pub enum SeatRefusal {
    Unknown(String),
    TooLarge(String),
}

impl SeatKind {
    pub fn parse(s: &str) -> Result<SeatKind, SeatRefusal> {
        if s == "human" {
            return Ok(SeatKind::Human);
        }
        let kind: BotKind = s.parse().map_err(|_| {
            SeatRefusal::Unknown(format!("`{s}` is not a kind of player: human, random, greedy, mcts or mcts:PLAYOUTS[:DEPTH]"))
        })?;
        if let BotKind::Mcts { playouts, depth } = kind
            && (playouts > WEB_PLAYOUTS || depth.is_some_and(|d| d > WEB_DEPTH))
        {
            return Err(SeatRefusal::TooLarge(format!(
                "`{s}` is a larger search than a web table runs: at most {WEB_PLAYOUTS} playouts and a depth of {WEB_DEPTH} (`mcts:{WEB_PLAYOUTS}:{WEB_DEPTH}`)"
            )));
        }
        Ok(SeatKind::Bot(s.to_string()))
    }
}

/// Why a table cannot be started or resumed.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The game's rules (with these variants) do not check: the first error.
    #[error("{game} does not load: {}", .first.as_ref().map_or("", |d| d.message.as_str()))]
    Rules { game: String, first: Option<Box<Diag>> },
    /// The game is for `min` to `max` players.
    #[error("{title} is for {} players, not {players}", arbiter_ir::player_counts(*.min, *.max))]
    Players { title: String, min: u8, max: u8, players: usize },
    #[error(transparent)]
    Bots(#[from] BotPlanError),
    #[error(transparent)]
    Decks(#[from] DeckChoiceError),
    /// The rules failed setting up the game.
    #[error("{}", .0.message)]
    Setup(RtError),
}

impl TableError {
    pub fn to_diag(&self) -> Diag {
        match self {
            // Where the first error is, with its own help (else how to see them all).
            TableError::Rules { first, .. } => {
                let span = first.as_ref().map_or(Span::NONE, |d| d.span);
                let help = first.as_ref().and_then(|d| d.help.clone());
                Diag::error(span, self.to_string())
                    .help(help.unwrap_or_else(|| "`arbiter check` shows every error in the game's files".into()))
            }
            TableError::Players { min, max, .. } => {
                Diag::error(Span::NONE, self.to_string()).help(format!("choose {} seats", arbiter_ir::player_counts(*min, *max)))
            }
            TableError::Bots(e) => e.to_diag(),
            TableError::Decks(e) => e.to_diag(),
            TableError::Setup(e) => e.to_diag(),
        }
    }
}

impl From<TableError> for Diag {
    fn from(e: TableError) -> Diag {
        e.to_diag()
    }
}

/// When a table was last asked about, and whether it was closed: what its bots, thinking on
/// their own threads, look at to stop.
#[derive(Debug)]
pub struct Activity {
    born: Instant,
    /// Milliseconds from `born` to the last request about the table.
    asked: AtomicU64,
    closed: AtomicBool,
    /// Its bot waits on the bots' threads, or thinks there.
    queued: AtomicBool,
}

impl Activity {
    fn new() -> Activity {
        Activity { born: Instant::now(), asked: AtomicU64::new(0), closed: AtomicBool::new(false), queued: AtomicBool::new(false) }
    }

    /// A seat asked about the table now.
    pub fn touch(&self) {
        let ms = u64::try_from(self.born.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.asked.store(ms, Ordering::Relaxed);
    }

    /// How long since a seat last asked.
    pub fn idle_for(&self) -> std::time::Duration {
        let asked = std::time::Duration::from_millis(self.asked.load(Ordering::Relaxed));
        self.born.elapsed().saturating_sub(asked)
    }

    /// The table is gone: its bot stops thinking.
    pub fn close(&self) {
        self.closed.store(true, Ordering::Relaxed);
    }

    pub fn closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }

    /// Mark the table's bot as waiting for the bots' threads; false if it already was.
    pub fn queue(&self) -> bool {
        !self.queued.swap(true, Ordering::AcqRel)
    }

    pub fn unqueue(&self) {
        self.queued.store(false, Ordering::Release);
    }
}

/// A game being played.
pub struct Table {
    built: Arc<Built>,
    state: State,
    bots: Bots,
    seats: Vec<SeatKind>,
    /// The digest of the secret each human seat is played with (none for a bot's seat).
    secrets: Vec<Option<String>>,
    /// A rule error that stopped the game.
    stopped: Option<String>,
    /// The human seats that have left the table.
    left: Vec<bool>,
    /// What a save of this game says it is (game, variants, players, seed, who plays each seat).
    header: arbiter_tools::save::Header,
    activity: Arc<Activity>,
}

/// What a seat is sent: the table as it sees it, the events it saw, and its decision.
#[derive(Debug, Serialize)]
pub struct SeatView {
    pub game: String,
    pub title: String,
    pub seat: u8,
    pub table: TableView,
    /// The table drawn as the seat may see it (SVG), when the game has a picture.
    pub picture: Option<String>,
    /// Why the picture could not be drawn (a rule error in the rulebook's picture function).
    pub picture_error: Option<String>,
    /// The newest events as the seat saw them (at most `WEB_EVENTS_SENT`).
    pub events: Vec<EventView>,
    /// The decision this seat must make now.
    pub decision: Option<DecisionView>,
    /// The seat that must decide now, when it is another one (1-based).
    pub waiting_for: Option<u8>,
    /// Whether that seat is a bot thinking (ask again in a moment).
    pub thinking: bool,
    /// How the game ended.
    pub result: Option<String>,
    /// A rule error that stopped the game.
    pub stopped: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct EventView {
    /// Its place in the game's log, counted from 0 (as a replay numbers it).
    pub index: usize,
    pub depth: u16,
    pub text: String,
    pub cause: String,
    /// The event as the table tells it (runtime/talk.rs), when it does: what the page shows unless
    /// every event is asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub told: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct DecisionView {
    pub prompt: String,
    pub options: Vec<String>,
    /// How many options to pick: at least `min`, at most `max` (for an order, all of them).
    pub min: usize,
    pub max: usize,
    pub order: bool,
}

/// Why an answer was not taken.
#[derive(Debug)]
pub enum Refusal {
    /// Not this seat's turn, not a legal answer, or the game is over: the game goes on as it was.
    Refused(String),
    /// The rules failed taking the answer in: the game is stopped.
    Stopped(String),
}

/// A searching bot's decision, copied out of its table to think about on a bot thread.
pub struct Prepared {
    built: Arc<Built>,
    state: State,
    decision: Decision,
    thinking: Thinking,
}

impl Prepared {
    /// The bot's answer, thinking until its own bound, `deadline`, or `stopped` says so.
    pub fn think(&self, deadline: Instant, stopped: &(dyn Fn() -> bool + Sync)) -> Result<Answer, RtError> {
        let stop = Stop { deadline: Some(deadline), cancelled: Some(stopped), fired: None };
        self.thinking.answer(&Engine::new(&self.built.game), &self.state, &self.decision, &stop)
    }
}

impl Table {
    /// A new game of `game` for these seats, played on by the bots until a human must decide
    /// (searching bots included: for tests and tools that want the game settled at once). The
    /// table, and each human seat's secret (0-based seat).
    pub fn start(project: &Project, game: &str, variants: &[String], seats: Vec<SeatKind>, seed: u64) -> Result<Table, TableError> {
        let own = project.rules_for(game);
        let (mut table, _) = Table::with_rules(rules(project, game, variants)?, variants, &own, seats, seed)?;
        while table.bot_must_think() {
            let Some(p) = table.prepare_bot() else { break };
            let answer = p.think(Instant::now() + arbiter_syntax::budgets::WEB_THINK, &|| false);
            table.take_bot_answer(p, answer);
        }
        Ok(table)
    }

    /// A new game with rules already loaded, with the user's own rule files `own` among them
    /// (`--rules`: a save names them, to be loaded again). The quick bots play on until a human
    /// or a searching bot must decide. The table, and each human seat's secret (0-based seat),
    /// told here only: the table keeps their digests.
    pub fn with_rules(
        built: Arc<Built>,
        variants: &[String],
        own: &[std::path::PathBuf],
        seats: Vec<SeatKind>,
        seed: u64,
    ) -> Result<(Table, Vec<(u8, String)>), TableError> {
        let g = &built.game;
        let players = seats.len();
        if players < g.min_players as usize || players > g.max_players as usize {
            return Err(TableError::Players { title: g.title.clone(), min: g.min_players, max: g.max_players, players });
        }
        let specs: Vec<String> = seats
            .iter()
            .enumerate()
            .filter_map(|(i, k)| match k {
                SeatKind::Bot(b) => Some(format!("{}={b}", i + 1)),
                SeatKind::Human => None,
            })
            .collect();
        let plan = BotPlan::parse(&specs, g, players)?;
        let decklists = arbiter_runtime::decks::choose_decks_by(g, players, &[])?;
        let state = Engine::new(g).new_state(Mode::Game, Setup { players, seed, decklists }).map_err(TableError::Setup)?;
        let humans: Vec<u8> =
            (1..=players).filter(|s| seats.get(s - 1) == Some(&SeatKind::Human)).filter_map(|s| u8::try_from(s).ok()).collect();
        let mut header = arbiter_tools::save::Header::new(g, variants, &[], players, seed, &humans);
        header.bots = specs;
        header.rules = own.iter().map(|p| p.display().to_string()).collect();
        let tokens: Vec<Option<String>> = seats.iter().map(|k| (*k == SeatKind::Human).then(new_token)).collect();
        let secrets = tokens.iter().map(|t| t.as_deref().map(secret_digest)).collect();
        let told = tokens.into_iter().enumerate().filter_map(|(i, t)| Some((u8::try_from(i).ok()?, t?))).collect();
        Ok((Table::seated(built, header, state, plan, seats, secrets), told))
    }

    /// A saved game going on: its seats are played as they were (its human seats here, each with
    /// the secret it was saved with).
    pub fn resumed(built: Arc<Built>, header: arbiter_tools::save::Header, state: State) -> Result<Table, TableError> {
        let g = &built.game;
        let plan = BotPlan::parse(&header.bots, g, header.players)?;
        let mut secrets = Vec::new();
        let seats = (0..header.players)
            .map(|i| {
                let seat = u8::try_from(i + 1).unwrap_or(0);
                secrets.push(header.secrets.iter().find(|s| s.seat == seat).map(|s| s.sha256.clone()));
                if header.humans.contains(&seat) {
                    SeatKind::Human
                } else {
                    let kind = plan.seats.iter().find(|(s, _)| usize::from(*s) == i).map(|(_, k)| k).or(plan.every.as_ref());
                    SeatKind::Bot(kind.map_or("random".to_string(), ToString::to_string))
                }
            })
            .collect();
        Ok(Table::seated(built, header, state, plan, seats, secrets))
    }

    fn seated(
        built: Arc<Built>,
        mut header: arbiter_tools::save::Header,
        state: State,
        plan: BotPlan,
        seats: Vec<SeatKind>,
        secrets: Vec<Option<String>>,
    ) -> Table {
        header.secrets = secrets
            .iter()
            .enumerate()
            .filter_map(|(i, s)| Some(SeatSecret { seat: u8::try_from(i + 1).ok()?, sha256: s.clone()? }))
            .collect();
        let bots = Bots::new(plan, header.seed);
        let activity = Arc::new(Activity::new());
        let left = vec![false; seats.len()];
        let mut table = Table { built, state, bots, seats, secrets, stopped: None, left, header, activity };
        table.play_on();
        table
    }

    /// Save the game to `path` (a new file) as `seat` (0-based) saves it: everything, hidden cards
    /// too, so it is written on this machine and never sent to a seat; with each human seat's
    /// secret as a digest, so that only its holder may go on with it or replay it as that seat.
    pub fn save(&self, path: &std::path::Path, seat: u8) -> Result<(), SaveError> {
        let mut header = self.header.clone();
        header.saved_by = Some(seat + 1);
        let mut saver = arbiter_tools::save::Saver::new(header, &self.built.game, None, None)?;
        saver.save_to(&self.state, Some(path)).map(|_| ())
    }

    /// The game's name, as in `rulebooks/`.
    pub fn game(&self) -> &str {
        &self.header.game
    }

    /// The game's rules and its state (what tests compare the views with).
    pub fn rules_and_state(&self) -> (&arbiter_ir::Game, &State) {
        (&self.built.game, &self.state)
    }

    /// When the table was last asked about, and whether it is closed.
    pub fn activity(&self) -> &Arc<Activity> {
        &self.activity
    }

    /// `seat` (0-based) leaves the table: once every human seat has, the table is closed (its
    /// bots stop thinking). Whether it is.
    pub fn leave(&mut self, seat: u8) -> bool {
        if let Some(l) = self.left.get_mut(usize::from(seat)) {
            *l = true;
        }
        let all = self.seats.iter().zip(&self.left).all(|(k, l)| *k != SeatKind::Human || *l);
        if all {
            self.activity.close();
        }
        all
    }

    /// What a save of this game says it is.
    pub fn header(&self) -> &arbiter_tools::save::Header {
        &self.header
    }

    /// Whether the game is over (ended, or stopped by a rule error).
    pub fn over(&self) -> bool {
        self.state.result.is_some() || self.stopped.is_some()
    }

    /// How many seats the game has.
    pub fn seats(&self) -> usize {
        self.seats.len()
    }

    /// Whether `token` is the secret of `seat`.
    pub fn holds(&self, seat: u8, token: &str) -> bool {
        let digest = secret_digest(token);
        self.secrets.get(seat as usize).and_then(|t| t.as_deref()).is_some_and(|t| constant_time_eq(t.as_bytes(), digest.as_bytes()))
    }

    /// The bot to move now, if it is a bot's decision and the game goes on.
    fn bot_to_move(&self) -> Option<&Decision> {
        let d = self.state.pending.as_ref().filter(|_| self.stopped.is_none() && self.state.result.is_none())?;
        (self.seats.get(d.seat as usize) != Some(&SeatKind::Human)).then_some(d)
    }

    /// Whether a bot must move now that the request cannot wait for: a searching bot, or a quick
    /// one left over once `play_on`'s moment was up.
    pub fn bot_must_think(&self) -> bool {
        self.bot_to_move().is_some()
    }

    /// Advance the game: the quick bots answer, until a human or a searching bot must decide, the
    /// game ends, a rule error stops it, or `WEB_INLINE` has passed.
    fn play_on(&mut self) {
        let until = Instant::now() + WEB_INLINE;
        let built = self.built.clone();
        let engine = Engine::new(&built.game);
        while self.stopped.is_none() {
            match engine.advance(&mut self.state) {
                Err(e) => self.stopped = Some(self.rule_error(&e)),
                Ok(Status::Ended | Status::Idle) => return,
                Ok(Status::Decision) => {
                    let Some(d) = self.bot_to_move().cloned() else { return };
                    let thinking = match self.bots.thinking(&engine, &self.state, &d) {
                        Ok(t) => t,
                        Err(e) => {
                            self.stopped = Some(self.rule_error(&e));
                            return;
                        }
                    };
                    if matches!(thinking.kind, BotKind::Mcts { .. }) || Instant::now() >= until {
                        return;
                    }
                    // A quick bot whose options are heavy to weigh (greedy) stops with the moment,
                    // and its answer is let go: the bots' threads think it over, as long as a bot
                    // may think (`bot_must_think`).
                    let fired = std::sync::atomic::AtomicBool::new(false);
                    let stop = Stop { deadline: Some(until), cancelled: None, fired: Some(&fired) };
                    let answer = thinking.answer(&engine, &self.state, &d, &stop);
                    if fired.into_inner() {
                        return;
                    }
                    self.take(&engine, &thinking, answer);
                }
            }
        }
    }

    /// Take a bot's answer (or the rule error it met) into the game.
    fn take(&mut self, engine: &Engine, thinking: &Thinking, answer: Result<Answer, RtError>) {
        let Some(seat) = self.state.pending.as_ref().map(|d| d.seat) else { return };
        let taken = answer.map_err(AnswerError::Rule).and_then(|a| {
            self.bots.remember(thinking, &a);
            engine.answer(&mut self.state, seat, &a)
        });
        if let Err(e) = taken {
            self.stopped = Some(match e {
                AnswerError::Rule(e) => self.rule_error(&e),
                AnswerError::Refused(_) => "a bot's answer was refused".to_string(),
            });
        }
    }

    /// The bot's decision to think about on a bot thread, if a bot must move.
    pub fn prepare_bot(&mut self) -> Option<Prepared> {
        let d = self.bot_to_move()?.clone();
        let engine = Engine::new(&self.built.game);
        match self.bots.thinking(&engine, &self.state, &d) {
            Ok(thinking) => Some(Prepared { built: self.built.clone(), state: self.state.clone(), decision: d, thinking }),
            Err(e) => {
                self.stopped = Some(self.rule_error(&e));
                None
            }
        }
    }

    /// A bot's answer, thought about on a bot thread: taken if the game is where it was, and the
    /// quick bots play on.
    pub fn take_bot_answer(&mut self, p: Prepared, answer: Result<Answer, RtError>) {
        if self.state.decisions != p.state.decisions || self.bot_to_move().is_none() {
            return;
        }
        let engine = Engine::new(&p.built.game);
        self.take(&engine, &p.thinking, answer);
        self.play_on();
    }

    /// A rule error as the seats are told it: neither its message, which names values with
    /// everything in view (a hidden card), nor where it happened (a card's file names the card,
    /// a rule's line the branch a hidden thing took, as a secrecy audit read); both go to the
    /// server's console.
    fn rule_error(&self, e: &RtError) -> String {
        let at = self.built.game.location(e.span);
        console!("arbiter serve: a rule error stopped game {} at {at}: {}", self.header.game, e.message);
        "a rule error (where and why are on the server's console)".to_string()
    }

    /// Take `seat`'s answer (option indices, 0-based) and play on.
    pub fn answer(&mut self, seat: u8, picks: Vec<usize>) -> Result<(), Refusal> {
        if let Some(s) = &self.stopped {
            return Err(Refusal::Refused(format!("the game was stopped by a rule error: {s}")));
        }
        if self.state.result.is_some() {
            return Err(Refusal::Refused("the game is over".into()));
        }
        match &self.state.pending {
            Some(d) if d.seat == seat => {}
            Some(d) => return Err(Refusal::Refused(format!("it is P{}'s decision, not P{}'s", d.seat + 1, seat + 1))),
            None => return Err(Refusal::Refused("nothing is being asked".into())),
        }
        // Options are numbered from 0 here (the engine's own messages count from 1, for the terminal).
        let offered = self.state.pending.as_ref().map_or(0, |d| d.labels().len());
        if let Some(bad) = picks.iter().find(|p| **p >= offered) {
            return Err(Refusal::Refused(format!("there is no option {bad}: the options are numbered 0 to {}", offered.saturating_sub(1))));
        }
        let engine = Engine::new(&self.built.game);
        match engine.answer(&mut self.state, seat, &Answer(picks)) {
            Ok(()) => {}
            Err(AnswerError::Refused(e)) => return Err(Refusal::Refused(e)),
            Err(AnswerError::Rule(e)) => {
                let said = self.rule_error(&e);
                self.stopped = Some(said.clone());
                return Err(Refusal::Stopped(said));
            }
        }
        self.play_on();
        Ok(())
    }

    /// What `seat` (0-based) may see now.
    pub fn view(&self, seat: u8) -> SeatView {
        let game = &self.built.game;
        let st = &self.state;
        let from = st.log.len().saturating_sub(WEB_EVENTS_SENT);
        let events = st
            .log
            .iter()
            .enumerate()
            .skip(from)
            .filter_map(|(n, e)| {
                let p = view::project_event(game, st, e, Some(seat))?;
                let told = if talk::tells(e, seat, &[seat]) { talk::told_as(e, &p) } else { None };
                let cause = view::cause_text_seen(game, st, e, &p, Some(seat));
                Some(EventView { index: n, depth: p.depth, text: p.text, cause, told })
            })
            .collect();
        let pending = st.pending.as_ref().filter(|_| self.stopped.is_none() && st.result.is_none());
        let decision = pending.filter(|d| d.seat == seat).map(|d| {
            let options = view::menu_labels(game, st, d);
            let n = options.len();
            let (min, max, order) = match d.count {
                Count::One => (1, 1, false),
                Count::Exactly(k) => (k as usize, k as usize, false),
                Count::UpTo(k) => (0, (k as usize).min(n), false),
                Count::Order => (n, n, true),
            };
            DecisionView { prompt: d.prompt.to_string(), options, min, max, order }
        });
        // A rule error drawing the picture is shown, not hidden: the rest of the view still goes.
        let picture = game.picture.map(|_| {
            arbiter_runtime::picture::svg(game, st, &game.title, Some(seat)).map_err(|e| {
                // The message may name what the seat may not see: it goes to the console.
                console!("arbiter serve: the picture of {} cannot be drawn: {e}", self.game());
                "a rule error in the rulebook's picture function (its message is on the server's console)".to_string()
            })
        });
        SeatView {
            game: self.header.game.clone(),
            title: game.title.clone(),
            seat: seat + 1,
            table: view::table_view(game, st, Some(seat)),
            picture: picture.as_ref().and_then(|p| p.as_ref().ok()).cloned(),
            picture_error: picture.and_then(Result::err),
            events,
            decision,
            waiting_for: pending.filter(|d| d.seat != seat).map(|d| d.seat + 1),
            thinking: self.bot_to_move().is_some(),
            result: st.result.as_ref().map(|r| arbiter_runtime::view::result_line(r, st.turns)),
            stopped: self.stopped.clone(),
        }
    }
}

/// A game's rules with these variants, checked.
pub fn rules(project: &Project, game: &str, variants: &[String]) -> Result<Arc<Built>, TableError> {
    match project.load(game, variants, &[]).result {
        Ok(b) => Ok(Arc::new(b)),
        Err(d) => Err(TableError::Rules { game: game.to_string(), first: d.into_iter().next().map(Box::new) }),
    }
}

/// A fresh secret: 128 random bits in hex.
fn new_token() -> String {
    format!("{:032x}", rand::random::<u128>())
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
