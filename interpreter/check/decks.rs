//! Deck lists and the rulebook's deckbuilding rules. A deck that breaks a rule gets a diagnostic
//! at the line of the deck file that breaks it.

use super::ir::*;
use super::lower_expr::Ctx;
use super::scope::Scope;
use super::{Checker, Placed};
use crate::diag::{Diag, did_you_mean};
use crate::runtime::engine::{Engine, Setup};
use crate::runtime::eval::{Evaluator, new_env, set_slot};
use crate::runtime::state::Mode;
use crate::runtime::value::Value;
use crate::syntax::ast::{DeckHead, Item};
use indexmap::IndexMap;

/// The section that numbered lines (`4 "Card"`) go to.
pub const MAIN_SECTION: &str = "cards";

impl Checker {
    pub fn lower_deckbuilding(&mut self, items: &[Placed]) {
        let mut sections = vec![MAIN_SECTION.to_string()];
        sections.extend(self.game.deck_sections.iter().filter(|s| *s != MAIN_SECTION).cloned());
        for pl in items {
            let Item::Deckbuilding(d) = &pl.item.node else { continue };
            for r in &d.rules {
                let mut sc = Scope::new();
                for s in &sections {
                    sc.declare(s, Ty::List(Box::new(Ty::Def(None))));
                }
                let cx = Ctx { pure: true, ..Ctx::default() };
                let each = r.each.as_ref().map(|(n, l)| {
                    let (lx, lt) = self.lower_list(l, &mut sc, &cx);
                    let slot = sc.declare(&n.node, lt.elem());
                    (slot, lx)
                });
                let (cond, ct) = self.lower_expr(&r.cond, &mut sc, &cx);
                self.expect_ty(&ct, &Ty::Bool, r.cond.span);
                let message = self.lower_str(&r.message.node, &mut sc, &cx);
                self.game.deck_rules.push(DeckRuleDef { each, cond, message, slots: sc.max, span: r.span });
            }
        }
    }

    pub fn lower_decks(&mut self, items: &[Placed]) {
        for pl in items {
            let Item::Deck(d) = &pl.item.node else { continue };
            let mut entries = Vec::new();
            for e in &d.entries {
                let (section, count) = match &e.head.node {
                    DeckHead::Count(n) => {
                        if *n < 1 {
                            self.error(Diag::error(e.head.span, "a deck line needs a count of at least 1"));
                        }
                        (MAIN_SECTION.to_string(), u32::try_from(*n).unwrap_or(0))
                    }
                    DeckHead::Section(s) => {
                        if !self.game.deck_sections.contains(s) {
                            let help = did_you_mean(s, self.game.deck_sections.iter().map(String::as_str)).or_else(|| {
                                Some(format!(
                                    "write a count (`4 \"Card\"`) or one of this game's deck sections: {}",
                                    self.game.deck_sections.join(", ")
                                ))
                            });
                            self.error(Diag::error(e.head.span, format!("unknown deck section `{s}`")).maybe_help(help));
                        }
                        (s.clone(), 1)
                    }
                };
                match self.game.def_index.get(&e.card.node) {
                    Some(&def) => entries.push(DeckLine { section, def, count, span: e.card.span }),
                    None => {
                        let help = did_you_mean(&e.card.node, self.game.def_index.keys().map(String::as_str));
                        self.error(
                            Diag::error(e.card.span, format!("no card named `{}`", e.card.node)).label("unknown card").maybe_help(help),
                        );
                    }
                }
            }
            self.game.decks.push(DeckList {
                name: d.name.node.clone(),
                sample: d.sample.as_ref().map(|s| s.node.clone()),
                entries,
                span: d.name.span,
            });
        }
    }
}

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
