//! Saved games. For every game (and a variant of each rulebook), over many seeds: a game saved at
//! random decisions — written as a save file's text and read back through the real save and load
//! code — and continued gives the same log, event by event, the same decision count, the same
//! result and the same final state as the game played straight through. And every save that is
//! not a save of these rules (another version, another game, changed rule files, cut short, not
//! JSON, not a save) is refused by `arbiter resume` with a clear message, leaving the file as it was.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use arbiter::agents::{Agent, RandomAgent};
use arbiter::check::Built;
use arbiter::check::project::Project;
use arbiter::runtime::decks::choose_decks;
use arbiter::runtime::state::{Mode, Rng, State};
use arbiter::runtime::{Engine, Setup, Status, view};
use arbiter::save::{self, Header};
use arbiter::syntax::span::FileNumbers;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A random-bot game, from a new state or a resumed one, to its end.
fn finish(b: &Built, mut st: State, seed: u64, mut at_decision: impl FnMut(&State)) -> State {
    let game = &b.game;
    let engine = Engine::new(game);
    let mut bot = RandomAgent { seed };
    loop {
        match engine.advance(&mut st) {
            Ok(Status::Decision) => {
                at_decision(&st);
                let d = st.pending.clone().expect("pending decision");
                let a = bot.decide(game, &st, &d);
                engine.answer(&mut st, d.seat, &a).expect("bot answers are legal");
            }
            Ok(_) => return st,
            Err(e) => panic!("{} seed {seed}: engine error: {} at {}", game.name, e.message, game.location(e.span)),
        }
    }
}

/// How many decisions are saved and resumed in each game.
const SAVE_POINTS: usize = 2;

/// Play a game straight through, saving (as a save file's text) at `SAVE_POINTS` decisions chosen
/// uniformly at random by reservoir sampling; then resume each save and play it out. Every
/// resumed game must match the straight one. Returns the number of decisions in the game.
fn saved_games_resume_alike(b: &Built, variants: &[&str], seed: u64, players: usize) -> u64 {
    let game = &b.game;
    let what = format!("{} {variants:?} seed {seed}, {players} players", game.name);
    let variants: Vec<String> = variants.iter().map(|v| v.to_string()).collect();
    let header = Header::new(game, &variants, &[], players, seed, &[]);
    let files = FileNumbers::of(&game.files);
    let decklists = choose_decks(game, players, &[]).unwrap();
    let start = Engine::new(game).new_state(Mode::Game, Setup { players, seed, decklists }).expect("new state");
    let mut pick = Rng::from_seed(seed ^ 0x5a5e_5a5e);
    let mut saves: Vec<Option<(u64, String)>> = vec![None; SAVE_POINTS];
    let mut seen = 0u64;
    let straight = finish(b, start, seed, |st| {
        seen += 1;
        for slot in &mut saves {
            if pick.below(seen) == 0 {
                *slot = Some((st.decisions, header.to_json(&files, st).unwrap()));
            }
        }
    });
    assert!(straight.result.is_some(), "{what}: no result");
    let trace = view::trace(game, &straight, None, true);
    let final_json = serde_json::to_string(&straight).unwrap();
    // The game over is saved and read again too (a game may end inside its `always` blocks, with
    // the mark under them left on the stack: such saves were once refused as damaged).
    let over = save::parse(&header.to_json(&files, &straight).unwrap(), "the save").unwrap_or_else(|e| panic!("{what}: the end: {e}"));
    assert!(over.finished, "{what}: the save at the end is of a game over");
    let over = over.state(game, "the save").unwrap_or_else(|e| panic!("{what}: the end saved: {e}"));
    assert_eq!(serde_json::to_string(&over).unwrap(), final_json, "{what}: the end saved and read again");
    for (at, text) in saves.into_iter().flatten() {
        let saved = save::parse(&text, "the save").unwrap_or_else(|e| panic!("{what}: saved at decision {at}: {e}"));
        let state = saved.state(game, "the save").unwrap_or_else(|e| panic!("{what}: saved at decision {at}: {e}"));
        assert_eq!(saved.header, header, "{what}");
        assert_eq!(state.decisions, at, "{what}");
        let resumed = finish(b, state, saved.header.seed, |_| {});
        let where_ = format!("{what}: saved at decision {at} of {}", straight.decisions);
        assert_eq!(resumed.decisions, straight.decisions, "{where_}");
        assert_eq!(resumed.log.len(), straight.log.len(), "{where_}");
        let resumed_trace = view::trace(game, &resumed, None, true);
        if resumed_trace != trace {
            let n = trace.lines().zip(resumed_trace.lines()).take_while(|(a, b)| a == b).count();
            panic!(
                "{where_}: the logs differ from line {}:\n straight: {}\n resumed:  {}",
                n + 1,
                trace.lines().nth(n).unwrap_or("(end)"),
                resumed_trace.lines().nth(n).unwrap_or("(end)")
            );
        }
        assert_eq!(resumed.result, straight.result, "{where_}");
        assert_eq!(serde_json::to_string(&resumed).unwrap(), final_json, "{where_}: the final states differ");
    }
    straight.decisions
}

/// Many seeds of one game (with variants), each saved and resumed at random decisions.
fn many(game: &str, variants: &[&str], seeds: std::ops::Range<u64>, players: impl Fn(u64) -> usize) {
    let owned: Vec<String> = variants.iter().map(|v| v.to_string()).collect();
    let b = common::load(game, &owned);
    let mut decisions = 0;
    for seed in seeds.clone() {
        decisions += saved_games_resume_alike(&b, variants, seed, players(seed));
    }
    assert!(decisions > 2 * (seeds.end - seeds.start), "{game}: games too short to test saving ({decisions} decisions)");
}

/// A save numbers the game's files by their places among them, whatever else the program read
/// first. The same game played in a project that has read only it and in one that read other games
/// first (so that its files have other ids) saves the same text; each span in the save names, by
/// its place, the file the span was in; and a save from one project resumes in the other to the
/// same end.
#[test]
fn a_save_numbers_the_games_files_whatever_else_was_read() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let alone = Project::at(root);
    let busy = Project::at(root);
    for other in ["tic-tac-toe", "connect-four"] {
        assert!(busy.load(other, &[], &[]).result.is_ok(), "{other} checks");
    }
    let load = |p: &Project| p.load("bsg-ccg", &[], &[]).result.unwrap_or_else(|d| panic!("bsg-ccg checks: {d:?}"));
    let (a, b) = (load(&alone), load(&busy));
    let ids = |g: &arbiter::ir::Game| g.files.iter().map(|f| f.id).collect::<Vec<_>>();
    let names = |g: &arbiter::ir::Game| g.files.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&a.game), names(&b.game));
    assert_ne!(ids(&a.game), ids(&b.game), "the files should have other ids in the busy project");
    let (seed, players) = (3, 2);
    let header = Header::new(&a.game, &[], &[], players, seed, &[]);
    let at = |built: &Built| {
        let st = common::play_until(built, seed, players, &|st: &State| st.decisions >= 30);
        let text = header.to_json(&FileNumbers::of(&built.game.files), &st).unwrap();
        (st, text)
    };
    let ((_, text_a), (st_b, text_b)) = (at(&a), at(&b));
    assert!(text_a == text_b, "the save depends on what else was read");
    // Each event's cause, in the save: the file's place among the game's files.
    let json: serde_json::Value = serde_json::from_str(&text_b).unwrap();
    let saved = json["state"]["log"].as_array().unwrap();
    assert_eq!(saved.len(), st_b.log.len());
    let mut elsewhere = 0;
    for (event, saved) in st_b.log.iter().zip(saved) {
        let span = event.cause.span;
        let s = &saved["cause"]["span"];
        let number = s["file"].as_u64().unwrap() as usize;
        assert_eq!((s["start"].as_u64(), s["end"].as_u64()), (Some(u64::from(span.start)), Some(u64::from(span.end))));
        if span == Default::default() {
            assert_eq!(number, 0);
            continue;
        }
        let file = b.game.file(span.file).unwrap();
        assert_eq!(b.game.files[number].name, file.name, "{event:?}");
        elsewhere += usize::from(number != 0);
    }
    assert!(elsewhere > 0, "no event caused outside the first file");
    // Each project resumes the other's save, to the same end as its own.
    let resume = |built: &Built, text: &str| {
        let st = save::parse(text, "the save").unwrap().state(&built.game, "the save").unwrap();
        let end = finish(built, st, seed, |_| {});
        view::trace(&built.game, &end, None, true)
    };
    assert_eq!(resume(&a, &text_b), resume(&b, &text_a));
    assert_eq!(resume(&a, &text_a), resume(&b, &text_b));
}

// Seeds per game: 337 games in all, each saved and resumed at two random decisions (about 75 s of
// debug test time on one core, less across threads). Run in release with ten times as many seeds
// (`SAVES_SEEDS_X=10 cargo test --release --test saves`): 3,370 games, 6,740 resumed games, all
// alike, in 73 s on two cores.
fn seeds(n: u64) -> std::ops::Range<u64> {
    let x: u64 = std::env::var("SAVES_SEEDS_X").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    0..n * x
}

/// Saves written before the scenario script left the state (`Engine::scripted`) carry an
/// always-empty `"scripted": null`: they still load, and resume to the same game.
#[test]
fn saves_with_the_old_scripted_field_still_load() {
    let b = common::load("tic-tac-toe", &[]);
    let game = &b.game;
    let header = Header::new(game, &[], &[], 2, 7, &[]);
    let decklists = choose_decks(game, 2, &[]).unwrap();
    let start = Engine::new(game).new_state(Mode::Game, Setup { players: 2, seed: 7, decklists }).expect("new state");
    let mut at_third = None;
    let straight = finish(&b, start, 7, |st| {
        if st.decisions == 3 {
            at_third = Some(header.to_json(&FileNumbers::of(&game.files), st).unwrap());
        }
    });
    let text = at_third.expect("a third decision");
    assert!(!text.contains("\"scripted\""), "saves no longer write the field");
    let old = text.replacen("\"rng\":", "\"scripted\":null,\"rng\":", 1);
    assert_ne!(old, text, "the old field was put back in");
    let saved = save::parse(&old, "an older save").unwrap_or_else(|e| panic!("an older save is refused: {e}"));
    let state = saved.state(game, "an older save").unwrap_or_else(|e| panic!("an older save is refused: {e}"));
    let resumed = finish(&b, state, 7, |_| {});
    assert_eq!(serde_json::to_string(&resumed).unwrap(), serde_json::to_string(&straight).unwrap());
}

#[test]
fn tic_tac_toe_resumes_alike() {
    many("tic-tac-toe", &[], seeds(200), |_| 2);
}

#[test]
fn connect_four_resumes_alike() {
    many("connect-four", &[], seeds(60), |_| 2);
}

#[test]
fn bsg_ccg_resumes_alike() {
    many("bsg-ccg", &[], seeds(15), |s| if s % 5 == 4 { 3 } else { 2 });
}

#[test]
fn bsg_ccg_variant_resumes_alike() {
    many("bsg-ccg", &["sniper-like-type-only"], seeds(6), |_| 2);
}

#[test]
fn bsg_board_resumes_alike() {
    many("bsg-board", &[], seeds(12), |s| 3 + (s % 4) as usize);
}

#[test]
fn bsg_board_variant_resumes_alike() {
    many("bsg-board", &["no-sympathizer"], seeds(6), |s| 3 + (s % 4) as usize);
}

#[test]
fn starcraft_resumes_alike() {
    many("starcraft", &[], seeds(8), |s| 2 + (s % 5) as usize);
}

#[test]
fn starcraft_variant_resumes_alike() {
    many("starcraft", &["team-play"], seeds(4), |_| 4);
}

#[test]
fn starship_battles_resumes_alike() {
    many("starship-battles", &[], seeds(20), |s| if s % 3 == 2 { 4 } else { 2 });
}

#[test]
fn starship_battles_variant_resumes_alike() {
    many("starship-battles", &["complete-rules"], seeds(6), |_| 2);
}

// ---------------------------------------------------------------------------------------------
// The command line: saving, resuming, and refusing what is not a save of these rules.

fn arbiter(dir: &Path, args: &[&str], stdin: &str) -> Output {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arbiter");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

/// A new, empty folder for one test, holding a copy of the project's tic-tac-toe (and stdlib), so
/// that its rules can be changed.
fn scratch(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("arbiter-saves-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["stdlib", "rulebooks/tic-tac-toe", "rulebooks/connect-four"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        for e in std::fs::read_dir(root.join(sub)).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                std::fs::copy(&p, dir.join(sub).join(p.file_name().unwrap())).unwrap();
            }
        }
    }
    dir
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().to_string()).collect();
    v.sort();
    v
}

/// Both seats at the terminal, always taking the first empty square; `moves` answers, then input ends.
fn first_squares(moves: usize) -> String {
    "1\n".repeat(moves)
}

#[test]
fn a_game_left_and_resumed_ends_as_if_never_left() {
    let dir = scratch("left");
    let straight = arbiter(&dir, &["play", "tic-tac-toe", "--human", "1", "--human", "2"], &first_squares(9));
    assert!(straight.status.success(), "{}", text(&straight.stderr));
    let result = text(&straight.stdout).lines().find(|l| l.starts_with("result")).unwrap().to_string();
    assert!(result.contains("P1 wins"), "{result}");

    // Three moves, then input ends: the game is left, saved at the fourth decision.
    let left = arbiter(&dir, &["play", "tic-tac-toe", "--human", "1", "--human", "2", "--save", "game.json"], &first_squares(3));
    assert!(left.status.success(), "{}", text(&left.stderr));
    assert!(text(&left.stdout).contains("game left unfinished; it is saved in game.json"), "{}", text(&left.stdout));
    let saved = save::read(&dir.join("game.json")).unwrap();
    assert_eq!(saved.state(&common::load("tic-tac-toe", &[]).game, "game.json").unwrap().decisions, 3);
    assert_eq!((saved.header.game.as_str(), saved.header.humans.as_slice()), ("tic-tac-toe", &[1u8, 2][..]));

    // Saved at the prompt (`save FILE`, no `--save`), then left: where it was saved is said.
    let typed = arbiter(&dir, &["play", "tic-tac-toe", "--human", "1", "--human", "2"], &format!("{}save typed.json\n", first_squares(2)));
    assert!(typed.status.success(), "{}", text(&typed.stderr));
    assert!(
        text(&typed.stdout).contains(
            "game left unfinished; it was saved in typed.json when `save` was typed: `arbiter resume typed.json` goes on from there"
        ),
        "{}",
        text(&typed.stdout)
    );
    std::fs::remove_file(dir.join("typed.json")).unwrap();

    // Resumed with the same seats (from the file), it ends as the straight game did.
    let resumed = arbiter(&dir, &["resume", "game.json"], &first_squares(6));
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    let out = text(&resumed.stdout);
    assert!(out.starts_with("Tic-tac-toe — 2 players, seed shown at the end — resumed from game.json at turn 4"), "{out}");
    assert!(out.lines().any(|l| l == result), "{out}");
    // The finished game is saved too: resuming it again only tells the result.
    let again = arbiter(&dir, &["play", "tic-tac-toe", "--resume", "game.json"], "");
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(text(&again.stdout).lines().any(|l| l == result), "{}", text(&again.stdout));
    // No temporary file is left behind.
    assert_eq!(files_in(&dir).iter().filter(|f| f.ends_with(".json") || f.ends_with(".tmp")).collect::<Vec<_>>(), ["game.json"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A person at the terminal is not told the seed while the game goes on (with it, `--view 2`
/// would show the same game with every card in view): with no `--seed`, it is drawn at random, and
/// it is shown when the game is over. A save of a game that goes on is drawn by `render` as its
/// human seat sees it.
#[test]
fn a_person_at_the_terminal_learns_the_seed_only_at_the_end() {
    let dir = scratch("seed");
    let first = |out: &Output| text(&out.stdout).lines().next().unwrap_or_default().to_string();
    let left = arbiter(&dir, &["play", "connect-four", "--human", "1", "--save", "going.json"], "");
    assert!(left.status.success(), "{}", text(&left.stderr));
    assert_eq!(first(&left), "Connect Four — 2 players, seed shown at the end");
    assert!(!text(&left.stdout).contains("seed 1"), "{}", text(&left.stdout));
    let again = arbiter(&dir, &["play", "connect-four", "--human", "1", "--save", "other.json"], "");
    let seeds = [save::read(&dir.join("going.json")).unwrap().header.seed, save::read(&dir.join("other.json")).unwrap().header.seed];
    assert!(again.status.success() && seeds[0] != seeds[1], "two games, two seeds drawn: {seeds:?}");
    let resumed = arbiter(&dir, &["resume", "going.json"], "");
    assert!(first(&resumed).starts_with("Connect Four — 2 players, seed shown at the end — resumed"), "{}", first(&resumed));
    let rendered = arbiter(&dir, &["render", "going.json"], "");
    assert!(rendered.status.success(), "{}", text(&rendered.stderr));
    let svg = std::fs::read_to_string(dir.join("going.svg")).unwrap();
    assert!(svg.contains("going.json as P1 sees it"), "the picture's title says whose view it is");
    // Played to its end (first options), the seed is told.
    let over = arbiter(&dir, &["play", "tic-tac-toe", "--human", "1"], &"1\n".repeat(5));
    let seed = text(&over.stdout).lines().last().unwrap_or_default().to_string();
    assert!(seed.starts_with("seed ") && seed.contains("plays the same shuffles and dice again"), "{}", text(&over.stdout));
    // Bots alone: seed 1 unless given, and said at once, as before.
    let bots = arbiter(&dir, &["play", "tic-tac-toe"], "");
    assert_eq!(first(&bots), "Tic-tac-toe — 2 players, seed 1");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_human_saves_where_asked_and_never_over_a_file_it_did_not_write() {
    let dir = scratch("human");
    std::fs::write(dir.join("notes.txt"), "my notes").unwrap();
    let out = arbiter(&dir, &["play", "tic-tac-toe", "--human", "1"], "save\nsave notes.txt\nsave first.json\n5\nsave first.json\nquit\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let o = text(&out.stdout);
    assert!(o.contains("cannot save: no save file for this game\n  help: type `save FILE`"), "{o}");
    assert!(o.contains("cannot save: `notes.txt` already exists and is not a saved game; saving would overwrite it"), "{o}");
    assert_eq!(std::fs::read_to_string(dir.join("notes.txt")).unwrap(), "my notes");
    assert!(o.contains("saved to first.json (continue with `arbiter resume first.json`)"), "{o}");
    // Saved again after X's move, over its own file: P1's second decision.
    let saved = save::read(&dir.join("first.json")).unwrap();
    assert_eq!(saved.state(&common::load("tic-tac-toe", &[]).game, "first.json").unwrap().decisions, 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_never_saves_over_an_existing_file() {
    let dir = scratch("existing");
    let first = arbiter(&dir, &["play", "connect-four", "--seed", "2", "--save", "c4.json"], "");
    assert!(first.status.success(), "{}", text(&first.stderr));
    let before = std::fs::read(dir.join("c4.json")).unwrap();
    let second = arbiter(&dir, &["play", "tic-tac-toe", "--save", "c4.json"], "");
    assert_eq!(second.status.code(), Some(2));
    let err = text(&second.stderr);
    assert!(err.contains("error: `c4.json` already holds a saved game of connect-four; saving here would lose it"), "{err}");
    assert!(err.contains("help: continue that game with `arbiter resume c4.json`"), "{err}");
    assert_eq!(std::fs::read(dir.join("c4.json")).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `arbiter resume FILE` (and the other ways in) refuses the file with this message and a help,
/// exits non-zero, and leaves the file (and the folder) exactly as it was.
fn refused(dir: &Path, args: &[&str], file: &str, message: &str) {
    let before = std::fs::read(dir.join(file)).unwrap();
    let listing = files_in(dir);
    let out = arbiter(dir, args, "");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(&format!("error: {message}")), "{args:?}: expected `{message}` in:\n{err}");
    assert!(err.contains("help: "), "{args:?}: no help in:\n{err}");
    assert!(!text(&out.stdout).contains("result"), "{args:?}: a refused save was played");
    assert_eq!(std::fs::read(dir.join(file)).unwrap(), before, "{args:?}: the file changed");
    assert_eq!(files_in(dir), listing, "{args:?}: the folder changed");
}

#[test]
fn what_is_not_a_save_of_these_rules_is_refused_and_left_alone() {
    let dir = scratch("refusals");
    // A game left at its first decision (a human seat, and input ends).
    let out = arbiter(&dir, &["play", "tic-tac-toe", "--seed", "4", "--human", "1", "--save", "t.json"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let good = std::fs::read_to_string(dir.join("t.json")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&good).unwrap();
    assert_eq!((value["format"].as_str(), value["version"].as_u64()), (Some("arbiter-save"), Some(1)));

    // Another version of the format.
    let mut v2 = value.clone();
    v2["version"] = serde_json::json!(2);
    std::fs::write(dir.join("v2.json"), serde_json::to_string(&v2).unwrap()).unwrap();
    refused(&dir, &["resume", "v2.json"], "v2.json", "`v2.json` is a saved game in format version 2; this arbiter reads version 1");

    // The bots a game was started with stay: `--bots` is refused, not taken for a file name.
    refused(&dir, &["resume", "t.json", "--bots", "greedy"], "t.json", "`t.json` goes on with the bots it was started with");

    // Cut short, empty, not JSON, JSON but not a save, a raw state from before versioned saves.
    std::fs::write(dir.join("cut.json"), &good[..good.len() / 2]).unwrap();
    refused(&dir, &["resume", "cut.json"], "cut.json", "`cut.json` is cut short: the file ends in the middle of the saved game");
    std::fs::write(dir.join("empty.json"), "").unwrap();
    refused(&dir, &["resume", "empty.json"], "empty.json", "`empty.json` is empty, not a saved game");
    std::fs::write(dir.join("prose.json"), "my tic-tac-toe game\n").unwrap();
    refused(&dir, &["resume", "prose.json"], "prose.json", "`prose.json` is not a saved game: it is not JSON");
    std::fs::write(dir.join("other.json"), r#"{"name": "a settings file", "size": 3}"#).unwrap();
    refused(&dir, &["resume", "other.json"], "other.json", "`other.json` is not a saved game: it has no `\"format\": \"arbiter-save\"`");
    std::fs::write(dir.join("list.json"), "[1, 2, 3]").unwrap();
    refused(&dir, &["resume", "list.json"], "list.json", "`list.json` is not a saved game: it is JSON, but not an object");
    std::fs::write(dir.join("raw.json"), serde_json::to_string(&value["state"]).unwrap()).unwrap();
    refused(&dir, &["resume", "raw.json"], "raw.json", "`raw.json` is a game saved before versioned saves");
    // The envelope is right but the state inside is not a state.
    let mut broken = value.clone();
    broken["state"]["players"] = serde_json::json!("two");
    std::fs::write(dir.join("broken.json"), serde_json::to_string(&broken).unwrap()).unwrap();
    refused(&dir, &["resume", "broken.json"], "broken.json", "`broken.json` is a damaged saved game");

    // A save of another game than the one named.
    refused(&dir, &["play", "connect-four", "--resume", "t.json"], "t.json", "`t.json` is a saved game of tic-tac-toe, not connect-four");
    refused(&dir, &["render", "t.json", "--game", "connect-four"], "t.json", "`t.json` is a saved game of tic-tac-toe, not connect-four");
    // A save naming a game this project does not have.
    let mut elsewhere = value.clone();
    elsewhere["game"] = serde_json::json!("chess");
    std::fs::write(dir.join("chess.json"), serde_json::to_string(&elsewhere).unwrap()).unwrap();
    refused(
        &dir,
        &["resume", "chess.json"],
        "chess.json",
        "`chess.json` is a saved game of chess, and that game does not load now: no game `chess`",
    );

    // A save whose game was renamed to another game of this project: its files are not that game's.
    let mut renamed = value.clone();
    renamed["game"] = serde_json::json!("connect-four");
    std::fs::write(dir.join("renamed.json"), serde_json::to_string(&renamed).unwrap()).unwrap();
    refused(
        &dir,
        &["resume", "renamed.json"],
        "renamed.json",
        "`renamed.json` is a damaged saved game: it names the game connect-four, but its rule files are another game's",
    );

    // The rules changed since the save: the save is refused, and taken again once they are back.
    let rules = dir.join("rulebooks/tic-tac-toe/game.arb");
    let original = std::fs::read_to_string(&rules).unwrap();
    std::fs::write(&rules, format!("{original}\n// a house rule, added after the game was saved\n")).unwrap();
    refused(
        &dir,
        &["resume", "t.json"],
        "t.json",
        "`t.json` is a saved game of tic-tac-toe, and its rules have changed since it was saved: rulebooks/tic-tac-toe/game.arb changed",
    );
    std::fs::write(&rules, &original).unwrap();
    let out = arbiter(&dir, &["resume", "t.json", "--human", "2"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("resumed from t.json at turn "), "{}", text(&out.stdout));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A save edited by hand whose state the game could never be in is refused before anything runs
/// on it, as a damaged save that names what is wrong — never played, and never blamed on the rules
/// (a rule error in the rulebook, later).
#[test]
fn an_edited_save_is_refused_as_damaged_naming_what_is_wrong() {
    let dir = scratch("edited");
    let out = arbiter(&dir, &["play", "tic-tac-toe", "--seed", "4", "--human", "1", "--save", "t.json"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("t.json")).unwrap()).unwrap();
    let edits: [Edit; 7] = [
        ("no-zones", |v| v["state"]["zones"] = serde_json::json!([]), "it has 0 zone instances; the game's zones make 1 for 2 players"),
        (
            "few-objects",
            |v| {
                let objects = v["state"]["objects"].as_array_mut().unwrap();
                objects.truncate(2);
            },
            "zone board holds object 8, but there are 2 objects",
        ),
        (
            "twice",
            |v| {
                let board = v["state"]["zones"][0].as_array_mut().unwrap();
                board.push(serde_json::json!(0));
            },
            "object 0 is in 2 places at once",
        ),
        (
            "lost",
            |v| {
                let board = v["state"]["zones"][0].as_array_mut().unwrap();
                board.retain(|o| o != 3);
            },
            "object 3 is in board, which does not hold it",
        ),
        ("humans", |v| v["humans"] = serde_json::json!([0, 1, 2, 3, 99]), "its human seats name seat 0, but its seats are 1 to 2"),
        ("humans-twice", |v| v["humans"] = serde_json::json!([1, 1]), "its human seats name a seat twice"),
        ("seat", |v| v["state"]["pending"]["seat"] = serde_json::json!(5), "the decision asked is P6's, a seat the game does not have"),
    ];
    for (name, edit, why) in edits {
        let mut v = value.clone();
        edit(&mut v);
        let file = format!("{name}.json");
        std::fs::write(dir.join(&file), serde_json::to_string(&v).unwrap()).unwrap();
        refused(&dir, &["resume", &file], &file, &format!("`{file}` is a damaged saved game: {why}"));
        refused(&dir, &["render", &file], &file, &format!("`{file}` is a damaged saved game: {why}"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_killed_game_leaves_a_whole_save() {
    // A long bot game saving at every decision, killed at different moments: the save file, when
    // there is one yet, always reads back whole and resumes under these rules.
    let dir = scratch("killed");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let b = common::load("starcraft", &[]);
    for (i, extra_ms) in [0u64, 40, 130].into_iter().enumerate() {
        let file = dir.join(format!("killed-{i}.json"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["play", "starcraft", "--players", "4", "--seed", "9", "--save"])
            .arg(&file)
            .current_dir(root)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Once the game has saved its first decision, let it run a little, then kill it.
        for _ in 0..3000 {
            if file.exists() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        std::thread::sleep(std::time::Duration::from_millis(extra_ms));
        let _ = child.kill();
        let _ = child.wait();
        let saved = save::read(&file).unwrap_or_else(|e| panic!("killed {extra_ms} ms after the first save: {e}"));
        saved.state(&b.game, "the save").unwrap();
        assert_eq!(saved.header.players, 4);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_game_of_bots_saved_as_it_goes_is_saved_at_its_end() {
    // A bot's decision is saved only as often as saving takes a small share of the game's time
    // (saving at each one rewrote the whole save each time); the end of the game always is: the
    // save holds the ended game, the same game as played here straight through.
    let dir = scratch("bots-end");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let b = common::load("starcraft", &[]);
    let file = dir.join("bots.json");
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["play", "starcraft", "--players", "4", "--seed", "9", "--save"])
        .arg(&file)
        .current_dir(root)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let saved = save::read(&file).unwrap().state(&b.game, "the save").unwrap();
    let decklists = choose_decks(&b.game, 4, &[]).unwrap();
    let start = Engine::new(&b.game).new_state(Mode::Game, Setup { players: 4, seed: 9, decklists }).unwrap();
    let straight = finish(&b, start, 9, |_| {});
    assert!(saved.result.is_some(), "the save is of the ended game");
    assert_eq!(saved.decisions, straight.decisions);
    assert_eq!(serde_json::to_string(&saved).unwrap(), serde_json::to_string(&straight).unwrap(), "the state where the game ended");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A change to a save's JSON, its name, and what the refusal must say.
type Edit = (&'static str, fn(&mut serde_json::Value), &'static str);

#[test]
fn a_refused_save_and_a_failed_write_are_diagnostics_with_their_message_and_help() {
    use arbiter::syntax::diag::Diag;
    use arbiter::syntax::span::Span;
    let e = save::parse("", "empty.json").err().unwrap();
    let d = Diag::from(e.clone());
    assert_eq!(d.message, e.message);
    assert!(d.message.starts_with("`empty.json` is empty"), "{}", d.message);
    assert_eq!(d.help.as_deref(), Some(e.help.as_str()));
    assert_eq!(e.to_string(), format!("{}\n  help: {}", e.message, e.help));
    assert_eq!(d.span, Span::NONE);
    // A save written over a folder fails, and says where.
    let dir = std::env::temp_dir().join(format!("arbiter-saves-{}-write-error", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("taken")).unwrap();
    let e = save::write_atomic(&dir.join("taken"), "{}", false).unwrap_err();
    assert!(matches!(e, save::WriteError::Io { .. }), "{e:?}");
    assert!(e.to_string().starts_with(&format!("cannot save to `{}`: ", dir.join("taken").display())), "{e}");
    let d = Diag::from(e);
    assert!(d.message.starts_with("cannot save to `"), "{}", d.message);
    assert_eq!(d.help.as_deref(), Some("save to another file"));
    let e = save::write_atomic(Path::new("/"), "{}", false).unwrap_err();
    assert_eq!(e.to_string(), "`/` is not a file name");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game played with a file of the user's own (`--rules`), that file moved since: `resume` with
/// `--rules` naming it where it is now is refused (a save names its files by where they were),
/// with the help saying that this file holds the same text and where to copy it back (a rules
/// lawyer's trial was told only "put the file back where it was").
#[test]
fn a_moved_file_of_ones_own_is_named_where_it_must_go_back() {
    let dir = scratch("moved");
    std::fs::write(dir.join("house.arb"), "for tic-tac-toe\n\nvariant quiet \"A quiet game\" {\n  set lines = [[0, 1, 2]]\n}\n").unwrap();
    let left = arbiter(
        &dir,
        &["play", "tic-tac-toe", "--rules", "house.arb", "--variant", "quiet", "--human", "1", "--save", "g.json"],
        &first_squares(1),
    );
    assert!(left.status.success(), "{}", text(&left.stderr));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::rename(dir.join("house.arb"), dir.join("sub/house.arb")).unwrap();
    let resumed = arbiter(&dir, &["resume", "g.json", "--rules", "sub/house.arb"], "");
    assert_eq!(resumed.status.code(), Some(2));
    let err = text(&resumed.stderr);
    assert!(err.contains("was played with a file of rules that is gone"), "{err}");
    assert!(err.contains("`sub/house.arb` holds the same text: a save names its files by where they were, so copy it back to"), "{err}");
    assert!(err.contains("house.arb` to go on"), "{err}");
    // Copied back, the game goes on.
    std::fs::copy(dir.join("sub/house.arb"), dir.join("house.arb")).unwrap();
    let again = arbiter(&dir, &["resume", "g.json"], &first_squares(8));
    assert!(again.status.success(), "{}", text(&again.stderr));
}
