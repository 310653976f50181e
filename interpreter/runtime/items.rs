//! What a quantifier or comprehension walks over: a list, a zone's objects read in place, or two
//! of these one after the other (`a + b`), without building a list of them.

use super::eval::{Evaluator, R};
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

/// A list, or a zone's objects.
enum Part<'a> {
    List(Arc<Vec<Value>>),
    Objs(&'a [ObjId]),
    Owned(Vec<ObjId>),
}

impl Part<'_> {
    fn len(&self) -> usize {
        match self {
            Part::List(l) => l.len(),
            Part::Objs(o) => o.len(),
            Part::Owned(o) => o.len(),
        }
    }

    fn get(&self, i: usize) -> Value {
        match self {
            Part::List(l) => l.get(i).cloned().unwrap_or_default(),
            Part::Objs(o) => o.get(i).map(|x| Value::Obj(*x)).unwrap_or_default(),
            Part::Owned(o) => o.get(i).map(|x| Value::Obj(*x)).unwrap_or_default(),
        }
    }
}

impl Items<'_> {
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
    pub fn items_of(&self, e: &Expr, env: &mut Env) -> R<Items<'a>> {
        if let ExprKind::Binary(BinaryOperator::Add, l, r) = &e.kind {
            return self.step(e, |ev| ev.joined(l, r, env, e.span));
        }
        let v = self.eval(e, env)?;
        Ok(Items { first: self.part(v, e.span)?, second: None })
    }

    fn joined(&self, l: &Expr, r: &Expr, env: &mut Env, span: Span) -> R<Items<'a>> {
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
        Ok(Items { first: self.part(v, span)?, second: None })
    }

    fn part(&self, v: Value, span: Span) -> R<Part<'a>> {
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
