//! The web table under load, on this machine (loopback): 20 clients ask for the largest search
//! bots a table runs while 20 others play tic-tac-toe against the random bot. The searching bots
//! think on their own few threads, so every answer of the players is taken at once; once the 20
//! have gone (half close their tables, half just stop asking), the bots stop and the server's
//! cores go quiet.
//!
//! The figures (answers taken, their times: median, 95th percentile, longest) are printed, not
//! judged: a time is no pass or fail here. What is judged is that every answer was taken, every
//! player's games went on to their ends, no answer hung (an answer slower than `HUNG` is a hang,
//! not a slow machine), and the bots stopped: `--nocapture` shows the figures.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use common::serve::Server;
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the load lasts.
const LOAD: Duration = Duration::from_secs(8);
/// An answer this slow is a hang.
const HUNG: Duration = Duration::from_secs(15);

/// One player: tic-tac-toe games against the random bot, one after another, until `until`. Each
/// answer's time, and how many games ended.
fn player(s: &Server, seed: u64, until: Instant) -> (Vec<Duration>, usize) {
    let (mut times, mut ended) = (Vec::new(), 0);
    let mut game = 0;
    while Instant::now() < until {
        game += 1;
        let (status, v) = s.json(
            "POST",
            "/api/tables",
            Some(json!({ "game": "tic-tac-toe", "seats": ["human", "random"], "seed": seed * 1000 + game })),
            None,
        );
        assert_eq!(status, 200, "{v}");
        let (table, token) = (v["table"].as_u64().unwrap(), v["seats"][0]["token"].as_str().unwrap().to_string());
        let path = format!("/api/tables/{table}/seats/1");
        let (_, mut view) = s.json("GET", &path, None, Some(&token));
        while view["result"].is_null() {
            let asked = Instant::now();
            let (status, next) = s.json("POST", &format!("{path}/answer"), Some(json!({ "picks": [0] })), Some(&token));
            times.push(asked.elapsed());
            assert_eq!(status, 200, "{next}");
            view = next;
        }
        ended += 1;
    }
    (times, ended)
}

/// The server process's CPU time so far, in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // After the command's name in brackets: state, then 10 fields, then utime and stime.
    let rest = stat.rsplit_once(')').unwrap().1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[test]
fn players_are_answered_at_once_while_the_largest_bots_think() {
    let s = Arc::new(Server::start_with(&["--think", "5", "--bot-idle", "2"]));
    let until = Instant::now() + LOAD;
    // The 20 who ask for the largest bots: each a card game whose first decision is the bot's.
    let mut searchers = Vec::new();
    for k in 0..20u64 {
        let s = s.clone();
        searchers.push(std::thread::spawn(move || {
            let body = json!({ "game": "bsg-ccg", "seats": ["mcts:5000:200", "human"], "seed": k });
            let (status, v) = s.json("POST", "/api/tables", Some(body), None);
            assert_eq!(status, 200, "{v}");
            let (table, token) = (v["table"].as_u64().unwrap(), v["seats"][0]["token"].as_str().unwrap().to_string());
            let path = format!("/api/tables/{table}/seats/2");
            while Instant::now() < until {
                let (status, _) = s.json("GET", &path, None, Some(&token));
                assert_eq!(status, 200);
                std::thread::sleep(Duration::from_millis(300));
            }
            // Half close their tables; half just go.
            if k % 2 == 0 {
                assert_eq!(s.json("DELETE", &path, None, Some(&token)).0, 200);
            }
        }));
    }
    let players: Vec<_> = (0..20u64)
        .map(|k| {
            let s = s.clone();
            std::thread::spawn(move || player(&s, k, until))
        })
        .collect();
    let mut times: Vec<Duration> = Vec::new();
    let mut games = 0;
    for p in players {
        let (t, ended) = p.join().unwrap();
        assert!(ended > 0, "every player's games went on to their ends");
        times.extend(t);
        games += ended;
    }
    for t in searchers {
        t.join().unwrap();
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    eprintln!(
        "web load ({cores} cores): 20 tables of mcts:5000:200 bots; 20 players took {games} games, {} answers: median {:?}, 95th percentile {:?}, longest {:?}",
        times.len(),
        at(0.5),
        at(0.95),
        at(1.0)
    );
    assert!(at(1.0) < HUNG, "an answer hung: {:?}", at(1.0));
    // Gone: the bots stop (the closed tables at once, the left ones after `--bot-idle`), and the
    // server's cores go quiet.
    let quiet = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(100));
        let st = s.json("GET", "/api/status", None, None).1;
        st["bots_thinking"] == json!(0) && st["bots_waiting"] == json!(0)
    });
    assert!(quiet, "the bots went on thinking after their players had gone");
    let ticks_per_second: u64 = std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(100);
    let idle_second = (0..10).any(|_| {
        let before = cpu_ticks(s.pid());
        std::thread::sleep(Duration::from_secs(1));
        cpu_ticks(s.pid()) - before < ticks_per_second / 5
    });
    assert!(idle_second, "the server kept a core busy after every client had gone");
}
