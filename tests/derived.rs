//! Derived facts kept from one version of a state to the next (`check::reads`, `memo::Memo`): an
//! object's blankness and its fields read through modifiers, when they read only the object, the
//! pile it lies in and some globals, are remembered under the object's number and the globals'
//! and must be worked out again exactly when one of those changes (a fact that read no global as
//! it was worked out, under the object's number alone). The probe changes each in turn between
//! decisions — the top of a pile moves, a global the conditions read is set, a temporary change is
//! made and expires — and at each decision the engine's evaluator, whose memo the previous
//! decision filled, must give the values the rules give. And blankness is asked only where it
//! decides something (an object's abilities in a slot it prints none in do not ask it).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a test fails loudly by design")]

mod common;

use arbiter::ir::Reads;
use arbiter::ir::value::Value;
use arbiter::runtime::Engine;
use arbiter::runtime::eval::Evaluator;
use arbiter::syntax::span::Span;
use std::cell::RefCell;

const GAME: &str = r#"
game derived-probe {
  title "Derived facts probe"
  players 2
  setup setup.game
  turn turn.play
  durations turn
}

kind token {
  field n: int = 0
  field m: int = 0
}

zone table shared public ordered holds token
zone box shared public ordered holds token
zone shelf shared public ordered holds token

global {
  flag: bool = false
}

token "a" {
  n 1
  m 1
}

// Blank while its pile's top is in the box: reads the pile.
modifier piled cite "probe" {
  to t when t.top in box
  blank
}

// Blank but for `m` while the flag is set: reads a global.
modifier flagged cite "probe" {
  to t when flag and t in table
  blank except m
}

// Blank while the flag is set: nothing else changes the object on the shelf, so whether it is
// blank is kept until the flag is set, which it read.
modifier shelved cite "probe" {
  to t when flag and t in shelf
  blank
}

// Reads only the object: `m` is kept as long as blankness is.
modifier bonus cite "probe" {
  to t when t in table
  t.m += 10
}

// Reads a zone's contents: `n` is worked out again for each version of the state.
modifier crowded cite "probe" {
  to t when count(table) > 1
  t.n += 100
}

proc setup.game() cite "probe" {
  let p = first(players())
  let top = create "a" in table owned by p
  let under = create "a" in table owned by p
  put under under top
  create "a" in box owned by p
  create "a" in shelf owned by p
}

proc step() cite "probe" {
  let p = first(players())
  choose p "Go on?" from [1, 2]
}

proc turn.play() cite "probe" {
  call step()
  move first(table) to box
  call step()
  flag = true
  move first(box) to table
  call step()
  let u = first(first(table).under)
  modify u.n += 5 until turn
  call step()
  expire turn
  call step()
  end draw "done"
}
"#;

/// `(blank, n, m)` of each of the four objects, as `evaluator` reads them.
fn read_all(evaluator: &Evaluator, g: &arbiter::ir::Game) -> Vec<(bool, i64, i64)> {
    let sym = |name: &str| *g.sym_index.get(name).unwrap();
    let int = |o: u32, f: &str| match evaluator.read_field(o, sym(f), Span::default()).unwrap() {
        Value::Int(i) => i,
        other => panic!("#{o}.{f} is {other:?}"),
    };
    (0..4).map(|o| (evaluator.is_blank(o).unwrap(), int(o, "n"), int(o, "m"))).collect()
}

#[test]
fn what_derived_facts_read_is_worked_out_when_the_rules_are_checked() {
    let built = common::game_text("derived-probe.arb", GAME);
    let g = &built.game;
    let sym = |name: &str| *g.sym_index.get(name).unwrap();
    assert_eq!(g.derived.blank, Reads::Local { globals: true }, "blankness reads the pile and `flag`");
    assert_eq!(g.derived.field(sym("m")), Reads::Local { globals: true }, "`m` reads blankness and its object");
    assert_eq!(g.derived.field(sym("n")), Reads::Everything, "`n` reads the table's contents");
    assert_eq!(g.derived.globals, vec![true], "setting `flag` renumbers the globals facts read");
}

#[test]
fn derived_facts_are_kept_until_what_they_read_changes() {
    let built = common::game_text("derived-probe.arb", GAME);
    let g = &built.game;
    let engine = Engine::new(g);
    let seen = RefCell::new(Vec::new());
    common::play_on(&engine, 1, 2, &|st| {
        let kept = engine.evaluator(st);
        let remembered: Vec<u32> = kept.remembered_now().blank.iter().map(|(o, _)| *o).collect();
        let values = read_all(&kept, g);
        assert_eq!(values, read_all(&Evaluator::new(g, st), g), "the engine's evaluator answers as a fresh one");
        seen.borrow_mut().push((remembered, values));
        false
    });
    let seen = seen.into_inner();
    let values: Vec<_> = seen.iter().map(|(_, v)| v.clone()).collect();
    // #0 tops a pile with #1 under it; #2 lies alone in the box, #3 on the shelf.
    assert_eq!(
        values,
        vec![
            // In the table, #0 gets `m` 11; #1 is under it (not in the table itself); #2 is in the
            // box, so blank; two objects in the table (#0 and #1 is not): `n` gets no bonus.
            vec![(false, 1, 11), (false, 1, 1), (true, 0, 0), (false, 1, 1)],
            // #0 moved to the box, and #1 with it: both blank now.
            vec![(true, 0, 0), (true, 0, 0), (true, 0, 0), (false, 1, 1)],
            // The flag is set and the pile is back on the table: #0 is blank but for `m`; #1 is
            // not in the table directly, so it is not blank; #2 (still in the box) is; #3, which
            // did not change, is blank now.
            vec![(true, 0, 11), (false, 1, 1), (true, 0, 0), (true, 0, 0)],
            // A temporary +5 on #1's `n`.
            vec![(true, 0, 11), (false, 6, 1), (true, 0, 0), (true, 0, 0)],
            // It has expired.
            vec![(true, 0, 11), (false, 1, 1), (true, 0, 0), (true, 0, 0)],
        ]
    );
    // Whether each object is blank, as remembered from the decision before, before anything is
    // read at this one: kept for the objects nothing they read changed, and only for those.
    let kept: Vec<Vec<u32>> = seen.iter().map(|(k, _)| k.clone()).collect();
    assert_eq!(
        kept,
        vec![
            vec![],
            // #0 moved, and #1 with it.
            vec![2, 3],
            // The flag that blankness reads was set: only #2 is kept, found blank by its pile
            // without reading the flag; #3 read it.
            vec![2],
            // A temporary change to #1.
            vec![0, 2, 3],
            // It expired.
            vec![0, 2, 3],
        ]
    );
}

/// A blanking modifier whose condition fails for every object it is asked of, and two objects:
/// one printing no ability in the slot `use`, one printing one.
const BROKEN_BLANK: &str = r#"
game blank-probe {
  title "A blanking condition that fails"
  players 2
  setup setup.game
  turn turn.play
}

kind gadget {
  ability use many
  active in table
}

zone table shared public ordered holds gadget

global {
  zero: int = 0
}

gadget "Plain" { }
gadget "Tool" {
  use "tinker" {
    do { }
  }
}

modifier broken cite "probe" {
  to t when 1 / zero > 0
  blank
}

proc setup.game() cite "probe" {
  create "Plain" in table owned by first(players())
  create "Tool" in table owned by first(players())
}

proc turn.play() cite "probe" {
  end draw "done"
}
"#;

/// The reading chosen (runtime/checks.rs, `abilities`): blankness takes abilities away, so an
/// object printing none in a slot has none there whether it is blank or not, and its blankness is
/// not worked out to say so; a blanking condition that fails is told where blankness decides
/// something: an object's abilities in a slot it prints one in, or whether it is blank.
#[test]
fn an_objects_abilities_in_a_slot_it_prints_none_in_ask_nothing_of_its_blankness() {
    let built = common::game_text("blank-probe.arb", BROKEN_BLANK);
    let g = &built.game;
    let engine = Engine::new(g);
    let st = common::played_out(&engine);
    let evaluator = Evaluator::new(g, &st);
    let (plain, tool) = (0, 1);
    assert_eq!(evaluator.abilities(plain, "use").unwrap(), Vec::<Value>::new(), "Plain prints no `use`");
    let failed = evaluator.abilities(tool, "use").expect_err("Tool prints a `use`: whether it is blank decides it");
    assert!(failed.message.contains("division by zero"), "the blanking condition's failure is told: {}", failed.message);
    assert!(evaluator.is_blank(plain).is_err(), "asked whether Plain is blank, the condition fails for it too");
}
