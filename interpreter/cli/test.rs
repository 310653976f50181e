//! `arbiter test` runs scenario files; `arbiter explain` shows a scenario's trace with causes.

use crate::check::project::Project;
use crate::check_files::expand;
use crate::ir::value::Value;
use crate::runtime::view;
use crate::scenario::{Bases, failure_text, run_file_shared, run_file_with};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// `id`: only the scenario with that id is reported (the files are run whole).
pub fn run(project: &Project, paths: &[PathBuf], variants: &[String], id: Option<&str>) -> i32 {
    let paths = if paths.is_empty() { vec![project.root.join("tests/examples")] } else { paths.to_vec() };
    // Each file and folder read once for the whole run (`Project::read_once`).
    let project = &project.read_once();
    // The files run on all cores, sharing each game compiled once per set of variants; each
    // file's report is written as it finishes (its games and states dropped), and the reports
    // are shown in the files' order.
    let bases = Bases::default();
    let files = expand(&paths);
    let reports: Vec<Report> = files.par_iter().map(|f| report(project, f, variants, &bases, id)).collect();
    let (mut passed, mut failed) = (0, 0);
    let mut ids: Vec<String> = Vec::new();
    for r in reports {
        out!("{}", r.text);
        passed += r.passed;
        failed += r.failed;
        ids.extend(r.ids);
    }
    if let Some(id) = id
        && passed + failed == 0
    {
        errln!("error: no scenario `{id}` in {}", files_named(&files));
        let help = crate::syntax::diag::did_you_mean(id, ids.iter().map(String::as_str)).unwrap_or_else(|| {
            if ids.is_empty() { "these files hold no scenario".to_string() } else { format!("scenarios: {}", ids.join(", ")) }
        });
        errln!("  help: {help}");
        return 1;
    }
    outln!("{passed} passed, {failed} failed");
    if passed + failed == 0 {
        // A file of cards (or a folder of them) holds no scenario: nothing was tested.
        errln!("error: no scenario in {}: a scenario file holds `scenario ID \"title\" {{ .. }}` items", files_named(&files));
        return 1;
    }
    i32::from(failed > 0)
}

/// The files given, for a message: one by name, more by count.
fn files_named(files: &[PathBuf]) -> String {
    match files {
        [one] => format!("`{}`", one.display()),
        _ => format!("the {} files given", files.len()),
    }
}

/// One file's report: its lines, how many of its scenarios passed and failed (of those with
/// the id, when one is given), and the ids of its scenarios.
struct Report {
    text: String,
    passed: usize,
    failed: usize,
    ids: Vec<String>,
}

fn report(project: &Project, file: &Path, variants: &[String], bases: &Bases, id: Option<&str>) -> Report {
    use std::fmt::Write as _;
    let mut text = String::new();
    let (mut passed, mut failed) = (0, 0);
    let mut ids = Vec::new();
    match run_file_shared(project, file, variants, bases, false) {
        Err(e) => {
            failed += 1;
            let _ = writeln!(text, "FAIL {}\n{e}", project.display(file));
        }
        Ok(outcomes) => {
            for o in outcomes {
                ids.push(o.outcome.id.clone());
                if id.is_some_and(|i| i != o.outcome.id) {
                    continue;
                }
                if o.outcome.passed() {
                    passed += 1;
                    let _ = writeln!(text, "ok   {} {}", o.outcome.id, o.outcome.title);
                } else {
                    failed += 1;
                    let _ = writeln!(text, "FAIL {} {}", o.outcome.id, o.outcome.title);
                    for fl in &o.outcome.failures {
                        text.push_str(&failure_text(&o.game, fl));
                    }
                }
                // What the checker warns of in its lines (an `expect no decision` most of whose
                // text only a value a question shows could hold).
                if !o.warnings.is_empty() {
                    text.push_str(&crate::diag::render(&o.warnings, &o.files));
                }
            }
        }
    }
    Report { text, passed, failed, ids }
}

/// What `arbiter explain` shows.
pub struct ExplainOptions {
    pub id: Option<String>,
    pub at: Option<usize>,
    pub why: Option<String>,
    /// `--quote`: the cited lines of the rulebook's text under each citation of `--why`.
    pub quote: bool,
    pub json: bool,
}

/// The event `--why` names: a number; or a change told in words, `loses 1 influence` (`gains`,
/// `lost`, ...): the last assignment to a field of that name that changed it by that much; or else
/// the last event whose text contains the words, a change of the state (a field set, an object
/// moved, created, turned or put) before a text that only tells of one (a log line, an ability's
/// or a decision's words).
fn find_event(game: &crate::ir::Game, st: &crate::runtime::state::State, what: &str) -> Option<usize> {
    use crate::runtime::state::EventKind;
    if let Ok(n) = what.trim().trim_start_matches('#').parse::<usize>() {
        return (n < st.log.len()).then_some(n);
    }
    if let Some((delta, field)) = change_in_words(what) {
        let found = st.log.iter().enumerate().rev().find(|(_, e)| match &e.kind {
            EventKind::Set { what, old: Value::Int(a), new: Value::Int(b), .. } => {
                what.rsplit('.').next() == Some(field.as_str()) && b.checked_sub(*a) == Some(delta)
            }
            _ => false,
        });
        if let Some((i, _)) = found {
            return Some(i);
        }
    }
    let changes_state = |k: &EventKind| {
        matches!(
            k,
            EventKind::Set { .. }
                | EventKind::Moved { .. }
                | EventKind::Created { .. }
                | EventKind::Turned { .. }
                | EventKind::Put { .. }
                | EventKind::Modified { .. }
                | EventKind::Revealed { .. }
                | EventKind::PlayerOut { .. }
                | EventKind::GameOver { .. }
        )
    };
    let matching = || st.log.iter().enumerate().rev().filter(|(_, e)| view::event_text(game, st, e, None).contains(what));
    matching().find(|(_, e)| changes_state(&e.kind)).or_else(|| matching().next()).map(|(i, _)| i)
}

/// The events other than `chosen` whose text tells of `what` (none when `what` is a number).
fn others_telling(game: &crate::ir::Game, st: &crate::runtime::state::State, what: &str, chosen: usize) -> Vec<usize> {
    if what.trim().trim_start_matches('#').parse::<usize>().is_ok() {
        return Vec::new();
    }
    st.log.iter().enumerate().filter(|(i, e)| *i != chosen && view::event_text(game, st, e, None).contains(what)).map(|(i, _)| i).collect()
}

/// `loses 1 influence` → (-1, "influence"); `gains 2 power` → (2, "power").
fn change_in_words(what: &str) -> Option<(i64, String)> {
    let words: Vec<&str> = what.split_whitespace().collect();
    words.windows(3).find_map(|w| {
        let [verb, n, field] = w else { return None };
        let n: i64 = n.parse().ok()?;
        let sign = match *verb {
            "gain" | "gains" | "gained" | "gets" | "raises" => 1,
            "lose" | "loses" | "lost" | "pays" | "spends" => -1,
            _ => return None,
        };
        Some((sign * n, field.trim_end_matches(['.', ',']).to_string()))
    })
}

#[derive(serde::Serialize)]
struct JsonEvent {
    index: usize,
    text: String,
    #[serde(flatten)]
    rule: view::RuleRef,
    depth: u16,
}

#[derive(serde::Serialize)]
struct JsonExplanation {
    id: String,
    title: String,
    passed: bool,
    events: Vec<JsonEvent>,
    why: Option<crate::runtime::why::Why>,
    failures: Vec<String>,
}

/// A failed scenario's failures, then `scenario failed`.
fn report_failures(fo: &crate::scenario::FileOutcome) {
    for fl in &fo.outcome.failures {
        out!("{}", failure_text(&fo.game, fl));
    }
    outln!("scenario failed");
}

/// What `--why` takes, said when nothing matches.
const WHY_HELP: &str = "give an event's number (#0 to #{last}, as `arbiter explain FILE` numbers them), words of a change \
     (`loses 2 influence`, `gains 1 power`) or words of an event's text (`moved to P1.discard`)";

pub fn explain(project: &Project, path: &Path, o: &ExplainOptions, variants: &[String]) -> i32 {
    match run_file_with(project, path, variants) {
        Err(e) => {
            out!("{e}");
            1
        }
        Ok(outcomes) => {
            let mut code = 0;
            let mut json = Vec::new();
            let chosen: Vec<_> = outcomes.iter().filter(|x| o.id.as_deref().is_none_or(|i| x.outcome.id == i)).collect();
            if chosen.is_empty() {
                errln!("error: no scenario `{}` in {}", o.id.as_deref().unwrap_or(""), path.display());
                let ids: Vec<&str> = outcomes.iter().map(|x| x.outcome.id.as_str()).collect();
                let id = o.id.as_deref().unwrap_or("");
                match crate::syntax::diag::did_you_mean(id, ids.iter().copied()) {
                    Some(meant) => errln!("  help: {meant}"),
                    None if ids.is_empty() => errln!("  help: the file holds no scenario"),
                    None => errln!("  help: its scenarios: {}", ids.join(", ")),
                }
                return 2;
            }
            // With `--why` and several scenarios, explain the event in each scenario that has it.
            let mut explained = 0;
            for fo in chosen.iter().copied() {
                let (game, st) = (&fo.game, &fo.outcome.state);
                let why = match &o.why {
                    None => None,
                    Some(w) => match find_event(game, st, w) {
                        Some(i) => crate::runtime::why::why(game, st, &fo.outcome.tracing, i),
                        None if o.id.is_none() => continue,
                        None => {
                            let last = st.log.len().saturating_sub(1);
                            errln!("error: no event of {} is `{w}` or tells of it", fo.outcome.id);
                            errln!("  help: {}", WHY_HELP.replace("{last}", &last.to_string()));
                            return 2;
                        }
                    },
                };
                explained += 1;
                if o.json {
                    let events = st
                        .log
                        .iter()
                        .enumerate()
                        .take_while(|(i, _)| o.at.is_none_or(|n| *i <= n))
                        .map(|(i, e)| JsonEvent {
                            index: i,
                            text: view::event_text(game, st, e, None),
                            rule: view::rule_ref(game, st, e.cause.routine, e.cause.span),
                            depth: e.depth,
                        })
                        .collect();
                    let failures = fo.outcome.failures.iter().map(|f| f.message.clone()).collect();
                    json.push(JsonExplanation {
                        id: fo.outcome.id.clone(),
                        title: fo.outcome.title.clone(),
                        passed: fo.outcome.passed(),
                        events,
                        why,
                        failures,
                    });
                    if !fo.outcome.passed() {
                        code = code.max(1);
                    }
                    continue;
                }
                outln!("{} {}", fo.outcome.id, fo.outcome.title);
                if let Some(w) = &why {
                    if o.quote {
                        let seeds = crate::check::seeds::seeds(game, |f| project.seed_text(&game.name, f));
                        let quote = |cite: &str| {
                            let (lines, _) = crate::check::seeds::quote(&seeds, cite, 6);
                            lines.into_iter().map(|(letter, n, l)| format!("{letter}{n}: {l}")).collect()
                        };
                        out!("{}", crate::runtime::why::why_text_quoting(w, &quote));
                        let missing: Vec<&str> = seeds.iter().filter(|s| s.text.is_none()).map(|s| s.file.as_str()).collect();
                        if !missing.is_empty() {
                            outln!(
                                "(the rulebook text {} is not at hand: put it in rulebooks/{}/ or in the folder ARBITER_SEEDS names, to see the cited lines)",
                                missing.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(" and "),
                                game.name
                            );
                        }
                    } else {
                        out!("{}", crate::runtime::why::why_text(w));
                    }
                    if let Some(said) = &o.why {
                        let others = others_telling(game, st, said, w.event);
                        if let Some(first) = others.first() {
                            let list: Vec<String> = others.iter().take(8).map(|i| format!("#{i}")).collect();
                            let more = if others.len() > 8 { ", …" } else { "" };
                            outln!(
                                "(#{} is the one explained; other events tell of `{said}` too: {}{more}; `--why {first}` explains one of them)",
                                w.event,
                                list.join(", ")
                            );
                        }
                    }
                    // The chain is of the scenario as it ran; whether it passed is still said.
                    if !fo.outcome.passed() {
                        code = 1;
                        report_failures(fo);
                    }
                    continue;
                }
                out!("{}", view::trace_numbered(game, st, o.at));
                if fo.outcome.passed() {
                    outln!("scenario passed");
                } else {
                    code = 1;
                    report_failures(fo);
                }
            }
            if let (Some(w), 0) = (&o.why, explained) {
                errln!("error: no event of any scenario of {} is `{w}` or tells of it", path.display());
                errln!("  help: {}", WHY_HELP.replace("#0 to #{last}, ", ""));
                return 2;
            }
            if o.json {
                match serde_json::to_string_pretty(&json) {
                    Ok(s) => outln!("{s}"),
                    Err(e) => {
                        errln!("error: {e}");
                        return 2;
                    }
                }
            }
            code
        }
    }
}
