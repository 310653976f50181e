//! Statement execution: one `match` in `exec`, the larger arms in `exec_*` helpers. A statement
//! either finishes at once, pushes frames (blocks, loops, calls), or asks a decision.
//! Procedure calls and the replacements that stand in for them are in `calls.rs`.

use super::RtError;
use super::RtResult;
use super::engine::{Engine, SetName};
use super::eval::{err, new_env, set_slot};
use super::state::*;
use arbiter_ir::operators::{AssignOperator, ModifyOperator};
use arbiter_ir::value::{ObjId, Seat, Value, ZoneRef};
use arbiter_ir::*;
use arbiter_syntax::span::Span;

impl Engine<'_> {
    /// The env of running code, to evaluate in: its slots are moved out (not copied) and must be
    /// put back with `put_env` (expressions never read the state's envs, only the one they're given).
    #[inline]
    pub(super) fn env_of(&self, st: &mut State, env: u32) -> Env {
        match st.envs.get_mut(env as usize) {
            Some(e) => Env { slots: std::mem::take(&mut e.slots), you: e.you, self_obj: e.self_obj, rec: e.rec },
            None => new_env(0, vec![], None, None),
        }
    }

    #[inline]
    pub(super) fn put_env(st: &mut State, env: u32, e: Env) {
        if let Some(slot) = st.envs.get_mut(env as usize) {
            slot.slots = e.slots;
        }
    }

    pub(super) fn eval_in(&self, st: &mut State, env: u32, e: &ExprIr) -> Result<Value, RtError> {
        let mut en = self.env_of(st, env);
        let v = self.evaluator(st).eval(e, &mut en);
        Self::put_env(st, env, en);
        v
    }

    pub(super) fn set_local(st: &mut State, env: u32, slot: Slot, v: Value) {
        if let Some(e) = st.envs.get_mut(env as usize) {
            set_slot(e, slot, v);
        }
    }

    pub fn exec(&self, st: &mut State, stmt: &StmtIr, env: u32, block: BlockId, pc: u32) -> RtResult {
        let span = stmt.span;
        match &stmt.kind {
            StmtKindIr::Let { slot, value } => {
                let v = self.eval_in(st, env, value)?;
                Self::set_local(st, env, *slot, v);
            }
            StmtKindIr::LetCall { slot, call } => self.do_call(st, call, env, Some((env, *slot)))?,
            StmtKindIr::Choose { dest, choose } => self.exec_choose(st, choose, *dest, env, span)?,
            StmtKindIr::Roll { slot, sides } => self.exec_roll(st, sides, *slot, env, span)?,
            StmtKindIr::Pick { slot, list } => self.exec_pick(st, list, *slot, env, span)?,
            StmtKindIr::Create { dest, create } => {
                let o = self.exec_create(st, create, env, span)?;
                if let Some(s) = dest {
                    Self::set_local(st, env, *s, Value::Obj(o));
                }
            }
            StmtKindIr::Assign { place, op, value } => self.exec_assign(st, place, *op, value, env, span)?,
            StmtKindIr::Block(b) => {
                st.frames.push(Frame { kind: FrameKind::Block { block: *b, pc: 0 }, env });
            }
            StmtKindIr::If { arms, otherwise } => {
                let mut chosen = None;
                for (cond, body) in arms {
                    let mut en = self.env_of(st, env);
                    let t = self.evaluator(st).truth(cond, &mut en)?;
                    if let Some(tracer) = self.cause_recorder() {
                        let detail = super::why::describe(&self.evaluator(st), &mut en, cond);
                        let at_event = u32::try_from(st.log.len()).unwrap_or(u32::MAX);
                        tracer.branch_decided(super::state::BranchRec { call: en.rec, span: cond.span, value: t, detail, at_event });
                    }
                    Self::put_env(st, env, en);
                    if t {
                        chosen = Some(*body);
                        break;
                    }
                }
                if let Some(b) = chosen.or(*otherwise) {
                    st.frames.push(Frame { kind: FrameKind::Block { block: b, pc: 0 }, env });
                }
            }
            StmtKindIr::For { list, .. } => {
                let items = {
                    let mut en = self.env_of(st, env);
                    let items = self.evaluator(st).list_of(list, &mut en);
                    Self::put_env(st, env, en);
                    items?
                };
                st.frames.push(Frame { kind: FrameKind::Loop { block, index: pc, iter: LoopIter::For { items, next: 0 } }, env });
            }
            StmtKindIr::While { .. } => {
                st.frames.push(Frame { kind: FrameKind::Loop { block, index: pc, iter: LoopIter::While }, env });
            }
            StmtKindIr::Repeat { count, .. } => {
                let n = match self.eval_in(st, env, count)? {
                    Value::Int(n) => n,
                    other => return Err(self.evaluator(st).type_err(count.span, "a number", &other)),
                };
                st.frames.push(Frame { kind: FrameKind::Loop { block, index: pc, iter: LoopIter::Repeat { left: n } }, env });
            }
            StmtKindIr::Return(e) => self.exec_return(st, e.as_ref(), env)?,
            StmtKindIr::Call(call) => self.do_call(st, call, env, None)?,
            StmtKindIr::Move { what, to, bottom, face, script } => {
                let items = self.objects_of(st, env, what)?;
                if *script && items.is_empty() {
                    return Err(super::objects::nothing_moved(what.span, "move"));
                }
                let zone = self.zone_value(st, env, to)?;
                for o in items {
                    self.move_obj(st, o, zone, *bottom, *face, span)?;
                }
            }
            StmtKindIr::Put { what, under, target, script } => {
                let items = self.objects_of(st, env, what)?;
                if *script && items.is_empty() {
                    return Err(super::objects::nothing_moved(what.span, "put"));
                }
                let t = match self.eval_in(st, env, target)? {
                    Value::Obj(t) => t,
                    other => return Err(self.evaluator(st).type_err(target.span, "an object", &other)),
                };
                for o in items {
                    if *under { self.put_under(st, o, t, span)? } else { self.put_over(st, o, t, span)? }
                }
            }
            StmtKindIr::Turn { what, up } => {
                for o in self.objects_of(st, env, what)? {
                    self.turn(st, o, *up, span);
                }
            }
            StmtKindIr::Shuffle(z) => {
                let zone = self.zone_value(st, env, z)?;
                self.shuffle(st, zone, span)?;
            }
            StmtKindIr::Modify { target, field, op, value, until } => {
                self.exec_modify(st, target, *field, *op, value, *until, env, span)?
            }
            StmtKindIr::Lasting(i) => self.exec_lasting(st, *i, env, span)?,
            StmtKindIr::Expire(d) => self.exec_expire(st, *d, span)?,
            StmtKindIr::Signal { event, args } => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval_in(st, env, a)?);
                }
                self.log(st, EventKind::Signal { event: *event, args: vals.clone() }, ALL, span);
                self.emit(st, *event, vals)?;
            }
            StmtKindIr::Log(s) => {
                let text = self.text_of(st, env, s, span)?.into();
                self.log(st, EventKind::Log { text }, ALL, span);
            }
            StmtKindIr::Win { who, reason } => {
                let winners = self.players_of(st, env, who)?;
                let reason = self.text_of(st, env, reason, span)?;
                self.end_game(st, winners, reason, false, span);
            }
            StmtKindIr::Lose { who, reason } => {
                let reason = self.text_of(st, env, reason, span)?;
                for p in self.players_of(st, env, who)? {
                    self.player_out(st, p, reason.clone(), span)?;
                }
            }
            StmtKindIr::Draw(reason) => {
                let reason = self.text_of(st, env, reason, span)?;
                self.end_game(st, vec![], reason, true, span);
            }
            StmtKindIr::Reveal { what, to } => self.exec_reveal(st, what, to.as_ref(), env, span)?,
            StmtKindIr::Conceal(what) => self.exec_conceal(st, what, env)?,
            StmtKindIr::Use(a, by) => self.exec_use(st, a, by.as_ref(), env, span)?,
        }
        Ok(())
    }

    /// `let x = roll n`: a die of `n` sides rolled, told to everyone.
    fn exec_roll(&self, st: &mut State, sides: &ExprIr, slot: Slot, env: u32, span: Span) -> RtResult {
        let n = match self.eval_in(st, env, sides)? {
            Value::Int(n) if n >= 1 => n,
            other => return Err(self.evaluator(st).type_err(sides.span, "a number of sides of at least 1", &other)),
        };
        let r = self.random_roll(st, n, span)?;
        self.log(st, EventKind::Rolled { sides: n, result: r }, ALL, span);
        Self::set_local(st, env, slot, Value::Int(r));
        Ok(())
    }

    /// `use ability by p`: the ability used, by its controller or the player named (none: nothing).
    fn exec_use(&self, st: &mut State, ability: &ExprIr, by: Option<&ExprIr>, env: u32, span: Span) -> RtResult {
        match self.eval_in(st, env, ability)? {
            Value::Ability(o, i) => {
                let you = match by {
                    Some(b) => match self.eval_in(st, env, b)? {
                        Value::Player(p) => Some(p),
                        other => return Err(self.evaluator(st).type_err(b.span, "a player", &other)),
                    },
                    None => None,
                };
                self.use_ability(st, o, i, you, span)
            }
            Value::None => Ok(()),
            other => Err(self.evaluator(st).type_err(ability.span, "an ability", &other)),
        }
    }

    /// `let x = pick list`: one item at random, told to whoever may know it.
    fn exec_pick(&self, st: &mut State, list: &ExprIr, slot: Slot, env: u32, span: Span) -> RtResult {
        let items = {
            let mut en = self.env_of(st, env);
            let items = self.evaluator(st).list_of(list, &mut en);
            Self::put_env(st, env, en);
            items?
        };
        let v = self.random_pick(st, &items, span)?;
        // An object picked at random is named only to whoever knows what it is.
        let vis = match &v {
            Value::Obj(o) => st.obj(*o).map_or(ALL, |x| x.known),
            _ => ALL,
        };
        self.log(st, EventKind::Picked { value: v.clone() }, vis, span);
        Self::set_local(st, env, slot, v);
        Ok(())
    }

    /// `return v`: the frames up to the call closed, the value given to the caller.
    fn exec_return(&self, st: &mut State, e: Option<&ExprIr>, env: u32) -> RtResult {
        let v = match e {
            Some(x) => self.eval_in(st, env, x)?,
            None => Value::None,
        };
        while let Some(f) = st.frames.pop() {
            if let FrameKind::Call { ret, .. } = f.kind {
                if f.env != u32::MAX {
                    st.envs.pop();
                }
                if let Some((renv, rslot)) = ret {
                    Self::set_local(st, renv, rslot, v);
                }
                break;
            }
        }
        Ok(())
    }

    /// `modify x.f += v until ..`: a change of a field that lasts until a duration ends.
    #[expect(clippy::too_many_arguments, reason = "a `modify` statement's parts, as compiled")]
    fn exec_modify(
        &self,
        st: &mut State,
        target: &ExprIr,
        field: Sym,
        op: ModifyOperator,
        value: &ExprIr,
        until: Option<usize>,
        env: u32,
        span: Span,
    ) -> RtResult {
        let v = self.eval_in(st, env, value)?;
        let until = until.or(self.game.default_duration);
        for o in self.objects_of(st, env, target)? {
            let ts = st.tick();
            st.changed(o);
            st.temp_mods.push(TempMod { obj: o, field, op, value: v.clone(), until, ts });
            let (def, known) = st.obj(o).map(|x| (x.def, x.known)).unwrap_or((0, 0));
            self.log(st, EventKind::Modified { obj: o, def, field, op, value: v.clone(), until }, known, span);
        }
        st.dirty = true;
        Ok(())
    }

    /// A `forbid`, `permit` or `replace` made by running code: kept with the values it reads, told.
    fn exec_lasting(&self, st: &mut State, i: u32, env: u32, span: Span) -> RtResult {
        let def = self.game.lasting.get(i as usize).ok_or_else(|| super::eval::err(span, "internal: no such lasting effect"))?;
        let en = self.env_of(st, env);
        let made = super::state::Lasting {
            def: i,
            slots: en.slots.clone(),
            you: en.you,
            self_obj: en.self_obj,
            until: def.until,
            made: st.tick(),
        };
        Self::put_env(st, env, en);
        st.touch();
        st.lasting.push(made);
        let check = match def.target {
            Hooked::Check(c) => self.game.checks.get(c as usize).map(|c| c.func.info.name.clone()),
            Hooked::Proc(p) => self.game.proc_def(p).map(|p| p.info.name.clone()),
        }
        .unwrap_or_default();
        let how = if def.replace.is_some() {
            "replaces"
        } else if def.forbid {
            "forbids"
        } else {
            "permits"
        };
        let until = def.until.and_then(|d| self.game.durations.get(d)).map(|d| format!(" until the end of the {d}")).unwrap_or_default();
        self.log(st, EventKind::Log { text: format!("{how} `{check}`{until}").into() }, ALL, span);
        st.dirty = true;
        Ok(())
    }

    /// `expire DURATION`: every change and lasting effect made until its end is gone.
    fn exec_expire(&self, st: &mut State, d: usize, span: Span) -> RtResult {
        let before = st.temp_mods.len() + st.lasting.len();
        st.touch();
        for i in 0..st.temp_mods.len() {
            if let Some(t) = st.temp_mods.get(i)
                && t.until == Some(d)
            {
                let o = t.obj;
                st.changed(o);
            }
        }
        st.temp_mods.retain(|t| t.until != Some(d));
        st.lasting.retain(|t| t.until != Some(d));
        let count = before - st.temp_mods.len() - st.lasting.len();
        if count > 0 {
            self.log(st, EventKind::Expired { duration: d, count }, ALL, span);
            st.dirty = true;
        }
        Ok(())
    }

    /// `reveal x to p`: the objects made known to the players named (everyone without `to`).
    fn exec_reveal(&self, st: &mut State, what: &ExprIr, to: Option<&ExprIr>, env: u32, span: Span) -> RtResult {
        let to = match to {
            Some(p) => Some(self.players_of(st, env, p)?),
            None => None,
        };
        for o in self.objects_of(st, env, what)? {
            let mask = match &to {
                Some(ps) => ps.iter().fold(0u64, |m, p| m | seat_bit(*p)),
                None => ALL,
            };
            let def = st.obj(o).map(|x| x.def).unwrap_or(0);
            if let Some(ob) = st.obj_mut(o) {
                ob.known |= mask;
            }
            self.log(st, EventKind::Revealed { obj: o, def }, mask, span);
        }
        Ok(())
    }

    /// `conceal x`: the objects known again only as their zone shows them.
    fn exec_conceal(&self, st: &mut State, what: &ExprIr, env: u32) -> RtResult {
        for o in self.objects_of(st, env, what)? {
            let vis = st.zone_of(o).and_then(|z| self.game.zone(z.zone).map(|d| (d.visibility, z.owner)));
            if let Some(ob) = st.obj_mut(o) {
                ob.known = match vis {
                    Some((Visibility::Owner, owner)) => seat_bit(owner.unwrap_or(ob.owner)),
                    Some((Visibility::Public, _)) if ob.face_up => ALL,
                    _ => 0,
                };
            }
            st.dirty = true;
        }
        Ok(())
    }

    pub fn use_ability(&self, st: &mut State, o: ObjId, i: u16, by: Option<Seat>, span: Span) -> RtResult {
        let Some(def) = st.obj(o).and_then(|ob| self.game.def(ob.def)) else {
            return Err(err(span, format!("no object #{o}")));
        };
        let Some(a) = def.abilities.get(i as usize) else { return Err(err(span, "no such ability")) };
        let you = by.or_else(|| st.obj(o).map(|x| x.controller));
        let slots = a.slots;
        // An ability is a link of `explain --why`'s chain, with the conditions its body decides.
        let mut e = new_env(slots, vec![], you, Some(o));
        self.record_call(st, Routine::Ability(o, i), &mut e);
        st.envs.push(e);
        let env = u32::try_from(st.envs.len() - 1).unwrap_or(u32::MAX);
        st.frames.push(Frame { kind: FrameKind::Call { routine: Routine::Ability(o, i), ret: None, holds: true }, env });
        st.frames.push(Frame { kind: FrameKind::Ability { obj: o, idx: i, stage: 0 }, env });
        Ok(())
    }

    fn text_of(&self, st: &mut State, env: u32, s: &TextExpr, span: Span) -> Result<String, RtError> {
        let mut en = self.env_of(st, env);
        let text = self.evaluator(st).interpolate(s, &mut en, span);
        Self::put_env(st, env, en);
        text
    }

    fn players_of(&self, st: &mut State, env: u32, e: &ExprIr) -> Result<Vec<Seat>, RtError> {
        match self.eval_in(st, env, e)? {
            Value::Player(p) => Ok(vec![p]),
            Value::None => Ok(vec![]),
            Value::List(l) => l
                .iter()
                .map(|v| match v {
                    Value::Player(p) => Ok(*p),
                    other => Err(self.evaluator(st).type_err(e.span, "a list of players", other)),
                })
                .collect(),
            other => Err(self.evaluator(st).type_err(e.span, "a player or a list of players", &other)),
        }
    }

    /// The objects a statement acts on: one object, a list, or a zone's contents.
    fn objects_of(&self, st: &mut State, env: u32, e: &ExprIr) -> Result<Vec<ObjId>, RtError> {
        let v = self.eval_in(st, env, e)?;
        let evaluator = self.evaluator(st);
        match v {
            Value::Obj(o) => Ok(vec![o]),
            Value::None => Ok(vec![]),
            other => evaluator
                .as_list(other, e.span)?
                .iter()
                .filter(|x| !x.is_none())
                .map(|x| match x {
                    Value::Obj(o) => Ok(*o),
                    other => Err(evaluator.type_err(e.span, "objects", other)),
                })
                .collect(),
        }
    }

    fn zone_value(&self, st: &mut State, env: u32, e: &ExprIr) -> Result<ZoneRef, RtError> {
        match self.eval_in(st, env, e)? {
            Value::Zone(z) => {
                let per_player = self.game.zone(z.zone).is_some_and(|d| d.per_player);
                if per_player && z.owner.is_none() {
                    let name = self.game.zone(z.zone).map(|d| d.name.clone()).unwrap_or_default();
                    return Err(err(e.span, format!("`{name}` is a zone every player has: say whose, like `p.{name}`")));
                }
                Ok(z)
            }
            other => Err(self.evaluator(st).type_err(e.span, "a zone", &other)),
        }
    }

    fn exec_choose(&self, st: &mut State, c: &ChooseIr, dest: Option<Slot>, env: u32, span: Span) -> RtResult {
        let mut en = self.env_of(st, env);
        let evaluator = self.evaluator(st);
        let seat = evaluator.player(&c.who, &mut en)?;
        let prompt = evaluator.interpolate(&c.prompt, &mut en, span)?;
        match &c.form {
            ChooseFormIr::From { count, list, none } => {
                let items = evaluator.list_of(list, &mut en)?;
                let count = match count {
                    ChooseCountIr::One => Count::One,
                    ChooseCountIr::Exactly(n) => Count::Exactly(u32::try_from(evaluator.int(n, &mut en)?.max(0)).unwrap_or(0)),
                    ChooseCountIr::UpTo(n) => Count::UpTo(u32::try_from(evaluator.int(n, &mut en)?.max(0)).unwrap_or(0)),
                    ChooseCountIr::Order => Count::Order,
                };
                let none = match none {
                    Some(s) => Some(evaluator.interpolate(s, &mut en, span)?),
                    None => None,
                };
                evaluator.labels_fit(&items, span)?;
                let options: Vec<Choice> =
                    items.iter().map(|v| Choice { label: evaluator.label_shared(v, seat), value: v.clone(), rarely: false }).collect();
                let dest = match dest {
                    Some(slot) => Dest::Slot { env, slot },
                    None => Dest::Discard,
                };
                drop(evaluator);
                Self::put_env(st, env, en);
                self.ask(st, seat, prompt, options, count, none, c.secret, dest, span)
            }
            ChooseFormIr::Branches(branches) => {
                let mut options = Vec::new();
                let mut blocks = Vec::new();
                for b in branches {
                    if let Some(cond) = &b.cond
                        && !evaluator.truth(cond, &mut en)?
                    {
                        continue;
                    }
                    let label = evaluator.interpolate(&b.label, &mut en, span)?;
                    options.push(Choice { label: label.into(), value: Value::Int(blocks.len() as i64), rarely: b.rarely });
                    blocks.push(b.body);
                }
                drop(evaluator);
                Self::put_env(st, env, en);
                self.ask(st, seat, prompt, options, Count::One, None, c.secret, Dest::Branch { env, blocks }, span)
            }
        }
    }

    fn exec_assign(&self, st: &mut State, place: &PlaceIr, op: AssignOperator, value: &ExprIr, env: u32, span: Span) -> RtResult {
        let v = self.eval_in(st, env, value)?;
        let combine = |old: &Value, v: Value| -> Result<Value, RtError> {
            match op {
                AssignOperator::Set => Ok(v),
                AssignOperator::Add => super::modifiers::apply(old.clone(), ModifyOperator::Add, v, span),
                AssignOperator::Sub => super::modifiers::apply(old.clone(), ModifyOperator::Sub, v, span),
            }
        };
        match place {
            PlaceIr::Local(slot) => {
                let old = st.envs.get(env as usize).and_then(|e| e.slots.get(*slot as usize)).cloned().unwrap_or_default();
                let new = combine(&old, v)?;
                Self::set_local(st, env, *slot, new);
            }
            PlaceIr::Global(i) => {
                let old = st.globals.get(*i as usize).cloned().unwrap_or_default();
                let new = combine(&old, v)?;
                st.touch();
                if let Some(g) = st.globals.get_mut(*i as usize) {
                    *g = new.clone();
                }
                if changed(&old, &new) {
                    st.global_changed(*i as usize);
                    if self.game.derived.globals.get(*i as usize).copied().unwrap_or(false) {
                        st.derived_global_changed();
                    }
                    let (what, announced) = self.set_name(SetName::Global(*i), || {
                        self.game.global_fields.get(*i as usize).map(|f| (f.name.clone(), f.announced)).unwrap_or_default()
                    });
                    self.log(st, EventKind::Set { what, old, new, announced }, ALL, span);
                    st.dirty = true;
                }
            }
            PlaceIr::PlayerField(pe, i) => {
                let p = {
                    let mut en = self.env_of(st, env);
                    let p = self.evaluator(st).player(pe, &mut en);
                    Self::put_env(st, env, en);
                    p?
                };
                let old = st.players.get(p as usize).and_then(|x| x.fields.get(*i as usize)).cloned().unwrap_or_default();
                let new = combine(&old, v)?;
                st.touch();
                if let Some(f) = st.players.get_mut(p as usize).and_then(|x| x.fields.get_mut(*i as usize)) {
                    *f = new.clone();
                }
                if changed(&old, &new) {
                    st.player_field_changed(*i as usize);
                    let (what, announced) = self.set_name(SetName::Player(p, *i), || {
                        let field = self.game.player_fields.get(*i as usize);
                        (format!("P{}.{}", p + 1, field.map(|f| f.name.as_str()).unwrap_or_default()), field.is_some_and(|f| f.announced))
                    });
                    self.log(st, EventKind::Set { what, old, new, announced }, ALL, span);
                    st.dirty = true;
                }
            }
            PlaceIr::ObjField(oe, f) => {
                let o = match self.eval_in(st, env, oe)? {
                    Value::Obj(o) => o,
                    other => return Err(self.evaluator(st).type_err(oe.span, "an object", &other)),
                };
                let old = self.evaluator(st).read_field(o, *f, span)?;
                let new = combine(&old, v)?;
                if let Some(ob) = st.obj_mut(o) {
                    ob.fields.retain(|(s, _)| s != f);
                    ob.fields.push((*f, new.clone()));
                }
                if changed(&old, &new) {
                    let name = || format!("{}.{}", self.evaluator(st).obj_name(o), self.game.sym(*f));
                    let (what, announced) = match st.obj(o).map(|x| x.def) {
                        Some(def) => self.set_name(SetName::Field(def, *f), || {
                            let kind = self.game.def(def).and_then(|d| self.game.kinds.get(d.kind as usize));
                            let announced = kind.and_then(|k| k.field(*f).and_then(|i| k.fields.get(i))).is_some_and(|fd| fd.announced);
                            (name(), announced)
                        }),
                        None => (name().into(), false),
                    };
                    let known = st.obj(o).map(|x| x.known).unwrap_or(0);
                    self.log(st, EventKind::Set { what, old, new, announced }, known, span);
                    st.dirty = true;
                }
            }
        }
        Ok(())
    }

    fn end_game(&self, st: &mut State, winners: Vec<Seat>, reason: String, draw: bool, span: Span) {
        let mut losers: Vec<(Seat, String)> = Vec::new();
        for (i, p) in st.players.iter().enumerate() {
            let s = Seat::try_from(i).unwrap_or(0);
            if !winners.contains(&s) && !p.out {
                losers.push((s, reason.clone()));
            }
        }
        for e in &st.log {
            if let EventKind::PlayerOut { seat, reason } = &e.kind
                && !losers.iter().any(|(s, _)| s == seat)
            {
                losers.push((*seat, reason.clone()));
            }
        }
        losers.sort_by_key(|(s, _)| *s);
        let result = GameResult { winners, losers, reason, draw };
        self.log(st, EventKind::GameOver { result: result.clone() }, ALL, span);
        st.result = Some(result);
    }

    fn player_out(&self, st: &mut State, p: Seat, reason: String, span: Span) -> RtResult {
        if st.players.get(p as usize).is_none_or(|ps| ps.out) {
            return Ok(());
        }
        st.touch();
        st.player_out_changed();
        if let Some(ps) = st.players.get_mut(p as usize) {
            ps.out = true;
        }
        st.dirty = true;
        self.log(st, EventKind::PlayerOut { seat: p, reason }, ALL, span);
        self.emit(st, self.game.builtin_events.player_left, vec![Value::Player(p)])
    }
}

/// A lasting effect's env: the slots of the code that made it, with `args` in its parameters.
pub(super) fn lasting_slots(l: &super::state::Lasting, params: &[Slot], args: &[Value]) -> Vec<Value> {
    let mut slots = l.slots.clone();
    for (s, v) in params.iter().zip(args) {
        let i = *s as usize;
        if slots.len() <= i {
            slots.resize(i + 1, Value::None);
        }
        if let Some(x) = slots.get_mut(i) {
            *x = v.clone();
        }
    }
    slots
}

/// Whether an assignment changed a value (and so is logged): lists are compared by at most
/// `SIZE_BUDGET` items (a list of lists can hold billions in a few kilobytes); past that, it is
/// taken as changed.
fn changed(old: &Value, new: &Value) -> bool {
    !old.equal_bounded(new)
}
