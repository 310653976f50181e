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

impl Value {
    pub fn list(items: Vec<Value>) -> Value {
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
