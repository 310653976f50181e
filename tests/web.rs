//! The web table's API (`arbiter serve`), over real HTTP: a game played to its end, what each
//! seat is sent (exactly its own view, never another seat's hidden cards), and every refusal.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use arbiter::check::project::Project;
use arbiter::web::{SeatKind, Table};
use common::serve::{Server, assert_nothing_hidden, hidden_from, marks_drawn, root};
use serde_json::{Value, json};

/// A new game: its number and each human seat's secret (by 1-based seat).
fn new_table(s: &Server, game: &str, seats: &[&str], seed: u64) -> (u64, Vec<(u64, String)>) {
    let (status, v) = s.json("POST", "/api/tables", Some(json!({ "game": game, "seats": seats, "seed": seed })), None);
    assert_eq!(status, 200, "{v}");
    let tokens =
        v["seats"].as_array().unwrap().iter().map(|x| (x["seat"].as_u64().unwrap(), x["token"].as_str().unwrap().to_string())).collect();
    (v["table"].as_u64().unwrap(), tokens)
}

/// Seat 1 of `table` answers its first option until the game is over; the view at its end.
fn play_to_end(s: &Server, (table, tokens): &(u64, Vec<(u64, String)>)) -> Value {
    let path = format!("/api/tables/{table}/seats/1");
    let (_, mut v) = s.json("GET", &path, None, Some(&tokens[0].1));
    for _ in 0..50 {
        if !v["result"].is_null() {
            return v;
        }
        let (status, next) = s.json("POST", &format!("{path}/answer"), Some(json!({ "picks": [0] })), Some(&tokens[0].1));
        assert_eq!(status, 200, "{next}");
        v = next;
    }
    panic!("the game did not end: {v}");
}

#[test]
fn tic_tac_toe_is_played_to_its_end_against_a_bot() {
    let s = Server::start();
    let (status, games) = s.json("GET", "/api/games", None, None);
    assert_eq!(status, 200);
    assert!(games.as_array().unwrap().iter().any(|g| g["name"] == "tic-tac-toe" && g["min_players"] == 2));
    let (table, tokens) = new_table(&s, "tic-tac-toe", &["human", "random"], 3);
    assert_eq!(tokens.len(), 1, "one human seat, one secret");
    let token = &tokens[0].1;
    let path = format!("/api/tables/{table}/seats/1");
    let (_, mut v) = s.json("GET", &path, None, Some(token));
    let mut moves = 0;
    while v["result"].is_null() {
        let d = &v["decision"];
        assert!(d.is_object(), "P1 is asked while the game goes on: {v}");
        assert!(d["options"].as_array().unwrap().iter().all(|o| o.is_string()));
        let (status, next) = s.json("POST", &format!("{path}/answer"), Some(json!({ "picks": [0] })), Some(token));
        assert_eq!(status, 200, "{next}");
        v = next;
        moves += 1;
        assert!(moves <= 5, "tic-tac-toe ends within five moves of one player");
    }
    let result = v["result"].as_str().unwrap();
    assert!(result.starts_with("result after") && result.contains("P"), "{result}");
    assert!(v["decision"].is_null() && v["waiting_for"].is_null());
    // The bot's moves are in the log, each with its rule.
    assert!(v["events"].as_array().unwrap().iter().any(|e| e["text"].as_str().unwrap().contains("P2")), "{v}");
}

/// A game with every seat human, played for `steps` decisions: at each, every
/// seat is sent exactly its own view (the same as a reference table's beside the server), and no
/// definition the seat may not know is named anywhere in it, its picture included. Then it is
/// saved and replayed as each seat (`saved_game_replays_keep_each_seats_secrets`).
fn every_seat_keeps_its_secrets(game: &str, seats: usize, seed: u64, steps: usize) -> usize {
    let dir = std::env::temp_dir().join(format!("arbiter-web-secrets-{game}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let s = Server::start_with(&["--saves", dir.to_str().unwrap()]);
    let (table, tokens) = new_table(&s, game, &vec!["human"; seats], seed);
    assert_eq!(tokens.len(), seats);
    // The same game, played beside the server with the same answers: the reference.
    let project = Project::find(&root());
    let mut reference = Table::start(&project, game, &[], vec![SeatKind::Human; seats], seed).unwrap();
    let mut checked_hidden = 0;
    for step in 0..steps {
        for (seat, token) in &tokens {
            let index = u8::try_from(*seat - 1).unwrap();
            let (status, body) = s.call("GET", &format!("/api/tables/{table}/seats/{seat}"), None, Some(token));
            assert_eq!(status, 200, "{body}");
            let sent: Value = serde_json::from_str(&body).unwrap();
            assert_eq!(sent, serde_json::to_value(reference.view(index)).unwrap(), "{game} step {step}: P{seat} is sent exactly its view");
            assert!(sent["picture"].as_str().is_some_and(|p| p.starts_with("<svg")), "{game} draws its table");
            let (hidden, allowed) = hidden_from(&reference, index);
            checked_hidden += hidden.len();
            assert_nothing_hidden(&body, &hidden, &allowed, &format!("{game}: P{seat} at step {step}"));
        }
        let (_, st) = reference.rules_and_state();
        let Some(d) = st.pending.clone() else { break };
        if st.result.is_some() {
            break;
        }
        let token = &tokens.iter().find(|(s, _)| *s == u64::from(d.seat) + 1).unwrap().1;
        // Options varied from step to step, so that the game moves on (a refused pick is refused
        // by both, and the next step tries another).
        let pick = (step * 5 + 1) % d.labels().len().max(1);
        let (status, body) = s.call(
            "POST",
            &format!("/api/tables/{table}/seats/{}/answer", d.seat + 1),
            Some(&format!(r#"{{"picks":[{pick}]}}"#)),
            Some(token),
        );
        let taken = reference.answer(d.seat, vec![pick]);
        assert_eq!(status == 200, taken.is_ok(), "the server and the reference agree on the answer: {body}");
    }
    checked_hidden += saved_game_replays_keep_each_seats_secrets(&s, game, table, &tokens, &reference);
    let _ = std::fs::remove_dir_all(&dir);
    checked_hidden
}

/// The game at `table`, saved and replayed from its start: with everything in view it is the same
/// game, event for event; as each seat, its events are the ones that seat was shown at the table,
/// and neither they nor the table drawn at any step name a card hidden from the seat.
fn saved_game_replays_keep_each_seats_secrets(s: &Server, game: &str, table: u64, tokens: &[(u64, String)], reference: &Table) -> usize {
    let (status, saved) = s.json("POST", &format!("/api/tables/{table}/seats/1/save"), None, Some(&tokens[0].1));
    assert_eq!(status, 200, "{saved}");
    let file = saved["file"].as_str().unwrap();
    // While the game goes on, everything in view needs every seat's secret; one seat's, or none,
    // is refused. Once it is over, its replay is anyone's.
    let every: String = tokens.iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>().join(",");
    let going_on = reference.rules_and_state().1.result.is_none();
    for (with, what) in [(None, "no secret"), (Some(tokens[0].1.as_str()), "one seat's secret")].into_iter().filter(|_| going_on) {
        let (status, refused) = s.json("GET", &format!("/api/replay?save={file}&as=all"), None, with);
        assert_eq!(status, 403, "{game}: everything in view with {what}: {refused}");
        assert!(refused["error"].as_str().unwrap().contains("every seat's secret"), "{refused}");
    }
    let (status, all) = s.json("GET", &format!("/api/replay?save={file}&as=all"), None, Some(&every));
    assert_eq!(status, 200, "{all}");
    let (_, st) = reference.rules_and_state();
    assert_eq!(all[0]["passed"], json!(true), "{game}: played again from its start, the save is the same game: {}", all[0]["status"]);
    assert_eq!(all[0]["events"].as_array().unwrap().len(), st.log.len(), "{game}: every event, with everything in view");
    // Its causes are known with everything in view.
    let last = st.log.len() - 1;
    let (status, why) = s.json("GET", &format!("/api/replay/why?save={file}&as=all&id={file}&event={last}"), None, Some(&every));
    assert_eq!(status, 200, "{why}");
    assert!(why["text"].as_str().unwrap().starts_with(&format!("#{last} ")), "{why}");
    let mut checked = 0;
    for (seat, token) in tokens {
        let index = u8::try_from(*seat - 1).unwrap();
        // As a seat: with that seat's secret only (not another seat's, not none).
        let other = &tokens[(usize::from(index) + 1) % tokens.len()].1;
        for with in [None, Some(other.as_str())].into_iter().filter(|_| going_on) {
            let (status, refused) = s.json("GET", &format!("/api/replay?save={file}&as={seat}"), None, with);
            assert_eq!(status, 403, "{game}: the replay as P{seat} without its secret: {refused}");
            let (status, _) = s.call("GET", &format!("/api/replay/picture?save={file}&as={seat}&id={file}&event=0"), None, with);
            assert_eq!(status, 403, "{game}: the replay's picture as P{seat} without its secret");
        }
        let (status, body) = s.call("GET", &format!("/api/replay?save={file}&as={seat}"), None, Some(token));
        assert_eq!(status, 200, "{body}");
        let (hidden, allowed) = hidden_from(reference, index);
        checked += hidden.len();
        assert_nothing_hidden(&body, &hidden, &allowed, &format!("{game}: the replay as P{seat}"));
        // The events as the seat saw them at the table (its newest ones, as many as it was sent).
        let replay: Value = serde_json::from_str(&body).unwrap();
        let events = replay[0]["events"].as_array().unwrap();
        let (_, live) = s.json("GET", &format!("/api/tables/{table}/seats/{seat}"), None, Some(token));
        let shown: Vec<(u64, &str)> =
            live["events"].as_array().unwrap().iter().map(|e| (e["index"].as_u64().unwrap(), e["text"].as_str().unwrap())).collect();
        let replayed: Vec<(u64, &str)> = events.iter().map(|e| (e["index"].as_u64().unwrap(), e["text"].as_str().unwrap())).collect();
        assert!(!shown.is_empty() && replayed.ends_with(&shown), "{game}: P{seat}'s replay shows the events it was shown at the table");
        assert!(events.len() < st.log.len(), "{game}: P{seat} is not shown the other seats' decisions");
        // The table at steps along the way, drawn for the seat.
        let mut pictures = std::collections::BTreeSet::new();
        for e in events.iter().step_by(events.len() / 12 + 1) {
            let n = e["index"].as_u64().unwrap();
            let (status, svg) = s.call("GET", &format!("/api/replay/picture?save={file}&as={seat}&id={file}&event={n}"), None, Some(token));
            assert_eq!(status, 200, "{svg}");
            assert_nothing_hidden(&svg, &hidden, &allowed, &format!("{game}: the replay's picture as P{seat} at event {n}"));
            pictures.insert(svg);
        }
        assert!(pictures.len() > 3, "{game}: the table changes along the replay ({} different pictures)", pictures.len());
        // A `why` chain reads every card: not as one seat.
        let (status, why) = s.json("GET", &format!("/api/replay/why?save={file}&as={seat}&id={file}&event=0"), None, Some(token));
        assert_eq!(status, 403, "{why}");
    }
    checked
}

#[test]
fn each_seat_of_a_card_game_is_sent_its_own_view_and_nothing_hidden_from_it() {
    let checked = every_seat_keeps_its_secrets("bsg-ccg", 2, 11, 40);
    assert!(checked > 50, "there were hidden cards to keep ({checked} checks)");
}

#[test]
fn each_seat_of_the_board_game_is_sent_its_own_view_and_nothing_hidden_from_it() {
    let checked = every_seat_keeps_its_secrets("bsg-board", 3, 4, 120);
    assert!(checked > 50, "there were hidden cards to keep ({checked} checks)");
}

#[test]
fn each_seat_of_starcraft_is_sent_its_own_view_and_nothing_hidden_from_it() {
    let checked = every_seat_keeps_its_secrets("starcraft", 2, 3, 120);
    assert!(checked > 50, "there were hidden cards to keep ({checked} checks)");
}

#[test]
fn the_server_refuses_cleanly_and_the_game_goes_on() {
    let s = Server::start();
    let (table, tokens) = new_table(&s, "tic-tac-toe", &["human", "human"], 1);
    let (p1, p2) = (&tokens[0].1, &tokens[1].1);
    let seat1 = format!("/api/tables/{table}/seats/1");
    let error = |(status, v): (u16, Value)| (status, v["error"].as_str().unwrap_or_else(|| panic!("an error message: {v}")).to_string());

    // Another seat's view: refused without the seat's secret, with another seat's, for no seat.
    let (status, msg) = error(s.json("GET", &seat1, None, None));
    assert_eq!(status, 403, "{msg}");
    let (status, msg) = error(s.json("GET", &seat1, None, Some(p2)));
    assert_eq!(status, 403);
    assert!(msg.contains("only its own view"), "{msg}");
    let (status, msg) = error(s.json("GET", &format!("/api/tables/{table}/seats/3"), None, Some(p1)));
    assert_eq!((status, msg.as_str()), (404, format!("game {table} has no seat 3: its seats are 1 to 2").as_str()));
    assert_eq!(s.json("GET", &format!("/api/tables/{table}/seats/0"), None, Some(p1)).0, 404);
    assert_eq!(s.json("GET", "/api/tables/999/seats/1", None, Some(p1)).0, 404);
    // Paths that name no seat, and requests made the wrong way: refused as JSON too.
    for path in
        [format!("/api/tables/{table}/seats/-1"), format!("/api/tables/{table}/seats/999999999999"), "/api/tables/abc/seats/1".into()]
    {
        let (status, msg) = error(s.json("GET", &path, None, Some(p1)));
        assert_eq!(status, 404, "{path}: {msg}");
        assert!(msg.starts_with("no such game or seat"), "{msg}");
    }
    let (status, msg) = error(s.json("GET", "/api/tables", None, None));
    assert_eq!(status, 405, "{msg}");
    // The scheme of the secret is read in any case.
    let (status, _) = s.call("GET", &seat1, None, None);
    assert_eq!(status, 403);
    let mut resp = s.agent.get(&format!("{}{seat1}", s.url)).header("Authorization", &format!("bearer {p1}")).call().unwrap();
    assert_eq!(resp.status().as_u16(), 200, "{}", resp.body_mut().read_to_string().unwrap());

    // Malformed answers, an illegal one, an answer out of turn: refused, nothing changes.
    let (_, before) = s.json("GET", &seat1, None, Some(p1));
    for bad in ["not json", r#"{"picks":"x"}"#, r#"{"picks":[0],"more":1}"#, "{}"] {
        let (status, body) = s.call("POST", &format!("{seat1}/answer"), Some(bad), Some(p1));
        assert_eq!(status, 400, "`{bad}`: {body}");
    }
    let (status, msg) = error(s.json("POST", &format!("{seat1}/answer"), Some(json!({ "picks": [99] })), Some(p1)));
    assert_eq!(status, 422, "{msg}");
    assert_eq!(msg, "refused: there is no option 99: the options are numbered 0 to 8", "the options counted as the API counts them");
    let (status, msg) = error(s.json("POST", &format!("/api/tables/{table}/seats/2/answer"), Some(json!({ "picks": [0] })), Some(p2)));
    assert_eq!(status, 422);
    assert!(msg.contains("P1's decision"), "{msg}");
    assert_eq!(s.json("GET", &seat1, None, Some(p1)).1, before, "the refusals changed nothing");
    let (status, after) = s.json("POST", &format!("{seat1}/answer"), Some(json!({ "picks": [0] })), Some(p1));
    assert_eq!(status, 200, "a legal answer is still taken");
    assert_eq!(after["waiting_for"], json!(2));

    // Another site's page: a form posted as text, or a request under another host name.
    let url = format!("{}/api/tables", s.url);
    let mut resp =
        s.agent.post(&url).header("Content-Type", "text/plain").send(r#"{"game":"tic-tac-toe","seats":["human","human"]}"#).unwrap();
    assert_eq!(resp.status().as_u16(), 415, "{}", resp.body_mut().read_to_string().unwrap());
    let mut resp = s.agent.get(&format!("{}/api/games", s.url)).header("Host", "evil.example").call().unwrap();
    assert_eq!(resp.status().as_u16(), 403, "{}", resp.body_mut().read_to_string().unwrap());

    // Oversized requests, unknown paths and games, wrong setups.
    let huge = format!(r#"{{"game":"tic-tac-toe","seats":["human","human"],"variants":["{}"]}}"#, "x".repeat(100_000));
    let (status, body) = s.call("POST", "/api/tables", Some(&huge), None);
    assert_eq!(status, 413, "{body}");
    for path in ["/etc/passwd", "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/api/tables/1/../../../Cargo.toml"] {
        let (status, body) = s.call("GET", path, None, None);
        assert_eq!(status, 404, "{path}: {body}");
        assert!(!body.contains("root:") && !body.contains("[package]"), "{path} served a file");
    }
    let (status, msg) = error(s.json("POST", "/api/tables", Some(json!({ "game": "chess", "seats": ["human", "human"] })), None));
    assert_eq!((status, msg.as_str()), (404, "no game `chess` here"));
    let (status, msg) = error(s.json("POST", "/api/tables", Some(json!({ "game": "tic-tac-toe", "seats": ["human", "wizard"] })), None));
    assert_eq!(status, 400);
    assert!(msg.contains("`wizard` is not a kind of player"), "{msg}");
    let (status, msg) = error(s.json("POST", "/api/tables", Some(json!({ "game": "tic-tac-toe", "seats": ["human"] })), None));
    assert_eq!(status, 400);
    assert!(msg.contains("is for 2 players, not 1"), "{msg}");
}

#[test]
fn a_scenario_is_replayed_with_each_events_rule_citation_and_causes() {
    let s = Server::start();
    let (status, files) = s.json("GET", "/api/scenarios", None, None);
    assert_eq!(status, 200);
    let file = "tests/rulings/tic-tac-toe/rules.arb";
    assert!(files.as_array().unwrap().iter().any(|f| f == file), "{files}");
    let (status, replays) = s.json("GET", &format!("/api/replay?file={file}"), None, None);
    assert_eq!(status, 200, "{replays}");
    let diagonal = replays.as_array().unwrap().iter().find(|r| r["id"] == "ttt-diagonal").expect("the diagonal ruling");
    assert_eq!(diagonal["passed"], json!(true));
    let events = diagonal["events"].as_array().unwrap();
    let win = events.iter().find(|e| e["text"].as_str().unwrap().starts_with("game over")).expect("the win");
    assert_eq!(win["cite"], json!("L5-6"), "{win}");
    assert_eq!(win["section"], json!("rules.txt — Tic-tac-toe: winning, or a draw"));
    assert!(win["at"].as_str().unwrap().starts_with("rulebooks/tic-tac-toe/game.arb:"));
    assert!(diagonal["picture"].as_str().unwrap().starts_with("<svg"), "tic-tac-toe draws its board");
    let n = win["index"].as_u64().unwrap();
    let (status, why) = s.json("GET", &format!("/api/replay/why?file={file}&id=ttt-diagonal&event={n}"), None, None);
    assert_eq!(status, 200, "{why}");
    let text = why["text"].as_str().unwrap();
    assert!(text.contains("turn.play") && text.contains("`three_in_a_row(p.symbol)` held"), "{text}");
    assert_eq!(why["why"]["chain"][0]["rule"], json!("turn.play"));
    assert_eq!(why["why"]["chain"][0]["cite"], json!("L2-6"), "the procedure's citation");

    // The picture at each step: no mark once the board is set up, the winning marks at the end.
    let (status, early) = s.call("GET", &format!("/api/replay/picture?file={file}&id=ttt-diagonal&event=0"), None, None);
    assert_eq!(status, 200);
    let (_, late) = s.call("GET", &format!("/api/replay/picture?file={file}&id=ttt-diagonal&event={n}"), None, None);
    assert!(early.starts_with("<svg") && marks_drawn(&early, "X") == 0, "{early}");
    assert_eq!(marks_drawn(&late, "X"), 3, "three X on the diagonal: {late}");

    // Files outside the project's folders, and things that are not scenario files, are refused.
    for bad in ["../Cargo.toml", "/etc/passwd", "tests/../Cargo.toml", "tests/web.rs", "Cargo.toml", "tests/nowhere.arb"] {
        let (status, v) = s.json("GET", &format!("/api/replay?file={bad}"), None, None);
        assert!(status == 403 || (bad == "tests/nowhere.arb" && status == 404), "{bad}: {status} {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    let (status, v) = s.json("GET", &format!("/api/replay/why?file={file}&id=ttt-diagonal&event=99999"), None, None);
    assert_eq!(status, 404, "{v}");
    let (status, v) = s.json("GET", &format!("/api/replay/picture?file={file}&id=ttt-diagonal&event=99999"), None, None);
    assert_eq!(status, 404, "a picture after the last event: {v}");
    // A picture that cannot be drawn is a rule error in the rulebook, not a missing thing.
    let (status, v) = s.json("GET", "/api/replay/picture?file=tests/untrusted/unbounded-objects.arb&id=cloning-vat&event=5", None, None);
    assert_eq!(status, 422, "{v}");
    let (status, _) = s.json("GET", &format!("/api/replay/why?file={file}&id=ttt-diagonal&event=x"), None, None);
    assert_eq!(status, 400);
    // A name that is not UTF-8, a seat asked of a scenario, no file: refused as JSON.
    let (status, v) = s.json("GET", "/api/replay?file=%FF", None, None);
    assert_eq!(status, 403, "{v}");
    assert!(v["error"].as_str().unwrap().contains("is not an .arb file inside the project's folders"), "{v}");
    for (query, said) in [
        (&format!("file={file}&as=1") as &str, "leave out `as`"),
        ("", "which file?"),
        (&format!("file={file}&save=x.json"), "which file?"),
    ] {
        let (status, v) = s.json("GET", &format!("/api/replay?{query}"), None, None);
        assert_eq!(status, 400, "{query}: {v}");
        assert!(v["error"].as_str().unwrap().contains(said), "{query}: {v}");
    }
}

/// A game played under the user's own rules (`serve --rules FILE`) is saved with them, and goes on
/// and replays with them.
#[test]
fn a_game_under_house_rules_is_saved_with_them() {
    let dir = std::env::temp_dir().join(format!("arbiter-web-house-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let s = Server::start_with(&["--saves", dir.to_str().unwrap(), "--rules", "tests/house-rules/tic-tac-toe/house.arb"]);
    let body = json!({ "game": "tic-tac-toe", "variants": ["diagonals-only"], "seats": ["human", "random"] });
    let (status, v) = s.json("POST", "/api/tables", Some(body), None);
    assert_eq!(status, 200, "{v}");
    let (table, token) = (v["table"].as_u64().unwrap(), v["seats"][0]["token"].as_str().unwrap().to_string());
    let (status, saved) = s.json("POST", &format!("/api/tables/{table}/seats/1/save"), None, Some(&token));
    assert_eq!(status, 200, "{saved}");
    let file = saved["file"].as_str().unwrap();
    let header: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(file)).unwrap()).unwrap();
    assert!(header["rules"][0].as_str().unwrap().ends_with("tests/house-rules/tic-tac-toe/house.arb"), "{}", header["rules"]);
    let (status, resumed) = s.json("POST", "/api/tables/resume", Some(json!({ "file": file })), Some(&token));
    assert_eq!(status, 200, "{resumed}");
    let (status, replay) = s.json("GET", &format!("/api/replay?save={file}&as=1"), None, Some(&token));
    assert_eq!(status, 200, "{replay}");
    assert_eq!(replay[0]["passed"], json!(true), "{}", replay[0]["status"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_server_on_the_network_lists_resumes_and_replays_no_saves() {
    let s = Server::start_with(&["--host", "0.0.0.0"]);
    for (method, path, body) in [
        ("GET", "/api/saves", None),
        ("POST", "/api/tables/resume", Some(r#"{"file":"x.json"}"#)),
        ("GET", "/api/replay?save=x.json&as=1", None),
    ] {
        let (status, body) = s.call(method, path, body, None);
        assert_eq!(status, 403, "{path}: {body}");
        assert!(body.contains("a server on the network"), "{path}: {body}");
    }
    // It still serves games and scenario replays.
    assert_eq!(s.json("GET", "/api/replay?file=tests/rulings/tic-tac-toe/rules.arb", None, None).0, 200);
}

#[test]
fn a_game_is_saved_on_this_machine_and_goes_on_from_the_save() {
    let dir = std::env::temp_dir().join(format!("arbiter-web-saves-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let s = Server::start_with(&["--saves", dir.to_str().unwrap()]);
    let (table, tokens) = new_table(&s, "tic-tac-toe", &["human", "random"], 9);
    let token = &tokens[0].1;
    let (status, after) = s.json("POST", &format!("/api/tables/{table}/seats/1/answer"), Some(json!({ "picks": [4] })), Some(token));
    assert_eq!(status, 200, "{after}");
    // Saving needs the seat's secret, and the page is told only the file's name.
    assert_eq!(s.json("POST", &format!("/api/tables/{table}/seats/1/save"), None, None).0, 403);
    let (status, saved) = s.json("POST", &format!("/api/tables/{table}/seats/1/save"), None, Some(token));
    assert_eq!(status, 200, "{saved}");
    let file = saved["file"].as_str().unwrap().to_string();
    assert!(dir.join(&file).is_file(), "{file} is in the saves folder");
    assert!(!saved.to_string().contains("\"state\""), "the save's contents are not sent: {saved}");
    let (_, list) = s.json("GET", "/api/saves", None, Some(token));
    assert_eq!(list, json!([file]));

    // Resumed: a new game number, the same position and the same secret, and it goes on.
    let (status, resumed) = s.json("POST", "/api/tables/resume", Some(json!({ "file": file })), Some(token));
    assert_eq!(status, 200, "{resumed}");
    let (again, new_token) = (resumed["table"].as_u64().unwrap(), resumed["seats"][0]["token"].as_str().unwrap().to_string());
    assert_ne!(again, table);
    assert_eq!(&new_token, token, "a resumed game's seat is played with the secret it was saved with");
    let (_, view) = s.json("GET", &format!("/api/tables/{again}/seats/1"), None, Some(&new_token));
    assert_eq!(view["table"], after["table"], "the position as saved");
    assert_eq!(view["decision"], after["decision"]);
    let (status, _) = s.json("POST", &format!("/api/tables/{again}/seats/1/answer"), Some(json!({ "picks": [0] })), Some(&new_token));
    assert_eq!(status, 200);
    // Replayed from its start, as P1 sees it: P1's mark and the bot's, step by step.
    let (status, replay) = s.json("GET", &format!("/api/replay?save={file}&as=1"), None, Some(token));
    assert_eq!(status, 200, "{replay}");
    // Saved at a turn, not at a count of decisions (they count only the answers that had a
    // choice: two saves' counts would tell a seat which answers of the others were the only one).
    assert!(replay[0]["status"].as_str().unwrap().starts_with("saved at turn "), "{replay}");
    assert!(file.starts_with(&format!("tic-tac-toe-{table}-turn")), "{file}");
    let events = replay[0]["events"].as_array().unwrap();
    let marks: Vec<&str> = events.iter().map(|e| e["text"].as_str().unwrap()).filter(|t| t.contains(".mark: blank → ")).collect();
    assert_eq!(marks.len(), 2, "P1's mark and the bot's: {marks:?}");
    let picture_at = |n: &Value| s.call("GET", &format!("/api/replay/picture?save={file}&as=1&id={file}&event={n}"), None, Some(token)).1;
    let (first, last) = (picture_at(&events[0]["index"]), picture_at(&events[events.len() - 1]["index"]));
    assert_eq!((marks_drawn(&first, "X"), marks_drawn(&last, "X")), (0, 1), "the table before and after P1's mark");
    // A save edited by hand is not the game its answers lead to: the replay says where they part.
    let text = std::fs::read_to_string(dir.join(&file)).unwrap();
    let edit = |name: &str, change: &dyn Fn(&mut Value)| {
        let mut v: Value = serde_json::from_str(&text).unwrap();
        change(&mut v);
        std::fs::write(dir.join(name), serde_json::to_string(&v).unwrap()).unwrap();
        let (status, r) = s.json("GET", &format!("/api/replay?save={name}&as=1"), None, Some(token));
        assert_eq!(status, 200, "{r}");
        assert_eq!(r[0]["passed"], json!(false), "{name}: {}", r[0]["status"]);
        r[0]["failures"][0].as_str().unwrap().to_string()
    };
    let cut = edit("cut.json", &|v| {
        let log = v["state"]["log"].as_array_mut().unwrap();
        log.truncate(log.len() - 3);
    });
    assert!(cut.contains("the save was cut short"), "{cut}");
    let turns = edit("turns.json", &|v| v["state"]["turns"] = json!(7));
    assert!(turns.contains("its state is not where they lead") && turns.contains("turns"), "{turns}");
    // P1's answer changed to another square: the replay follows it, and parts at the next event.
    let (mut answered, mut at) = (String::new(), 0);
    let moved = edit("moved.json", &|v| {
        let log = v["state"]["log"].as_array_mut().unwrap();
        let i =
            log.iter().position(|e| e["kind"]["Answered"]["seat"] == json!(0) && e["kind"]["Answered"]["forced"] == json!(false)).unwrap();
        log[i]["kind"]["Answered"]["labels"] = json!(["top left"]);
    });
    let mut v: Value = serde_json::from_str(&text).unwrap();
    for (i, e) in v["state"]["log"].as_array_mut().unwrap().iter().enumerate() {
        if e["kind"]["Answered"]["seat"] == json!(0) && answered.is_empty() && e["kind"]["Answered"]["forced"] == json!(false) {
            answered = e["kind"]["Answered"]["labels"][0].as_str().unwrap().to_string();
            at = i + 1;
        }
    }
    assert_ne!(answered, "top left", "P1 answered another square than the edit's");
    // Where it parts, not what: the events as written name hidden cards, and a replay is shown
    // to seats (they go to the server's console).
    assert!(moved.contains(&format!("at event {at}:")) && moved.contains("is not the save's"), "{moved}");
    assert!(!moved.contains(".mark:"), "{moved}");
    assert!(!moved.contains("older Arbiter"), "a save of this engine parts for its edit alone: {moved}");
    // The same edit in a save made before the engine numbered how it plays seeded games: the
    // replay says that an older Arbiter made it (such saves part where it played otherwise).
    let old = edit("old.json", &|v| {
        v.as_object_mut().unwrap().remove("plays").expect("a save says how its engine plays");
        let log = v["state"]["log"].as_array_mut().unwrap();
        let i =
            log.iter().position(|e| e["kind"]["Answered"]["seat"] == json!(0) && e["kind"]["Answered"]["forced"] == json!(false)).unwrap();
        log[i]["kind"]["Answered"]["labels"] = json!(["top left"]);
    });
    assert!(old.contains(&format!("at event {at}:")) && old.contains("made by an older Arbiter"), "{old}");
    // The CLI goes on with the same file.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["resume"])
        .arg(dir.join(&file))
        .current_dir(root())
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("resumed from"), "{}", String::from_utf8_lossy(&out.stderr));

    // Names that are not a save in the folder are refused.
    for bad in ["../Cargo.toml", "/etc/passwd", "x/../../y.json", "nothing.json", ".hidden.json", "a.txt"] {
        let (status, v) = s.json("POST", "/api/tables/resume", Some(json!({ "file": bad })), Some(token));
        assert!(status == 403 || (bad == "nothing.json" && status == 404), "{bad}: {status} {v}");
        assert!(v["error"].is_string());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game started without a seed gets a random one: two such games deal differently, and no seat
/// is told the seed (it fixes every shuffle, so it would tell the hidden cards).
#[test]
fn a_game_without_a_seed_is_dealt_at_random_and_the_seed_is_never_sent() {
    let s = Server::start();
    let hand = |table: u64, token: &str| {
        let (status, v) = s.json("GET", &format!("/api/tables/{table}/seats/1"), None, Some(token));
        assert_eq!(status, 200, "{v}");
        assert!(!v.to_string().contains("seed"), "the seed is not sent: {v}");
        v["table"]["players"][0]["zones"].clone()
    };
    let (status, first) = s.json("POST", "/api/tables", Some(json!({ "game": "bsg-ccg", "seats": ["human", "random"] })), None);
    assert_eq!(status, 200, "{first}");
    assert!(!first.to_string().contains("seed"), "{first}");
    let (_, second) = s.json("POST", "/api/tables", Some(json!({ "game": "bsg-ccg", "seats": ["human", "random"] })), None);
    let (a, b) = (
        hand(first["table"].as_u64().unwrap(), first["seats"][0]["token"].as_str().unwrap()),
        hand(second["table"].as_u64().unwrap(), second["seats"][0]["token"].as_str().unwrap()),
    );
    assert_ne!(a, b, "two games without a seed are dealt differently");
}

/// A full server (64 games) lets go of a finished game first, else of the game left longest: a
/// game still being played is kept while it is asked about.
#[test]
fn a_full_server_lets_go_of_finished_games_then_the_longest_left() {
    let s = Server::start();
    let view =
        |(table, tokens): &(u64, Vec<(u64, String)>)| s.json("GET", &format!("/api/tables/{table}/seats/1"), None, Some(&tokens[0].1)).0;
    let played = new_table(&s, "tic-tac-toe", &["human", "random"], 1);
    let left = new_table(&s, "tic-tac-toe", &["human", "random"], 2);
    // A game played to its end.
    let ended = new_table(&s, "tic-tac-toe", &["human", "random"], 3);
    play_to_end(&s, &ended);
    let mut others = Vec::new();
    for seed in 0..61 {
        others.push(new_table(&s, "tic-tac-toe", &["human", "random"], 10 + seed));
        assert_eq!(view(&played), 200, "the game being played is kept");
    }
    // The 65th game: the finished one goes, though `left` was left longer.
    let newest = new_table(&s, "tic-tac-toe", &["human", "random"], 99);
    assert_eq!((view(&left), view(&played), view(&newest)), (200, 200, 200), "a finished game goes first");
    // The 66th: nothing is over, so the game left longest goes (`left` was just asked about).
    new_table(&s, "tic-tac-toe", &["human", "random"], 100);
    assert_eq!(view(&others[0]), 404, "the game nobody asked about since it started is let go");
    assert_eq!((view(&left), view(&played), view(&others[1])), (200, 200, 200));
}

/// The saves folder is bounded: a server writes no more once it holds 1000 saves (on the network,
/// it could otherwise be made to fill a disk); and `--saves` must name a folder.
#[test]
fn saves_are_bounded_and_kept_in_a_folder() {
    let dir = std::env::temp_dir().join(format!("arbiter-web-full-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for k in 0..1000 {
        std::fs::write(dir.join(format!("old-{k}.json")), "{}").unwrap();
    }
    let s = Server::start_with(&["--saves", dir.to_str().unwrap()]);
    let (table, tokens) = new_table(&s, "tic-tac-toe", &["human", "random"], 1);
    let (status, v) = s.json("POST", &format!("/api/tables/{table}/seats/1/save"), None, Some(&tokens[0].1));
    assert_eq!(status, 507, "{v}");
    assert!(v["error"].as_str().unwrap().contains("delete some"), "{v}");
    std::fs::remove_file(dir.join("old-0.json")).unwrap();
    let (status, v) = s.json("POST", &format!("/api/tables/{table}/seats/1/save"), None, Some(&tokens[0].1));
    assert_eq!(status, 200, "one fewer, and the game is saved: {v}");
    // A file given as the saves folder is refused as the server starts.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--port", "0", "--saves"])
        .arg(dir.join("old-1.json"))
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a folder"), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A table that cannot be started is a diagnostic, with the message the API sends.
#[test]
fn a_table_that_cannot_start_is_a_diagnostic_with_its_message_and_help() {
    use arbiter::syntax::diag::Diag;
    use arbiter::web::TableError;
    let project = Project::find(&root());
    let Err(e) = Table::start(&project, "tic-tac-toe", &[], vec![SeatKind::Human; 3], 1) else { panic!("three seats at tic-tac-toe") };
    assert!(matches!(e, TableError::Players { players: 3, .. }), "{e:?}");
    let message = e.to_string();
    assert!(message.ends_with("is for 2 players, not 3"), "{message}");
    let d = Diag::from(e);
    assert_eq!(d.message, message);
    assert_eq!(d.help.as_deref(), Some("choose 2 seats"));
    let Err(e) = Table::start(&project, "tic-tac-toe", &["no-such-variant".to_string()], vec![SeatKind::Human; 2], 1) else {
        panic!("an unknown variant")
    };
    assert!(matches!(e, TableError::Rules { .. }), "{e:?}");
    assert!(e.to_string().starts_with("tic-tac-toe does not load: "), "{e}");
    let d = Diag::from(e);
    assert!(d.message.starts_with("tic-tac-toe does not load: "), "{}", d.message);
    assert!(d.help.is_some());
    let Err(e) = Table::start(&project, "tic-tac-toe", &[], vec![SeatKind::Human, SeatKind::Bot("clever".into())], 1) else {
        panic!("an unknown bot")
    };
    assert!(matches!(e, TableError::Bots(_)), "{e:?}");
    assert_eq!(
        e.to_string(),
        "unknown bot `clever`: the bots are `random`, `greedy` and `mcts` (or `mcts:PLAYOUTS`, `mcts:PLAYOUTS:DEPTH`)"
    );
    assert!(Diag::from(e).help.is_some_and(|h| h.contains("`--bots` takes")));
}

/// A server that cannot start, and a replay that cannot be given, are diagnostics.
#[test]
fn serving_and_replaying_errors_are_diagnostics_with_their_message_and_help() {
    use arbiter::syntax::diag::Diag;
    use arbiter::web::{ReplayError, ServeError};
    let file = std::env::temp_dir().join(format!("arbiter-web-saves-file-{}", std::process::id()));
    std::fs::write(&file, "not a folder").unwrap();
    let served = arbiter::web::serve(Project::find(&root()), "127.0.0.1", 0, file.clone(), Default::default(), |_| {});
    // A folder that cannot be made (beneath a file) is named, with what to do.
    let beneath = file.join("saves");
    let unusable = arbiter::web::serve(Project::find(&root()), "127.0.0.1", 0, beneath.clone(), Default::default(), |_| {});
    std::fs::remove_file(&file).unwrap();
    let Err(e) = unusable else { panic!("a folder beneath a file") };
    assert!(matches!(e, ServeError::SavesUnusable { .. }), "{e:?}");
    assert!(e.to_string().starts_with(&format!("cannot keep games in `{}`: ", beneath.display())), "{e}");
    assert!(Diag::from(e).help.is_some_and(|h| h.contains("--saves DIR")));
    let Err(e) = served else { panic!("a file for --saves") };
    assert!(matches!(e, ServeError::SavesNotAFolder(_)), "{e:?}");
    assert_eq!(e.to_string(), format!("`{}` is not a folder: `--saves` names the folder games are saved in", file.display()));
    let d = Diag::from(e);
    assert_eq!(d.message, format!("`{}` is not a folder", file.display()));
    assert_eq!(d.help.as_deref(), Some("`--saves` names the folder games are saved in"));
    let refused = arbiter::save::parse("", "empty.json").err().unwrap();
    let e = ReplayError::from(refused.clone());
    assert_eq!(e.to_string(), refused.to_string());
    assert_eq!(Diag::from(e), Diag::from(refused));
}
