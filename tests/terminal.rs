//! Terminal play as a person meets it (issue 30): what `arbiter play --human 1` prints. For every
//! game, 20 decisions answered at the prompt as a person would: the output speaks the table's
//! language (no engine-level event), each question is asked once, and `state` draws the game's
//! own text picture.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use std::io::{Read as _, Write as _};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What the terminal showed over a game played by answering each menu with its first legal
/// answer(s), `state` typed after `state_after` decisions, and `quit` after `decisions`.
struct Session {
    text: String,
    /// The picture `state` printed: the output between the `state` command and the next prompt.
    picture: String,
    answered: usize,
}

/// `arbiter play GAME --human 1 --seed SEED`, its input and output piped.
fn spawn_play(game: &str, seed: u64) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["play", game, "--human", "1", "--seed", &seed.to_string()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// What `play GAME --human 1 --seed SEED` printed for the lines typed in `input`.
fn typed(game: &str, seed: u64, input: &[u8]) -> String {
    let mut child = spawn_play(game, seed);
    child.stdin.take().unwrap().write_all(input).unwrap();
    String::from_utf8_lossy(&child.wait_with_output().unwrap().stdout).to_string()
}

fn play(game: &str, seed: u64, decisions: usize, state_after: usize) -> Session {
    let mut child = spawn_play(game, seed);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut text = String::new();
    let mut picture = String::new();
    let mut answered = 0;
    let mut state_from: Option<usize> = None;
    let mut state_asked = false;
    let deadline = Instant::now() + Duration::from_secs(120);
    while let Ok(chunk) = rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        text.push_str(&String::from_utf8_lossy(&chunk));
        if !text.ends_with("> ") {
            continue;
        }
        if let Some(from) = state_from.take() {
            let upto = text.rfind("your choice").unwrap();
            picture = text[from..upto].to_string();
        }
        let prompt_line = text.lines().last().unwrap().to_string();
        let input = if answered == decisions {
            "quit".to_string()
        } else if answered == state_after && !state_asked {
            state_asked = true;
            state_from = Some(text.len());
            "state".to_string()
        } else {
            answered += 1;
            answer_for(&text, &prompt_line)
        };
        writeln!(stdin, "{input}").unwrap();
        if input == "quit" {
            break;
        }
    }
    drop(stdin);
    let _ = child.wait();
    while let Ok(chunk) = rx.recv_timeout(Duration::from_secs(5)) {
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    Session { text, picture, answered }
}

/// The first legal answer to the menu above the prompt: its first option, the first N for
/// `(choose N)`, every option in order for `(put all in order)`.
fn answer_for(text: &str, prompt: &str) -> String {
    let menu_start = text.rfind("\nP1 — ").unwrap();
    let options = text[menu_start..]
        .lines()
        .filter(|l| l.starts_with("  ") && l.trim_start().split('.').next().is_some_and(|n| n.parse::<usize>().is_ok()))
        .count();
    let n = if let Some(k) = prompt.split("(choose ").nth(1) {
        k.trim_start_matches("up to ").split(')').next().unwrap().parse::<usize>().unwrap().max(1)
    } else if prompt.contains("(put all in order)") {
        options
    } else {
        1
    };
    (1..=n.min(options.max(1))).map(|i| i.to_string()).collect::<Vec<_>>().join(" ")
}

/// The six games, each with a line its text picture always draws for seat 1.
const GAMES: [(&str, &str); 6] = [
    ("tic-tac-toe", "---+---+---"),
    ("connect-four", " 1 2 3 4 5 6 7"),
    ("bsg-ccg", "P1 (you) — influence"),
    ("bsg-board", "(you)"),
    ("starcraft", "(you)"),
    ("starship-battles", "(you)"),
];

#[test]
fn every_game_speaks_the_tables_language_asks_once_and_draws_its_table() {
    for (game, drawn) in GAMES {
        let b = common::load(game, &[] as &[String]);
        // Tic-tac-toe and Connect Four end before P1 has made 20 decisions: played to their end.
        let want = 20;
        let s = play(game, 4, want, 2);
        let ended = s.text.contains("\nresult after ");
        assert!(s.answered >= want || ended, "{game}: {} decisions answered of {want}:\n{}", s.answered, s.text);
        // No engine-level event: no object created, no event raised for triggers, no effect
        // ending, no trigger or replacement named, no field change the rulebook does not announce.
        for e in &b.game.events {
            assert!(!s.text.contains(&format!("{}(", e.name)), "{game}: the event `{}` was printed:\n{}", e.name, s.text);
        }
        for engine_words in [" created in ", "triggered: ", "instead of ", " ended\n", "a hidden value changed"] {
            assert!(!s.text.contains(engine_words), "{game}: `{engine_words}` printed:\n{}", s.text);
        }
        let quiet = b.game.player_fields.iter().chain(&b.game.global_fields).filter(|f| !f.announced);
        for f in quiet {
            let words = f.name.replace('_', " ");
            let told = s.text.lines().any(|l| l.starts_with(&format!("{words}: ")) || l.contains(&format!("'s {words}: ")));
            assert!(!told, "{game}: a change of `{}`, which the rulebook does not announce, was printed:\n{}", f.name, s.text);
        }
        // Each of P1's decisions asked once: by its menu, not also told back as a choice.
        let asked: Vec<&str> = s.text.lines().filter_map(|l| l.strip_prefix("P1 — ")).collect();
        assert!(asked.len() >= 3, "{game}: {asked:?}");
        let told_back = s.text.lines().find(|l| l.contains("P1 chose ") && !l.contains("(the only choice)"));
        assert!(told_back.is_none(), "{game}: a decision of P1's was told back after its menu: {told_back:?}\n{}", s.text);
        let refused = s.text.lines().find(|l| l.contains("refused"));
        assert!(refused.is_none(), "{game}: a first legal answer was refused: {refused:?}\n{}", s.text);
        // `state` draws the game's own picture, not a dump of fields.
        assert!(s.picture.contains(drawn), "{game}: `state` did not draw the table (`{drawn}`):\n{}", s.picture);
        assert!(!s.picture.contains(" false") && !s.picture.contains(" true"), "{game}: raw fields in the picture:\n{}", s.picture);
    }
}

/// A refused answer does not print the menu again; `options` does.
#[test]
fn a_refusal_prompts_again_without_repeating_the_question() {
    let text = typed("tic-tac-toe", 3, b"42\nhello\noptions\nquit\n");
    assert_eq!(text.matches("refused:").count(), 2, "{text}");
    // Asked once, and once more when asked for with `options`.
    assert_eq!(text.matches("P1 — Mark an empty square").count(), 2, "{text}");
}

/// Option `0` is refused as a number past the last is, with the range to choose from (a modder's
/// trial read two wordings for the two mistakes).
#[test]
fn option_zero_is_refused_as_any_number_past_the_options() {
    let text = typed("tic-tac-toe", 3, b"0\n10\nquit\n");
    assert!(text.contains("refused: there is no option 0 (choose 1 to 9)"), "{text}");
    assert!(text.contains("refused: there is no option 10 (choose 1 to 9)"), "{text}");
}

/// Alike options say what their number is in the menu: `(copy 2 of 2)`, not a bare `(2)`.
#[test]
fn alike_options_say_which_copy_they_are() {
    let s = play("bsg-ccg", 4, 3, 99);
    assert!(s.text.contains("Viper Mark II (copy 2 of 2)"), "{}", s.text);
    assert!(!s.text.contains("Viper Mark II (2)"), "{}", s.text);
}

/// Alike options that lie apart are told apart in the menu as the seat's view tells them: whose
/// each is and what it points at (a rules lawyer could not tell StarCraft's navigation routes
/// apart: "Navigation Route (copy 1 of 2)"); alike ones that do not differ keep their numbers.
#[test]
fn alike_options_in_a_shared_zone_say_what_tells_them_apart() {
    let s = play("starcraft", 3, 12, 99);
    let routes: Vec<&str> = s.text.lines().filter(|l| l.contains(". Navigation Route")).collect();
    assert!(routes.len() >= 2, "{}", s.text);
    assert!(routes.iter().all(|l| l.contains("Navigation Route (a ") && l.contains(", b ") && !l.contains("copy")), "{routes:?}");
    let mut names: Vec<&str> = routes.iter().map(|l| l.split_once(". ").map_or(*l, |(_, r)| r)).collect();
    let n = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), n, "each route reads differently: {routes:?}");
}

/// A menu marks only what the seat's view shows: nothing of objects in a hidden pile no player
/// owns, nor of objects beneath another (a secrecy audit read whose each shuffled chip was, and
/// what was written on it in its owner's hidden stash, from the menu alone).
#[test]
fn a_menu_marks_nothing_the_view_hides() {
    let dir = std::env::temp_dir().join(format!("arbiter-terminal-marks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("part.arb"),
        "for tic-tac-toe\npart of variant secret-pile\n\nkind chip {\n  field target: square? = none\n}\n\n\
         zone stash per player owner holds chip\nzone pile shared hidden holds chip\nzone open_pile shared public holds chip\n\n\
         chip \"Chip\" { }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("leak.arb"),
        "for tic-tac-toe\nuses \"part.arb\"\n\nvariant secret-pile \"A hidden pile of chips\" {\n  insert step pick before mark in turn.play {\n    \
         if count(pile) == 0 and count(open_pile) == 0 {\n      for q in players() {\n        let c = create first(definitions(\"chip\")) in q.stash\n        \
         c.target = nth(board, 4 * seat(q) - 4)\n        move c to pile face down\n      }\n      shuffle pile\n      for i in [1, 2] {\n        \
         let c = create first(definitions(\"chip\")) in last(players()).stash\n        c.target = nth(board, i)\n        move c to open_pile face down\n        \
         put c under nth(board, 8)\n      }\n    }\n    let x = choose p \"Take which chip from the hidden pile?\" from objects(pile)\n    \
         let y = choose p \"Take which chip under the corner?\" from nth(board, 8).under\n  }\n}\n",
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["play", "tic-tac-toe", "--rules", "leak.arb", "--variant", "secret-pile", "--human", "1", "--seed", "4"])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"1\n1\nquit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let menus: Vec<&str> =
        text.lines().filter(|l| l.trim_start().starts_with("1. a chip") || l.trim_start().starts_with("2. a chip")).collect();
    assert_eq!(menus.len(), 4, "both menus, two chips each: {text}");
    assert!(menus.iter().all(|l| l.ends_with("a chip (copy 1 of 2)") || l.ends_with("a chip (copy 2 of 2)")), "{menus:?}\n{text}");
}

/// `arbiter ARGS` with no input: its exit code and what it printed (standard output, then error).
fn arbiter(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

/// One screen shows what it showed to whoever looks next: several human seats share this
/// terminal only in a game that hides nothing (a secrecy audit read P1's draws on P2's screen),
/// and the web table's hot-seat is named instead.
#[test]
fn several_human_seats_share_a_terminal_only_in_a_game_that_hides_nothing() {
    let (code, out) = arbiter(&["play", "bsg-ccg", "--human", "1", "--human", "2"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("P1 and P2 would share one screen, and bsg-ccg keeps things from its players"), "{out}");
    assert!(out.contains("`arbiter serve`"), "{out}");
    let (code, out) = arbiter(&["play", "tic-tac-toe", "--human", "1", "--human", "2"]);
    assert_eq!(code, Some(0), "tic-tac-toe hides nothing: {out}");
    // One seat named twice is one seat.
    let (code, out) = arbiter(&["play", "bsg-ccg", "--human", "1", "--human", "1", "--seed", "1"]);
    assert_eq!(code, Some(0), "{out}");
    // A house rule that asks a secret choice in a game with only open zones keeps a secret too.
    let dir = tempfile::Builder::new().prefix("arbiter-shared-screen-").tempdir().unwrap();
    let rules = dir.path().join("secret.arb");
    std::fs::write(
        &rules,
        "for tic-tac-toe\n\nvariant secret-number \"Each player picks a secret number first\" {\n  \
         insert step secret before mark in turn.play {\n    let n = choose secretly p \"Pick a secret number\" from [1, 2, 3]\n  }\n}\n",
    )
    .unwrap();
    let rules = rules.to_str().unwrap();
    let (code, out) = arbiter(&["play", "tic-tac-toe", "--rules", rules, "--variant", "secret-number", "--human", "1", "--human", "2"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("would share one screen"), "{out}");
}

/// A game shown as one seat sees it that a rule error stops shows neither the error nor its seed
/// (the error's values and place may name what the seat may not see; the seed shows every card,
/// and a save of the game may be resumed and answered otherwise): both are written to a file the
/// user opens on purpose. A game shown whole shows both, to play it again.
#[test]
fn a_rule_error_shows_the_seed_only_of_a_game_shown_whole() {
    let rules = format!("{}/tests/untrusted/chatter.arb", env!("CARGO_MANIFEST_DIR"));
    let (code, out) = arbiter(&["play", "tic-tac-toe", "--rules", &rules, "--variant", "chatter", "--view", "1", "--seed", "5"]);
    let tail = &out[out.len().saturating_sub(2000)..];
    assert_eq!(code, Some(2), "{tail}");
    assert!(!out.contains("seed 5") && !out.contains("log budget exceeded"), "{tail}");
    let file = out.split("are in ").nth(1).and_then(|r| r.split(" (with the seed)").next()).unwrap_or_else(|| panic!("{tail}"));
    let written = std::fs::read_to_string(file).unwrap();
    let _ = std::fs::remove_file(file);
    assert!(written.contains("log budget exceeded") && written.contains("chatter.arb:12:7") && written.ends_with("seed 5\n"), "{written}");
    let (code, out) = arbiter(&["play", "tic-tac-toe", "--rules", &rules, "--variant", "chatter", "--seed", "5"]);
    assert_eq!(code, Some(2));
    assert!(out.contains("error: the game stopped on a rule error (seed 5)"), "{}", &out[out.len().saturating_sub(2000)..]);
}

/// From a designer's trial: `play --log` printed nothing of what happened between the last
/// decision and a rule error (the answer, the events after it), though `explain` shows them.
#[test]
fn a_rule_error_is_told_after_what_happened_before_it() {
    let dir = std::env::temp_dir().join(format!("arbiter-terminal-error-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rules = dir.join("endless.arb");
    std::fs::write(
        &rules,
        "for tic-tac-toe\n\nvariant endless \"a turn that never ends\" {\n  replace proc turn.play() {\n    log \"a move is about to be made\"\n    while true {\n      let x = 1\n    }\n  }\n}\n",
    )
    .unwrap();
    let (code, out) = arbiter(&["play", "tic-tac-toe", "--rules", rules.to_str().unwrap(), "--variant", "endless", "--log", "--seed", "1"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("a move is about to be made") && out.contains("error: the game stopped on a rule error (seed 1)"), "{out}");
}

/// A card shown to some seats only (`reveal c to p`: the admiral's look at two destinations) reads
/// "shown to you" in that seat's view, with the card; the other seats read that a card was shown,
/// and to whom, not which; a card revealed to everyone reads "revealed" (a rules lawyer's trial
/// read a private look as `revealed`, as if everyone saw it).
#[test]
fn a_card_shown_to_one_seat_says_to_whom() {
    let view = |seat: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["play", "bsg-board", "--players", "4", "--seed", "4", "--variant", "no-sympathizer", "--view", seat])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let (admiral, other) = (view("4"), view("1"));
    let shown: Vec<&str> = admiral.lines().filter(|l| l.ends_with(" shown to you")).collect();
    assert!(!shown.is_empty(), "the admiral's view shows the destinations it looks at:\n{admiral}");
    assert!(other.lines().any(|l| l.starts_with("a destination shown to P4")), "{other}");
    // What the admiral alone was shown (P1 is shown its own Loyalty card too): P1 does not read it.
    let mine: Vec<&str> = other.lines().filter(|l| l.ends_with(" shown to you")).collect();
    let only_admirals: Vec<&&str> = shown.iter().filter(|l| !mine.contains(l)).collect();
    assert!(!only_admirals.is_empty(), "{admiral}");
    for l in only_admirals {
        let card = l.trim_end_matches(" shown to you");
        assert!(!other.contains(&format!("{card} shown to P4")), "P1 does not read which: {card}");
    }
    assert!(other.lines().any(|l| l.ends_with(" revealed")), "a card revealed to everyone: {other}");
}
