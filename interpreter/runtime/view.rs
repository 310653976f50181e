//! What one seat may see: the state projected for a viewer, and events rendered as text with
//! hidden details withheld. `None` as the viewer means everything (traces, explanations).

use super::eval::Evaluator;
use super::state::*;
use arbiter_ir::display::{Clip, amount_text, zone_name};
use arbiter_ir::operators::ModifyOperator;
use arbiter_ir::value::{ObjId, Seat, Value, ZoneRef};
use arbiter_ir::{DefId, Game, KindId, Visibility};
use arbiter_syntax::budgets::{SHOWN_LIMIT, VIEW_LIMIT};
use arbiter_syntax::span::Span;

pub fn sees(visible: u64, viewer: Option<Seat>) -> bool {
    viewer.is_none_or(|s| visible & seat_bit(s) != 0)
}

/// `P1`, `P1 and P3`, `P1, P2 and P3`.
fn join_and(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
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
        Routine::LastingReplace(i) => game
            .lasting
            .get(i as usize)
            .and_then(|d| game.durations.get(d.until?).map(|u| format!("an effect lasting until the end of the {u}")))
            .unwrap_or_else(|| "a lasting effect".to_string()),
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
        Routine::LastingReplace(_) => None,
        _ => None,
    }
}

/// `rule challenge.undefended (rulebooks/bsg-ccg/challenge.arb:40; L382-384)`
/// The rule behind a cause: its name, where (`file:line`, empty when nowhere), its citation and
/// the section of the seed text the citation falls in.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RuleRef {
    pub rule: String,
    pub at: String,
    pub cite: Option<String>,
    pub section: Option<String>,
}

pub fn rule_ref(game: &Game, st: &State, routine: Routine, span: Span) -> RuleRef {
    // Inside a named step of a procedure: the step, with its own citation where it has one.
    let step = if span == Span::default() { None } else { game.step_at(span) };
    let cite = step.and_then(|s| s.cite.clone()).or_else(|| routine_cite(game, routine));
    let name = routine_name(game, st, routine);
    RuleRef {
        rule: match step {
            Some(s) => format!("{name}, step {}", s.name),
            None => name,
        },
        at: if span == Span::default() { String::new() } else { game.location(span) },
        section: cite.as_deref().and_then(|c| game.section_of(c)),
        cite,
    }
}

pub fn cause_text(game: &Game, st: &State, c: &Cause) -> String {
    rule_text(rule_ref(game, st, c.routine, c.span))
}

/// `rule (file:line; section, citation)`
fn rule_text(r: RuleRef) -> String {
    let RuleRef { rule, at, cite, section } = r;
    let cite = match (section, cite) {
        (Some(sec), Some(x)) => format!("; {sec}, {x}"),
        (None, Some(x)) => format!("; {x}"),
        _ => String::new(),
    };
    if at.is_empty() { rule } else { format!("{rule} ({at}{cite})") }
}

/// An object as one seat may see it in an event: which object it is, or only what kind of thing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    /// The seat may know it: the object and its definition.
    Known { obj: ObjId, def: DefId },
    /// Withheld: neither the object nor its definition, only its kind ("a card").
    Hidden { kind: KindId },
}

/// One event as one seat may see it. Every object the event refers to is in `objects`, named
/// (`Seen::Known`) only where the seat may know it: the event's subject by the event's own
/// visibility (who knew it when it happened), the objects it only refers to (a pile's holder, an
/// object in a value, the owner of a rule that triggered) by who knows them now. `text` is the
/// line the log shows, written from the same decisions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectedEvent {
    pub depth: u16,
    /// Whether the event's details (values, options, answers, a random pick) are shown.
    pub details: bool,
    pub objects: Vec<Seen>,
    pub text: String,
}

/// An event as `viewer` sees it (`None`: everything); `None` for an event the seat does not see
/// at all (another seat being asked).
pub fn project_event(game: &Game, st: &State, e: &Event, viewer: Option<Seat>) -> Option<ProjectedEvent> {
    if viewer.is_some() && matches!(e.kind, EventKind::Asked { .. }) && !sees(e.visible, viewer) {
        return None;
    }
    Some(project(game, st, e, viewer))
}

/// A log as `viewer` sees it: each event with its index in the log, as `project_event` gives it.
pub fn project_log<'a>(
    game: &Game,
    st: &State,
    events: impl IntoIterator<Item = &'a Event>,
    viewer: Option<Seat>,
) -> Vec<(usize, ProjectedEvent)> {
    events.into_iter().enumerate().filter_map(|(i, e)| project_event(game, st, e, viewer).map(|p| (i, p))).collect()
}

struct Projection<'a> {
    game: &'a Game,
    st: &'a State,
    viewer: Option<Seat>,
    seen: Vec<Seen>,
}

impl Projection<'_> {
    fn knows_now(&self, o: ObjId) -> bool {
        self.st.obj(o).is_some_and(|x| sees(x.known, self.viewer))
    }

    fn kind_of(&self, d: DefId) -> KindId {
        self.game.def(d).map(|d| d.kind).unwrap_or_default()
    }

    /// An object named if `known`, else only its kind.
    fn obj(&mut self, o: ObjId, d: DefId, known: bool) -> String {
        if known {
            self.seen.push(Seen::Known { obj: o, def: d });
            def_name(self.game, d)
        } else {
            self.seen.push(Seen::Hidden { kind: self.kind_of(d) });
            hidden_name(self.game, d)
        }
    }

    /// An object the event only refers to: named to whoever knows it now.
    fn obj_now(&mut self, o: ObjId) -> Option<String> {
        let d = self.st.obj(o)?.def;
        Some(self.obj(o, d, self.knows_now(o)))
    }

    fn place(&mut self, p: Place) -> String {
        match p {
            Place::Under(o) => format!("under {}", self.obj_now(o).unwrap_or_default()),
            other => place_text(self.game, self.st, other),
        }
    }

    /// A value as the log shows it (an amount in full), its objects as `label` names them, cut
    /// to `SHOWN_LIMIT` bytes.
    fn value(&mut self, v: &Value) -> String {
        match v {
            Value::Amount(a) => amount_text(self.game, a),
            other => {
                let mut out = Clip::new(SHOWN_LIMIT);
                self.label(other, &mut out);
                out.finish()
            }
        }
    }

    /// A value as a choice names it, each object in it named only to whoever knows it now (the
    /// objects of a list past what `out` takes are not named at all).
    fn label(&mut self, v: &Value, out: &mut Clip) {
        match v {
            Value::Obj(o) => out.push(&self.obj_now(*o).unwrap_or_else(|| format!("#{o}"))),
            Value::List(l) => out.items(l, |x, out| self.label(x, out)),
            Value::Text(t) => out.push(t),
            Value::Ability(o, i) => out.push(&match self.st.obj(*o).map(|x| x.def) {
                Some(d) if self.knows_now(*o) => {
                    self.seen.push(Seen::Known { obj: *o, def: d });
                    Evaluator::new(self.game, self.st).ability_label(*o, *i)
                }
                Some(d) => format!("an ability of {}", self.obj(*o, d, false)),
                None => Evaluator::new(self.game, self.st).ability_label(*o, *i),
            }),
            other => out.push(&Evaluator::new(self.game, self.st).label(other)),
        }
    }

    /// A rule by name; a rule of an object the seat does not know only as "a rule of a card".
    fn routine(&mut self, r: Routine) -> String {
        match routine_obj(r) {
            Some(o) => match self.st.obj(o).map(|x| x.def) {
                Some(d) if !self.knows_now(o) => format!("a rule of {}", self.obj(o, d, false)),
                Some(d) => {
                    self.seen.push(Seen::Known { obj: o, def: d });
                    routine_name(self.game, self.st, r)
                }
                None => routine_name(self.game, self.st, r),
            },
            None => routine_name(self.game, self.st, r),
        }
    }
}

fn routine_obj(r: Routine) -> Option<ObjId> {
    match r {
        Routine::ObjTrigger(o, _) | Routine::ObjReplace(o, _) | Routine::Ability(o, _) => Some(o),
        _ => None,
    }
}

fn project(game: &Game, st: &State, e: &Event, viewer: Option<Seat>) -> ProjectedEvent {
    let shown = sees(e.visible, viewer);
    let mut p = Projection { game, st, viewer, seen: Vec::new() };
    let dur = |d: Option<usize>| match d.and_then(|i| game.durations.get(i)) {
        Some(n) => format!(" until end of {n}"),
        None => String::new(),
    };
    let text = match &e.kind {
        EventKind::Created { obj, def, to } => {
            let n = p.obj(*obj, *def, shown);
            format!("{n} created in {}", p.place(*to))
        }
        EventKind::Moved { obj, def, from, to } => {
            let n = p.obj(*obj, *def, shown);
            let from = p.place(*from);
            format!("{n} moved from {from} to {}", p.place(*to))
        }
        EventKind::Turned { obj, def, up } => format!("{} turned face {}", p.obj(*obj, *def, shown), if *up { "up" } else { "down" }),
        EventKind::Put { obj, def, target, target_def, under, target_known } => {
            let n = p.obj(*obj, *def, shown);
            let target = p.obj(*target, *target_def, sees(*target_known, viewer));
            format!("{n} put {} {target}", if *under { "under" } else { "over" })
        }
        EventKind::Set { what, old, new, .. } => {
            if shown {
                let old = p.value(old);
                format!("{what}: {old} → {}", p.value(new))
            } else {
                "a hidden value changed".to_string()
            }
        }
        EventKind::Modified { obj, def, field, .. } if !shown => format!("{}.{} changed", p.obj(*obj, *def, false), game.sym(*field)),
        EventKind::Modified { obj, def, field, op, value, until } => {
            let op = match op {
                ModifyOperator::Add => "+=",
                ModifyOperator::Sub => "-=",
                ModifyOperator::Set => "=",
                ModifyOperator::Insert => "add",
                ModifyOperator::Remove => "remove",
            };
            let n = p.obj(*obj, *def, true);
            format!("{n}.{} {op} {}{}", game.sym(*field), p.value(value), dur(*until))
        }
        EventKind::Expired { duration, count } => {
            let n = game.durations.get(*duration).cloned().unwrap_or_default();
            format!("{count} effect{} lasting until end of {n} ended", if *count == 1 { "" } else { "s" })
        }
        EventKind::Shuffled { zone } => format!("{} shuffled", zone_name(game, *zone)),
        EventKind::Rolled { sides, result } => {
            let an = matches!(sides, 8 | 11 | 18) || (80..90).contains(sides) || (800..900).contains(sides);
            format!("rolled {result} on {} {sides}-sided die", if an { "an" } else { "a" })
        }
        EventKind::Picked { value } if shown => format!("picked {} at random", p.value(value)),
        EventKind::Picked { .. } => "picked one at random".to_string(),
        EventKind::Asked { seat, prompt, options } => {
            if shown {
                format!("P{} to choose: {prompt} [{}]", seat + 1, options.join(" | "))
            } else {
                format!("P{} to choose: {prompt}", seat + 1)
            }
        }
        EventKind::Answered { seat, prompt, labels, forced, plain, withheld } => {
            // That there was no other choice, and which of alike options was taken, are the
            // chooser's to know: the others read what was chosen, and an object chosen that they
            // did not know then and do not know now, by its kind.
            let chooser = viewer.is_none() || viewer == Some(*seat);
            let labels = if chooser { labels } else { plain.as_ref().unwrap_or(labels) };
            let mut labels: Vec<String> = labels.iter().map(ToString::to_string).collect();
            if shown && !chooser {
                for w in withheld {
                    let known = sees(w.known, viewer) || p.knows_now(w.obj);
                    let name = p.obj(w.obj, w.def, known);
                    if let Some(l) = labels.get_mut(usize::from(w.label)).filter(|_| !known) {
                        *l = name;
                    }
                }
            }
            // A secret choice is told to the others without its question: which question was asked
            // can tell which branch of the rules the chooser took (an overboost planned, or a
            // single card and a bluff), and that is the chooser's secret too.
            if !shown {
                return ProjectedEvent { depth: e.depth, details: shown, objects: p.seen, text: format!("P{} chose in secret", seat + 1) };
            }
            let what = if labels.is_empty() {
                if *forced && chooser { "nothing (no legal choice)" } else { "nothing" }.to_string()
            } else {
                labels.join(", ")
            };
            // Nothing at all to choose says so once: "(no legal choice)", not "the only choice" too.
            let how = if *forced && chooser && !labels.is_empty() { " (the only choice)" } else { "" };
            format!("P{} chose {what}{how} — {prompt}", seat + 1)
        }
        EventKind::Signal { event, args } => {
            let n = game.events.get(*event as usize).map(|e| e.name.clone()).unwrap_or_default();
            let a: Vec<String> = args.iter().map(|v| p.value(v)).collect();
            format!("{n}({})", a.join(", "))
        }
        EventKind::Log { text } => text.to_string(),
        EventKind::Triggered { routine } => format!("triggered: {}", p.routine(*routine)),
        EventKind::Replaced { original, by } => {
            let o = game.proc_def(*original).map(|d| d.info.name.clone()).unwrap_or_default();
            format!("instead of {o}: {}", p.routine(*by))
        }
        // To everyone, revealed; to some seats only (`reveal c to p`), shown to them: the others
        // see that it was shown, and to whom, not what.
        EventKind::Revealed { obj, def } if e.visible == ALL => format!("{} revealed", p.obj(*obj, *def, shown)),
        EventKind::Revealed { obj, def } => {
            let who: Vec<String> = (0..st.players.len())
                .filter_map(|s| Seat::try_from(s).ok())
                .filter(|s| e.visible & seat_bit(*s) != 0)
                .map(|s| if viewer == Some(s) { "you".to_string() } else { format!("P{}", s + 1) })
                .collect();
            format!("{} shown to {}", p.obj(*obj, *def, shown), join_and(&who))
        }
        EventKind::PlayerOut { seat, reason } => format!("P{} is out: {reason}", seat + 1),
        EventKind::GameOver { result } => result_text(result),
    };
    ProjectedEvent { depth: e.depth, details: shown, objects: p.seen, text }
}

/// An event as one line of text for `viewer` (see `project_event`).
pub fn event_text(game: &Game, st: &State, e: &Event, viewer: Option<Seat>) -> String {
    project(game, st, e, viewer).text
}

/// A cause as `viewer` sees it: a rule of an object the seat does not know is not named.
pub fn cause_text_for(game: &Game, st: &State, c: &Cause, viewer: Option<Seat>) -> String {
    rule_text(rule_ref_for(game, st, c, viewer))
}

/// The rule behind an event as `viewer` sees it: a rule of an object the seat does not know is
/// not named, nor where it is written (which would name the card).
pub fn rule_ref_for(game: &Game, st: &State, c: &Cause, viewer: Option<Seat>) -> RuleRef {
    match routine_obj(c.routine).and_then(|o| st.obj(o)) {
        Some(x) if !sees(x.known, viewer) => {
            RuleRef { rule: format!("a rule of {}", hidden_name(game, x.def)), at: String::new(), cite: None, section: None }
        }
        _ => rule_ref(game, st, c.routine, c.span),
    }
}

/// The rule behind an event as `viewer` reads it (`p`, its projection): none named where the
/// event is a secret the seat does not see, or names an object the seat does not know. Which rule
/// and line made such an event tells which branch of the rules a hidden thing took (a bluff's
/// blank card or an overboost's second card, chosen in different procedures): a secrecy review
/// read the branch from the causes of secret answers and of face-down cards put down.
pub fn rule_ref_seen(game: &Game, st: &State, e: &Event, p: &ProjectedEvent, viewer: Option<Seat>) -> RuleRef {
    let withheld = viewer.is_some() && (!p.details || p.objects.iter().any(|o| matches!(o, Seen::Hidden { .. })));
    if withheld {
        return RuleRef { rule: "the rules".into(), at: String::new(), cite: None, section: None };
    }
    rule_ref_for(game, st, &e.cause, viewer)
}

/// `rule_ref_seen` as a line.
pub fn cause_text_seen(game: &Game, st: &State, e: &Event, p: &ProjectedEvent, viewer: Option<Seat>) -> String {
    rule_text(rule_ref_seen(game, st, e, p, viewer))
}

/// `result after 12 turns: P1 wins; P2 loses — reached 10 points`
pub fn result_line(r: &GameResult, turns: u32) -> String {
    let seats = |v: &[u8]| v.iter().map(|s| format!("P{}", s + 1)).collect::<Vec<_>>().join(", ");
    let losers: Vec<u8> = r.losers.iter().map(|(s, _)| *s).collect();
    let who = match r.winners.as_slice() {
        [] => format!("no winner; {} lose", seats(&losers)),
        [w] => {
            if losers.is_empty() {
                format!("P{} wins", w + 1)
            } else {
                format!("P{} wins; {} lose{}", w + 1, seats(&losers), if losers.len() == 1 { "s" } else { "" })
            }
        }
        ws => {
            if losers.is_empty() {
                format!("{} win together", seats(ws))
            } else {
                format!("{} win; {} lose{}", seats(ws), seats(&losers), if losers.len() == 1 { "s" } else { "" })
            }
        }
    };
    format!("result after {turns} turn{}: {who} — {}", if turns == 1 { "" } else { "s" }, r.reason)
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
pub fn trace_of<'a>(
    game: &Game,
    st: &State,
    events: impl IntoIterator<Item = &'a Event>,
    viewer: Option<Seat>,
    with_causes: bool,
) -> String {
    let mut out = String::new();
    for e in events {
        let Some(p) = project_event(game, st, e, viewer) else { continue };
        let cause = with_causes.then(|| cause_text_seen(game, st, e, &p, viewer));
        push_entry(&mut out, p.depth, "", &p.text, cause.as_deref());
    }
    out
}

/// The whole log up to event `upto`, every event numbered `#N` (as `--why N` names it), with its
/// cause.
pub fn trace_numbered(game: &Game, st: &State, upto: Option<usize>) -> String {
    let mut out = String::new();
    for (i, e) in st.log.iter().enumerate().take_while(|(i, _)| upto.is_none_or(|n| *i <= n)) {
        let Some(p) = project_event(game, st, e, None) else { continue };
        push_entry(&mut out, p.depth, &format!("#{i} "), &p.text, Some(&cause_text_for(game, st, &e.cause, None)));
    }
    out
}

/// One event of a trace, indented by its depth, and its cause under it.
fn push_entry(out: &mut String, depth: u16, mark: &str, text: &str, cause: Option<&str>) {
    let indent = "  ".repeat(depth.saturating_sub(1).min(12) as usize);
    out.push_str(&format!("{indent}{mark}{text}\n"));
    if let Some(c) = cause {
        out.push_str(&format!("{indent}    ← {c}\n"));
    }
}

/// What one view of the table shows, all together: each value written on the table at most
/// `SHOWN_LIMIT` bytes, and the values and objects together at most `VIEW_LIMIT` (past it, what is
/// left shows as `…`). A house rule's 9,000 objects each holding a megabyte made a 594 MB view.
struct Room(std::cell::Cell<usize>);

impl Room {
    fn new() -> Room {
        Room(std::cell::Cell::new(VIEW_LIMIT))
    }

    /// The most one value may show now.
    fn most(&self) -> usize {
        self.0.get().min(SHOWN_LIMIT)
    }

    fn is_full(&self) -> bool {
        self.0.get() == 0
    }

    /// `text`, counted as shown.
    fn took(&self, text: String) -> String {
        self.0.set(self.0.get().saturating_sub(text.len()));
        text
    }

    /// Each object's text (`text`, which counts itself) while there is room; past it, the rest
    /// are one `…` (a zone's `count` says how many there are).
    fn objects(&self, ids: &[ObjId], text: impl Fn(ObjId) -> String) -> Vec<String> {
        let mut out = Vec::new();
        for &o in ids {
            if self.is_full() {
                out.push("…".to_string());
                break;
            }
            out.push(text(o));
        }
        out
    }
}

/// What a seat's view shows of an object in a shared zone besides its name, public to all: whose
/// it is, for kinds players own (kept in some per-player zone), unless it was shuffled among
/// others since (`Obj::mixed`: a secrecy audit read who added which card to a shuffled pile); and
/// the objects its fields point at (`area North`, a route's two ends), each named as the seat
/// knows it.
fn public_marks(game: &Game, st: &State, ob: &crate::state::Obj, viewer: Option<Seat>) -> (Option<String>, Vec<String>) {
    let kind = game.def(ob.def).map(|d| d.kind);
    let players_own = game.zones.iter().any(|z| z.per_player && (z.holds.is_none() || z.holds == kind));
    let whose = (players_own && !ob.mixed).then(|| format!("P{}", ob.controller + 1));
    let mut pointed = Vec::new();
    for (f, v) in &ob.fields {
        if let Value::Obj(x) = v
            && let Some(xo) = st.obj(*x)
        {
            let name = if sees(xo.known, viewer) { def_name(game, xo.def) } else { hidden_name(game, xo.def) };
            pointed.push(format!("{} {name}", game.sym(*f)));
        }
    }
    (whose, pointed)
}

/// A decision's options as a menu shows them to the seat deciding: options alike by name are told
/// apart by what its view shows of them where they lie in a shared zone (`Pawn (P1, area North)`,
/// `Road (a North, b South)`), and those still alike by their number (`Knight (copy 2 of 2)`,
/// where the rules' labels read `Knight (2)`).
pub fn menu_labels(game: &Game, st: &State, d: &crate::state::Decision) -> Vec<String> {
    let mut v = d.labels();
    let Some(plain) = &d.plain else { return v };
    // As the view marks an object: lying in a zone no player owns, whose contents the seat sees
    // (not beneath another object, nor in a hidden pile).
    let public = |z: &ZoneRef| z.owner.is_none() && game.zone(z.zone).is_some_and(|d| d.visibility == Visibility::Public);
    let marked: Vec<String> = plain
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let ob = d.options.get(i).and_then(|c| if let Value::Obj(o) = c.value { st.obj(o) } else { None });
            let shared = ob.is_some_and(|ob| matches!(&ob.place, crate::state::Place::Zone(z) if public(z))) && st.players.len() > 1;
            let marks = match ob.filter(|_| shared) {
                Some(ob) => {
                    let (whose, pointed) = public_marks(game, st, ob, Some(d.seat));
                    whose.into_iter().chain(pointed).collect::<Vec<_>>()
                }
                None => vec![],
            };
            if marks.is_empty() { p.to_string() } else { format!("{p} ({})", marks.join(", ")) }
        })
        .collect();
    for (i, label) in v.iter_mut().enumerate().take(plain.len()) {
        let (Some(p), Some(m)) = (plain.get(i), marked.get(i)) else { continue };
        if plain.iter().filter(|x| *x == p).count() < 2 {
            continue;
        }
        let same = marked.iter().filter(|x| *x == m).count();
        *label = if same > 1 {
            let nth = marked.iter().take(i + 1).filter(|x| *x == m).count();
            format!("{m} (copy {nth} of {same})")
        } else {
            m.clone()
        };
    }
    v
}

/// An object as a seat sees it. In a shared zone (`shared`), also whose it is and where it points:
/// the objects its fields refer to (a unit's area, an order token's planet), which are public; and,
/// where the viewer knows it, the other values written on it.
fn obj_text_in(game: &Game, st: &State, o: ObjId, viewer: Option<Seat>, shared: bool, room: &Room) -> String {
    let Some(ob) = st.obj(o) else { return "?".into() };
    let mut s = room.took(if sees(ob.known, viewer) { def_name(game, ob.def) } else { hidden_name(game, ob.def) });
    if shared && st.players.len() > 1 {
        let (whose, pointed) = public_marks(game, st, ob, viewer);
        let extra: Vec<String> = whose.into_iter().chain(pointed.into_iter().map(|x| room.took(x))).collect();
        if !extra.is_empty() {
            s.push_str(&format!(" ({})", extra.join(", ")));
        }
    }
    // What has been written on an object the viewer knows (a square's mark, a counter's value).
    if sees(ob.known, viewer) {
        let given: Vec<String> = ob
            .fields
            .iter()
            .filter(|(_, v)| !matches!(v, Value::Obj(_)))
            .map(|(f, v)| format!("{} {}", game.sym(*f), room.took(v.display_clipped(game, room.most()))))
            .collect();
        if !given.is_empty() {
            s.push_str(&format!(" ({})", given.join(", ")));
        }
    }
    if !ob.face_up {
        s.push_str(" (face down)");
    }
    // The object's name, the names it points to and its fields' values were counted as they were
    // made; what is beneath it counts itself.
    if !ob.under.is_empty() {
        let inner = room.objects(&ob.under, |u| obj_text_in(game, st, u, viewer, false, room));
        s.push_str(&format!(" [over: {}]", inner.join(", ")));
    }
    s
}

/// A zone as one seat sees it: its objects, or only how many there are.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ZoneView {
    pub name: String,
    pub count: usize,
    /// Its contents are withheld from the viewer (`objects` is then empty).
    pub hidden: bool,
    /// Each object as the viewer may see it (its name, or only its kind; what is written on it).
    pub objects: Vec<String>,
}

/// A named value as one seat sees it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FieldView {
    pub name: String,
    pub value: String,
}

fn seat_from_one<S: serde::Serializer>(seat: &Seat, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u16(u16::from(*seat) + 1)
}

fn viewer_from_one<S: serde::Serializer>(viewer: &Option<Seat>, s: S) -> Result<S::Ok, S::Error> {
    match viewer {
        Some(seat) => s.serialize_some(&(u16::from(*seat) + 1)),
        None => s.serialize_none(),
    }
}

/// A player as one seat sees them: their fields and their own zones.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PlayerView {
    /// Numbered from 0 here, from 1 as sent (`P1`), as everywhere a person reads it.
    #[serde(serialize_with = "seat_from_one")]
    pub seat: Seat,
    /// This is the viewer.
    pub you: bool,
    pub out: bool,
    pub fields: Vec<FieldView>,
    pub zones: Vec<ZoneView>,
}

/// The table as one seat sees it (or everything, for no viewer): what `view` prints and the web
/// page draws, worked out once so the two cannot differ in what they show.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TableView {
    /// Numbered from 0 here, from 1 as sent.
    #[serde(serialize_with = "viewer_from_one")]
    pub viewer: Option<Seat>,
    pub globals: Vec<FieldView>,
    pub players: Vec<PlayerView>,
    /// The zones no player owns.
    pub shared: Vec<ZoneView>,
}

fn zone_view(game: &Game, st: &State, z: ZoneRef, viewer: Option<Seat>, room: &Room) -> Option<ZoneView> {
    let def = game.zone(z.zone)?;
    let items = st.zone_contents(game, z);
    let contents_visible = match def.visibility {
        Visibility::Public => true,
        Visibility::Owner => viewer.is_none() || viewer == z.owner,
        Visibility::Hidden => viewer.is_none(),
    };
    let objects =
        if contents_visible { room.objects(items, |o| obj_text_in(game, st, o, viewer, z.owner.is_none(), room)) } else { vec![] };
    Some(ZoneView { name: def.name.clone(), count: items.len(), hidden: !contents_visible && !items.is_empty(), objects })
}

/// The state as one seat sees it (or everything, for `None`).
pub fn table_view(game: &Game, st: &State, viewer: Option<Seat>) -> TableView {
    let evaluator = Evaluator::new(game, st);
    let room = Room::new();
    // A field holding an object the viewer does not know shows its kind only.
    let shown = |v: &Value| {
        room.took(match viewer {
            Some(seat) => evaluator.label_for_clipped(v, seat, room.most()),
            None => evaluator.label_clipped(v, room.most()),
        })
    };
    let field = |name: &str, v: &Value| FieldView { name: name.to_string(), value: shown(v) };
    let globals = game.global_fields.iter().zip(&st.globals).map(|(f, v)| field(&f.name, v)).collect();
    let players = st
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let seat = Seat::try_from(i).unwrap_or(0);
            let zones = game
                .zones
                .iter()
                .enumerate()
                .filter(|(_, z)| z.per_player)
                .filter_map(|(zi, _)| zone_view(game, st, ZoneRef { zone: zi as u16, owner: Some(seat) }, viewer, &room))
                .collect();
            PlayerView {
                seat,
                you: viewer == Some(seat),
                out: p.out,
                fields: game.player_fields.iter().zip(&p.fields).map(|(f, v)| field(&f.name, v)).collect(),
                zones,
            }
        })
        .collect();
    let shared = game
        .zones
        .iter()
        .enumerate()
        .filter(|(_, z)| !z.per_player)
        .filter_map(|(zi, _)| zone_view(game, st, ZoneRef { zone: zi as u16, owner: None }, viewer, &room))
        .collect();
    TableView { viewer, globals, players, shared }
}

fn zone_line(z: &ZoneView) -> String {
    if z.count == 0 {
        format!("{}: empty", z.name)
    } else if z.hidden {
        format!("{}: {} hidden", z.name, z.count)
    } else {
        format!("{} ({}): {}", z.name, z.count, z.objects.join("; "))
    }
}

fn fields_line(fields: &[FieldView]) -> String {
    fields.iter().map(|f| format!("{} {}", f.name, f.value)).collect::<Vec<_>>().join(", ")
}

/// The state as one seat sees it (or everything, for `None`), as text.
pub fn view(game: &Game, st: &State, viewer: Option<Seat>) -> String {
    let t = table_view(game, st, viewer);
    let mut out = String::new();
    if !t.globals.is_empty() {
        out.push_str(&format!("game: {}\n", fields_line(&t.globals)));
    }
    for p in &t.players {
        let you = if p.you { " (you)" } else { "" };
        let out_mark = if p.out { " — out of the game" } else { "" };
        out.push_str(&format!("P{}{you}{out_mark}: {}\n", p.seat + 1, fields_line(&p.fields)));
        for z in &p.zones {
            out.push_str(&format!("  {}\n", zone_line(z)));
        }
    }
    for z in &t.shared {
        out.push_str(&format!("{}\n", zone_line(z)));
    }
    out
}
