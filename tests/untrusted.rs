//! Untrusted files are safe to load and play: each fixture in tests/untrusted/ is a card or rule
//! a stranger could send — one that loops forever, recurses without end, creates objects without
//! bound, builds a huge text or list, or works at the limits of 64-bit integers. Each is loaded
//! and its scenarios run through the library API; each must end with a clear error (message, help
//! where there is one, and a span pointing into the fixture at the statement at fault) in bounded
//! time.
//!
//! Time: only the run of each scenario is timed (not loading the game). In a release build
//! (`cargo test --release --test untrusted`) each must finish within 1 second. A debug build runs
//! the interpreter unoptimised, several times slower, and shares the machine with other tests, so
//! there the bound is 15 seconds: loose enough never to be flaky, tight enough to catch a budget
//! that does not stop the rule. The budgets themselves (how far a rule got) are asserted exactly,
//! through the messages, which name them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use arbiter::check::project::{Project, scenario_extras};
use arbiter::scenario::{Outcome, run};
use arbiter::syntax::parse_file;
use arbiter::syntax::source_map::SourceMap;
use arbiter::syntax::span::{FileId, SourceFile};
use std::path::Path;
use std::time::{Duration, Instant};

const LIMIT: Duration = if cfg!(debug_assertions) { Duration::from_secs(15) } else { Duration::from_secs(1) };

fn project() -> Project {
    Project::at(Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf())
}

/// The scenarios of a fixture (`only` one of them, or all): each outcome, how long it ran, and
/// the loaded files.
fn run_fixture(name: &str, only: Option<&str>) -> (Vec<(Outcome, Duration)>, Vec<SourceFile>) {
    let project = project();
    let path = project.root.join("tests/untrusted").join(name);
    let loaded = project.load("bsg-ccg", &[], &scenario_extras(&project, &path));
    let built = match loaded.result {
        Ok(b) => b,
        Err(d) => panic!("{name} should load: {}", arbiter::diag::render(&d, &loaded.files)),
    };
    let mut out = Vec::new();
    for sc in built.scenarios.iter().filter(|sc| only.is_none_or(|id| sc.id == id)) {
        let start = Instant::now();
        let outcome = run(&built.game, sc, false);
        out.push((outcome, start.elapsed()));
    }
    (out, loaded.files)
}

/// The scenario `id` stopped with one error whose message has `message`, whose help has `help`,
/// and whose span covers `at` in the fixture itself; and it stopped in time.
fn assert_stopped(fixture: &str, id: &str, message: &str, help: &str, at: &str) {
    let (outcomes, files) = run_fixture(fixture, Some(id));
    let (o, took) = outcomes.iter().find(|(o, _)| o.id == id).unwrap_or_else(|| panic!("{fixture} has no scenario `{id}`"));
    assert!(*took < LIMIT, "{fixture} {id}: took {took:?}, more than {LIMIT:?}");
    assert_eq!(o.failures.len(), 1, "{fixture} {id}: expected one error, got {:?}", o.failures);
    let f = &o.failures[0];
    assert!(f.message.contains(message), "{fixture} {id}: message `{}` should contain `{message}`", f.message);
    let h = f.help.clone().unwrap_or_default();
    assert!(h.contains(help), "{fixture} {id}: help `{h}` should contain `{help}`");
    let file = SourceFile::find(&files, f.span.file).unwrap_or_else(|| panic!("{fixture} {id}: the error has no file: {f:?}"));
    assert_eq!(file.name, format!("tests/untrusted/{fixture}"), "{fixture} {id}: the error should point into the fixture");
    let text = file.slice(f.span);
    assert!(text.contains(at), "{fixture} {id}: the error points at `{text}`, expected `{at}`");
    eprintln!("{fixture} {id}: stopped in {took:?}: {}", f.message);
}

#[test]
fn a_card_that_loops_forever_is_stopped() {
    assert_stopped(
        "infinite-loop.arb",
        "endless-vigil",
        "step budget exceeded: more than 2000000 steps without a decision",
        "a loop in the rules or in an object's ability never ends",
        "while true",
    );
}

#[test]
fn a_card_whose_loop_works_hard_forever_is_stopped() {
    assert_stopped(
        "infinite-loop.arb",
        "endless-census",
        "step budget exceeded: more than 20000000 evaluation steps without a decision",
        "does too much work and never ends",
        "total = sum(fleet)",
    );
}

#[test]
fn a_function_that_recurses_without_end_is_stopped() {
    assert_stopped(
        "unbounded-recursion.arb",
        "bottomless-well",
        "depth budget exceeded: more than 200 nested calls",
        "refers to itself without end",
        "untrusted.deeper(n + 1)",
    );
}

#[test]
fn a_procedure_that_recurses_without_end_is_stopped() {
    assert_stopped(
        "unbounded-recursion.arb",
        "again-and-again",
        "depth budget exceeded: more than 400 nested procedures",
        "calls itself without end",
        "call untrusted.again(p)",
    );
}

#[test]
fn a_card_that_creates_objects_without_end_is_stopped() {
    assert_stopped(
        "unbounded-objects.arb",
        "cloning-vat",
        "object budget exceeded: a game may hold at most 20000 objects",
        "creates objects without end",
        "create \"Cloning Vat\" in you.hand",
    );
}

#[test]
fn a_card_that_doubles_a_text_is_stopped() {
    assert_stopped(
        "growing-values.arb",
        "echo-chamber",
        "memory budget exceeded: a text longer than 1 MiB",
        "builds a text without end",
        "shout + shout",
    );
}

#[test]
fn a_card_that_grows_a_list_without_end_is_stopped() {
    assert_stopped(
        "growing-values.arb",
        "hoarder",
        "memory budget exceeded: the rules built more than 256 MiB of texts and lists",
        "lists that keep growing",
        "pile + [count(pile)]",
    );
}

#[test]
fn a_card_that_nests_lists_without_end_is_stopped() {
    let (message, help) = ("size budget exceeded: lists nested more than 100 deep", "puts a list inside a list again and again");
    assert_stopped("growing-values.arb", "russian-doll", message, help, "[doll]");
    assert_stopped("growing-values.arb", "matryoshka", message, help, "[doll for x in [1]]");
}

#[test]
fn arithmetic_past_the_integer_limits_is_an_error() {
    let help = "numbers run from -9223372036854775808 to 9223372036854775807";
    assert_stopped("integer-limits.arb", "infinite-influence", "number overflow", help, "you.influence += 1");
    assert_stopped("integer-limits.arb", "smallest-times-minus-one", "number overflow", help, "smallest * -1");
    assert_stopped("integer-limits.arb", "smallest-divided", "number overflow", help, "smallest / -1");
    assert_stopped("integer-limits.arb", "smallest-negated", "number overflow", help, "abs(smallest)");
    // The limits themselves are ordinary numbers.
    let (outcomes, _) = run_fixture("integer-limits.arb", Some("limits-hold"));
    let (ok, _) = outcomes.iter().find(|(o, _)| o.id == "limits-hold").unwrap();
    assert!(ok.passed(), "{:?}", ok.failures);
}

#[test]
fn a_card_with_a_ten_megabyte_text_is_refused_at_once() {
    // Not committed: the file is made here. Ten megabytes of text in one card.
    let big = "A".repeat(10 << 20);
    let text = format!("for bsg-ccg\n\ncard \"Babbler\" sample \"fixture\" {{\n  type event\n  text \"{big}\"\n}}\n");
    let start = Instant::now();
    let d = parse_file(FileId::NOWHERE, &text).expect_err("a 10 MB file must be refused");
    let took = start.elapsed();
    assert!(d.message.contains("this file is larger than 1024 KiB"), "{}", d.message);
    assert!(d.help.as_deref().unwrap_or_default().contains("split it into several files"), "{:?}", d.help);
    assert!(took < LIMIT, "took {took:?}");
    // The same text just under the file limit parses, and the checker takes it (a long text is
    // not an error in itself).
    let near = format!("for bsg-ccg\n\ncard \"Babbler\" sample \"fixture\" {{\n  type event\n  text \"{}\"\n}}\n", &big[..1_000_000]);
    let start = Instant::now();
    assert!(parse_file(FileId::NOWHERE, &near).is_ok());
    assert!(start.elapsed() < LIMIT, "took {:?}", start.elapsed());
}

/// Words that would name a way out of the sandbox.
const OUTSIDE: &[&str] = &[
    "file", "read", "write", "open", "path", "dir", "env", "var", "time", "clock", "date", "now", "sleep", "net", "http", "url", "socket",
    "exec", "system", "process", "shell",
];

#[test]
fn no_builtin_reaches_outside_the_game() {
    let names: Vec<&str> = arbiter::ir::builtins::BUILTINS.iter().map(|s| s.name).collect();
    assert!(names.len() > 50, "the builtin table: {names:?}");
    for n in &names {
        for w in OUTSIDE {
            // Whole words of a name (`point_in` is not `in`; `distance_to` is not `to`).
            assert!(!n.split('_').any(|part| part == *w), "builtin `{n}` looks like it reaches outside the game (`{w}`)");
        }
    }
}

#[test]
fn the_runtime_and_checker_use_no_files_network_environment_or_clock() {
    // Only the loader (check/project.rs, which reads the game's own folders) and the command line
    // touch the file system; nothing that parses, checks or runs rules does. The budgets
    // (syntax/budgets.rs) hold the web table's limits of time as `Duration`s, and read no clock.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("interpreter");
    let mut checked = 0;
    for dir in ["syntax", "check", "runtime", "builtins"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.file_name().is_some_and(|n| n == "project.rs") {
                continue;
            }
            let src = std::fs::read_to_string(&p).unwrap();
            if p.file_name().is_some_and(|n| n == "budgets.rs") {
                for bad in ["Instant", "SystemTime", "std::fs", "std::env", "std::net", "std::process"] {
                    assert!(!src.contains(bad), "{} uses `{bad}`", p.display());
                }
                checked += 1;
                continue;
            }
            for bad in ["std::fs", "std::env", "std::net", "std::process", "std::time", "SystemTime", "Instant::", "File::open"] {
                assert!(!src.contains(bad), "{} uses `{bad}`", p.display());
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "checked {checked} files");
}

#[test]
fn a_scenario_cannot_make_the_loader_read_files_outside_its_folder() {
    use arbiter::check::scenario::usable_path;
    assert!(usable_path("my-cards.arb"));
    assert!(usable_path("uses/my-cards.arb"));
    for bad in ["../secret.arb", "/etc/passwd", "uses/../../x.arb", "notes.txt", "/abs/cards.arb", ""] {
        assert!(!usable_path(bad), "`{bad}` should be refused");
    }
    let project = project();
    let path = project.root.join("tests/bad/37-scenario-uses-outside-file.arb");
    let extras = scenario_extras(&project, &path);
    assert_eq!(extras, vec![path.clone()], "nothing but the scenario itself may be loaded");
    let loaded = project.load("bsg-ccg", &[], &extras);
    let diags = loaded.result.err().expect("the scenario must be refused");
    let msgs: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert!(msgs.iter().any(|m| m.contains("not `../../../etc/passwd`")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.contains("not `/etc/hostname`")), "{msgs:?}");
}

/// A blanking modifier whose condition asks whether its own object is blank (`active(c)` is "in
/// an active zone and not blank") would ask itself without end: the depth budget stops it with an
/// error at the modifier, instead of the thread's stack running out.
#[test]
fn a_blanking_modifier_that_asks_about_itself_is_stopped() {
    use arbiter::runtime::state::Mode;
    use arbiter::runtime::{Engine, Setup};
    const GAME: &str = r#"
game blank-probe {
  title "Blank probe"
  players 2
  setup setup.game
  turn turn.play
}

zone pile shared public ordered holds token

kind token {
  field n: int = 0
  active in pile
}

token "a" { n 1 }

modifier self_doubt cite "probe" {
  to t when active(t)
  blank except n
}

proc setup.game() {
  create "a" in pile owned by first(players())
}

proc turn.play() {
  end draw "done"
}
"#;
    let sources = SourceMap::new();
    let source = sources.add("blank-probe.arb", GAME.to_string());
    let file = sources.parse(&source).expect("parses");
    let built = arbiter::check::compile(vec![source], &[arbiter::check::Input { file, role: arbiter::check::Role::Rulebook }], &[])
        .unwrap_or_else(|d| panic!("checks: {d:?}"));
    let engine = Engine::new(&built.game);
    let mut st = engine.new_state(Mode::Game, Setup { players: 2, seed: 1, decklists: vec![] }).expect("new state");
    let _ = engine.advance(&mut st);
    let start = Instant::now();
    let e = engine.evaluator(&st).is_blank(0).expect_err("the question has no answer");
    assert!(start.elapsed() < LIMIT, "stopped in time");
    assert!(e.message.contains("depth budget exceeded"), "{}", e.message);
    let at = built.game.files.first().map(|f| f.slice(e.span).to_string()).unwrap_or_default();
    assert!(at.contains("self_doubt"), "the error points at the modifier: `{at}`");
}

/// A scratch folder for one test, emptied first.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-untrusted-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `arbiter ARGS` run in `dir`: its exit code and everything it printed.
fn arbiter_in(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter")).current_dir(dir).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

/// A `uses` line is judged by where its file really is, not by its name: a link in the folder
/// that leads out of it (to a stranger's choice of file) is refused, and nothing of the file it
/// leads to is read or printed — in a card file given with `--rules`, and in a scenario.
#[cfg(unix)]
#[test]
fn a_link_that_leads_out_of_the_folder_is_not_read() {
    let dir = scratch("links");
    let outside = dir.join("outside");
    let inside = dir.join("mine");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(&inside).unwrap();
    // What the link leads to: not a rule file, so reading it would print its lines in an error.
    std::fs::write(outside.join("secret.arb"), "for bsg-ccg\nTOP-SECRET-LINE of a private file\n").unwrap();
    std::os::unix::fs::symlink(outside.join("secret.arb"), inside.join("link.arb")).unwrap();
    std::fs::write(inside.join("my-cards.arb"), "for bsg-ccg\nuses \"link.arb\"\n").unwrap();
    std::fs::write(
        inside.join("ruling.arb"),
        "for bsg-ccg\n\nscenario links \"A card file through a link\" {\n  game bsg-ccg\n  players 2\n  uses \"link.arb\"\n}\n",
    )
    .unwrap();
    for args in
        [&["check", "my-cards.arb"][..], &["play", "bsg-ccg", "--rules", "my-cards.arb"], &["check", "ruling.arb"], &["test", "ruling.arb"]]
    {
        let (code, out) = arbiter_in(&inside, args);
        assert_ne!(code, 0, "{args:?}: refused\n{out}");
        assert!(out.contains("`link.arb` is a link to a file outside this file's folder"), "{args:?}:\n{out}");
        assert!(!out.contains("TOP-SECRET"), "{args:?} printed the file the link leads to:\n{out}");
    }
    // A link that stays inside the folder is a file like another.
    std::fs::write(inside.join("real.arb"), "for bsg-ccg\n").unwrap();
    std::fs::remove_file(inside.join("link.arb")).unwrap();
    std::os::unix::fs::symlink(inside.join("real.arb"), inside.join("link.arb")).unwrap();
    let (code, out) = arbiter_in(&inside, &["check", "my-cards.arb"]);
    assert_eq!(code, 0, "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A rule file that is not UTF-8 text is refused as such, with the file and the byte where the
/// text stops being UTF-8, not as a file of no known game.
#[test]
fn a_file_that_is_not_utf8_is_refused_with_its_byte() {
    let dir = scratch("utf8");
    // `é` in Latin-1: byte 19 of the file, on line 3.
    std::fs::write(dir.join("latin1.arb"), b"for bsg-ccg\n\n// caf\xe9\ncard \"X\" {\n}\n").unwrap();
    let (code, out) = arbiter_in(&dir, &["check", "latin1.arb"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("`latin1.arb` is not UTF-8 text") && out.contains("byte 19 is not UTF-8"), "{out}");
    assert!(out.contains("latin1.arb:3:7"), "the diagnostic points at the byte: {out}");
    assert!(!out.contains("cannot tell which game"), "{out}");
    let (code, out) = arbiter_in(&dir, &["play", "bsg-ccg", "--rules", "latin1.arb"]);
    assert_ne!(code, 0);
    assert!(out.contains("latin1.arb` is not UTF-8 text: byte 19 (line 3) is not UTF-8"), "{out}");
    let (code, out) = arbiter_in(&dir, &["fmt", "--check", "latin1.arb"]);
    assert_ne!(code, 0);
    assert!(out.contains("not UTF-8 text (byte 19, line 3)"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A runaway loop that runs out of budget inside a library procedure is shown with where that
/// procedure was called from: the card's own `call`, in the card's file.
#[test]
fn a_budget_run_out_in_a_library_procedure_names_the_cards_call() {
    let (outcomes, files) = run_fixture("infinite-loop.arb", Some("endless-requisition"));
    let (o, _) = outcomes.iter().find(|(o, _)| o.id == "endless-requisition").unwrap();
    let f = o.failures.first().unwrap_or_else(|| panic!("stopped: {:?}", o.failures));
    assert!(f.message.contains("budget exceeded"), "{}", f.message);
    let named: Vec<String> = f
        .called_from
        .iter()
        .filter_map(|s| SourceFile::find(&files, s.file).map(|file| format!("{}: {}", file.name, file.slice(*s))))
        .collect();
    assert!(named.iter().any(|n| n == "tests/untrusted/infinite-loop.arb: call draw(you, 1)"), "{named:?}");
    let text = arbiter::syntax::diag::render(&[arbiter::scenario::failure_diag(f)], &files);
    assert!(text.contains("called from: tests/untrusted/infinite-loop.arb:"), "{text}");
}

/// A trigger that runs out of budget names itself, and no statement as where it was called from:
/// the engine runs triggers once a statement is done, and the statement below the trigger (the
/// rules' `move c to c.owner.discard`, after the card's `use`) did not call it.
#[test]
fn a_budget_run_out_in_a_trigger_names_no_statement_that_did_not_call_it() {
    let (outcomes, _) = run_fixture("infinite-loop.arb", Some("endless-signal"));
    let (o, _) = outcomes.iter().find(|(o, _)| o.id == "endless-signal").unwrap();
    let f = o.failures.first().unwrap_or_else(|| panic!("stopped: {:?}", o.failures));
    assert!(f.message.contains("(in `endless.watch`)") && f.message.contains("budget exceeded"), "{}", f.message);
    assert!(f.called_from.is_empty(), "called from {:?}", f.called_from);
}
