//! What a scenario expects: each `expect` checked against the state, and what is shown when it
//! does not hold.

use super::{Failure, Since, eval0, fail, seat_of};
use arbiter_ir::operators::BinaryOperator;
use arbiter_ir::scenario::ExpectIr;
use arbiter_ir::value::Value;
use arbiter_ir::{ChooseCountIr, EventId, ExprIr, ExprKindIr, TextExpr};
use arbiter_runtime::eval::{Evaluator, new_env};
use arbiter_runtime::state::{Count, EventKind, State};
use arbiter_runtime::trace::Settled;
use arbiter_runtime::{CauseRecorder, Engine, view};
use arbiter_syntax::span::Span;

pub(super) fn expect(
    engine: &Engine,
    recorder: &CauseRecorder,
    st: &State,
    e: &ExpectIr,
    since: Since,
    span: Span,
    texts: &LogTexts,
) -> Result<(), Failure> {
    let evaluator = Evaluator::new(engine.game, st);
    match e {
        ExpectIr::True { cond, text, message } => expect_true(engine, st, cond, text, message.as_ref(), span),
        ExpectIr::Options { who, labels, count, message } => {
            // The decisions taken at once since the last step.
            let settled: Vec<Settled> = recorder.settled_since(since.settled).into_iter().filter(|x| x.at >= since.log).collect();
            let r = expect_options(engine, st, who, labels, count.as_ref(), &settled, span);
            match (r, message) {
                (Err(mut f), Some(m)) => {
                    let mut env = st.envs.first().cloned().unwrap_or_else(|| new_env(0, vec![], None, None));
                    let t = evaluator.interpolate(m, &mut env, span).unwrap_or_default();
                    f.message = format!("expectation failed: {t} ({})", f.message);
                    Err(f)
                }
                (r, _) => r,
            }
        }
        ExpectIr::NotFinished => match &st.result {
            None => Ok(()),
            Some(r) => {
                let mut f = fail("expected the game to go on, but it is over", span);
                f.actual = Some(view::result_text(r));
                Err(f)
            }
        },
        ExpectIr::Winner(who) => expect_winner(engine, st, who.as_ref(), span),
        ExpectIr::Refused { .. } => Ok(()),
        ExpectIr::Event { event, name, happened } => expect_event(engine, st, *event, name, *happened, span),
        ExpectIr::NoLog(x) => expect_no_log(engine, st, x, span, texts),
        ExpectIr::Decision { who, prompt } => expect_decision(engine, st, who, prompt.as_deref(), span),
        ExpectIr::NoDecision { who, prompt } => expect_no_decision(engine, st, who, prompt.as_deref(), span),
        ExpectIr::Sees { who, what, sees } => expect_sees(engine, st, who, what, *sees, span),
        ExpectIr::Finished => {
            if st.pending.is_none() && (st.frames.is_empty() || st.result.is_some()) {
                Ok(())
            } else {
                let mut f = fail("expected the run to have finished", span);
                f.actual = st.pending.as_ref().map(|d| format!("P{} is still deciding: {}", d.seat + 1, d.prompt));
                Err(f)
            }
        }
        ExpectIr::Log(x) => expect_log(engine, st, x, span, texts),
        ExpectIr::Deck { deck, valid, fragment } => expect_deck(engine, *deck, *valid, fragment.as_deref(), span),
    }
}

/// `expect COND "message"`: the condition holds; if not, why not, in words.
fn expect_true(engine: &Engine, st: &State, cond: &ExprIr, text: &str, message: Option<&TextExpr>, span: Span) -> Result<(), Failure> {
    let evaluator = Evaluator::new(engine.game, st);
    let v = eval0(engine, st, cond)?;
    if v == Value::Bool(true) {
        return Ok(());
    }
    let mut f = fail(
        match message {
            Some(m) => {
                let mut env = st.envs.first().cloned().unwrap_or_else(|| new_env(0, vec![], None, None));
                let t = evaluator.interpolate(m, &mut env, span).unwrap_or_default();
                format!("expectation failed: {t}")
            }
            None => "expectation failed".to_string(),
        },
        span,
    );
    f.expected = Some(text.to_string());
    f.actual = Some(explain_false(engine, st, cond, text));
    Err(f)
}

/// `expect winner P` (or `expect draw`): the game is over, won by exactly these seats (none: a draw).
fn expect_winner(engine: &Engine, st: &State, who: Option<&ExprIr>, span: Span) -> Result<(), Failure> {
    let want: Option<Vec<u8>> = match who {
        None => None,
        Some(w) => Some(match eval0(engine, st, w)? {
            Value::Player(p) => vec![p],
            Value::List(l) => l.iter().filter_map(|v| if let Value::Player(p) = v { Some(*p) } else { None }).collect(),
            other => return Err(fail(format!("`expect winner` needs players, found {}", other.type_name()), w.span)),
        }),
    };
    let seats = |s: &[u8]| s.iter().map(|p| format!("P{}", p + 1)).collect::<Vec<_>>().join(", ");
    let expected = match &want {
        None => "a draw: nobody wins".to_string(),
        Some(w) => format!("{} won", seats(w)),
    };
    let Some(r) = &st.result else {
        let mut f = fail("expected the game to be over, but it goes on", span);
        f.expected = Some(expected);
        return Err(f);
    };
    let mut won = r.winners.clone();
    won.sort_unstable();
    let holds = match &want {
        None => won.is_empty(),
        Some(w) => {
            let mut w = w.clone();
            w.sort_unstable();
            w.dedup();
            w == won
        }
    };
    if holds {
        Ok(())
    } else {
        let mut f = fail("the game ended otherwise", span);
        f.expected = Some(expected);
        f.actual = Some(view::result_text(r));
        Err(f)
    }
}

/// `expect event E` / `expect no event E`: an event of this kind is (or is not) in the log.
fn expect_event(engine: &Engine, st: &State, event: EventId, name: &str, happened: bool, span: Span) -> Result<(), Failure> {
    let is = |k: &arbiter_runtime::state::EventKind| match k {
        arbiter_runtime::state::EventKind::Signal { event: e, .. } => *e == event,
        arbiter_runtime::state::EventKind::Moved { .. } => event == engine.game.builtin_events.moved,
        arbiter_runtime::state::EventKind::PlayerOut { .. } => event == engine.game.builtin_events.player_left,
        _ => false,
    };
    let found = st.log.iter().find(|e| is(&e.kind));
    match (found, happened) {
        (Some(_), true) | (None, false) => Ok(()),
        (None, true) => Err(fail(format!("no `{name}` event has happened"), span)),
        (Some(e), false) => {
            let mut f = fail(format!("a `{name}` event happened"), span);
            f.actual = Some(view::event_text(engine.game, st, e, None));
            Err(f)
        }
    }
}

/// The texts an `expect log` or `expect no log` names: one, or each of a list.
fn log_texts(engine: &Engine, st: &State, x: &ExprIr) -> Result<Vec<String>, Failure> {
    named_texts(engine, st, &eval0(engine, st, x)?, x.span)
}

/// The most bytes of texts one expectation may name, all together.
const NAMED_TEXTS: usize = 16 << 20;

/// A value an expectation names texts by (`expect log`, `expect options`): one text, or each of a
/// list, labelled. A list holding one long text many times is small for the rules: past
/// `NAMED_TEXTS` together, the expectation fails instead of making them all.
fn named_texts(engine: &Engine, st: &State, v: &Value, span: Span) -> Result<Vec<String>, Failure> {
    let evaluator = Evaluator::new(engine.game, st);
    let items = match v {
        Value::List(l) => l.as_slice(),
        other => std::slice::from_ref(other),
    };
    let mut total = 0usize;
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        // A text longer than a text may be (`TEXT_BUDGET`) is never in the log: cut, it fails as well.
        let text = evaluator.label_clipped(item, arbiter_syntax::budgets::TEXT_BUDGET + 1);
        total = total.saturating_add(text.len());
        if total > NAMED_TEXTS {
            return Err(fail(format!("the texts this expectation names are longer than {} MiB together", NAMED_TEXTS >> 20), span));
        }
        out.push(text);
    }
    Ok(out)
}

/// The options an `expect options` names: as `named_texts`, with alike values numbered as a
/// decision's options are (`X`, `X (2)`, …), so that a list of the very objects offered names
/// them as the decision does; texts are taken as written.
fn option_texts(engine: &Engine, st: &State, x: &ExprIr) -> Result<Vec<String>, Failure> {
    let v = eval0(engine, st, x)?;
    let mut out = named_texts(engine, st, &v, x.span)?;
    let items = match &v {
        Value::List(l) => l.as_slice(),
        other => std::slice::from_ref(other),
    };
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (text, item) in out.iter_mut().zip(items) {
        // A text counts among the alike (it names one of them), and is kept as written.
        let n = seen.entry(text.clone()).or_default();
        *n += 1;
        if *n > 1 && !matches!(item, Value::Text(_)) {
            *text = format!("{text} ({n})");
        }
    }
    Ok(out)
}

/// The texts of a state's log events, made once for the expectations that read them one after
/// another (each made them all again: a thousand `expect no log` lines on a long log took minutes).
#[derive(Default)]
pub(super) struct LogTexts(std::cell::RefCell<Option<Made>>);

/// Texts made for a state: its version, its log's length, the texts.
type Made = (u64, usize, std::rc::Rc<Vec<String>>);

impl LogTexts {
    /// The texts of `st`'s log (one scenario's state: known by its version and its log's length).
    fn of(&self, engine: &Engine, st: &State) -> std::rc::Rc<Vec<String>> {
        let mut cache = self.0.borrow_mut();
        if let Some((version, len, texts)) = cache.as_ref()
            && (*version, *len) == (st.version, st.log.len())
        {
            return texts.clone();
        }
        let texts = std::rc::Rc::new(st.log.iter().map(|e| view::event_text(engine.game, st, e, None)).collect::<Vec<_>>());
        *cache = Some((st.version, st.log.len(), texts.clone()));
        texts
    }
}

/// The most bytes of a value a failed comparison shows (the failure's texts are cut to 2,000
/// characters in the end; this keeps a huge value from being made whole first).
const SHOWN_VALUE: usize = 4_000;

/// The most matching events a failed `expect no log` lists (it says how many more).
const SHOWN_EVENTS: usize = 10;

/// `expect no log "text"`: no event of the log contains the text (or any of the texts).
fn expect_no_log(engine: &Engine, st: &State, x: &ExprIr, span: Span, texts: &LogTexts) -> Result<(), Failure> {
    let wants = log_texts(engine, st, x)?;
    let texts = texts.of(engine, st);
    let mut seen: Vec<String> = Vec::new();
    let mut count = 0usize;
    for t in texts.iter().filter(|t| wants.iter().any(|w| t.contains(w.as_str()))) {
        count += 1;
        if seen.len() < SHOWN_EVENTS {
            seen.push(arbiter_syntax::diag::clipped(t, 200));
        }
    }
    if count == 0 {
        Ok(())
    } else {
        let mut f = fail("an event in the log matches", span);
        f.expected = Some(format!("no event containing {}", wants.join(" or ")));
        let shown = seen.join("; ");
        f.actual = Some(if count > seen.len() { format!("{count} events, the first {}: {shown}", seen.len()) } else { shown });
        Err(f)
    }
}

/// `expect decision P "prompt"`: the seat is deciding, asked something containing the prompt.
fn expect_decision(engine: &Engine, st: &State, who: &ExprIr, prompt: Option<&str>, span: Span) -> Result<(), Failure> {
    let seat = seat_of(engine, st, who, "expect decision")?;
    match &st.pending {
        Some(d) if d.seat == seat && prompt.is_none_or(|p| d.prompt.contains(p)) => Ok(()),
        Some(d) => {
            let mut f = fail("a different decision is pending", span);
            f.expected = Some(format!("P{}: {}", seat + 1, prompt.unwrap_or_default()));
            f.actual = Some(format!("P{}: {}", d.seat + 1, d.prompt));
            Err(f)
        }
        None => Err(fail(format!("expected P{} to be deciding, but nobody is", seat + 1), span)),
    }
}

/// `expect no decision P "prompt"`: no decision of the seat's whose prompt contains the text has
/// been asked so far, whether it waited for an answer or was taken at once (every decision's
/// question is logged for its chooser, `EventKind::Asked`).
fn expect_no_decision(engine: &Engine, st: &State, who: &ExprIr, prompt: Option<&str>, span: Span) -> Result<(), Failure> {
    let seat = seat_of(engine, st, who, "expect no decision")?;
    let asked: Vec<&str> = st
        .log
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Asked { seat: s, prompt: p, .. } if *s == seat && prompt.is_none_or(|want| p.contains(want)) => Some(&**p),
            _ => None,
        })
        .collect();
    let Some(first) = asked.first() else { return Ok(()) };
    let mut f = fail(format!("P{} was asked", seat + 1), span);
    f.expected = Some(match prompt {
        Some(p) => format!("no decision of P{}'s containing {p:?}", seat + 1),
        None => format!("no decision of P{}'s", seat + 1),
    });
    let first = arbiter_syntax::diag::clipped(first, 200);
    f.actual = Some(if asked.len() > 1 { format!("{} decisions, the first: {first}", asked.len()) } else { first });
    Err(f)
}

/// `expect P sees x` / `expect P cannot see x`: what the seat's projection knows of the objects.
fn expect_sees(engine: &Engine, st: &State, who: &ExprIr, what: &ExprIr, sees: bool, span: Span) -> Result<(), Failure> {
    let evaluator = Evaluator::new(engine.game, st);
    let seat = seat_of(engine, st, who, "expect .. sees")?;
    let objs: Vec<arbiter_ir::value::ObjId> = match eval0(engine, st, what)? {
        Value::Obj(o) => vec![o],
        Value::List(l) => l.iter().filter_map(|v| if let Value::Obj(o) = v { Some(*o) } else { None }).collect(),
        Value::Zone(z) => st.zone_objects(engine.game, z),
        _ => return Err(fail("expected an object or a list of objects", what.span)),
    };
    // What the seat's projection knows: the same knowledge every view, log and save of the
    // seat is projected through.
    let wrong: Vec<String> = objs
        .iter()
        .filter(|o| st.obj(**o).is_some_and(|x| view::sees(x.known, Some(seat)) != sees))
        .map(|o| evaluator.label(&Value::Obj(*o)))
        .collect();
    if wrong.is_empty() {
        Ok(())
    } else {
        let mut f = fail(
            if sees {
                format!("P{} was to see {}, but its view does not show it", seat + 1, wrong.join(", "))
            } else {
                format!("P{} was not to see {}, but its view shows it", seat + 1, wrong.join(", "))
            },
            span,
        );
        f.expected = Some(format!("P{} {} it", seat + 1, if sees { "sees" } else { "cannot see" }));
        Err(f)
    }
}

/// `expect log "text"` (or a list: events containing each, in that order).
fn expect_log(engine: &Engine, st: &State, x: &ExprIr, span: Span, texts: &LogTexts) -> Result<(), Failure> {
    // One text: some event contains it. A list: events containing each, in that order.
    let wants = log_texts(engine, st, x)?;
    let texts = texts.of(engine, st);
    let mut at = 0;
    for (i, w) in wants.iter().enumerate() {
        match texts.iter().skip(at).position(|t| t.contains(w.as_str())) {
            Some(k) => at += k + 1,
            None => {
                let mut f = fail(
                    if i == 0 {
                        "no event in the log matches".to_string()
                    } else {
                        format!("no event matches item {} after the ones before it", i + 1)
                    },
                    span,
                );
                f.expected = Some(wants.join(" … then … "));
                f.actual = texts.iter().find(|t| t.contains(w.as_str())).map(|t| format!("`{t}` appears, but earlier"));
                return Err(f);
            }
        }
    }
    Ok(())
}

/// `expect deck "name" valid` / `breaks "fragment"`: the deckbuilding rules' verdict on a deck.
fn expect_deck(engine: &Engine, deck: usize, valid: bool, fragment: Option<&str>, span: Span) -> Result<(), Failure> {
    let Some(d) = engine.game.decks.get(deck) else { return Err(fail("no such deck", span)) };
    let problems = arbiter_runtime::decks::validate(engine.game, d);
    let messages: Vec<String> = problems.iter().map(|p| p.message.clone()).collect();
    match (valid, problems.is_empty()) {
        (true, true) => Ok(()),
        (false, false) if fragment.is_none_or(|f| messages.iter().any(|m| m.contains(f))) => Ok(()),
        (true, false) => {
            let mut f = fail(format!("deck `{}` was expected to be valid", d.name), span);
            f.actual = Some(messages.join("; "));
            Err(f)
        }
        _ => {
            let mut f = fail(format!("deck `{}` was expected to break a deckbuilding rule", d.name), span);
            f.expected = fragment.map(str::to_string);
            f.actual = Some(if messages.is_empty() { "no rule broken".to_string() } else { messages.join("; ") });
            Err(f)
        }
    }
}

/// `expect options`: the pending decision is the seat's, with exactly these options (and the
/// limit stated, if any); with none pending, one the seat took at once since the last step (a
/// single option, or none) that offered exactly these.
fn expect_options(
    engine: &Engine,
    st: &State,
    who: &ExprIr,
    labels: &ExprIr,
    count: Option<&ChooseCountIr>,
    settled: &[Settled],
    span: Span,
) -> Result<(), Failure> {
    let seat = seat_of(engine, st, who, "expect options")?;
    let want = option_texts(engine, st, labels)?;
    let want_count = match count {
        None => None,
        Some(c) => Some(match c {
            ChooseCountIr::One => Count::One,
            ChooseCountIr::Order => Count::Order,
            ChooseCountIr::UpTo(n) | ChooseCountIr::Exactly(n) => {
                let k = match eval0(engine, st, n)? {
                    Value::Int(k) => u32::try_from(k).map_err(|_| fail(format!("{k} is not a number of options"), n.span))?,
                    other => return Err(fail(format!("expected a number, found {}", other.type_name()), n.span)),
                };
                if matches!(c, ChooseCountIr::UpTo(_)) { Count::UpTo(k) } else { Count::Exactly(k) }
            }
        }),
    };
    let same = |have: &[String]| {
        let mut a = want.clone();
        let mut b = have.to_vec();
        a.sort();
        b.sort();
        a == b
    };
    let shown = |c: Count| match c {
        Count::One => "one".to_string(),
        Count::Exactly(k) => format!("exactly {k}"),
        Count::UpTo(k) => format!("up to {k}"),
        Count::Order => "order".to_string(),
    };
    let stated = |labels: &[String], c: Option<Count>| {
        let limit = c.map(|c| format!(" ({})", shown(c))).unwrap_or_default();
        format!("{}{limit}", labels.join(" | "))
    };
    // Another seat's decision pending: the seat's own may have been taken at once before it.
    let Some(d) = st.pending.as_ref().filter(|d| d.seat == seat) else {
        let other = st.pending.as_ref().map(|d| format!("P{} is deciding: {}", d.seat + 1, d.prompt));
        // A decision taken at once, since the last step.
        let settled: Vec<&Settled> = settled.iter().filter(|x| x.seat == seat).collect();
        for x in &settled {
            let have: Vec<String> = x.options.iter().map(|l| l.to_string()).collect();
            if same(&have) && want_count.is_none_or(|c| c == x.count) {
                return Ok(());
            }
        }
        let mut f = match settled.last() {
            None => {
                let now = other.as_deref().unwrap_or("nobody is");
                let mut f = fail(
                    format!("expected P{} to be choosing, but {now}, and P{} decided nothing since the last step", seat + 1, seat + 1),
                    span,
                );
                f.expected = Some(stated(&want, want_count));
                f
            }
            Some(x) => {
                let have = |x: &Settled| -> Vec<String> { x.options.iter().map(|l| l.to_string()).collect() };
                // Every decision taken at once since the last step, not the last alone: the one
                // meant may be an earlier one.
                let mut f = if settled.len() == 1 {
                    fail(format!("the options offered differ (P{} decided at once: {})", seat + 1, x.prompt), span)
                } else {
                    fail(format!("the options offered differ (P{} decided {} at once since the last step)", seat + 1, settled.len()), span)
                };
                f.expected = Some(format!("P{}: {}", seat + 1, stated(&want, want_count)));
                f.actual = Some(if settled.len() == 1 {
                    format!("P{}: {}", seat + 1, stated(&have(x), Some(x.count)))
                } else {
                    settled
                        .iter()
                        .map(|x| format!("P{} `{}`: {}", seat + 1, x.prompt, stated(&have(x), Some(x.count))))
                        .collect::<Vec<_>>()
                        .join("; ")
                });
                f
            }
        };
        f.help = Some(if settled.is_empty() {
            format!(
                "P{} is not deciding now: the decision was answered, the run went on past it, or the rules never asked it (a \
                 condition around the `choose` was false: `arbiter explain` shows the branches taken); a decision with one \
                 possible answer is taken at once, and `expect options` checks it on the line after the step that asked it \
                 (one taken earlier is in the log: `expect log \"P{} chose .. (the only choice)\"`)",
                seat + 1,
                seat + 1
            )
        } else {
            "the decisions taken at once since the last step are the ones shown; check the one you mean on the line after the step that asked it"
                .into()
        });
        return Err(f);
    };
    let have = d.labels();
    if !same(&have) || want_count.is_some_and(|c| c != d.count) {
        let mut f = fail(format!("the options offered differ (P{} is choosing: {})", d.seat + 1, d.prompt), span);
        f.expected = Some(format!("P{}: {}", seat + 1, stated(&want, want_count)));
        f.actual = Some(format!("P{}: {}", d.seat + 1, stated(&have, want_count.map(|_| d.count))));
        return Err(f);
    }
    Ok(())
}

/// For a failed comparison, show what each side was.
fn explain_false(engine: &Engine, st: &State, cond: &ExprIr, text: &str) -> String {
    let evaluator = Evaluator::new(engine.game, st);
    if let ExprKindIr::Binary(op, l, r) = &cond.plain().kind
        && op.is_comparison()
    {
        let lv = eval0(engine, st, l).map(|v| evaluator.label_clipped(&v, SHOWN_VALUE)).unwrap_or_else(|f| f.message);
        let rv = eval0(engine, st, r).map(|v| evaluator.label_clipped(&v, SHOWN_VALUE)).unwrap_or_else(|f| f.message);
        let file = engine.game.file(cond.span.file);
        let ltext = file.map(|f| f.slice(l.span).to_string()).unwrap_or_default();
        let rtext = file.map(|f| f.slice(r.span).to_string()).unwrap_or_default();
        // `x in ZONE` that fails: say where `x` is.
        let whereabouts = match (op, eval0(engine, st, l)) {
            (BinaryOperator::In | BinaryOperator::NotIn, Ok(Value::Obj(o))) => Some(match st.obj(o).map(|x| x.place) {
                Some(arbiter_runtime::state::Place::Under(h)) => format!("; `{ltext}` is under {}", evaluator.label(&Value::Obj(h))),
                _ => match st.zone_of(o) {
                    Some(z) => format!("; `{ltext}` is in {}", evaluator.label(&Value::Zone(z))),
                    None => format!("; `{ltext}` is in no zone"),
                },
            }),
            _ => None,
        };
        return format!("`{ltext}` is {lv}; `{rtext}` is {rv}{}", whereabouts.unwrap_or_default());
    }
    format!("`{text}` is false")
}
