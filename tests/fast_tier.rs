//! The fast tier (`arbiter_ir::fast`, `runtime::fast`) changes nothing a game does: seeded random
//! games of every rulebook play to the same final states with the tier on, off, and checked
//! (where every fast answer is compared with the walker's, value and steps, and a difference is
//! an error that ends the game); and where the walker errs inside an expression with a fast form
//! (a budget, a division by zero, a missing value), the error is the walker's, word for word.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a test fails loudly by design")]

mod common;

use arbiter::runtime::Engine;
use arbiter::runtime::state::State;
use arbiter::runtime::trace::{FastTier, Tracer};

/// A tracer that only sets the tier.
struct Tier(FastTier);

impl Tracer for Tier {
    fn fast_tier(&self) -> FastTier {
        self.0
    }
}

/// Play seeded games with the tier on, off and checked; the fast answers the checked games
/// compared.
fn alike(game: &str, players: usize, seeds: std::ops::Range<u64>) -> u64 {
    let b = common::load(game, &[]);
    let (off, checked) = (Tier(FastTier::Off), Tier(FastTier::Checked));
    let on = Engine::new(&b.game);
    let walker = Engine::new(&b.game).with_tracer(&off);
    let both = Engine::new(&b.game).with_tracer(&checked);
    let json = |st: &State| serde_json::to_string(st).expect("a state serializes");
    for seed in seeds {
        let a = common::play_on(&on, seed, players, &|_| false);
        let w = common::play_on(&walker, seed, players, &|_| false);
        let c = common::play_on(&both, seed, players, &|_| false);
        assert_eq!(a.log.len(), w.log.len(), "{game}, seed {seed}: games of different lengths with the fast tier on and off");
        assert!(json(&a) == json(&w), "{game}, seed {seed}: the same seed played differently with the fast tier on and off");
        assert!(json(&c) == json(&w), "{game}, seed {seed}: the same seed played differently with the fast tier checked");
    }
    assert_eq!(walker.fast_agreed(), 0, "{game}: the tier switched off answered");
    eprintln!("{game}: {} fast answers found the same as the walker's", both.fast_agreed());
    both.fast_agreed()
}

#[test]
fn the_small_games_play_alike_with_the_fast_tier_on_off_and_checked() {
    // Their hot functions are the fast tier's (`three_in_a_row`, `disc_at` and `run`): it must
    // have answered, or this test tests nothing.
    assert!(alike("tic-tac-toe", 2, 0..20) > 100);
    assert!(alike("connect-four", 2, 0..10) > 1000);
}

#[test]
fn the_card_game_and_starship_battles_play_alike_with_the_fast_tier_on_off_and_checked() {
    alike("bsg-ccg", 2, 0..3);
    alike("starship-battles", 2, 0..3);
}

#[test]
fn the_board_game_and_starcraft_play_alike_with_the_fast_tier_on_off_and_checked() {
    alike("bsg-board", 3, 0..1);
    alike("starcraft", 2, 0..1);
}

/// A game whose first turn works out `expr` (a `let`), with a zone of three chips numbered 1 to
/// 3, a global `zero` of 0, a constant list `big` of 3,000 numbers, two recursive functions
/// that read a global (so no evaluation remembers them, and fast forms call them), and `mix`,
/// inlined where it is called, which compares and adds its arguments (locals) and literals.
fn erring(expr: &str) -> String {
    format!(
        r#"game erring {{
  players 2
  setup setup.game
  turn turn.play
}}
kind chip {{
  field n: int = 0
}}
zone pile shared public ordered holds chip
global {{
  zero: int = 0
}}
const big: list int = range(1, 3000)
chip "Chip" {{}}
func at(i: int) = nth(pile, i).n
func down(n: int) = if n <= zero then 0 else down(n - 1) + 1
func fib(n: int) = if n < 2 + zero then n else fib(n - 1) + fib(n - 2)
func mix(a: int, b: int) = if a < b and a != b then b * 3 - a else a + b
proc setup.game() {{
  for k in [1, 2, 3] {{
    let c = create "Chip" in pile owned by first(players())
    c.n = k
  }}
}}
proc turn.play() {{
  let x = {expr}
  end draw "done"
}}
"#
    )
}

/// The error the first turn ends with, as (message, help, the text its span covers), with the
/// tier on or off.
fn error_with(text: &str, tier: FastTier) -> (String, Option<String>, String) {
    use arbiter::runtime::Setup;
    use arbiter::runtime::state::Mode;
    let b = common::game_text("erring.arb", text);
    let t = Tier(tier);
    let engine = Engine::new(&b.game).with_tracer(&t);
    let mut st = engine.new_state(Mode::Game, Setup { players: 2, seed: 1, decklists: vec![] }).expect("new state");
    let e = engine.advance(&mut st).expect_err("the turn errs");
    let at = text.get(e.span.start as usize..e.span.end as usize).unwrap_or_default().to_string();
    (e.message.clone(), e.help.clone(), at)
}

#[test]
fn where_the_walker_errs_inside_a_fast_form_the_error_is_the_walkers() {
    for (expr, message, at) in [
        // Division by zero, an overflow, a field of none, a number that is none.
        ("at(1) + at(2) / zero", "division by zero", "zero"),
        ("at(1) * 9223372036854775807 + at(2)", "number overflow", "at(1) * 9223372036854775807"),
        ("at(7) + at(1)", "cannot read `n` of none", "nth(pile, i)"),
        ("at(1) - nth(big, 5000)", "expected a number, found none", "nth(big, 5000)"),
        // The same in a sum with a local, and with a literal, on its right.
        ("mix(9223372036854775807, at(1))", "number overflow", "a + b"),
        ("mix(at(1), 3074457345618258603)", "number overflow", "b * 3"),
        // Inside a filter's fast form (its value a list).
        ("[c in pile where c.n / zero > 1]", "division by zero", "zero"),
        // The step budget, run out in a walk inside a walk (3,000 × 3,000 steps), and in calls.
        ("count([i in big where any j in big where i + j == 0])", "step budget exceeded", ""),
        ("fib(40)", "step budget exceeded", ""),
        // The depth budget, run out in calls a fast form makes.
        ("down(250) + at(1)", "call depth budget exceeded", "down(n - 1)"),
    ] {
        let text = erring(expr);
        let on = error_with(&text, FastTier::On);
        let off = error_with(&text, FastTier::Off);
        assert!(on.0.contains(message), "`{expr}`: {on:?} should say `{message}`");
        assert!(on.2.contains(at), "`{expr}`: the error points at `{}`, expected `{at}`", on.2);
        assert_eq!(on, off, "`{expr}`: the fast tier changed the error");
    }
}

#[test]
fn the_fast_tier_answers_where_it_covers_and_counts_the_walkers_steps() {
    // Each answered by the fast form (checked against the walker, steps and value).
    for expr in [
        "at(1) + at(2) * at(0) - 4 % 3",
        "count([c in pile where c.n >= 2])",
        "if at(2) > 1 then at(1) else 0 - at(2)",
        "first([c in pile where c.n * 2 == 4])",
        "down(150) + fib(12) + at(1)",
        "mix(at(0), at(2)) + mix(at(2), at(0)) + mix(at(1), at(1))",
        "[c in pile where c.n * 2 >= 4 and mix(c.n, at(0)) > 2]",
        // A filter of lists (items that are not scalars, gathered as they are).
        "[l in [[1, 2], [3, 4], [0], [5]] where nth(l, 0) > at(0)]",
    ] {
        let text = erring(expr).replace("  end draw \"done\"", "  end draw \"done {x}\"");
        let b = common::game_text("answering.arb", &text);
        let t = Tier(FastTier::Checked);
        let engine = Engine::new(&b.game).with_tracer(&t);
        let st = common::played_out(&engine);
        assert!(engine.fast_agreed() >= 1, "`{expr}`: no fast answer was compared");
        assert!(st.log.len() > 1, "`{expr}`: the game ended");
    }
}

#[test]
fn calls_the_fast_tier_makes_have_the_stack_the_walkers_have() {
    // 199 calls deep, on a thread with a small stack (without the room each call makes, as the
    // walker's do, this overflows it).
    let text = erring("down(199) + at(1)").replace("  end draw \"done\"", "  end draw \"done {x}\"");
    let ended = std::thread::Builder::new()
        .stack_size(128 * 1024)
        .spawn(move || {
            let b = common::game_text("deep.arb", &text);
            let t = Tier(FastTier::Checked);
            let engine = Engine::new(&b.game).with_tracer(&t);
            let st = common::played_out(&engine);
            (engine.fast_agreed(), st.log.iter().any(|e| format!("{e:?}").contains("done 201")))
        })
        .expect("a thread")
        .join()
        .expect("the game ends");
    assert!(ended.0 >= 1, "no fast answer was compared");
    assert!(ended.1, "the game ended with `done 201`");
}
