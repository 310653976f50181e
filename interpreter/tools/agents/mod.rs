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

pub use plan::{BotKind, BotPlan, BotPlanError, Bots};

use arbiter_ir::value::{Seat, Value};
use arbiter_ir::{Game, HintDef};
use arbiter_runtime::eval::new_env;
use arbiter_runtime::state::{Answer, Count, Decision, State};
use arbiter_runtime::{Engine, RtError};

/// When a bot must stop thinking: at a deadline, or when a question asked as it goes says so (the
/// table it thinks for was closed, its players left). A bot told to stop answers with the best it
/// has found so far (the search bot after at least one playout); a bot that does not search
/// answers at once anyway.
#[derive(Clone, Copy)]
pub struct Stop<'a> {
    pub deadline: Option<std::time::Instant>,
    pub cancelled: Option<&'a (dyn Fn() -> bool + Sync)>,
    /// Set when `now` says to stop: the bot answered with less than its own bound's thinking.
    pub fired: Option<&'a std::sync::atomic::AtomicBool>,
}

impl Stop<'_> {
    /// Think as long as the bot's own bounds say (the command line's bots).
    pub const NEVER: Stop<'static> = Stop { deadline: None, cancelled: None, fired: None };

    /// Whether to stop now.
    pub fn now(&self) -> bool {
        let stop = self.deadline.is_some_and(|d| std::time::Instant::now() >= d) || self.cancelled.is_some_and(|c| c());
        if stop && let Some(f) = self.fired {
            f.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        stop
    }
}

/// The bots' random source, made afresh for each decision from what the seat knows (so that a bot
/// keeps no state and a saved game resumes with the same choices): PCG (`rand_pcg::Pcg64Mcg`),
/// whose stream is fixed across platforms and versions and which costs a few instructions to seed
/// and to draw from. (The game's own source, `state::Rng`, is ChaCha8 at a saved position; seeding
/// it took a random bot's decision about a thousand instructions.) Draws and shuffles are the
/// game's (`state::below_with`, `state::shuffle_with`).
pub struct BotRng(rand_pcg::Pcg64Mcg);

impl BotRng {
    pub fn from_seed(seed: u64) -> BotRng {
        use rand::SeedableRng;
        BotRng(rand_pcg::Pcg64Mcg::seed_from_u64(seed))
    }

    /// A uniform number in `0..n` (n ≥ 1).
    pub fn below(&mut self, n: u64) -> u64 {
        arbiter_runtime::state::below_with(&mut self.0, n)
    }

    /// Each order equally likely.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        arbiter_runtime::state::shuffle_with(items, |n| self.below(n));
    }
}

pub trait Agent {
    fn decide(&mut self, game: &Game, st: &State, d: &Decision) -> Answer;
}

/// Picks at random among the legal options: uniformly, except that options marked `rarely` are
/// picked a tenth as often.
pub struct RandomAgent {
    pub seed: u64,
}

impl RandomAgent {
    fn rng(&self, st: &State, d: &Decision) -> BotRng {
        let h = [st.decisions, u64::from(d.seat), st.log.len() as u64]
            .into_iter()
            .fold(self.seed ^ 0x9e37_79b9_7f4a_7c15, |h, x| stir(h, x, 17));
        BotRng::from_seed(h)
    }
}

impl Agent for RandomAgent {
    fn decide(&mut self, _game: &Game, st: &State, d: &Decision) -> Answer {
        let mut rng = self.rng(st, d);
        random_answer(d, &mut rng)
    }
}

/// A uniformly random legal answer.
pub fn random_answer(d: &Decision, rng: &mut BotRng) -> Answer {
    let n = d.options.len();
    let total = n + usize::from(d.none.is_some());
    // Every option, in a random order.
    let shuffled = |rng: &mut BotRng| {
        let mut v: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut v);
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

// ---------------------------------------------------------------------------------------------
// What the lookahead bots share: their own random source, the answers worth trying, and what a
// state is worth to a seat.

/// How many different answers are tried where a decision takes exactly N options, or orders them
/// (every option is tried where it takes one; one at a time where it takes up to N: `build_up`).
pub const WIDTH: usize = 12;

/// A bot's generator for one decision: from its seed, its seat, how many decisions the game has
/// seen and the bot's purpose, all of which the seat knows.
pub fn bot_rng(seed: u64, st: &State, seat: Seat, salt: u64) -> BotRng {
    let h = [st.decisions, u64::from(seat), salt].into_iter().fold(seed ^ 0x243f_6a88_85a3_08d3, |h, x| stir(h, x, 23));
    BotRng::from_seed(h)
}

/// The answers worth trying: each option where one is chosen, else up to `WIDTH` different random
/// answers.
pub fn candidates(d: &Decision, rng: &mut BotRng) -> Vec<Answer> {
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

/// A lookahead bot's answer, `pick` choosing among the answers worth trying: a step at a time
/// where the decision takes up to N options (`build_up`); else among `candidates` less those in
/// `avoid` (while there are others), without asking `pick` where there is one (or none: then at
/// random).
pub fn answer_with(
    d: &Decision,
    avoid: &[Answer],
    rng: &mut BotRng,
    mut pick: impl FnMut(&[Answer], &mut BotRng) -> Result<usize, RtError>,
) -> Result<Answer, RtError> {
    if let Count::UpTo(k) = d.count {
        return build_up(d, k, avoid, |answers| pick(answers, rng));
    }
    let cands = without(candidates(d, rng), avoid);
    let i = if cands.len() <= 1 { 0 } else { pick(&cands, rng)? };
    Ok(cands.into_iter().nth(i).unwrap_or_else(|| random_answer(d, rng)))
}

/// A decision taking up to `k` options, answered a step at a time: `pick` chooses between the
/// options chosen so far and those and one more (the first of its answers is stopping), until it
/// stops or `k` are chosen. Options with the same label are the same step. The answer comes back
/// in the options' order. `avoid` holds whole answers given before: a step that would end on one
/// of them is passed over while there are others (a step that goes on is not an answer yet).
pub fn build_up(
    d: &Decision,
    k: u32,
    avoid: &[Answer],
    mut pick: impl FnMut(&[Answer]) -> Result<usize, RtError>,
) -> Result<Answer, RtError> {
    let k = k as usize;
    let sorted = |a: &Answer| {
        let mut v = a.0.clone();
        v.sort_unstable();
        v
    };
    let avoided: Vec<Vec<usize>> = avoid.iter().map(sorted).collect();
    let mut chosen: Vec<usize> = Vec::new();
    while chosen.len() < k {
        let mut answers = vec![Answer(chosen.clone())];
        let mut labels: Vec<&str> = Vec::new();
        for i in (0..d.options.len()).filter(|i| !chosen.contains(i)) {
            let label = d.options.get(i).map_or("", |c| &*c.label);
            if !labels.contains(&label) {
                labels.push(label);
                let mut more = chosen.clone();
                more.push(i);
                answers.push(Answer(more));
            }
        }
        let ends_avoided = |a: &Answer| (a.0.len() == chosen.len() || a.0.len() == k) && avoided.contains(&sorted(a));
        if answers.iter().any(|a| !ends_avoided(a)) {
            answers.retain(|a| !ends_avoided(a));
        }
        let i = if answers.len() <= 1 { 0 } else { pick(&answers)? };
        match answers.into_iter().nth(i) {
            Some(a) if a.0.len() > chosen.len() => chosen = a.0,
            Some(_) | None => break,
        }
    }
    chosen.sort_unstable();
    Ok(Answer(chosen))
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
    let mut sum = 0i64;
    for h in &engine.game.hints {
        match seat_call(engine, st, h, "hint", seat)? {
            Value::Int(n) => sum = sum.saturating_add(n),
            other => return Err(seat_call_error(engine, h, "hint", format!("a hint gave {}, not a number", other.display(engine.game)))),
        }
    }
    Ok(sum)
}

/// A hint's or a side's function called for one seat; an error names the item (`what`).
pub fn seat_call(engine: &Engine, st: &State, item: &HintDef, what: &str, seat: Seat) -> Result<Value, RtError> {
    let span = engine.game.funcs.get(item.func as usize).map(|f| f.info.span).unwrap_or_default();
    let env = new_env(0, vec![], None, None);
    engine
        .evaluator(st)
        .call_func(item.func, vec![Value::Player(seat)], &env, span)
        .map_err(|e| e.in_rule(|| Some(item_name(engine, item, what))))
}

/// An error of a hint or side that gave the wrong kind of value.
pub fn seat_call_error(engine: &Engine, item: &HintDef, what: &str, message: String) -> RtError {
    let span = engine.game.funcs.get(item.func as usize).map(|f| f.info.span).unwrap_or_default();
    RtError::new(message, span).in_rule(|| Some(item_name(engine, item, what)))
}

/// `hint `name` (L40)`: the item as an error names it.
fn item_name(engine: &Engine, item: &HintDef, what: &str) -> String {
    let cite = engine.game.funcs.get(item.func as usize).and_then(|f| f.info.cite.as_ref());
    format!("{what} `{}`{}", item.name, cite.map(|c| format!(" ({c})")).unwrap_or_default())
}

/// One step of the bots' hashing (FNV's multiplier, then a rotation).
pub(crate) fn stir(h: u64, x: u64, rot: u32) -> u64 {
    (h ^ x).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(rot)
}

/// What a finished game is worth to a seat: 1 for a win (a shared win too), ½ for a draw, 0 for a
/// loss (a `win` of nobody too: a team that won before it had a player leaves everyone a loser).
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
