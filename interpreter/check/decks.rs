//! Deck lists and the rulebook's deckbuilding rules. A deck that breaks a rule gets a diagnostic
//! at the line of the deck file that breaks it.

use super::lower_expr::LowerContext;
use super::scope::Scope;
use super::{Checker, Placed};
use arbiter_ir::*;
use arbiter_syntax::ast::{DeckHead, Item};
use arbiter_syntax::budgets::{DECK_LIMIT, OBJECT_BUDGET};
use arbiter_syntax::diag::{Diag, did_you_mean};

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
                let cx = LowerContext { pure: true, ..LowerContext::default() };
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
            let mut cards: u64 = 0;
            let mut too_many = false;
            for e in &d.entries {
                // The count as written (a count past `u32` counts whole toward the limit).
                let mut written: u64 = 1;
                let (section, count) = match &e.head.node {
                    DeckHead::Count(n) => {
                        if *n < 1 {
                            self.error(Diag::error(e.head.span, "a deck line needs a count of at least 1"));
                        }
                        written = u64::try_from(*n).unwrap_or(0);
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
                cards = cards.saturating_add(written);
                if cards > DECK_LIMIT && !too_many {
                    too_many = true;
                    self.error(
                        Diag::error(e.head.span, format!("this deck holds more than {DECK_LIMIT} cards"))
                            .label("past the limit here")
                            .help(format!("a game holds at most {OBJECT_BUDGET} objects; a deck is a few dozen cards")),
                    );
                }
                match self.game.def_index.get(&e.card.node) {
                    // Past the limit, the lines are not kept: the deck is never expanded.
                    Some(_) if too_many => {}
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
