//! Checking files: every file of every game named, with all its variants, decks and scenarios
//! (`arbiter check`, the language server).

use arbiter_check::project::{Base, Loaded, Project, game_of, peek};
use arbiter_runtime::decks;
use arbiter_syntax::ast::Item;
use arbiter_syntax::diag::{self, Diag};
use arbiter_syntax::span::SourceFile;
use indexmap::IndexMap;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Diagnostics found so far, each once, rendered when the report ends (at most
/// `diag::SHOWN_PER_FILE` a file): file by file in the order the files first come, each file's
/// in the order of its lines, whichever load found them (the game's, a variant's, a scenario's).
#[derive(Default)]
struct Report {
    seen: HashSet<(String, u32, u32, String)>,
    renderer: diag::Renderer,
    text: String,
    /// Found so far, not rendered yet: the diagnostic, the sources of the load that found it (an
    /// index into `sources`), and its file's name.
    found: Vec<(Diag, usize, String)>,
    sources: Vec<Vec<SourceFile>>,
    diags: Vec<Diag>,
    /// The file each of `diags` points into (none for a problem outside the files).
    files: Vec<Option<SourceFile>>,
}

impl Report {
    fn add(&mut self, found: &Found) {
        let group = self.sources.len();
        let mut any = false;
        for d in &found.diags {
            let source = SourceFile::find(&found.files, d.span.file);
            let file = source.map(|f| f.name.clone()).unwrap_or_default();
            if !self.seen.insert((file.clone(), d.span.start, d.span.end, d.message.clone())) {
                continue;
            }
            self.found.push((d.clone(), group, file));
            any = true;
        }
        if any {
            self.sources.push(found.files.clone());
        }
    }

    /// The report ends: the diagnostics rendered in order, and how many were not shown.
    fn finish(mut self) -> Report {
        let mut found = std::mem::take(&mut self.found);
        // By file name: loads that read a file each give it a place of their own.
        diag::in_line_order(&mut found, |(d, _, f)| (f.clone(), d.span.start));
        for (d, group, _) in found {
            let files = self.sources.get(group).map(Vec::as_slice).unwrap_or_default();
            self.renderer.add(&mut self.text, &d, files);
            self.files.push(SourceFile::find(files, d.span.file).cloned());
            self.diags.push(d);
        }
        self.renderer.finish(&mut self.text);
        self
    }
}

/// Diagnostics one load gives for the report, with the sources they point into.
struct Found {
    files: Vec<SourceFile>,
    diags: Vec<Diag>,
}

impl Found {
    fn new(loaded: &Loaded, diags: &[Diag]) -> Found {
        Found { files: loaded.files.clone(), diags: diags.to_vec() }
    }

    /// A load's errors (none when it compiled).
    fn errors(loaded: &Loaded) -> Found {
        match &loaded.result {
            Err(d) => Found::new(loaded, d),
            Ok(_) => Found::new(loaded, &[]),
        }
    }

    /// A load's errors, or its warnings when it has none.
    fn outcome(loaded: &Loaded) -> Found {
        match &loaded.result {
            Err(d) => Found::new(loaded, d),
            Ok(b) => Found::new(loaded, &b.warnings),
        }
    }
}

pub fn expand(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            out.extend(Project::arb_files(p));
        } else {
            out.push(p.clone());
        }
    }
    out
}

fn is_scenario_file(project: &Project, p: &Path) -> bool {
    peek(project, p).is_ok_and(|f| f.items.iter().any(|i| matches!(i.node, Item::Scenario(_))))
}

/// What checking found: rendered diagnostics, files nobody can place, and how many files.
pub struct Checked {
    report: Report,
    unknown: Vec<String>,
    pub files: usize,
}

impl Checked {
    pub fn errors(&self) -> usize {
        self.report.diags.iter().filter(|d| d.is_error()).count() + self.unknown.len()
    }

    /// Each diagnostic with the file it points into (none for a problem outside the files), in
    /// the order `arbiter check` reports them.
    pub fn diagnostics(&self) -> impl Iterator<Item = (&Diag, Option<&SourceFile>)> {
        self.report.diags.iter().zip(&self.report.files).map(|(d, f)| (d, f.as_ref()))
    }

    /// The diagnostics rendered, in the order `arbiter check` prints them.
    pub fn rendered(&self) -> &str {
        &self.report.text
    }

    /// Files no game can be found for, as messages.
    pub fn unplaced(&self) -> &[String] {
        &self.unknown
    }
}

/// Check files (every rulebook, card and scenario file when none are named), without printing.
/// What `arbiter check` checks when no path is named: every rulebook, card and scenario file.
pub const DEFAULT_DIRS: [&str; 6] = ["rulebooks", "cards", "tests/examples", "tests/rulings", "tests/tour", "tests/house-rules"];

pub fn check_files(project: &Project, paths: &[PathBuf], game_flag: Option<&str>, forced: &[String]) -> Checked {
    // Checked, never played: no fast forms are made. Each file and folder is read once for the
    // whole check, however many times its game is loaded (`Project::read_once`).
    let project = &project.checking().read_once();
    // The games are checked on all cores (each game's variants and scenario files too), and what
    // they find is reported in the order a single core would find it. Threads get the main
    // thread's stack size (checking recurses as deep as the rules nest) on top of the parser's,
    // which they then parse on, without a new stack for each file.
    match rayon::ThreadPoolBuilder::new().stack_size((8 << 20) + arbiter_syntax::budgets::PARSE_STACK).build() {
        Ok(pool) => pool.install(|| check_all(project, paths, game_flag, forced)),
        Err(_) => check_all(project, paths, game_flag, forced),
    }
}

fn check_all(project: &Project, paths: &[PathBuf], game_flag: Option<&str>, forced: &[String]) -> Checked {
    let paths =
        if paths.is_empty() { DEFAULT_DIRS.iter().map(|d| project.root.join(d)).filter(|p| p.exists()).collect() } else { paths.to_vec() };
    let files = expand(&paths);
    let mut by_game: IndexMap<String, Vec<PathBuf>> = IndexMap::new();
    let mut report = Report::default();
    let mut unknown = Vec::new();
    // Which game each file is for (parsing, on all cores, those whose folder does not tell): what
    // the file says (its folder, `for` line or scenario's `game`), else `--game`.
    let games_of: Vec<Option<String>> =
        files.par_iter().map(|f| if f.exists() { game_of(project, f).or_else(|| game_flag.map(String::from)) } else { None }).collect();
    for (f, game) in files.iter().zip(games_of) {
        if !f.exists() {
            unknown.push(format!("no such file or folder: {}", f.display()));
            continue;
        }
        let rel = project.display(f);
        if rel.starts_with("stdlib/") {
            for g in project.games() {
                by_game.entry(g).or_default();
            }
            continue;
        }
        match game {
            // `for bsg-ccgg`: said at that line, for the file that says it.
            Some(g) if let Some((source, d)) = arbiter_check::project::unknown_game(project, f, &g) => {
                report.add(&Found { files: vec![source], diags: vec![d] });
            }
            Some(g) => by_game.entry(g).or_default().push(f.clone()),
            None if let Some((source, d)) = arbiter_check::project::syntax_error(project, f) => {
                // Its game is unknown, but its syntax error is the first thing to mend.
                report.add(&Found { files: vec![source], diags: vec![d] });
            }
            None => unknown.push(format!(
                "cannot tell which game `{}` belongs to: put it under cards/GAME/, start it with `for GAME`, or pass --game GAME",
                f.display()
            )),
        }
    }
    let games: Vec<(&String, &Vec<PathBuf>)> = by_game.iter().collect();
    project.parse_game_files(by_game.keys());
    let found: Vec<Vec<Found>> = games.par_iter().map(|(game, paths)| check_game(project, game, paths, forced)).collect();
    for f in found.iter().flatten() {
        report.add(f);
    }
    Checked { report: report.finish(), unknown, files: files.len() }
}

/// A set of variants and the game compiled with them up to its scenarios (none when a file
/// could not be read or parsed).
type VariantBase = (Vec<String>, Option<Base>);

/// One game with the files named for it: the game itself, each variant on its own, its decks,
/// then each scenario file with the variants it asks for.
fn check_game(project: &Project, game: &str, paths: &[PathBuf], forced: &[String]) -> Vec<Found> {
    let own: Vec<PathBuf> = project.game_files(game).into_iter().map(|(p, _)| p).collect();
    let canon = |p: &Path| arbiter_check::project::canonical(p);
    let own_c: Vec<_> = own.iter().map(|p| canon(p)).collect();
    let extra: Vec<PathBuf> = paths.iter().filter(|p| !own_c.contains(&canon(p))).cloned().collect();
    let (scenarios, cards): (Vec<PathBuf>, Vec<PathBuf>) = extra.into_iter().partition(|p| is_scenario_file(project, p));
    // Each scenario file with the variants it asks for and the files it brings along. Those that
    // bring none are checked against the game compiled once per set of variants (`Base`).
    // A file whose scenarios name different variants is checked once for each set.
    let scenarios: Vec<(PathBuf, Vec<String>, Vec<PathBuf>)> = scenarios
        .into_iter()
        .flat_map(|s| {
            let mut extra = cards.clone();
            for x in arbiter_check::project::scenario_extras(project, &s) {
                if !extra.contains(&x) {
                    extra.push(x);
                }
            }
            scenario_variants(project, &s)
                .into_iter()
                .map(move |v| (s.clone(), with_variants(forced, &v), extra.clone()))
                .collect::<Vec<_>>()
        })
        .collect();
    let shareable = |extra: &[PathBuf]| extra.len() == cards.len() + 1;
    let mut wanted: Vec<&Vec<String>> = Vec::new();
    for (_, variants, extra) in &scenarios {
        if shareable(extra) && !wanted.contains(&variants) {
            wanted.push(variants);
        }
    }
    let mut out = Vec::new();
    let mut bases: HashMap<Vec<String>, Option<Base>> = HashMap::new();
    let (base, rules) = project.load_base(game, forced, &cards);
    bases.insert(forced.to_vec(), rules);
    match &base.result {
        Err(d) => {
            out.push(Found::new(&base, d));
            // Each variant is still checked on its own, so that its mistakes are told with the
            // base's (said once): its name read from the files, the game not being compiled.
            let names: Vec<String> = own
                .iter()
                .chain(&cards)
                .filter_map(|p| peek(project, p).ok())
                .flat_map(|f| {
                    f.items
                        .iter()
                        .filter_map(|i| if let Item::Variant(v) = &i.node { Some(v.name.node.clone()) } else { None })
                        .collect::<Vec<_>>()
                })
                // Those past the limit are not declared (the base's error says so).
                .take(arbiter_syntax::budgets::VARIANT_LIMIT)
                .filter(|n| !forced.contains(n))
                .collect();
            let each: Vec<Found> = names
                .par_iter()
                .map(|n| Found::errors(&project.load(game, &with_variants(forced, std::slice::from_ref(n)), &cards)))
                .collect();
            out.extend(each);
        }
        Ok(built) => {
            out.push(Found::new(&base, &built.warnings));
            let each: Vec<Vec<String>> = built
                .game
                .variants
                .iter()
                .filter(|v| !forced.contains(&v.name))
                .map(|v| with_variants(forced, std::slice::from_ref(&v.name)))
                .collect();
            let loads: Vec<(Found, Option<VariantBase>)> = each
                .into_par_iter()
                .map(|variants| {
                    if wanted.contains(&&variants) {
                        let (with, rules) = project.load_base(game, &variants, &cards);
                        (Found::errors(&with), Some((variants, rules)))
                    } else {
                        (Found::errors(&project.load(game, &variants, &cards)), None)
                    }
                })
                .collect();
            for (found, rules) in loads {
                out.push(found);
                bases.extend(rules);
            }
            let decks: Vec<Found> =
                built.game.decks.par_iter().map(|deck| Found::new(&base, &decks::validate(&built.game, deck))).collect();
            out.extend(decks);
        }
    }
    let missing: Vec<&Vec<String>> = wanted.into_iter().filter(|v| !bases.contains_key(*v)).collect();
    let made: Vec<VariantBase> = missing.into_par_iter().map(|v| (v.clone(), project.compile_base(game, v, &cards))).collect();
    bases.extend(made);
    let checked: Vec<Found> = scenarios
        .par_iter()
        .map(|(s, variants, extra)| {
            let base = if shareable(extra) { bases.get(variants).and_then(Option::as_ref) } else { None };
            let loaded = base.and_then(|b| project.load_scenario(b, s)).unwrap_or_else(|| project.load(game, variants, extra));
            Found::outcome(&loaded)
        })
        .collect();
    out.extend(checked);
    out
}

/// The variants switched on from the command line, then the others (each once).
fn with_variants(forced: &[String], more: &[String]) -> Vec<String> {
    let mut out = forced.to_vec();
    for v in more {
        if !out.contains(v) {
            out.push(v.clone());
        }
    }
    out
}

/// The sets of variants a scenario file's scenarios ask for, each once, in the order written (at
/// least one: none).
fn scenario_variants(project: &Project, p: &Path) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    if let Ok(f) = peek(project, p) {
        for it in &f.items {
            if let Item::Scenario(s) = &it.node {
                let mut d = Vec::new();
                let v = arbiter_check::scenario::header(s, &mut d).variants;
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    if out.is_empty() {
        out.push(vec![]);
    }
    out
}
