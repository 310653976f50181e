//! Seeded random-bot games of the card game: every one reaches a result without an engine error;
//! the same seed gives the same log byte for byte; a game saved at a decision and resumed gives
//! the same log as the game played straight through; an illegal answer is refused and changes
//! nothing.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use arbiter::agents::{Agent, RandomAgent};
use arbiter::check::Built;
use arbiter::check::project::Project;
use arbiter::runtime::decks::expand;
use arbiter::runtime::state::{Answer, Mode, State};
use arbiter::runtime::{AnswerError, Engine, Setup, Status, view};
use std::path::Path;
use std::sync::OnceLock;

fn built() -> &'static Built {
    static B: OnceLock<Built> = OnceLock::new();
    B.get_or_init(|| {
        let project = Project::at(Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf());
        match project.load("bsg-ccg", &[], &[]).result {
            Ok(b) => b,
            Err(d) => panic!("bsg-ccg does not check: {d:?}"),
        }
    })
}

fn new_game(seed: u64, players: usize) -> State {
    let game = &built().game;
    let decklists = (0..players).map(|i| expand(game, &game.decks[i % game.decks.len()])).collect();
    Engine::new(game).new_state(Mode::Game, Setup { players, seed, decklists }).expect("new state")
}

/// Play to the end; optionally save and resume (through JSON) at the `save_at`-th decision.
fn play(seed: u64, players: usize, save_at: Option<u64>) -> State {
    let game = &built().game;
    let engine = Engine::new(game);
    let mut st = new_game(seed, players);
    let mut bot = RandomAgent { seed };
    let mut decisions = 0u64;
    loop {
        match engine.advance(&mut st) {
            Ok(Status::Decision) => {
                if Some(decisions) == save_at {
                    let json = serde_json::to_string(&st).expect("serialize");
                    st = serde_json::from_str(&json).expect("deserialize");
                }
                let d = st.pending.clone().expect("pending decision");
                let a = bot.decide(game, &st, &d);
                engine.answer(&mut st, d.seat, &a).expect("bot answers are legal");
                decisions += 1;
            }
            Ok(_) => return st,
            Err(e) => panic!("seed {seed}: engine error: {} at {}", e.message, game.location(e.span)),
        }
    }
}

fn log_text(st: &State) -> String {
    view::trace(&built().game, st, None, true)
}

#[test]
fn two_hundred_seeded_games_reach_a_result() {
    for seed in 0..200u64 {
        let players = if seed % 5 == 4 { 3 } else { 2 };
        let st = play(seed, players, None);
        let result = st.result.as_ref().unwrap_or_else(|| panic!("seed {seed}: the game ended without a result"));
        // A result names winners (or none, for a draw) and every seat is accounted for.
        let accounted = result.winners.len() + result.losers.len();
        assert_eq!(accounted, players, "seed {seed}: {result:?}");
    }
}

#[test]
fn the_same_seed_gives_the_same_log() {
    for seed in [1u64, 7, 42] {
        let a = play(seed, 2, None);
        let b = play(seed, 2, None);
        assert_eq!(serde_json::to_string(&a.log).unwrap(), serde_json::to_string(&b.log).unwrap());
        assert_eq!(log_text(&a), log_text(&b));
    }
    // And different seeds give different games.
    assert_ne!(log_text(&play(1, 2, None)), log_text(&play(2, 2, None)));
}

#[test]
fn a_saved_game_resumes_with_the_same_continuation() {
    for seed in [3u64, 11, 29] {
        let straight = play(seed, 2, None);
        let total = straight.decisions;
        assert!(total > 10, "seed {seed}: too short a game to test saving");
        // A decision somewhere in the middle, chosen from the seed.
        let at = (seed * 7919) % total;
        let resumed = play(seed, 2, Some(at));
        assert_eq!(log_text(&straight), log_text(&resumed), "seed {seed}: saved at decision {at}");
        assert_eq!(straight.result, resumed.result);
    }
}

#[test]
fn an_illegal_answer_is_refused_and_the_game_goes_on() {
    let game = &built().game;
    let engine = Engine::new(game);
    let mut st = new_game(5, 2);
    assert_eq!(engine.advance(&mut st).unwrap(), Status::Decision);
    let d = st.pending.clone().unwrap();
    let before = st.log.len();
    let total = d.options.len() + usize::from(d.none.is_some());
    let refused = |r: Result<(), AnswerError>| match r {
        Err(AnswerError::Refused(m)) => m,
        other => panic!("expected a refusal, got {other:?}"),
    };
    assert!(refused(engine.answer(&mut st, d.seat, &Answer(vec![total]))).contains("there is no option"));
    assert!(refused(engine.answer(&mut st, (d.seat + 1) % 2, &Answer(vec![0]))).contains("decision, not"));
    assert!(refused(engine.answer(&mut st, d.seat, &Answer(vec![0, 0]))).contains("twice"));
    // Nothing changed: the same decision is pending and nothing was logged.
    assert_eq!(st.log.len(), before);
    assert_eq!(st.pending.as_ref().map(|p| p.prompt.clone()), Some(d.prompt.clone()));
    // A legal answer is accepted and the game goes on.
    engine.answer(&mut st, d.seat, &Answer(vec![0])).unwrap();
    assert!(st.log.len() > before);
    assert!(engine.advance(&mut st).is_ok());
}

#[test]
fn a_seat_sees_only_its_own_hand() {
    let game = &built().game;
    let engine = Engine::new(game);
    let mut st = new_game(8, 2);
    assert_eq!(engine.advance(&mut st).unwrap(), Status::Decision);
    let mine = view::view(game, &st, Some(0));
    let theirs = view::view(game, &st, Some(1));
    let everything = view::view(game, &st, None);
    // P1's own hand is listed for P1; P2 sees only how many cards it holds.
    let p1_hand =
        |v: &str| v.lines().skip_while(|l| !l.starts_with("P1")).find(|l| l.trim_start().starts_with("hand")).unwrap_or("").to_string();
    assert!(!p1_hand(&mine).contains("hidden"), "{mine}");
    assert!(p1_hand(&theirs).contains("hidden"), "{theirs}");
    assert_eq!(p1_hand(&mine), p1_hand(&everything));
    // The log, as P2 sees it, never names a card P1 drew.
    let p2_log = view::trace(game, &st, Some(1), false);
    assert!(p2_log.lines().any(|l| l.trim_start() == "a card moved from P1.deck to P1.hand"), "{p2_log}");
    assert!(!p2_log.lines().any(|l| l.contains("moved from P1.deck to P1.hand") && !l.trim_start().starts_with("a card")), "{p2_log}");
}

#[test]
fn supply_cards_stay_hidden_from_opponents() {
    use arbiter::runtime::state::{EventKind, Place};
    let game = &built().game;
    let mut checked = 0;
    for seed in 0..40u64 {
        let st = play(seed, 2, None);
        for (i, e) in st.log.iter().enumerate() {
            let EventKind::Turned { obj, up: false, .. } = &e.kind else { continue };
            let Some(o) = st.obj(*obj) else { continue };
            // A card put beneath a resource stack and turned face down at once is a supply card,
            // played from its owner's hand (an exhausted card in play, turned face down, is not).
            let just_put =
                i > 0 && st.log.get(i - 1).is_some_and(|p| matches!(p.kind, EventKind::Put { obj: x, under: true, .. } if x == *obj));
            if !just_put || !matches!(o.place, Place::Under(_)) {
                continue;
            }
            let opponent = 1 - o.owner;
            let text = view::event_text(game, &st, e, Some(opponent));
            assert!(text.starts_with("a card"), "seed {seed}: the opponent saw `{text}`");
            checked += 1;
        }
    }
    assert!(checked > 0, "no supply card was played in 40 games");
}
