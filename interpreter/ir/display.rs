//! Values as text without the state (objects appear by number): they need the game for the names
//! of symbols, definitions, zones and procedures.

use crate::game::Game;
use crate::ids::Sym;
use crate::value::{Value, ZoneRef, pose_text};

impl Value {
    /// Render without access to the state (objects appear by id).
    pub fn display(&self, game: &Game) -> String {
        match self {
            Value::None => "none".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Text(t) => t.to_string(),
            Value::Sym(s) => game.sym(*s).to_string(),
            Value::Player(p) => format!("P{}", p + 1),
            Value::Obj(o) => format!("#{o}"),
            Value::Def(d) => game.def(*d).map(|d| d.name.clone()).unwrap_or_default(),
            Value::Zone(z) => zone_name(game, *z),
            Value::List(l) => {
                let parts: Vec<String> = l.iter().map(|v| v.display(game)).collect();
                format!("[{}]", parts.join(", "))
            }
            Value::Amount(a) => amount_text(game, a),
            Value::Proc(p) => game.proc_def(*p).map(|p| p.info.name.clone()).unwrap_or_default(),
            Value::Ability(o, i) => format!("ability {i} of #{o}"),
            Value::Lambda(_) => "function".into(),
            Value::Pose(p) => {
                let [x, y, h] = **p;
                pose_text(x, y, h)
            }
        }
    }
}

pub fn amount_text(game: &Game, a: &[(i64, Sym)]) -> String {
    let parts: Vec<String> = a.iter().map(|(n, s)| format!("{n} {}", game.sym(*s))).collect();
    parts.join(" ")
}

pub fn zone_name(game: &Game, z: ZoneRef) -> String {
    let name = game.zone(z.zone).map(|d| d.name.as_str()).unwrap_or("?");
    match z.owner {
        Some(p) => format!("P{}.{}", p + 1, name),
        None => name.to_string(),
    }
}
