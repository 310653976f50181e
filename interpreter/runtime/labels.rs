//! Values as text (what players see, with what they may not know hidden) and the budgets that
//! building texts and lists counts toward.

use super::RtResult;
use super::eval::*;
use super::state::Env;
use arbiter_ir::display::Clip;
use arbiter_ir::value::{ObjId, Seat, Value};
use arbiter_ir::*;
use arbiter_syntax::budgets::{EVAL_BUDGET, MEMORY_BUDGET, NEST_BUDGET, TEXT_BUDGET};
use arbiter_syntax::span::Span;
use std::sync::Arc;

impl<'a> Evaluator<'a> {
    /// A text with `{..}` parts filled in.
    pub fn interpolate(&self, pieces: &[TextPiece], env: &mut Env, span: Span) -> RtResult<String> {
        // Room for the words written and a short label for each value: most texts are made
        // without growing.
        let room: usize = pieces.iter().map(|p| if let TextPiece::Text(t) = p { t.len() } else { 16 }).sum();
        let mut s = String::with_capacity(room);
        for p in pieces {
            match p {
                TextPiece::Text(t) => s.push_str(t),
                TextPiece::Expr(x) => {
                    let v = self.eval(x, env)?;
                    self.push_label(&mut s, &v, span)?;
                }
            }
        }
        self.charge(s.len(), span)?;
        Ok(s)
    }

    /// Append a value's text, unless the text would grow past the text budget.
    pub(super) fn push_label(&self, s: &mut String, v: &Value, span: Span) -> RtResult<()> {
        match v {
            // A text is its own label; a list's length is added up before it is labelled.
            Value::Text(t) => {
                self.text_fits(t.len().saturating_add(s.len()), span)?;
                s.push_str(t);
            }
            Value::List(_) => {
                let room = TEXT_BUDGET.saturating_sub(s.len());
                let len = self.label_len(v, room);
                self.text_fits(len.saturating_add(s.len()), span)?;
                s.push_str(&self.label(v));
            }
            // Any other label is a name or a number: made once.
            other => {
                let label = self.label(other);
                self.text_fits(label.len().saturating_add(s.len()), span)?;
                s.push_str(&label);
            }
        }
        Ok(())
    }

    /// Refuse a choice whose options' labels would be longer than the text budget together,
    /// before any is made (they are shown to the player and kept in the log: 2,000 options of a
    /// megabyte each took 20 GB a decision).
    pub fn labels_fit(&self, items: &[Value], span: Span) -> RtResult<()> {
        let mut total = 0usize;
        for v in items {
            // Only texts and lists can be long; any other label is a name or a number (making it
            // here too would label every option twice on every decision).
            let len = match v {
                Value::Text(_) | Value::List(_) => self.label_len(v, TEXT_BUDGET.saturating_sub(total)),
                _ => 0,
            };
            total = total.saturating_add(len).saturating_add(2);
            if total > TEXT_BUDGET {
                return Err(err(
                    span,
                    format!("memory budget exceeded: the options' labels are longer than {} MiB together", TEXT_BUDGET >> 20),
                )
                .with_help("offer fewer or smaller options: each is shown to the player by its text"));
            }
        }
        Ok(())
    }

    /// Refuse a text of `bytes` longer than the text budget, before it is made.
    pub fn text_fits(&self, bytes: usize, span: Span) -> RtResult<()> {
        if bytes > TEXT_BUDGET {
            return Err(err(span, format!("memory budget exceeded: a text longer than {} MiB", TEXT_BUDGET >> 20))
                .with_help("a rule builds a text without end (a text added to itself?); keep texts short"));
        }
        Ok(())
    }

    /// The length of a value's text, counted no further than just past `limit`.
    fn label_len(&self, v: &Value, limit: usize) -> usize {
        match v {
            Value::Text(t) => t.len(),
            Value::List(l) => {
                let mut n = 0usize;
                for x in l.iter() {
                    n = n.saturating_add(2).saturating_add(self.label_len(x, limit.saturating_sub(n)));
                    if n > limit {
                        break;
                    }
                }
                n
            }
            other => self.label(other).len(),
        }
    }

    /// Refuse an item that would nest lists more than `NEST_BUDGET` deep (dropping or printing a
    /// list nested without end would overflow the stack). Free for an item that is not a list; a
    /// list item is walked, one evaluation step per item it holds.
    pub(super) fn check_nesting(&self, item: &Value, span: Span) -> RtResult<()> {
        match item {
            Value::List(l) => self.nest_walk(l, 1, span),
            _ => Ok(()),
        }
    }

    fn nest_walk(&self, l: &[Value], depth: u32, span: Span) -> RtResult<()> {
        if depth >= NEST_BUDGET {
            return Err(err(span, format!("size budget exceeded: lists nested more than {NEST_BUDGET} deep"))
                .with_help("a rule puts a list inside a list again and again; keep lists flat"));
        }
        self.count_steps(l.len(), span, "a list of lists too large to put in another list")?;
        for x in l {
            if let Value::List(inner) = x {
                self.nest_walk(inner, depth + 1, span)?;
            }
        }
        Ok(())
    }

    /// Count work (list items walked) toward the evaluation's step budget.
    pub(super) fn work(&self, items: usize, span: Span) -> RtResult<()> {
        self.count_steps(items, span, "a condition or function does too much work, or walks lists that keep growing")
    }

    /// Count steps toward the evaluation's step budget.
    fn count_steps(&self, n: usize, span: Span, help: &str) -> RtResult<()> {
        let steps = self.steps.get().saturating_add(n as u64);
        if steps > EVAL_BUDGET {
            return Err(err(span, format!("step budget exceeded: one evaluation took more than {EVAL_BUDGET} steps")).with_help(help));
        }
        self.steps.set(steps);
        Ok(())
    }

    /// Count bytes built toward the memory budget (between two decisions).
    pub fn charge(&self, bytes: usize, span: Span) -> RtResult<()> {
        let used = self.built(bytes as u64);
        if used > MEMORY_BUDGET {
            return Err(err(
                span,
                format!(
                    "memory budget exceeded: the rules built more than {} MiB of texts and lists without a decision",
                    MEMORY_BUDGET >> 20
                ),
            )
            .with_help("a loop probably builds texts or lists that keep growing; build them once, or keep fewer"));
        }
        Ok(())
    }

    /// The text shown for a value: objects by their definition's name.
    pub fn label(&self, v: &Value) -> String {
        match v {
            Value::Obj(o) => self.obj_name(*o),
            Value::List(l) => l.iter().map(|x| self.label(x)).collect::<Vec<_>>().join(", "),
            Value::Ability(o, i) => self.ability_label(*o, *i),
            other => other.display(self.game),
        }
    }

    /// The text shown for a value, cut to about `most` bytes (ending in `…`, see `Clip`): the
    /// items of a list are labelled only until the text is that long (a failed `expect` on a list
    /// of 20,000 texts of a megabyte each built all 20 GB of it before cutting it).
    pub fn label_clipped(&self, v: &Value, most: usize) -> String {
        let mut out = Clip::new(most);
        self.label_into(v, None, &mut out);
        out.finish()
    }

    /// `label_for`, cut to about `most` bytes as `label_clipped` is.
    pub fn label_for_clipped(&self, v: &Value, seat: Seat, most: usize) -> String {
        let mut out = Clip::new(most);
        self.label_into(v, Some(seat), &mut out);
        out.finish()
    }

    /// A value's label (as `seat` sees it, or `label`'s for `None`) into `out`.
    fn label_into(&self, v: &Value, seat: Option<Seat>, out: &mut Clip) {
        match v {
            Value::List(l) => out.items(l, |x, out| self.label_into(x, seat, out)),
            Value::Text(t) => out.push(t),
            other => out.push(&match seat {
                Some(seat) => self.label_for(other, seat),
                None => self.label(other),
            }),
        }
    }

    /// A value as a player sees it when choosing: an object they don't know is "a KIND".
    pub fn label_for(&self, v: &Value, seat: Seat) -> String {
        match v {
            Value::Obj(o) if !self.knows(*o, seat) => {
                let kind = self.state.obj(*o).and_then(|ob| self.game.def(ob.def)).and_then(|d| self.game.kind(d.kind));
                format!("a {}", kind.map(|k| k.name.replace('_', " ")).unwrap_or_else(|| "thing".to_string()))
            }
            Value::List(l) => l.iter().map(|x| self.label_for(x, seat)).collect::<Vec<_>>().join(", "),
            Value::Ability(o, _) if !self.knows(*o, seat) => format!("an ability of {}", self.label_for(&Value::Obj(*o), seat)),
            _ => self.label(v),
        }
    }

    /// `label_for`, shared: an object the player knows is its definition's shared name.
    pub fn label_shared(&self, v: &Value, seat: Seat) -> Arc<str> {
        if let Value::Obj(o) = v
            && self.knows(*o, seat)
            && let Some(d) = self.state.obj(*o).and_then(|ob| self.game.def(ob.def))
        {
            return d.shown.clone();
        }
        self.label_for(v, seat).into()
    }

    /// Whether a player knows what an object is: its known-to mask, or face up in a public zone.
    pub fn knows(&self, o: ObjId, seat: Seat) -> bool {
        self.state.obj(o).is_some_and(|ob| ob.known & super::state::seat_bit(seat) != 0)
    }

    pub fn obj_name(&self, o: ObjId) -> String {
        self.state.obj(o).and_then(|ob| self.game.def(ob.def)).map(|d| d.name.clone()).unwrap_or_else(|| format!("#{o}"))
    }

    pub fn ability_label(&self, o: ObjId, i: u16) -> String {
        let def = self.state.obj(o).and_then(|ob| self.game.def(ob.def));
        match def.and_then(|d| d.abilities.get(i as usize).map(|a| (d, a))) {
            Some((d, a)) if !a.label.is_empty() => format!("{}: {}", d.name, a.label),
            Some((d, a)) => format!("{} ({})", d.name, a.slot),
            None => format!("ability {i} of #{o}"),
        }
    }
}

/// Identical labels get `(2)`, `(3)`… so that every option can be named. When any did, the
/// labels as they were, one per option: a copy's number is for the one choosing (which of two
/// alike), and would tell the others how many alike they held.
pub(super) fn dedupe_labels(options: &mut [super::state::Choice]) -> Option<Vec<Arc<str>>> {
    // Most decisions offer a few options, all named differently: compared pair by pair, without
    // a sorted copy.
    let distinct = if options.len() <= 16 {
        options.iter().enumerate().all(|(i, a)| options.iter().skip(i + 1).all(|b| a.label != b.label))
    } else {
        let mut sorted: Vec<&str> = options.iter().map(|c| &*c.label).collect();
        sorted.sort_unstable();
        sorted.windows(2).all(|w| w.first() != w.last())
    };
    if distinct {
        return None;
    }
    let plain = options.iter().map(|c| c.label.clone()).collect();
    let mut counts: std::collections::HashMap<Arc<str>, (usize, usize)> = std::collections::HashMap::new();
    for c in options.iter() {
        counts.entry(c.label.clone()).or_default().0 += 1;
    }
    for c in options.iter_mut() {
        if let Some((total, seen)) = counts.get_mut(&c.label)
            && *total > 1
        {
            *seen += 1;
            if *seen > 1 {
                c.label = format!("{} ({})", c.label, seen).into();
            }
        }
    }
    Some(plain)
}
