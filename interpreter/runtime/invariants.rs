//! What every state of a game holds, checked where a state comes from outside the engine (a saved
//! game read back): the engine keeps these true as it plays, so a state that breaks one was
//! edited or damaged, and is refused before anything runs on it — never blamed on the rules.
//!
//! - every zone of the game is there, one instance per player for a zone of each player;
//! - every object is where it says it is: in exactly one zone instance, or under exactly one
//!   other object, or nowhere; its definition, owner and controller exist;
//! - every seat named (the decision's, the result's, a trigger's controller, a value's) is a seat
//!   of the game, and every object a value names exists;
//! - the players, globals and constants are as many as the game declares.

use super::state::{Place, State};
use arbiter_ir::Game;
use arbiter_ir::value::{ObjId, Seat, Value};

/// The first few things wrong with `st` as a state of `game`, in words; none for a sound state.
pub fn problems(game: &Game, st: &State) -> Vec<String> {
    let mut out = Vec::new();
    let players = st.players.len();
    if players < usize::from(game.min_players) || players > usize::from(game.max_players) {
        out.push(format!("it has {players} players; {} is for {} to {}", game.title, game.min_players, game.max_players));
        return out;
    }
    let slots: usize = game.zones.iter().map(|z| if z.per_player { players } else { 1 }).sum();
    if st.zones.len() != slots {
        out.push(format!("it has {} zone instances; the game's zones make {slots} for {players} players", st.zones.len()));
        return out;
    }
    counts(game, st, &mut out);
    objects_in_zones(game, st, &mut out);
    seats_named(game, st, &mut out);
    out.truncate(MOST);
    out
}

/// How many problems are named at most.
const MOST: usize = 5;

fn counts(game: &Game, st: &State, out: &mut Vec<String>) {
    if st.globals.len() != game.global_fields.len() {
        out.push(format!("it has {} game fields; the game declares {}", st.globals.len(), game.global_fields.len()));
    }
    if st.consts.len() != game.consts.len() {
        out.push(format!("it has {} constants; the game declares {}", st.consts.len(), game.consts.len()));
    }
    for (i, p) in st.players.iter().enumerate() {
        if p.fields.len() != game.player_fields.len() {
            out.push(format!("P{} has {} fields; the game declares {} for a player", i + 1, p.fields.len(), game.player_fields.len()));
        }
    }
}

/// The zone and the owner each zone instance is, by its place in `st.zones`.
fn instances(game: &Game, players: usize) -> Vec<(u16, Option<Seat>)> {
    let mut v = Vec::new();
    for (i, z) in game.zones.iter().enumerate() {
        let id = u16::try_from(i).unwrap_or(u16::MAX);
        if z.per_player {
            v.extend((0..players).map(|p| (id, Some(Seat::try_from(p).unwrap_or(Seat::MAX)))));
        } else {
            v.push((id, None));
        }
    }
    v
}

fn objects_in_zones(game: &Game, st: &State, out: &mut Vec<String>) {
    let n = st.objects.len();
    let players = st.players.len();
    let zone_name = |z: u16, owner: Option<Seat>| {
        let name = game.zone(z).map_or("?", |d| d.name.as_str());
        owner.map_or_else(|| name.to_string(), |o| format!("P{}.{name}", o + 1))
    };
    // How many times each object is listed in a zone instance or under another object.
    let mut listed = vec![0u32; n];
    for (slot, (zone, owner)) in st.zones.iter().zip(instances(game, players)) {
        for &o in slot.iter() {
            let here = zone_name(zone, owner);
            match st.obj(o) {
                None => out.push(format!("zone {here} holds object {o}, but there are {n} objects")),
                Some(ob) => {
                    if let Some(c) = listed.get_mut(o as usize) {
                        *c += 1;
                    }
                    let says = matches!(ob.place, Place::Zone(z) if z.zone == zone && z.owner == owner);
                    if !says {
                        out.push(format!("zone {here} holds object {o}, which is elsewhere ({})", place_text(game, &ob.place)));
                    }
                }
            }
        }
    }
    // Each object under another (a pile), listed by the one it lies under.
    for (i, ob) in st.objects.iter().enumerate() {
        let o = ObjId::try_from(i).unwrap_or(ObjId::MAX);
        for &u in &ob.under {
            match st.obj(u) {
                Some(x) if x.place == Place::Under(o) => {
                    if let Some(c) = listed.get_mut(u as usize) {
                        *c += 1;
                    }
                }
                _ => out.push(format!("object {u}, said to lie under object {o}, is not there")),
            }
        }
    }
    for (i, ob) in st.objects.iter().enumerate() {
        let o = ObjId::try_from(i).unwrap_or(ObjId::MAX);
        if game.defs.get(ob.def as usize).is_none() {
            out.push(format!("object {o} is of definition {}, which the game does not have", ob.def));
        }
        if usize::from(ob.owner) >= players || usize::from(ob.controller) >= players {
            out.push(format!("object {o} belongs to a seat the game does not have (P{}, P{})", ob.owner + 1, ob.controller + 1));
        }
        let times = listed.get(i).copied().unwrap_or(0);
        match ob.place {
            Place::Nowhere if times > 0 => out.push(format!("object {o} is nowhere, but listed in a zone")),
            Place::Nowhere => {}
            _ if times == 0 => out.push(format!("object {o} is in {}, which does not hold it", place_text(game, &ob.place))),
            _ if times > 1 => out.push(format!("object {o} is in {times} places at once")),
            _ => {}
        }
        if let Place::Zone(z) = ob.place
            && game.zone(z.zone).is_some_and(|d| d.per_player != z.owner.is_some())
        {
            out.push(format!("object {o} is in zone {}, without the right owner", zone_name(z.zone, z.owner)));
        }
    }
}

fn place_text(game: &Game, p: &Place) -> String {
    match p {
        Place::Zone(z) => {
            let name = game.zone(z.zone).map_or("a zone the game does not have", |d| d.name.as_str());
            z.owner.map_or_else(|| name.to_string(), |o| format!("P{}.{name}", o + 1))
        }
        Place::Under(o) => format!("a pile under object {o}"),
        Place::Nowhere => "nowhere".to_string(),
    }
}

fn seats_named(game: &Game, st: &State, out: &mut Vec<String>) {
    let players = st.players.len();
    let seat_ok = |s: Seat| usize::from(s) < players;
    if let Some(d) = &st.pending
        && !seat_ok(d.seat)
    {
        out.push(format!("the decision asked is P{}'s, a seat the game does not have", d.seat + 1));
    }
    if let Some(r) = &st.result {
        let seats = r.winners.iter().chain(r.losers.iter().map(|(s, _)| s));
        if let Some(s) = seats.copied().find(|s| !seat_ok(*s)) {
            out.push(format!("its result names P{}, a seat the game does not have", s + 1));
        }
    }
    if let Some(t) = st.triggers.iter().find(|t| t.controller.is_some_and(|s| !seat_ok(s))) {
        out.push(format!("a trigger waiting is controlled by P{}, a seat the game does not have", t.controller.unwrap_or(0) + 1));
    }
    let values = st
        .globals
        .iter()
        .chain(st.players.iter().flat_map(|p| p.fields.iter()))
        .chain(st.envs.iter().flat_map(|e| e.slots.iter()))
        .chain(st.temp_mods.iter().map(|m| &m.value))
        .chain(st.triggers.iter().flat_map(|t| t.args.iter()));
    for v in values {
        if let Some(bad) = bad_reference(game, st, v, 0) {
            out.push(bad);
            return;
        }
    }
    if let Some(m) = st.temp_mods.iter().find(|m| st.obj(m.obj).is_none()) {
        out.push(format!("a modifier is on object {}, which does not exist", m.obj));
    }
    // `u32::MAX`: a frame that runs in no environment (the mark under the `always` blocks'
    // routines, left on the stack when one of them ends the game).
    if let Some(f) = st.frames.iter().find(|f| f.env != u32::MAX && f.env as usize >= st.envs.len()) {
        out.push(format!("a pending effect runs in environment {}, but there are {}", f.env, st.envs.len()));
    }
}

/// A seat, object, zone or definition a value names that the game or state does not have.
fn bad_reference(game: &Game, st: &State, v: &Value, depth: u32) -> Option<String> {
    let players = st.players.len();
    match v {
        Value::Player(s) if usize::from(*s) >= players => Some(format!("a value names P{}, a seat the game does not have", s + 1)),
        Value::Obj(o) | Value::Ability(o, _) if st.obj(*o).is_none() => Some(format!("a value names object {o}, which does not exist")),
        Value::Def(d) if game.defs.get(*d as usize).is_none() => {
            Some(format!("a value names definition {d}, which the game does not have"))
        }
        Value::Zone(z) if game.zone(z.zone).is_none() || z.owner.is_some_and(|o| usize::from(o) >= players) => {
            Some("a value names a zone the game does not have".to_string())
        }
        // (Lists nest as deep as the rules built them; a damaged one deeper than this is refused.)
        Value::List(items) if depth < 64 => items.iter().find_map(|x| bad_reference(game, st, x, depth + 1)),
        Value::List(_) => Some("a value nests lists deeper than any game builds".to_string()),
        _ => None,
    }
}
