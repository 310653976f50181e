//! Permits, forbids and replacements: what they adjust (a check, or a procedure), their
//! parameters and conditions, printed, in the rulebook, or made by an effect to last a while.

use super::Checker;
use super::items::info;
use super::lower_expr::LowerContext;
use super::scope::Scope;
use arbiter_ir::*;
use arbiter_syntax::ast;
use arbiter_syntax::diag::{Diag, did_you_mean};

impl Checker {
    pub(super) fn lower_hook(&mut self, h: &ast::HookItem, forbid: bool, cx: &LowerContext) -> Option<HookDef> {
        let mut sc = Scope::new();
        let (target, _, when) = self.lower_hook_in(h, forbid, &mut sc, cx)?;
        Some(HookDef { info: info(&h.name, &h.cite), target, when, slots: sc.max })
    }

    /// A permit's or forbid's check (or a forbid's procedure), its parameters declared in `sc`
    /// (their slots), and its condition: evaluated in `sc`, so that a lasting one can read the
    /// names of the code that made it.
    pub(super) fn lower_hook_in(
        &mut self,
        h: &ast::HookItem,
        forbid: bool,
        sc: &mut Scope,
        cx: &LowerContext,
    ) -> Option<(Hooked, Vec<Slot>, ExprIr)> {
        let (target, params) = if let Some(&cid) = self.check_by_name.get(&h.name.node) {
            (Hooked::Check(cid), self.check_params.get(cid as usize).cloned().unwrap_or_default())
        } else if let Some(&pid) = self.proc_by_name.get(&h.name.node) {
            if !forbid {
                self.error(
                    Diag::error(h.name.span, format!("`{}` is a procedure: it can be forbidden, not permitted", h.name.node))
                        .label("a `proc`")
                        .help(format!(
                            "a procedure runs when it is called; to make it do something else, use `replace` (`instead of {}(..)`)",
                            h.name.node
                        )),
                );
                return None;
            }
            (Hooked::Proc(pid), self.proc_params.get(pid as usize).cloned().unwrap_or_default())
        } else {
            let mut help = did_you_mean(&h.name.node, self.check_by_name.keys().chain(self.proc_by_name.keys()).map(String::as_str));
            if help.is_none() && self.func_by_name.contains_key(&h.name.node) {
                help = Some(format!("`{}` is a `func`; declare it with `check` so that permits and forbids can adjust it", h.name.node));
            }
            let what = if forbid { "check or procedure" } else { "check" };
            self.error(
                Diag::error(h.name.span, format!("unknown {what} `{}`", h.name.node)).label(format!("not a {what}")).maybe_help(help),
            );
            return None;
        };
        if params.len() != h.params.len() {
            self.error(Diag::error(h.name.span, format!("`{}` has {} parameters, not {}", h.name.node, params.len(), h.params.len())));
        }
        let mut slots = Vec::new();
        for (i, p) in h.params.iter().enumerate() {
            slots.push(sc.declare(&p.name.node, params.get(i).map(|(_, t)| t.clone()).unwrap_or(Ty::Any)));
        }
        let pure = LowerContext { pure: true, ..cx.clone() };
        let when = self.lower_cond(&h.when, sc, &pure);
        Some((target, slots, when))
    }

    /// The procedure a replacement names, with its parameters (checked against the replacement's).
    fn replaced_proc(&mut self, r: &ast::ReplaceBody) -> Option<(ProcId, Vec<(String, Ty)>)> {
        let Some(&pid) = self.proc_by_name.get(&r.target.node) else {
            let help = did_you_mean(&r.target.node, self.proc_by_name.keys().map(String::as_str));
            self.error(
                Diag::error(r.target.span, format!("unknown procedure `{}`", r.target.node))
                    .label("only a procedure call can be replaced")
                    .maybe_help(help),
            );
            return None;
        };
        let params = self.proc_params.get(pid as usize).cloned().unwrap_or_default();
        if params.len() != r.params.len() {
            self.error(Diag::error(r.target.span, format!("`{}` has {} parameters, not {}", r.target.node, params.len(), r.params.len())));
        }
        Some((pid, params))
    }

    pub(super) fn lower_replace_body(&mut self, r: &ast::ReplaceBody, info: RuleInfo, cx: &LowerContext) -> Option<ReplaceDef> {
        let (pid, params) = self.replaced_proc(r)?;
        let mut sc = Scope::new();
        for (i, p) in r.params.iter().enumerate() {
            sc.declare(&p.name.node, params.get(i).map(|(_, t)| t.clone()).unwrap_or(Ty::Any));
        }
        let pure = LowerContext { pure: true, ..cx.clone() };
        let when = r.when.as_ref().map(|w| self.lower_cond(w, &mut sc, &pure));
        let optional = r.optional.as_ref().map(|(who, prompt)| {
            let (x, t) = self.lower_expr(who, &mut sc, &pure);
            self.expect_ty(&t, &Ty::Player, who.span);
            (x, prompt.node.clone())
        });
        let body = self.lower_block(&r.body, &mut sc, cx);
        Some(ReplaceDef { info, target: pid, when, optional, body, slots: sc.max })
    }

    /// A lasting replacement an effect makes: the procedure, its parameters' slots in `sc` (the
    /// scope of the code that makes it), its condition and what it does instead.
    pub(super) fn lower_lasting_replace(
        &mut self,
        r: &ast::ReplaceBody,
        sc: &mut Scope,
        cx: &LowerContext,
    ) -> Option<(ProcId, Vec<Slot>, Option<ExprIr>, LastingReplaceDef)> {
        let (pid, params) = self.replaced_proc(r)?;
        let slots: Vec<Slot> = r
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| sc.declare(&p.name.node, params.get(i).map(|(_, t)| t.clone()).unwrap_or(Ty::Any)))
            .collect();
        let pure = LowerContext { pure: true, ..cx.clone() };
        let when = r.when.as_ref().map(|w| self.lower_cond(w, sc, &pure));
        let optional = r.optional.as_ref().map(|(who, prompt)| {
            let (x, t) = self.lower_expr(who, sc, &pure);
            self.expect_ty(&t, &Ty::Player, who.span);
            (x, prompt.node.clone())
        });
        let body = self.lower_block(&r.body, sc, cx);
        Some((pid, slots, when, LastingReplaceDef { body, optional }))
    }
}
