//! `arbiter play`: a whole game with seeded random bots and any human seats.

use super::human::Human;
use crate::agents::{BotPlan, Bots};
use crate::check::project::Project;
use crate::diag;
use crate::ir::Game;
use crate::runtime::decks;
use crate::runtime::decks::{DeckChoiceError, choose_decks_by};
use crate::runtime::state::{Decision, Mode, State};
use crate::runtime::view::result_line;
use crate::runtime::{AnswerError, Engine, Setup, Status, talk, view};
use crate::save::{self, Header, Saver};
use crate::syntax::budgets::{PICTURES_WRITTEN_LIMIT, PLAY_THINK};
use crate::syntax::diag::Diag;
use crate::syntax::span::{FileId, Span};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub struct PlayOptions {
    pub game: String,
    pub players: Option<usize>,
    pub seed: Option<u64>,
    pub variants: Vec<String>,
    pub humans: Vec<u8>,
    /// Bots play every seat; print only what this seat (1, 2, ...) sees.
    pub view: Option<u8>,
    pub decks: Vec<String>,
    pub log: bool,
    pub resume: Option<PathBuf>,
    pub save: Option<PathBuf>,
    pub svg: Option<PathBuf>,
    /// `--bots` values: who plays the seats no human plays.
    pub bots: Vec<String>,
    /// `--think`: the longest a searching bot thinks about one decision, in seconds.
    pub think: Option<u64>,
}

/// A seat's deck as `--deck` names it.
pub enum DeckArg {
    /// A file holding a deck (the first, if it holds several).
    File(PathBuf),
    /// A deck's name, from the game's files or the user's own (`--rules`).
    Name(String),
}

/// Why the decks named with `--deck` cannot be dealt (`seat`: from 0).
#[derive(Debug, thiserror::Error)]
pub enum DeckArgError {
    /// A value that is not `SEAT=FILE` or `SEAT=NAME`.
    #[error("`--deck {0}`: write it as SEAT=FILE or SEAT=\"Deck Name\", like `--deck 1=my-deck.arb`")]
    Form(String),
    #[error("`--deck {arg}`: `{seat}` is not a seat number")]
    Seat { arg: String, seat: String },
    #[error("the deck file for seat {} holds no `deck` (a file of cards only goes with `--rules FILE`)", .seat + 1)]
    NoDeckInFile { seat: usize },
    /// No file and no deck of that name; `help`: the deck meant, or the decks there are.
    #[error("`--deck {}={name}`: no such file, and no deck named `{name}`\n  help: {help}", .seat + 1)]
    NoSuchDeck { seat: usize, name: String, help: String },
    #[error(transparent)]
    Choice(#[from] DeckChoiceError),
}

impl DeckArgError {
    pub fn to_diag(&self) -> Diag {
        let (message, help) = match self {
            DeckArgError::Form(_) | DeckArgError::Seat { .. } => {
                (self.to_string(), "`--deck SEAT=FILE` or `--deck SEAT=\"Deck Name\"`, seats from 1".to_string())
            }
            DeckArgError::NoDeckInFile { seat } => (
                format!("the deck file for seat {} holds no `deck`", seat + 1),
                "a file of cards only goes with `--rules FILE`".to_string(),
            ),
            DeckArgError::NoSuchDeck { seat, name, help } => {
                (format!("`--deck {}={name}`: no such file, and no deck named `{name}`", seat + 1), help.clone())
            }
            DeckArgError::Choice(e) => return e.to_diag(),
        };
        Diag::error(Span::NONE, message).help(help)
    }
}

impl From<DeckArgError> for Diag {
    fn from(e: DeckArgError) -> Diag {
        e.to_diag()
    }
}

/// The index in `game.decks` of each seat's deck named with `--deck`.
pub(super) fn deck_indices(
    game: &Game,
    files: &[crate::syntax::span::SourceFile],
    project: &Project,
    wanted: &[(usize, DeckArg)],
) -> Result<Vec<(usize, usize)>, DeckArgError> {
    let mut out = Vec::new();
    for (seat, arg) in wanted {
        let found = match arg {
            DeckArg::File(p) => {
                let name = project.display(p);
                match files.iter().find(|f| f.name == name) {
                    Some(f) => crate::runtime::decks::deck_in_file(game, f.id, *seat)?,
                    None => return Err(DeckArgError::NoDeckInFile { seat: *seat }),
                }
            }
            DeckArg::Name(n) => game.decks.iter().position(|d| d.name == *n).ok_or_else(|| {
                let help = diag::did_you_mean(n, game.decks.iter().map(|d| d.name.as_str())).unwrap_or_else(|| {
                    format!(
                        "decks here: {}; a deck in a file of your own is loaded with `--rules FILE`, or given as `--deck {}=FILE`",
                        game.decks.iter().map(|d| format!("\"{}\"", d.name)).collect::<Vec<_>>().join(", "),
                        seat + 1
                    )
                });
                DeckArgError::NoSuchDeck { seat: *seat, name: n.clone(), help }
            })?,
        };
        out.push((*seat, found));
    }
    Ok(out)
}

/// `--deck SEAT=FILE` (a file holding a deck) or `--deck SEAT=NAME` (a deck of the game's or of a
/// `--rules` file, by its name): each seat's choice (seats from 0), the files to load with the
/// game, and the choices as a saved game records them.
pub(super) type DeckArgs = (Vec<(usize, DeckArg)>, Vec<PathBuf>, Vec<String>);

pub(super) fn deck_args(decks: &[String]) -> Result<DeckArgs, DeckArgError> {
    let mut wanted: Vec<(usize, DeckArg)> = Vec::new();
    let mut extra = Vec::new();
    let mut deck_args = Vec::new();
    for d in decks {
        let Some((seat, what)) = d.split_once('=') else {
            return Err(DeckArgError::Form(d.clone()));
        };
        let Some(seat) = seat.parse::<usize>().ok().filter(|s| *s >= 1) else {
            return Err(DeckArgError::Seat { arg: d.clone(), seat: seat.to_string() });
        };
        if Path::new(what).is_file() {
            // The full path, so that a saved game finds the file again from any folder.
            let file = std::fs::canonicalize(what).unwrap_or_else(|_| PathBuf::from(what));
            deck_args.push(format!("{}={}", seat, file.display()));
            wanted.push((seat.saturating_sub(1), DeckArg::File(file.clone())));
            extra.push(file);
        } else {
            deck_args.push(format!("{seat}={what}"));
            wanted.push((seat.saturating_sub(1), DeckArg::Name(what.to_string())));
        }
    }
    Ok((wanted, extra, deck_args))
}

pub fn run(project: &Project, o: &PlayOptions) -> i32 {
    if let Some(file) = &o.resume {
        if o.players.is_some() || o.seed.is_some() || !o.decks.is_empty() || !o.bots.is_empty() {
            errln!("error: `--resume` goes on with the saved game's own players, seed, decks and bots");
            errln!("  help: leave out `--players`, `--seed`, `--deck` and `--bots`, or use `arbiter resume {}`", file.display());
            return 2;
        }
        let r = ResumeOptions {
            file: file.clone(),
            game: Some(o.game.clone()),
            variants: o.variants.clone(),
            humans: o.humans.clone(),
            log: o.log,
            save: o.save.clone(),
            svg: o.svg.clone(),
            think: o.think,
        };
        return resume(project, &r);
    }
    // With a human at the table, or a game shown as one seat sees it, the seed is drawn at random
    // unless given, and not shown until the game is over: whoever knows it can play the same game
    // with every card in view (a secrecy audit read a `--view` game's cards from its title).
    let one_seat = !o.humans.is_empty() || o.view.is_some();
    let seed = o.seed.unwrap_or_else(|| if one_seat { rand::random() } else { 1 });
    let (wanted, extra, deck_args) = match deck_args(&o.decks) {
        Ok(d) => d,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    let loaded = project.load(&o.game, &o.variants, &extra);
    let built = match &loaded.result {
        Ok(b) => b,
        Err(d) => {
            out!("{}", diag::render(d, &loaded.files));
            errln!("error: {} in `{}`", diag::summary(d), o.game);
            return 1;
        }
    };
    // What the rules as loaded warn of (a variant's change another drops): said before playing.
    if !built.warnings.is_empty() {
        errln!("{}", diag::render(&built.warnings, &loaded.files).trim_end());
    }
    let game = &built.game;
    let players = o.players.unwrap_or(game.min_players as usize);
    if let Some(wrong) = game.wrong_player_count(players) {
        errln!("error: {wrong}");
        return 2;
    }
    if let Some(&seat) = o.view.iter().chain(&o.humans).find(|s| **s == 0 || usize::from(**s) > players) {
        errln!("error: there is no seat {seat} in a {players}-player game (seats are 1 to {players})");
        return 2;
    }
    if let Some(refusal) = shared_screen(game, &o.humans) {
        errln!("{refusal}");
        return 2;
    }
    match BotPlan::parse(&o.bots, game, players) {
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
        Ok(plan) => {
            if let Some((seat, _)) = plan.seats.iter().find(|(s, _)| o.humans.contains(&(s + 1))) {
                errln!("error: seat {} is played by a human (`--human {0}`) and given a bot too", seat + 1);
                return 2;
            }
        }
    }
    let mut header = Header::new(game, &o.variants, &deck_args, players, seed, &o.humans);
    header.bots = o.bots.clone();
    header.rules = project.rules_for(&o.game).iter().map(|p| p.display().to_string()).collect();
    let saver = match Saver::new(header, game, o.save.clone(), None) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    let given = match deck_indices(game, &loaded.files, project, &wanted) {
        Ok(g) => g,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    let decklists = match choose_decks_by(game, players, &given) {
        Ok(d) => d,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    let files: Vec<FileId> = given.iter().filter_map(|(_, i)| game.decks.get(*i).map(|d| d.span.file)).collect();
    let mut bad = Vec::new();
    for d in &game.decks {
        if files.contains(&d.span.file) {
            bad.extend(decks::validate(game, d));
        }
    }
    if !bad.is_empty() {
        out!("{}", diag::render(&bad, &loaded.files));
        errln!("error: a deck breaks the deckbuilding rules");
        return 1;
    }
    let engine = Engine::new(game);
    let st = match engine.new_state(Mode::Game, Setup { players, seed, decklists }) {
        Ok(s) => s,
        Err(e) => {
            out!("{}", diag::render(&[e.to_diag()], &game.files));
            return 2;
        }
    };
    outln!("{}", title_line(game, players, seed, one_seat));
    drive(&engine, st, saver, Shown { log: o.log, view_seat: o.view, svg: o.svg.as_deref() }, think(o.think))
}

/// What `arbiter resume` (and `play --resume`) is told.
pub struct ResumeOptions {
    pub file: PathBuf,
    /// The game the file must be a save of (`play GAME --resume FILE`).
    pub game: Option<String>,
    /// The variants the file must have been saved with, when given.
    pub variants: Vec<String>,
    /// Seats played at the terminal (default: as saved).
    pub humans: Vec<u8>,
    pub log: bool,
    /// Where to save from now on (default: the file resumed from).
    pub save: Option<PathBuf>,
    pub svg: Option<PathBuf>,
    /// `--think`, as `play` takes it.
    pub think: Option<u64>,
}

/// Go on with a saved game: the game, variants, players and seed come from the file. A file that
/// is not a save of these rules is refused, and left as it is.
pub fn resume(project: &Project, r: &ResumeOptions) -> i32 {
    match save::load(project, &r.file, r.game.as_deref(), &r.variants) {
        Err(e) => {
            errln!("error: {e}");
            2
        }
        Ok((built, mut header, st)) => {
            let game = &built.game;
            if !r.humans.is_empty() {
                header.humans = r.humans.clone();
            }
            let (players, seed) = (header.players, header.seed);
            let target = r.save.clone().unwrap_or_else(|| r.file.clone());
            let saver = match Saver::new(header, game, Some(target), Some(&r.file)) {
                Ok(s) => s,
                Err(e) => {
                    errln!("error: {e}");
                    return 2;
                }
            };
            if let Some(refusal) = shared_screen(game, &saver.header.humans) {
                errln!("{refusal}");
                return 2;
            }
            // At a turn, not at a count of decisions (which counts only answers that had a choice:
            // two resumes' counts would tell which of the others' answers were the only one).
            outln!(
                "{} — resumed from {} at turn {}",
                title_line(game, players, seed, !saver.header.humans.is_empty()),
                r.file.display(),
                st.turns
            );
            drive(&Engine::new(game), st, saver, Shown { log: r.log, view_seat: None, svg: r.svg.as_deref() }, think(r.think))
        }
    }
}

/// The game, its players, its seed (hidden while a human plays: it is shown at the end) and its
/// variants.
fn title_line(game: &Game, players: usize, seed: u64, one_seat: bool) -> String {
    let variants = if game.active_variants.is_empty() { String::new() } else { format!(" with {}", game.active_variants.join(", ")) };
    let seed = if one_seat { "seed shown at the end".to_string() } else { format!("seed {seed}") };
    format!("{} — {players} players, {seed}{variants}", if game.title.is_empty() { &game.name } else { &game.title })
}

/// Why several human seats may not share this terminal: a game in which one player may know what
/// another may not would show it to the others on the one screen, which keeps what it showed (the
/// web table's hot-seat hands the screen over). None when they may (one human seat, or a game
/// that keeps nothing between its players, like tic-tac-toe).
fn shared_screen(game: &Game, humans: &[u8]) -> Option<String> {
    let mut seats: Vec<u8> = humans.to_vec();
    seats.sort_unstable();
    seats.dedup();
    (seats.len() > 1 && game.keeps_secrets_between_players()).then(|| {
        let seats: Vec<String> = seats.iter().map(|s| format!("P{s}")).collect();
        format!(
            "error: {} would share one screen, and {} keeps things from its players that one may know and another not (hands, secret choices, face-down cards): the screen would show each what the others know\n  help: play one human seat here, or several people at one screen at the web table (`arbiter serve`: its hot-seat hands the screen over from seat to seat)",
            seats.join(" and "),
            game.name
        )
    })
}

/// The most bytes of what happened since the last decision that are told before a rule error.
const TOLD_BEFORE_ERROR: usize = 64 * 1024;

/// A game stopped by a rule error: the error shown with its seed, to play it again; or, in a game
/// shown as one seat sees it, neither on the screen (the error's values and place may name what
/// the seat may not see, and the seed shows every card), but written to a file the user opens on
/// purpose, as the web table writes them to its console.
fn stopped_on_error(game: &Game, e: &crate::runtime::RtError, seed: u64, one_seat: bool) {
    let shown = diag::render(&[e.to_diag()], &game.files);
    if !one_seat {
        out!("{shown}");
        errln!("error: the game stopped on a rule error (seed {seed})");
        return;
    }
    let path = std::env::temp_dir().join(format!("arbiter-rule-error-{}.txt", std::process::id()));
    match std::fs::write(&path, format!("{shown}\nseed {seed}\n")) {
        Ok(()) => errln!(
            "error: the game stopped on a rule error; what and where, which may name what this seat may not see, are in {} (with the seed)",
            path.display()
        ),
        Err(_) => errln!("error: the game stopped on a rule error (play it without --human and --view to see it)"),
    }
}

/// How long a bot thinks about one decision at most: `--think` seconds, or `PLAY_THINK`.
fn think(seconds: Option<u64>) -> Duration {
    seconds.map_or(PLAY_THINK, Duration::from_secs)
}

/// What a game played at the terminal shows as it goes (`--log`, `--view`, `--svg`).
struct Shown<'a> {
    log: bool,
    view_seat: Option<u8>,
    svg: Option<&'a Path>,
}

/// Play a game from `st` to its end (or until a human leaves), saving as it goes (`Saver::autosave`).
/// Play on to the end: bots and humans answer, each bot thinking at most `think` a decision; the
/// log printed whole (`log`), or as one seat sees it (`view`, or the first human seat).
fn drive(engine: &Engine, mut st: State, mut saver: Saver, shown: Shown, think: Duration) -> i32 {
    let Shown { log, view_seat, svg } = shown;
    let game = engine.game;
    let seed = saver.header.seed;
    // A game shown as one seat sees it keeps its seed until it is over (`title_line`).
    let one_seat = !saver.header.humans.is_empty() || view_seat.is_some();
    let plan = match BotPlan::parse(&saver.header.bots, game, st.players.len()) {
        Ok(p) => p,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    if !plan.all_random() {
        let rest = if plan.every.is_some() { "" } else { "; any other seat no human plays: random" };
        outln!("bots: {}{rest}", plan.describe());
    }
    let mut bots = Bots::new(plan, seed).thinking_at_most(Some(think));
    let mut human = Human::new(saver.header.humans.iter().map(|h| h.saturating_sub(1)).collect());
    let mut printed = st.log.len();
    let mut pictured_turn: Option<u32> = None;
    let mut gallery = svg.map(|dir| Gallery { dir, written: 0 });
    // Pictures show what the seat viewed (or the first human seat) may see; everything only when
    // no one sits at the terminal.
    let pictured_for = view_seat.map(|v| v.saturating_sub(1)).or(human.seats.first().copied());
    if let Some(dir) = svg
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        errln!("error: cannot make `{}`: {e}", dir.display());
        return 2;
    }
    // With `--log`, every event with its cause, as the seat at the terminal may see it (all of
    // them when no one sits there); without it, the table talk (see runtime/talk.rs).
    let told = |st: &State, from: usize, seats: &[crate::ir::value::Seat]| {
        if log {
            events_since(game, st, from, pictured_for)
        } else if let Some(seat) = pictured_for {
            talk::table_talk(game, st, st.log.iter_from(from), seat, seats)
        } else {
            String::new()
        }
    };
    let tell = |st: &State, from: usize, seats: &[crate::ir::value::Seat]| out!("{}", told(st, from, seats));
    // Before a rule error, what happened since the last decision, its last `TOLD_BEFORE_ERROR`
    // bytes at most: a runaway rule may have logged megabytes.
    let tell_before_error = |st: &State, from: usize, seats: &[crate::ir::value::Seat]| {
        let text = told(st, from, seats);
        if text.len() <= TOLD_BEFORE_ERROR {
            out!("{text}");
            return;
        }
        let mut at = text.len() - TOLD_BEFORE_ERROR;
        while !text.is_char_boundary(at) {
            at += 1;
        }
        // From the start of a line, when that leaves something to tell.
        if let Some(i) = text.get(at..).and_then(|t| t.find('\n'))
            && at + i + 1 < text.len()
        {
            at += i + 1;
        }
        outln!("… ({at} bytes of what happened before the error are left out)");
        out!("{}", text.get(at..).unwrap_or(""));
    };
    loop {
        let status = match engine.advance(&mut st) {
            Ok(s) => s,
            Err(e) => {
                // What happened up to the error is told first, as it would have been.
                tell_before_error(&st, printed, &human.seats);
                stopped_on_error(game, &e, seed, one_seat);
                return 2;
            }
        };
        tell(&st, printed, &human.seats);
        printed = st.log.len();
        if let Some(g) = gallery.as_mut()
            && pictured_turn != Some(st.turns)
            && st.turns > 0
        {
            pictured_turn = Some(st.turns);
            if let Err(e) = g.draw(game, &st, &format!("turn-{:03}.svg", st.turns), &format!("turn {}", st.turns), pictured_for) {
                out!("{}", diag::render(&[e.to_diag()], &game.files));
                errln!("error: the picture of turn {} cannot be drawn", st.turns);
                return 2;
            }
        }
        // Saved where a human decides and at the end, flushed to the disk then; at a bot's decision,
        // as often as saving takes at most a tenth of the game's time (see `Saver::autosave`).
        let durable = status != Status::Decision || st.pending.as_ref().is_some_and(|d| human.seats.contains(&d.seat));
        if let Err(e) = saver.autosave(&st, durable) {
            errln!("error: {e}");
            errln!("  help: the game stopped here; the last save written is whole");
            return 2;
        }
        match status {
            Status::Ended | Status::Idle => break,
            Status::Decision => {
                let Some(d) = st.pending.clone() else { break };
                let taken = match answer_pending(engine, &mut st, &d, &mut human, &mut bots, &mut saver) {
                    Ok(true) => Ok(()),
                    Ok(false) => {
                        match &saver.path {
                            Some(p) => outln!("game left unfinished; it is saved in {0}: continue with `arbiter resume {0}`", p.display()),
                            None => match saver.last_written() {
                                // Saved at the prompt (`save FILE`): from there, not from here.
                                Some(p) => outln!(
                                    "game left unfinished; it was saved in {0} when `save` was typed: `arbiter resume {0}` goes on from there",
                                    p.display()
                                ),
                                None => outln!("game left unfinished"),
                            },
                        }
                        return 0;
                    }
                    Err(e) => Err(e),
                };
                match taken {
                    Ok(()) => {}
                    Err(AnswerError::Refused(e)) => {
                        errln!("error: the bot's answer was refused: {e}");
                        return 2;
                    }
                    Err(AnswerError::Rule(e)) => {
                        tell_before_error(&st, printed, &human.seats);
                        stopped_on_error(game, &e, seed, one_seat);
                        return 2;
                    }
                }
            }
        }
    }
    if let Some(g) = gallery.as_mut()
        && let Err(e) = g.draw(game, &st, "end.svg", "the end", pictured_for)
    {
        out!("{}", diag::render(&[e.to_diag()], &game.files));
        errln!("error: the picture of the end cannot be drawn");
        return 2;
    }
    // The table at the end, as the seat viewed (or the first human seat) sees it.
    if let Some(seat) = pictured_for {
        out!("the table as P{} sees it:\n{}", seat + 1, crate::runtime::picture::table_text(game, &st, seat));
    }
    match &st.result {
        Some(r) => outln!("{}", result_line(r, st.turns)),
        None => outln!("result: the game ended without a result"),
    }
    if one_seat {
        outln!("seed {seed} (`--seed {seed}` plays the same shuffles and dice again)");
    }
    0
}

/// The pending decision `d` answered, by the person at the terminal if they play its seat, else by
/// a bot: `Ok(false)` when the person left the game instead.
fn answer_pending(
    engine: &Engine,
    st: &mut State,
    d: &Decision,
    human: &mut Human,
    bots: &mut Bots,
    saver: &mut Saver,
) -> Result<bool, AnswerError> {
    if human.seats.contains(&d.seat) {
        human.ask(engine, st, d, saver).map_err(AnswerError::Rule)
    } else {
        let answer = bots.decide(engine, st, d).map_err(AnswerError::Rule)?;
        engine.answer(st, d.seat, &answer).map(|()| true)
    }
}

/// New events as the viewer sees them, runs of identical lines collapsed (`… ×60`).
pub fn events_since(game: &Game, st: &State, from: usize, viewer: Option<u8>) -> String {
    let events = st.log.iter_from(from);
    if viewer.is_none() {
        return view::trace_of(game, st, events, None, true);
    }
    let text = view::trace_of(game, st, events, viewer, false);
    let mut out = String::new();
    let mut last: Option<(&str, usize)> = None;
    let flush = |out: &mut String, last: Option<(&str, usize)>| {
        if let Some((l, n)) = last {
            if n > 1 {
                out.push_str(&format!("{l} ×{n}\n"));
            } else {
                out.push_str(&format!("{l}\n"));
            }
        }
    };
    for line in text.lines() {
        match last {
            Some((l, n)) if l == line => last = Some((l, n + 1)),
            _ => {
                flush(&mut out, last);
                last = Some((line, 1));
            }
        }
    }
    flush(&mut out, last);
    out
}

/// The pictures `play --svg` writes into a folder, a turn at a time, held to
/// `PICTURES_WRITTEN_LIMIT` bytes for the game: past it, no more are written (said once) and the
/// game goes on.
struct Gallery<'a> {
    dir: &'a Path,
    /// Bytes of the pictures drawn so far, those written and the first one refused.
    written: usize,
}

impl Gallery<'_> {
    /// Draw the table as `viewer` sees it into the file `name` of the folder, while there is room.
    fn draw(&mut self, game: &Game, st: &State, name: &str, title: &str, viewer: Option<u8>) -> Result<(), super::render::RenderError> {
        if self.written > PICTURES_WRITTEN_LIMIT {
            return Ok(());
        }
        let svg = crate::runtime::picture::svg(game, st, title, viewer)?;
        self.written = self.written.saturating_add(svg.len());
        if self.written > PICTURES_WRITTEN_LIMIT {
            errln!(
                "note: the pictures of this game would pass {} MiB in `{}`: no more are written (from `{name}` on)",
                PICTURES_WRITTEN_LIMIT >> 20,
                self.dir.display()
            );
            return Ok(());
        }
        super::render::write_svg(&self.dir.join(name), &svg)
    }
}

#[cfg(test)]
mod tests {
    use super::{DeckArgError, deck_args};
    use crate::diag::Diag;
    use crate::runtime::decks::DeckChoiceError;

    #[test]
    fn a_deck_argument_refused_is_a_diagnostic_with_its_message_and_help() {
        let Err(e) = deck_args(&["my-deck.arb".to_string()]) else { panic!("a deck with no seat") };
        assert!(matches!(e, DeckArgError::Form(_)), "{e:?}");
        assert_eq!(e.to_string(), "`--deck my-deck.arb`: write it as SEAT=FILE or SEAT=\"Deck Name\", like `--deck 1=my-deck.arb`");
        assert!(Diag::from(e).help.is_some_and(|h| h.contains("seats from 1")));
        let Err(e) = deck_args(&["one=x".to_string()]) else { panic!("a seat that is not a number") };
        assert_eq!(e.to_string(), "`--deck one=x`: `one` is not a seat number");
        // A message that ends with its help is printed whole; the diagnostic has the two apart.
        let e = DeckArgError::NoSuchDeck { seat: 0, name: "Knights".into(), help: "did you mean `Knight`?".into() };
        assert_eq!(e.to_string(), "`--deck 1=Knights`: no such file, and no deck named `Knights`\n  help: did you mean `Knight`?");
        let d = Diag::from(e);
        assert_eq!(d.message, "`--deck 1=Knights`: no such file, and no deck named `Knights`");
        assert_eq!(d.help.as_deref(), Some("did you mean `Knight`?"));
        let d = Diag::from(DeckArgError::NoDeckInFile { seat: 1 });
        assert_eq!(d.message, "the deck file for seat 2 holds no `deck`");
        assert_eq!(d.help.as_deref(), Some("a file of cards only goes with `--rules FILE`"));
        assert_eq!(DeckArgError::from(DeckChoiceError::NoDecks).to_string(), "no decks");
    }
}
