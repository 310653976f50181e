//! `arbiter serve`: the web table. A local server (axum on tokio) with one page, embedded in the
//! binary, and a JSON API the page uses:
//!
//! | request | answer |
//! |---|---|
//! | `GET /api/games` | each game: name, title, players, variants |
//! | `POST /api/tables` `{game, variants, seats, seed?}` | a new game (a random seed unless given): its number and each human seat's secret |
//! | `GET /api/tables/N/seats/S` | the table as seat S sees it (with S's secret) |
//! | `POST /api/tables/N/seats/S/answer` `{picks}` | S's answer taken, and the table as S sees it now |
//! | `POST /api/tables/N/seats/S/save` | the game saved on this machine (never sent): the file's name |
//! | `GET /api/saves` | the saved games in the saves folder |
//! | `POST /api/tables/resume` `{file}` | a saved game going on: as `POST /api/tables` |
//! | `GET /api/scenarios` | the project's scenario files |
//! | `GET /api/replay?file=F` | each scenario of file F replayed: its events, rules, citations |
//! | `GET /api/replay?save=NAME&as=S` | a saved game replayed from its start, as seat S sees it (`as=all`: everything) |
//! | `GET /api/replay/why?file=F&id=ID&event=N` | the chain of causes of event N (not as one seat) |
//! | `GET /api/replay/picture?file=F&id=ID&event=N` | the table (SVG) once event N's step was done |
//!
//! A seat's view is sent only to a request carrying that seat's secret (`Authorization: Bearer
//! SECRET`), and is worked out from what that seat may see (`runtime::view`). Every refusal is a
//! JSON `{"error": ...}` with a status: 400 malformed, 403 not your seat (or another host name), 404
//! no such thing, 413 too large, 415 not JSON, 422 an illegal answer (the game goes on).

mod replay;
mod saved;
mod table;

use crate::check::project::Project;
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
pub use table::{SeatKind, Table};

/// The page, embedded: no build step on the user's machine.
const PAGE: &str = include_str!("page.html");

/// The largest request body taken (an answer, a new game).
pub const BODY_LIMIT: usize = 64 * 1024;

/// How many saves the saves folder may hold before a server writes no more (a server on the
/// network could otherwise be made to fill a disk).
const SAVES_KEPT: usize = 1000;

/// How many games one server keeps at once.
const TABLES_KEPT: usize = 64;

/// Replays run, by file and when it was written.
type ReplaysKept = Mutex<HashMap<(std::path::PathBuf, Option<std::time::SystemTime>), Arc<replay::Replayed>>>;

/// A game kept at the server, and when it was last asked about.
struct Kept {
    table: Arc<Mutex<Table>>,
    asked: u64,
}

/// Checked rules, by game and variants.
type RulesCache = Mutex<HashMap<(String, Vec<String>), Arc<crate::check::Built>>>;

struct App {
    project: Project,
    /// The games being played, each with when it was last asked about (a count of requests).
    tables: Mutex<HashMap<u64, Kept>>,
    /// Requests for a game so far: when each was last asked about.
    asked: AtomicU64,
    next: AtomicU64,
    /// Each game's rules by its variants, checked once.
    rules: RulesCache,
    /// The games' list, made once.
    games: std::sync::OnceLock<Vec<GameInfo>>,
    /// Where games are saved (`--saves`).
    saves: std::path::PathBuf,
    /// The `Host` names a request may carry when the server listens on this machine only (a
    /// page of another site that renames itself to this address is refused); none when it
    /// listens on the network.
    hosts: Option<Vec<String>>,
    /// Scenario files and saved games replayed, by path and when it was written (kept for their
    /// pictures and `why` chains).
    replays: ReplaysKept,
}

impl App {
    fn rules(&self, game: &str, variants: &[String]) -> Result<Arc<crate::check::Built>, String> {
        let key = (game.to_string(), variants.to_vec());
        if let Some(b) = self.rules.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
            return Ok(b.clone());
        }
        let built = table::rules(&self.project, game, variants)?;
        self.rules.lock().unwrap_or_else(PoisonError::into_inner).insert(key, built.clone());
        Ok(built)
    }

    /// Every game that loads, with its players and variants (worked out once).
    fn game_list(&self) -> &Vec<GameInfo> {
        self.games.get_or_init(|| {
            let mut out = Vec::new();
            for name in self.project.games() {
                if let Ok(b) = self.rules(&name, &[]) {
                    let g = &b.game;
                    let variants = g.variants.iter().map(|v| VariantInfo { name: v.name.clone(), title: v.title.clone() }).collect();
                    out.push(GameInfo { name, title: g.title.clone(), min_players: g.min_players, max_players: g.max_players, variants });
                }
            }
            out
        })
    }
}

/// An error as the API sends it.
struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, axum::Json(json!({ "error": self.1 }))).into_response()
    }
}

type ApiResult<T> = Result<T, ApiError>;

fn bad(msg: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, msg.into())
}

/// Serve on 127.0.0.1:`port` (0: any free port) until the process ends; `ready` is told the
/// address once it listens.
pub fn serve(
    project: Project,
    host: &str,
    port: u16,
    saves: std::path::PathBuf,
    ready: impl FnOnce(std::net::SocketAddr),
) -> Result<(), String> {
    if saves.exists() && !saves.is_dir() {
        return Err(format!("`{}` is not a folder: `--saves` names the folder games are saved in", saves.display()));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((host, port)).await.map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        ready(addr);
        let port = addr.port();
        let hosts = addr.ip().is_loopback().then(|| {
            let mut names = vec![format!("127.0.0.1:{port}"), format!("localhost:{port}"), format!("[::1]:{port}")];
            let given = format!("{}:{port}", host.to_ascii_lowercase());
            if !names.contains(&given) {
                names.push(given);
            }
            names
        });
        let app = Arc::new(App {
            project,
            tables: Mutex::new(HashMap::new()),
            asked: AtomicU64::new(0),
            next: AtomicU64::new(1),
            rules: Mutex::new(HashMap::new()),
            games: std::sync::OnceLock::new(),
            replays: Mutex::new(HashMap::new()),
            saves,
            hosts,
        });
        // The games are loaded while the page is first opened.
        let warm = app.clone();
        tokio::task::spawn_blocking(move || warm.game_list().len());
        axum::serve(listener, router(app)).await.map_err(|e| e.to_string())
    })
}

fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route("/api/games", get(games))
        .route("/api/tables", post(new_table))
        .route("/api/tables/{table}/seats/{seat}", get(seat_view))
        .route("/api/tables/{table}/seats/{seat}/answer", post(answer))
        .route("/api/tables/{table}/seats/{seat}/save", post(save_table))
        .route("/api/tables/resume", post(resume_table))
        .route("/api/saves", get(saves_list))
        .route("/api/scenarios", get(scenarios))
        .route("/api/replay", get(replay_file))
        .route("/api/replay/why", get(replay_why))
        .route("/api/replay/picture", get(replay_picture))
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such page".into()) })
        .method_not_allowed_fallback(|method: axum::http::Method| async move {
            ApiError(
                StatusCode::METHOD_NOT_ALLOWED,
                format!("{method} is not how this is asked (the API's table at the top of interpreter/web/mod.rs lists each request)"),
            )
        })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

/// Requests only this server's own page makes: addressed to this machine by name (when it listens
/// here only), and, for a change, sent as JSON (a form another site posts is not).
async fn guard(State(app): State<Arc<App>>, req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    if let Some(hosts) = &app.hosts {
        let host = req.headers().get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
        if !hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
            return ApiError(StatusCode::FORBIDDEN, format!("this server answers requests for {} only, not `{host}`", hosts.join(", ")))
                .into_response();
        }
    }
    if req.method() == axum::http::Method::POST {
        let json = req.headers().get(header::CONTENT_TYPE).and_then(|h| h.to_str().ok()).is_some_and(|t| t.starts_with("application/json"));
        if !json {
            return ApiError(StatusCode::UNSUPPORTED_MEDIA_TYPE, "a request that changes a game is sent as `application/json`".into())
                .into_response();
        }
    }
    next.run(req).await
}

#[derive(Serialize, Clone)]
struct GameInfo {
    name: String,
    title: String,
    min_players: u8,
    max_players: u8,
    variants: Vec<VariantInfo>,
}

#[derive(Serialize, Clone)]
struct VariantInfo {
    name: String,
    title: String,
}

async fn games(State(app): State<Arc<App>>) -> ApiResult<axum::Json<Vec<GameInfo>>> {
    let app2 = app.clone();
    Ok(axum::Json(blocking(move || Ok(app2.game_list().clone())).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewTable {
    game: String,
    #[serde(default)]
    variants: Vec<String>,
    /// Who plays each seat: `human`, `random`, `greedy` or `mcts`.
    seats: Vec<String>,
    /// The seed of the game's shuffles and dice: random unless given (whoever knows it can work
    /// out the hidden cards, so it is never sent to a seat).
    #[serde(default)]
    seed: Option<u64>,
}

/// The body as JSON of type `T`, or a clean refusal.
fn parse_body<T: for<'de> Deserialize<'de>>(body: Result<Bytes, BytesRejection>) -> ApiResult<T> {
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError(StatusCode::PAYLOAD_TOO_LARGE, format!("the request is larger than {BODY_LIMIT} bytes"))
        } else {
            bad(format!("the request's body cannot be read: {e}"))
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| bad(format!("the request is not the JSON expected: {e}")))
}

async fn new_table(State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>) -> ApiResult<axum::Json<serde_json::Value>> {
    let req: NewTable = parse_body(body)?;
    if !app.project.games().contains(&req.game) {
        return Err(ApiError(StatusCode::NOT_FOUND, format!("no game `{}` here", req.game)));
    }
    let seats: Vec<SeatKind> = req.seats.iter().map(|s| SeatKind::parse(s)).collect::<Result<_, _>>().map_err(bad)?;
    let app2 = app.clone();
    let table = blocking(move || {
        let rules = app2.rules(&req.game, &req.variants).map_err(bad)?;
        let own = app2.project.rules_for(&req.game);
        Table::with_rules(rules, &req.variants, &own, seats, req.seed.unwrap_or_else(rand::random)).map_err(bad)
    })
    .await?;
    Ok(axum::Json(seat_table(&app, table)))
}

/// A new game at the server: its number and each human seat's secret, for the browser that
/// started it.
fn seat_table(app: &App, table: Table) -> serde_json::Value {
    let seats: Vec<serde_json::Value> = table.human_tokens().iter().map(|(s, t)| json!({ "seat": s + 1, "token": t })).collect();
    let id = app.next.fetch_add(1, Ordering::Relaxed);
    let mut tables = app.tables.lock().unwrap_or_else(PoisonError::into_inner);
    // A full server makes room: a game that is over goes first, else the one left longest.
    if tables.len() >= TABLES_KEPT {
        let over = |k: &Kept| k.table.try_lock().is_ok_and(|t| t.over());
        let gone = tables.iter().filter(|(_, k)| over(k)).map(|(id, _)| *id).min();
        let gone = gone.or_else(|| tables.iter().min_by_key(|(_, k)| k.asked).map(|(id, _)| *id));
        if let Some(id) = gone {
            tables.remove(&id);
        }
    }
    let asked = app.asked.fetch_add(1, Ordering::Relaxed);
    tables.insert(id, Kept { table: Arc::new(Mutex::new(table)), asked });
    json!({ "table": id, "seats": seats })
}

/// A save file's name as the page gives it: a plain `.json` name in the saves folder.
fn save_path(app: &App, name: &str) -> ApiResult<std::path::PathBuf> {
    let plain =
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')) && !name.starts_with('.');
    if !plain || !name.ends_with(".json") {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            format!("`{name}` is not the name of a save in the saves folder (a plain name ending in `.json`, as Save names them)"),
        ));
    }
    Ok(app.saves.join(name))
}

async fn save_table(State(app): State<Arc<App>>, path: SeatPath, headers: HeaderMap) -> ApiResult<axum::Json<serde_json::Value>> {
    let (id, seat) = seat_path(path)?;
    blocking(move || {
        let (table, _) = seat_of(&app, id, seat, &headers)?;
        let t = table.lock().unwrap_or_else(PoisonError::into_inner);
        std::fs::create_dir_all(&app.saves)
            .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("cannot make `{}`: {e}", app.saves.display())))?;
        if save_names(&app.saves).len() >= SAVES_KEPT {
            return Err(ApiError(
                StatusCode::INSUFFICIENT_STORAGE,
                format!("the saves folder holds {SAVES_KEPT} saves, as many as this server writes: delete some"),
            ));
        }
        let (_, st) = t.rules_and_state();
        let base = format!("{}-{id}-{}", t.game(), st.decisions);
        let name = (0..100)
            .map(|k| if k == 0 { format!("{base}.json") } else { format!("{base}-{k}.json") })
            .find(|n| !app.saves.join(n).exists())
            .ok_or_else(|| ApiError(StatusCode::CONFLICT, "too many saves of this moment".into()))?;
        let path = app.saves.join(&name);
        t.save(&path).map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e))?;
        Ok(axum::Json(json!({ "file": name, "resume": format!("arbiter resume {}", path.display()) })))
    })
    .await
}

/// Saves hold every hidden card: they are listed, resumed and replayed only by a server on this machine,
/// whose user could open them anyway, never over the network.
fn saves_here(app: &App) -> ApiResult<()> {
    match app.hosts {
        Some(_) => Ok(()),
        None => Err(ApiError(
            StatusCode::FORBIDDEN,
            "a server on the network does not list, resume or replay saves (a save holds every hidden card): go on with `arbiter resume FILE` on its machine".into(),
        )),
    }
}

async fn saves_list(State(app): State<Arc<App>>) -> ApiResult<axum::Json<Vec<String>>> {
    saves_here(&app)?;
    Ok(axum::Json(save_names(&app.saves)))
}

/// The saves in a folder, by name.
fn save_names(folder: &std::path::Path) -> Vec<String> {
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResumeReq {
    file: String,
}

async fn resume_table(State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>) -> ApiResult<axum::Json<serde_json::Value>> {
    saves_here(&app)?;
    let req: ResumeReq = parse_body(body)?;
    let path = existing_save(&app, &req.file)?;
    let app2 = app.clone();
    let table = blocking(move || {
        let (built, header, state) = crate::save::load(&app2.project, &path, None, &[]).map_err(|e| bad(e.to_string()))?;
        Table::resumed(Arc::new(built), header, state).map_err(bad)
    })
    .await?;
    Ok(axum::Json(seat_table(&app, table)))
}

/// A table's number and a seat's, from the path.
type SeatPath = Result<Path<(u64, u8)>, PathRejection>;

/// The table and seat numbers a path names, or a clean refusal of a path that names none.
fn seat_path(path: SeatPath) -> ApiResult<(u64, u8)> {
    path.map(|Path(p)| p)
        .map_err(|e| ApiError(StatusCode::NOT_FOUND, format!("no such game or seat ({}): both are numbered from 1", e.body_text())))
}

/// The table `id`, and seat `seat` (1-based) of it, if the request holds that seat's secret.
fn seat_of(app: &App, id: u64, seat: u8, headers: &HeaderMap) -> ApiResult<(Arc<Mutex<Table>>, u8)> {
    let table = app.tables.lock().unwrap_or_else(PoisonError::into_inner).get_mut(&id).map(|k| {
        k.asked = app.asked.fetch_add(1, Ordering::Relaxed);
        k.table.clone()
    });
    let table = table.ok_or_else(|| {
        ApiError(
            StatusCode::NOT_FOUND,
            format!(
                "no game {id} here (a server keeps {TABLES_KEPT} games: when full, it lets go of a finished one, else the one left longest)"
            ),
        )
    })?;
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("Bearer"))
        .map(|(_, token)| token.trim())
        .ok_or_else(|| ApiError(StatusCode::FORBIDDEN, "a seat's view needs its secret (`Authorization: Bearer SECRET`)".into()))?;
    let index = seat.checked_sub(1).ok_or_else(|| ApiError(StatusCode::NOT_FOUND, "seats are numbered from 1".into()))?;
    {
        let t = table.lock().unwrap_or_else(PoisonError::into_inner);
        if usize::from(index) >= t.seats() {
            return Err(ApiError(StatusCode::NOT_FOUND, format!("game {id} has no seat {seat}: its seats are 1 to {}", t.seats())));
        }
        if !t.holds(index, token) {
            return Err(ApiError(StatusCode::FORBIDDEN, format!("that is not seat {seat}'s secret: a seat sees only its own view")));
        }
    }
    Ok((table, index))
}

async fn seat_view(State(app): State<Arc<App>>, path: SeatPath, headers: HeaderMap) -> ApiResult<axum::Json<table::SeatView>> {
    // The table's lock may be held while bots think: it is waited for off the server's threads.
    let (id, seat) = seat_path(path)?;
    blocking(move || {
        let (table, index) = seat_of(&app, id, seat, &headers)?;
        let view = table.lock().unwrap_or_else(PoisonError::into_inner).view(index);
        Ok(axum::Json(view))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnswerReq {
    /// The options picked, numbered from 0 as the decision lists them.
    picks: Vec<usize>,
}

async fn answer(
    State(app): State<Arc<App>>,
    path: SeatPath,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<axum::Json<table::SeatView>> {
    let req: AnswerReq = parse_body(body)?;
    let (id, seat) = seat_path(path)?;
    blocking(move || {
        let (table, index) = seat_of(&app, id, seat, &headers)?;
        let mut t = table.lock().unwrap_or_else(PoisonError::into_inner);
        match t.answer(index, req.picks) {
            Ok(()) => Ok(axum::Json(t.view(index))),
            Err(table::Refusal::Refused(e)) => Err(ApiError(StatusCode::UNPROCESSABLE_ENTITY, format!("refused: {e}"))),
            Err(table::Refusal::Stopped(e)) => {
                Err(ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("the game stopped on a rule error: {e}")))
            }
        }
    })
    .await
}

/// Run game work (loading rules, bots thinking) off the server's threads.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> ApiResult<T> + Send + 'static) -> ApiResult<T> {
    tokio::task::spawn_blocking(f).await.map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("the work failed: {e}")))?
}

async fn scenarios(State(app): State<Arc<App>>) -> ApiResult<axum::Json<Vec<String>>> {
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

/// A save in the saves folder, by the name the page gives.
fn existing_save(app: &App, name: &str) -> ApiResult<std::path::PathBuf> {
    let path = save_path(app, name)?;
    if !path.is_file() {
        return Err(ApiError(StatusCode::NOT_FOUND, format!("no save `{name}` in the saves folder")));
    }
    Ok(path)
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
fn replayed(app: &App, query: ReplayQuery) -> ApiResult<Asked> {
    let Query(query) = query.map_err(|e| bad(format!("the query cannot be read: {}", e.body_text())))?;
    let (path, save) = match (query.get("file"), query.get("save")) {
        (Some(rel), None) => (replay::resolve(&app.project, rel).map_err(refused)?, None),
        (None, Some(name)) => {
            saves_here(app)?;
            (existing_save(app, name)?, Some(name.clone()))
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
            let r = Arc::new(run.map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e))?);
            let mut kept = app.replays.lock().unwrap_or_else(PoisonError::into_inner);
            if kept.len() >= TABLES_KEPT {
                kept.clear();
            }
            kept.insert(key, r.clone());
            r
        }
    };
    let viewer = match (query.get("as").map(String::as_str), r.saved) {
        (None, false) => None,
        (Some(_), false) => return Err(bad("a scenario is a ruling, replayed with everything in view: leave out `as`")),
        (None, true) => return Err(bad("whose view? (`&as=1` for P1's, `&as=all` for everything, hidden cards too)")),
        (Some("all"), true) => None,
        (Some(n), true) => {
            let seat: u8 = n
                .parse()
                .ok()
                .filter(|s| (1..=r.players()).contains(&usize::from(*s)))
                .ok_or_else(|| bad(format!("`as={n}` is not a seat of this game: 1 to {}, or `all`", r.players())))?;
            Some(seat - 1)
        }
    };
    Ok(Asked { replay: r, query, viewer })
}

/// The replay, run and event a replay request names, and whose view.
fn replayed_event(app: &App, query: ReplayQuery) -> ApiResult<(Arc<replay::Replayed>, String, usize, Option<u8>)> {
    let Asked { replay: r, query, viewer } = replayed(app, query)?;
    let id = query.get("id").ok_or_else(|| bad("which scenario? (`&id=...`)"))?.clone();
    let event: usize = query.get("event").and_then(|e| e.parse().ok()).ok_or_else(|| bad("which event? (`&event=N`, a number)"))?;
    Ok((r, id, event, viewer))
}

async fn replay_file(State(app): State<Arc<App>>, query: ReplayQuery) -> ApiResult<axum::Json<Vec<replay::Replay>>> {
    Ok(axum::Json(
        blocking(move || {
            let asked = replayed(&app, query)?;
            Ok(asked.replay.replays(asked.viewer))
        })
        .await?,
    ))
}

async fn replay_why(State(app): State<Arc<App>>, query: ReplayQuery) -> ApiResult<axum::Json<serde_json::Value>> {
    blocking(move || {
        let (r, id, event, viewer) = replayed_event(&app, query)?;
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

async fn replay_picture(State(app): State<Arc<App>>, query: ReplayQuery) -> ApiResult<Response> {
    blocking(move || {
        let (r, id, event, viewer) = replayed_event(&app, query)?;
        let svg = r.picture_at(&id, event, viewer).map_err(refused)?;
        Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
    })
    .await
}
