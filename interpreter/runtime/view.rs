//! What one seat may see: the state projected for a viewer, and events rendered as text with
//! hidden details withheld. `None` as the viewer means everything (traces, explanations).

use super::eval::Ev;
use super::state::*;
use super::value::{ObjId, Seat, Value, ZoneRef, amount_text, zone_name};
use crate::check::ir::{DefId, Game, Visibility};
use crate::syntax::ast::ModifyOp;

fn sees(visible: u64, viewer: Option<Seat>) -> bool {
    viewer.is_none_or(|s| visible & seat_bit(s) != 0)
}

fn def_name(game: &Game, d: DefId) -> String {
    game.def(d).map(|d| d.name.clone()).unwrap_or_else(|| "?".into())
}

fn hidden_name(game: &Game, d: DefId) -> String {
    let kind = game.def(d).and_then(|d| game.kind(d.kind)).map(|k| k.name.as_str()).unwrap_or("object");
    let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {kind}")
}

pub fn place_text(game: &Game, st: &State, p: Place) -> String {
    match p {
        Place::Zone(z) => zone_name(game, z),
        Place::Under(o) => format!("under {}", st.obj(o).map(|x| def_name(game, x.def)).unwrap_or_default()),
        Place::Nowhere => "nowhere".into(),
    }
}

pub fn routine_name(game: &Game, st: &State, r: Routine) -> String {
    let def_of = |o: ObjId| st.obj(o).and_then(|x| game.def(x.def));
    match r {
        Routine::Main => "the game".into(),
        Routine::Scenario => "the scenario".into(),
        Routine::Proc(p) => game.proc_def(p).map(|d| d.info.name.clone()).unwrap_or_default(),
        Routine::Trigger(i) => game.triggers.get(i as usize).map(|d| d.info.name.clone()).unwrap_or_default(),
        Routine::Always(i) => game.always.get(i as usize).map(|d| d.info.name.clone()).unwrap_or_default(),
        Routine::Replace(i) => game.replaces.get(i as usize).map(|d| d.info.name.clone()).unwrap_or_default(),
        Routine::ObjTrigger(o, i) => def_of(o).and_then(|d| d.triggers.get(i as usize)).map(|t| t.info.name.clone()).unwrap_or_default(),
        Routine::ObjReplace(o, i) => def_of(o).and_then(|d| d.replaces.get(i as usize)).map(|t| t.info.name.clone()).unwrap_or_default(),
        Routine::Ability(o, i) => def_of(o).and_then(|d| d.abilities.get(i as usize)).map(|t| t.info.name.clone()).unwrap_or_default(),
    }
}

pub fn routine_cite(game: &Game, r: Routine) -> Option<String> {
    match r {
        Routine::Proc(p) => game.proc_def(p).and_then(|d| d.info.cite.clone()),
        Routine::Trigger(i) => game.triggers.get(i as usize).and_then(|d| d.info.cite.clone()),
        Routine::Always(i) => game.always.get(i as usize).and_then(|d| d.info.cite.clone()),
        Routine::Replace(i) => game.replaces.get(i as usize).and_then(|d| d.info.cite.clone()),
        _ => None,
    }
}

/// `rule challenge.undefended (rulebooks/bsg-ccg/challenge.arb:40; L382-384)`
pub fn cause_text(game: &Game, st: &State, c: &Cause) -> String {
    let name = routine_name(game, st, c.routine);
    let at = if c.span == crate::syntax::span::Span::default() { String::new() } else { game.location(c.span) };
    let cite = routine_cite(game, c.routine)
        .map(|x| match game.section_of(&x) {
            Some(sec) => format!("; {sec}, {x}"),
            None => format!("; {x}"),
        })
        .unwrap_or_default();
    if at.is_empty() { name } else { format!("{name} ({at}{cite})") }
}

fn value_text(game: &Game, st: &State, v: &Value) -> String {
    match v {
        Value::Amount(a) => amount_text(game, a),
        other => Ev::new(game, st).label(other),
    }
}

pub fn event_text(game: &Game, st: &State, e: &Event, viewer: Option<Seat>) -> String {
    let shown = sees(e.visible, viewer);
    let name = |d: DefId| if shown { def_name(game, d) } else { hidden_name(game, d) };
    let dur = |d: Option<usize>| match d.and_then(|i| game.durations.get(i)) {
        Some(n) => format!(" until end of {n}"),
        None => String::new(),
    };
    match &e.kind {
        EventKind::Created { def, to, .. } => format!("{} created in {}", name(*def), place_text(game, st, *to)),
        EventKind::Moved { def, from, to, .. } => {
            format!("{} moved from {} to {}", name(*def), place_text(game, st, *from), place_text(game, st, *to))
        }
        EventKind::Turned { def, up, .. } => format!("{} turned face {}", name(*def), if *up { "up" } else { "down" }),
        EventKind::Put { def, target_def, under, target_known, .. } => {
            let target = if sees(*target_known, viewer) { def_name(game, *target_def) } else { hidden_name(game, *target_def) };
            format!("{} put {} {target}", name(*def), if *under { "under" } else { "over" })
        }
        EventKind::Set { what, old, new } => {
            if shown {
                format!("{what}: {} → {}", value_text(game, st, old), value_text(game, st, new))
            } else {
                "a hidden value changed".to_string()
            }
        }
        EventKind::Modified { def, field, op, value, until, .. } if !shown => {
            let _ = (op, value, until);
            format!("{}.{} changed", name(*def), game.sym(*field))
        }
        EventKind::Modified { def, field, op, value, until, .. } => {
            let op = match op {
                ModifyOp::Add => "+=",
                ModifyOp::Sub => "-=",
                ModifyOp::Set => "=",
                ModifyOp::Insert => "add",
                ModifyOp::Remove => "remove",
            };
            format!("{}.{} {op} {}{}", def_name(game, *def), game.sym(*field), value_text(game, st, value), dur(*until))
        }
        EventKind::Expired { duration, count } => {
            let n = game.durations.get(*duration).cloned().unwrap_or_default();
            format!("{count} effect{} lasting until end of {n} ended", if *count == 1 { "" } else { "s" })
        }
        EventKind::Shuffled { zone } => format!("{} shuffled", zone_name(game, *zone)),
        EventKind::Rolled { sides, result } => format!("rolled {result} on a {sides}-sided die"),
        EventKind::Picked { value } if shown => format!("picked {} at random", value_text(game, st, value)),
        EventKind::Picked { .. } => "picked one at random".to_string(),
        EventKind::Asked { seat, prompt, options } => {
            if shown {
                format!("P{} to choose: {prompt} [{}]", seat + 1, options.join(" | "))
            } else {
                format!("P{} to choose: {prompt}", seat + 1)
            }
        }
        EventKind::Answered { seat, prompt, labels, forced } => {
            let what = if !shown {
                "(secret)".to_string()
            } else if labels.is_empty() {
                "nothing (no legal choice)".to_string()
            } else {
                labels.join(", ")
            };
            let how = if *forced { " (the only choice)" } else { "" };
            format!("P{} chose {what}{how} — {prompt}", seat + 1)
        }
        EventKind::Signal { event, args } => {
            let n = game.events.get(*event as usize).map(|e| e.name.clone()).unwrap_or_default();
            let a: Vec<String> = args.iter().map(|v| value_text(game, st, v)).collect();
            format!("{n}({})", a.join(", "))
        }
        EventKind::Log { text } => text.clone(),
        EventKind::Triggered { routine } => format!("triggered: {}", routine_name(game, st, *routine)),
        EventKind::Replaced { original, by } => {
            let o = game.proc_def(*original).map(|d| d.info.name.clone()).unwrap_or_default();
            format!("instead of {o}: {}", routine_name(game, st, *by))
        }
        EventKind::Revealed { def, .. } => format!("{} revealed", name(*def)),
        EventKind::PlayerOut { seat, reason } => format!("P{} is out: {reason}", seat + 1),
        EventKind::GameOver { result } => result_text(result),
    }
}

/// `game over: P1 wins — reached 10 points`
pub fn result_text(r: &GameResult) -> String {
    let seats = |v: &[Seat]| v.iter().map(|s| format!("P{}", s + 1)).collect::<Vec<_>>().join(" and ");
    match r.winners.as_slice() {
        [] => format!("game over: no winner — {}", r.reason),
        [w] => format!("game over: P{} wins — {}", w + 1, r.reason),
        ws => format!("game over: {} win together — {}", seats(ws), r.reason),
    }
}

/// The log as text, one event per line, indented by depth, each with its cause.
pub fn trace(game: &Game, st: &State, viewer: Option<Seat>, with_causes: bool) -> String {
    trace_of(game, st, &st.log, viewer, with_causes)
}

/// Some events as text (the newest ones, say), as `trace` renders them.
pub fn trace_of(game: &Game, st: &State, events: &[Event], viewer: Option<Seat>, with_causes: bool) -> String {
    let mut out = String::new();
    for e in events {
        if viewer.is_some() && matches!(e.kind, EventKind::Asked { .. }) && !sees(e.visible, viewer) {
            continue;
        }
        let indent = "  ".repeat(e.depth.saturating_sub(1).min(12) as usize);
        let text = event_text(game, st, e, viewer);
        if with_causes {
            out.push_str(&format!("{indent}{text}\n{indent}    ← {}\n", cause_text(game, st, &e.cause)));
        } else {
            out.push_str(&format!("{indent}{text}\n"));
        }
    }
    out
}

fn obj_text(game: &Game, st: &State, o: ObjId, viewer: Option<Seat>) -> String {
    obj_text_in(game, st, o, viewer, false)
}

/// An object as a seat sees it. In a shared zone (`shared`), also whose it is and where it points:
/// the objects its fields refer to (a unit's area, an order token's planet), which are public.
fn obj_text_in(game: &Game, st: &State, o: ObjId, viewer: Option<Seat>, shared: bool) -> String {
    let Some(ob) = st.obj(o) else { return "?".into() };
    let mut s = if sees(ob.known, viewer) { def_name(game, ob.def) } else { hidden_name(game, ob.def) };
    if shared && st.players.len() > 1 {
        // Whose it is, for kinds players own (kept in some per-player zone).
        let kind = game.def(ob.def).map(|d| d.kind);
        let players_own = game.zones.iter().any(|z| z.per_player && (z.holds.is_none() || z.holds == kind));
        let mut extra = if players_own { vec![format!("P{}", ob.controller + 1)] } else { vec![] };
        for (f, v) in &ob.fields {
            if let Value::Obj(x) = v
                && let Some(xo) = st.obj(*x)
            {
                let name = if sees(xo.known, viewer) { def_name(game, xo.def) } else { hidden_name(game, xo.def) };
                extra.push(format!("{} {name}", game.sym(*f)));
            }
        }
        if !extra.is_empty() {
            s.push_str(&format!(" ({})", extra.join(", ")));
        }
    }
    if !ob.face_up {
        s.push_str(" (face down)");
    }
    if !ob.under.is_empty() {
        let inner: Vec<String> = ob.under.iter().map(|u| obj_text(game, st, *u, viewer)).collect();
        s.push_str(&format!(" [over: {}]", inner.join(", ")));
    }
    s
}

fn zone_text(game: &Game, st: &State, z: ZoneRef, viewer: Option<Seat>) -> Option<String> {
    let def = game.zone(z.zone)?;
    let items = st.zone_contents(game, z);
    let name = &def.name;
    let contents_visible = match def.visibility {
        Visibility::Public => true,
        Visibility::Owner => viewer.is_none() || viewer == z.owner,
        Visibility::Hidden => viewer.is_none(),
    };
    if items.is_empty() {
        return Some(format!("{name}: empty"));
    }
    if !contents_visible {
        return Some(format!("{name}: {} hidden", items.len()));
    }
    let list: Vec<String> = items.iter().map(|o| obj_text_in(game, st, *o, viewer, z.owner.is_none())).collect();
    Some(format!("{name} ({}): {}", items.len(), list.join("; ")))
}

/// The state as one seat sees it (or everything, for `None`).
pub fn view(game: &Game, st: &State, viewer: Option<Seat>) -> String {
    let mut out = String::new();
    let ev = Ev::new(game, st);
    if !game.global_fields.is_empty() {
        let g: Vec<String> = game.global_fields.iter().zip(&st.globals).map(|(f, v)| format!("{} {}", f.name, ev.label(v))).collect();
        out.push_str(&format!("game: {}\n", g.join(", ")));
    }
    for (i, p) in st.players.iter().enumerate() {
        let seat = Seat::try_from(i).unwrap_or(0);
        let you = if viewer == Some(seat) { " (you)" } else { "" };
        let out_mark = if p.out { " — out of the game" } else { "" };
        let fields: Vec<String> = game.player_fields.iter().zip(&p.fields).map(|(f, v)| format!("{} {}", f.name, ev.label(v))).collect();
        out.push_str(&format!("P{}{you}{out_mark}: {}\n", i + 1, fields.join(", ")));
        for (zi, z) in game.zones.iter().enumerate() {
            if z.per_player
                && let Some(t) = zone_text(game, st, ZoneRef { zone: zi as u16, owner: Some(seat) }, viewer)
            {
                out.push_str(&format!("  {t}\n"));
            }
        }
    }
    for (zi, z) in game.zones.iter().enumerate() {
        if !z.per_player
            && let Some(t) = zone_text(game, st, ZoneRef { zone: zi as u16, owner: None }, viewer)
        {
            out.push_str(&format!("{t}\n"));
        }
    }
    out
}
