//! A saved game played again from its start, for its replay: the same seed, deck lists and
//! answers give the same game, so every step's table can be drawn and every event's causes
//! recorded — which the save itself, holding only where the game stands now, cannot give.
//!
//! The answers are read from the save's own log (each `Answered` event names the options taken;
//! a decision's labels are made unique, so they name one option each). Each replayed event is
//! compared with the saved one: where they part (a save of other rules, or a rule whose result
//! depends on something outside the game), the replay says so and keeps only what matched.

use arbiter_ir::Game;
use arbiter_runtime::state::{Answer, Decision, EventKind, Mode, State, Tracing};
use arbiter_runtime::view;
use arbiter_runtime::{CauseRecorder, Engine, Setup, Status};
use std::sync::Arc;

/// A saved game played again.
pub struct Rerun {
    /// The causes recorded, for `why` chains.
    pub tracing: Tracing,
    /// The state at each decision asked, settled at once or not, with the length of the log then
    /// (`CauseRecorder::with_snapshots`).
    pub snapshots: Vec<(usize, State)>,
    /// How many of the saved events the replay reproduced, in order.
    pub matched: usize,
    /// Where and why the replay parted from the save, when it did.
    pub parted: Option<String>,
}

/// An answer the saved game was given: who answered, what was asked, the labels taken.
struct Given {
    seat: u8,
    prompt: Arc<str>,
    labels: Arc<[Arc<str>]>,
}

/// The answers the saved game was given, in order (not those the rules took for the only option).
fn answers(saved: &State) -> Vec<Given> {
    saved
        .log
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Answered { seat, prompt, labels, forced: false, .. } => {
                Some(Given { seat: *seat, prompt: prompt.clone(), labels: labels.clone() })
            }
            _ => None,
        })
        .collect()
}

/// The option indices `labels` name in decision `d`.
fn picks(d: &Decision, labels: &[Arc<str>]) -> Option<Answer> {
    // (An answer of nothing to an up-to decision is logged with no labels: no picks.)
    labels
        .iter()
        .map(|l| d.options.iter().position(|c| c.label == *l).or_else(|| (d.none.as_ref() == Some(l)).then_some(d.options.len())))
        .collect::<Option<Vec<usize>>>()
        .map(Answer)
}

/// Play `saved` (a game of `game`, `players` seats, seed `seed`) again from its start.
pub fn rerun(game: &Game, players: usize, seed: u64, saved: &State) -> Rerun {
    // Random results from the seed, as in play; the causes `explain --why` walks back recorded.
    let recorder = CauseRecorder::with_snapshots();
    let engine = Engine::new(game).with_tracer(&recorder);
    let setup = Setup { players, seed, decklists: (*saved.decklists).clone() };
    let mut st = match engine.new_state(Mode::Game, setup) {
        Ok(st) => st,
        Err(e) => {
            let parted = Some(format!("the game does not start again: {}", e.message));
            return Rerun { tracing: Tracing::default(), snapshots: vec![], matched: 0, parted };
        }
    };
    // Why the replay could not take one of the save's answers, if it could not.
    let mut refused = None;
    let mut answers = answers(saved).into_iter();
    loop {
        match engine.advance(&mut st) {
            // The saved game stopped the same way, or the comparison below says where they part.
            Err(_) | Ok(Status::Ended | Status::Idle) => break,
            Ok(Status::Decision) => {
                let Some(d) = st.pending.clone() else { break };
                // The save was made at this decision.
                let Some(Given { seat, prompt, labels }) = answers.next() else { break };
                // What was answered and asked may be a seat's secret: the whole of it goes to the
                // server's console, and every seat that replays is told only whose answer it was.
                let Some(answer) = picks(&d, &labels).filter(|_| seat == d.seat && prompt == d.prompt) else {
                    console!(
                        "arbiter serve: a replay parts from its save: the saved answer `{}` (P{}, {prompt}) is not an option of the replayed decision (P{}, {})",
                        labels.join(", "),
                        seat + 1,
                        d.seat + 1,
                        d.prompt
                    );
                    refused = Some(format!(
                        "P{}'s saved answer is not an option of the replayed decision; the two are on the server's console",
                        seat + 1
                    ));
                    break;
                };
                if let Err(e) = engine.answer(&mut st, d.seat, &answer) {
                    console!(
                        "arbiter serve: a replay parts from its save: the saved answer `{}` was not taken again: {e}",
                        labels.join(", ")
                    );
                    refused = Some(format!("P{}'s saved answer was not taken again; why is on the server's console", seat + 1));
                    break;
                }
            }
        }
    }
    let (matched, parted) = compare(game, saved, &st, refused);
    let mut snapshots = recorder.take_snapshots();
    snapshots.retain(|(n, _)| *n <= matched);
    let tracing = recorder.take();
    Rerun { tracing, snapshots, matched, parted }
}

/// How far the replay `st` is the saved game: the number of events alike, and where and why they
/// part, if they do — the first event that differs, a log that stops short or goes on, or, with
/// every event alike, a state that is not where those events lead (a save edited by hand).
fn compare(game: &Game, saved: &State, st: &State, refused: Option<String>) -> (usize, Option<String>) {
    let text = |s: &State, i: usize| s.log.get(i).map(|e| view::event_text(game, s, e, None));
    let same = |i: usize| match (saved.log.get(i), st.log.get(i)) {
        (Some(a), Some(b)) => a.cause == b.cause && text(saved, i) == text(st, i),
        _ => false,
    };
    let (n, m) = (saved.log.len(), st.log.len());
    let matched = (0..n.max(m)).find(|i| !same(*i)).unwrap_or(n);
    let why = refused.map(|r| format!(" ({r})")).unwrap_or_default();
    let parted = if matched < n.min(m) {
        // The events as written name hidden cards: they go to the server's console, and every
        // seat that replays is told only where the replay parted from the save.
        let (ours, theirs) = (text(st, matched).unwrap_or_default(), text(saved, matched).unwrap_or_default());
        console!("arbiter serve: a replay parts from its save at event {matched}: played `{ours}`, saved `{theirs}`");
        Some(format!("played again, event {matched} is not the save's (the two are on the server's console)"))
    } else if m < n {
        Some(format!("played again, the game stops after {m} of the save's {n} events{why}"))
    } else if m > n {
        Some(format!("the save's events stop at {n}, but its answers lead on to {m}: the save was cut short"))
    } else {
        // Every event alike: the state must be the one they lead to.
        match differing(st, saved) {
            Ok(names) if names.is_empty() => None,
            Ok(names) => {
                Some(format!("every event is the save's, but its state is not where they lead (it differs in: {})", names.join(", ")))
            }
            Err(e) => Some(format!("every event is the save's, but its state cannot be compared: {e}")),
        }
    };
    (matched.min(n), parted)
}

/// The names of the state's facts that differ between two states (its log apart, and which
/// recorded call each environment belongs to, recorded while replaying only), in order. The facts
/// are written out as text and compared field by field as text, not built as trees of JSON
/// values: a save may hold up to `SAVE_LIMIT` bytes, and a tree of them took several times that.
fn differing(a: &State, b: &State) -> Result<Vec<String>, serde_json::Error> {
    let facts = |s: &State| {
        let mut s = s.clone();
        s.log = Default::default();
        for e in &mut s.envs {
            e.rec = arbiter_runtime::state::NO_CALL;
        }
        serde_json::to_string(&s)
    };
    let (a, b) = (facts(a)?, facts(b)?);
    let (a, b) = (fields(&a)?, fields(&b)?);
    let mut names: Vec<String> = a.keys().chain(b.keys()).filter(|k| text(&a, k) != text(&b, k)).map(|k| k.to_string()).collect();
    names.sort_unstable();
    names.dedup();
    Ok(names)
}

/// Each field of a state's facts written out (see `differing`), by name: a slice of the text.
type Fields<'a> = std::collections::BTreeMap<&'a str, &'a serde_json::value::RawValue>;

fn fields(facts: &str) -> Result<Fields<'_>, serde_json::Error> {
    serde_json::from_str(facts)
}

fn text<'a>(fields: &Fields<'a>, name: &str) -> Option<&'a str> {
    fields.get(name).map(|v| v.get())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a test fails loudly by design")]
mod tests {
    use super::rerun;
    use arbiter_runtime::state::{EventKind, Mode};
    use arbiter_runtime::{Engine, Setup, Status};
    use arbiter_tools::agents::{Agent, RandomAgent};

    /// A saved game played again keeps the table at every question, settled at once or not (a
    /// replay drew it at real decisions only: the picture of the event before a settled answer
    /// already showed what came after it, which told a seat that the answer was the only choice).
    #[test]
    fn a_replay_keeps_the_table_at_every_question() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let project = arbiter_check::project::Project::at(root);
        let built = project.load("bsg-board", &[], &[]).result.unwrap_or_else(|d| panic!("{d:?}"));
        let game = &built.game;
        let (players, seed) = (3, 4);
        let engine = Engine::new(game);
        let decklists = arbiter_runtime::decks::choose_decks(game, players, &[]).unwrap();
        let mut st = engine.new_state(Mode::Game, Setup { players, seed, decklists }).unwrap();
        let mut bot = RandomAgent { seed };
        while engine.advance(&mut st).unwrap() == Status::Decision && st.decisions < 150 {
            let d = st.pending.clone().unwrap();
            let a = bot.decide(game, &st, &d);
            engine.answer(&mut st, d.seat, &a).unwrap();
        }
        let again = rerun(game, players, seed, &st);
        assert!(again.parted.is_none(), "{:?}", again.parted);
        let pictures: Vec<usize> = again.snapshots.iter().map(|(n, _)| *n).collect();
        let mut settled = 0;
        for (i, e) in st.log.iter().enumerate() {
            if let EventKind::Asked { .. } = e.kind {
                assert!(pictures.contains(&(i + 1)), "no picture of the table when question {i} was asked");
            }
            settled += usize::from(matches!(e.kind, EventKind::Answered { forced: true, .. }));
        }
        assert!(settled > 0, "decisions settled at once were played");
    }
}
