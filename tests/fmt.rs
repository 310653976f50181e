//! `arbiter fmt`: every file in the repository is in the canonical layout, formatting it again
//! changes nothing, it reads to the same tree, and the layout is canonical: however a file's
//! spaces, indentation and blank lines are disturbed, formatting gives the same text back.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use arbiter::syntax::fmt::{Refused, format, format_checked, skipped};
use arbiter::syntax::lex::{Tok, lex};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.arb` file under rulebooks, cards, stdlib and tests, with its text.
fn repository_files() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = ["rulebooks", "cards", "stdlib", "tests"].iter().map(|d| root().join(d)).collect();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read a folder").flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "arb") {
                let name = p.strip_prefix(root()).unwrap_or(&p).display().to_string();
                out.push((name, std::fs::read_to_string(&p).expect("read a file")));
            }
        }
    }
    out.sort();
    assert!(out.len() > 300, "the repository's files were found ({})", out.len());
    out
}

#[test]
fn every_repository_file_is_formatted_and_formatting_it_again_changes_nothing() {
    let mut skipped_files = Vec::new();
    for (name, text) in repository_files() {
        if skipped(&text) {
            // A file kept as written must have its reason: here, only fixtures that do not parse.
            assert!(matches!(format_checked(&name, &text), Err(Refused::Syntax(..))), "{name} is skipped but parses");
            skipped_files.push(name);
            continue;
        }
        let formatted = format_checked(&name, &text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(formatted, text, "{name} is not formatted: run `arbiter fmt`");
        assert_eq!(format(&formatted), formatted, "{name}: formatting twice changed it");
    }
    assert!(skipped_files.iter().all(|n| n.starts_with("tests/bad/")), "{skipped_files:?}");
}

/// A small deterministic generator (the test needs no seed from outside).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// `text` with its layout disturbed but not its meaning: indentation, runs of spaces and tabs,
/// spaces at line ends, `\r\n` line ends, blank lines doubled or added inside a block's edges,
/// spaces added or removed where the layout has a fixed rule.
fn disturbed(text: &str, rng: &mut Lcg) -> String {
    let toks = lex(text);
    let mut out = String::new();
    let spaces = |rng: &mut Lcg| ["", " ", "  ", "\t", " \t  "][rng.below(5) as usize].to_string();
    for (i, t) in toks.iter().enumerate() {
        let s = t.text(text);
        let prev = i.checked_sub(1).and_then(|j| toks.get(j)).map(|p| (p.kind, p.text(text)));
        let next = toks.get(i + 1).map(|n| (n.kind, n.text(text)));
        let fixed = |x: Option<(Tok, &str)>, set: &[&str]| x.is_some_and(|(k, s)| k == Tok::Punct && set.contains(&s));
        match t.kind {
            // Leading indentation: anything. Between tokens: one or more spaces and tabs, or none
            // where the layout puts a fixed space (or none) whatever the author wrote.
            Tok::Space => {
                let leading = prev.is_none_or(|(k, _)| k == Tok::Newline);
                let trailing = next.is_none_or(|(k, _)| k == Tok::Newline);
                if leading || trailing {
                    out.push_str(&spaces(rng));
                } else if fixed(prev, &["(", "[", ",", "=", "==", "!=", "<=", ">=", "+=", "-=", "=>"])
                    || fixed(next, &[")", "]", ",", "=", "==", "!=", "<=", ">=", "+=", "-=", "=>", "{"])
                {
                    out.push_str(["", " ", "   "][rng.below(3) as usize]);
                } else {
                    out.push_str([" ", "  ", "\t", " \t "][rng.below(4) as usize]);
                }
            }
            Tok::Newline => {
                out.push_str(&spaces(rng));
                let blank_allowed_to_vanish = fixed(prev, &["{"]) || next.is_some_and(|(k, _)| k == Tok::Newline);
                out.push_str(if rng.below(4) == 0 { "\r\n" } else { "\n" });
                if blank_allowed_to_vanish && rng.below(2) == 0 {
                    out.push_str(&spaces(rng));
                    out.push('\n');
                }
                if next.is_some_and(|(k, _)| k != Tok::Space && k != Tok::Newline) {
                    out.push_str(&spaces(rng));
                }
            }
            _ => {
                out.push_str(s);
                // A space where the layout adds one anyway, or takes it away.
                let add = fixed(Some((t.kind, s)), &["(", "[", ",", "==", "!="])
                    || next.is_some_and(|(k, n)| k == Tok::Punct && matches!(n, ")" | "]" | ","));
                if add && next.is_some_and(|(k, _)| k != Tok::Space && k != Tok::Newline) && rng.below(2) == 0 {
                    out.push(' ');
                }
            }
        }
    }
    if rng.below(2) == 0 {
        out.push_str("\n\n  \n");
    }
    if rng.below(2) == 0 {
        out.insert_str(0, "\n \n");
    }
    out
}

#[test]
fn the_layout_is_canonical_however_a_file_was_laid_out() {
    let mut rng = Lcg(0x5eed);
    let mut tried = 0;
    for (name, text) in repository_files() {
        if skipped(&text) {
            continue;
        }
        for _ in 0..2 {
            let messy = disturbed(&text, &mut rng);
            let again = format_checked(&name, &messy).unwrap_or_else(|e| panic!("{name} disturbed: {e:?}\n{messy}"));
            if again != text {
                let line = arbiter::syntax::fmt::first_difference(&text, &again);
                let show = |t: &str| t.lines().nth(line - 1).unwrap_or("").to_string();
                panic!("{name}:{line}: the disturbed file formats to `{}`, not `{}`", show(&again), show(&text));
            }
            tried += 1;
        }
    }
    assert!(tried > 600, "{tried} disturbed files");
}

fn arbiter(args: &[&str], dir: &Path, stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arbiter");
    if let Some(text) = stdin {
        use std::io::Write as _;
        child.stdin.take().expect("stdin").write_all(text.as_bytes()).expect("write stdin");
    }
    drop(child.stdin.take());
    child.wait_with_output().expect("arbiter ends")
}

const MESSY: &str = "for bsg-ccg\n\n\ncard \"Odd Viper\" sample \"test\"{\n      type ship\n  power   2\n   traits Fighter ,Viper   \n}";
const TIDY: &str = "for bsg-ccg\n\ncard \"Odd Viper\" sample \"test\" {\n  type ship\n  power 2\n  traits Fighter, Viper\n}\n";

#[test]
fn fmt_check_reports_fmt_rewrites_and_a_broken_file_is_left_as_it_is() {
    let dir = std::env::temp_dir().join(format!("arbiter-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("mine.arb");
    std::fs::write(&file, MESSY).expect("write");

    let check = arbiter(&["fmt", "--check", "mine.arb"], &dir, None);
    let said = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(1), "{said}");
    assert!(said.contains("mine.arb:3: not formatted"), "{said}");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), MESSY, "--check writes nothing");

    let fmt = arbiter(&["fmt", "mine.arb"], &dir, None);
    assert_eq!(fmt.status.code(), Some(0), "{}", String::from_utf8_lossy(&fmt.stderr));
    assert_eq!(std::fs::read_to_string(&file).expect("read"), TIDY);
    assert_eq!(arbiter(&["fmt", "--check", "mine.arb"], &dir, None).status.code(), Some(0));

    let broken = "for bsg-ccg\ncard \"Broken\" sample \"test\"   {\n  power 2\n";
    std::fs::write(&file, broken).expect("write");
    let refused = arbiter(&["fmt", "mine.arb"], &dir, None);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1));
    assert!(err.contains("mine.arb:") && err.contains("left as it is"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), broken, "a file that does not parse is not touched");

    // With no paths, outside any project: nothing is formatted (not the checkout the program
    // was built from either).
    let none = arbiter(&["fmt"], &dir, None);
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("no project here"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fmt_dash_formats_standard_input_for_editors() {
    let out = arbiter(&["fmt", "-"], &root(), Some(MESSY));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), TIDY);
    // Text that does not parse comes back unchanged, with the error on standard error.
    let broken = "card \"x\" {\n";
    let out = arbiter(&["fmt", "-"], &root(), Some(broken));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), broken);
    assert!(String::from_utf8_lossy(&out.stderr).contains("<stdin>"));
}

/// A file that formatting would grow past the largest file accepted is left as it is, and the
/// error says so (it said "a fault in `arbiter fmt`": the formatted text did not read back).
#[test]
fn a_file_formatting_would_make_too_large_is_left_as_it_is() {
    let dir = tempfile::Builder::new().prefix("arbiter-fmt-large-").tempdir().expect("temp dir");
    let file = dir.path().join("big.arb");
    let line = "const c: int=1+1\n";
    let text: String = "for tic-tac-toe\n".to_string() + &line.repeat((arbiter::budgets::FILE_LIMIT - 100) / line.len());
    assert!(text.len() < arbiter::budgets::FILE_LIMIT);
    std::fs::write(&file, &text).expect("write");
    let out = arbiter(&["fmt", "big.arb"], dir.path(), None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    // Each line gains four spaces: `const c: int = 1 + 1`.
    let kib = (text.len() + 4 * (text.lines().count() - 1)).div_ceil(1024);
    assert!(err.contains(&format!("big.arb: formatted, it would be {kib} KiB, larger than a file may be (1024 KiB)")), "{err}");
    assert!(!err.contains("fault"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), text, "the file is not touched");
}
