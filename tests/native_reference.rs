//! The native reference (`tests/benches/native.rs`) plays the same games as the rulebooks: over the
//! same seeds, its random playouts of tic-tac-toe and Connect Four end in first-player wins,
//! second-player wins and draws in the same proportions as the interpreter's random games, within
//! four standard errors. So `arbiter bench`'s ratio compares like with like. (Timings are never
//! asserted: `arbiter bench` reports them.)

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use arbiter::cli::bench::native;

/// Each outcome's share: first player wins, second player wins, draws.
fn arbiter_shares(game: &str, games: u64) -> [f64; 3] {
    let b = common::load(game, &[]);
    let mut n = [0u64; 3];
    for seed in 0..games {
        let st = common::play_until(&b, seed, 2, &|_| false);
        let r = st.result.as_ref().unwrap_or_else(|| panic!("{game} seed {seed}: no result"));
        match r.winners.as_slice() {
            [0] => n[0] += 1,
            [1] => n[1] += 1,
            [] => n[2] += 1,
            other => panic!("{game} seed {seed}: winners {other:?}"),
        }
    }
    n.map(|k| k as f64 / games as f64)
}

fn agree(game: &str, games: u64) {
    let ours = arbiter_shares(game, games);
    let run = native::playouts(game, games, 0).unwrap_or_else(|| panic!("no native reference for {game}"));
    let theirs = [run.wins[0], run.wins[1], run.draws].map(|k| k as f64 / games as f64);
    for (i, what) in ["first player wins", "second player wins", "draws"].iter().enumerate() {
        let p = (ours[i] + theirs[i]) / 2.0;
        // The standard error of a difference of two proportions over `games` games each.
        let se = (2.0 * p * (1.0 - p) / games as f64).sqrt().max(1e-3);
        assert!(
            (ours[i] - theirs[i]).abs() <= 4.0 * se,
            "{game}, {what}: the interpreter {:.3}, the native reference {:.3} (standard error {se:.3})",
            ours[i],
            theirs[i]
        );
    }
}

#[test]
fn tic_tac_toe_native_playouts_end_as_the_rulebook_games_do() {
    agree("tic-tac-toe", 3000);
}

#[test]
fn connect_four_native_playouts_end_as_the_rulebook_games_do() {
    agree("connect-four", 1500);
}

#[test]
fn a_game_without_a_native_reference_has_none() {
    assert!(native::playouts("bsg-ccg", 1, 0).is_none());
}

/// `arbiter bench`'s lines: the native reference is timed in rounds between Arbiter's (however few
/// the games), for random bots only, and only for a game that has one. Only the shape is checked.
#[test]
fn bench_times_the_native_reference_in_rounds_for_random_bots_only() {
    let bench = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter")).arg("bench").args(args).output().unwrap();
        assert!(out.status.success(), "bench {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let line = |out: &str| out.lines().find(|l| l.contains("native reference")).map(str::to_string);
    for (games, rounds) in [("40", 10), ("11", 10), ("25", 10), ("3", 3)] {
        let out = bench(&["tic-tac-toe", "--games", games]);
        let l = line(&out).unwrap_or_else(|| panic!("no native line:\n{out}"));
        assert!(l.contains(&format!("median of {rounds} rounds")), "{l}");
        assert!(l.contains("the same seed numbers, timed between rounds of Arbiter's games"), "{l}");
        assert!(l.contains("× slower (median of"), "{l}");
    }
    assert_eq!(line(&bench(&["tic-tac-toe", "--games", "3", "--bots", "greedy"])), None, "a ratio means something for random bots only");
    assert_eq!(line(&bench(&["starship-battles", "--games", "1"])), None, "no native reference for this game");
    let zero = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter")).args(["bench", "tic-tac-toe", "--games", "0"]).output().unwrap();
    assert_eq!(zero.status.code(), Some(2), "no games: refused");
    assert!(String::from_utf8_lossy(&zero.stderr).contains("`--games 0`: play at least one game"));
}
