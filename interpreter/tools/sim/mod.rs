//! `arbiter sim`: many seeded games of one game on every core, under one or more rule sets, and
//! what they say about it (win rates, how games end, how long they last), in totals that add up:
//! game `i` of a run always uses seed `S + i`, whatever the threads or shards, so a sharded run
//! merges into exactly the totals of one run.

pub mod report;
pub mod stats;
pub mod svg;

use crate::agents::{BotPlan, Bots, plan::on_side};
use arbiter_ir::{DefId, Game};
use arbiter_runtime::state::{EventKind, Mode, State};
use arbiter_runtime::{Engine, Setup, Status};
use arbiter_syntax::diag::Diag;
use arbiter_syntax::span::Span;
use indexmap::IndexMap;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One rule set's results: counts and histograms, so that shards add up exactly.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// The variants switched on (none: the game as written).
    pub variants: Vec<String>,
    pub games: u64,
    /// Games each seat won (a shared victory counts for each winner).
    pub seat_wins: Vec<u64>,
    /// Games that ended with no winner.
    pub draws: u64,
    /// Games won by each side the rulebook declares (`side` items): some seat on the side when
    /// the game ended was among the winners.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub side_wins: BTreeMap<String, u64>,
    /// How games ended: the text of the `win` or `end draw` statement that ended them, with each
    /// number it shows put back as written (`reached {n} in all`), so that games that ended the
    /// same way count together whatever their scores; a text shown in its place stays
    /// (`side B wins: time ran out`), since it tells how.
    pub outcomes: BTreeMap<String, u64>,
    /// For each ending with numbers put back as written (`{n}`), the least and the greatest value
    /// each of them took, in order: the report fills them in (`12–19 conquest points`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub outcome_numbers: BTreeMap<String, Vec<(i64, i64)>>,
    /// Game length: how many games took each number of turns, and of decisions.
    pub turns: BTreeMap<u64, u64>,
    pub decisions: BTreeMap<u64, u64>,
    /// Games stopped by a rule error, by message (none in a sound rulebook).
    pub errors: BTreeMap<String, u64>,
    /// The seeds of the games each error stopped, the smallest `ERROR_SEEDS` of them: to play one
    /// again with `arbiter play GAME --seed S`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub error_seeds: BTreeMap<String, Vec<u64>>,
    /// For the seats whose cards are followed (see `Table::cards_of`), each card of the seat's
    /// deck by name: how the seat did in games where the card was played and where it was not.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cards: BTreeMap<String, CardTally>,
    /// Decisions a searching bot answered when its time (`--think`) ran out: where there are
    /// any, the same seeds may play otherwise on a faster or slower machine.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stopped_in_time: u64,
    /// Each game's course in one number (its seed, every answer given, how many events it logged
    /// and how it ended; `Played::course`), summed: two rule sets with the same sum over the same
    /// seeds played every game alike (the report says so). 0: not known (an older run's JSON).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub courses: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// How many seeds of the games an error stopped a tally keeps, by error (`Tally::error_seeds`).
pub const ERROR_SEEDS: usize = 5;

/// `seeds` with `more` added: the smallest `ERROR_SEEDS`, each once.
fn add_seeds(seeds: &mut Vec<u64>, more: &[u64]) {
    seeds.extend_from_slice(more);
    seeds.sort_unstable();
    seeds.dedup();
    seeds.truncate(ERROR_SEEDS);
}

/// A card is played when it comes into one of the zones the game header names with `played_in`
/// (`played_in table, resolving`: where a card in play and an event being resolved go), or, for a game
/// that names none, a zone where its kind's abilities are in effect (`active in` on the kind); or
/// when it is put onto or beneath another card (an overlay, a supply card). Counted once per
/// game, whichever copy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardTally {
    pub played: u64,
    pub played_won: u64,
    pub not_played: u64,
    pub not_played_won: u64,
}

impl Tally {
    fn add(&mut self, g: &Played) {
        self.games += 1;
        self.stopped_in_time += g.stopped_in_time;
        self.courses = self.courses.wrapping_add(g.course);
        match &g.end {
            End::Result { winners, outcome, numbers, sides } => {
                widen(self.outcome_numbers.entry(outcome.clone()).or_default(), numbers.iter().map(|n| (*n, *n)));
                for side in sides {
                    *self.side_wins.entry(side.clone()).or_default() += 1;
                }
                for &w in winners {
                    if let Some(c) = self.seat_wins.get_mut(usize::from(w)) {
                        *c += 1;
                    }
                }
                if winners.is_empty() {
                    self.draws += 1;
                }
                *self.outcomes.entry(outcome.clone()).or_default() += 1;
                for (key, played, won) in &g.cards {
                    let c = self.cards.entry(key.clone()).or_default();
                    match (played, won) {
                        (true, true) => (c.played, c.played_won) = (c.played + 1, c.played_won + 1),
                        (true, false) => c.played += 1,
                        (false, true) => (c.not_played, c.not_played_won) = (c.not_played + 1, c.not_played_won + 1),
                        (false, false) => c.not_played += 1,
                    }
                }
                *self.turns.entry(g.turns).or_default() += 1;
                *self.decisions.entry(g.decisions).or_default() += 1;
            }
            End::Error(e) => {
                *self.errors.entry(e.clone()).or_default() += 1;
                add_seeds(self.error_seeds.entry(e.clone()).or_default(), &[g.seed]);
            }
        }
    }

    /// Add another shard's tally of the same rule set.
    pub fn merge(&mut self, other: &Tally) {
        // Known only while every shard that played a game knows it (an older run's JSON has none).
        let known = |t: &Tally| t.courses != 0 || t.games == 0;
        self.courses = if known(self) && known(other) { self.courses.wrapping_add(other.courses) } else { 0 };
        self.games += other.games;
        self.stopped_in_time += other.stopped_in_time;
        if self.seat_wins.len() < other.seat_wins.len() {
            self.seat_wins.resize(other.seat_wins.len(), 0);
        }
        for (a, b) in self.seat_wins.iter_mut().zip(&other.seat_wins) {
            *a += b;
        }
        self.draws += other.draws;
        for (k, v) in &other.side_wins {
            *self.side_wins.entry(k.clone()).or_default() += v;
        }
        for (m, o) in [(&mut self.outcomes, &other.outcomes), (&mut self.errors, &other.errors)] {
            for (k, v) in o {
                *m.entry(k.clone()).or_default() += v;
            }
        }
        for (e, seeds) in &other.error_seeds {
            add_seeds(self.error_seeds.entry(e.clone()).or_default(), seeds);
        }
        for (k, ranges) in &other.outcome_numbers {
            widen(self.outcome_numbers.entry(k.clone()).or_default(), ranges.iter().copied());
        }
        for (k, c) in &other.cards {
            let m = self.cards.entry(k.clone()).or_default();
            m.played += c.played;
            m.played_won += c.played_won;
            m.not_played += c.not_played;
            m.not_played_won += c.not_played_won;
        }
        for (m, o) in [(&mut self.turns, &other.turns), (&mut self.decisions, &other.decisions)] {
            for (k, v) in o {
                *m.entry(*k).or_default() += v;
            }
        }
    }

    /// Games that reached a result.
    pub fn finished(&self) -> u64 {
        self.games - self.errors.values().sum::<u64>()
    }
}

/// A whole run: what was played, and each rule set's tally (the first is the base).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub game: String,
    pub players: usize,
    /// Game `i` of the run uses seed `seed + i`.
    pub seed: u64,
    /// The games of the whole run, for each rule set (a shard plays a slice of them).
    pub games: u64,
    pub bots: String,
    /// `--deck` choices, as given.
    pub decks: Vec<String>,
    /// `[K, N]`: this is the K-th of N shards (none: the whole run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<[u64; 2]>,
    pub rule_sets: Vec<Tally>,
}

/// The games of the run a shard plays: shard `k` of `n` (from 1) takes the k-th of `n` equal
/// contiguous slices.
pub fn shard_range(games: u64, shard: Option<[u64; 2]>) -> std::ops::Range<u64> {
    match shard {
        Some([k, n]) if n > 0 && (1..=n).contains(&k) => {
            let cut = |i: u64| u64::try_from(u128::from(games) * u128::from(i) / u128::from(n)).unwrap_or(games);
            cut(k - 1)..cut(k)
        }
        _ => 0..games,
    }
}

/// How one game ended.
#[derive(Debug, Clone)]
enum End {
    /// The winners, the ending, and the sides that won.
    Result {
        winners: Vec<u8>,
        outcome: String,
        /// The numbers the ending put back as `{..}`, in order.
        numbers: Vec<i64>,
        sides: Vec<String>,
    },
    Error(String),
}

#[derive(Debug, Clone)]
struct Played {
    /// The game's seed.
    seed: u64,
    end: End,
    turns: u64,
    decisions: u64,
    /// Decisions a searching bot answered when its time ran out (`Bots::stopped_in_time`).
    stopped_in_time: u64,
    /// Each followed card (`P1: name`): whether it was played, and whether its seat won.
    cards: Vec<(String, bool, bool)>,
    /// The game's course in one number (see `Tally::courses`).
    course: u64,
}

/// One number mixed into another (SplitMix64's finaliser): the same numbers in the same order
/// always give the same result, on any machine.
fn mix(h: u64, x: u64) -> u64 {
    let mut z = (h ^ x).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A text mixed in, byte by byte.
fn mix_text(h: u64, t: &str) -> u64 {
    t.bytes().fold(mix(h, t.len() as u64), |h, b| mix(h, u64::from(b)))
}

/// What a rule set is played with: the compiled game and each seat's deck list.
pub struct Table<'g> {
    pub game: &'g Game,
    pub decklists: Vec<IndexMap<String, Vec<DefId>>>,
    /// The seats whose cards are followed (per-card statistics), from 0.
    pub cards_of: Vec<usize>,
    /// Who plays which seat.
    pub bots: BotPlan,
    /// How long a bot may think about one decision (`--think`; `None`: no limit, so that a seed
    /// plays the same on any machine).
    pub think: Option<std::time::Duration>,
}

/// Play games `range` of a run (seeds `seed + i`) on the current rayon pool, calling `progress`
/// after each; the games' results in order, so the tally is the same on any number of threads.
pub fn play_range(table: &Table, players: usize, seed: u64, range: std::ops::Range<u64>, progress: &(dyn Fn() + Sync)) -> Tally {
    let played: Vec<Played> = range
        .into_par_iter()
        .map_init(
            || Engine::new(table.game),
            |engine, i| {
                let p = play_one(engine, table, players, seed.wrapping_add(i));
                progress();
                p
            },
        )
        .collect();
    let side_wins = table.game.sides.iter().map(|s| (s.name.clone(), 0)).collect();
    let mut tally = Tally { seat_wins: vec![0; players], side_wins, ..Tally::default() };
    for p in &played {
        tally.add(p);
    }
    tally
}

/// One seeded game between the table's bots.
fn play_one(engine: &Engine, table: &Table, players: usize, seed: u64) -> Played {
    let game = table.game;
    let setup = Setup { players, seed, decklists: table.decklists.clone() };
    let mut st = match engine.new_state(Mode::Game, setup) {
        Ok(st) => st,
        Err(e) => {
            let course = mix_text(mix(0, seed), &e.message);
            return Played { seed, end: End::Error(e.message.clone()), turns: 0, decisions: 0, stopped_in_time: 0, cards: vec![], course };
        }
    };
    let mut bots = Bots::new(table.bots.clone(), seed).thinking_at_most(table.think);
    // The answers given, in order (see `Tally::courses`).
    let mut course = mix(0, seed);
    let end = loop {
        match engine.advance(&mut st) {
            Ok(Status::Decision) => {
                let Some(d) = st.pending.as_ref() else { break End::Error("a decision without a question".into()) };
                let seat = d.seat;
                let answer = match bots.decide(engine, &st, d) {
                    Ok(a) => a,
                    Err(e) => break End::Error(stopped("a bot stopped", game, &e)),
                };
                course = answer.0.iter().fold(mix(course, answer.0.len() as u64), |h, &i| mix(h, i as u64));
                if let Err(e) = engine.answer(&mut st, seat, &answer) {
                    break End::Error(format!("a bot's answer was refused: {e}"));
                }
            }
            Ok(_) => break outcome(engine, &st),
            Err(e) => break End::Error(format!("{} ({})", e.message, game.location(e.span))),
        }
    };
    let cards = match &end {
        End::Result { winners, .. } => followed_cards(table, &st, winners),
        End::Error(_) => vec![],
    };
    let course = match &end {
        End::Result { winners, outcome, .. } => {
            let c = winners.iter().fold(mix(course, st.log.len() as u64), |h, w| mix(h, u64::from(*w)));
            mix_text(c, outcome)
        }
        End::Error(e) => mix_text(mix(course, st.log.len() as u64), e),
    };
    Played { seed, end, turns: u64::from(st.turns), decisions: st.decisions, stopped_in_time: bots.stopped_in_time(), cards, course }
}

/// A rule error met by the bots or the tally, as the report lists it: what stopped, the message,
/// the rule and where it is written.
fn stopped(what: &str, game: &Game, e: &arbiter_runtime::RtError) -> String {
    let rule = e.rule.as_ref().map(|r| format!(" in {r}")).unwrap_or_default();
    format!("{what}: {}{rule} ({})", e.message, game.location(e.span))
}

/// For each followed seat, each card of its deck (by name, once): whether a card of that name the
/// seat owns came into a zone where its kind is active, and whether the seat won.
fn followed_cards(table: &Table, st: &State, winners: &[u8]) -> Vec<(String, bool, bool)> {
    use arbiter_runtime::state::Place;
    let game = table.game;
    let mut out = Vec::new();
    for &seat in &table.cards_of {
        let Some(deck) = table.decklists.get(seat) else { continue };
        let mut defs: Vec<DefId> = deck.values().flatten().copied().collect();
        defs.sort_unstable();
        defs.dedup();
        let owner = u8::try_from(seat).unwrap_or(u8::MAX);
        let mut played = vec![false; defs.len()];
        for e in st.log.iter() {
            let (obj, def, active) = match &e.kind {
                EventKind::Moved { obj, def, to, .. } | EventKind::Created { obj, def, to } => {
                    let Place::Zone(z) = to else { continue };
                    let active = if game.played_in.is_empty() {
                        game.def(*def).and_then(|d| game.kind(d.kind)).is_some_and(|k| k.active_in.contains(&z.zone))
                    } else {
                        game.played_in.contains(&z.zone)
                    };
                    (*obj, *def, active)
                }
                // Onto another card or beneath it: an overlay, a supply card.
                EventKind::Put { obj, def, .. } => (*obj, *def, true),
                _ => continue,
            };
            if active
                && st.obj(obj).is_some_and(|o| o.owner == owner)
                && let Ok(i) = defs.binary_search(&def)
                && let Some(p) = played.get_mut(i)
            {
                *p = true;
            }
        }
        let won = winners.contains(&owner);
        for (d, p) in defs.iter().zip(played) {
            let name = game.def(*d).map_or_else(|| format!("#{d}"), |x| x.name.clone());
            out.push((format!("P{}: {name}", seat + 1), p, won));
        }
    }
    out
}

/// The most bytes of a game's ending a tally keeps.
const ENDING_SHOWN: usize = 300;

/// The result of a finished game, with the rule that ended it (see `Tally::outcomes`).
fn outcome(engine: &Engine, st: &State) -> End {
    let game = engine.game;
    use arbiter_ir::{StmtKindIr, TextPiece};
    let Some(result) = &st.result else { return End::Error("the game stopped without a result".into()) };
    // The `win` or `end draw` statement that ended the game: its reason as written.
    let ended_by = st.log.iter().rev().find(|e| matches!(e.kind, EventKind::GameOver { .. })).map(|e| e.cause.span);
    let written = ended_by.and_then(|span| {
        game.blocks.iter().flat_map(|b| b.iter()).find_map(|stmt| match &stmt.kind {
            StmtKindIr::Win { reason, .. } | StmtKindIr::Draw(reason) if stmt.span == span => Some(reason),
            _ => None,
        })
    });
    let outcome = match written {
        Some(pieces) => {
            let template: Vec<Piece> = pieces
                .iter()
                .map(|p| match p {
                    TextPiece::Text(t) => Piece::Text(t.clone()),
                    // A constant is the same in every game: it is shown as it ran.
                    TextPiece::Expr(x) if matches!(x.kind, arbiter_ir::ExprKindIr::Const(_) | arbiter_ir::ExprKindIr::Lit(_)) => {
                        Piece::Fixed
                    }
                    TextPiece::Expr(x) => {
                        let source = game.file(x.span.file).map_or("..", |f| f.slice(x.span));
                        Piece::Hole(format!("{{{source}}}"))
                    }
                })
                .collect();
            kind_and_numbers(&template, &result.reason)
        }
        None => (result.reason.clone(), vec![]),
    };
    let (outcome, numbers) = outcome;
    // Kept for every game until the tally, and a key of the report: cut (a rule can end a game
    // with a megabyte's text, and a thousand games held a gigabyte).
    let outcome = arbiter_ir::display::Clip::cut(outcome, ENDING_SHOWN);
    // The sides that won: those with a winner among their seats as the game ended.
    let mut sides = Vec::new();
    for s in &game.sides {
        for &w in &result.winners {
            match on_side(engine, st, &s.name, w) {
                Ok(true) => {
                    sides.push(s.name.clone());
                    break;
                }
                Ok(false) => {}
                Err(e) => return End::Error(stopped("telling the sides stopped", game, &e)),
            }
        }
    }
    End::Result { winners: result.winners.clone(), outcome, numbers, sides }
}

/// Each range made wide enough to hold the one at its place in `more`.
pub(super) fn widen(ranges: &mut Vec<(i64, i64)>, more: impl Iterator<Item = (i64, i64)>) {
    for (i, (lo, hi)) in more.enumerate() {
        match ranges.get_mut(i) {
            Some(r) => *r = (r.0.min(lo), r.1.max(hi)),
            None => ranges.push((lo, hi)),
        }
    }
}

/// A piece of a reason as its statement writes it: text, a `{..}` filled in when it runs, or a
/// `{..}` that is the same in every game (a constant), filled in as it ran.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Text(String),
    Hole(String),
    Fixed,
}

/// The reason a game ended, told by its kind: the statement's `template` with each hole filled
/// as in `reason`, except that a number stays `{..}`, and a number inside a filled text becomes
/// `{n}` (a text passed on from elsewhere: `"{kind}"`); numbers written in the statement itself
/// stay (see `Tally::outcomes`). The template as written when the reason does not follow it.
pub fn kind_of(template: &[Piece], reason: &str) -> String {
    kind_and_numbers(template, reason).0
}

/// `kind_of`, with the numbers put back as `{..}`, in order (see `Tally::outcome_numbers`).
pub fn kind_and_numbers(template: &[Piece], reason: &str) -> (String, Vec<i64>) {
    let written = || {
        let text = template
            .iter()
            .map(|p| match p {
                Piece::Text(t) | Piece::Hole(t) => t.as_str(),
                Piece::Fixed => "{..}",
            })
            .collect::<String>();
        (text, vec![])
    };
    let mut numbers = Vec::new();
    let mut out = String::new();
    let mut rest = reason;
    let mut pieces = template.iter().peekable();
    while let Some(p) = pieces.next() {
        match p {
            Piece::Text(t) => {
                let Some(r) = rest.strip_prefix(t.as_str()) else { return written() };
                out.push_str(t);
                rest = r;
            }
            Piece::Hole(_) | Piece::Fixed => {
                // The hole takes everything up to the next text (or to the end).
                let end = match pieces.peek() {
                    Some(Piece::Text(next)) if !next.is_empty() => match rest.find(next.as_str()) {
                        Some(i) => i,
                        None => return written(),
                    },
                    _ => rest.len(),
                };
                let (filled, r) = rest.split_at(end);
                let number = !filled.is_empty() && filled.trim_start_matches('-').chars().all(|c| c.is_ascii_digit());
                match p {
                    Piece::Fixed => out.push_str(filled),
                    Piece::Hole(h) if number => {
                        numbers.push(filled.parse().unwrap_or(0));
                        out.push_str(h);
                    }
                    _ => out.push_str(&numbers_hidden(filled, &mut numbers)),
                }
                rest = r;
            }
        }
    }
    if rest.is_empty() { (out, numbers) } else { written() }
}

/// A text with each number in it (a run of digits standing alone) written `{n}`, each number
/// pushed on `numbers`.
fn numbers_hidden(text: &str, numbers: &mut Vec<i64>) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    let mut prev: Option<char> = None;
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() && !prev.is_some_and(|p| p.is_alphanumeric()) {
            let mut run = String::from(c);
            while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
                run.push(d);
                chars.next();
            }
            if chars.peek().is_some_and(|n| n.is_alphanumeric()) {
                out.push_str(&run);
            } else {
                numbers.push(run.parse().unwrap_or(0));
                out.push_str("{n}");
            }
            prev = run.chars().last();
        } else {
            out.push(c);
            prev = Some(c);
        }
    }
    out
}

/// Why shards cannot be merged into one run (`file`: the shard's place among those given, from 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    #[error("no shards to merge")]
    NoShards,
    #[error("the first file is a whole run, not a shard (made with `--shard K/N`)")]
    FirstWhole,
    #[error("file {file} is a shard of another run (game, players, seed, games, bots, decks and rule sets must match)")]
    OtherRun { file: usize },
    #[error("file {file} is a whole run, not a shard")]
    Whole { file: usize },
    /// Shard `k` of `m`, where the first file is one of `n`.
    #[error("file {file} is shard {k} of {m}, the first of {n}")]
    OtherCount { file: usize, k: u64, m: u64, n: u64 },
    #[error("file {file}: no shard {k} of {n}")]
    NoSuchShard { file: usize, k: u64, n: u64 },
    #[error("shard {k} of {n} is given twice")]
    Twice { k: u64, n: u64 },
    #[error("shard {k} of {n} is missing")]
    Missing { k: u64, n: u64 },
}

impl MergeError {
    /// What to do about it.
    pub fn help(&self) -> &'static str {
        match self {
            MergeError::NoShards | MergeError::Missing { .. } => {
                "give every shard's JSON once: `arbiter sim merge part-1.json part-2.json ... --json all.json`"
            }
            MergeError::FirstWhole | MergeError::Whole { .. } => "merge the files of a run made with `--shard K/N`",
            MergeError::OtherRun { .. } | MergeError::OtherCount { .. } | MergeError::NoSuchShard { .. } => {
                "merge the shards of one run only: the same command with `--shard 1/N` to `--shard N/N`"
            }
            MergeError::Twice { .. } => "give each shard once",
        }
    }

    pub fn to_diag(&self) -> Diag {
        Diag::error(Span::NONE, self.to_string()).help(self.help())
    }
}

impl From<MergeError> for Diag {
    fn from(e: MergeError) -> Diag {
        e.to_diag()
    }
}

/// Merge shards of one run into the run's totals; the shards must be all of one run, each once.
pub fn merge(shards: &[Run]) -> Result<Run, MergeError> {
    let first = shards.first().ok_or(MergeError::NoShards)?;
    let n = match first.shard {
        Some([_, n]) => n,
        None => return Err(MergeError::FirstWhole),
    };
    let mut seen = vec![false; usize::try_from(n).unwrap_or(0)];
    let mut out = Run { shard: None, rule_sets: vec![], ..first.clone() };
    for (i, s) in shards.iter().enumerate() {
        let same = s.game == first.game
            && s.players == first.players
            && s.seed == first.seed
            && s.games == first.games
            && s.bots == first.bots
            && s.decks == first.decks
            && s.rule_sets.iter().map(|t| &t.variants).eq(first.rule_sets.iter().map(|t| &t.variants));
        let file = i + 1;
        if !same {
            return Err(MergeError::OtherRun { file });
        }
        let Some([k, m]) = s.shard else { return Err(MergeError::Whole { file }) };
        if m != n {
            return Err(MergeError::OtherCount { file, k, m, n });
        }
        let slot =
            seen.get_mut(usize::try_from(k.saturating_sub(1)).unwrap_or(usize::MAX)).ok_or(MergeError::NoSuchShard { file, k, n })?;
        if *slot {
            return Err(MergeError::Twice { k, n });
        }
        *slot = true;
        if out.rule_sets.is_empty() {
            out.rule_sets = s.rule_sets.clone();
        } else {
            for (a, b) in out.rule_sets.iter_mut().zip(&s.rule_sets) {
                a.merge(b);
            }
        }
    }
    if let Some(k) = seen.iter().position(|s| !s) {
        return Err(MergeError::Missing { k: k as u64 + 1, n });
    }
    Ok(out)
}
