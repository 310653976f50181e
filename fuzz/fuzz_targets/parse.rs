//! Any bytes through the parser: a file or a diagnostic, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = arbiter::fuzz::fuzz_parse(data);
});
