//! The event log: every event of a game, in order, and about how many bytes they hold, which
//! the engine holds to `LOG_BUDGET` (a rule that logs without end, or a game that asks without
//! end, was stopped by nothing).

use super::chunked::Chunked;
use super::state::{Event, EventKind, Withheld};
use arbiter_ir::value::Value;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Every event of the game, in order; cloning it shares the history (see `Chunked`). It keeps
/// count of about how many bytes its events hold (`bytes`: each event's own size, its texts and
/// the items of its lists), which the engine holds to `LOG_BUDGET`. Saved as a plain list of
/// events; the count is worked out again when a saved game is read.
#[derive(Clone, Default)]
pub struct Log {
    events: Chunked<Event>,
    bytes: u64,
}

impl std::ops::Deref for Log {
    type Target = Chunked<Event>;
    fn deref(&self) -> &Chunked<Event> {
        &self.events
    }
}

impl Log {
    /// Add an event at the end, counting its bytes.
    pub fn push(&mut self, event: Event) {
        self.bytes = self.bytes.saturating_add(event.weight());
        self.events.push(event);
    }

    /// The event numbered `i`, to change (its copy on write, see `Chunked::get_mut`). What it
    /// holds is only ever made smaller, so its bytes stay counted as they were.
    pub fn get_mut(&mut self, i: usize) -> Option<&mut Event> {
        self.events.get_mut(i)
    }

    /// About how many bytes the events hold.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

impl<'a> IntoIterator for &'a Log {
    type Item = &'a Event;
    type IntoIter = super::chunked::Iter<'a, Event>;
    fn into_iter(self) -> Self::IntoIter {
        self.events.iter()
    }
}

impl std::fmt::Debug for Log {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.events.fmt(f)
    }
}

impl Serialize for Log {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.events.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Log {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let events = Chunked::<Event>::deserialize(d)?;
        let bytes = events.iter().fold(0u64, |n, e| n.saturating_add(e.weight()));
        Ok(Log { events, bytes })
    }
}

impl Event {
    /// About how many bytes the event holds: its own size, its texts, and a word pair for each
    /// item of a list it holds (the items' own texts are the lists', counted where they were built).
    pub fn weight(&self) -> u64 {
        use std::mem::size_of;
        let texts = |l: &[Arc<str>]| l.iter().map(|t| t.len()).sum::<usize>();
        let value = |v: &Value| match v {
            Value::Text(t) => t.len(),
            Value::List(l) => l.len() * size_of::<Value>(),
            _ => 0,
        };
        let held = match &self.kind {
            EventKind::Set { what, old, new, .. } => what.len() + value(old) + value(new),
            EventKind::Modified { value: v, .. } | EventKind::Picked { value: v } => value(v),
            EventKind::Asked { prompt, options, .. } => prompt.len() + texts(options),
            EventKind::Answered { prompt, labels, plain, withheld, .. } => {
                prompt.len() + texts(labels) + plain.as_deref().map_or(0, texts) + withheld.len() * size_of::<Withheld>()
            }
            EventKind::Signal { args, .. } => args.iter().map(|a| size_of::<Value>() + value(a)).sum(),
            EventKind::Log { text } => text.len(),
            EventKind::PlayerOut { reason, .. } => reason.len(),
            _ => 0,
        };
        (size_of::<Event>() + held) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Cause, Routine};
    use arbiter_syntax::span::Span;

    fn logged(text: &str) -> Event {
        let cause = Cause { routine: Routine::Main, span: Span::default() };
        Event { kind: EventKind::Log { text: text.into() }, cause, visible: u64::MAX, depth: 0 }
    }

    /// Each event counts its own size and its texts; a log read back from a save counts what the
    /// log that was saved counted, so that a resumed game's budget goes on where it was.
    #[test]
    fn a_log_counts_its_bytes_and_a_saved_log_counts_them_again() {
        let mut log = Log::default();
        log.push(logged("short"));
        let one = std::mem::size_of::<Event>() as u64;
        assert_eq!(log.bytes(), one + 5);
        log.push(logged(&"x".repeat(1000)));
        assert_eq!(log.bytes(), 2 * one + 1005);
        let list = Value::list(vec![Value::Int(1); 10]);
        let cause = Cause { routine: Routine::Main, span: Span::default() };
        log.push(Event { kind: EventKind::Picked { value: list }, cause, visible: u64::MAX, depth: 0 });
        assert_eq!(log.bytes(), 3 * one + 1005 + 10 * std::mem::size_of::<Value>() as u64);
        let json = serde_json::to_string(&log).unwrap();
        let back: Log = serde_json::from_str(&json).unwrap();
        assert_eq!(back.len(), 3);
        assert_eq!(back.bytes(), log.bytes());
        // Saved as the plain list of events it always was.
        assert!(json.starts_with('['), "{}", &json[..40]);
    }
}
