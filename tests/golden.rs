//! Golden playthroughs: seeded random-bot games of every game, at the default rules and with each
//! variant, kept as their whole log (one event per line, as `arbiter play --log` shows it without
//! causes) in tests/golden/<game>/<config>.log. Each is replayed and compared line by line; the
//! first differing event fails the test, printed with its neighbours as expected and as played.
//!
//! After a deliberate rules change, rewrite them all (and remove those no longer played) with
//!
//!     ARBITER_UPDATE_GOLDEN=1 cargo test --test golden
//!
//! and read the diff before committing it. When the change is the engine's, not a rule file's (every
//! game's logs change), give `arbiter_runtime::PLAYS` a new number in the same commit: saves
//! record it, and the replay of an older save then says why it parts from the save. A change of
//! the random bot's draws changes every log too, but not `PLAYS`: a save holds the answers given,
//! not the bot that gave them (the bots' generator became PCG on 2026-11-30, issue 32).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use arbiter::agents::{Agent, RandomAgent};
use arbiter::runtime::decks::choose_decks;
use arbiter::runtime::state::Mode;
use arbiter::runtime::view::result_line;
use arbiter::runtime::{Engine, Setup, Status, view};
use std::path::{Path, PathBuf};

/// One golden game: the variants switched on (a base variant first), players and seed.
struct Config {
    variants: Vec<String>,
    players: usize,
    seed: u64,
}

impl Config {
    fn file(&self, game: &str) -> PathBuf {
        let name = match self.variants.last() {
            Some(v) => format!("{v}-{}p-seed{}.log", self.players, self.seed),
            None => format!("{}p-seed{}.log", self.players, self.seed),
        };
        golden_dir().join(game).join(name)
    }
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// The games at the default rules (a few seeds and player counts), then one game per variant.
/// `variant_game` gives the players and seed of a variant's game.
fn configs(
    game: &str,
    defaults: &[(usize, u64)],
    variant_game: &dyn Fn(&str) -> (usize, u64),
    base: &dyn Fn(&str) -> Option<&'static str>,
) -> Vec<Config> {
    let mut out: Vec<Config> = defaults.iter().map(|&(players, seed)| Config { variants: vec![], players, seed }).collect();
    for v in common::load(game, &[]).game.variants.iter().map(|v| v.name.clone()) {
        let mut variants = vec![v.clone()];
        if let Some(b) = base(&v) {
            variants.insert(0, b.to_string());
        }
        let (players, seed) = variant_game(&v);
        out.push(Config { variants, players, seed });
    }
    out
}

/// The whole game as text: a header naming it, every event, and the result.
fn playthrough(game_name: &str, c: &Config) -> String {
    let b = common::load(game_name, &c.variants);
    let game = &b.game;
    let engine = Engine::new(game);
    let decklists = choose_decks(game, c.players, &[]).unwrap();
    let mut st = engine.new_state(Mode::Game, Setup { players: c.players, seed: c.seed, decklists }).expect("new state");
    let mut bot = RandomAgent { seed: c.seed };
    loop {
        match engine.advance(&mut st) {
            Ok(Status::Decision) => {
                let d = st.pending.clone().expect("pending decision");
                let a = bot.decide(game, &st, &d);
                engine.answer(&mut st, d.seat, &a).expect("bot answers are legal");
            }
            Ok(_) => break,
            Err(e) => panic!("{game_name} {:?} seed {}: engine error: {} at {}", c.variants, c.seed, e.message, game.location(e.span)),
        }
    }
    let with = if c.variants.is_empty() { String::new() } else { format!(" with {}", c.variants.join(", ")) };
    let mut out = format!(
        "# {game_name}{with}, {} players, seed {}; rewrite with ARBITER_UPDATE_GOLDEN=1 cargo test --test golden\n",
        c.players, c.seed
    );
    out.push_str(&view::trace_of(game, &st, &st.log, None, false));
    match &st.result {
        Some(r) => out.push_str(&format!("{}\n", result_line(r, st.turns))),
        None => out.push_str("result: the game ended without a result\n"),
    }
    out
}

/// The first line where `actual` differs from `expected`, with a few lines before it, or `None`.
fn first_difference(expected: &str, actual: &str) -> Option<String> {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let i = (0..e.len().max(a.len())).find(|&i| e.get(i) != a.get(i))?;
    let from = i.saturating_sub(4);
    let context: String = e[from..i].iter().map(|l| format!("    {l}\n")).collect();
    let show = |l: Option<&&str>| l.map_or("(the log ends here)".to_string(), |l| l.to_string());
    Some(format!(
        "first difference at line {} (event {}):\n{context}  expected: {}\n  actual:   {}",
        i + 1,
        i, // line 1 is the header: line i + 1 is the i-th event, counting from 1
        show(e.get(i)),
        show(a.get(i))
    ))
}

/// Replay every golden game of `game`, or rewrite them under ARBITER_UPDATE_GOLDEN=1.
fn check(game: &str, cs: &[Config]) {
    let update = std::env::var_os("ARBITER_UPDATE_GOLDEN").is_some_and(|v| !v.is_empty() && v != "0");
    let mut failures = Vec::new();
    for c in cs {
        let path = c.file(game);
        let actual = playthrough(game, c);
        if update {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            if std::fs::read_to_string(&path).ok().as_deref() != Some(actual.as_str()) {
                std::fs::write(&path, &actual).unwrap();
                eprintln!("rewrote {}", path.display());
            }
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) => {
                if let Some(d) = first_difference(&expected, &actual) {
                    failures.push(format!("{}: {d}", path.display()));
                }
            }
            Err(e) => failures.push(format!("{}: {e} (write it with ARBITER_UPDATE_GOLDEN=1 cargo test --test golden)", path.display())),
        }
    }
    // No stale golden files: each one in the game's folder is played.
    let wanted: Vec<PathBuf> = cs.iter().map(|c| c.file(game)).collect();
    if let Ok(dir) = std::fs::read_dir(golden_dir().join(game)) {
        for f in dir.flatten().map(|f| f.path()) {
            if !wanted.contains(&f) {
                if update {
                    std::fs::remove_file(&f).unwrap();
                    eprintln!("removed {}", f.display());
                } else {
                    failures.push(format!("{}: no game plays it any more (remove it with ARBITER_UPDATE_GOLDEN=1)", f.display()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} golden playthrough(s) of {game} differ:\n\n{}", failures.len(), failures.join("\n\n"));
}

fn none(_: &str) -> Option<&'static str> {
    None
}

#[test]
fn tic_tac_toe() {
    check("tic-tac-toe", &configs("tic-tac-toe", &[(2, 1), (2, 2)], &|_| (2, 1), &none));
}

#[test]
fn connect_four() {
    check("connect-four", &configs("connect-four", &[(2, 1), (2, 2)], &|_| (2, 1), &none));
}

#[test]
fn bsg_ccg() {
    // Variants with 3 players: shorter games than seed 1's with 2.
    check("bsg-ccg", &configs("bsg-ccg", &[(2, 1), (2, 2), (3, 3)], &|_| (3, 1), &none));
}

#[test]
fn bsg_board() {
    // Variants for 4 and 6 players are played with 4; the rest with 3 (shorter logs).
    let players = |v: &str| if v.contains("sympathizer") || v.contains("loyalty-counts") { (4, 1) } else { (3, 1) };
    check("bsg-board", &configs("bsg-board", &[(3, 1), (4, 3)], &players, &none));
}

#[test]
fn starcraft() {
    // Galactic Conquest plays on to an elimination: seed 3 is one of its shorter games (146 KB;
    // seed 1 logs 2.2 MB).
    let players = |v: &str| match v {
        "team-play" => (4, 1),
        "galactic-conquest" => (2, 3),
        _ => (2, 1),
    };
    check("starcraft", &configs("starcraft", &[(2, 1), (3, 3)], &players, &none));
}

#[test]
fn starship_battles() {
    // Variants built on another are played with it.
    let base = |v: &str| match v {
        "fuel" | "three-dimensional" => Some("complete-rules"),
        "talents-and-flaws" => Some("pilots"),
        _ => None,
    };
    check("starship-battles", &configs("starship-battles", &[(2, 1), (2, 2), (4, 3)], &|_| (2, 1), &base));
}

/// The comparison names the first differing line, with what was expected and what was played.
#[test]
fn a_difference_is_reported_at_its_first_line() {
    let expected = "# header\na\nb\nc\nd\n";
    assert_eq!(first_difference(expected, expected), None);
    let d = first_difference(expected, "# header\na\nB\nc\nd\n").unwrap();
    assert!(d.starts_with("first difference at line 3 (event 2):"), "{d}");
    assert!(d.contains("  expected: b\n  actual:   B"), "{d}");
    let short = first_difference(expected, "# header\na\n").unwrap();
    assert!(short.contains("expected: b\n  actual:   (the log ends here)"), "{short}");
}
