//! The board game's human victory, reached in seeded play (issue 17). Random bots never win it for
//! the humans (0 in 1,600 games), so the seats here follow a scripted policy: the moves a careful
//! beginner makes, written from the decision's prompt and options. It reads only what its seat
//! may: the options it is offered (its own Skill cards, the destinations it drew), and the public
//! colours of the Skill check in progress; the test asserts each object it reads is known to its
//! seat. Everything else it leaves to a seeded random choice.
//!
//! The test plays seeds in order until the humans win and then asserts how: the jumps took the
//! fleet to distance 8, the final jump followed, every resource was above 0, and the winners are
//! exactly the seats that hold no "You Are a Cylon" card. About one game in 25 ends so (8 in seeds
//! 0-199 when this was written), so a change to the rules that makes the humans' victory
//! unreachable fails here.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use arbiter::agents::{Agent, RandomAgent};
use arbiter::ir::Game;
use arbiter::ir::value::Value;
use arbiter::runtime::state::{Answer, Count, Decision, Mode, Place, State, seat_bit};
use arbiter::runtime::view;
use arbiter::runtime::{Engine, Setup, Status};

/// A global of the rulebook, by name.
fn global<'s>(g: &Game, st: &'s State, name: &str) -> &'s Value {
    let i = g.global_fields.iter().position(|v| v.name == name).unwrap_or_else(|| panic!("no global {name}"));
    &st.globals[i]
}

/// An object's field as printed or set (no continuous effects: the policy needs only a Skill
/// card's colour and a destination's distance), read only if the seat knows the object.
fn field(g: &Game, st: &State, seat: u8, o: u32, name: &str) -> Option<Value> {
    let obj = st.obj(o)?;
    assert!(obj.known & seat_bit(seat) != 0 || obj.face_up, "the policy of P{} read object {o}, which it does not know", seat + 1);
    let def = g.def(obj.def)?;
    let sym = *g.sym_index.get(name)?;
    if let Some((_, v)) = obj.fields.iter().find(|(s, _)| *s == sym) {
        return Some(v.clone());
    }
    let idx = g.kinds[def.kind as usize].field(sym)?;
    def.fields.get(idx).cloned().flatten()
}

/// The scripted policy: on a Skill check, add every card of a colour that counts (U405-407); choose
/// the farthest destination (U489-495); in the action step, prefer FTL Control, Weapons Control,
/// Command and launching vipers; play Strategic Planning on a roll. Anything else: random.
fn policy(g: &Game, st: &State, d: &Decision, random: &mut RandomAgent) -> Answer {
    let prompt = &*d.prompt;
    let labels = d.labels();
    let obj = |i: usize| match d.options[i].value {
        Value::Obj(o) => Some(o),
        _ => None,
    };
    if prompt.starts_with("Add cards to the Skill check") {
        let Value::List(colors) = global(g, st, "check_colors").clone() else { panic!("check_colors is not a list") };
        let engineering = matches!(global(g, st, "check_engineering"), Value::Bool(true));
        let limit = match d.count {
            Count::UpTo(k) => k as usize,
            _ => d.options.len(),
        };
        let counts =
            |s: &Value| colors.contains(s) || (engineering && matches!(s, Value::Sym(x) if g.symbols[*x as usize] == "engineering"));
        let picks = (0..d.options.len())
            .filter(|&i| obj(i).and_then(|o| field(g, st, d.seat, o, "skill")).is_some_and(|s| counts(&s)))
            .take(limit)
            .collect();
        return Answer(picks);
    }
    if prompt == "Choose the fleet's destination" {
        let distance = |i: usize| match obj(i).and_then(|o| field(g, st, d.seat, o, "distance")) {
            Some(Value::Int(n)) => n,
            _ => 0,
        };
        return Answer(vec![(0..d.options.len()).max_by_key(|&i| distance(i)).unwrap()]);
    }
    if matches!(d.count, Count::One) {
        let preferred: &[&str] = match prompt {
            "Your action" => &["FTL Control", "Weapons Control", "Command", "launch", "Armory"],
            "Viper activation" => &["launch"],
            "Activate which unmanned viper?" => &["Viper"],
            _ if prompt.starts_with("Play a card on the roll") => &["Strategic Planning"],
            _ => &[],
        };
        if let Some(i) = preferred.iter().find_map(|s| labels.iter().position(|l| l.contains(s))) {
            return Answer(vec![i]);
        }
    }
    random.decide(g, st, d)
}

fn play(engine: &Engine, seed: u64, players: usize) -> State {
    let g = engine.game;
    let decklists = arbiter::runtime::decks::choose_decks(g, players, &[]).unwrap();
    let mut st = engine.new_state(Mode::Game, Setup { players, seed, decklists }).unwrap();
    let mut random = RandomAgent { seed };
    loop {
        match engine.advance(&mut st) {
            Ok(Status::Decision) => {
                let d = st.pending.clone().unwrap();
                let a = policy(g, &st, &d, &mut random);
                engine.answer(&mut st, d.seat, &a).unwrap_or_else(|e| panic!("seed {seed}: the policy's answer was refused: {e:?}"));
            }
            Ok(_) => return st,
            Err(e) => panic!("seed {seed}: engine error: {} at {}", e.message, g.location(e.span)),
        }
    }
}

#[test]
fn the_humans_win_a_seeded_game_through_jumps_to_kobol() {
    let b = common::load("bsg-board", &[]);
    let g = &b.game;
    let engine = Engine::new(g);
    let found = (0..400u64).find_map(|seed| {
        let players = 3 + (seed % 4) as usize;
        let st = play(&engine, seed, players);
        st.result.as_ref().is_some_and(|r| r.reason.starts_with("the humans win")).then_some((seed, players, st))
    });
    let (seed, players, st) = found.expect("no human victory in 400 seeded games of the scripted policy");
    let result = st.result.as_ref().unwrap();
    assert_eq!(result.reason, "the humans win: the fleet reached Kobol with every resource above 0", "seed {seed}");

    // The humans are the seats that hold no "You Are a Cylon" card (U100-110) and were not revealed
    // as Cylons — as the Sympathizer is when no resource is in the red (U272) — and they win
    // together.
    let loyalty = common::zone_id(&b, "loyalty");
    let revealed = g.player_fields.iter().position(|f| f.name == "revealed").expect("the `revealed` player field");
    let cylon = |seat: u8| {
        let holds = st.objects.iter().any(|o| {
            matches!(o.place, Place::Zone(z) if z.zone == loyalty && z.owner == Some(seat))
                && g.def(o.def).is_some_and(|d| d.name.starts_with("You Are a Cylon"))
        });
        holds || st.players[seat as usize].fields[revealed] == Value::Bool(true)
    };
    let humans: Vec<u8> = (0..players as u8).filter(|&s| !cylon(s)).collect();
    assert!(!humans.is_empty() && humans.len() < players, "seed {seed}: humans {humans:?} of {players}");
    let mut winners = result.winners.clone();
    winners.sort_unstable();
    assert_eq!(winners, humans, "seed {seed}: the winners are the human seats");

    // The path: jumps to distance 8 arm the final jump, which ends the game with every resource
    // above 0 (U638-644).
    let Value::Int(distance) = *global(g, &st, "distance") else { panic!("distance is not an int") };
    assert!(distance >= 8, "seed {seed}: distance {distance}");
    for r in ["fuel", "food", "morale", "population"] {
        let Value::Int(n) = *global(g, &st, r) else { panic!("{r} is not an int") };
        assert!(n > 0, "seed {seed}: {r} is {n}");
    }
    let log = view::trace(g, &st, None, false);
    let jumps = log.matches("the fleet jumps to").count();
    assert!(jumps >= 3, "seed {seed}: only {jumps} jumps:\n{log}");
    let armed = log.find("the fleet has reached").unwrap_or_else(|| panic!("seed {seed}: the final jump was never armed"));
    let last = log.rfind("the final jump").unwrap_or_else(|| panic!("seed {seed}: no final jump"));
    assert!(armed < last, "seed {seed}: the final jump came before distance 8 armed it");
    eprintln!("seed {seed}, {players} players: the humans win after {jumps} jumps, distance {distance}");
}
