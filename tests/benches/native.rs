//! The native reference: hand-written Rust random playouts of tic-tac-toe and Connect Four, the
//! limit `arbiter bench` measures the interpreter against in the same run (issue 13).
//!
//! The semantics are the random bots' (`agents::RandomAgent`): at each decision a generator made
//! from the game's seed, the decision count and the seat picks uniformly among the legal moves, in
//! the order the rulebook offers them; the game is checked after every move as the rulebook checks
//! it (tic-tac-toe: all eight lines; Connect Four: the lines through the disc just dropped). (The
//! bot also stirs in the length of the game's log, which these playouts do not keep, so one seed
//! plays another game here: the games end in the same proportions over many seeds, which
//! `tests/native_reference.rs` checks, and each decision costs the same generator.) What
//! the interpreter does beyond this (the event log, the effect stack, options with labels) is its
//! overhead, and the ratio shows it.
//!
//! This file is compiled into the binary by `interpreter/cli/bench.rs` (`#[path]`), so that the
//! games' names stay out of `interpreter/`: the core is game-agnostic.

#![expect(clippy::indexing_slicing, reason = "fixed-size boards indexed in range by construction, as hand-written playouts index them")]

use crate::agents::BotRng;

/// A native run: games played, and how they ended (first player wins, second player wins, draws).
pub struct NativeRun {
    pub games: u64,
    pub wins: [u64; 2],
    pub draws: u64,
}

/// Random playouts of `game` with seeds `seed..seed + games`, if there is a native reference for
/// it.
pub fn playouts(game: &str, games: u64, seed: u64) -> Option<NativeRun> {
    let play: fn(u64) -> Option<usize> = match game {
        "tic-tac-toe" => tic_tac_toe,
        "connect-four" => connect_four,
        _ => return None,
    };
    let mut run = NativeRun { games, wins: [0, 0], draws: 0 };
    for i in 0..games {
        match play(seed.wrapping_add(i)) {
            Some(w) => run.wins[w] += 1,
            None => run.draws += 1,
        }
    }
    Some(run)
}

/// The generator for one decision, made as the random bot makes it.
fn pick(seed: u64, decision: u64, seat: usize, n: usize) -> usize {
    let mut h = seed ^ 0x9e37_79b9_7f4a_7c15;
    for x in [decision, seat as u64] {
        h = (h ^ x).wrapping_mul(0x0100_0000_01b3).rotate_left(17);
    }
    BotRng::from_seed(h).below(n as u64) as usize
}

/// One game of tic-tac-toe: the winner's seat, or `None` for a draw.
fn tic_tac_toe(seed: u64) -> Option<usize> {
    const LINES: [[usize; 3]; 8] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
    let mut board = [0u8; 9];
    let mut empty = [0usize; 9];
    for decision in 0..9u64 {
        let seat = (decision % 2) as usize;
        let mark = seat as u8 + 1;
        let mut n = 0;
        for (i, &m) in board.iter().enumerate() {
            if m == 0 {
                empty[n] = i;
                n += 1;
            }
        }
        board[empty[pick(seed, decision, seat, n)]] = mark;
        if LINES.iter().any(|l| l.iter().all(|&i| board[i] == mark)) {
            return Some(seat);
        }
    }
    None
}

/// One game of Connect Four on a 7 × 6 grid: the winner's seat, or `None` for a draw.
fn connect_four(seed: u64) -> Option<usize> {
    const ROWS: i32 = 6;
    const COLS: i32 = 7;
    let mut grid = [[0u8; COLS as usize]; ROWS as usize];
    let at = |grid: &[[u8; 7]; 6], r: i32, c: i32| {
        if (0..ROWS).contains(&r) && (0..COLS).contains(&c) { grid[r as usize][c as usize] } else { 0 }
    };
    let mut open = [0i32; COLS as usize];
    for decision in 0..(ROWS * COLS) as u64 {
        let seat = (decision % 2) as usize;
        let disc = seat as u8 + 1;
        let mut n = 0;
        for c in 0..COLS {
            if grid[(ROWS - 1) as usize][c as usize] == 0 {
                open[n] = c;
                n += 1;
            }
        }
        let c = open[pick(seed, decision, seat, n)];
        let r = (0..ROWS).find(|&r| grid[r as usize][c as usize] == 0).unwrap_or(0);
        grid[r as usize][c as usize] = disc;
        let run = |dr: i32, dc: i32| (1..4).take_while(|&k| at(&grid, r + k * dr, c + k * dc) == disc).count();
        if [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| 1 + run(dr, dc) + run(-dr, -dc) >= 4) {
            return Some(seat);
        }
    }
    None
}
