//! `can_use(a)` asks whether each of an ability's targets has a legal choice (the language
//! reference, "Abilities"): it takes each target's first legal choice, in its list's order, for
//! the targets after it, and tests no candidate after that first one.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a test fails loudly by design")]

mod common;

use arbiter::ir::value::Value;
use arbiter::runtime::Engine;
use arbiter::runtime::state::Env;
use arbiter::syntax::span::Span;

const GAME: &str = r#"
game can_use_targets {
  title "Targets of abilities"
  players 2
  setup setup.game
  turn turn.play
}

kind token {
  field n: int = 0
}

kind gadget {
  ability use many
  active in table
}

zone pile shared public ordered holds token
zone table shared public ordered holds gadget

token "one" { n 1 }
token "two" { n 2 }
token "three" { n 3 }

gadget "Gadget" {
  use "only the last is legal" {
    target t from pile where t.n == 3
    do { }
  }
  use "none is legal" {
    target t from pile where t.n > 9
    do { }
  }
  use "the second target fits the first's first choice" {
    target a from pile where a.n >= 2
    target b from pile where b.n > a.n
    do { }
  }
  use "the second target fits only a later choice of the first" {
    target a from pile where a.n >= 2
    target b from pile where b.n == a.n - 2
    do { }
  }
  use "a later candidate would stop the condition" {
    target t from pile where t.n == 1 or 6 / (t.n - 2) > 0
    do { }
  }
  use "no target" {
    do { }
  }
}

func usable(i: int) = can_use(nth(abilities(first(table), "use"), i))

proc setup.game() {
  // A new object goes on top: the pile reads one, two, three.
  create "three" in pile owned by first(players())
  create "two" in pile owned by first(players())
  create "one" in pile owned by first(players())
  create "Gadget" in table owned by first(players())
}

proc turn.play() {
  end draw "done"
}
"#;

#[test]
fn can_use_takes_each_targets_first_legal_choice() {
    let built = common::game_text("can_use.arb", GAME);
    let g = &built.game;
    let engine = Engine::new(g);
    let st = common::played_out(&engine);
    let (id, _) = g.funcs.iter().enumerate().find(|(_, f)| f.info.name == "usable").unwrap();
    let usable = |i: i64| {
        let env = Env { slots: vec![], you: None, self_obj: None, rec: u32::MAX };
        engine.evaluator(&st).call_func(u32::try_from(id).unwrap(), vec![Value::Int(i)], &env, Span::default())
    };
    // The pile is one, two, three, from the top.
    let pile = st.zone_contents(g, arbiter::ir::value::ZoneRef { zone: 0, owner: None }).to_vec();
    let names: Vec<String> = pile.iter().map(|o| engine.evaluator(&st).obj_name(*o)).collect();
    assert_eq!(names, ["one", "two", "three"]);
    assert_eq!(usable(0).unwrap(), Value::Bool(true), "the last candidate is the one legal choice: it is found");
    assert_eq!(usable(1).unwrap(), Value::Bool(false), "no legal choice: the ability can't be used");
    assert_eq!(usable(2).unwrap(), Value::Bool(true), "`two` for a, then `three` for b");
    assert_eq!(
        usable(3).unwrap(),
        Value::Bool(false),
        "a's first legal choice is `two`, and no b is two less: the later choice `three` (and `one` for b) is not tried"
    );
    // `one` is legal; `two` would divide by zero, but it comes after the first legal choice.
    assert_eq!(usable(4).unwrap(), Value::Bool(true), "the candidates after the first legal one are not tested");
    assert_eq!(usable(5).unwrap(), Value::Bool(true), "an ability without targets can be used");
}
