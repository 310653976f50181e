//! Whole games under house rules a stranger could send, played as a user plays them (`play`,
//! `sim`): rules that stay inside every budget of the rules' own work but make the engine keep,
//! show or think about too much. Each fixture is in tests/untrusted/; each game must end, or go
//! on, with bounded output, memory and time:
//!
//! - the event log is held to `LOG_BUDGET`, between decisions and across them (`chatter.arb`);
//! - a value is shown at the table and in the log cut to `SHOWN_LIMIT` (`hoard.arb`);
//! - a picture is drawn to `PICTURE_LIMIT` at most (`pictures.arb`), and `play --svg` writes
//!   `PICTURES_WRITTEN_LIMIT` of them for a game at most (`gallery.arb`);
//! - a searching bot thinks `--think` seconds at most about one decision (`ponderous.arb`).
//!
//! Times are bounds that a budget not stopping the rule would pass by far (minutes or hours), not
//! measurements: loose enough for a debug build on a busy machine.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use arbiter::check::project::Project;
use arbiter::syntax::budgets::{LOG_BUDGET, PICTURES_WRITTEN_LIMIT, SHOWN_LIMIT, VIEW_LIMIT};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/untrusted").join(name)
}

/// `arbiter ARGS`: its exit code, what it printed, and how long it took.
fn arbiter(args: &[&str]) -> (i32, String, Duration) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter")).current_dir(env!("CARGO_MANIFEST_DIR")).args(args).output().unwrap();
    let took = start.elapsed();
    (out.status.code().unwrap_or(-1), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)), took)
}

/// A game that logs a megabyte a turn and never ends (no turn too long, no decision one too many),
/// a turn that logs without end, a field given fifty new megabyte texts a turn (the log keeps
/// every value it had: 11.6 GB before the allocator gave up), and a field flipped between a
/// megabyte's text once and twice (each change shows both: `--log` printed 9.2 GB in two
/// minutes): each is stopped by the log budget, at the statement that logs or changes, long
/// before the turn budget. A field flipped between lists of lists of one short text keeps little
/// but shows 16 KiB a value (1.3 GB printed before the log's weight counted what it shows).
#[test]
fn a_game_that_fills_its_log_is_stopped_by_the_log_budget() {
    let rules = fixture("chatter.arb");
    // With `--log` where the values changed are what the log holds (the others log texts, which
    // `--log` prints whole: 64 MiB of them).
    let cases = [
        ("chatter", "chatter.arb:12:7", None),
        ("babbling", "chatter.arb:28:7", None),
        ("keeper", "chatter.arb:42:5", Some("--log")),
        ("flipping", "chatter.arb:58:7", Some("--log")),
        ("nesting", "chatter.arb:77:7", Some("--log")),
    ];
    for (variant, line, log) in cases {
        let mut args = vec!["play", "tic-tac-toe", "--rules", rules.to_str().unwrap(), "--variant", variant];
        args.extend(log);
        let (code, out, took) = arbiter(&args);
        assert_eq!(code, 2, "{variant}: stopped on a rule error\n{}", &out[out.len().saturating_sub(3000)..]);
        let message = format!("log budget exceeded: the game's events hold more than {} MiB", LOG_BUDGET >> 20);
        assert!(out.contains(&message), "{variant}:\n{out}");
        assert!(out.contains(line), "{variant}: the error is shown at the `log` ({line})\n{out}");
        assert!(out.contains("logs, asks or changes things without end"), "{variant}: with its help\n{out}");
        assert!(out.len() < 1_000_000, "{variant}: {} bytes printed", out.len());
        assert!(took < Duration::from_secs(60), "{variant}: took {took:?}");
    }
}

/// A list holding one megabyte's text three hundred times costs the rules 300 pointers; shown
/// whole, each change of it printed 600 MB to the log (the old value and the new), and the
/// table's view of it was as large. Both now show it cut to `SHOWN_LIMIT` bytes, ending in `…`,
/// and the game plays to its end.
#[test]
fn a_huge_value_is_shown_cut_at_the_table_and_in_the_log() {
    let rules = fixture("hoard.arb");
    let (code, out, _) = arbiter(&["play", "tic-tac-toe", "--rules", rules.to_str().unwrap(), "--variant", "hoard", "--log"]);
    assert_eq!(code, 0, "the game plays to its end\n{}", &out[..out.len().min(2000)]);
    assert!(out.contains("result after"), "{}", &out[out.len().saturating_sub(2000)..]);
    let changes: Vec<&str> = out.lines().filter(|l| l.starts_with("junk:")).collect();
    assert!(changes.len() >= 2, "each turn changes `junk`: {changes:?}");
    // The first change is from nothing; each after it from one huge list to another.
    let line = changes[1];
    let (old, new) = line.trim_start_matches("junk: ").split_once(" → ").unwrap_or_else(|| panic!("{}", &line[..100]));
    for side in [old, new] {
        assert!(side.starts_with("xxx") && side.ends_with('…'), "cut: {}", &side[side.len().saturating_sub(100)..]);
        assert!(side.len() <= SHOWN_LIMIT + '…'.len_utf8(), "{} bytes", side.len());
    }
    assert!(out.len() < 1_000_000, "{} bytes printed", out.len());

    // The table as a seat sees it (the web table's view, `state` at the terminal).
    let project = Project::at(Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf());
    let loaded = project.load("tic-tac-toe", &["hoard".to_string()], &[rules]);
    let built = loaded.result.unwrap_or_else(|d| panic!("{d:?}"));
    let st = common::play_until(&built, 1, 2, &|st| st.turns >= 2);
    let view = arbiter::runtime::view::table_view(&built.game, &st, Some(0));
    let junk = view.globals.iter().find(|f| f.name == "junk").expect("the field is shown");
    assert!(junk.value.starts_with("xxx") && junk.value.ends_with('…'), "{}", &junk.value[..40]);
    assert!(junk.value.len() <= SHOWN_LIMIT + '…'.len_utf8(), "{} bytes", junk.value.len());
    let everything = arbiter::runtime::view::table_view(&built.game, &st, None);
    let junk = everything.globals.iter().find(|f| f.name == "junk").expect("the field is shown");
    assert!(junk.value.len() <= SHOWN_LIMIT + '…'.len_utf8(), "{} bytes", junk.value.len());
    // A value under the limit is shown whole, as before.
    let to_move = view.globals.iter().find(|f| f.name == "to_move").expect("the field is shown");
    assert!(to_move.value == "P1" || to_move.value == "P2", "{}", to_move.value);
}

/// Pictures drawn by a house rule's picture functions are held to `PICTURE_LIMIT`: a text picture
/// of 200 one-megabyte lines printed 200 MB with `--view` (with 100,000 lines it was killed at
/// 24 GB), and an SVG of 200 megabyte texts or legend keys wrote 1.5 GB. The text picture's
/// failure falls back to the plain view of the table; an SVG's is an error at the function.
#[test]
fn a_picture_past_its_limit_is_refused_where_its_function_is_written() {
    let rules = fixture("pictures.arb");
    let (code, out, _) = arbiter(&["play", "tic-tac-toe", "--rules", rules.to_str().unwrap(), "--variant", "tall", "--view", "1"]);
    assert_eq!(code, 0, "{}", &out[..out.len().min(2000)]);
    assert!(out.contains("(the game's text picture failed: a text picture function drew more than 4 MiB)"), "{out}");
    assert!(out.contains("board (9):"), "the plain view instead: {out}");
    assert!(out.len() < 100_000, "{} bytes printed", out.len());
    for (variant, line) in [("wordy", "pictures.arb:11:16"), ("crowded", "pictures.arb:15:16")] {
        let dir = tempfile::Builder::new().prefix("arbiter-runaway-svg-").tempdir().unwrap();
        let svg = dir.path().join("svg");
        let args = ["play", "tic-tac-toe", "--rules", rules.to_str().unwrap(), "--variant", variant, "--svg", svg.to_str().unwrap()];
        let (code, out, _) = arbiter(&args);
        assert_eq!(code, 2, "{variant}: {out}");
        assert!(out.contains("a picture function drew more than 4 MiB"), "{variant}: {out}");
        assert!(out.contains(line), "{variant}: shown at the function ({line}): {out}");
        assert!(out.contains("error: the picture of turn 1 cannot be drawn"), "{variant}: {out}");
        let written: u64 = std::fs::read_dir(&svg).unwrap().map(|e| e.unwrap().metadata().unwrap().len()).sum();
        assert!(written < 1_000_000, "{variant}: {written} bytes written");
    }
}

/// A house rule that draws three megabytes at each of sixty turns: `play --svg` wrote a picture a
/// turn whatever its size (`PICTURE_LIMIT` a turn for `TURN_BUDGET` turns is 8 GB). It writes
/// `PICTURES_WRITTEN_LIMIT` bytes of them at most, says so once, and the game goes on to its end.
#[test]
fn play_svg_writes_a_bounded_gallery_and_the_game_goes_on() {
    let rules = fixture("gallery.arb");
    let dir = tempfile::Builder::new().prefix("arbiter-runaway-gallery-").tempdir().unwrap();
    let svg = dir.path().join("svg");
    let args = ["play", "tic-tac-toe", "--rules", rules.to_str().unwrap(), "--variant", "gallery", "--svg", svg.to_str().unwrap()];
    let (code, out, _) = arbiter(&args);
    assert_eq!(code, 0, "{}", &out[..out.len().min(2000)]);
    assert!(out.contains("result after 60 turns"), "the game goes on to its end: {out}");
    let note = format!("the pictures of this game would pass {} MiB", PICTURES_WRITTEN_LIMIT >> 20);
    assert_eq!(out.matches(&note).count(), 1, "said once: {out}");
    let files: Vec<_> = std::fs::read_dir(&svg).unwrap().map(|e| e.unwrap()).collect();
    let written: u64 = files.iter().map(|e| e.metadata().unwrap().len()).sum();
    assert!(written <= PICTURES_WRITTEN_LIMIT as u64, "{written} bytes written");
    // Each picture is three megabytes: the pictures up to the bound are written, then no more.
    assert!(written > PICTURES_WRITTEN_LIMIT as u64 - 4_000_000, "{written} bytes written");
    assert!(files.iter().all(|e| e.file_name() != "end.svg"), "no picture past the bound, the end's either");
}

/// A house rule that makes every turn work a hundred thousand steps (well inside the budgets)
/// makes a searching bot's playouts slow: `sim --bots mcts` took 98 s for one game of
/// tic-tac-toe. With `--think 1` each decision takes about a second at most, and the report says
/// how many decisions the limit cut short (their seeds may play otherwise on another machine).
/// The greedy bot, which tries every option, is bounded the same way (it ignored the limit).
#[test]
fn a_searching_bot_thinks_no_longer_than_think_says() {
    let rules = fixture("ponderous.arb");
    let r = rules.to_str().unwrap();
    let (code, out, took) =
        arbiter(&["sim", "tic-tac-toe", "--rules", r, "--variant", "ponderous", "--bots", "mcts", "--think", "1", "--games", "1"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("answered when `--think` ran out: these seeds may play otherwise on another machine"), "{out}");
    // Nine decisions at most, each a second and one playout at most.
    assert!(took < Duration::from_secs(120), "took {took:?}");
    let (code, out, took) = arbiter(&["play", "tic-tac-toe", "--rules", r, "--variant", "ponderous", "--bots", "mcts", "--think", "1"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("result after"), "{out}");
    assert!(took < Duration::from_secs(120), "took {took:?}");
    let args = ["sim", "tic-tac-toe", "--rules", r, "--variant", "mulling", "--bots", "greedy", "--think", "1", "--games", "1"];
    let (code, out, took) = arbiter(&args);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 bot decision was answered when `--think` ran out"), "the greedy bot's first decision: {out}");
    assert!(took < Duration::from_secs(60), "took {took:?}");
    let (code, out, _) = arbiter(&["sim", "tic-tac-toe", "--think", "0"]);
    assert_eq!(code, 2, "`--think 0` is refused: {out}");
}

/// One view of the table is held to `VIEW_LIMIT` all together: a house rule's 2,000 objects each
/// named by a 400,000-letter definition made an 800 MB view (a web table's seat view, and every
/// decision of a bot that remembers its answers hashes one), and 9,000 objects with four
/// megabyte-showing fields made 594 MB of JSON a request. Past the limit, the rest is `…`.
#[test]
fn a_view_of_the_table_is_held_to_its_limit() {
    let dir = tempfile::Builder::new().prefix("arbiter-runaway-view-").tempdir().unwrap();
    let path = dir.path().join("names.arb");
    let name = "J".repeat(400_000);
    let text = format!(
        "for tic-tac-toe\n\nkind junkpile {{\n  field a: int = 0\n}}\n\nzone piles shared public holds junkpile\n\n\
         junkpile \"{name}\" {{}}\n\nvariant piles \"Many objects with a long name\" {{\n  \
         insert step pile before outcome in turn.play {{\n    for i in range(1, 2000) {{\n      \
         create \"{name}\" in piles owned by p\n    }}\n  }}\n}}\n"
    );
    std::fs::write(&path, text).unwrap();
    let project = Project::at(Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf());
    let loaded = project.load("tic-tac-toe", &["piles".to_string()], &[path]);
    let built = loaded.result.unwrap_or_else(|d| panic!("{d:?}"));
    let st = common::play_until(&built, 1, 2, &|st| st.turns >= 2);
    for viewer in [Some(0), None] {
        let view = arbiter::runtime::view::table_view(&built.game, &st, viewer);
        let piles = view.shared.iter().find(|z| z.name == "piles").expect("the zone is shown");
        assert_eq!(piles.count, 2000, "every object is counted");
        assert_eq!(piles.objects.last().map(String::as_str), Some("…"), "the rest past the limit is one `…`");
        assert!(piles.objects.len() < 10, "{} objects shown", piles.objects.len());
        let json = serde_json::to_string(&view).unwrap();
        assert!(json.len() < VIEW_LIMIT + 2 * 400_000, "{} bytes", json.len());
        // What fits is shown as before: the board's squares and their marks.
        assert!(
            view.shared.iter().any(|z| z.name == "board" && z.objects.len() == 9),
            "{:?}",
            view.shared.iter().map(|z| &z.name).collect::<Vec<_>>()
        );
    }
}

/// A save is held to `SAVE_LIMIT`: a list holding one megabyte's text three hundred times is small
/// in memory but written out whole (a 601 MB save at every decision; with 3,000 copies the save
/// ran out of memory, and on the web table one Save request took the server down). The game stops
/// with the error, and the last save written is whole.
#[test]
fn a_save_past_its_limit_is_refused_and_the_last_one_is_kept() {
    let dir = tempfile::Builder::new().prefix("arbiter-runaway-save-").tempdir().unwrap();
    let save = dir.path().join("game.json");
    let rules = fixture("hoard.arb");
    let args = ["play", "tic-tac-toe", "--rules", rules.to_str().unwrap(), "--variant", "hoard", "--save", save.to_str().unwrap()];
    let (code, out, took) = arbiter(&args);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("the game is too large to save: its file would be larger than 64 MiB"), "{out}");
    assert!(out.contains("the last save written is whole"), "{out}");
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(text.len() < 1_000_000, "{} bytes", text.len());
    assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok(), "the last save is whole JSON");
    assert!(took < Duration::from_secs(60), "took {took:?}");
}

/// Comparing lists of lists counts every item compared toward the step budget: `b == c` on two
/// lists doubled sixteen times (6.5 billion numbers in a few kilobytes) was one step and took 25
/// seconds, in a loop hours; a field set to one such list and then to an equal one took 4 s an
/// assignment (the engine compares the old value and the new, now within a bound).
#[test]
fn comparing_huge_shared_lists_is_bounded() {
    let rules = fixture("comparing.arb");
    let r = rules.to_str().unwrap();
    let (code, out, took) = arbiter(&["play", "tic-tac-toe", "--rules", r, "--variant", "comparing"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("step budget exceeded: one evaluation took more than 5000000 steps"), "{out}");
    assert!(out.contains("comparing.arb:23:11"), "at the comparison: {out}");
    assert!(took < Duration::from_secs(60), "took {took:?}");
    // Lists of equal megabyte texts built apart: each pair of texts counts by 64 bytes.
    let (code, out, took) = arbiter(&["play", "tic-tac-toe", "--rules", r, "--variant", "copies"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("step budget exceeded: one evaluation took more than 5000000 steps"), "{out}");
    assert!(out.contains("comparing.arb:54:11"), "at the comparison: {out}");
    assert!(took < Duration::from_secs(60), "took {took:?}");
    let (code, out, took) = arbiter(&["play", "tic-tac-toe", "--rules", r, "--variant", "keeping"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("result after"), "{out}");
    assert!(took < Duration::from_secs(60), "took {took:?}");
}

/// `sim` keeps each game's ending until the tally, and its report and JSON list each ending: a
/// rule that ends each game with a different megabyte's text made 3 GB for 3,000 games, and a
/// 533 MB report for 1,000. An ending is kept cut to its first 300 bytes.
#[test]
fn a_sims_endings_are_kept_cut() {
    let dir = tempfile::Builder::new().prefix("arbiter-runaway-sim-").tempdir().unwrap();
    let json = dir.path().join("run.json");
    let rules = fixture("endings.arb");
    let args = [
        "sim",
        "tic-tac-toe",
        "--rules",
        rules.to_str().unwrap(),
        "--variant",
        "verbose",
        "--games",
        "100",
        "--json",
        json.to_str().unwrap(),
    ];
    let (code, out, _) = arbiter(&args);
    assert_eq!(code, 0, "{}", &out[..out.len().min(3000)]);
    assert!(out.len() < 200_000, "{} bytes of report", out.len());
    let ending = out.lines().find(|l| l.contains("xxxx")).unwrap_or_else(|| panic!("an ending is listed: {out}"));
    assert!(ending.ends_with('…') && ending.len() < 500, "{ending}");
    let written = std::fs::metadata(&json).unwrap().len();
    assert!(written < 200_000, "{written} bytes of JSON");
}

/// A scenario's expectation naming one megabyte's text a hundred thousand times (`expect no log`,
/// `expect options`) made every text whole: 3.8 GB, then the allocator gave up. Its texts are held
/// to 16 MiB together, and past that the expectation fails, at the list that names them.
#[test]
fn an_expectation_naming_huge_texts_fails_instead_of_making_them() {
    let file = fixture("expectations.arb");
    let (code, out, took) = arbiter(&["test", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(out.matches("the texts this expectation names are longer than 16 MiB together").count(), 2, "{out}");
    assert!(out.contains("expectations.arb:12:17") && out.contains("expectations.arb:21:21"), "{out}");
    assert!(out.len() < 20_000, "{} bytes", out.len());
    assert!(took < Duration::from_secs(60), "took {took:?}");
}
