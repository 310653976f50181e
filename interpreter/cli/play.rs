//! `arbiter play`: a whole game with seeded random bots and any human seats.

use super::human::Human;
use crate::agents::{Agent, RandomAgent};
use crate::check::decks;
use crate::check::ir::{DefId, Game};
use crate::check::project::Project;
use crate::diag;
use crate::runtime::state::{GameResult, Mode, State};
use crate::runtime::{AnswerError, Engine, Setup, Status, view};
use indexmap::IndexMap;
use std::path::PathBuf;

pub struct PlayOptions {
    pub game: String,
    pub players: Option<usize>,
    pub seed: u64,
    pub variants: Vec<String>,
    pub humans: Vec<u8>,
    /// Bots play every seat; print only what this seat (1, 2, ...) sees.
    pub view: Option<u8>,
    pub decks: Vec<String>,
    pub log: bool,
    pub resume: Option<PathBuf>,
    pub svg: Option<PathBuf>,
}

/// Which deck each seat plays: the one given with `--deck`, else the game's decks in turn.
pub fn choose_decks(game: &Game, players: usize, given: &[(usize, u32)]) -> Result<Vec<IndexMap<String, Vec<DefId>>>, String> {
    if game.decks.is_empty() {
        return Ok(vec![IndexMap::new(); players]);
    }
    let mut out = Vec::new();
    let defaults: Vec<usize> =
        (0..game.decks.len()).filter(|i| !given.iter().any(|(_, f)| game.decks.get(*i).is_some_and(|d| d.span.file == *f))).collect();
    let defaults = if defaults.is_empty() { (0..game.decks.len()).collect() } else { defaults };
    for seat in 0..players {
        let deck = match given.iter().find(|(s, _)| *s == seat) {
            Some((_, file)) => game
                .decks
                .iter()
                .find(|d| d.span.file == *file)
                .ok_or_else(|| format!("the deck file for seat {} holds no `deck`", seat + 1))?,
            None => defaults.get(seat % defaults.len()).and_then(|i| game.decks.get(*i)).ok_or("no decks")?,
        };
        out.push(decks::expand(game, deck));
    }
    Ok(out)
}

pub fn result_line(r: &GameResult, turns: u32) -> String {
    let seats = |v: &[u8]| v.iter().map(|s| format!("P{}", s + 1)).collect::<Vec<_>>().join(", ");
    let losers: Vec<u8> = r.losers.iter().map(|(s, _)| *s).collect();
    let who = match r.winners.as_slice() {
        [] => format!("no winner; {} lose", seats(&losers)),
        [w] => {
            if losers.is_empty() {
                format!("P{} wins", w + 1)
            } else {
                format!("P{} wins; {} lose{}", w + 1, seats(&losers), if losers.len() == 1 { "s" } else { "" })
            }
        }
        ws => {
            if losers.is_empty() {
                format!("{} win together", seats(ws))
            } else {
                format!("{} win; {} lose{}", seats(ws), seats(&losers), if losers.len() == 1 { "s" } else { "" })
            }
        }
    };
    format!("result after {turns} turn{}: {who} — {}", if turns == 1 { "" } else { "s" }, r.reason)
}

pub fn run(project: &Project, o: &PlayOptions) -> i32 {
    let mut given = Vec::new();
    let mut extra = Vec::new();
    for d in &o.decks {
        let Some((seat, file)) = d.split_once('=') else {
            eprintln!("error: `--deck {d}`: write it as SEAT=FILE, like `--deck 1=my-deck.arb`");
            return 2;
        };
        let Ok(seat) = seat.parse::<usize>() else {
            eprintln!("error: `--deck {d}`: `{seat}` is not a seat number");
            return 2;
        };
        given.push((seat.saturating_sub(1), PathBuf::from(file)));
        extra.push(PathBuf::from(file));
    }
    let loaded = project.load(&o.game, &o.variants, &extra);
    let built = match &loaded.result {
        Ok(b) => b,
        Err(d) => {
            out!("{}", diag::render(d, &loaded.files));
            eprintln!("error: {} in `{}`", diag::summary(d), o.game);
            return 1;
        }
    };
    let game = &built.game;
    let players = o.players.unwrap_or(game.min_players as usize);
    if players < game.min_players as usize || players > game.max_players as usize {
        eprintln!("error: {} is for {} to {} players, not {players}", game.name, game.min_players, game.max_players);
        return 2;
    }
    if let Some(&seat) = o.view.iter().chain(&o.humans).find(|s| **s == 0 || usize::from(**s) > players) {
        eprintln!("error: there is no seat {seat} in a {players}-player game (seats are 1 to {players})");
        return 2;
    }
    let files: Vec<(usize, u32)> = given
        .iter()
        .filter_map(|(s, p)| {
            let name = project.display(p);
            loaded.files.iter().position(|f| f.name == name).map(|i| (*s, i as u32))
        })
        .collect();
    let decklists = match choose_decks(game, players, &files) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let mut bad = Vec::new();
    for d in &game.decks {
        if files.iter().any(|(_, f)| *f == d.span.file) {
            bad.extend(decks::validate(game, d));
        }
    }
    if !bad.is_empty() {
        out!("{}", diag::render(&bad, &loaded.files));
        eprintln!("error: a deck breaks the deckbuilding rules");
        return 1;
    }
    let engine = Engine::new(game);
    let mut st = match &o.resume {
        Some(path) => match load_state(path, game) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        },
        None => match engine.new_state(Mode::Game, Setup { players, seed: o.seed, decklists }) {
            Ok(s) => s,
            Err(e) => {
                out!("{}", diag::render(&[e.to_diag()], &game.files));
                return 2;
            }
        },
    };
    let variants = if game.active_variants.is_empty() { String::new() } else { format!(" with {}", game.active_variants.join(", ")) };
    outln!("{} — {players} players, seed {}{variants}", if game.title.is_empty() { &game.name } else { &game.title }, o.seed);
    let mut bots = RandomAgent { seed: o.seed };
    let mut human = Human::new(o.humans.iter().map(|h| h.saturating_sub(1)).collect());
    let mut printed = st.log.len();
    let mut pictured_turn: Option<u32> = None;
    if let Some(dir) = &o.svg
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        eprintln!("error: cannot make `{}`: {e}", dir.display());
        return 2;
    }
    loop {
        let status = match engine.advance(&mut st) {
            Ok(s) => s,
            Err(e) => {
                out!("{}", diag::render(&[e.to_diag()], &game.files));
                eprintln!("error: the game stopped on a rule error (seed {})", o.seed);
                return 2;
            }
        };
        if o.log {
            out!("{}", events_since(game, &st, printed, None));
            printed = st.log.len();
        } else if let Some(seat) = o.view.map(|v| v.saturating_sub(1)).or(human.seats.first().copied()) {
            out!("{}", events_since(game, &st, printed, Some(seat)));
            printed = st.log.len();
        }
        if let Some(dir) = &o.svg
            && pictured_turn != Some(st.turns)
            && st.turns > 0
        {
            pictured_turn = Some(st.turns);
            if let Err(e) =
                super::render::write_picture(game, &st, &dir.join(format!("turn-{:03}.svg", st.turns)), &format!("turn {}", st.turns))
            {
                eprintln!("error: {e}");
                return 2;
            }
        }
        match status {
            Status::Ended | Status::Idle => break,
            Status::Decision => {
                let Some(d) = st.pending.clone() else { break };
                let taken = if human.seats.contains(&d.seat) {
                    match human.ask(&engine, &mut st, &d) {
                        Ok(true) => Ok(()),
                        Ok(false) => {
                            outln!("game left unfinished");
                            return 0;
                        }
                        Err(e) => Err(AnswerError::Rule(e)),
                    }
                } else {
                    let a = bots.decide(game, &st, &d);
                    engine.answer(&mut st, d.seat, &a)
                };
                match taken {
                    Ok(()) => {}
                    Err(AnswerError::Refused(e)) => {
                        eprintln!("error: the bot's answer was refused: {e}");
                        return 2;
                    }
                    Err(AnswerError::Rule(e)) => {
                        out!("{}", diag::render(&[e.to_diag()], &game.files));
                        eprintln!("error: the game stopped on a rule error (seed {})", o.seed);
                        return 2;
                    }
                }
            }
        }
    }
    if let Some(dir) = &o.svg
        && let Err(e) = super::render::write_picture(game, &st, &dir.join("end.svg"), "the end")
    {
        eprintln!("error: {e}");
        return 2;
    }
    if let Some(seat) = o.view {
        out!("the table as P{seat} sees it:\n{}", view::view(game, &st, Some(seat.saturating_sub(1))));
    }
    match &st.result {
        Some(r) => outln!("{}", result_line(r, st.turns)),
        None => outln!("result: the game ended without a result"),
    }
    0
}

/// New events as the viewer sees them, runs of identical lines collapsed (`… ×60`).
pub fn events_since(game: &Game, st: &State, from: usize, viewer: Option<u8>) -> String {
    let events = st.log.get(from..).unwrap_or(&[]);
    if viewer.is_none() {
        return view::trace_of(game, st, events, None, true);
    }
    let text = view::trace_of(game, st, events, viewer, false);
    let mut out = String::new();
    let mut last: Option<(&str, usize)> = None;
    let flush = |out: &mut String, last: Option<(&str, usize)>| {
        if let Some((l, n)) = last {
            if n > 1 {
                out.push_str(&format!("{l} ×{n}\n"));
            } else {
                out.push_str(&format!("{l}\n"));
            }
        }
    };
    for line in text.lines() {
        match last {
            Some((l, n)) if l == line => last = Some((l, n + 1)),
            _ => {
                flush(&mut out, last);
                last = Some((line, 1));
            }
        }
    }
    flush(&mut out, last);
    out
}

pub fn load_state(path: &std::path::Path, game: &Game) -> Result<State, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let st: State = serde_json::from_str(&text).map_err(|e| format!("`{}` is not a saved game: {e}", path.display()))?;
    let want = crate::runtime::engine::fingerprint(game);
    if st.fingerprint != want {
        return Err(format!("`{}` was saved from different rules ({}), not {want}", path.display(), st.fingerprint));
    }
    Ok(st)
}
