//! Procedure calls: the arguments worked out, `requires` tested, and the replacements that may
//! stand in for the procedure (`replace` items and lasting `replace` statements) found, offered
//! and pushed in its place.

use super::engine::Engine;
use super::eval::{err, new_env};
use super::exec::lasting_slots;
use super::state::*;
use super::{RtError, RtResult};
use arbiter_ir::value::{Seat, Value};
use arbiter_ir::*;
use arbiter_syntax::span::Span;

impl Engine<'_> {
    /// Call a procedure: `requires` not met means nothing happens (do as much as you can);
    /// replacements may apply instead.
    pub fn do_call(&self, st: &mut State, call: &CallIr, env: u32, ret: Option<(u32, Slot)>) -> RtResult {
        // The arguments become the procedure's first slots: room for all its slots at once.
        let slots = match &call.target {
            CallTarget::Proc(p) => self.game.proc_def(*p).map_or(0, |d| d.slots as usize),
            CallTarget::Dynamic(_) => 0,
        };
        let mut args = Vec::with_capacity(call.args.len().max(slots));
        for a in &call.args {
            args.push(self.eval_in(st, env, a)?);
        }
        let pid = match &call.target {
            CallTarget::Proc(p) => *p,
            CallTarget::Dynamic(e) => match self.eval_in(st, env, e)? {
                Value::Proc(p) => p,
                other => return Err(self.evaluator(st).type_err(e.span, "a procedure", &other)),
            },
        };
        self.call_proc(st, pid, args, ret, &[], call.span)
    }

    pub fn call_proc(
        &self,
        st: &mut State,
        pid: ProcId,
        args: Vec<Value>,
        ret: Option<(u32, Slot)>,
        declined: &[ReplacementRef],
        span: Span,
    ) -> RtResult {
        // A call that returns nothing (it did nothing, or ended without `return`) leaves `none`.
        if let Some((renv, rslot)) = ret {
            Self::set_local(st, renv, rslot, Value::None);
        }
        let def = self.game.proc_def(pid).ok_or_else(|| err(span, "no such procedure"))?;
        if def.params.len() != args.len() {
            return Err(err(span, format!("`{}` takes {} arguments, not {}", def.info.name, def.params.len(), args.len())));
        }
        let (you, self_obj) = self.caller_context(st);
        if let Some(req) = &def.requires
            && !self.evaluator(st).holds_in(req, def.slots, &args, you, self_obj)?
        {
            return Ok(());
        }
        // A forbidden call does nothing, as one whose `requires` fails.
        let may_be_forbidden = !self.game.proc_forbids.is_empty() || !st.lasting.is_empty() || self.game.objects_hook.proc(pid);
        if may_be_forbidden && self.evaluator(st).proc_forbidden(pid, &args)? {
            return Ok(());
        }
        if let Some((cand, optional)) = self.find_replacement(st, pid, &args, declined)? {
            match optional {
                None => return self.push_replacement(st, pid, cand, args, ret, span),
                Some((seat, prompt)) => {
                    let options = vec![
                        Choice { label: "yes".into(), value: Value::Bool(true), rarely: false },
                        Choice { label: "no".into(), value: Value::Bool(false), rarely: false },
                    ];
                    let dest = Dest::Replace { proc: pid, args, ret, candidate: cand, declined: declined.to_vec() };
                    return self.ask(st, seat, prompt, options, Count::One, None, false, dest, span);
                }
            }
        }
        self.push_proc(st, pid, args, ret)
    }

    /// The first replacement that applies to this call and is not already applying.
    #[expect(clippy::type_complexity, reason = "a replacement and who is asked about it")]
    fn find_replacement(
        &self,
        st: &State,
        pid: ProcId,
        args: &[Value],
        declined: &[ReplacementRef],
    ) -> Result<Option<(ReplacementRef, Option<(Seat, String)>)>, RtError> {
        // Whether a routine is running now (a replacement never replaces its own calls).
        let running = |r: Routine| st.frames.iter().any(|f| matches!(f.kind, FrameKind::Call { routine, .. } if routine == r));
        let evaluator = self.evaluator(st);
        // Does this replacement apply (and, if optional, who is asked what)?
        let applies = |r: &ReplaceDef, env: &mut Env| -> Result<Option<Option<(Seat, String)>>, RtError> {
            if let Some(w) = &r.when
                && !evaluator.truth(w, env)?
            {
                return Ok(None);
            }
            Ok(Some(match &r.optional {
                Some((who, prompt)) => Some((evaluator.player(who, env)?, prompt.clone())),
                None => None,
            }))
        };
        for (i, r) in self.game.replaces.iter().enumerate() {
            let rr = ReplacementRef::Rule(i as u32);
            if r.target != pid || declined.contains(&rr) || running(Routine::Replace(i as u32)) {
                continue;
            }
            if let Some(opt) = applies(r, &mut new_env(r.slots, args.to_vec(), None, None))? {
                return Ok(Some((rr, opt)));
            }
        }
        // Lasting replacements effects made, in the order they were made.
        for l in &st.lasting {
            let Some(d) = self.game.lasting.get(l.def as usize) else { continue };
            let Some(lr) = &d.replace else { continue };
            let rr = ReplacementRef::Lasting(l.made);
            if d.target != Hooked::Proc(pid) || declined.contains(&rr) || running(Routine::LastingReplace(l.def)) {
                continue;
            }
            let mut env = Env { slots: lasting_slots(l, &d.params, args), you: l.you, self_obj: l.self_obj, rec: super::state::NO_CALL };
            if !evaluator.truth(&d.when, &mut env)? {
                continue;
            }
            let opt = match &lr.optional {
                Some((who, prompt)) => Some((evaluator.player(who, &mut env)?, prompt.clone())),
                None => None,
            };
            return Ok(Some((rr, opt)));
        }
        for (id, def) in evaluator.active_passives(self.game.objects_hook.proc(pid), |d| d.replaces.iter().any(|r| r.target == pid))? {
            let controller = st.obj(id).map(|x| x.controller);
            for (ri, r) in def.replaces.iter().enumerate() {
                let rr = ReplacementRef::Obj(id, ri as u16);
                if r.target != pid || declined.contains(&rr) || running(Routine::ObjReplace(id, ri as u16)) {
                    continue;
                }
                if let Some(opt) = applies(r, &mut new_env(r.slots, args.to_vec(), controller, Some(id)))? {
                    return Ok(Some((rr, opt)));
                }
            }
        }
        Ok(None)
    }

    pub fn push_replacement(
        &self,
        st: &mut State,
        pid: ProcId,
        r: ReplacementRef,
        args: Vec<Value>,
        ret: Option<(u32, Slot)>,
        span: Span,
    ) -> RtResult {
        let (routine, body, slots, you, self_obj) = match r {
            ReplacementRef::Rule(i) => {
                let d = self.game.replaces.get(i as usize).ok_or_else(|| err(span, "no such replacement"))?;
                (Routine::Replace(i), d.body, d.slots, None, None)
            }
            ReplacementRef::Obj(o, i) => {
                let d = st
                    .obj(o)
                    .and_then(|ob| self.game.def(ob.def))
                    .and_then(|d| d.replaces.get(i as usize))
                    .ok_or_else(|| err(span, "no such replacement"))?;
                (Routine::ObjReplace(o, i), d.body, d.slots, st.obj(o).map(|x| x.controller), Some(o))
            }
            ReplacementRef::Lasting(made) => {
                let l = st.lasting.iter().find(|l| l.made == made).ok_or_else(|| err(span, "no such lasting replacement"))?;
                let d = self.game.lasting.get(l.def as usize).ok_or_else(|| err(span, "no such lasting replacement"))?;
                let body = d.replace.as_ref().map(|r| r.body).ok_or_else(|| err(span, "no such lasting replacement"))?;
                // Its env is the one it was made in, with the call's arguments in its parameters.
                let slots = lasting_slots(l, &d.params, &args);
                let n = u16::try_from(slots.len()).unwrap_or(u16::MAX);
                let (you, self_obj, def) = (l.you, l.self_obj, l.def);
                self.log(st, EventKind::Replaced { original: pid, by: Routine::LastingReplace(def) }, ALL, span);
                self.push_routine(st, Routine::LastingReplace(def), body, n, slots, you, self_obj, ret);
                return Ok(());
            }
        };
        self.log(st, EventKind::Replaced { original: pid, by: routine }, ALL, span);
        self.push_routine(st, routine, body, slots, args, you, self_obj, ret);
        Ok(())
    }
}
