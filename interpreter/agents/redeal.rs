//! Re-dealing what a seat cannot see: the states a bot searches are made from the real one by
//! shuffling every hidden thing among the places it could be, so a bot's choice is a function of
//! what its seat knows and of the bot's own seed, never of the hidden cards themselves.
//!
//! What a seat does not know about an object is what it is: its definition, and the values it has
//! been given that are not references to other objects (a planned dial, a counter's value), which
//! the log also hides from the seats that do not know the object. What every seat knows about it
//! is its kind, owner, controller and place, and the objects its fields point at (the ship a
//! maneuver card belongs to): the view shows those.
//!
//! So the unknown objects are put in groups by what is known of them (owner, controller, kind and
//! those references), and within each group their hidden parts are dealt again at random: the
//! cards of an opponent's hand and library are dealt again from the same cards, a face-down
//! plan becomes any of its ship's unseen cards. Each group's hidden parts are put in a canonical
//! order before they are dealt, so where they really were cannot matter.
//!
//! The reading this takes: a seat knows what each group holds as a whole, as a player knows the
//! game's cards and the decklists (open decklists); it does not know which object is which. The
//! game's random source is replaced by one seeded from the bot's generator (the next shuffle and
//! roll are unknown too), and the log, which names hidden cards for the seats that saw them, is
//! dropped: no rule reads it.

use crate::ir::value::{ObjId, Seat, Value};
use crate::ir::{DefId, Game, KindId, Sym};
use crate::runtime::state::{Log, Rng, State, seat_bit};
use std::collections::BTreeMap;

/// What every seat knows of an object: owner, controller, kind and the objects it points at.
type Known = (Seat, Seat, KindId, Vec<(Sym, ObjId)>);
/// What only some seats know: its definition and its other given values.
type Hidden = (DefId, Vec<(Sym, Value)>);

/// A copy of `st` in which everything hidden from `seat` is dealt again with `rng`.
pub fn redeal(game: &Game, st: &State, seat: Seat, rng: &mut Rng) -> State {
    let mut s = st.clone();
    let bit = seat_bit(seat);
    let mut groups: BTreeMap<Known, Vec<ObjId>> = BTreeMap::new();
    for (i, o) in st.objects.iter().enumerate() {
        if o.known & bit != 0 {
            continue;
        }
        let kind = game.def(o.def).map_or(KindId::MAX, |d| d.kind);
        let refs = o.fields.iter().filter_map(|(f, v)| if let Value::Obj(x) = v { Some((*f, *x)) } else { None }).collect();
        groups.entry((o.owner, o.controller, kind, refs)).or_default().push(i as ObjId);
    }
    for ids in groups.values().filter(|ids| ids.len() > 1) {
        let mut hidden: Vec<Hidden> = ids
            .iter()
            .filter_map(|&o| st.obj(o))
            .map(|o| (o.def, o.fields.iter().filter(|(_, v)| !matches!(v, Value::Obj(_))).cloned().collect()))
            .collect();
        // The canonical order: by definition, then by the given values as written.
        hidden.sort_by_cached_key(|(d, f)| (*d, if f.is_empty() { String::new() } else { format!("{f:?}") }));
        for i in (1..hidden.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            hidden.swap(i, j);
        }
        for (&o, (def, given)) in ids.iter().zip(hidden) {
            if let Some(ob) = s.obj_mut(o) {
                ob.def = def;
                ob.fields.retain(|(_, v)| matches!(v, Value::Obj(_)));
                ob.fields.extend(given);
            }
        }
    }
    s.rng = Rng::from_seed(rng.below(u64::MAX));
    s.scripted = None;
    s.log = Log::default();
    s.tracing = None;
    s.touch();
    s
}
