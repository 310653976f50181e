//! The fast tier run (see `arbiter_ir::fast`): an expression's fast form worked out on scalars,
//! its steps counted as the walker counts them and added at the end. At any case it does not
//! cover it gives way (`None`), and the expression is worked out again from the start by the walker
//! on its slow form; so is every expression while a profiler counts routines or a call is being
//! recorded (`Evaluator::recording`), and, with the tier switched off or checked
//! (`Tracer::fast_tier`), as the tracer asks.

use super::RtResult;
use super::eval::{Evaluator, err, set_slot};
use super::state::{Env, NO_CALL};
use super::trace::FastTier;
use arbiter_ir::ExprKindIr;
use arbiter_ir::FastExpr;
use arbiter_ir::fast::{Code, Leaf, Op, REGISTERS, Scalar, WALKS};
use arbiter_ir::operators::BinaryOperator;
use arbiter_ir::value::{ObjId, Value, ZoneRef};
use arbiter_syntax::budgets::{DEPTH_BUDGET, EVAL_BUDGET};
use arbiter_syntax::span::Span;
use std::sync::Arc;

/// The fast tier gave way: the walker works the expression out.
type Gave<T> = Option<T>;

/// Where a walk is: a zone's objects, or a list's items (held, as the walk writes the item's
/// slot, which may be the list's own), and the next item's index.
enum Walking<'a> {
    Objs(&'a [ObjId], usize),
    List(Arc<Vec<Value>>, usize),
}

impl Evaluator<'_> {
    /// An expression with a fast form: the fast form's value when it covers this case, else the
    /// walker's on the slow form.
    #[inline(never)]
    pub(super) fn fast(&self, f: &FastExpr, env: &mut Env) -> RtResult<Value> {
        if self.fast_tier == FastTier::Off || self.counting.is_some() || self.recording.get() > 0 {
            return self.eval(&f.slow, env);
        }
        if f.code.list {
            return self.fast_list(f, env);
        }
        let before = self.steps.get();
        let found = self.run_code(&f.code, env, before, 0);
        self.settle(f, env, before, found, Scalar::value)
    }

    /// `fast` for a filter: its value is the list its items gathered into.
    #[inline(never)]
    fn fast_list(&self, f: &FastExpr, env: &mut Env) -> RtResult<Value> {
        let before = self.steps.get();
        self.scratch().borrow_mut().collected.clear();
        let found = self.run_code(&f.code, env, before, 0);
        // (Drained into a list of its own length: the gathering buffer is kept for the next.)
        let found = found.map(|(_, steps)| (Value::list(self.scratch().borrow_mut().collected.drain(..).collect()), steps));
        self.settle(f, env, before, found, |v| v)
    }

    /// The end of `fast` and `fast_list`: with the tier checked, the walker's answer beside the
    /// fast one; else the fast answer (`value` makes it a `Value`, only here, so that the scalar
    /// path builds none before it is needed) with its steps counted, or, where the fast form gave
    /// way, the walker's.
    #[inline(always)]
    fn settle<T>(
        &self,
        f: &FastExpr,
        env: &mut Env,
        before: u64,
        found: Option<(T, u64)>,
        value: impl FnOnce(T) -> Value,
    ) -> RtResult<Value> {
        if self.fast_tier == FastTier::Checked {
            return self.checked(f, env, found.map(|(v, steps)| (value(v), steps)));
        }
        match found {
            Some((v, steps)) => {
                self.steps.set(before + steps);
                Ok(value(v))
            }
            None => self.eval(&f.slow, env),
        }
    }

    /// The walker's answer, and an error if the fast form gave another value or step count.
    #[cold]
    fn checked(&self, f: &FastExpr, env: &mut Env, fast: Option<(Value, u64)>) -> RtResult<Value> {
        let before = self.steps.get();
        let slow = self.eval(&f.slow, env);
        let steps = self.steps.get() - before;
        match (fast, &slow) {
            (Some((v, n)), Ok(w)) if v == *w && n == steps => {
                self.scratch().borrow_mut().fast_agreed += 1;
                slow
            }
            (Some((v, n)), Ok(w)) => {
                Err(err(f.slow.span, format!("internal: the fast tier gave {v:?} in {n} steps, the walker {w:?} in {steps} steps")))
            }
            (Some((v, _)), Err(e)) => {
                Err(err(f.slow.span, format!("internal: the fast tier gave {v:?}, the walker an error: {}", e.message)))
            }
            (None, _) => slow,
        }
    }

    /// Run a fast form `calls` calls deeper than the evaluation: its value and the steps it
    /// counted, or none where it gives way.
    #[inline]
    fn run_code(&self, code: &Code, env: &mut Env, before: u64, calls: u32) -> Gave<(Scalar, u64)> {
        // The depth budget, for every inlined body at once (past it, the walker says where).
        if self.depth.get() + calls + code.depth > DEPTH_BUDGET {
            None
        } else if code.walks {
            self.run::<WALKS>(code, env, before, calls)
        } else {
            self.run::<0>(code, env, before, calls)
        }
    }

    /// (`W` walks are kept room for: none, or `WALKS`.)
    fn run<const W: usize>(&self, code: &Code, env: &mut Env, before: u64, calls: u32) -> Gave<(Scalar, u64)> {
        let mut regs = [Scalar::None; REGISTERS];
        let mut walks: [Option<Walking<'_>>; W] = [const { None }; W];
        let mut steps = 0u64;
        let mut pc = 0usize;
        let ops = code.ops.as_slice();
        // A register written, and one read.
        macro_rules! reg {
            ($r:expr) => {
                *regs.get_mut(usize::from($r) & (REGISTERS - 1))?
            };
        }
        macro_rules! get {
            ($r:expr) => {
                *regs.get(usize::from($r) & (REGISTERS - 1))?
            };
        }
        while let Some(op) = ops.get(pc) {
            pc += 1;
            match op {
                Op::Steps(n) => steps += u64::from(*n),
                Op::Local(r, s) => reg!(*r) = local(env, *s)?,
                Op::Const(r, c) => reg!(*r) = Scalar::of(self.state.consts.get(usize::from(*c)).unwrap_or(&Value::None))?,
                Op::Global(r, g) => {
                    self.globals_read.set(true);
                    reg!(*r) = Scalar::of(self.state.globals.get(usize::from(*g)).unwrap_or(&Value::None))?;
                }
                Op::Imm(r, v) => reg!(*r) = *v,
                Op::You(r) => reg!(*r) = Scalar::Player(env.you?),
                Op::SelfObj(r) => reg!(*r) = Scalar::Obj(env.self_obj?),
                Op::PlayerField(r, i) => {
                    let Scalar::Player(p) = get!(*r) else { return None };
                    let v = self.state.players.get(usize::from(p))?.fields.get(usize::from(*i));
                    reg!(*r) = match v {
                        Some(v) => Scalar::of(v)?,
                        None => Scalar::None,
                    };
                }
                Op::PlayerZone(r, z) => {
                    let Scalar::Player(p) = get!(*r) else { return None };
                    reg!(*r) = Scalar::Zone(ZoneRef { zone: *z, owner: Some(p) });
                }
                Op::ObjField(r, f) => {
                    let Scalar::Obj(o) = get!(*r) else { return None };
                    reg!(*r) = self.plain_field(o, *f)?;
                }
                Op::ObjProp(r, p) => {
                    let Scalar::Obj(o) = get!(*r) else { return None };
                    reg!(*r) = Scalar::of(&self.obj_prop(o, *p, Span::default()).ok()?)?;
                }
                Op::Not(r) => {
                    let Scalar::Bool(b) = get!(*r) else { return None };
                    reg!(*r) = Scalar::Bool(!b);
                }
                Op::Neg(r) => {
                    let Scalar::Int(i) = get!(*r) else { return None };
                    reg!(*r) = Scalar::Int(i.checked_neg()?);
                }
                Op::Bool(r) => {
                    if !matches!(get!(*r), Scalar::Bool(_)) {
                        return None;
                    }
                }
                Op::Eq(a, b, eq) => {
                    let same = get!(*a) == get!(*b);
                    reg!(*a) = Scalar::Bool(same == *eq);
                }
                Op::Cmp(a, b, op) => {
                    let (Scalar::Int(x), Scalar::Int(y)) = (get!(*a), get!(*b)) else { return None };
                    reg!(*a) = Scalar::Bool(op.compare(x, y));
                }
                Op::Arith(a, b, op) => {
                    let (Scalar::Int(x), Scalar::Int(y)) = (get!(*a), get!(*b)) else { return None };
                    reg!(*a) = Scalar::Int(arith(*op, x, y)?);
                }
                Op::EqImm(a, v, eq) => {
                    let same = get!(*a) == *v;
                    reg!(*a) = Scalar::Bool(same == *eq);
                }
                Op::CmpImm(a, y, op) => {
                    let Scalar::Int(x) = get!(*a) else { return None };
                    reg!(*a) = Scalar::Bool(op.compare(x, *y));
                }
                Op::ArithImm(a, y, op) => {
                    let Scalar::Int(x) = get!(*a) else { return None };
                    reg!(*a) = Scalar::Int(arith(*op, x, *y)?);
                }
                Op::EqLocal(a, s, eq) => {
                    let same = get!(*a) == local(env, *s)?;
                    reg!(*a) = Scalar::Bool(same == *eq);
                }
                Op::CmpLocal(a, s, op) => {
                    let (Scalar::Int(x), Scalar::Int(y)) = (get!(*a), local(env, *s)?) else { return None };
                    reg!(*a) = Scalar::Bool(op.compare(x, y));
                }
                Op::ArithLocal(a, s, op) => {
                    let (Scalar::Int(x), Scalar::Int(y)) = (get!(*a), local(env, *s)?) else { return None };
                    reg!(*a) = Scalar::Int(arith(*op, x, y)?);
                }
                Op::NthZone(a, b) => {
                    let (Scalar::Zone(z), Scalar::Int(i)) = (get!(*a), get!(*b)) else { return None };
                    reg!(*a) = nth_obj(self.one_zone(z)?, i);
                }
                Op::NthLeaf(r, l) => {
                    let Scalar::Int(i) = get!(*r) else { return None };
                    reg!(*r) = self.nth_leaf(l, i, env, &mut steps)?;
                }
                Op::NthLeafField(r, l, f) => {
                    let Scalar::Int(i) = get!(*r) else { return None };
                    let Scalar::Obj(o) = self.nth_leaf(l, i, env, &mut steps)? else { return None };
                    reg!(*r) = self.plain_field(o, *f)?;
                }
                Op::SetSlot(slot, r) => set_slot(env, *slot, get!(*r).value()),
                Op::Jump(t) => pc = *t as usize,
                Op::JumpIfFalse(r, t) => match get!(*r) {
                    Scalar::Bool(false) => pc = *t as usize,
                    Scalar::Bool(true) => {}
                    _ => return None,
                },
                Op::JumpIfTrue(r, t) => match get!(*r) {
                    Scalar::Bool(true) => pc = *t as usize,
                    Scalar::Bool(false) => {}
                    _ => return None,
                },
                Op::IterZone(n, r) => {
                    *walks.get_mut(usize::from(*n))? = Some(match get!(*r) {
                        Scalar::Zone(z) => Walking::Objs(self.one_zone(z)?, 0),
                        Scalar::None => Walking::Objs(&[], 0),
                        _ => return None,
                    });
                }
                Op::IterLeaf(n, l) => {
                    *walks.get_mut(usize::from(*n))? = Some(match self.leaf_value(l, env) {
                        Value::Zone(z) => Walking::Objs(self.one_zone(*z)?, 0),
                        Value::List(list) => Walking::List(list.clone(), 0),
                        Value::None => Walking::Objs(&[], 0),
                        _ => return None,
                    });
                }
                Op::Next { walk, slot, item, done } => {
                    // The steps so far within the budget (past it, the walker says where).
                    if before + steps > EVAL_BUDGET {
                        return None;
                    }
                    let value = match walks.get_mut(usize::from(*walk))?.as_mut()? {
                        Walking::Objs(objs, i) => {
                            let o = objs.get(*i).copied();
                            *i += 1;
                            o.map(Value::Obj)
                        }
                        Walking::List(list, i) => {
                            let v = list.get(*i).cloned();
                            *i += 1;
                            v
                        }
                    };
                    match value {
                        Some(v) => {
                            if let Some(r) = item {
                                reg!(*r) = Scalar::of(&v)?;
                            }
                            set_slot(env, *slot, v);
                        }
                        None => pc = *done as usize,
                    }
                }
                Op::Collect(slot) => {
                    let item = env.slots.get(usize::from(*slot))?.clone();
                    self.scratch().borrow_mut().collected.push(item);
                }
                Op::Incr(r) => {
                    let Scalar::Int(i) = get!(*r) else { return None };
                    reg!(*r) = Scalar::Int(i + 1);
                }
                Op::Move(a, b) => reg!(*a) = get!(*b),
                Op::Call { func, first, n } => {
                    let f = self.game.funcs.get(*func as usize)?;
                    let ExprKindIr::Fast(body) = &f.body.kind else { return None };
                    // (A function whose body gives a list is never called here: `Cover`.)
                    if f.remember || body.code.list {
                        return None;
                    }
                    let mut slots = self.buf(usize::from(f.slots).max(usize::from(*n)));
                    for i in 0..*n {
                        slots.push(get!(first.checked_add(i)?).value());
                    }
                    slots.resize(usize::from(f.slots).max(slots.len()), Value::None);
                    let mut callee = Env { slots, you: env.you, self_obj: env.self_obj, rec: NO_CALL };
                    // Calls nest without a bound but the depth budget's: each makes sure the
                    // thread's stack has room, as the walker's calls do (`Evaluator::nested`).
                    let found = stacker::maybe_grow(256 * 1024, 2 * 1024 * 1024, || {
                        self.run_code(&body.code, &mut callee, before + steps, calls + 1)
                    });
                    self.give(callee.slots);
                    let (v, s) = found?;
                    steps += s;
                    reg!(*first) = v;
                }
            }
        }
        let v = *regs.first()?;
        (before + steps <= EVAL_BUDGET).then_some((v, steps))
    }

    /// `nth` of a leaf by `i`: a zone's `i`th object, or a list's `i`th item (the walker's
    /// built-in counts a step for each of the list's items).
    #[inline]
    fn nth_leaf(&self, l: &Leaf, i: i64, env: &Env, steps: &mut u64) -> Gave<Scalar> {
        Some(match self.leaf_value(l, env) {
            Value::Zone(z) => nth_obj(self.one_zone(*z)?, i),
            Value::List(list) => {
                *steps += list.len() as u64;
                match usize::try_from(i).ok().and_then(|i| list.get(i)) {
                    Some(v) => Scalar::of(v)?,
                    None => Scalar::None,
                }
            }
            _ => return None,
        })
    }

    fn leaf_value<'v>(&'v self, l: &'v Leaf, env: &'v Env) -> &'v Value {
        static NONE: Value = Value::None;
        match l {
            Leaf::Local(s) => env.slots.get(usize::from(*s)),
            Leaf::Lit(v) => Some(v),
            Leaf::Const(i) => self.state.consts.get(usize::from(*i)),
            Leaf::Global(i) => {
                self.globals_read.set(true);
                self.state.globals.get(usize::from(*i))
            }
        }
        .unwrap_or(&NONE)
    }

    /// A field no modifier changes, read as the walker's `read_field` reads it then
    /// (`printed_found`: no error built on the way).
    #[inline]
    fn plain_field(&self, o: ObjId, f: arbiter_ir::Sym) -> Gave<Scalar> {
        if !self.unmodified(f) || !self.game.blank_modifiers.is_empty() {
            return None;
        }
        Scalar::of(self.printed_found(o, f)?)
    }
}

/// A local as a scalar (none if it is not one).
#[inline]
fn local(env: &Env, s: arbiter_ir::Slot) -> Gave<Scalar> {
    Scalar::of(env.slots.get(usize::from(s)).unwrap_or(&Value::None))
}

/// `x op y` on numbers, or none where the walker errs (overflow, division by zero).
#[inline]
fn arith(op: BinaryOperator, x: i64, y: i64) -> Gave<i64> {
    match op {
        BinaryOperator::Add => x.checked_add(y),
        BinaryOperator::Sub => x.checked_sub(y),
        BinaryOperator::Mul => x.checked_mul(y),
        BinaryOperator::Div => x.checked_div(y),
        BinaryOperator::Rem => x.checked_rem(y),
        _ => None,
    }
}

/// A zone's `i`th object, or none.
#[inline]
fn nth_obj(objs: &[ObjId], i: i64) -> Scalar {
    usize::try_from(i).ok().and_then(|i| objs.get(i)).map_or(Scalar::None, |o| Scalar::Obj(*o))
}
