//! Seeded random-bot games of the Battlestar Galactica board game, with and without each variant:
//! every game reaches a result without an engine error, no seat's log or view names a Loyalty card
//! that seat has not been shown, and no seat knows a civilian ship it has not looked at.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use arbiter::check::Built;
use arbiter::runtime::state::{State, seat_bit};
use arbiter::runtime::view;
use common::play_until;

fn load(variants: &[String]) -> Built {
    common::load("bsg-board", variants)
}

fn play(b: &Built, seed: u64, players: usize) -> State {
    play_until(b, seed, players, &|_| false)
}

#[test]
fn seeded_games_over_three_to_six_players_reach_a_result() {
    let b = load(&[]);
    for seed in 0..120u64 {
        let players = 3 + (seed % 4) as usize;
        let st = play(&b, seed, players);
        let r = st.result.as_ref().unwrap_or_else(|| panic!("seed {seed}: no result"));
        assert!(!r.reason.is_empty());
    }
}

#[test]
fn every_variant_plays_complete_games() {
    let names: Vec<String> = load(&[]).game.variants.iter().map(|v| v.name.clone()).collect();
    for name in names {
        let b = load(std::slice::from_ref(&name));
        for seed in 0..8u64 {
            let players = 3 + (seed % 4) as usize;
            let st = play(&b, seed, players);
            assert!(st.result.is_some(), "variant {name}, seed {seed}: no result");
        }
    }
}

/// Names of the Loyalty cards a game holds one copy of: a log line naming one identifies the card.
fn unique_loyalty_names(b: &Built, st: &State) -> Vec<String> {
    let game = &b.game;
    let Some(kind) = game.kinds.iter().position(|k| k.name == "loyalty") else { panic!("no loyalty kind") };
    let loyalty: Vec<&arbiter::ir::ObjDef> =
        st.objects.iter().filter_map(|o| game.def(o.def)).filter(|d| d.kind as usize == kind).collect();
    let mut names: Vec<String> =
        loyalty.iter().filter(|d| loyalty.iter().filter(|e| e.name == d.name).count() == 1).map(|d| d.name.clone()).collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn no_seat_sees_a_loyalty_card_it_was_not_shown() {
    let b = load(&[]);
    let game = &b.game;
    let mut checked = 0;
    for seed in 0..40u64 {
        let players = 3 + (seed % 4) as usize;
        let st = play(&b, seed, players);
        let names = unique_loyalty_names(&b, &st);
        for seat in 0..players as u8 {
            let log = view::trace(game, &st, Some(seat), false);
            let seen = view::view(game, &st, Some(seat));
            for (id, o) in st.objects.iter().enumerate() {
                let Some(def) = game.def(o.def) else { continue };
                if !names.contains(&def.name) || o.known & seat_bit(seat) != 0 {
                    continue;
                }
                // A card this seat never knew: neither its log nor its view may name it.
                assert!(!log.contains(&def.name), "seed {seed}: P{} saw `{}` (object {id}) in the log:\n{log}", seat + 1, def.name);
                assert!(!seen.contains(&def.name), "seed {seed}: P{} saw `{}` in the view:\n{seen}", seat + 1, def.name);
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no hidden Loyalty card to check in 40 games");
}

#[test]
fn a_seat_sees_its_own_loyalty_cards() {
    let b = load(&[]);
    let game = &b.game;
    let st = play(&b, 3, 4);
    let names = unique_loyalty_names(&b, &st);
    let mut checked = 0;
    for seat in 0..4u8 {
        let seen = view::view(game, &st, Some(seat));
        for o in st.objects.iter().filter(|o| o.controller == seat) {
            let Some(def) = game.def(o.def) else { continue };
            if names.contains(&def.name) && o.known & seat_bit(seat) != 0 && matches!(o.place, arbiter::runtime::state::Place::Zone(_)) {
                assert!(seen.contains(&def.name), "P{} does not see its own `{}`:\n{seen}", seat + 1, def.name);
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no seat held a unique Loyalty card");
}

#[test]
fn no_seat_knows_a_civilian_ship_it_did_not_look_at() {
    use arbiter::runtime::state::Place;
    let b = load(&[]);
    let game = &b.game;
    let areas: Vec<u16> =
        game.zones.iter().enumerate().filter(|(_, z)| z.name.starts_with("area")).map(|(i, _)| u16::try_from(i).unwrap()).collect();
    let mut checked = 0;
    for seed in 0..30u64 {
        let players = 3 + (seed % 4) as usize;
        let st = play(&b, seed, players);
        // Who was shown each object (Communications lets its user look at civilian ships).
        let mut shown: std::collections::HashMap<u32, u64> = std::collections::HashMap::new();
        for e in &st.log {
            if let arbiter::runtime::state::EventKind::Revealed { obj, .. } = &e.kind {
                *shown.entry(*obj).or_default() |= e.visible;
            }
        }
        for (id, o) in st.objects.iter().enumerate() {
            let Some(def) = game.def(o.def) else { continue };
            let Place::Zone(z) = o.place else { continue };
            if def.name.starts_with("Civilian Ship") && areas.contains(&z.zone) && !o.face_up {
                let allowed = shown.get(&u32::try_from(id).unwrap()).copied().unwrap_or(0);
                assert_eq!(o.known & !allowed, 0, "seed {seed}: a face-down civilian ship in space is known to a seat never shown it");
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no civilian ship in space in 30 games");
}

/// A Skill check's cards are shuffled so that nobody can tell who added which: once revealed, no
/// seat's view (the terminal's `fields`, the web table's page, a menu's marks) says whose each card
/// is (a secrecy audit read `Evasive Maneuvers (1) (P3)` on the revealed check, the shuffle
/// undone). Cards elsewhere on the table still say whose they are.
#[test]
fn a_skill_checks_revealed_cards_do_not_say_who_added_them() {
    let b = load(&[]);
    let game = &b.game;
    let revealed = game.zones.iter().position(|z| z.name == "check_revealed").unwrap();
    let zone = arbiter::ir::value::ZoneRef { zone: u16::try_from(revealed).unwrap(), owner: None };
    let mut checks = 0;
    for seed in 0..6u64 {
        let st = play_until(&b, seed, 3, &|st| !st.zone_contents(game, zone).is_empty());
        if st.zone_contents(game, zone).is_empty() {
            continue;
        }
        checks += 1;
        for seat in 0..3u8 {
            let v = view::table_view(game, &st, Some(seat));
            let shown = v.shared.iter().find(|z| z.name == "check_revealed").unwrap();
            assert!(!shown.objects.is_empty(), "seed {seed}: the revealed check is shown");
            for o in &shown.objects {
                assert!(!o.contains("(P"), "seed {seed}, P{}: a revealed Skill check card says whose it is: {o}", seat + 1);
            }
        }
    }
    assert!(checks > 0, "no Skill check was revealed in the games played");
}
