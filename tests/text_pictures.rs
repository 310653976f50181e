//! Each game's text picture (`state` in `arbiter play`): every game has one, it draws the table
//! as a seat sees it, and it never names what that seat may not see.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use arbiter::agents::{Agent, RandomAgent};
use arbiter::runtime::state::Mode;
use arbiter::runtime::{Engine, Setup, Status, picture};

const GAMES: [(&str, usize); 6] =
    [("tic-tac-toe", 2), ("connect-four", 2), ("bsg-ccg", 2), ("bsg-board", 3), ("starcraft", 2), ("starship-battles", 2)];

/// Seeded random games of every rulebook: at every few decisions, each seat's text picture names
/// no definition hidden from it; drawn for no one, the picture shows the hidden things too.
#[test]
fn a_text_picture_shows_a_seat_only_what_it_may_see() {
    let seeds: u64 = std::env::var("ARBITER_SECRECY_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(2);
    for (name, players) in GAMES {
        let b = common::load(name, &[] as &[String]);
        let game = &b.game;
        let engine = Engine::new(game);
        let mut checked = 0;
        let mut hidden_seen = 0;
        for seed in 1..=seeds {
            let decklists = arbiter::runtime::decks::choose_decks(game, players, &[]).unwrap();
            let mut st = engine.new_state(Mode::Game, Setup { players, seed, decklists }).unwrap();
            let mut bot = RandomAgent { seed };
            let mut decisions = 0;
            loop {
                let status = engine.advance(&mut st).unwrap();
                if decisions % 7 == 0 {
                    for seat in 0..players as u8 {
                        let text = picture::text(game, &st, Some(seat)).expect("every game has a text picture").unwrap();
                        assert!(!text.trim().is_empty(), "{name}: an empty picture");
                        let (hidden, allowed) = common::hidden_names(game, &st, seat);
                        common::serve::assert_nothing_hidden(
                            &text,
                            &hidden,
                            &allowed,
                            &format!("{name} seed {seed}: P{}'s text picture", seat + 1),
                        );
                        hidden_seen += hidden.len();
                        checked += 1;
                    }
                }
                if status != Status::Decision || decisions > 400 {
                    break;
                }
                let d = st.pending.clone().unwrap();
                let a = bot.decide(game, &st, &d);
                engine.answer(&mut st, d.seat, &a).unwrap();
                decisions += 1;
            }
            let everything = picture::text(game, &st, None).unwrap().unwrap();
            assert!(!everything.trim().is_empty(), "{name}: the picture for no one");
        }
        assert!(checked > 0, "{name}: no picture checked");
        // The games with secrets had some while their pictures were checked.
        if !matches!(name, "tic-tac-toe" | "connect-four") {
            assert!(hidden_seen > 0, "{name}: nothing was hidden from anyone, so nothing was tested");
        }
    }
}

/// The tic-tac-toe grid, as the rules lay it out: marks where they were made, `·` where empty.
#[test]
fn the_tic_tac_toe_picture_is_its_grid() {
    let b = common::load("tic-tac-toe", &[] as &[String]);
    let st = common::play_until(&b, 3, 2, &|st| st.decisions == 2);
    let text = picture::text(&b.game, &st, Some(0)).unwrap().unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert_eq!(lines[1], "---+---+---");
    assert_eq!(text.matches('X').count(), 1, "{text}");
    assert_eq!(text.matches('O').count(), 1, "{text}");
    assert_eq!(text.matches('·').count(), 7, "{text}");
}
