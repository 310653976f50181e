//! `count([x in L where c])` and `first([x in L where c])` walk the list without building the
//! filtered one (`ExprKindIr::CountWhere`, `FirstWhere`). Their values are the ones the filter and
//! the builtin give, over a zone and over a list, with none passing, some, and all.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a test fails loudly by design")]

mod common;

use arbiter::ir::ExprKindIr;
use arbiter::ir::value::Value;
use arbiter::runtime::Engine;
use arbiter::runtime::state::Env;
use arbiter::syntax::span::Span;

const GAME: &str = r#"
game fused {
  title "Fused walks"
  players 2
  setup setup.game
  turn turn.play
}

kind token {
  field n: int = 0
}

zone pile shared public ordered holds token

token "one" { n 1 }
token "two" { n 2 }
token "three" { n 3 }

func count_big() = count([t in pile where t.n >= 2])
func count_none() = count([t in pile where t.n > 9])
func count_all() = count([x in [5, 6, 7, 8] where x > 0])
func first_big() = first([t in pile where t.n >= 2])
func first_none() = first([t in pile where t.n > 9])
func first_even() = first([x in [5, 6, 7, 8] where x % 2 == 0])
func top_big() = top([t in pile where t.n >= 2])

proc setup.game() {
  create "one" in pile owned by first(players())
  create "two" in pile owned by first(players())
  create "three" in pile owned by first(players())
}

proc turn.play() {
  end draw "done"
}
"#;

#[test]
fn fused_count_and_first_give_the_filters_values() {
    let built = common::game_text("fused.arb", GAME);
    let g = &built.game;
    let engine = Engine::new(g);
    let st = common::played_out(&engine);
    let call = |name: &str| {
        let (id, f) = g.funcs.iter().enumerate().find(|(_, f)| f.info.name == name).unwrap();
        let env = Env { slots: vec![], you: None, self_obj: None, rec: u32::MAX };
        let v = engine.evaluator(&st).call_func(u32::try_from(id).unwrap(), vec![], &env, Span::default()).unwrap();
        (v, &f.body.plain().kind)
    };
    // The pile holds #0 "one", #1 "two", #2 "three", in that order.
    let pile = st.zone_contents(g, arbiter::ir::value::ZoneRef { zone: 0, owner: None }).to_vec();
    let first_big_expected = pile.iter().copied().find(|&o| o != 0).map(Value::Obj).unwrap();
    let (v, kind) = call("count_big");
    assert!(matches!(kind, ExprKindIr::CountWhere { .. }), "count of a filter is fused");
    assert_eq!(v, Value::Int(2));
    assert_eq!(call("count_none").0, Value::Int(0));
    assert_eq!(call("count_all").0, Value::Int(4));
    let (v, kind) = call("first_big");
    assert!(matches!(kind, ExprKindIr::FirstWhere { .. }), "first of a filter is fused");
    assert_eq!(v, first_big_expected);
    assert_eq!(call("first_none").0, Value::None);
    assert_eq!(call("first_even").0, Value::Int(6));
    // `top` is not fused, and gives the same as `first` here.
    let (v, kind) = call("top_big");
    assert!(matches!(kind, ExprKindIr::Builtin(..)));
    assert_eq!(v, first_big_expected);
}
