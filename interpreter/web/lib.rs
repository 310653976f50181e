//! `arbiter serve`: the web table. A local server (axum on tokio) with one page, embedded in the
//! binary, and a JSON API the page uses:
//!
//! | request | answer |
//! |---|---|
//! | `GET /`, `GET /play/GAME?players=N&seat=K`, `GET /table/N?seat=K` | the page; the links open a new game of GAME with seat K played here, or table N's seat K in the browser holding its secret |
//! | `GET /api/games` | each game: name, title, players, variants |
//! | `POST /api/tables` `{game, variants, seats, seed?}` | a new game (a random seed unless given): its number and each human seat's secret |
//! | `GET /api/tables/N/seats/S` | the table as seat S sees it (with S's secret) |
//! | `POST /api/tables/N/seats/S/answer` `{picks}` | S's answer taken, and the table as S sees it now |
//! | `DELETE /api/tables/N/seats/S` | S leaves; once every human seat has, the game is closed and its bots stop |
//! | `POST /api/tables/N/seats/S/save` | the game saved on this machine (never sent): the file's name |
//! | `GET /api/saves` | the saved games of the seats whose secrets are given |
//! | `POST /api/tables/resume` `{file}` | a saved game going on, its seats played with the secrets they were saved with |
//! | `GET /api/status` | the games kept, and the bots thinking and waiting to think |
//! | `GET /api/scenarios` | the project's scenario files |
//! | `GET /api/replay?file=F` | each scenario of file F replayed: its events, rules, citations |
//! | `GET /api/replay?save=NAME&as=S` | a saved game replayed from its start, as seat S sees it (`as=all`: everything) |
//! | `GET /api/replay/why?file=F&id=ID&event=N` | the chain of causes of event N (not as one seat) |
//! | `GET /api/replay/picture?file=F&id=ID&event=N` | the table (SVG) once event N's step was done |
//!
//! A seat's view is sent only to a request carrying that seat's secret (`Authorization: Bearer
//! SECRET`, or several secrets, `Bearer S1,S2`, for a browser playing several seats), and is
//! worked out from what that seat may see (`runtime::view`). A save keeps each seat's secret (as
//! a digest): it is listed, resumed and replayed as a seat only with that seat's secret, and
//! replayed with everything in view only with every seat's, until the game is over (`saving.rs`).
//! Every refusal is a JSON `{"error": ...}` with a status: 400 malformed, 403 not your seat (or
//! another host name), 404 no such thing, 413 too large, 415 not JSON, 422 an illegal answer (the
//! game goes on) or a bot larger than a web table runs.
//!
//! The searching bots think on threads of their own (`bots.rs`), at most `--think` seconds a
//! decision, and stop when their table is closed or no seat has asked about it for `--bot-idle`.

/// A line on the server's console (`eprintln!` that never panics: a closed console must not stop
/// a table half-way through a rule error).
macro_rules! console {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

mod bots;
mod replay;
mod replaying;
mod saved;
mod saving;
mod table;

use arbiter_check::project::Project;
use arbiter_syntax::budgets::{WEB_BODY_LIMIT, WEB_SECRETS_SENT, WEB_TABLES_KEPT};
use arbiter_syntax::diag::Diag;
use arbiter_syntax::span::Span;
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
pub use replay::ReplayError;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
pub use table::{SeatKind, SeatRefusal, Table, TableError};

/// The page, embedded: no build step on the user's machine.
const PAGE: &str = include_str!("page.html");

/// A game kept at the server, and when it was last asked about.
struct Kept {
    table: Arc<Mutex<Table>>,
    asked: u64,
    /// What a save of it says it is (`Header::same_game` tells its copies).
    header: arbiter_tools::save::Header,
}

/// Checked rules, by game and variants.
type RulesCache = Mutex<HashMap<(String, Vec<String>), Arc<arbiter_check::Built>>>;

/// How the server's bots are bounded (`arbiter serve --think`, `--bot-idle`).
#[derive(Debug, Clone, Copy)]
pub struct BotLimits {
    /// How long a bot thinks about one decision at most.
    pub think: std::time::Duration,
    /// How long a table's bots go on with no seat asking about it.
    pub idle: std::time::Duration,
}

impl Default for BotLimits {
    fn default() -> Self {
        BotLimits { think: arbiter_syntax::budgets::WEB_THINK, idle: arbiter_syntax::budgets::WEB_IDLE }
    }
}

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
    replays: replaying::ReplaysKept,
    /// Saves' headers, by path and when each was written.
    summaries: saving::SummariesKept,
    /// The searching bots' threads.
    bots: bots::Pool,
    /// The saves folder's lock, held while the server runs (`lock_saves`).
    _saves_lock: std::fs::File,
}

/// The name of the lock file in a saves folder.
pub const SAVES_LOCK: &str = ".arbiter-serve.lock";

/// The saves folder made if need be, and locked for this server alone: a server knows which games
/// go on by its own tables (`App::goes_on`), so a second server on the same folder could resume a
/// save of a game that goes on at the first, play it to its end and replay it with everything in
/// view. The lock is the operating system's, let go when the process ends however it ends.
fn lock_saves(saves: &std::path::Path) -> Result<std::fs::File, ServeError> {
    let unusable = |source| ServeError::SavesUnusable { path: saves.to_path_buf(), source };
    std::fs::create_dir_all(saves).map_err(unusable)?;
    let file = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(saves.join(SAVES_LOCK)).map_err(unusable)?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(ServeError::SavesInUse(saves.to_path_buf())),
        Err(std::fs::TryLockError::Error(e)) => Err(unusable(e)),
    }
}

impl App {
    /// A table at this server where the game `h` was saved from (or a copy of it) goes on, not
    /// over: its number.
    fn goes_on(&self, h: &arbiter_tools::save::Header) -> Option<u64> {
        let twins: Vec<(u64, Arc<Mutex<Table>>)> = {
            let tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
            tables.iter().filter(|(_, k)| k.header.same_game(h)).map(|(id, k)| (*id, k.table.clone())).collect()
        };
        twins.into_iter().find(|(_, t)| !t.lock().unwrap_or_else(PoisonError::into_inner).over()).map(|(id, _)| id)
    }

    fn rules(&self, game: &str, variants: &[String]) -> Result<Arc<arbiter_check::Built>, TableError> {
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
                    let variants = g
                        .variants
                        .iter()
                        .map(|v| VariantInfo { name: v.name.clone(), title: v.title.clone(), group: v.group.clone() })
                        .collect();
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

/// Why the web table cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// `--saves` names something that is not a folder.
    #[error("`{}` is not a folder: `--saves` names the folder games are saved in", .0.display())]
    SavesNotAFolder(std::path::PathBuf),
    /// Another web table serves games from the same folder (it holds the folder's lock): each
    /// would miss the other's tables, so that a copy of a game that goes on at one could be
    /// played to its end at the other and replayed with everything in view.
    #[error("another web table already serves games saved in `{}`", .0.display())]
    SavesInUse(std::path::PathBuf),
    /// The saves folder cannot be made, or its lock written (a folder this user may not write).
    #[error("cannot keep games in `{}`: {source}", path.display())]
    SavesUnusable { path: std::path::PathBuf, source: std::io::Error },
    #[error("cannot listen on {host}:{port}: {source}")]
    Listen { host: String, port: u16, source: std::io::Error },
    /// Starting the server's threads, or serving, failed.
    #[error("{0}")]
    Io(std::io::Error),
}

impl ServeError {
    pub fn to_diag(&self) -> Diag {
        let (message, help) = match self {
            ServeError::SavesNotAFolder(p) => {
                (format!("`{}` is not a folder", p.display()), "`--saves` names the folder games are saved in".to_string())
            }
            ServeError::SavesUnusable { .. } => {
                (self.to_string(), "name a folder this user may write with `--saves DIR` (it is made if need be)".to_string())
            }
            ServeError::SavesInUse(_) => (
                self.to_string(),
                "give this one a folder of its own with `--saves DIR`, or stop the other (one server keeps one folder: it must know every table of the games saved there)".to_string(),
            ),
            ServeError::Listen { .. } => (self.to_string(), "choose another port with `--port` (0: any free port)".to_string()),
            ServeError::Io(_) => (self.to_string(), "the web table stopped: start it again".to_string()),
        };
        Diag::error(Span::NONE, message).help(help)
    }
}

impl From<ServeError> for Diag {
    fn from(e: ServeError) -> Diag {
        e.to_diag()
    }
}

/// Serve on `host`:`port` (0: any free port) until the process ends; `ready` is told the
/// address once it listens.
pub fn serve(
    project: Project,
    host: &str,
    port: u16,
    saves: std::path::PathBuf,
    limits: BotLimits,
    ready: impl FnOnce(std::net::SocketAddr),
) -> Result<(), ServeError> {
    if saves.exists() && !saves.is_dir() {
        return Err(ServeError::SavesNotAFolder(saves));
    }
    let lock = lock_saves(&saves)?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(ServeError::Io)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((host, port)).await.map_err(|e| ServeError::Listen {
            host: host.to_string(),
            port,
            source: e,
        })?;
        let addr = listener.local_addr().map_err(ServeError::Io)?;
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
            summaries: Mutex::new(HashMap::new()),
            bots: bots::Pool::new(bots::Pool::default_threads(), limits.think, limits.idle),
            saves,
            hosts,
            _saves_lock: lock,
        });
        // The games are loaded while the page is first opened.
        let warm = app.clone();
        tokio::task::spawn_blocking(move || warm.game_list().len());
        axum::serve(listener, router(app)).await.map_err(ServeError::Io)
    })
}

fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        // Links that open a game (`/play/GAME?players=N&seat=K`) or a table's seat
        // (`/table/ID?seat=K`): the page, which reads its address.
        .route("/play/{game}", get(|| async { Html(PAGE) }))
        .route("/table/{table}", get(|| async { Html(PAGE) }))
        .route("/api/games", get(games))
        .route("/api/status", get(status))
        .route("/api/tables", post(new_table))
        .route("/api/tables/{table}/seats/{seat}", get(seat_view).delete(leave))
        .route("/api/tables/{table}/seats/{seat}/answer", post(answer))
        .route("/api/tables/{table}/seats/{seat}/save", post(saving::save_table))
        .route("/api/tables/resume", post(saving::resume_table))
        .route("/api/saves", get(saving::saves_list))
        .route("/api/scenarios", get(replaying::scenarios))
        .route("/api/replay", get(replaying::replay_file))
        .route("/api/replay/why", get(replaying::replay_why))
        .route("/api/replay/picture", get(replaying::replay_picture))
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such page".into()) })
        .method_not_allowed_fallback(|method: axum::http::Method| async move {
            ApiError(
                StatusCode::METHOD_NOT_ALLOWED,
                format!("{method} is not how this is asked (the API's table at the top of interpreter/web/lib.rs lists each request)"),
            )
        })
        .layer(DefaultBodyLimit::max(WEB_BODY_LIMIT))
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
    /// `expansion`, `option`, `reading` or `house`: the start form's group.
    group: String,
}

async fn games(State(app): State<Arc<App>>) -> ApiResult<axum::Json<Vec<GameInfo>>> {
    let app2 = app.clone();
    Ok(axum::Json(blocking(move || Ok(app2.game_list().clone())).await?))
}

/// The games kept and the bots at work.
async fn status(State(app): State<Arc<App>>) -> axum::Json<serde_json::Value> {
    let tables = app.tables.lock().unwrap_or_else(PoisonError::into_inner).len();
    let bots = app.bots.status();
    axum::Json(json!({ "tables": tables, "bot_threads": bots.bot_threads, "bots_thinking": bots.thinking, "bots_waiting": bots.waiting }))
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
            ApiError(StatusCode::PAYLOAD_TOO_LARGE, format!("the request is larger than {WEB_BODY_LIMIT} bytes"))
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
    let seats: Vec<SeatKind> = req.seats.iter().map(|s| SeatKind::parse(s)).collect::<Result<_, _>>().map_err(|e| match e {
        SeatRefusal::Unknown(m) => bad(m),
        SeatRefusal::TooLarge(m) => ApiError(StatusCode::UNPROCESSABLE_ENTITY, m),
    })?;
    if !seats.contains(&SeatKind::Human) {
        return Err(ApiError(
            StatusCode::UNPROCESSABLE_ENTITY,
            "a table needs a human seat: a game of bots alone is `arbiter play GAME --bots ...` or `arbiter sim`".into(),
        ));
    }
    let app2 = app.clone();
    let (table, told) = blocking(move || {
        let rules = app2.rules(&req.game, &req.variants).map_err(|e| bad(e.to_string()))?;
        let own = app2.project.rules_for(&req.game);
        Table::with_rules(rules, &req.variants, &own, seats, req.seed.unwrap_or_else(rand::random)).map_err(|e| bad(e.to_string()))
    })
    .await?;
    Ok(axum::Json(seat_table(&app, table, told)))
}

/// A new game at the server: its number and the secrets `told` (0-based seat), for the browser
/// that started it. Its bots start thinking, if one must move.
fn seat_table(app: &App, table: Table, told: Vec<(u8, String)>) -> serde_json::Value {
    seat_table_if(app, table, told, || Ok(())).unwrap_or_else(|e| json!({ "error": e.1 }))
}

/// `seat_table`, if `allowed` (run while no table can be added or looked up) says so: a resumed
/// game is checked again there, so that no replay of a copy over can pass between its first check
/// and its table being seated (see `saving::not_played_twice`).
fn seat_table_if(
    app: &App,
    table: Table,
    told: Vec<(u8, String)>,
    allowed: impl FnOnce() -> ApiResult<()>,
) -> ApiResult<serde_json::Value> {
    let seats: Vec<serde_json::Value> = told.iter().map(|(s, t)| json!({ "seat": s + 1, "token": t })).collect();
    let table = Arc::new(Mutex::new(table));
    let id = {
        let mut tables = app.tables.lock().unwrap_or_else(PoisonError::into_inner);
        if let Err(e) = allowed() {
            close(&table);
            return Err(e);
        }
        let id = app.next.fetch_add(1, Ordering::Relaxed);
        table.lock().unwrap_or_else(PoisonError::into_inner).activity().touch();
        // A full server makes room: a game that is over goes first, else the one left longest.
        if tables.len() >= WEB_TABLES_KEPT {
            let over = |k: &Kept| k.table.try_lock().is_ok_and(|t| t.over());
            let gone = tables.iter().filter(|(_, k)| over(k)).map(|(id, _)| *id).min();
            let gone = gone.or_else(|| tables.iter().min_by_key(|(_, k)| k.asked).map(|(id, _)| *id));
            if let Some(k) = gone.and_then(|id| tables.remove(&id)) {
                close(&k.table);
            }
        }
        let asked = app.asked.fetch_add(1, Ordering::Relaxed);
        let header = table.lock().unwrap_or_else(PoisonError::into_inner).header().clone();
        tables.insert(id, Kept { table: table.clone(), asked, header });
        id
    };
    app.bots.wake(&table);
    Ok(json!({ "table": id, "seats": seats }))
}

/// A table let go of: its bots stop thinking.
fn close(table: &Arc<Mutex<Table>>) {
    table.lock().unwrap_or_else(PoisonError::into_inner).activity().close();
}

/// A table's number and a seat's, from the path.
type SeatPath = Result<Path<(u64, u8)>, PathRejection>;

/// The table and seat numbers a path names, or a clean refusal of a path that names none.
fn seat_path(path: SeatPath) -> ApiResult<(u64, u8)> {
    path.map(|Path(p)| p)
        .map_err(|e| ApiError(StatusCode::NOT_FOUND, format!("no such game or seat ({}): both are numbered from 1", e.body_text())))
}

/// The secrets a request carries: `Authorization: Bearer S1[,S2,...]`.
fn secrets_of(headers: &HeaderMap) -> Vec<String> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("Bearer"))
        .map(|(_, tokens)| tokens.split(',').map(str::trim).filter(|t| !t.is_empty()).take(WEB_SECRETS_SENT).map(String::from).collect())
        .unwrap_or_default()
}

/// The table `id`, and seat `seat` (1-based) of it, if the request holds that seat's secret. The
/// table is marked as asked about (its players are there), and its bot woken if it was waiting.
fn seat_of(app: &App, id: u64, seat: u8, headers: &HeaderMap) -> ApiResult<(Arc<Mutex<Table>>, u8)> {
    let table = app.tables.lock().unwrap_or_else(PoisonError::into_inner).get_mut(&id).map(|k| {
        k.asked = app.asked.fetch_add(1, Ordering::Relaxed);
        k.table.clone()
    });
    let table = table.ok_or_else(|| {
        ApiError(
            StatusCode::NOT_FOUND,
            format!(
                "no game {id} here (a server keeps {WEB_TABLES_KEPT} games: when full, it lets go of a finished one, else the one left longest)"
            ),
        )
    })?;
    let tokens = secrets_of(headers);
    if tokens.is_empty() {
        return Err(ApiError(StatusCode::FORBIDDEN, "a seat's view needs its secret (`Authorization: Bearer SECRET`)".into()));
    }
    let index = seat.checked_sub(1).ok_or_else(|| ApiError(StatusCode::NOT_FOUND, "seats are numbered from 1".into()))?;
    {
        let t = table.lock().unwrap_or_else(PoisonError::into_inner);
        if usize::from(index) >= t.seats() {
            return Err(ApiError(StatusCode::NOT_FOUND, format!("game {id} has no seat {seat}: its seats are 1 to {}", t.seats())));
        }
        if !tokens.iter().any(|token| t.holds(index, token)) {
            return Err(ApiError(StatusCode::FORBIDDEN, format!("that is not seat {seat}'s secret: a seat sees only its own view")));
        }
        t.activity().touch();
    }
    app.bots.wake(&table);
    Ok((table, index))
}

async fn seat_view(State(app): State<Arc<App>>, path: SeatPath, headers: HeaderMap) -> ApiResult<axum::Json<table::SeatView>> {
    // The table's lock may be held while a quick bot moves: it is waited for off the server's threads.
    let (id, seat) = seat_path(path)?;
    blocking(move || {
        let (table, index) = seat_of(&app, id, seat, &headers)?;
        let view = table.lock().unwrap_or_else(PoisonError::into_inner).view(index);
        Ok(axum::Json(view))
    })
    .await
}

/// A seat leaves its table; once every human seat has left, the table is closed and its bots stop.
async fn leave(State(app): State<Arc<App>>, path: SeatPath, headers: HeaderMap) -> ApiResult<axum::Json<serde_json::Value>> {
    let (id, seat) = seat_path(path)?;
    blocking(move || {
        let (table, index) = seat_of(&app, id, seat, &headers)?;
        let closed = table.lock().unwrap_or_else(PoisonError::into_inner).leave(index);
        if closed {
            app.tables.lock().unwrap_or_else(PoisonError::into_inner).remove(&id);
        }
        Ok(axum::Json(json!({ "left": seat, "closed": closed })))
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
        let view = {
            let mut t = table.lock().unwrap_or_else(PoisonError::into_inner);
            match t.answer(index, req.picks) {
                Ok(()) => t.view(index),
                Err(table::Refusal::Refused(e)) => return Err(ApiError(StatusCode::UNPROCESSABLE_ENTITY, format!("refused: {e}"))),
                Err(table::Refusal::Stopped(e)) => {
                    return Err(ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("the game stopped on a rule error: {e}")));
                }
            }
        };
        app.bots.wake(&table);
        Ok(axum::Json(view))
    })
    .await
}

/// Run game work (loading rules, a quick bot's moves) off the server's threads.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> ApiResult<T> + Send + 'static) -> ApiResult<T> {
    tokio::task::spawn_blocking(f).await.map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("the work failed: {e}")))?
}
