//! Watching an engine run: a [`Tracer`] is told what the engine does, for whoever needs more than
//! the log. Three are here: the record of causes `explain --why` walks back and a scenario checks
//! settled decisions against ([`CauseRecorder`]), where the evaluation steps go by routine
//! (`bench --profile`, [`Profiler`]), and an engine that remembers nothing between evaluations
//! (tests/memo.rs, [`Forgetful`]). An engine with no tracer — every game played — makes none of
//! these calls (`Engine::with_tracer`).

use super::engine::{Engine, Settled};
use super::profile::Profile;
use super::state::{BranchRec, CallRec, Env, NO_CALL, Routine, State, Tracing};
use arbiter_ir::Expr;
use std::cell::RefCell;

/// What an engine tells the one watching it. Every method does nothing unless implemented.
pub trait Tracer {
    /// Whether every call must be walked: a value remembered from an earlier evaluation would
    /// leave the call it skips unseen.
    fn walks_every_call(&self) -> bool {
        false
    }

    /// Whether evaluations report the routines they run (`routine_entered`, `routine_left`,
    /// `steps`); an inlined call is then made as written, so that it counts as a routine.
    fn counts_steps(&self) -> bool {
        false
    }

    /// An evaluation enters a routine (a function, check or field read through modifiers).
    fn routine_entered(&self) {}

    /// The routine `what name` entered last ends, after `steps` steps (everything inside it).
    fn routine_left(&self, _what: &str, _name: &str, _steps: u64) {}

    /// An evaluation ends after `steps` steps.
    fn steps(&self, _steps: u64) {}

    /// The engine enters `routine` with the environment `env` (its arguments in the first
    /// slots): the number the call is recorded under (`Env::rec`), or `NO_CALL`.
    fn call_entered(&self, _engine: &Engine, _st: &State, _routine: Routine, _env: &Env) -> u32 {
        NO_CALL
    }

    /// The engine logged an event (the last of `st.log`).
    fn event_logged(&self, _engine: &Engine, _st: &State) {}

    /// An `if` arm's condition `cond` was found `value` in the environment `env`.
    fn branch_decided(&self, _engine: &Engine, _st: &State, _env: &mut Env, _cond: &Expr, _value: bool) {}

    /// A decision was taken at once, with nothing to choose.
    fn decision_settled(&self, _settled: Settled) {}
}

/// The causes beyond the log, recorded while a scenario runs or a saved game is played again:
/// which call each event happened in, who called what from where, which conditions chose each
/// branch (`explain --why`), and the decisions settled at once (`expect options` checks them).
#[derive(Debug, Default)]
pub struct CauseRecorder {
    tracing: RefCell<Tracing>,
    settled: RefCell<Vec<Settled>>,
}

impl CauseRecorder {
    /// The record so far, taken out (the recorder starts again empty).
    pub fn take(&self) -> Tracing {
        self.tracing.take()
    }

    /// How many decisions were settled at once so far.
    pub fn settled_count(&self) -> usize {
        self.settled.borrow().len()
    }

    /// The decisions settled at once, from the `from`-th on.
    pub fn settled_since(&self, from: usize) -> Vec<Settled> {
        self.settled.borrow().get(from..).map(<[_]>::to_vec).unwrap_or_default()
    }
}

impl Tracer for CauseRecorder {
    fn walks_every_call(&self) -> bool {
        true
    }

    fn call_entered(&self, engine: &Engine, st: &State, routine: Routine, env: &Env) -> u32 {
        let site = engine.cause(st, engine.current_span(st));
        let parent = engine.current_call(st);
        let first_event = u32::try_from(st.log.len()).unwrap_or(u32::MAX);
        let args = env.slots.iter().take(super::why::param_names(engine.game, st, routine).len()).cloned().collect();
        let mut t = self.tracing.borrow_mut();
        let number = u32::try_from(t.calls.len()).unwrap_or(u32::MAX);
        t.calls.push(CallRec { routine, args, site, parent, first_event });
        number
    }

    fn event_logged(&self, engine: &Engine, st: &State) {
        let call = engine.current_call(st);
        self.tracing.borrow_mut().event_call.push(call);
    }

    fn branch_decided(&self, engine: &Engine, st: &State, env: &mut Env, cond: &Expr, value: bool) {
        let detail = super::why::describe(&engine.ev(st), env, cond);
        let at_event = u32::try_from(st.log.len()).unwrap_or(u32::MAX);
        self.tracing.borrow_mut().branches.push(BranchRec { call: env.rec, span: cond.span, value, detail, at_event });
    }

    fn decision_settled(&self, settled: Settled) {
        self.settled.borrow_mut().push(settled);
    }
}

/// Where the evaluation steps go, by routine (`arbiter bench GAME --profile`).
#[derive(Debug, Default)]
pub struct Profiler {
    profile: RefCell<Profile>,
}

impl Profiler {
    /// The profile so far.
    pub fn profile(&self) -> Profile {
        self.profile.borrow().clone()
    }
}

impl Tracer for Profiler {
    fn counts_steps(&self) -> bool {
        true
    }

    fn routine_entered(&self) {
        self.profile.borrow_mut().enter();
    }

    fn routine_left(&self, what: &str, name: &str, steps: u64) {
        self.profile.borrow_mut().leave(what, name, steps);
    }

    fn steps(&self, steps: u64) {
        self.profile.borrow_mut().steps += steps;
    }
}

/// An engine whose evaluations each start with an empty memo, as if nothing were remembered
/// between them: play must be exactly the same (tests/memo.rs).
#[derive(Debug, Default, Clone, Copy)]
pub struct Forgetful;

impl Tracer for Forgetful {
    fn walks_every_call(&self) -> bool {
        true
    }
}
