//! `arbiter bench`: parse-and-check time and random games per second, on one core; with
//! `--parse`, the time to parse and check every rulebook, card and scenario file, as `arbiter
//! check` does it: on all cores (`RAYON_NUM_THREADS=1` for one).

use crate::agents::{BotPlan, Bots};
use crate::check::project::Project;
use crate::runtime::decks::choose_decks;
use crate::runtime::state::{Mode, State};
use crate::runtime::{Engine, Setup, Status};
use crate::syntax::diag::Diag;
use crate::syntax::span::{FileNumbers, Span};
use std::path::PathBuf;
use std::time::Instant;

/// Hand-written playouts of the small games, the limit to measure against (`tests/benches`).
#[path = "../../tests/benches/native.rs"]
pub mod native;

pub struct Options {
    pub game: Option<String>,
    pub parse: bool,
    pub lsp: bool,
    pub games: u64,
    /// `4`, or a range `3-6` played in turn.
    pub players: Option<String>,
    pub seed: u64,
    pub variants: Vec<String>,
    /// Show where the evaluation steps go, by function and modifier.
    pub profile: bool,
    /// `--bots` values (default: random bots).
    pub bots: Vec<String>,
}

/// A `--players` value that is not a number or a range of numbers.
#[derive(Debug, thiserror::Error)]
pub enum PlayerCountError {
    #[error("`--players {0}`: write a number like `4` or a range like `3-6`")]
    NotANumber(String),
    #[error("`--players {0}`: the range is empty")]
    EmptyRange(String),
}

impl PlayerCountError {
    pub fn to_diag(&self) -> Diag {
        let help = match self {
            PlayerCountError::NotANumber(_) => "write a number like `4` or a range like `3-6`",
            PlayerCountError::EmptyRange(_) => "write the smaller number first, like `3-6`",
        };
        let message = match self {
            PlayerCountError::NotANumber(spec) => format!("`--players {spec}` is not a number of players"),
            PlayerCountError::EmptyRange(_) => self.to_string(),
        };
        Diag::error(Span::NONE, message).help(help)
    }
}

impl From<PlayerCountError> for Diag {
    fn from(e: PlayerCountError) -> Diag {
        e.to_diag()
    }
}

/// `4` or `3-6`.
fn player_counts(spec: Option<&str>, default: usize) -> Result<Vec<usize>, PlayerCountError> {
    let Some(spec) = spec else { return Ok(vec![default]) };
    let num = |t: &str| t.trim().parse::<usize>().map_err(|_| PlayerCountError::NotANumber(spec.to_string()));
    match spec.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (num(a)?, num(b)?);
            if a > b {
                return Err(PlayerCountError::EmptyRange(spec.to_string()));
            }
            Ok((a..=b).collect())
        }
        None => Ok(vec![num(spec)?]),
    }
}

/// The process's peak resident memory, in KiB (Linux), or `None` where it can't be read.
fn peak_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A state's size and the time to clone it: `N objects, M events, K KiB as JSON; cloned in X µs`.
/// The clone time is the average of many clones (as many as fit in about a fifth of a second, at
/// least 20 and at most 2000). The size is the state's as a save writes it (`files`: the game's).
fn measure(st: &State, files: &FileNumbers) -> String {
    let bytes = files.scope(|| serde_json::to_vec(st)).map(|v| v.len()).unwrap_or(0);
    let t = Instant::now();
    std::hint::black_box(st.clone());
    let once = t.elapsed().as_secs_f64();
    let reps = (0.2 / once.max(1e-9)).clamp(20.0, 2000.0) as u32;
    let t = Instant::now();
    let mut kept = 0usize;
    for _ in 0..reps {
        let c = std::hint::black_box(st.clone());
        kept += c.objects.len();
    }
    let clone_us = t.elapsed().as_secs_f64() * 1e6 / f64::from(reps);
    std::hint::black_box(kept);
    format!("{} objects, {} events, {:.1} KiB as JSON; cloned in {clone_us:.2} µs", st.objects.len(), st.log.len(), bytes as f64 / 1024.0)
}

/// How many times `bench --parse` checks every file: a shared machine's timings of one run vary
/// twofold from run to run, a median of several far less.
const PARSE_RUNS: usize = 7;

/// `arbiter bench --parse`: parse and check every file of the repository, as `arbiter check` does,
/// `PARSE_RUNS` times, each from the start (nothing read or parsed kept from the run before).
fn parse_all(project: &Project) -> i32 {
    let mut times = Vec::with_capacity(PARSE_RUNS);
    let mut checked = None;
    for _ in 0..PARSE_RUNS {
        let fresh = project.afresh();
        let t0 = Instant::now();
        let found = crate::check_files::check_files(&fresh, &[], None, &[]);
        times.push(t0.elapsed().as_secs_f64() * 1e3);
        checked = Some(found);
    }
    let Some(checked) = checked else { return 1 };
    times.sort_by(f64::total_cmp);
    let median = times.get(PARSE_RUNS / 2).copied().unwrap_or(0.0);
    let (fastest, slowest) = (times.first().copied().unwrap_or(0.0), times.last().copied().unwrap_or(0.0));
    let lines: usize = std::iter::once(&"stdlib")
        .chain(crate::check_files::DEFAULT_DIRS.iter())
        .flat_map(|d| Project::arb_files(&project.root.join(d)))
        .map(|p| std::fs::read_to_string(p).map(|t| t.lines().count()).unwrap_or(0))
        .sum();
    outln!(
        "parse and check every rulebook, card and scenario file: {} files, {lines} lines in {median:.1} ms ({} errors; the median of {PARSE_RUNS} runs, fastest {fastest:.1} ms, slowest {slowest:.1} ms)",
        checked.files,
        checked.errors()
    );
    i32::from(checked.errors() > 0)
}

/// `arbiter bench --lsp`: the language server's time from an edit to its diagnostics (its
/// check of the edited text) for one rulebook file of each game, a card file and a scenario file,
/// each edited 20 times (a comment added) after it was opened once.
fn lsp_edits(project: &Project) -> i32 {
    // For each game: its main rulebook file, its first card file and its first scenario file.
    let first_in = |dir: PathBuf| Project::arb_files(&dir).into_iter().next();
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    for g in project.games() {
        let dir = project.root.join("rulebooks").join(&g);
        let main = dir.join("game.arb");
        let pick = if main.exists() { Some(main) } else { first_in(dir) };
        files.extend(pick.map(|p| (format!("{g}: rulebook file"), p)));
        files.extend(first_in(project.root.join("cards").join(&g)).map(|p| (format!("{g}: card file"), p)));
        files.extend(first_in(project.root.join("tests/examples").join(&g)).map(|p| (format!("{g}: scenario file"), p)));
    }
    let mut server = crate::lsp::Server::new(project.clone());
    outln!("the language server: from an edit to its diagnostics (one check of the edited text), on all cores");
    for (role, path) in files {
        let rel = project.display(&path);
        let Ok(text) = std::fs::read_to_string(&path) else {
            errln!("error: cannot read {rel}");
            return 2;
        };
        let Some(uri) = crate::lsp::file_uri(&path) else { return 2 };
        server.edit(&uri, Some(text.clone()));
        let first = Instant::now();
        let found: usize = server.check(&uri).iter().map(|p| p.diagnostics.len()).sum();
        let opened = first.elapsed();
        let mut times: Vec<f64> = (0..20)
            .map(|k| {
                server.edit(&uri, Some(format!("{text}\n// edit {k}\n")));
                let t = Instant::now();
                let _ = server.check(&uri);
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        server.edit(&uri, None);
        times.sort_by(f64::total_cmp);
        let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
        let worst = times.last().copied().unwrap_or(0.0);
        outln!(
            "  {role} ({rel}): {median:.1} ms (median of 20 edits; slowest {worst:.1} ms; opening it {:.1} ms; {found} diagnostics)",
            opened.as_secs_f64() * 1e3
        );
    }
    0
}

pub fn run(project: &Project, o: &Options) -> i32 {
    if o.parse {
        return parse_all(project);
    }
    if o.lsp {
        return lsp_edits(project);
    }
    let Some(game) = o.game.as_deref() else {
        errln!("error: name a game (`arbiter bench bsg-ccg`), or measure parsing with `arbiter bench --parse`");
        return 2;
    };
    let (games, seed) = (o.games, o.seed);
    if games == 0 {
        errln!("error: `--games 0`: play at least one game");
        return 2;
    }
    let t0 = Instant::now();
    let loaded = project.load(game, &o.variants, &[]);
    let parse_check = t0.elapsed();
    let built = match &loaded.result {
        Ok(b) => b,
        Err(d) => {
            out!("{}", crate::diag::render(d, &loaded.files));
            return 1;
        }
    };
    let g = &built.game;
    let lines: usize = loaded.files.iter().map(|f| f.text.lines().count()).sum();
    outln!("parse and check: {} files, {lines} lines in {:.1} ms", loaded.files.len(), parse_check.as_secs_f64() * 1e3);
    let counts = match player_counts(o.players.as_deref(), g.min_players as usize) {
        Ok(c) => c,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    if let Some(wrong) = counts.iter().find_map(|n| g.wrong_player_count(*n)) {
        errln!("error: {wrong}");
        return 2;
    }
    let mut plans = Vec::new();
    for &n in &counts {
        match BotPlan::parse(&o.bots, g, n) {
            Ok(p) => plans.push(p),
            Err(e) => {
                errln!("error: {e}");
                return 2;
            }
        }
    }
    let profiler = crate::runtime::Profiler::default();
    let engine = if o.profile { Engine::new(g).with_tracer(&profiler) } else { Engine::new(g) };
    let t1 = Instant::now();
    let mut totals = Totals::default();
    let mut native = NativeClock::new(game, games, seed, plans.iter().all(BotPlan::all_random));
    for i in 0..games {
        let s = seed.wrapping_add(i);
        let players = counts.get(usize::try_from(i).unwrap_or(0) % counts.len()).copied().unwrap_or(g.min_players as usize);
        let plan = plans.get(usize::try_from(i).unwrap_or(0) % counts.len()).cloned().unwrap_or_default();
        let st = match play_game(&engine, plan, players, s, i == 0, &mut totals) {
            Ok(st) => st,
            Err(code) => return code,
        };
        let why = st.result.as_ref().map_or_else(|| "unfinished".to_string(), |r| r.reason.clone());
        *totals.reasons.entry(why).or_default() += 1;
        if totals.largest.as_ref().is_none_or(|l| st.log.len() > l.log.len()) {
            totals.largest = Some(st);
        }
        if let Some(n) = native.as_mut() {
            n.played(i);
        }
    }
    let Totals { decisions, events, turns, thinking, thoughts, sample, largest, mut reasons } = totals;
    // Arbiter's own time: the native reference's rounds between its games are left out.
    let secs = native.as_ref().map_or_else(|| t1.elapsed().as_secs_f64(), |n| n.arbiter.as_secs_f64());
    let players = counts.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
    let variants = if o.variants.is_empty() { String::new() } else { format!(", variants {}", o.variants.join(", ")) };
    let per_s = |n: u64| n as f64 / secs.max(1e-9);
    let bots = plans.first().map_or_else(|| "random".into(), BotPlan::describe);
    outln!("{games} games of {game} ({players} players{variants}, {bots} bots) on one core: {secs:.2} s");
    if thoughts > 0 {
        outln!("  the lookahead bots' decisions: {thoughts}, {:.2} ms each on average", thinking.as_secs_f64() * 1e3 / thoughts as f64);
    }
    outln!(
        "  {:.1} games/s, {:.0} decisions/s, {:.0} events/s; per game {:.1} decisions, {:.1} turns, {:.0} events",
        per_s(games),
        per_s(decisions),
        per_s(events),
        decisions as f64 / games.max(1) as f64,
        turns as f64 / games.max(1) as f64,
        events as f64 / games.max(1) as f64
    );
    if let Some(st) = &sample {
        let files = FileNumbers::of(&g.files);
        let mut line = format!("  a state after {} decisions: {}", st.decisions, measure(st, &files));
        if let Some(l) = &largest {
            line.push_str(&format!("; the largest (the end of a game of {} decisions): {}", l.decisions, measure(l, &files)));
        }
        outln!("{line}");
    }
    if let Some(line) = native.and_then(NativeClock::summary) {
        outln!("{line}");
    }
    match peak_kib() {
        Some(k) => outln!("  peak memory: {:.1} MiB", k as f64 / 1024.0),
        None => outln!("  peak memory: not measured on this system"),
    }
    reasons.sort_by(|_, a, _, b| b.cmp(a));
    for (why, n) in &reasons {
        outln!("  {n:>5}  {why}");
    }
    if o.profile {
        print_profile(&profiler.profile(), games);
        print_kept(g, &engine.kept_calls());
    }
    0
}

/// The functions whose calls were kept across versions, and how often a call was found unchanged
/// (`--profile`).
fn print_kept(g: &crate::ir::Game, tallies: &[crate::runtime::memo::KeptTally]) {
    const SHOWN: usize = 10;
    if tallies.is_empty() {
        return;
    }
    outln!("  calls kept from one state to the next (functions whose reads the checker bounds): found unchanged, of all calls");
    let mut rows = tallies.to_vec();
    rows.sort_by_key(|t| std::cmp::Reverse(u64::from(t.found) + u64::from(t.worked_out)));
    for t in rows.iter().take(SHOWN) {
        let all = u64::from(t.found) + u64::from(t.worked_out);
        let name = g.funcs.get(t.func as usize).map_or("?", |f| f.info.name.as_str());
        let stopped = if t.kept { "" } else { " (no longer kept: it saves less than looking costs)" };
        outln!("  {:>6.1}% of {all:>7}  {name}{stopped}", 100.0 * f64::from(t.found) / all.max(1) as f64);
    }
    if rows.len() > SHOWN {
        outln!("  ({} more functions)", rows.len() - SHOWN);
    }
}

/// What the games of a bench run add up to.
#[derive(Default)]
struct Totals {
    decisions: u64,
    events: u64,
    turns: u64,
    /// The time the lookahead bots thought, and over how many decisions.
    thinking: std::time::Duration,
    thoughts: u64,
    /// A state from the middle of the first game, and the largest state seen (the end of the game
    /// with the most events): their serialized size and the time to clone them.
    sample: Option<State>,
    largest: Option<State>,
    reasons: indexmap::IndexMap<String, u64>,
}

/// One seeded game played to its end by `plan`'s bots, counted into `totals`: the final state, or
/// the exit code of an error (printed).
fn play_game(engine: &Engine, plan: BotPlan, players: usize, s: u64, first: bool, totals: &mut Totals) -> Result<State, i32> {
    let g = engine.game;
    let decklists = match choose_decks(g, players, &[]) {
        Ok(d) => d,
        Err(e) => {
            errln!("error: {e}");
            return Err(2);
        }
    };
    let mut st = match engine.new_state(Mode::Game, Setup { players, seed: s, decklists }) {
        Ok(st) => st,
        Err(e) => {
            errln!("error: {}", e.message);
            return Err(2);
        }
    };
    let timed = !plan.all_random();
    let mut bot = Bots::new(plan, s);
    loop {
        match engine.advance(&mut st) {
            Ok(Status::Decision) => {
                let Some(d) = st.pending.as_ref() else { break };
                // Only the decisions of a seat a lookahead bot plays are timed.
                let looks_ahead = timed && bot.kind_for(engine, &st, d.seat).is_ok_and(|k| k != crate::agents::BotKind::Random);
                let t = looks_ahead.then(Instant::now);
                let (seat, a) = (d.seat, bot.decide(engine, &st, d));
                if let Some(t) = t {
                    totals.thinking += t.elapsed();
                    totals.thoughts += 1;
                }
                let a = match a {
                    Ok(a) => a,
                    Err(e) => {
                        out!("{}", crate::diag::render(&[e.to_diag()], &g.files));
                        errln!("error: a bot stopped on a rule error (seed {s})");
                        return Err(2);
                    }
                };
                if engine.answer(&mut st, seat, &a).is_err() {
                    errln!("error: a bot answer was refused (seed {s})");
                    return Err(2);
                }
                totals.decisions += 1;
                if first && st.decisions == 20 {
                    totals.sample = Some(st.clone());
                }
            }
            Ok(_) => break,
            Err(e) => {
                errln!("error: seed {s}: {}", e.message);
                return Err(2);
            }
        }
    }
    totals.turns += u64::from(st.turns);
    totals.events += st.log.len() as u64;
    if first && totals.sample.is_none() {
        totals.sample = Some(st.clone());
    }
    Ok(st)
}

/// How many rounds the native reference is timed in, between rounds of Arbiter's games.
const NATIVE_ROUNDS: u64 = 10;

/// The native reference timed beside Arbiter, for a game that has one played by random bots (a
/// ratio to it means something for random bots only): after each round of Arbiter's games, the
/// same seeds played natively, so that both are timed under the same load (a shared machine's
/// speed changes from second to second). The ratio given is the median of the rounds' ratios.
struct NativeClock {
    game: String,
    /// The games played, and the first's seed.
    games: u64,
    seed: u64,
    /// Rounds ended so far.
    rounds: u64,
    /// The first game of this round (counted from 0), and when it started.
    round_first: u64,
    round_started: Instant,
    /// Arbiter's time in all rounds so far.
    arbiter: std::time::Duration,
    native_games: u64,
    native: std::time::Duration,
    ratios: Vec<f64>,
}

impl NativeClock {
    fn new(game: &str, games: u64, seed: u64, random_bots: bool) -> Option<NativeClock> {
        native::playouts(game, 0, seed).filter(|_| random_bots)?;
        Some(NativeClock {
            game: game.to_string(),
            games,
            seed,
            rounds: 0,
            round_first: 0,
            round_started: Instant::now(),
            arbiter: std::time::Duration::ZERO,
            native_games: 0,
            native: std::time::Duration::ZERO,
            ratios: Vec::new(),
        })
    }

    /// Game `i` (from 0) was just played: at the end of a round (round k ends once k
    /// tenths of the games are played, so that there are ten rounds of as near the same size as
    /// can be, or one a game when there are fewer than ten), the native reference plays the round's
    /// seeds, again and again until it has run for half Arbiter's time on them (and 5 ms at least,
    /// so that the clock's resolution doesn't matter).
    fn played(&mut self, i: u64) {
        let done = i + 1;
        if done.saturating_mul(NATIVE_ROUNDS) < (self.rounds + 1).saturating_mul(self.games) {
            return;
        }
        self.rounds += 1;
        let arbiter = self.round_started.elapsed();
        let count = done - self.round_first;
        let first_seed = self.seed.wrapping_add(self.round_first);
        let want = (arbiter / 2).max(std::time::Duration::from_millis(5));
        let t = Instant::now();
        let mut played = 0u64;
        while played == 0 || t.elapsed() < want {
            if native::playouts(&self.game, count, first_seed).is_none() {
                break;
            }
            played += count;
        }
        let native = t.elapsed();
        let rate = |n: u64, d: std::time::Duration| n as f64 / d.as_secs_f64().max(1e-9);
        self.ratios.push(rate(played, native) / rate(count, arbiter));
        self.arbiter += arbiter;
        self.native += native;
        self.native_games += played;
        self.round_first = done;
        self.round_started = Instant::now();
    }

    /// The line `bench` prints: the native reference's games per second, its results over the
    /// same seeds, and Arbiter's ratio to it (the median of the rounds', with their range).
    fn summary(mut self) -> Option<String> {
        let last = native::playouts(&self.game, self.games, self.seed)?;
        self.ratios.sort_by(f64::total_cmp);
        let n = self.ratios.len();
        // The middle ratio, or the mean of the two middle ones.
        let median = (self.ratios.get((n.max(1) - 1) / 2)? + self.ratios.get(n / 2)?) / 2.0;
        let (low, high) = (self.ratios.first()?, self.ratios.last()?);
        let native_per_s = self.native_games as f64 / self.native.as_secs_f64().max(1e-9);
        Some(format!(
            "  native reference (tests/benches/native.rs), the same seed numbers, timed between rounds of Arbiter's games: {native_per_s:.0} games/s \
             (first player {} wins, second {}, {} draws); Arbiter is {median:.0}× slower (median of {} rounds, {low:.0}–{high:.0}×)",
            last.wins[0],
            last.wins[1],
            last.draws,
            self.ratios.len()
        ))
    }
}

/// The routines that take the most evaluation steps (`--profile`).
fn print_profile(p: &crate::runtime::profile::Profile, games: u64) {
    const SHOWN: usize = 20;
    let all = p.steps.max(1) as f64;
    let per_game = |n: u64| n as f64 / games.max(1) as f64;
    let pct = |n: u64| 100.0 * n as f64 / all;
    outln!(
        "  where the evaluation steps go: {:.0} steps per game; `own` counts a routine's own steps, `total` adds the routines it calls",
        per_game(p.steps)
    );
    outln!("      own    total  calls/game  routine");
    let rows = p.by_own_steps();
    for (name, r) in rows.iter().take(SHOWN) {
        outln!("  {:>6.1}%  {:>6.1}%  {:>10.1}  {name}", pct(r.own), pct(r.total), per_game(r.calls));
    }
    if rows.len() > SHOWN {
        let rest: u64 = rows.iter().skip(SHOWN).map(|(_, r)| r.own).sum();
        outln!("  {:>6.1}%                       {} more routines", pct(rest), rows.len() - SHOWN);
    }
    let inside: u64 = rows.iter().map(|(_, r)| r.own).sum();
    outln!(
        "  {:>6.1}%                       outside functions and modifiers (statements, conditions)",
        pct(p.steps.saturating_sub(inside))
    );
}

#[cfg(test)]
mod tests {
    use super::{PlayerCountError, player_counts};
    use crate::diag::Diag;

    #[test]
    fn players_that_are_not_a_number_or_a_range_are_a_diagnostic_with_help() {
        assert_eq!(player_counts(Some("3-5"), 2).unwrap(), vec![3, 4, 5]);
        let e = player_counts(Some("6-3"), 2).unwrap_err();
        assert!(matches!(e, PlayerCountError::EmptyRange(_)), "{e:?}");
        assert_eq!(e.to_string(), "`--players 6-3`: the range is empty");
        let d = Diag::from(e);
        assert_eq!(d.message, "`--players 6-3`: the range is empty");
        assert_eq!(d.help.as_deref(), Some("write the smaller number first, like `3-6`"));
        let e = player_counts(Some("four"), 2).unwrap_err();
        assert_eq!(e.to_string(), "`--players four`: write a number like `4` or a range like `3-6`");
        assert_eq!(Diag::from(e).help.as_deref(), Some("write a number like `4` or a range like `3-6`"));
    }
}
