//! Watching an engine run: a [`Tracer`] is told what the engine does, for whoever needs more than
//! the log. Three are here: the record of causes `explain --why` walks back and a scenario checks
//! settled decisions against ([`CauseRecorder`]), where the evaluation steps go by routine
//! (`bench --profile`, [`Profiler`]), and an engine that remembers nothing between evaluations
//! (tests/memo.rs, [`Forgetful`]). An engine with no tracer — every game played — makes none of
//! these calls (`Engine::with_tracer`).

use super::profile::Profile;
use super::state::{BranchRec, CallRec, Count, NO_CALL, State, Tracing};
use arbiter_ir::value::Seat;
use std::cell::RefCell;
use std::sync::Arc;

/// A decision taken at once for its one possible answer (see `Tracer::decision_settled`).
#[derive(Debug, Clone)]
pub struct Settled {
    /// The length of the log when it was taken.
    pub at: usize,
    pub seat: Seat,
    pub prompt: Arc<str>,
    pub options: Vec<Arc<str>>,
    pub count: Count,
}

/// Whether evaluations use the fast tier: on (every game), off (the walker alone), or checked
/// (both, and an error where they differ: `tests/fast_tier.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FastTier {
    On,
    Off,
    Checked,
}

/// What an engine tells the one watching it. Every method does nothing unless implemented.
pub trait Tracer {
    /// Whether every call must be walked: a value remembered from an earlier evaluation would
    /// leave the call it skips unseen.
    fn walks_every_call(&self) -> bool {
        false
    }

    /// Whether evaluations try expressions' fast forms first (`runtime::fast`): on, except where
    /// a test switches the tier off or checks it against the walker.
    fn fast_tier(&self) -> FastTier {
        FastTier::On
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

    /// Whether the engine tells this tracer the causes of what happens (`call_entered`,
    /// `event_logged`, `branch_decided`, `decision_settled`); it builds their records only then.
    fn records_causes(&self) -> bool {
        false
    }

    /// The engine enters a routine: the number its call is recorded under (`Env::rec`), or
    /// `NO_CALL`.
    fn call_entered(&self, _record: CallRec) -> u32 {
        NO_CALL
    }

    /// The engine logged an event (the last of the log) while running the call numbered `call`.
    fn event_logged(&self, _call: u32) {}

    /// An `if` arm's condition was decided.
    fn branch_decided(&self, _record: BranchRec) {}

    /// A decision was taken at once, with nothing to choose.
    fn decision_settled(&self, _settled: Settled) {}

    /// A decision was asked, its question the last event logged, whether it is settled at once
    /// or waits for an answer: where a replay draws the table (`CauseRecorder::with_snapshots`).
    /// Told alike of both, so that a replay's pictures do not tell a seat which answers of the
    /// others were the only choice.
    fn decision_asked(&self, _st: &State) {}
}

/// The causes beyond the log, recorded while a scenario runs or a saved game is played again:
/// which call each event happened in, who called what from where, which conditions chose each
/// branch (`explain --why`), and the decisions settled at once (`expect options` checks them).
#[derive(Debug, Default)]
pub struct CauseRecorder {
    tracing: RefCell<Tracing>,
    settled: RefCell<Vec<Settled>>,
    /// The state at every decision asked, with the length of the log then, when kept.
    snapshots: Option<RefCell<Vec<(usize, State)>>>,
}

impl CauseRecorder {
    /// A recorder that also keeps the state at every decision asked, settled at once or not
    /// (a replay's pictures, `take_snapshots`).
    pub fn with_snapshots() -> CauseRecorder {
        CauseRecorder { snapshots: Some(RefCell::default()), ..CauseRecorder::default() }
    }

    /// The states kept so far (`with_snapshots`), taken out, each with the length of the log
    /// when it was kept.
    pub fn take_snapshots(&self) -> Vec<(usize, State)> {
        self.snapshots.as_ref().map(RefCell::take).unwrap_or_default()
    }

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

    fn records_causes(&self) -> bool {
        true
    }

    fn call_entered(&self, record: CallRec) -> u32 {
        let mut t = self.tracing.borrow_mut();
        t.calls.push(record);
        u32::try_from(t.calls.len() - 1).unwrap_or(u32::MAX)
    }

    fn event_logged(&self, call: u32) {
        self.tracing.borrow_mut().event_call.push(call);
    }

    fn branch_decided(&self, record: BranchRec) {
        self.tracing.borrow_mut().branches.push(record);
    }

    fn decision_settled(&self, settled: Settled) {
        self.settled.borrow_mut().push(settled);
    }

    fn decision_asked(&self, st: &State) {
        if let Some(s) = &self.snapshots {
            s.borrow_mut().push((st.log.len(), st.clone()));
        }
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
