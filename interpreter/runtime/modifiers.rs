//! Object fields are computed on read: the printed value (or the kind's default when the object
//! is blank), then every applicable modifier in a defined order — layer, then timestamp.
//! Modifiers come from the rulebook (`Game::modifiers_by_field`), from objects whose abilities are
//! in effect (`ObjDef::modifiers`), and from effects with a duration (`State::temp_mods`). Blanking
//! comes first: a field a blank object loses reads the kind's default with the rulebook's
//! modifiers only; objects' and temporary changes pass it by (`through_modifiers`).

use super::RtResult;
use super::eval::{Evaluator, err};
use super::state::Place;
use arbiter_ir::operators::ModifyOperator;
use arbiter_ir::value::{ObjId, Value};
use arbiter_ir::{ModifierDef, ObjDef, Sym};
use arbiter_syntax::span::Span;
use std::sync::Arc;

struct Applied {
    layer: i64,
    ts: u64,
    op: ModifyOperator,
    value: Value,
}

impl<'a> Evaluator<'a> {
    /// Is this object blank (its printed values and abilities ignored)? Only the rulebook's
    /// modifiers can blank an object; an object's own abilities cannot.
    pub fn is_blank(&self, o: ObjId) -> RtResult<bool> {
        Ok(self.blank_except(o)?.is_some())
    }

    /// The fields kept when blank, or `None` when the object is not blank.
    fn blank_except(&self, o: ObjId) -> RtResult<Option<&'a [Sym]>> {
        if self.game.blank_modifiers.is_empty() {
            return Ok(None);
        }
        let reads = self.game.derived.blank;
        let stamp = self.stamp(o, reads);
        let known = self.memo().blank_of(o, stamp);
        let found = if let Some((kept, k)) = known {
            self.found_fact(kept, reads);
            k
        } else {
            let (found, read) = self.reading_globals(|| {
                for (k, &mi) in self.game.blank_modifiers.iter().enumerate() {
                    let Some(m) = self.game.modifiers.get(mi) else { continue };
                    // One call deeper: a condition that asks whether its own object is blank
                    // (`active(c)`) is stopped by the depth budget.
                    if self.nested(m.info.span, || self.modifier_applies(m, o, None))? {
                        return Ok(u32::try_from(k).unwrap_or(u32::MAX - 2) + 2);
                    }
                }
                Ok(1)
            });
            let found = found?;
            let kept = self.kept_stamp(stamp, reads, read);
            let mut memo = self.memo();
            let cache = &mut memo.blank;
            if cache.len() < self.state.objects.len() {
                cache.resize(self.state.objects.len(), ((0, 0), 0));
            }
            if let Some(slot) = cache.get_mut(o as usize) {
                *slot = (kept, found);
            }
            found
        };
        Ok(match found {
            0 | 1 => None,
            k => self
                .game
                .blank_modifiers
                .get((k - 2) as usize)
                .and_then(|mi| self.game.modifiers.get(*mi))
                .and_then(|m| m.blank_except.as_deref()),
        })
    }

    /// Whether an object's abilities are in effect: it is in a zone where its kind is active,
    /// directly (not under another object), and it is not blank.
    pub fn is_active(&self, o: ObjId) -> RtResult<bool> {
        let Some(ob) = self.state.obj(o) else { return Ok(false) };
        let Place::Zone(z) = ob.place else { return Ok(false) };
        let Some(def) = self.game.def(ob.def) else { return Ok(false) };
        let Some(kind) = self.game.kind(def.kind) else { return Ok(false) };
        if !kind.active_in.contains(&z.zone) {
            return Ok(false);
        }
        Ok(!self.is_blank(o)?)
    }

    /// Objects whose definitions pass `wanted` (a cheap test first) and whose abilities are in
    /// effect: the sources of continuous effects, triggers, permits, forbids and replacements.
    /// `any` says whether some definition can pass at all (worked out when the rules are checked):
    /// when none can, no object is looked at.
    pub fn active_passives(&self, any: bool, wanted: impl Fn(&'a ObjDef) -> bool) -> RtResult<Vec<(ObjId, &'a ObjDef)>> {
        let mut out = Vec::new();
        if !any {
            return Ok(out);
        }
        // Every object, often: chunk by chunk, each a plain slice.
        for (start, objects) in self.state.objects.slices() {
            for (j, o) in objects.iter().enumerate() {
                if !self.game.defs_with_passives.get(o.def as usize).copied().unwrap_or(false) {
                    continue;
                }
                let Some(def) = self.game.def(o.def) else { continue };
                if !wanted(def) {
                    continue;
                }
                let id = ObjId::try_from(start + j).unwrap_or(0);
                if self.is_active(id)? {
                    out.push((id, def));
                }
            }
        }
        Ok(out)
    }

    fn modifier_applies(&self, m: &ModifierDef, target: ObjId, source: Option<ObjId>) -> RtResult<bool> {
        // A condition that needs `o in ZONE` (see `ModifierDef::zone_guard`) can't hold for an
        // object elsewhere: answer without evaluating it (field reads ask this of every object).
        // An object under another is in its top's zone here, so it is never skipped wrongly.
        if !m.zone_guard.is_empty() {
            let at = self.state.zone_of(target);
            let inside =
                |g: &arbiter_ir::value::ZoneRef| at.is_some_and(|z| z.zone == g.zone && g.owner.is_none_or(|o| Some(o) == z.owner));
            if !m.zone_guard.iter().any(inside) {
                return Ok(false);
            }
        }
        let you = source.and_then(|s| self.controller(s));
        let mut env = self.pooled_env(m.slots, &[], you, source);
        super::eval::set_slot(&mut env, m.var, Value::Obj(target));
        let r = self.as_routine("modifier", &m.info.name, || self.modifier_holds(m, source, &mut env));
        self.give(env.slots);
        r
    }

    fn modifier_holds(&self, m: &ModifierDef, source: Option<ObjId>, env: &mut super::state::Env) -> RtResult<bool> {
        if let (Some(cond), Some(_)) = (&m.active_while, source)
            && !self.truth(cond, env)?
        {
            return Ok(false);
        }
        match &m.when {
            Some(w) => self.truth(w, env),
            None => Ok(true),
        }
    }

    /// The printed value of a field (an override, the definition's value, or the default) and the
    /// kind's default.
    fn printed(&self, o: ObjId, f: Sym, span: Span) -> RtResult<(Value, Value)> {
        let (ob, def, kind, idx) = self.field_of(o, f, span)?;
        let default = kind.fields.get(idx).map(|fd| fd.default.clone()).unwrap_or_default();
        Ok((printed_in(ob, def, kind, f, idx), default))
    }

    /// The printed value alone.
    fn printed_only(&self, o: ObjId, f: Sym, span: Span) -> RtResult<Value> {
        let (ob, def, kind, idx) = self.field_of(o, f, span)?;
        Ok(printed_in(ob, def, kind, f, idx))
    }

    /// The printed value of an object's field, found the quick way (none where `field_of` errs).
    #[inline]
    pub(super) fn printed_found(&self, o: ObjId, f: Sym) -> Option<&'a Value> {
        let ob = self.state.obj(o)?;
        let def = self.game.def(ob.def)?;
        let kind = self.game.kind(def.kind)?;
        printed_ref(ob, def, kind, f, kind.field(f)?)
    }

    /// An object, its definition and kind, and the field's index in the kind.
    fn field_of(&self, o: ObjId, f: Sym, span: Span) -> RtResult<(&'a super::state::Obj, &'a ObjDef, &'a arbiter_ir::KindDef, usize)> {
        let ob = self.state.obj(o).ok_or_else(|| err(span, format!("no object #{o}")))?;
        let def = self.game.def(ob.def).ok_or_else(|| err(span, "no such definition"))?;
        let kind = self.game.kind(def.kind).ok_or_else(|| err(span, "no such kind"))?;
        let idx =
            kind.field(f).ok_or_else(|| err(span, format!("`{}` (a {}) has no field `{}`", def.name, kind.name, self.game.sym(f))))?;
        Ok((ob, def, kind, idx))
    }

    /// Whether no modifier touches field `f` and no temporary change is made to it: then only
    /// blankness can hide its printed value.
    #[inline]
    pub(super) fn unmodified(&self, f: Sym) -> bool {
        !self.game.modified_fields.get(f as usize).copied().unwrap_or(false) && !self.state.temp_mods.iter().any(|t| t.field == f)
    }

    /// Read an object's field through every modifier.
    pub fn read_field(&self, o: ObjId, f: Sym, span: Span) -> RtResult<Value> {
        // No modifier touches this field and no temporary change is made to it: only blankness
        // can hide the printed value (the blank check is remembered by object), and with no
        // blanking modifier, nothing can: the printed value is the value.
        if self.unmodified(f) {
            if self.game.blank_modifiers.is_empty() {
                // Found without building an error on the way; `printed_only` says what is wrong
                // when it is not.
                return match self.printed_found(o, f) {
                    Some(v) => Ok(v.clone()),
                    None => self.printed_only(o, f, span),
                };
            }
            // A blanking modifier may read fields: one that reads its own object's is stopped by
            // the depth budget.
            let found = self.nested(span, || self.field_of(o, f, span).and_then(|x| Ok((x, self.blank_except(o)?))));
            let ((ob, def, kind, idx), blank) = found?;
            return Ok(match blank {
                Some(keep) if !keep.contains(&f) => kind.fields.get(idx).map(|fd| fd.default.clone()).unwrap_or_default(),
                _ => printed_in(ob, def, kind, f, idx),
            });
        }
        let key = u64::from(o) << 32 | u64::from(f);
        let reads = self.game.derived.field(f);
        let stamp = self.stamp(o, reads);
        let known = self.memo().field(key, stamp).cloned();
        if let Some((kept, v)) = known {
            self.found_fact(kept, reads);
            return Ok(v);
        }
        // Modifiers read fields too: a modifier that reads what it changes is stopped by the
        // depth budget.
        let (v, read) = self.reading_globals(|| self.nested(span, || self.through_modifiers(o, f, span)));
        let v = v?;
        let kept = self.kept_stamp(stamp, reads, read);
        self.memo().keep_field(key, kept, v.clone());
        Ok(v)
    }

    /// A field's value: the printed value (or the default, when blank) and every modifier that
    /// applies, by layer and then timestamp. A field a blank object loses has the kind's default
    /// and only the rulebook's modifiers (which say what a blank object is, like `c.type =
    /// asset`): changes from objects' abilities and from effects with a duration pass it by, and
    /// apply again once the object is no longer blank (a +2 until end of phase on a card turned
    /// face down counts again if it is turned face up within the phase).
    fn through_modifiers(&self, o: ObjId, f: Sym, span: Span) -> RtResult<Value> {
        let (printed, default) = self.printed(o, f, span)?;
        let blank = self.blank_except(o)?;
        let lost = matches!(&blank, Some(keep) if !keep.contains(&f));
        let mut value = if lost { default } else { printed };
        // What `add` and `remove` compare counts toward this evaluation's budgets.
        let equal = |x: &Value, y: &Value| {
            self.work(1, span)?;
            self.equal(x, y, span)
        };
        let mut applied: Vec<Applied> = Vec::new();
        // The rulebook's modifiers, in the order written.
        if let Some(list) = self.game.modifiers_by_field.get(&f) {
            for (order, &mi) in list.iter().enumerate() {
                let Some(m) = self.game.modifiers.get(mi) else { continue };
                if self.modifier_applies(m, o, None)? {
                    self.collect(m, o, None, order as u64, &mut applied)?;
                }
            }
        }
        if lost {
            applied.sort_by_key(|a| (a.layer, a.ts));
            for a in applied {
                value = apply_with(value, a.op, a.value, span, &equal)?;
            }
            return Ok(value);
        }
        // Static modifiers of objects whose abilities are in effect, by when they arrived.
        let touches = |d: &ObjDef| d.modifiers.iter().any(|m| m.effects.iter().any(|e| e.field == f));
        let sources = self.active_passives(self.game.passive_fields.binary_search(&f).is_ok(), touches)?;
        for (sid, def) in sources {
            let since = self.state.obj(sid).map(|x| x.since).unwrap_or(0);
            for m in &def.modifiers {
                if m.effects.iter().any(|e| e.field == f) && self.modifier_applies(m, o, Some(sid))? {
                    self.collect(m, o, Some(sid), since, &mut applied)?;
                }
            }
        }
        // Effects with durations.
        for t in &self.state.temp_mods {
            if t.obj == o && t.field == f {
                applied.push(Applied { layer: 0, ts: t.ts, op: t.op, value: t.value.clone() });
            }
        }
        applied.sort_by_key(|a| (a.layer, a.ts));
        for a in applied {
            value = apply_with(value, a.op, a.value, span, &equal)?;
        }
        Ok(value)
    }

    fn collect(&self, m: &ModifierDef, target: ObjId, source: Option<ObjId>, ts: u64, out: &mut Vec<Applied>) -> RtResult<()> {
        let you = source.and_then(|s| self.controller(s));
        for e in &m.effects {
            let mut env = self.pooled_env(m.slots, &[], you, source);
            super::eval::set_slot(&mut env, m.var, Value::Obj(target));
            let v = self.eval(&e.value, &mut env);
            self.give(env.slots);
            let v = v?;
            out.push(Applied { layer: m.layer, ts, op: e.op, value: v });
        }
        Ok(())
    }
}

/// The printed value of the field `f` (at `idx` in its kind): the object's override, else the
/// definition's value, else the kind's default.
pub(super) fn printed_in(ob: &super::state::Obj, def: &ObjDef, kind: &arbiter_ir::KindDef, f: Sym, idx: usize) -> Value {
    match printed_ref(ob, def, kind, f, idx) {
        Some(v) => v.clone(),
        None => Value::None,
    }
}

/// `printed_in`, by reference (the fast tier reads a scalar from it without a copy to drop).
#[inline]
pub(super) fn printed_ref<'v>(
    ob: &'v super::state::Obj,
    def: &'v ObjDef,
    kind: &'v arbiter_ir::KindDef,
    f: Sym,
    idx: usize,
) -> Option<&'v Value> {
    if let Some((_, v)) = ob.fields.iter().find(|(s, _)| *s == f) {
        return Some(v);
    }
    if let Some(Some(v)) = def.fields.get(idx) {
        return Some(v);
    }
    kind.fields.get(idx).map(|fd| &fd.default)
}

/// Apply one modification to a value.
pub fn apply(value: Value, op: ModifyOperator, by: Value, span: Span) -> RtResult<Value> {
    // Outside an evaluation (`+=` and `-=` on a field), the few comparisons `add` and `remove`
    // make are bounded as the engine's own are: past the bound, taken as unequal.
    apply_with(value, op, by, span, &|a, b| Ok(a.equal_bounded(b)))
}

/// `apply`, items compared by `equal` (an evaluation's, which counts them toward its budgets).
pub fn apply_with(
    value: Value,
    op: ModifyOperator,
    by: Value,
    span: Span,
    equal: &dyn Fn(&Value, &Value) -> RtResult<bool>,
) -> RtResult<Value> {
    Ok(match (op, value, by) {
        (ModifyOperator::Set, _, v) => v,
        (ModifyOperator::Add, Value::Int(a), Value::Int(b)) => Value::Int(a.checked_add(b).ok_or_else(|| super::eval::overflow(span))?),
        (ModifyOperator::Sub, Value::Int(a), Value::Int(b)) => Value::Int(a.checked_sub(b).ok_or_else(|| super::eval::overflow(span))?),
        (ModifyOperator::Add | ModifyOperator::Sub, Value::None, Value::Int(b)) => {
            Value::Int(if op == ModifyOperator::Add { b } else { b.checked_neg().ok_or_else(|| super::eval::overflow(span))? })
        }
        // Amounts: kind by kind, never below nothing (`costs 1 less` of a free card is free).
        (ModifyOperator::Add | ModifyOperator::Sub, a @ (Value::Amount(_) | Value::None), b @ (Value::Amount(_) | Value::None))
            if matches!(a, Value::Amount(_)) || matches!(b, Value::Amount(_)) =>
        {
            let parts = |v: &Value| if let Value::Amount(x) = v { x.as_ref().clone() } else { vec![] };
            let mut out = parts(&a);
            for (n, k) in parts(&b) {
                let n = if op == ModifyOperator::Add { n } else { -n };
                match out.iter_mut().find(|(_, j)| *j == k) {
                    Some((m, _)) => *m = m.checked_add(n).ok_or_else(|| super::eval::overflow(span))?.max(0),
                    None => out.push((n.max(0), k)),
                }
            }
            arbiter_ir::value::amount(out)
        }
        // A number added to an amount of one kind: `modify c.cost -= 1`.
        (ModifyOperator::Add | ModifyOperator::Sub, Value::Amount(a), Value::Int(n)) => match a.as_slice() {
            [(m, k)] => {
                let d = if op == ModifyOperator::Add { n } else { n.checked_neg().ok_or_else(|| super::eval::overflow(span))? };
                arbiter_ir::value::amount(vec![(m.checked_add(d).ok_or_else(|| super::eval::overflow(span))?.max(0), *k)])
            }
            [] if op == ModifyOperator::Sub => Value::Amount(a),
            _ => {
                return Err(err(span, "a number added to an amount of several kinds, or of none: which kind?")
                    .with_help("add an amount instead, like `amount(1, persuasion)`"));
            }
        },
        (ModifyOperator::Insert, Value::List(l), v) => {
            let mut found = false;
            for x in l.iter() {
                if equal(x, &v)? {
                    found = true;
                    break;
                }
            }
            let mut l = Arc::unwrap_or_clone(l);
            if !found {
                l.push(v);
            }
            Value::list(l)
        }
        (ModifyOperator::Insert, Value::None, v) => Value::list(vec![v]),
        (ModifyOperator::Remove, Value::List(l), v) => {
            let mut kept = Vec::new();
            for x in l.iter() {
                if !equal(x, &v)? {
                    kept.push(x.clone());
                }
            }
            Value::list(kept)
        }
        (ModifyOperator::Remove, Value::None, _) => Value::list(vec![]),
        (op, v, b) => {
            return Err(err(span, format!("cannot apply `{op:?}` with {} to {}", b.type_name(), v.type_name())));
        }
    })
}
