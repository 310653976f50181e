//! `arbiter render`: an SVG picture of the table, at the end of a scenario or of a saved game.

use crate::check::project::Project;
use crate::ir::Game;
use crate::runtime::picture;
use crate::runtime::state::State;
use crate::scenario::run_file;
use std::path::{Path, PathBuf};

pub struct Options {
    pub file: PathBuf,
    pub id: Option<String>,
    pub game: Option<String>,
    pub out: Option<PathBuf>,
}

/// The picture as `viewer` sees it (`None`: everything) written to `path`.
pub fn write_picture(game: &Game, st: &State, path: &Path, title: &str, viewer: Option<u8>) -> Result<(), String> {
    let svg = picture::svg(game, st, title, viewer).map_err(|e| e.to_string())?;
    std::fs::write(path, svg).map_err(|e| format!("cannot write `{}`: {e}", path.display()))
}

pub fn run(project: &Project, o: &Options) -> i32 {
    let out = o.out.clone().unwrap_or_else(|| o.file.with_extension("svg"));
    let is_save = o.file.extension().is_some_and(|e| e == "json");
    let result = if is_save {
        match crate::save::load(project, &o.file, o.game.as_deref(), &[]) {
            Ok((built, _, state)) => write_picture(&built.game, &state, &out, &o.file.display().to_string(), None),
            Err(e) => Err(e.to_string()),
        }
    } else {
        match run_file(project, &o.file) {
            Err(e) => Err(e.to_string()),
            Ok(outcomes) => match outcomes.iter().find(|x| o.id.as_ref().is_none_or(|i| *i == x.outcome.id)) {
                None => Err(format!("`{}` has no scenario `{}`", o.file.display(), o.id.clone().unwrap_or_default())),
                Some(x) => write_picture(&x.game, &x.outcome.state, &out, &format!("{} {}", x.outcome.id, x.outcome.title), None),
            },
        }
    };
    match result {
        Ok(()) => {
            outln!("wrote {}", out.display());
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
