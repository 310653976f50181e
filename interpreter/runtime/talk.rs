//! The table talk: what a person at the table hears, the default output of `arbiter play`.
//!
//! It is the log as one seat sees it (`view::project_event`), told as people at a table would
//! tell it: what was chosen, moved, revealed, turned, shuffled and rolled, the rulebook's own
//! `log` lines, and the changes of the fields the rulebook marks `announced` (a player's
//! score, a track). The engine's own work is left to `--log`: objects created, events
//! raised for triggers (`ready_phase_begins()`), effects ending, triggers and replacements firing,
//! the other fields' changes (a flag, a position worked out step by step), and a decision being
//! asked (the one asked here is asked by its menu). Names read as words: `P1's hand`, `score
//! track`, not `P1.hand`, `score_track`. Runs of the same line are told once, with `×N`.

use super::state::{Event, EventKind, State};
use super::view::project_event;
use arbiter_ir::Game;
use arbiter_ir::value::Seat;

/// The events as `viewer` hears them at the table. `asked_here`: the seats whose decisions are
/// asked at this table by a menu; their own answers are not told back to them (a decision with
/// one possible answer, taken without asking, still is).
pub fn table_talk<'a>(game: &Game, st: &State, events: impl IntoIterator<Item = &'a Event>, viewer: Seat, asked_here: &[Seat]) -> String {
    let mut lines: Vec<(String, usize)> = Vec::new();
    for e in events {
        let Some(line) = told(game, st, e, viewer, asked_here) else { continue };
        match lines.last_mut() {
            Some((last, n)) if *last == line => *n += 1,
            _ => lines.push((line, 1)),
        }
    }
    let mut out = String::new();
    for (line, n) in lines {
        if n > 1 {
            out.push_str(&format!("{line} ×{n}\n"));
        } else {
            out.push_str(&format!("{line}\n"));
        }
    }
    out
}

/// One event as the table tells it to `viewer`, or `None` when the table does not tell it (see
/// the module's doc).
pub fn told(game: &Game, st: &State, e: &Event, viewer: Seat, asked_here: &[Seat]) -> Option<String> {
    if !tells(e, viewer, asked_here) {
        return None;
    }
    told_as(e, &project_event(game, st, e, Some(viewer))?)
}

/// Whether the table tells an event of this kind to `viewer` at all, before it is projected for
/// that seat.
pub fn tells(e: &Event, viewer: Seat, asked_here: &[Seat]) -> bool {
    match &e.kind {
        EventKind::Created { .. }
        | EventKind::Signal { .. }
        | EventKind::Expired { .. }
        | EventKind::Triggered { .. }
        | EventKind::Replaced { .. }
        | EventKind::Asked { .. } => false,
        EventKind::Set { announced, .. } => *announced,
        // A decision with nothing to choose is not told to its chooser, who was asked nothing; the
        // others hear it as any answer (were it left out for them, its absence would tell them
        // that the chooser had nothing to choose: a secrecy audit read it). One with one possible
        // answer, taken without asking, is told.
        EventKind::Answered { seat, labels, forced: true, .. } if labels.is_empty() => *seat != viewer,
        EventKind::Answered { seat, forced, .. } => *forced || !asked_here.contains(seat),
        _ => true,
    }
}

/// A told event's line, from its projection for the seat (`tells` said the table tells it): a
/// changed value the seat may not see is not told; the rulebook's own lines are its words already.
pub fn told_as(e: &Event, p: &super::view::ProjectedEvent) -> Option<String> {
    match e.kind {
        EventKind::Set { .. } if !p.details => None,
        EventKind::Log { .. } => Some(p.text.clone()),
        _ => Some(in_words(&p.text)),
    }
}

/// A log line in words: `P1.hand` as `P1's hand`, `score_track` as `score track`, `a.b: x → y` as
/// `a's b: x → y`.
pub fn in_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        let after_name = i > 0 && chars.get(i - 1).is_some_and(|p| p.is_alphanumeric());
        if c == '_' {
            out.push(' ');
        } else if c == '.' && after_name && next.is_some_and(|n| n.is_ascii_lowercase()) {
            // `P1.hand`, `Knight.power`: the owner's field or zone.
            out.push_str("'s ");
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::in_words;

    #[test]
    fn names_read_as_words() {
        assert_eq!(in_words("a bonus_card moved from draw_pile to P3.hand"), "a bonus card moved from draw pile to P3's hand");
        assert_eq!(in_words("P1.score: 12 → 11"), "P1's score: 12 → 11");
        assert_eq!(in_words("turn_limit: 0 → 11"), "turn limit: 0 → 11");
        // A full stop ends a sentence, and a name with a dot in it keeps it.
        assert_eq!(in_words("P1 wins. Racer Mk. II moves"), "P1 wins. Racer Mk. II moves");
        assert_eq!(in_words("rolled 1.5"), "rolled 1.5");
    }
}
