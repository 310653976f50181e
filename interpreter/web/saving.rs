//! Saved games at the web table: saving, listing, resuming, and who may see a save.
//!
//! A save holds every hidden card, so a save of a game in progress is shown only as its seats may
//! see it. The table keeps each human seat's secret as a digest, and so does every save it writes:
//!
//! - listing saves needs a seat's secret, and lists the saves of that seat's game only;
//! - a save goes on (`resume`) only for a request holding one of its seats' secrets, and each seat
//!   is played with the secret it was saved with (no new secrets are handed out);
//! - a save is replayed as seat S only with S's secret, and with everything in view only with
//!   every seat's secret (a game with a bot seat: not while it is played);
//! - once the game is over, its replay is anyone's, as any seat or with everything in view;
//! - a save not made at a web table (`arbiter play --save`) keeps no secrets: it is listed,
//!   resumed and replayed here only once it is over (`arbiter resume FILE` goes on with it).
//!
//! A save is named by the page as a plain name in the saves folder, and taken only if the file
//! really is there (a link leading out of the folder is refused); a save naming rule or deck files
//! this server was not started with is refused before anything is read.

use super::{ApiError, ApiResult, App, SeatPath, blocking, parse_body, seat_of, seat_path, seat_table_if, secrets_of};
use arbiter_syntax::budgets::WEB_SAVES_KEPT;
use arbiter_tools::save::Header;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode};
use serde::Deserialize;
use serde_json::json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// What the server knows of a save without playing it: its header and whether it is over.
#[derive(Debug, Clone)]
pub struct SaveSummary {
    pub header: Header,
    pub finished: bool,
}

/// Saves read, by path and when they were written.
pub type SummariesKept = Mutex<HashMap<(PathBuf, Option<std::time::SystemTime>), Arc<SaveSummary>>>;

/// Whom a request's secrets let see a save: which of its seats (1-based) they hold.
pub struct Access {
    pub summary: Arc<SaveSummary>,
    held: Vec<u8>,
}

impl Access {
    /// Whether the request may see the save as seat `seat` (1-based), or with everything in view
    /// (`None`).
    pub fn may_see(&self, seat: Option<u8>) -> bool {
        self.summary.finished || self.may_see_unfinished(seat)
    }

    /// Whether the request's secrets alone let it see the save so, over or not.
    pub fn may_see_unfinished(&self, seat: Option<u8>) -> bool {
        match seat {
            Some(s) => self.held.contains(&s),
            None => (1..=self.summary.header.players).all(|s| u8::try_from(s).is_ok_and(|s| self.held.contains(&s))),
        }
    }

    /// Why the request may not see the save so, for a refusal.
    pub fn refusal(&self, seat: Option<u8>) -> ApiError {
        let why = match seat {
            _ if self.summary.header.secrets.is_empty() => {
                "this save was not made at a web table, so none of its seats has a secret here: it is shown only once the game is over (go on with it with `arbiter resume FILE`)".to_string()
            }
            Some(s) => format!("the game is not over: it is replayed as P{s} only with P{s}'s secret (`Authorization: Bearer SECRET`)"),
            None if self.summary.header.secrets.len() < self.summary.header.players => {
                "the game is not over and a bot plays in it: it is replayed with everything in view only once it is over".to_string()
            }
            None => "the game is not over: it is replayed with everything in view only with every seat's secret".to_string(),
        };
        ApiError(StatusCode::FORBIDDEN, why)
    }
}

/// The saves folder's file `name` (a plain `.json` name), if it is really there: not a link
/// leading elsewhere.
fn save_path(app: &App, name: &str) -> ApiResult<PathBuf> {
    let plain =
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')) && !name.starts_with('.');
    if !plain || !name.ends_with(".json") {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            format!("`{name}` is not the name of a save in the saves folder (a plain name ending in `.json`, as Save names them)"),
        ));
    }
    let path = app.saves.join(name);
    if !arbiter_check::project::really_inside(&app.saves, &path) {
        return Err(ApiError(StatusCode::FORBIDDEN, format!("`{name}` is a link to a file outside the saves folder")));
    }
    Ok(path)
}

/// A save in the saves folder, by the name the page gives.
pub fn existing_save(app: &App, name: &str) -> ApiResult<PathBuf> {
    let path = save_path(app, name)?;
    if !path.is_file() {
        return Err(ApiError(StatusCode::NOT_FOUND, format!("no save `{name}` in the saves folder")));
    }
    Ok(path)
}

/// A save's header and whether it is over, read once for each time it is written.
fn summary(app: &App, path: &Path) -> ApiResult<Arc<SaveSummary>> {
    let stamp = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let key = (path.to_path_buf(), stamp);
    if let Some(s) = app.summaries.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
        return Ok(s.clone());
    }
    let saved = arbiter_tools::save::read(path).map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
    let s = Arc::new(SaveSummary { header: saved.header, finished: saved.finished });
    let mut kept = app.summaries.lock().unwrap_or_else(PoisonError::into_inner);
    if kept.len() > WEB_SAVES_KEPT {
        kept.clear();
    }
    kept.insert(key, s.clone());
    Ok(s)
}

/// Whom the request's secrets let see the save at `path`.
pub fn access(app: &App, path: &Path, headers: &HeaderMap) -> ApiResult<Access> {
    let summary = summary(app, path)?;
    let digests: Vec<String> = secrets_of(headers).iter().map(|s| arbiter_tools::save::secret_digest(s)).collect();
    let held = summary.header.secrets.iter().filter(|s| digests.contains(&s.sha256)).map(|s| s.seat).collect();
    Ok(Access { summary, held })
}

/// Saves hold every hidden card: they are listed, resumed and replayed only by a server on this
/// machine, never over the network.
pub fn saves_here(app: &App) -> ApiResult<()> {
    match app.hosts {
        Some(_) => Ok(()),
        None => Err(ApiError(
            StatusCode::FORBIDDEN,
            "a server on the network does not list, resume or replay saves (a save holds every hidden card): go on with `arbiter resume FILE` on its machine".into(),
        )),
    }
}

pub async fn save_table(State(app): State<Arc<App>>, path: SeatPath, headers: HeaderMap) -> ApiResult<axum::Json<serde_json::Value>> {
    let (id, seat) = seat_path(path)?;
    blocking(move || {
        let (table, index) = seat_of(&app, id, seat, &headers)?;
        let t = table.lock().unwrap_or_else(PoisonError::into_inner);
        std::fs::create_dir_all(&app.saves)
            .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("cannot make `{}`: {e}", app.saves.display())))?;
        if save_names(&app.saves).len() >= WEB_SAVES_KEPT {
            return Err(ApiError(
                StatusCode::INSUFFICIENT_STORAGE,
                format!("the saves folder holds {WEB_SAVES_KEPT} saves, as many as this server writes: delete some"),
            ));
        }
        let (_, st) = t.rules_and_state();
        // Named by the turn, not by the decisions so far: those count only the answers that had
        // a choice, so two saves' numbers would tell a seat which of the others' answers were
        // the only choice (a secrecy audit read hands and secret plans from them).
        let base = format!("{}-{id}-turn{}", t.game(), st.turns);
        // A name nothing has, not even a broken link.
        let name = (0..100)
            .map(|k| if k == 0 { format!("{base}.json") } else { format!("{base}-{k}.json") })
            .find(|n| app.saves.join(n).symlink_metadata().is_err())
            .ok_or_else(|| ApiError(StatusCode::CONFLICT, "too many saves of this moment".into()))?;
        let path = app.saves.join(&name);
        t.save(&path, index).map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        Ok(axum::Json(json!({ "file": name, "resume": format!("arbiter resume {}", path.display()) })))
    })
    .await
}

/// The saves in a folder, by name.
pub fn save_names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    names
}

/// The saves of the games whose seats' secrets the request holds.
pub async fn saves_list(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<axum::Json<Vec<String>>> {
    saves_here(&app)?;
    if secrets_of(&headers).is_empty() {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            "saves are listed to their seats: send a seat's secret (`Authorization: Bearer SECRET`)".into(),
        ));
    }
    blocking(move || {
        let mine = save_names(&app.saves)
            .into_iter()
            .filter(|n| {
                let Ok(path) = save_path(&app, n) else { return false };
                access(&app, &path, &headers).is_ok_and(|a| !a.held.is_empty())
            })
            .collect();
        Ok(axum::Json(mine))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResumeReq {
    file: String,
}

pub async fn resume_table(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<axum::Json<serde_json::Value>> {
    saves_here(&app)?;
    let req: ResumeReq = parse_body(body)?;
    let path = existing_save(&app, &req.file)?;
    let app2 = app.clone();
    let tokens = secrets_of(&headers);
    let (table, held) = blocking(move || {
        let access = access(&app2, &path, &headers)?;
        if access.held.is_empty() {
            let why = if access.summary.header.secrets.is_empty() {
                "this save was not made at a web table, so none of its seats has a secret here: go on with it with `arbiter resume FILE`"
            } else {
                "a save goes on only for its seats: send the secret of a seat it was saved with (`Authorization: Bearer SECRET`)"
            };
            return Err(ApiError(StatusCode::FORBIDDEN, why.to_string()));
        }
        files_of_this_server(&app2, &access.summary.header, &req.file)?;
        not_played_twice(&app2, &access.summary.header)?;
        let (built, header, state) = arbiter_tools::save::load(&app2.project, &path, None, &[]).map_err(|e| super::bad(e.to_string()))?;
        let table = super::Table::resumed(Arc::new(built), header, state).map_err(|e| super::bad(e.to_string()))?;
        Ok((table, access.held))
    })
    .await?;
    // Each seat the request holds, with the secret it sent for it (the others keep theirs).
    let told = held
        .iter()
        .filter_map(|s| {
            let index = s.checked_sub(1)?;
            let t = tokens.iter().find(|t| table.holds(index, t))?;
            Some((index, t.clone()))
        })
        .collect();
    let header = table.header().clone();
    let seated = seat_table_if(&app, table, told, || not_played_twice(&app, &header))?;
    Ok(axum::Json(seated))
}

/// Refuse to go on with a game that was played to its end: a game over is replayed with every
/// card in view, seed included, so no copy of it may go on. (Without this, a seat could resume its
/// own save, play the copy to its end and replay it to read the hidden cards of the game it left;
/// while a copy goes on, the replay of one over is refused instead, in `replaying`.)
fn not_played_twice(app: &App, h: &Header) -> ApiResult<()> {
    let ended = save_names(&app.saves)
        .into_iter()
        .find(|n| save_path(app, n).and_then(|p| summary(app, &p)).is_ok_and(|s| s.finished && s.header.same_game(h)));
    match ended {
        Some(n) => Err(ApiError(
            StatusCode::CONFLICT,
            format!("this game was played to its end (`{n}`): its saves are replayed now, not resumed (a game over shows every card)"),
        )),
        None => Ok(()),
    }
}

/// Refuse a save that names rule or deck files this server was not started with: a save from a
/// stranger must not make the server read other files.
fn files_of_this_server(app: &App, h: &Header, name: &str) -> ApiResult<()> {
    let own: Vec<Option<PathBuf>> = app.project.rules.iter().map(|p| arbiter_check::project::canonical(p)).collect();
    let foreign = h.rules.iter().find(|r| !own.contains(&arbiter_check::project::canonical(Path::new(r))));
    if let Some(r) = foreign.or(h.decks.first()) {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            format!("`{name}` names `{r}`, a file this server was not started with (`--rules`): it is not read"),
        ));
    }
    Ok(())
}
