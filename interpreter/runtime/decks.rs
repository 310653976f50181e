//! Decks as the runtime sees them: a deck list expanded into its sections, and a deck checked
//! against the rulebook's deckbuilding rules (conditions evaluated on an empty state).

use super::engine::{Engine, Setup};
use super::eval::{Evaluator, new_env, set_slot};
use super::state::Mode;
use arbiter_ir::value::Value;
use arbiter_ir::*;
use arbiter_syntax::diag::Diag;
use arbiter_syntax::span::FileId;
use indexmap::IndexMap;

/// A deck list's sections with each card repeated by its count.
pub fn expand(game: &Game, deck: &DeckList) -> IndexMap<String, Vec<DefId>> {
    let mut out: IndexMap<String, Vec<DefId>> = IndexMap::new();
    out.insert(MAIN_SECTION.to_string(), vec![]);
    for s in &game.deck_sections {
        out.entry(s.clone()).or_default();
    }
    for l in &deck.entries {
        let v = out.entry(l.section.clone()).or_default();
        for _ in 0..l.count {
            v.push(l.def);
        }
    }
    out
}

/// Check a deck against the rulebook's deckbuilding rules.
pub fn validate(game: &Game, deck: &DeckList) -> Vec<Diag> {
    let mut diags = Vec::new();
    let engine = Engine::new(game);
    let st = match engine.new_state(Mode::Scenario, Setup { players: 0, seed: 0, decklists: vec![] }) {
        Ok(s) => s,
        Err(e) => return vec![e.to_diag()],
    };
    let ev = Evaluator::new(game, &st);
    let sections = expand(game, deck);
    let mut names = vec![MAIN_SECTION.to_string()];
    names.extend(game.deck_sections.iter().filter(|s| *s != MAIN_SECTION).cloned());
    for r in &game.deck_rules {
        let mut env = new_env(r.slots, vec![], None, None);
        for (i, n) in names.iter().enumerate() {
            let defs = sections.get(n).cloned().unwrap_or_default();
            set_slot(&mut env, i as Slot, Value::list(defs.into_iter().map(Value::Def).collect()));
        }
        let fail = |diags: &mut Vec<Diag>, env: &mut crate::state::Env, at: Option<&Value>| {
            let text = ev.interpolate(&r.message, env, r.span).unwrap_or_default();
            let line = match at {
                Some(Value::Def(d)) => deck.entries.iter().find(|l| l.def == *d).map(|l| l.span),
                _ => None,
            };
            let span = line.unwrap_or(deck.span);
            diags.push(
                Diag::error(span, format!("deck `{}` breaks a deckbuilding rule: {text}", deck.name))
                    .label("here")
                    .help(format!("the rule is at {}", game.location(r.span))),
            );
        };
        match &r.each {
            None => match ev.truth(&r.cond, &mut env) {
                Ok(true) => {}
                Ok(false) => fail(&mut diags, &mut env, None),
                Err(e) => diags.push(e.to_diag()),
            },
            Some((slot, list)) => {
                let items = match ev.list_of(list, &mut env) {
                    Ok(l) => l,
                    Err(e) => {
                        diags.push(e.to_diag());
                        continue;
                    }
                };
                for it in items.iter() {
                    set_slot(&mut env, *slot, it.clone());
                    match ev.truth(&r.cond, &mut env) {
                        Ok(true) => {}
                        Ok(false) => fail(&mut diags, &mut env, Some(it)),
                        Err(e) => diags.push(e.to_diag()),
                    }
                }
            }
        }
    }
    diags
}

/// Which deck each seat plays: the one from the file given for it (seat, file id), else the
/// game's decks in turn.
pub fn choose_decks(game: &Game, players: usize, given: &[(usize, FileId)]) -> Result<Vec<IndexMap<String, Vec<DefId>>>, String> {
    let mut by_index = Vec::new();
    for (seat, file) in given {
        let i = game
            .decks
            .iter()
            .position(|d| d.span.file == *file)
            .ok_or_else(|| format!("the deck file for seat {} holds no `deck`", seat + 1))?;
        by_index.push((*seat, i));
    }
    choose_decks_by(game, players, &by_index)
}

/// Which deck each seat plays: the one given (seat, index in `game.decks`), else the game's decks
/// in turn, leaving out those given to a seat.
pub fn choose_decks_by(game: &Game, players: usize, given: &[(usize, usize)]) -> Result<Vec<IndexMap<String, Vec<DefId>>>, String> {
    if game.decks.is_empty() {
        return Ok(vec![IndexMap::new(); players]);
    }
    let mut out = Vec::new();
    let defaults: Vec<usize> = (0..game.decks.len()).filter(|i| !given.iter().any(|(_, g)| g == i)).collect();
    let defaults = if defaults.is_empty() { (0..game.decks.len()).collect() } else { defaults };
    for seat in 0..players {
        let deck = match given.iter().find(|(s, _)| *s == seat) {
            Some((_, i)) => game.decks.get(*i).ok_or("no such deck")?,
            None => defaults.get(seat % defaults.len()).and_then(|i| game.decks.get(*i)).ok_or("no decks")?,
        };
        out.push(expand(game, deck));
    }
    Ok(out)
}
