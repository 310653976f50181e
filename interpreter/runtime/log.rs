//! The event log: every event of a game, in order, and about how many bytes they hold, which
//! the engine holds to `LOG_BUDGET` (a rule that logs without end, or a game that asks without
//! end, was stopped by nothing).

use super::chunked::Chunked;
use super::state::{Event, EventKind};
use arbiter_ir::value::Value;
use arbiter_syntax::budgets::SHOWN_LIMIT;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Every event of the game, in order; cloning it shares the history (see `Chunked`). It keeps
/// count of about how many bytes its events hold and keep alive (`bytes`, `Event::weight`), which
/// the engine holds to `LOG_BUDGET`. Saved as a plain list of events; the count is worked out
/// again when a saved game is read.
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

    /// The event numbered `i`, to change (its copy on write, see `Chunked::get_mut`). Its weight
    /// is not counted again: a change must not make it hold more (`settle_withheld` only changes
    /// which seats knew an object).
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

/// What an event weighs, apart from what it holds (its kind, cause and masks): a fixed number, so
/// that a log weighs the same on every machine and build (a saved game's budget goes on where it
/// was, and a seed plays the same everywhere).
const EVENT_WEIGHT: u64 = 128;
/// What an item of a list, an argument or a label weighs, apart from its texts.
const ITEM_WEIGHT: u64 = 16;
/// Texts shorter than this are counted each time they appear; longer ones once an event (a list
/// holding one long text many times keeps it once).
const SHARED_TEXT: usize = 64;

impl Event {
    /// About how many bytes the event holds, and keeps alive for as long as the game lasts (a
    /// change of a field keeps the old value and the new): a fixed weight, its texts, and each item
    /// of the lists it holds with their texts, each list and long text counted once an event.
    #[inline]
    pub fn weight(&self) -> u64 {
        let texts = |l: &[Arc<str>]| l.iter().map(|t| ITEM_WEIGHT + t.len() as u64).sum::<u64>();
        let mut w = Weigher::default();
        let held = match &self.kind {
            EventKind::Set { what, old, new, .. } => what.len() as u64 + w.value(old) + w.value(new),
            EventKind::Modified { value: v, .. } | EventKind::Picked { value: v } => w.value(v),
            EventKind::Asked { prompt, options, .. } => prompt.len() as u64 + texts(options),
            EventKind::Answered { prompt, labels, plain, withheld, .. } => {
                prompt.len() as u64 + texts(labels) + plain.as_deref().map_or(0, texts) + withheld.len() as u64 * ITEM_WEIGHT
            }
            EventKind::Signal { args, .. } => args.iter().map(|a| ITEM_WEIGHT + w.value(a)).sum(),
            EventKind::Log { text } => text.len() as u64,
            EventKind::PlayerOut { reason, .. } => reason.len() as u64,
            _ => 0,
        };
        EVENT_WEIGHT.saturating_add(held)
    }
}

/// Weighs the values of one event: each list and long text once, however often it appears in
/// them (lists are shared, so a list holding a list a thousand times is walked once).
#[derive(Default)]
struct Weigher {
    seen: Option<std::collections::HashSet<usize>>,
}

impl Weigher {
    /// Whether the list or text at `p` is met for the first time in this event.
    fn first(&mut self, p: usize) -> bool {
        self.seen.get_or_insert_with(Default::default).insert(p)
    }

    /// A value's weight: nothing for a number, a name or an object; its texts and lists'.
    /// Or, when it shows more than it holds (one short text in a list many times), about what it
    /// shows (`SHOWN_LIMIT` at most): a log's weight bounds what `--log` prints of it too.
    #[inline]
    fn value(&mut self, v: &Value) -> u64 {
        match v {
            Value::Text(_) | Value::List(_) | Value::Amount(_) => self.held(v).max(shown(v, SHOWN_LIMIT as u64)),
            _ => 0,
        }
    }

    fn held(&mut self, v: &Value) -> u64 {
        match v {
            Value::Text(t) if t.len() < SHARED_TEXT || self.first(Arc::as_ptr(t) as usize) => t.len() as u64,
            Value::Text(_) => 0,
            Value::List(l) => {
                if !self.first(Arc::as_ptr(l) as usize) {
                    return 0;
                }
                l.iter().fold(0u64, |n, x| n.saturating_add(ITEM_WEIGHT + self.held(x)))
            }
            Value::Amount(a) => a.len() as u64 * ITEM_WEIGHT,
            _ => 0,
        }
    }
}

/// About how many bytes `v` shows as a label, counted up to `most` (a list's items are walked only
/// until then).
fn shown(v: &Value, most: u64) -> u64 {
    match v {
        Value::Text(t) => t.len() as u64,
        Value::List(l) => {
            let mut n = 0u64;
            for x in l.iter() {
                if n >= most {
                    break;
                }
                n = n.saturating_add(2 + shown(x, most - n));
            }
            n
        }
        _ => 8,
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
        let one = EVENT_WEIGHT;
        assert_eq!(log.bytes(), one + 5);
        log.push(logged(&"x".repeat(1000)));
        assert_eq!(log.bytes(), 2 * one + 1005);
        let list = Value::list(vec![Value::Int(1); 10]);
        let cause = Cause { routine: Routine::Main, span: Span::default() };
        log.push(Event { kind: EventKind::Picked { value: list }, cause, visible: u64::MAX, depth: 0 });
        assert_eq!(log.bytes(), 3 * one + 1005 + 10 * ITEM_WEIGHT);
        let json = serde_json::to_string(&log).unwrap();
        let back: Log = serde_json::from_str(&json).unwrap();
        assert_eq!(back.len(), 3);
        assert_eq!(back.bytes(), log.bytes());
        // The texts in a list count: a field changed to a list of long texts keeps them alive.
        let long = Value::text("y".repeat(1000));
        let other = Value::text("z".repeat(1000));
        let set = |old: Value, new: Value| Event {
            kind: EventKind::Set { what: "junk".into(), old, new, announced: false },
            cause: Cause { routine: Routine::Main, span: Span::default() },
            visible: u64::MAX,
            depth: 0,
        };
        let distinct = Value::list(vec![long.clone(), other.clone()]);
        assert_eq!(set(Value::None, distinct).weight(), one + 4 + 2 * ITEM_WEIGHT + 2000);
        // One long text held many times, or in both the old value and the new, is kept once; so
        // is a list held many times (it is walked once).
        let many = Value::list(vec![long.clone(); 300]);
        let nested = Value::list(vec![many.clone(); 1000]);
        assert_eq!(set(Value::None, nested).weight(), one + 4 + 1000 * ITEM_WEIGHT + 300 * ITEM_WEIGHT + 1000);
        // But a value that shows more than it keeps weighs what it shows, up to SHOWN_LIMIT: the
        // label of `many` is the text 300 times, 16 KiB of it shown (17 items of 1,002 bytes).
        let shown_many = 17 * 1002;
        assert!(shown_many as usize >= SHOWN_LIMIT && (shown_many as usize) < SHOWN_LIMIT + 1002);
        assert_eq!(set(Value::list(vec![long.clone()]), many.clone()).weight(), one + 4 + ITEM_WEIGHT + 1000 + shown_many);
        // Short texts count each time (they are cheap to count and to keep).
        assert_eq!(set(Value::None, Value::list(vec![Value::text("ab"); 3])).weight(), one + 4 + 3 * (ITEM_WEIGHT + 2));
        // Saved as the plain list of events it always was.
        assert!(json.starts_with('['), "{}", &json[..40]);
    }
}
