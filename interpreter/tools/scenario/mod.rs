//! Running a scenario: build the state, run what it says, answer decisions and script random
//! results in order, and check what it expects. A decision or a random result the scenario does
//! not script fails it, naming what was asked.

use arbiter_ir::scenario::{ExpectIr, RandomIr, ScenarioIr, Step};
use arbiter_ir::value::{Seat, Value};
use arbiter_ir::{ExprIr, Game};
use arbiter_runtime::eval::{Evaluator, new_env};
use arbiter_runtime::state::Tracing;
use arbiter_runtime::state::{Answer, Mode, ScriptedRandom, State};
use arbiter_runtime::{CauseRecorder, Engine, RtError, ScriptedResults, Setup, Status, view};
use arbiter_syntax::diag::Diag;
use arbiter_syntax::span::Span;

/// Why a scenario failed, and where.
#[derive(Debug, Clone)]
pub struct Failure {
    pub message: String,
    pub expected: Option<String>,
    pub actual: Option<String>,
    pub help: Option<String>,
    pub span: Span,
    /// A rule error's call sites: where the running procedures were called from, nearest first
    /// (boxed: a failure is the error of many results, and stays small).
    pub called_from: Box<Vec<Span>>,
}

impl Failure {
    /// The most characters of each of a failure's texts shown: a huge value or log is shown in
    /// part (a failed comparison of a text a hundred million characters long printed it whole).
    const SHOWN: usize = 2_000;

    fn clip(&mut self) {
        use arbiter_syntax::diag::clipped;
        self.message = clipped(&self.message, Self::SHOWN);
        for text in [&mut self.expected, &mut self.actual, &mut self.help].into_iter().flatten() {
            *text = clipped(text, Self::SHOWN);
        }
    }
}

mod expect;
use expect::expect;

pub struct Outcome {
    pub id: String,
    pub title: String,
    pub failures: Vec<Failure>,
    pub state: State,
    /// The causes recorded while it ran, for `arbiter explain --why`.
    pub tracing: Tracing,
    /// When asked for (a replay's picture at each step): the state after each step that logged
    /// events, with the length of the log then.
    pub snapshots: Vec<(usize, State)>,
}

impl Outcome {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// The readable trace: every event with its cause.
    pub fn trace(&self, game: &Game) -> String {
        view::trace(game, &self.state, None, true)
    }
}

fn fail(message: impl Into<String>, span: Span) -> Failure {
    Failure { message: message.into(), expected: None, actual: None, help: None, span, called_from: Box::default() }
}

fn rt_fail(e: RtError) -> Failure {
    let e = e.into_data();
    // Outside every rule item: the scenario's own statement or expression.
    let mut f = match e.rule {
        Some(r) => fail(format!("the rules stopped with an error (in {r}): {}", e.message), e.span),
        None => fail(format!("this scenario's statement stopped with an error: {}", e.message), e.span),
    };
    f.help = e.help;
    f.called_from = Box::new(e.called_from);
    f
}

/// Run one scenario; `snapshots` keeps the state after each step (`Outcome::snapshots`).
pub fn run(game: &Game, sc: &ScenarioIr, snapshots: bool) -> Outcome {
    // Random results come from the script; the causes `explain --why` walks back are recorded.
    let recorder = CauseRecorder::default();
    let results = ScriptedResults::default();
    let engine = Engine::new(game).with_tracer(&recorder).with_random(&results);
    let mut failures = Vec::new();
    let mut decklists = vec![indexmap::IndexMap::new(); sc.players];
    for (seat, deck) in &sc.decks {
        if let (Some(slot), Some(d)) = (decklists.get_mut(*seat), game.decks.get(*deck)) {
            *slot = arbiter_runtime::decks::expand(game, d);
        }
    }
    let setup = Setup { players: sc.players, seed: 0, decklists };
    let mut st = match engine.new_state(Mode::Scenario, setup) {
        Ok(s) => s,
        Err(e) => {
            let st = State::default();
            return Outcome {
                id: sc.id.clone(),
                title: sc.title.clone(),
                failures: vec![{
                    let mut f = rt_fail(e);
                    f.clip();
                    f
                }],
                state: st,
                tracing: Tracing::default(),
                snapshots: vec![],
            };
        }
    };
    if let Some(e) = st.envs.first_mut() {
        *e = new_env(sc.slots, vec![], None, None);
    }
    let mut stopped = false;
    let log_texts = expect::LogTexts::default();
    let keep = snapshots;
    let mut snapshots = Vec::new();
    // Where the last step that runs the rules began: the decisions settled at once since then
    // are the ones an `expect options` may check.
    let mut since = Since::default();
    for step in &sc.steps {
        let span = trimmed(game, step.span);
        // The decisions settled at once by the step before this one (an answer that names none
        // of the options may mean one of them, taken without asking).
        let before = since;
        if keep && snapshots.last().map_or(0, |(n, _)| *n) < st.log.len() {
            snapshots.push((st.log.len(), st.clone()));
        }
        if let (Step::Exec(_) | Step::Run(_) | Step::Answer { .. }, Some(r)) = (&step.step, &st.result) {
            let what = if matches!(step.step, Step::Answer { .. }) { "answered" } else { "run" };
            let mut f = fail(format!("the game is over: nothing more can be {what}"), span);
            f.actual = Some(view::result_text(r));
            f.help = Some("end the scenario before this line, or check the result with `expect winner ..`".into());
            failures.push(f);
            break;
        }
        if matches!(step.step, Step::Exec(_) | Step::Run(_) | Step::Answer { .. }) {
            since = Since { log: st.log.len(), settled: recorder.settled_count() };
        }
        if let (Step::Exec(_) | Step::Run(_), Some(d)) = (&step.step, &st.pending) {
            let mut f = fail(format!("P{} is still deciding — {}", d.seat + 1, d.prompt), span);
            f.actual = Some(format!("options: {}", d.labels().join(" | ")));
            f.help = Some("answer the decision first (or end the scenario with `stop`)".into());
            failures.push(f);
            break;
        }
        let r: Result<(), Failure> = match &step.step {
            Step::Exec(block) => run_block(&engine, &mut st, *block, span),
            Step::Run(call) => engine.do_call(&mut st, call, 0, None).map_err(rt_fail).and_then(|_| advance(&engine, &mut st)),
            Step::Answer { who, value } => answer(&engine, &mut st, who, value, span),
            Step::Random(r) => script_random(&results, game, &st, r),
            Step::Expect(ExpectIr::Refused { who, value, fragment }) => refused(&engine, &mut st, who, value, fragment.as_deref(), span),
            Step::Expect(e) => expect(&engine, &recorder, &st, e, since, span, &log_texts),
            Step::Stop => {
                stopped = true;
                Ok(())
            }
        };
        if let Err(mut f) = r {
            add_help(&mut f, game, sc, step, &st);
            if let Step::Answer { who, .. } | Step::Expect(ExpectIr::Refused { who, .. }) = &step.step
                && let Ok(Value::Player(seat)) = eval0(&engine, &st, who)
            {
                let settled: Vec<_> = recorder.settled_since(before.settled).into_iter().filter(|x| x.seat == seat).collect();
                settled_help(&mut f, &settled);
            }
            failures.push(f);
            // A failed expectation lets the scenario go on (to report the next ones too), unless
            // it was a refusal that was taken: the state is no longer the scenario's.
            if !matches!(&step.step, Step::Expect(e) if !matches!(e, ExpectIr::Refused { .. })) {
                break;
            }
        }
        if stopped {
            break;
        }
    }
    if failures.is_empty() && !stopped {
        if let Some(d) = &st.pending {
            let mut f = fail(format!("unscripted decision: P{} must choose — {}", d.seat + 1, d.prompt), d.cause.span);
            f.actual = Some(format!("options: {}", d.labels().join(" | ")));
            f.expected = Some("an `answer` for it, or `stop` to end the scenario here".into());
            failures.push(f);
        }
        let unused = results.left();
        if unused > 0 {
            failures.push(fail(format!("{unused} scripted random result(s) were never used"), sc.span));
        }
    }
    for f in &mut failures {
        f.clip();
    }
    let tracing = recorder.take();
    Outcome { id: sc.id.clone(), title: sc.title.clone(), failures, state: st, tracing, snapshots }
}

/// Run a block of the scenario's own statements to the end (or to a decision); the game ending
/// before they are all done fails the step.
fn run_block(engine: &Engine, st: &mut State, block: arbiter_ir::BlockId, span: Span) -> Result<(), Failure> {
    let depth = st.frames.len();
    st.frames.push(arbiter_runtime::state::Frame { kind: arbiter_runtime::state::FrameKind::Block { block, pc: 0 }, env: 0 });
    advance(engine, st).and_then(|_| match &st.result {
        Some(r) if st.frames.len() > depth => {
            let mut f = fail("the game ended before these statements were all done", span);
            f.actual = Some(view::result_text(r));
            Err(f)
        }
        _ => Ok(()),
    })
}

/// The help a failed step's failure gets: where the random result it needed is scripted (too
/// late), and the decision waiting meanwhile.
fn add_help(f: &mut Failure, game: &Game, sc: &ScenarioIr, step: &arbiter_ir::scenario::StepAt, st: &State) {
    let span = trimmed(game, step.span);
    // A random result the step needed, scripted further down: name the line to move.
    if f.message.contains("unscripted random result")
        && let Some(later) = sc.steps.iter().skip_while(|s| !std::ptr::eq(*s, step)).find(|s| matches!(s.step, Step::Random(_)))
        && let Some(file) = game.file(later.span.file)
    {
        let (line, _) = file.line_col(later.span.start as usize);
        let (here, _) = file.line_col(span.start as usize);
        // Each statement's first line (a step's span may run on over a comment below it).
        let first = |sp: Span| file.slice(sp).lines().next().unwrap_or_default().trim().to_string();
        let (text, step_text) = (first(later.span), first(span));
        f.help = Some(format!(
            "`{text}` ({}:{line}) is scripted after the step that needed it: move it above `{step_text}` (line {here})",
            file.name
        ));
    }
    // An expectation that fails while a decision waits says whose it is and what it asks.
    if let (Step::Expect(_), Some(d)) = (&step.step, &st.pending)
        && !(f.message.contains(d.prompt.as_ref()) || f.actual.as_ref().is_some_and(|a| a.contains(d.prompt.as_ref())))
    {
        let waiting = format!("meanwhile P{} is deciding: {} (options: {})", d.seat + 1, d.prompt, d.labels().join(" | "));
        f.help = Some(match f.help.take() {
            Some(h) => format!("{h}\n{waiting}"),
            None => waiting,
        });
    }
}

/// A statement's span without the blank space after it (so that a failure underlines the line).
fn trimmed(game: &Game, span: Span) -> Span {
    let Some(file) = game.file(span.file) else { return span };
    let text = file.slice(span);
    let end = span.start as usize + text.trim_end().len();
    Span::new(span.file, span.start as usize, end)
}

/// A failed answer's help, when decisions of the answering seat were taken at once since the
/// step before it: which (a decision with one possible answer is not asked, so an answer meant for
/// it meets the next one).
fn settled_help(f: &mut Failure, settled: &[arbiter_runtime::trace::Settled]) {
    if settled.is_empty() {
        return;
    }
    let taken: Vec<String> = settled
        .iter()
        .map(|x| match x.options.as_slice() {
            [] => format!("P{}'s `{}` (no options: nothing was chosen)", x.seat + 1, x.prompt),
            options => format!("P{}'s `{}` (options: {})", x.seat + 1, x.prompt, options.join(" | ")),
        })
        .collect();
    let said = format!(
        "taken at once since the step before, with one possible answer and so not asked: {}; `expect options` checks such a decision",
        taken.join("; ")
    );
    f.help = Some(match f.help.take() {
        Some(h) => format!("{h}\n{said}"),
        None => said,
    });
}

/// Where the last step that ran the rules began: the log's length and the number of decisions
/// settled at once then.
#[derive(Debug, Clone, Copy, Default)]
struct Since {
    log: usize,
    settled: usize,
}

fn advance(engine: &Engine, st: &mut State) -> Result<(), Failure> {
    match engine.advance(st) {
        Ok(Status::Decision | Status::Ended | Status::Idle) => Ok(()),
        Err(e) => Err(rt_fail(e)),
    }
}

fn eval0(engine: &Engine, st: &State, e: &ExprIr) -> Result<Value, Failure> {
    let mut env = st.envs.first().cloned().unwrap_or_else(|| new_env(0, vec![], None, None));
    Evaluator::new(engine.game, st).eval(e, &mut env).map_err(rt_fail)
}

/// The seat `who` names, for the statement `what` (`expect decision`): a failure where it names
/// no player.
fn seat_of(engine: &Engine, st: &State, who: &ExprIr, what: &str) -> Result<Seat, Failure> {
    match eval0(engine, st, who)? {
        Value::Player(p) => Ok(p),
        _ => Err(fail(format!("`{what}` needs a player"), who.span)),
    }
}

fn answer(engine: &Engine, st: &mut State, who: &ExprIr, value: &ExprIr, span: Span) -> Result<(), Failure> {
    let (seat, idx) = chosen(engine, st, who, value, span)??;
    match engine.answer(st, seat, &Answer(idx)) {
        Ok(()) => {}
        Err(arbiter_runtime::AnswerError::Refused(m)) => return Err(fail(format!("the answer was refused: {m}"), span)),
        Err(arbiter_runtime::AnswerError::Rule(e)) => return Err(rt_fail(e)),
    }
    advance(engine, st)
}

/// The seat answering and the options its answer names; `Ok(Err(..))` when the answer names
/// something that is not an option (a refusal `expect refused` accepts); `Err` when the answer
/// can't be made at all (nobody is deciding, or someone else is).
fn chosen(engine: &Engine, st: &State, who: &ExprIr, value: &ExprIr, span: Span) -> Result<Result<(u8, Vec<usize>), Failure>, Failure> {
    let seat = match eval0(engine, st, who)? {
        Value::Player(p) => p,
        other => return Err(fail(format!("`answer` needs a player, found {}", other.type_name()), who.span)),
    };
    let Some(d) = st.pending.as_ref() else {
        return Err(fail(format!("P{} was to answer, but nobody is deciding", seat + 1), span));
    };
    if d.seat != seat {
        let mut f = fail(format!("P{} was to answer, but P{} is deciding: {}", seat + 1, d.seat + 1, d.prompt), span);
        f.actual = Some(format!("options: {}", d.labels().join(" | ")));
        return Err(f);
    }
    let labels = d.labels();
    let evaluator = Evaluator::new(engine.game, st);
    let wanted = eval0(engine, st, value)?;
    let find = |v: &Value| -> Result<usize, Failure> {
        if let Value::Text(t) = v
            && let Some(i) = labels.iter().position(|l| l == t.as_ref())
        {
            return Ok(i);
        }
        let mut walk = arbiter_syntax::budgets::SIZE_BUDGET as u64;
        if let Some(i) = d.options.iter().position(|c| c.value.equal_within(v, &mut walk) == Some(true)) {
            return Ok(i);
        }
        let mut f = fail(format!("`{}` is not one of the options for: {}", evaluator.label_clipped(v, 200), d.prompt), span);
        f.actual = Some(format!("options: {}", labels.join(" | ")));
        Err(f)
    };
    let idx = match &wanted {
        Value::List(items) => items.iter().map(find).collect::<Result<Vec<_>, _>>(),
        v => find(v).map(|i| vec![i]),
    };
    Ok(idx.map(|i| (seat, i)))
}

/// `expect refused answer P X`: the answer is not taken — it names no option, or the engine
/// refuses it — with a message containing `fragment`; the decision stays pending, nothing changes.
fn refused(engine: &Engine, st: &mut State, who: &ExprIr, value: &ExprIr, fragment: Option<&str>, span: Span) -> Result<(), Failure> {
    let message = match chosen(engine, st, who, value, span)? {
        Err(f) => f.message,
        Ok((seat, idx)) => {
            let before = st.log.len();
            match engine.answer(st, seat, &Answer(idx)) {
                Err(arbiter_runtime::AnswerError::Refused(m)) => m,
                Err(arbiter_runtime::AnswerError::Rule(e)) => return Err(rt_fail(e)),
                Ok(()) => {
                    let taken = st.log.get(before).map(|e| view::event_text(engine.game, st, e, None));
                    let mut f = fail("the answer was to be refused, but it was taken", span);
                    f.actual = taken;
                    // The scenario can't go on from a decision it meant not to make.
                    return Err(f);
                }
            }
        }
    };
    match fragment {
        Some(part) if !message.contains(part) => {
            let mut f = fail("the answer was refused, with another message", span);
            f.expected = Some(part.to_string());
            f.actual = Some(message);
            Err(f)
        }
        _ => Ok(()),
    }
}

fn script_random(results: &ScriptedResults, game: &Game, st: &State, r: &RandomIr) -> Result<(), Failure> {
    results.push(scripted_value(game, st, r)?);
    Ok(())
}

fn scripted_value(game: &Game, st: &State, r: &RandomIr) -> Result<ScriptedRandom, Failure> {
    let evaluator = Evaluator::new(game, st);
    let mut env = st.envs.first().cloned().unwrap_or_else(|| new_env(0, vec![], None, None));
    let item = match r {
        RandomIr::Roll(e) => match evaluator.eval(e, &mut env).map_err(rt_fail)? {
            Value::Int(n) => ScriptedRandom::Roll(n),
            other => return Err(fail(format!("`random roll` needs a number, found {}", other.type_name()), e.span)),
        },
        RandomIr::Keep => ScriptedRandom::Keep,
        RandomIr::Order(e) => ScriptedRandom::Order(evaluator.list_of(e, &mut env).map_err(rt_fail)?.as_ref().clone()),
        RandomIr::Pick(e) => ScriptedRandom::Pick(evaluator.eval(e, &mut env).map_err(rt_fail)?),
    };
    Ok(item)
}

/// One scenario of a file, run against its game (shared by the file's scenarios that ask for the
/// same variants).
pub struct FileOutcome {
    pub game: std::sync::Arc<Game>,
    pub outcome: Outcome,
    pub files: std::sync::Arc<[arbiter_syntax::span::SourceFile]>,
    /// The checker's warnings about this scenario's own lines (`arbiter test` shows them).
    pub warnings: Vec<Diag>,
}

/// Source files, shared.
type Sources = std::sync::Arc<[arbiter_syntax::span::SourceFile]>;

/// A game compiled for a file's scenarios with one set of variants: the game, the file's compiled
/// scenarios and the source files; or the diagnostics and their files.
type ForFile = Result<(std::sync::Arc<Game>, Vec<ScenarioIr>, Sources, Vec<Diag>), (Vec<Diag>, Sources)>;

/// Why a scenario file cannot be run. Its text is what `arbiter test` prints: a file that does not
/// parse or check shows its diagnostics rendered with their source lines.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioFileError {
    /// The file cannot be read.
    #[error("{0}")]
    Read(arbiter_check::project::ProjectError),
    /// The file does not parse, or its game does not check with it: every diagnostic, with the
    /// files they point into.
    #[error("{}", arbiter_syntax::diag::render(.diags, .files))]
    Diags { diags: Vec<Diag>, files: Sources },
    /// A scenario (`id`) with no `game` line.
    #[error("scenario `{id}` in {path} does not say which game it is for")]
    NoGame { id: String, path: String },
    #[error("scenario `{0}` was not compiled")]
    NotCompiled(String),
}

impl ScenarioFileError {
    /// The diagnostic: the first error (the first of the file's or its game's, where there are
    /// several: `Diags` holds them all).
    pub fn to_diag(&self) -> Diag {
        match self {
            ScenarioFileError::Read(e) => e.to_diag(),
            ScenarioFileError::Diags { diags, .. } => match diags.iter().find(|d| d.is_error()).or(diags.first()) {
                Some(d) => d.clone(),
                None => Diag::error(Span::NONE, "the file does not check"),
            },
            ScenarioFileError::NoGame { id, path } => {
                Diag::error(Span::NONE, format!("scenario `{id}` in {path} does not say which game it is for"))
                    .help("give the scenario a line `game GAME`")
            }
            ScenarioFileError::NotCompiled(_) => {
                Diag::error(Span::NONE, self.to_string()).help("this is a bug in Arbiter: every scenario of a file that checks is compiled")
            }
        }
    }
}

impl From<ScenarioFileError> for Diag {
    fn from(e: ScenarioFileError) -> Diag {
        e.to_diag()
    }
}

/// Run every scenario in a file. Errors (the file or its game does not check) come back with their
/// diagnostics, rendered when shown.
pub fn run_file(project: &arbiter_check::project::Project, path: &std::path::Path) -> Result<Vec<FileOutcome>, ScenarioFileError> {
    run_file_with(project, path, &[])
}

/// Run every scenario in a file with these variants switched on as well as the scenario's own.
pub fn run_file_with(
    project: &arbiter_check::project::Project,
    path: &std::path::Path,
    variants: &[String],
) -> Result<Vec<FileOutcome>, ScenarioFileError> {
    run_file_shared(project, path, variants, &Bases::default(), false)
}

/// Games compiled up to their scenarios, by game and set of variants, for the scenario files run
/// with one `Bases` to share (`Project::load_scenario`), as `arbiter check` shares them: the game
/// is compiled once per set of variants, not once per scenario. Each is compiled when first asked
/// for, on whichever thread asks, inside `OnceLock::get_or_init`: compiling must not wait for
/// other rayon work (it runs none), or a thread could wait on itself.
#[derive(Default)]
pub struct Bases(BaseMap);

type BaseCell = std::sync::Arc<std::sync::OnceLock<Option<arbiter_check::project::Base>>>;
type BaseMap = std::sync::Mutex<std::collections::HashMap<(String, Vec<String>), BaseCell>>;

impl Bases {
    fn cell(&self, game: &str, variants: &[String]) -> BaseCell {
        let mut map = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        map.entry((game.to_string(), variants.to_vec())).or_default().clone()
    }
}

/// `run_file_with`, sharing the games compiled in `bases`; `snapshots` keeps each scenario's states
/// step by step (`Outcome::snapshots`, for a replay). A file with fixture files beside it is
/// compiled with them on its own. Scenarios of the file that ask for the same variants share one
/// compilation; the result is what loading the file with the game would give (tests/examples.rs
/// compares the two for every set of variants of every scenario file without fixtures).
pub fn run_file_shared(
    project: &arbiter_check::project::Project,
    path: &std::path::Path,
    variants: &[String],
    bases: &Bases,
    snapshots: bool,
) -> Result<Vec<FileOutcome>, ScenarioFileError> {
    let file = match arbiter_check::project::peek(project, path) {
        Ok(f) => f,
        // A syntax error is shown at its place, with its source line.
        Err(e) => {
            return Err(match arbiter_check::project::syntax_error(project, path) {
                Some((source, d)) => ScenarioFileError::Diags { diags: vec![d], files: std::sync::Arc::from([source]) },
                None => ScenarioFileError::Read(e),
            });
        }
    };
    let extras = arbiter_check::project::scenario_extras(project, path);
    let mut compiled: Vec<(String, Vec<String>, ForFile)> = Vec::new();
    let mut out = Vec::new();
    let name = project.display(path);
    for it in &file.items {
        let arbiter_syntax::ast::Item::Scenario(s) = &it.node else { continue };
        let mut d = Vec::new();
        let h = arbiter_check::scenario::header(s, &mut d);
        let Some(game) = h.game else {
            return Err(ScenarioFileError::NoGame { id: s.id.node.clone(), path: path.display().to_string() });
        };
        let mut wanted = variants.to_vec();
        for v in h.variants {
            if !wanted.contains(&v) {
                wanted.push(v);
            }
        }
        let known = compiled.iter().position(|(g, v, _)| *g == game && *v == wanted);
        let at = match known {
            Some(i) => i,
            None => {
                let shared = if extras.len() == 1 {
                    let cell = bases.cell(&game, &wanted);
                    let base = cell.get_or_init(|| project.compile_base(&game, &wanted, &[]));
                    base.as_ref().and_then(|b| project.load_scenario(b, path))
                } else {
                    None
                };
                let loaded = shared.unwrap_or_else(|| project.load(&game, &wanted, &extras));
                let built = match loaded.result {
                    Ok(b) => Ok((std::sync::Arc::new(b.game), b.scenarios, loaded.files.into(), b.warnings)),
                    Err(diags) => Err((diags, loaded.files.into())),
                };
                compiled.push((game, wanted, built));
                compiled.len() - 1
            }
        };
        let (game, scenarios, files, warnings) = match compiled.get(at).map(|(_, _, b)| b) {
            Some(Ok(b)) => b,
            Some(Err((diags, files))) => return Err(ScenarioFileError::Diags { diags: diags.clone(), files: files.clone() }),
            None => continue,
        };
        let Some(sc) = scenarios.iter().find(|x| x.id == s.id.node) else {
            return Err(ScenarioFileError::NotCompiled(s.id.node.clone()));
        };
        let outcome = run(game, sc, snapshots);
        // This scenario's own: in this file, within its lines.
        let here = files.iter().find(|f| f.name == name).map(|f| f.id);
        let warnings = warnings
            .iter()
            .filter(|d| Some(d.span.file) == here && it.span.start <= d.span.start && d.span.end <= it.span.end)
            .cloned()
            .collect();
        out.push(FileOutcome { game: game.clone(), outcome, files: files.clone(), warnings });
    }
    Ok(out)
}

/// A failure as a diagnostic, for rendering with its source.
pub fn failure_diag(f: &Failure) -> arbiter_syntax::diag::Diag {
    let mut help = Vec::new();
    if let Some(e) = &f.expected {
        help.push(format!("expected: {e}"));
    }
    if let Some(a) = &f.actual {
        help.push(format!("actual: {a}"));
    }
    if let Some(h) = &f.help {
        help.push(h.clone());
    }
    let mut d = arbiter_syntax::diag::Diag::error(f.span, f.message.clone()).label("here");
    for s in arbiter_runtime::call_sites_shown(&f.called_from, f.span) {
        d = d.related(s, "called from");
    }
    if help.is_empty() { d } else { d.help(help.join("\n")) }
}

/// A failure as text: message, place, source line, expected and actual.
pub fn failure_text(game: &Game, f: &Failure) -> String {
    let mut s = format!("  {}\n", f.message);
    if let Some(file) = game.file(f.span.file) {
        let (line, col) = file.line_col(f.span.start as usize);
        let text = file.text.lines().nth(line.saturating_sub(1)).unwrap_or("").trim();
        s.push_str(&format!("  at {}:{line}:{col}\n    {line} | {text}\n", file.name));
    }
    // Where it was called from, right after where it happened; the help last, each of its lines
    // under the first, so that none reads as part of that stack.
    for c in arbiter_runtime::call_sites_shown(&f.called_from, f.span) {
        if let Some(file) = game.file(c.file) {
            let (line, col) = file.line_col(c.start as usize);
            s.push_str(&format!("  called from {}:{line}:{col}\n", file.name));
        }
    }
    if let Some(e) = &f.expected {
        s.push_str(&format!("  expected: {e}\n"));
    }
    if let Some(a) = &f.actual {
        s.push_str(&format!("  actual:   {a}\n"));
    }
    if let Some(h) = &f.help {
        s.push_str(&format!("  help: {}\n", h.lines().collect::<Vec<_>>().join("\n        ")));
    }
    s
}
