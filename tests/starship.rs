//! Seeded random-bot games of Battlestar Galactica Starship Battles, with and without each variant:
//! every game reaches a result without an engine error; a planned maneuver and speed setting is
//! known only to its player until revealed; a damage counter only to the player whose ship took it;
//! and the table's picture is an SVG document.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use arbiter::check::Built;
use arbiter::runtime::picture;
use arbiter::runtime::state::{Place, seat_bit};
use common::{play_until, zone_id};

fn load(variants: &[String]) -> Built {
    common::load("starship-battles", variants)
}

#[test]
fn seeded_games_reach_a_result() {
    let b = load(&[]);
    for seed in 0..60u64 {
        let players = 2 + 2 * (seed % 2) as usize;
        let st = play_until(&b, seed, players, &|_| false);
        assert!(st.result.is_some(), "seed {seed}: no result");
    }
}

#[test]
fn every_variant_plays_complete_games() {
    let names: Vec<String> = load(&[]).game.variants.iter().map(|v| v.name.clone()).collect();
    for name in names {
        // Variants built on another (fuel and levels on the Complete Rules, talents on pilots) are
        // played with it.
        let mut vs = vec![name.clone()];
        if let Some(base) = built_on(&name) {
            vs.insert(0, base.to_string());
        }
        let b = load(&vs);
        for seed in 0..6u64 {
            let players = 2 + 2 * (seed % 2) as usize;
            let st = play_until(&b, seed, players, &|_| false);
            assert!(st.result.is_some(), "variants {vs:?}, seed {seed}: no result");
        }
    }
}

fn built_on(name: &str) -> Option<&'static str> {
    match name {
        "fuel" | "three-dimensional" => Some("complete-rules"),
        "talents-and-flaws" => Some("pilots"),
        _ => None,
    }
}

#[test]
fn complete_rules_games_reach_a_result() {
    let b = load(&["complete-rules".to_string()]);
    for seed in 0..40u64 {
        let players = 2 + 2 * (seed % 2) as usize;
        let st = play_until(&b, seed, players, &|_| false);
        assert!(st.result.is_some(), "complete-rules, seed {seed}: no result");
    }
}

/// While players are planning, every planned card and setting is known to its player alone; and
/// every damage counter a ship holds is known to that ship's player alone.
#[test]
fn plans_and_damage_stay_secret() {
    let b = load(&[]);
    let plans = zone_id(&b, "plans");
    let damage = zone_id(&b, "damage");
    let mut checked_plans = 0;
    let mut checked_damage = 0;
    for seed in 0..30u64 {
        let players = 2 + 2 * (seed % 2) as usize;
        // Stop at the last player's planning, after the others have planned, a few turns in.
        let st = play_until(&b, seed, players, &|st| {
            st.turns >= 2 && st.pending.as_ref().is_some_and(|d| d.prompt.starts_with("Plan ") && usize::from(d.seat) == players - 1)
        });
        if st.result.is_some() {
            continue;
        }
        for o in &st.objects {
            let Place::Zone(z) = o.place else { continue };
            if z.zone == plans {
                assert!(!o.face_up, "seed {seed}: a plan is face up before the reveal");
                assert_eq!(o.known, seat_bit(o.controller), "seed {seed}: a plan is known beyond its player");
                checked_plans += 1;
            }
            if z.zone == damage {
                assert_eq!(o.known, seat_bit(z.owner.unwrap()), "seed {seed}: a damage counter is known beyond its player");
                checked_damage += 1;
            }
        }
    }
    assert!(checked_plans > 0, "no plan checked");
    assert!(checked_damage > 0, "no damage counter checked");
}

#[test]
fn the_table_is_pictured_as_svg() {
    let b = load(&[]);
    let st = play_until(&b, 3, 2, &|st| st.turns >= 2);
    let svg = picture::svg(&b.game, &st, "turn 2", None).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    // The play area, a base per ship in play, and three range bands per ship.
    let ships = st.objects.iter().filter(|o| matches!(o.place, Place::Zone(z) if z.zone == zone_id(&b, "table"))).count();
    assert_eq!(svg.matches("<polygon").count(), 1 + ships);
    assert_eq!(svg.matches("<path").count(), 3 * ships);
}
