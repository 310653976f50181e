//! Randomness in play: die rolls, random picks and shuffles, from a [`RandomSource`]: the state's
//! seeded generator in a game, or, in a scenario, the results it scripted (an unscripted draw is
//! an error).

use super::RtError;
use super::RtResult;
use super::eval::{Evaluator, err};
use super::state::*;
use arbiter_ir::Game;
use arbiter_ir::value::{ObjId, Value, ZoneRef};
use arbiter_syntax::span::Span;
use std::cell::RefCell;
use std::collections::VecDeque;

/// Where the random results of play come from: the state's seeded generator in every game
/// ([`SeededRandom`], the engine's default), the results a scenario scripts
/// ([`ScriptedResults`]). Given to the engine with `Engine::with_random`.
pub trait RandomSource {
    /// A roll of a die of `sides` sides, from 1.
    fn roll(&self, st: &mut State, sides: i64, span: Span) -> Result<i64, RtError>;

    /// One of `items` (not empty).
    fn pick(&self, game: &Game, st: &mut State, items: &[Value], span: Span) -> Result<Value, RtError>;

    /// The objects of the zone `zone`, `items`, in their new order.
    fn shuffle(&self, game: &Game, st: &mut State, zone: ZoneRef, items: &mut Vec<ObjId>, span: Span) -> RtResult;
}

/// Random results from the state's seeded generator: a game's, so that a seed plays the same
/// game again and a saved game goes on as it would have.
#[derive(Debug, Default, Clone, Copy)]
pub struct SeededRandom;

impl RandomSource for SeededRandom {
    fn roll(&self, st: &mut State, sides: i64, _span: Span) -> Result<i64, RtError> {
        Ok(i64::try_from(st.rng.below(sides as u64)).unwrap_or(0) + 1)
    }

    fn pick(&self, _game: &Game, st: &mut State, items: &[Value], _span: Span) -> Result<Value, RtError> {
        let i = st.rng.below(items.len() as u64) as usize;
        Ok(items.get(i).cloned().unwrap_or_default())
    }

    fn shuffle(&self, _game: &Game, st: &mut State, _zone: ZoneRef, items: &mut Vec<ObjId>, _span: Span) -> RtResult {
        st.rng.shuffle(items);
        Ok(())
    }
}

/// The random results a scenario scripts, used in order (`random roll 3`, `random keep`,
/// `random order [..]`, `random pick x`): a draw with none left, or of another kind, is an
/// error naming what the rules drew.
#[derive(Debug, Default)]
pub struct ScriptedResults {
    queue: RefCell<VecDeque<ScriptedRandom>>,
}

impl ScriptedResults {
    /// Script the next result after those already scripted.
    pub fn push(&self, result: ScriptedRandom) {
        self.queue.borrow_mut().push_back(result);
    }

    /// How many scripted results are still to be used.
    pub fn left(&self) -> usize {
        self.queue.borrow().len()
    }

    /// The next scripted result, for a draw `what` names.
    fn next(&self, what: &str, span: Span) -> Result<ScriptedRandom, RtError> {
        self.queue.borrow_mut().pop_front().ok_or_else(|| {
            err(span, format!("unscripted random result: {what}"))
                .with_help("script it before the statement that causes it, with `random roll N`, `random keep`, `random order [..]` or `random pick x`")
        })
    }
}

impl RandomSource for ScriptedResults {
    fn roll(&self, _st: &mut State, sides: i64, span: Span) -> Result<i64, RtError> {
        let what = format!("a roll of a {sides}-sided die");
        match self.next(&what, span)? {
            ScriptedRandom::Roll(v) if (1..=sides).contains(&v) => Ok(v),
            ScriptedRandom::Roll(v) => Err(err(span, format!("the scenario scripted a roll of {v}, but the die has {sides} sides"))),
            other => Err(err(span, format!("the scenario scripted `{}` but the rules need {what}", scripted_name(&other)))),
        }
    }

    fn pick(&self, game: &Game, st: &mut State, items: &[Value], span: Span) -> Result<Value, RtError> {
        let what = format!("a random pick among {} items", items.len());
        match self.next(&what, span)? {
            ScriptedRandom::Pick(v) => matching(game, st, items, &v, span),
            other => Err(err(span, format!("the scenario scripted `{}` but the rules need {what}", scripted_name(&other)))),
        }
    }

    fn shuffle(&self, game: &Game, st: &mut State, zone: ZoneRef, items: &mut Vec<ObjId>, span: Span) -> RtResult {
        let what = format!("a shuffle of {}", arbiter_ir::display::zone_name(game, zone));
        match self.next(&what, span)? {
            ScriptedRandom::Keep => {}
            ScriptedRandom::Order(order) => {
                let mut rest: Vec<Value> = items.iter().map(|o| Value::Obj(*o)).collect();
                let mut out = Vec::new();
                for v in order {
                    let found = matching(game, st, &rest, &v, span)?;
                    rest.retain(|x| *x != found);
                    if let Value::Obj(o) = found {
                        out.push(o);
                    }
                }
                out.extend(rest.into_iter().filter_map(|v| if let Value::Obj(o) = v { Some(o) } else { None }));
                *items = out;
            }
            other => return Err(err(span, format!("the scenario scripted `{}` but the rules need {what}", scripted_name(&other)))),
        }
        Ok(())
    }
}

/// A scripted value among `items`: the value itself, or the label of one of them (lists compared
/// within a bound, as the engine's own comparisons are; a label no longer than the text named).
fn matching(game: &Game, st: &State, items: &[Value], v: &Value, span: Span) -> Result<Value, RtError> {
    let mut walk = arbiter_syntax::budgets::SIZE_BUDGET as u64;
    if items.iter().any(|x| x.equal_within(v, &mut walk) == Some(true)) {
        return Ok(v.clone());
    }
    let evaluator = Evaluator::new(game, st);
    if let Value::Text(t) = v
        && let Some(found) = items.iter().find(|x| evaluator.label_clipped(x, t.len() + 1) == t.as_str())
    {
        return Ok(found.clone());
    }
    Err(err(span, format!("the scenario scripted `{}`, which is not among the choices", evaluator.label_clipped(v, 200))))
}

fn scripted_name(s: &ScriptedRandom) -> &'static str {
    match s {
        ScriptedRandom::Roll(_) => "random roll",
        ScriptedRandom::Keep => "random keep",
        ScriptedRandom::Order(_) => "random order",
        ScriptedRandom::Pick(_) => "random pick",
    }
}
