//! `arbiter render`: an SVG picture of the table, at the end of a scenario or of a saved game.

use crate::check::project::Project;
use crate::ir::Game;
use crate::runtime::picture::{self, PictureError};
use crate::runtime::state::State;
use crate::save::SaveError;
use crate::scenario::{ScenarioFileError, run_file};
use crate::syntax::diag::Diag;
use crate::syntax::span::Span;
use std::path::{Path, PathBuf};

pub struct Options {
    pub file: PathBuf,
    pub id: Option<String>,
    pub game: Option<String>,
    pub out: Option<PathBuf>,
}

/// Why a picture was not written.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error(transparent)]
    Picture(#[from] PictureError),
    #[error("cannot write `{}`: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
    /// The saved game cannot be read, or is not a save of these rules.
    #[error(transparent)]
    Save(#[from] SaveError),
    #[error(transparent)]
    Scenario(#[from] ScenarioFileError),
    /// No scenario of the file has the id asked for.
    #[error("`{}` has no scenario `{id}`", file.display())]
    NoScenario { file: PathBuf, id: String },
    /// The picture cannot be drawn, and why has been shown (where its function is written).
    #[error("no picture written")]
    NotDrawn,
}

impl RenderError {
    pub fn to_diag(&self) -> Diag {
        match self {
            RenderError::Picture(e) => e.to_diag(),
            RenderError::Save(e) => e.to_diag(),
            RenderError::Scenario(e) => e.to_diag(),
            RenderError::Write { .. } => Diag::error(Span::NONE, self.to_string()).help("write the picture to another file with `--out`"),
            RenderError::NotDrawn => Diag::error(Span::NONE, self.to_string()),
            RenderError::NoScenario { .. } => {
                Diag::error(Span::NONE, self.to_string()).help("`arbiter test FILE` lists the file's scenarios by id")
            }
        }
    }
}

impl From<RenderError> for Diag {
    fn from(e: RenderError) -> Diag {
        e.to_diag()
    }
}

/// The picture as `viewer` sees it (`None`: everything) written to `path`.
pub fn write_picture(game: &Game, st: &State, path: &Path, title: &str, viewer: Option<u8>) -> Result<(), RenderError> {
    let svg = picture::svg(game, st, title, viewer)?;
    write_svg(path, &svg)
}

pub fn write_svg(path: &Path, svg: &str) -> Result<(), RenderError> {
    std::fs::write(path, svg).map_err(|e| RenderError::Write { path: path.to_path_buf(), source: e })
}

pub fn run(project: &Project, o: &Options) -> i32 {
    let out = o.out.clone().unwrap_or_else(|| o.file.with_extension("svg"));
    let is_save = o.file.extension().is_some_and(|e| e == "json");
    // A picture that cannot be drawn is shown where its function is written.
    let drawn = |game: &Game, st: &State, title: &str, viewer: Option<u8>| {
        write_picture(game, st, &out, title, viewer).map_err(|e| match &e {
            RenderError::Picture(p) => {
                out!("{}", crate::syntax::diag::render(&[p.to_diag()], &game.files));
                RenderError::NotDrawn
            }
            _ => e,
        })
    };
    let result = if is_save {
        match crate::save::load(project, &o.file, o.game.as_deref(), &[]) {
            // A game that goes on is drawn as its first human seat sees it (the seat that saved
            // it, at the web table); one over, or played by bots alone, with everything in view.
            Ok((built, header, state)) => {
                let seat = header.saved_by.or(header.humans.first().copied()).filter(|_| state.result.is_none());
                let title = match seat {
                    Some(s) => format!("{} as P{s} sees it", o.file.display()),
                    None => o.file.display().to_string(),
                };
                drawn(&built.game, &state, &title, seat.map(|s| s.saturating_sub(1)))
            }
            Err(e) => Err(e.into()),
        }
    } else {
        match run_file(project, &o.file) {
            Err(e) => Err(e.into()),
            Ok(outcomes) => match outcomes.iter().find(|x| o.id.as_ref().is_none_or(|i| *i == x.outcome.id)) {
                None => Err(RenderError::NoScenario { file: o.file.clone(), id: o.id.clone().unwrap_or_default() }),
                Some(x) => drawn(&x.game, &x.outcome.state, &format!("{} {}", x.outcome.id, x.outcome.title), None),
            },
        }
    };
    match result {
        Ok(()) => {
            outln!("wrote {}", out.display());
            0
        }
        Err(e) => {
            errln!("error: {e}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RenderError;
    use crate::diag::Diag;
    use std::path::PathBuf;

    #[test]
    fn a_picture_not_written_is_a_diagnostic_with_its_message_and_help() {
        let e = RenderError::Write { path: PathBuf::from("out/t.svg"), source: std::io::Error::other("disk full") };
        assert_eq!(e.to_string(), "cannot write `out/t.svg`: disk full");
        let d = Diag::from(e);
        assert_eq!(d.message, "cannot write `out/t.svg`: disk full");
        assert!(d.help.is_some_and(|h| h.contains("--out")));
        let e = RenderError::NoScenario { file: PathBuf::from("tests/x.arb"), id: "nope".into() };
        assert_eq!(e.to_string(), "`tests/x.arb` has no scenario `nope`");
        assert!(Diag::from(e).help.is_some());
        let e = RenderError::from(crate::runtime::picture::PictureError::NotAList);
        assert_eq!(e.to_string(), "the picture function must return a list of drawings");
        assert_eq!(Diag::from(e).message, "the picture function must return a list of drawings");
    }
}
