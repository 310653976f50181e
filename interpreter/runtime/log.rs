//! The event log: every event of a game, in order, cheap to clone however long the game.
//!
//! Events are only ever added at the end. The log keeps them in sealed chunks of `CHUNK` events,
//! shared between a state and its clones, and a short tail still being filled: cloning a state
//! copies the chunk pointers and the tail, never the history. It is saved as a plain list of
//! events, exactly as a `Vec<Event>` is.

use super::state::Event;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

/// Events per sealed chunk. A clone copies at most `CHUNK - 1` events (the tail) and one pointer
/// per chunk.
const CHUNK: usize = 64;

#[derive(Clone, Default)]
pub struct Log {
    /// Full chunks of exactly `CHUNK` events each, oldest first.
    chunks: Vec<Arc<[Event]>>,
    /// The newest events, fewer than `CHUNK`.
    tail: Vec<Event>,
}

impl Log {
    pub fn new() -> Log {
        Log::default()
    }

    pub fn len(&self) -> usize {
        self.chunks.len() * CHUNK + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty() && self.tail.is_empty()
    }

    /// Add an event at the end; a full tail is sealed into a shared chunk.
    pub fn push(&mut self, e: Event) {
        if self.tail.capacity() == 0 {
            self.tail.reserve_exact(CHUNK);
        }
        self.tail.push(e);
        if self.tail.len() >= CHUNK {
            let full = std::mem::replace(&mut self.tail, Vec::with_capacity(CHUNK));
            self.chunks.push(Arc::from(full));
        }
    }

    /// The event numbered `i` (0 is the first of the game).
    pub fn get(&self, i: usize) -> Option<&Event> {
        match self.chunks.get(i / CHUNK) {
            Some(chunk) => chunk.get(i % CHUNK),
            None => self.tail.get(i - self.chunks.len() * CHUNK),
        }
    }

    pub fn last(&self) -> Option<&Event> {
        self.tail.last().or_else(|| self.chunks.last().and_then(|c| c.last()))
    }

    /// Every event, oldest first.
    pub fn iter(&self) -> Iter<'_> {
        Iter { log: self, front: 0, back: self.len() }
    }

    /// The events from number `from` on (none if `from` is past the end).
    pub fn iter_from(&self, from: usize) -> Iter<'_> {
        let back = self.len();
        Iter { log: self, front: from.min(back), back }
    }
}

/// Events of a log in order, from either end.
#[derive(Clone)]
pub struct Iter<'a> {
    log: &'a Log,
    /// The next event from the front, and one past the next from the back.
    front: usize,
    back: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a Event;

    fn next(&mut self) -> Option<&'a Event> {
        if self.front >= self.back {
            return None;
        }
        let e = self.log.get(self.front);
        self.front += 1;
        e
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back.saturating_sub(self.front);
        (n, Some(n))
    }

    fn nth(&mut self, n: usize) -> Option<&'a Event> {
        self.front = self.front.saturating_add(n).min(self.back);
        self.next()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front >= self.back {
            return None;
        }
        self.back -= 1;
        self.log.get(self.back)
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl std::iter::FusedIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a Log {
    type Item = &'a Event;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl FromIterator<Event> for Log {
    fn from_iter<I: IntoIterator<Item = Event>>(events: I) -> Log {
        let mut log = Log::new();
        for e in events {
            log.push(e);
        }
        log
    }
}

impl From<Vec<Event>> for Log {
    fn from(events: Vec<Event>) -> Log {
        events.into_iter().collect()
    }
}

impl std::fmt::Debug for Log {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A plain list of events, as a `Vec<Event>` is saved.
impl Serialize for Log {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Log {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Log, D::Error> {
        Vec::<Event>::deserialize(deserializer).map(Log::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::state::{Cause, EventKind, Routine};
    use crate::syntax::span::Span;

    fn event(n: i64) -> Event {
        Event {
            kind: EventKind::Rolled { sides: 6, result: n },
            cause: Cause { routine: Routine::Main, span: Span::default() },
            visible: 1,
            depth: 0,
        }
    }

    fn result(e: &Event) -> i64 {
        match e.kind {
            EventKind::Rolled { result, .. } => result,
            _ => -1,
        }
    }

    #[test]
    fn pushes_across_chunks_keep_order() {
        let n = 3 * CHUNK + 5;
        let mut log = Log::new();
        assert!(log.is_empty());
        assert!(log.last().is_none());
        for i in 0..n {
            log.push(event(i as i64));
            assert_eq!(log.len(), i + 1);
            assert_eq!(log.last().map(result), Some(i as i64));
        }
        assert_eq!(log.chunks.len(), 3);
        assert_eq!(log.tail.len(), 5);
        let all: Vec<i64> = log.iter().map(result).collect();
        assert_eq!(all, (0..n as i64).collect::<Vec<_>>());
        for i in 0..n {
            assert_eq!(log.get(i).map(result), Some(i as i64));
        }
        assert!(log.get(n).is_none());
        assert_eq!(log.iter().len(), n);
        let back: Vec<i64> = log.iter().rev().map(result).collect();
        assert_eq!(back, (0..n as i64).rev().collect::<Vec<_>>());
        let from: Vec<i64> = log.iter_from(CHUNK - 2).take(4).map(result).collect();
        assert_eq!(from, vec![CHUNK as i64 - 2, CHUNK as i64 - 1, CHUNK as i64, CHUNK as i64 + 1]);
        assert_eq!(log.iter_from(n + 10).count(), 0);
        assert_eq!(log.iter().nth(CHUNK).map(result), Some(CHUNK as i64));
        assert_eq!((&log).into_iter().enumerate().rev().find(|(_, e)| result(e) == 7).map(|(i, _)| i), Some(7));
    }

    #[test]
    fn exactly_full_chunks_leave_an_empty_tail() {
        let log: Log = (0..2 * CHUNK as i64).map(event).collect();
        assert_eq!(log.chunks.len(), 2);
        assert!(log.tail.is_empty());
        assert_eq!(log.last().map(result), Some(2 * CHUNK as i64 - 1));
        assert!(log.get(2 * CHUNK).is_none());
    }

    #[test]
    fn clones_share_history_and_grow_apart() {
        let mut a: Log = (0..CHUNK as i64 + 3).map(event).collect();
        let b = a.clone();
        assert!(Arc::ptr_eq(&a.chunks[0], &b.chunks[0]));
        a.push(event(100));
        assert_eq!(a.len(), b.len() + 1);
        assert_eq!(b.last().map(result), Some(CHUNK as i64 + 2));
    }

    #[test]
    fn serializes_as_a_plain_list() {
        for n in [0, 1, CHUNK - 1, CHUNK, 2 * CHUNK + 17] {
            let events: Vec<Event> = (0..n as i64).map(event).collect();
            let log = Log::from(events.clone());
            let json = serde_json::to_string(&log).unwrap();
            assert_eq!(json, serde_json::to_string(&events).unwrap());
            let back: Log = serde_json::from_str(&json).unwrap();
            assert_eq!(back.len(), n);
            assert_eq!(serde_json::to_string(&back).unwrap(), json);
            assert_eq!(format!("{log:?}"), format!("{events:?}"));
        }
    }
}
