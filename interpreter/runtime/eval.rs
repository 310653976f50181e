//! Expression evaluation: one `match` over the compiled expression, helpers for the big arms.
//! Expressions read the state and never change it; a recursion budget stops runaway rules.

use super::RtError;
use super::builtins::Builtin;
use super::state::{Env, Place, State};
use super::value::{ObjId, Seat, Value, ZoneRef};
use crate::check::ir::*;
use crate::syntax::ast::{BinOp, UnOp};
use crate::syntax::span::Span;
use std::cell::Cell;
use std::sync::Arc;

/// How deep function calls and field reads may nest before a rule is stopped.
pub const DEPTH_BUDGET: u32 = 200;
/// The longest list an expression may build.
pub const SIZE_BUDGET: usize = 100_000;
/// How many steps one evaluation may take before the rule is stopped.
pub const EVAL_BUDGET: u64 = 5_000_000;
/// How deeply lists may nest inside lists.
pub const NEST_BUDGET: u32 = 100;
/// The longest text a rule may build, in bytes.
pub const TEXT_BUDGET: usize = 1 << 20;
/// Bytes of texts and lists the rules may build between two decisions (a list item counts as
/// the size of a value). Counted where they are built, so that it costs an addition.
pub const MEMORY_BUDGET: u64 = 256 << 20;

pub type R<T> = Result<T, RtError>;

pub struct Ev<'a> {
    pub game: &'a Game,
    pub state: &'a State,
    depth: Cell<u32>,
    steps: Cell<u64>,
    /// How deeply `eval` is nested now.
    level: Cell<u32>,
    /// Whether each object is blank, as found so far in this evaluation (the state doesn't change
    /// while an expression is evaluated): 0 not known yet, 1 not blank, k + 2 blanked by the
    /// game's k-th blanking modifier.
    pub(super) blank: std::cell::RefCell<Vec<u32>>,
    /// Field values computed through modifiers so far in this evaluation, by object and field
    /// (the state doesn't change while an expression is evaluated, so a field read twice is the
    /// same value). Only reads that went through modifiers are kept.
    pub(super) fields: std::cell::RefCell<FieldMemo>,
    /// Function calls made so far in this evaluation and their values, by function (see
    /// `remembered`).
    calls: std::cell::RefCell<std::collections::HashMap<FuncId, Vec<Call>, std::hash::BuildHasherDefault<crate::check::ir::SymHasher>>>,
    /// Emptied value vectors kept for reuse: function environments and argument lists are made and
    /// dropped at a high rate, and reusing their buffers saves an allocation each.
    pool: std::cell::RefCell<Vec<Vec<Value>>>,
    /// Where the pool came from and goes back to (the engine's, kept between evaluations).
    home: Option<&'a Pool>,
    /// Where the steps go, by routine, when the engine profiles.
    profile: Option<&'a std::cell::RefCell<super::profile::Profile>>,
}

/// A function call remembered: its arguments, `you` and `self`, and its value.
struct Call {
    args: Vec<Value>,
    you: Option<Seat>,
    me: Option<ObjId>,
    value: Value,
}

/// How many different calls of one function an evaluation remembers.
const CALLS_KEPT: usize = 32;

/// Field values by `object << 32 | field` (see `Ev::fields`).
pub type FieldMemo = std::collections::HashMap<u64, Value, std::hash::BuildHasherDefault<crate::check::ir::SymHasher>>;

/// Emptied value vectors kept for reuse between evaluations (see `Ev::pool`).
pub type Pool = std::cell::RefCell<Vec<Vec<Value>>>;

impl Drop for Ev<'_> {
    /// Every step counts toward the work between two decisions (`engine::WORK_BUDGET`), added
    /// when the evaluation ends (the engine checks it between statements); the buffers go home.
    fn drop(&mut self) {
        self.state.work.set(self.state.work.get().saturating_add(self.steps.get()));
        if let Some(p) = self.profile {
            p.borrow_mut().steps += self.steps.get();
        }
        if let Some(home) = self.home {
            let mine = std::mem::take(self.pool.get_mut());
            let mut home = home.borrow_mut();
            if home.is_empty() {
                *home = mine;
            } else {
                let room = 64usize.saturating_sub(home.len());
                home.extend(mine.into_iter().take(room));
            }
        }
    }
}

pub fn err(span: Span, message: impl Into<String>) -> RtError {
    RtError::new(message.into(), span)
}

/// Arithmetic whose result does not fit in 64 bits.
pub fn overflow(span: Span) -> RtError {
    err(span, "number overflow: the result does not fit in 64 bits").with_help(format!("numbers run from {} to {}", i64::MIN, i64::MAX))
}

impl<'a> Ev<'a> {
    pub fn new(game: &'a Game, state: &'a State) -> Self {
        Ev {
            game,
            state,
            depth: Cell::new(0),
            steps: Cell::new(0),
            level: Cell::new(0),
            blank: std::cell::RefCell::new(Vec::new()),
            fields: std::cell::RefCell::new(FieldMemo::default()),
            calls: std::cell::RefCell::new(Default::default()),
            pool: std::cell::RefCell::new(Vec::new()),
            home: None,
            profile: None,
        }
    }

    /// An evaluation that borrows its reusable buffers from `pool` and gives them back when done.
    pub fn pooled(game: &'a Game, state: &'a State, pool: &'a Pool) -> Self {
        let mut ev = Ev::new(game, state);
        ev.pool = std::cell::RefCell::new(std::mem::take(&mut *pool.borrow_mut()));
        ev.home = Some(pool);
        ev
    }

    /// Count where the steps go, by routine.
    pub fn profiled(mut self, profile: Option<&'a std::cell::RefCell<super::profile::Profile>>) -> Self {
        self.profile = profile;
        self
    }

    /// Run `f` as the routine `what name`, counting its steps when profiling.
    pub(super) fn as_routine<T>(&self, what: &str, name: &str, f: impl FnOnce() -> T) -> T {
        let Some(p) = self.profile else { return f() };
        p.borrow_mut().enter();
        let s0 = self.steps.get();
        let r = f();
        p.borrow_mut().leave(what, name, self.steps.get() - s0);
        r
    }

    pub fn enter(&self, span: Span) -> R<()> {
        let d = self.depth.get() + 1;
        if d > DEPTH_BUDGET {
            return Err(err(span, format!("depth budget exceeded: more than {DEPTH_BUDGET} nested calls or field reads"))
                .with_help("a function, check or modifier probably refers to itself without end"));
        }
        self.depth.set(d);
        Ok(())
    }

    pub fn leave(&self) {
        self.depth.set(self.depth.get().saturating_sub(1));
    }

    #[inline]
    pub fn eval(&self, e: &Ex, env: &mut Env) -> R<Value> {
        // Reading a local or a literal takes no step of its own (it belongs to the expression
        // around it) and is answered here, without the budgets' bookkeeping.
        match &e.kind {
            ExK::Local(s) => Ok(env.slots.get(*s as usize).cloned().unwrap_or_default()),
            ExK::Lit(v) => Ok(v.clone()),
            ExK::Const(i) => Ok(self.state.consts.get(*i as usize).cloned().unwrap_or_default()),
            ExK::Global(i) => Ok(self.state.globals.get(*i as usize).cloned().unwrap_or_default()),
            _ => self.eval_step(e, env),
        }
    }

    fn eval_step(&self, e: &Ex, env: &mut Env) -> R<Value> {
        let steps = self.steps.get() + 1;
        if steps > EVAL_BUDGET {
            return Err(err(e.span, format!("step budget exceeded: one evaluation took more than {EVAL_BUDGET} steps"))
                .with_help("a condition or function does too much work, or loops over lists that keep growing"));
        }
        self.steps.set(steps);
        // Deep (but budgeted) recursion must never overflow the thread's stack: every 16 levels,
        // make sure there is room for 16 more (a level takes well under 4 KiB).
        let level = self.level.get();
        self.level.set(level + 1);
        let r = if level % 16 == 15 {
            stacker::maybe_grow(256 * 1024, 4 * 1024 * 1024, || self.eval_inner(e, env))
        } else {
            self.eval_inner(e, env)
        };
        self.level.set(level);
        r
    }

    fn eval_inner(&self, e: &Ex, env: &mut Env) -> R<Value> {
        match &e.kind {
            ExK::Lit(v) => Ok(v.clone()),
            ExK::Local(s) => Ok(env.slots.get(*s as usize).cloned().unwrap_or_default()),
            ExK::Global(i) => Ok(self.state.globals.get(*i as usize).cloned().unwrap_or_default()),
            ExK::Const(i) => Ok(self.state.consts.get(*i as usize).cloned().unwrap_or_default()),
            ExK::You => env.you.map(Value::Player).ok_or_else(|| err(e.span, "`you` has no value here")),
            ExK::SelfObj => env.self_obj.map(Value::Obj).ok_or_else(|| err(e.span, "`self` has no value here")),
            ExK::Str(pieces) => Ok(Value::text(self.interpolate(pieces, env, e.span)?)),
            ExK::PlayerField(b, i) => {
                let p = self.player(b, env)?;
                let ps = self.state.players.get(p as usize).ok_or_else(|| err(b.span, "no such player"))?;
                Ok(ps.fields.get(*i as usize).cloned().unwrap_or_default())
            }
            ExK::PlayerZone(b, z) => {
                let p = self.player(b, env)?;
                Ok(Value::Zone(ZoneRef { zone: *z, owner: Some(p) }))
            }
            ExK::ObjField(b, f) => match self.eval(b, env)? {
                Value::Obj(o) => self.read_field(o, *f, e.span),
                Value::Def(d) => self.def_field(d, *f, e.span),
                Value::None => Err(err(b.span, format!("cannot read `{}` of none", self.game.sym(*f)))),
                other => Err(self.type_err(b.span, "an object", &other)),
            },
            ExK::ObjProp(b, prop) => {
                let v = self.eval(b, env)?;
                let o = match v {
                    Value::Obj(o) => o,
                    Value::None => return Err(err(b.span, "expected an object, found none")),
                    other => return Err(self.type_err(b.span, "an object", &other)),
                };
                self.obj_prop(o, *prop, b.span)
            }
            ExK::DefField(b, f) => match self.eval(b, env)? {
                Value::Def(d) => self.def_field(d, *f, e.span),
                Value::Obj(o) => self.read_field(o, *f, e.span),
                other => Err(self.type_err(b.span, "a definition", &other)),
            },
            ExK::ZoneOwner(b) => match self.eval(b, env)? {
                Value::Zone(z) => Ok(z.owner.map(Value::Player).unwrap_or_default()),
                other => Err(self.type_err(b.span, "a zone", &other)),
            },
            ExK::AbilityLabel(b) => match self.eval(b, env)? {
                Value::Ability(o, i) => Ok(Value::text(self.ability_label(o, i))),
                other => Err(self.type_err(b.span, "an ability", &other)),
            },
            ExK::AbilitySource(b) => match self.eval(b, env)? {
                Value::Ability(o, _) => Ok(Value::Obj(o)),
                other => Err(self.type_err(b.span, "an ability", &other)),
            },
            ExK::Dynamic(b, f) => {
                let v = self.eval(b, env)?;
                self.dynamic_field(v, *f, e.span)
            }
            ExK::Call(fid, args) => {
                // The arguments become the function's slots: room for all of them at once.
                let slots = self.game.funcs.get(*fid as usize).map_or(0, |f| f.slots as usize);
                let mut vals = self.buf(slots.max(args.len()));
                for a in args {
                    vals.push(self.eval(a, env)?);
                }
                // Functions only read the state, which doesn't change while an expression is
                // evaluated: the same call gives the same value.
                let remember = self.game.funcs.get(*fid as usize).is_some_and(|f| f.remember);
                if !remember {
                    return self.call_func(*fid, vals, env, e.span);
                }
                if let Some(v) = self.remembered(*fid, &vals, env) {
                    self.give(vals);
                    return Ok(v);
                }
                let key = vals.clone();
                let v = self.call_func(*fid, vals, env, e.span)?;
                self.remember(*fid, key, env, &v);
                Ok(v)
            }
            ExK::Check(cid, args) => {
                let vals = self.eval_args(args, env)?;
                self.check(*cid, &vals, env, e.span)
            }
            ExK::CanProc(pid, args) => {
                let vals = self.eval_args(args, env)?;
                self.can_proc(*pid, &vals, env, e.span)
            }
            ExK::Builtin(b, args) => self.builtin(*b, args, env, e.span),
            ExK::ProcRef(p) => Ok(Value::Proc(*p)),
            ExK::Lambda(l) => Ok(Value::Lambda(*l)),
            ExK::Unary(op, x) => {
                let v = self.eval(x, env)?;
                match (op, v) {
                    (UnOp::Neg, Value::Int(i)) => Ok(Value::Int(i.checked_neg().ok_or_else(|| overflow(e.span))?)),
                    (UnOp::Not, Value::Bool(b)) => Ok(Value::Bool(!b)),
                    (UnOp::Neg, other) => Err(self.type_err(x.span, "a number", &other)),
                    (UnOp::Not, other) => Err(self.type_err(x.span, "true or false", &other)),
                }
            }
            ExK::Binary(op, l, r) => self.binary(*op, l, r, env, e.span),
            ExK::If(c, t, o) => {
                if self.truth(c, env)? {
                    self.eval(t, env)
                } else {
                    self.eval(o, env)
                }
            }
            ExK::Quant { any, slot, list, cond } => {
                let items = self.items_of(list, env)?;
                for i in 0..items.len() {
                    set_slot(env, *slot, items.get(i));
                    if self.truth(cond, env)? {
                        return Ok(Value::Bool(*any));
                    }
                }
                Ok(Value::Bool(!*any))
            }
            ExK::Filter { slot, list, cond } => {
                let items = self.items_of(list, env)?;
                let mut out = Vec::with_capacity(items.len());
                for i in 0..items.len() {
                    let item = items.get(i);
                    set_slot(env, *slot, item.clone());
                    if self.truth(cond, env)? {
                        out.push(item);
                    }
                }
                Ok(Value::list(out))
            }
            ExK::Map { slot, list, expr, cond } => {
                let items = self.items_of(list, env)?;
                let mut out = Vec::with_capacity(items.len());
                for i in 0..items.len() {
                    set_slot(env, *slot, items.get(i));
                    if let Some(c) = cond
                        && !self.truth(c, env)?
                    {
                        continue;
                    }
                    let v = self.eval(expr, env)?;
                    self.check_nesting(&v, e.span)?;
                    out.push(v);
                }
                self.charge(out.len() * std::mem::size_of::<Value>(), e.span)?;
                Ok(Value::list(out))
            }
            ExK::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    let v = self.eval(i, env)?;
                    self.check_nesting(&v, e.span)?;
                    out.push(v);
                }
                self.charge(out.len() * std::mem::size_of::<Value>(), e.span)?;
                Ok(Value::list(out))
            }
        }
    }

    pub fn truth(&self, e: &Ex, env: &mut Env) -> R<bool> {
        match self.eval(e, env)? {
            Value::Bool(b) => Ok(b),
            other => Err(self.type_err(e.span, "true or false", &other)),
        }
    }

    pub fn int(&self, e: &Ex, env: &mut Env) -> R<i64> {
        match self.eval(e, env)? {
            Value::Int(i) => Ok(i),
            other => Err(self.type_err(e.span, "a number", &other)),
        }
    }

    pub fn player(&self, e: &Ex, env: &mut Env) -> R<Seat> {
        match self.eval(e, env)? {
            Value::Player(p) => Ok(p),
            other => Err(self.type_err(e.span, "a player", &other)),
        }
    }

    pub fn type_err(&self, span: Span, expected: &str, found: &Value) -> RtError {
        let shown = match found {
            Value::None => "none".to_string(),
            other => format!("{} `{}`", other.type_name(), self.label(other)),
        };
        err(span, format!("expected {expected}, found {shown}"))
    }

    pub fn eval_args(&self, args: &[Ex], env: &mut Env) -> R<Vec<Value>> {
        args.iter().map(|a| self.eval(a, env)).collect()
    }

    /// The items of a list value or a zone, without copying a zone's objects into a list.
    pub fn items_of(&self, e: &Ex, env: &mut Env) -> R<Items<'a>> {
        match self.eval(e, env)? {
            Value::List(l) => Ok(Items::List(l)),
            Value::Zone(z) => Ok(match self.one_zone(z) {
                Some(objs) => Items::Objs(objs),
                None => Items::Owned(self.state.zone_objects(self.game, z)),
            }),
            Value::None => Ok(Items::Objs(&[])),
            other => Err(self.type_err(e.span, "a list or a zone", &other)),
        }
    }

    /// The objects of a zone that is one place (a shared zone, or one player's), read in place;
    /// `None` for a per-player zone named without its owner (every player's at once).
    fn one_zone(&self, z: ZoneRef) -> Option<&'a [ObjId]> {
        let per_player = self.game.zone(z.zone).is_some_and(|d| d.per_player);
        (z.owner.is_some() || !per_player).then(|| self.state.zone_contents(self.game, z))
    }

    /// A list from a list value or a zone (its objects, top first).
    pub fn list_of(&self, e: &Ex, env: &mut Env) -> R<Arc<Vec<Value>>> {
        let v = self.eval(e, env)?;
        self.as_list(v, e.span)
    }

    pub fn as_list(&self, v: Value, span: Span) -> R<Arc<Vec<Value>>> {
        match v {
            Value::List(l) => Ok(l),
            Value::Zone(z) => Ok(Arc::new(self.state.zone_objects(self.game, z).into_iter().map(Value::Obj).collect())),
            Value::None => Ok(Arc::new(Vec::new())),
            other => Err(self.type_err(span, "a list or a zone", &other)),
        }
    }

    /// A text with `{..}` parts filled in.
    pub fn interpolate(&self, pieces: &[StrPiece], env: &mut Env, span: Span) -> R<String> {
        let mut s = String::new();
        for p in pieces {
            match p {
                StrPiece::Text(t) => s.push_str(t),
                StrPiece::Expr(x) => {
                    let v = self.eval(x, env)?;
                    self.push_label(&mut s, &v, span)?;
                }
            }
        }
        self.charge(s.len(), span)?;
        Ok(s)
    }

    /// Append a value's text, unless the text would grow past the text budget.
    fn push_label(&self, s: &mut String, v: &Value, span: Span) -> R<()> {
        let room = TEXT_BUDGET.saturating_sub(s.len());
        let len = self.label_len(v, room);
        if len > room {
            return Err(err(span, format!("memory budget exceeded: a text longer than {} MiB", TEXT_BUDGET >> 20))
                .with_help("a rule builds a text without end (a text added to itself?); keep texts short"));
        }
        s.push_str(&self.label(v));
        Ok(())
    }

    /// The length of a value's text, counted no further than just past `limit`.
    fn label_len(&self, v: &Value, limit: usize) -> usize {
        match v {
            Value::Text(t) => t.len(),
            Value::List(l) => {
                let mut n = 0usize;
                for x in l.iter() {
                    n = n.saturating_add(2).saturating_add(self.label_len(x, limit.saturating_sub(n)));
                    if n > limit {
                        break;
                    }
                }
                n
            }
            other => self.label(other).len(),
        }
    }

    /// Refuse an item that would nest lists more than `NEST_BUDGET` deep (dropping or printing a
    /// list nested without end would overflow the stack). Free for an item that is not a list; a
    /// list item is walked, one evaluation step per item it holds.
    fn check_nesting(&self, item: &Value, span: Span) -> R<()> {
        match item {
            Value::List(l) => self.nest_walk(l, 1, span),
            _ => Ok(()),
        }
    }

    fn nest_walk(&self, l: &[Value], depth: u32, span: Span) -> R<()> {
        if depth >= NEST_BUDGET {
            return Err(err(span, format!("size budget exceeded: lists nested more than {NEST_BUDGET} deep"))
                .with_help("a rule puts a list inside a list again and again; keep lists flat"));
        }
        self.count_steps(l.len(), span, "a list of lists too large to put in another list")?;
        for x in l {
            if let Value::List(inner) = x {
                self.nest_walk(inner, depth + 1, span)?;
            }
        }
        Ok(())
    }

    /// Count work (list items walked) toward the evaluation's step budget.
    fn work(&self, items: usize, span: Span) -> R<()> {
        self.count_steps(items, span, "a condition or function does too much work, or walks lists that keep growing")
    }

    /// Count steps toward the evaluation's step budget.
    fn count_steps(&self, n: usize, span: Span, help: &str) -> R<()> {
        let steps = self.steps.get().saturating_add(n as u64);
        if steps > EVAL_BUDGET {
            return Err(err(span, format!("step budget exceeded: one evaluation took more than {EVAL_BUDGET} steps")).with_help(help));
        }
        self.steps.set(steps);
        Ok(())
    }

    /// Count bytes built toward the memory budget (between two decisions).
    pub fn charge(&self, bytes: usize, span: Span) -> R<()> {
        let used = self.state.built.get().saturating_add(bytes as u64);
        self.state.built.set(used);
        if used > MEMORY_BUDGET {
            return Err(err(
                span,
                format!(
                    "memory budget exceeded: the rules built more than {} MiB of texts and lists without a decision",
                    MEMORY_BUDGET >> 20
                ),
            )
            .with_help("a loop probably builds texts or lists that keep growing; build them once, or keep fewer"));
        }
        Ok(())
    }

    /// The text shown for a value: objects by their definition's name.
    pub fn label(&self, v: &Value) -> String {
        match v {
            Value::Obj(o) => self.obj_name(*o),
            Value::List(l) => l.iter().map(|x| self.label(x)).collect::<Vec<_>>().join(", "),
            Value::Ability(o, i) => self.ability_label(*o, *i),
            other => other.display(self.game),
        }
    }

    /// A value as a player sees it when choosing: an object they don't know is "a KIND".
    pub fn label_for(&self, v: &Value, seat: Seat) -> String {
        match v {
            Value::Obj(o) if !self.knows(*o, seat) => {
                let kind = self.state.obj(*o).and_then(|ob| self.game.def(ob.def)).and_then(|d| self.game.kind(d.kind));
                format!("a {}", kind.map(|k| k.name.replace('_', " ")).unwrap_or_else(|| "thing".to_string()))
            }
            _ => self.label(v),
        }
    }

    /// `label_for`, shared: an object the player knows is its definition's shared name.
    pub fn label_shared(&self, v: &Value, seat: Seat) -> Arc<str> {
        if let Value::Obj(o) = v
            && self.knows(*o, seat)
            && let Some(d) = self.state.obj(*o).and_then(|ob| self.game.def(ob.def))
        {
            return d.shown.clone();
        }
        self.label_for(v, seat).into()
    }

    /// Whether a player knows what an object is: its known-to mask, or face up in a public zone.
    pub fn knows(&self, o: ObjId, seat: Seat) -> bool {
        self.state.obj(o).is_some_and(|ob| ob.known & super::state::seat_bit(seat) != 0)
    }

    pub fn obj_name(&self, o: ObjId) -> String {
        self.state.obj(o).and_then(|ob| self.game.def(ob.def)).map(|d| d.name.clone()).unwrap_or_else(|| format!("#{o}"))
    }

    pub fn ability_label(&self, o: ObjId, i: u16) -> String {
        let def = self.state.obj(o).and_then(|ob| self.game.def(ob.def));
        match def.and_then(|d| d.abilities.get(i as usize).map(|a| (d, a))) {
            Some((d, a)) if !a.label.is_empty() => format!("{}: {}", d.name, a.label),
            Some((d, a)) => format!("{} ({})", d.name, a.slot),
            None => format!("ability {i} of #{o}"),
        }
    }

    pub fn call_func(&self, fid: FuncId, args: Vec<Value>, env: &Env, span: Span) -> R<Value> {
        let f = self.game.funcs.get(fid as usize).ok_or_else(|| err(span, "no such function"))?;
        self.enter(span)?;
        let mut fenv = new_env(f.slots, args, env.you, env.self_obj);
        let r = self.as_routine("func", &f.info.name, || self.eval(&f.body, &mut fenv));
        self.leave();
        self.give(fenv.slots);
        r
    }

    /// The value of a call made before in this evaluation with the same arguments, `you` and
    /// `self`.
    fn remembered(&self, fid: FuncId, args: &[Value], env: &Env) -> Option<Value> {
        let calls = self.calls.borrow();
        calls.get(&fid)?.iter().find(|c| c.you == env.you && c.me == env.self_obj && c.args.as_slice() == args).map(|c| c.value.clone())
    }

    fn remember(&self, fid: FuncId, args: Vec<Value>, env: &Env, value: &Value) {
        let mut calls = self.calls.borrow_mut();
        let kept = calls.entry(fid).or_default();
        if kept.len() < CALLS_KEPT {
            kept.push(Call { args, you: env.you, me: env.self_obj, value: value.clone() });
        }
    }

    /// An empty vector with room for `cap` values, reused when one is free.
    fn buf(&self, cap: usize) -> Vec<Value> {
        let mut v = self.pool.borrow_mut().pop().unwrap_or_default();
        v.reserve(cap);
        v
    }

    /// An environment for a routine evaluated here: the arguments in its first slots, the slots
    /// from the pool (give them back with `give`).
    pub(super) fn pooled_env(&self, slots: u16, args: &[Value], you: Option<Seat>, self_obj: Option<ObjId>) -> Env {
        let n = (slots as usize).max(args.len());
        let mut v = self.buf(n);
        v.extend_from_slice(args);
        v.resize(n, Value::None);
        Env { slots: v, you, self_obj, rec: super::state::NO_CALL }
    }

    /// Whether a condition holds in a fresh environment from the pool.
    fn holds_in(&self, cond: &Ex, slots: u16, args: &[Value], you: Option<Seat>, self_obj: Option<ObjId>) -> R<bool> {
        let mut env = self.pooled_env(slots, args, you, self_obj);
        let r = self.truth(cond, &mut env);
        self.give(env.slots);
        r
    }

    /// Give a vector back for reuse (its values are dropped now).
    pub(super) fn give(&self, mut v: Vec<Value>) {
        v.clear();
        let mut pool = self.pool.borrow_mut();
        if pool.len() < 64 && v.capacity() <= 64 {
            pool.push(v);
        }
    }

    /// A `check`: false if any forbid applies (can't beats can), else the rule or any permit.
    pub fn check(&self, cid: CheckId, args: &[Value], env: &Env, span: Span) -> R<Value> {
        let c = self.game.checks.get(cid as usize).ok_or_else(|| err(span, "no such check"))?;
        self.enter(span)?;
        let r = self.check_inner(cid, c, args, env);
        self.leave();
        r.map(Value::Bool)
    }

    fn check_inner(&self, cid: CheckId, c: &CheckDef, args: &[Value], env: &Env) -> R<bool> {
        for h in &c.forbids {
            if self.holds_in(&h.when, h.slots, args, env.you, env.self_obj)? {
                return Ok(false);
            }
        }
        if self.lasting_holds(cid, true, args)? {
            return Ok(false);
        }
        let hooks = self.object_hooks(cid)?;
        for (src, h, forbid) in &hooks {
            if *forbid && self.holds_in(&h.when, h.slots, args, self.controller(*src), Some(*src))? {
                return Ok(false);
            }
        }
        if self.holds_in(&c.func.body, c.func.slots, args, env.you, env.self_obj)? {
            return Ok(true);
        }
        for h in &c.permits {
            if self.holds_in(&h.when, h.slots, args, env.you, env.self_obj)? {
                return Ok(true);
            }
        }
        if self.lasting_holds(cid, false, args)? {
            return Ok(true);
        }
        for (src, h, forbid) in &hooks {
            if !*forbid && self.holds_in(&h.when, h.slots, args, self.controller(*src), Some(*src))? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether a lasting forbid (or permit) an effect made answers this check for these arguments:
    /// its condition read with the names of the code that made it, the arguments in its parameters.
    fn lasting_holds(&self, cid: CheckId, forbid: bool, args: &[Value]) -> R<bool> {
        for l in &self.state.lasting {
            let Some(d) = self.game.lasting.get(l.def as usize) else { continue };
            if d.check != cid || d.forbid != forbid {
                continue;
            }
            let mut slots = l.slots.clone();
            for (s, v) in d.params.iter().zip(args) {
                let i = *s as usize;
                if slots.len() <= i {
                    slots.resize(i + 1, Value::None);
                }
                if let Some(x) = slots.get_mut(i) {
                    *x = v.clone();
                }
            }
            let mut env = Env { slots, you: l.you, self_obj: l.self_obj, rec: super::state::NO_CALL };
            if self.truth(&d.when, &mut env)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Permits and forbids printed on objects whose abilities are in effect.
    fn object_hooks(&self, cid: CheckId) -> R<Vec<(ObjId, &'a HookDef, bool)>> {
        let mut out = Vec::new();
        let any = self.game.objects_hook.check(cid);
        for (id, def) in self.active_passives(any, |d| d.permits.iter().chain(d.forbids.iter()).any(|h| h.check == cid))? {
            out.extend(def.forbids.iter().filter(|h| h.check == cid).map(|h| (id, h, true)));
            out.extend(def.permits.iter().filter(|h| h.check == cid).map(|h| (id, h, false)));
        }
        Ok(out)
    }

    pub fn controller(&self, o: ObjId) -> Option<Seat> {
        self.state.obj(o).map(|x| x.controller)
    }

    /// Whether a procedure's `requires` holds for these arguments.
    pub fn can_proc(&self, pid: ProcId, args: &[Value], env: &Env, span: Span) -> R<Value> {
        let p = self.game.proc_def(pid).ok_or_else(|| err(span, "no such procedure"))?;
        match &p.requires {
            None => Ok(Value::Bool(true)),
            Some(req) => {
                self.enter(span)?;
                let r = self.holds_in(req, p.slots, args, env.you, env.self_obj);
                self.leave();
                r.map(Value::Bool)
            }
        }
    }

    fn binary(&self, op: BinOp, l: &Ex, r: &Ex, env: &mut Env, span: Span) -> R<Value> {
        match op {
            BinOp::And => return Ok(Value::Bool(self.truth(l, env)? && self.truth(r, env)?)),
            BinOp::Or => return Ok(Value::Bool(self.truth(l, env)? || self.truth(r, env)?)),
            _ => {}
        }
        let a = self.eval(l, env)?;
        let b = self.eval(r, env)?;
        let overflow = || overflow(span);
        Ok(match op {
            BinOp::Eq => Value::Bool(a == b),
            BinOp::Ne => Value::Bool(a != b),
            BinOp::In => Value::Bool(self.contains(&b, &a, r.span)?),
            BinOp::NotIn => Value::Bool(!self.contains(&b, &a, r.span)?),
            BinOp::Has => Value::Bool(self.contains(&a, &b, l.span)?),
            BinOp::Add => match (a, b) {
                (Value::Int(x), Value::Int(y)) => Value::Int(x.checked_add(y).ok_or_else(overflow)?),
                (Value::Text(x), y) => {
                    let mut s = x.to_string();
                    self.push_label(&mut s, &y, span)?;
                    self.charge(s.len(), span)?;
                    Value::text(s)
                }
                (a @ Value::Amount(_), b @ (Value::Amount(_) | Value::None)) | (a @ Value::None, b @ Value::Amount(_)) => {
                    super::modifiers::apply(a, crate::syntax::ast::ModifyOp::Add, b, span)?
                }
                (x @ (Value::List(_) | Value::Zone(_)), y @ (Value::List(_) | Value::Zone(_) | Value::None)) => {
                    let mut v = self.as_list(x, l.span)?.as_ref().clone();
                    v.extend(self.as_list(y, r.span)?.iter().cloned());
                    self.sized(v, span)?
                }
                (x, _) => return Err(self.type_err(l.span, "numbers, texts or lists", &x)),
            },
            BinOp::Sub if matches!(a, Value::Amount(_)) || matches!(b, Value::Amount(_)) => {
                super::modifiers::apply(a, crate::syntax::ast::ModifyOp::Sub, b, span)?
            }
            _ => {
                let x = match a {
                    Value::Int(i) => i,
                    other => return Err(self.type_err(l.span, "a number", &other)),
                };
                let y = match b {
                    Value::Int(i) => i,
                    other => return Err(self.type_err(r.span, "a number", &other)),
                };
                match op {
                    BinOp::Lt => Value::Bool(x < y),
                    BinOp::Le => Value::Bool(x <= y),
                    BinOp::Gt => Value::Bool(x > y),
                    BinOp::Ge => Value::Bool(x >= y),
                    BinOp::Sub => Value::Int(x.checked_sub(y).ok_or_else(overflow)?),
                    BinOp::Mul => Value::Int(x.checked_mul(y).ok_or_else(overflow)?),
                    // `checked_div` also refuses the smallest number divided by -1.
                    BinOp::Div => {
                        Value::Int(x.checked_div(y).ok_or_else(|| if y == 0 { err(r.span, "division by zero") } else { overflow() })?)
                    }
                    BinOp::Rem => {
                        Value::Int(x.checked_rem(y).ok_or_else(|| if y == 0 { err(r.span, "division by zero") } else { overflow() })?)
                    }
                    _ => return Err(err(span, "internal: operator")),
                }
            }
        })
    }

    pub fn sized(&self, v: Vec<Value>, span: Span) -> R<Value> {
        if v.len() > SIZE_BUDGET {
            return Err(err(span, format!("size budget exceeded: a list of more than {SIZE_BUDGET} items")));
        }
        self.charge(v.len() * std::mem::size_of::<Value>(), span)?;
        Ok(Value::list(v))
    }

    /// `item in container`: list membership, or an object directly in a zone.
    fn contains(&self, container: &Value, item: &Value, span: Span) -> R<bool> {
        match container {
            Value::List(l) => {
                self.work(l.len(), span)?;
                Ok(l.contains(item))
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

    pub fn in_zone(&self, o: ObjId, z: ZoneRef) -> bool {
        match self.state.obj(o).map(|x| x.place) {
            Some(Place::Zone(at)) => at.zone == z.zone && (z.owner.is_none() || at.owner == z.owner),
            _ => false,
        }
    }

    fn obj_prop(&self, o: ObjId, prop: ObjProp, span: Span) -> R<Value> {
        let ob = self.state.obj(o).ok_or_else(|| err(span, format!("no object #{o}")))?;
        Ok(match prop {
            ObjProp::Owner => Value::Player(ob.owner),
            ObjProp::Controller => Value::Player(ob.controller),
            ObjProp::Zone => self.state.zone_of(o).map(Value::Zone).unwrap_or_default(),
            ObjProp::FaceUp => Value::Bool(ob.face_up),
            ObjProp::Name => Value::text(self.obj_name(o)),
            ObjProp::Def => Value::Def(ob.def),
            ObjProp::Under => Value::list(ob.under.iter().map(|u| Value::Obj(*u)).collect()),
            ObjProp::Above => match ob.place {
                Place::Under(h) => Value::Obj(h),
                _ => Value::None,
            },
            ObjProp::Top => {
                let mut cur = o;
                for _ in 0..64 {
                    match self.state.obj(cur).map(|x| x.place) {
                        Some(Place::Under(h)) => cur = h,
                        _ => break,
                    }
                }
                Value::Obj(cur)
            }
            ObjProp::Id => Value::Int(i64::from(o)),
        })
    }

    pub fn def_field(&self, d: DefId, f: Sym, span: Span) -> R<Value> {
        let def = self.game.def(d).ok_or_else(|| err(span, "no such definition"))?;
        if self.game.sym(f) == "name" {
            return Ok(Value::text(&def.name));
        }
        let kind = self.game.kind(def.kind).ok_or_else(|| err(span, "no such kind"))?;
        let idx = kind.field(f).ok_or_else(|| err(span, format!("`{}` has no field `{}`", def.name, self.game.sym(f))))?;
        Ok(def.fields.get(idx).cloned().flatten().or_else(|| kind.fields.get(idx).map(|fd| fd.default.clone())).unwrap_or_default())
    }

    fn dynamic_field(&self, v: Value, f: Sym, span: Span) -> R<Value> {
        let name = self.game.sym(f);
        match v {
            Value::Obj(o) => {
                if let Some((_, p)) = ObjProp::ALL.iter().find(|(n, _)| *n == name) {
                    return self.obj_prop(o, *p, span);
                }
                self.read_field(o, f, span)
            }
            Value::Def(d) => self.def_field(d, f, span),
            Value::Player(p) => {
                if let Some(i) = self.game.player_fields.iter().position(|x| x.name == name) {
                    let ps = self.state.players.get(p as usize).ok_or_else(|| err(span, "no such player"))?;
                    return Ok(ps.fields.get(i).cloned().unwrap_or_default());
                }
                if let Some(z) = self.game.zones.iter().position(|x| x.name == name) {
                    return Ok(Value::Zone(ZoneRef { zone: u16::try_from(z).unwrap_or(0), owner: Some(p) }));
                }
                Err(err(span, format!("players have no field `{name}`")))
            }
            Value::Zone(z) if name == "owner" => Ok(z.owner.map(Value::Player).unwrap_or_default()),
            Value::Ability(o, i) if name == "label" => Ok(Value::text(self.ability_label(o, i))),
            Value::Ability(o, _) if name == "source" => Ok(Value::Obj(o)),
            Value::None => Err(err(span, format!("cannot read `{name}` of none"))),
            other => Err(err(span, format!("{} `{}` has no field `{name}`", other.type_name(), self.label(&other)))),
        }
    }

    /// Call a lambda argument with the given values.
    pub fn call_lambda(&self, v: &Value, args: &[Value], env: &mut Env, span: Span) -> R<Value> {
        let Value::Lambda(id) = v else { return Err(self.type_err(span, "a function `|x| ..`", v)) };
        let l = self.game.lambdas.get(*id as usize).ok_or_else(|| err(span, "no such function"))?;
        for (slot, a) in l.params.iter().zip(args) {
            set_slot(env, *slot, a.clone());
        }
        self.eval(&l.body, env)
    }

    fn builtin(&self, b: Builtin, args: &[Ex], env: &mut Env, span: Span) -> R<Value> {
        // One or two arguments (most calls) are evaluated into an array on the stack.
        match args {
            [x] => {
                let vals = [self.eval(x, env)?];
                return self.builtin_with(b, args, &vals, env, span);
            }
            [x, y] => {
                let vals = [self.eval(x, env)?, self.eval(y, env)?];
                return self.builtin_with(b, args, &vals, env, span);
            }
            _ => {}
        }
        let mut vals = self.buf(args.len());
        for a in args {
            vals.push(self.eval(a, env)?);
        }
        let r = self.builtin_with(b, args, &vals, env, span);
        self.give(vals);
        r
    }

    fn builtin_with(&self, b: Builtin, args: &[Ex], vals: &[Value], env: &mut Env, span: Span) -> R<Value> {
        let arg = |i: usize| vals.get(i).cloned().unwrap_or_default();
        let arg_span = |i: usize| args.get(i).map(|a| a.span).unwrap_or(span);
        // A builtin walks its list arguments: one step per item.
        let list = |i: usize| {
            let l = self.as_list(arg(i), arg_span(i))?;
            self.work(l.len(), span)?;
            Ok(l)
        };
        let int = |i: usize| match arg(i) {
            Value::Int(x) => Ok(x),
            other => Err(self.type_err(arg_span(i), "a number", &other)),
        };
        let player = |i: usize| match arg(i) {
            Value::Player(p) => Ok(p),
            other => Err(self.type_err(arg_span(i), "a player", &other)),
        };
        let ints = |i: usize| -> R<Vec<i64>> {
            list(i)?
                .iter()
                .map(|v| match v {
                    Value::Int(x) => Ok(*x),
                    other => Err(self.type_err(arg_span(i), "a list of numbers", other)),
                })
                .collect()
        };
        let players_v = |seats: Vec<Seat>| Value::list(seats.into_iter().map(Value::Player).collect());
        use super::geometry as geo;
        let pose = |i: usize| match arg(i) {
            Value::Pose(x, y, h) => Ok(geo::Pose { x, y, h }),
            other => Err(self.type_err(arg_span(i), "a pose", &other)),
        };
        let shape = |i: usize| -> R<Vec<geo::P>> {
            list(i)?
                .iter()
                .map(|v| match v {
                    Value::Pose(x, y, _) => Ok(geo::P { x: *x as f64, y: *y as f64 }),
                    other => Err(self.type_err(arg_span(i), "a shape (a list of points)", other)),
                })
                .collect()
        };
        let pv = |p: geo::Pose| Value::Pose(p.x, p.y, p.h);
        let ptv = |p: geo::P| {
            let q = geo::to_pose(p);
            Value::Pose(q.x, q.y, 0)
        };
        let shape_v = |s: Vec<geo::P>| Value::list(s.into_iter().map(ptv).collect());
        let scaled = |i: usize, k: i64| int(i)?.checked_mul(k).map(Value::Int).ok_or_else(|| overflow(span));
        Ok(match b {
            Builtin::Count => match arg(0) {
                Value::Zone(z) => Value::Int(self.state.zone_objects(self.game, z).len() as i64),
                _ => Value::Int(list(0)?.len() as i64),
            },
            Builtin::Sum => Value::Int(ints(0)?.iter().try_fold(0i64, |a, x| a.checked_add(*x)).ok_or_else(|| overflow(span))?),
            Builtin::Min => ints(0)?.into_iter().min().map(Value::Int).unwrap_or_default(),
            Builtin::Max => ints(0)?.into_iter().max().map(Value::Int).unwrap_or_default(),
            Builtin::First | Builtin::Top => match arg(0) {
                Value::Zone(z) if let Some(objs) = self.one_zone(z) => objs.first().map(|o| Value::Obj(*o)).unwrap_or_default(),
                _ => list(0)?.first().cloned().unwrap_or_default(),
            },
            Builtin::Last | Builtin::Bottom => list(0)?.last().cloned().unwrap_or_default(),
            Builtin::Reverse => Value::list(list(0)?.iter().rev().cloned().collect()),
            Builtin::Distinct => {
                let mut out: Vec<Value> = Vec::new();
                for v in list(0)?.iter() {
                    self.work(out.len(), span)?;
                    if !out.contains(v) {
                        out.push(v.clone());
                    }
                }
                Value::list(out)
            }
            Builtin::IndexOf => Value::Int(list(0)?.iter().position(|x| *x == arg(1)).map(|i| i as i64).unwrap_or(-1)),
            Builtin::Rotate => {
                let mut v = list(0)?.as_ref().clone();
                if !v.is_empty() {
                    let n = int(1)?.rem_euclid(v.len() as i64) as usize;
                    v.rotate_left(n);
                }
                Value::list(v)
            }
            Builtin::Take => Value::list(list(0)?.iter().take(int(1)?.max(0) as usize).cloned().collect()),
            Builtin::Drop => Value::list(list(0)?.iter().skip(int(1)?.max(0) as usize).cloned().collect()),
            Builtin::Concat => {
                let mut v = list(0)?.as_ref().clone();
                v.extend(list(1)?.iter().cloned());
                self.sized(v, span)?
            }
            Builtin::Without => {
                let remove = match arg(1) {
                    x @ (Value::List(_) | Value::Zone(_)) => self.as_list(x, arg_span(1))?.as_ref().clone(),
                    x => vec![x],
                };
                let from = list(0)?;
                self.work(from.len().saturating_mul(remove.len()), span)?;
                Value::list(from.iter().filter(|x| !remove.contains(x)).cloned().collect())
            }
            Builtin::CountOf => Value::Int(list(0)?.iter().filter(|x| **x == arg(1)).count() as i64),
            Builtin::SortBy | Builtin::Lowest | Builtin::Highest => {
                let items = list(0)?;
                let f = arg(1);
                let mut keyed = Vec::with_capacity(items.len());
                for it in items.iter() {
                    let k = match self.call_lambda(&f, std::slice::from_ref(it), env, arg_span(1))? {
                        Value::Int(k) => k,
                        other => return Err(self.type_err(arg_span(1), "a number as the key", &other)),
                    };
                    keyed.push((k, it.clone()));
                }
                match b {
                    Builtin::SortBy => {
                        keyed.sort_by_key(|(k, _)| *k);
                        Value::list(keyed.into_iter().map(|(_, v)| v).collect())
                    }
                    _ => {
                        let best =
                            if b == Builtin::Lowest { keyed.iter().map(|(k, _)| *k).min() } else { keyed.iter().map(|(k, _)| *k).max() };
                        Value::list(keyed.into_iter().filter(|(k, _)| Some(*k) == best).map(|(_, v)| v).collect())
                    }
                }
            }
            Builtin::Players => players_v(self.state.active_seats()),
            Builtin::AllPlayers => players_v((0..self.state.player_count()).map(|i| Seat::try_from(i).unwrap_or(0)).collect()),
            Builtin::Opponents => {
                let p = player(0)?;
                players_v(self.turn_order(p).into_iter().filter(|x| *x != p).collect())
            }
            Builtin::NextPlayer => {
                let p = player(0)?;
                self.next_active(p).map(Value::Player).unwrap_or_default()
            }
            Builtin::Seat => Value::Int(i64::from(player(0)?) + 1),
            Builtin::PlayerCount => Value::Int(self.state.active_seats().len() as i64),
            Builtin::IsOut => Value::Bool(self.state.players.get(player(0)? as usize).is_none_or(|p| p.out)),
            Builtin::TurnOrder => players_v(self.turn_order(player(0)?)),
            Builtin::Abilities | Builtin::Ability => {
                let slot = match arg(1) {
                    Value::Text(t) => t,
                    other => return Err(self.type_err(arg_span(1), "a slot name in quotes", &other)),
                };
                let abilities = match arg(0) {
                    Value::Obj(o) => self.abilities(o, &slot)?,
                    Value::None => vec![],
                    other => return Err(self.type_err(arg_span(0), "an object", &other)),
                };
                if b == Builtin::Ability { abilities.into_iter().next().unwrap_or_default() } else { Value::list(abilities) }
            }
            Builtin::CanUse => match arg(0) {
                Value::Ability(o, i) => {
                    let by = match arg(1) {
                        Value::Player(p) => Some(p),
                        _ => None,
                    };
                    Value::Bool(self.can_use(o, i, by, span)?)
                }
                Value::None => Value::Bool(false),
                other => return Err(self.type_err(arg_span(0), "an ability", &other)),
            },
            Builtin::DistinctMatch => {
                let pool = list(0)?;
                let reqs = list(1)?;
                let f = arg(2);
                if pool.len().saturating_mul(reqs.len()) > 1_000_000 {
                    return Err(err(span, "size budget exceeded: matching more than a million item and requirement pairs"));
                }
                let mut ok = vec![vec![false; pool.len()]; reqs.len()];
                for (ri, r) in reqs.iter().enumerate() {
                    for (pi, p) in pool.iter().enumerate() {
                        let v = self.call_lambda(&f, &[p.clone(), r.clone()], env, arg_span(2))?;
                        if let Some(cell) = ok.get_mut(ri).and_then(|row| row.get_mut(pi)) {
                            *cell = v == Value::Bool(true);
                        }
                    }
                }
                Value::Bool(bipartite_complete(&ok, pool.len()))
            }
            Builtin::Qty => match arg(0) {
                Value::Amount(a) => Value::Int(a.iter().try_fold(0i64, |acc, (n, _)| acc.checked_add(*n)).ok_or_else(|| overflow(span))?),
                Value::None => Value::Int(0),
                other => return Err(self.type_err(arg_span(0), "an amount", &other)),
            },
            Builtin::AmountOf => match (arg(0), arg(1)) {
                (Value::Int(n), Value::Sym(k)) if n >= 0 => super::value::amount(vec![(n, k)]),
                (Value::Int(n), Value::Sym(_)) => {
                    return Err(err(arg_span(0), format!("an amount cannot be negative, like {n}")).with_help("write 0 or more"));
                }
                (other, _) => return Err(self.type_err(arg_span(0), "a number and a kind", &other)),
            },
            Builtin::Kinds => match arg(0) {
                Value::Amount(a) => Value::list(a.iter().map(|(_, s)| Value::Sym(*s)).collect()),
                Value::None => Value::list(vec![]),
                other => return Err(self.type_err(arg_span(0), "an amount", &other)),
            },
            Builtin::QtyOf => match (arg(0), arg(1)) {
                (Value::Amount(a), Value::Sym(s)) => Value::Int(
                    a.iter().filter(|(_, k)| *k == s).try_fold(0i64, |acc, (n, _)| acc.checked_add(*n)).ok_or_else(|| overflow(span))?,
                ),
                (Value::None, _) => Value::Int(0),
                (other, _) => return Err(self.type_err(arg_span(0), "an amount and a kind", &other)),
            },
            Builtin::Text => {
                let mut s = String::new();
                self.push_label(&mut s, &arg(0), span)?;
                self.charge(s.len(), span)?;
                Value::text(s)
            }
            Builtin::Decklist => {
                let p = player(0)?;
                let section = match arg(1) {
                    Value::Text(t) => t,
                    other => return Err(self.type_err(arg_span(1), "a section name in quotes", &other)),
                };
                let defs = self.state.decklists.get(p as usize).and_then(|d| d.get(section.as_ref())).cloned().unwrap_or_default();
                Value::list(defs.into_iter().map(Value::Def).collect())
            }
            Builtin::Abs => Value::Int(int(0)?.checked_abs().ok_or_else(|| overflow(span))?),
            Builtin::Clamp => {
                let (x, lo, hi) = (int(0)?, int(1)?, int(2)?);
                Value::Int(x.max(lo).min(hi.max(lo)))
            }
            Builtin::Objects => Value::List(list(0)?),
            Builtin::Active => match arg(0) {
                Value::Obj(o) => Value::Bool(self.is_active(o)?),
                _ => Value::Bool(false),
            },
            Builtin::Definitions => {
                let name = match arg(0) {
                    Value::Text(t) => t,
                    other => return Err(self.type_err(arg_span(0), "a kind's name in quotes", &other)),
                };
                let kind = self.game.kinds.iter().position(|k| k.name == name.as_ref());
                Value::list(
                    self.game
                        .defs
                        .iter()
                        .enumerate()
                        .filter(|(_, d)| Some(d.kind as usize) == kind)
                        .map(|(i, _)| Value::Def(u32::try_from(i).unwrap_or(0)))
                        .collect(),
                )
            }
            Builtin::Range => {
                let (lo, hi) = (int(0)?, int(1)?);
                if hi.saturating_sub(lo) >= SIZE_BUDGET as i64 {
                    return Err(err(span, format!("size budget exceeded: a range of more than {SIZE_BUDGET} numbers")));
                }
                self.sized((lo..=hi).map(Value::Int).collect(), span)?
            }
            Builtin::Mm => scaled(0, 1_000)?,
            Builtin::Cm => scaled(0, 10_000)?,
            Builtin::Deg => scaled(0, 1_000)?,
            Builtin::Point => Value::Pose(int(0)?, int(1)?, 0),
            Builtin::PoseOf => Value::Pose(int(0)?, int(1)?, geo::norm_angle(int(2)?)),
            Builtin::PoseX => Value::Int(pose(0)?.x),
            Builtin::PoseY => Value::Int(pose(0)?.y),
            Builtin::HeadingOf => Value::Int(pose(0)?.h),
            Builtin::Step => pv(geo::step(pose(0)?, int(1)?, int(2)?, int(3)?)),
            Builtin::Forward => pv(geo::step(pose(0)?, int(1)?, 0, 0)),
            Builtin::Turned => pv(geo::step(pose(0)?, 0, 0, int(1)?)),
            Builtin::Place => shape_v(geo::place(&shape(0)?, pose(1)?)),
            Builtin::Distance => Value::Int(geo::round_len(geo::dist(pose(0)?.p(), pose(1)?.p()))),
            Builtin::Bearing => Value::Int(geo::bearing(pose(0)?.p(), pose(1)?.p())),
            Builtin::AngleDiff => Value::Int(geo::angle_diff(int(0)?, int(1)?)),
            Builtin::PointIn => Value::Bool(geo::point_in(pose(0)?.p(), &shape(1)?)),
            Builtin::Overlaps => Value::Bool(geo::overlaps(&shape(0)?, &shape(1)?)),
            Builtin::Crosses => Value::Bool(geo::crosses(pose(0)?.p(), pose(1)?.p(), &shape(2)?)),
            Builtin::FirstEdge => match geo::first_edge(pose(0)?.p(), pose(1)?.p(), &shape(2)?) {
                Some(i) => Value::Int(i64::try_from(i).unwrap_or(0)),
                None => Value::None,
            },
            Builtin::Within => Value::Bool(geo::within(&shape(0)?, &shape(1)?)),
            Builtin::InArc => Value::Bool(geo::in_arc(pose(0)?, int(1)?, pose(2)?.p())),
            Builtin::NearestInArc => geo::nearest_in_arc(pose(0)?, int(1)?, &shape(2)?).map(ptv).unwrap_or_default(),
            Builtin::PointsInArc => shape_v(geo::points_in_arc(pose(0)?, int(1)?, &shape(2)?, int(3)? as f64)),
            Builtin::DistanceTo => Value::Int(geo::round_len(geo::distance_to(pose(0)?.p(), &shape(1)?))),
            Builtin::ShapeDistance => Value::Int(geo::round_len(geo::shape_distance(&shape(0)?, &shape(1)?))),
            Builtin::Regular => {
                let n = usize::try_from(int(0)?).unwrap_or(3);
                shape_v(geo::regular(n, int(1)? as f64))
            }
            Builtin::Rect => {
                let (l, w) = (int(0)? as f64 / 2.0, int(1)? as f64 / 2.0);
                shape_v(vec![geo::P { x: l, y: w }, geo::P { x: -l, y: w }, geo::P { x: -l, y: -w }, geo::P { x: l, y: -w }])
            }
            Builtin::Nth => {
                let i = int(1)?;
                if let Value::Zone(z) = arg(0)
                    && let Some(objs) = self.one_zone(z)
                {
                    return Ok(usize::try_from(i).ok().and_then(|i| objs.get(i)).map(|o| Value::Obj(*o)).unwrap_or_default());
                }
                let l = list(0)?;
                usize::try_from(i).ok().and_then(|i| l.get(i).cloned()).unwrap_or_default()
            }
            Builtin::Flatten => {
                let mut out = Vec::new();
                for inner in list(0)?.iter() {
                    out.extend(self.as_list(inner.clone(), arg_span(0))?.iter().cloned());
                }
                self.sized(out, span)?
            }
            Builtin::Pile => match arg(0) {
                Value::Obj(o) => {
                    let mut v = vec![Value::Obj(o)];
                    if let Some(ob) = self.state.obj(o) {
                        v.extend(ob.under.iter().map(|u| Value::Obj(*u)));
                    }
                    Value::list(v)
                }
                _ => Value::list(vec![]),
            },
        })
    }

    /// Players still in, starting at `first` (or the next one in if `first` is out), going left.
    pub fn turn_order(&self, first: Seat) -> Vec<Seat> {
        let n = self.state.player_count();
        let mut out = Vec::new();
        for k in 0..n {
            let s = (first as usize + k) % n.max(1);
            if self.state.players.get(s).is_some_and(|p| !p.out) {
                out.push(Seat::try_from(s).unwrap_or(0));
            }
        }
        out
    }

    pub fn next_active(&self, p: Seat) -> Option<Seat> {
        let n = self.state.player_count();
        (1..=n)
            .map(|k| (p as usize + k) % n.max(1))
            .find(|s| self.state.players.get(*s).is_some_and(|x| !x.out))
            .map(|s| Seat::try_from(s).unwrap_or(0))
    }

    /// The abilities an object has in a slot, if its abilities are in effect.
    pub fn abilities(&self, o: ObjId, slot: &str) -> R<Vec<Value>> {
        let Some(ob) = self.state.obj(o) else { return Ok(vec![]) };
        // Only the top object of a pile acts: objects under another have no abilities.
        if matches!(ob.place, super::state::Place::Under(_)) || self.is_blank(o)? {
            return Ok(vec![]);
        }
        let Some(def) = self.game.def(ob.def) else { return Ok(vec![]) };
        Ok(def
            .abilities
            .iter()
            .enumerate()
            .filter(|(_, a)| a.slot == slot)
            .map(|(i, _)| Value::Ability(o, u16::try_from(i).unwrap_or(0)))
            .collect())
    }

    /// Costs payable, requirement met, and every target has a legal choice.
    pub fn can_use(&self, o: ObjId, i: u16, by: Option<Seat>, span: Span) -> R<bool> {
        let Some(ob) = self.state.obj(o) else { return Ok(false) };
        let Some(a) = self.game.def(ob.def).and_then(|d| d.abilities.get(i as usize)) else { return Ok(false) };
        let mut env = new_env(a.slots, vec![], Some(by.unwrap_or(ob.controller)), Some(o));
        if let Some(req) = &a.requires
            && !self.truth(req, &mut env)?
        {
            return Ok(false);
        }
        for c in &a.costs {
            let args = self.eval_args(&c.args, &mut env)?;
            if let CallTarget::Proc(p) = c.target
                && self.can_proc(p, &args, &env, span)? != Value::Bool(true)
            {
                return Ok(false);
            }
        }
        for t in &a.targets {
            // Later targets may depend on earlier ones: assume the first legal choice.
            match self.target_options(t, &mut env)?.into_iter().next() {
                None => return Ok(false),
                Some(first) => set_slot(&mut env, t.slot, first),
            }
        }
        Ok(true)
    }

    pub fn target_options(&self, t: &TargetDef, env: &mut Env) -> R<Vec<Value>> {
        let items = self.list_of(&t.from, env)?;
        let mut out = Vec::new();
        for it in items.iter() {
            match &t.filter {
                None => out.push(it.clone()),
                Some(f) => {
                    set_slot(env, t.slot, it.clone());
                    if self.truth(f, env)? {
                        out.push(it.clone());
                    }
                }
            }
        }
        Ok(out)
    }
}

pub fn set_slot(env: &mut Env, slot: Slot, v: Value) {
    let i = slot as usize;
    if env.slots.len() <= i {
        env.slots.resize(i + 1, Value::None);
    }
    if let Some(s) = env.slots.get_mut(i) {
        *s = v;
    }
}

/// What a quantifier or comprehension walks over: a list, or a zone's objects in place.
pub enum Items<'a> {
    List(Arc<Vec<Value>>),
    Objs(&'a [ObjId]),
    Owned(Vec<ObjId>),
}

impl Items<'_> {
    pub fn len(&self) -> usize {
        match self {
            Items::List(l) => l.len(),
            Items::Objs(o) => o.len(),
            Items::Owned(o) => o.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: usize) -> Value {
        match self {
            Items::List(l) => l.get(i).cloned().unwrap_or_default(),
            Items::Objs(o) => o.get(i).map(|x| Value::Obj(*x)).unwrap_or_default(),
            Items::Owned(o) => o.get(i).map(|x| Value::Obj(*x)).unwrap_or_default(),
        }
    }
}

pub fn new_env(slots: u16, args: Vec<Value>, you: Option<Seat>, self_obj: Option<ObjId>) -> Env {
    let mut v = args;
    v.resize((slots as usize).max(v.len()), Value::None);
    Env { slots: v, you, self_obj, rec: super::state::NO_CALL }
}

/// Whether every row (requirement) can be matched to a distinct column (item).
fn bipartite_complete(ok: &[Vec<bool>], cols: usize) -> bool {
    let mut owner: Vec<Option<usize>> = vec![None; cols];
    fn augment(r: usize, ok: &[Vec<bool>], seen: &mut [bool], owner: &mut [Option<usize>]) -> bool {
        let Some(row) = ok.get(r) else { return false };
        for (c, &can) in row.iter().enumerate() {
            if !can || seen.get(c).copied().unwrap_or(true) {
                continue;
            }
            if let Some(s) = seen.get_mut(c) {
                *s = true;
            }
            let prev = owner.get(c).copied().flatten();
            if prev.is_none_or(|p| stacker::maybe_grow(32 * 1024, 1024 * 1024, || augment(p, ok, seen, owner))) {
                if let Some(slot) = owner.get_mut(c) {
                    *slot = Some(r);
                }
                return true;
            }
        }
        false
    }
    (0..ok.len()).all(|r| {
        let mut seen = vec![false; cols];
        augment(r, ok, &mut seen, &mut owner)
    })
}

#[cfg(test)]
mod tests {
    use super::bipartite_complete;

    #[test]
    fn matching_counts_no_item_twice() {
        // One item fits both requirements: not enough.
        assert!(!bipartite_complete(&[vec![true], vec![true]], 1));
        // Item 0 fits both, item 1 fits only the first: a complete matching exists.
        assert!(bipartite_complete(&[vec![true, true], vec![true, false]], 2));
    }
}
