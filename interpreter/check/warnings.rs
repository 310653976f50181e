//! Warnings about rules that check but probably do not say what was meant: loose words no enum
//! declares, and triggers on events that nothing raises.

use super::Checker;
use arbiter_ir::StmtKindIr;
use arbiter_syntax::diag::{Diag, did_you_mean};

impl Checker {
    /// Words in free-form fields that no enum declares: probably typos.
    pub fn warn_loose_words(&mut self) {
        let words = std::mem::take(&mut self.loose_words);
        for (sym, span) in words {
            if self.member_of.contains_key(&sym) {
                continue;
            }
            let w = self.game.sym(sym).to_string();
            let cands: Vec<String> = self.member_of.keys().map(|s| self.game.sym(*s).to_string()).collect();
            let help = did_you_mean(&w, cands.iter().map(String::as_str))
                .or_else(|| Some("no enum declares this name, so no rule can recognise it".to_string()));
            self.error(Diag::warning(span, format!("`{w}` is not a name any enum declares")).label("unknown name").maybe_help(help));
        }
    }

    /// An object's trigger on an event that no rule or card ever raises can never fire: the
    /// designer gets no other sign of it. `moved` and `player_left` are raised by the engine itself.
    pub fn warn_unheard_triggers(&mut self) {
        let mut raised = vec![false; self.game.events.len()];
        for block in &self.game.blocks {
            for stmt in block.iter() {
                if let StmtKindIr::Signal { event, .. } = &stmt.kind
                    && let Some(r) = raised.get_mut(*event as usize)
                {
                    *r = true;
                }
            }
        }
        for builtin in [self.game.builtin_events.moved, self.game.builtin_events.player_left] {
            if let Some(r) = raised.get_mut(builtin as usize) {
                *r = true;
            }
        }
        // Cards' triggers only: a rulebook's or variant's trigger may wait on an event another
        // variant raises (Starship Battles' talents wait for the pilots variant's choice).
        let mut unheard = Vec::new();
        let object_triggers = self.game.defs.iter().flat_map(|d| d.triggers.iter().map(|t| (t.event, t.info.span)));
        for (event, span) in object_triggers {
            if !raised.get(event as usize).copied().unwrap_or(true) {
                unheard.push((event, span));
            }
        }
        for (event, span) in unheard {
            let name = self.game.events.get(event as usize).map(|e| e.name.clone()).unwrap_or_default();
            self.error(
                Diag::warning(span, format!("this trigger can never fire: no rule or card raises `{name}`"))
                    .label("never raised")
                    .help(format!("raise the event where it happens, with `signal {name}(..)`")),
            );
        }
    }
}
