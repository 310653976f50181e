//! The fast tier: a second, typed form of the expressions whose values are plain scalars
//! (numbers, true or false, symbols, players, objects, definitions, zones, none), and of filters
//! of such conditions (whose value is the list of items that pass), made when the
//! rules are checked (`check::fast`) and run by `runtime::fast`. An expression that has one is
//! an `ExprKindIr::Fast` holding both forms: the running game tries the fast one and, whenever it
//! meets a case it does not cover (a value of another type, an error, a budget near its end, a
//! field some modifier changes, a profiler counting routines), works the expression out again from
//! the start with the walker on the slow form. Expressions change nothing (the fast tier calls only
//! functions no evaluation remembers, and remembers nothing), so starting over is safe, and the
//! fast form counts the walker's steps node for node: the budgets, the logs and every step count are the same with the
//! tier on or off (`tests/fast_tier.rs` plays every rulebook both ways).

use crate::ids::{DefId, FuncId, Slot, Sym, ZoneId};
use crate::operators::{BinaryOperator, ObjProp};
use crate::value::{ObjId, Seat, Value, ZoneRef};

/// A fast form as the running game runs it: a list of operations on a few registers, with jumps
/// for `and`, `or`, `if` and walks (made from an `Fx` tree by `check::fast`). A step of the fast
/// tier is one `match` on one operation (a `Call` runs its callee's list in turn).
#[derive(Debug, Clone)]
pub struct Code {
    pub ops: Vec<Op>,
    /// How many inlined bodies deep it goes (the depth budget is checked for all at once).
    pub depth: u32,
    /// Whether it walks a list or zone (a run keeps room for the walks only then).
    pub walks: bool,
    /// Whether its value is the list its `Collect`s gathered (a `Walk::Filter`), not a register.
    pub list: bool,
}

/// A register of the fast tier (at most `REGISTERS`).
pub type Reg = u8;

/// The registers a fast form may use (a power of two: a register's number is masked, so that
/// reading one needs no bounds check), and the walks it may nest.
pub const REGISTERS: usize = 16;
pub const WALKS: usize = 4;

/// One operation of a fast form (see `Code`). `Steps` counts the walker's steps for the nodes
/// that follow; every other operation gives way (the walker takes over) where the walker would
/// err or where a value is not a scalar.
#[derive(Debug, Clone)]
pub enum Op {
    Steps(u32),
    Local(Reg, Slot),
    Const(Reg, u16),
    Global(Reg, u16),
    Imm(Reg, Scalar),
    You(Reg),
    SelfObj(Reg),
    PlayerField(Reg, u16),
    PlayerZone(Reg, ZoneId),
    ObjField(Reg, Sym),
    ObjProp(Reg, ObjProp),
    Not(Reg),
    Neg(Reg),
    /// The register must hold true or false (the right side of `and` and `or`).
    Bool(Reg),
    /// `a == b` (true) or `a != b` (false) into `a`.
    Eq(Reg, Reg, bool),
    Cmp(Reg, Reg, BinaryOperator),
    Arith(Reg, Reg, BinaryOperator),
    /// `Eq`, `Cmp` and `Arith` with a literal on the right,
    EqImm(Reg, Scalar, bool),
    CmpImm(Reg, i64, BinaryOperator),
    ArithImm(Reg, i64, BinaryOperator),
    /// and with a local.
    EqLocal(Reg, Slot, bool),
    CmpLocal(Reg, Slot, BinaryOperator),
    ArithLocal(Reg, Slot, BinaryOperator),
    /// `nth` of the zone in the first register by the number in the second, into the first.
    NthZone(Reg, Reg),
    /// `nth` of a leaf (a list, each item a step, or a zone) by the number in the register.
    NthLeaf(Reg, Leaf),
    /// `nth(leaf, i).field`: `NthLeaf` and then `ObjField` in one.
    NthLeafField(Reg, Leaf, Sym),
    SetSlot(Slot, Reg),
    Jump(u32),
    JumpIfFalse(Reg, u32),
    JumpIfTrue(Reg, u32),
    /// Walk `n` starts on the zone in the register (or none: nothing).
    IterZone(u8, Reg),
    /// Walk `n` starts on a leaf: a list, a zone or none.
    IterLeaf(u8, Leaf),
    /// Walk `n`'s next item into `slot` (and, for `first`, into `item` as a scalar), or a jump
    /// to `done` when there is none.
    Next {
        walk: u8,
        slot: Slot,
        item: Option<Reg>,
        done: u32,
    },
    /// Add the item in the slot (a walk's) to the list the form gives (`Code::list`).
    Collect(Slot),
    /// Add one to the number in the register.
    Incr(Reg),
    /// Copy the second register into the first.
    Move(Reg, Reg),
    /// Call a function (see `Fx::Call`) with the `n` arguments in the registers from `first`
    /// on; its value into `first`.
    Call {
        func: FuncId,
        first: Reg,
        n: u8,
    },
}

/// A value of the fast tier: a copy, never a text, list or amount (those are the walker's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    None,
    Bool(bool),
    Int(i64),
    Sym(Sym),
    Player(Seat),
    Obj(ObjId),
    Def(DefId),
    Zone(ZoneRef),
}

impl Scalar {
    /// A value as a scalar, if it is one.
    #[inline]
    pub fn of(v: &Value) -> Option<Scalar> {
        Some(match v {
            Value::None => Scalar::None,
            Value::Bool(b) => Scalar::Bool(*b),
            Value::Int(i) => Scalar::Int(*i),
            Value::Sym(s) => Scalar::Sym(*s),
            Value::Player(p) => Scalar::Player(*p),
            Value::Obj(o) => Scalar::Obj(*o),
            Value::Def(d) => Scalar::Def(*d),
            Value::Zone(z) => Scalar::Zone(*z),
            _ => return None,
        })
    }

    #[inline]
    pub fn value(self) -> Value {
        match self {
            Scalar::None => Value::None,
            Scalar::Bool(b) => Value::Bool(b),
            Scalar::Int(i) => Value::Int(i),
            Scalar::Sym(s) => Value::Sym(s),
            Scalar::Player(p) => Value::Player(p),
            Scalar::Obj(o) => Value::Obj(o),
            Scalar::Def(d) => Value::Def(d),
            Scalar::Zone(z) => Value::Zone(z),
        }
    }
}

/// A value read in place, taking no step: a local, a literal, a constant or a global.
#[derive(Debug, Clone)]
pub enum Leaf {
    Local(Slot),
    Lit(Value),
    Const(u16),
    Global(u16),
}

/// What `nth` or a walk reads its items from: a leaf read in place (a list, a zone or none), or
/// an expression whose value is a zone.
#[derive(Debug, Clone)]
pub enum Items {
    Leaf(Leaf),
    Zone(Box<Fx>),
}

/// What a walk gives (`Quant`, `CountWhere`, `FirstWhere` and `Filter` of the walker).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walk {
    /// `any` (true) or `no` (false): this when an item passes, the other when none does.
    Quant(bool),
    Count,
    First,
    /// `[x in l where c]`: the items that pass, as a list. Only a whole fast form is one (its
    /// value is the list, not a scalar: `Code::list`).
    Filter,
}

/// A node of the fast tier. Each counts the steps the walker counts for the node it stands for:
/// a leaf none, every other node one, `nth` of a list one more for each item (as the walker's
/// built-in does).
#[derive(Debug, Clone)]
pub enum Fx {
    Leaf(Leaf),
    You,
    SelfObj,
    PlayerField(Box<Fx>, u16),
    PlayerZone(Box<Fx>, ZoneId),
    /// A field of an object, read where no modifier changes it (else the walker reads it).
    ObjField(Box<Fx>, Sym),
    ObjProp(Box<Fx>, ObjProp),
    Not(Box<Fx>),
    Neg(Box<Fx>),
    And(Box<Fx>, Box<Fx>),
    Or(Box<Fx>, Box<Fx>),
    /// `==` (true) or `!=` (false).
    Eq(bool, Box<Fx>, Box<Fx>),
    /// `<`, `<=`, `>`, `>=` of numbers.
    Cmp(BinaryOperator, Box<Fx>, Box<Fx>),
    /// `+`, `-`, `*`, `/`, `%` of numbers.
    Arith(BinaryOperator, Box<Fx>, Box<Fx>),
    If(Box<Fx>, Box<Fx>, Box<Fx>),
    Nth(Items, Box<Fx>),
    /// An inlined call (see `ExprKindIr::Inline`): the arguments worked out into slots, then
    /// the body, one call deeper.
    Inline(Vec<(Slot, Fx)>, Box<Fx>),
    Walk {
        walk: Walk,
        slot: Slot,
        items: Items,
        cond: Box<Fx>,
    },
    /// A call of a function no evaluation remembers whose body has a fast form of its own (run
    /// in an environment of its own, one call deeper).
    Call(FuncId, Vec<Fx>),
}

impl Fx {
    /// The steps this node and those inside it count when none is a walk or `nth` of a list
    /// (the least otherwise): what makes a fast form worth trying (`check::fast`).
    pub fn least_steps(&self) -> u32 {
        let b = |x: &Fx| x.least_steps();
        match self {
            Fx::Leaf(_) => 0,
            Fx::You | Fx::SelfObj => 1,
            Fx::PlayerField(x, _) | Fx::PlayerZone(x, _) | Fx::ObjField(x, _) | Fx::ObjProp(x, _) | Fx::Not(x) | Fx::Neg(x) => 1 + b(x),
            // Only the left of `and` and `or` is sure to be worked out.
            Fx::And(l, _) | Fx::Or(l, _) => 1 + b(l),
            Fx::Eq(_, l, r) | Fx::Cmp(_, l, r) | Fx::Arith(_, l, r) => 1 + b(l) + b(r),
            Fx::If(c, t, o) => 1 + b(c) + b(t).min(b(o)),
            Fx::Nth(items, i) => 1 + items.least_steps() + b(i),
            Fx::Inline(lets, body) => 1 + lets.iter().map(|(_, a)| b(a)).sum::<u32>() + b(body),
            Fx::Walk { items, .. } => 1 + items.least_steps(),
            // The callee's steps are its own: at least one.
            Fx::Call(_, args) => 2 + args.iter().map(b).sum::<u32>(),
        }
    }

    /// Whether this node is a walk, or has one inside it.
    pub fn walks(&self) -> bool {
        match self {
            Fx::Walk { .. } => true,
            Fx::Leaf(_) | Fx::You | Fx::SelfObj => false,
            Fx::PlayerField(x, _) | Fx::PlayerZone(x, _) | Fx::ObjField(x, _) | Fx::ObjProp(x, _) | Fx::Not(x) | Fx::Neg(x) => x.walks(),
            Fx::And(l, r) | Fx::Or(l, r) | Fx::Eq(_, l, r) | Fx::Cmp(_, l, r) | Fx::Arith(_, l, r) => l.walks() || r.walks(),
            Fx::If(c, t, o) => c.walks() || t.walks() || o.walks(),
            Fx::Nth(items, i) => matches!(items, Items::Zone(x) if x.walks()) || i.walks(),
            Fx::Inline(lets, body) => lets.iter().any(|(_, a)| a.walks()) || body.walks(),
            Fx::Call(_, args) => args.iter().any(Fx::walks),
        }
    }
}

impl Items {
    fn least_steps(&self) -> u32 {
        match self {
            Items::Leaf(_) => 0,
            Items::Zone(x) => x.least_steps(),
        }
    }
}
