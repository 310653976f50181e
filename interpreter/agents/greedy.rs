//! The greedy bot: it tries each option on a state re-dealt from what its seat knows, runs the
//! rules on to the next decision, and takes the option that leads to the best score for its seat
//! (a win best of all, then the sum of the rulebook's `hint`s); ties are broken at random.

use super::redeal::redeal;
use super::{bot_rng, build_up, candidates, hint_score, random_answer, result_value, without};
use crate::runtime::state::{Answer, Count, Decision, Rng, State};
use crate::runtime::{Engine, RtError, Status};

pub struct Greedy {
    pub seed: u64,
}

impl Greedy {
    pub fn decide(&self, engine: &Engine, st: &State, d: &Decision) -> Result<Answer, RtError> {
        self.choose(engine, st, d, &[])
    }

    /// `decide`, passing over the answers in `avoid` while there are others. A decision taking
    /// up to some number of options is answered a step at a time (`build_up`).
    pub fn choose(&self, engine: &Engine, st: &State, d: &Decision, avoid: &[Answer]) -> Result<Answer, RtError> {
        let mut rng = bot_rng(self.seed, st, d.seat, 1);
        if let Count::UpTo(k) = d.count {
            let base = redeal(engine.game, st, d.seat, &mut rng);
            return build_up(d, k, avoid, |answers| best(engine, &base, d, answers, &mut rng));
        }
        let cands = without(candidates(d, &mut rng), avoid);
        if cands.len() <= 1 {
            return Ok(cands.into_iter().next().unwrap_or_else(|| random_answer(d, &mut rng)));
        }
        let base = redeal(engine.game, st, d.seat, &mut rng);
        let pick = best(engine, &base, d, &cands, &mut rng)?;
        Ok(cands.into_iter().nth(pick).unwrap_or_else(|| random_answer(d, &mut rng)))
    }
}

/// The place of the best of `cands` for the deciding seat, each tried on `base`; ties are broken
/// at random.
fn best(engine: &Engine, base: &State, d: &Decision, cands: &[Answer], rng: &mut Rng) -> Result<usize, RtError> {
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
    Ok(best.get(rng.below(best.len() as u64) as usize).copied().unwrap_or(0))
}
