//! Agents answer decisions. Every decision lists its legal options, so an agent only picks among
//! them. The random agent keeps no state of its own: its choice depends on the seed, the seat and
//! how many decisions the game has seen, so a saved game resumes with the same choices.
//!
//! The other bots look ahead: the greedy bot (`greedy.rs`) tries each option and scores where it
//! leads with the rulebook's `hint`s; the search bot (`mcts.rs`) runs information-set Monte Carlo
//! tree search. Both look only at states re-dealt from what their seat may know (`redeal.rs`), so
//! neither can read another seat's hidden cards or the order of a deck. `Bots` seats them: one
//! kind of bot for every seat, or a kind per seat or per side (`plan.rs`).

pub mod greedy;
pub mod mcts;
pub mod plan;
pub mod redeal;

pub use plan::{BotKind, BotPlan, Bots};

use crate::ir::Game;
use crate::runtime::state::{Answer, Count, Decision, Rng, State};

pub trait Agent {
    fn decide(&mut self, game: &Game, st: &State, d: &Decision) -> Answer;
}

/// Picks at random among the legal options: uniformly, except that options marked `rarely` are
/// picked a tenth as often.
pub struct RandomAgent {
    pub seed: u64,
}

impl RandomAgent {
    fn rng(&self, st: &State, d: &Decision) -> Rng {
        let mut h = self.seed ^ 0x9e37_79b9_7f4a_7c15;
        for x in [st.decisions, u64::from(d.seat), st.log.len() as u64] {
            h = (h ^ x).wrapping_mul(0x0100_0000_01b3).rotate_left(17);
        }
        Rng::from_seed(h)
    }
}

impl Agent for RandomAgent {
    fn decide(&mut self, _game: &Game, st: &State, d: &Decision) -> Answer {
        let mut rng = self.rng(st, d);
        random_answer(d, &mut rng)
    }
}

/// A uniformly random legal answer.
pub fn random_answer(d: &Decision, rng: &mut Rng) -> Answer {
    let n = d.options.len();
    let total = n + usize::from(d.none.is_some());
    // Every option, in a random order.
    let shuffled = |rng: &mut Rng| {
        let mut v: Vec<usize> = (0..n).collect();
        for i in (1..v.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
        v
    };
    match d.count {
        Count::One => {
            // Options marked `rarely` weigh 1; the others (and "none") weigh 10.
            let weight = |i: usize| d.options.get(i).map_or(10, |c| if c.rarely { 1 } else { 10 });
            let sum: u64 = (0..total).map(&weight).sum();
            let mut x = rng.below(sum.max(1));
            let mut pick = 0;
            for i in 0..total {
                if x < weight(i) {
                    pick = i;
                    break;
                }
                x -= weight(i);
            }
            Answer(vec![pick])
        }
        Count::Exactly(k) => {
            let mut idx = shuffled(rng);
            idx.truncate(k as usize);
            Answer(idx)
        }
        Count::UpTo(k) => {
            let mut idx = shuffled(rng);
            let take = rng.below(u64::from(k).min(n as u64) + 1) as usize;
            idx.truncate(take);
            Answer(idx)
        }
        Count::Order => Answer(shuffled(rng)),
    }
}
