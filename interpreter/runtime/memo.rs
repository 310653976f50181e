//! What evaluations remember: facts about objects, and function and check calls, for one
//! version of the state or, for a function whose reads are known, across versions (`Memo`).

use super::state::{Env, State};
use arbiter_ir::value::{ObjId, Seat, Value, ZoneRef};
use arbiter_ir::*;

/// Function and check calls remembered for one version, by routine (see `Memo::remembered`).
pub type CallMemo = std::collections::HashMap<Memoised, Vec<Call>, std::hash::BuildHasherDefault<arbiter_ir::SymHasher>>;

/// A routine whose calls are remembered: a function, or a check (with its forbids and permits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Memoised {
    Func(FuncId),
    Check(CheckId),
}

/// A remembered call: the routine, its arguments, `you`, `self`, and its value.
pub type RememberedCall = (Memoised, Vec<Value>, Option<Seat>, Option<ObjId>, Value);

/// A copy of what a memo holds (see `Evaluator::remembered_now`).
#[derive(Debug, Default)]
pub struct Remembered {
    pub calls: Vec<RememberedCall>,
    pub fields: Vec<(ObjId, Sym, Value)>,
    pub blank: Vec<(ObjId, bool)>,
}

/// A function call remembered: its arguments, `you` and `self`, and its value.
pub struct Call {
    /// `call_hash` of the rest: a remembered call whose hash differs is passed over at once.
    hash: u64,
    args: Vec<Value>,
    you: Option<Seat>,
    me: Option<ObjId>,
    value: Value,
    /// The objects it read that the checker cannot place (`CallDeps::seen`), for a call recorded
    /// around a later one that finds it.
    seen: Box<[ObjId]>,
}

impl Call {
    fn new(hash: u64, args: Vec<Value>, env: &Env, value: &Value, seen: Box<[ObjId]>) -> Call {
        Call { hash, args, you: env.you, me: env.self_obj, value: value.clone(), seen }
    }

    /// Whether this is the call with these arguments, `you` and `self` (whose `call_hash` is
    /// `hash`). Lists are compared by at most `ARGS_WALKED` items: past that, it is taken as
    /// another call (worked out again, never wrongly remembered).
    #[inline]
    fn is(&self, hash: u64, args: &[Value], you: Option<Seat>, me: Option<ObjId>) -> bool {
        self.hash == hash
            && self.you == you
            && self.me == me
            && self.args.len() == args.len()
            && self.args.iter().zip(args).all(|(a, b)| same_arg(a, b))
    }

    /// As a remembered call of `r`, for the test that checks it.
    fn remembered(&self, r: Memoised) -> RememberedCall {
        (r, self.args.clone(), self.you, self.me, self.value.clone())
    }
}

/// A call's arguments, `you` and `self` as one number: the same call (`Call::is`) always gives
/// the same number. Plain values count by their `code`; any other argument by its kind alone (two
/// lists are told apart by `Call::is`).
#[inline]
fn call_hash(args: &[Value], you: Option<Seat>, me: Option<ObjId>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    you.hash(&mut h);
    me.hash(&mut h);
    for a in args {
        match code(a) {
            Some(c) => c.hash(&mut h),
            None => std::mem::discriminant(a).hash(&mut h),
        }
    }
    h.finish()
}

/// How many items of a list argument a remembered call's argument is compared by, at most.
const ARGS_WALKED: u64 = 4096;

/// Whether a remembered call's argument is this one (lists within `ARGS_WALKED` items; a list
/// shared by both at once).
#[inline]
fn same_arg(a: &Value, b: &Value) -> bool {
    if let Some(same) = a.scalar_eq(b) {
        return same;
    }
    match (a, b) {
        (Value::List(x), Value::List(y)) => std::sync::Arc::ptr_eq(x, y) || lists_within(a, b),
        _ => a == b,
    }
}

#[inline(never)]
fn lists_within(a: &Value, b: &Value) -> bool {
    a.equal_within(b, &mut ARGS_WALKED.clone()) == Some(true)
}

/// How many different calls of one function an evaluation remembers.
const CALLS_KEPT: usize = 32;

/// Field values by `object << 32 | field`, each with the stamp it was worked out under (see
/// `Memo`).
pub type FieldMemo = std::collections::HashMap<u64, (Stamp, Value), std::hash::BuildHasherDefault<arbiter_ir::SymHasher>>;

/// What a remembered fact about an object may be used for: the numbers of what it read (see
/// `Memo`). A fact is used again only under the same stamp (`fits`).
pub type Stamp = (u64, u64);

/// The second number of the stamp of a fact that may read globals (`Reads::Local { globals:
/// true }`) but read none when it was worked out (`Evaluator::reading_globals`): like every
/// evaluation, it would read the same again while the object is unchanged, whatever the globals
/// are, so it holds under the object's number alone.
pub(super) const NO_GLOBALS: u64 = u64::MAX;

/// Whether a fact kept under `kept` holds under `now`: the same numbers, or the same object's
/// where it read no globals (`NO_GLOBALS`).
#[inline]
fn fits(kept: Stamp, now: Stamp) -> bool {
    kept.0 == now.0 && (kept.1 == now.1 || kept.1 == NO_GLOBALS)
}

/// What evaluations worked out about a state.
///
/// Invalidation: every change to what an expression can read gives the state a new version
/// (`State::touch`, called where the engine changes objects, zones, fields, players, temporary
/// modifiers and lasting effects). Remembered calls are only ever used by evaluations of the
/// version they were made for: they are emptied when an evaluation with another key uses the
/// memo. Facts about one object (blankness, fields read through modifiers) carry a stamp instead
/// (`Evaluator::stamp`): a fact that reads only the object, its pile and some globals
/// (`Reads::Local`, worked out when the rules are checked) is stamped with the object's number
/// and the globals' (`Obj::version`, `State::derived_globals`), which change whenever what it
/// reads does (`State::obj_mut`), so it is kept from one version to the next (with the object's
/// number alone when it read no global as it was worked out: `NO_GLOBALS`); any other fact is
/// stamped with the version. A call of a function whose reads the checker bounds
/// (`ir::CallReads::Only`, `check::call_reads`) is kept across versions too, under the numbers
/// of what it reads (`stamps`): the deep version of each zone instance it reads
/// (`State::zone_version`: new whenever the zone's contents change, `State::zone_mut`, or
/// anything about an object in it or beneath one, `State::obj_mut`), the number of each object
/// it is given (`Obj::version`), one for the globals it reads and one for the players' fields it
/// reads and who is out (`State::globals_number`, `State::players_number`: the newest of each
/// one's own number, new when it takes another value), and the derived globals'
/// (`State::derived_globals`; left open when the call read no global as it was worked out,
/// `Stamps::without_derived`); and when the function reads objects the checker cannot place (one
/// held in a field or a list, one beneath another: `CallDeps::seen`), the number of each object
/// the call read, recorded as it ran (`Evaluator::recording`: every object whose facts it read,
/// every object it passed to a function, and the objects of each call it found remembered, which
/// keeps its own list). Every number is unique across states and threads, so equal numbers mean
/// unchanged reads. Memos are kept between evaluations only in games whose version
/// is known (not for a loaded game before its first change, not in scenarios, whose scripts
/// change the state directly, and not by an engine that records causes (a `Tracer` that walks
/// every call, `trace::CauseRecorder`), since `explain` records each call it walks); otherwise
/// each evaluation has a key of its own and stamps everything with it. tests/memo.rs checks
/// every remembered answer against a fresh evaluation in seeded games of every rulebook, and a
/// probe game changes each thing a function can read, one at a time.
#[derive(Default)]
pub(super) struct Memo {
    version: u64,
    /// Whether each object is blank, with its stamp: 0 not known, 1 not blank, k + 2 blanked by
    /// the game's k-th blanking modifier.
    pub(super) blank: Vec<(Stamp, u32)>,
    /// Field values computed through modifiers, by object and field. Only reads that went
    /// through modifiers are kept. The table is never emptied (emptying a big table costs as much
    /// as the reads it saves): a value whose stamp is not the one its fact has now is not used
    /// (and is written over when read again).
    pub(super) fields: FieldMemo,
    /// Function and check calls and their values, by routine (see `Memo::remembered`).
    calls: CallMemo,
    /// Calls of functions whose reads are known (`ir::CallReads::Only`), kept from one version
    /// to the next under the numbers of what they read (see `Evaluator::call`). Never emptied: a
    /// call whose numbers changed is worked out again and written over.
    across: AcrossMemo,
    /// Zones' objects indexed by a key, for walks that look their items up (`lookup`), one for
    /// each zone instance and key looked up, under the zone's deep version it was made for. Never
    /// emptied: one whose version is not the zone's now is started again.
    pub(super) lookups: Vec<Sighted>,
    /// By function: how many of its calls were found kept and unchanged, how many were worked
    /// out, and the steps those took (`Memo::worth_keeping`).
    tally: Vec<(u32, u32, u64)>,
}

/// A function's calls are kept across versions for a trial of this many calls worked out, then
/// only while what the calls found save outweighs what keeping costs (`KEEPING_COST` steps a
/// call, measured on the rulebooks here).
const TALLY_TRIAL: u32 = 256;
/// A function none of whose calls was found unchanged is tried this many times only.
const TALLY_TRIAL_NONE_FOUND: u32 = 32;
const KEEPING_COST: u64 = 6;

/// Calls kept across versions, by function (see `Memo::across`).
pub type AcrossMemo = std::collections::HashMap<FuncId, Vec<KeptCall>, std::hash::BuildHasherDefault<arbiter_ir::SymHasher>>;

/// A call kept across versions, with the numbers of what it read (`stamps`).
pub struct KeptCall {
    call: Call,
    stamps: Box<[u64]>,
    /// The objects it read that the checker cannot place, with their numbers then
    /// (`CallDeps::seen`).
    objs: Box<[(ObjId, u64)]>,
    /// The version of the state it was worked out at (for `Memo::kept_earlier`).
    made: u64,
}

/// How many different calls of one function are kept across versions.
const CALLS_KEPT_ACROSS: usize = 64;

/// The most objects the checker cannot place that a call kept across versions may read
/// (`CallDeps::seen`): one that reads more is worked out again at each version.
const SEEN_KEPT: usize = 256;

/// Whether none of these objects has changed since their numbers were taken.
#[inline]
fn unchanged(st: &State, objs: &[(ObjId, u64)]) -> bool {
    objs.iter().all(|&(o, v)| st.obj(o).map_or(0, |x| x.version) == v)
}

/// What an evaluation notes of the globals it reads (`Evaluator::globals_read`), for the facts
/// and calls it keeps.
impl super::eval::Evaluator<'_> {
    /// `f`'s result, and whether it read a global (or found remembered a fact or call that may
    /// have read one); what it read, the evaluation around it reads too.
    #[inline]
    pub(super) fn reading_globals<T>(&self, f: impl FnOnce() -> T) -> (T, bool) {
        let outer = self.globals_read.replace(false);
        let r = f();
        let read = self.globals_read.get();
        self.globals_read.set(outer || read);
        (r, read)
    }

    /// The stamp to keep a fact about one object under, worked out under `stamp` (see `Memo`):
    /// the object's number alone when it may read globals and `read` none (`memo::NO_GLOBALS`).
    #[inline]
    pub(super) fn kept_stamp(&self, stamp: Stamp, reads: Reads, read: bool) -> Stamp {
        if self.kept && !read && reads == (Reads::Local { globals: true }) { (stamp.0, NO_GLOBALS) } else { stamp }
    }

    /// A fact about one object found remembered under `kept`: the evaluation reads what the
    /// fact did, globals among them when it may have read any (see `globals_read`).
    #[inline]
    pub(super) fn found_fact(&self, kept: Stamp, reads: Reads) {
        let read = match reads {
            Reads::Local { globals } => globals && kept.1 != NO_GLOBALS,
            Reads::Everything => true,
        };
        if read {
            self.globals_read.set(true);
        }
    }
}

/// The numbers of what one call reads (`stamps`); a call that reads more than 32 is not kept.
pub(super) struct Stamps {
    numbers: [u64; 32],
    len: usize,
}

impl Stamps {
    fn as_slice(&self) -> &[u64] {
        self.numbers.get(..self.len).unwrap_or_default()
    }

    /// The stamps of a call that reads objects' derived facts (`CallDeps::derived`, whose
    /// number `stamps` puts last) but read none that read a global as it was worked out: the
    /// derived globals' number left open (`NO_GLOBALS`), like a fact's (see `fits`).
    pub(super) fn without_derived(&self) -> Stamps {
        let mut out = Stamps { numbers: self.numbers, len: self.len };
        if let Some(last) = self.len.checked_sub(1).and_then(|i| out.numbers.get_mut(i)) {
            *last = NO_GLOBALS;
        }
        out
    }
}

/// Whether a kept call's stamps hold now: each number the same, or the last left open
/// (`NO_GLOBALS`, `Stamps::without_derived`).
#[inline]
fn stamps_fit(kept: &[u64], now: &[u64]) -> bool {
    kept == now
        || match (kept.split_last(), now.split_last()) {
            (Some((&NO_GLOBALS, k)), Some((_, n))) => k == n,
            _ => false,
        }
}

impl Memo {
    /// The value of field `key` (`object << 32 | field`) that holds under `stamp`, with the
    /// stamp it was kept under.
    pub(super) fn field(&self, key: u64, stamp: Stamp) -> Option<&(Stamp, Value)> {
        self.fields.get(&key).filter(|(s, _)| fits(*s, stamp))
    }

    /// Whether object `o` is blank as known under `stamp` (see `blank`), with the stamp it was
    /// kept under.
    pub(super) fn blank_of(&self, o: ObjId, stamp: Stamp) -> Option<(Stamp, u32)> {
        self.blank.get(o as usize).copied().filter(|(s, k)| *k != 0 && fits(*s, stamp))
    }

    pub(super) fn keep_field(&mut self, key: u64, stamp: Stamp, v: Value) {
        self.fields.insert(key, (stamp, v));
    }
}

/// Whether what evaluations work out about this state may be kept for the next evaluation of the
/// same version (see `Memo`).
pub(super) fn memo_kept(st: &State) -> bool {
    st.version != 0 && st.mode == super::state::Mode::Game
}

/// The numbers of what every `always` block reads now, in order, when the engine may leave them
/// unrun while those are unchanged (`Game::always_reads`, `Engine::advance`): in a game whose
/// memos are kept (`memo_kept`), when each block's reads are bounded. (An engine that walks every
/// call runs them every time.)
pub(super) fn always_stamps(game: &Game, st: &State) -> Option<std::sync::Arc<[u64]>> {
    let mut numbers = Vec::new();
    each_always_stamp(game, st, |now| {
        numbers.push(now);
        true
    })
    .then(|| numbers.into())
}

/// Whether the `always` blocks may be left unrun now: no trigger waits, and `always_stamps` would
/// give what they read when they last all ran and left no mark (`State::always_quiet`). Worked
/// out in place, each number compared with the kept one as it is made, without making the list:
/// the engine asks at every quiet moment.
pub(super) fn always_still_quiet(game: &Game, st: &State) -> bool {
    let Some(quiet) = st.always_quiet.as_deref() else { return false };
    if !st.triggers.is_empty() {
        return false;
    }
    let mut at = 0;
    each_always_stamp(game, st, |now| {
        let same = quiet.get(at) == Some(&now);
        at += 1;
        same
    }) && at == quiet.len()
}

/// Each number every `always` block reads now, block by block, to `visit`, while it says go on:
/// whether they all could be made and were visited (see `always_stamps`).
fn each_always_stamp(game: &Game, st: &State, mut visit: impl FnMut(u64) -> bool) -> bool {
    if game.always_reads.len() != game.always.len() || !memo_kept(st) {
        return false;
    }
    game.always_reads.iter().all(|deps| deps.as_deref().is_some_and(|deps| each_stamp(game, st, deps, &[], None, None, &mut visit)))
}

/// The stamp a fact about object `o` that reads `reads` is remembered under (see `Memo`): the
/// object's number and the derived globals' when the fact is local and memos are `kept`, else
/// `key` (the evaluation's).
#[inline]
pub(super) fn object_stamp(st: &State, kept: bool, key: u64, o: ObjId, reads: Reads) -> Stamp {
    match reads {
        Reads::Local { globals } if kept => (st.obj(o).map_or(0, |x| x.version), if globals { st.derived_globals } else { 0 }),
        _ => (key, 0),
    }
}

/// The numbers of what a call with these arguments, `you` and `self` reads (see
/// `ir::CallDeps`); none when they are too many or an argument is not what the function's reads
/// expect (then the call is not kept).
#[inline]
pub(super) fn stamps(game: &Game, st: &State, deps: &CallDeps, args: &[Value], you: Option<Seat>, me: Option<ObjId>) -> Option<Stamps> {
    let mut out = Stamps { numbers: [0; 32], len: 0 };
    each_stamp(game, st, deps, args, you, me, |v| {
        let Some(n) = out.numbers.get_mut(out.len) else { return false };
        *n = v;
        out.len += 1;
        true
    })
    .then_some(out)
}

/// Each of the numbers `stamps` gives, in order, to `visit`, while it says go on: whether they
/// all could be made (at most `Stamps`' 32, each argument what the reads expect) and were
/// visited. (`always_still_quiet` compares them as they come, without making the list.)
#[inline]
fn each_stamp(
    game: &Game,
    st: &State,
    deps: &CallDeps,
    args: &[Value],
    you: Option<Seat>,
    me: Option<ObjId>,
    mut visit: impl FnMut(u64) -> bool,
) -> bool {
    let mut count = 0usize;
    let mut put = |v: u64| -> Option<()> {
        count += 1;
        (count <= 32 && visit(v)).then_some(())
    };
    let seats = st.players.len();
    let mut all = || -> Option<()> {
        for &(zone, owner) in &deps.zones {
            let (zone, seat) = match owner {
                ZoneOwner::Param(i) => match args.get(usize::from(i)) {
                    Some(Value::Player(p)) => (zone, Some(*p)),
                    _ => (zone, None),
                },
                ZoneOwner::You => (zone, you),
                ZoneOwner::Seat(p) => (zone, Some(p)),
                ZoneOwner::Any => (zone, None),
                ZoneOwner::ZoneParam(i) => match args.get(usize::from(i)) {
                    Some(Value::Zone(z)) => (z.zone, z.owner),
                    _ => return None,
                },
            };
            if !game.zone(zone).is_some_and(|d| d.per_player) {
                put(st.zone_version(ZoneRef { zone, owner: None }))?;
            } else if let Some(p) = seat {
                put(st.zone_version(ZoneRef { zone, owner: Some(p) }))?;
            } else {
                for p in 0..seats {
                    put(st.zone_version(ZoneRef { zone, owner: Seat::try_from(p).ok() }))?;
                }
            }
        }
        for g in &deps.objects {
            let o = match g {
                GivenObject::Param(i) => match args.get(usize::from(*i)) {
                    Some(Value::Obj(o)) => Some(*o),
                    Some(Value::None) => None,
                    _ => return None,
                },
                GivenObject::SelfObj => me,
            };
            put(o.and_then(|o| st.obj(o)).map_or(0, |x| x.version))?;
        }
        if !deps.globals.is_empty() {
            put(st.globals_number(deps.globals))?;
        }
        if !deps.players.is_empty() {
            put(st.players_number(deps.players))?;
        }
        if deps.derived {
            put(st.derived_globals)?;
        }
        Some(())
    };
    all().is_some()
}

/// How one function's calls fared in the memo kept across versions (`Engine::kept_calls`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeptTally {
    pub func: FuncId,
    /// Calls found kept, their reads unchanged.
    pub found: u32,
    /// Calls worked out (and kept).
    pub worked_out: u32,
    /// Whether its calls are still kept: they stop being kept when what they save does not
    /// outweigh looking (`Memo::worth_keeping`).
    pub kept: bool,
}

impl Memo {
    /// This memo for an evaluation with memo key `key`: emptied of the calls of one version first
    /// if another evaluation's.
    #[inline]
    pub(super) fn at(&mut self, key: u64) -> &mut Memo {
        if self.version != key {
            self.version = key;
            // Each routine's list of calls is emptied, not dropped: its room is kept.
            self.calls.values_mut().for_each(Vec::clear);
        }
        self
    }

    /// How each function whose calls were kept across versions fared, by function.
    pub(super) fn tallies(&self) -> Vec<KeptTally> {
        let ids = (0u32..).zip(&self.tally);
        ids.filter(|(_, (f, m, _))| *f > 0 || *m > 0)
            .map(|(func, &(found, worked_out, _))| KeptTally { func, found, worked_out, kept: self.worth_keeping(func) })
            .collect()
    }

    /// Whether `fid`'s calls are worth keeping across versions: while too few of them are found
    /// unchanged, keeping them costs more than it saves, and each version keeps its own instead
    /// (see `Memo::tally`).
    #[inline]
    pub(super) fn worth_keeping(&self, fid: FuncId) -> bool {
        let (found, missed, steps) = self.tally.get(fid as usize).copied().unwrap_or_default();
        // The steps a call found saves (those of an average call worked out), against what
        // looking and keeping cost every call (`KEEPING_COST`, in steps).
        let saved = u64::from(found).saturating_mul(steps / u64::from(missed.max(1)));
        let trial = if found == 0 { TALLY_TRIAL_NONE_FOUND } else { TALLY_TRIAL };
        missed < trial || saved >= (u64::from(found) + u64::from(missed)).saturating_mul(KEEPING_COST)
    }

    /// A call kept across versions whose reads have not changed since in `st`, and whether it
    /// read a global through a derived fact (its derived number not left open,
    /// `Stamps::without_derived`); the objects it read that the checker cannot place go into
    /// `seen` (a call being recorded around it).
    #[inline]
    pub(super) fn kept_across(
        &mut self,
        st: &State,
        fid: FuncId,
        args: &[Value],
        env: &Env,
        stamps: &Stamps,
        seen: Option<&mut Vec<ObjId>>,
    ) -> Option<(Value, bool)> {
        let found = self
            .across
            .get(&fid)
            .filter(|kept| !kept.is_empty())
            .and_then(|kept| {
                let hash = call_hash(args, env.you, env.self_obj);
                kept.iter().find(|k| k.call.is(hash, args, env.you, env.self_obj))
            })
            .filter(|k| stamps_fit(&k.stamps, stamps.as_slice()) && unchanged(st, &k.objs))
            .map(|k| {
                if let Some(seen) = seen {
                    seen.extend(k.objs.iter().map(|(o, _)| *o));
                }
                (k.call.value.clone(), k.stamps.last() != Some(&NO_GLOBALS))
            });
        let i = fid as usize;
        if self.tally.len() <= i {
            self.tally.resize(i + 1, (0, 0, 0));
        }
        if let Some((f, _, _)) = self.tally.get_mut(i)
            && found.is_some()
        {
            *f = f.saturating_add(1);
        }
        found
    }

    /// Keep a call worked out in `st` in `steps` steps, which read the objects `seen` the
    /// checker cannot place, if any (kept with their numbers in `st`).
    #[expect(clippy::too_many_arguments, reason = "a kept call's whole description, passed once")]
    pub(super) fn keep_across(
        &mut self,
        st: &State,
        fid: FuncId,
        args: Vec<Value>,
        env: &Env,
        stamps: &Stamps,
        seen: &[ObjId],
        value: &Value,
        steps: u64,
    ) {
        if let Some((_, m, n)) = self.tally.get_mut(fid as usize) {
            *m = m.saturating_add(1);
            *n = n.saturating_add(steps);
        }
        if seen.len() > SEEN_KEPT {
            return;
        }
        let objs = seen.iter().map(|&o| (o, st.obj(o).map_or(0, |x| x.version))).collect();
        let kept = self.across.entry(fid).or_default();
        let hash = call_hash(&args, env.you, env.self_obj);
        let slot = kept.iter().position(|k| k.call.is(hash, &args, env.you, env.self_obj));
        // Its objects are `objs` alone (the per-version list of `Call` is for calls not kept).
        let call =
            KeptCall { call: Call::new(hash, args, env, value, Box::default()), stamps: stamps.as_slice().into(), objs, made: st.version };
        match slot.and_then(|i| kept.get_mut(i)) {
            Some(old) => *old = call,
            None => {
                if kept.len() >= CALLS_KEPT_ACROSS {
                    kept.remove(0);
                }
                kept.push(call);
            }
        }
    }

    /// The value of a call made before at this version with the same arguments, `you` and
    /// `self`; the objects it read that the checker cannot place go into `seen` (a call being
    /// recorded around it).
    #[inline]
    pub(super) fn remembered(&self, r: Memoised, args: &[Value], env: &Env, seen: Option<&mut Vec<ObjId>>) -> Option<Value> {
        let kept = self.calls.get(&r).filter(|kept| !kept.is_empty())?;
        let hash = call_hash(args, env.you, env.self_obj);
        let c = kept.iter().find(|c| c.is(hash, args, env.you, env.self_obj))?;
        if let Some(seen) = seen {
            seen.extend_from_slice(&c.seen);
        }
        Some(c.value.clone())
    }

    /// Remember a call worked out at this version, which read the objects `seen` the checker
    /// cannot place.
    pub(super) fn remember(&mut self, r: Memoised, args: Vec<Value>, env: &Env, value: &Value, seen: Box<[ObjId]>) {
        let kept = self.calls.entry(r).or_default();
        if kept.len() < CALLS_KEPT {
            kept.push(Call::new(call_hash(&args, env.you, env.self_obj), args, env, value, seen));
        }
    }

    /// What an evaluation may take from this memo now (see `Evaluator::remembered_now`);
    /// `stamp` gives a fact about an object the stamp it has now.
    pub(super) fn now(&self, game: &Game, st: &State, stamp: impl Fn(ObjId, Reads) -> Stamp) -> Remembered {
        let mut calls: Vec<RememberedCall> = self.calls.iter().flat_map(|(r, cs)| cs.iter().map(|c| c.remembered(*r))).collect();
        calls.extend(self.kept_now(game, st).map(|(f, k)| k.call.remembered(Memoised::Func(f))));
        let fields = self
            .fields
            .keys()
            .filter_map(|k| {
                let (o, f) = ((k >> 32) as ObjId, (k & 0xffff_ffff) as Sym);
                Some((o, f, self.field(*k, stamp(o, game.derived.field(f)))?.1.clone()))
            })
            .collect();
        let blank = (0..self.blank.len())
            .filter_map(|o| {
                let o = o as ObjId;
                self.blank_of(o, stamp(o, game.derived.blank)).map(|(_, b)| (o, b > 1))
            })
            .collect();
        Remembered { calls, fields, blank }
    }

    /// How many calls kept across versions hold now and were worked out at an earlier version.
    pub(super) fn kept_earlier(&self, game: &Game, st: &State) -> usize {
        self.kept_now(game, st).filter(|(_, k)| k.made != st.version).count()
    }

    /// The calls kept across versions whose reads are unchanged in `st`, with their functions.
    fn kept_now<'m>(&'m self, game: &'m Game, st: &'m State) -> impl Iterator<Item = (FuncId, &'m KeptCall)> {
        self.across
            .iter()
            .filter_map(|(f, kept)| match game.call_reads.get(*f as usize) {
                Some(CallReads::Only(deps)) => Some((*f, deps, kept)),
                _ => None,
            })
            .flat_map(|(f, deps, kept)| kept.iter().map(move |k| (f, deps, k)))
            .filter(|(_, deps, k)| {
                let c = &k.call;
                stamps(game, st, deps, &c.args, c.you, c.me).is_some_and(|now| stamps_fit(&k.stamps, now.as_slice()))
                    && unchanged(st, &k.objs)
            })
            .map(|(f, _, k)| (f, k))
    }
}

/// A zone instance's objects sorted by a key (`lookup`), those with the same key in the zone's
/// order.
#[derive(Debug)]
pub struct Index {
    pub(super) keys: Vec<Code>,
    pub(super) objs: Vec<ObjId>,
}

impl Index {
    /// Where the objects whose key is `key` are in `objs` (in the zone's order).
    pub(super) fn range(&self, key: Code) -> std::ops::Range<usize> {
        let from = self.keys.partition_point(|k| *k < key);
        from..from + self.keys.get(from..).map_or(0, |rest| rest.partition_point(|k| *k == key))
    }

    /// The `i`-th object of `objs`.
    #[inline]
    pub(super) fn object(&self, i: usize) -> Option<ObjId> {
        self.objs.get(i).copied()
    }
}

/// A plain value as a key of an index, or in a call's hash: its kind and its bits (`code`).
pub(super) type Code = (u8, u64);

/// A plain value as a `Code`. Two values have the same code exactly when the evaluator's `==`
/// finds them equal (`Evaluator::equal`: values of different kinds never are), as the derived
/// `==` does; other values (lists, texts, amounts, ...) have none.
pub(super) fn code(v: &Value) -> Option<Code> {
    Some(match v {
        Value::None => (0, 0),
        Value::Bool(b) => (1, u64::from(*b)),
        Value::Int(i) => (2, u64::from_ne_bytes(i.to_ne_bytes())),
        Value::Sym(s) => (3, u64::from(*s)),
        Value::Player(p) => (4, u64::from(*p)),
        Value::Obj(o) => (5, u64::from(*o)),
        Value::Def(d) => (6, u64::from(*d)),
        Value::Zone(z) => (7, u64::from(z.zone) << 32 | z.owner.map_or(u64::from(u32::MAX), u64::from)),
        Value::Proc(p) => (8, u64::from(*p)),
        _ => return None,
    })
}

/// What the lookups of one zone instance by one key have met (see `Memo::lookups`): the zone's
/// deep version they are for, how many there were at it, and the index once made (or tried).
pub struct Sighted {
    pub(super) zone: ZoneRef,
    pub(super) key: LookupKey,
    pub(super) stamp: u64,
    pub(super) seen: u32,
    /// How many times an index was tried (made, or failed) at this version: once, at most.
    pub(super) tried: u32,
    pub(super) index: Indexed,
}

/// Whether a zone's index by a key was made at its version (see `Sighted`).
pub enum Indexed {
    Not,
    Made(std::sync::Arc<Index>),
    /// It could not be (a key that is not a plain value, or cannot be read): the zone is walked.
    Failed,
}
