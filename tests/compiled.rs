//! What checking does to make rules quick to run, and the promise that it changes nothing else:
//! constants are folded (`check::fold`) and small functions are inlined where they are called
//! (`check::inline`). The oracle for inlining: the same function written after its callers is not
//! inlined (it is not lowered yet), so each pair of callers below runs the same body once inlined
//! and once as a real call, and both must give the same value, or the same error at the same
//! place, for every argument tried, and take the same steps (`bench --profile`, which makes
//! every call as written, is checked against the golden profile by tests/profile.rs).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a test fails loudly by design")]

mod common;

use arbiter::ir::value::Value;
use arbiter::ir::{ExprKindIr, Game};
use arbiter::runtime::Engine;
use arbiter::runtime::state::Env;
use arbiter::syntax::span::Span;

const GAME: &str = r#"
game inline-probe {
  title "Inlining probe"
  players 2
  setup setup.game
  turn turn.play
}

kind token {
  field n: int = 0
}

zone pile shared public ordered holds token

token "a" { n 1 }
token "b" { n 2 }

const three: int = 3
const six: int = three * 2
const greeting: text = "hello"

/// Written before its callers: inlined where they call it.
func early_at(i: int) = nth(pile, i).n
func early_sum(a: int, b: int) = a + b * three
func early_guarded(i: int) = if i < 0 then 0 - 1 else nth(pile, i).n

func use_at(i: int) = early_at(i + 1)
func use_at_late(i: int) = late_at(i + 1)
func use_sum(i: int) = early_sum(i, i)
func use_sum_late(i: int) = late_sum(i, i)
func use_guarded(i: int) = early_guarded(i)
func use_guarded_late(i: int) = late_guarded(i)

// Arguments worked out (`i + 1`, `i * 2`), each kept in a slot of the caller's own, and one read
// after something else that can fail, and read twice.
func two_heavy(i: int) = early_sum(i + 1, i * 2)
func two_heavy_late(i: int) = late_sum(i + 1, i * 2)
func early_after(i: int) = nth(pile, i - 1).n + i * i
func read_after(i: int) = early_after(i + 1)
func read_after_late(i: int) = late_after(i + 1)
// A function that calls another is not inlined.
func calls_another(i: int) = use_at(i)
func use_calls(i: int) = calls_another(i)

// A recursion through an inlined call: the depth budget must stop it at the same depth.
func inc(x: int) = x + 1
func down(n: int) = if n <= 0 then 0 else inc(down(n - 1))
func down_late(n: int) = if n <= 0 then 0 else inc_late(down_late(n - 1))

func folded() = six + 1
func folded_text() = greeting

// A leaf too large to copy into every call (more than 64 nodes): called.
func big(x: int) = [x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x]
func use_big(y: int) = big(y)

/// The same bodies, written after their callers: real calls.
func late_at(i: int) = nth(pile, i).n
func late_sum(a: int, b: int) = a + b * three
func late_guarded(i: int) = if i < 0 then 0 - 1 else nth(pile, i).n
func late_after(i: int) = nth(pile, i - 1).n + i * i
func inc_late(x: int) = x + 1

proc setup.game() {
  let p = first(players())
  create "a" in pile owned by p
  create "b" in pile owned by p
}

proc turn.play() {
  end draw "done"
}
"#;

fn func<'g>(g: &'g Game, name: &str) -> &'g arbiter::ir::FuncDef {
    g.funcs.iter().find(|f| f.info.name == name).unwrap_or_else(|| panic!("no func {name}"))
}

fn kind_of(g: &Game, name: &str) -> &'static str {
    // As the checker lowered it (a fast form, made after, stands beside it: `plain`).
    match &func(g, name).body.plain().kind {
        ExprKindIr::Inline { .. } => "inline",
        ExprKindIr::Call(..) => "call",
        ExprKindIr::Lit(_) => "literal",
        _ => "other",
    }
}

#[test]
fn constants_fold_and_small_functions_written_before_their_calls_are_inlined() {
    let built = common::game_text("inline-probe.arb", GAME);
    let g = &built.game;
    for (name, kind) in [
        ("use_at", "inline"),
        ("use_sum", "inline"),
        ("use_guarded", "inline"),
        ("use_at_late", "call"),
        ("use_sum_late", "call"),
        ("use_guarded_late", "call"),
        ("two_heavy", "inline"),
        ("two_heavy_late", "call"),
        ("read_after", "inline"),
        ("read_after_late", "call"),
        ("use_calls", "call"),
        ("folded", "literal"),
        ("folded_text", "literal"),
        ("use_big", "call"),
    ] {
        assert_eq!(kind_of(g, name), kind, "the body of `{name}`");
    }
    assert!(matches!(func(g, "folded").body.plain().kind, ExprKindIr::Lit(Value::Int(7))), "six + 1 is folded to 7");
    // Arguments that are worked out go into slots of the caller's env, one each.
    let lets = |name: &str| match &func(g, name).body.plain().kind {
        ExprKindIr::Inline { lets, .. } => lets.len(),
        _ => panic!("`{name}` is not inlined"),
    };
    assert_eq!(lets("use_at"), 1, "`i + 1` is worked out: a slot");
    assert_eq!(lets("use_sum"), 0, "`i` is a local: read in place");
    assert_eq!(lets("two_heavy"), 2, "two arguments worked out: a slot each");
    assert_eq!(lets("read_after"), 1, "read three times: a slot");
}

#[test]
fn an_inlined_call_gives_the_value_and_the_error_the_call_gives() {
    let built = common::game_text("inline-probe.arb", GAME);
    let g = &built.game;
    let engine = Engine::new(g);
    let st = common::played_out(&engine);
    let id = |name: &str| u32::try_from(g.funcs.iter().position(|f| f.info.name == name).unwrap()).unwrap();
    let env = Env { slots: vec![], you: None, self_obj: None, rec: u32::MAX };
    let source = |span: Span| g.file(span.file).map(|f| f.slice(span).to_string()).unwrap_or_default();
    let mut compared = 0;
    for (inlined, called) in [
        ("use_at", "use_at_late"),
        ("use_sum", "use_sum_late"),
        ("use_guarded", "use_guarded_late"),
        ("two_heavy", "two_heavy_late"),
        ("read_after", "read_after_late"),
    ] {
        for i in [i64::MIN, -3, -2, -1, 0, 1, 2, 5, i64::MAX] {
            // A fresh evaluator for each, so that nothing is remembered from the other.
            let a = engine.evaluator(&st).forgetful().call_func(id(inlined), vec![Value::Int(i)], &env, Span::default());
            let b = engine.evaluator(&st).forgetful().call_func(id(called), vec![Value::Int(i)], &env, Span::default());
            match (a, b) {
                (Ok(x), Ok(y)) => assert_eq!(x, y, "{inlined}({i}) and {called}({i})"),
                (Err(x), Err(y)) => {
                    assert_eq!(x.message, y.message, "{inlined}({i}) and {called}({i}) fail alike");
                    assert_eq!(source(x.span), source(y.span), "{inlined}({i}) and {called}({i}) fail at the same place");
                }
                (x, y) => panic!("{inlined}({i}) gave {x:?} but {called}({i}) gave {y:?}"),
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 45);
    // The errors the loop met are the ones the rules can give here: off the pile, and overflow.
    let off = engine.evaluator(&st).call_func(id("use_at"), vec![Value::Int(5)], &env, Span::default()).unwrap_err();
    assert!(off.message.contains("cannot read `n` of none"), "{}", off.message);
    let over = engine.evaluator(&st).call_func(id("use_at"), vec![Value::Int(i64::MAX)], &env, Span::default()).unwrap_err();
    assert!(over.message.contains("overflow"), "{}", over.message);
    assert_eq!(source(over.span), "i + 1", "the overflow is reported at the argument, as the call would report it");
}

#[test]
fn an_inlined_call_counts_toward_the_depth_budget_as_the_call_does() {
    let built = common::game_text("inline-probe.arb", GAME);
    let g = &built.game;
    assert!(matches!(&func(g, "down").body.plain().kind, ExprKindIr::If(_, _, x) if matches!(x.plain().kind, ExprKindIr::Inline { .. })));
    let engine = Engine::new(g);
    let st = common::played_out(&engine);
    let id = |name: &str| u32::try_from(g.funcs.iter().position(|f| f.info.name == name).unwrap()).unwrap();
    let env = Env { slots: vec![], you: None, self_obj: None, rec: u32::MAX };
    let run = |name: &str, n: i64| engine.evaluator(&st).forgetful().call_func(id(name), vec![Value::Int(n)], &env, Span::default());
    let mut deepest = None;
    for n in 150..=260 {
        let (a, b) = (run("down", n), run("down_late", n));
        match (&a, &b) {
            (Ok(x), Ok(y)) => {
                assert_eq!(x, y);
                deepest = Some(n);
            }
            (Err(x), Err(y)) => {
                assert!(x.message.contains("depth budget exceeded"), "{}", x.message);
                assert_eq!(x.message, y.message);
            }
            _ => panic!("down({n}) gave {a:?} but down_late({n}) gave {b:?}"),
        }
    }
    // One level of depth for each `down` (the inlined `inc` returns before the next one starts).
    assert_eq!(deepest, Some(199), "the deepest recursion the depth budget allows");
}
