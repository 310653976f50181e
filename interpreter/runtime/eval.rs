//! Expression evaluation: one `match` over the compiled expression, helpers for the big arms.
//! Expressions read the state and never change it; a recursion budget stops runaway rules.

use super::RtError;
use super::RtResult;
use super::state::{Env, Place, State};
use arbiter_ir::operators::UnaryOperator;
use arbiter_ir::value::{ObjId, Seat, Value, ZoneRef};
use arbiter_ir::*;
use arbiter_syntax::span::Span;
use std::cell::Cell;
use std::sync::Arc;

pub use super::items::Items;
pub use super::memo::{CallMemo, FieldMemo, Memoised, Remembered, RememberedCall, Stamp};
use super::memo::{Memo, Stamps, memo_kept};

use arbiter_syntax::budgets::{DEPTH_BUDGET, EVAL_BUDGET};

pub struct Evaluator<'a> {
    pub game: &'a Game,
    pub state: &'a State,
    pub(super) depth: Cell<u32>,
    pub(super) steps: Cell<u64>,
    /// Reusable buffers and what evaluations worked out (see `Scratch`): the engine's, shared by
    /// every evaluation it makes, or this evaluation's own.
    scratch: Scratchpad<'a>,
    /// Which memo this evaluation may use (`Memo::version`): the state's version when memos are
    /// kept between evaluations (see `memo_kept`), else a number of its own.
    pub(super) memo_key: u64,
    /// Whether memos are kept between evaluations (`memo_kept`): then facts about one object that
    /// read little are remembered under that object's number (see `Memo`).
    pub(super) kept: bool,
    /// The engine's tracer, when it counts where the steps go by routine (a profile).
    pub(super) counting: Option<&'a dyn super::trace::Tracer>,
    /// Whether expressions with a fast form try it first (`runtime::fast`).
    pub(super) fast_tier: super::trace::FastTier,
    /// How many calls of functions that read objects the checker cannot place
    /// (`CallDeps::seen`) are being worked out, one inside another: while any is, each object
    /// whose facts are read, or which is passed to a function, goes into `Scratch::seen` (`saw`).
    pub(super) recording: Cell<u32>,
    /// Whether a global has been read, or a fact, call or check found remembered that may have
    /// read one, since the fact about one object or the kept call being worked out began
    /// (`reading_globals`, in memo.rs).
    pub(super) globals_read: Cell<bool>,
}

/// What evaluations leave for the next one (the engine keeps it between them): emptied value
/// vectors for reuse, and what they worked out about one version of a state.
pub type Pool = std::cell::RefCell<Scratch>;

enum Scratchpad<'a> {
    Own(Box<Pool>),
    Shared(&'a Pool),
}

#[derive(Default)]
pub struct Scratch {
    /// Emptied value vectors kept for reuse: function environments and argument lists are made
    /// and dropped at a high rate, and reusing their buffers saves an allocation each.
    vecs: Vec<Vec<Value>>,
    pub(super) memo: Memo,
    /// Evaluation steps since the engine last started advancing: the work budget
    /// (`WORK_BUDGET`), added as each evaluation ends.
    work: u64,
    /// Bytes of texts and lists the rules have built since the engine last started advancing:
    /// the memory budget (`MEMORY_BUDGET`).
    built: u64,
    /// `players()` (`None`) and `opponents(p)` (`Some(p)`), lists of seats many rules ask for, by
    /// what they depend on alone: how many players there are and which of them are out (a mask).
    seats: Vec<(usize, u128, Option<Seat>, Value)>,
    /// The objects the calls being recorded have read so far (see `Evaluator::recording`).
    seen: Vec<ObjId>,
    /// With the fast tier checked: how many fast answers were found the same as the walker's.
    pub(super) fast_agreed: u64,
    /// The items a fast form of a filter has gathered so far (`Op::Collect`; one runs at a time:
    /// no other fast form runs inside it).
    pub(super) collected: Vec<Value>,
}

impl Scratch {
    /// The work and memory budgets count what is done between two decisions: start them again.
    pub fn restart_budgets(&mut self) {
        self.work = 0;
        self.built = 0;
    }

    pub fn work(&self) -> u64 {
        self.work
    }
}

impl Drop for Evaluator<'_> {
    /// Every step counts toward the work between two decisions (`arbiter_syntax::budgets::WORK_BUDGET`), added
    /// when the evaluation ends (the engine checks it between statements).
    fn drop(&mut self) {
        let mut s = self.scratch().borrow_mut();
        s.work = s.work.saturating_add(self.steps.get());
        drop(s);
        if let Some(t) = self.counting {
            t.steps(self.steps.get());
        }
    }
}

/// The most characters of a value an error message shows.
const SHOWN_VALUE: usize = 200;

pub fn err(span: Span, message: impl Into<String>) -> RtError {
    RtError::new(message.into(), span)
}

/// Arithmetic whose result does not fit in 64 bits.
pub fn overflow(span: Span) -> RtError {
    err(span, "number overflow: the result does not fit in 64 bits").with_help(format!("numbers run from {} to {}", i64::MIN, i64::MAX))
}

impl<'a> Evaluator<'a> {
    pub fn new(game: &'a Game, state: &'a State) -> Self {
        Evaluator::with(game, state, Scratchpad::Own(Box::default()))
    }

    /// An evaluation that uses (and leaves) the engine's buffers and memo in `pool`.
    #[inline]
    pub fn pooled(game: &'a Game, state: &'a State, pool: &'a Pool) -> Self {
        Evaluator::with(game, state, Scratchpad::Shared(pool))
    }

    #[inline]
    fn with(game: &'a Game, state: &'a State, scratch: Scratchpad<'a>) -> Self {
        let kept = memo_kept(state);
        let memo_key = if kept { state.version } else { super::state::new_version() };
        Evaluator {
            game,
            state,
            depth: Cell::new(0),
            steps: Cell::new(0),
            scratch,
            memo_key,
            kept,
            counting: None,
            fast_tier: super::trace::FastTier::On,
            recording: Cell::new(0),
            globals_read: Cell::new(false),
        }
    }

    /// This evaluation remembers only what it works out itself.
    pub fn forgetful(mut self) -> Self {
        self.memo_key = super::state::new_version();
        self.kept = false;
        self
    }

    /// The evaluation steps this evaluation has taken so far.
    pub fn steps_taken(&self) -> u64 {
        self.steps.get()
    }

    /// Count bytes built (see `Scratch::built`); the total so far.
    pub(super) fn built(&self, bytes: u64) -> u64 {
        let mut s = self.scratch().borrow_mut();
        s.built = s.built.saturating_add(bytes);
        s.built
    }

    /// The stamp a fact about object `o` that reads `reads` is remembered under (see `Memo`).
    pub(super) fn stamp(&self, o: ObjId, reads: Reads) -> Stamp {
        super::memo::object_stamp(self.state, self.kept, self.memo_key, o, reads)
    }

    /// The memo this evaluation may use, emptied first if another evaluation's.
    pub(super) fn memo(&self) -> std::cell::RefMut<'_, Memo> {
        let key = self.memo_key;
        std::cell::RefMut::map(self.scratch().borrow_mut(), |s| s.memo.at(key))
    }

    /// What this evaluation may take from the memo now: each remembered call (routine,
    /// arguments, `you`, `self`, value), kept ones whose reads are unchanged among them, each
    /// field read through modifiers (object, field, value) and each object known blank or not. For
    /// the test that checks every remembered answer against a fresh evaluation (tests/memo.rs).
    pub fn remembered_now(&self) -> Remembered {
        self.memo().now(self.game, self.state, |o, reads| self.stamp(o, reads))
    }

    /// How many calls kept across versions hold for this version and were worked out at an
    /// earlier one: what remembering across versions saves here (for tests/memo.rs).
    pub fn kept_across_versions(&self) -> usize {
        self.memo().kept_earlier(self.game, self.state)
    }

    fn stamps(&self, deps: &CallDeps, args: &[Value], env: &Env) -> Option<Stamps> {
        super::memo::stamps(self.game, self.state, deps, args, env.you, env.self_obj)
    }

    pub(super) fn scratch(&self) -> &Pool {
        match &self.scratch {
            Scratchpad::Own(p) => p,
            Scratchpad::Shared(p) => p,
        }
    }

    /// Tell `counting` (a tracer that counts steps, or none) where the steps go, by routine.
    #[inline]
    pub fn profiled(mut self, counting: Option<&'a dyn super::trace::Tracer>) -> Self {
        self.counting = counting;
        self
    }

    /// Use the fast tier as `tier` says (see `Tracer::fast_tier`).
    #[inline]
    pub fn with_fast_tier(mut self, tier: super::trace::FastTier) -> Self {
        self.fast_tier = tier;
        self
    }

    /// Run `f` as the routine `what name`, its steps counted when a tracer counts them.
    pub(super) fn as_routine<T>(&self, what: &str, name: &str, f: impl FnOnce() -> T) -> T {
        let Some(t) = self.counting else { return f() };
        t.routine_entered();
        let s0 = self.steps.get();
        let r = f();
        t.routine_left(what, name, self.steps.get() - s0);
        r
    }

    /// Run `f` one call deeper: a function, check or `requires` called, or a field read through
    /// modifiers. The depth budget stops a rule that calls itself without end, and every call
    /// makes sure the thread's stack has room for the expression it runs: one function body nests
    /// at most `EXPR_NESTING` expressions (a level takes well under 4 KiB), so only calls can
    /// nest without a bound.
    pub fn nested<T>(&self, span: Span, f: impl FnOnce() -> RtResult<T>) -> RtResult<T> {
        self.deeper(span, || stacker::maybe_grow(1024 * 1024, 8 * 1024 * 1024, f))
    }

    /// Run `f` one level deeper, under the depth budget.
    #[inline]
    fn deeper<T>(&self, span: Span, f: impl FnOnce() -> RtResult<T>) -> RtResult<T> {
        let d = self.depth.get() + 1;
        if d > DEPTH_BUDGET {
            return Err(err(span, format!("call depth budget exceeded: more than {DEPTH_BUDGET} nested calls or field reads"))
                .with_help("a function, check or modifier probably refers to itself without end"));
        }
        self.depth.set(d);
        let r = f();
        self.depth.set(d - 1);
        r
    }

    #[inline]
    pub fn eval(&self, e: &ExprIr, env: &mut Env) -> RtResult<Value> {
        // Reading a local or a literal takes no step of its own (it belongs to the expression
        // around it) and is answered here, without the budgets' bookkeeping.
        match &e.kind {
            ExprKindIr::Local(s) => Ok(env.slots.get(*s as usize).cloned().unwrap_or_default()),
            ExprKindIr::Lit(v) => Ok(v.clone()),
            ExprKindIr::Const(i) => Ok(self.state.consts.get(*i as usize).cloned().unwrap_or_default()),
            ExprKindIr::Global(i) => {
                self.globals_read.set(true);
                Ok(self.state.globals.get(*i as usize).cloned().unwrap_or_default())
            }
            // A fast form counts the steps of the expression it stands for, and none of its own.
            ExprKindIr::Fast(f) => self.fast(f, env),
            _ => self.eval_step(e, env),
        }
    }

    /// Kept out of line: `eval` itself stays small, so that reading a local or a literal costs
    /// no more than a match.
    #[inline(never)]
    fn eval_step(&self, e: &ExprIr, env: &mut Env) -> RtResult<Value> {
        self.step(e, |evaluator| evaluator.eval_inner(e, env))
    }

    /// One evaluation step for `e`, counted toward the budget.
    #[inline]
    pub(super) fn step<T>(&self, e: &ExprIr, f: impl FnOnce(&Self) -> RtResult<T>) -> RtResult<T> {
        let steps = self.steps.get() + 1;
        if steps > EVAL_BUDGET {
            return Err(err(e.span, format!("step budget exceeded: one evaluation took more than {EVAL_BUDGET} steps"))
                .with_help("a condition or function does too much work, or loops over lists that keep growing"));
        }
        self.steps.set(steps);
        f(self)
    }

    fn eval_inner(&self, e: &ExprIr, env: &mut Env) -> RtResult<Value> {
        match &e.kind {
            ExprKindIr::Lit(v) => Ok(v.clone()),
            ExprKindIr::Local(s) => Ok(env.slots.get(*s as usize).cloned().unwrap_or_default()),
            ExprKindIr::Global(i) => {
                self.globals_read.set(true);
                Ok(self.state.globals.get(*i as usize).cloned().unwrap_or_default())
            }
            ExprKindIr::Const(i) => Ok(self.state.consts.get(*i as usize).cloned().unwrap_or_default()),
            ExprKindIr::You => env.you.map(Value::Player).ok_or_else(|| err(e.span, "`you` has no value here")),
            ExprKindIr::SelfObj => env.self_obj.map(Value::Obj).ok_or_else(|| err(e.span, "`self` has no value here")),
            ExprKindIr::Str(pieces) => Ok(Value::text(self.interpolate(pieces, env, e.span)?)),
            ExprKindIr::PlayerField(b, i) => {
                let p = self.player(b, env)?;
                let ps = self.state.players.get(p as usize).ok_or_else(|| err(b.span, "no such player"))?;
                Ok(ps.fields.get(*i as usize).cloned().unwrap_or_default())
            }
            ExprKindIr::PlayerZone(b, z) => {
                let p = self.player(b, env)?;
                Ok(Value::Zone(ZoneRef { zone: *z, owner: Some(p) }))
            }
            ExprKindIr::ObjField(b, f) => match self.eval(b, env)? {
                Value::Obj(o) => {
                    self.saw(o);
                    self.read_field(o, *f, e.span)
                }
                Value::Def(d) => self.def_field(d, *f, e.span),
                Value::None => Err(err(b.span, format!("cannot read `{}` of none", self.game.sym(*f)))),
                other => Err(self.type_err(b.span, "an object", &other)),
            },
            ExprKindIr::ObjProp(b, prop) => {
                let v = self.eval(b, env)?;
                let o = match v {
                    Value::Obj(o) => o,
                    Value::None => return Err(err(b.span, "expected an object, found none")),
                    other => return Err(self.type_err(b.span, "an object", &other)),
                };
                self.saw(o);
                self.obj_prop(o, *prop, b.span)
            }
            ExprKindIr::DefField(b, f) => match self.eval(b, env)? {
                Value::Def(d) => self.def_field(d, *f, e.span),
                Value::Obj(o) => {
                    self.saw(o);
                    self.read_field(o, *f, e.span)
                }
                other => Err(self.type_err(b.span, "a definition", &other)),
            },
            ExprKindIr::ZoneOwner(b) => match self.eval(b, env)? {
                Value::Zone(z) => Ok(z.owner.map(Value::Player).unwrap_or_default()),
                other => Err(self.type_err(b.span, "a zone", &other)),
            },
            ExprKindIr::AbilityLabel(b) => match self.eval(b, env)? {
                Value::Ability(o, i) => Ok(Value::text(self.ability_label(o, i))),
                other => Err(self.type_err(b.span, "an ability", &other)),
            },
            ExprKindIr::AbilitySource(b) => match self.eval(b, env)? {
                Value::Ability(o, _) => Ok(Value::Obj(o)),
                other => Err(self.type_err(b.span, "an ability", &other)),
            },
            ExprKindIr::Dynamic(b, f) => {
                let v = self.eval(b, env)?;
                self.dynamic_field(v, *f, e.span)
            }
            ExprKindIr::Call(fid, args) => self.call(*fid, args, env, e.span),
            // The profiler counts steps by routine: there, an inlined call is made as written.
            ExprKindIr::Inline { func, args, lets, body } => match self.counting {
                Some(_) => self.call(*func, args, env, e.span),
                None => {
                    for (slot, i) in lets {
                        let v = match args.get(usize::from(*i)) {
                            Some(a) => self.eval(a, env)?,
                            None => Value::None,
                        };
                        set_slot(env, *slot, v);
                    }
                    self.inlined(body, env, e.span)
                }
            },
            ExprKindIr::Check(cid, args) => self.eval_check(*cid, args, env, e.span),
            ExprKindIr::CanProc(pid, args) => {
                let vals = self.eval_args(args, env)?;
                self.can_proc(*pid, &vals, env, e.span)
            }
            ExprKindIr::Builtin(b, args) => self.builtin(*b, args, env, e.span),
            ExprKindIr::ProcRef(p) => Ok(Value::Proc(*p)),
            ExprKindIr::Lambda(l) => Ok(Value::Lambda(*l)),
            ExprKindIr::Unary(op, x) => {
                let v = self.eval(x, env)?;
                match (op, v) {
                    (UnaryOperator::Neg, Value::Int(i)) => Ok(Value::Int(i.checked_neg().ok_or_else(|| overflow(e.span))?)),
                    (UnaryOperator::Not, Value::Bool(b)) => Ok(Value::Bool(!b)),
                    (UnaryOperator::Neg, other) => Err(self.type_err(x.span, "a number", &other)),
                    (UnaryOperator::Not, other) => Err(self.type_err(x.span, "true or false", &other)),
                }
            }
            ExprKindIr::Binary(op, l, r) => self.binary(*op, l, r, env, e.span),
            ExprKindIr::If(c, t, o) => {
                if self.truth(c, env)? {
                    self.eval(t, env)
                } else {
                    self.eval(o, env)
                }
            }
            ExprKindIr::Quant { any, slot, list, cond, by } => self.eval_quant(*any, *slot, list, cond, *by, env),
            ExprKindIr::Filter { slot, list, cond, by } => self.eval_filter(*slot, list, cond, *by, env),
            ExprKindIr::CountWhere { slot, list, cond, by } => self.eval_count_where(*slot, list, cond, *by, env),
            ExprKindIr::FirstWhere { slot, list, cond, by } => self.eval_first_where(*slot, list, cond, *by, env),
            ExprKindIr::Map { slot, list, expr, cond } => self.eval_map(*slot, list, expr, cond.as_deref(), env, e.span),
            ExprKindIr::List(items) => self.eval_list(items, env, e.span),
            ExprKindIr::Fast(f) => self.fast(f, env),
        }
    }

    /// A check called: it only reads the state too, so the same call gives the same answer.
    #[inline]
    fn eval_check(&self, cid: CheckId, args: &[ExprIr], env: &mut Env, span: Span) -> RtResult<Value> {
        // A check only reads the state too: the same call gives the same answer.
        let mut vals = self.buf(args.len());
        for a in args {
            vals.push(self.eval(a, env)?);
        }
        let found = self.memo().remembered(Memoised::Check(cid), &vals, env, None);
        if let Some(v) = found {
            // It may have read globals (see `globals_read`).
            self.globals_read.set(true);
            self.give(vals);
            return Ok(v);
        }
        let v = self.check(cid, &vals, env, span)?;
        self.memo().remember(Memoised::Check(cid), vals, env, &v, Box::default());
        Ok(v)
    }

    pub fn int(&self, e: &ExprIr, env: &mut Env) -> RtResult<i64> {
        match self.eval(e, env)? {
            Value::Int(i) => Ok(i),
            other => Err(self.type_err(e.span, "a number", &other)),
        }
    }

    pub fn player(&self, e: &ExprIr, env: &mut Env) -> RtResult<Seat> {
        match self.eval(e, env)? {
            Value::Player(p) => Ok(p),
            other => Err(self.type_err(e.span, "a player", &other)),
        }
    }

    pub fn type_err(&self, span: Span, expected: &str, found: &Value) -> RtError {
        let shown = match found {
            Value::None => "none".to_string(),
            // A list is labelled only as far as it is shown (a text's label is the text).
            Value::List(_) => format!("{} `{}`", found.type_name(), self.label_clipped(found, SHOWN_VALUE)),
            other => format!("{} `{}`", other.type_name(), arbiter_syntax::diag::clipped(&self.label(other), SHOWN_VALUE)),
        };
        err(span, format!("expected {expected}, found {shown}"))
    }

    pub fn eval_args(&self, args: &[ExprIr], env: &mut Env) -> RtResult<Vec<Value>> {
        args.iter().map(|a| self.eval(a, env)).collect()
    }

    /// The objects of a zone that is one place (a shared zone, or one player's), read in place;
    /// `None` for a per-player zone named without its owner (every player's at once).
    #[inline]
    pub(super) fn one_zone(&self, z: ZoneRef) -> Option<&'a [ObjId]> {
        let per_player = self.game.zone(z.zone).is_some_and(|d| d.per_player);
        (z.owner.is_some() || !per_player).then(|| self.state.zone_contents(self.game, z))
    }

    /// A list from a list value or a zone (its objects, top first).
    pub fn list_of(&self, e: &ExprIr, env: &mut Env) -> RtResult<Arc<Vec<Value>>> {
        let v = self.eval(e, env)?;
        self.as_list(v, e.span)
    }

    pub fn as_list(&self, v: Value, span: Span) -> RtResult<Arc<Vec<Value>>> {
        match v {
            Value::List(l) => Ok(l),
            Value::Zone(z) => Ok(Arc::new(self.state.zone_objects(self.game, z).into_iter().map(Value::Obj).collect())),
            Value::None => Ok(Arc::new(Vec::new())),
            other => Err(self.type_err(span, "a list or a zone", &other)),
        }
    }

    pub fn call_func(&self, fid: FuncId, args: Vec<Value>, env: &Env, span: Span) -> RtResult<Value> {
        let f = self.game.funcs.get(fid as usize).ok_or_else(|| err(span, "no such function"))?;
        let mut fenv = new_env(f.slots, args, env.you, env.self_obj);
        let r = self.nested(span, || self.as_routine("func", &f.info.name, || self.eval(&f.body, &mut fenv)));
        self.give(fenv.slots);
        r
    }

    /// A function called with these arguments.
    fn call(&self, fid: FuncId, args: &[ExprIr], env: &mut Env, span: Span) -> RtResult<Value> {
        // The arguments become the function's slots: room for all of them at once.
        let slots = self.game.funcs.get(fid as usize).map_or(0, |f| f.slots as usize);
        let mut vals = self.buf(slots.max(args.len()));
        for a in args {
            vals.push(self.eval(a, env)?);
        }
        // A function may read the objects it is given: a call being recorded reads them.
        if self.recording.get() > 0 {
            self.saw_given(&vals);
        }
        // Functions only read the state, which doesn't change while an expression is
        // evaluated: the same call gives the same value.
        let remember = self.game.funcs.get(fid as usize).is_some_and(|f| f.remember);
        if !remember {
            return self.call_func(fid, vals, env, span);
        }
        let reads = match self.game.call_reads.get(fid as usize) {
            Some(CallReads::Only(deps)) if self.kept => Some(deps),
            _ => None,
        };
        // A call that reads objects the checker cannot place records them (see `recording`).
        let records = reads.is_some_and(|d| d.seen);
        // A function whose reads are known gives the same value while none of them changes.
        if let Some(deps) = reads
            && self.scratch().borrow().memo.worth_keeping(fid)
            && let Some(stamps) = self.stamps(deps, &vals, env)
        {
            let found = self.with_memo(|memo, seen| memo.kept_across(self.state, fid, &vals, env, &stamps, seen));
            if let Some((v, derived_globals)) = found {
                // What the call read, this evaluation reads: globals among them (see `globals_read`).
                if (deps.derived && derived_globals) || !deps.globals.is_empty() {
                    self.globals_read.set(true);
                }
                self.give(vals);
                return Ok(v);
            }
            let key = vals.clone();
            let before = self.steps.get();
            let (found, read) = self.reading_globals(|| self.recorded(records, || self.call_func(fid, vals, env, span)));
            let (v, seen) = found?;
            let steps = self.steps.get().saturating_sub(before);
            let seen = seen.unwrap_or_default();
            // A call that read no global at all read no derived fact that reads one: it holds
            // whatever the derived globals are (its own globals are stamped apart).
            let stamps = if deps.derived && !read { stamps.without_derived() } else { stamps };
            self.scratch().borrow_mut().memo.keep_across(self.state, fid, key, env, &stamps, &seen, &v, steps);
            return Ok(v);
        }
        let found = self.with_memo(|memo, seen| memo.at(self.memo_key).remembered(Memoised::Func(fid), &vals, env, seen));
        if let Some(v) = found {
            // It may have read globals (see `globals_read`).
            self.globals_read.set(true);
            self.give(vals);
            return Ok(v);
        }
        let key = vals.clone();
        let (v, seen) = self.recorded(records, || self.call_func(fid, vals, env, span))?;
        self.memo().remember(Memoised::Func(fid), key, env, &v, seen.unwrap_or_default());
        Ok(v)
    }

    /// Object `o`'s facts are read: recorded while a call is (see `recording`).
    #[inline(always)]
    fn saw(&self, o: ObjId) {
        if self.recording.get() > 0 {
            self.saw_now(o);
        }
    }

    #[inline(never)]
    fn saw_now(&self, o: ObjId) {
        self.scratch().borrow_mut().seen.push(o);
    }

    /// The objects among a call's arguments, recorded (see `recording`).
    #[inline(never)]
    fn saw_given(&self, vals: &[Value]) {
        let seen = &mut self.scratch().borrow_mut().seen;
        seen.extend(vals.iter().filter_map(|v| if let Value::Obj(o) = v { Some(*o) } else { None }));
    }

    /// `f`'s value, and when `records`, the objects it read (each once, in order of id); they
    /// stay in `seen` for a call recorded around this one.
    fn recorded<T>(&self, records: bool, f: impl FnOnce() -> RtResult<T>) -> RtResult<(T, Option<Box<[ObjId]>>)> {
        if !records {
            return f().map(|v| (v, None));
        }
        let start = self.scratch().borrow().seen.len();
        self.recording.set(self.recording.get() + 1);
        let r = f();
        let depth = self.recording.get() - 1;
        self.recording.set(depth);
        let seen = &mut self.scratch().borrow_mut().seen;
        let mut mine: Vec<ObjId> = seen.get(start..).unwrap_or_default().to_vec();
        if depth == 0 {
            seen.truncate(start);
        }
        mine.sort_unstable();
        mine.dedup();
        r.map(|v| (v, Some(mine.into())))
    }

    /// `f` of the memo and, while a call is being recorded, the objects it has read so far (to
    /// add a remembered call's to).
    #[inline(always)]
    fn with_memo<T>(&self, f: impl FnOnce(&mut Memo, Option<&mut Vec<ObjId>>) -> T) -> T {
        let s = &mut *self.scratch().borrow_mut();
        f(&mut s.memo, (self.recording.get() > 0).then_some(&mut s.seen))
    }

    /// An inlined function's body, evaluated in the caller's env: one call deeper, as the call
    /// would be (see `check::inline`).
    fn inlined(&self, body: &ExprIr, env: &mut Env, span: Span) -> RtResult<Value> {
        // No new stack is needed: an inlined body calls nothing.
        self.deeper(span, || self.eval(body, env))
    }

    /// A list of seats (`players()` for `None`, `opponents(p)` for `Some(p)`), made by `make` once
    /// for each count of players and set of players out.
    pub(super) fn seats_list(&self, key: Option<Seat>, make: impl FnOnce() -> Value) -> Value {
        let n = self.state.players.len();
        if n > 128 {
            return make();
        }
        let out = self.state.players.iter().enumerate().filter(|(_, p)| p.out).fold(0u128, |m, (i, _)| m | 1 << i);
        let found = self.scratch().borrow().seats.iter().find(|(c, o, k, _)| *c == n && *o == out && *k == key).map(|x| x.3.clone());
        if let Some(v) = found {
            return v;
        }
        let v = make();
        let mut s = self.scratch().borrow_mut();
        if s.seats.len() >= 64 {
            s.seats.clear();
        }
        s.seats.push((n, out, key, v.clone()));
        v
    }

    /// An empty vector with room for `cap` values, reused when one is free.
    pub(super) fn buf(&self, cap: usize) -> Vec<Value> {
        let mut v = self.scratch().borrow_mut().vecs.pop().unwrap_or_default();
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
    pub(super) fn holds_in(&self, cond: &ExprIr, slots: u16, args: &[Value], you: Option<Seat>, self_obj: Option<ObjId>) -> RtResult<bool> {
        let mut env = self.pooled_env(slots, args, you, self_obj);
        let r = self.truth(cond, &mut env);
        self.give(env.slots);
        r
    }

    /// Give a vector back for reuse (its values are dropped now).
    pub(super) fn give(&self, mut v: Vec<Value>) {
        v.clear();
        let mut s = self.scratch().borrow_mut();
        if s.vecs.len() < 64 && v.capacity() <= 64 {
            s.vecs.push(v);
        }
    }

    pub fn in_zone(&self, o: ObjId, z: ZoneRef) -> bool {
        match self.state.obj(o).map(|x| x.place) {
            Some(Place::Zone(at)) => at.zone == z.zone && (z.owner.is_none() || at.owner == z.owner),
            _ => false,
        }
    }

    pub(super) fn obj_prop(&self, o: ObjId, prop: ObjProp, span: Span) -> RtResult<Value> {
        let ob = self.state.obj(o).ok_or_else(|| err(span, format!("no object #{o}")))?;
        Ok(match prop {
            ObjProp::Owner => Value::Player(ob.owner),
            ObjProp::Controller => Value::Player(ob.controller),
            ObjProp::Zone => self.state.zone_of(o).map(Value::Zone).unwrap_or_default(),
            ObjProp::FaceUp => Value::Bool(ob.face_up),
            ObjProp::Name => match self.game.def(ob.def) {
                Some(d) => d.name_text.clone(),
                None => Value::text(self.obj_name(o)),
            },
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

    pub fn def_field(&self, d: DefId, f: Sym, span: Span) -> RtResult<Value> {
        let def = self.game.def(d).ok_or_else(|| err(span, "no such definition"))?;
        if self.game.sym(f) == "name" {
            return Ok(def.name_text.clone());
        }
        let kind = self.game.kind(def.kind).ok_or_else(|| err(span, "no such kind"))?;
        let idx = kind.field(f).ok_or_else(|| err(span, format!("`{}` has no field `{}`", def.name, self.game.sym(f))))?;
        Ok(def.fields.get(idx).cloned().flatten().or_else(|| kind.fields.get(idx).map(|fd| fd.default.clone())).unwrap_or_default())
    }

    fn dynamic_field(&self, v: Value, f: Sym, span: Span) -> RtResult<Value> {
        let name = self.game.sym(f);
        match v {
            Value::Obj(o) => {
                self.saw(o);
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
                    // As the checker says of `p.pile` (a shared zone is nobody's): a zone value
                    // naming an owner of a shared zone would be an instance of its own, apart from
                    // the zone's objects and the numbers its changes give.
                    if !self.game.zones.get(z).is_some_and(|d| d.per_player) {
                        return Err(err(span, format!("`{name}` is a shared zone, not a player's: write `{name}` alone")));
                    }
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
    pub fn call_lambda(&self, v: &Value, args: &[Value], env: &mut Env, span: Span) -> RtResult<Value> {
        let Value::Lambda(id) = v else { return Err(self.type_err(span, "a function `|x| ..`", v)) };
        let l = self.game.lambdas.get(*id as usize).ok_or_else(|| err(span, "no such function"))?;
        for (slot, a) in l.params.iter().zip(args) {
            set_slot(env, *slot, a.clone());
        }
        self.eval(&l.body, env)
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

pub fn new_env(slots: u16, args: Vec<Value>, you: Option<Seat>, self_obj: Option<ObjId>) -> Env {
    let mut v = args;
    v.resize((slots as usize).max(v.len()), Value::None);
    Env { slots: v, you, self_obj, rec: super::state::NO_CALL }
}
