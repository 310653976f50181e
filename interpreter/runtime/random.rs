//! Randomness in play: die rolls, random picks and shuffles from the state's seeded generator, or,
//! in a scenario, the results it scripted (`Engine::scripted`; an unscripted draw is an error).

use super::RtError;
use super::engine::Engine;
use super::eval::err;
use super::state::*;
use arbiter_ir::value::{Value, ZoneRef};
use arbiter_syntax::span::Span;

type R = Result<(), RtError>;

impl Engine<'_> {
    /// The scenario's next scripted result, or `None` in a game (draw from the state's generator).
    fn next_scripted(&self, what: &str, span: Span) -> Result<Option<ScriptedRandom>, RtError> {
        match self.script() {
            None => Ok(None),
            Some(script) if script.unscripted => Ok(None),
            Some(script) => script.randoms.borrow_mut().pop_front().map(Some).ok_or_else(|| {
                err(span, format!("unscripted random result: {what}"))
                    .with_help("script it before the statement that causes it, with `random roll N`, `random keep`, `random order [..]` or `random pick x`")
            }),
        }
    }

    pub(super) fn random_roll(&self, st: &mut State, sides: i64, span: Span) -> Result<i64, RtError> {
        let what = format!("a roll of a {sides}-sided die");
        match self.next_scripted(&what, span)? {
            None => Ok(i64::try_from(st.rng.below(sides as u64)).unwrap_or(0) + 1),
            Some(ScriptedRandom::Roll(v)) if (1..=sides).contains(&v) => Ok(v),
            Some(ScriptedRandom::Roll(v)) => Err(err(span, format!("the scenario scripted a roll of {v}, but the die has {sides} sides"))),
            Some(other) => Err(err(span, format!("the scenario scripted `{}` but the rules need {what}", scripted_name(&other)))),
        }
    }

    pub(super) fn random_pick(&self, st: &mut State, items: &[Value], span: Span) -> Result<Value, RtError> {
        if items.is_empty() {
            return Ok(Value::None);
        }
        let what = format!("a random pick among {} items", items.len());
        match self.next_scripted(&what, span)? {
            None => {
                let i = st.rng.below(items.len() as u64) as usize;
                Ok(items.get(i).cloned().unwrap_or_default())
            }
            Some(ScriptedRandom::Pick(v)) => self.match_scripted(st, items, &v, span),
            Some(other) => Err(err(span, format!("the scenario scripted `{}` but the rules need {what}", scripted_name(&other)))),
        }
    }

    /// A scripted value: the value itself, or the label of one of the items.
    fn match_scripted(&self, st: &State, items: &[Value], v: &Value, span: Span) -> Result<Value, RtError> {
        if items.contains(v) {
            return Ok(v.clone());
        }
        if let Value::Text(t) = v {
            let ev = self.ev(st);
            if let Some(found) = items.iter().find(|x| ev.label(x) == t.as_str()) {
                return Ok(found.clone());
            }
        }
        Err(err(span, format!("the scenario scripted `{}`, which is not among the choices", self.ev(st).label(v))))
    }

    pub(super) fn shuffle(&self, st: &mut State, z: ZoneRef, span: Span) -> R {
        let slot = st.zone_slot(self.game, z).ok_or_else(|| err(span, "no such zone"))?;
        let mut items = st.zones.get(slot).map(|list| list.to_vec()).unwrap_or_default();
        let what = format!("a shuffle of {}", arbiter_ir::value::zone_name(self.game, z));
        match self.next_scripted(&what, span)? {
            None => st.rng.shuffle(&mut items),
            Some(ScriptedRandom::Keep) => {}
            Some(ScriptedRandom::Order(order)) => {
                let mut rest: Vec<Value> = items.iter().map(|o| Value::Obj(*o)).collect();
                let mut out = Vec::new();
                for v in order {
                    let found = self.match_scripted(st, &rest, &v, span)?;
                    rest.retain(|x| *x != found);
                    if let Value::Obj(o) = found {
                        out.push(o);
                    }
                }
                out.extend(rest.into_iter().filter_map(|v| if let Value::Obj(o) = v { Some(o) } else { None }));
                items = out;
            }
            Some(other) => return Err(err(span, format!("the scenario scripted `{}` but the rules need {what}", scripted_name(&other)))),
        }
        st.touch();
        if let Some(list) = st.zones.get_mut(slot) {
            *list = std::sync::Arc::new(items);
        }
        st.dirty = true;
        self.log(st, EventKind::Shuffled { zone: z }, ALL, span);
        Ok(())
    }
}

fn scripted_name(s: &ScriptedRandom) -> &'static str {
    match s {
        ScriptedRandom::Roll(_) => "random roll",
        ScriptedRandom::Keep => "random keep",
        ScriptedRandom::Order(_) => "random order",
        ScriptedRandom::Pick(_) => "random pick",
    }
}
