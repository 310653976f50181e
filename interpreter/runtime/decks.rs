//! Decks as the runtime sees them: a deck list expanded into its sections, and a deck checked
//! against the rulebook's deckbuilding rules (conditions evaluated on an empty state).

use super::engine::{Engine, Setup};
use super::eval::{Evaluator, new_env, set_slot};
use super::state::Mode;
use crate::diag::Diag;
use crate::ir::value::Value;
use crate::ir::*;
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
        let fail = |diags: &mut Vec<Diag>, env: &mut crate::runtime::state::Env, at: Option<&Value>| {
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
