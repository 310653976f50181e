//! Finding and loading files: the standard library, a game's rulebook, variants and cards, and
//! any extra files (a designer's new cards, scenarios).

use super::{Built, Checker, Input, Role, add_scenarios, compile_rules};
use arbiter_syntax::ast::{File, Item};
use arbiter_syntax::diag::Diag;
use arbiter_syntax::source_map::SourceMap;
use arbiter_syntax::span::{SourceFile, Span};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The repository layout: `stdlib/`, `rulebooks/<game>/`, `cards/<game>/`; and the user's own
/// files given with `--rules`, loaded with the game each says it is for.
///
/// Every file the project reads goes into its source map, which gives the file its id and parses
/// it once: a file peeked at on its own, and loaded with one game or several, is one file with one
/// tree. Clones of a project share the map.
#[derive(Debug, Clone)]
pub struct Project {
    pub root: PathBuf,
    /// The user's own rule and card files (`--rules FILE`), as full paths.
    pub rules: Vec<PathBuf>,
    sources: Arc<SourceMap>,
    /// Texts that stand in for files on disk, by canonical path: an editor's unsaved buffers
    /// (`arbiter lsp`). Shared by clones of the project.
    open: Arc<Mutex<HashMap<PathBuf, String>>>,
    /// Whether the games it compiles get the fast tier's forms (`fast::fasten`): not for a
    /// project that only checks (`checking`).
    fast_forms: bool,
    /// Files and folders as first read, for a project that reads each once (`read_once`).
    once: Option<Arc<ReadOnce>>,
}

/// What a project that reads each file and folder once has read: each file as the source map
/// gave it, each folder's `.arb` files. A one-shot command loads a game many times (once per set
/// of variants, once per scenario file with cards of its own) and would otherwise read, compare
/// and list the same files on disk each time.
#[derive(Debug, Default)]
struct ReadOnce {
    sources: Mutex<FxHashMap<PathBuf, SourceFile>>,
    listings: Mutex<FxHashMap<PathBuf, Vec<PathBuf>>>,
}

/// What `known` holds for `path`, or what `make` gives, kept there (when it is `Ok`): the lock
/// is not held while `make` runs, so threads read different files at once.
fn once_for<V: Clone, E>(known: &Mutex<FxHashMap<PathBuf, V>>, path: &Path, make: impl FnOnce() -> Result<V, E>) -> Result<V, E> {
    if let Some(v) = known.lock().ok().and_then(|m| m.get(path).cloned()) {
        return Ok(v);
    }
    let v = make()?;
    if let Ok(mut m) = known.lock() {
        m.insert(path.to_path_buf(), v.clone());
    }
    Ok(v)
}

/// What to do about a file that is not UTF-8 text.
const NOT_UTF8_HELP: &str = "save the file as UTF-8 (rule, card and scenario files are UTF-8 text)";

/// Why the project cannot take a file of the user's own (`--rules`), or read a file on its own
/// (`peek`). Each says which file.
#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    #[error("cannot read `{}`: no such file", .0.display())]
    Missing(PathBuf),
    #[error("`{}` is a folder: `--rules` takes a file (repeat it for several)", .0.display())]
    Folder(PathBuf),
    #[error("{0}")]
    NotUtf8(NotUtf8),
    #[error("cannot read `{}`: {source}", path.display())]
    Unreadable { path: PathBuf, source: std::io::Error },
    /// A file of the user's own that says no game (`--rules`).
    #[error("cannot tell which game `{}` is for: start it with a line `for GAME`", .0.display())]
    NoGame(PathBuf),
    /// A file of the user's own for another game than the one a command is about (`--rules`).
    #[error("`{file}` is for {game}, not {wanted}")]
    OtherGame { file: String, game: String, wanted: String },
    /// The file does not parse: its syntax error, in its place.
    #[error("{}", .0.message)]
    Syntax(Diag),
}

impl ProjectError {
    /// What to do about it.
    pub fn help(&self) -> Option<&'static str> {
        match self {
            ProjectError::Missing(_) | ProjectError::Unreadable { .. } | ProjectError::Syntax(_) => None,
            ProjectError::Folder(_) => Some("`--rules` takes a file (repeat it for several)"),
            ProjectError::NotUtf8(_) => Some(NOT_UTF8_HELP),
            ProjectError::NoGame(_) => Some("start it with a line `for GAME`"),
            ProjectError::OtherGame { .. } => Some("`--rules` takes files for the game being played; leave this one out"),
        }
    }

    /// The diagnostic: the message without the help its text ends with, where it does; a syntax
    /// error keeps its place and help.
    pub fn to_diag(&self) -> Diag {
        let message = match self {
            ProjectError::Syntax(d) => return d.clone(),
            ProjectError::Folder(f) => format!("`{}` is a folder", f.display()),
            ProjectError::NoGame(f) => format!("cannot tell which game `{}` is for", f.display()),
            other => other.to_string(),
        };
        Diag::error(Span::NONE, message).maybe_help(self.help().map(str::to_string))
    }
}

impl From<ProjectError> for Diag {
    fn from(e: ProjectError) -> Diag {
        e.to_diag()
    }
}

/// Files as loaded (for rendering diagnostics) and the outcome.
pub struct Loaded {
    pub files: Vec<SourceFile>,
    pub result: Result<Built, Vec<Diag>>,
}

impl Project {
    /// The project at `root`, with no files of the user's own.
    pub fn at(root: impl Into<PathBuf>) -> Project {
        Project {
            root: root.into(),
            rules: Vec::new(),
            sources: Arc::new(SourceMap::new()),
            open: Arc::default(),
            fast_forms: true,
            once: None,
        }
    }

    /// The same project (sharing its files), compiling games that are only checked, never played:
    /// without the fast tier's forms, which change nothing but the speed of play.
    pub fn checking(&self) -> Project {
        Project { fast_forms: false, ..self.clone() }
    }

    /// The same project (sharing its files), reading each file and folder once from now on: for
    /// one command's run (`arbiter check`), during which the files are taken not to change. A
    /// file read before is the same file (the same id, text and tree) without asking the disk
    /// again; a folder lists the files it listed before. A long-running command (`arbiter lsp`,
    /// `serve`) keeps its project as it is, and makes one of these for each check it runs.
    pub fn read_once(&self) -> Project {
        Project { once: Some(Arc::default()), ..self.clone() }
    }

    /// The same project with nothing read yet: every file is read and parsed again, as by a new
    /// command (`arbiter bench --parse` times several checks, each from the start).
    pub fn afresh(&self) -> Project {
        Project { sources: Arc::new(SourceMap::new()), once: None, ..self.clone() }
    }

    /// Every file the project has read, by id.
    pub fn sources(&self) -> &SourceMap {
        &self.sources
    }

    /// A file's text, read into the source map (named as messages show it): the same file (the
    /// same id) as before while its text is the same.
    pub fn read_source(&self, path: &Path) -> std::io::Result<SourceFile> {
        let read = || Ok(self.sources.read(path, self.text_of(path)?, || self.display(path)));
        match &self.once {
            Some(once) => once_for(&once.sources, path, read),
            None => read(),
        }
    }

    /// A file's text: the text open in an editor for it (`set_open`), else what is on disk.
    pub fn text_of(&self, path: &Path) -> std::io::Result<String> {
        if let Ok(open) = self.open.lock()
            && !open.is_empty()
            && let Some(text) = canonical(path).and_then(|c| open.get(&c))
        {
            return Ok(text.clone());
        }
        let bytes = std::fs::read(path)?;
        String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, NotUtf8::of(path, &e)))
    }

    /// Read `path` as `text` from now on (an editor's unsaved buffer), or as on disk again (`None`).
    /// The file must exist on disk (its path is known by its canonical form).
    pub fn set_open(&self, path: &Path, text: Option<String>) {
        let Some(c) = canonical(path) else { return };
        if let Ok(mut open) = self.open.lock() {
            match text {
                Some(t) => open.insert(c, t),
                None => open.remove(&c),
            };
        }
    }

    /// A file read, and its tree (or its syntax error): parsed the first time its text is read.
    /// A file that is not UTF-8 text is read as far as it can be, and its error is that first byte
    /// that is not, underlined.
    fn read_parsed(&self, path: &Path) -> std::io::Result<(SourceFile, Result<Arc<File>, Diag>)> {
        match self.read_source(path) {
            Ok(source) => {
                let tree = self.sources.parse(&source);
                Ok((source, tree))
            }
            Err(e) => {
                let Some(bad) = NotUtf8::of_error(&e) else { return Err(e) };
                let lossy = String::from_utf8_lossy(&std::fs::read(path)?).into_owned();
                let source = self.sources.read(path, lossy, || self.display(path));
                // The text is the same up to the bad byte, which reads as one U+FFFD (3 bytes).
                let at = bad.offset;
                let d = Diag::error(Span::new(source.id, at, at.saturating_add(3)), format!("`{}` is not UTF-8 text", self.display(path)))
                    .label(format!("byte {} is not UTF-8", bad.offset))
                    .help(NOT_UTF8_HELP);
                Ok((source, Err(d)))
            }
        }
    }

    /// The project around `start` (walking up), or the one this binary was built from.
    pub fn find(start: &Path) -> Project {
        let mut cur = Some(start.to_path_buf());
        while let Some(dir) = cur {
            if dir.join("rulebooks").is_dir() && dir.join("stdlib").is_dir() {
                return Project::at(dir);
            }
            cur = dir.parent().map(Path::to_path_buf);
        }
        Project::at(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
    }

    /// The same project with the user's own files added (`--rules`). Each must exist and say
    /// which game it is for; the message names the file otherwise.
    pub fn with_rules(mut self, files: &[PathBuf]) -> Result<Project, ProjectError> {
        for f in files {
            let full = canonical(f).ok_or_else(|| ProjectError::Missing(f.clone()))?;
            if full.is_dir() {
                return Err(ProjectError::Folder(f.clone()));
            }
            if let Err(e) = self.text_of(&full) {
                return Err(match NotUtf8::of_error(&e) {
                    Some(bad) => ProjectError::NotUtf8(bad.clone()),
                    None => ProjectError::Unreadable { path: f.clone(), source: e },
                });
            }
            if game_of(&self, &full).is_none() {
                return Err(ProjectError::NoGame(f.clone()));
            }
            if !self.rules.contains(&full) {
                self.rules.push(full);
            }
        }
        Ok(self)
    }

    /// A rulebook text `game` cites (`check/seeds.rs`), by its file name: beside the rulebook,
    /// or in the folder `ARBITER_SEEDS` names.
    pub fn seed_text(&self, game: &str, file: &str) -> Option<String> {
        let mut places = vec![self.root.join("rulebooks").join(game).join(file)];
        if let Some(dir) = std::env::var_os("ARBITER_SEEDS") {
            places.push(PathBuf::from(dir).join(file));
        }
        places.iter().find_map(|p| std::fs::read_to_string(p).ok())
    }

    /// The user's files (`--rules`) that are for `game`.
    pub fn rules_for(&self, game: &str) -> Vec<PathBuf> {
        self.rules.iter().filter(|f| game_of(self, f).as_deref() == Some(game)).cloned().collect()
    }

    /// The user's files (`--rules`) that are for another game than `game`: a one-game command
    /// refuses them rather than leave them out unsaid.
    pub fn rules_not_for(&self, game: &str) -> Result<(), ProjectError> {
        match self.rules.iter().find(|f| game_of(self, f).as_deref() != Some(game)) {
            None => Ok(()),
            Some(f) => Err(ProjectError::OtherGame {
                file: self.display(f),
                game: game_of(self, f).unwrap_or_else(|| "another game".to_string()),
                wanted: game.to_string(),
            }),
        }
    }

    pub fn games(&self) -> Vec<String> {
        let mut out: Vec<String> = std::fs::read_dir(self.root.join("rulebooks"))
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().to_string())
            .collect();
        out.sort();
        out
    }

    /// A path as shown in messages: relative to the project root where it can be.
    pub fn display(&self, p: &Path) -> String {
        let abs = canonical(p).unwrap_or_else(|| p.to_path_buf());
        let root = canonical(&self.root).unwrap_or_else(|| self.root.clone());
        match abs.strip_prefix(&root) {
            Ok(rel) => rel.to_string_lossy().to_string(),
            Err(_) => p.to_string_lossy().to_string(),
        }
    }

    /// Every `.arb` file under a directory, sorted: listed once by a project that reads once.
    pub fn listed(&self, dir: &Path) -> Vec<PathBuf> {
        let Some(once) = &self.once else { return Project::arb_files(dir) };
        let Ok(found) = once_for(&once.listings, dir, || Ok::<_, std::convert::Infallible>(Project::arb_files(dir)));
        found
    }

    /// Every `.arb` file under a directory, sorted.
    pub fn arb_files(dir: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let p = e.path();
                // The entry's own type where the folder gives it (no call to the disk); a link
                // is followed, as `is_dir` follows it.
                let is_dir = match e.file_type() {
                    Ok(t) if !t.is_symlink() => t.is_dir(),
                    _ => p.is_dir(),
                };
                if is_dir {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "arb") {
                    out.push(p);
                }
            }
        }
        out.sort();
        out
    }

    /// The game's own files with their roles (standard library, rulebook, variants, cards).
    pub fn game_files(&self, game: &str) -> Vec<(PathBuf, Role)> {
        let mut out: Vec<(PathBuf, Role)> = self.listed(&self.root.join("stdlib")).into_iter().map(|p| (p, Role::Stdlib)).collect();
        let rb = self.root.join("rulebooks").join(game);
        for p in self.listed(&rb) {
            let role =
                if p.parent().is_some_and(|d| d.file_name().is_some_and(|n| n == "variants")) { Role::Variant } else { Role::Rulebook };
            out.push((p, role));
        }
        out.extend(self.listed(&self.root.join("cards").join(game)).into_iter().map(|p| (p, Role::Cards)));
        out
    }

    /// Read and parse the games' own files ahead of loading them, on all cores (each once: the
    /// standard library is in every game).
    pub fn parse_game_files<'a>(&self, games: impl IntoIterator<Item = &'a String>) {
        let mut seen = HashSet::new();
        let mut todo: Vec<PathBuf> = Vec::new();
        for game in games {
            for (p, _) in self.game_files(game) {
                if seen.insert(p.clone()) {
                    todo.push(p);
                }
            }
        }
        todo.par_iter().for_each(|p| {
            let _ = self.read_parsed(p);
        });
    }

    /// Load and compile a game with variants and extra files (cards or scenarios).
    pub fn load(&self, game: &str, variants: &[String], extra: &[PathBuf]) -> Loaded {
        match self.read(game, extra) {
            Err((files, diags)) => Loaded { files, result: Err(diags) },
            Ok(read) => {
                let result = add_scenarios(compile_rules(read.files.clone(), &read.inputs, variants, self.fast_forms), &read.inputs);
                Loaded { files: read.files, result }
            }
        }
    }

    /// `load`, keeping the game compiled up to its scenarios (when its files could be read and
    /// parsed) for `load_scenario`.
    pub fn load_base(&self, game: &str, variants: &[String], extra: &[PathBuf]) -> (Loaded, Option<Base>) {
        match self.read(game, extra) {
            Err((files, diags)) => (Loaded { files, result: Err(diags) }, None),
            Ok(read) => {
                let rules = compile_rules(read.files.clone(), &read.inputs, variants, self.fast_forms);
                let result = add_scenarios(rules.clone(), &read.inputs);
                let loaded = Loaded { files: read.files.clone(), result };
                (loaded, Some(Base::new(read, variants, rules)))
            }
        }
    }

    /// The game compiled up to its scenarios, as `load_base` keeps it.
    pub fn compile_base(&self, game: &str, variants: &[String], extra: &[PathBuf]) -> Option<Base> {
        let read = self.read(game, extra).ok()?;
        let rules = compile_rules(read.files.clone(), &read.inputs, variants, self.fast_forms);
        Some(Base::new(read, variants, rules))
    }

    /// What `load` gives with the base's variants and extra files and then `path`, without
    /// compiling the rules again: the file's scenarios are checked against a copy of the base.
    /// `None` when that would not be the same (the file holds more than scenarios and `for`
    /// lines, is one of the base's files, or cannot be read or parsed; or a variant is unknown:
    /// that is reported at a scenario's `variant` line): `load` it then.
    pub fn load_scenario(&self, base: &Base, path: &Path) -> Option<Loaded> {
        if canonical(path).is_some_and(|known| base.canon.contains(&known))
            || !base.variants.iter().all(|v| base.rules.game.active_variants.contains(v))
        {
            return None;
        }
        let (source, parsed) = self.read_parsed(path).ok()?;
        let file = parsed.ok()?;
        let scenarios_only = file.items.iter().all(|i| matches!(i.node, Item::Scenario(_) | Item::For(_)));
        if !scenarios_only || !file.items.iter().any(|i| matches!(i.node, Item::Scenario(_))) {
            return None;
        }
        let mut files = base.read.files.clone();
        files.push(source.clone());
        let mut inputs = base.read.inputs.clone();
        inputs.push(Input { file, role: Role::Scenario });
        let mut rules = base.rules.clone();
        rules.game.files.push(source);
        let result = add_scenarios(rules, &inputs);
        Some(Loaded { files, result })
    }

    /// A game's files and the extra files, read and parsed, in the order `load` compiles them
    /// (each once); the diagnostics instead when a file cannot be read or parsed.
    fn read(&self, game: &str, extra: &[PathBuf]) -> Result<Read, (Vec<SourceFile>, Vec<Diag>)> {
        let mut files = Vec::new();
        let mut diags = Vec::new();
        if !self.root.join("rulebooks").join(game).is_dir() {
            let games = self.games();
            let help = arbiter_syntax::diag::did_you_mean(game, games.iter().map(String::as_str))
                .unwrap_or_else(|| format!("games here: {}", games.join(", ")));
            diags.push(Diag::error(Span::NONE, format!("no game `{game}` in rulebooks/")).help(help));
            return Err((files, diags));
        }
        let mut paths = self.game_files(game);
        // The files in `paths`, canonical (as written, for a file that does not exist: each such
        // file is reported, not only the first).
        let key = |p: &Path| canonical(p).unwrap_or_else(|| p.to_path_buf());
        let mut known: HashSet<PathBuf> = paths.iter().map(|(p, _)| key(p)).collect();
        // Where each file that another uses is named.
        let mut used_at: HashMap<PathBuf, Span> = HashMap::new();
        let rules = self.rules_for(game);
        for p in rules.iter().chain(extra) {
            if known.insert(key(p)) {
                paths.push((p.clone(), Role::Cards));
            }
        }
        let mut inputs = Vec::new();
        // Files a scenario names with `uses` that lead out of its folder: never read.
        let mut refused: Vec<PathBuf> = Vec::new();
        // `paths` grows as files name others with `uses`; each is read once.
        let mut next = 0;
        while let Some((p, role)) = paths.get(next).cloned() {
            next += 1;
            if refused.contains(&p) {
                continue;
            }
            let (source, parsed) = match self.read_parsed(&p) {
                Ok(read) => read,
                // A file another uses: reported at the `uses` line that names it.
                Err(e) if used_at.contains_key(&p) => {
                    let at = used_at.get(&p).copied().unwrap_or(Span::NONE);
                    diags.push(Diag::error(at, format!("cannot read `{}`: {e}", p.display())).label("this file cannot be read"));
                    continue;
                }
                Err(e) => {
                    // An empty file under its name, for the message to name it.
                    let source = self.sources.read(&p, String::new(), || self.display(&p));
                    diags.push(Diag::error(Span::new(source.id, 0, 0), format!("cannot read `{}`: {e}", p.display())));
                    files.push(source);
                    continue;
                }
            };
            files.push(source);
            match parsed {
                Ok(f) => {
                    let role = if role == Role::Cards && f.items.iter().any(|i| matches!(i.node, Item::Scenario(_))) {
                        Role::Scenario
                    } else {
                        role
                    };
                    for it in &f.items {
                        // A scenario's own `uses` (its files come in as extras, beside it).
                        if let Item::Scenario(s) = &it.node {
                            for (u, span) in super::scenario::header(s, &mut Vec::new()).uses {
                                let q = p.parent().map(|d| d.join(&u)).unwrap_or_else(|| PathBuf::from(&u));
                                if !p.parent().is_some_and(|d| really_inside(d, &q)) {
                                    diags.push(leads_out(span, &u));
                                    refused.push(q);
                                }
                            }
                        }
                        let Item::Uses(u) = &it.node else { continue };
                        match used_path(&p, &u.node) {
                            Some(q) if !p.parent().is_some_and(|d| really_inside(d, &q)) => diags.push(leads_out(u.span, &u.node)),
                            Some(q) => {
                                if known.insert(key(&q)) {
                                    used_at.insert(q.clone(), u.span);
                                    paths.push((q, Role::Cards));
                                }
                            }
                            None => diags.push(
                                Diag::error(u.span, format!("a file may use only `.arb` files in its own folder or below it, not `{}`", u.node))
                                    .label("not usable")
                                    .help("write a relative path without `..`, like `uses \"my-cards.arb\"`; or pass the file with `--rules FILE`"),
                            ),
                        }
                    }
                    inputs.push(Input { file: f, role });
                }
                Err(d) => diags.push(d),
            }
        }
        if !diags.is_empty() {
            return Err((files, diags));
        }
        Ok(Read { paths: paths.into_iter().map(|(p, _)| p).collect(), files, inputs })
    }
}

/// Why a file is not text: the first byte that is not UTF-8, where it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{file}` is not UTF-8 text: byte {offset} (line {line}) is not UTF-8")]
pub struct NotUtf8 {
    pub file: String,
    /// Bytes from the start of the file.
    pub offset: usize,
    /// Counted from 1.
    pub line: usize,
}

impl NotUtf8 {
    fn of(path: &Path, e: &std::string::FromUtf8Error) -> NotUtf8 {
        let offset = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes().iter().take(offset).filter(|b| **b == b'\n').count();
        NotUtf8 { file: path.display().to_string(), offset, line }
    }
}

impl NotUtf8 {
    /// This error, if `e` is it.
    pub fn of_error(e: &std::io::Error) -> Option<&NotUtf8> {
        e.get_ref().and_then(|x| x.downcast_ref::<NotUtf8>())
    }
}

/// The file a `uses` line names, relative to the file it is in; `None` for a path that leaves its
/// folder (a file from a stranger must not make the loader read any other file).
fn used_path(from: &Path, used: &str) -> Option<PathBuf> {
    if !super::scenario::usable_path(used) {
        return None;
    }
    Some(from.parent().map(|d| d.join(used)).unwrap_or_else(|| PathBuf::from(used)))
}

/// Whether `file` really lies in `folder` or below it, links followed: a link whose target is
/// elsewhere (or nowhere) does not. A file that does not exist is judged by its name (reading it
/// then says it is missing).
pub fn really_inside(folder: &Path, file: &Path) -> bool {
    let folder = if folder.as_os_str().is_empty() { Path::new(".") } else { folder };
    match (std::fs::canonicalize(file), std::fs::canonicalize(folder)) {
        (Ok(f), Ok(d)) => f.starts_with(d),
        // Nothing there, not even a broken link.
        (Err(_), Ok(_)) => file.symlink_metadata().is_err(),
        (_, Err(_)) => false,
    }
}

/// The error of a `uses` line naming a link that leads out of the file's folder.
fn leads_out(span: Span, used: &str) -> Diag {
    Diag::error(
        span,
        format!("`{used}` is a link to a file outside this file's folder: a file may use only files in its own folder or below it"),
    )
    .label("leads outside")
    .help("copy the file into this folder, or pass it with `--rules FILE`")
}

/// A game's files as `load` reads them: paths, sources and parsed inputs, in order.
struct Read {
    paths: Vec<PathBuf>,
    files: Vec<SourceFile>,
    inputs: Vec<Input>,
}

/// A game with its variants and extra files, compiled up to its scenarios (`compile_rules`):
/// scenario files are checked against copies of it (`Project::load_scenario`).
pub struct Base {
    read: Read,
    /// `read.paths`, canonical: a scenario file among them is no scenario file of its own.
    canon: HashSet<PathBuf>,
    variants: Vec<String>,
    rules: Checker,
}

impl Base {
    fn new(read: Read, variants: &[String], rules: Checker) -> Base {
        let canon = read.paths.iter().filter_map(|p| canonical(p)).collect();
        Base { read, canon, variants: variants.to_vec(), rules }
    }
}

/// What a scenario file is checked and run with: itself, and the files named `fixtures*.arb` in its
/// folder, so that several scenarios can share fixture cards.
pub fn scenario_extras(project: &Project, path: &Path) -> Vec<PathBuf> {
    let mut out = vec![path.to_path_buf()];
    if let Ok(f) = peek(project, path) {
        for it in &f.items {
            if let Item::Scenario(s) = &it.node {
                let mut d = Vec::new();
                for (u, _) in super::scenario::header(s, &mut d).uses {
                    // (A link leading out of the folder is refused where the file is read.)
                    let p = path.parent().map(|dir| dir.join(&u)).unwrap_or_else(|| PathBuf::from(&u));
                    if !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
    }
    if let Some(dir) = path.parent() {
        for p in project.listed(dir) {
            let shared = p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("fixtures"));
            if shared && p.parent() == Some(dir) && p != path && really_inside(dir, &p) {
                out.push(p);
            }
        }
    }
    out
}

/// Parse one file on its own, to learn what it declares (its game, its scenarios). The tree is
/// the one the file has when it is loaded with a game (the source map keeps it).
/// A file that names, on its `for` line, a game there is no folder for: the diagnostic, at that
/// line (none when the game is there, or the file names it otherwise).
pub fn unknown_game(project: &Project, path: &Path, game: &str) -> Option<(SourceFile, Diag)> {
    if project.root.join("rulebooks").join(game).is_dir() {
        return None;
    }
    let (source, tree) = project.read_parsed(path).ok()?;
    let file = tree.ok()?;
    let span = file.items.iter().find_map(|i| if let Item::For(n) = &i.node { (n.node == game).then_some(n.span) } else { None })?;
    let games = project.games();
    let help = arbiter_syntax::diag::did_you_mean(game, games.iter().map(String::as_str))
        .unwrap_or_else(|| format!("games here: {}", games.join(", ")));
    Some((source, Diag::error(span, format!("no game `{game}` in rulebooks/")).label("this game").help(help)))
}

pub fn peek(project: &Project, path: &Path) -> Result<Arc<File>, ProjectError> {
    let (_, tree) = project.read_parsed(path).map_err(|e| ProjectError::Unreadable { path: path.to_path_buf(), source: e })?;
    tree.map_err(ProjectError::Syntax)
}

/// `std::fs::canonicalize`, remembered: loading a game asks it of the same paths many times.
pub fn canonical(p: &Path) -> Option<PathBuf> {
    static SEEN: Mutex<Option<FxHashMap<PathBuf, Option<PathBuf>>>> = Mutex::new(None);
    if let Ok(guard) = SEEN.lock()
        && let Some(c) = guard.as_ref().and_then(|m| m.get(p))
    {
        return c.clone();
    }
    let c = std::fs::canonicalize(p).ok();
    // A path that does not exist yet is asked again next time (an editor may create the file).
    if c.is_some()
        && let Ok(mut guard) = SEEN.lock()
    {
        guard.get_or_insert_with(FxHashMap::default).insert(p.to_path_buf(), c.clone());
    }
    c
}

/// Which game a file belongs to: by its place in the tree, a `for` line, or a scenario's `game`.
pub fn game_of(project: &Project, path: &Path) -> Option<String> {
    let rel = project.display(path);
    let parts: Vec<&str> = rel.split('/').collect();
    match parts.as_slice() {
        ["rulebooks", g, ..] | ["cards", g, ..] if parts.len() > 2 => return Some((*g).to_string()),
        _ => {}
    }
    let f = match peek(project, path) {
        Ok(f) => f,
        // A file that does not parse still says its game on its `for` line: its own syntax error
        // is then reported with that game's files.
        Err(_) => return project.text_of(path).ok().and_then(|t| for_line(&t)),
    };
    for it in &f.items {
        match &it.node {
            Item::For(g) => return Some(g.node.clone()),
            Item::Scenario(s) => {
                let mut d = Vec::new();
                if let Some(g) = super::scenario::header(s, &mut d).game {
                    return Some(g);
                }
            }
            _ => {}
        }
    }
    if let ["tests", "examples", g, ..] = parts.as_slice() {
        return Some((*g).to_string());
    }
    None
}

/// The game a `for GAME` line names, read from the text alone (for a file that does not parse):
/// the first line that is not blank or a `//` comment.
pub fn for_line(text: &str) -> Option<String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let line = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("//"))?;
    let rest = line.strip_prefix("for")?;
    let game = rest.split("//").next()?.trim();
    let ok = !game.is_empty() && rest.starts_with([' ', '\t']) && game.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    ok.then(|| game.to_string())
}

/// A file's own syntax error, with its source, when it does not parse.
pub fn syntax_error(project: &Project, path: &Path) -> Option<(SourceFile, Diag)> {
    let (source, parsed) = project.read_parsed(path).ok()?;
    parsed.err().map(|d| (source, d))
}

#[cfg(test)]
mod tests {
    use super::{Project, ProjectError, peek};
    use arbiter_syntax::diag::Diag;
    use arbiter_syntax::span::Span;
    use std::path::PathBuf;

    /// A folder of its own for one test, emptied first.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arbiter-project-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_rules_file_that_is_a_folder_is_a_diagnostic_with_its_message_and_help() {
        let dir = scratch("folder");
        let e = Project::at(&dir).with_rules(std::slice::from_ref(&dir)).unwrap_err();
        assert!(matches!(e, ProjectError::Folder(_)), "{e:?}");
        assert_eq!(e.to_string(), format!("`{}` is a folder: `--rules` takes a file (repeat it for several)", dir.display()));
        let d = Diag::from(e);
        assert_eq!(d.message, format!("`{}` is a folder", dir.display()));
        assert_eq!(d.help.as_deref(), Some("`--rules` takes a file (repeat it for several)"));
        assert_eq!(d.span, Span::NONE);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn rules_files_missing_gameless_not_text_or_for_another_game_are_refused_with_help() {
        let dir = scratch("rules");
        let missing = dir.join("gone.arb");
        let e = Project::at(&dir).with_rules(std::slice::from_ref(&missing)).unwrap_err();
        assert_eq!(e.to_string(), format!("cannot read `{}`: no such file", missing.display()));
        assert_eq!(Diag::from(e).help, None);
        let gameless = dir.join("mine.arb");
        std::fs::write(&gameless, "// nothing here\n").unwrap();
        let e = Project::at(&dir).with_rules(std::slice::from_ref(&gameless)).unwrap_err();
        assert_eq!(e.to_string(), format!("cannot tell which game `{}` is for: start it with a line `for GAME`", gameless.display()));
        let d = Diag::from(e);
        assert_eq!(d.message, format!("cannot tell which game `{}` is for", gameless.display()));
        assert_eq!(d.help.as_deref(), Some("start it with a line `for GAME`"));
        let binary = dir.join("binary.arb");
        std::fs::write(&binary, b"for chess\n\xff\n").unwrap();
        let e = Project::at(&dir).with_rules(std::slice::from_ref(&binary)).unwrap_err();
        assert!(matches!(e, ProjectError::NotUtf8(_)), "{e:?}");
        assert!(e.to_string().ends_with("is not UTF-8 text: byte 10 (line 2) is not UTF-8"), "{e}");
        assert!(Diag::from(e).help.is_some_and(|h| h.contains("save the file as UTF-8")));
        let chess = dir.join("chess.arb");
        std::fs::write(&chess, "for chess\n").unwrap();
        let project = Project::at(&dir).with_rules(std::slice::from_ref(&chess)).unwrap();
        assert!(project.rules_not_for("chess").is_ok());
        let e = project.rules_not_for("go").unwrap_err();
        assert_eq!(e.to_string(), "`chess.arb` is for chess, not go");
        let d = Diag::from(e);
        assert_eq!(d.message, "`chess.arb` is for chess, not go");
        assert_eq!(d.help.as_deref(), Some("`--rules` takes files for the game being played; leave this one out"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_peeked_at_that_does_not_parse_is_its_syntax_error_in_its_place() {
        let dir = scratch("peek");
        let broken = dir.join("broken.arb");
        std::fs::write(&broken, "for chess\nkind {\n").unwrap();
        let project = Project::at(&dir);
        let e = peek(&project, &broken).unwrap_err();
        let ProjectError::Syntax(syntax) = &e else { panic!("not a syntax error: {e:?}") };
        assert_eq!(e.to_string(), syntax.message);
        let d = Diag::from(e);
        assert_ne!(d.span, Span::NONE);
        assert!(!d.message.is_empty());
        let e = peek(&project, &dir.join("gone.arb")).unwrap_err();
        assert!(e.to_string().starts_with(&format!("cannot read `{}`: ", dir.join("gone.arb").display())), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
