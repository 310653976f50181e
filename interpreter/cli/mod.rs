//! The `arbiter` command line: check, play, resume, render, test, explain, variants, bench, sim,
//! fmt, and serve and lsp (dispatched here to the web and lsp crates).

/// Write `$how!` to `$to`, ending the program quietly when that output is closed (`arbiter ... |
/// head`) instead of panicking as `println!` and `eprintln!` do.
macro_rules! written {
    ($how:ident, $to:expr, $($t:tt)*) => {{
        use std::io::Write as _;
        if $how!($to, $($t)*).is_err() {
            std::process::exit($crate::cli::CLOSED);
        }
    }};
}

/// `println!`, `print!`, `eprint!` and `eprintln!` through `written!`.
macro_rules! outln { ($($t:tt)*) => { written!(writeln, std::io::stdout(), $($t)*) }; }
macro_rules! out { ($($t:tt)*) => { written!(write, std::io::stdout(), $($t)*) }; }
macro_rules! err { ($($t:tt)*) => { written!(write, std::io::stderr(), $($t)*) }; }
macro_rules! errln { ($($t:tt)*) => { written!(writeln, std::io::stderr(), $($t)*) }; }

/// The exit code when the output was closed before the program was done (`arbiter check | head`):
/// the code a shell gives a program a closed pipe stops (128 + SIGPIPE), never 0, which would say
/// that all went well.
pub const CLOSED: i32 = 141;

pub mod bench;
pub mod check;
mod fmt;
mod human;
pub mod play;
mod render;
mod sim;
mod test;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(name = "arbiter", version, about = "Rulebooks as data, cards as text, rulings as tests")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// A rule or card file of your own (repeatable): its cards, decks and variants are loaded
    /// with the game its `for GAME` line names.
    #[arg(long = "rules", global = true, value_name = "FILE")]
    pub rules: Vec<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse and check rulebooks, cards, decks, variants and scenarios; exit 1 on any error.
    Check {
        /// Files or folders (default: every rulebook, card and scenario file).
        paths: Vec<PathBuf>,
        /// The game for files that do not tell it themselves (by their folder, a `for GAME` line or a
        /// scenario's `game`).
        #[arg(long)]
        game: Option<String>,
        /// Check with this variant switched on, everywhere (repeatable; every variant is checked on
        /// its own anyway).
        #[arg(long = "variant")]
        variants: Vec<String>,
    },
    /// A web table on this machine: start a game, play its human seats (each sees only its own
    /// view), against bots or hot-seat.
    Serve {
        /// The port (0: any free port; the address is printed).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The address to listen on (default: this machine only).
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Where the page's Save button saves games (and Resume finds them).
        #[arg(long, default_value = "saves")]
        saves: PathBuf,
        /// The longest a bot thinks about one decision, in seconds (1 to 60; default 10): it
        /// answers then with the best it has found.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=60))]
        think: Option<u64>,
        /// How long a table's bots go on thinking when none of its seats asks about it (its
        /// players have left), in seconds (1 to 3600; default 20): they go on when one comes back.
        #[arg(long = "bot-idle", value_parser = clap::value_parser!(u64).range(1..=3600))]
        bot_idle: Option<u64>,
    },
    /// Rewrite rule, card, deck, variant and scenario files in the one canonical layout
    /// (indentation, spaces, blank lines; comments and line breaks kept); `--check` only reports,
    /// for CI. Exit 1 if a file is not formatted (`--check`) or is left as it is because of an
    /// error, 2 if the command is wrong.
    Fmt {
        /// Files or folders (default: the project's rulebooks, cards, stdlib and tests); `-` reads
        /// standard input and writes standard output.
        paths: Vec<PathBuf>,
        /// Write nothing; exit 1 if any file is not formatted.
        #[arg(long)]
        check: bool,
    },
    /// A language server on stdin and stdout, for editors: diagnostics as you type, with quick
    /// fixes (see the README's "Editors").
    Lsp {
        /// The project (default: the editor's workspace folder, else the current folder).
        #[arg(long)]
        root: Option<PathBuf>,
    },
    /// Play a whole game: seeded random bots by default (`--bots` for others), `--human` seats at
    /// the terminal.
    Play {
        /// The game, e.g. `bsg-ccg`.
        game: String,
        #[arg(long)]
        players: Option<usize>,
        /// The seed of shuffles, dice and bots (default 1; with a human seat or `--view`, a random
        /// one, shown when the game is over).
        #[arg(long)]
        seed: Option<u64>,
        /// Switch on a variant (repeatable).
        #[arg(long = "variant")]
        variants: Vec<String>,
        /// A seat (1, 2, ...) played at the terminal (repeatable).
        #[arg(long = "human")]
        humans: Vec<u8>,
        /// Bots play every seat and only what this seat (1, 2, ...) sees is printed: what happens
        /// (every event with `--log`) and, at the end, the table as it sees it.
        #[arg(long, conflicts_with = "humans")]
        view: Option<u8>,
        /// `SEAT=FILE`: the deck for a seat, from a file holding a `deck` (and any new cards).
        #[arg(long = "deck")]
        decks: Vec<String>,
        /// Print every event with its cause as the game goes (as the seat at the terminal may see
        /// it), not only what is told at the table.
        #[arg(long)]
        log: bool,
        /// Save the game to this (new) file at every decision (a bot's, as often as saving takes at
        /// most a tenth of the game's time) and at the end; continue it with `arbiter resume FILE`.
        #[arg(long)]
        save: Option<PathBuf>,
        /// Continue a saved game of GAME (the same as `arbiter resume FILE`).
        #[arg(long)]
        resume: Option<PathBuf>,
        /// Write a picture of the table (SVG) into this folder at the start of every turn and at
        /// the end, for games that draw one.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Who plays the seats no human plays: `random`, `greedy` or `mcts[:PLAYOUTS[:DEPTH]]` for
        /// every seat, `N=KIND` for seat N, `SIDE=KIND` for the seats on a side (repeatable).
        #[arg(long)]
        bots: Vec<String>,
        /// The longest a searching bot thinks about one decision, in seconds (1 to 3600; default
        /// 10): it answers then with the best it has found.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=3600))]
        think: Option<u64>,
    },
    /// Continue a saved game: its game, variants, players and seed come from the file, and it is
    /// saved back to the file as it goes (as `play --save`).
    Resume {
        /// A file written by `play --save FILE` or the `save` command.
        file: PathBuf,
        /// A seat (1, 2, ...) played at the terminal (repeatable; default: the seats saved).
        #[arg(long = "human")]
        humans: Vec<u8>,
        /// Print every event with its cause as the game goes.
        #[arg(long)]
        log: bool,
        /// Save to this file from now on instead of FILE.
        #[arg(long)]
        save: Option<PathBuf>,
        /// Write a picture of the table (SVG) into this folder every turn.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// The longest a searching bot thinks about one decision, in seconds (1 to 3600; default
        /// 10): it answers then with the best it has found.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=3600))]
        think: Option<u64>,
        /// Refused: a saved game goes on with the bots it was started with.
        #[arg(long, hide = true)]
        bots: Vec<String>,
    },
    /// Write an SVG picture of the table: at the end of a scenario, or of a saved game.
    Render {
        /// A scenario file, or a saved game (`.json`).
        file: PathBuf,
        /// Only the scenario with this id, when the file has several.
        #[arg(long)]
        id: Option<String>,
        /// The game a saved game must be of (it names its own game and variants).
        #[arg(long)]
        game: Option<String>,
        /// Where to write the picture (default: the file's name with `.svg`).
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
    /// Run scenario files and report `N passed, N failed`.
    Test {
        /// Scenario files or folders (default: tests/examples).
        paths: Vec<PathBuf>,
        /// Run every scenario with this variant switched on too (repeatable).
        #[arg(long = "variant")]
        variants: Vec<String>,
        /// Report only the scenario with this id (`CCG-07`, `brig-one-card`).
        #[arg(long)]
        id: Option<String>,
    },
    /// Show a scenario's trace: every event with the rule that caused it and its citation;
    /// `--why` walks back the causes of one event.
    Explain {
        /// A scenario file.
        scenario: PathBuf,
        /// Only the scenario with this id, when the file has several.
        #[arg(long)]
        id: Option<String>,
        /// Show the trace up to event N (events are numbered `#N`).
        #[arg(long)]
        at: Option<usize>,
        /// Why did this event happen: its number (`57`), or a text the event contains (the last
        /// such event).
        #[arg(long)]
        why: Option<String>,
        /// Print JSON for tools instead of text.
        #[arg(long)]
        json: bool,
        /// With `--why`: the lines each citation names, from the rulebook's text (beside the
        /// rulebook, or in the folder `ARBITER_SEEDS` names).
        #[arg(long, requires = "why")]
        quote: bool,
        /// Run it with this variant switched on too (repeatable).
        #[arg(long = "variant")]
        variants: Vec<String>,
    },
    /// List a game's variants and what each changes.
    Variants {
        game: String,
        /// Show one variant: each rule item it changes, as the game has it and as the variant has it.
        #[arg(long)]
        show: Option<String>,
    },
    /// Measure parse and check time and random games per second (`--parse`: every file's parse
    /// and check time).
    Bench {
        /// The game (not needed with `--parse`).
        game: Option<String>,
        /// Measure parsing and checking every rulebook, card and scenario file instead.
        #[arg(long)]
        parse: bool,
        /// Measure the language server instead: the time from an edit to its diagnostics, for a
        /// card file, rulebook files and a scenario file.
        #[arg(long)]
        lsp: bool,
        #[arg(long, default_value_t = 200)]
        games: u64,
        /// How many players; `3-6` spreads the games over each count in turn.
        #[arg(long)]
        players: Option<String>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A variant to switch on (repeatable).
        #[arg(long = "variant")]
        variants: Vec<String>,
        /// Also show which functions and modifiers the evaluation steps go to.
        #[arg(long)]
        profile: bool,
        /// Who plays the seats no human plays: `random`, `greedy` or `mcts[:PLAYOUTS[:DEPTH]]` for
        /// every seat, `N=KIND` for seat N, `SIDE=KIND` for the seats on a side (repeatable).
        #[arg(long)]
        bots: Vec<String>,
    },
    /// Play many seeded games on every core and report win rates, endings and game lengths with
    /// 95% intervals; `--compare` plays the same seeds under other variants and says whether the
    /// differences are significant. `arbiter sim merge FILE...` adds up a sharded run's JSON.
    Sim {
        /// The game, or `merge` to add up the JSON files of a sharded run.
        game: String,
        /// With `merge`: the shards' JSON files.
        files: Vec<PathBuf>,
        /// How many players (default: the game's fewest).
        #[arg(long)]
        players: Option<usize>,
        /// A variant to switch on in every rule set (repeatable).
        #[arg(long = "variant")]
        variants: Vec<String>,
        /// `SEAT=FILE` or `SEAT=NAME`: the deck for a seat (repeatable).
        #[arg(long = "deck")]
        decks: Vec<String>,
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Game `i` uses seed `SEED + i`, whatever the threads or shards.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Another rule set to play the same seeds under: variants joined by commas, on top of
        /// `--variant` (repeatable).
        #[arg(long)]
        compare: Vec<String>,
        /// Write the results as JSON (what `sim merge` reads).
        #[arg(long)]
        json: Option<PathBuf>,
        /// Write the results as CSV.
        #[arg(long)]
        csv: Option<PathBuf>,
        /// Draw the win rates with their intervals, and the game lengths, as an SVG chart.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// `K/N`: play only the K-th of N equal slices of the games (merge the JSON with `sim merge`).
        #[arg(long)]
        shard: Option<String>,
        /// Worker threads (default: one per core).
        #[arg(long)]
        jobs: Option<usize>,
        /// Per-card statistics for every seat (they are shown anyway for each seat given a deck).
        #[arg(long)]
        cards: bool,
        /// Who plays the seats no human plays: `random`, `greedy` or `mcts[:PLAYOUTS[:DEPTH]]` for
        /// every seat, `N=KIND` for seat N, `SIDE=KIND` for the seats on a side (repeatable).
        #[arg(long)]
        bots: Vec<String>,
        /// The longest a searching bot thinks about one decision, in seconds (1 to 3600; default:
        /// no limit, so that a seed plays the same on any machine): it answers then with the best
        /// it has found. The report counts the decisions the limit cut short.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=3600))]
        think: Option<u64>,
    },
}

/// Run the command line; the result is the process exit code.
pub fn main_with(cli: Cli) -> i32 {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let project = match crate::check::project::Project::find(&cwd).with_rules(&cli.rules) {
        Ok(p) => p,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    // A command about one game refuses files for another rather than leave them out unsaid.
    let one_game = match &cli.command {
        Command::Play { game, .. } | Command::Variants { game, .. } => Some(game.as_str()),
        Command::Bench { game, .. } => game.as_deref(),
        Command::Sim { game, .. } if game != "merge" => Some(game.as_str()),
        _ => None,
    };
    if let Some(game) = one_game
        && let Err(e) = project.rules_not_for(game)
    {
        match e.help() {
            Some(help) => errln!("error: {e}\n  help: {help}"),
            None => errln!("error: {e}"),
        }
        return 2;
    }
    match cli.command {
        Command::Serve { port, host, saves, think, bot_idle } => {
            let project = project.clone();
            let mut limits = crate::web::BotLimits::default();
            limits.think = think.map_or(limits.think, std::time::Duration::from_secs);
            limits.idle = bot_idle.map_or(limits.idle, std::time::Duration::from_secs);
            match crate::web::serve(project, &host, port, saves, limits, |addr| {
                outln!("the web table is at http://{addr}/ (Ctrl-C stops it)")
            }) {
                Ok(()) => 0,
                Err(e) => {
                    let d = e.to_diag();
                    errln!("error: {}", d.message);
                    if let Some(help) = d.help {
                        errln!("  help: {help}");
                    }
                    1
                }
            }
        }
        Command::Fmt { paths, check } => fmt::run(&project, &paths, check),
        Command::Lsp { root } => match crate::lsp::run(root) {
            Ok(()) => 0,
            Err(e) => {
                errln!("error: {e}");
                1
            }
        },
        Command::Check { paths, game, variants } => {
            // `check --rules FILE` checks the user's files (with the paths named, if any).
            let paths = if paths.is_empty() && !project.rules.is_empty() {
                project.rules.clone()
            } else {
                paths.into_iter().chain(project.rules.iter().cloned()).collect()
            };
            check::run(&project, &paths, game.as_deref(), &variants)
        }
        Command::Play { game, players, seed, variants, humans, view, decks, log, save, resume, svg, bots, think } => {
            let opts = play::PlayOptions { game, players, seed, variants, humans, view, decks, log, resume, save, svg, bots, think };
            play::run(&project, &opts)
        }
        Command::Resume { file, bots, .. } if !bots.is_empty() => {
            errln!("error: `{}` goes on with the bots it was started with; `--bots` cannot change them", file.display());
            errln!(
                "  help: leave out `--bots` (`--human N` may still take a seat), or start a new game with `arbiter play GAME --bots ...`"
            );
            2
        }
        Command::Resume { file, humans, log, save, svg, think, .. } => {
            play::resume(&project, &play::ResumeOptions { file, game: None, variants: vec![], humans, log, save, svg, think })
        }
        Command::Render { file, id, game, out } => render::run(&project, &render::Options { file, id, game, out }),
        Command::Test { paths, variants, id } => test::run(&project, &paths, &variants, id.as_deref()),
        Command::Explain { scenario, id, at, why, json, quote, variants } => {
            test::explain(&project, &scenario, &test::ExplainOptions { id, at, why, json, quote }, &variants)
        }
        Command::Variants { game, show } => check::variants(&project, &game, show.as_deref()),
        Command::Bench { game, parse, lsp, games, players, seed, variants, profile, bots } => {
            bench::run(&project, &bench::Options { game, parse, lsp, games, players, seed, variants, profile, bots })
        }
        Command::Sim { game, files, players, variants, decks, games, seed, compare, json, csv, svg, shard, jobs, cards, bots, think } => {
            let o = sim::Options {
                game,
                files,
                players,
                variants,
                decks,
                games,
                seed,
                compare,
                json,
                csv,
                svg,
                shard,
                jobs,
                cards,
                bots,
                think,
            };
            sim::run(&project, &o)
        }
    }
}
