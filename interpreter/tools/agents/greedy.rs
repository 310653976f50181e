//! The greedy bot: it tries each option on a state re-dealt from what its seat knows, runs the
//! rules on to the next decision, and takes the option that leads to the best score for its seat
//! (a win best of all, then the sum of the rulebook's `hint`s); ties are broken at random.

use super::redeal::redeal;
use super::{BotRng, Stop, answer_with, bot_rng, hint_score, result_value};
use arbiter_runtime::state::{Answer, Decision, State};
use arbiter_runtime::{Engine, RtError, Status};

pub struct Greedy {
    pub seed: u64,
}

impl Greedy {
    pub fn decide(&self, engine: &Engine, st: &State, d: &Decision) -> Result<Answer, RtError> {
        self.choose(engine, st, d, &[], &Stop::NEVER)
    }

    /// `decide`, passing over the answers in `avoid` while there are others (see `answer_with`).
    /// The options are tried on one state re-dealt from what the seat knows, dealt when there is
    /// a choice to weigh; told to `stop`, it takes the best of those tried.
    pub fn choose(&self, engine: &Engine, st: &State, d: &Decision, avoid: &[Answer], stop: &Stop) -> Result<Answer, RtError> {
        let mut rng = bot_rng(self.seed, st, d.seat, 1);
        let mut base: Option<State> = None;
        answer_with(d, avoid, &mut rng, |answers, rng| {
            let base = base.get_or_insert_with(|| redeal(engine.game, st, d.seat, rng));
            best(engine, base, d, answers, rng, stop)
        })
    }
}

/// The place of the best of `cands` for the deciding seat, each tried on `base`; ties are broken
/// at random.
fn best(engine: &Engine, base: &State, d: &Decision, cands: &[Answer], rng: &mut BotRng, stop: &Stop) -> Result<usize, RtError> {
    let mut best: Vec<usize> = Vec::new();
    let mut best_score = f64::NEG_INFINITY;
    for (i, a) in cands.iter().enumerate() {
        // Told to stop, it takes the best of those it has tried (one at least).
        if i > 0 && stop.now() {
            break;
        }
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
