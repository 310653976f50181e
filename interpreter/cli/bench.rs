//! `arbiter bench`: parse-and-check time and random games per second, on one core.

use super::play::choose_decks;
use crate::agents::{Agent, RandomAgent};
use crate::check::project::Project;
use crate::runtime::state::Mode;
use crate::runtime::{Engine, Setup, Status};
use std::time::Instant;

pub fn run(project: &Project, game: &str, games: u64, players: Option<usize>, seed: u64) -> i32 {
    let t0 = Instant::now();
    let loaded = project.load(game, &[], &[]);
    let parse_check = t0.elapsed();
    let built = match &loaded.result {
        Ok(b) => b,
        Err(d) => {
            print!("{}", crate::diag::render(d, &loaded.files));
            return 1;
        }
    };
    let g = &built.game;
    let lines: usize = loaded.files.iter().map(|f| f.text.lines().count()).sum();
    println!("parse and check: {} files, {lines} lines in {:.1} ms", loaded.files.len(), parse_check.as_secs_f64() * 1e3);
    let players = players.unwrap_or(g.min_players as usize);
    let engine = Engine::new(g);
    let t1 = Instant::now();
    let mut decisions = 0u64;
    let mut turns = 0u64;
    for i in 0..games {
        let s = seed.wrapping_add(i);
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
    }
    let secs = t1.elapsed().as_secs_f64();
    println!(
        "{games} random games of {game} ({players} players): {:.2} s, {:.1} games/s, {:.0} decisions/s, {:.1} turns per game",
        secs,
        games as f64 / secs.max(1e-9),
        decisions as f64 / secs.max(1e-9),
        turns as f64 / games.max(1) as f64
    );
    0
}
