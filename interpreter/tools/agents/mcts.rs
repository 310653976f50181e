//! The search bot: information-set Monte Carlo tree search (single observer, as in Cowling,
//! Powley and Whitehouse 2012, and OpenSpiel's `ISMCTSBot`).
//!
//! Each playout starts from a state re-dealt from what the bot's seat knows (`redeal.rs`), walks
//! down the tree choosing by UCB1 among the answers available in that state, adds one node, then
//! plays on at random: to the end of the game, or, where the rulebook gives `hint`s, for at most
//! `depth` decisions, scoring where it stopped by how far each seat's hints moved from where the
//! playout started. Every seat's result is carried back up, and each decision in the tree counts
//! its own seat's result.
//!
//! A node is an information set: the decisions taken since the root as the seat deciding there saw
//! them, and the question asked there. A secret choice of another seat shows only as "a choice was
//! made", so an opponent choosing
//! after the bot's secret choice (a simultaneous plan, a hidden discard) cannot react to it in the
//! search, and the bot cannot react to an opponent's secret choice either: those objects are
//! re-dealt. The bot answers with the most visited answer at the root.
//!
//! A decision taking up to some number of options (cards into a face-down pile) is answered a step
//! at a time (`build_up`): a search between stopping and each one option more, until stopping
//! wins. A dozen random subsets would rarely hold the right few.

use super::redeal::redeal;
use super::{BotRng, Stop, answer_with, bot_rng, candidates, hint_score, random_answer, result_value, stir};
use arbiter_ir::value::Seat;
use arbiter_runtime::state::{Answer, Count, Decision, State};
use arbiter_runtime::{Engine, RtError, Status};
use arbiter_syntax::budgets::{PLAYOUT_DECISIONS, SEARCH_TREE_DEPTH};
use std::collections::HashMap;

/// The exploration constant of UCB1.
const EXPLORE: f64 = 0.7;
/// A playout that raises its seat's hints by this much from where it started is worth about three
/// quarters of a win (the squashing's scale; a playout that lowers them as much, a quarter).
const HINT_SCALE: f64 = 20.0;

pub struct Mcts {
    pub seed: u64,
    pub playouts: u32,
    /// Decisions played at random after leaving the tree before the hints score the state (where
    /// the rulebook gives hints).
    pub depth: u32,
}

/// An answer tried at a node, known by its key (at the root, its place among the root's answers,
/// the root's decision being the same in every playout): how often it was available, taken, and
/// the results it led to.
struct Edge {
    key: u64,
    taken: u32,
    total: f64,
    available: u32,
}

#[derive(Default)]
struct Node {
    edges: Vec<Edge>,
}

impl Node {
    /// The edge for an answer (its key), added if new; marked available.
    fn offer(&mut self, key: u64) -> usize {
        let i = match self.edges.iter().position(|e| e.key == key) {
            Some(i) => i,
            None => {
                self.edges.push(Edge { key, taken: 0, total: 0.0, available: 0 });
                self.edges.len() - 1
            }
        };
        if let Some(e) = self.edges.get_mut(i) {
            e.available += 1;
        }
        i
    }

    /// Among the offered edges: one never taken (at random), else the best by UCB1. Whether it
    /// was new comes back with it.
    fn select(&self, offered: &[usize], rng: &mut BotRng) -> (usize, bool) {
        let fresh: Vec<usize> = offered.iter().copied().filter(|&i| self.edges.get(i).is_some_and(|e| e.taken == 0)).collect();
        if !fresh.is_empty() {
            return (fresh.get(rng.below(fresh.len() as u64) as usize).copied().unwrap_or(0), true);
        }
        let ucb = |i: usize| {
            self.edges.get(i).map_or(f64::NEG_INFINITY, |e| {
                let n = f64::from(e.taken);
                e.total / n + EXPLORE * libm::sqrt(libm::log(f64::from(e.available.max(1))) / n)
            })
        };
        let best = offered.iter().copied().max_by(|&a, &b| ucb(a).total_cmp(&ucb(b))).unwrap_or(0);
        (best, false)
    }
}

/// One decision taken in a playout, as it is remembered for the information sets below it.
struct Taken {
    seat: Seat,
    secret: bool,
    key: u64,
}

fn mix(h: u64, x: u64) -> u64 {
    stir(h, x, 29)
}

fn text_key(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// An answer's key: what was chosen, by label (the labels are what the deciding seat sees).
fn answer_key(d: &Decision, a: &Answer) -> u64 {
    let label = |i: usize| d.options.get(i).map(|c| &*c.label).or(d.none.as_deref()).unwrap_or("");
    let mut keys: Vec<u64> = a.0.iter().map(|&i| text_key(label(i))).collect();
    if d.count != Count::Order {
        keys.sort_unstable();
    }
    keys.into_iter().fold(0x9e37, mix)
}

/// The information set of `viewer` after `path`: every decision, with another seat's secret
/// answer hidden.
fn node_key(path: &[Taken], viewer: Seat) -> u64 {
    path.iter().fold(mix(0x5bd1, u64::from(viewer)), |h, t| {
        let seen = if t.secret && t.seat != viewer { 0x5ec7e7 } else { t.key };
        mix(mix(h, u64::from(t.seat)), seen)
    })
}

impl Mcts {
    pub fn decide(&self, engine: &Engine, st: &State, d: &Decision) -> Result<Answer, RtError> {
        self.choose(engine, st, d, &[])
    }

    /// `decide`, passing over the answers in `avoid` while there are others (see `answer_with`).
    pub fn choose(&self, engine: &Engine, st: &State, d: &Decision, avoid: &[Answer]) -> Result<Answer, RtError> {
        self.choose_until(engine, st, d, avoid, &Stop::NEVER)
    }

    /// `choose`, stopping the search early when `stop` says so (after a playout at least): the
    /// answer is then the best found so far.
    pub fn choose_until(&self, engine: &Engine, st: &State, d: &Decision, avoid: &[Answer], stop: &Stop) -> Result<Answer, RtError> {
        let mut rng = bot_rng(self.seed, st, d.seat, 2);
        answer_with(d, avoid, &mut rng, |answers, rng| self.search(engine, st, d, answers, rng, stop))
    }

    /// Search among `root_answers` (two or more) to `d`; the place of the best among them.
    fn search(
        &self,
        engine: &Engine,
        st: &State,
        d: &Decision,
        root_answers: &[Answer],
        rng: &mut BotRng,
        stop: &Stop,
    ) -> Result<usize, RtError> {
        let seat = d.seat;
        let mut root =
            Node { edges: (0..root_answers.len()).map(|i| Edge { key: i as u64, taken: 0, total: 0.0, available: 0 }).collect() };
        let all: Vec<usize> = (0..root.edges.len()).collect();
        let mut tree: HashMap<u64, Node> = HashMap::new();
        let players = st.players.len();
        let hinted = !engine.game.hints.is_empty();
        for n in 0..self.playouts.max(1) {
            if n > 0 && stop.now() {
                break;
            }
            let mut s = redeal(engine.game, st, seat, rng);
            // Each seat's hints where the playout starts: a playout is scored by how far they move.
            let start: Vec<i64> =
                if hinted { (0..players).map(|i| hint_score(engine, &s, seat_of(i))).collect::<Result<_, _>>()? } else { vec![] };
            for e in &mut root.edges {
                e.available += 1;
            }
            let (first, fresh) = root.select(&all, rng);
            let Some(answer) = root_answers.get(first).cloned() else { break };
            let mut path = vec![Taken { seat, secret: d.secret, key: answer_key(d, &answer) }];
            let mut visited: Vec<(u64, usize, Seat)> = Vec::new();
            let mut status = play(engine, &mut s, seat, &answer);
            let mut expanded = fresh;
            // A playout stops with the search (it is scored where it got to).
            while !expanded && status == Some(Status::Decision) && path.len() < SEARCH_TREE_DEPTH && !stop.now() {
                let Some(dd) = s.pending.clone() else { break };
                let key = mix(node_key(&path, dd.seat), text_key(&dd.prompt));
                let node = tree.entry(key).or_default();
                let answers = if dd.count == Count::One { candidates(&dd, rng) } else { vec![random_answer(&dd, rng)] };
                // Answers with the same label are one edge, offered once.
                let mut keys: Vec<u64> = Vec::with_capacity(answers.len());
                let answers: Vec<Answer> = answers
                    .into_iter()
                    .filter(|a| {
                        let key = answer_key(&dd, a);
                        let new = !keys.contains(&key);
                        if new {
                            keys.push(key);
                        }
                        new
                    })
                    .collect();
                let offered: Vec<usize> = keys.iter().map(|&k| node.offer(k)).collect();
                let (i, fresh) = node.select(&offered, rng);
                // The answer as this state offers it (the same label may sit elsewhere in another).
                let Some(a) = offered.iter().position(|&o| o == i).and_then(|p| answers.get(p)).cloned() else { break };
                visited.push((key, i, dd.seat));
                path.push(Taken { seat: dd.seat, secret: dd.secret, key: answer_key(&dd, &a) });
                status = play(engine, &mut s, dd.seat, &a);
                expanded = fresh;
            }
            let values = self.rollout(engine, &mut s, status, &start, rng, stop)?;
            let value = |who: Seat| values.get(usize::from(who)).copied().unwrap_or(0.5);
            if let Some(e) = root.edges.get_mut(first) {
                e.taken += 1;
                e.total += value(seat);
            }
            for (key, i, who) in visited {
                if let Some(e) = tree.get_mut(&key).and_then(|n| n.edges.get_mut(i)) {
                    e.taken += 1;
                    e.total += value(who);
                }
            }
        }
        // The most visited answer; between equals, the better on average.
        let best = root.edges.iter().enumerate().max_by(|(_, a), (_, b)| {
            a.taken.cmp(&b.taken).then((a.total / f64::from(a.taken.max(1))).total_cmp(&(b.total / f64::from(b.taken.max(1)))))
        });
        Ok(best.map_or(0, |(i, _)| i))
    }

    /// Play on at random from `s`, and say what the state reached is worth to each seat.
    fn rollout(
        &self,
        engine: &Engine,
        s: &mut State,
        mut status: Option<Status>,
        start: &[i64],
        rng: &mut BotRng,
        stop: &Stop,
    ) -> Result<Vec<f64>, RtError> {
        let players = s.players.len();
        let hinted = !engine.game.hints.is_empty();
        let limit = if hinted { self.depth } else { PLAYOUT_DECISIONS };
        let mut taken = 0;
        // A playout stops with the search (it is scored where it got to): a decision of a heavy
        // game can take a second.
        while status == Some(Status::Decision) && taken < limit && !stop.now() {
            let Some(d) = s.pending.as_ref() else { break };
            let (who, a) = (d.seat, random_answer(d, rng));
            status = play(engine, s, who, &a);
            taken += 1;
        }
        (0..players)
            .map(|i| {
                let who = seat_of(i);
                Ok(match status {
                    Some(Status::Ended) => result_value(s, who).unwrap_or(0.5),
                    Some(Status::Decision | Status::Idle) if hinted => {
                        let moved = hint_score(engine, s, who)?.saturating_sub(start.get(i).copied().unwrap_or(0));
                        0.5 + 0.5 * libm::tanh(moved as f64 / HINT_SCALE)
                    }
                    _ => 0.5,
                })
            })
            .collect()
    }
}

fn seat_of(i: usize) -> Seat {
    Seat::try_from(i).unwrap_or(0)
}

/// Answer and run on to the next decision; `None` if the rules stopped on an error.
fn play(engine: &Engine, s: &mut State, seat: Seat, a: &Answer) -> Option<Status> {
    engine.answer(s, seat, a).ok()?;
    engine.advance(s).ok()
}
