//! The whole state of a running game as one plain, serializable value: players, objects,
//! zones, temporary modifiers, the frame stack (the pending effects), queued triggers, the
//! decision being asked, the random generator and the event log.

use super::chunked::Chunked;
use arbiter_ir::operators::ModifyOperator;
use arbiter_ir::value::{ObjId, Seat, Value, ZoneRef};
use arbiter_ir::{BlockId, DefId, Game, ProcId, Slot, Sym};
use arbiter_syntax::span::Span;
use indexmap::IndexMap;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Every seat knows it: the bitmask of all seats.
pub const ALL: u64 = u64::MAX;

pub fn seat_bit(s: Seat) -> u64 {
    1u64.checked_shl(u32::from(s)).unwrap_or(0)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Mode {
    /// A whole game: setup, then the turn procedure again and again until a result.
    Game,
    /// A scenario: only what the scenario runs.
    #[default]
    Scenario,
}

#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct State {
    pub fingerprint: Arc<str>,
    pub mode: Mode,
    pub players: Vec<PlayerState>,
    pub globals: Vec<Value>,
    pub consts: Vec<Value>,
    pub objects: Chunked<Obj>,
    /// Each zone instance's objects, shared with clones until changed (`zone_mut`).
    pub zones: Vec<Arc<Vec<ObjId>>>,
    pub temp_mods: Vec<TempMod>,
    /// Objects that left play since the last decision (one settled at once too) while their abilities were in effect, with
    /// their controllers then: an event that names one reaches its triggers as it was in play
    /// (last-known information, `Engine::emit`). Empty at every decision, so never saved.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_play: Vec<(ObjId, Seat)>,
    /// Prohibitions and permissions made by effects, until their duration expires.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lasting: Vec<Lasting>,
    pub frames: Vec<Frame>,
    pub envs: Vec<Env>,
    pub pending: Option<Decision>,
    pub triggers: Vec<PendingTrigger>,
    pub rng: Rng,
    pub log: Log,
    pub clock: u64,
    pub result: Option<GameResult>,
    pub dirty: bool,
    pub checking: bool,
    pub turns: u32,
    /// Each seat's decklist, by section; set up once, shared by every clone.
    pub decklists: Arc<Vec<IndexMap<String, Vec<DefId>>>>,
    pub decisions: u64,
    /// Which contents this is: a new number whenever something an expression can read changes
    /// (`touch`), unique across states and threads; 0 when unknown (a loaded game). Evaluations
    /// keep what they work out for one version (`memo::Memo`). Not part of the saved game.
    #[serde(skip)]
    pub version: u64,
    /// A new number whenever a global that some object's derived fact reads changes
    /// (`Game::derived`); with each object's `Obj::version`, what its blankness and fields
    /// read through modifiers may be remembered under (`memo::Memo`). Not part of the saved game.
    #[serde(skip)]
    pub derived_globals: u64,
    /// Each zone instance's deep version, by `zone_key`: a new number whenever its contents
    /// change, or anything about an object in it or beneath one (`zone_mut`, `obj_mut`). What a
    /// function's call read is remembered under these (`ir::CallReads`, `memo::Memo`). A zone not
    /// listed has `numbers_base`. Not part of the saved game.
    #[serde(skip)]
    pub zone_versions: Vec<u64>,
    /// The number of every zone instance, global and player's field not changed since the state
    /// was numbered (`touch`). Not part of the saved game.
    #[serde(skip)]
    pub numbers_base: u64,
    /// A new number whenever a global changes. Not part of the saved game.
    #[serde(skip)]
    pub globals_version: u64,
    /// Each global's own number, by index: a new one whenever it changes (`global_changed`; one
    /// not listed has `numbers_base`). Not part of the saved game.
    #[serde(skip)]
    pub global_versions: Vec<u64>,
    /// A new number whenever a player's field changes or a player is out. Not part of the saved
    /// game.
    #[serde(skip)]
    pub players_version: u64,
    /// Each player field's own number, by index, for all players at once: a new one whenever it
    /// changes for any of them (`player_field_changed`; one not listed has `numbers_base`). Not
    /// part of the saved game.
    #[serde(skip)]
    pub player_field_versions: Vec<u64>,
    /// A new number whenever a player is out (`player_out_changed`). Not part of the saved game.
    #[serde(skip)]
    pub out_version: u64,
    /// The version (`version`) the `always .. immediately` checks last ran at inside a card
    /// effect, so that they run once for each new state. Not part of the saved game.
    #[serde(skip)]
    pub checked_now: Option<u64>,
    /// The numbers of what the `always` blocks read (`Game::always_reads`) when they last all ran
    /// and left no mark: while those are the numbers now, running them again would do nothing, and
    /// the engine leaves them unrun (`Engine::advance`). Not part of the saved game.
    #[serde(skip)]
    pub always_quiet: Option<Arc<[u64]>>,
    /// While the `always` blocks run: the numbers of what they read, the version and the length
    /// of the log as they started.
    #[serde(skip)]
    pub always_started: Option<(Arc<[u64]>, u64, usize)>,
}

/// The record `arbiter explain --why` walks back: causes beyond the log, kept while a scenario
/// runs (`trace::CauseRecorder`) — which call each event happened in, who called what from where,
/// and the conditions that chose each branch.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct Tracing {
    pub calls: Vec<CallRec>,
    /// For each event of the log, the call it happened in (`NO_CALL` at the top level).
    pub event_call: Vec<u32>,
    pub branches: Vec<BranchRec>,
}

/// No call: the top level of a game or scenario.
pub const NO_CALL: u32 = u32::MAX;

/// A routine entered: what, with which arguments, from which statement of which caller.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CallRec {
    pub routine: Routine,
    pub args: Vec<Value>,
    /// The statement that called it (for a trigger, the one that raised its event).
    pub site: Cause,
    pub parent: u32,
    /// The number of events logged before it was entered.
    pub first_event: u32,
}

/// An `if` decided: the condition, its value and its parts' values, in which call, after which
/// event.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BranchRec {
    pub call: u32,
    pub span: Span,
    pub value: bool,
    pub detail: String,
    pub at_event: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Env {
    pub slots: Vec<Value>,
    pub you: Option<Seat>,
    pub self_obj: Option<ObjId>,
    /// The call record of the routine this env belongs to, while tracing.
    #[serde(default = "no_call", skip_serializing_if = "is_no_call")]
    pub rec: u32,
}

fn no_call() -> u32 {
    NO_CALL
}

fn is_no_call(r: &u32) -> bool {
    *r == NO_CALL
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlayerState {
    pub fields: Vec<Value>,
    pub out: bool,
}

/// Where an object is: directly in a zone, or under another object (a pile).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Place {
    Zone(ZoneRef),
    Under(ObjId),
    Nowhere,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Obj {
    pub def: DefId,
    pub owner: Seat,
    pub controller: Seat,
    pub place: Place,
    pub face_up: bool,
    /// Seats that know what this object is (bitmask).
    pub known: u64,
    /// Permanent changes to printed values.
    pub fields: Vec<(Sym, Value)>,
    pub under: Vec<ObjId>,
    /// When it last changed place (for the timestamp order of its effects).
    pub since: u64,
    /// Shuffled among others in a zone no player owns (cards played face down, then shuffled):
    /// whose it is can no longer be told by looking, so views do not say (`view::public_marks`),
    /// until it comes into a player's zone.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mixed: bool,
    /// Which contents this object has: a new number whenever anything about it changes, or about
    /// an object it lies under (`State::obj_mut`); unique across states and threads, 0 when
    /// unknown (a loaded game, until its first change numbers every object). Not saved.
    #[serde(skip)]
    pub version: u64,
}

/// A `forbid ..`/`permit .. until d` an effect made: `Game::lasting[def]`, with the names of the
/// code that made it (its env's slots, `you` and `self`) as they were then.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Lasting {
    pub def: u32,
    pub slots: Vec<Value>,
    pub you: Option<Seat>,
    pub self_obj: Option<ObjId>,
    pub until: Option<usize>,
    /// When it was made (`State::tick`): a lasting replacement's identity (`ReplacementRef::Lasting`).
    #[serde(default)]
    pub made: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TempMod {
    pub obj: ObjId,
    pub field: Sym,
    pub op: ModifyOperator,
    pub value: Value,
    pub until: Option<usize>,
    pub ts: u64,
}

/// What a piece of running code is, for causes in the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Routine {
    Main,
    Scenario,
    Proc(ProcId),
    Trigger(u32),
    ObjTrigger(ObjId, u16),
    Always(u32),
    Replace(u32),
    ObjReplace(ObjId, u16),
    /// A lasting replacement an effect made, by its `LastingDef`.
    LastingReplace(u32),
    Ability(ObjId, u16),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cause {
    pub routine: Routine,
    pub span: Span,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Frame {
    pub kind: FrameKind,
    pub env: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum FrameKind {
    /// The root of a game: runs setup, then turns.
    Main { setup_done: bool },
    /// A routine was entered; its env is popped when this frame is.
    Call { routine: Routine, ret: Option<(u32, Slot)>, holds: bool },
    /// Statements of a block, the next one at `pc`.
    Block { block: BlockId, pc: u32 },
    /// A loop statement at `block[index]`.
    Loop { block: BlockId, index: u32, iter: LoopIter },
    /// Using an ability: pay costs, choose targets, then do it.
    Ability { obj: ObjId, idx: u16, stage: u16 },
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum LoopIter {
    For { items: Arc<Vec<Value>>, next: u32 },
    While,
    Repeat { left: i64 },
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PendingTrigger {
    pub routine: Routine,
    pub args: Vec<Value>,
    pub controller: Option<Seat>,
    pub ts: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Count {
    One,
    Exactly(u32),
    UpTo(u32),
    Order,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Choice {
    pub label: Arc<str>,
    pub value: Value,
    /// A branch marked `rarely`: the random bots pick it seldom.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rarely: bool,
}

/// Where the answer to a decision goes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Dest {
    Discard,
    Slot { env: u32, slot: Slot },
    Branch { env: u32, blocks: Vec<BlockId> },
    Replace { proc: ProcId, args: Vec<Value>, ret: Option<(u32, Slot)>, candidate: ReplacementRef, declined: Vec<ReplacementRef> },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReplacementRef {
    Rule(u32),
    Obj(ObjId, u16),
    /// A lasting replacement, by when it was made (`Lasting::made`).
    Lasting(u64),
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Decision {
    pub seat: Seat,
    pub prompt: Arc<str>,
    pub options: Vec<Choice>,
    pub count: Count,
    /// The label of the "choose nothing" option, listed last, when there is one.
    pub none: Option<Arc<str>>,
    pub secret: bool,
    pub dest: Dest,
    pub cause: Cause,
    /// The options' labels without the numbers that tell alike options apart (`Ace (2)`), when
    /// any were numbered: what the other seats read of an answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plain: Option<Arc<[Arc<str>]>>,
}

impl Decision {
    /// How many options it offers, the "none" option included.
    pub fn offered(&self) -> usize {
        self.options.len() + usize::from(self.none.is_some())
    }

    /// All labels as offered, the "none" option last.
    pub fn labels(&self) -> Vec<String> {
        let mut v: Vec<String> = self.options.iter().map(|c| c.label.to_string()).collect();
        if let Some(n) = &self.none {
            v.push(n.to_string());
        }
        v
    }
}

/// An answer: option indices (0-based, in the order offered; the "none" option is last).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer(pub Vec<usize>);

#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum ScriptedRandom {
    Roll(i64),
    Keep,
    Order(Vec<Value>),
    Pick(Value),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    pub winners: Vec<Seat>,
    pub losers: Vec<(Seat, String)>,
    pub reason: String,
    /// Ended by `end draw`; a `win` of nobody (a team with no players yet) is a loss for all.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub draw: bool,
}

/// The game's random source: ChaCha8 at a word position, so a saved game resumes the same stream.
/// The live generator is a cache of `(seed, pos)`: it is rebuilt from them whenever it is missing
/// (a loaded game) or out of step (someone moved `pos`), so what is saved stays the truth.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct Rng {
    pub seed: [u8; 32],
    pub pos: u128,
    #[serde(skip)]
    live: Option<ChaCha8Rng>,
}

impl Rng {
    pub fn from_seed(seed: u64) -> Rng {
        let r = ChaCha8Rng::seed_from_u64(seed);
        Rng { seed: r.get_seed(), pos: 0, live: Some(r) }
    }

    /// Fisher-Yates: each order equally likely, from the last place down.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        shuffle_with(items, |n| self.below(n));
    }

    /// A uniform number in `0..n` (n ≥ 1), by rejection sampling: stable across platforms.
    pub fn below(&mut self, n: u64) -> u64 {
        let (seed, pos) = (self.seed, self.pos);
        let r = match &mut self.live {
            Some(r) if r.get_word_pos() == pos && r.get_seed() == seed => r,
            live => live.insert({
                let mut r = ChaCha8Rng::from_seed(seed);
                r.set_word_pos(pos);
                r
            }),
        };
        let out = below_with(r, n);
        self.pos = r.get_word_pos();
        out
    }
}

/// A uniform number in `0..n` (n ≥ 1) from a generator, by rejection sampling: stable across
/// platforms (the game's random source and the bots' draw alike).
pub fn below_with(r: &mut impl rand::Rng, n: u64) -> u64 {
    let n = n.max(1);
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = r.next_u64();
        if x < zone {
            return x % n;
        }
    }
}

/// Fisher-Yates with `below` as the draw: each order equally likely, from the last place down.
pub fn shuffle_with<T>(items: &mut [T], mut below: impl FnMut(u64) -> u64) {
    for i in (1..items.len()).rev() {
        let j = below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// A version number no state has had: each thread takes blocks of numbers from a shared counter,
/// so a new version costs no synchronisation but once in a million.
pub(crate) fn new_version() -> u64 {
    new_version_after(0)
}

/// A version number no state has had, greater than `floor` (a number given before): from this
/// thread's block, or, when that block is older than `floor` (the state came from another
/// thread), from a new block, which is greater than every number given so far. A state's
/// versions only grow (`State::touch`), whichever threads it passes through, as
/// `State::globals_number` needs.
pub(crate) fn new_version_after(floor: u64) -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    const BLOCK: u64 = 1 << 20;
    static NEXT_BLOCK: AtomicU64 = AtomicU64::new(1);
    thread_local! {
        static NEXT: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
    }
    NEXT.with(|c| {
        let (mut next, mut end) = c.get();
        if next == end || next <= floor {
            next = NEXT_BLOCK.fetch_add(1, Ordering::Relaxed).saturating_mul(BLOCK);
            end = next + BLOCK;
        }
        c.set((next + 1, end));
        next
    })
}

// ---------------------------------------------------------------------------------------------
// Events

pub use super::log::Log;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Event {
    pub kind: EventKind,
    pub cause: Cause,
    /// Seats that may see the event's details.
    pub visible: u64,
    pub depth: u16,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[rustfmt::skip] // one line per kind of event
pub enum EventKind {
    Created { obj: ObjId, def: DefId, to: Place },
    Moved { obj: ObjId, def: DefId, from: Place, to: Place },
    Turned { obj: ObjId, def: DefId, up: bool },
    Put { obj: ObjId, def: DefId, target: ObjId, target_def: DefId, under: bool, target_known: u64 },
    /// A field changed. `announced`: the field is one whose changes are told at the table.
    Set {
        what: Arc<str>,
        old: Value,
        new: Value,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        announced: bool,
    },
    Modified { obj: ObjId, def: DefId, field: Sym, op: ModifyOperator, value: Value, until: Option<usize> },
    Expired { duration: usize, count: usize },
    Shuffled { zone: ZoneRef },
    Rolled { sides: i64, result: i64 },
    Picked { value: Value },
    Asked { seat: Seat, prompt: Arc<str>, options: Arc<[Arc<str>]> },
    /// `labels` as the seat that chose read them; `plain`, when it differs, as the others do
    /// (without the numbers that tell alike options apart).
    /// `withheld`: the labels naming an object some seat did not know when it was chosen (a card
    /// the chooser looked at alone): a seat that knew it neither then nor knows it now reads it
    /// as its kind only.
    Answered {
        seat: Seat, prompt: Arc<str>, labels: Arc<[Arc<str>]>, forced: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plain: Option<Arc<[Arc<str>]>>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        withheld: Vec<Withheld>,
    },
    Signal { event: u32, args: Vec<Value> },
    Log { text: Arc<str> },
    Triggered { routine: Routine },
    Replaced { original: ProcId, by: Routine },
    Revealed { obj: ObjId, def: DefId },
    PlayerOut { seat: Seat, reason: String },
    GameOver { result: GameResult },
}

/// One label of an answer that names an object not every seat knew when it was chosen: which
/// label, the object, and the seats that knew it then.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Withheld {
    pub label: u16,
    pub obj: ObjId,
    pub def: DefId,
    pub known: u64,
}

impl State {
    /// The labels of values chosen (each the `i`th of the answer) that name an object some seat
    /// does not know now (see `EventKind::Answered`).
    pub fn withheld<'v>(&self, chosen: impl Iterator<Item = &'v Value>) -> Vec<Withheld> {
        let everyone = (0..self.players.len()).fold(0u64, |m, s| m | seat_bit(Seat::try_from(s).unwrap_or(Seat::MAX)));
        chosen
            .enumerate()
            .filter_map(|(i, v)| {
                let o = match v {
                    Value::Obj(o) | Value::Ability(o, _) => *o,
                    _ => return None,
                };
                let ob = self.obj(o)?;
                (ob.known & everyone != everyone).then(|| Withheld {
                    label: u16::try_from(i).unwrap_or(u16::MAX),
                    obj: o,
                    def: ob.def,
                    known: ob.known,
                })
            })
            .collect()
    }

    pub fn player_count(&self) -> usize {
        self.players.len()
    }

    pub fn obj(&self, id: ObjId) -> Option<&Obj> {
        self.objects.get(id as usize)
    }

    /// An object, to change. The invalidation rule of derived facts (`Game::derived`): whatever
    /// changes about an object, it and every object beneath it (whose zone is its top's) take new
    /// numbers, so what was remembered about them is not used again.
    pub fn obj_mut(&mut self, id: ObjId) -> Option<&mut Obj> {
        self.touch();
        self.renumber_beneath(id);
        // The zone it is in (its pile's top's) takes a new deep version too.
        if let Some(z) = self.zone_of(id) {
            self.zone_changed(z);
        }
        // The state's new version is a number no object has had: it serves as this object's.
        let v = self.version;
        let ob = self.objects.get_mut(id as usize)?;
        ob.version = v;
        Some(ob)
    }

    /// Something about object `id` changed that is kept beside it (a temporary modifier): new
    /// numbers for it and everything beneath it, as `obj_mut` gives.
    pub fn changed(&mut self, id: ObjId) {
        let _ = self.obj_mut(id);
    }

    /// New numbers for the objects under `id`, and under those (a pile is at most 64 deep, as
    /// `zone_of` follows it).
    fn renumber_beneath(&mut self, id: ObjId) {
        let mut stack: Vec<(ObjId, u32)> = match self.obj(id) {
            Some(ob) if !ob.under.is_empty() => ob.under.iter().map(|u| (*u, 1)).collect(),
            _ => return,
        };
        while let Some((o, depth)) = stack.pop() {
            let Some(ob) = self.objects.get_mut(o as usize) else { continue };
            ob.version = new_version();
            if depth < 64 {
                stack.extend(ob.under.iter().map(|u| (*u, depth + 1)));
            }
        }
    }

    /// A global that some derived fact reads changed (see `derived_globals`).
    pub fn derived_global_changed(&mut self) {
        self.derived_globals = new_version();
    }

    /// The objects of the zone instance `z`, to change (none if the game has no such instance):
    /// copied first if a clone shares them.
    pub fn zone_mut(&mut self, game: &Game, z: ZoneRef) -> Option<&mut Vec<ObjId>> {
        let slot = self.zone_slot(game, z)?;
        self.touch();
        self.zone_changed(z);
        self.zones.get_mut(slot).map(Arc::make_mut)
    }

    /// Where a zone instance's deep version is kept in `zone_versions`.
    pub fn zone_key(&self, z: ZoneRef) -> usize {
        (z.zone as usize) * (self.players.len() + 1) + z.owner.map_or(0, |s| usize::from(s) + 1)
    }

    /// The deep version of zone instance `z` (see `zone_versions`).
    pub fn zone_version(&self, z: ZoneRef) -> u64 {
        self.zone_versions.get(self.zone_key(z)).copied().unwrap_or(self.numbers_base)
    }

    /// Global `i` changed: it, and the globals as a whole, take the state's new version (call
    /// `touch` first).
    pub fn global_changed(&mut self, i: usize) {
        self.globals_version = self.version;
        renumber(&mut self.global_versions, i, self.version, self.numbers_base);
    }

    /// Player field `i` changed for some player: it, and the players as a whole, take the
    /// state's new version (call `touch` first).
    pub fn player_field_changed(&mut self, i: usize) {
        self.players_version = self.version;
        renumber(&mut self.player_field_versions, i, self.version, self.numbers_base);
    }

    /// A player is out: who is out, and the players as a whole, take the state's new version
    /// (call `touch` first).
    pub fn player_out_changed(&mut self) {
        self.players_version = self.version;
        self.out_version = self.version;
    }

    /// One number for the globals in `set` (`ir::ReadSet`): the newest of theirs, which every
    /// change to one of them makes newer still (the state's numbers only grow), so equal
    /// numbers mean none of them changed.
    pub fn globals_number(&self, set: arbiter_ir::ReadSet) -> u64 {
        newest(set, &self.global_versions, self.numbers_base, self.numbers_base, self.globals_version)
    }

    /// One number for the players' fields in `set`, and who is out if it says so (see
    /// `globals_number`).
    pub fn players_number(&self, set: arbiter_ir::ReadSet) -> u64 {
        newest(set, &self.player_field_versions, self.numbers_base, self.out_version, self.players_version)
    }

    /// Zone instance `z`, or something in it, changed: it takes the state's new version (call
    /// `touch` first).
    pub fn zone_changed(&mut self, z: ZoneRef) {
        let k = self.zone_key(z);
        if self.zone_versions.len() <= k {
            self.zone_versions.resize(k + 1, self.numbers_base);
        }
        if let Some(v) = self.zone_versions.get_mut(k) {
            *v = self.version;
        }
    }

    /// Something an expression can read is about to change: a new version (see `version`).
    pub fn touch(&mut self) {
        if self.version == 0 {
            // Nothing is known about a state whose contents were unnumbered (a loaded game):
            // number every object and the globals before anything is remembered about them.
            for i in 0..self.objects.len() {
                if let Some(ob) = self.objects.get_mut(i) {
                    ob.version = new_version();
                }
            }
            self.derived_globals = new_version();
            self.numbers_base = new_version();
            self.zone_versions.clear();
            self.global_versions.clear();
            self.player_field_versions.clear();
            self.globals_version = new_version();
            self.players_version = new_version();
            self.out_version = new_version();
        }
        self.version = new_version_after(self.version);
    }

    /// Where a zone instance is among `zones`: the zones declared before it, each shared one
    /// once and each per-player one once for every player (`ZoneDef::before`), then its owner's.
    #[inline]
    pub fn zone_slot(&self, game: &Game, z: ZoneRef) -> Option<usize> {
        let n = self.players.len();
        let def = game.zone(z.zone)?;
        let (shared, per_player) = def.before;
        let idx = (shared as usize).checked_add((per_player as usize).checked_mul(n)?)?;
        if def.per_player {
            let owner = z.owner? as usize;
            if owner < n { idx.checked_add(owner) } else { None }
        } else {
            Some(idx)
        }
    }

    pub fn zone_contents(&self, game: &Game, z: ZoneRef) -> &[ObjId] {
        self.zone_slot(game, z).and_then(|i| self.zones.get(i)).map(|list| list.as_slice()).unwrap_or(&[])
    }

    /// All objects in a zone; for a per-player zone without owner, in every player's.
    pub fn zone_objects(&self, game: &Game, z: ZoneRef) -> Vec<ObjId> {
        let per_player = game.zone(z.zone).is_some_and(|d| d.per_player);
        if per_player && z.owner.is_none() {
            let mut out = Vec::new();
            for p in 0..self.players.len() {
                let owner = Seat::try_from(p).unwrap_or(0);
                out.extend_from_slice(self.zone_contents(game, ZoneRef { zone: z.zone, owner: Some(owner) }));
            }
            out
        } else {
            self.zone_contents(game, z).to_vec()
        }
    }

    /// The zone an object is in, following piles up to their top.
    pub fn zone_of(&self, id: ObjId) -> Option<ZoneRef> {
        let mut cur = id;
        for _ in 0..64 {
            match self.obj(cur)?.place {
                Place::Zone(z) => return Some(z),
                Place::Under(h) => cur = h,
                Place::Nowhere => return None,
            }
        }
        None
    }

    pub fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    pub fn active_seats(&self) -> Vec<Seat> {
        (0..self.players.len()).filter(|&i| self.players.get(i).is_some_and(|p| !p.out)).map(|i| Seat::try_from(i).unwrap_or(0)).collect()
    }
}

/// Number `i` of `numbers` set to `now` (those not listed before have `base`).
fn renumber(numbers: &mut Vec<u64>, i: usize, now: u64, base: u64) {
    if numbers.len() <= i {
        numbers.resize(i + 1, base);
    }
    if let Some(n) = numbers.get_mut(i) {
        *n = now;
    }
}

/// The newest of the numbers `set` names: each of `numbers` by its bit (`base` when not listed),
/// `out` for `ReadSet::OUT`, `any` for `ReadSet::ANY`.
#[inline]
fn newest(set: arbiter_ir::ReadSet, numbers: &[u64], base: u64, out: u64, any: u64) -> u64 {
    let mut bits = set.0;
    let mut n = 0;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let v = match 1u64 << i {
            arbiter_ir::ReadSet::ANY => any,
            arbiter_ir::ReadSet::OUT => out,
            _ => numbers.get(i).copied().unwrap_or(base),
        };
        n = n.max(v);
    }
    n
}
