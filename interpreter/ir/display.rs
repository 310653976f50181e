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

impl Value {
    /// `display`, cut to about `most` bytes (see `Clip`): a list's items are shown only until
    /// the text is that long.
    pub fn display_clipped(&self, game: &Game, most: usize) -> String {
        let mut out = Clip::new(most);
        self.display_into(game, &mut out);
        out.finish()
    }

    fn display_into(&self, game: &Game, out: &mut Clip) {
        match self {
            Value::Text(t) => out.push(t),
            Value::List(l) => {
                out.push("[");
                out.items(l, |x, out| x.display_into(game, out));
                out.push("]");
            }
            other => out.push(&other.display(game)),
        }
    }
}

/// A text built to about `most` bytes at most: what is pushed past that is left out, and the
/// text then ends in `…`. Whatever shows a value the rules made (a field at the table, an event,
/// a failed comparison) builds it in one, so that a list holding a one-megabyte text a thousand
/// times is never made whole: a list stops being walked when the text is full.
pub struct Clip {
    text: String,
    most: usize,
    cut: bool,
}

impl Clip {
    pub fn new(most: usize) -> Clip {
        Clip { text: String::new(), most, cut: false }
    }

    /// Add `s`, or as much of it as there is room for (up to a character's boundary).
    pub fn push(&mut self, s: &str) {
        if self.cut {
            return;
        }
        let room = self.most.saturating_sub(self.text.len());
        if s.len() <= room {
            self.text.push_str(s);
            return;
        }
        let mut end = room;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.text.push_str(s.get(..end).unwrap_or_default());
        self.cut = true;
    }

    /// Whether something was left out: nothing more is taken.
    pub fn is_cut(&self) -> bool {
        self.cut
    }

    /// The items of a list, each shown by `item`, with `, ` between them, until the text is full.
    pub fn items<T>(&mut self, items: &[T], mut item: impl FnMut(&T, &mut Clip)) {
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                self.push(", ");
            }
            if self.cut {
                return;
            }
            item(x, self);
        }
    }

    /// The text, ending in `…` when something was left out.
    pub fn finish(mut self) -> String {
        if self.cut {
            self.text.push('…');
        }
        self.text
    }

    /// `text` cut to `most` bytes (at a character's boundary), ending in `…` when it was cut.
    pub fn cut(text: String, most: usize) -> String {
        if text.len() <= most {
            return text;
        }
        let mut clip = Clip::new(most);
        clip.push(&text);
        clip.finish()
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

#[cfg(test)]
mod tests {
    use super::Clip;

    #[test]
    fn a_text_is_cut_at_a_character_boundary_and_says_so() {
        assert_eq!(Clip::cut("short".to_string(), 5), "short", "a text that fits is kept whole");
        // `é` is two bytes: a cut inside it is made before it.
        assert_eq!(Clip::cut("abé".to_string(), 3), "ab…");
        assert_eq!(Clip::cut("abcdef".to_string(), 4), "abcd…");
    }
}
