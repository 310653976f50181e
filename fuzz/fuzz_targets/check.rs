//! Any bytes as a card file of the built-in small game (the standard library and tic-tac-toe),
//! through the parser and the checker: a game or diagnostics, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = arbiter::fuzz::fuzz_check(data);
});
