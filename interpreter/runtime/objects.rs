//! Objects coming and going: created, moved between zones (with who may see them), put under or
//! over other objects, turned face up or down.

use super::RtError;
use super::RtResult;
use super::engine::Engine;
use super::eval::err;
use super::state::*;
use arbiter_ir::value::{ObjId, Value, ZoneRef};
use arbiter_ir::*;
use arbiter_syntax::span::Span;

impl Engine<'_> {
    pub(super) fn exec_create(&self, st: &mut State, c: &CreateIr, env: u32, span: Span) -> Result<ObjId, RtError> {
        let def = match self.eval_in(st, env, &c.def)? {
            Value::Def(d) => d,
            Value::Text(t) => {
                self.game.def_index.get(t.as_ref()).copied().ok_or_else(|| err(c.def.span, format!("no definition named `{t}`")))?
            }
            other => return Err(self.evaluator(st).type_err(c.def.span, "a definition", &other)),
        };
        let zone = match self.eval_in(st, env, &c.zone)? {
            Value::Zone(z) => z,
            other => return Err(self.evaluator(st).type_err(c.zone.span, "a zone", &other)),
        };
        let owner = match &c.owner {
            Some(o) => match self.eval_in(st, env, o)? {
                Value::Player(p) => p,
                other => return Err(self.evaluator(st).type_err(o.span, "a player", &other)),
            },
            None => zone.owner.ok_or_else(|| err(span, "this zone belongs to no player: say who owns the new object with `owned by p`"))?,
        };
        if st.objects.len() >= arbiter_syntax::budgets::OBJECT_BUDGET {
            return Err(err(
                span,
                format!("object budget exceeded: a game may hold at most {} objects", arbiter_syntax::budgets::OBJECT_BUDGET),
            )
            .with_help("a loop or trigger probably creates objects without end; create them from a fixed list or count"));
        }
        let id = ObjId::try_from(st.objects.len()).map_err(|_| err(span, "too many objects"))?;
        let since = st.tick();
        st.touch();
        st.objects.push(Obj {
            def,
            owner,
            controller: zone.owner.unwrap_or(owner),
            place: Place::Nowhere,
            face_up: true,
            known: 0,
            fields: vec![],
            under: vec![],
            since,
            mixed: false,
            version: super::state::new_version(),
        });
        self.place_in_zone(st, id, zone, false, c.face_up, span)?;
        let known = st.obj(id).map(|o| o.known).unwrap_or(0);
        self.log(st, EventKind::Created { obj: id, def, to: Place::Zone(zone) }, known, span);
        Ok(id)
    }

    fn detach(&self, st: &mut State, o: ObjId) -> Result<Place, RtError> {
        let place = st.obj(o).map(|x| x.place).unwrap_or(Place::Nowhere);
        match place {
            Place::Zone(z) => {
                if let Some(list) = st.zone_mut(self.game, z) {
                    list.retain(|x| *x != o);
                }
            }
            Place::Under(h) => {
                if let Some(holder) = st.obj_mut(h) {
                    holder.under.retain(|x| *x != o);
                }
            }
            Place::Nowhere => {}
        }
        Ok(place)
    }

    fn place_in_zone(&self, st: &mut State, o: ObjId, z: ZoneRef, bottom: bool, face: Option<bool>, span: Span) -> RtResult {
        let zdef = self.game.zone(z.zone).ok_or_else(|| err(span, "no such zone"))?;
        let ordered = zdef.ordered;
        let vis = zdef.visibility;
        let list = st.zone_mut(self.game, z).ok_or_else(|| err(span, "no such zone instance"))?;
        if ordered && !bottom {
            list.insert(0, o);
        } else {
            list.push(o);
        }
        let since = st.tick();
        // Within public zones an object keeps its face; coming into view it is face up.
        let was_public = match st.obj(o).map(|x| x.place) {
            Some(Place::Zone(from)) => self.game.zone(from.zone).is_some_and(|d| d.visibility == Visibility::Public),
            Some(Place::Under(_)) => true,
            _ => false,
        };
        if let Some(ob) = st.obj_mut(o) {
            ob.place = Place::Zone(z);
            ob.face_up = match face {
                Some(f) => f,
                None if was_public && vis == Visibility::Public => ob.face_up,
                None => true,
            };
            ob.since = since;
            if let Some(owner) = z.owner {
                ob.controller = owner;
                ob.mixed = false;
            }
            ob.known = match vis {
                Visibility::Hidden => 0,
                Visibility::Owner => ob.known | seat_bit(z.owner.unwrap_or(ob.owner)),
                Visibility::Public if ob.face_up => ALL,
                // Face down in view of all: nobody learns what it is by its move (a card from a
                // hand stays known to that hand's owner; a tile from a hidden pile to no one).
                Visibility::Public => ob.known,
            };
        }
        st.dirty = true;
        Ok(())
    }

    pub fn move_obj(&self, st: &mut State, o: ObjId, z: ZoneRef, bottom: bool, face: Option<bool>, span: Span) -> RtResult {
        let before = st.obj(o).map(|x| x.known).unwrap_or(0);
        let def = st.obj(o).map(|x| x.def).ok_or_else(|| err(span, format!("no object #{o}")))?;
        let from_zone = st.zone_of(o);
        let seen = self.last_known(st, o, def, Place::Zone(z))?;
        let from = self.detach(st, o)?;
        self.place_in_zone(st, o, z, bottom, face, span)?;
        if self.left_play(def, from, Place::Zone(z)) {
            self.forget(st, o);
        }
        st.left_play.extend(seen);
        let after = st.obj(o).map(|x| x.known).unwrap_or(0);
        self.log(st, EventKind::Moved { obj: o, def, from, to: Place::Zone(z) }, before | after, span);
        let from_v = from_zone.map(Value::Zone).unwrap_or_default();
        self.emit(st, self.game.builtin_events.moved, vec![Value::Obj(o), from_v, Value::Zone(z)])
    }

    /// Last-known information: an object with triggers whose abilities are in effect and that is
    /// leaving play is remembered as it was, with its controller, until the next decision — an
    /// event raised meanwhile that names it reaches its own triggers (`Engine::emit`).
    fn last_known(&self, st: &State, o: ObjId, def: DefId, to: Place) -> Result<Option<(ObjId, arbiter_ir::value::Seat)>, RtError> {
        if self.game.def(def).is_none_or(|d| d.triggers.is_empty()) {
            return Ok(None);
        }
        let Some(ob) = st.obj(o) else { return Ok(None) };
        if !self.left_play(def, ob.place, to) || !self.evaluator(st).is_active(o)? {
            return Ok(None);
        }
        Ok(Some((o, ob.controller)))
    }

    /// Did an object leave the zones where its kind is active ("leave play")?
    fn left_play(&self, def: DefId, from: Place, to: Place) -> bool {
        let active = |p: Place| match (p, self.game.def(def).and_then(|d| self.game.kind(d.kind))) {
            (Place::Zone(z), Some(k)) => k.active_in.contains(&z.zone),
            _ => false,
        };
        active(from) && !active(to)
    }

    /// An object that leaves play is a new object: effects on it end, changes to it are undone.
    fn forget(&self, st: &mut State, o: ObjId) {
        st.touch();
        st.temp_mods.retain(|t| t.obj != o);
        // (`obj_mut` below gives it a new number: what its temporary changes made is forgotten.)
        if let Some(ob) = st.obj_mut(o) {
            ob.fields.clear();
        }
    }

    pub(super) fn put_under(&self, st: &mut State, o: ObjId, target: ObjId, span: Span) -> RtResult {
        if o == target || self.is_within(st, target, o) {
            return Err(err(span, "an object cannot go under itself"));
        }
        let def = st.obj(o).map(|x| x.def).ok_or_else(|| err(span, format!("no object #{o}")))?;
        let tdef = st.obj(target).map(|x| x.def).ok_or_else(|| err(span, format!("no object #{target}")))?;
        let seen = self.last_known(st, o, def, Place::Under(target))?;
        let from = self.detach(st, o)?;
        if self.left_play(def, from, Place::Under(target)) {
            self.forget(st, o);
        }
        st.left_play.extend(seen);
        let since = st.tick();
        if let Some(t) = st.obj_mut(target) {
            t.under.push(o);
        }
        if let Some(ob) = st.obj_mut(o) {
            ob.place = Place::Under(target);
            ob.since = since;
        }
        st.dirty = true;
        let (known, target_known) = (st.obj(o).map(|x| x.known).unwrap_or(0), st.obj(target).map(|x| x.known).unwrap_or(0));
        self.log(st, EventKind::Put { obj: o, def, target, target_def: tdef, under: true, target_known }, known, span);
        Ok(())
    }

    /// `put x over y`: x takes y's place; y and everything under it go under x.
    pub(super) fn put_over(&self, st: &mut State, o: ObjId, target: ObjId, span: Span) -> RtResult {
        if o == target || self.is_within(st, target, o) {
            return Err(err(span, "an object cannot go over itself"));
        }
        let def = st.obj(o).map(|x| x.def).ok_or_else(|| err(span, format!("no object #{o}")))?;
        let tdef = st.obj(target).map(|x| x.def).ok_or_else(|| err(span, format!("no object #{target}")))?;
        self.detach(st, o)?;
        let tplace = st.obj(target).map(|x| x.place).unwrap_or(Place::Nowhere);
        match tplace {
            Place::Zone(z) => {
                if let Some(list) = st.zone_mut(self.game, z)
                    && let Some(pos) = list.iter().position(|x| *x == target)
                    && let Some(slot) = list.get_mut(pos)
                {
                    *slot = o;
                }
            }
            Place::Under(h) => {
                if let Some(holder) = st.obj_mut(h)
                    && let Some(slot) = holder.under.iter_mut().find(|x| **x == target)
                {
                    *slot = o;
                }
            }
            Place::Nowhere => {}
        }
        let mut pile = vec![target];
        pile.extend(st.obj(target).map(|t| t.under.clone()).unwrap_or_default());
        if let Some(t) = st.obj_mut(target) {
            t.under.clear();
        }
        for p in &pile {
            if let Some(ob) = st.obj_mut(*p) {
                ob.place = Place::Under(o);
            }
        }
        let controller = st.obj(target).map(|t| t.controller).unwrap_or(0);
        let since = st.tick();
        if let Some(ob) = st.obj_mut(o) {
            ob.place = tplace;
            ob.under.extend(pile);
            ob.controller = controller;
            ob.since = since;
            if ob.face_up {
                ob.known = ALL;
            }
        }
        st.dirty = true;
        let (known, target_known) = (st.obj(o).map(|x| x.known).unwrap_or(0), st.obj(target).map(|x| x.known).unwrap_or(0));
        self.log(st, EventKind::Put { obj: o, def, target, target_def: tdef, under: false, target_known }, known, span);
        Ok(())
    }

    fn is_within(&self, st: &State, o: ObjId, holder: ObjId) -> bool {
        let mut cur = o;
        for _ in 0..64 {
            match st.obj(cur).map(|x| x.place) {
                Some(Place::Under(h)) if h == holder => return true,
                Some(Place::Under(h)) => cur = h,
                _ => return false,
            }
        }
        false
    }

    pub(super) fn turn(&self, st: &mut State, o: ObjId, up: bool, span: Span) {
        let Some(ob) = st.obj_mut(o) else { return };
        if ob.face_up == up {
            return;
        }
        ob.face_up = up;
        if up {
            ob.known = ALL;
        }
        let (def, known) = (ob.def, ob.known);
        st.dirty = true;
        // Who may see which object was turned: those who know it.
        self.log(st, EventKind::Turned { obj: o, def, up }, known, span);
    }
}

// Randomness: each result from the engine's `RandomSource` (see random.rs).
impl Engine<'_> {
    pub(super) fn random_roll(&self, st: &mut State, sides: i64, span: Span) -> Result<i64, RtError> {
        self.random().roll(st, sides, span)
    }

    pub(super) fn random_pick(&self, st: &mut State, items: &[Value], span: Span) -> Result<Value, RtError> {
        if items.is_empty() {
            return Ok(Value::None);
        }
        self.random().pick(self.game, st, items, span)
    }

    pub(super) fn shuffle(&self, st: &mut State, z: ZoneRef, span: Span) -> RtResult {
        if st.zone_slot(self.game, z).is_none() {
            return Err(err(span, "no such zone"));
        }
        let mut items = st.zone_contents(self.game, z).to_vec();
        self.random().shuffle(self.game, st, z, &mut items, span)?;
        // In a zone no player owns, whose each object is goes into the shuffle too.
        if z.owner.is_none() {
            for &o in &items {
                if st.obj(o).is_some_and(|x| !x.mixed)
                    && let Some(ob) = st.obj_mut(o)
                {
                    ob.mixed = true;
                }
            }
        }
        if let Some(list) = st.zone_mut(self.game, z) {
            *list = items;
        }
        st.dirty = true;
        self.log(st, EventKind::Shuffled { zone: z }, ALL, span);
        Ok(())
    }
}

/// A scenario's own `move` or `put` (`verb`) of nothing: a mistake of its setup (in the rules,
/// moving or putting none does nothing).
pub(super) fn nothing_moved(span: Span, verb: &str) -> super::RtError {
    let what = if verb == "move" { "moves" } else { "puts" };
    err(span, format!("this {what} nothing: what it names is none (or an empty list)")).with_help(format!(
        "a scenario's `{verb}` sets the table up: the object may not have been created, or the list that names it found nothing"
    ))
}
