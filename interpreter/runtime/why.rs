//! Why something happened: the condition parts behind a branch, and the chain of calls, decisions
//! and random results behind an event, read from the tracing record a scenario keeps.

use super::eval::Evaluator;
use super::state::Tracing;
use super::state::{BranchRec, EventKind, NO_CALL, Routine, State};
use super::view;
use arbiter_ir::operators::{BinaryOperator, UnaryOperator};
use arbiter_ir::{ExprIr, ExprKindIr, Game};
use arbiter_syntax::span::Span;
use serde::Serialize;

/// A condition as it was decided: each comparison with its two sides' values, `and`/`or`/`not`
/// through their parts (only the parts that were evaluated).
pub fn describe(evaluator: &Evaluator, env: &mut super::state::Env, cond: &ExprIr) -> String {
    let mut parts = Vec::new();
    describe_into(evaluator, env, cond, &mut parts, 0);
    parts.join("; ")
}

fn source(game: &Game, e: &ExprIr) -> String {
    span_source(game, e.span)
}

/// The source text under a span, trimmed.
fn span_source(game: &Game, span: Span) -> String {
    let mut s = game.file(span.file).map(|f| f.slice(span).trim().to_string()).unwrap_or_default();
    // A span may stop before the closing brackets of a parenthesised part: close them.
    let open = s.matches('(').count().saturating_sub(s.matches(')').count());
    s.push_str(&")".repeat(open));
    s
}

/// A value as a chain of causes shows it: as a choice names it, but an empty list or text said in
/// words (a label would read as nothing at all).
fn value_text(evaluator: &Evaluator, v: &arbiter_ir::value::Value) -> String {
    use arbiter_ir::value::Value;
    match v {
        Value::List(l) if l.is_empty() => "an empty list".to_string(),
        Value::Text(t) if t.is_empty() => "an empty text".to_string(),
        other => evaluator.label_clipped(other, arbiter_syntax::budgets::SHOWN_LIMIT),
    }
}

fn describe_into(evaluator: &Evaluator, env: &mut super::state::Env, e: &ExprIr, out: &mut Vec<String>, depth: usize) {
    let shown = |evaluator: &Evaluator, env: &mut super::state::Env, x: &ExprIr| match evaluator.eval(x, env) {
        Ok(v) => value_text(evaluator, &v),
        Err(err) => format!("an error ({})", err.message),
    };
    match &e.plain().kind {
        ExprKindIr::Binary(op @ (BinaryOperator::And | BinaryOperator::Or), l, r) if depth < 6 => {
            describe_into(evaluator, env, l, out, depth + 1);
            let left = evaluator.truth(l, env).unwrap_or(false);
            // `and` stops at a false left side, `or` at a true one.
            let evaluated_right = if *op == BinaryOperator::And { left } else { !left };
            if evaluated_right {
                describe_into(evaluator, env, r, out, depth + 1);
            }
        }
        ExprKindIr::Unary(UnaryOperator::Not, x) if depth < 6 => describe_into(evaluator, env, x, out, depth + 1),
        ExprKindIr::Binary(op, l, r) if op.is_comparison() => {
            for side in [l, r] {
                if !matches!(side.plain().kind, ExprKindIr::Lit(_) | ExprKindIr::Const(_)) {
                    out.push(format!("`{}` is {}", source(evaluator.game, side), shown(evaluator, env, side)));
                }
            }
        }
        ExprKindIr::Lit(_) => {}
        // A part of `and`/`or`: its own value; the whole condition's value is said by the caller.
        _ if depth > 0 => out.push(format!("`{}` is {}", source(evaluator.game, e), shown(evaluator, env, e))),
        _ => {}
    }
}

/// One link of a chain of causes.
#[derive(Debug, Clone, Serialize)]
pub struct Link {
    /// The rule or ability, as a name.
    pub rule: String,
    /// Its arguments, `name = value`.
    pub args: Vec<String>,
    /// Where the rule is written, `file:line`.
    pub at: String,
    /// Its citation and the section of the seed text the citation falls in.
    pub cite: Option<String>,
    pub section: Option<String>,
    /// The conditions that chose the branches leading to the effect, and their values.
    pub conditions: Vec<String>,
    /// Decisions and random results this call depended on, before the effect: `#N text`.
    pub depended_on: Vec<String>,
    /// The statement of the caller that started it: `file:line`.
    pub called_from: Option<String>,
}

/// Why an event happened: the event, then the chain of calls from the innermost outwards.
#[derive(Debug, Clone, Serialize)]
pub struct Why {
    pub event: usize,
    pub text: String,
    pub chain: Vec<Link>,
}

fn is_input(k: &EventKind) -> bool {
    matches!(k, EventKind::Answered { .. } | EventKind::Rolled { .. } | EventKind::Picked { .. })
}

/// Walk back the causes of event `index` through the record kept while the state was played
/// (`trace::CauseRecorder`).
pub fn why(game: &Game, st: &State, t: &Tracing, index: usize) -> Option<Why> {
    let e = st.log.get(index)?;
    let mut chain = Vec::new();
    let mut call = t.event_call.get(index).copied().unwrap_or(NO_CALL);
    // The point in the log each level of the chain is explained up to.
    let mut upto = index;
    let mut guard = 0;
    while call != NO_CALL && guard < 256 {
        guard += 1;
        let Some(rec) = t.calls.get(call as usize) else { break };
        let params = param_names(game, st, rec.routine);
        let args = rec
            .args
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let name = params.get(i).cloned().unwrap_or_else(|| format!("#{i}"));
                format!("{name} = {}", value_text(&Evaluator::new(game, st), v))
            })
            .collect();
        let span = super::Engine::new(game).routine_span(rec.routine, st);
        // The latest decision of each `if` of this call before the effect (a loop decides the same
        // `if` again and again: the last time is the one that led here).
        let mut latest: Vec<&BranchRec> = Vec::new();
        for b in t.branches.iter().filter(|b: &&BranchRec| b.call == call && (b.at_event as usize) <= upto) {
            latest.retain(|x| x.span != b.span);
            latest.push(b);
        }
        let conditions = latest
            .iter()
            .map(|b| {
                let src = span_source(game, b.span);
                let held = if b.value { "held" } else { "did not hold" };
                if b.detail.is_empty() {
                    format!("`{src}` {held} ({})", game.location(b.span))
                } else {
                    format!("`{src}` {held}: {} ({})", b.detail, game.location(b.span))
                }
            })
            .collect();
        let depended_on = (rec.first_event as usize..upto)
            .filter(|i| t.event_call.get(*i) == Some(&call))
            .filter_map(|i| {
                st.log.get(i).filter(|event| is_input(&event.kind)).map(|event| format!("#{i} {}", view::event_text(game, st, event, None)))
            })
            .collect();
        let called_from = match rec.site.routine {
            _ if rec.site.span != Span::default() => Some(game.location(rec.site.span)),
            Routine::Scenario => Some("the scenario".to_string()),
            Routine::Main => Some("the game's setup or turn".to_string()),
            _ => None,
        };
        let view::RuleRef { rule, at, cite, section } = view::rule_ref(game, st, rec.routine, span);
        chain.push(Link { rule, args, at, cite, section, conditions, depended_on, called_from });
        upto = rec.first_event as usize;
        call = rec.parent;
    }
    Some(Why { event: index, text: view::event_text(game, st, e, None), chain })
}

/// The names of a routine's parameters (the first slots of its env): a procedure's, or the event's
/// a trigger answers.
pub fn param_names(game: &Game, st: &State, r: Routine) -> Vec<String> {
    let names = |ps: &[(String, arbiter_ir::Ty)]| ps.iter().map(|(n, _)| n.clone()).collect();
    let event_params = |event: arbiter_ir::EventId| game.events.get(event as usize).map(|e| names(&e.params)).unwrap_or_default();
    match r {
        Routine::Proc(p) => game.proc_def(p).map(|d| names(&d.params)).unwrap_or_default(),
        Routine::Trigger(i) => game.triggers.get(i as usize).map(|t| event_params(t.event)).unwrap_or_default(),
        Routine::ObjTrigger(o, i) => st
            .obj(o)
            .and_then(|ob| game.def(ob.def))
            .and_then(|d| d.triggers.get(i as usize))
            .map(|t| event_params(t.event))
            .unwrap_or_default(),
        _ => vec![],
    }
}

/// The chain as text: the event, then `because` each link outwards.
pub fn why_text(w: &Why) -> String {
    why_text_quoting(w, &|_| Vec::new())
}

/// `why_text`, with the lines `quote` gives for each citation (the rulebook's text) under it.
pub fn why_text_quoting(w: &Why, quote: &dyn Fn(&str) -> Vec<String>) -> String {
    let mut s = format!("#{} {}\n", w.event, w.text);
    for (i, l) in w.chain.iter().enumerate() {
        let lead = if i == 0 { "happened in" } else { "which was called by" };
        let args = if l.args.is_empty() { String::new() } else { format!("({})", l.args.join(", ")) };
        s.push_str(&format!("  {lead} {}{args}", l.rule));
        if !l.at.is_empty() {
            s.push_str(&format!(" — {}", l.at));
        }
        s.push('\n');
        match (&l.section, &l.cite) {
            (Some(sec), Some(c)) => s.push_str(&format!("    cites {sec} ({c})\n")),
            (None, Some(c)) => s.push_str(&format!("    cites {c}\n")),
            _ => {}
        }
        if let Some(c) = &l.cite {
            for q in quote(c) {
                s.push_str(&format!("      │ {q}\n"));
            }
        }
        for c in &l.conditions {
            s.push_str(&format!("    where {c}\n"));
        }
        for d in &l.depended_on {
            s.push_str(&format!("    after {d}\n"));
        }
        if let Some(f) = &l.called_from {
            s.push_str(&format!("    started by {f}\n"));
        }
    }
    if w.chain.is_empty() {
        s.push_str("  happened at the top level of the scenario or game\n");
    }
    s
}
