//! A list that is cheap to clone however long it grows: the event log and the objects of a state.
//!
//! Items are kept in chunks of `CHUNK`, each shared between a state and its clones: cloning a
//! state copies one pointer per chunk, never the items. Changing an item of a shared chunk copies
//! that chunk first (copy on write), so a clone never sees its original change. Items are only
//! ever added at the end. A `Chunked` list is saved as a plain list, exactly as a `Vec` is.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

/// Items per chunk: a write to a shared chunk copies at most this many items.
const CHUNK: usize = 64;

#[derive(Clone)]
pub struct Chunked<T> {
    /// Full chunks, oldest first.
    full: Vec<Arc<[T; CHUNK]>>,
    /// The newest items, fewer than `CHUNK`.
    tail: Arc<Vec<T>>,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked { full: Vec::new(), tail: Arc::default() }
    }
}

impl<T: Clone> Chunked<T> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.full.len() * CHUNK + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.full.is_empty() && self.tail.is_empty()
    }

    /// Add an item at the end; a full tail becomes a shared chunk.
    pub fn push(&mut self, item: T) {
        let tail = Arc::make_mut(&mut self.tail);
        if tail.capacity() == 0 {
            tail.reserve_exact(CHUNK);
        }
        tail.push(item);
        if tail.len() >= CHUNK {
            // A tail of `CHUNK` items is always a full chunk.
            match Box::<[T; CHUNK]>::try_from(std::mem::take(tail)) {
                Ok(chunk) => self.full.push(Arc::from(chunk)),
                Err(items) => *tail = items,
            }
        }
    }

    /// The item numbered `i` (0 is the first added).
    pub fn get(&self, i: usize) -> Option<&T> {
        match self.full.get(i / CHUNK) {
            Some(chunk) => chunk.get(i % CHUNK),
            None => self.tail.get(i - self.full.len() * CHUNK),
        }
    }

    /// The item numbered `i`, to change: its chunk is copied first if a clone shares it.
    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        if i >= self.len() {
            return None;
        }
        let start = self.full.len() * CHUNK;
        match self.full.get_mut(i / CHUNK) {
            Some(chunk) => Arc::make_mut(chunk).get_mut(i % CHUNK),
            None => Arc::make_mut(&mut self.tail).get_mut(i - start),
        }
    }

    pub fn last(&self) -> Option<&T> {
        self.tail.last().or_else(|| self.full.last().and_then(|c| c.last()))
    }

    /// Every item, oldest first.
    pub fn iter(&self) -> Iter<'_, T> {
        self.iter_from(0)
    }

    /// The items chunk by chunk, oldest first, each chunk with the number of its first item: a
    /// plain loop over each is the quickest way through every item.
    pub fn slices(&self) -> impl Iterator<Item = (usize, &[T])> {
        self.full.iter().map(|c| c.as_slice()).chain(std::iter::once(self.tail.as_slice())).enumerate().map(|(k, s)| (k * CHUNK, s))
    }

    /// The items from number `from` on (none if `from` is past the end).
    pub fn iter_from(&self, from: usize) -> Iter<'_, T> {
        let (c, j) = (from / CHUNK, from % CHUNK);
        match (self.full.get(c), self.full.get(c + 1..)) {
            (Some(first), Some(rest)) => {
                Iter { front: first.get(j..).unwrap_or_default().iter(), chunks: rest.iter(), back: self.tail.iter() }
            }
            _ => Iter {
                front: [].iter(),
                chunks: [].iter(),
                back: self.tail.get(from.saturating_sub(self.full.len() * CHUNK)..).unwrap_or_default().iter(),
            },
        }
    }
}

/// Items of a `Chunked` list in order, from either end.
pub struct Iter<'a, T> {
    /// The rest of the chunk being read from the front.
    front: std::slice::Iter<'a, T>,
    /// The full chunks between the two ends, not yet entered.
    chunks: std::slice::Iter<'a, Arc<[T; CHUNK]>>,
    /// The rest of the chunk (or tail) being read from the back.
    back: std::slice::Iter<'a, T>,
}

impl<T> Clone for Iter<'_, T> {
    fn clone(&self) -> Self {
        Iter { front: self.front.clone(), chunks: self.chunks.clone(), back: self.back.clone() }
    }
}

impl<'a, T> Iter<'a, T> {
    /// The front chunk is read: enter the next one, or the back one when none is left.
    fn next_chunk(&mut self) -> Option<&'a T> {
        for c in self.chunks.by_ref() {
            self.front = c.iter();
            if let Some(x) = self.front.next() {
                return Some(x);
            }
        }
        self.front = std::mem::take(&mut self.back);
        self.front.next()
    }
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = &'a T;

    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        match self.front.next() {
            Some(x) => Some(x),
            None => self.next_chunk(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.front.len() + self.chunks.len() * CHUNK + self.back.len();
        (n, Some(n))
    }
}

impl<T> DoubleEndedIterator for Iter<'_, T> {
    fn next_back(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(x) = self.back.next_back() {
                return Some(x);
            }
            match self.chunks.next_back() {
                Some(c) => self.back = c.iter(),
                None => return self.front.next_back(),
            }
        }
    }
}

impl<T> ExactSizeIterator for Iter<'_, T> {}

impl<T> std::iter::FusedIterator for Iter<'_, T> {}

impl<'a, T: Clone> IntoIterator for &'a Chunked<T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<T: Clone> FromIterator<T> for Chunked<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut out = Chunked::new();
        for x in items {
            out.push(x);
        }
        out
    }
}

impl<T: Clone> From<Vec<T>> for Chunked<T> {
    fn from(items: Vec<T>) -> Self {
        items.into_iter().collect()
    }
}

impl<T: Clone + std::fmt::Debug> std::fmt::Debug for Chunked<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A plain list, as a `Vec` is saved.
impl<T: Clone + Serialize> Serialize for Chunked<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de, T: Clone + Deserialize<'de>> Deserialize<'de> for Chunked<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<T>::deserialize(deserializer).map(Chunked::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Cause, Event, EventKind, Routine};
    type Log = Chunked<Event>;
    use arbiter_syntax::span::Span;

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

    fn results<'a>(events: impl Iterator<Item = &'a Event>) -> Vec<i64> {
        events.map(result).collect()
    }

    #[test]
    fn pushes_across_chunks_keep_order() {
        let n = 3 * CHUNK + 5;
        let mut log = Log::new();
        assert!(log.is_empty());
        assert!(log.last().is_none());
        assert_eq!(log.iter().count(), 0);
        for i in 0..n {
            log.push(event(i as i64));
            assert_eq!(log.len(), i + 1);
            assert_eq!(log.last().map(result), Some(i as i64));
        }
        assert_eq!(log.full.len(), 3);
        assert_eq!(log.tail.len(), 5);
        let all: Vec<i64> = (0..n as i64).collect();
        assert_eq!(results(log.iter()), all);
        assert_eq!(results((&log).into_iter()), all);
        for i in 0..n {
            assert_eq!(log.get(i).map(result), Some(i as i64));
        }
        assert!(log.get(n).is_none());
        assert_eq!(log.iter().len(), n);
        assert_eq!(results(log.iter().rev()), all.iter().rev().copied().collect::<Vec<_>>());
        assert_eq!(log.iter().enumerate().rev().find(|(_, e)| result(e) == 7).map(|(i, _)| i), Some(7));
    }

    #[test]
    fn iterates_from_any_index_from_both_ends() {
        let n = 2 * CHUNK + 9;
        let log: Log = (0..n as i64).map(event).collect();
        for from in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 2 * CHUNK + 8, n, n + 10] {
            let want: Vec<i64> = (from.min(n) as i64..n as i64).collect();
            assert_eq!(results(log.iter_from(from)), want, "from {from}");
            assert_eq!(log.iter_from(from).len(), want.len(), "from {from}");
            assert_eq!(results(log.iter_from(from).rev()), want.iter().rev().copied().collect::<Vec<_>>(), "from {from}");
            // Meeting in the middle: alternate ends.
            let mut it = log.iter_from(from);
            let mut got = Vec::new();
            let mut back = Vec::new();
            while let Some(x) = it.next() {
                got.push(result(x));
                if let Some(y) = it.next_back() {
                    back.push(result(y));
                }
                assert_eq!(it.len(), want.len() - got.len() - back.len());
            }
            got.extend(back.iter().rev());
            assert_eq!(got, want, "from {from}, both ends");
        }
    }

    #[test]
    fn exactly_full_chunks_leave_an_empty_tail() {
        let log: Log = (0..2 * CHUNK as i64).map(event).collect();
        assert_eq!(log.full.len(), 2);
        assert!(log.tail.is_empty());
        assert_eq!(log.last().map(result), Some(2 * CHUNK as i64 - 1));
        assert!(log.get(2 * CHUNK).is_none());
        assert_eq!(results(log.iter().rev().take(1)), vec![2 * CHUNK as i64 - 1]);
    }

    #[test]
    fn clones_share_chunks_and_change_apart() {
        let mut a: Log = (0..CHUNK as i64 + 3).map(event).collect();
        let b = a.clone();
        assert!(Arc::ptr_eq(&a.full[0], &b.full[0]));
        assert!(Arc::ptr_eq(&a.tail, &b.tail));
        a.push(event(100));
        assert_eq!(a.len(), b.len() + 1);
        assert_eq!(b.last().map(result), Some(CHUNK as i64 + 2));
        if let Some(e) = a.get_mut(1) {
            e.depth = 9;
        }
        assert!(!Arc::ptr_eq(&a.full[0], &b.full[0]));
        assert_eq!(a.get(1).map(|e| e.depth), Some(9));
        assert_eq!(b.get(1).map(|e| e.depth), Some(0));
        assert!(a.get_mut(a.len()).is_none());
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
