//! Runtime values. Plain data: every value serializes, and equality is structural.

use crate::ids::{DefId, ProcId, Sym, ZoneId};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub type ObjId = u32;
pub type Seat = u8;

/// A zone instance: a zone name and, for per-player zones, its owner. A per-player zone with
/// no owner stands for that zone of every player (as in `o in alert`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ZoneRef {
    pub zone: ZoneId,
    pub owner: Option<Seat>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub enum Value {
    #[default]
    None,
    Bool(bool),
    Int(i64),
    /// A text (behind one thin pointer: a value is two words, so results travel in registers).
    Text(Arc<String>),
    Sym(Sym),
    Player(Seat),
    Obj(ObjId),
    Def(DefId),
    Zone(ZoneRef),
    List(Arc<Vec<Value>>),
    /// `3 gold`, `2 wood 1 stone`
    Amount(Arc<Vec<(i64, Sym)>>),
    Proc(ProcId),
    /// An ability: the object and the ability's index in its definition.
    Ability(ObjId, u16),
    Lambda(u32),
    /// A point and a heading on the table: x and y in micrometres, heading in millidegrees.
    /// A position and heading: x, y and h (boxed, for the same reason).
    Pose(Arc<[i64; 3]>),
}

/// Bytes of two texts compared for one step of a comparison's budget (`Value::equal_within`).
const TEXT_STEP: usize = 64;

thread_local! {
    /// The empty list `Value::list` gives (see there).
    static EMPTY_LIST: Arc<Vec<Value>> = Arc::new(Vec::new());
}

impl Value {
    pub fn list(items: Vec<Value>) -> Value {
        // Empty lists are made often (an object's abilities in a slot it has none in, a filter
        // that keeps nothing): each thread shares one instead of allocating each.
        if items.is_empty() {
            return EMPTY_LIST.with(|e| Value::List(e.clone()));
        }
        Value::List(Arc::new(items))
    }

    pub fn text(s: impl AsRef<str>) -> Value {
        Value::Text(Arc::new(s.as_ref().to_owned()))
    }

    pub fn pose(x: i64, y: i64, h: i64) -> Value {
        Value::Pose(Arc::new([x, y, h]))
    }

    pub fn is_none(&self) -> bool {
        matches!(self, Value::None)
    }

    /// Whether two values are equal (as `==` says), walking at most `budget` items of lists,
    /// counted off it; `None` when the budget runs out first. A list shared by both is equal at
    /// once. Lists hold their items by pointer, so a list of lists a few kilobytes in memory can
    /// hold billions of items: `==` alone would walk every one.
    /// Two texts not shared count a step for each 64 bytes compared (two equal megabyte texts
    /// built apart take a while to compare).
    #[inline]
    pub fn equal_within(&self, other: &Value, budget: &mut u64) -> Option<bool> {
        match (self, other) {
            (Value::List(a), Value::List(b)) => Self::lists_within(a, b, budget),
            (Value::Text(a), Value::Text(b)) if a.len() >= TEXT_STEP && a.len() == b.len() && !Arc::ptr_eq(a, b) => {
                *budget = budget.checked_sub((a.len() / TEXT_STEP) as u64)?;
                Some(a == b)
            }
            _ => Some(self == other),
        }
    }

    /// Whether two numbers, names, players or objects are equal, answered in place (`==` on two
    /// values is a call); `None` for any other pair. The evaluator's comparisons and a
    /// remembered call's arguments ask this first: they are most of what is compared.
    #[inline(always)]
    pub fn scalar_eq(&self, other: &Value) -> Option<bool> {
        match (self, other) {
            (Value::Obj(x), Value::Obj(y)) => Some(x == y),
            (Value::Sym(x), Value::Sym(y)) => Some(x == y),
            (Value::Player(x), Value::Player(y)) => Some(x == y),
            (Value::Int(x), Value::Int(y)) => Some(x == y),
            _ => None,
        }
    }

    /// Whether two values are equal as the engine judges for itself, with no evaluation's budget
    /// to count toward (did an assignment change a field?): lists within `SIZE_BUDGET` items, and
    /// past that taken as different.
    pub fn equal_bounded(&self, other: &Value) -> bool {
        self.equal_within(other, &mut (arbiter_syntax::budgets::SIZE_BUDGET as u64)) == Some(true)
    }

    fn lists_within(a: &Arc<Vec<Value>>, b: &Arc<Vec<Value>>, budget: &mut u64) -> Option<bool> {
        if Arc::ptr_eq(a, b) {
            return Some(true);
        }
        if a.len() != b.len() {
            return Some(false);
        }
        *budget = budget.checked_sub(a.len() as u64)?;
        for (x, y) in a.iter().zip(b.iter()) {
            if !x.equal_within(y, budget)? {
                return Some(false);
            }
        }
        Some(true)
    }

    /// A short name for the value's type, used in runtime error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::None => "none",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Text(_) => "text",
            Value::Sym(_) => "symbol",
            Value::Player(_) => "player",
            Value::Obj(_) => "object",
            Value::Def(_) => "definition",
            Value::Zone(_) => "zone",
            Value::List(_) => "list",
            Value::Amount(_) => "amount",
            Value::Proc(_) => "proc",
            Value::Ability(..) => "ability",
            Value::Lambda(_) => "function",
            Value::Pose(..) => "pose",
        }
    }
}

/// `(12.5, -3 mm, 90°)`: millimetres and degrees, with as many decimals as needed.
pub fn pose_text(x: i64, y: i64, h: i64) -> String {
    let mm = |v: i64| {
        let s = format!("{}.{:03}", v / 1000, (v % 1000).abs());
        let s = if v < 0 && v > -1000 { format!("-{s}") } else { s };
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    if h == 0 { format!("({}, {} mm)", mm(x), mm(y)) } else { format!("({}, {} mm, {}°)", mm(x), mm(y), mm(h)) }
}

/// An amount from (quantity, kind) parts: the same kind's parts added up, kinds in the order they
/// first appear, none of zero.
pub fn amount(parts: Vec<(i64, Sym)>) -> Value {
    let mut out: Vec<(i64, Sym)> = Vec::new();
    for (n, k) in parts {
        match out.iter_mut().find(|(_, j)| *j == k) {
            Some((m, _)) => *m = m.saturating_add(n),
            None => out.push((n, k)),
        }
    }
    out.retain(|(n, _)| *n > 0);
    Value::Amount(std::sync::Arc::new(out))
}

// A value is two words, so that a result (`Result<Value, RtError>`, the error boxed) travels in
// registers: the evaluator's hottest path.
const _: () = assert!(std::mem::size_of::<Value>() == 16);

#[cfg(test)]
mod tests {
    use super::Value;

    /// Equality within a budget: the items of lists walked are counted off it, a list shared by
    /// both sides is equal at once, and past the budget there is no answer.
    #[test]
    fn equality_within_a_budget_counts_the_items_it_walks() {
        let a = Value::list((0..10).map(Value::Int).collect());
        let b = Value::list((0..10).map(Value::Int).collect());
        let mut budget = 100;
        assert_eq!(a.equal_within(&b, &mut budget), Some(true));
        assert_eq!(budget, 90);
        assert_eq!(a.equal_within(&a.clone(), &mut budget), Some(true), "shared");
        assert_eq!(budget, 90);
        let nested = |x: &Value| Value::list(vec![x.clone(); 4]);
        let (outer_a, outer_b) = (nested(&a), nested(&b));
        let mut budget = 100;
        assert_eq!(outer_a.equal_within(&outer_b, &mut budget), Some(true));
        assert_eq!(budget, 100 - 4 - 4 * 10);
        let mut budget = 20;
        assert_eq!(outer_a.equal_within(&outer_b, &mut budget), None, "past the budget");
        let c = Value::list((1..11).map(Value::Int).collect());
        let mut budget = 100;
        assert_eq!(a.equal_within(&c, &mut budget), Some(false));
        assert_eq!(Value::Int(3).equal_within(&Value::Int(3), &mut 0), Some(true), "no list: no budget needed");
    }
}
