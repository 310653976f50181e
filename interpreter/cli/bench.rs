//! `arbiter bench`: parse-and-check time and random games per second, on one core.

use super::play::choose_decks;
use crate::agents::{Agent, RandomAgent};
use crate::check::project::Project;
use crate::runtime::state::Mode;
use crate::runtime::{Engine, Setup, Status};
use std::time::Instant;

pub struct Options {
    pub game: String,
    pub games: u64,
    /// `4`, or a range `3-6` played in turn.
    pub players: Option<String>,
    pub seed: u64,
    pub variants: Vec<String>,
}

/// `4` or `3-6`.
fn player_counts(spec: Option<&str>, default: usize) -> Result<Vec<usize>, String> {
    let Some(spec) = spec else { return Ok(vec![default]) };
    let num = |t: &str| t.trim().parse::<usize>().map_err(|_| format!("`--players {spec}`: write a number like `4` or a range like `3-6`"));
    match spec.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (num(a)?, num(b)?);
            if a > b {
                return Err(format!("`--players {spec}`: the range is empty"));
            }
            Ok((a..=b).collect())
        }
        None => Ok(vec![num(spec)?]),
    }
}

pub fn run(project: &Project, o: &Options) -> i32 {
    let (game, games, seed) = (o.game.as_str(), o.games, o.seed);
    let t0 = Instant::now();
    let loaded = project.load(game, &o.variants, &[]);
    let parse_check = t0.elapsed();
    let built = match &loaded.result {
        Ok(b) => b,
        Err(d) => {
            out!("{}", crate::diag::render(d, &loaded.files));
            return 1;
        }
    };
    let g = &built.game;
    let lines: usize = loaded.files.iter().map(|f| f.text.lines().count()).sum();
    outln!("parse and check: {} files, {lines} lines in {:.1} ms", loaded.files.len(), parse_check.as_secs_f64() * 1e3);
    let counts = match player_counts(o.players.as_deref(), g.min_players as usize) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    if let Some(n) = counts.iter().find(|n| **n < g.min_players as usize || **n > g.max_players as usize) {
        eprintln!("error: {game} is for {} to {} players, not {n}", g.min_players, g.max_players);
        return 2;
    }
    let engine = Engine::new(g);
    let t1 = Instant::now();
    let mut decisions = 0u64;
    let mut turns = 0u64;
    let mut reasons: indexmap::IndexMap<String, u64> = indexmap::IndexMap::new();
    for i in 0..games {
        let s = seed.wrapping_add(i);
        let players = counts.get(usize::try_from(i).unwrap_or(0) % counts.len()).copied().unwrap_or(g.min_players as usize);
        let decklists = match choose_decks(g, players, &[]) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        };
        let mut st = match engine.new_state(Mode::Game, Setup { players, seed: s, decklists }) {
            Ok(st) => st,
            Err(e) => {
                eprintln!("error: {}", e.message);
                return 2;
            }
        };
        let mut bot = RandomAgent { seed: s };
        loop {
            match engine.advance(&mut st) {
                Ok(Status::Decision) => {
                    let Some(d) = st.pending.clone() else { break };
                    let a = bot.decide(g, &st, &d);
                    if engine.answer(&mut st, d.seat, &a).is_err() {
                        eprintln!("error: a bot answer was refused (seed {s})");
                        return 2;
                    }
                    decisions += 1;
                }
                Ok(_) => break,
                Err(e) => {
                    eprintln!("error: seed {s}: {}", e.message);
                    return 2;
                }
            }
        }
        turns += u64::from(st.turns);
        let why = st.result.as_ref().map_or_else(|| "unfinished".to_string(), |r| r.reason.clone());
        *reasons.entry(why).or_default() += 1;
    }
    let secs = t1.elapsed().as_secs_f64();
    let players = counts.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
    let variants = if o.variants.is_empty() { String::new() } else { format!(", variants {}", o.variants.join(", ")) };
    outln!(
        "{games} random games of {game} ({players} players{variants}): {:.2} s, {:.1} games/s, {:.0} decisions/s, {:.1} turns per game",
        secs,
        games as f64 / secs.max(1e-9),
        decisions as f64 / secs.max(1e-9),
        turns as f64 / games.max(1) as f64
    );
    reasons.sort_by(|_, a, _, b| b.cmp(a));
    for (why, n) in &reasons {
        outln!("  {n:>5}  {why}");
    }
    0
}
