//! What evaluations remember between them (`memo::Memo`: blankness, fields read through
//! modifiers, function and check calls) is only ever used while what it read is unchanged: for
//! the version of the state it was made for, or, for a function whose reads the checker bounds
//! (`check::call_reads`), under the numbers of those reads. The oracle: at decisions of seeded
//! random games of every rulebook, the engine's evaluator, whose memo the game's own evaluations
//! have just filled, answers exactly as a fresh evaluator that remembers nothing: every answer
//! its memo holds for now (calls kept from earlier versions among them), every field of every
//! object, whether each object is blank, and every function without parameters. A change to the
//! state that forgot to give it, or what it changed, a new number (`State::touch`,
//! `State::obj_mut`, `State::zone_mut`) shows up here as a stale answer, and the probe game
//! below makes each kind of change once.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a test fails loudly by design")]

mod common;

use arbiter::runtime::Engine;
use arbiter::runtime::eval::{Evaluator, Memoised};
use arbiter::runtime::state::{Env, State};
use arbiter::syntax::span::Span;
use std::cell::Cell;

/// Compare the engine's (remembering) evaluator with a fresh one on `st`: first every answer its
/// memo holds for this version, then every field, blankness and function without parameters.
/// The number of answers compared.
fn compare(engine: &Engine, st: &State, what: &str) -> usize {
    let game = engine.game;
    let kept = engine.evaluator(st);
    let fresh = Evaluator::new(game, st);
    let memo = kept.remembered_now();
    let mut n = memo.calls.len() + memo.fields.len() + memo.blank.len();
    for (routine, args, you, me, value) in memo.calls {
        let env = Env { slots: vec![], you, self_obj: me, rec: u32::MAX };
        let now = match routine {
            Memoised::Func(f) => fresh.call_func(f, args.clone(), &env, Span::default()),
            Memoised::Check(c) => fresh.check(c, &args, &env, Span::default()),
        };
        assert_eq!(now.ok().as_ref(), Some(&value), "{what}: remembered {routine:?}{args:?} (you {you:?}, self {me:?})");
    }
    for (o, f, value) in memo.fields {
        let now = fresh.read_field(o, f, Span::default()).ok();
        assert_eq!(now.as_ref(), Some(&value), "{what}: remembered #{o}.{}", game.sym(f));
    }
    for (o, blank) in memo.blank {
        assert_eq!(fresh.is_blank(o).ok(), Some(blank), "{what}: remembered whether #{o} is blank");
    }
    for o in 0..u32::try_from(st.objects.len()).unwrap() {
        assert_eq!(kept.is_blank(o).ok(), fresh.is_blank(o).ok(), "{what}: is object #{o} blank?");
        let def = game.def(st.obj(o).unwrap().def).unwrap();
        for f in &game.kind(def.kind).unwrap().fields {
            let a = kept.read_field(o, f.name, Span::default()).ok();
            let b = fresh.read_field(o, f.name, Span::default()).ok();
            assert_eq!(a, b, "{what}: #{o}.{}", game.sym(f.name));
            n += 2;
        }
    }
    let env = Env { slots: vec![], you: None, self_obj: None, rec: u32::MAX };
    for (i, f) in game.funcs.iter().enumerate().filter(|(_, f)| f.params.is_empty()) {
        let id = u32::try_from(i).unwrap();
        let a = kept.call_func(id, vec![], &env, Span::default()).ok();
        let b = fresh.call_func(id, vec![], &env, Span::default()).ok();
        assert_eq!(a, b, "{what}: {}()", f.info.name);
        n += 1;
    }
    n
}

fn oracle(game: &str, players: usize, seeds: std::ops::Range<u64>, every: u64) {
    let b = common::load(game, &[]);
    let engine = Engine::new(&b.game);
    let compared = Cell::new(0usize);
    for seed in seeds {
        let decisions = Cell::new(0u64);
        common::play_on(&engine, seed, players, &|st| {
            decisions.set(decisions.get() + 1);
            if decisions.get().is_multiple_of(every) {
                let what = format!("{game}, seed {seed}, decision {}", decisions.get());
                compared.set(compared.get() + compare(&engine, st, &what));
            }
            false
        });
    }
    assert!(compared.get() > 0, "{game}: nothing was compared");
    eprintln!("{game}: {} answers compared", compared.get());
}

#[test]
fn remembered_answers_match_fresh_ones_in_tic_tac_toe_and_connect_four() {
    oracle("tic-tac-toe", 2, 0..4, 1);
    oracle("connect-four", 2, 0..2, 3);
}

#[test]
fn remembered_answers_match_fresh_ones_in_the_card_game() {
    oracle("bsg-ccg", 2, 0..1, 7);
}

#[test]
fn remembered_answers_match_fresh_ones_in_starship_battles() {
    oracle("starship-battles", 2, 0..1, 5);
}

#[test]
fn remembered_answers_match_fresh_ones_in_the_board_game() {
    oracle("bsg-board", 3, 0..1, 13);
}

#[test]
fn remembered_answers_match_fresh_ones_in_starcraft() {
    oracle("starcraft", 2, 0..1, 13);
}

/// Play seeded random games twice, remembering between evaluations and not, and compare the
/// games event by event and their final states.
fn same_play(game: &str, players: usize, seeds: std::ops::Range<u64>) {
    let b = common::load(game, &[]);
    let remembering = Engine::new(&b.game);
    let forgetful = Engine::new(&b.game).forgetful();
    for seed in seeds {
        let a = common::play_on(&remembering, seed, players, &|_| false);
        let f = common::play_on(&forgetful, seed, players, &|_| false);
        let json = |st: &State| serde_json::to_string(st).expect("a state serializes");
        assert_eq!(a.log.len(), f.log.len(), "{game}, seed {seed}: games of different lengths");
        assert!(json(&a) == json(&f), "{game}, seed {seed}: the same seed played differently with and without the memo");
    }
}

#[test]
fn remembering_changes_nothing_in_play() {
    same_play("tic-tac-toe", 2, 0..20);
    same_play("connect-four", 2, 0..10);
    same_play("bsg-ccg", 2, 0..8);
    same_play("starship-battles", 2, 0..6);
    same_play("bsg-board", 4, 0..2);
    same_play("starcraft", 2, 0..2);
}

/// A game made to catch a change that forgot to give the state a new version: each step reads a
/// remembered function (one that walks a list), changes what it reads in one way, and reads it
/// again at once, with nothing else changing in between. A stale memo answers the same twice.
const PROBE: &str = r#"
game memo-probe {
  title "Memo probe"
  players 2
  setup setup.game
  turn turn.play
  durations turn
  default_duration turn
}

kind token {
  field n: int = 0
  field link: token? = none
  field home: zone = pile
  field boost: int = 0
}

zone pile shared public ordered holds token
zone bag shared public ordered holds token
zone hand per player public ordered holds token

player {
  score: int = 0
  held: token? = none
}

global {
  tally: int = 0
  other: int = 0
  lit: bool = false
}

token "a" { n 1 }

// A field read through a modifier that reads a global.
modifier lit_bag {
  to t when lit and t in bag
  t.boost += 1
}

func g_tally() = [tally for x in [0]]
func g_both() = [tally + other for x in [0]]
func g_scores() = [p.score for p in players()]
func g_ns() = [t.n for t in pile]
func g_pile() = [count(pile) for x in [0]]
func g_bag() = [count(bag) for x in [0]]
func g_hand(p: player) = [t.n for t in p.hand]
func g_zone(z: zone) = [t.n for t in z]
func g_token(t: token) = [t.n for x in [0]]
func g_pile_of(t: token) = [count(t.under) for x in [0]]
func g_beneath(t: token) = [u.n for u in t.under]
func g_hand_total(p: player) = sum(g_hand(p))
func g_hand_beneath(p: player) = [sum([u.n for u in t.under]) for t in p.hand]
func g_printed(t: token) = [t.def.n for x in [0]]
func g_defs() = [d for d in definitions("token")]
func g_which(i: int) = nth([pile, bag], i)
func g_count_which(i: int) = [count(g_which(i)) for x in [0]]
func g_flat() = flatten([pile, bag])
func g_printed_all() = [d.n for d in g_defs()]
func g_linked(t: token) = [t.link.n for x in [0]]
func g_held(p: player) = [p.held.n for x in [0]]
func g_listed(l: list token) = [u.n for u in l]
func g_linked_twice(t: token) = [sum(g_linked(t)) + sum(g_linked(t)) for x in [0]]
func g_listed_given(l: list token) = [sum(g_token(u)) for u in l]
func g_any(l: list any) = [x.score for x in l]
func g_zones(l: list zone) = [[u.n for u in z] for z in l]
func g_home(t: token) = [[u.n for u in t.def.home] for y in [0]]
func g_home_count(t: token) = [count(t.def.home) for y in [0]]
func g_look(l: list zone, k: int) = [count([u in z where u.n == k]) for z in l]
func g_where(l: list zone, z: zone) = [index_of(l, z) for y in [0]]
func g_boost(t: token) = [t.boost for x in [0]]

proc setup.game() {
  create "a" in pile owned by first(players())
}

proc turn.play() {
  let p = first(players())
  let a = g_tally()
  tally += 1
  if g_tally() == a { end draw "stale after a global changed" }
  let a2 = g_both()
  other += 1
  if g_both() == a2 { end draw "stale after the second of two globals read changed" }
  let a3 = g_tally()
  other += 1
  tally += 1
  if g_tally() == a3 { end draw "stale after a global changed with another" }
  let b = g_scores()
  p.score += 1
  if g_scores() == b { end draw "stale after a player's field changed" }
  let c = g_ns()
  let t = first(pile)
  t.n += 1
  if g_ns() == c { end draw "stale after an object's field changed" }
  let d = g_ns()
  modify t.n += 10 until turn
  if g_ns() == d { end draw "stale after a temporary change" }
  let e = g_ns()
  expire turn
  if g_ns() == e { end draw "stale after a temporary change ended" }
  let f = g_pile()
  create "a" in pile owned by p
  if g_pile() == f { end draw "stale after an object was created" }
  let h = g_bag()
  move first(pile) to bag
  if g_bag() == h { end draw "stale after an object moved" }
  let q = last(players())
  let i = g_hand(q)
  let i2 = g_hand_total(q)
  let i3 = g_zone(q.hand)
  let i4 = g_zone(bag)
  let i6 = g_count_which(1)
  let i7 = g_flat()
  move first(pile) to q.hand
  if g_hand(q) == i { end draw "stale after an object came into a player's zone" }
  if g_hand_total(q) == i2 { end draw "stale through a function that calls one" }
  if g_zone(q.hand) == i3 { end draw "stale after an object came into a zone given" }
  if g_zone(bag) != i4 { end draw "a zone given was read as another" }
  if g_flat() == i7 { end draw "stale after zones flattened changed" }
  create "a" in bag owned by p
  if g_zone(bag) == i4 { end draw "stale after an object came into a shared zone given" }
  if g_count_which(1) == i6 { end draw "stale after a zone a function named changed" }
  let j = g_hand(q)
  let u = first(q.hand)
  u.n += 5
  if g_hand(q) == j { end draw "stale after an object in a player's zone changed" }
  let k = g_token(u)
  u.n += 1
  if g_token(u) == k { end draw "stale after an object given changed" }
  let l = g_pile_of(u)
  create "a" in bag owned by p
  put first(bag) under u
  if g_pile_of(u) == l { end draw "stale after an object went beneath one given" }
  let m = g_beneath(u)
  let w = first(u.under)
  w.n += 7
  if g_beneath(u) == m { end draw "stale after an object beneath one given changed" }
  let o = g_hand_beneath(q)
  w.n += 1
  if g_hand_beneath(q) == o { end draw "stale after an object in a pile in a player's zone changed" }
  let r = g_hand(p)
  move first(bag) to p.hand
  if g_hand(p) == r { end draw "stale after the other player's zone changed" }
  // Objects the checker cannot place, found as the call runs: held in a field, by a player, in
  // a list given, and through a call found remembered.
  create "a" in bag owned by p
  let x = first(bag)
  u.link = x
  let s1 = g_linked(u)
  let s4 = g_linked_twice(u)
  x.n += 3
  if g_linked(u) == s1 { end draw "stale after an object held in a field changed" }
  if g_linked_twice(u) == s4 { end draw "stale through a call found remembered" }
  p.held = x
  let s2 = g_held(p)
  x.n += 1
  if g_held(p) == s2 { end draw "stale after an object a player holds changed" }
  let s3 = g_listed([x])
  let s5 = g_token(x)
  let s6 = g_listed_given([x])
  x.n += 1
  if g_listed([x]) == s3 { end draw "stale after an object in a list given changed" }
  if g_token(x) == s5 { end draw "stale after an object given changed (again)" }
  if g_listed_given([x]) == s6 { end draw "stale after an object passed on to a call found remembered changed" }
  // A value the checker knows nothing of (a list of anything, of zones, a zone a definition
  // names) is not taken for objects alone (from a review).
  let s7 = g_any([p])
  p.score += 1
  if g_any([p]) == s7 { end draw "stale after a player's field read by name changed" }
  let s8 = g_zones([pile])
  let s9 = g_home(x)
  let s10 = g_home_count(x)
  create "a" in pile owned by p
  if g_zones([pile]) == s8 { end draw "stale after an object came into a zone in a list given" }
  if g_home(x) == s9 { end draw "stale after an object came into a zone a definition names" }
  if g_home_count(x) == s10 { end draw "stale after a zone a definition names grew" }
  create "a" in pile owned by p
  let y = first(pile)
  let k7 = g_look([pile], 7)
  let k8 = g_look([pile], 8)
  let k9 = g_look([pile], 9)
  let s11 = g_look([pile], y.n + 4)
  y.n += 4
  if g_look([pile], y.n) == s11 { end draw "stale after an object a walk looked past changed" }
  // A field read through a modifier that read a global as it was worked out: the call that
  // read it holds only while that global does.
  create "a" in bag owned by p
  let z = first(bag)
  let s12 = g_boost(z)
  lit = true
  if g_boost(z) == s12 { end draw "stale after a global a modifier reads changed" }
  win p "every change was seen"
}
"#;

#[test]
fn every_kind_of_change_gives_the_state_a_new_version() {
    use arbiter::runtime::state::Mode;
    use arbiter::runtime::{Setup, Status};
    let built = common::game_text("memo-probe.arb", PROBE);
    let engine = Engine::new(&built.game);
    let mut st = engine.new_state(Mode::Game, Setup { players: 2, seed: 1, decklists: vec![] }).unwrap();
    assert!(matches!(engine.advance(&mut st), Ok(Status::Ended)), "the probe ends without a decision");
    let result = st.result.expect("a result");
    assert_eq!(result.reason, "every change was seen");
    assert_eq!(result.winners, vec![0]);
}

/// Each global and each player's field has its own number: the one number of a set of them
/// (`State::globals_number`, what a kept call is stamped with) stays while others change, and is
/// new when one of the set changes, also after the state has passed to another thread (whose
/// block of version numbers may be older than the state's).
#[test]
fn a_set_of_globals_keeps_its_number_while_others_change() {
    use arbiter::ir::ReadSet;
    use arbiter::runtime::Setup;
    use arbiter::runtime::state::Mode;
    let built = common::game_text("memo-probe.arb", PROBE);
    let engine = Engine::new(&built.game);
    let mut st = engine.new_state(Mode::Game, Setup { players: 2, seed: 1, decklists: vec![] }).unwrap();
    let at = |name: &str| built.game.global_fields.iter().position(|g| g.name == name).unwrap();
    let (tally, other) = (at("tally"), at("other"));
    let mut read = ReadSet::default();
    read.add(tally);
    let change = |st: &mut State, i: usize| {
        st.touch();
        st.global_changed(i);
    };
    change(&mut st, other);
    let before = st.globals_number(read);
    change(&mut st, other);
    assert_eq!(st.globals_number(read), before, "another global changed");
    change(&mut st, tally);
    let after = st.globals_number(read);
    assert_ne!(after, before, "the global read changed");
    // Many changes on another thread first (its numbers come from a newer block), then the
    // state goes on here, whose block is older: its numbers still grow.
    let mut st = std::thread::spawn(move || {
        for _ in 0..3 {
            change(&mut st, other);
        }
        st
    })
    .join()
    .unwrap();
    let there = st.globals_number(read);
    assert_eq!(there, after);
    let mut any = read;
    any.add(other);
    let both = st.globals_number(any);
    change(&mut st, tally);
    assert!(st.globals_number(read) > there && st.globals_number(any) > both, "a change here is newer than the other thread's");
}

/// What the checker works out each probe function reads (`ir::CallReads`): a zone named through a
/// parameter is that parameter's instance, an object given is read through its own number, and
/// objects beneath one given are not covered by it (so the function is remembered for one version
/// only).
#[test]
fn the_checker_bounds_what_a_function_reads() {
    use arbiter::ir::{CallReads, GivenObject, Returned, ZoneOwner};
    let built = common::game_text("memo-probe.arb", PROBE);
    let game = &built.game;
    let reads = |name: &str| {
        let f = game.funcs.iter().position(|f| f.info.name == name).unwrap_or_else(|| panic!("no function {name}"));
        game.call_reads[f].clone()
    };
    let zone = |name: &str| game.zones.iter().position(|z| z.name == name).map(|z| u16::try_from(z).unwrap()).unwrap();
    let only = |name: &str| match reads(name) {
        CallReads::Only(d) => d,
        CallReads::Everything => panic!("{name} reads everything"),
    };
    assert_eq!(only("g_hand").zones, vec![(zone("hand"), ZoneOwner::Param(0))]);
    assert_eq!(only("g_hand_total").zones, vec![(zone("hand"), ZoneOwner::Param(0))], "a call's reads are its callee's");
    assert_eq!(only("g_zone").zones, vec![(0, ZoneOwner::ZoneParam(0))]);
    assert_eq!(only("g_ns").zones, vec![(zone("pile"), ZoneOwner::Any)]);
    use arbiter::ir::ReadSet;
    let global = |name: &str| game.global_fields.iter().position(|g| g.name == name).unwrap();
    let mut tally = ReadSet::default();
    tally.add(global("tally"));
    assert_eq!((only("g_tally").globals, only("g_tally").players), (tally, ReadSet::default()), "a global, by its number");
    let mut both = tally;
    both.add(global("other"));
    assert_eq!(only("g_both").globals, both);
    let mut scores = ReadSet::default();
    scores.add(game.player_fields.iter().position(|f| f.name == "score").unwrap());
    scores.add_out();
    assert_eq!((only("g_scores").players, only("g_scores").globals), (scores, ReadSet::default()), "a player's field, and who is out");
    assert_eq!(only("g_token").objects, vec![GivenObject::Param(0)]);
    assert_eq!(only("g_pile_of").objects, vec![GivenObject::Param(0)], "counting what lies beneath reads the object given");
    assert!(only("g_beneath").seen, "the objects beneath one given are not covered by it: they are found as the call runs");
    for f in ["g_linked", "g_held", "g_listed", "g_linked_twice", "g_listed_given"] {
        assert!(only(f).seen, "{f}: an object held in a field, by a player or in a list is found as the call runs");
    }
    assert!(!only("g_token").seen && !only("g_hand_beneath").seen, "objects given, or in a zone read, are not recorded");
    for f in ["g_any", "g_home", "g_home_count"] {
        assert_eq!(reads(f), CallReads::Everything, "{f}: a value that may be a zone or a player is not an object the call records");
    }
    let every_zone = vec![(zone("pile"), ZoneOwner::Any), (zone("bag"), ZoneOwner::Any), (zone("hand"), ZoneOwner::Any)];
    for f in ["g_zones", "g_look"] {
        assert!(only(f).zones == every_zone && !only(f).seen, "{f}: walking a zone of a list given reads every zone: {:?}", only(f));
    }
    assert!(only("g_where").reads_nothing(), "looking a zone up in a list of zones given reads no zone");
    assert!(
        only("g_printed").objects == vec![GivenObject::Param(0)] && !only("g_printed").derived,
        "a printed value reads the object's definition only"
    );
    assert_eq!(
        *only("g_printed_all"),
        arbiter::ir::CallDeps { result: arbiter::ir::Returned::Plain, ..Default::default() },
        "definitions' printed values read nothing"
    );
    let (pile, bag) = (zone("pile"), zone("bag"));
    let which = only("g_which");
    assert!(which.reads_nothing() && which.result == Returned::Zones(1 << pile | 1 << bag), "naming zones reads nothing: {which:?}");
    assert_eq!(
        only("g_count_which").zones,
        vec![(pile, ZoneOwner::Any), (bag, ZoneOwner::Any)],
        "counting a zone named by a call reads it"
    );
    assert_eq!(only("g_flat").zones, vec![(pile, ZoneOwner::Any), (bag, ZoneOwner::Any)], "flattening zones reads them");
    assert!(
        game.funcs.iter().find(|f| f.info.name == "g_which").is_some_and(|f| f.remember),
        "a function that reads nothing is remembered"
    );
    assert_eq!(only("g_hand_beneath").zones, vec![(zone("hand"), ZoneOwner::Param(0))], "a zone covers the piles in it");
}

/// The calls kept across versions are used: in a seeded card game, some answer the memo holds at a
/// decision was worked out at an earlier version (the oracle above checks each is still right).
#[test]
fn calls_are_kept_from_one_version_to_the_next() {
    let b = common::load("bsg-ccg", &[]);
    let engine = Engine::new(&b.game);
    let kept_earlier = Cell::new(0usize);
    common::play_on(&engine, 3, 2, &|st| {
        let evaluator = engine.evaluator(st);
        kept_earlier.set(kept_earlier.get() + evaluator.kept_across_versions());
        false
    });
    assert!(kept_earlier.get() > 0, "no call was kept across versions");
}

/// The game, kinds, zones and fields both `always` probes play with.
const ALWAYS_HEAD: &str = r#"
game always-probe {
  title "Always probe"
  players 2
  setup setup.game
  turn turn.play
}

kind token {
  field n: int = 0
}

zone pile shared public ordered holds token
zone bag shared public ordered holds token

player {
  score: int = 0
}

global {
  tally: int = 0
  flips: int = 0
  turns_played: int = 0
}
"#;

const ALWAYS_PROBE: &str = r#"

always watching {
  let big = [p in players() where tally > 100]
  if count(big) > 0 {
    log "a big tally"
  }
}

always busy {
  flips = flips
}

always tidy {
  lose [p in players() where count(pile) > 3] "a full pile"
}

proc setup.game() {
  tally = 1
}

proc turn.play() {
  win first(players()) "done"
}
"#;

/// The `always` blocks are left unrun while nothing they read has changed since they all last ran
/// and left no mark (`Game::always_reads`, `Engine::advance`). The checker bounds a block of
/// `let`, `if` and `log` over globals and players, and not one that assigns; what a `lose` is given
/// counts among a block's reads (a `lose` of no one leaves no mark); in a seeded card game
/// the engine finds its victory checks quiet at decisions, and a forgetful engine, which runs them
/// every time, never does (`remembering_changes_nothing_in_play` finds both play alike).
#[test]
fn always_blocks_are_left_unrun_while_what_they_read_is_unchanged() {
    let built = common::game_text("always-probe.arb", &format!("{ALWAYS_HEAD}{ALWAYS_PROBE}"));
    let reads = &built.game.always_reads;
    assert_eq!(reads.len(), 3);
    let watching = reads[0].as_ref().expect("`watching` reads what the checker bounds");
    assert!(!watching.globals.is_empty() && !watching.players.is_empty(), "{watching:?}");
    assert!(reads[1].is_none(), "`busy` assigns: it always runs");
    // `lose` of no one leaves no mark: what it is given is read too.
    let tidy = reads[2].as_ref().expect("`tidy` reads what the checker bounds");
    assert_eq!(tidy.zones, vec![(common::zone_id(&built, "pile"), arbiter::ir::ZoneOwner::Any)], "{tidy:?}");
    let b = common::load("bsg-ccg", &[]);
    assert!(b.game.always_reads.iter().all(Option::is_some), "the card game's victory checks are bounded");
    let quiet = |engine: &Engine| {
        let found = Cell::new(0usize);
        common::play_on(engine, 3, 2, &|st| {
            found.set(found.get() + usize::from(st.always_quiet.is_some()));
            false
        });
        found.get()
    };
    assert!(quiet(&Engine::new(&b.game)) > 0, "the victory checks are found quiet at some decisions");
    assert_eq!(quiet(&Engine::new(&b.game).forgetful()), 0, "a forgetful engine runs them every time");
}

const ALWAYS_PLAYED: &str = r#"
token "a" { n 30 }

always watching {
  if tally > 0 and turns_played == 2 {
    log "tally is {tally}"
  }
}

always deaths {
  lose [p in players() where p.score < 0] "below zero"
}

always three immediately {
  if tally >= 30 {
    win first(players()) "thirty"
  }
}

trigger counting {
  on moved(o, src, dst)
  do {
    tally += o.n
    tally -= o.n
    tally += 1
  }
}

proc setup.game() {
  create "a" in pile owned by first(players())
}

proc turn.play() {
  turns_played += 1
  let k = choose first(players()) "Go on" from [1, 2]
  if turns_played == 2 {
    move first(pile) to bag
  }
  if turns_played == 3 {
    let p = first(players())
    p.score = 0 - 1
  }
  if turns_played == 6 {
    end draw "six turns"
  }
}
"#;

/// Played, a game whose `always` blocks the engine may leave unrun plays as a forgetful engine
/// (which runs them every time) plays it, event by event: a `lose` of no one that later puts a
/// player out, and a trigger waiting when a check is due (a move's: it runs on top of the blocks,
/// inside their check, so the `immediately` block does not see its passing change of 30; left
/// unrun, the blocks let it run outside, and P1 won "thirty" — the reviewer's case).
#[test]
fn always_blocks_left_unrun_play_as_if_run() {
    let built = common::game_text("always-played.arb", &format!("{ALWAYS_HEAD}{ALWAYS_PLAYED}"));
    assert!(built.game.always_reads.iter().all(Option::is_some), "every block here may be left unrun");
    let remembering = Engine::new(&built.game);
    let forgetful = Engine::new(&built.game).forgetful();
    for seed in 0..4 {
        // The blocks are found quiet (left unrun) at some decisions: the comparison is of both ways.
        let quiet = Cell::new(0usize);
        let a = common::play_on(&remembering, seed, 2, &|st| {
            quiet.set(quiet.get() + usize::from(st.always_quiet.is_some()));
            false
        });
        assert!(quiet.get() > 0, "seed {seed}: never left unrun");
        let f = common::play_on(&forgetful, seed, 2, &|_| false);
        let json = |st: &State| serde_json::to_string(st).expect("a state serializes");
        assert!(json(&a) == json(&f), "seed {seed}: played differently when the blocks may be left unrun");
        assert!(a.log.iter().any(|e| matches!(&e.kind, arbiter::runtime::state::EventKind::PlayerOut { .. })), "P1 loses below zero");
    }
}
