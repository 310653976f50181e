//! Decisions: asking one (or settling it at once when there is nothing to decide), and checking
//! and taking an answer. An answer that is not legal is refused before anything changes.

use super::RtError;
use super::engine::Engine;
use super::eval::err;
use super::state::*;
use arbiter_ir::value::{Seat, Value};
use arbiter_syntax::diag::Diag;
use arbiter_syntax::span::Span;
use std::sync::Arc;

/// Why an answer was not taken.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AnswerError {
    /// Not a legal answer: nothing changed, ask again.
    #[error("{0}")]
    Refused(String),
    /// The rules failed while taking the answer in.
    #[error("{}", .0.message)]
    Rule(RtError),
}

impl AnswerError {
    /// A refusal has no place in the rules (it is the answer that is wrong); a rule error is
    /// where the rule failed.
    pub fn to_diag(&self) -> Diag {
        match self {
            AnswerError::Refused(m) => {
                Diag::error(Span::NONE, m.clone()).help("nothing changed: answer the decision again, with one of its options")
            }
            AnswerError::Rule(e) => e.to_diag(),
        }
    }
}

impl From<AnswerError> for Diag {
    fn from(e: AnswerError) -> Diag {
        e.to_diag()
    }
}

impl Engine<'_> {
    /// Ask for a decision, or settle it at once when there is nothing to decide.
    #[expect(clippy::too_many_arguments, reason = "a decision's whole description, passed once")]
    pub fn ask(
        &self,
        st: &mut State,
        seat: Seat,
        prompt: String,
        mut options: Vec<Choice>,
        count: Count,
        none: Option<String>,
        secret: bool,
        dest: Dest,
        span: Span,
    ) -> Result<(), RtError> {
        if let Some(p) = &st.pending {
            return Err(err(span, format!("internal: a decision was asked while P{} was still deciding `{}`", p.seat + 1, p.prompt)));
        }
        let plain: Option<Arc<[Arc<str>]>> = super::labels::dedupe_labels(&mut options).map(Into::into);
        // Texts shared by the decision and the events that log it.
        let prompt: Arc<str> = prompt.into();
        let none: Option<Arc<str>> = none.map(Into::into);
        let n = options.len();
        let forced: Option<Value> = match count {
            // Nothing to choose but "nothing" (when there is such an option): that is the only choice.
            Count::One if n == 0 => Some(Value::None),
            Count::One if n == 1 && none.is_none() => options.first().map(|c| c.value.clone()),
            Count::Exactly(k) if k as usize >= n => Some(Value::list(options.iter().map(|c| c.value.clone()).collect())),
            Count::UpTo(_) if n == 0 => Some(Value::list(vec![])),
            Count::UpTo(0) | Count::Exactly(0) => Some(Value::list(vec![])),
            Count::Order if n <= 1 => Some(Value::list(options.iter().map(|c| c.value.clone()).collect())),
            _ => None,
        };
        // What is asked, in the question logged for the chooser alone, settled at once or not.
        let offered: Arc<[Arc<str>]> = options.iter().map(|c| c.label.clone()).chain(none.clone()).collect();
        if let Some(v) = forced {
            if let Some(tracer) = self.cause_recorder() {
                let at = st.log.len();
                tracer.decision_settled(super::trace::Settled { at, seat, prompt: prompt.clone(), options: offered.to_vec(), count });
            }
            // What was taken: "nothing", no option (an empty list), or every option, which the
            // others read without their numbers.
            let every = match &v {
                Value::None => false,
                Value::List(l) => !l.is_empty(),
                _ => true,
            };
            let labels: Arc<[Arc<str>]> = match &v {
                Value::None => none.clone().into_iter().collect(),
                _ if every => options.iter().map(|c| c.label.clone()).collect(),
                _ => Arc::from([]),
            };
            let plain = plain.filter(|_| every);
            self.question(st, seat, &prompt, offered, span);
            let vis = if secret { seat_bit(seat) } else { ALL };
            let withheld = if every && !secret { st.withheld(options.iter().map(|c| &c.value)) } else { vec![] };
            self.log(st, EventKind::Answered { seat, prompt, labels, forced: true, plain, withheld }, vis, span);
            return self.deliver(st, dest, v, span);
        }
        let cause = self.cause(st, span);
        self.question(st, seat, &prompt, offered, span);
        st.pending = Some(Decision { seat, prompt, options, count, none, secret, dest, cause, plain });
        Ok(())
    }

    /// A decision's question, alike whether it is settled at once or waits for an answer, so that
    /// the others cannot tell the two apart: logged for the chooser alone (the others read one
    /// event they do not see before every answer, so the events' numbers do not tell them which
    /// answers were the only choice: a secrecy audit read hands from the gaps); a replay's picture
    /// taken there (`Tracer::decision_asked`); and the window in which objects that left play are
    /// still heard by their triggers closed (else a trigger would fire across one and not across
    /// the other, for everyone to see).
    fn question(&self, st: &mut State, seat: Seat, prompt: &Arc<str>, options: Arc<[Arc<str>]>, span: Span) {
        self.log(st, EventKind::Asked { seat, prompt: prompt.clone(), options }, seat_bit(seat), span);
        if let Some(tracer) = self.cause_recorder() {
            tracer.decision_asked(st);
        }
        st.left_play.clear();
    }

    /// Answer the pending decision. An illegal answer is refused and nothing changes; a rule that
    /// fails while taking the answer in is a rule error.
    pub fn answer(&self, st: &mut State, seat: Seat, answer: &Answer) -> Result<(), AnswerError> {
        self.check_answer(st, seat, answer)?;
        self.take_answer(st, seat, answer)
            .map_err(|e| AnswerError::Rule(e.in_rule(|| self.running_rule(st)).called_from(|| self.call_sites(st))))
    }

    fn check_answer(&self, st: &State, seat: Seat, answer: &Answer) -> Result<(), AnswerError> {
        let Some(d) = &st.pending else { return Err(refused("there is no decision to answer")) };
        if d.seat != seat {
            return Err(refused(format!("it is P{}'s decision, not P{}'s", d.seat + 1, seat + 1)));
        }
        let total = d.offered();
        let idx = &answer.0;
        if let Some(bad) = idx.iter().find(|i| **i >= total) {
            return Err(refused(no_such_option(bad + 1, total)));
        }
        if idx.len() > 1 {
            let mut seen = idx.clone();
            seen.sort_unstable();
            seen.dedup();
            if seen.len() != idx.len() {
                return Err(refused("an option was chosen twice"));
            }
        }
        let none_idx = d.none.as_ref().map(|_| d.options.len());
        let uses_none = idx.iter().any(|i| Some(*i) == none_idx);
        match d.count {
            Count::One if idx.len() != 1 => Err(refused("choose exactly one option")),
            Count::Exactly(k) if Some(idx.len()) != usize::try_from(k).ok() || uses_none => {
                Err(refused(format!("choose exactly {k} {}", if k == 1 { "option" } else { "options" })))
            }
            Count::UpTo(k) if idx.len() > k as usize || uses_none => {
                Err(refused(format!("choose at most {k} {}", if k == 1 { "option" } else { "options" })))
            }
            Count::Order if idx.len() != d.options.len() || uses_none => {
                Err(refused(format!("put all {} options in order", d.options.len())))
            }
            _ => Ok(()),
        }
    }

    fn take_answer(&self, st: &mut State, seat: Seat, answer: &Answer) -> Result<(), RtError> {
        let Some(d) = st.pending.take() else { return Ok(()) };
        let idx = &answer.0;
        let pick = |i: &usize| d.options.get(*i).map(|c| c.value.clone()).unwrap_or_default();
        let value = match d.count {
            Count::One => idx.first().map(pick).unwrap_or_default(),
            _ => Value::list(idx.iter().map(pick).collect()),
        };
        let label = |labels: Option<&[Arc<str>]>, i: usize| {
            let numbered = d.options.get(i).map(|c| &c.label);
            labels.and_then(|l| l.get(i)).or(numbered).cloned().or_else(|| d.none.clone()).unwrap_or_else(|| Arc::from(""))
        };
        let labels: Arc<[Arc<str>]> = idx.iter().map(|i| label(None, *i)).collect();
        let plain: Option<Arc<[Arc<str>]>> = d.plain.as_deref().map(|p| idx.iter().map(|i| label(Some(p), *i)).collect());
        st.decisions += 1;
        let vis = if d.secret { seat_bit(seat) } else { ALL };
        let withheld = if d.secret { vec![] } else { st.withheld(idx.iter().filter_map(|i| d.options.get(*i).map(|c| &c.value))) };
        st.log.push(Event {
            kind: EventKind::Answered { seat, prompt: d.prompt.clone(), labels, forced: false, plain, withheld },
            cause: d.cause,
            visible: vis,
            depth: st.frames.iter().filter(|f| matches!(f.kind, FrameKind::Call { .. })).count() as u16,
        });
        self.trace_event(st);
        self.deliver(st, d.dest, value, d.cause.span)
    }

    fn deliver(&self, st: &mut State, dest: Dest, v: Value, span: Span) -> Result<(), RtError> {
        st.dirty = true;
        match dest {
            Dest::Discard => Ok(()),
            Dest::Slot { env, slot } => {
                if let Some(e) = st.envs.get_mut(env as usize) {
                    super::eval::set_slot(e, slot, v);
                }
                Ok(())
            }
            Dest::Branch { env, blocks } => {
                if let Value::Int(i) = v
                    && let Some(b) = blocks.get(usize::try_from(i).unwrap_or(usize::MAX))
                {
                    st.frames.push(Frame { kind: FrameKind::Block { block: *b, pc: 0 }, env });
                }
                Ok(())
            }
            Dest::Replace { proc, args, ret, candidate, mut declined } => {
                if v == Value::Bool(true) {
                    self.push_replacement(st, proc, candidate, args, ret, span)
                } else {
                    declined.push(candidate);
                    self.call_proc(st, proc, args, ret, &declined, span)
                }
            }
        }
    }
}

/// An answer refused: not a legal answer, nothing changed.
/// An option number (from 1) past the `total` a decision offers, as a seat is told.
pub fn no_such_option(number: usize, total: usize) -> String {
    format!("there is no option {number} (choose 1 to {total})")
}

fn refused(message: impl Into<String>) -> AnswerError {
    AnswerError::Refused(message.into())
}

#[cfg(test)]
mod tests {
    use super::AnswerError;
    use crate::RtError;
    use arbiter_syntax::diag::Diag;
    use arbiter_syntax::span::{FileId, Span};

    #[test]
    fn an_answer_not_taken_is_a_diagnostic_refusals_keeping_their_message() {
        let e = AnswerError::Refused("there is no option 9 (choose 1 to 3)".into());
        assert_eq!(e.to_string(), "there is no option 9 (choose 1 to 3)");
        let d = Diag::from(e);
        assert_eq!(d.message, "there is no option 9 (choose 1 to 3)");
        assert_eq!(d.span, Span::NONE);
        assert!(d.help.as_deref().is_some_and(|h| h.contains("nothing changed")), "{:?}", d.help);
        let rule = RtError::new("division by zero".into(), Span::new(FileId::NOWHERE, 4, 9)).with_help("check the divisor");
        let e = AnswerError::Rule(rule.clone());
        assert_eq!(e.to_string(), "division by zero");
        assert_eq!(Diag::from(e), rule.to_diag());
    }
}
