//! Seeded random-bot games of StarCraft: The Board Game, with and without each variant: every game
//! reaches a result without an engine error; order tokens on the board are known only to their
//! owners until revealed; Event cards drawn during a round are unknown even to their drawer; a
//! seat's view never shows another player's Combat hand.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use arbiter::check::Built;
use arbiter::runtime::state::{Place, seat_bit};
use arbiter::runtime::view;
use common::{play_until, zone_id};

fn load(variants: &[String]) -> Built {
    common::load("starcraft", variants)
}

#[test]
fn seeded_games_over_two_to_six_players_reach_a_result() {
    let b = load(&[]);
    for seed in 0..25u64 {
        let players = 2 + (seed % 5) as usize;
        let st = play_until(&b, seed, players, &|_| false);
        assert!(st.result.is_some(), "seed {seed}: no result");
    }
}

#[test]
fn every_variant_plays_complete_games() {
    let names: Vec<String> = load(&[]).game.variants.iter().map(|v| v.name.clone()).collect();
    for name in names {
        let b = load(std::slice::from_ref(&name));
        for seed in 0..4u64 {
            // Team play is for 4 or 6 players.
            let players = if name.contains("team") { 4 + 2 * (seed % 2) as usize } else { 2 + (seed % 5) as usize };
            let st = play_until(&b, seed, players, &|_| false);
            assert!(st.result.is_some(), "variant {name}, seed {seed}: no result");
        }
    }
}

/// At the first decision of the Execution phase, every order on the board is known to its owner
/// alone, and every Event card drawn is known to no one.
#[test]
fn orders_are_secret_and_events_unread_until_regrouping() {
    let b = load(&[]);
    let stacks = zone_id(&b, "stacks");
    let events = zone_id(&b, "events");
    let mut checked = 0;
    for seed in 0..12u64 {
        let players = 2 + (seed % 5) as usize;
        let st = play_until(&b, seed, players, &|st| {
            st.pending.as_ref().is_some_and(|d| d.prompt.starts_with("Execute which")) && st.objects.iter().any(|o| o.face_up)
        });
        if st.result.is_some() {
            continue;
        }
        for o in &st.objects {
            let Place::Zone(z) = o.place else { continue };
            if z.zone == stacks && !o.face_up {
                assert_eq!(o.known, seat_bit(o.owner), "seed {seed}: an order on the board is known beyond its owner");
                checked += 1;
            }
            if z.zone == events {
                assert_eq!(o.known, 0, "seed {seed}: an Event card is known before the regrouping");
            }
        }
        // No other seat's view shows the names of a player's face-down orders or hand.
        for seat in 0..players as u8 {
            let log = view::trace(&b.game, &st, Some(seat), false);
            for o in st.objects.iter().filter(|o| o.owner != seat && o.known & seat_bit(seat) == 0) {
                let Place::Zone(z) = o.place else { continue };
                if z.zone == stacks {
                    let name = &b.game.def(o.def).unwrap().name;
                    assert!(
                        !log.contains(&format!("{name} moved from P{}.order_tokens", o.owner + 1)),
                        "seed {seed}: P{} saw {name}",
                        seat + 1
                    );
                }
            }
        }
    }
    assert!(checked > 0, "no face-down order checked in 12 games");
}

#[test]
fn a_seat_sees_its_own_combat_hand_only() {
    let b = load(&[]);
    let st = play_until(&b, 4, 3, &|st| st.pending.as_ref().is_some_and(|d| d.prompt.starts_with("Place an order")));
    let mine = view::view(&b.game, &st, Some(0));
    let theirs = view::view(&b.game, &st, Some(1));
    let hand =
        |v: &str| v.lines().skip_while(|l| !l.starts_with("P1")).find(|l| l.trim_start().starts_with("hand")).unwrap_or("").to_string();
    assert!(!hand(&mine).contains("hidden"), "{mine}");
    assert!(hand(&theirs).contains("hidden"), "{theirs}");
}

/// Every placed planet is joined to the galaxy by a navigation route, even with six players (each
/// planet placed connects to at least one other, L708-711).
#[test]
fn every_planet_is_connected_after_setup() {
    use arbiter::ir::value::Value;
    let b = load(&[]);
    let galaxy = zone_id(&b, "galaxy");
    let routes = zone_id(&b, "routes");
    for seed in 0..80u64 {
        let players = 5 + (seed % 2) as usize;
        let st = play_until(&b, seed, players, &|st| st.pending.as_ref().is_some_and(|d| d.prompt.starts_with("Place an order")));
        let evaluator = arbiter::runtime::eval::Evaluator::new(&b.game, &st);
        let a_sym = b.game.sym_id("a").unwrap();
        let b_sym = b.game.sym_id("b").unwrap();
        let ends: Vec<(Value, Value)> = st
            .objects
            .iter()
            .enumerate()
            .filter(|(_, o)| matches!(o.place, Place::Zone(z) if z.zone == routes))
            .map(|(i, _)| {
                let id = u32::try_from(i).unwrap();
                (evaluator.read_field(id, a_sym, Default::default()).unwrap(), evaluator.read_field(id, b_sym, Default::default()).unwrap())
            })
            .collect();
        for (i, o) in st.objects.iter().enumerate() {
            if matches!(o.place, Place::Zone(z) if z.zone == galaxy) {
                let me = Value::Obj(u32::try_from(i).unwrap());
                let linked = ends.iter().any(|(x, y)| *x == me || *y == me);
                assert!(linked, "seed {seed}, {players} players: {} has no navigation route", b.game.def(o.def).unwrap().name);
            }
        }
    }
}
