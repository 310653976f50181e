//! Bad input gets a clear diagnostic and nothing panics. Each file in tests/bad/ is something a
//! designer, rules lawyer or modder could write by mistake; its rendered diagnostics (miette,
//! no colour, fixed width) are snapshotted, and each must report at least one error.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use arbiter::check::project::{Project, game_of, peek};
use arbiter::diag::{self, Diag};
use arbiter::runtime::decks;
use arbiter::scenario::{failure_diag, run_file};
use arbiter::syntax::ast::Item;
use std::path::Path;

fn project() -> Project {
    Project::at(Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf())
}

/// Everything a user would see for this file: check errors, deck problems, scenario failures.
fn report(path: &Path) -> String {
    let project = project();
    let is_scenario = peek(&project, path).is_ok_and(|f| f.items.iter().any(|i| matches!(i.node, Item::Scenario(_))));
    if is_scenario {
        return match run_file(&project, path) {
            Err(rendered) => rendered,
            Ok(outcomes) => {
                let mut out = String::new();
                for o in outcomes {
                    let ds: Vec<Diag> = o.outcome.failures.iter().map(failure_diag).collect();
                    out.push_str(&diag::render(&ds, &o.files));
                }
                out
            }
        };
    }
    let game = game_of(&project, path).unwrap_or_else(|| "bsg-ccg".to_string());
    let loaded = project.load(&game, &[], &[path.to_path_buf()]);
    match &loaded.result {
        Err(d) => diag::render(d, &loaded.files),
        Ok(built) => {
            let mut ds = built.warnings.clone();
            let here = loaded.files.iter().find(|f| f.name == project.display(path)).map(|f| f.id);
            for deck in &built.game.decks {
                if Some(deck.span.file) == here {
                    ds.extend(decks::validate(&built.game, deck));
                }
            }
            diag::render(&ds, &loaded.files)
        }
    }
}

#[test]
fn bad_files_get_clear_diagnostics() {
    let mut count = 0;
    insta::glob!("bad/*.arb", |path| {
        count += 1;
        let text = report(path);
        assert!(text.contains('×'), "{} should produce an error, got:\n{text}", path.display());
        insta::assert_snapshot!(text);
    });
    assert!(count >= 25, "at least 25 bad-input fixtures, found {count}");
}
