//! House rules and new cards from the user's own files, run as a user runs them: the files of
//! tests/house-rules/GAME/ copied to a folder outside the repository and loaded with `--rules`.
//! `variants` lists their variants, `play` plays each one to a result, `test` runs the scenarios
//! that prove them, and a saved game records them and goes on with them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use arbiter::check::project::{Project, peek};
use arbiter::syntax::ast::Item;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn arbiter(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).current_dir(dir).output().expect("run arbiter")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A new folder outside the repository holding a copy of one game's house-rule files.
fn outside(game: &str, test: &str) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/house-rules").join(game);
    let dir = std::env::temp_dir().join(format!("arbiter-house-{}-{test}-{game}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(&from).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
        }
    }
    dir
}

/// The variants a house-rule file declares.
fn variants_in(path: &Path) -> Vec<String> {
    let f = peek(&Project::at(env!("CARGO_MANIFEST_DIR")), path).unwrap();
    f.items.iter().filter_map(|i| if let Item::Variant(v) = &i.node { Some(v.name.node.clone()) } else { None }).collect()
}

/// The games that have house rules in tests/house-rules/.
fn games() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/house-rules");
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    out.sort();
    out
}

/// The fewest players each game plays with here.
fn players(game: &str) -> &'static str {
    match game {
        "bsg-board" => "3",
        _ => "2",
    }
}

#[test]
fn house_rules_from_outside_the_repository_are_listed_played_and_proved() {
    let games = games();
    assert!(games.len() >= 5, "house rules for tic-tac-toe and the four games, found {games:?}");
    for game in &games {
        let dir = outside(game, "listed");
        let house = dir.join("house.arb");
        let names = variants_in(&house);
        assert!(!names.is_empty(), "{game}: house.arb declares no variant");

        let checked = arbiter(&dir, &["check", "--rules", "house.arb"]);
        assert!(checked.status.success() && text(&checked).contains("no problems"), "{game}: check:\n{}", text(&checked));

        let listed = arbiter(&dir, &["variants", game, "--rules", "house.arb"]);
        assert!(listed.status.success(), "{game}: variants:\n{}", text(&listed));
        for n in &names {
            assert!(
                text(&listed).lines().any(|l| l.starts_with(n.as_str()) && l.contains("[house rule, ") && l.contains("house.arb:")),
                "{game}: `variants` does not list {n} as a house rule:\n{}",
                text(&listed)
            );
            let shown = arbiter(&dir, &["variants", game, "--rules", "house.arb", "--show", n]);
            assert!(shown.status.success() && text(&shown).contains(n.as_str()), "{game}: --show {n}:\n{}", text(&shown));
        }

        for n in &names {
            let played = arbiter(&dir, &["play", game, "--players", players(game), "--rules", "house.arb", "--variant", n, "--seed", "3"]);
            let out = text(&played);
            assert!(played.status.success(), "{game} with {n}: play failed:\n{out}");
            assert!(out.lines().any(|l| l.starts_with("result")), "{game} with {n}: no result:\n{out}");
            assert!(
                out.lines().next().is_some_and(|l| l.contains(n.as_str())),
                "{game} with {n}: the title line names the variant:\n{out}"
            );
        }

        let tested = arbiter(&dir, &["test", "--rules", "house.arb", "house-scenarios.arb"]);
        let out = text(&tested);
        assert!(tested.status.success(), "{game}: scenarios:\n{out}");
        let last = out.lines().last().unwrap_or_default().to_string();
        assert!(last.ends_with("passed, 0 failed") && !last.starts_with("0 passed"), "{game}: {last}\n{out}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_file_for_another_game_is_refused() {
    let dir = outside("tic-tac-toe", "refused");
    let o = arbiter(&dir, &["play", "connect-four", "--rules", "house.arb"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("is for tic-tac-toe, not connect-four"), "{}", text(&o));
    let missing = arbiter(&dir, &["variants", "tic-tac-toe", "--rules", "no-such-file.arb"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing).contains("cannot read `no-such-file.arb`"), "{}", text(&missing));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_saved_game_records_the_users_files_and_goes_on_with_them() {
    let dir = outside("tic-tac-toe", "saved");
    let played =
        arbiter(&dir, &["play", "tic-tac-toe", "--rules", "house.arb", "--variant", "loud-announcer", "--seed", "5", "--save", "g.json"]);
    assert!(played.status.success(), "{}", text(&played));
    let saved = std::fs::read_to_string(dir.join("g.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&saved).unwrap();
    let rules = json["rules"].as_array().unwrap();
    assert!(rules.iter().any(|r| r.as_str().unwrap().ends_with("house.arb")), "the save names the file: {rules:?}");
    let files = json["files"].as_object().unwrap();
    assert!(files.keys().any(|k| k.ends_with("announcer.arb")), "the digests cover the used file too: {files:?}");

    // Resumed from elsewhere, without `--rules`: the save finds the file where it was.
    let resumed = arbiter(Path::new(env!("CARGO_MANIFEST_DIR")), &["resume", dir.join("g.json").to_str().unwrap()]);
    assert!(resumed.status.success() && text(&resumed).contains("result"), "{}", text(&resumed));

    // Changed since: refused, naming the file.
    let house = dir.join("announcer.arb");
    let changed = std::fs::read_to_string(&house).unwrap().replace("has marked!", "marked!");
    std::fs::write(&house, changed).unwrap();
    let refused = arbiter(&dir, &["resume", "g.json"]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(text(&refused).contains("announcer.arb"), "{}", text(&refused));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_syntax_error_in_a_file_for_a_game_is_reported_as_itself() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = arbiter(root, &["check", "tests/bad/39-syntax-error-in-for-file.arb"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("expected a text in quotes, a value or end of file, found `=`"), "{out}");
    assert!(out.contains("39-syntax-error-in-for-file.arb:6:9"), "file, line and column: {out}");
    assert!(out.contains("checked 1 file: 1 error"), "{out}");
    assert!(!out.contains("cannot tell which game"), "{out}");

    // A file that does not parse and says no game: its syntax error still comes first.
    let dir = outside("tic-tac-toe", "broken");
    std::fs::write(dir.join("broken.arb"), "card \"X\" { type ship\n").unwrap();
    let o = arbiter(&dir, &["check", "broken.arb"]);
    assert!(text(&o).contains("the file ends too soon") && text(&o).contains("1 error"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_deck_in_its_own_file_uses_the_card_file_and_is_named_by_seat() {
    // The README's designer tour, split as a designer keeps it: cards in one file, the deck in
    // another that `uses` it.
    let tour = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tour/my-cards.arb")).unwrap();
    let at = tour.find("deck \"Recon Fleet\"").unwrap();
    let dir = std::env::temp_dir().join(format!("arbiter-house-{}-deck", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("cards.arb"), &tour[..at]).unwrap();
    std::fs::write(dir.join("deck.arb"), format!("for bsg-ccg\nuses \"cards.arb\"\n\n{}", &tour[at..])).unwrap();

    let checked = arbiter(&dir, &["check", "deck.arb"]);
    assert!(checked.status.success(), "{}", text(&checked));
    let by_file = arbiter(&dir, &["play", "bsg-ccg", "--deck", "1=deck.arb", "--seed", "7", "--log"]);
    assert!(by_file.status.success(), "{}", text(&by_file));
    assert!(text(&by_file).contains("Raptor Recon Team"), "seat 1 plays the deck with the new card");
    let by_name = arbiter(&dir, &["play", "bsg-ccg", "--rules", "deck.arb", "--deck", "1=Recon Fleet", "--seed", "7", "--log"]);
    assert!(by_name.status.success(), "{}", text(&by_name));
    assert_eq!(text(&by_file), text(&by_name), "the same deck, named by file or by name, plays the same game");
    let wrong = arbiter(&dir, &["play", "bsg-ccg", "--rules", "deck.arb", "--deck", "1=Recon Flet"]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        text(&wrong).contains("no deck named `Recon Flet`") && text(&wrong).contains("did you mean `Recon Fleet`?"),
        "{}",
        text(&wrong)
    );
    // A deck of the user's own named without its file: the help says how to load it (a designer's
    // trial was shown only the game's decks).
    let unloaded = arbiter(&dir, &["play", "bsg-ccg", "--deck", "1=Recon Fleet"]);
    assert_eq!(unloaded.status.code(), Some(2));
    assert!(
        text(&unloaded).contains("a deck in a file of your own is loaded with `--rules FILE`, or given as `--deck 1=FILE`"),
        "{}",
        text(&unloaded)
    );
    // Decks given to no seat of the game, to one seat twice, or in a file that holds two are
    // refused, not passed over (a designer's trial: each played a game as if not given).
    let second = tour[at..].replacen("deck \"Recon Fleet\"", "deck \"Recon Fleet Two\"", 1);
    std::fs::write(dir.join("two.arb"), format!("for bsg-ccg\nuses \"cards.arb\"\n\n{}\n{second}", &tour[at..])).unwrap();
    for (command, message) in [
        (&["play", "bsg-ccg", "--deck", "3=deck.arb"][..], "a deck is given to seat 3, but the game has 2 seats"),
        (&["sim", "bsg-ccg", "--deck", "0=deck.arb", "--games", "2"][..], "`0` is not a seat number"),
        (&["play", "bsg-ccg", "--deck", "1=deck.arb", "--deck", "1=deck.arb"][..], "seat 1 is given two decks"),
        (&["play", "bsg-ccg", "--deck", "1=two.arb"][..], "the deck file for seat 1 holds 2 decks: \"Recon Fleet\", \"Recon Fleet Two\""),
        (&["sim", "bsg-ccg", "--deck", "2=two.arb", "--games", "2"][..], "the deck file for seat 2 holds 2 decks"),
    ] {
        let out = arbiter(&dir, command);
        assert_eq!(out.status.code(), Some(2), "{command:?}: {}", text(&out));
        assert!(text(&out).contains(message), "{command:?}: {}", text(&out));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two variants switched on together where the later one replaces, or sets, what the earlier one
/// changed: the earlier change is lost, and `play` says so before playing, naming both (a
/// modder's trial played `boxcars` under `rolling-doubles` and never saw its double sixes; some
/// rulebooks combine two readings so on purpose). A variant that builds on the other (`extends`)
/// takes it over without a word.
#[test]
fn a_variant_that_drops_another_variants_change_is_said_to() {
    let dir = std::env::temp_dir().join(format!("arbiter-house-lost-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let house = "for starship-battles\n\n\
        variant loud-hits \"Hits are announced\" {\n  replace step hit in fire.attack {\n    if total >= s.attack {\n      \
        log \"{t} is hit!\"\n      call damage.hit(t)\n    }\n  }\n}\n\n\
        variant near \"Short range counts 2\" {\n  set short_range_modifier = 2\n}\n\n\
        variant nearer \"Short range counts 3\" {\n  set short_range_modifier = 3\n}\n\n\
        variant nearer-still \"Short range counts 3, on top of near\" extends near {\n  set short_range_modifier = 3\n}\n";
    std::fs::write(dir.join("house.arb"), house).unwrap();
    let play = |variants: &[&str]| {
        let mut args = vec!["play", "starship-battles", "--rules", "house.arb", "--seed", "1"];
        for v in variants {
            args.extend(["--variant", v]);
        }
        arbiter(&dir, &args)
    };
    let alone = play(&["loud-hits"]);
    assert_eq!(alone.status.code(), Some(0), "{}", text(&alone));
    let replaced = play(&["loud-hits", "rolling-doubles"]);
    assert_eq!(replaced.status.code(), Some(0), "{}", text(&replaced));
    assert!(
        text(&replaced).contains("`rolling-doubles` changes proc `fire.attack`, which `loud-hits` changed before it"),
        "{}",
        text(&replaced)
    );
    let set_twice = play(&["near", "nearer"]);
    assert!(
        text(&set_twice).contains("`nearer` changes const `short_range_modifier`, which `near` changed before it"),
        "{}",
        text(&set_twice)
    );
    assert!(text(&set_twice).contains("extends near"), "the help says how to build on it: {}", text(&set_twice));
    let built_on = play(&["near", "nearer-still"]);
    assert_eq!(built_on.status.code(), Some(0), "{}", text(&built_on));
    assert!(!text(&built_on).contains("changed before it"), "a variant that extends the other takes it over: {}", text(&built_on));
    assert!(!text(&alone).contains("warning"), "{}", text(&alone));
    let _ = std::fs::remove_dir_all(&dir);
}
