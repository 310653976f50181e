//! The README's tours, kept true: the designer's new card checks and plays in a deck, the rules
//! lawyer's scenario passes, and the modder's variant switches on.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use arbiter::agents::{Agent, RandomAgent};
use arbiter::check::project::Project;
use arbiter::runtime::decks;
use arbiter::runtime::decks::choose_decks;
use arbiter::runtime::state::Mode;
use arbiter::runtime::{Engine, Setup, Status};
use arbiter::scenario::run_file;
use std::path::{Path, PathBuf};

fn project() -> Project {
    Project::at(Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf())
}

fn tour(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tour").join(file)
}

#[test]
fn designer_card_checks_and_plays_in_a_deck() {
    let project = project();
    let loaded = project.load("bsg-ccg", &[], &[tour("my-cards.arb")]);
    let built = loaded.result.as_ref().unwrap_or_else(|d| panic!("{}", arbiter::diag::render(d, &loaded.files)));
    assert!(built.warnings.is_empty(), "{:?}", built.warnings);
    let file = loaded.files.iter().find(|f| f.name == "tests/tour/my-cards.arb").expect("the tour file is loaded").id;
    let deck = built.game.decks.iter().find(|d| d.name == "Recon Fleet").expect("the tour deck");
    assert!(decks::validate(&built.game, deck).is_empty());
    // `arbiter play bsg-ccg --deck 1=tests/tour/my-cards.arb --seed 7`
    let decklists = choose_decks(&built.game, 2, &[(0, file)]).unwrap();
    let engine = Engine::new(&built.game);
    let mut st = engine.new_state(Mode::Game, Setup { players: 2, seed: 7, decklists }).unwrap();
    let mut bot = RandomAgent { seed: 7 };
    while let Status::Decision = engine.advance(&mut st).unwrap() {
        let d = st.pending.clone().unwrap();
        let a = bot.decide(&built.game, &st, &d);
        engine.answer(&mut st, d.seat, &a).unwrap();
    }
    assert!(st.result.is_some());
    let recon = built.game.def_index["Raptor Recon Team"];
    assert!(st.objects.iter().any(|o| o.def == recon && o.owner == 0), "P1 played the Recon Fleet deck");
}

#[test]
fn rules_lawyer_scenario_passes() {
    let outcomes = run_file(&project(), &tour("my-ruling.arb")).unwrap();
    assert_eq!(outcomes.len(), 1);
    assert!(outcomes[0].outcome.passed(), "{:?}", outcomes[0].outcome.failures);
}

#[test]
fn modder_variant_switches_on() {
    let project = project();
    let loaded = project.load("bsg-ccg", &["sniper-like-type-only".to_string()], &[]);
    let built = loaded.result.as_ref().unwrap_or_else(|d| panic!("{}", arbiter::diag::render(d, &loaded.files)));
    assert_eq!(built.game.active_variants, vec!["sniper-like-type-only".to_string()]);
    assert!(
        built.game.variants.iter().any(|v| v.changes.iter().map(ToString::to_string).collect::<Vec<_>>() == ["replaces func defenders"])
    );
    let unknown = project.load("bsg-ccg", &["no-such-variant".to_string()], &[]);
    assert!(unknown.result.is_err());
}
