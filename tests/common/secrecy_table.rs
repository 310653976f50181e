//! The secrecy tables, `rulebooks/<game>/secrecy.toml`: for each game, who may see each kind of
//! component and each choice, read from the rulebook's own text with its lines cited. The tables
//! are written by hand beside the rulebooks, never worked out from the rules files, so that a rules
//! file that shows too much (a `reveal` to everyone where the rulebook says to one player, a
//! `choose` where it says `choose secretly`, a hand declared public) is judged by what the
//! rulebook says, not by itself. `tests/secrecy.rs` plays seeded games and holds every seat's view
//! to them.
//!
//! ```toml
//! game = "bsg-board"
//! [zones]
//! hand = { seen_by = "owner", cite = "U345-351", why = "Skill cards are held in hand, hidden" }
//! [[reveals]]
//! rule = "jump, step choose_destination"
//! to = "one player"
//! cite = "U492"
//! why = "the Admiral draws two Destination cards and chooses one in secret"
//! [[secret_choices]]
//! prompt = "Choose the fleet's destination"
//! cite = "U492"
//! why = "the Admiral's choice is secret until the jump"
//! ```

use indexmap::IndexMap;
use serde::Deserialize;
use std::path::Path;

/// Who sees the components in a zone, as the rulebook puts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum SeenBy {
    /// On the table face up: everyone (a component laid there face down, no one new).
    #[serde(rename = "everyone")]
    Everyone,
    /// Its player only (a hand): that player, and no one new.
    #[serde(rename = "owner")]
    Owner,
    /// No one: a deck, a face-down pile, the box.
    #[serde(rename = "no one")]
    NoOne,
    /// On the table face down: whoever knew the component before (who laid it) and no one new,
    /// until it is turned face up.
    #[serde(rename = "face down")]
    FaceDown,
}

/// To whom a rule of the game may reveal a component.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum RevealedTo {
    #[serde(rename = "everyone")]
    Everyone,
    /// One player only (who looks at it, or who chooses among the cards revealed).
    #[serde(rename = "one player")]
    OnePlayer,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZoneEntry {
    pub seen_by: SeenBy,
    pub cite: String,
    pub why: String,
}

/// A reveal the rulebook makes: the rule that makes it (as `arbiter explain` names an event's
/// rule: `PROCEDURE` or `PROCEDURE, step STEP`) and to whom.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reveal {
    pub rule: String,
    pub to: RevealedTo,
    pub cite: String,
    pub why: String,
}

/// A choice the rulebook makes secret, known by a phrase of its question: the other seats read
/// that a choice was made, never what.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecretChoice {
    pub prompt: String,
    pub cite: String,
    pub why: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecrecyTable {
    pub game: String,
    /// The rulebook text its citations are lines of.
    pub source: String,
    pub zones: IndexMap<String, ZoneEntry>,
    #[serde(default)]
    pub reveals: Vec<Reveal>,
    #[serde(default)]
    pub secret_choices: Vec<SecretChoice>,
}

impl SecrecyTable {
    /// The table beside `game`'s rulebook in the project at `root`.
    pub fn of(root: &Path, game: &str) -> Result<SecrecyTable, String> {
        let path = root.join("rulebooks").join(game).join("secrecy.toml");
        let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        let t: SecrecyTable = toml::from_str(&text).map_err(|e| format!("`{}` is not a secrecy table: {e}", path.display()))?;
        if t.game != game {
            return Err(format!("`{}` says it is the table of `{}`", path.display(), t.game));
        }
        Ok(t)
    }

    /// Who sees zone `name`; an error naming a zone the table leaves out (every zone is listed:
    /// a new zone must be read against the rulebook too).
    pub fn zone(&self, name: &str) -> Result<SeenBy, String> {
        self.zones.get(name).map(|z| z.seen_by).ok_or_else(|| {
            format!(
                "the secrecy table of {} does not say who sees the zone `{name}`: add it to rulebooks/{}/secrecy.toml",
                self.game, self.game
            )
        })
    }

    /// To whom `rule` may reveal a component; an error naming a reveal the table does not list.
    pub fn reveal(&self, rule: &str) -> Result<RevealedTo, String> {
        self.reveals.iter().find(|r| r.rule == rule).map(|r| r.to).ok_or_else(|| {
            format!(
                "the secrecy table of {} lists no reveal by `{rule}`: add it, with whom the rulebook shows it to, to rulebooks/{}/secrecy.toml",
                self.game, self.game
            )
        })
    }

    /// The secret choice whose phrase `prompt` holds, if it is one.
    pub fn secret_choice(&self, prompt: &str) -> Option<&SecretChoice> {
        self.secret_choices.iter().find(|c| prompt.contains(c.prompt.as_str()))
    }
}
