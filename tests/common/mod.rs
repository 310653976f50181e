//! What the seeded-game test harnesses share: loading a game with variants, playing it with random
//! bots until it ends (or until a condition holds at a decision), and finding a zone by name.

#![allow(dead_code, reason = "each harness uses the helpers it needs")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a test fails loudly by design")]

pub mod secrecy_table;
pub mod serve;

use arbiter::agents::{Agent, RandomAgent};
use arbiter::check::Built;
use arbiter::check::project::Project;
use arbiter::runtime::state::{Mode, State};
use arbiter::runtime::{Engine, Setup, Status};
use std::path::Path;

/// A game of this repository with variants switched on; a game that does not check fails the test.
pub fn load(game: &str, variants: &[String]) -> Built {
    let project = Project::at(Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf());
    match project.load(game, variants, &[]).result {
        Ok(b) => b,
        Err(d) => panic!("{game} does not check with {variants:?}: {d:?}"),
    }
}

/// Play a seeded random-bot game until it ends, or until `stop` says so at a decision.
pub fn play_until(b: &Built, seed: u64, players: usize, stop: &dyn Fn(&State) -> bool) -> State {
    play_on(&Engine::new(&b.game), seed, players, stop)
}

/// `play_until` on a given engine (one that profiles, say).
pub fn play_on(engine: &Engine, seed: u64, players: usize, stop: &dyn Fn(&State) -> bool) -> State {
    let game = engine.game;
    // The default decks, as `arbiter play` deals them (none for a game without decks).
    let decklists = arbiter::runtime::decks::choose_decks(game, players, &[]).expect("default decks");
    let mut st = engine.new_state(Mode::Game, Setup { players, seed, decklists }).expect("new state");
    let mut bot = RandomAgent { seed };
    loop {
        match engine.advance(&mut st) {
            Ok(Status::Decision) => {
                if stop(&st) {
                    return st;
                }
                let d = st.pending.clone().expect("pending decision");
                let a = bot.decide(game, &st, &d);
                engine.answer(&mut st, d.seat, &a).expect("bot answers are legal");
            }
            Ok(_) => return st,
            Err(e) => panic!("seed {seed}, {players} players: engine error: {} at {}", e.message, game.location(e.span)),
        }
    }
}

/// A whole game written in one text, as a rulebook file: compiled, or its diagnostics.
pub fn compile_text(name: &str, text: &str) -> Result<Built, Vec<arbiter::diag::Diag>> {
    use arbiter::check::{Input, Role, compile};
    let sources = arbiter::syntax::source_map::SourceMap::new();
    let source = sources.add(name, text.to_string());
    let file = sources.parse(&source).map_err(|d| vec![d])?;
    compile(vec![source], &[Input { file, role: Role::Rulebook }], &[])
}

/// `compile_text` for a game that must check.
pub fn game_text(name: &str, text: &str) -> Built {
    compile_text(name, text).unwrap_or_else(|d| panic!("`{name}` does not check: {d:?}"))
}

/// The id of a zone, by name.
pub fn zone_id(b: &Built, name: &str) -> u16 {
    u16::try_from(b.game.zones.iter().position(|z| z.name == name).unwrap_or_else(|| panic!("no zone {name}"))).unwrap()
}

/// A two-player game (seed 1) of a probe whose setup and first turn end it without a decision:
/// the state it ends in.
pub fn played_out(engine: &Engine) -> State {
    let mut st = engine.new_state(Mode::Game, Setup { players: 2, seed: 1, decklists: vec![] }).expect("new state");
    assert!(matches!(engine.advance(&mut st), Ok(Status::Ended)), "the probe ends without a decision");
    st
}

/// The names of definitions the full table shows that `seat` may not know now and never saw
/// (neither in its view nor in any event it was shown), and the names it may see, longest first.
pub fn hidden_names(game: &arbiter::ir::Game, st: &State, seat: u8) -> (Vec<String>, Vec<String>) {
    use arbiter::runtime::view;
    let everything = view::view(game, st, None);
    let known = format!("{}\n{}", view::view(game, st, Some(seat)), view::trace(game, st, Some(seat), true));
    let mut names: Vec<String> = game.defs.iter().map(|d| d.name.clone()).collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    names.dedup();
    let allowed: Vec<String> = names.iter().filter(|n| known.contains(n.as_str())).cloned().collect();
    let hidden = names.into_iter().filter(|n| everything.contains(n.as_str()) && !allowed.contains(n)).collect();
    (hidden, allowed)
}
