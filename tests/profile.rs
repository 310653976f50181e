//! `arbiter bench --profile`: the evaluation steps of seeded games, by function and modifier.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a test fails loudly by design")]

mod common;

use arbiter::runtime::{Engine, Profiler};

#[test]
fn tic_tac_toe_checks_for_three_in_a_row_once_a_turn() {
    let b = common::load("tic-tac-toe", &[]);
    let profiler = Profiler::default();
    let engine = Engine::new(&b.game).with_tracer(&profiler);
    let mut turns = 0;
    for seed in 0..20 {
        turns += u64::from(common::play_on(&engine, seed, 2, &|_| false).turns);
    }
    let p = profiler.profile();
    let row = |name: &str| p.routines.get(name).copied().unwrap_or_else(|| panic!("no `{name}` in {:?}", p.routines.keys()));
    // Every turn marks a square, then asks `three_in_a_row` once (rules.txt L5; game.arb turn.play).
    let three = row("func three_in_a_row");
    assert_eq!(three.calls, turns);
    // It reads the squares through `mark_at`: its total includes them, its own steps don't.
    let mark = row("func mark_at");
    assert!(mark.calls >= turns, "at least one square read a turn");
    assert!(three.own < three.total && three.total >= three.own + mark.total / 2);
    assert_eq!(mark.own, mark.total, "mark_at calls no other function");
    let own: u64 = p.routines.values().map(|r| r.own).sum();
    assert!(own <= p.steps, "own steps ({own}) are part of all steps ({})", p.steps);
}

#[test]
fn the_card_games_blanking_rules_are_counted_as_modifiers() {
    let b = common::load("bsg-ccg", &[]);
    let profiler = Profiler::default();
    let engine = Engine::new(&b.game).with_tracer(&profiler);
    common::play_on(&engine, 1, 2, &|_| false);
    let p = profiler.profile();
    // Reading a card's fields asks whether it is blank: the rulebook's blanking modifiers run.
    for m in ["modifier resource.supply", "modifier exhausted.loses_properties"] {
        assert!(
            p.routines.get(m).is_some_and(|r| r.calls > 0),
            "{m} not counted: {:?}",
            p.by_own_steps().iter().take(5).collect::<Vec<_>>()
        );
    }
}

/// `bench --profile` also says how the calls kept from one state to the next fared: the card
/// game's `can_pay` (its player's resource area is all it reads) is found unchanged between
/// payments, and worked out again after them.
#[test]
fn the_card_games_payments_are_kept_until_the_resource_area_changes() {
    let b = common::load("bsg-ccg", &[]);
    let profiler = Profiler::default();
    let engine = Engine::new(&b.game).with_tracer(&profiler);
    for seed in 1..4 {
        common::play_on(&engine, seed, 2, &|_| false);
    }
    let kept = engine.kept_calls();
    let name = |f: u32| b.game.funcs[f as usize].info.name.as_str();
    let can_pay = kept.iter().find(|t| name(t.func) == "can_pay").unwrap_or_else(|| panic!("can_pay not kept: {kept:?}"));
    assert!(can_pay.found > 0 && can_pay.worked_out > 0, "{can_pay:?}");
    assert!(kept.iter().all(|t| t.found + t.worked_out > 0));
}
