//! Walks that look their items up (`ir::Lookup`, `runtime::lookup`): a walk of a zone whose
//! condition begins with `x.f == v` may test only the objects whose `x.f` is `v`, found in an index
//! of the zone kept from one decision to the next while the zone is unchanged. Which walks the
//! checker marks, and that looked-up walks answer exactly as walks of every item do, in a game
//! whose every turn changes keys, moves objects in and out, makes new ones and changes a field for
//! a while.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a test fails loudly by design")]

mod common;

use arbiter::ir::value::Value;
use arbiter::ir::{ExprIr, ExprKindIr, Lookup, LookupKey, Ty};
use arbiter::runtime::Engine;
use arbiter::runtime::eval::Evaluator;
use arbiter::runtime::state::Env;
use arbiter::syntax::span::Span;
use std::cell::Cell;

const GAME: &str = r#"
game lookup-probe {
  title "Lookup probe"
  players 2
  setup setup.game
  turn turn.play
  durations turn
  default_duration turn
}

kind token {
  field n: int = 0
  field colour: int = 0
  field boosted: int = 0
  field partner: token? = none
  field label: text? = none
}

zone pile shared public ordered holds token
zone hand per player public ordered holds token

player {
  turns: int = 0
}

global {
  wanted: int = 1
}

token "a" { n 1 }

/// A field changed by a modifier that reads a global: its walks are not looked up (an index by
/// it would be stale once the global changes).
modifier boost {
  to t when t.n == wanted
  t.boosted = 1
}

func with_n(k: int) = [t in pile where t.n == k]
func with_n_right(k: int) = [t in pile where k == t.n and t.colour != 2]
func any_n_coloured(k: int, c: int) = any t in pile where t.n == k and t.colour == c
func no_n(k: int) = no t in pile where t.n == k
func all_n(k: int) = all t in pile where t.n == k
func count_n(k: int) = count([t in pile where t.n == k and t.colour >= 1])
func first_n(k: int) = first([t in pile where t.n == k and t.colour != 0])
func owned(p: player) = [t in pile where t.owner == p]
func controlled(p: player) = count([t in pile where t.controller == p and t.n > 0])
func in_hand(p: player, k: int) = [t in p.hand where t.n == k]
func wanted_ones() = [t in pile where t.n == wanted]
func boosted_ones(b: int) = [t in pile where t.boosted == b]
func partnered(o: token) = [t in pile where t.partner == o]
func none_partnered() = count([t in pile where t.partner == none])
/// A text is no plain value: no index can be made by a label once one token has one, and the
/// pile is walked.
func unlabelled() = [t in pile where t.label == none]
/// The rest of the condition fails for some tokens (a colour of 1): the same error, or none.
func failing(k: int) = count([t in pile where t.n == k and 10 / (t.colour - 1) > 0])
func failing_first(k: int) = first([t in pile where t.n == k and 10 / (t.colour - 1) > 0])

proc setup.game() {
  for p in players() {
    repeat 10 {
      create "a" in pile owned by p
    }
  }
  let i = 0
  for t in pile {
    t.n = i % 4
    t.colour = i % 3
    i += 1
  }
  // The bottom token: an index by label fails at the last key it reads.
  let bottom = last(pile)
  bottom.label = "x"
}

proc turn.play() {
  let p = first([q in players() where q.turns == min([r.turns for r in players()])])
  p.turns += 1
  // Changes for a while last a few turns: walks by `n` are looked up again once they end.
  if p.turns % 3 == 0 {
    expire turn
  }
  // Walks the rules make (their names are kept in the state at the decision below).
  let keyed = [t in pile where t.n == wanted]
  let mine = count([t in pile where t.owner == p and t.colour != 1])
  choose p "Change what?" {
    "a wanted token" if count(keyed) > 0 and mine > 0 => {
      let t = choose p "Which token?" from keyed
      t.n = (t.n + 2) % 5
    }
    "a key" => {
      let t = choose p "Which token?" from pile
      t.n = (t.n + 1) % 5
    }
    "a colour" => {
      let t = choose p "Which token?" from pile
      t.colour = (t.colour + 1) % 3
    }
    "into a hand" => {
      let t = choose p "Which token?" from pile
      move t to p.hand
    }
    "out of a hand" if count(p.hand) > 0 => {
      let t = choose p "Which token?" from p.hand
      move t to pile
    }
    "a new token" => {
      create "a" in pile owned by p
    }
    "a partner" => {
      let t = choose p "Which token?" from pile
      t.partner = first(pile)
    }
    "a label" => {
      let t = choose p "Which token?" from pile
      t.label = if t.label == "x" then none else "x"
    }
    "the wanted key" => {
      wanted = (wanted + 1) % 4
    }
    "a key for a while" => {
      let t = choose p "Which token?" from pile
      modify t.n += 1 until turn
    }
  }
  if p.turns >= 40 {
    end draw "forty turns each"
  }
}
"#;

/// The walk in a function's body (the body itself, or the walk a `count` or `first` makes).
fn walk_of(body: &ExprIr) -> Option<Option<Lookup>> {
    let mut found = None;
    body.any(&mut |e| match &e.kind {
        ExprKindIr::Quant { by, .. }
        | ExprKindIr::Filter { by, .. }
        | ExprKindIr::CountWhere { by, .. }
        | ExprKindIr::FirstWhere { by, .. } => {
            found = Some(*by);
            true
        }
        _ => false,
    });
    found
}

/// The checker marks a walk whose condition begins with `x.f == v` (or `v == x.f`), with `v` a
/// parameter, a global, a literal, `you` or `self`, by a field, the owner or the controller; and
/// no other.
#[test]
fn walks_that_begin_with_a_key_test_are_marked() {
    let extra = r#"
func not_equal(k: int) = [t in pile where t.n != k]
func second_test(k: int) = [t in pile where t.colour > 0 and t.n == k]
func worked_out(k: int) = [t in pile where t.n == k + 1]
func both_sides() = [t in pile where t.n == t.colour]
func either(k: int) = [t in pile where t.n == k or t.colour == k]
func through(o: token) = [t in pile where t.partner.n == o.n]
"#;
    let built = common::game_text("lookup-probe.arb", &format!("{GAME}{extra}"));
    let game = &built.game;
    let by = |name: &str| -> Option<Lookup> {
        let f = game.funcs.iter().find(|f| f.info.name == name).unwrap_or_else(|| panic!("no function {name}"));
        walk_of(&f.body).unwrap_or_else(|| panic!("{name} walks nothing"))
    };
    let field = |f: &str, item_left: bool| Some(Lookup { key: LookupKey::Field(game.sym_id(f).unwrap()), item_left });
    assert_eq!(by("with_n"), field("n", true));
    assert_eq!(by("with_n_right"), field("n", false));
    assert_eq!(by("any_n_coloured"), field("n", true));
    assert_eq!(by("no_n"), field("n", true));
    assert_eq!(by("count_n"), field("n", true));
    assert_eq!(by("first_n"), field("n", true));
    assert_eq!(by("wanted_ones"), field("n", true));
    assert_eq!(by("partnered"), field("partner", true));
    assert_eq!(by("none_partnered"), field("partner", true));
    assert_eq!(by("unlabelled"), field("label", true));
    assert_eq!(by("failing"), field("n", true));
    assert_eq!(by("all_n"), None, "`all` tests that no item fails: its condition is not a key test");
    assert_eq!(by("owned"), Some(Lookup { key: LookupKey::Owner, item_left: true }));
    assert_eq!(by("controlled"), Some(Lookup { key: LookupKey::Controller, item_left: true }));
    for name in ["not_equal", "second_test", "worked_out", "both_sides", "either", "through"] {
        assert_eq!(by(name), None, "{name} is walked");
    }
}

/// Every probe function with every argument it is asked with: players, keys and tokens.
fn answers(
    game: &arbiter::ir::Game,
    st: &arbiter::runtime::state::State,
    ev: &Evaluator,
) -> Vec<(String, Vec<Value>, Result<Value, String>)> {
    let players: Vec<Value> = (0..2u8).map(Value::Player).collect();
    let keys: Vec<Value> = (0..5).map(Value::Int).collect();
    let tokens: Vec<Value> = (0..u32::try_from(st.objects.len()).unwrap()).step_by(3).map(Value::Obj).collect();
    let mut out = Vec::new();
    let env = Env { slots: vec![], you: None, self_obj: None, rec: u32::MAX };
    for (i, f) in game.funcs.iter().enumerate() {
        let choices = |ty: &Ty| match ty {
            Ty::Player => players.clone(),
            Ty::Obj(_) => tokens.clone(),
            _ => keys.clone(),
        };
        let mut calls: Vec<Vec<Value>> = vec![vec![]];
        for (_, ty) in &f.params {
            calls = calls.into_iter().flat_map(|c| choices(ty).into_iter().map(move |v| [c.clone(), vec![v]].concat())).collect();
        }
        for args in calls {
            let v = ev
                .call_func(u32::try_from(i).unwrap(), args.clone(), &env, Span::default())
                .map_err(|e| format!("{} at {:?}", e.message, e.span));
            out.push((f.info.name.clone(), args, v));
        }
    }
    out
}

/// Played by random bots, at every decision every probe function answers alike when its walks
/// look items up in indexes kept since earlier lookups (the engine's evaluator) and when they
/// test every item (a forgetful evaluator), errors from the rest of a condition among them. Looked up, a walk for a key few tokens have takes
/// fewer steps: it did look up.
#[test]
fn looked_up_walks_answer_as_walked_ones() {
    let built = common::game_text("lookup-probe.arb", GAME);
    let game = &built.game;
    let engine = Engine::new(game);
    let with_n = u32::try_from(game.funcs.iter().position(|f| f.info.name == "with_n").unwrap()).unwrap();
    let (compared, failures) = (Cell::new(0usize), Cell::new(0usize));
    let (looked_up, walked) = (Cell::new(0u64), Cell::new(0u64));
    for seed in 0..6 {
        let end = common::play_on(&engine, seed, 2, &|st| {
            let kept = engine.evaluator(st);
            let forgetful = Evaluator::new(game, st).forgetful();
            let (a, b) = (answers(game, st, &kept), answers(game, st, &forgetful));
            for ((name, args, x), (_, _, y)) in a.iter().zip(&b) {
                assert!(x.is_ok() || name.starts_with("failing"), "seed {seed}: {name}{args:?} failed: {x:?}");
                assert_eq!(x, y, "seed {seed}, decision at version {}: {name}{args:?}", st.version);
                failures.set(failures.get() + usize::from(x.is_err()));
            }
            compared.set(compared.get() + a.len());
            // The steps of `with_n(4)` (a key at most a few tokens have), its index made by the
            // calls before (the zone is indexed at its third lookup), against a walk of every token.
            let env = Env { slots: vec![], you: None, self_obj: None, rec: u32::MAX };
            let steps = |ev: &Evaluator, k: i64| {
                let before = ev.steps_taken();
                ev.call_func(with_n, vec![Value::Int(k)], &env, Span::default()).unwrap();
                ev.steps_taken() - before
            };
            let own = Evaluator::new(game, st);
            for k in 0..3 {
                steps(&own, k);
            }
            looked_up.set(looked_up.get() + steps(&own, 4));
            walked.set(walked.get() + steps(&Evaluator::new(game, st).forgetful(), 4));
            false
        });
        assert_eq!(end.result.map(|r| r.reason), Some("forty turns each".to_string()), "seed {seed}");
    }
    eprintln!(
        "{} answers compared ({} errors); with_n(4): {} steps looked up, {} walked",
        compared.get(),
        failures.get(),
        looked_up.get(),
        walked.get()
    );
    assert!(compared.get() > 10_000, "only {} answers compared", compared.get());
    assert!(failures.get() > 100, "only {} answers were errors", failures.get());
    assert!(looked_up.get() * 2 < walked.get(), "with_n(4) looked up in {} steps, walked in {}", looked_up.get(), walked.get());
}

/// Played by random bots, the probe game is the same game with walks looked up and walked, state
/// by state at every decision (the state keeps what a walk's name holds after it).
#[test]
fn looked_up_walks_play_as_walked_ones() {
    let built = common::game_text("lookup-probe.arb", GAME);
    let remembering = Engine::new(&built.game);
    let forgetful = Engine::new(&built.game).forgetful();
    let json = |st: &arbiter::runtime::state::State| serde_json::to_string(st).expect("a state serializes");
    for seed in 0..6 {
        let states = |engine: &Engine| {
            let seen = std::cell::RefCell::new(Vec::new());
            let end = common::play_on(engine, seed, 2, &|st| {
                seen.borrow_mut().push(json(st));
                false
            });
            seen.borrow_mut().push(json(&end));
            seen.into_inner()
        };
        let (a, b) = (states(&remembering), states(&forgetful));
        assert_eq!(a.len(), b.len(), "seed {seed}: games of different lengths");
        for (i, (x, y)) in a.iter().zip(&b).enumerate() {
            assert!(x == y, "seed {seed}: the states at decision {i} differ");
        }
    }
}

/// A walk by a key no index can be made by (a text) walks the zone, with a walk's steps, and the
/// index is tried once, not at every lookup after the third (each try reads every key).
#[test]
fn a_key_no_index_can_be_made_by_is_walked() {
    let built = common::game_text("lookup-probe.arb", GAME);
    let game = &built.game;
    let engine = Engine::new(game);
    // At the first decision: only the bottom token has a label.
    let st = common::play_on(&engine, 1, 2, &|_| true);
    let unlabelled = game.funcs.iter().position(|f| f.info.name == "unlabelled").unwrap();
    // The function's body evaluated (a call would be remembered after the first).
    let body = &game.funcs.get(unlabelled).unwrap().body;
    let steps = |ev: &Evaluator| {
        let mut env = Env { slots: vec![Value::None; 4], you: None, self_obj: None, rec: u32::MAX };
        let before = ev.steps_taken();
        let v = ev.eval(body, &mut env).unwrap();
        (ev.steps_taken() - before, v)
    };
    let walked = steps(&Evaluator::new(game, &st).forgetful());
    let ev = Evaluator::new(game, &st);
    let looked: Vec<(u64, Value)> = (0..6).map(|_| steps(&ev)).collect();
    for (i, (n, v)) in looked.iter().enumerate() {
        assert_eq!(v, &walked.1, "lookup {i}");
        // The third tries the index (reading keys up to the one that is not a plain value).
        let most = if i == 2 { walked.0 * 3 } else { walked.0 };
        assert!(*n <= most, "lookup {i} took {n} steps; a walk takes {}", walked.0);
    }
    let pile = arbiter::ir::value::ZoneRef { zone: common::zone_id(&built, "pile"), owner: None };
    let label = LookupKey::Field(game.sym_id("label").unwrap());
    assert_eq!(ev.indexes_tried(pile, label), 1, "an index that cannot be made is tried once, at the third lookup");
}

/// A shared zone named through a player (`q.pile`, `q` a parameter without a type) is refused
/// when the rule runs, as the checker refuses `p.pile`: the zone value would have named an
/// instance of its own, whose changes left the shared zone's number (and so its index) unchanged.
#[test]
fn a_shared_zone_named_through_a_player_is_refused_at_run_time() {
    use arbiter::runtime::state::Mode;
    let text = GAME.replace("proc setup.game() {", "proc send(q, t: token) {\n  move t to q.pile\n}\n\nproc setup.game() {\n  create \"a\" in first(players()).hand owned by first(players())\n  call send(first(players()), first(first(players()).hand))");
    let built = common::game_text("lookup-probe.arb", &text);
    let engine = Engine::new(&built.game);
    let mut st = engine.new_state(Mode::Game, arbiter::runtime::Setup { players: 2, seed: 1, decklists: vec![] }).unwrap();
    let e = engine.advance(&mut st).expect_err("a shared zone is nobody's");
    assert!(e.message.contains("`pile` is a shared zone, not a player's"), "{}", e.message);
}
