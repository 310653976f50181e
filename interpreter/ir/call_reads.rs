//! What a function call reads of the state, worked out when the rules are checked
//! (`check::call_reads`), so that its value can be remembered from one version of the state to
//! the next: under the numbers of what it reads (`runtime::memo`), used again only while
//! none of them has changed.

use crate::ids::ZoneId;
use crate::value::Seat;

/// What one function's calls read (`Game::call_reads`, by function).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum CallReads {
    /// Something the analysis cannot bound (a check, an ability, a lambda, an object it cannot
    /// follow, a field that other objects' modifiers change): remembered for one version only.
    #[default]
    Everything,
    /// Only these: remembered under their numbers.
    Only(Box<CallDeps>),
}

/// The parts of the state a call reads; each has its own number in the state, which changes
/// whenever it does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallDeps {
    /// Zone instances: their contents, and everything about the objects in them and beneath
    /// those (a zone's deep version, `State::zone_version`).
    pub zones: Vec<(ZoneId, ZoneOwner)>,
    /// Objects the call is given (or `self`): everything about each, and the piles above it
    /// (`Obj::version`), but not the objects beneath it.
    pub objects: Vec<GivenObject>,
    /// The globals it reads (`State::globals_number`).
    pub globals: ReadSet,
    /// The players' fields it reads, of any player, and whether it reads who is out
    /// (`State::players_number`).
    pub players: ReadSet,
    /// The globals that objects' fields read through modifiers read (`State::derived_globals`).
    pub derived: bool,
    /// Whether it reads objects the analysis cannot place (an object held in a field or a list,
    /// one beneath another): each object read is then recorded as the call runs
    /// (`Evaluator::saw`), and the call is kept under those objects' numbers (`Obj::version`) too.
    pub seen: bool,
    /// What the value is, for a caller that reads through it.
    pub result: Returned,
}

impl CallDeps {
    /// Whether the call reads nothing of the state: the same arguments give the same value for
    /// the whole game.
    pub fn reads_nothing(&self) -> bool {
        self.zones.is_empty()
            && self.objects.is_empty()
            && self.globals.is_empty()
            && self.players.is_empty()
            && !self.derived
            && !self.seen
    }
}

/// Which of the globals, or of the players' fields, a call reads: bit `i` for the `i`-th of them
/// (below 62), `OUT` for who is out (players only), `ANY` for any of them (one past the first 62:
/// then a change to any counts). Each has its own number in the state, so that a call is kept
/// while others change.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadSet(pub u64);

impl ReadSet {
    /// Who is out (players only).
    pub const OUT: u64 = 1 << 62;
    /// Any of them.
    pub const ANY: u64 = 1 << 63;

    /// The `i`-th is read.
    pub fn add(&mut self, i: usize) {
        self.0 |= if i < 62 { 1 << i } else { Self::ANY };
    }

    /// Who is out is read.
    pub fn add_out(&mut self) {
        self.0 |= Self::OUT;
    }

    /// Any of them may be read.
    pub fn add_any(&mut self) {
        self.0 |= Self::ANY;
    }

    /// Whether nothing is read.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::ops::BitOrAssign for ReadSet {
    fn bitor_assign(&mut self, other: ReadSet) {
        self.0 |= other.0;
    }
}

/// Whose instance of a zone a call reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZoneOwner {
    /// The player given as argument `i`.
    Param(u16),
    /// `you`.
    You,
    /// One seat, written in the rules.
    Seat(Seat),
    /// Every instance (a shared zone has one).
    Any,
    /// The zone given as argument `i` (the zone id is then not used).
    ZoneParam(u16),
}

/// An object a call reads about itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GivenObject {
    Param(u16),
    SelfObj,
}

/// What a call's value is, as far as reading through it goes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Returned {
    /// Anything, a zone perhaps: a caller reading through it reads what the analysis cannot
    /// bound.
    #[default]
    Opaque,
    /// A plain value (a number, a list of numbers, …): counting or comparing it reads nothing,
    /// but the objects in it are not covered.
    Plain,
    /// Objects (or lists of them) whose every fact the call's own zones cover.
    Covered,
    /// Argument `i`, or an object above it.
    Param(u16),
    /// A definition, or a list of them: printed, never changed.
    Def,
    /// A zone, not read by the call (whose instance by owner, in the call's terms; for
    /// `ZoneOwner::ZoneParam(i)`, the zone given as argument `i`).
    Zone(ZoneId, ZoneOwner),
    /// One of these zones (by id, any instance), not read by the call.
    Zones(u64),
    /// A list of such zones, not read by the call.
    ZoneList(u64),
}
