//! Every documented example is a scenario under tests/examples/<game>/, and further rulings are
//! under tests/rulings/<game>/: each must pass (its `expect` lines state the rulebook's outcome),
//! and its trace is snapshotted for review.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use arbiter::check::project::Project;
use arbiter::scenario::{failure_text, run_file};
use std::path::Path;

#[test]
fn scenarios_pass_and_traces_are_snapshotted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = Project { root: root.to_path_buf() };
    let mut ran = 0;
    insta::glob!("{examples,rulings}/**/*.arb", |path| {
        let is_scenario_file = arbiter::check::project::peek(path)
            .is_ok_and(|f| f.items.iter().any(|i| matches!(i.node, arbiter::syntax::ast::Item::Scenario(_))));
        if !is_scenario_file {
            return;
        }
        let outcomes = match run_file(&project, path) {
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
    assert!(ran >= 14, "expected the 14 CCG scenarios at least, ran {ran}");
}
