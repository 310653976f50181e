//! `arbiter sim`: play many seeded games on every core and report the statistics (see `sim`);
//! `arbiter sim merge FILE...`: add up the JSON of a sharded run.

use super::play::{deck_args, deck_indices};
use crate::check::project::Project;
use crate::diag::{self, Diag};
use crate::runtime::decks::choose_decks_by;
use crate::sim::{self, Run, Table, report};
use crate::syntax::span::Span;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};

pub struct Options {
    pub game: String,
    pub files: Vec<PathBuf>,
    pub players: Option<usize>,
    pub variants: Vec<String>,
    pub decks: Vec<String>,
    pub games: u64,
    pub seed: u64,
    pub compare: Vec<String>,
    pub json: Option<PathBuf>,
    pub csv: Option<PathBuf>,
    pub svg: Option<PathBuf>,
    pub shard: Option<String>,
    pub jobs: Option<usize>,
    pub cards: bool,
    /// `--bots` values.
    pub bots: Vec<String>,
    /// `--think`: the longest a searching bot thinks about one decision, in seconds (none: no
    /// limit).
    pub think: Option<u64>,
}

pub fn run(project: &Project, o: &Options) -> i32 {
    if o.game == "merge" {
        return merge(&o.files, &Outputs { json: o.json.as_deref(), csv: o.csv.as_deref(), svg: o.svg.as_deref() });
    }
    if !o.files.is_empty() {
        errln!("error: `arbiter sim GAME` takes no files (`arbiter sim merge FILE...` adds up shards)");
        if o.files.iter().any(|f| !f.exists()) && !o.compare.is_empty() {
            errln!(
                "  help: each `--compare` is one rule set (its variants joined by commas); for several, repeat it: `--compare a --compare b`"
            );
        }
        return 2;
    }
    if o.games == 0 {
        errln!("error: `--games 0`: play at least one game");
        return 2;
    }
    let shard = match o.shard.as_deref().map(parse_shard).transpose() {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(o.jobs.unwrap_or(0)).build() {
        Ok(p) => p,
        Err(e) => {
            errln!("error: cannot start the worker threads: {e}");
            return 2;
        }
    };
    pool.install(|| simulate(project, o, shard))
}

/// A `--shard` value that is not `K/N` with 1 ≤ K ≤ N.
#[derive(Debug, thiserror::Error)]
#[error("`--shard {0}`: write it as K/N, like `--shard 2/4` (the second of four slices)")]
pub struct ShardError(String);

impl ShardError {
    pub fn to_diag(&self) -> Diag {
        Diag::error(Span::NONE, format!("`--shard {}`: write it as K/N", self.0))
            .help("like `--shard 2/4` (the second of four slices), K from 1 to N")
    }
}

impl From<ShardError> for Diag {
    fn from(e: ShardError) -> Diag {
        e.to_diag()
    }
}

/// `K/N`, with 1 ≤ K ≤ N.
fn parse_shard(s: &str) -> Result<[u64; 2], ShardError> {
    let bad = || ShardError(s.to_string());
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n) = (k.trim().parse::<u64>().map_err(|_| bad())?, n.trim().parse::<u64>().map_err(|_| bad())?);
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok([k, n])
}

fn simulate(project: &Project, o: &Options, shard: Option<[u64; 2]>) -> i32 {
    let (wanted, extra, decks) = match deck_args(&o.decks) {
        Ok(d) => d,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    // The base rule set, then each `--compare` set on top of it.
    let mut sets = vec![o.variants.clone()];
    for c in &o.compare {
        let mut set = o.variants.clone();
        set.extend(c.split(',').map(str::trim).filter(|v| !v.is_empty()).map(String::from));
        // A set that adds nothing, names a variant twice, or is one already played compares
        // nothing: refused, not played again.
        let named: Vec<&str> = c.split(',').map(str::trim).filter(|v| !v.is_empty()).collect();
        let twice = set.iter().enumerate().find(|(i, v)| set.iter().take(*i).any(|w| w == *v)).map(|(_, v)| v.clone());
        let why = if named.is_empty() {
            Some(format!("`--compare {c}` names no variant"))
        } else if let Some(v) = twice {
            Some(format!("`--compare {c}` switches on `{v}` twice (with `--variant`, it is on in every rule set)"))
        } else if sets.contains(&set) {
            Some(format!("`--compare {c}` is a rule set already played"))
        } else {
            None
        };
        if let Some(why) = why {
            errln!("error: {why}: it would compare the same rules");
            return 2;
        }
        sets.push(set);
    }
    let mut loaded = Vec::new();
    for set in &sets {
        let l = project.load(&o.game, set, &extra);
        if let Err(d) = &l.result {
            out!("{}", diag::render(d, &l.files));
            errln!(
                "error: {} in `{}`{}",
                diag::summary(d),
                o.game,
                if set.is_empty() { String::new() } else { format!(" with {}", set.join(", ")) }
            );
            return 1;
        }
        // What a rule set warns of (a variant's change another drops): said before playing.
        if let Ok(b) = &l.result
            && !b.warnings.is_empty()
        {
            errln!("{}", diag::render(&b.warnings, &l.files).trim_end());
        }
        loaded.push(l);
    }
    let mut tables = Vec::new();
    let mut players = 0;
    for l in &loaded {
        let Ok(built) = &l.result else { return 1 };
        let game = &built.game;
        players = o.players.unwrap_or(game.min_players as usize);
        if let Some(wrong) = game.wrong_player_count(players) {
            errln!("error: {wrong}");
            return 2;
        }
        let decklists = deck_indices(game, &l.files, project, &wanted).and_then(|given| Ok(choose_decks_by(game, players, &given)?));
        match decklists {
            Ok(decklists) => {
                if o.cards && game.decks.is_empty() {
                    errln!("error: `--cards` follows the cards of the seats' deck lists, and {} has no `deck`", game.name);
                    errln!("  help: a game whose seats play from deck lists (bsg-ccg) reports per-card statistics");
                    return 2;
                }
                // Per-card statistics for the seats given a deck, or for every seat with `--cards`.
                let cards_of =
                    if o.cards { (0..players).collect() } else { wanted.iter().map(|(s, _)| *s).filter(|s| *s < players).collect() };
                let bots = match crate::agents::BotPlan::parse(&o.bots, game, players) {
                    Ok(b) => b,
                    Err(e) => {
                        errln!("error: {e}");
                        return 2;
                    }
                };
                tables.push(Table { game, decklists, cards_of, bots, think: o.think.map(std::time::Duration::from_secs) });
            }
            Err(e) => {
                errln!("error: {e}");
                return 2;
            }
        }
    }
    let range = sim::shard_range(o.games, shard);
    let per_set = range.end - range.start;
    let bar = ProgressBar::new(per_set * tables.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, {eta} left").unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let tick = || bar.inc(1);
    let mut rule_sets = Vec::new();
    for (t, set) in tables.iter().zip(&sets) {
        let mut tally = sim::play_range(t, players, o.seed, range.clone(), &tick);
        tally.variants = set.clone();
        rule_sets.push(tally);
    }
    bar.finish_and_clear();
    let run = Run {
        game: o.game.clone(),
        players,
        seed: o.seed,
        games: o.games,
        bots: tables.first().map_or_else(|| "random".into(), |t| t.bots.describe()),
        decks,
        shard,
        rule_sets,
    };
    report_run(&run, &Outputs { json: o.json.as_deref(), csv: o.csv.as_deref(), svg: o.svg.as_deref() })
}

/// Print a run's report and write its files. A game an error stopped (a rule error, a bot that
/// failed) fails the run, as it fails `play`, whatever the figures say: exit 1.
fn report_run(run: &Run, to: &Outputs) -> i32 {
    out!("{}", report::text(run));
    let written = write_outputs(run, to);
    let stopped: u64 = run.rule_sets.iter().map(|t| t.errors.values().sum::<u64>()).sum();
    if written == 0 && stopped > 0 {
        errln!("error: {stopped} game{} stopped by an error (listed in the report)", if stopped == 1 { "" } else { "s" });
        return 1;
    }
    written
}

/// The files to write the results to.
struct Outputs<'a> {
    json: Option<&'a Path>,
    csv: Option<&'a Path>,
    svg: Option<&'a Path>,
}

fn write_outputs(run: &Run, to: &Outputs) -> i32 {
    if let Some(path) = to.json {
        let text = match serde_json::to_string_pretty(run) {
            Ok(t) => t + "\n",
            Err(e) => {
                errln!("error: cannot write the results as JSON: {e}");
                return 2;
            }
        };
        if let Err(e) = std::fs::write(path, text) {
            errln!("error: cannot write `{}`: {e}", path.display());
            return 2;
        }
    }
    for (path, text) in [(to.csv, report::csv(run)), (to.svg, sim::svg::chart(run))] {
        if let Some(path) = path
            && let Err(e) = std::fs::write(path, text)
        {
            errln!("error: cannot write `{}`: {e}", path.display());
            return 2;
        }
    }
    0
}

/// `arbiter sim merge FILE...`: the shards' JSON added up into the run's totals.
fn merge(files: &[PathBuf], to: &Outputs) -> i32 {
    if files.is_empty() {
        errln!("error: name the shards' JSON files: `arbiter sim merge part-1.json part-2.json ... --json all.json`");
        return 2;
    }
    let mut shards = Vec::new();
    for f in files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                errln!("error: cannot read `{}`: {e}", f.display());
                return 2;
            }
        };
        match serde_json::from_str::<Run>(&text) {
            Ok(r) => shards.push(r),
            Err(e) => {
                errln!("error: `{}` is not the JSON of `arbiter sim --json`: {e}", f.display());
                return 2;
            }
        }
    }
    match sim::merge(&shards) {
        Ok(run) => report_run(&run, to),
        Err(e) => {
            errln!("error: {e}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_shard;
    use crate::diag::Diag;

    #[test]
    fn a_shard_that_is_not_k_of_n_is_a_diagnostic_with_its_message_and_help() {
        assert_eq!(parse_shard("2/4").unwrap(), [2, 4]);
        let e = parse_shard("5/4").unwrap_err();
        assert_eq!(e.to_string(), "`--shard 5/4`: write it as K/N, like `--shard 2/4` (the second of four slices)");
        let d = Diag::from(e);
        assert_eq!(d.message, "`--shard 5/4`: write it as K/N");
        assert!(d.help.is_some_and(|h| h.contains("K from 1 to N")));
        assert!(parse_shard("half").is_err());
    }
}
