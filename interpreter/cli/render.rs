//! `arbiter render`: an SVG picture of the table, at the end of a scenario or of a saved game.

use crate::check::ir::Game;
use crate::check::project::Project;
use crate::runtime::picture;
use crate::runtime::state::State;
use crate::scenario::run_file;
use std::path::{Path, PathBuf};

pub struct Options {
    pub file: PathBuf,
    pub id: Option<String>,
    pub game: Option<String>,
    pub variants: Vec<String>,
    pub out: Option<PathBuf>,
}

pub fn write_picture(game: &Game, st: &State, path: &Path, title: &str) -> Result<(), String> {
    let svg = picture::svg(game, st, title)?;
    std::fs::write(path, svg).map_err(|e| format!("cannot write `{}`: {e}", path.display()))
}

pub fn run(project: &Project, o: &Options) -> i32 {
    let out = o.out.clone().unwrap_or_else(|| o.file.with_extension("svg"));
    let is_save = o.file.extension().is_some_and(|e| e == "json");
    let result = if is_save {
        let Some(name) = &o.game else {
            eprintln!("error: `{}` is a saved game: say which game with `--game`", o.file.display());
            return 2;
        };
        let loaded = project.load(name, &o.variants, &[]);
        let built = match loaded.result {
            Ok(b) => b,
            Err(d) => {
                eprint!("{}", crate::diag::render(&d, &loaded.files));
                return 1;
            }
        };
        super::play::load_state(&o.file, &built.game).and_then(|st| write_picture(&built.game, &st, &out, &o.file.display().to_string()))
    } else {
        match run_file(project, &o.file) {
            Err(e) => Err(e),
            Ok(outcomes) => match outcomes.iter().find(|x| o.id.as_ref().is_none_or(|i| *i == x.outcome.id)) {
                None => Err(format!("`{}` has no scenario `{}`", o.file.display(), o.id.clone().unwrap_or_default())),
                Some(x) => write_picture(&x.game, &x.outcome.state, &out, &format!("{} {}", x.outcome.id, x.outcome.title)),
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
