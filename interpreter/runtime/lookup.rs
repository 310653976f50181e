//! Walks that look their items up (`ir::Lookup`): a zone's objects indexed by a field (or by
//! their owner or controller), so that `[u in units where u.area == a and ..]` tests only the
//! units whose area is `a`, in the zone's order, instead of every unit.
//!
//! Exactness: the others fail the condition's first test (`x.f == v`, with `and` after it), so
//! the walk passes the same items, in the same order, with the same values and the same errors
//! from the rest of the condition; only the steps spent on the first test of the others are
//! saved. (The zone's last object is still tested, last, so that the walk's name is left holding
//! what a walk leaves in it: the state keeps it.) An object's key is read by evaluating the test's
//! own `x.f` on it; when any object's key cannot be read, or is not a plain value (a number, a
//! name, a player, an object, ...), or `v` is not, the zone is walked as written (and fails where
//! it would). Equal plain values are exactly those the evaluator's `==` finds equal (`code`).
//!
//! Invalidation: only keys read from the object alone are looked up (its owner, its controller,
//! or a field no modifier and no blanking modifier touches, with its temporary changes:
//! `Evaluator::own_key`); such a key changes only with the object, which gives its zone
//! instance a new deep version (`State::zone_version`), as objects coming and going do. An index
//! is kept in the memo under that number, made the third time the zone is looked up at it (see
//! `INDEXED_AT`); one that cannot be made (a key that is not a plain value) is not tried again at
//! that number. (A key read through modifiers would be good for one version of the state only:
//! made again at nearly every lookup, an index cost more than the walks it saved, measured.)
//! Only in games whose memos are kept (`memo_kept`): elsewhere, and for an engine that walks
//! every call, walks test every item.
//!
//! Steps: making an index reads every object's key once, where an `any` or `first` walk may stop
//! early; looking up then saves the steps of the others at every walk. A rule at the edge of a
//! step budget may so meet it a little earlier or later than walking would (as with remembered
//! calls, which take no steps).

use super::eval::{Evaluator, set_slot};
use super::items::{Items, Part};
use super::memo::{Index, Indexed, Sighted, code};
use super::state::Env;
use arbiter_ir::value::{ObjId, Value, ZoneRef};
use arbiter_ir::*;
use std::sync::Arc;

/// A zone is indexed the third time it is looked up by one key unchanged; the first two walk it.
/// Indexing costs about two walks: a board walked twice between two moves (indexed at the second
/// walk, the smallest rulebook took 7% more instructions than indexed at the third), while a
/// shared zone of pieces is walked many times between two changes (measured on the rulebooks).
const INDEXED_AT: u32 = 3;

impl<'a> Evaluator<'a> {
    /// The items a walk over `list` with condition `cond` tests: those it may look up by `by` (see
    /// the module's comment), or every item.
    #[inline]
    pub(super) fn walked(&self, list: &ExprIr, cond: &ExprIr, slot: Slot, by: Option<Lookup>, env: &mut Env) -> super::RtResult<Items<'a>> {
        match by {
            Some(by) if self.kept && !matches!(list.plain().kind, ExprKindIr::Binary(..)) => {
                let v = self.eval(list, env)?;
                if let Value::Zone(z) = v
                    && let Some(objs) = self.one_zone(z)
                {
                    return Ok(Items::of(self.looked_up(by, z, objs, cond, slot, env).unwrap_or(Part::Objs(objs))));
                }
                Ok(Items::of(self.part(v, list.span)?))
            }
            _ => self.items_of(list, env),
        }
    }

    /// The objects `objs` of zone instance `z` that can pass `cond`, looked up by `by`; none when
    /// they cannot be, or are not yet (then the zone is walked). (A shared zone's value never
    /// names an owner: the checker refuses `p.pile`, the evaluator `q.pile`. So `z` is the
    /// instance whose deep version its changes give.)
    fn looked_up(&self, by: Lookup, z: ZoneRef, objs: &[ObjId], cond: &ExprIr, slot: Slot, env: &mut Env) -> Option<Part<'a>> {
        if !self.own_key(by.key) {
            return None;
        }
        let stamp = self.state.zone_version(z);
        let index = {
            let mut memo = self.memo();
            let fresh = || Sighted { zone: z, key: by.key, stamp, seen: 0, tried: 0, index: Indexed::Not };
            let s = match memo.lookups.iter().position(|s| s.zone == z && s.key == by.key) {
                Some(i) => memo.lookups.get_mut(i)?,
                None => {
                    memo.lookups.push(fresh());
                    memo.lookups.last_mut()?
                }
            };
            if s.stamp != stamp {
                *s = fresh();
            }
            s.seen = s.seen.saturating_add(1);
            match &s.index {
                _ if s.seen < INDEXED_AT => return None,
                Indexed::Failed => return None,
                Indexed::Made(index) => Some(Arc::clone(index)),
                Indexed::Not => None,
            }
        };
        let (item, value) = by.sides(slot, cond)?;
        let want = code(&self.eval(value, env).ok()?)?;
        let index = match index {
            Some(index) => index,
            None => {
                let made = self.index(objs, item, slot, env).map(Arc::new);
                if let Some(s) = self.memo().lookups.iter_mut().find(|s| s.zone == z && s.key == by.key && s.stamp == stamp) {
                    s.index = made.as_ref().map_or(Indexed::Failed, |index| Indexed::Made(Arc::clone(index)));
                    s.tried = s.tried.saturating_add(1);
                }
                made?
            }
        };
        let found = index.range(want);
        // The zone's last object is tested last, as a walk tests it (it fails the first test, or
        // is the last found): the walk's name is left holding it, as after a walk.
        let last = objs.last().copied().filter(|o| found.is_empty() || index.object(found.end - 1) != Some(*o));
        Some(Part::Looked(index, found, last))
    }

    /// How many times an index of zone instance `z` by `key` was tried (made, or found impossible)
    /// since the zone last changed: for the tests, which check it is once at most.
    pub fn indexes_tried(&self, z: ZoneRef, key: LookupKey) -> u32 {
        let stamp = self.state.zone_version(z);
        self.memo().lookups.iter().find(|s| s.zone == z && s.key == key && s.stamp == stamp).map_or(0, |s| s.tried)
    }

    /// Whether an object's key is read from the object alone: its owner, its controller, or a
    /// field no modifier and no blanking modifier touches (its printed value, or that with the
    /// temporary changes made to it: a change gives its object a new number when it is made and
    /// when it ends, `State::changed`). Then it changes only with the object, which gives its zone
    /// instance a new deep version.
    fn own_key(&self, key: LookupKey) -> bool {
        match key {
            LookupKey::Owner | LookupKey::Controller => true,
            LookupKey::Field(f) => {
                !self.game.modified_fields.get(f as usize).copied().unwrap_or(false) && self.game.blank_modifiers.is_empty()
            }
        }
    }

    /// `objs` indexed by `item` (`x.f`, with `x` in `slot`), read on each; none when one cannot
    /// be read or is not a plain value.
    fn index(&self, objs: &[ObjId], item: &ExprIr, slot: Slot, env: &mut Env) -> Option<Index> {
        let mut keyed = Vec::with_capacity(objs.len());
        for &o in objs {
            set_slot(env, slot, Value::Obj(o));
            keyed.push((code(&self.eval(item, env).ok()?)?, o));
        }
        // Stable: objects with the same key stay in the zone's order.
        keyed.sort_by_key(|(k, _)| *k);
        let (keys, objs) = keyed.into_iter().unzip();
        Some(Index { keys, objs })
    }
}
