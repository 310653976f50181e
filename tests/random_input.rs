//! Property tests: a card or rule file from a stranger never makes the parser or the checker
//! panic. Three kinds of input, all from a seeded generator (the same cases on every run):
//! random bytes, random soups of the language's tokens, and random mutations (characters and
//! lines deleted, duplicated, swapped, inserted) of every real `.arb` file in the repository.
//! Each case goes through `arbiter::fuzz` — the same entry points the cargo-fuzz targets call —
//! inside `catch_unwind`, so a panic is reported with the input that caused it (also written to
//! `target/random-input-panic.arb`).
//!
//! `ARBITER_RANDOM_CASES=N` multiplies the number of cases (default 1: a few thousand cases in
//! all, a minute or so in a debug build).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use arbiter::check::Role;
use arbiter::check::project::Project;
use arbiter::fuzz::{Verdict, check_text, fuzz_check, fuzz_parse};
use arbiter::runtime::state::Rng;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

fn scale() -> usize {
    std::env::var("ARBITER_RANDOM_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(1).max(1)
}

/// Run `f` on `input`; a panic fails the test, naming the case and showing the input.
fn no_panic<T>(case: &str, input: &str, f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(e) => {
            let what = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_string()));
            let dump = Path::new(env!("CARGO_MANIFEST_DIR")).join("target").join("random-input-panic.arb");
            let _ = std::fs::write(&dump, input);
            let shown: String = input.chars().take(600).collect();
            panic!("{case}: panicked ({}) on this input (whole input written to {}):\n{shown:?}", what.unwrap_or_default(), dump.display());
        }
    }
}

/// Parse, then (if it parsed) check against the built-in small game.
fn parse_and_check(case: &str, text: &str, role: Role) -> Verdict {
    no_panic(case, text, || {
        let parsed = fuzz_parse(text.as_bytes());
        let v = check_text(text, role);
        assert_eq!(parsed, v != Verdict::ParseError, "parse and check disagree on whether it parses");
        v
    })
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng::from_seed(0xB17E5);
    let n = 1500 * scale();
    for case in 0..n {
        let len = rng.below(400) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                // Mostly printable ASCII (so the parser gets past the first token), some anything.
                if rng.below(4) == 0 { rng.below(256) as u8 } else { 32 + rng.below(95) as u8 }
            })
            .collect();
        let text = String::from_utf8_lossy(&bytes).to_string();
        no_panic(&format!("random bytes, case {case}"), &text, || {
            fuzz_parse(&bytes);
            fuzz_check(&bytes);
        });
    }
    eprintln!("random bytes: {n} cases");
}

const TOKENS: &[&str] = &[
    "for",
    "tic-tac-toe",
    "bsg-ccg",
    "game",
    "card",
    "kind",
    "zone",
    "enum",
    "field",
    "player",
    "global",
    "const",
    "func",
    "proc",
    "check",
    "permit",
    "forbid",
    "trigger",
    "modifier",
    "replace",
    "always",
    "variant",
    "scenario",
    "deck",
    "ability",
    "effect",
    "do",
    "let",
    "if",
    "then",
    "else",
    "for",
    "in",
    "while",
    "repeat",
    "return",
    "call",
    "choose",
    "where",
    "from",
    "you",
    "self",
    "and",
    "or",
    "not",
    "has",
    "true",
    "false",
    "none",
    "create",
    "move",
    "to",
    "put",
    "under",
    "over",
    "shuffle",
    "modify",
    "until",
    "log",
    "win",
    "lose",
    "reveal",
    "expect",
    "answer",
    "run",
    "random",
    "roll",
    "stop",
    "cite",
    "sample",
    "type",
    "holds",
    "shared",
    "public",
    "hidden",
    "ordered",
    "owner",
    "int",
    "bool",
    "text",
    "list",
    "square",
    "mark",
    "board",
    "P1",
    "P2",
    "x",
    "y",
    "n",
    "p",
    "setup.game",
    "turn.play",
    "count",
    "sum",
    "range",
    "first",
    "flatten",
    "sort_by",
    "abs",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ",",
    ".",
    ":",
    ";",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "+=",
    "-=",
    "|",
    "||",
    "|x|",
    "=>",
    "->",
    "→",
    "?",
    "#",
    "//",
    "/*",
    "*/",
    "\"",
    "\"text\"",
    "\"{x}\"",
    "\"{{\"",
    "\"\\n\"",
    "\"\\\"",
    "0",
    "1",
    "-1",
    "42",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "99999999999999999999999",
    "1.5",
    "\n",
    "\n",
    "\n",
    "  ",
    "\t",
    "é",
    "⊗",
    "\u{0}",
    "\u{feff}",
    "\r\n",
];

#[test]
fn token_soup_never_panics() {
    let mut rng = Rng::from_seed(0x50_0B);
    let n = 1500 * scale();
    let mut parsed = 0;
    for case in 0..n {
        // Half the cases put a short soup where an expression or statements belong, so that the
        // parser gets past the first token and the checker sees what parses.
        let (mut text, close, len) = match rng.below(4) {
            0 => ("func f(x: int) = ".to_string(), "", 1 + rng.below(6) as usize),
            1 => ("proc p(x: int) {\n".to_string(), "\n}", 1 + rng.below(8) as usize),
            _ => (String::new(), "", 1 + rng.below(120) as usize),
        };
        for _ in 0..len {
            text.push_str(TOKENS[rng.below(TOKENS.len() as u64) as usize]);
            if rng.below(3) != 0 {
                text.push(' ');
            }
        }
        text.push_str(close);
        if parse_and_check(&format!("token soup, case {case}"), &text, Role::Cards) != Verdict::ParseError {
            parsed += 1;
        }
    }
    eprintln!("token soup: {n} cases, {parsed} parsed");
}

/// Every `.arb` file in the repository (not the build directory).
fn real_files() -> Vec<(PathBuf, Role)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for (dir, role) in [("stdlib", Role::Stdlib), ("rulebooks", Role::Rulebook), ("cards", Role::Cards), ("tests", Role::Scenario)] {
        for p in Project::arb_files(&root.join(dir)) {
            let role = if p.components().any(|c| c.as_os_str() == "variants") { Role::Variant } else { role };
            out.push((p, role));
        }
    }
    out
}

const INSERTS: &[&str] = &["{", "}", "(", ")", "[", "]", "\"", ",", ".", "=", "|", "\n", " ", "0", "-", "→", "\u{0}", "é", "/*"];

/// One random edit: a character or a line deleted, duplicated, swapped or inserted.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    let at = if n == 0 { 0 } else { rng.below(n as u64) as usize };
    match rng.below(8) {
        0 if n > 0 => {
            chars.remove(at);
        }
        1 if n > 0 => {
            let c = chars[at];
            chars.insert(at, c);
        }
        2 if n > 1 => {
            let b = rng.below(n as u64) as usize;
            chars.swap(at, b);
        }
        3 => {
            let s = INSERTS[rng.below(INSERTS.len() as u64) as usize];
            for (k, c) in s.chars().enumerate() {
                chars.insert(at + k, c);
            }
        }
        4..=6 => {
            let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
            let m = lines.len();
            let i = rng.below(m as u64) as usize;
            match rng.below(3) {
                0 if m > 1 => {
                    lines.remove(i);
                }
                1 => {
                    let l = lines[i].clone();
                    lines.insert(i, l);
                }
                _ => {
                    let j = rng.below(m as u64) as usize;
                    lines.swap(i, j);
                }
            }
            return lines.join("\n");
        }
        _ => {
            // Cut the file short.
            chars.truncate(at);
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_real_files_never_panic() {
    let files = real_files();
    assert!(files.len() > 100, "expected the repository's .arb files, found {}", files.len());
    let mut rng = Rng::from_seed(0x3E_7A7E);
    let per_file = 5 * scale();
    let mut cases = 0;
    for (path, role) in &files {
        let original = std::fs::read_to_string(path).unwrap();
        let name = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path).display().to_string();
        for k in 0..per_file {
            let mut text = original.clone();
            for _ in 0..=rng.below(3) {
                text = mutate(&text, &mut rng);
            }
            cases += 1;
            // Parse every mutation; check the smaller files too (checking costs more).
            if text.len() < 40_000 {
                parse_and_check(&format!("{name}, mutation {k}"), &text, *role);
            } else {
                no_panic(&format!("{name}, mutation {k}"), &text, || fuzz_parse(text.as_bytes()));
            }
        }
    }
    eprintln!("mutations: {cases} cases over {} files", files.len());
}
