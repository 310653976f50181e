//! What a quantifier or comprehension walks over: a list, a zone's objects read in place, or two
//! of these one after the other (`a + b`), without building a list of them; and the quantifiers
//! and comprehensions that walk them.

use super::RtResult;
use super::eval::{Evaluator, set_slot};
use super::operators::size_exceeded;
use super::state::Env;
use arbiter_ir::operators::BinaryOperator;
use arbiter_ir::value::{ObjId, Value};
use arbiter_ir::*;
use arbiter_syntax::budgets::SIZE_BUDGET;
use arbiter_syntax::span::Span;
use std::sync::Arc;

/// The items walked: a part, and maybe a second part after it.
pub struct Items<'a> {
    first: Part<'a>,
    second: Option<Part<'a>>,
}

/// A list, or a zone's objects (or some of them, looked up: `lookup`).
pub(super) enum Part<'a> {
    List(Arc<Vec<Value>>),
    Objs(&'a [ObjId]),
    Owned(Vec<ObjId>),
    /// Objects found in an index (`lookup`), then maybe one more.
    Looked(Arc<super::memo::Index>, std::ops::Range<usize>, Option<ObjId>),
}

impl Part<'_> {
    fn len(&self) -> usize {
        match self {
            Part::List(l) => l.len(),
            Part::Objs(o) => o.len(),
            Part::Owned(o) => o.len(),
            Part::Looked(_, found, last) => found.len() + usize::from(last.is_some()),
        }
    }

    fn get(&self, i: usize) -> Value {
        match self {
            Part::List(l) => l.get(i).cloned().unwrap_or_default(),
            Part::Objs(o) => o.get(i).map(|x| Value::Obj(*x)).unwrap_or_default(),
            Part::Owned(o) => o.get(i).map(|x| Value::Obj(*x)).unwrap_or_default(),
            Part::Looked(index, found, last) => match i.checked_sub(found.len()) {
                None => index.object(found.start + i).map(Value::Obj).unwrap_or_default(),
                Some(_) => last.map(Value::Obj).unwrap_or_default(),
            },
        }
    }
}

impl<'a> Items<'a> {
    pub(super) fn of(part: Part<'a>) -> Items<'a> {
        Items { first: part, second: None }
    }

    pub fn len(&self) -> usize {
        self.first.len() + self.second.as_ref().map_or(0, Part::len)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: usize) -> Value {
        let n = self.first.len();
        match &self.second {
            Some(second) if i >= n => second.get(i - n),
            _ => self.first.get(i),
        }
    }
}

impl<'a> Evaluator<'a> {
    /// The items of a list value or a zone, without copying a zone's objects into a list. Two
    /// lists or zones joined by `+` are walked one after the other: the same items, in the same
    /// order, with the same step for the `+` and the same size and memory budgets, as the joined
    /// list.
    pub fn items_of(&self, e: &ExprIr, env: &mut Env) -> RtResult<Items<'a>> {
        if let ExprKindIr::Binary(BinaryOperator::Add, l, r) = &e.plain().kind {
            return self.step(e, |evaluator| evaluator.joined(l, r, env, e.span));
        }
        let v = self.eval(e, env)?;
        Ok(Items::of(self.part(v, e.span)?))
    }

    fn joined(&self, l: &ExprIr, r: &ExprIr, env: &mut Env, span: Span) -> RtResult<Items<'a>> {
        let a = self.eval(l, env)?;
        let b = self.eval(r, env)?;
        if matches!(a, Value::List(_) | Value::Zone(_)) && matches!(b, Value::List(_) | Value::Zone(_) | Value::None) {
            let (first, second) = (self.part(a, l.span)?, self.part(b, r.span)?);
            let n = first.len() + second.len();
            if n > SIZE_BUDGET {
                return Err(size_exceeded(span));
            }
            // Charged to the memory budget as the joined list would be.
            self.charge(n * std::mem::size_of::<Value>(), span)?;
            return Ok(Items { first, second: Some(second) });
        }
        // Anything else is what `+` makes of it, and must be a list.
        let v = self.apply(BinaryOperator::Add, a, b, l, r, span)?;
        Ok(Items::of(self.part(v, span)?))
    }

    pub(super) fn part(&self, v: Value, span: Span) -> RtResult<Part<'a>> {
        match v {
            Value::List(l) => Ok(Part::List(l)),
            Value::Zone(z) => Ok(match self.one_zone(z) {
                Some(objs) => Part::Objs(objs),
                None => Part::Owned(self.state.zone_objects(self.game, z)),
            }),
            Value::None => Ok(Part::Objs(&[])),
            other => Err(self.type_err(span, "a list or a zone", &other)),
        }
    }
}

// Quantifiers and comprehensions.
impl Evaluator<'_> {
    /// `any x in l: c` (or `all`, `no`): whether some item meets the condition (or none fails it).
    #[inline]
    pub(super) fn eval_quant(
        &self,
        any: bool,
        slot: Slot,
        list: &ExprIr,
        cond: &ExprIr,
        by: Option<Lookup>,
        env: &mut Env,
    ) -> RtResult<Value> {
        let items = self.walked(list, cond, slot, by, env)?;
        for i in 0..items.len() {
            set_slot(env, slot, items.get(i));
            if self.truth(cond, env)? {
                return Ok(Value::Bool(any));
            }
        }
        Ok(Value::Bool(!any))
    }

    /// `l where c`: the items that meet the condition, in order.
    #[inline]
    pub(super) fn eval_filter(&self, slot: Slot, list: &ExprIr, cond: &ExprIr, by: Option<Lookup>, env: &mut Env) -> RtResult<Value> {
        let items = self.walked(list, cond, slot, by, env)?;
        let mut out = Vec::with_capacity(items.len());
        for i in 0..items.len() {
            let item = items.get(i);
            set_slot(env, slot, item.clone());
            if self.truth(cond, env)? {
                out.push(item);
            }
        }
        Ok(Value::list(out))
    }

    /// `count(l where c)`: how many items meet the condition, without the list.
    #[inline]
    pub(super) fn eval_count_where(&self, slot: Slot, list: &ExprIr, cond: &ExprIr, by: Option<Lookup>, env: &mut Env) -> RtResult<Value> {
        let items = self.walked(list, cond, slot, by, env)?;
        let mut n = 0i64;
        for i in 0..items.len() {
            set_slot(env, slot, items.get(i));
            if self.truth(cond, env)? {
                n += 1;
            }
        }
        Ok(Value::Int(n))
    }

    /// `first(l where c)`: the first item that meets the condition, or none.
    #[inline]
    pub(super) fn eval_first_where(&self, slot: Slot, list: &ExprIr, cond: &ExprIr, by: Option<Lookup>, env: &mut Env) -> RtResult<Value> {
        let items = self.walked(list, cond, slot, by, env)?;
        for i in 0..items.len() {
            let item = items.get(i);
            set_slot(env, slot, item.clone());
            if self.truth(cond, env)? {
                return Ok(item);
            }
        }
        Ok(Value::None)
    }

    /// `[f(x) for x in l if c]`: each item that meets the condition, mapped.
    #[inline]
    pub(super) fn eval_map(
        &self,
        slot: Slot,
        list: &ExprIr,
        expr: &ExprIr,
        cond: Option<&ExprIr>,
        env: &mut Env,
        span: Span,
    ) -> RtResult<Value> {
        let items = self.items_of(list, env)?;
        let mut out = Vec::with_capacity(items.len());
        for i in 0..items.len() {
            set_slot(env, slot, items.get(i));
            if let Some(c) = cond
                && !self.truth(c, env)?
            {
                continue;
            }
            let v = self.eval(expr, env)?;
            self.check_nesting(&v, span)?;
            out.push(v);
        }
        self.charge(out.len() * std::mem::size_of::<Value>(), span)?;
        Ok(Value::list(out))
    }

    /// `[a, b, c]`: each item evaluated, the list charged to the memory budget.
    #[inline]
    pub(super) fn eval_list(&self, items: &[ExprIr], env: &mut Env, span: Span) -> RtResult<Value> {
        let mut out = Vec::with_capacity(items.len());
        for i in items {
            let v = self.eval(i, env)?;
            self.check_nesting(&v, span)?;
            out.push(v);
        }
        self.charge(out.len() * std::mem::size_of::<Value>(), span)?;
        Ok(Value::list(out))
    }
}
