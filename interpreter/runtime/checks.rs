//! What may be done: `check`s with their forbids and permits (printed, lasting and on objects),
//! procedures' `requires`, the turn order, and abilities with their costs and targets.

use super::RtResult;
use super::eval::*;
use super::state::Env;
use arbiter_ir::value::{ObjId, Seat, Value};
use arbiter_ir::*;
use arbiter_syntax::span::Span;

impl<'a> Evaluator<'a> {
    /// A `check`: false if any forbid applies (can't beats can), else the rule or any permit.
    pub fn check(&self, cid: CheckId, args: &[Value], env: &Env, span: Span) -> RtResult<Value> {
        let c = self.game.checks.get(cid as usize).ok_or_else(|| err(span, "no such check"))?;
        self.nested(span, || self.check_inner(cid, c, args, env)).map(Value::Bool)
    }

    fn check_inner(&self, cid: CheckId, c: &CheckDef, args: &[Value], env: &Env) -> RtResult<bool> {
        for h in &c.forbids {
            if self.holds_in(&h.when, h.slots, args, env.you, env.self_obj)? {
                return Ok(false);
            }
        }
        if self.lasting_holds(Hooked::Check(cid), true, args)? {
            return Ok(false);
        }
        let hooks = self.object_hooks(cid)?;
        for (src, h, forbid) in &hooks {
            if *forbid && self.holds_in(&h.when, h.slots, args, self.controller(*src), Some(*src))? {
                return Ok(false);
            }
        }
        if self.holds_in(&c.func.body, c.func.slots, args, env.you, env.self_obj)? {
            return Ok(true);
        }
        for h in &c.permits {
            if self.holds_in(&h.when, h.slots, args, env.you, env.self_obj)? {
                return Ok(true);
            }
        }
        if self.lasting_holds(Hooked::Check(cid), false, args)? {
            return Ok(true);
        }
        for (src, h, forbid) in &hooks {
            if !*forbid && self.holds_in(&h.when, h.slots, args, self.controller(*src), Some(*src))? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether a lasting forbid (or permit) an effect made answers this check for these arguments:
    /// its condition read with the names of the code that made it, the arguments in its parameters.
    fn lasting_holds(&self, target: Hooked, forbid: bool, args: &[Value]) -> RtResult<bool> {
        for l in &self.state.lasting {
            let Some(d) = self.game.lasting.get(l.def as usize) else { continue };
            if d.target != target || d.forbid != forbid || d.replace.is_some() {
                continue;
            }
            let slots = super::exec::lasting_slots(l, &d.params, args);
            let mut env = Env { slots, you: l.you, self_obj: l.self_obj, rec: super::state::NO_CALL };
            if self.truth(&d.when, &mut env)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Permits and forbids printed on objects whose abilities are in effect.
    fn object_hooks(&self, cid: CheckId) -> RtResult<Vec<(ObjId, &'a HookDef, bool)>> {
        let mut out = Vec::new();
        let any = self.game.objects_hook.check(cid);
        let t = Hooked::Check(cid);
        for (id, def) in self.active_passives(any, |d| d.permits.iter().chain(d.forbids.iter()).any(|h| h.target == t))? {
            out.extend(def.forbids.iter().filter(|h| h.target == t).map(|h| (id, h, true)));
            out.extend(def.permits.iter().filter(|h| h.target == t).map(|h| (id, h, false)));
        }
        Ok(out)
    }

    /// Is a call of this procedure with these arguments forbidden — by the rulebook, by an effect
    /// for a while, or by an object whose abilities are in effect? Each forbid's condition is read
    /// with the procedure's arguments in its parameters.
    pub fn proc_forbidden(&self, pid: ProcId, args: &[Value]) -> RtResult<bool> {
        let t = Hooked::Proc(pid);
        for h in self.game.proc_forbids.iter().filter(|h| h.target == t) {
            if self.holds_in(&h.when, h.slots, args, None, None)? {
                return Ok(true);
            }
        }
        if !self.state.lasting.is_empty() && self.lasting_holds(t, true, args)? {
            return Ok(true);
        }
        let any = self.game.objects_hook.proc(pid);
        for (id, def) in self.active_passives(any, |d| d.forbids.iter().any(|h| h.target == t))? {
            for h in def.forbids.iter().filter(|h| h.target == t) {
                if self.holds_in(&h.when, h.slots, args, self.controller(id), Some(id))? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    pub fn controller(&self, o: ObjId) -> Option<Seat> {
        self.state.obj(o).map(|x| x.controller)
    }

    /// Whether a procedure's `requires` holds for these arguments.
    pub fn can_proc(&self, pid: ProcId, args: &[Value], env: &Env, span: Span) -> RtResult<Value> {
        let p = self.game.proc_def(pid).ok_or_else(|| err(span, "no such procedure"))?;
        match &p.requires {
            None => Ok(Value::Bool(true)),
            Some(req) => self.nested(span, || self.holds_in(req, p.slots, args, env.you, env.self_obj)).map(Value::Bool),
        }
    }

    /// Players still in, starting at `first` (or the next one in if `first` is out), going left.
    pub fn turn_order(&self, first: Seat) -> Vec<Seat> {
        let n = self.state.player_count();
        let mut out = Vec::new();
        for k in 0..n {
            let s = (first as usize + k) % n.max(1);
            if self.state.players.get(s).is_some_and(|p| !p.out) {
                out.push(Seat::try_from(s).unwrap_or(0));
            }
        }
        out
    }

    pub fn next_active(&self, p: Seat) -> Option<Seat> {
        let n = self.state.player_count();
        (1..=n)
            .map(|k| (p as usize + k) % n.max(1))
            .find(|s| self.state.players.get(*s).is_some_and(|x| !x.out))
            .map(|s| Seat::try_from(s).unwrap_or(0))
    }

    /// The abilities an object has in a slot, if its abilities are in effect.
    pub fn abilities(&self, o: ObjId, slot: &str) -> RtResult<Vec<Value>> {
        let Some(ob) = self.state.obj(o) else { return Ok(vec![]) };
        let Some(def) = self.game.def(ob.def) else { return Ok(vec![]) };
        // Most objects print none in the slot asked for: then whether they are blank (worked
        // out through the modifiers) does not matter, and is not worked out here. So a blanking
        // modifier's condition that fails for such an object fails where its blankness decides
        // something (a field read, `active`), not here, and its steps are taken there: as a
        // target's candidates after the first legal one are not tested (`first_target`).
        if !def.abilities.iter().any(|a| a.slot == slot) {
            return Ok(vec![]);
        }
        // Only the top object of a pile acts: objects under another have no abilities.
        if matches!(ob.place, super::state::Place::Under(_)) || self.is_blank(o)? {
            return Ok(vec![]);
        }
        Ok(def
            .abilities
            .iter()
            .enumerate()
            .filter(|(_, a)| a.slot == slot)
            .map(|(i, _)| Value::Ability(o, u16::try_from(i).unwrap_or(0)))
            .collect())
    }

    /// Costs payable, requirement met, and every target has a legal choice.
    pub fn can_use(&self, o: ObjId, i: u16, by: Option<Seat>, span: Span) -> RtResult<bool> {
        let Some(ob) = self.state.obj(o) else { return Ok(false) };
        let Some(a) = self.game.def(ob.def).and_then(|d| d.abilities.get(i as usize)) else { return Ok(false) };
        let mut env = new_env(a.slots, vec![], Some(by.unwrap_or(ob.controller)), Some(o));
        if let Some(req) = &a.requires
            && !self.truth(req, &mut env)?
        {
            return Ok(false);
        }
        for c in &a.costs {
            let args = self.eval_args(&c.args, &mut env)?;
            if let CallTarget::Proc(p) = c.target
                && self.can_proc(p, &args, &env, span)? != Value::Bool(true)
            {
                return Ok(false);
            }
        }
        for t in &a.targets {
            // Later targets may depend on earlier ones: assume the first legal choice.
            match self.first_target(t, &mut env)? {
                None => return Ok(false),
                Some(first) => set_slot(&mut env, t.slot, first),
            }
        }
        Ok(true)
    }

    /// The first of a target's legal choices, if it has one: the candidates after it are not
    /// tested (whether a choice exists is all `can_use` asks; choosing lists them all).
    fn first_target(&self, t: &TargetDef, env: &mut Env) -> RtResult<Option<Value>> {
        let mut first = None;
        self.legal_targets(t, env, |v| {
            first = Some(v);
            false
        })?;
        Ok(first)
    }

    pub fn target_options(&self, t: &TargetDef, env: &mut Env) -> RtResult<Vec<Value>> {
        let mut out = Vec::new();
        self.legal_targets(t, env, |v| {
            out.push(v);
            true
        })?;
        Ok(out)
    }

    /// A target's legal choices, in its list's order, each to `take` while it says go on (the
    /// candidates after are not tested).
    fn legal_targets(&self, t: &TargetDef, env: &mut Env, mut take: impl FnMut(Value) -> bool) -> RtResult<()> {
        let items = self.list_of(&t.from, env)?;
        for it in items.iter() {
            let legal = match &t.filter {
                None => true,
                Some(f) => {
                    set_slot(env, t.slot, it.clone());
                    self.truth(f, env)?
                }
            };
            if legal && !take(it.clone()) {
                break;
            }
        }
        Ok(())
    }
}
