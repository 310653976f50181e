//! The web table against a red team's attacks, over real HTTP: each was once let through, and each
//! is now refused cleanly while the game goes on.
//!
//! - a save made by one seat does not show another seat's cards, nor everything, nor hand out new
//!   secrets, nor is it listed to a stranger;
//! - a copy of a game resumed from its save and played to its end is not replayed with everything
//!   in view while the game it was copied from goes on, and once one copy is over no save of the
//!   game goes on again (a game over shows every card and the seed), nor through a second server
//!   on the same saves folder (refused as it starts);
//! - a save edited by hand is refused as damaged, naming what is wrong, never taken for the rules'
//!   fault;
//! - a save in the saves folder that is a link to another file, or that names rule files the
//!   server was not started with, is not read;
//! - a bot larger than a web table runs is refused (422), a table of bots alone too; a searching
//!   bot thinks away from the request that let it move, and stops when its table is closed.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use common::serve::Server;
use serde_json::{Value, json};
use std::path::PathBuf;

fn new_table(s: &Server, game: &str, seats: &[&str], seed: u64) -> (u64, Vec<String>) {
    let (status, v) = s.json("POST", "/api/tables", Some(json!({ "game": game, "seats": seats, "seed": seed })), None);
    assert_eq!(status, 200, "{v}");
    let tokens = v["seats"].as_array().unwrap().iter().map(|x| x["token"].as_str().unwrap().to_string()).collect();
    (v["table"].as_u64().unwrap(), tokens)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-web-attacks-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A hot-seat card game saved by P1: no request without P2's secret sees P2's view, no request
/// without both secrets sees everything, a stranger's secret lists nothing, and going on with it
/// hands out no secret: each seat is played with the secret it was saved with.
#[test]
fn a_save_shows_each_seat_only_to_the_holder_of_its_secret() {
    let dir = scratch("secrets");
    let s = Server::start_with(&["--saves", dir.to_str().unwrap()]);
    let (table, tokens) = new_table(&s, "bsg-ccg", &["human", "human"], 5);
    let (p1, p2) = (tokens[0].clone(), tokens[1].clone());
    let both = format!("{p1},{p2}");
    let (_, stranger) = new_table(&s, "tic-tac-toe", &["human", "random"], 1);
    let stranger = stranger[0].clone();
    let (status, saved) = s.json("POST", &format!("/api/tables/{table}/seats/1/save"), None, Some(&p1));
    assert_eq!(status, 200, "{saved}");
    let file = saved["file"].as_str().unwrap().to_string();

    // Listing: a seat's secret, and only that seat's game's saves.
    let (status, _) = s.json("GET", "/api/saves", None, None);
    assert_eq!(status, 403);
    assert_eq!(s.json("GET", "/api/saves", None, Some(&p1)).1, json!([file]));
    assert_eq!(s.json("GET", "/api/saves", None, Some(&p2)).1, json!([file]), "P2 sat at the same game");
    assert_eq!(s.json("GET", "/api/saves", None, Some(&stranger)).1, json!([]), "a stranger's secret lists nothing");

    // Replaying: as P2 only with P2's secret; everything only with both.
    let replay = |who: &str, with: Option<&str>| s.call("GET", &format!("/api/replay?save={file}&as={who}"), None, with).0;
    assert_eq!((replay("2", None), replay("2", Some(&p1)), replay("2", Some(&stranger))), (403, 403, 403));
    assert_eq!((replay("all", None), replay("all", Some(&p1)), replay("all", Some(&p2))), (403, 403, 403));
    assert_eq!((replay("1", Some(&p1)), replay("2", Some(&p2)), replay("all", Some(&both))), (200, 200, 200));
    let (status, body) = s.call("GET", &format!("/api/replay/why?save={file}&as=all&id={file}&event=0"), None, Some(&p1));
    assert_eq!(status, 403, "{body}");
    let (status, body) = s.call("GET", &format!("/api/replay/picture?save={file}&as=2&id={file}&event=0"), None, Some(&p1));
    assert_eq!(status, 403, "{body}");

    // Going on: only for a seat's secret, and no new secret is handed out.
    let resume = |with: Option<&str>| s.json("POST", "/api/tables/resume", Some(json!({ "file": file })), with);
    assert_eq!((resume(None).0, resume(Some(&stranger)).0), (403, 403));
    let (status, resumed) = resume(Some(&p1));
    assert_eq!(status, 200, "{resumed}");
    assert_eq!(resumed["seats"], json!([{ "seat": 1, "token": p1 }]), "P1 goes on as P1, and is handed nothing else");
    let again = resumed["table"].as_u64().unwrap();
    let seat = |n: u8, with: &str| s.call("GET", &format!("/api/tables/{again}/seats/{n}"), None, Some(with)).0;
    assert_eq!((seat(1, &p1), seat(2, &p1), seat(2, &p2)), (200, 403, 200), "P2 plays on with its own secret only");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The red team's route to a live game's seed and hidden cards: save, resume the save as a second
/// table, play that copy to its end, save it and replay it with everything in view. The replay is
/// refused while the first table goes on; once it is left, the replay is shown, and the first
/// table's save no longer goes on.
#[test]
fn a_copy_played_to_its_end_shows_nothing_of_the_game_that_goes_on() {
    let dir = scratch("copies");
    let s = Server::start_with(&["--saves", dir.to_str().unwrap()]);
    let (table, tokens) = new_table(&s, "tic-tac-toe", &["human", "random"], 4);
    let token = tokens[0].clone();
    let save = |t: u64| {
        let (status, v) = s.json("POST", &format!("/api/tables/{t}/seats/1/save"), None, Some(&token));
        assert_eq!(status, 200, "{v}");
        v["file"].as_str().unwrap().to_string()
    };
    let start = save(table);
    let (status, copy) = s.json("POST", "/api/tables/resume", Some(json!({ "file": start })), Some(&token));
    assert_eq!(status, 200, "a seat may go on with its own save: {copy}");
    let copy = copy["table"].as_u64().unwrap();
    // The copy played to its end: P1 takes the first free square each time.
    for _ in 0..50 {
        let (_, view) = s.json("GET", &format!("/api/tables/{copy}/seats/1"), None, Some(&token));
        if view["result"].is_string() {
            break;
        }
        if view["decision"].is_object() {
            s.json("POST", &format!("/api/tables/{copy}/seats/1/answer"), Some(json!({ "picks": [0] })), Some(&token));
        } else {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
    let end = save(copy);
    let everything = || s.json("GET", &format!("/api/replay?save={end}&as=all"), None, None);
    let (status, v) = everything();
    assert_eq!(status, 403, "the first table goes on: {v}");
    assert!(v["error"].as_str().unwrap().contains(&format!("goes on at table {table}")), "{v}");
    assert_eq!(s.json("GET", &format!("/api/replay?save={end}&as=2"), None, Some(&token)).0, 403, "nor as the bot's seat");
    let (status, v) = s.json("POST", "/api/tables/resume", Some(json!({ "file": start })), Some(&token));
    assert_eq!(status, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains(&format!("played to its end (`{end}`)")), "{v}");

    // The first table left: the copy over is anyone's to replay, seed and all.
    assert_eq!(s.call("DELETE", &format!("/api/tables/{table}/seats/1"), None, Some(&token)).0, 200);
    let (status, v) = everything();
    assert_eq!(status, 200, "{v}");
    assert!(v[0]["title"].as_str().unwrap().contains("seed 4"), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same route through a second server sharing the saves folder, which knows nothing of the
/// first one's tables: a second server on a folder in use is refused as it starts, and starts once
/// the first has stopped (the lock is the operating system's, let go with the process).
#[test]
fn a_second_server_on_a_saves_folder_in_use_is_refused() {
    let dir = scratch("shared");
    let first = Server::start_with(&["--saves", dir.to_str().unwrap()]);
    // Started, and given ten seconds to give up: a server that took the folder would serve on
    // (the test then fails rather than waits for it).
    let second = || {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "--port", "0", "--saves"])
            .arg(&dir)
            .current_dir(common::serve::root())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > std::time::Duration::from_secs(10) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("a second server on the folder served");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        child.wait_with_output().unwrap()
    };
    let out = second();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!("another web table already serves games saved in `{}`", dir.display())), "{err}");
    assert!(err.contains("--saves DIR"), "says what to do: {err}");
    let (_, v) = first.json("GET", "/api/status", None, None);
    assert!(v.is_object(), "the first server goes on: {v}");
    drop(first);
    let again = Server::start_with(&["--saves", dir.to_str().unwrap()]);
    assert_eq!(again.json("GET", "/api/status", None, None).0, 200, "the folder is free once the first has stopped");
    drop(again);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A save made at the terminal keeps no seat's secret: the web table shows it to no one while the
/// game goes on, and to anyone once it is over.
#[test]
fn a_save_from_the_terminal_is_shown_only_once_its_game_is_over() {
    let dir = scratch("terminal");
    let arbiter = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).current_dir(&dir).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    // One left at its first decision (a human seat, and input ends), one played to its end.
    arbiter(&["play", "bsg-ccg", "--seed", "2", "--human", "1", "--save", "going.json"]);
    arbiter(&["play", "tic-tac-toe", "--seed", "2", "--save", "over.json"]);
    let s = Server::start_with(&["--saves", dir.to_str().unwrap()]);
    let (_, mine) = new_table(&s, "tic-tac-toe", &["human", "random"], 1);
    assert_eq!(s.json("GET", "/api/saves", None, Some(&mine[0])).1, json!([]), "neither is this seat's");
    let (status, v) = s.json("GET", "/api/replay?save=going.json&as=1", None, Some(&mine[0]));
    assert_eq!(status, 403, "{v}");
    assert!(v["error"].as_str().unwrap().contains("not made at a web table"), "{v}");
    let (status, v) = s.json("POST", "/api/tables/resume", Some(json!({ "file": "going.json" })), Some(&mine[0]));
    assert_eq!(status, 403, "{v}");
    let (status, v) = s.json("GET", "/api/replay?save=over.json&as=all", None, None);
    assert_eq!(status, 200, "a finished game's replay is anyone's: {v}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Saves edited by hand are refused as damaged, saying what is wrong, before anything is played:
/// never taken, and never put down to a rule error in the rulebook.
#[test]
fn an_edited_save_is_refused_as_damaged() {
    let dir = scratch("edited");
    let s = Server::start_with(&["--saves", dir.to_str().unwrap()]);
    let (table, tokens) = new_table(&s, "bsg-ccg", &["human", "random"], 3);
    let (_, saved) = s.json("POST", &format!("/api/tables/{table}/seats/1/save"), None, Some(&tokens[0]));
    let file = saved["file"].as_str().unwrap();
    let good: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(file)).unwrap()).unwrap();
    let edits: [Edit; 3] = [
        ("humans", |v| v["humans"] = json!([0, 1, 2, 3, 99]), "its human seats name seat 0, but its seats are 1 to 2"),
        (
            "objects",
            |v| {
                let objects = v["state"]["objects"].as_array_mut().unwrap();
                objects.truncate(objects.len() / 4);
            },
            "but there are",
        ),
        ("zones", |v| v["state"]["zones"] = json!([]), "it has 0 zone instances"),
    ];
    for (name, edit, why) in edits {
        let mut v = good.clone();
        edit(&mut v);
        let name = format!("{name}.json");
        std::fs::write(dir.join(&name), serde_json::to_string(&v).unwrap()).unwrap();
        let (status, r) = s.json("POST", "/api/tables/resume", Some(json!({ "file": name })), Some(&tokens[0]));
        let said = r["error"].as_str().unwrap();
        assert!(status == 400 || status == 422, "{name}: {status} {r}");
        assert!(said.contains("is a damaged saved game") && said.contains(why), "{name}: {said}");
        assert!(!said.contains("rule error"), "{name}: {said}");
        let (status, r) = s.json("GET", &format!("/api/replay?save={name}&as=1"), None, Some(&tokens[0]));
        assert!(status == 400 || status == 422, "{name}: {status} {r}");
        assert!(r["error"].as_str().unwrap().contains("damaged saved game"), "{name}: {r}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A save is taken where it really is: a link in the saves folder to a file elsewhere is refused
/// by every request that names it, and a save naming rule files the server was not started with
/// is refused before they are read.
#[cfg(unix)]
#[test]
fn files_are_taken_where_they_really_are() {
    let dir = scratch("links");
    let s = Server::start_with(&["--saves", dir.to_str().unwrap()]);
    let (table, tokens) = new_table(&s, "tic-tac-toe", &["human", "random"], 3);
    let (_, saved) = s.json("POST", &format!("/api/tables/{table}/seats/1/save"), None, Some(&tokens[0]));
    let file = saved["file"].as_str().unwrap();
    // The save moved out of the folder, a link left in its place.
    let outside = scratch("links-outside").join("elsewhere.json");
    std::fs::rename(dir.join(file), &outside).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("link.json")).unwrap();
    let (status, v) = s.json("GET", "/api/replay?save=link.json&as=1", None, Some(&tokens[0]));
    assert_eq!(status, 403, "{v}");
    assert!(v["error"].as_str().unwrap().contains("a link to a file outside the saves folder"), "{v}");
    let (status, v) = s.json("POST", "/api/tables/resume", Some(json!({ "file": "link.json" })), Some(&tokens[0]));
    assert_eq!(status, 403, "{v}");
    assert_eq!(s.json("GET", "/api/saves", None, Some(&tokens[0])).1, json!([]), "the link is not listed");
    // The save back, naming a file of rules of the attacker's choice.
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&outside).unwrap()).unwrap();
    v["rules"] = json!(["/etc/passwd"]);
    std::fs::write(dir.join("rules.json"), serde_json::to_string(&v).unwrap()).unwrap();
    let (status, v) = s.json("POST", "/api/tables/resume", Some(json!({ "file": "rules.json" })), Some(&tokens[0]));
    assert_eq!(status, 403, "{v}");
    assert!(v["error"].as_str().unwrap().contains("a file this server was not started with"), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(outside.parent().unwrap());
}

/// A search larger than a web table runs is refused with 422, as is a table of bots alone; the
/// largest allowed is taken, its bot thinks away from the request (which answers at once, the
/// bot still to move), and closing the table stops it.
#[test]
fn bot_work_is_bounded_and_stops_with_its_table() {
    // A long time to think, and to be left: only closing the table can stop the bot soon.
    let s = Server::start_with(&["--think", "60", "--bot-idle", "600"]);
    for seats in
        [json!(["human", "mcts:1000000"]), json!(["human", "mcts:5001"]), json!(["human", "mcts:100:201"]), json!(["random", "greedy"])]
    {
        let (status, v) = s.json("POST", "/api/tables", Some(json!({ "game": "bsg-ccg", "seats": seats })), None);
        assert_eq!(status, 422, "{seats}: {v}");
    }
    let (status, v) =
        s.json("POST", "/api/tables", Some(json!({ "game": "bsg-ccg", "seats": ["mcts:5000:200", "human"], "seed": 1 })), None);
    assert_eq!(status, 200, "{v}");
    let (table, token) = (v["table"].as_u64().unwrap(), v["seats"][0]["token"].as_str().unwrap().to_string());
    let (_, view) = s.json("GET", &format!("/api/tables/{table}/seats/2"), None, Some(&token));
    assert_eq!((view["waiting_for"].as_u64(), view["thinking"].as_bool()), (Some(1), Some(true)), "P1, a bot, thinks: {}", view["events"]);
    let status_now = || s.json("GET", "/api/status", None, None).1;
    let now = status_now();
    assert_eq!(now["bots_thinking"].as_u64().unwrap() + now["bots_waiting"].as_u64().unwrap(), 1, "{now}");
    // P2 leaves: the table is closed, and its bot stops within a playout.
    let (status, left) = s.json("DELETE", &format!("/api/tables/{table}/seats/2"), None, Some(&token));
    assert_eq!(status, 200, "{left}");
    assert_eq!(left["closed"], json!(true));
    assert!(wait_until_idle(&s), "the bot went on thinking after its table was closed: {}", status_now());
    assert_eq!(s.json("GET", &format!("/api/tables/{table}/seats/2"), None, Some(&token)).0, 404);
}

/// Whether the server's bots stop thinking within a few seconds.
pub fn wait_until_idle(s: &Server) -> bool {
    for _ in 0..50 {
        let st = s.json("GET", "/api/status", None, None).1;
        if st["bots_thinking"] == json!(0) && st["bots_waiting"] == json!(0) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    false
}

/// A table whose players have gone (no seat asks about it for `--bot-idle`) lets its bot stop;
/// it thinks again when a seat comes back.
#[test]
fn a_left_tables_bot_stops_and_thinks_again_when_a_seat_comes_back() {
    let s = Server::start_with(&["--think", "60", "--bot-idle", "1"]);
    let (table, tokens) = new_table(&s, "bsg-ccg", &["mcts:5000", "human"], 2);
    let seat = || s.json("GET", &format!("/api/tables/{table}/seats/2"), None, Some(&tokens[0])).1;
    assert_eq!(seat()["thinking"], json!(true), "P1, a bot, is to move");
    std::thread::sleep(std::time::Duration::from_millis(1200));
    assert!(wait_until_idle(&s), "the bot of a table nobody asks about stops");
    assert_eq!(seat()["thinking"], json!(true), "the bot is still to move");
    let now = s.json("GET", "/api/status", None, None).1;
    assert_eq!(now["bots_thinking"].as_u64().unwrap() + now["bots_waiting"].as_u64().unwrap(), 1, "back at work: {now}");
    let (status, _) = s.json("DELETE", &format!("/api/tables/{table}/seats/2"), None, Some(&tokens[0]));
    assert_eq!(status, 200);
    assert!(wait_until_idle(&s));
}

/// A change to a save's JSON, its name, and what the refusal must say.
type Edit = (&'static str, fn(&mut Value), &'static str);
