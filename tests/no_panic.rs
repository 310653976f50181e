//! Nothing panics on any input: every source file, cut and damaged in many ways, goes through
//! the parser and the checker and comes out as diagnostics (or a game), never a panic.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use arbiter::check::project::Project;
use arbiter::check::{Input, Role, compile};
use arbiter::runtime::state::Rng;
use arbiter::syntax::parse_file;
use arbiter::syntax::source_map::SourceMap;
use arbiter::syntax::span::FileId;
use std::path::Path;

const DAMAGE: &[&str] = &["{", "}", "(", ")", "\"", "[", "]", ",", ".", "=", "==", " x ", "\n", "0", "-", "|", "//", "→", "\u{0}"];

fn damaged(text: &str, rng: &mut Rng) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return String::new();
    }
    let at = rng.below(chars.len() as u64) as usize;
    let mut out: String;
    match rng.below(4) {
        0 => out = chars[..at].iter().collect(),
        1 => {
            out = chars[..at].iter().collect();
            out.extend(chars[(at + 1).min(chars.len())..].iter());
        }
        2 => {
            out = chars[..at].iter().collect();
            out.push_str(DAMAGE[rng.below(DAMAGE.len() as u64) as usize]);
            out.extend(chars[at..].iter());
        }
        _ => {
            // Swap two lines.
            let mut lines: Vec<&str> = text.lines().collect();
            let n = lines.len();
            if n > 1 {
                let a = rng.below(n as u64) as usize;
                let b = rng.below(n as u64) as usize;
                lines.swap(a, b);
            }
            out = lines.join("\n");
        }
    }
    out
}

#[test]
fn damaged_sources_never_panic() {
    let project = Project::at(Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf());
    let files = project.game_files("bsg-ccg");
    let originals: Vec<(String, String, Role)> =
        files.iter().map(|(p, r)| (project.display(p), std::fs::read_to_string(p).unwrap(), *r)).collect();
    let mut rng = Rng::from_seed(2026);
    let mut rounds = 0;
    for target in (0..originals.len()).cycle().take(originals.len() * 12) {
        rounds += 1;
        let map = SourceMap::new();
        let mut sources = Vec::new();
        let mut inputs = Vec::new();
        let mut parse_failed = false;
        for (i, (name, text, role)) in originals.iter().enumerate() {
            let text = if i == target { damaged(text, &mut rng) } else { text.clone() };
            let source = map.add(name, text);
            match map.parse(&source) {
                Ok(f) => inputs.push(Input { file: f, role: *role }),
                Err(d) => {
                    assert!(!d.message.is_empty());
                    parse_failed = true;
                }
            }
            sources.push(source);
        }
        if !parse_failed {
            let _ = compile(sources, &inputs, &[]);
        }
    }
    assert!(rounds > 100);
}

#[test]
fn arbitrary_bytes_never_panic() {
    let mut rng = Rng::from_seed(7);
    for _ in 0..500 {
        let len = rng.below(200) as usize;
        let s: String = (0..len)
            .map(|_| {
                let pool = "card \"{}()[]=<>!.,;:|#-+*/%0123456789abcxyz\n\t ⊗";
                pool.chars().nth(rng.below(pool.chars().count() as u64) as usize).unwrap_or(' ')
            })
            .collect();
        let _ = parse_file(FileId::NOWHERE, &s);
    }
    // Deep nesting is refused, not a stack overflow.
    let deep = format!("func f() = {}1{}", "(".repeat(10_000), ")".repeat(10_000));
    assert!(parse_file(FileId::NOWHERE, &deep).is_err());
}

#[test]
fn long_operator_chains_never_overflow_the_stack() {
    let nots = format!("func f() = {}true", "not ".repeat(200_000));
    let _ = parse_file(FileId::NOWHERE, &nots);
    let negs = format!("func f() = {}1", "- ".repeat(300_000));
    let _ = parse_file(FileId::NOWHERE, &negs);
    let ifs = format!("func f() = {}1", "if true then 1 else ".repeat(50_000));
    let _ = parse_file(FileId::NOWHERE, &ifs);
    let fields = format!("func f(p: player) = p{}", ".influence".repeat(80_000));
    let _ = parse_file(FileId::NOWHERE, &fields);
    let sums = format!("func f() = 1{}", " + 1".repeat(200_000));
    let _ = parse_file(FileId::NOWHERE, &sums);
}
