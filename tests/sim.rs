//! `arbiter sim` (issue 14): its statistics against games whose answer is known, and its totals the
//! same whatever the threads or shards.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use arbiter::sim::stats::{difference, wilson};
use arbiter::sim::{self, Piece, Run, Table, Tally, kind_of};

/// A coin flipped with a die of `sides`: P1 wins on `1..=p1`, else P2.
fn coin(sides: u32, p1: u32) -> String {
    format!(
        r#"
game coin {{
  title "A coin"
  players 2
  setup setup.game
  turn turn.play
}}

proc setup.game() {{
}}

proc turn.play() {{
  let r = roll {sides}
  if r <= {p1} {{
    win first(players()) "heads: {{r}} of {sides}"
  }} else {{
    win last(players()) "tails: {{r}} of {sides}"
  }}
}}
"#
    )
}

fn play(text: &str, games: u64, threads: usize) -> Tally {
    let built = common::game_text("coin.arb", text);
    let table =
        Table { game: &built.game, decklists: vec![Default::default(); 2], cards_of: vec![], bots: Default::default(), think: None };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| sim::play_range(&table, 2, 1, 0..games, &|| {}))
}

#[test]
fn a_fair_coin_is_found_fair_and_a_rigged_one_rigged() {
    let fair = play(&coin(2, 1), 2000, 2);
    let rigged = play(&coin(10, 7), 2000, 2);
    assert_eq!((fair.games, fair.finished(), rigged.finished()), (2000, 2000, 2000));
    let f = wilson(fair.seat_wins[0], fair.finished());
    let r = wilson(rigged.seat_wins[0], rigged.finished());
    assert!(f.low < 0.5 && 0.5 < f.high, "a fair coin's interval holds 1/2: {f:?}");
    assert!(r.low < 0.7 && 0.7 < r.high && r.low > 0.5, "the rigged coin's interval holds 7/10 and not 1/2: {r:?}");
    assert_eq!(fair.seat_wins[0] + fair.seat_wins[1], 2000, "every game has one winner");
    let d = difference(f, r);
    assert!(d.significant() && d.low > 0.0, "the rigging is found: {d:?}");
    // Endings are counted by kind, whatever number the roll showed.
    assert_eq!(fair.outcomes.keys().collect::<Vec<_>>(), ["heads: {r} of 2", "tails: {r} of 2"]);
    // Two fair coins are not told apart.
    let again = play(&coin(2, 1), 2000, 1);
    assert_eq!(again, fair, "the same seeds give the same games on one thread as on two");
}

/// A template from text with `{..}` holes, as a statement writes it.
fn template(text: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        let j = rest.find('}').unwrap();
        out.push(Piece::Text(rest[..i].to_string()));
        out.push(Piece::Hole(rest[i..=j].to_string()));
        rest = &rest[j + 1..];
    }
    out.push(Piece::Text(rest.to_string()));
    out
}

#[test]
fn endings_are_told_by_kind() {
    let kind = |t: &str, reason: &str| kind_of(&template(t), reason);
    assert_eq!(kind("reached 20 influence", "reached 20 influence"), "reached 20 influence");
    assert_eq!(kind("normal victory: {n} conquest points", "normal victory: 17 conquest points"), "normal victory: {n} conquest points");
    assert_eq!(kind("the Cylons win: {why}", "the Cylons win: Galactica was destroyed"), "the Cylons win: Galactica was destroyed");
    assert_eq!(kind("{kind}", "end-game victory: 12 conquest points"), "end-game victory: {n} conquest points");
    assert_eq!(kind("{kind}", "special victory: Aldaris"), "special victory: Aldaris");
    // A reason that does not follow its statement's text: the text.
    assert_eq!(kind("heads {r}", "tails 3"), "heads {r}");
}

#[test]
fn shards_merge_into_exactly_the_whole_run() {
    let b = common::load("tic-tac-toe", &[]);
    let table = Table { game: &b.game, decklists: vec![Default::default(); 2], cards_of: vec![], bots: Default::default(), think: None };
    let whole_tally = sim::play_range(&table, 2, 7, sim::shard_range(500, None), &|| {});
    let run = |shard: Option<[u64; 2]>, rule_sets: Vec<Tally>| Run {
        game: "tic-tac-toe".into(),
        players: 2,
        seed: 7,
        games: 500,
        bots: "random".into(),
        decks: vec![],
        shard,
        rule_sets,
    };
    let whole = run(None, vec![whole_tally]);
    let shards: Vec<Run> = (1..=4)
        .map(|k| {
            let range = sim::shard_range(500, Some([k, 4]));
            run(Some([k, 4]), vec![sim::play_range(&table, 2, 7, range, &|| {})])
        })
        .collect();
    assert_eq!(shards.iter().map(|s| s.rule_sets[0].games).sum::<u64>(), 500);
    // In any order of the files.
    let mut shuffled = shards.clone();
    shuffled.reverse();
    let merged = sim::merge(&shuffled).unwrap();
    let json = |r: &Run| serde_json::to_string_pretty(r).unwrap();
    assert_eq!(json(&merged), json(&whole), "four shards merged are the whole run, byte for byte");
    // A missing or doubled shard is refused.
    assert!(sim::merge(&shards[..3]).unwrap_err().to_string().contains("shard 4 of 4 is missing"));
    let doubled = [shards[0].clone(), shards[0].clone(), shards[2].clone(), shards[3].clone()];
    assert!(sim::merge(&doubled).unwrap_err().to_string().contains("given twice"));
    // Each refusal is a diagnostic, with what to do.
    let d = arbiter::syntax::diag::Diag::from(sim::merge(&doubled).unwrap_err());
    assert_eq!(d.message, "shard 1 of 4 is given twice");
    assert_eq!(d.help.as_deref(), Some("give each shard once"));
    let d = arbiter::syntax::diag::Diag::from(sim::merge(&[]).unwrap_err());
    assert_eq!(d.message, "no shards to merge");
    assert!(d.help.is_some_and(|h| h.contains("arbiter sim merge")));
}

#[test]
fn the_command_line_merges_shards_into_the_same_json() {
    let dir = std::env::temp_dir().join(format!("arbiter-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let arbiter = env!("CARGO_BIN_EXE_arbiter");
    let sim = |extra: &[&str]| {
        let out = std::process::Command::new(arbiter)
            .args(["sim", "connect-four", "--games", "120", "--seed", "3"])
            .args(extra)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let whole = dir.join("whole.json");
    let chart = dir.join("chart.svg");
    let text = sim(&["--jobs", "2", "--json", whole.to_str().unwrap(), "--svg", chart.to_str().unwrap()]);
    assert!(text.contains("P1 wins") && text.contains("four in a line"), "{text}");
    let svg = std::fs::read_to_string(&chart).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>") && svg.contains("P2 wins") && svg.contains("game length in turns")
    );
    let mut parts = Vec::new();
    for k in 1..=3 {
        let p = dir.join(format!("part-{k}.json"));
        sim(&["--shard", &format!("{k}/3"), "--jobs", "1", "--json", p.to_str().unwrap()]);
        parts.push(p);
    }
    let merged = dir.join("merged.json");
    let out = std::process::Command::new(arbiter)
        .args(["sim", "merge"])
        .args(&parts)
        .args(["--json", merged.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), std::fs::read_to_string(&whole).unwrap());
    let bad = std::process::Command::new(arbiter).args(["sim", "connect-four", "--shard", "4/3"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("write it as K/N"));
    let none = std::process::Command::new(arbiter).args(["sim", "connect-four", "--games", "0"]).output().unwrap();
    assert_eq!(none.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn played_in_names_zones_and_a_typo_gets_a_suggestion() {
    let text = r#"
game typo {
  title "A typo"
  players 2
  setup setup.game
  turn turn.play
  played_in alret
}

kind card {
  field n: int = 0
}

zone alert per player public holds card

proc setup.game() {
}

proc turn.play() {
  end draw "done"
}
"#;
    let Err(diags) = common::compile_text("typo.arb", text) else { panic!("a typo in `played_in` checks") };
    let shown = format!("{diags:?}");
    assert!(shown.contains("unknown zone `alret`") && shown.contains("did you mean `alert`"), "{shown}");
    let fixed = text.replace("alret", "alert");
    assert_eq!(common::compile_text("typo.arb", &fixed).map(|b| b.game.played_in.len()).ok(), Some(1));
}

/// The coin with a side for each face's player, and bots that look ahead (nothing to choose, so
/// they answer at once): each side's wins are counted and drawn.
#[test]
fn sides_are_counted_and_drawn() {
    let text = format!(
        "{}\nside callers(p: player) = p == first(players()) sample \"who calls heads\"\nside others(p: player) = p != first(players()) sample \"the rest\"\n",
        coin(4, 3)
    );
    let built = common::game_text("coin.arb", &text);
    let bots = arbiter::agents::BotPlan::parse(&["callers=mcts:20".to_string(), "greedy".to_string()], &built.game, 2).unwrap();
    let table = Table { game: &built.game, decklists: vec![Default::default(); 2], cards_of: vec![], bots, think: None };
    let mut t = sim::play_range(&table, 2, 1, 0..400, &|| {});
    assert_eq!(t.side_wins["callers"], t.seat_wins[0]);
    assert_eq!(t.side_wins["others"], t.seat_wins[1]);
    let p = wilson(t.side_wins["callers"], t.finished());
    assert!(p.low < 0.75 && 0.75 < p.high, "heads come up three times in four: {p:?}");
    t.variants = vec![];
    let run = Run {
        game: "coin".into(),
        players: 2,
        seed: 1,
        games: 400,
        bots: table.bots.describe(),
        decks: vec![],
        shard: None,
        rule_sets: vec![t],
    };
    let chart = sim::svg::chart(&run);
    assert!(chart.contains("callers win") && chart.contains("others win"), "{chart}");
    assert!(sim::report::text(&run).contains("side callers wins 7"), "{}", sim::report::text(&run));
}

/// Games between lookahead bots are the same on one thread or two: each game's bots draw on the
/// game's seed, its seats and what they see, never on the thread.
#[test]
fn bots_play_the_same_games_on_any_number_of_threads() {
    let b = common::load("connect-four", &[]);
    let bots = arbiter::agents::BotPlan::parse(&["1=mcts:30".to_string(), "2=greedy".to_string()], &b.game, 2).unwrap();
    let table = Table { game: &b.game, decklists: vec![Default::default(); 2], cards_of: vec![], bots, think: None };
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| sim::play_range(&table, 2, 5, 0..6, &|| {}))
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(one, two);
    assert_eq!(one.finished(), 6);
}

/// A hint that fails while a bot plays stops the game with the error, naming the hint and where
/// it is written; it is not taken as a score of 0.
#[test]
fn a_failing_hint_stops_the_game_and_says_which() {
    let text = r#"
game pick {
  title "Pick"
  players 2
  setup setup.game
  turn turn.play
}

proc setup.game() {
}

proc turn.play() {
  let n = choose first(players()) "Pick a number" from [1, 2]
  let m = choose last(players()) "Pick another" from [1, 2]
  win first(players()) "picked {n} and {m}"
}

hint broken(p: player) = 1 / (count(players()) - 2) sample "broken on purpose"
"#;
    let built = common::game_text("pick.arb", text);
    for bot in ["greedy", "mcts:10"] {
        let bots = arbiter::agents::BotPlan::parse(&[bot.to_string()], &built.game, 2).unwrap();
        let table = Table { game: &built.game, decklists: vec![Default::default(); 2], cards_of: vec![], bots, think: None };
        let t = sim::play_range(&table, 2, 1, 0..3, &|| {});
        assert_eq!(t.finished(), 0, "{bot}");
        let (e, n) = t.errors.iter().next().unwrap();
        assert_eq!(*n, 3);
        assert!(e.contains("a bot stopped") && e.contains("hint `broken`") && e.contains("pick.arb:"), "{bot}: {e}");
    }
}

/// A side whose condition fails is reported, naming the side, where the tally asks it at the end
/// of a game; it is not taken as "not on the side".
#[test]
fn a_failing_side_is_reported() {
    let text = format!("{}\nside broken(p: player) = 1 / (count(players()) - 2) == 1 sample \"broken on purpose\"\n", coin(2, 1));
    let built = common::game_text("coin.arb", &text);
    let table =
        Table { game: &built.game, decklists: vec![Default::default(); 2], cards_of: vec![], bots: Default::default(), think: None };
    let t = sim::play_range(&table, 2, 1, 0..4, &|| {});
    let (e, n) = t.errors.iter().next().unwrap();
    assert_eq!(*n, 4);
    assert!(e.contains("telling the sides stopped") && e.contains("side `broken`") && e.contains("coin.arb:"), "{e}");
}

/// Every game's endings are shown filled in (issue 30): a constant as its value (`reached 20
/// influence`), a number that varies as the range it took (`12–19 conquest points`); no `{..}`
/// of a statement's template is left in the report, for any of the six games.
#[test]
fn every_games_endings_are_filled_in() {
    let arbiter = env!("CARGO_BIN_EXE_arbiter");
    for (game, games) in [
        ("tic-tac-toe", "60"),
        ("connect-four", "30"),
        ("bsg-ccg", "40"),
        ("starship-battles", "20"),
        ("starcraft", "16"),
        ("bsg-board", "6"),
    ] {
        let out = std::process::Command::new(arbiter).args(["sim", game, "--games", games, "--jobs", "2"]).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{game}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(text.contains("how games ended:") && text.contains("In short:"), "{game}: {text}");
        assert!(!text.contains('{'), "{game}: a template is left in the report:\n{text}");
    }
}

/// The report's sentences (issue 30): a rigged coin is called a first-player advantage, with its
/// interval, and a fair one no significant advantage; a varying number in an ending is shown as
/// the range it took.
#[test]
fn the_report_answers_in_sentences() {
    let run = |text: &str| Run {
        game: "coin".into(),
        players: 2,
        seed: 1,
        games: 2000,
        bots: "random bots".into(),
        decks: vec![],
        shard: None,
        rule_sets: vec![play(text, 2000, 2)],
    };
    let rigged = sim::report::text(&run(&coin(4, 3)));
    assert!(
        rigged.contains("P1 wins 7") && rigged.contains("against an even share of 50.0%: a first-player advantage, significant at 5%."),
        "{rigged}"
    );
    assert!(rigged.contains("a second-player disadvantage, significant at 5%."), "{rigged}");
    assert!(rigged.contains("heads: 1–3 of 4") && rigged.contains("tails: 4 of 4"), "endings filled in: {rigged}");
    let fair = sim::report::text(&run(&coin(2, 1)));
    assert!(fair.contains("against an even share of 50.0%: no significant advantage."), "{fair}");
    assert!(!rigged.contains('{') && !fair.contains('{'), "{rigged}\n{fair}");
}

/// A compared rule set under which every game went as under the first (the bots never meet what
/// it changes) is said to be so, not only "not significant" (a modder's trial compared a house
/// rule on fire damage that random bots never reach); one that changes games is not.
#[test]
fn a_rule_set_that_changes_no_game_is_said_to() {
    let dir = std::env::temp_dir().join(format!("arbiter-sim-alike-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let house = "for tic-tac-toe\n\nvariant unused \"A function no rule calls\" {\n  add func unused() = 1\n}\n\n\
                 variant diagonals \"Only the diagonals win\" {\n  replace const lines: list list int = [[0, 4, 8], [2, 4, 6]]\n}\n";
    std::fs::write(dir.join("house.arb"), house).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["sim", "tic-tac-toe", "--rules", "house.arb", "--games", "100", "--compare", "unused", "--compare", "diagonals"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("With unused: every game went as the rules as written went, seed for seed"), "{text}");
    assert!(!text.contains("With diagonals: every game went"), "{text}");
    assert!(text.contains("With diagonals, P1 wins"), "{text}");
}

/// From a designer's trial: a run whose games a rule error stopped fails (exit 1) and says so in
/// its summary instead of comparing empty figures; `--compare` sets that compare nothing, and
/// `--cards` for a game without deck lists, are refused rather than ignored.
#[test]
fn rule_errors_fail_the_run_and_empty_comparisons_are_refused() {
    let dir = std::env::temp_dir().join(format!("arbiter-sim-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rules = dir.join("endless.arb");
    std::fs::write(
        &rules,
        "for tic-tac-toe\n\nvariant endless \"a turn that never ends\" {\n  replace proc turn.play() {\n    while true {\n      let x = 1\n    }\n  }\n}\n",
    )
    .unwrap();
    let arbiter = |args: &[&str]| {
        let out =
            std::process::Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap();
        (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    };
    let (code, text) = arbiter(&["sim", "tic-tac-toe", "--rules", rules.to_str().unwrap(), "--compare", "endless", "--games", "3"]);
    assert_eq!(code, Some(1), "{text}");
    // Shards' results are written all the same, and merging them fails the same way.
    let mut parts = Vec::new();
    for k in ["1/2", "2/2"] {
        let json = dir.join(format!("part-{}.json", parts.len() + 1));
        let r = rules.to_str().unwrap();
        let (code, _) = arbiter(&[
            "sim",
            "tic-tac-toe",
            "--rules",
            r,
            "--variant",
            "endless",
            "--games",
            "4",
            "--shard",
            k,
            "--json",
            json.to_str().unwrap(),
        ]);
        assert_eq!(code, Some(1));
        parts.push(json.to_str().unwrap().to_string());
    }
    let (merged, merged_text) = arbiter(&["sim", "merge", &parts[0], &parts[1]]);
    assert_eq!(merged, Some(1), "{merged_text}");
    assert!(merged_text.contains("error: 4 games stopped by an error"), "{merged_text}");
    // Which games, to play one again (from a designer's trial: the report gave only a count).
    assert!(merged_text.contains("stopped by a rule error in 4 games (seeds 1, 2, 3, 4): step budget exceeded"), "{merged_text}");
    assert!(text.contains("in 3 games (seeds 1, 2, 3)") && text.contains("`arbiter play tic-tac-toe --seed S ..`"), "{text}");
    assert!(text.contains("With endless, 3 games stopped by an error (listed above): there is nothing to compare."), "{text}");
    assert!(!text.contains("endless against the rules as written"), "no comparison of empty figures: {text}");
    assert!(text.contains("error: 3 games stopped by an error"), "{text}");
    for (args, message) in [
        (&["sim", "tic-tac-toe", "--compare", ",", "--games", "2"][..], "`--compare ,` names no variant"),
        (
            &["sim", "bsg-ccg", "--variant", "sniper-like-type-only", "--compare", "sniper-like-type-only", "--games", "2"][..],
            "switches on `sniper-like-type-only` twice",
        ),
        (
            &["sim", "starcraft", "--cards", "--games", "2"][..],
            "`--cards` follows the cards of the seats' deck lists, and starcraft has no `deck`",
        ),
        (
            &["sim", "bsg-ccg", "--compare", "sniper-like-type-only", "first-player-random-tie", "--games", "2"][..],
            "repeat it: `--compare a --compare b`",
        ),
    ] {
        let (code, text) = arbiter(args);
        assert_eq!(code, Some(2), "{args:?}: {text}");
        assert!(text.contains(message), "{args:?}: {text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
