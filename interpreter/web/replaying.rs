//! Replays at the web table, as the API serves them: a scenario file (a ruling, everything in
//! view) or a saved game (as one seat, or everything in view, as `saving::Access` allows), event
//! by event, with each event's `why` chain and the table drawn at each step.

use super::saving::{access, existing_save, saves_here};
use super::{ApiError, ApiResult, App, bad, blocking, replay};
use arbiter_syntax::budgets::WEB_REPLAYS_KEPT;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// Replays run, by file and when it was written.
pub type ReplaysKept = Mutex<HashMap<(std::path::PathBuf, Option<std::time::SystemTime>), Arc<replay::Replayed>>>;

pub async fn scenarios(State(app): State<Arc<App>>) -> ApiResult<axum::Json<Vec<String>>> {
    let app2 = app.clone();
    Ok(axum::Json(blocking(move || Ok(replay::scenario_files(&app2.project))).await?))
}

/// A replay refused, with its status.
fn refused(r: replay::Refused) -> ApiError {
    match r {
        replay::Refused::Outside(e) => ApiError(StatusCode::FORBIDDEN, e),
        replay::Refused::Missing(e) => ApiError(StatusCode::NOT_FOUND, e),
        replay::Refused::Failed(e) => ApiError(StatusCode::UNPROCESSABLE_ENTITY, e),
    }
}

/// What a replay request asks for: the replay, the rest of its query, and whose view.
struct Asked {
    replay: Arc<replay::Replayed>,
    query: HashMap<String, String>,
    viewer: Option<u8>,
}

/// A replay request's query, or a clean refusal of a malformed one.
type ReplayQuery = Result<Query<HashMap<String, String>>, QueryRejection>;

/// What a replay request names, run (once): a scenario file (`file=tests/...`) or a saved game
/// (`save=NAME`, on a server on this machine only), and whose view (`as=N` or `as=all`, for a
/// saved game: `None` is everything).
fn replayed(app: &App, query: ReplayQuery, headers: &HeaderMap) -> ApiResult<Asked> {
    let Query(query) = query.map_err(|e| bad(format!("the query cannot be read: {}", e.body_text())))?;
    let (path, save, viewer) = match (query.get("file"), query.get("save")) {
        (Some(rel), None) => {
            if query.contains_key("as") {
                return Err(bad("a scenario is a ruling, replayed with everything in view: leave out `as`"));
            }
            (replay::resolve(&app.project, rel).map_err(refused)?, None, None)
        }
        (None, Some(name)) => {
            saves_here(app)?;
            let path = existing_save(app, name)?;
            // Whose view, and whether the request's secrets allow it: decided before the game
            // is played again.
            let access = access(app, &path, headers)?;
            let players = access.summary.header.players;
            let viewer = match query.get("as").map(String::as_str) {
                None => return Err(bad("whose view? (`&as=1` for P1's, `&as=all` for everything, hidden cards too)")),
                Some("all") => None,
                Some(n) => Some(
                    n.parse::<u8>()
                        .ok()
                        .filter(|s| (1..=players).contains(&usize::from(*s)))
                        .ok_or_else(|| bad(format!("`as={n}` is not a seat of this game: 1 to {players}, or `all`")))?,
                ),
            };
            if !access.may_see(viewer) {
                return Err(access.refusal(viewer));
            }
            // A game over is shown to all, unless a copy of it (resumed from one of its saves)
            // goes on: what this one shows, that one holds.
            if !access.may_see_unfinished(viewer)
                && let Some(id) = app.goes_on(&access.summary.header)
            {
                return Err(ApiError(
                    StatusCode::FORBIDDEN,
                    format!(
                        "the same game goes on at table {id} (resumed from one of its saves): it is replayed so once that game is over"
                    ),
                ));
            }
            (path, Some(name.clone()), viewer.map(|s| s - 1))
        }
        _ => return Err(bad("which file? (`?file=tests/...` for a scenario file, or `?save=NAME` for a saved game)")),
    };
    // A save may be written again (`arbiter play --save` does, at every decision).
    let stamp = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
    let key = (path.clone(), stamp);
    let kept = app.replays.lock().unwrap_or_else(PoisonError::into_inner).get(&key).cloned();
    let r = match kept {
        Some(r) => r,
        None => {
            let run = match &save {
                Some(name) => replay::Replayed::save(&app.project, &path, name),
                None => replay::Replayed::run(&app.project, &path),
            };
            let r = Arc::new(run.map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?);
            let mut kept = app.replays.lock().unwrap_or_else(PoisonError::into_inner);
            if kept.len() >= WEB_REPLAYS_KEPT {
                kept.clear();
            }
            kept.insert(key, r.clone());
            r
        }
    };
    Ok(Asked { replay: r, query, viewer })
}

/// The replay, run and event a replay request names, and whose view.
fn replayed_event(app: &App, query: ReplayQuery, headers: &HeaderMap) -> ApiResult<(Arc<replay::Replayed>, String, usize, Option<u8>)> {
    let Asked { replay: r, query, viewer } = replayed(app, query, headers)?;
    let id = query.get("id").ok_or_else(|| bad("which scenario? (`&id=...`)"))?.clone();
    let event: usize = query.get("event").and_then(|e| e.parse().ok()).ok_or_else(|| bad("which event? (`&event=N`, a number)"))?;
    Ok((r, id, event, viewer))
}

pub async fn replay_file(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    query: ReplayQuery,
) -> ApiResult<axum::Json<Vec<replay::Replay>>> {
    Ok(axum::Json(
        blocking(move || {
            let asked = replayed(&app, query, &headers)?;
            Ok(asked.replay.replays(asked.viewer))
        })
        .await?,
    ))
}

pub async fn replay_why(State(app): State<Arc<App>>, headers: HeaderMap, query: ReplayQuery) -> ApiResult<axum::Json<serde_json::Value>> {
    blocking(move || {
        let (r, id, event, viewer) = replayed_event(&app, query, &headers)?;
        if let (Some(seat), true) = (viewer, r.saved) {
            return Err(ApiError(
                StatusCode::FORBIDDEN,
                format!(
                    "a `why` chain reads the rules' conditions with every card in view, so it is not shown as P{}'s: replay with `as=all`",
                    seat + 1
                ),
            ));
        }
        let (why, text) = r.why(&id, event).map_err(refused)?;
        Ok(axum::Json(json!({ "why": why, "text": text })))
    })
    .await
}

pub async fn replay_picture(State(app): State<Arc<App>>, headers: HeaderMap, query: ReplayQuery) -> ApiResult<Response> {
    blocking(move || {
        let (r, id, event, viewer) = replayed_event(&app, query, &headers)?;
        let svg = r.picture_at(&id, event, viewer).map_err(refused)?;
        Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
    })
    .await
}
