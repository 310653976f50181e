//! Compiling scenarios: the state they build, what they run, the answers and random results they
//! script, and what they expect.

use super::lower_expr::LowerContext;
use super::scope::Scope;
use super::{Checker, Placed, Role};
use arbiter_ir::scenario::*;
use arbiter_ir::*;
use arbiter_syntax::ast::{self, Expect, Item, PropValue, RandomScript, StmtKind};
use arbiter_syntax::diag::Diag;
use arbiter_syntax::span::Span;

/// The header of a scenario: which game, which variants, how many players.
pub struct Header {
    pub game: Option<String>,
    /// `deck 1 "Name"`: a seat's deck list, with where it was written.
    pub decks: Vec<(usize, String, Span)>,
    /// Card files the scenario needs, relative to its own file, with where each is named.
    pub uses: Vec<(String, Span)>,
    pub players: usize,
    pub variants: Vec<String>,
    pub cite: Option<String>,
    pub note: Option<String>,
}

/// A `uses` path the loader may read: relative, going only down (no `..`), ending in `.arb`.
pub fn usable_path(p: &str) -> bool {
    let path = std::path::Path::new(p);
    p.ends_with(".arb") && path.components().all(|c| matches!(c, std::path::Component::Normal(_)))
}

pub fn header(s: &ast::ScenarioItem, diags: &mut Vec<Diag>) -> Header {
    let mut h = Header { game: None, decks: vec![], uses: vec![], players: 2, variants: vec![], cite: None, note: None };
    for p in &s.props {
        let first = p.values.first().map(|v| match &v.node {
            PropValue::Word(w) | PropValue::Str(w) => w.clone(),
            PropValue::Int(i) => i.to_string(),
            PropValue::To => "to".into(),
        });
        match (p.key.node.as_str(), first) {
            ("game", Some(g)) => h.game = Some(g),
            ("players", Some(n)) => match n.parse::<usize>() {
                Ok(n) if (1..=64).contains(&n) => h.players = n,
                _ => diags.push(Diag::error(p.span, "`players` takes a number from 1 to 64")),
            },
            ("variant", Some(_)) => h.variants.extend(p.values.iter().filter_map(|x| match &x.node {
                PropValue::Word(w) | PropValue::Str(w) => Some(w.clone()),
                _ => None,
            })),
            ("uses", Some(_)) => {
                for x in &p.values {
                    let (PropValue::Str(w) | PropValue::Word(w)) = &x.node else { continue };
                    // A scenario from a stranger must not make the loader read any other file.
                    if usable_path(w) {
                        h.uses.push((w.clone(), x.span));
                    } else {
                        diags.push(
                            Diag::error(x.span, format!("a scenario may use only `.arb` files in its own folder or below it, not `{w}`"))
                                .help("write a relative path without `..`, like `uses \"uses/my-cards.arb\"`"),
                        );
                    }
                }
            }
            ("deck", Some(_)) => match p.values.as_slice() {
                [ast::Spanned { node: PropValue::Int(seat), .. }, ast::Spanned { node: PropValue::Str(name), span }] if *seat >= 1 => {
                    h.decks.push((usize::try_from(*seat - 1).unwrap_or(0), name.clone(), *span));
                }
                _ => diags.push(Diag::error(p.span, "write a seat's deck as `deck 1 \"Deck Name\"`")),
            },
            ("cite", Some(c)) => h.cite = Some(c),
            ("note", Some(c)) => h.note = Some(c),
            (k, _) => diags.push(Diag::error(p.span, format!("`{k}` needs a value"))),
        }
    }
    if h.game.is_none() {
        diags.push(
            Diag::error(s.id.span, format!("scenario `{}` does not say which game it is for", s.id.node))
                .help("add a line `game NAME`, naming a folder of rulebooks/"),
        );
    }
    h
}

pub fn lower_scenarios(c: &mut Checker, placed: &[Placed]) -> Vec<ScenarioIr> {
    let mut out = Vec::new();
    // The prompts `expect no decision` names, checked against every question the rules can ask
    // once every scenario's own statements are lowered too.
    let mut never_asked: Vec<(String, Span)> = Vec::new();
    for pl in placed {
        if pl.role != Role::Scenario {
            continue;
        }
        let Item::Scenario(s) = &pl.item.node else { continue };
        let mut hd = Vec::new();
        let h = header(s, &mut hd);
        // A scenario is checked with the variants it names switched on: a file's scenarios under
        // other variants are checked when the game is loaded with theirs.
        if !h.variants.iter().all(|v| c.game.active_variants.contains(v) || !c.game.variants.iter().any(|x| x.name == *v)) {
            continue;
        }
        for d in hd {
            c.error(d);
        }
        if let Some(g) = &h.game
            && *g != c.game.name
        {
            c.error(Diag::error(s.id.span, format!("scenario is for `{g}` but was checked with `{}`", c.game.name)));
        }
        if h.players < c.game.min_players as usize || h.players > c.game.max_players as usize {
            c.error(Diag::error(
                s.id.span,
                format!(
                    "`{}` is for {} players, not {}",
                    c.game.name,
                    arbiter_ir::player_counts(c.game.min_players, c.game.max_players),
                    h.players
                ),
            ));
        }
        let mut sc = Scope::new();
        let cx = LowerContext { scenario: true, ..LowerContext::default() };
        let pure = LowerContext { scenario: true, pure: true, ..LowerContext::default() };
        let mut steps = Vec::new();
        let mut pending: Vec<StmtIr> = Vec::new();
        let mut pending_span: Option<Span> = None;
        let flush = |c: &mut Checker, steps: &mut Vec<StepAt>, pending: &mut Vec<StmtIr>, span: &mut Option<Span>| {
            if !pending.is_empty() {
                let id = c.game.blocks.len() as BlockId;
                c.game.blocks.push(std::mem::take(pending).into());
                steps.push(StepAt { step: Step::Exec(id), span: span.take().unwrap_or_default() });
            }
        };
        for st in &s.body {
            let span = st.span;
            let step = match &st.node {
                StmtKind::Run(call) => Some(Step::Run(c.lower_call(call, &mut sc, &cx))),
                StmtKind::Answer { who, value } => {
                    let (w, wt) = c.lower_expr(who, &mut sc, &pure);
                    c.expect_ty(&wt, &Ty::Player, who.span);
                    let (v, _) = c.lower_expr(value, &mut sc, &pure);
                    Some(Step::Answer { who: w, value: v })
                }
                StmtKind::Random(r) => Some(Step::Random(lower_random(c, r, &mut sc, &pure))),
                StmtKind::Expect(Expect::GoesOn { written_not: true }) => {
                    c.error(
                        Diag::warning(span, "`expect not finished` is not the opposite of `expect finished`")
                            .label("the game has no result")
                            .help("write `expect goes on` (the game has no result); `expect finished` says that nothing is running or waiting, and both can hold at once"),
                    );
                    Some(Step::Expect(ExpectIr::NotFinished))
                }
                StmtKind::Expect(e) => match lower_expect(c, e, &mut sc, &pure) {
                    Some(x @ ExpectIr::NoDecision { .. }) => {
                        if let Expect::NoDecision { prompt: Some(p), .. } = e {
                            never_asked.push((p.node.clone(), p.span));
                        }
                        Some(Step::Expect(x))
                    }
                    Some(x) => Some(Step::Expect(x)),
                    None => continue,
                },
                StmtKind::Stop => Some(Step::Stop),
                _ => None,
            };
            match step {
                Some(step) => {
                    flush(c, &mut steps, &mut pending, &mut pending_span);
                    steps.push(StepAt { step, span });
                }
                None => {
                    if let Some(stmt) = c.lower_stmt(st, &mut sc, &cx) {
                        pending_span = Some(pending_span.map(|p| p.to(span)).unwrap_or(span));
                        pending.push(stmt);
                    }
                }
            }
        }
        flush(c, &mut steps, &mut pending, &mut pending_span);
        if let Some(last) = s.body.iter().rposition(|x| matches!(x.node, StmtKind::Stop))
            && last + 1 != s.body.len()
            && let Some(st) = s.body.get(last + 1)
        {
            c.error(Diag::error(st.span, "nothing may follow `stop`").help("`stop` ends the scenario"));
        }
        let decks = scenario_decks(c, &h);
        out.push(ScenarioIr {
            id: s.id.node.clone(),
            decks,
            title: s.title.node.clone(),
            game: h.game.unwrap_or_default(),
            players: h.players,
            variants: h.variants,
            cite: h.cite,
            note: h.note,
            steps,
            slots: sc.max,
            span: s.id.span,
        });
    }
    no_question_holds(c, &never_asked);
    out
}

/// `expect no decision P "text"` where no question the rules can ask holds the text: it could
/// never fail, so it is refused (with the nearest question).
fn no_question_holds(c: &mut Checker, never_asked: &[(String, Span)]) {
    if never_asked.is_empty() {
        return;
    }
    use super::prompts::{held, shown, templates};
    let templates = templates(&c.game);
    for (text, span) in never_asked {
        // The most of its characters some question can hold on its own words.
        let best = templates.iter().filter_map(|t| held(t, text)).max();
        let letters = text.chars().filter(|c| !c.is_whitespace()).count();
        if best.is_some_and(|k| 2 * k >= letters) {
            continue;
        }
        let shown: Vec<String> = templates.iter().map(|t| shown(t)).collect();
        let nearest = arbiter_syntax::diag::did_you_mean(text, shown.iter().map(String::as_str));
        let d = match best {
            None => Diag::error(
                *span,
                format!("no decision of the rules asks a question holding `{text}`: this `expect no decision` could never fail"),
            )
            .label("in no question")
            .help(nearest.unwrap_or_else(|| "write a part of a question the rules ask, as `expect decision` shows it".to_string())),
            // Most of it could only be a value a question shows (a `{..}`: a card's name).
            Some(_) => Diag::warning(
                *span,
                format!("`{text}` is mostly in the words of no question the rules ask: only values they show could hold it"),
            )
            .label("in no question's words")
            .help(nearest.map_or_else(
                || {
                    "if it is a question's words, write them as `expect decision` shows them; a value alone (a card's name) may stay"
                        .to_string()
                },
                |n| format!("{n} (a value alone, such as a card's name, may stay)"),
            )),
        };
        c.error(d);
    }
}

/// `random ..` in a scenario: the result it scripts.
fn lower_random(c: &mut Checker, r: &RandomScript, sc: &mut Scope, pure: &LowerContext) -> RandomIr {
    match r {
        RandomScript::Roll(e) => {
            let (x, t) = c.lower_expr(e, sc, pure);
            c.expect_ty(&t, &Ty::Int, e.span);
            RandomIr::Roll(x)
        }
        RandomScript::Keep => RandomIr::Keep,
        RandomScript::Order(e) => RandomIr::Order(c.lower_list(e, sc, pure).0),
        RandomScript::Pick(e) => RandomIr::Pick(c.lower_expr(e, sc, pure).0),
    }
}

/// `expect ..` in a scenario: what it checks, or none when it names no such event or deck (an
/// error is reported).
fn lower_expect(c: &mut Checker, e: &Expect, sc: &mut Scope, pure: &LowerContext) -> Option<ExpectIr> {
    Some(match e {
        Expect::Options { who, labels, count, message } => {
            let (w, wt) = c.lower_expr(who, sc, pure);
            c.expect_ty(&wt, &Ty::Player, who.span);
            let (l, _) = c.lower_list(labels, sc, pure);
            let mut number = |c: &mut Checker, n: &ast::Expr| {
                let (x, t) = c.lower_expr(n, sc, pure);
                c.expect_ty(&t, &Ty::Int, n.span);
                x
            };
            let count = count.as_ref().map(|k| match k {
                ast::ChooseCount::UpTo(n) => ChooseCountIr::UpTo(number(c, n)),
                ast::ChooseCount::Exactly(n) => ChooseCountIr::Exactly(number(c, n)),
                ast::ChooseCount::One => ChooseCountIr::One,
                ast::ChooseCount::Order => ChooseCountIr::Order,
            });
            let message = message.as_ref().map(|m| c.lower_str(&m.node, sc, pure));
            ExpectIr::Options { who: w, labels: l, count, message }
        }
        Expect::Finished => ExpectIr::Finished,
        Expect::GoesOn { .. } => ExpectIr::NotFinished,
        Expect::Winner(w) => ExpectIr::Winner(w.as_ref().map(|w| {
            let (x, t) = c.lower_expr(w, sc, pure);
            if !(t.fits(&Ty::Player) || t.fits(&Ty::List(Box::new(Ty::Player)))) {
                let msg = format!("expected a player or a list of players, found {}", c.ty_name(&t));
                c.error(Diag::error(w.span, msg).help("write `expect winner P1`, `expect winner [P1, P2]`, or `expect draw`"));
            }
            x
        })),
        Expect::Refused { who, value, fragment } => {
            let (w, wt) = c.lower_expr(who, sc, pure);
            c.expect_ty(&wt, &Ty::Player, who.span);
            let (v, _) = c.lower_expr(value, sc, pure);
            ExpectIr::Refused { who: w, value: v, fragment: fragment.as_ref().map(|f| f.node.clone()) }
        }
        Expect::Event { name, happened } => match c.event_by_name.get(&name.node) {
            Some(&event) => ExpectIr::Event { event, name: name.node.clone(), happened: *happened },
            None => {
                let help = arbiter_syntax::diag::did_you_mean(&name.node, c.event_by_name.keys().map(String::as_str));
                c.error(
                    Diag::error(name.span, format!("unknown event `{}`", name.node))
                        .label("not declared")
                        .maybe_help(help.or_else(|| Some("an `expect event` names an `event` the rules declare and `signal`; for any other happening, use `expect log \"text\"` or `expect no log \"text\"`".into()))),
                );
                return None;
            }
        },
        Expect::NoLog(e) => ExpectIr::NoLog(c.lower_expr(e, sc, pure).0),
        Expect::Decision { who, prompt } => {
            let (w, wt) = c.lower_expr(who, sc, pure);
            c.expect_ty(&wt, &Ty::Player, who.span);
            ExpectIr::Decision { who: w, prompt: prompt.as_ref().map(|p| p.node.clone()) }
        }
        Expect::NoDecision { who, prompt } => {
            let (w, wt) = c.lower_expr(who, sc, pure);
            c.expect_ty(&wt, &Ty::Player, who.span);
            ExpectIr::NoDecision { who: w, prompt: prompt.as_ref().map(|p| p.node.clone()) }
        }
        Expect::Log(e) => ExpectIr::Log(c.lower_expr(e, sc, pure).0),
        Expect::Deck { name, valid, fragment } => match c.game.decks.iter().position(|d| d.name == name.node) {
            Some(deck) => ExpectIr::Deck { deck, valid: *valid, fragment: fragment.as_ref().map(|f| f.node.clone()) },
            None => {
                let names: Vec<&str> = c.game.decks.iter().map(|d| d.name.as_str()).collect();
                let help = arbiter_syntax::diag::did_you_mean(&name.node, names.iter().copied());
                c.error(Diag::error(name.span, format!("no deck named `{}`", name.node)).label("unknown deck").maybe_help(help));
                return None;
            }
        },
        Expect::Sees { who, what, sees } => {
            let (w, wt) = c.lower_expr(who, sc, pure);
            c.expect_ty(&wt, &Ty::Player, who.span);
            let (x, xt) = c.lower_expr(what, sc, pure);
            if !(xt.fits(&Ty::Obj(None)) || xt.is_listlike()) {
                let msg = format!("expected an object or a list of objects, found {}", c.ty_name(&xt));
                c.error(Diag::error(what.span, msg).help("a seat sees or cannot see objects: cards, tokens, counters"));
            }
            ExpectIr::Sees { who: w, what: x, sees: *sees }
        }
        Expect::True { cond, message } => {
            let (x, t) = c.lower_expr(cond, sc, pure);
            c.expect_ty(&t, &Ty::Bool, cond.span);
            let text = c.game.file(cond.span.file).map(|f| f.slice(cond.span).to_string()).unwrap_or_default();
            let message = message.as_ref().map(|m| c.lower_str(&m.node, sc, pure));
            ExpectIr::True { cond: x, text, message }
        }
    })
}

/// The deck lists a scenario's header gives each seat, by index into the game's decks.
fn scenario_decks(c: &mut Checker, h: &Header) -> Vec<(usize, usize)> {
    let mut decks = Vec::new();
    for (seat, name, span) in &h.decks {
        match c.game.decks.iter().position(|d| d.name == *name) {
            Some(i) if *seat < h.players => decks.push((*seat, i)),
            Some(_) => c.error(Diag::error(*span, format!("seat {} is not in a {}-player game", seat + 1, h.players))),
            None => {
                let names: Vec<&str> = c.game.decks.iter().map(|d| d.name.as_str()).collect();
                let help = arbiter_syntax::diag::did_you_mean(name, names.iter().copied());
                c.error(Diag::error(*span, format!("no deck named `{name}`")).label("unknown deck").maybe_help(help));
            }
        }
    }
    decks
}
