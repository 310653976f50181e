//! Operators and conditions: `truth` answers a condition without building a value for each
//! `and`, `or`, `not`, comparison and membership test in it (the same steps, the same errors as evaluating it);
//! `binary` evaluates the operators as values.

use super::RtResult;
use super::eval::{Evaluator, err, overflow};
use super::state::Env;
use arbiter_ir::operators::{BinaryOperator, UnaryOperator};
use arbiter_ir::value::Value;
use arbiter_ir::*;
use arbiter_syntax::budgets::{EVAL_BUDGET, SIZE_BUDGET};
use arbiter_syntax::span::Span;

impl Evaluator<'_> {
    /// Whether a condition holds. The operators of conditions are answered here directly, each as
    /// one step, as `eval` would count it; anything else is evaluated and must be true or false.
    pub fn truth(&self, e: &ExprIr, env: &mut Env) -> RtResult<bool> {
        match &e.kind {
            ExprKindIr::Binary(BinaryOperator::And, l, r) => {
                self.step(e, |evaluator| Ok(evaluator.truth(l, env)? && evaluator.truth(r, env)?))
            }
            ExprKindIr::Binary(BinaryOperator::Or, l, r) => {
                self.step(e, |evaluator| Ok(evaluator.truth(l, env)? || evaluator.truth(r, env)?))
            }
            ExprKindIr::Unary(UnaryOperator::Not, x) => self.step(e, |evaluator| Ok(!evaluator.truth(x, env)?)),
            ExprKindIr::Binary(op @ (BinaryOperator::Eq | BinaryOperator::Ne), l, r) => self.step(e, |evaluator| {
                evaluator.with_operands(l, r, env, |a, b| Ok(evaluator.equal(a, b, e.span)? == (*op == BinaryOperator::Eq)))
            }),
            ExprKindIr::Binary(op @ (BinaryOperator::Lt | BinaryOperator::Le | BinaryOperator::Gt | BinaryOperator::Ge), l, r) => self
                .step(e, |evaluator| {
                    evaluator.with_operands(l, r, env, |a, b| match (a, b) {
                        (Value::Int(x), Value::Int(y)) => Ok(op.compare(*x, *y)),
                        _ => {
                            let (x, y) = evaluator.numbers(a.clone(), b.clone(), l, r)?;
                            Ok(op.compare(x, y))
                        }
                    })
                }),
            ExprKindIr::Binary(op @ (BinaryOperator::In | BinaryOperator::NotIn | BinaryOperator::Has), l, r) => {
                self.step(e, |evaluator| {
                    let a = evaluator.eval(l, env)?;
                    let b = evaluator.eval(r, env)?;
                    Ok(match op {
                        BinaryOperator::In => evaluator.contains(&b, &a, r.span)?,
                        BinaryOperator::NotIn => !evaluator.contains(&b, &a, r.span)?,
                        _ => evaluator.contains(&a, &b, l.span)?,
                    })
                })
            }
            _ => match self.eval(e, env)? {
                Value::Bool(b) => Ok(b),
                other => Err(self.type_err(e.span, "true or false", &other)),
            },
        }
    }

    pub(super) fn binary(&self, op: BinaryOperator, l: &ExprIr, r: &ExprIr, env: &mut Env, span: Span) -> RtResult<Value> {
        match op {
            BinaryOperator::And => return Ok(Value::Bool(self.truth(l, env)? && self.truth(r, env)?)),
            BinaryOperator::Or => return Ok(Value::Bool(self.truth(l, env)? || self.truth(r, env)?)),
            _ => {}
        }
        // Numbers, and equality, without copying an operand read in place.
        let fast = self.with_operands(l, r, env, |a, b| {
            let int = |x: Option<i64>| x.map(Value::Int).ok_or_else(|| overflow(span));
            Ok(match (op, a, b) {
                (BinaryOperator::Eq, a, b) => Ok(Value::Bool(self.equal(a, b, span)?)),
                (BinaryOperator::Ne, a, b) => Ok(Value::Bool(!self.equal(a, b, span)?)),
                (BinaryOperator::Add, Value::Int(x), Value::Int(y)) => Ok(int(x.checked_add(*y))?),
                (BinaryOperator::Sub, Value::Int(x), Value::Int(y)) => Ok(int(x.checked_sub(*y))?),
                (BinaryOperator::Mul, Value::Int(x), Value::Int(y)) => Ok(int(x.checked_mul(*y))?),
                (BinaryOperator::Lt | BinaryOperator::Le | BinaryOperator::Gt | BinaryOperator::Ge, Value::Int(x), Value::Int(y)) => {
                    Ok(Value::Bool(op.compare(*x, *y)))
                }
                _ => Err((a.clone(), b.clone())),
            })
        })?;
        match fast {
            Ok(v) => Ok(v),
            Err((a, b)) => self.apply(op, a, b, l, r, span),
        }
    }

    /// A (non-logical) operator applied to its operands' values.
    pub(super) fn apply(&self, op: BinaryOperator, a: Value, b: Value, l: &ExprIr, r: &ExprIr, span: Span) -> RtResult<Value> {
        let overflow = || overflow(span);
        Ok(match op {
            BinaryOperator::Eq => Value::Bool(self.equal(&a, &b, span)?),
            BinaryOperator::Ne => Value::Bool(!self.equal(&a, &b, span)?),
            BinaryOperator::In => Value::Bool(self.contains(&b, &a, r.span)?),
            BinaryOperator::NotIn => Value::Bool(!self.contains(&b, &a, r.span)?),
            BinaryOperator::Has => Value::Bool(self.contains(&a, &b, l.span)?),
            BinaryOperator::Add => match (a, b) {
                (Value::Int(x), Value::Int(y)) => Value::Int(x.checked_add(y).ok_or_else(overflow)?),
                (Value::Text(x), y) => {
                    let mut s = x.to_string();
                    self.push_label(&mut s, &y, span)?;
                    self.charge(s.len(), span)?;
                    Value::text(s)
                }
                (a @ Value::Amount(_), b @ (Value::Amount(_) | Value::None)) | (a @ Value::None, b @ Value::Amount(_)) => {
                    super::modifiers::apply(a, arbiter_ir::operators::ModifyOperator::Add, b, span)?
                }
                (x @ (Value::List(_) | Value::Zone(_)), y @ (Value::List(_) | Value::Zone(_) | Value::None)) => {
                    let mut v = self.as_list(x, l.span)?.as_ref().clone();
                    v.extend(self.as_list(y, r.span)?.iter().cloned());
                    self.sized(v, span)?
                }
                (x, _) => return Err(self.type_err(l.span, "numbers, texts or lists", &x)),
            },
            BinaryOperator::Sub if matches!(a, Value::Amount(_)) || matches!(b, Value::Amount(_)) => {
                super::modifiers::apply(a, arbiter_ir::operators::ModifyOperator::Sub, b, span)?
            }
            _ => {
                let (x, y) = self.numbers(a, b, l, r)?;
                match op {
                    BinaryOperator::Lt | BinaryOperator::Le | BinaryOperator::Gt | BinaryOperator::Ge => Value::Bool(op.compare(x, y)),
                    BinaryOperator::Sub => Value::Int(x.checked_sub(y).ok_or_else(overflow)?),
                    BinaryOperator::Mul => Value::Int(x.checked_mul(y).ok_or_else(overflow)?),
                    // `checked_div` also refuses the smallest number divided by -1.
                    BinaryOperator::Div => {
                        Value::Int(x.checked_div(y).ok_or_else(|| if y == 0 { err(r.span, "division by zero") } else { overflow() })?)
                    }
                    BinaryOperator::Rem => {
                        Value::Int(x.checked_rem(y).ok_or_else(|| if y == 0 { err(r.span, "division by zero") } else { overflow() })?)
                    }
                    _ => return Err(err(span, "internal: operator")),
                }
            }
        })
    }

    /// `f` of both operands of an operator, evaluated left then right. A local, literal, constant
    /// or global is read in place, not copied (`ExprIr::is_leaf`): reading one never fails and
    /// changes nothing, so it may be read after the other operand is evaluated.
    #[inline(always)]
    pub(super) fn with_operands<T>(
        &self,
        l: &ExprIr,
        r: &ExprIr,
        env: &mut Env,
        f: impl FnOnce(&Value, &Value) -> RtResult<T>,
    ) -> RtResult<T> {
        let a_own = if l.is_leaf() { None } else { Some(self.eval(l, env)?) };
        let b_own = if r.is_leaf() { None } else { Some(self.eval(r, env)?) };
        let a = match &a_own {
            Some(v) => v,
            None => self.leaf(l, env),
        };
        let b = match &b_own {
            Some(v) => v,
            None => self.leaf(r, env),
        };
        f(a, b)
    }

    /// A leaf's value in place (see `with_operands`); what `eval` would give for it.
    #[inline(always)]
    pub(super) fn leaf<'x>(&'x self, e: &'x ExprIr, env: &'x Env) -> &'x Value {
        static NONE: Value = Value::None;
        match &e.kind {
            ExprKindIr::Local(s) => env.slots.get(*s as usize),
            ExprKindIr::Lit(v) => Some(v),
            ExprKindIr::Const(i) => self.state.consts.get(*i as usize),
            ExprKindIr::Global(i) => {
                self.globals_read.set(true);
                self.state.globals.get(*i as usize)
            }
            _ => None,
        }
        .unwrap_or(&NONE)
    }

    /// Both operands as numbers, or the error for the first that is not one.
    fn numbers(&self, a: Value, b: Value, l: &ExprIr, r: &ExprIr) -> RtResult<(i64, i64)> {
        match (a, b) {
            (Value::Int(x), Value::Int(y)) => Ok((x, y)),
            (Value::Int(_), other) => Err(self.type_err(r.span, "a number", &other)),
            (other, _) => Err(self.type_err(l.span, "a number", &other)),
        }
    }

    pub fn sized(&self, v: Vec<Value>, span: Span) -> RtResult<Value> {
        if v.len() > SIZE_BUDGET {
            return Err(size_exceeded(span));
        }
        self.charge(v.len() * std::mem::size_of::<Value>(), span)?;
        Ok(Value::list(v))
    }

    /// Whether two values are equal: the items of lists compared, and long texts by 64 bytes,
    /// count toward the evaluation's step budget (two lists of lists can hold billions of items in
    /// a few kilobytes, each list shared: comparing them was one step and took hours).
    #[inline]
    pub fn equal(&self, a: &Value, b: &Value, span: Span) -> RtResult<bool> {
        if let Some(same) = a.scalar_eq(b) {
            return Ok(same);
        }
        match (a, b) {
            (Value::List(_), Value::List(_)) | (Value::Text(_), Value::Text(_)) => self.walked_equal(a, b, span),
            _ => Ok(a == b),
        }
    }

    /// `equal` for two lists or texts, counting what is compared (see `Value::equal_within`).
    #[inline(never)]
    fn walked_equal(&self, a: &Value, b: &Value, span: Span) -> RtResult<bool> {
        let room = EVAL_BUDGET.saturating_sub(self.steps.get());
        let mut left = room;
        let walked = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        match a.equal_within(b, &mut left) {
            Some(equal) => {
                self.work(walked(room - left), span)?;
                Ok(equal)
            }
            // Past the budget: the error the work gives.
            None => {
                self.work(walked(room).saturating_add(1), span)?;
                Ok(false)
            }
        }
    }

    /// Whether any of `items` equals `v` (see `equal`).
    pub fn any_equal(&self, items: &[Value], v: &Value, span: Span) -> RtResult<bool> {
        for x in items {
            if self.equal(x, v, span)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// `item in container`: list membership, or an object directly in a zone.
    pub(super) fn contains(&self, container: &Value, item: &Value, span: Span) -> RtResult<bool> {
        match container {
            Value::List(l) => {
                self.work(l.len(), span)?;
                self.any_equal(l, item, span)
            }
            Value::None => Ok(false),
            Value::Zone(z) => match item {
                Value::Obj(o) => Ok(self.in_zone(*o, *z)),
                Value::None => Ok(false),
                other => Err(self.type_err(span, "an object", other)),
            },
            Value::Amount(a) => match item {
                Value::Sym(s) => Ok(a.iter().any(|(_, k)| k == s)),
                _ => Ok(false),
            },
            other => Err(self.type_err(span, "a list or a zone", other)),
        }
    }
}

/// A list longer than `SIZE_BUDGET`.
pub(super) fn size_exceeded(span: Span) -> super::RtError {
    err(span, format!("size budget exceeded: a list of more than {SIZE_BUDGET} items"))
}
