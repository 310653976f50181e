//! Every documented example is a scenario under tests/examples/<game>/, and further rulings are
//! under tests/rulings/<game>/: each must pass (its `expect` lines state the rulebook's outcome),
//! and its trace is snapshotted for review.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use arbiter::check::project::Project;
use arbiter::scenario::{Bases, failure_text, run_file_shared};
use std::path::Path;

#[test]
fn scenarios_pass_and_traces_are_snapshotted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = Project::at(root.to_path_buf());
    let mut ran = 0;
    // Each game is compiled once per set of variants and shared by the files (as `arbiter test`
    // does); `scenario_files_checked_against_a_shared_game_load_the_same` below shows that changes nothing.
    let bases = Bases::default();
    insta::glob!("{examples,rulings,house-rules}/**/*.arb", |path| {
        let is_scenario_file = arbiter::check::project::peek(&project, path)
            .is_ok_and(|f| f.items.iter().any(|i| matches!(i.node, arbiter::syntax::ast::Item::Scenario(_))));
        if !is_scenario_file {
            return;
        }
        let outcomes = match run_file_shared(&project, path, &[], &bases, false) {
            Ok(o) => o,
            Err(e) => panic!("{} does not check:\n{e}", path.display()),
        };
        for o in outcomes {
            ran += 1;
            let failures: String = o.outcome.failures.iter().map(|f| failure_text(&o.game, f)).collect();
            assert!(o.outcome.passed(), "scenario {} failed:\n{failures}", o.outcome.id);
            let trace = o.outcome.trace(&o.game);
            insta::assert_snapshot!(format!("trace-{}", o.outcome.id), trace);
        }
    });
    assert!(ran >= 14 + 44 + 46 + 30, "expected the CCG, board game, StarCraft and Starship Battles scenarios at least, ran {ran}");
}

/// Every documented example has its scenario: one file per catalogue ID, holding a scenario with
/// that ID.
#[test]
fn every_documented_example_has_a_scenario() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/examples");
    for (dir, prefix, n) in [("bsg-ccg", "CCG", 14), ("bsg-board", "BSG", 44), ("starcraft", "SC", 46), ("starship-battles", "SB", 30)] {
        for i in 1..=n {
            let id = format!("{prefix}-{i:02}");
            let path = root.join(dir).join(format!("{id}.arb"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("{} is missing", path.display()));
            assert!(text.contains(&format!("scenario {id} ")), "{} has no scenario {id}", path.display());
        }
    }
}

/// Every documented example has a mutation sibling (issue 17): a scenario `ID-mutated` in the same
/// file, under a `// Mutation:` comment, that changes one input of the example's Given and expects
/// the outcome the rules then give. A scenario that passed whatever its inputs would show up as a
/// sibling that cannot pass. (That both pass is `scenarios_pass_and_traces_are_snapshotted`.)
#[test]
fn every_documented_example_has_a_mutation_sibling() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/examples");
    let mut missing = Vec::new();
    for (dir, prefix, n) in [("bsg-ccg", "CCG", 14), ("bsg-board", "BSG", 44), ("starcraft", "SC", 46), ("starship-battles", "SB", 30)] {
        for i in 1..=n {
            let id = format!("{prefix}-{i:02}");
            let path = root.join(dir).join(format!("{id}.arb"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("{} is missing", path.display()));
            let lines: Vec<&str> = text.lines().collect();
            let header = format!("scenario {id}-mutated");
            let marked = lines.iter().enumerate().any(|(k, l)| {
                l.starts_with(&header) && {
                    // The comment block right above the scenario starts with `// Mutation:`.
                    let above = lines[..k].iter().rev().take_while(|l| l.starts_with("//"));
                    above.last().is_some_and(|first| first.starts_with("// Mutation:"))
                }
            });
            if !marked {
                missing.push(id);
            }
        }
    }
    assert!(missing.is_empty(), "examples without a `// Mutation:` sibling `ID-mutated`: {missing:?}");
}

/// `arbiter check` checks a scenario file that holds only scenarios against the game compiled
/// once for its variants (`Project::load_scenario`): that gives exactly what loading the file
/// with the game gives, diagnostics and compiled scenarios alike.
#[test]
fn scenario_files_checked_against_a_shared_game_load_the_same() {
    use arbiter::check::project::{Base, Loaded, game_of, peek, scenario_extras};
    use arbiter::syntax::ast::Item;
    use std::collections::HashMap;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = Project::at(root.to_path_buf());
    let mut bases: HashMap<(String, Vec<String>), Option<Base>> = HashMap::new();
    let mut shared = 0;
    for dir in ["tests/examples", "tests/rulings", "tests/house-rules", "tests/bad"] {
        for path in Project::arb_files(&root.join(dir)) {
            let Ok(file) = peek(&project, &path) else { continue };
            if scenario_extras(&project, &path) != [path.clone()] {
                continue;
            }
            // Each set of variants the file's scenarios ask for.
            let mut sets: Vec<Vec<String>> = Vec::new();
            for it in &file.items {
                if let Item::Scenario(s) = &it.node {
                    let v = arbiter::check::scenario::header(s, &mut Vec::new()).variants;
                    if !sets.contains(&v) {
                        sets.push(v);
                    }
                }
            }
            let game = game_of(&project, &path).unwrap_or_else(|| "bsg-ccg".to_string());
            for variants in sets {
                let base = bases.entry((game.clone(), variants.clone())).or_insert_with(|| project.compile_base(&game, &variants, &[]));
                let Some(quick) = base.as_ref().and_then(|b| project.load_scenario(b, &path)) else { continue };
                let full = project.load(&game, &variants, std::slice::from_ref(&path));
                let show = |l: &Loaded| {
                    let names: Vec<&str> = l.files.iter().map(|f| f.name.as_str()).collect();
                    match &l.result {
                        Ok(b) => format!("{names:?}\n{:?}\n{:?}\n{:?}", b.warnings, b.scenarios, b.game),
                        Err(d) => format!("{names:?}\n{d:?}"),
                    }
                };
                assert!(show(&quick) == show(&full), "{}: checked against the shared game, it differs", path.display());
                shared += 1;
            }
        }
    }
    assert!(shared > 100, "only {shared} scenario files were checked against a shared game");
}

/// The rulings of issue 29 (rules fixed to the letter, and cards that had to cheat) each have a
/// mutation sibling `ID-mutated`, under a `// Mutation:` comment, as the documented examples do.
#[test]
fn the_letter_of_the_rules_rulings_have_mutation_siblings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulings");
    let files = [
        "bsg-ccg/immediate-win.arb",
        "bsg-ccg/face-down.arb",
        "bsg-ccg/once-per-turn.arb",
        "bsg-ccg/leaving-play.arb",
        "bsg-ccg/forbidden-steps.arb",
        "starcraft/orders-and-routes.arb",
    ];
    let mut rulings = 0;
    for f in files {
        let text = std::fs::read_to_string(root.join(f)).unwrap_or_else(|_| panic!("{f} is missing"));
        let lines: Vec<&str> = text.lines().collect();
        let ids: Vec<&str> = lines.iter().filter_map(|l| l.strip_prefix("scenario ")?.split_whitespace().next()).collect();
        for id in ids.iter().filter(|id| !id.ends_with("-mutated")) {
            rulings += 1;
            let header = format!("scenario {id}-mutated ");
            let marked = lines.iter().enumerate().any(|(k, l)| {
                l.starts_with(&header) && {
                    let above = lines[..k].iter().rev().take_while(|l| l.starts_with("//"));
                    above.last().is_some_and(|first| first.starts_with("// Mutation:"))
                }
            });
            assert!(marked, "{f}: ruling {id} has no `// Mutation:` sibling `{id}-mutated`");
        }
    }
    assert!(rulings >= 9, "only {rulings} rulings");
}
