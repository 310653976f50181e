//! Decks as the runtime sees them: a deck list expanded into its sections, and a deck checked
//! against the rulebook's deckbuilding rules (conditions evaluated on an empty state).

use super::engine::{Engine, Setup};
use super::eval::{Evaluator, new_env, set_slot};
use super::state::Mode;
use arbiter_ir::value::Value;
use arbiter_ir::*;
use arbiter_syntax::diag::Diag;
use arbiter_syntax::span::{FileId, Span};
use indexmap::IndexMap;

/// Why the seats' decks cannot be chosen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeckChoiceError {
    /// The file given for a seat (0-based) holds no `deck`.
    #[error("the deck file for seat {} holds no `deck`", .seat + 1)]
    NoDeckInFile { seat: usize },
    /// A seat is given a deck the game does not have (an index in `game.decks`).
    #[error("no such deck")]
    NoSuchDeck { index: usize },
    /// A seat is given no deck, and the game has none to give it.
    #[error("no decks")]
    NoDecks,
    /// A deck given to a seat (0-based) the game does not have.
    #[error("a deck is given to seat {}, but the game has {players} seats", .seat + 1)]
    NoSuchSeat { seat: usize, players: usize },
    /// Two decks given to one seat (0-based).
    #[error("seat {} is given two decks", .seat + 1)]
    TwoDecks { seat: usize },
    /// The file given for a seat (0-based) holds several decks: these.
    #[error("the deck file for seat {} holds {} decks: {}", .seat + 1, .names.len(), .names.join(", "))]
    ManyDecksInFile { seat: usize, names: Vec<String> },
}

impl DeckChoiceError {
    /// What to do about it.
    pub fn help(&self) -> &'static str {
        match self {
            DeckChoiceError::NoDeckInFile { .. } => {
                "give the seat a file that holds a `deck` (a file of cards only goes with `--rules FILE`)"
            }
            DeckChoiceError::NoSuchDeck { .. } => "give the seat one of the game's decks",
            DeckChoiceError::NoDecks => "the game's files declare no `deck`: give each seat a deck file",
            DeckChoiceError::NoSuchSeat { .. } => "seats are numbered from 1 to the number of players (`--players N`)",
            DeckChoiceError::TwoDecks { .. } => "give each seat one `--deck`",
            DeckChoiceError::ManyDecksInFile { .. } => {
                "name the one meant: load the file with `--rules FILE` and give the seat the deck by its name, `--deck SEAT=\"Deck Name\"`"
            }
        }
    }

    pub fn to_diag(&self) -> Diag {
        Diag::error(Span::NONE, self.to_string()).help(self.help())
    }
}

impl From<DeckChoiceError> for Diag {
    fn from(e: DeckChoiceError) -> Diag {
        e.to_diag()
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
    let evaluator = Evaluator::new(game, &st);
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
            let text = evaluator.interpolate(&r.message, env, r.span).unwrap_or_default();
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
            None => match evaluator.truth(&r.cond, &mut env) {
                Ok(true) => {}
                Ok(false) => fail(&mut diags, &mut env, None),
                Err(e) => diags.push(e.to_diag()),
            },
            Some((slot, list)) => {
                let items = match evaluator.list_of(list, &mut env) {
                    Ok(l) => l,
                    Err(e) => {
                        diags.push(e.to_diag());
                        continue;
                    }
                };
                for it in items.iter() {
                    set_slot(&mut env, *slot, it.clone());
                    match evaluator.truth(&r.cond, &mut env) {
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
pub fn choose_decks(game: &Game, players: usize, given: &[(usize, FileId)]) -> Result<Vec<IndexMap<String, Vec<DefId>>>, DeckChoiceError> {
    let mut by_index = Vec::new();
    for (seat, file) in given {
        by_index.push((*seat, deck_in_file(game, *file, *seat)?));
    }
    choose_decks_by(game, players, &by_index)
}

/// The index in `game.decks` of the one deck the file given for `seat` (0-based) holds.
pub fn deck_in_file(game: &Game, file: FileId, seat: usize) -> Result<usize, DeckChoiceError> {
    let mut there = game.decks.iter().enumerate().filter(|(_, d)| d.span.file == file);
    match (there.next(), there.next()) {
        (None, _) => Err(DeckChoiceError::NoDeckInFile { seat }),
        (Some((i, _)), None) => Ok(i),
        (Some(_), Some(_)) => Err(DeckChoiceError::ManyDecksInFile {
            seat,
            names: game.decks.iter().filter(|d| d.span.file == file).map(|d| format!("\"{}\"", d.name)).collect(),
        }),
    }
}

/// Which deck each seat plays: the one given (seat, index in `game.decks`), else the game's decks
/// in turn, leaving out those given to a seat.
pub fn choose_decks_by(
    game: &Game,
    players: usize,
    given: &[(usize, usize)],
) -> Result<Vec<IndexMap<String, Vec<DefId>>>, DeckChoiceError> {
    for (k, (seat, _)) in given.iter().enumerate() {
        if *seat >= players {
            return Err(DeckChoiceError::NoSuchSeat { seat: *seat, players });
        }
        if given.iter().take(k).any(|(s, _)| s == seat) {
            return Err(DeckChoiceError::TwoDecks { seat: *seat });
        }
    }
    if game.decks.is_empty() {
        return Ok(vec![IndexMap::new(); players]);
    }
    let mut out = Vec::new();
    let defaults: Vec<usize> = (0..game.decks.len()).filter(|i| !given.iter().any(|(_, g)| g == i)).collect();
    let defaults = if defaults.is_empty() { (0..game.decks.len()).collect() } else { defaults };
    for seat in 0..players {
        let deck = match given.iter().find(|(s, _)| *s == seat) {
            Some((_, i)) => game.decks.get(*i).ok_or(DeckChoiceError::NoSuchDeck { index: *i })?,
            None => defaults.get(seat % defaults.len()).and_then(|i| game.decks.get(*i)).ok_or(DeckChoiceError::NoDecks)?,
        };
        out.push(expand(game, deck));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::DeckChoiceError;
    use arbiter_syntax::diag::{Diag, Level};
    use arbiter_syntax::span::Span;

    #[test]
    fn a_deck_that_cannot_be_chosen_is_a_diagnostic_with_its_message_and_help() {
        let e = DeckChoiceError::NoDeckInFile { seat: 1 };
        assert_eq!(e.to_string(), "the deck file for seat 2 holds no `deck`");
        let d = Diag::from(e);
        assert_eq!(d.level, Level::Error);
        assert_eq!(d.message, "the deck file for seat 2 holds no `deck`");
        assert_eq!(d.span, Span::NONE);
        assert!(d.help.as_deref().is_some_and(|h| h.contains("a file of cards only goes with `--rules FILE`")), "{:?}", d.help);
        assert_eq!(Diag::from(DeckChoiceError::NoDecks).message, "no decks");
        assert_eq!(Diag::from(DeckChoiceError::NoSuchDeck { index: 7 }).message, "no such deck");
    }
}
