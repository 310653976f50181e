//! Replaying at the web table, a scenario file or a saved game: each event with the rule behind
//! it, its citation and its section, the table at each step, and the chain of causes of any
//! event. A scenario is written with everything in view (it is a ruling, not a seat's game), so
//! its replay shows everything; a saved game is replayed as one of its seats sees it, or with
//! everything in view when asked for.

use arbiter_check::project::{Project, canonical};
use arbiter_ir::Game;
use arbiter_ir::value::Seat;
use arbiter_runtime::state::{State, Tracing};
use arbiter_runtime::view::{self, RuleRef};
use arbiter_runtime::why::{Why, why, why_text};
use arbiter_syntax::diag::Diag;
use arbiter_tools::save::SaveError;
use arbiter_tools::scenario::{Bases, ScenarioFileError, run_file_shared};
use serde::Serialize;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// The folders whose files a replay may open.
pub const FOLDERS: [&str; 1] = ["tests"];

/// Why a replay, or a step of it, cannot be given.
#[derive(Debug)]
pub enum Refused {
    /// A file outside the folders a replay may open.
    Outside(String),
    /// No such file, scenario or event.
    Missing(String),
    /// It is there, but cannot be shown (a rule error drawing it; causes not recorded).
    Failed(String),
}

/// Why a scenario file or a saved game cannot be replayed: its scenarios do not run, or it is not
/// a save of these rules.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error(transparent)]
    Scenario(#[from] ScenarioFileError),
    #[error(transparent)]
    Save(#[from] SaveError),
}

impl ReplayError {
    pub fn to_diag(&self) -> Diag {
        match self {
            ReplayError::Scenario(e) => e.to_diag(),
            ReplayError::Save(e) => e.to_diag(),
        }
    }
}

impl From<ReplayError> for Diag {
    fn from(e: ReplayError) -> Diag {
        e.to_diag()
    }
}

/// A file named by the page, if it is a scenario-holding `.arb` file inside the project's
/// folders; else why not.
pub fn resolve(project: &Project, rel: &str) -> Result<PathBuf, Refused> {
    let path = Path::new(rel);
    let inside = path.components().all(|c| matches!(c, Component::Normal(_)))
        && path.components().next().is_some_and(|c| FOLDERS.iter().any(|f| c.as_os_str() == *f));
    if !inside || path.extension().is_none_or(|e| e != "arb") {
        return Err(Refused::Outside(format!("`{rel}` is not an .arb file inside the project's folders ({})", FOLDERS.join(", "))));
    }
    let full = project.root.join(path);
    // A link inside the folders that leads out of them is refused too.
    let (Some(real), Some(root)) = (canonical(&full), canonical(&project.root)) else {
        return Err(Refused::Missing(format!("no file `{rel}` here")));
    };
    if !real.starts_with(&root) {
        return Err(Refused::Outside(format!("`{rel}` leads outside the project")));
    }
    Ok(full)
}

/// Every scenario file of the project, relative to its root.
pub fn scenario_files(project: &Project) -> Vec<String> {
    let mut out = Vec::new();
    for folder in ["tests/examples", "tests/rulings", "tests/tour", "tests/house-rules"] {
        for p in Project::arb_files(&project.root.join(folder)) {
            let Ok(rel) = p.strip_prefix(&project.root) else { continue };
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            // Only a file's first line can begin with a byte-order mark.
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
            if text.lines().any(|l| l.starts_with("scenario ")) {
                out.push(rel.to_string_lossy().to_string());
            }
        }
    }
    out
}

#[derive(Debug, Serialize)]
pub struct ReplayEvent {
    pub index: usize,
    pub depth: u16,
    pub text: String,
    #[serde(flatten)]
    pub rule: RuleRef,
}

/// Where and why the replay of a save made by an engine that plays seeded games as `plays` parts
/// from it at event `at`.
fn parted(at: usize, why: &str, plays: u32) -> String {
    let engine = arbiter_runtime::PLAYS;
    let other = match plays {
        p if p == engine => String::new(),
        0 => format!(
            "; the save was made by an older Arbiter, from before it numbered how it plays seeded games (this one plays them as number {engine}): if that one played them otherwise, its replay follows the save as far as the two agree"
        ),
        p => format!(
            "; the save was made by an Arbiter that plays seeded games as number {p}, this one as number {engine}: its replay follows it as far as the two agree"
        ),
    };
    format!("the replay parts from the save at event {at}: {why}{other}")
}

/// One scenario of a file, or a saved game, replayed.
#[derive(Debug, Serialize)]
pub struct Replay {
    pub id: String,
    pub title: String,
    /// A scenario: whether it passes. A saved game: whether playing it again gave the same game.
    pub passed: bool,
    pub failures: Vec<String>,
    /// How it stands, in a line: passes or fails, or a saved game's result or last decision.
    pub status: String,
    pub events: Vec<ReplayEvent>,
    /// The table at the end, when the game has a picture.
    pub picture: Option<String>,
    /// Whether `why` may be asked of the events (not of a saved game seen as one seat: a chain
    /// reads the rules' conditions with every card in view).
    pub why: bool,
    /// How many seats the game has.
    pub players: usize,
}

/// One run replayed: the game, how it went, and what was kept along the way.
struct Run {
    game: Arc<Game>,
    id: String,
    title: String,
    failures: Vec<String>,
    /// How it ended, for a saved game (a scenario passes or fails).
    ended: Option<String>,
    /// A saved game's seed, shown only with everything in view (it fixes every shuffle).
    seed: Option<u64>,
    state: State,
    tracing: Tracing,
    /// The state at each step that logged events, with the length of the log then.
    snapshots: Vec<(usize, State)>,
    /// The events whose causes were recorded (a saved game's, as far as it was played again).
    traced: usize,
}

/// A scenario file's scenarios, or a saved game, run for their replay.
pub struct Replayed {
    runs: Vec<Run>,
    /// A saved game (drawn for a seat, or with everything in view when asked); a scenario file
    /// is a ruling, written with everything in view.
    pub saved: bool,
}

impl Replayed {
    pub fn run(project: &Project, path: &Path) -> Result<Replayed, ReplayError> {
        let runs = run_file_shared(project, path, &[], &Bases::default(), true)?
            .into_iter()
            .map(|fo| {
                let o = fo.outcome;
                Run {
                    game: fo.game,
                    failures: o.failures.iter().map(|f| f.message.clone()).collect(),
                    ended: None,
                    seed: None,
                    traced: o.state.log.len(),
                    id: o.id,
                    title: o.title,
                    state: o.state,
                    tracing: o.tracing,
                    snapshots: o.snapshots,
                }
            })
            .collect();
        Ok(Replayed { runs, saved: false })
    }

    /// A saved game, played again from its start (`saved::rerun`) for its steps and causes.
    pub fn save(project: &Project, path: &Path, name: &str) -> Result<Replayed, ReplayError> {
        let (built, header, state) = arbiter_tools::save::load(project, path, None, &[])?;
        let game = Arc::new(built.game);
        let rerun = super::saved::rerun(&game, header.players, header.seed, &state);
        let variants = if header.variants.is_empty() { String::new() } else { format!(" ({})", header.variants.join(", ")) };
        let ended = match &state.result {
            Some(r) => arbiter_runtime::view::result_line(r, state.turns),
            // Not the decisions so far (as the save's name, `saving::save_table`).
            None => format!("saved at turn {}", state.turns),
        };
        let run = Run {
            title: format!("{}{variants}, {} players", game.title, header.players),
            seed: Some(header.seed),
            game,
            id: name.to_string(),
            failures: rerun.parted.map(|p| parted(rerun.matched, &p, header.plays)).into_iter().collect(),
            ended: Some(ended),
            state,
            tracing: rerun.tracing,
            snapshots: rerun.snapshots,
            traced: rerun.matched,
        };
        Ok(Replayed { runs: vec![run], saved: true })
    }

    /// Every run, its events as `viewer` may see them (`None`: everything).
    pub fn replays(&self, viewer: Option<Seat>) -> Vec<Replay> {
        self.runs
            .iter()
            .map(|r| {
                let (game, st) = (&*r.game, &r.state);
                let events = st
                    .log
                    .iter()
                    .enumerate()
                    .filter_map(|(index, e)| {
                        let p = view::project_event(game, st, e, viewer)?;
                        let rule = view::rule_ref_seen(game, st, e, &p, viewer);
                        Some(ReplayEvent { index, depth: p.depth, text: p.text, rule })
                    })
                    .collect();
                let status = match (&r.ended, r.failures.is_empty()) {
                    (Some(e), true) => e.clone(),
                    (Some(e), false) => format!("{e}; {}", r.failures.join("; ")),
                    (None, true) => "passes".to_string(),
                    (None, false) => format!("fails: {}", r.failures.join("; ")),
                };
                let title = match (r.seed, viewer) {
                    (Some(seed), None) => format!("{}, seed {seed}", r.title),
                    _ => r.title.clone(),
                };
                Replay {
                    id: r.id.clone(),
                    title,
                    passed: r.failures.is_empty(),
                    failures: r.failures.clone(),
                    status,
                    events,
                    picture: game.picture.and_then(|_| arbiter_runtime::picture::svg(game, st, &r.id, viewer).ok()),
                    why: viewer.is_none(),
                    players: st.players.len(),
                }
            })
            .collect()
    }

    fn find(&self, id: &str) -> Result<&Run, Refused> {
        self.runs.iter().find(|r| r.id == id).ok_or_else(|| Refused::Missing(format!("no scenario `{id}` in this file")))
    }

    /// Run `id`, if event `index` is one of its events.
    fn event(&self, id: &str, index: usize) -> Result<&Run, Refused> {
        let r = self.find(id)?;
        if index >= r.state.log.len() {
            return Err(Refused::Missing(format!(
                "no event #{index} in {id}: its events are #0 to #{}",
                r.state.log.len().saturating_sub(1)
            )));
        }
        Ok(r)
    }

    /// The table drawn for `viewer` as it stood once the step that logged event `index` of run
    /// `id` was done (the end, past the last step).
    pub fn picture_at(&self, id: &str, index: usize, viewer: Option<Seat>) -> Result<String, Refused> {
        let r = self.event(id, index)?;
        let st = r.snapshots.iter().find(|(n, _)| *n > index).map_or(&r.state, |(_, st)| st);
        arbiter_runtime::picture::svg(&r.game, st, &format!("{id} at event {index}"), viewer).map_err(|e| match viewer {
            // Drawn for a seat, the rule's message may name what the seat may not see (as at the
            // live table): it goes to the server's console.
            Some(_) => {
                console!("arbiter serve: the picture of {id} at event {index} failed: {e}");
                Refused::Failed("the rulebook's picture could not be drawn (why is on the server's console)".to_string())
            }
            None => Refused::Failed(e.to_string()),
        })
    }

    /// The chain of causes of event `index` of run `id`, and the same as text.
    pub fn why(&self, id: &str, index: usize) -> Result<(Why, String), Refused> {
        let r = self.event(id, index)?;
        if index >= r.traced {
            return Err(Refused::Failed(format!("event #{index} is past where the replay follows the save: its causes are not known")));
        }
        let w = why(&r.game, &r.state, &r.tracing, index).ok_or_else(|| Refused::Missing(format!("no event #{index} in {id}")))?;
        let text = why_text(&w);
        Ok((w, text))
    }
}
