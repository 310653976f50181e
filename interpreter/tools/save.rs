//! Saved games: a versioned JSON envelope around a game's `State`, holding what the game needs to
//! go on exactly as it would have — the game, its variants, the deck files it was loaded with, a
//! digest of every rule file, the players, the bots' seed and the human seats.
//!
//! ```json
//! {"format": "arbiter-save", "version": 1, "game": "GAME", "variants": [], "decks": [],
//!  "digest": "fnv1a64:…", "files": {"rulebooks/GAME/game.arb": "…"}, "players": 2,
//!  "seed": 3, "humans": [1], "state": {…}}
//! ```
//!
//! The state's spans (in the causes of its events) name files by their place among the game's
//! files in load order, not by the ids this program gave them when it read them (see
//! `syntax::span::FileNumbers`): a save is the same whatever else the program read, and is read back
//! with the game it belongs to ([`Saved::state`]).
//!
//! Reading a save never writes anything; a file that is not a save of these rules (another
//! format, another version, another game, changed rule files, cut short, not JSON) is refused with
//! a message and a help. Writing goes to a temporary file beside the save, then a rename, so an
//! interrupted program leaves the old save or the new one, never a broken one; and a file the
//! program did not write itself is never overwritten.

use arbiter_check::Built;
use arbiter_check::project::Project;
use arbiter_ir::Game;
use arbiter_runtime::state::State;
use arbiter_syntax::budgets::SAVE_LIMIT;
use arbiter_syntax::diag::Diag;
use arbiter_syntax::span::{FileNumbers, Span};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The `format` of every save file.
pub const FORMAT: &str = "arbiter-save";
/// The save format's version this program writes and reads.
pub const VERSION: u64 = 1;

/// What a save records besides the state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The game, as named in `rulebooks/`.
    pub game: String,
    /// The variants switched on, in the order given.
    pub variants: Vec<String>,
    /// `SEAT=FILE` deck files the game was loaded with (their cards are part of the rules).
    pub decks: Vec<String>,
    /// The user's own rule and card files (`--rules FILE`), as full paths; their digests are in
    /// `files` with the game's own.
    #[serde(default)]
    pub rules: Vec<String>,
    /// One digest of every rule, card and deck file the game was loaded from.
    pub digest: String,
    /// Each of those files' own digest, to name the files that changed.
    pub files: IndexMap<String, String>,
    pub players: usize,
    /// The random bots' seed.
    pub seed: u64,
    /// The seats (1, 2, …) played at the terminal.
    pub humans: Vec<u8>,
    /// Who plays the other seats, as `--bots` values (none: the random bots).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bots: Vec<String>,
    /// A game of the web table: each human seat's secret, as a digest (`sha256:…`), so that only
    /// that seat's holder may go on with it or replay it as that seat (none for a game saved at
    /// the terminal).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<SeatSecret>,
    /// The seat (1, 2, …) that saved it at the web table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved_by: Option<u8>,
    /// How the engine that saved it plays seeded games (`arbiter_runtime::PLAYS`; 0 for a save
    /// made before the number was kept): a replay under another number may part from the save.
    #[serde(default)]
    pub plays: u32,
}

/// A human seat of a game saved at the web table, and the digest of its secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatSecret {
    pub seat: u8,
    pub sha256: String,
}

/// The digest a secret is kept as (in a table, and in its saves): SHA-256, in hex.
pub fn secret_digest(secret: &str) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(secret.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// A save file's contents, checked as far as they can be without the game: the envelope, the
/// header and the state. The state is read again with the game ([`Saved::state`]), which its spans
/// name files of.
#[derive(Debug, Clone)]
pub struct Saved {
    pub header: Header,
    /// Whether the game saved is over (a result, or every seat out).
    pub finished: bool,
    /// The whole file, its state read with the game's file numbers.
    text: String,
}

/// Why a save was refused: what is wrong, and what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}\n  help: {help}")]
pub struct SaveError {
    pub message: String,
    pub help: String,
}

impl SaveError {
    pub fn to_diag(&self) -> Diag {
        Diag::error(Span::NONE, self.message.clone()).help(self.help.clone())
    }
}

impl From<SaveError> for Diag {
    fn from(e: SaveError) -> Diag {
        e.to_diag()
    }
}

/// Why a save file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The game would not go into JSON.
    #[error("cannot write the game as JSON: {0}")]
    Json(serde_json::Error),
    /// The save would be larger than `SAVE_LIMIT`.
    #[error("the game is too large to save: its file would be larger than {} MiB", SAVE_LIMIT >> 20)]
    TooLarge,
    /// A path that names no file (`..`, `/`).
    #[error("`{}` is not a file name", .0.display())]
    NotAFileName(PathBuf),
    /// Writing the file, or putting it in its place, failed.
    #[error("cannot save to `{}`: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
}

impl WriteError {
    pub fn to_diag(&self) -> Diag {
        let help = match self {
            WriteError::Json(_) => "the game was not saved: the last save written is whole",
            WriteError::TooLarge => {
                "the game was not saved (the last save written is whole): its rules keep huge values, a list holding long texts many times, say"
            }
            WriteError::NotAFileName(_) | WriteError::Io { .. } => "save to another file",
        };
        Diag::error(Span::NONE, self.to_string()).help(help)
    }
}

impl From<WriteError> for Diag {
    fn from(e: WriteError) -> Diag {
        e.to_diag()
    }
}

fn refuse(message: String, help: impl Into<String>) -> SaveError {
    SaveError { message, help: help.into() }
}

fn fnv(bytes: &[u8], mut h: u64) -> u64 {
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// A rule file's digest, as a save writes it (`digests`): the number, and it written out.
fn file_digest(text: &[u8]) -> (u64, String) {
    let h = fnv(text, FNV_START);
    (h, format!("{h:016x}"))
}

/// Each rule file's digest, by name, and one digest of them all.
pub fn digests(game: &Game) -> (String, IndexMap<String, String>) {
    let mut files = IndexMap::new();
    let mut all = FNV_START;
    for f in &game.files {
        let (h, shown) = file_digest(f.text.as_bytes());
        all = fnv(f.name.as_bytes(), all);
        all = fnv(&[0], all);
        all = fnv(&h.to_le_bytes(), all);
        files.insert(f.name.clone(), shown);
    }
    (format!("fnv1a64:{all:016x}"), files)
}

impl Header {
    /// Whether two saves are of one game at the web table: played on from the same start (the
    /// same game, seed and seats' secrets), as a game and the copies resumed from its saves are.
    /// What one of them shows, the others hold.
    pub fn same_game(&self, other: &Header) -> bool {
        self.game == other.game && self.seed == other.seed && self.secrets == other.secrets
    }

    /// The header of a game of these rules.
    pub fn new(game: &Game, variants: &[String], decks: &[String], players: usize, seed: u64, humans: &[u8]) -> Header {
        let (digest, files) = digests(game);
        Header {
            game: game.name.clone(),
            variants: variants.to_vec(),
            decks: decks.to_vec(),
            rules: Vec::new(),
            digest,
            files,
            players,
            seed,
            humans: humans.to_vec(),
            bots: vec![],
            secrets: vec![],
            saved_by: None,
            plays: arbiter_runtime::PLAYS,
        }
    }

    /// The save file's text for this state of the game whose files are `files`.
    pub fn to_json(&self, files: &FileNumbers, st: &State) -> Result<String, WriteError> {
        #[derive(Serialize)]
        struct SaveFileOut<'a> {
            format: &'static str,
            version: u64,
            #[serde(flatten)]
            header: &'a Header,
            state: &'a State,
        }
        // Written into a buffer that refuses to grow past the limit: a list holding one long text
        // many times is small in memory (it is shared) but written out whole.
        let mut out = Bounded(Vec::new());
        match files.scope(|| serde_json::to_writer(&mut out, &SaveFileOut { format: FORMAT, version: VERSION, header: self, state: st })) {
            Ok(()) => String::from_utf8(out.0).map_err(|_| WriteError::TooLarge),
            Err(e) if e.is_io() => Err(WriteError::TooLarge),
            Err(e) => Err(WriteError::Json(e)),
        }
    }
}

/// The bytes of a save being written, refusing any past `SAVE_LIMIT`.
struct Bounded(Vec<u8>);

impl std::io::Write for Bounded {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.0.len().saturating_add(bytes.len()) > SAVE_LIMIT {
            return Err(std::io::Error::other("larger than a save may be"));
        }
        self.0.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Where in the text a JSON error is, in words.
fn at(e: &serde_json::Error) -> String {
    format!("line {}, column {}", e.line(), e.column())
}

/// Read a save file's text (`name` is used in messages). Checks the envelope: JSON, the format,
/// the version, the header and the state; not yet the rules (see [`Saved::check_rules`]).
/// The help for a file that is not a save.
const NOT_A_SAVE: &str = "`arbiter resume` takes a file written by `arbiter play --save FILE` or the `save` command";

pub fn parse(text: &str, name: &str) -> Result<Saved, SaveError> {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(_) if text.trim().is_empty() => {
            return Err(refuse(
                format!("`{name}` is empty, not a saved game"),
                "a save is written whole or not at all; this file was made some other way",
            ));
        }
        Err(e) if e.classify() == serde_json::error::Category::Eof => {
            return Err(refuse(
                format!("`{name}` is cut short: the file ends in the middle of the saved game ({})", at(&e)),
                "the file is truncated (copied or edited incompletely); Arbiter's own saves are written whole or not at all, so an earlier copy may be intact",
            ));
        }
        Err(e) => {
            return Err(refuse(format!("`{name}` is not a saved game: it is not JSON ({e})"), NOT_A_SAVE));
        }
    };
    let Some(obj) = value.as_object() else {
        return Err(refuse(format!("`{name}` is not a saved game: it is JSON, but not an object"), NOT_A_SAVE));
    };
    match obj.get("format") {
        Some(Value::String(f)) if f == FORMAT => {}
        Some(Value::String(f)) => {
            return Err(refuse(format!("`{name}` is not a saved game: its format is `{f}`, not `{FORMAT}`"), NOT_A_SAVE));
        }
        _ if obj.contains_key("fingerprint") && obj.contains_key("frames") => {
            return Err(refuse(
                format!("`{name}` is a game saved before versioned saves: it does not say which game, variants and seed it belongs to"),
                "start the game again with `arbiter play GAME --save FILE`; saves made since then carry everything needed to resume",
            ));
        }
        _ => {
            return Err(refuse(format!("`{name}` is not a saved game: it has no `\"format\": \"{FORMAT}\"`"), NOT_A_SAVE));
        }
    }
    match obj.get("version").and_then(Value::as_u64) {
        Some(VERSION) => {}
        Some(v) if v > VERSION => {
            return Err(refuse(
                format!("`{name}` is a saved game in format version {v}; this arbiter reads version {VERSION}"),
                "a newer arbiter wrote it: continue it with that version",
            ));
        }
        Some(v) => {
            return Err(refuse(
                format!("`{name}` is a saved game in format version {v}; this arbiter reads version {VERSION}"),
                "an older arbiter wrote it: continue it with that version, or start a new game",
            ));
        }
        None => {
            return Err(refuse(
                format!("`{name}` is a saved game without a version number (`\"version\": {VERSION}`)"),
                "the file was edited; Arbiter's own saves always carry their version",
            ));
        }
    }
    // Read whole, to refuse a damaged file now; the state is read again with its game.
    let SaveFileIn { header, state } = serde_json::from_str(text).map_err(|e| damaged(name, &e))?;
    if state.players.len() != header.players {
        return Err(refuse(
            format!("`{name}` is a damaged saved game: it says {} players but its state has {}", header.players, state.players.len()),
            "the file was edited; Arbiter's own saves always agree with themselves",
        ));
    }
    let mut humans = header.humans.clone();
    humans.sort_unstable();
    humans.dedup();
    if let Some(s) = header.humans.iter().find(|s| **s == 0 || usize::from(**s) > header.players) {
        return Err(refuse(
            format!("`{name}` is a damaged saved game: its human seats name seat {s}, but its seats are 1 to {}", header.players),
            "the file was edited; Arbiter's own saves always agree with themselves",
        ));
    }
    if let Some(s) = header.secrets.iter().find(|s| !header.humans.contains(&s.seat)) {
        return Err(refuse(
            format!("`{name}` is a damaged saved game: it keeps a secret for seat {}, which is not a human seat of it", s.seat),
            "the file was edited; Arbiter's own saves always agree with themselves",
        ));
    }
    if humans.len() != header.humans.len() {
        return Err(refuse(
            format!("`{name}` is a damaged saved game: its human seats name a seat twice"),
            "the file was edited; Arbiter's own saves always agree with themselves",
        ));
    }
    Ok(Saved { header, finished: state.result.is_some(), text: text.to_string() })
}

/// A save file's fields.
#[derive(Deserialize)]
struct SaveFileIn {
    #[serde(flatten)]
    header: Header,
    state: State,
}

fn damaged(name: &str, e: &serde_json::Error) -> SaveError {
    refuse(
        format!("`{name}` is a damaged saved game: {e}"),
        "the file was edited or written by something else; Arbiter's own saves are written whole or not at all",
    )
}

/// Read a save file. Nothing is written.
pub fn read(path: &Path) -> Result<Saved, SaveError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path)
        .map_err(|e| refuse(format!("cannot read `{name}`: {e}"), "give the path of a file written by `arbiter play --save FILE`"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        refuse(format!("`{name}` is not a saved game: it is not UTF-8 text (byte {at} is not UTF-8)"), NOT_A_SAVE)
    })?;
    parse(&text, &name)
}

impl Saved {
    /// The saved state, to go on with `game`: refused unless `game` is the game it was saved
    /// from, with the same rule files. Its spans are read in the game's file numbers.
    pub fn state(&self, game: &Game, name: &str) -> Result<State, SaveError> {
        let h = &self.header;
        if h.game != game.name {
            return Err(refuse(
                format!("`{name}` is a saved game of {}, not {}", h.game, game.name),
                format!("continue it with `arbiter resume {name}`"),
            ));
        }
        let (digest, files) = digests(game);
        // None of its rulebook's files among the game's: the file names another game than its own.
        let own = format!("rulebooks/{}/", game.name);
        if digest != h.digest && h.files.keys().any(|f| f.starts_with("rulebooks/")) && !h.files.keys().any(|f| f.starts_with(&own)) {
            return Err(refuse(
                format!("`{name}` is a damaged saved game: it names the game {}, but its rule files are another game's", h.game),
                "the file was edited; Arbiter's own saves always agree with themselves",
            ));
        }
        if digest != h.digest {
            let mut changes = Vec::new();
            for (f, d) in &h.files {
                match files.get(f) {
                    Some(now) if now == d => {}
                    Some(_) => changes.push(format!("{f} changed")),
                    None => changes.push(format!("{f} is gone")),
                }
            }
            for f in files.keys() {
                if !h.files.contains_key(f) {
                    changes.push(format!("{f} is new"));
                }
            }
            let what = if changes.is_empty() { "the digest differs".to_string() } else { changes.join(", ") };
            return Err(refuse(
                format!("`{name}` is a saved game of {}, and its rules have changed since it was saved: {what}", h.game),
                "a game goes on only under the rules it started with: restore those files (for example, check out the commit it was played on) to continue it, or start a new game",
            ));
        }
        let SaveFileIn { state, .. } =
            FileNumbers::of(&game.files).scope(|| serde_json::from_str(&self.text)).map_err(|e| damaged(name, &e))?;
        let problems = arbiter_runtime::invariants::problems(game, &state);
        if !problems.is_empty() {
            return Err(refuse(
                format!("`{name}` is a damaged saved game: {}", problems.join("; ")),
                "the file was edited; Arbiter's own saves always hold a state the game can be in",
            ));
        }
        let want = arbiter_runtime::engine::fingerprint(game);
        if *state.fingerprint != *want {
            return Err(refuse(
                format!(
                    "`{name}` is a damaged saved game: its state was made from other rules ({}) than its header names ({want})",
                    state.fingerprint
                ),
                "the file was edited; Arbiter's own saves always agree with themselves",
            ));
        }
        Ok(state)
    }
}

/// Write `text` to `path` whole or not at all: into a temporary file beside it (readable by its
/// owner only), then a rename.
/// `durable`: the file is flushed to the disk before the rename, so that it survives a power cut
/// too (slower: a few milliseconds).
pub fn write_atomic(path: &Path, text: &str, durable: bool) -> Result<(), WriteError> {
    let name = path.file_name().ok_or_else(|| WriteError::NotAFileName(path.to_path_buf()))?;
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let tmp = dir.join(format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id()));
    // Readable by its owner only: a save holds every hidden card.
    let mut open = std::fs::OpenOptions::new();
    open.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut open, 0o600);
    let written = open.open(&tmp).and_then(|mut f| {
        f.write_all(text.as_bytes())?;
        if durable { f.sync_data() } else { Ok(()) }
    });
    let done = written.and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = done {
        let _ = std::fs::remove_file(&tmp);
        return Err(WriteError::Io { path: path.to_path_buf(), source: e });
    }
    Ok(())
}

/// Saves one game: to its save file at every decision, and wherever a player asks.
pub struct Saver {
    pub header: Header,
    /// The game's files, as its saves number them.
    files: FileNumbers,
    /// The file saved to at every decision, if any.
    pub path: Option<PathBuf>,
    /// Files this program wrote: the only ones it overwrites.
    written: Vec<PathBuf>,
    /// When the last save at a decision was written, and how long writing it took (`autosave`).
    last: Option<(std::time::Instant, std::time::Duration)>,
}

/// A bot's decision is saved when the time since the last save is at least this many times what
/// writing that save took: saving then takes at most about a tenth of a bot game's time. (Saved
/// at every decision, a long bot game rewrote its whole save each time: a game of 4 bots played
/// in 0.1 s took 4.8 s with its 0.9 MB save.)
const AUTOSAVE_SPACING: u32 = 10;

impl Saver {
    /// Saves a game of `game`. `path`, when given, is saved to at every decision; it must be new, or
    /// the file the game was resumed from (`resumed_from`).
    pub fn new(header: Header, game: &Game, path: Option<PathBuf>, resumed_from: Option<&Path>) -> Result<Saver, SaveError> {
        let files = FileNumbers::of(&game.files);
        let mut s = Saver { header, files, path: None, written: resumed_from.map(Path::to_path_buf).into_iter().collect(), last: None };
        if let Some(p) = &path {
            s.free(p)?;
        }
        s.path = path;
        Ok(s)
    }

    /// Refuse a file that exists and was not written by this program.
    fn free(&self, path: &Path) -> Result<(), SaveError> {
        if !path.exists() || self.written.iter().any(|w| same_file(w, path)) {
            return Ok(());
        }
        let name = path.display().to_string();
        Err(match read(path) {
            Ok(s) => refuse(
                format!("`{name}` already holds a saved game of {}; saving here would lose it", s.header.game),
                format!("continue that game with `arbiter resume {name}`, or save this one to another file"),
            ),
            Err(_) => refuse(format!("`{name}` already exists and is not a saved game; saving would overwrite it"), "save to another file"),
        })
    }

    /// Save at a decision to the game's save file, if it has one. A `durable` save (a person's
    /// decision, the end of the game: see [`write_atomic`]) is always written; any other (a bot's
    /// decision) only once the time since the last save is `AUTOSAVE_SPACING` times what writing
    /// it took, so that a long bot game does not spend its time rewriting its save. A bot game
    /// stopped between two saves goes on from the last one: the bots answer as they did.
    pub fn autosave(&mut self, st: &State, durable: bool) -> Result<(), WriteError> {
        let Some(p) = self.path.clone() else { return Ok(()) };
        if !durable && self.last.is_some_and(|(at, took)| at.elapsed() < took.saturating_mul(AUTOSAVE_SPACING)) {
            return Ok(());
        }
        let start = std::time::Instant::now();
        self.write(st, &p, durable)?;
        self.last = Some((std::time::Instant::now(), start.elapsed()));
        Ok(())
    }

    /// Save where a player asks: `path`, or the game's save file. The file saved to.
    pub fn save_to(&mut self, st: &State, path: Option<&Path>) -> Result<PathBuf, SaveError> {
        let p = match path.map(Path::to_path_buf).or_else(|| self.path.clone()) {
            Some(p) => p,
            None => {
                return Err(refuse(
                    "no save file for this game".to_string(),
                    "type `save FILE`, or play with `--save FILE` to save at every decision",
                ));
            }
        };
        self.free(&p)?;
        self.write(st, &p, true).map_err(|e| refuse(e.to_string(), "save to another file"))?;
        Ok(p)
    }

    /// The file last written by a `save` at the prompt or a save at a decision, if any.
    pub fn last_written(&self) -> Option<&Path> {
        self.written.last().map(PathBuf::as_path)
    }

    fn write(&mut self, st: &State, path: &Path, durable: bool) -> Result<(), WriteError> {
        let text = self.header.to_json(&self.files, st)?;
        write_atomic(path, &text, durable)?;
        if !self.written.iter().any(|w| w == path) {
            self.written.push(path.to_path_buf());
        }
        Ok(())
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    a == b || matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
}

/// Read a save and load its game: the game (and variants) it must be, the rules unchanged. The
/// game, the save's header and its state.
pub fn load(project: &Project, file: &Path, game: Option<&str>, variants: &[String]) -> Result<(Built, Header, State), SaveError> {
    let saved = read(file)?;
    let name = file.display().to_string();
    let h = &saved.header;
    if let Some(g) = game
        && g != h.game
    {
        return Err(SaveError {
            message: format!("`{name}` is a saved game of {}, not {g}", h.game),
            help: format!("continue it with `arbiter resume {name}`"),
        });
    }
    if !variants.is_empty() && variants != h.variants.as_slice() {
        let list = |v: &[String]| if v.is_empty() { "no variants".to_string() } else { v.join(", ") };
        return Err(SaveError {
            message: format!("`{name}` was saved with {}, not {}", list(&h.variants), list(variants)),
            help: "leave out `--variant`: a saved game goes on with its own variants".to_string(),
        });
    }
    let extra: Vec<PathBuf> =
        h.decks.iter().filter_map(|d| d.split_once('=')).map(|(_, f)| PathBuf::from(f)).filter(|p| p.is_file()).collect();
    // The user's own files it was played with (`--rules`), found again where they were.
    let rules: Vec<PathBuf> = h.rules.iter().map(PathBuf::from).collect();
    let project = match project.clone().with_rules(&rules) {
        Ok(p) => p,
        Err(e) => {
            // A file given now (`--rules`) that holds the text of one that is gone: it was moved.
            let gone = rules.iter().find(|r| !r.is_file());
            let digest_of = |p: &PathBuf| std::fs::read(p).ok().map(|b| file_digest(&b).1);
            let moved = gone.and_then(|g| {
                let was = h.files.get(&project.display(g))?;
                project.rules.iter().find(|r| digest_of(r).as_ref() == Some(was)).map(|r| (g, r))
            });
            let help = match moved {
                Some((g, r)) => format!(
                    "`{}` holds the same text: a save names its files by where they were, so copy it back to `{}` to go on",
                    project.display(r),
                    g.display()
                ),
                None => "a game goes on only under the rules it started with: put the file back where it was".to_string(),
            };
            return Err(SaveError { message: format!("`{name}` was played with a file of rules that is gone: {e}"), help });
        }
    };
    let loaded = project.load(&h.game, &h.variants, &extra);
    let built = match loaded.result {
        Ok(b) => b,
        Err(d) => {
            let first = d.first().map(|x| x.message.clone()).unwrap_or_default();
            return Err(SaveError {
                message: format!("`{name}` is a saved game of {}, and that game does not load now: {first}", h.game),
                help: "`arbiter check` shows every error in the game's files; a game goes on only under the rules it started with"
                    .to_string(),
            });
        }
    };
    let state = saved.state(&built.game, &name)?;
    Ok((built, saved.header, state))
}
