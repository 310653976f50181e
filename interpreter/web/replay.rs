//! Replaying a scenario file at the web table: its scenarios, each event with the rule behind it,
//! its citation and its section, and the chain of causes of any event. A scenario is written with
//! everything in view (it is a ruling, not a seat's game), so a replay shows everything.

use crate::check::project::{Project, canonical};
use crate::runtime::view::{self, RuleRef};
use crate::runtime::why::{Why, why, why_text};
use crate::scenario::{Bases, FileOutcome, run_file_shared};
use serde::Serialize;
use std::path::{Component, Path, PathBuf};

/// The folders whose files a replay may open.
pub const FOLDERS: [&str; 1] = ["tests"];

/// A file named by the page, if it is a scenario-holding `.arb` file inside the project's
/// folders; else why not.
pub fn resolve(project: &Project, rel: &str) -> Result<PathBuf, String> {
    let path = Path::new(rel);
    let inside = path.components().all(|c| matches!(c, Component::Normal(_)))
        && path.components().next().is_some_and(|c| FOLDERS.iter().any(|f| c.as_os_str() == *f));
    if !inside || path.extension().is_none_or(|e| e != "arb") {
        return Err(format!("`{rel}` is not an .arb file inside the project's folders ({})", FOLDERS.join(", ")));
    }
    let full = project.root.join(path);
    // A link inside the folders that leads out of them is refused too.
    let (Some(real), Some(root)) = (canonical(&full), canonical(&project.root)) else {
        return Err(format!("no file `{rel}` here"));
    };
    if !real.starts_with(&root) {
        return Err(format!("`{rel}` leads outside the project"));
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

/// One scenario of a file, replayed.
#[derive(Debug, Serialize)]
pub struct Replay {
    pub id: String,
    pub title: String,
    pub passed: bool,
    pub failures: Vec<String>,
    pub events: Vec<ReplayEvent>,
    /// The table at the end, when the game has a picture.
    pub picture: Option<String>,
}

/// A scenario file run, kept for its `why` chains.
pub struct Replayed {
    pub outcomes: Vec<FileOutcome>,
}

impl Replayed {
    pub fn run(project: &Project, path: &Path) -> Result<Replayed, String> {
        Ok(Replayed { outcomes: run_file_shared(project, path, &[], &Bases::default(), true)? })
    }

    pub fn replays(&self) -> Vec<Replay> {
        self.outcomes
            .iter()
            .map(|fo| {
                let (game, st) = (&fo.game, &fo.outcome.state);
                let events = st
                    .log
                    .iter()
                    .enumerate()
                    .map(|(index, e)| ReplayEvent {
                        index,
                        depth: e.depth,
                        text: view::event_text(game, st, e, None),
                        rule: view::rule_ref(game, st, e.cause.routine, e.cause.span),
                    })
                    .collect();
                Replay {
                    id: fo.outcome.id.clone(),
                    title: fo.outcome.title.clone(),
                    passed: fo.outcome.passed(),
                    failures: fo.outcome.failures.iter().map(|f| f.message.clone()).collect(),
                    events,
                    picture: game.picture.and_then(|_| crate::runtime::picture::svg(game, st, &fo.outcome.id, None).ok()),
                }
            })
            .collect()
    }

    fn scenario(&self, id: &str) -> Result<&FileOutcome, String> {
        self.outcomes.iter().find(|fo| fo.outcome.id == id).ok_or_else(|| format!("no scenario `{id}` in this file"))
    }

    /// The table drawn as it stood once the step that logged event `index` of scenario `id` was
    /// done (the end, past the last step).
    pub fn picture_at(&self, id: &str, index: usize) -> Result<String, String> {
        let fo = self.scenario(id)?;
        let st = fo.outcome.snapshots.iter().find(|(n, _)| *n > index).map_or(&fo.outcome.state, |(_, st)| st);
        crate::runtime::picture::svg(&fo.game, st, &format!("{id} at event {index}"), None)
    }

    /// The chain of causes of event `index` of scenario `id`, and the same as text.
    pub fn why(&self, id: &str, index: usize) -> Result<(Why, String), String> {
        let fo = self.scenario(id)?;
        let w = why(&fo.game, &fo.outcome.state, &fo.outcome.tracing, index)
            .ok_or_else(|| format!("no event #{index} in {id} (events are numbered from 0)"))?;
        let text = why_text(&w);
        Ok((w, text))
    }
}
