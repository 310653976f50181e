//! Re-dealing what a seat cannot see: the states a bot searches are made from the real one by
//! shuffling every hidden thing among the places it could be, so a bot's choice is a function of
//! what its seat knows and of the bot's own seed, never of the hidden cards themselves.
//!
//! What a seat does not know about an object is what it is: its definition, the values it has been
//! given that are not references to other objects (a planned dial, a counter's value), which the
//! log also hides from the seats that do not know the object, and the temporary changes made to
//! it. What stays with the object's place is its controller, its zone and position, what lies
//! under it, and the objects its fields point at (the place a face-down token was put on, the
//! piece a card of a per-piece deck belongs to).
//!
//! So the unknown objects are put in groups by owner and kind, and within each group their hidden
//! parts are dealt again at random: the cards of an opponent's hand and library are dealt again
//! from the same cards, another player's secret role card from the role cards the seat has not
//! seen, a face-down token on the board from that player's tokens not seen, a face-down plan from
//! that player's unseen cards. The objects a field points at do not split a group: a token's
//! place, pointed at by a field, made each token put down a group of one, never dealt again, and
//! the search bot played as if it knew it (a secrecy audit found it). Reading: a player's unseen
//! objects of one kind are dealt together even where the rules keep them apart (the decks of two
//! pieces of one player): a bot may imagine a card in another piece's deck, and never reads which
//! card is where. Each group's hidden
//! parts are put in a canonical order before they are dealt, so where they really were cannot
//! matter. (Grouping by controller would not do: a card's controller is whoever holds it, so an
//! opponent's one role card would be a group of one, never dealt again.)
//!
//! What is not dealt again: a value a rule copied out of a hidden object into a name of its own
//! (`let n = c.power`) while it was hidden: a rule that does so before a bot decides lets the
//! bot's search see that value. (Nothing marks such a value as hidden; the rulebooks here mostly
//! keep hidden cards as objects, which are dealt again.)
//!
//! The reading this takes: a seat knows what each group holds as a whole, as a player knows the
//! game's cards and the decklists (open decklists); it does not know which object is which. The
//! game's random source is replaced by one seeded from the bot's generator (the next shuffle and
//! roll are unknown too), and the log, which names hidden cards for the seats that saw them, is
//! dropped: no rule reads it.

use super::BotRng;
use arbiter_ir::value::{ObjId, Seat, Value};
use arbiter_ir::{DefId, Game, KindId, Sym};
use arbiter_runtime::state::{Log, Rng, State, seat_bit};
use std::collections::BTreeMap;

/// The group an unknown object is dealt within: owner and kind.
type Known = (Seat, KindId);
/// What only some seats know: its definition, its other given values, and the object it was
/// (its temporary changes go with it).
type Hidden = (DefId, Vec<(Sym, Value)>, ObjId);

/// A copy of `st` in which everything hidden from `seat` is dealt again with `rng`.
pub fn redeal(game: &Game, st: &State, seat: Seat, rng: &mut BotRng) -> State {
    let mut s = st.clone();
    let bit = seat_bit(seat);
    let mut groups: BTreeMap<Known, Vec<ObjId>> = BTreeMap::new();
    for (i, o) in st.objects.iter().enumerate() {
        if o.known & bit != 0 {
            continue;
        }
        let kind = game.def(o.def).map_or(KindId::MAX, |d| d.kind);
        groups.entry((o.owner, kind)).or_default().push(i as ObjId);
    }
    // Where each dealt object's hidden parts went, for its temporary changes.
    let mut went: Vec<(ObjId, ObjId)> = Vec::new();
    for ids in groups.values().filter(|ids| ids.len() > 1) {
        let mut hidden: Vec<Hidden> = ids
            .iter()
            .filter_map(|&o| st.obj(o).map(|ob| (o, ob)))
            .map(|(id, o)| (o.def, o.fields.iter().filter(|(_, v)| !matches!(v, Value::Obj(_))).cloned().collect(), id))
            .collect();
        // The canonical order: by definition, then by the given values and temporary changes as
        // written (never by the object it was).
        let changes = |id: ObjId| {
            st.temp_mods.iter().filter(|m| m.obj == id).map(|m| format!("{:?}{:?}{:?}", m.field, m.op, m.value)).collect::<String>()
        };
        hidden.sort_by_cached_key(|(d, f, id)| (*d, if f.is_empty() { String::new() } else { format!("{f:?}") }, changes(*id)));
        rng.shuffle(&mut hidden);
        for (&o, (def, given, was)) in ids.iter().zip(hidden) {
            went.push((was, o));
            if let Some(ob) = s.obj_mut(o) {
                ob.def = def;
                ob.fields.retain(|(_, v)| matches!(v, Value::Obj(_)));
                ob.fields.extend(given);
            }
        }
    }
    went.sort_unstable();
    for m in &mut s.temp_mods {
        if let Ok(i) = went.binary_search_by_key(&m.obj, |(was, _)| *was)
            && let Some((_, now)) = went.get(i)
        {
            m.obj = *now;
        }
    }
    s.rng = Rng::from_seed(rng.below(u64::MAX));
    s.log = Log::default();
    s.touch();
    s
}
