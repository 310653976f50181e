//! A modifier whose condition needs its object in some zones (`o in Z`, `o.top in Z`, or several
//! joined by `or`, anywhere in a chain of `and`) is skipped for objects elsewhere without
//! evaluating the condition (`ModifierDef::zone_guard`). The skip must never change an answer:
//! here each kind of guard is read for objects inside its zones, elsewhere, and under another
//! object, and the values are the ones the conditions give.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a test fails loudly by design")]

mod common;

use arbiter::runtime::Engine;
use arbiter::runtime::state::Place;
use arbiter::syntax::span::Span;

const GAME: &str = r#"
game guard-probe {
  title "Zone guard probe"
  players 2
  setup setup.game
  turn turn.play
}

kind token {
  field n: int = 0
  field m: int = 0
  field k: int = 0
}

zone pile shared public ordered holds token
zone bag shared public ordered holds token
zone box shared public ordered holds token

token "a" { n 1 }

// A zone test in the middle of the chain, two zones joined by `or`.
modifier either cite "probe" {
  to t when t.def.n >= 0 and (t in pile or t in bag) and t.def.m == 0
  t.n += 10
}

// The zone of the pile an object lies in.
modifier piled cite "probe" {
  to t when t.top in box
  t.m += 100
}

// A zone test last.
modifier last cite "probe" {
  to t when t.def.k == 0 and t in bag
  t.k += 1000
}

proc setup.game() {
  let p = first(players())
  create "a" in pile owned by p
  create "a" in bag owned by p
  create "a" in box owned by p
  let top = last(box)
  let under = create "a" in pile owned by p
  put under under top
}

proc turn.play() {
  end draw "done"
}
"#;

#[test]
fn guarded_modifiers_apply_exactly_where_their_conditions_hold() {
    let built = common::game_text("guard-probe.arb", GAME);
    let g = &built.game;
    let engine = Engine::new(g);
    let st = common::played_out(&engine);
    assert!(matches!(st.obj(3).unwrap().place, Place::Under(2)), "object #3 lies under #2, in the box");
    let evaluator = engine.evaluator(&st);
    let sym = |name: &str| *g.sym_index.get(name).unwrap();
    let read = |o: u32, f: &str| match evaluator.read_field(o, sym(f), Span::default()).unwrap() {
        arbiter::ir::value::Value::Int(i) => i,
        other => panic!("#{o}.{f} is {other:?}"),
    };
    // #0 in the pile, #1 in the bag, #2 in the box, #3 under #2.
    assert_eq!([read(0, "n"), read(1, "n"), read(2, "n"), read(3, "n")], [11, 11, 1, 1], "`t in pile or t in bag`");
    assert_eq!([read(0, "m"), read(1, "m"), read(2, "m"), read(3, "m")], [0, 0, 100, 100], "`t.top in box`");
    assert_eq!([read(0, "k"), read(1, "k"), read(2, "k"), read(3, "k")], [0, 1000, 0, 0], "`t in bag` last");
}
