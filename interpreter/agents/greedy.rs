//! The greedy bot: it tries each option on a state re-dealt from what its seat knows, runs the
//! rules on to the next decision, and takes the option that leads to the best score for its seat
//! (a win best of all, then the sum of the rulebook's `hint`s); ties are broken at random.
//!
//! Also the pieces the search bot shares: the bots' own random source, the answers worth trying
//! at a decision, and what a state is worth to a seat.

use super::random_answer;
use super::redeal::redeal;
use crate::ir::value::{Seat, Value};
use crate::runtime::eval::new_env;
use crate::runtime::state::{Answer, Count, Decision, Rng, State};
use crate::runtime::{Engine, RtError, Status};

/// How many different answers are tried where a decision takes several options at once (every
/// option is tried where it takes one).
pub const WIDTH: usize = 12;

/// A bot's generator for one decision: from its seed, its seat, how many decisions the game has
/// seen and the bot's purpose, all of which the seat knows.
pub fn bot_rng(seed: u64, st: &State, seat: Seat, salt: u64) -> Rng {
    let mut h = seed ^ 0x243f_6a88_85a3_08d3;
    for x in [st.decisions, u64::from(seat), salt] {
        h = (h ^ x).wrapping_mul(0x0100_0000_01b3).rotate_left(23);
    }
    Rng::from_seed(h)
}

/// The answers worth trying: each option where one is chosen, else up to `WIDTH` different random
/// answers.
pub fn candidates(d: &Decision, rng: &mut Rng) -> Vec<Answer> {
    let total = d.options.len() + usize::from(d.none.is_some());
    if d.count == Count::One {
        return (0..total).map(|i| Answer(vec![i])).collect();
    }
    let mut out: Vec<Answer> = Vec::new();
    for _ in 0..WIDTH * 3 {
        let a = random_answer(d, rng);
        if !out.contains(&a) {
            out.push(a);
        }
        if out.len() == WIDTH {
            break;
        }
    }
    out
}

/// The answers but those to avoid, unless that leaves none.
pub fn without(answers: Vec<Answer>, avoid: &[Answer]) -> Vec<Answer> {
    if answers.iter().all(|a| avoid.contains(a)) {
        return answers;
    }
    answers.into_iter().filter(|a| !avoid.contains(a)).collect()
}

/// The sum of the rulebook's hints for `seat` (0 without hints). A hint that fails stops the bot
/// with the error, naming the hint.
pub fn hint_score(engine: &Engine, st: &State, seat: Seat) -> Result<i64, RtError> {
    let game = engine.game;
    let ev = engine.ev(st);
    let env = new_env(0, vec![], None, None);
    let mut sum = 0i64;
    for h in &game.hints {
        let Some(f) = game.funcs.get(h.func as usize) else { continue };
        let named = || Some(format!("hint `{}`{}", f.info.name, f.info.cite.as_ref().map(|c| format!(" ({c})")).unwrap_or_default()));
        match ev.call_func(h.func, vec![Value::Player(seat)], &env, f.info.span) {
            Ok(Value::Int(n)) => sum = sum.saturating_add(n),
            Ok(other) => {
                return Err(RtError::new(format!("a hint gave {}, not a number", other.display(game)), f.info.span).in_rule(named));
            }
            Err(e) => return Err(e.in_rule(named)),
        }
    }
    Ok(sum)
}

/// What a finished game is worth to a seat: 1 for a win (a shared win too), ½ for a draw, 0 for a
/// loss (a `win` of nobody too: the board game's humans lose to a Cylon team with no player yet).
pub fn result_value(st: &State, seat: Seat) -> Option<f64> {
    let r = st.result.as_ref()?;
    Some(if r.draw {
        0.5
    } else if r.winners.contains(&seat) {
        1.0
    } else {
        0.0
    })
}

pub struct Greedy {
    pub seed: u64,
}

impl Greedy {
    pub fn decide(&self, engine: &Engine, st: &State, d: &Decision) -> Result<Answer, RtError> {
        self.choose(engine, st, d, &[])
    }

    /// `decide`, passing over the answers in `avoid` while there are others.
    pub fn choose(&self, engine: &Engine, st: &State, d: &Decision, avoid: &[Answer]) -> Result<Answer, RtError> {
        let mut rng = bot_rng(self.seed, st, d.seat, 1);
        let cands = without(candidates(d, &mut rng), avoid);
        if cands.len() <= 1 {
            return Ok(cands.into_iter().next().unwrap_or_else(|| random_answer(d, &mut rng)));
        }
        let base = redeal(engine.game, st, d.seat, &mut rng);
        let mut best: Vec<usize> = Vec::new();
        let mut best_score = f64::NEG_INFINITY;
        for (i, a) in cands.iter().enumerate() {
            let mut s = base.clone();
            let score = match engine.answer(&mut s, d.seat, a).ok().and_then(|()| engine.advance(&mut s).ok()) {
                Some(Status::Decision | Status::Idle) => hint_score(engine, &s, d.seat)? as f64,
                // A finished game outweighs any score: a win first, a loss last.
                Some(Status::Ended) => (result_value(&s, d.seat).unwrap_or(0.5) - 0.5) * 1e15,
                None => f64::NEG_INFINITY,
            };
            if score > best_score {
                (best_score, best) = (score, vec![i]);
            } else if score == best_score {
                best.push(i);
            }
        }
        let pick = best.get(rng.below(best.len() as u64) as usize).copied().unwrap_or(0);
        Ok(cands.into_iter().nth(pick).unwrap_or_else(|| random_answer(d, &mut rng)))
    }
}
