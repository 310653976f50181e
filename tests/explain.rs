//! `arbiter explain --why`: for three scenarios of each game, the chain of causes behind a stated
//! event is found, names each rule with where it is written and what it cites, and is snapshotted.
//! The JSON form carries the same chain.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use arbiter::check::project::Project;
use arbiter::runtime::view;
use arbiter::runtime::why::{Why, why, why_text};
use arbiter::scenario::run_file_with;
use std::path::Path;

/// The scenario file, the scenario, a text of the event to explain, and rules the chain must name.
const CASES: &[(&str, &str, &str, &[&str])] = &[
    ("bsg-ccg/CCG-04.arb", "CCG-04", "P2 reveals Raptor as a Cylon threat", &["cylon.resolve_threats", "cylon.phase"]),
    ("bsg-ccg/CCG-10.arb", "CCG-10", "P2 loses 2 influence", &["challenge"]),
    ("bsg-ccg/CCG-07.arb", "CCG-07", "P1 resolves Joint Briefing", &["mission"]),
    (
        "bsg-board/BSG-10.arb",
        "BSG-10",
        "Consolidate Power (1) moved from politics_deck to P1.hand",
        &["turn.multi_skill", "turn.receive_skills"],
    ),
    ("bsg-board/BSG-20.arb", "BSG-20", "the fleet prepares to jump", &["crisis"]),
    ("bsg-board/BSG-30.arb", "BSG-30", "P1 activates Communications", &[]),
    ("starcraft/SC-24.arb", "SC-24", "Zergling of P2 is destroyed", &["unit.destroy", "skirmish.destroy"]),
    ("starcraft/SC-10.arb", "SC-10", "P1 builds Zealot", &["build"]),
    ("starcraft/SC-30.arb", "SC-30-b", "Zergling Swarm moved from skirmish_cards to P2.discard", &[]),
    ("starship-battles/SB-08.arb", "SB-08-c", "ship_eliminated(Cylon Raider)", &["ship.eliminate", "fire.all"]),
    ("starship-battles/SB-05.arb", "SB-05", "Viper Mk. II's plan is illegal", &["move"]),
    ("starship-battles/SB-12.arb", "SB-12", "Cylon Raider stands still", &[]),
];

fn explain(file: &str, id: &str, text: &str) -> Why {
    let project = Project::at(Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf());
    let path = project.root.join("tests/examples").join(file);
    let outcomes = run_file_with(&project, &path, &[]).unwrap_or_else(|e| panic!("{file}: {e}"));
    let fo = outcomes.iter().find(|o| o.outcome.id == id).unwrap_or_else(|| panic!("no scenario {id} in {file}"));
    assert!(fo.outcome.passed(), "{id} fails");
    let st = &fo.outcome.state;
    let index = st
        .log
        .iter()
        .enumerate()
        .rev()
        .find(|(_, e)| view::event_text(&fo.game, st, e, None).contains(text))
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("{id}: no event containing `{text}`"));
    why(&fo.game, st, &fo.outcome.tracing, index).unwrap_or_else(|| panic!("{id}: no tracing record"))
}

/// `arbiter ARGS` in the repository: its exit code, output and errors.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out =
        std::process::Command::new(env!("CARGO_BIN_EXE_arbiter")).current_dir(env!("CARGO_MANIFEST_DIR")).args(args).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn why_walks_back_cited_chains_of_causes() {
    for (file, id, text, rules) in CASES {
        let w = explain(file, id, text);
        assert!(w.text.contains(text), "{id}: explained the wrong event: {}", w.text);
        assert!(!w.chain.is_empty(), "{id}: `{text}` has no chain of causes");
        for link in &w.chain {
            assert!(!link.at.is_empty(), "{id}: {} has no place in the rule files", link.rule);
        }
        assert!(w.chain.iter().any(|l| l.cite.is_some()), "{id}: no rule in the chain cites the rulebook");
        for r in *rules {
            assert!(w.chain.iter().any(|l| l.rule.contains(r)), "{id}: the chain does not name `{r}`:\n{}", why_text(&w));
        }
        insta::assert_snapshot!(format!("why-{id}"), why_text(&w));
    }
}

/// The chain follows calls outwards: each link after the first is the routine that called the
/// one before, and the decision a chain depended on appears in it.
#[test]
fn why_names_the_decision_it_depended_on() {
    let w = explain("bsg-board/BSG-10.arb", "BSG-10", "Consolidate Power (1) moved from politics_deck to P1.hand");
    let all: Vec<&String> = w.chain.iter().flat_map(|l| &l.depended_on).collect();
    assert!(all.iter().any(|d| d.contains("P1 chose 1")), "the multi-skill split P1 chose is not named: {all:?}");
    let multi = w.chain.iter().position(|l| l.rule == "turn.multi_skill").expect("turn.multi_skill in the chain");
    assert!(w.chain[multi].conditions.iter().any(|c| c.contains("`ch.flex` is 2")), "the condition's value is not shown");
    assert_eq!(w.chain.get(multi + 1).map(|l| l.rule.as_str()), Some("turn.receive_skills"));
}

#[test]
fn why_is_available_as_json() {
    let w = explain("starcraft/SC-24.arb", "SC-24", "Zergling of P2 is destroyed");
    let v = serde_json::to_value(&w).unwrap();
    assert_eq!(v["event"].as_u64(), Some(w.event as u64));
    let chain = v["chain"].as_array().unwrap();
    assert_eq!(chain.len(), w.chain.len());
    assert_eq!(chain[0]["rule"], "unit.destroy");
    assert!(chain[0]["cite"].as_str().is_some_and(|c| c.starts_with('L')));
}

/// The README tour's ruling (issue 30): `--why "loses 1 influence"` picks the event where
/// influence fell — not the ability's words, which say the same — and the chain names the ability
/// and the condition that decided it, with the values that made it hold: P3 (9) had more influence
/// than P1 (8); P2 (8), equal, was spared.
#[test]
fn why_in_words_picks_the_change_and_names_the_deciding_condition() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["explain", "tests/tour/my-ruling.arb", "--why", "loses 1 influence"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let first = text.lines().nth(1).unwrap_or("");
    assert!(first.ends_with("P3.influence: 9 → 8"), "the event is the influence change: {text}");
    assert!(text.contains("which was called by Raptor Recon Team: Commit:"), "the ability is a link of the chain: {text}");
    assert!(text.contains("where `p.influence > you.influence` held: `p.influence` is 9; `you.influence` is 8"), "{text}");
    // Words several events tell of: the others are named, so that a reader knows one was picked
    // (a rules lawyer's trial took the one explained for the only one).
    assert!(
        text.contains(
            "(#12 is the one explained; other events tell of `loses 1 influence` too: #7, #8, #9; `--why 7` explains one of them)"
        ),
        "{text}"
    );
}

/// `--why` on a scenario that fails still says it failed, and exits 1; words no event holds get a
/// clear refusal with what `--why` takes.
#[test]
fn why_says_a_failed_scenario_failed_and_what_it_takes_when_nothing_matches() {
    let (code, out, _) = run(&["explain", "tests/bad/59-expect-fails-while-deciding.arb", "--why", "0"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("scenario failed") && out.contains("#0 "), "{out}");
    let (code, _, err) = run(&["explain", "tests/examples/bsg-ccg/CCG-10.arb", "--id", "CCG-10", "--why", "no such words anywhere"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no event of CCG-10 is `no such words anywhere` or tells of it"), "{err}");
    assert!(err.contains("help: give an event's number (#0 to #"), "{err}");
    // A number no event of any scenario has: the help without a placeholder left in it.
    let (code, _, err) = run(&["explain", "tests/tour/my-ruling.arb", "--why", "99999"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("help: give an event's number (as `arbiter explain FILE` numbers them)") && !err.contains('{'), "{err}");
}

/// `arbiter test FILE --id ID` reports that scenario alone (a designer's trial looked for it, as
/// `explain` and `render` take `--id`); an id no scenario has is refused, naming the likely one.
#[test]
fn test_reports_one_scenario_by_its_id() {
    let file = "tests/rulings/tic-tac-toe/rules.arb";
    let (code, all, _) = run(&["test", file]);
    assert_eq!(code, Some(0), "{all}");
    let ids: Vec<&str> = all.lines().filter_map(|l| l.strip_prefix("ok   ")).filter_map(|l| l.split_whitespace().next()).collect();
    assert!(ids.len() > 1, "a file of several scenarios: {all}");
    let (code, one, _) = run(&["test", file, "--id", ids[1]]);
    assert_eq!(code, Some(0), "{one}");
    assert_eq!(one.lines().filter(|l| l.starts_with("ok   ")).count(), 1, "{one}");
    assert!(one.contains(&format!("ok   {} ", ids[1])) && one.ends_with("1 passed, 0 failed\n"), "{one}");
    let wrong = format!("{}x", ids[1]);
    let (code, _, err) = run(&["test", file, "--id", &wrong]);
    assert_eq!(code, Some(1));
    assert!(err.contains(&format!("no scenario `{wrong}` in `{file}`")), "{err}");
    assert!(err.contains(&format!("did you mean `{}`?", ids[1])), "{err}");
}

/// `--why .. --quote` shows under each citation the lines it names in the rulebook's text (here
/// tic-tac-toe's `rules.txt`, beside its rulebook), so that a ruling can be read against the letter
/// of the rules; without `--quote` the citation alone. `--quote` goes with `--why`.
#[test]
fn why_quotes_the_cited_lines_of_the_rulebook() {
    let file = "tests/rulings/tic-tac-toe/rules.arb";
    let rules = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/rulebooks/tic-tac-toe/rules.txt")).unwrap();
    let line5 = rules.lines().nth(4).unwrap();
    let (code, quoted, err) = run(&["explain", file, "--why", "three in a row", "--quote"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(quoted.contains("cites rules.txt"), "{quoted}");
    assert!(quoted.contains(&format!("      │ L5: {line5}")), "{quoted}");
    let (_, plain, _) = run(&["explain", file, "--why", "three in a row"]);
    assert!(plain.contains("cites rules.txt") && !plain.contains(line5), "{plain}");
    let (code, _, err) = run(&["explain", file, "--quote"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--why"), "{err}");
}

/// `arbiter test` shows what the checker warns of in a scenario's lines, under its result: here an
/// `expect no decision` most of whose text only a value a question shows could hold (the board
/// game's `Move to anther location?`, a rules lawyer's trial, which passed silently).
#[test]
fn test_shows_a_scenarios_warnings() {
    let dir = std::env::temp_dir().join(format!("arbiter-test-warnings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ruling = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/rulings/bsg-board/brig-limits.arb")).unwrap();
    assert!(ruling.contains("\"Move to another location?\""));
    let file = dir.join("typo.arb");
    std::fs::write(&file, ruling.replace("\"Move to another location?\"", "\"Move to anther location?\"")).unwrap();
    let (code, out, err) = run(&["test", file.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("`Move to anther location?` is mostly in the words of no question the rules ask"), "{out}");
    assert!(out.contains("did you mean `Move to another location?`?"), "{out}");
}
