//! The engine advances a `State` until it needs a decision or the game ends. It never blocks:
//! the frame stack, queued triggers and the pending decision are all in the state, so a game
//! can be saved at any decision and resumed with the same continuation.

use super::RtError;
use super::chunked::Chunked;
use super::eval::{Evaluator, err, new_env};
use super::random::{RandomSource, SeededRandom};
use super::state::*;
use super::trace::{Forgetful, Tracer};
use arbiter_ir::value::{ObjId, Seat, Value};
use arbiter_ir::*;
use arbiter_syntax::span::Span;
use indexmap::IndexMap;
use std::sync::Arc;

use arbiter_syntax::budgets::{FRAME_BUDGET, LOG_BUDGET, STEP_BUDGET, TURN_BUDGET, WORK_BUDGET};

/// An ability frame's stage past every other: the ability does nothing more (a target with no
/// legal choice, `Engine::ask_target`).
const ABILITY_DONE: u16 = u16::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// A player must answer `state.pending`.
    Decision,
    /// The game has a result.
    Ended,
    /// Nothing left to run (scenarios only).
    Idle,
}

pub struct Engine<'g> {
    pub game: &'g Game,
    pub step_budget: u64,
    /// The game's fingerprint, computed on the first new state (it hashes every rule file).
    fingerprint: std::cell::OnceCell<Arc<str>>,
    /// Buffers evaluations reuse (function environments, argument lists), kept between them.
    pool: super::eval::Pool,
    /// What an assignment's event calls the thing assigned (`P1.score`, `Knight.power`), and
    /// whether its field is `announced`, made once per global, player field and definition's field.
    /// (FxHash: its keys are the game's own numbers, and it is looked up at every assignment.)
    pub(super) set_names: std::cell::RefCell<std::collections::HashMap<SetName, (Arc<str>, bool), rustc_hash::FxBuildHasher>>,
    /// Who watches this engine run (`with_tracer`): none in a game, which then pays nothing for
    /// scenarios' records, explanations or profiles.
    tracer: Option<&'g dyn Tracer>,
    /// Where random results come from (`with_random`): the state's seeded generator unless a
    /// scenario scripts them.
    random: &'g dyn RandomSource,
}

/// The seats, deck lists and seed a new state starts from.
pub struct Setup {
    pub players: usize,
    pub seed: u64,
    pub decklists: Vec<IndexMap<String, Vec<DefId>>>,
}

impl<'g> Engine<'g> {
    pub fn new(game: &'g Game) -> Self {
        Engine {
            game,
            step_budget: STEP_BUDGET,
            fingerprint: std::cell::OnceCell::new(),
            pool: Default::default(),
            set_names: Default::default(),
            tracer: None,
            random: &SeededRandom,
        }
    }

    /// An engine that tells `tracer` what it does (see `trace.rs`): a scenario's record of
    /// causes, a profile, a forgetful engine.
    pub fn with_tracer(mut self, tracer: &'g dyn Tracer) -> Self {
        self.tracer = Some(tracer);
        self
    }

    /// With the fast tier checked (`Tracer::fast_tier`): how many fast answers were found the
    /// same as the walker's so far.
    pub fn fast_agreed(&self) -> u64 {
        self.pool.borrow().fast_agreed
    }

    /// An engine that draws its random results from `random` (a scenario's script).
    pub fn with_random(mut self, random: &'g dyn RandomSource) -> Self {
        self.random = random;
        self
    }

    /// An engine whose evaluations each start with an empty memo, as if nothing were remembered
    /// between them: play must be exactly the same (tests/memo.rs).
    pub fn forgetful(self) -> Self {
        self.with_tracer(&Forgetful)
    }

    pub(super) fn random(&self) -> &'g dyn RandomSource {
        self.random
    }

    #[inline]
    pub fn evaluator<'s>(&'s self, st: &'s State) -> Evaluator<'s>
    where
        'g: 's,
    {
        // A game played has no tracer: its evaluator is made in one piece (an engine makes one
        // for every expression its statements hold).
        let Some(t) = self.tracer else { return Evaluator::pooled(self.game, st, &self.pool) };
        let counting = t.counts_steps().then_some(t);
        let evaluator = Evaluator::pooled(self.game, st, &self.pool).profiled(counting).with_fast_tier(t.fast_tier());
        // A tracer that must see every call has each one walked (a remembered one would not be).
        if t.walks_every_call() { evaluator.forgetful() } else { evaluator }
    }

    /// How the calls this engine kept across versions fared, by function (`bench --profile`).
    pub fn kept_calls(&self) -> Vec<super::memo::KeptTally> {
        self.pool.borrow().memo.tallies()
    }

    /// A fresh state: fields at their defaults, constants evaluated, zones empty.
    pub fn new_state(&self, mode: Mode, setup: Setup) -> Result<State, RtError> {
        let g = self.game;
        let n = setup.players;
        let zone_count: usize = g.zones.iter().map(|z| if z.per_player { n } else { 1 }).sum();
        let mut st = State {
            fingerprint: self.fingerprint.get_or_init(|| fingerprint(g).into()).clone(),
            mode,
            players: (0..n).map(|_| PlayerState { fields: vec![], out: false }).collect(),
            globals: vec![],
            consts: vec![],
            objects: Chunked::new(),
            zones: vec![Arc::default(); zone_count],
            temp_mods: vec![],
            lasting: vec![],
            frames: vec![],
            envs: vec![Env { slots: vec![], you: None, self_obj: None, rec: super::state::NO_CALL }],
            pending: None,
            triggers: vec![],
            rng: Rng::from_seed(setup.seed),
            log: Log::default(),
            clock: 0,
            result: None,
            dirty: false,
            checking: false,
            turns: 0,
            decklists: Arc::new(setup.decklists),
            decisions: 0,
            version: 0,
            derived_globals: 0,
            zone_versions: vec![],
            numbers_base: 0,
            globals_version: 0,
            global_versions: vec![],
            players_version: 0,
            player_field_versions: vec![],
            out_version: 0,
            left_play: vec![],
            checked_now: None,
            always_quiet: None,
            always_started: None,
        };
        Arc::make_mut(&mut st.decklists).resize(n, IndexMap::new());
        let mut consts = Vec::new();
        for c in &g.consts {
            let mut env = new_env(0, vec![], None, None);
            let v = Evaluator::new(g, &st).eval(&c.value, &mut env)?;
            consts.push(v);
            st.consts = consts.clone();
        }
        let mut globals = Vec::new();
        for f in &g.global_fields {
            globals.push(self.default_of(&st, f)?);
        }
        st.globals = globals;
        let mut pf = Vec::new();
        for f in &g.player_fields {
            pf.push(self.default_of(&st, f)?);
        }
        for p in &mut st.players {
            p.fields = pf.clone();
        }
        if mode == Mode::Game {
            st.frames.push(Frame { kind: FrameKind::Main { setup_done: false }, env: 0 });
        }
        st.touch();
        Ok(st)
    }

    fn default_of(&self, st: &State, f: &VarDef) -> Result<Value, RtError> {
        match &f.default {
            Some(e) => {
                let mut env = new_env(0, vec![], None, None);
                Evaluator::new(self.game, st).eval(e, &mut env)
            }
            None => Ok(match f.ty {
                Ty::Int => Value::Int(0),
                Ty::Bool => Value::Bool(false),
                Ty::List(_) => Value::list(vec![]),
                _ => Value::None,
            }),
        }
    }

    /// Run until a decision, the end of the game, or (scenarios) nothing left to do.
    pub fn advance(&self, st: &mut State) -> Result<Status, RtError> {
        // The answer that let the game go on is the event before this step's first.
        let from = st.log.len().saturating_sub(1);
        let status = self.advance_inner(st).map_err(|e| e.in_rule(|| self.running_rule(st)).called_from(|| self.call_sites(st)));
        settle_withheld(st, from);
        status
    }

    fn advance_inner(&self, st: &mut State) -> Result<Status, RtError> {
        let mut steps: u64 = 0;
        // The memory and work budgets count what is done between two decisions.
        self.pool.borrow_mut().restart_budgets();
        loop {
            if st.result.is_some() {
                return Ok(Status::Ended);
            }
            if st.pending.is_some() {
                return Ok(Status::Decision);
            }
            steps += 1;
            if steps > self.step_budget {
                let span = self.current_span(st);
                return Err(err(span, format!("step budget exceeded: more than {} steps without a decision", self.step_budget)).with_help(
                    "a loop in the rules or in an object's ability never ends; check `while` conditions and triggers that cause themselves",
                ));
            }
            if self.pool.borrow().work() > WORK_BUDGET {
                let span = self.current_span(st);
                return Err(err(span, format!("step budget exceeded: more than {WORK_BUDGET} evaluation steps without a decision"))
                    .with_help(
                        "a loop in the rules or in an object's ability does too much work and never ends; check `while` conditions",
                    ));
            }
            if st.log.bytes() > LOG_BUDGET {
                let span = self.current_span(st);
                return Err(err(span, format!("log budget exceeded: the game's events hold more than {} MiB", LOG_BUDGET >> 20))
                    .with_help(
                        "a rule logs, asks or changes things without end: check `repeat` and `while` loops, and triggers that cause themselves",
                    ));
            }
            if st.frames.len() > FRAME_BUDGET {
                let span = self.current_span(st);
                return Err(err(span, format!("procedure depth budget exceeded: more than {FRAME_BUDGET} nested procedures"))
                    .with_help("a procedure probably calls itself without end"));
            }
            // State checks and triggers wait until the effect being resolved is finished, so that
            // what an effect does to several players happens to them at once.
            let want_check = st.dirty && !st.checking && !self.game.always.is_empty();
            let held =
                (want_check || !st.triggers.is_empty()) && st.frames.iter().any(|f| matches!(f.kind, FrameKind::Call { holds: true, .. }));
            // An `always .. immediately` is not held: it runs between the statements of the
            // effect's body (once for each new state), not only when the effect is over.
            if want_check
                && held
                && self.game.always.iter().any(|a| a.immediately)
                && st.checked_now != Some(st.version)
                && between_effect_statements(st)
            {
                st.checked_now = Some(st.version);
                st.checking = true;
                st.frames.push(Frame { kind: FrameKind::Call { routine: Routine::Main, ret: None, holds: false }, env: u32::MAX });
                for (i, a) in self.game.always.iter().enumerate().rev() {
                    if a.immediately {
                        self.push_routine(st, Routine::Always(i as u32), a.body, a.slots, vec![], None, None, None);
                    }
                }
                continue;
            }
            if want_check && !held {
                st.dirty = false;
                // Nothing the `always` blocks read has changed since they last ran and did
                // nothing: they would do nothing again (see `Game::always_reads`). Not while
                // triggers wait: those run on top of the blocks, inside their check.
                let walks = self.tracer.is_some_and(|t| t.walks_every_call());
                if !walks && super::memo::always_still_quiet(self.game, st) {
                    continue;
                }
                let reads = if walks { None } else { super::memo::always_stamps(self.game, st) };
                st.always_started = reads.map(|r| (r, st.version, st.log.len()));
                st.checking = true;
                st.frames.push(Frame { kind: FrameKind::Call { routine: Routine::Main, ret: None, holds: false }, env: u32::MAX });
                for (i, a) in self.game.always.iter().enumerate().rev() {
                    self.push_routine(st, Routine::Always(i as u32), a.body, a.slots, vec![], None, None, None);
                }
                continue;
            }
            if !st.triggers.is_empty() && !held {
                self.schedule_triggers(st)?;
                continue;
            }
            let Some(top) = st.frames.last() else {
                return Ok(Status::Idle);
            };
            // What the top frame says, copied (not the frame cloned: a loop's items are shared,
            // and counting a reference at every step cost more than the step's own work).
            let env = top.env;
            match top.kind {
                FrameKind::Main { setup_done } => {
                    let proc = if setup_done { self.game.turn } else { self.game.setup };
                    if let Some(FrameKind::Main { setup_done: s }) = st.frames.last_mut().map(|f| &mut f.kind) {
                        *s = true;
                    }
                    if setup_done {
                        st.turns += 1;
                        if st.turns > TURN_BUDGET {
                            return Err(err(
                                Span::default(),
                                format!("turn budget exceeded: the game lasted more than {TURN_BUDGET} turns"),
                            )
                            .with_help("the rulebook's victory conditions may never be met"));
                        }
                    }
                    match proc {
                        Some(p) => self.push_proc(st, p, vec![], None)?,
                        None if setup_done => {
                            return Err(err(Span::default(), "the game has no `turn` procedure")
                                .with_help("name one in the game header: `turn turn.play`"));
                        }
                        None => {}
                    }
                }
                FrameKind::Call { routine, .. } => {
                    st.frames.pop();
                    if env != u32::MAX {
                        st.envs.pop();
                    } else if routine == Routine::Main {
                        st.checking = false;
                        // The `always` blocks have all run: did they leave a mark?
                        st.always_quiet = st
                            .always_started
                            .take()
                            .and_then(|(reads, version, events)| (st.version == version && st.log.len() == events).then_some(reads));
                    }
                }
                FrameKind::Block { block, pc } => {
                    let stmts = self.game.block(block);
                    match stmts.get(pc as usize) {
                        None => {
                            st.frames.pop();
                        }
                        Some(stmt) => {
                            if let Some(FrameKind::Block { pc: p, .. }) = st.frames.last_mut().map(|f| &mut f.kind) {
                                *p += 1;
                            }
                            self.exec(st, stmt, env, block, pc)?;
                        }
                    }
                }
                FrameKind::Loop { block, index, ref iter } => {
                    let iter = iter.clone();
                    self.step_loop(st, block, index, iter, env)?
                }
                FrameKind::Ability { obj, idx, stage } => self.step_ability(st, obj, idx, stage, env)?,
            }
        }
    }

    pub fn cause(&self, st: &State, span: Span) -> Cause {
        Cause { routine: self.current_routine(st), span }
    }

    pub fn log(&self, st: &mut State, kind: EventKind, visible: u64, span: Span) {
        let cause = self.cause(st, span);
        let depth = st.frames.iter().filter(|f| matches!(f.kind, FrameKind::Call { .. })).count();
        st.log.push(Event { kind, cause, visible, depth: u16::try_from(depth).unwrap_or(u16::MAX) });
        self.trace_event(st);
    }

    /// The call the running code belongs to (its env's record), while tracing.
    pub fn current_call(&self, st: &State) -> u32 {
        for f in st.frames.iter().rev() {
            if f.env != u32::MAX
                && let Some(e) = st.envs.get(f.env as usize)
            {
                return e.rec;
            }
        }
        super::state::NO_CALL
    }

    /// Tell the tracer, if it records causes, which call the event just logged happened in.
    pub(super) fn trace_event(&self, st: &State) {
        if let Some(t) = self.tracer
            && t.records_causes()
        {
            t.event_logged(self.current_call(st));
        }
    }

    /// The tracer, when it records causes (see `Tracer::records_causes`).
    pub(super) fn cause_recorder(&self) -> Option<&'g dyn Tracer> {
        self.tracer.filter(|t| t.records_causes())
    }

    /// Enter a routine: a call frame owning a new env, then its body block.
    #[expect(clippy::too_many_arguments, reason = "a routine's whole context, passed once")]
    pub fn push_routine(
        &self,
        st: &mut State,
        routine: Routine,
        body: BlockId,
        slots: u16,
        args: Vec<Value>,
        you: Option<Seat>,
        self_obj: Option<ObjId>,
        ret: Option<(u32, Slot)>,
    ) {
        let holds = matches!(
            routine,
            Routine::Ability(..)
                | Routine::ObjTrigger(..)
                | Routine::Trigger(_)
                | Routine::ObjReplace(..)
                | Routine::Replace(_)
                | Routine::LastingReplace(_)
        );
        let mut e = new_env(slots, args, you, self_obj);
        self.record_call(st, routine, &mut e);
        st.envs.push(e);
        let env = u32::try_from(st.envs.len() - 1).unwrap_or(u32::MAX);
        st.frames.push(Frame { kind: FrameKind::Call { routine, ret, holds }, env });
        st.frames.push(Frame { kind: FrameKind::Block { block: body, pc: 0 }, env });
    }

    /// When causes are recorded: the routine being entered, its arguments, where it was called
    /// from and its caller, for `explain --why`; `e` is numbered with its record.
    pub(super) fn record_call(&self, st: &State, routine: Routine, e: &mut super::state::Env) {
        if let Some(t) = self.cause_recorder() {
            let site = self.cause(st, self.current_span(st));
            let parent = self.current_call(st);
            let first_event = u32::try_from(st.log.len()).unwrap_or(u32::MAX);
            let args = e.slots.iter().take(super::why::param_names(self.game, st, routine).len()).cloned().collect();
            e.rec = t.call_entered(super::state::CallRec { routine, args, site, parent, first_event });
        }
    }

    pub fn push_proc(&self, st: &mut State, p: ProcId, args: Vec<Value>, ret: Option<(u32, Slot)>) -> Result<(), RtError> {
        let def = self.game.proc_def(p).ok_or_else(|| err(Span::default(), "no such procedure"))?;
        let (you, self_obj) = self.caller_context(st);
        self.push_routine(st, Routine::Proc(p), def.body, def.slots, args, you, self_obj, ret);
        Ok(())
    }

    /// `you` and `self` carry into procedures called from an ability.
    pub fn caller_context(&self, st: &State) -> (Option<Seat>, Option<ObjId>) {
        for f in st.frames.iter().rev() {
            if f.env != u32::MAX
                && let Some(e) = st.envs.get(f.env as usize)
            {
                return (e.you, e.self_obj);
            }
        }
        (None, None)
    }

    fn step_loop(&self, st: &mut State, block: BlockId, index: u32, iter: LoopIter, env: u32) -> Result<(), RtError> {
        let game: &'g Game = self.game;
        let stmt = game.block(block).get(index as usize).ok_or_else(|| err(Span::default(), "internal: loop"))?;
        let (body, go, next_iter) = match (&stmt.kind, iter) {
            (StmtKindIr::For { slot, body, .. }, LoopIter::For { items, next }) => match items.get(next as usize) {
                Some(v) => {
                    let v = v.clone();
                    if let Some(e) = st.envs.get_mut(env as usize) {
                        super::eval::set_slot(e, *slot, v);
                    }
                    (*body, true, LoopIter::For { items, next: next + 1 })
                }
                None => (*body, false, LoopIter::While),
            },
            (StmtKindIr::While { cond, body }, LoopIter::While) => {
                let mut e = self.env_of(st, env);
                let go = self.evaluator(st).truth(cond, &mut e);
                Self::put_env(st, env, e);
                (*body, go?, LoopIter::While)
            }
            (StmtKindIr::Repeat { body, .. }, LoopIter::Repeat { left }) => {
                (*body, left > 0, LoopIter::Repeat { left: left.saturating_sub(1) })
            }
            _ => return Err(err(stmt.span, "internal: loop shape")),
        };
        if go {
            if let Some(FrameKind::Loop { iter, .. }) = st.frames.last_mut().map(|f| &mut f.kind) {
                *iter = next_iter;
            }
            st.frames.push(Frame { kind: FrameKind::Block { block: body, pc: 0 }, env });
        } else {
            st.frames.pop();
        }
        Ok(())
    }

    /// Using an ability: each cost, then each target, then the body.
    /// One stage of an ability used: its requirement, each cost, each target, its body; past
    /// those (`ABILITY_DONE` included), its frame is popped.
    fn step_ability(&self, st: &mut State, obj: ObjId, idx: u16, stage: u16, env: u32) -> Result<(), RtError> {
        let game: &'g Game = self.game;
        let def = st.obj(obj).and_then(|o| game.def(o.def)).and_then(|d| d.abilities.get(idx as usize));
        let Some(a) = def else {
            st.frames.pop();
            return Ok(());
        };
        if let Some(FrameKind::Ability { stage: s, .. }) = st.frames.last_mut().map(|f| &mut f.kind) {
            *s = s.saturating_add(1);
        }
        // An ability whose requirement fails does nothing (as a procedure's `requires`).
        if stage == 0
            && let Some(req) = &a.requires
        {
            let mut e = self.env_of(st, env);
            let holds = self.evaluator(st).truth(req, &mut e);
            Self::put_env(st, env, e);
            if !holds? {
                st.frames.pop();
                return Ok(());
            }
        }
        let stage = usize::from(stage);
        let ncost = a.costs.len();
        let ntarget = a.targets.len();
        if stage < ncost {
            if let Some(c) = a.costs.get(stage) {
                self.do_call(st, c, env, None)?;
            }
        } else if stage < ncost + ntarget {
            if let Some(t) = a.targets.get(stage - ncost) {
                self.ask_target(st, t, env)?;
            }
        } else if stage == ncost + ntarget {
            if let Some(b) = a.body {
                st.frames.push(Frame { kind: FrameKind::Block { block: b, pc: 0 }, env });
            }
        } else {
            st.frames.pop();
        }
        Ok(())
    }

    /// A target asked for (see `ABILITY_DONE` when it has no legal choice).
    fn ask_target(&self, st: &mut State, t: &TargetDef, env: u32) -> Result<(), RtError> {
        let mut e = st.envs.get(env as usize).cloned().unwrap_or_else(|| new_env(0, vec![], None, None));
        let evaluator = self.evaluator(st);
        let options = evaluator.target_options(t, &mut e)?;
        let chooser = match &t.chosen_by {
            Some(x) => evaluator.player(x, &mut e)?,
            None => e.you.ok_or_else(|| err(t.from.span, "no player to choose this target"))?,
        };
        let choices: Vec<Choice> =
            options.into_iter().map(|v| Choice { label: evaluator.label_shared(&v, chooser), value: v, rarely: false }).collect();
        drop(evaluator);
        // A target with no legal choice (gone since the ability was found usable): the choice of
        // nothing is logged, and the ability does nothing more, as when its `requires` fails.
        if choices.is_empty()
            && let Some(Frame { kind: FrameKind::Ability { stage, .. }, .. }) = st.frames.last_mut()
        {
            *stage = ABILITY_DONE;
        }
        let dest = Dest::Slot { env, slot: t.slot };
        self.ask(st, chooser, t.prompt.clone(), choices, Count::One, None, false, dest, t.from.span)
    }

    fn schedule_triggers(&self, st: &mut State) -> Result<(), RtError> {
        let mut pending = std::mem::take(&mut st.triggers);
        let order: Vec<Seat> = match self.game.trigger_order {
            Some(f) => {
                let env = new_env(0, vec![], None, None);
                match self.evaluator(st).call_func(f, vec![], &env, Span::default())? {
                    Value::List(l) => l.iter().filter_map(|v| if let Value::Player(p) = v { Some(*p) } else { None }).collect(),
                    _ => vec![],
                }
            }
            None => vec![],
        };
        let rank = |t: &PendingTrigger| match t.controller {
            None => -1,
            Some(c) => order.iter().position(|p| *p == c).map(|i| i as i64).unwrap_or(i64::MAX),
        };
        pending.sort_by_key(|t| (rank(t), t.ts));
        // The cause of a trigger is the statement that raised its event.
        let span = self.current_span(st);
        for t in &pending {
            self.log(st, EventKind::Triggered { routine: t.routine }, ALL, span);
        }
        for t in pending.iter().rev() {
            let (body, slots, you, self_obj) = match t.routine {
                Routine::Trigger(i) => {
                    let Some(d) = self.game.triggers.get(i as usize) else { continue };
                    (d.body, d.slots, t.controller, None)
                }
                Routine::ObjTrigger(o, i) => {
                    let Some(d) = st.obj(o).and_then(|ob| self.game.def(ob.def)).and_then(|d| d.triggers.get(i as usize)) else {
                        continue;
                    };
                    (d.body, d.slots, t.controller, Some(o))
                }
                _ => continue,
            };
            self.push_routine(st, t.routine, body, slots, t.args.clone(), you, self_obj, None);
        }
        Ok(())
    }

    pub fn routine_span(&self, r: Routine, st: &State) -> Span {
        match r {
            Routine::Proc(p) => self.game.proc_def(p).map(|d| d.info.span).unwrap_or_default(),
            Routine::Trigger(i) => self.game.triggers.get(i as usize).map(|d| d.info.span).unwrap_or_default(),
            Routine::Always(i) => self.game.always.get(i as usize).map(|d| d.info.span).unwrap_or_default(),
            Routine::Replace(i) => self.game.replaces.get(i as usize).map(|d| d.info.span).unwrap_or_default(),
            Routine::LastingReplace(i) => self.game.lasting.get(i as usize).map(|d| d.span).unwrap_or_default(),
            Routine::ObjTrigger(o, i) => st
                .obj(o)
                .and_then(|ob| self.game.def(ob.def))
                .and_then(|d| d.triggers.get(i as usize))
                .map(|t| t.info.span)
                .unwrap_or_default(),
            Routine::ObjReplace(o, i) => st
                .obj(o)
                .and_then(|ob| self.game.def(ob.def))
                .and_then(|d| d.replaces.get(i as usize))
                .map(|t| t.info.span)
                .unwrap_or_default(),
            Routine::Ability(o, i) => st
                .obj(o)
                .and_then(|ob| self.game.def(ob.def))
                .and_then(|d| d.abilities.get(i as usize))
                .map(|t| t.info.span)
                .unwrap_or_default(),
            Routine::Main | Routine::Scenario => Span::default(),
        }
    }

    /// Emit an event: queue every trigger that listens to it and whose condition holds.
    pub fn emit(&self, st: &mut State, event: EventId, args: Vec<Value>) -> Result<(), RtError> {
        if !self.game.listened.get(event as usize).copied().unwrap_or(false) {
            return Ok(());
        }
        let mut queued = Vec::new();
        {
            let evaluator = self.evaluator(st);
            for (i, t) in self.game.triggers.iter().enumerate() {
                if t.event != event {
                    continue;
                }
                let mut env = new_env(t.slots, args.clone(), None, None);
                if let Some(w) = &t.when
                    && !evaluator.truth(w, &mut env)?
                {
                    continue;
                }
                let controller = match &t.by {
                    Some(b) => Some(evaluator.player(b, &mut env)?),
                    None => None,
                };
                queued.push(PendingTrigger { routine: Routine::Trigger(i as u32), args: args.clone(), controller, ts: 0 });
            }
            for (id, def) in
                evaluator.active_passives(self.game.objects_hook.event(event), |d| d.triggers.iter().any(|t| t.event == event))?
            {
                let Some(o) = st.obj(id) else { continue };
                queued.extend(object_triggers(&evaluator, def, id, event, &args, o.controller, o.since)?);
            }
            // Last-known information: an object the event names that has just left play (since
            // the last decision) is seen as it was in play, so that its own triggers hear it —
            // `when challenge_lost(u, w) if u == self` on the card that lost and was defeated.
            let mut named: Vec<ObjId> = Vec::new();
            for a in args.iter().filter(|_| !st.left_play.is_empty()) {
                if let Value::Obj(id) = a
                    && !named.contains(id)
                {
                    named.push(*id);
                }
            }
            for id in named {
                let Some(&(_, controller)) = st.left_play.iter().rev().find(|(o, _)| *o == id) else { continue };
                if evaluator.is_active(id)? {
                    continue;
                }
                let Some(def) = st.obj(id).and_then(|o| self.game.def(o.def)) else { continue };
                let since = st.obj(id).map_or(0, |o| o.since);
                queued.extend(object_triggers(&evaluator, def, id, event, &args, controller, since)?);
            }
        }
        st.triggers.extend(queued);
        Ok(())
    }
}

/// An object's triggers on `event` whose conditions hold, queued with its controller `you`.
fn object_triggers(
    evaluator: &Evaluator,
    def: &ObjDef,
    id: ObjId,
    event: EventId,
    args: &[Value],
    you: Seat,
    since: u64,
) -> Result<Vec<PendingTrigger>, RtError> {
    let mut out = Vec::new();
    for (ti, t) in def.triggers.iter().enumerate() {
        if t.event != event {
            continue;
        }
        let mut env = new_env(t.slots, args.to_vec(), Some(you), Some(id));
        if let Some(w) = &t.when
            && !evaluator.truth(w, &mut env)?
        {
            continue;
        }
        out.push(PendingTrigger { routine: Routine::ObjTrigger(id, ti as u16), args: args.to_vec(), controller: Some(you), ts: since });
    }
    Ok(out)
}

/// Is the effect being resolved between two statements of its body? The top frame is a block of
/// the body (or of an `if` in it) with nothing but blocks down to the effect: not inside a loop,
/// whose iterations happen together, nor inside a procedure the effect called, which is one
/// statement of the effect.
fn between_effect_statements(st: &State) -> bool {
    if !matches!(st.frames.last().map(|f| &f.kind), Some(FrameKind::Block { .. })) {
        return false;
    }
    for f in st.frames.iter().rev() {
        match f.kind {
            FrameKind::Block { .. } => {}
            FrameKind::Call { holds: true, .. } | FrameKind::Ability { .. } => return true,
            _ => return false,
        }
    }
    false
}

/// Identifies the compiled game a state belongs to.
pub fn fingerprint(g: &Game) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for f in &g.files {
        for b in f.name.bytes().chain(f.text.bytes()) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{}+{}:{h:016x}", g.name, g.active_variants.join("+"))
}

/// The step is over: an object an answer of it named that a seat came to know before its end (a
/// card chosen, then played face up) is one that seat may read in the answer (see
/// `EventKind::Answered`).
fn settle_withheld(st: &mut State, from: usize) {
    for i in from..st.log.len() {
        let Some(EventKind::Answered { withheld, .. }) = st.log.get(i).map(|e| &e.kind) else { continue };
        let now: Vec<u64> = withheld.iter().map(|w| st.obj(w.obj).map_or(0, |o| o.known)).collect();
        if withheld.iter().zip(&now).all(|(w, k)| k & !w.known == 0) {
            continue;
        }
        if let Some(EventKind::Answered { withheld, .. }) = st.log.get_mut(i).map(|e| &mut e.kind) {
            for (w, k) in withheld.iter_mut().zip(now) {
                w.known |= k;
            }
        }
    }
}

/// What an assignment changes, for its event's name (see `Engine::set_name`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SetName {
    Global(u16),
    Player(Seat, u16),
    /// A field of an object, named by its definition (`obj_name`).
    Field(DefId, Sym),
}

impl Engine<'_> {
    /// The name an assignment's event shows for `key`, and whether its field is `announced`,
    /// made by `make` the first time.
    pub(super) fn set_name(&self, key: SetName, make: impl FnOnce() -> (String, bool)) -> (Arc<str>, bool) {
        if let Some(n) = self.set_names.borrow().get(&key) {
            return n.clone();
        }
        let (name, announced) = make();
        let n: (Arc<str>, bool) = (name.into(), announced);
        self.set_names.borrow_mut().insert(key, n.clone());
        n
    }
}
