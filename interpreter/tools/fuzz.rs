//! Entry points for untrusted input: any bytes in, a parsed file or diagnostics out, never a
//! panic. The cargo-fuzz targets in `fuzz/` call these, and so do the property tests
//! (`tests/random_input.rs`), so the same code is exercised on stable Rust in `cargo test`.

use arbiter_check::{Input, Role, compile};
use arbiter_syntax::parse_file;
use arbiter_syntax::source_map::SourceMap;
use arbiter_syntax::span::FileId;

/// The small game an untrusted file is checked against: the standard library and tic-tac-toe,
/// built into the library so that fuzzing needs no files on disk.
const CONTEXT: &[(&str, &str, Role)] = &[
    ("stdlib/decks.arb", include_str!("../../stdlib/decks.arb"), Role::Stdlib),
    ("stdlib/dice.arb", include_str!("../../stdlib/dice.arb"), Role::Stdlib),
    ("stdlib/turns.arb", include_str!("../../stdlib/turns.arb"), Role::Stdlib),
    ("rulebooks/tic-tac-toe/game.arb", include_str!("../../rulebooks/tic-tac-toe/game.arb"), Role::Rulebook),
];

/// What became of an untrusted file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The parser refused it with a diagnostic.
    ParseError,
    /// It parsed; the checker reported this many errors (0: it compiled).
    Checked(usize),
}

/// Parse arbitrary bytes (read as UTF-8, invalid sequences replaced) as a source file. True if
/// it parsed, false if it got a diagnostic.
pub fn fuzz_parse(data: &[u8]) -> bool {
    parse_file(FileId::NOWHERE, &String::from_utf8_lossy(data)).is_ok()
}

/// Parse arbitrary bytes as a card or rule file and check it with the small built-in game.
pub fn fuzz_check(data: &[u8]) -> Verdict {
    check_text(&String::from_utf8_lossy(data), Role::Cards)
}

/// Parse `text` as a file with this role and check it with the small built-in game.
pub fn check_text(text: &str, role: Role) -> Verdict {
    let sources = SourceMap::new();
    let mut files = Vec::new();
    let mut inputs = Vec::new();
    for (name, src, r) in CONTEXT {
        let source = sources.add(name, (*src).to_string());
        if let Ok(f) = sources.parse(&source) {
            inputs.push(Input { file: f, role: *r });
        }
        files.push(source);
    }
    let source = sources.add("untrusted.arb", text.to_string());
    let file = match sources.parse(&source) {
        Ok(f) => f,
        Err(_) => return Verdict::ParseError,
    };
    files.push(source);
    inputs.push(Input { file, role });
    match compile(files, &inputs, &[]) {
        Ok(_) => Verdict::Checked(0),
        Err(diags) => Verdict::Checked(diags.len()),
    }
}
