//! Criterion benchmarks of the interpreter's hot paths: `cargo bench --bench hot_paths`.
//!
//! - a whole random game of tic-tac-toe, Connect Four and the card game;
//! - one step of play (answer a decision, run to the next one) from a mid-game card-game state;
//! - reading every object's `power` through the continuous modifiers (the card game's rules and
//!   its cards' modifiers);
//! - a random bot's pick among a pending decision's options (enumerating the options is part of
//!   the step of play above: the engine lists them when it asks);
//! - cloning a mid-game state and a late-game one (hundreds of decisions, thousands of events),
//!   and cloning the late one then playing a step from the clone (what a search bot does: the
//!   clone's first changes copy the shared parts they touch).
//!
//! Timings are reported, never asserted.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a benchmark fails loudly by design")]

use arbiter::agents::{Agent, RandomAgent};
use arbiter::check::Built;
use arbiter::check::project::Project;
use arbiter::runtime::state::{Mode, State};
use arbiter::runtime::{Engine, Setup, Status};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;

fn load(game: &str) -> Built {
    let project = Project::at(Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf());
    match project.load(game, &[], &[]).result {
        Ok(b) => b,
        Err(d) => panic!("{game} does not check: {d:?}"),
    }
}

fn decklists(b: &Built, players: usize) -> Vec<indexmap::IndexMap<String, Vec<arbiter::ir::DefId>>> {
    arbiter::runtime::decks::choose_decks(&b.game, players, &[]).unwrap_or_default()
}

/// Play a seeded random game; stop early after `stop_after` decisions (the state is returned).
fn play(b: &Built, seed: u64, stop_after: Option<u64>) -> State {
    let engine = Engine::new(&b.game);
    let mut st = engine.new_state(Mode::Game, Setup { players: 2, seed, decklists: decklists(b, 2) }).unwrap();
    let mut bot = RandomAgent { seed };
    loop {
        match engine.advance(&mut st).unwrap() {
            Status::Decision => {
                if stop_after.is_some_and(|n| st.decisions >= n) {
                    return st;
                }
                let d = st.pending.clone().unwrap();
                let a = bot.decide(&b.game, &st, &d);
                engine.answer(&mut st, d.seat, &a).unwrap();
            }
            _ => return st,
        }
    }
}

fn whole_games(c: &mut Criterion) {
    for game in ["tic-tac-toe", "connect-four", "bsg-ccg"] {
        let b = load(game);
        let mut seed = 0u64;
        c.bench_function(&format!("random game of {game}"), |bench| {
            bench.iter(|| {
                seed += 1;
                black_box(play(&b, seed, None))
            });
        });
    }
}

fn card_game_paths(c: &mut Criterion) {
    let b = load("bsg-ccg");
    let mid = play(&b, 7, Some(60));
    assert!(mid.pending.is_some(), "the sample game should still be running after 60 decisions");
    let engine = Engine::new(&b.game);

    c.bench_function("bsg-ccg: answer a decision and run to the next", |bench| {
        bench.iter_batched(
            || mid.clone(),
            |mut st| {
                let d = st.pending.clone().unwrap();
                let a = RandomAgent { seed: 1 }.decide(&b.game, &st, &d);
                engine.answer(&mut st, d.seat, &a).unwrap();
                black_box(engine.advance(&mut st).unwrap())
            },
            criterion::BatchSize::SmallInput,
        );
    });

    let power = *b.game.sym_index.get("power").unwrap();
    c.bench_function("bsg-ccg: read every object's power through the modifiers", |bench| {
        bench.iter(|| {
            let evaluator = engine.evaluator(&mid);
            let mut total = 0i64;
            for o in 0..mid.objects.len() {
                if let Ok(arbiter::ir::value::Value::Int(p)) = evaluator.read_field(o as u32, power, Default::default()) {
                    total += p;
                }
            }
            black_box(total)
        });
    });

    c.bench_function("bsg-ccg: a random bot picks among a decision's options", |bench| {
        let d = mid.pending.clone().unwrap();
        bench.iter(|| black_box(RandomAgent { seed: 3 }.decide(&b.game, &mid, &d)));
    });

    c.bench_function("bsg-ccg: clone a mid-game state", |bench| bench.iter(|| black_box(mid.clone())));

    // The first seeded game still running after 300 decisions.
    let late = (1..100).map(|seed| play(&b, seed, Some(300))).find(|st| st.pending.is_some()).expect("a game of 300 decisions");
    c.bench_function("bsg-ccg: clone a late-game state", |bench| bench.iter(|| black_box(late.clone())));
    c.bench_function("bsg-ccg: clone a late-game state and play a step from the clone", |bench| {
        bench.iter(|| {
            let mut st = late.clone();
            let d = st.pending.clone().unwrap();
            let a = RandomAgent { seed: 1 }.decide(&b.game, &st, &d);
            engine.answer(&mut st, d.seat, &a).unwrap();
            engine.advance(&mut st).unwrap();
            black_box(st)
        });
    });
}

criterion_group!(benches, whole_games, card_game_paths);
criterion_main!(benches);
