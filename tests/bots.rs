//! The greedy and search bots never read what their seat cannot see.
//!
//! At decisions of seeded games of all six rulebooks, everything hidden from the deciding seat is
//! dealt again by this test's own shuffle: the hidden cards change places among the places they
//! could be (an opponent's hand and library, face-down plans, the decks), and the game's random
//! source is replaced. The seat's view must stay exactly the same (the re-deal is invisible to the
//! seat), and each bot, with the same seed, must then take exactly the same decision. A bot that
//! read a hidden card, the order of a deck or the next roll would choose differently somewhere:
//! the test shows that a one-step look-ahead on the real state does.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use arbiter::agents::greedy::Greedy;
use arbiter::agents::mcts::Mcts;
use arbiter::agents::redeal::redeal;
use arbiter::agents::{Agent, BotPlan, BotRng, Bots, RandomAgent};
use arbiter::agents::{candidates, hint_score};
use arbiter::check::Built;
use arbiter::ir::Game;
use arbiter::ir::value::{ObjId, Seat, Value};
use arbiter::runtime::state::{Answer, Decision, Mode, Rng, State, seat_bit};
use arbiter::runtime::view::view;
use arbiter::runtime::{Engine, Setup, Status};
use std::collections::BTreeMap;

/// The test's own re-deal: within each group of objects hidden from `seat` that look alike to it
/// (same owner and kind: where one was put, the planet a face-down order points at, is its place,
/// not what it is), the hidden parts (definition and other given values) are shuffled; the random
/// source is reseeded. How many objects changed.
fn shuffle_hidden(game: &Game, st: &mut State, seat: Seat, rng: &mut Rng) -> usize {
    let mut groups: BTreeMap<(u8, u16), Vec<ObjId>> = BTreeMap::new();
    for (i, o) in st.objects.iter().enumerate() {
        if o.known & seat_bit(seat) == 0 {
            let kind = game.def(o.def).map_or(u16::MAX, |d| d.kind);
            groups.entry((o.owner, kind)).or_default().push(i as ObjId);
        }
    }
    let mut changed = 0;
    for ids in groups.values() {
        let parts: Vec<_> = ids
            .iter()
            .map(|&o| {
                let ob = st.obj(o).unwrap();
                (ob.def, ob.fields.iter().filter(|(_, v)| !matches!(v, Value::Obj(_))).cloned().collect::<Vec<_>>())
            })
            .collect();
        let mut order: Vec<usize> = (0..ids.len()).collect();
        rng.shuffle(&mut order);
        for (k, &o) in ids.iter().enumerate() {
            let (def, given) = parts[order[k]].clone();
            let ob = st.obj_mut(o).unwrap();
            if ob.def != def {
                changed += 1;
            }
            ob.def = def;
            ob.fields.retain(|(_, v)| matches!(v, Value::Obj(_)));
            ob.fields.extend(given);
        }
    }
    st.rng = Rng::from_seed(rng.below(u64::MAX));
    st.touch();
    changed
}

/// A cheat: it looks one decision ahead on the real state and takes the option after which it
/// likes what it sees best (the hints, then anything it sees: the card it would draw, the roll).
fn peek(engine: &Engine, st: &State, d: &Decision) -> Answer {
    use std::hash::{Hash, Hasher};
    let mut rng = BotRng::from_seed(5);
    let mut best = ((i64::MIN, 0), Answer(vec![0]));
    for a in candidates(d, &mut rng) {
        let mut s = st.clone();
        if engine.answer(&mut s, d.seat, &a).is_ok() && engine.advance(&mut s).is_ok() {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            view(engine.game, &s, Some(d.seat)).hash(&mut h);
            let v = (hint_score(engine, &s, d.seat).unwrap(), h.finish());
            if v > best.0 {
                best = (v, a);
            }
        }
    }
    best.1
}

struct Found {
    positions: usize,
    secret: usize,
    redealt: usize,
    cheat_fooled: usize,
    /// Hidden objects another seat holds whose identity the bots' own re-deal changed.
    theirs_redealt: usize,
    /// Of those, objects that are the only one of their kind the other seat holds hidden (a
    /// Loyalty card): a re-deal within what each seat holds would never change them.
    lone_redealt: usize,
}

/// How many objects another seat holds, hidden from `seat`, the bots' re-deal gives another
/// identity with some seed (another player's hand, a Loyalty card, a plan).
fn theirs_redealt(game: &Game, st: &State, seat: Seat) -> (usize, usize) {
    let hidden_theirs = |o: &arbiter::runtime::state::Obj| o.controller != seat && o.known & seat_bit(seat) == 0;
    let kind = |o: &arbiter::runtime::state::Obj| game.def(o.def).map(|d| d.kind);
    let mut held: BTreeMap<(u8, Option<u16>), usize> = BTreeMap::new();
    for o in st.objects.iter().filter(|o| hidden_theirs(o)) {
        *held.entry((o.controller, kind(o))).or_default() += 1;
    }
    let mut changed = std::collections::BTreeSet::new();
    for seed in 0..4 {
        let r = redeal(game, st, seat, &mut BotRng::from_seed(seed));
        for (i, o) in st.objects.iter().enumerate() {
            if hidden_theirs(o) && r.obj(i as ObjId).is_some_and(|x| x.def != o.def) {
                changed.insert(i);
            }
        }
    }
    let lone = changed.iter().filter(|&&i| st.obj(i as ObjId).is_some_and(|o| held.get(&(o.controller, kind(o))) == Some(&1))).count();
    (changed.len(), lone)
}

/// Play a seeded random game; at some decisions (every secret one of a seat choosing after
/// another, and every 23rd), re-deal and compare the bots' decisions.
fn check_game(b: &Built, players: usize, seed: u64, most: usize) -> Found {
    let game = &b.game;
    let engine = Engine::new(game);
    let decklists = arbiter::runtime::decks::choose_decks(game, players, &[]).unwrap();
    let mut st = engine.new_state(Mode::Game, Setup { players, seed, decklists }).unwrap();
    let mut random = RandomAgent { seed };
    let mut found = Found { positions: 0, secret: 0, redealt: 0, cheat_fooled: 0, theirs_redealt: 0, lone_redealt: 0 };
    let mut last_secret: Option<Seat> = None;
    while found.positions < most {
        match engine.advance(&mut st).unwrap() {
            Status::Decision => {}
            _ => break,
        }
        let d = st.pending.clone().unwrap();
        let after_other = d.secret && last_secret.is_some_and(|s| s != d.seat);
        last_secret = if d.secret { Some(d.seat) } else { None };
        if after_other || st.decisions % 37 == 3 {
            found.positions += 1;
            found.secret += usize::from(after_other);
            let mut other = st.clone();
            let mut rng = Rng::from_seed(seed ^ st.decisions);
            found.redealt += shuffle_hidden(game, &mut other, d.seat, &mut rng);
            assert_eq!(
                view(game, &st, Some(d.seat)),
                view(game, &other, Some(d.seat)),
                "{}: the re-deal changed what P{} sees",
                game.name,
                d.seat + 1
            );
            let what = format!("{}, seed {seed}, decision {} (P{}: {})", game.name, st.decisions, d.seat + 1, d.prompt);
            let greedy = Greedy { seed: 11 };
            assert_eq!(greedy.decide(&engine, &st, &d).unwrap(), greedy.decide(&engine, &other, &d).unwrap(), "greedy peeked: {what}");
            let mcts = Mcts { seed: 11, playouts: 24, depth: 8 };
            assert_eq!(mcts.decide(&engine, &st, &d).unwrap(), mcts.decide(&engine, &other, &d).unwrap(), "mcts peeked: {what}");
            // As `play` and `sim` seat them, remembering what they answered before.
            let plan = BotPlan::parse(&["greedy".to_string(), format!("{}=mcts:16", d.seat + 1)], game, players).unwrap();
            let (mut a, mut b) = (Bots::new(plan.clone(), 3), Bots::new(plan, 3));
            assert_eq!(a.decide(&engine, &st, &d).unwrap(), b.decide(&engine, &other, &d).unwrap(), "the seated bots peeked: {what}");
            let (theirs, lone) = theirs_redealt(game, &st, d.seat);
            found.theirs_redealt += theirs;
            found.lone_redealt += lone;
            if peek(&engine, &st, &d) != peek(&engine, &other, &d) {
                found.cheat_fooled += 1;
            }
        }
        let a = random.decide(game, &st, &d);
        engine.answer(&mut st, d.seat, &a).unwrap();
    }
    found
}

#[test]
fn bots_decide_the_same_whatever_is_hidden_from_their_seat() {
    let mut total = Found { positions: 0, secret: 0, redealt: 0, cheat_fooled: 0, theirs_redealt: 0, lone_redealt: 0 };
    for (game, players, seeds) in [
        ("tic-tac-toe", 2, 1),
        ("connect-four", 2, 1),
        ("bsg-ccg", 2, 2),
        ("bsg-board", 4, 2),
        ("starcraft", 2, 2),
        ("starship-battles", 2, 2),
    ] {
        let b = common::load(game, &[]);
        for seed in 1..=seeds {
            let f = check_game(&b, players, seed, 8);
            assert!(f.positions > 0, "{game}: no position was checked");
            if !matches!(game, "tic-tac-toe" | "connect-four") {
                assert!(f.redealt > 0, "{game}, seed {seed}: nothing was hidden to re-deal at the positions checked");
                // What other seats hold hidden is dealt again too (not only the decks).
                assert!(f.theirs_redealt > 0, "{game}, seed {seed}: the bots' re-deal never changed what another seat holds");
            }
            total.positions += f.positions;
            total.secret += f.secret;
            total.redealt += f.redealt;
            total.cheat_fooled += f.cheat_fooled;
            total.lone_redealt += f.lone_redealt;
        }
    }
    // The secret simultaneous choices were among the positions (Starship Battles' plans, the board
    // game's skill checks), and the re-deal mattered: a bot that looks at the real state chose
    // differently after it somewhere.
    assert!(total.secret > 0, "no secret choice after another seat's was checked");
    assert!(total.lone_redealt > 0, "a card that is the only one of its kind another seat holds (a Loyalty card) was never dealt again");
    assert!(total.cheat_fooled > 0, "the re-deal never changed a peeking bot's choice: the test would not catch one");
    eprintln!(
        "{} positions ({} secret choices after another seat's), {} objects re-dealt, {} lone cards of another seat, a peeking bot fooled at {}",
        total.positions, total.secret, total.redealt, total.lone_redealt, total.cheat_fooled
    );
}

#[test]
fn bots_are_named_by_seat_side_or_for_everyone_and_mistakes_are_refused() {
    use arbiter::agents::{BotKind, BotPlan};
    let b = common::load("bsg-board", &[]);
    let args = |v: &[&str]| v.iter().map(ToString::to_string).collect::<Vec<_>>();
    let plan = BotPlan::parse(&args(&["greedy", "2=mcts:50", "humans=mcts"]), &b.game, 4).unwrap();
    assert_eq!(plan.every, Some(BotKind::Greedy));
    assert_eq!(plan.seats, vec![(1, BotKind::Mcts { playouts: 50, depth: None })]);
    assert_eq!(plan.sides, vec![("humans".to_string(), BotKind::Mcts { playouts: 200, depth: None })]);
    assert_eq!(plan.describe(), "greedy, 2=mcts:50, humans=mcts:200");
    let deep = BotPlan::parse(&args(&["mcts:100:0"]), &b.game, 4).unwrap();
    assert_eq!(deep.every, Some(BotKind::Mcts { playouts: 100, depth: Some(0) }));
    assert_eq!(deep.describe(), "mcts:100:0");
    let refused = |v: &[&str]| BotPlan::parse(&args(v), &b.game, 4).unwrap_err().to_string();
    assert!(refused(&["clever"]).contains("unknown bot `clever`"));
    assert!(refused(&["mcts:0"]).contains("from 1 to 1000000"));
    assert!(refused(&["mcts:10:x"]).contains("the playout depth"));
    assert!(refused(&["mcts:10:5:1"]).contains("unknown bot"));
    assert!(refused(&["5=greedy"]).contains("there is no seat 5"));
    assert!(refused(&["humans=greedy", "humanz=mcts"]).contains("did you mean `humans`"), "{}", refused(&["humanz=mcts"]));
    assert!(refused(&["random", "greedy"]).contains("already given"));
    assert!(refused(&["1=greedy", "1=mcts"]).contains("seat 1 is given a bot twice"));
    assert!(refused(&["humans=greedy", "humans=mcts"]).contains("side `humans` is given a bot twice"));
}

#[test]
fn a_refused_bot_plan_is_a_diagnostic_with_its_message_and_help() {
    use arbiter::agents::{BotPlan, BotPlanError};
    use arbiter::syntax::diag::Diag;
    use arbiter::syntax::span::Span;
    let b = common::load("bsg-board", &[]);
    let e = BotPlan::parse(&["humanz=greedy".to_string()], &b.game, 4).unwrap_err();
    assert!(matches!(e, BotPlanError::NoSeatOrSide { .. }), "{e:?}");
    // Printed as before: the message, then its help on a line of its own.
    assert_eq!(e.to_string(), "`--bots humanz=greedy`: no seat or side `humanz`\n  help: did you mean `humans`?");
    let d = Diag::from(e);
    assert_eq!(d.message, "`--bots humanz=greedy`: no seat or side `humanz`");
    assert_eq!(d.help.as_deref(), Some("did you mean `humans`?"));
    assert_eq!(d.span, Span::NONE);
    let d = Diag::from(BotPlan::parse(&["5=greedy".to_string()], &b.game, 4).unwrap_err());
    assert_eq!(d.message, "`--bots 5=greedy`: there is no seat 5");
    assert_eq!(d.help.as_deref(), Some("seats are 1 to 4"));
    let e = "clever".parse::<arbiter::agents::BotKind>().unwrap_err();
    assert!(Diag::from(e).help.is_some_and(|h| h.contains("mcts:PLAYOUTS")));
}

#[test]
fn the_search_bot_never_loses_tic_tac_toe_to_random_play_as_the_first_player() {
    use arbiter::agents::{BotPlan, Bots};
    let b = common::load("tic-tac-toe", &[]);
    let engine = Engine::new(&b.game);
    let plan = BotPlan::parse(&["1=mcts:300".to_string()], &b.game, 2).unwrap();
    let mut wins = 0;
    for seed in 1..=12 {
        let mut st = engine.new_state(Mode::Game, Setup { players: 2, seed, decklists: vec![Default::default(); 2] }).unwrap();
        let mut bots = Bots::new(plan.clone(), seed);
        while engine.advance(&mut st).unwrap() == Status::Decision {
            let d = st.pending.clone().unwrap();
            let a = bots.decide(&engine, &st, &d).unwrap();
            engine.answer(&mut st, d.seat, &a).unwrap();
        }
        let r = st.result.as_ref().unwrap();
        assert!(!r.winners.contains(&1), "seed {seed}: the random second player won");
        wins += usize::from(r.winners.contains(&0));
    }
    assert!(wins >= 10, "the search bot won only {wins} of 12");
}

/// "If the humans lose, the game immediately ends and the Cylon team has won" (U634-636): a game
/// is won by one side, never both. Before the Sleeper Agent phase the Cylon team may have no
/// player yet; the humans still lose, and no seat wins (counted as "no winner").
#[test]
fn every_board_game_is_won_by_one_side_at_most() {
    use arbiter::sim::{Table, play_range};
    let b = common::load("bsg-board", &[]);
    let decklists = arbiter::runtime::decks::choose_decks(&b.game, 4, &[]).unwrap();
    let table = Table { game: &b.game, decklists, cards_of: vec![], bots: Default::default(), think: None };
    let t = play_range(&table, 4, 1, 0..12, &|| {});
    assert_eq!(t.finished(), 12);
    assert_eq!(t.side_wins.values().sum::<u64>() + t.draws, 12, "{:?}, {} without a winner", t.side_wins, t.draws);
    assert_eq!(t.side_wins.len(), 2);
    assert!(t.side_wins["cylons"] > 0, "random humans lose to the Cylons");
}

/// Six chips worth 3, -2, 1, -4, 2 and 0; the first player keeps up to six of them, the second
/// then says "done", and the first wins with exactly 6 kept. The hint counts what is kept.
fn chips(depth: &str) -> String {
    format!(
        r#"
game chips {{
  title "Chips"
  players 2
  setup setup.game
  turn turn.play
  {depth}
}}
kind chip {{ field worth: int }}
zone pot shared public holds chip
zone kept per player public holds chip
chip "plus three" {{ worth 3 }}
chip "minus two" {{ worth -2 }}
chip "plus one" {{ worth 1 }}
chip "minus four" {{ worth -4 }}
chip "plus two" {{ worth 2 }}
chip "nothing" {{ worth 0 }}
proc setup.game() {{
  for d in definitions("chip") {{
    create d in pot owned by first(players())
  }}
}}
proc turn.play() {{
  let p = first(players())
  let cs = choose p "Keep which chips?" up to 6 from pot
  for c in cs {{
    move c to p.kept
  }}
  let q = last(players())
  let said = choose q "Say" from ["done", "finished"]
  if sum([c.worth for c in p.kept]) == 6 {{
    win p "six"
  }} else {{
    win q "not six"
  }}
}}
hint kept(p: player) = sum([c.worth for c in p.kept]) sample "what is kept"
"#
    )
}

/// A decision taking several options is searched a step at a time: the search and greedy bots keep
/// the chips worth something, one by one, where a dozen random subsets would rarely hold exactly
/// those. The playouts end where the tree does (the game's `search_depth 0`), so the hint scores
/// each step.
#[test]
fn the_search_bot_builds_a_choice_of_several_options_a_step_at_a_time() {
    let b = common::game_text("chips.arb", &chips("search_depth 0"));
    assert_eq!(b.game.search_depth, Some(0));
    let engine = Engine::new(&b.game);
    for (bot, seed) in ["1=mcts:60", "1=greedy"].into_iter().flat_map(|bot| (1..=5).map(move |seed| (bot, seed))) {
        let plan = BotPlan::parse(&[bot.to_string()], &b.game, 2).unwrap();
        let mut st = engine.new_state(Mode::Game, Setup { players: 2, seed, decklists: vec![Default::default(); 2] }).unwrap();
        let mut bots = Bots::new(plan.clone(), seed);
        assert_eq!(engine.advance(&mut st).unwrap(), Status::Decision);
        let d = st.pending.clone().unwrap();
        let a = bots.decide(&engine, &st, &d).unwrap();
        let mut kept: Vec<&str> = a.0.iter().map(|&i| &*d.options[i].label).filter(|l| *l != "nothing").collect();
        kept.sort_unstable();
        assert_eq!(kept, ["plus one", "plus three", "plus two"], "{bot}, seed {seed}");
        // A legal answer, and the game goes on to the second player's word and the win.
        engine.answer(&mut st, d.seat, &a).unwrap();
        assert_eq!(engine.advance(&mut st).unwrap(), Status::Decision);
        engine.answer(&mut st, 1, &Answer(vec![0])).unwrap();
        assert_eq!(engine.advance(&mut st).unwrap(), Status::Ended);
        assert_eq!(st.result.as_ref().unwrap().winners, vec![0], "{bot}, seed {seed}");
    }
}

#[test]
fn a_game_sets_the_search_depth_as_a_whole_number() {
    let Err(diags) = common::compile_text("chips.arb", &chips("search_depth deep")) else { panic!("`search_depth deep` checks") };
    let shown = format!("{diags:?}");
    assert!(shown.contains("the search bot's playout depth as one whole number"), "{shown}");
    assert!(shown.contains("from 0 (the hints score the state where the tree ends) to 10000 decisions"), "{shown}");
    assert!(common::compile_text("chips.arb", &chips("search_depth 10001")).is_err(), "a depth over 10000 checks");
    assert!(common::compile_text("chips.arb", &chips("search_depth 1 2")).is_err(), "two numbers check");
    assert_eq!(common::game_text("chips.arb", &chips("search_depth 10000")).game.search_depth, Some(10000));
    assert_eq!(common::game_text("chips.arb", &chips("")).game.search_depth, None);
}

/// `build_up` passes over answers given before only where a step would end on one: stopping, or
/// the last option allowed. A step that goes on is not an answer yet, and an answer given before
/// matches whatever the order of its options.
#[test]
fn a_choice_built_a_step_at_a_time_passes_over_whole_answers_given_before() {
    use arbiter::agents::build_up;
    let b = common::game_text("chips.arb", &chips(""));
    let engine = Engine::new(&b.game);
    let mut st = engine.new_state(Mode::Game, Setup { players: 2, seed: 1, decklists: vec![Default::default(); 2] }).unwrap();
    assert_eq!(engine.advance(&mut st).unwrap(), Status::Decision);
    let d = st.pending.clone().unwrap();
    // The stand-in search always stops when it may.
    let stop = |avoid: &[Answer]| build_up(&d, 6, avoid, |_| Ok(0)).unwrap();
    assert_eq!(stop(&[]), Answer(vec![]));
    assert_eq!(stop(&[Answer(vec![])]), Answer(vec![0]));
    assert_eq!(stop(&[Answer(vec![]), Answer(vec![0])]), Answer(vec![0, 1]));
    assert_eq!(stop(&[Answer(vec![]), Answer(vec![0]), Answer(vec![1, 0])]), Answer(vec![0, 1, 2]));
    // Where every step would end on an answer given before, the search chooses among them all.
    let all: Vec<Answer> = (0..=6).map(|n| Answer((0..n).collect())).collect();
    assert_eq!(stop(&all), Answer(vec![0, 1, 2, 3, 4]));
    // Going on past an answer given before: [5] was given, so stopping there is passed over.
    let last = |avoid: &[Answer]| build_up(&d, 2, avoid, |answers| Ok(answers.len() - 1)).unwrap();
    assert_eq!(last(&[]), Answer(vec![4, 5]));
    assert_eq!(last(&[Answer(vec![5, 4])]), Answer(vec![3, 5]));
}
