//! Lowering rule items (procedures, functions, checks, triggers, modifiers, replacements,
//! state checks) and object definitions with their printed values and abilities.

use super::lower_expr::LowerContext;
use super::scope::Scope;
use super::{Checker, Ns, Placed, Role};
use arbiter_ir::value::Value;
use arbiter_ir::*;
use arbiter_syntax::ast::{self, Item, PropValue};
use arbiter_syntax::diag::{Diag, did_you_mean};
use arbiter_syntax::span::Span;
use std::sync::Arc;

pub(super) fn info(name: &ast::Name, cite: &Option<ast::Spanned<String>>) -> RuleInfo {
    RuleInfo { name: name.node.clone(), cite: cite.as_ref().map(|c| c.node.clone()), span: name.span }
}

impl Checker {
    fn want_cite(&mut self, role: Role, name: &ast::Name, cite: &Option<ast::Spanned<String>>) {
        if cite.is_none() && matches!(role, Role::Rulebook | Role::Variant) {
            self.error(
                Diag::warning(name.span, format!("rule item `{}` has no citation", name.node))
                    .help("add `cite \"L120-130\"` naming the lines of the rulebook text it implements"),
            );
        }
    }

    /// A hint scores the state for one seat, and a side says whether a seat is on it: one
    /// parameter, a player.
    fn hint(&mut self, h: &ast::HintItem) {
        let f = &h.func;
        let one_player = matches!(f.params.as_slice(), [p] if p.ty.as_ref().is_some_and(|t| t.kind == ast::TypeKind::Named { name: "player".into(), optional: false }));
        if !one_player {
            let span = f.params.first().map_or(f.name.span, |p| p.name.span);
            let what = if h.side { "side" } else { "hint" };
            self.error(
                Diag::error(span, format!("{what} `{}` must take one player", f.name.node))
                    .label(if h.side { "a side says whether one seat is on it" } else { "a hint scores the state for one seat" })
                    .help(format!("write `{what} {}(p: player) = ...`", f.name.node)),
            );
        }
    }

    fn bind_params(&mut self, sc: &mut Scope, params: &[(String, Ty)]) {
        for (n, t) in params {
            sc.declare(n, t.clone());
        }
    }

    pub(super) fn lower_cond(&mut self, e: &ast::Expr, sc: &mut Scope, cx: &LowerContext) -> ExprIr {
        let (x, t) = self.lower_expr(e, sc, cx);
        self.expect_ty(&t, &Ty::Bool, e.span);
        x
    }

    pub fn lower_items(&mut self, items: &[Placed]) {
        self.lower_consts_and_defaults(items);
        self.lower_funcs_and_checks(items);
        self.lower_rule_items(items);
    }

    /// Constants and field defaults. Each constant is kept as soon as it is lowered, so that the
    /// constants after it (and everything else) can fold it in (see `fold`).
    fn lower_consts_and_defaults(&mut self, items: &[Placed]) {
        let pure = LowerContext { pure: true, ..LowerContext::default() };
        self.game.consts.clear();
        for pl in items {
            if let Item::Const(c) = &pl.item.node {
                self.want_cite(pl.role, &c.name, &c.cite);
                let mut sc = Scope::new();
                let (x, t) = self.lower_expr(&c.value, &mut sc, &pure);
                let want = self.const_by_name.get(&c.name.node).map(|(_, t)| t.clone()).unwrap_or(Ty::Any);
                self.expect_ty(&t, &want, c.value.span);
                self.game.consts.push(ConstDef { name: c.name.node.clone(), value: x, span: c.name.span });
            }
        }
        let mut pi = 0;
        let mut gi = 0;
        for pl in items {
            match &pl.item.node {
                Item::Player(decls) | Item::Global(decls) => {
                    let is_player = matches!(pl.item.node, Item::Player(_));
                    for d in decls {
                        let default = d.default.as_ref().map(|e| {
                            let mut sc = Scope::new();
                            let (x, t) = self.lower_expr(e, &mut sc, &pure);
                            let want = if is_player {
                                self.game.player_fields.get(pi).map(|f| f.ty.clone())
                            } else {
                                self.game.global_fields.get(gi).map(|f| f.ty.clone())
                            };
                            self.expect_ty(&t, &want.unwrap_or(Ty::Any), e.span);
                            x
                        });
                        let slot = if is_player { self.game.player_fields.get_mut(pi) } else { self.game.global_fields.get_mut(gi) };
                        if let Some(f) = slot {
                            f.default = default;
                        }
                        if is_player { pi += 1 } else { gi += 1 }
                    }
                }
                _ => {}
            }
        }
    }

    /// Functions, hints, sides and checks: pure code, typed by what they return.
    fn lower_funcs_and_checks(&mut self, items: &[Placed]) {
        let pure = LowerContext { pure: true, ..LowerContext::default() };
        for pl in items {
            let role = pl.role;
            match &pl.item.node {
                Item::Func(f) | Item::Hint(ast::HintItem { func: f, .. }) => self.lower_func(pl, f, &pure),
                Item::Check(f) => {
                    self.want_cite(role, &f.name, &f.cite);
                    let declared = self.declared_here(Ns::Func, &f.name).then(|| self.check_by_name.get(&f.name.node).copied()).flatten();
                    let params = match declared {
                        Some(id) => self.check_params.get(id as usize).cloned().unwrap_or_default(),
                        None => self.params(&f.params),
                    };
                    let mut sc = Scope::new();
                    self.bind_params(&mut sc, &params);
                    let body = self.lower_cond(&f.body, &mut sc, &pure);
                    if declared.is_none() {
                        continue;
                    }
                    std::sync::Arc::make_mut(&mut self.game.checks).push(CheckDef {
                        func: FuncDef { info: info(&f.name, &f.cite), params, body, slots: sc.max, remember: false },
                        permits: vec![],
                        forbids: vec![],
                    });
                }
                _ => {}
            }
        }
        // Each function declared is lowered once, by the item that declared it, in the order they
        // were declared: ids and bodies line up. (Should one ever not be, its calls find nothing.)
        while self.game.funcs.len() < self.func_params.len() {
            std::sync::Arc::make_mut(&mut self.game.funcs).push(FuncDef {
                info: RuleInfo { name: String::new(), cite: None, span: Span::default() },
                params: vec![],
                body: ExprIr { kind: ExprKindIr::Lit(Value::None), span: Span::default() },
                slots: 0,
                remember: false,
            });
        }
    }

    /// A function, or a hint or side (a function the bots read): its body, typed; a hint must be
    /// a number and a side a condition.
    fn lower_func(&mut self, pl: &Placed, f: &ast::FuncItem, pure: &LowerContext) {
        if let Item::Hint(h) = &pl.item.node {
            self.hint(h);
        } else {
            self.want_cite(pl.role, &f.name, &f.cite);
        }
        // An item that did not declare its name (a second declaration, or a built-in's name) is
        // lowered with its own parameters, for its mistakes, and kept nowhere.
        let declared = self.declared_here(Ns::Func, &f.name).then(|| self.func_by_name.get(&f.name.node).copied()).flatten();
        let params = match declared {
            Some(id) => self.func_params.get(id as usize).cloned().unwrap_or_default(),
            None => self.params(&f.params),
        };
        let mut sc = Scope::new();
        self.bind_params(&mut sc, &params);
        let (body, ty) = self.lower_expr(&f.body, &mut sc, pure);
        if let Item::Hint(h) = &pl.item.node {
            let want = if h.side { Ty::Bool } else { Ty::Int };
            if !ty.fits(&want) {
                let (what, help) = if h.side {
                    ("a side is a condition on the seat", "write a condition, like `p.team == rebels`")
                } else {
                    (
                        "a hint is a score for the seat",
                        "write a whole number, larger where the seat stands better, like `count(p.hand) * 2`",
                    )
                };
                let msg = format!("expected {}, found {}", self.ty_name(&want), self.ty_name(&ty));
                self.error(Diag::error(f.body.span, msg).label(what).help(help));
            }
            let Some(func) = declared else { return };
            let hint = HintDef { func, name: f.name.node.clone(), sample: h.sample.as_ref().map(|s| s.node.clone()) };
            if h.side { self.game.sides.push(hint) } else { self.game.hints.push(hint) }
        }
        let Some(id) = declared else { return };
        if let Some(t) = std::sync::Arc::make_mut(&mut self.func_types).get_mut(id as usize) {
            *t = ty;
        }
        std::sync::Arc::make_mut(&mut self.game.funcs).push(FuncDef {
            info: info(&f.name, &f.cite),
            params,
            body,
            slots: sc.max,
            remember: false,
        });
    }

    /// Whether the item named `name` is the one its name was declared for (in namespace `ns`, as
    /// `declare` keys it): not a second declaration of it, nor one refused (a built-in's name).
    fn declared_here(&self, ns: Ns, name: &ast::Name) -> bool {
        self.declared_in(ns, &name.node) == Some(name.span)
    }

    /// Procedures, permits and forbids, triggers, modifiers, replacements and `always` rules.
    fn lower_rule_items(&mut self, items: &[Placed]) {
        let cx = LowerContext::default();
        let pure = LowerContext { pure: true, ..LowerContext::default() };
        let mut procs: Vec<Option<ProcDef>> = vec![None; self.proc_params.len()];
        for pl in items {
            let role = pl.role;
            match &pl.item.node {
                Item::Proc(p) => {
                    self.want_cite(role, &p.name, &p.cite);
                    // A second declaration is lowered with its own parameters, for its mistakes,
                    // and kept nowhere.
                    let declared = self.declared_here(Ns::Proc, &p.name).then(|| self.proc_by_name.get(&p.name.node).copied()).flatten();
                    let params = match declared {
                        Some(id) => self.proc_params.get(id as usize).cloned().unwrap_or_default(),
                        None => self.params(&p.params),
                    };
                    let mut sc = Scope::new();
                    self.bind_params(&mut sc, &params);
                    let requires = p.requires.as_ref().map(|r| self.lower_cond(r, &mut sc, &pure));
                    let body = self.lower_block(&p.body, &mut sc, &cx);
                    if let Some(slot) = declared.and_then(|id| procs.get_mut(id as usize)) {
                        *slot = Some(ProcDef { info: info(&p.name, &p.cite), params, requires, body, slots: sc.max });
                    }
                }
                Item::Permit(h) | Item::Forbid(h) => {
                    self.want_cite(role, &h.name, &h.cite);
                    let forbid = matches!(pl.item.node, Item::Forbid(_));
                    match self.lower_hook(h, forbid, &LowerContext::default()) {
                        Some(hook @ HookDef { target: Hooked::Proc(_), .. }) => self.game.proc_forbids.push(hook),
                        Some(hook @ HookDef { target: Hooked::Check(cid), .. }) => {
                            if let Some(c) = std::sync::Arc::make_mut(&mut self.game.checks).get_mut(cid as usize) {
                                if forbid { c.forbids.push(hook) } else { c.permits.push(hook) }
                            }
                        }
                        None => {}
                    }
                }
                Item::Trigger(t) => {
                    self.want_cite(role, &t.name, &t.cite);
                    let Some(&event) = self.event_by_name.get(&t.on.node) else {
                        self.unknown_event(&t.on);
                        continue;
                    };
                    let mut sc = Scope::new();
                    self.bind_event_params(&mut sc, event, &t.params, t.on.span);
                    let when = t.when.as_ref().map(|w| self.lower_cond(w, &mut sc, &pure));
                    let by = t.by.as_ref().map(|b| {
                        let (x, ty) = self.lower_expr(b, &mut sc, &pure);
                        self.expect_ty(&ty, &Ty::Player, b.span);
                        x
                    });
                    let body = self.lower_block(&t.body, &mut sc, &cx);
                    std::sync::Arc::make_mut(&mut self.game.triggers).push(TriggerDef {
                        info: info(&t.name, &t.cite),
                        event,
                        when,
                        by,
                        body,
                        slots: sc.max,
                    });
                }
                Item::Modifier(m) => {
                    self.want_cite(role, &m.name, &m.cite);
                    let md = self.lower_modifier_body(&m.body, info(&m.name, &m.cite), None, &LowerContext::default());
                    std::sync::Arc::make_mut(&mut self.game.modifiers).push(md);
                }
                Item::Replace(r) => {
                    self.want_cite(role, &r.name, &r.cite);
                    if let Some(rd) = self.lower_replace_body(&r.body, info(&r.name, &r.cite), &LowerContext::default()) {
                        std::sync::Arc::make_mut(&mut self.game.replaces).push(rd);
                    }
                }
                Item::Always(a) => {
                    self.want_cite(role, &a.name, &a.cite);
                    let mut sc = Scope::new();
                    let body = self.lower_block(&a.body, &mut sc, &cx);
                    self.game.always.push(AlwaysDef { info: info(&a.name, &a.cite), body, slots: sc.max, immediately: a.immediately });
                }
                _ => {}
            }
        }
        self.game.procs = std::sync::Arc::new(
            procs
                .into_iter()
                .map(|p| {
                    p.unwrap_or(ProcDef {
                        info: RuleInfo { name: String::new(), cite: None, span: Span::default() },
                        params: vec![],
                        requires: None,
                        body: 0,
                        slots: 0,
                    })
                })
                .collect(),
        );
    }

    fn unknown_event(&mut self, n: &ast::Name) {
        let help = did_you_mean(&n.node, self.event_by_name.keys().map(String::as_str));
        self.error(Diag::error(n.span, format!("unknown event `{}`", n.node)).label("not declared").maybe_help(help));
    }

    fn bind_event_params(&mut self, sc: &mut Scope, event: EventId, names: &[ast::Param], span: Span) {
        let params = self.game.events.get(event as usize).map(|e| e.params.clone()).unwrap_or_default();
        if params.len() != names.len() {
            let ename = self.game.events.get(event as usize).map(|e| e.name.clone()).unwrap_or_default();
            self.error(
                Diag::error(
                    span,
                    format!("`{ename}` has {} parameter{}, not {}", params.len(), if params.len() == 1 { "" } else { "s" }, names.len()),
                )
                .help(format!("`{ename}({})`", params.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", "))),
            );
        }
        for (i, p) in names.iter().enumerate() {
            let ty = params.get(i).map(|(_, t)| t.clone()).unwrap_or(Ty::Any);
            sc.declare(&p.name.node, ty);
        }
    }

    fn lower_modifier_body(
        &mut self,
        m: &ast::ModifierBody,
        info: RuleInfo,
        active_while: Option<&ast::Expr>,
        cx: &LowerContext,
    ) -> ModifierDef {
        let pure = LowerContext { pure: true, ..cx.clone() };
        let mut sc = Scope::new();
        let var = sc.declare(&m.var.node, Ty::Obj(None));
        let active_while = active_while.map(|w| self.lower_cond(w, &mut sc, &pure));
        let when = m.when.as_ref().map(|w| self.lower_cond(w, &mut sc, &pure));
        let blank_except = m.blank.as_ref().map(|b| {
            b.node
                .iter()
                .filter_map(|n| match self.object_field_type(None, &n.node) {
                    Some((sym, _)) => Some(sym),
                    None => {
                        self.unknown_field_anywhere(n);
                        None
                    }
                })
                .collect()
        });
        let mut effects = Vec::new();
        for e in &m.effects {
            if e.var.node != m.var.node {
                self.error(
                    Diag::error(e.var.span, format!("a modifier changes its own object `{}`, not `{}`", m.var.node, e.var.node))
                        .help(format!("write `{}.{} ..`", m.var.node, e.field.node)),
                );
            }
            let Some((sym, fty)) = self.object_field_type(None, &e.field.node) else {
                self.unknown_field_anywhere(&e.field);
                continue;
            };
            let (value, vt) = self.lower_expr(&e.value, &mut sc, &pure);
            match e.op.node {
                // A cost changes by a number (of its one kind) or by an amount.
                ast::ModifyOp::Add | ast::ModifyOp::Sub if matches!(fty, Ty::Amount) => {
                    if !(vt.fits(&Ty::Int) || vt.fits(&Ty::Amount)) {
                        self.expect_ty(&vt, &Ty::Int, e.value.span);
                    }
                }
                ast::ModifyOp::Add | ast::ModifyOp::Sub => self.expect_ty(&vt, &Ty::Int, e.value.span),
                ast::ModifyOp::Set => self.expect_ty(&vt, &fty, e.value.span),
                ast::ModifyOp::Insert | ast::ModifyOp::Remove => {
                    if !matches!(fty, Ty::List(_) | Ty::Any) {
                        self.error(Diag::error(
                            e.op.span,
                            format!("`add` and `remove` work on list fields; `{}` is not a list", e.field.node),
                        ));
                    }
                }
            }
            effects.push(FieldEffectDef { field: sym, op: super::operators::modify(e.op.node), value });
        }
        let zone_guard = when.as_ref().map(|w| zone_guard(w, var)).unwrap_or_default();
        ModifierDef {
            info,
            active_while,
            var,
            when,
            zone_guard,
            layer: m.layer.as_ref().map(|l| l.node).unwrap_or(0),
            blank_except,
            effects,
            slots: sc.max,
        }
    }

    fn unknown_field_anywhere(&mut self, n: &ast::Name) {
        let cands: Vec<String> = self.game.kinds.iter().flat_map(|k| k.fields.iter().map(|f| self.game.sym(f.name).to_string())).collect();
        let help = did_you_mean(&n.node, cands.iter().map(String::as_str));
        self.error(Diag::error(n.span, format!("no kind has a field `{}`", n.node)).label("unknown field").maybe_help(help));
    }

    // -----------------------------------------------------------------------------------------
    // Object definitions

    /// Register every definition's name and printed values (before any body is lowered, so that
    /// open enums such as traits know every member).
    pub fn declare_objects(&mut self, items: &[Placed]) {
        for pl in items {
            let Item::Object(o) = &pl.item.node else { continue };
            let Some(&kind) = self.kind_by_name.get(&o.kind.node) else {
                let help = did_you_mean(&o.kind.node, self.kind_by_name.keys().map(String::as_str)).or_else(|| {
                    Some(format!(
                        "declare it with `kind {} {{ .. }}` or use one of: {}",
                        o.kind.node,
                        self.kind_by_name.keys().cloned().collect::<Vec<_>>().join(", ")
                    ))
                });
                self.error(
                    Diag::error(o.kind.span, format!("unknown kind `{}`", o.kind.node))
                        .label("not a declared kind or item")
                        .maybe_help(help),
                );
                continue;
            };
            if let Some(&prev) = self.game.def_index.get(&o.name.node) {
                let first = self.game.defs.get(prev as usize).map(|d| d.span).unwrap_or_default();
                let at = self.game.location(first);
                self.error(
                    Diag::error(o.name.span, format!("`{}` is defined twice", o.name.node))
                        .label("second definition")
                        .help(format!("the first is at {at}; a name identifies one definition"))
                        .related(first, "first definition"),
                );
                continue;
            }
            let fields = self.object_fields(kind, o);
            let id = self.game.defs.len() as DefId;
            std::sync::Arc::make_mut(&mut self.game.def_index).insert(o.name.node.clone(), id);
            std::sync::Arc::make_mut(&mut self.game.defs).push(ObjDef {
                name: o.name.node.clone(),
                shown: o.name.node.as_str().into(),
                name_text: Value::text(&o.name.node),
                kind,
                fields,
                abilities: vec![],
                modifiers: vec![],
                triggers: vec![],
                permits: vec![],
                forbids: vec![],
                replaces: vec![],
                sample: o.sample.as_ref().map(|s| s.node.clone()),
                span: o.name.span,
            });
        }
    }

    fn object_fields(&mut self, kind: KindId, o: &ast::ObjectItem) -> Vec<Option<Value>> {
        // The table is shared: held here, the kind is not copied for each object.
        let kinds = std::sync::Arc::clone(&self.game.kinds);
        let Some(kd) = kinds.get(kind as usize) else { return vec![] };
        let mut out: Vec<Option<Value>> = vec![None; kd.fields.len()];
        let mut seen: Vec<(&str, Span)> = Vec::with_capacity(o.props.len());
        let mut given = vec![false; kd.fields.len()];
        for p in &o.props {
            if let Some((_, first)) = seen.iter().find(|(k, _)| *k == p.key.node) {
                let at = self.game.location(*first);
                self.error(
                    Diag::error(p.key.span, format!("`{}` is given twice", p.key.node))
                        .label("given again")
                        .help(format!("the first is at {at}"))
                        .related(*first, "first given here"),
                );
                continue;
            }
            seen.push((p.key.node.as_str(), p.key.span));
            let sym = self.game.sym_id(&p.key.node);
            let Some(idx) = sym.and_then(|s| kd.field_index.get(&s).copied()) else {
                let cands: Vec<String> = kd.fields.iter().map(|f| self.game.sym(f.name).to_string()).collect();
                let mut help = did_you_mean(&p.key.node, cands.iter().map(String::as_str));
                if help.is_none() && kd.slots.iter().any(|(s, _)| *s == p.key.node) {
                    help = Some(format!("`{}` is an ability slot: write `{} \"text\" {{ .. }}`", p.key.node, p.key.node));
                }
                let help = help.or_else(|| Some(format!("a `{}` has: {}", kd.name, cands.join(", "))));
                self.error(
                    Diag::error(p.key.span, format!("unknown field `{}` for a `{}`", p.key.node, kd.name))
                        .label("not a field of this kind")
                        .maybe_help(help),
                );
                continue;
            };
            let Some(fd) = kd.fields.get(idx) else { continue };
            if let Some(g) = given.get_mut(idx) {
                *g = true;
            }
            let v = self.prop_value(&fd.ty, p, &p.values);
            if let Some(slot) = out.get_mut(idx) {
                *slot = v;
            }
        }
        for (i, fd) in kd.fields.iter().enumerate() {
            if fd.required && given.get(i) == Some(&false) && out.get(i).is_some_and(|v| v.is_none()) {
                let fname = self.game.sym(fd.name).to_string();
                self.error(
                    Diag::error(o.name.span, format!("`{}` has no `{fname}`", o.name.node))
                        .label(format!("missing field `{fname}`"))
                        .help(format!("every `{}` needs a line like `{fname} ..`", kd.name)),
                );
            }
        }
        out
    }

    fn prop_value(&mut self, ty: &Ty, p: &ast::Prop, values: &[ast::Spanned<PropValue>]) -> Option<Value> {
        let span = values.first().map(|v| v.span.to(values.last().map(|l| l.span).unwrap_or(v.span))).unwrap_or(p.span);
        match ty {
            Ty::List(inner) => {
                let mut out = Vec::new();
                for v in values {
                    if let Some(x) = self.prop_value(inner, p, std::slice::from_ref(v)) {
                        out.push(x);
                    }
                }
                return Some(Value::list(out));
            }
            Ty::Amount => {
                let mut out = Vec::new();
                let mut it = values.iter();
                while let Some(n) = it.next() {
                    let (PropValue::Int(q), Some(w)) = (&n.node, it.next()) else {
                        self.error(
                            Diag::error(n.span, "write an amount as numbers and kinds, like `3 gold`")
                                .label("expected a number then a kind"),
                        );
                        return None;
                    };
                    let PropValue::Word(word) = &w.node else {
                        self.error(Diag::error(w.span, "expected a kind of amount, such as `gold`"));
                        return None;
                    };
                    let sym = self.intern(word);
                    if !self.member_of.contains_key(&sym) {
                        let cands: Vec<String> = self.member_of.keys().map(|s| self.game.sym(*s).to_string()).collect();
                        let help = did_you_mean(word, cands.iter().map(String::as_str));
                        self.error(
                            Diag::error(w.span, format!("unknown kind of amount `{word}`")).label("not an enum member").maybe_help(help),
                        );
                    }
                    out.push((*q, sym));
                }
                return Some(Value::Amount(Arc::new(out)));
            }
            _ => {}
        }
        let [v] = values else {
            if values.is_empty() {
                self.error(Diag::error(p.span, format!("`{}` needs a value", p.key.node)));
            } else {
                self.error(
                    Diag::error(span, format!("`{}` takes one value", p.key.node))
                        .help("separate list items with commas only where the field is a list"),
                );
            }
            return None;
        };
        let wrong = |c: &mut Checker, what: &str| {
            let msg = format!("`{}` expects {what}", p.key.node);
            c.error(Diag::error(v.span, msg).label("wrong kind of value"));
            None
        };
        match (ty, &v.node) {
            (Ty::Int, PropValue::Int(i)) => Some(Value::Int(*i)),
            (Ty::Int, _) => wrong(self, "a number"),
            (Ty::Text, PropValue::Str(s) | PropValue::Word(s)) => Some(Value::text(s)),
            (Ty::Text, _) => wrong(self, "a text"),
            (Ty::Bool, PropValue::Word(w)) if w == "true" || w == "false" => Some(Value::Bool(w == "true")),
            (Ty::Bool, _) => wrong(self, "`true` or `false`"),
            (Ty::Sym(e), PropValue::Word(w) | PropValue::Str(w)) => {
                let Some(eid) = e else { return Some(Value::Sym(self.intern(w))) };
                let ed = self.game.enums.get(*eid as usize).cloned()?;
                let sym = self.intern(w);
                if ed.members.contains(&sym) {
                    return Some(Value::Sym(sym));
                }
                if ed.open && !self.member_of.contains_key(&sym) {
                    std::sync::Arc::make_mut(&mut self.member_of).insert(sym, *eid);
                    if let Some(m) = self.game.enums.get_mut(*eid as usize) {
                        m.members.push(sym);
                    }
                    return Some(Value::Sym(sym));
                }
                let cands: Vec<String> = ed.members.iter().map(|m| self.game.sym(*m).to_string()).collect();
                let help = did_you_mean(w, cands.iter().map(String::as_str))
                    .or_else(|| Some(format!("`{}` is one of: {}", ed.name, cands.join(", "))));
                self.error(Diag::error(v.span, format!("`{w}` is not a `{}`", ed.name)).label("unknown value").maybe_help(help));
                None
            }
            (Ty::Sym(_), _) => wrong(self, "a name"),
            (Ty::Any, PropValue::Int(i)) => Some(Value::Int(*i)),
            (Ty::Any, PropValue::Str(s)) => Some(Value::text(s)),
            (Ty::Any, PropValue::Word(w)) => {
                let sym = self.intern(w);
                self.loose_words.push((sym, v.span));
                Some(Value::Sym(sym))
            }
            _ => {
                let msg = format!("{} cannot be written in a definition", self.ty_name(ty));
                self.error(Diag::error(v.span, msg));
                None
            }
        }
    }

    /// Lower every definition's abilities, modifiers, triggers, permits, forbids and replacements.
    pub fn lower_objects(&mut self, items: &[Placed]) {
        for pl in items {
            let Item::Object(o) = &pl.item.node else { continue };
            let Some(&id) = self.game.def_index.get(&o.name.node) else { continue };
            let Some(kind) = self.game.defs.get(id as usize).map(|d| d.kind) else { continue };
            if self.game.defs.get(id as usize).is_some_and(|d| d.span != o.name.span) {
                continue;
            }
            let cx = LowerContext { has_you: true, self_kind: Some(Some(kind)), ..LowerContext::default() };
            let slots = self.game.kinds.get(kind as usize).map(|k| k.slots.clone()).unwrap_or_default();
            let mut abilities = Vec::new();
            let mut used: Vec<&str> = Vec::new();
            for a in &o.abilities {
                match slots.iter().find(|(n, _)| *n == a.slot.node) {
                    None => {
                        let cands: Vec<&str> = slots.iter().map(|(n, _)| n.as_str()).collect();
                        let help = did_you_mean(&a.slot.node, cands.iter().copied())
                            .or_else(|| Some(format!("this kind's ability slots are: {}", cands.join(", "))));
                        self.error(
                            Diag::error(a.slot.span, format!("unknown ability slot `{}`", a.slot.node))
                                .label("not a slot of this kind")
                                .maybe_help(help),
                        );
                        // Its body is checked all the same: every error at once.
                        let _ = self.lower_ability(o, a, &cx);
                        continue;
                    }
                    Some((_, false)) if used.contains(&a.slot.node.as_str()) => {
                        self.error(
                            Diag::error(a.slot.span, format!("a second `{}` ability", a.slot.node))
                                .help(format!("the kind declares `ability {}` once; declare it `many` to allow more", a.slot.node)),
                        );
                        continue;
                    }
                    _ => used.push(a.slot.node.as_str()),
                }
                abilities.push(self.lower_ability(o, a, &cx));
            }
            let mut modifiers = Vec::new();
            for m in &o.modifiers {
                let label = m.label.as_ref().map(|l| l.node.clone()).unwrap_or_else(|| "modifier".into());
                let inf = RuleInfo { name: format!("{}: {label}", o.name.node), cite: None, span: m.span };
                modifiers.push(self.lower_modifier_body(&m.body, inf, m.active_while.as_ref(), &cx));
            }
            let mut triggers = Vec::new();
            for t in &o.triggers {
                let Some(&event) = self.event_by_name.get(&t.on.node) else {
                    self.unknown_event(&t.on);
                    continue;
                };
                let mut sc = Scope::new();
                self.bind_event_params(&mut sc, event, &t.params, t.on.span);
                let pure = LowerContext { pure: true, ..cx.clone() };
                let when = t.when.as_ref().map(|w| self.lower_cond(w, &mut sc, &pure));
                let body = self.lower_block(&t.body, &mut sc, &cx);
                let inf = RuleInfo { name: format!("{}: when {}", o.name.node, t.on.node), cite: None, span: t.span };
                triggers.push(TriggerDef { info: inf, event, when, by: None, body, slots: sc.max });
            }
            let mut permits = Vec::new();
            for h in &o.permits {
                if let Some(mut hook) = self.lower_hook(h, false, &cx) {
                    hook.info.name = format!("{}: permit {}", o.name.node, h.name.node);
                    permits.push(hook);
                }
            }
            let mut forbids = Vec::new();
            for h in &o.forbids {
                if let Some(mut hook) = self.lower_hook(h, true, &cx) {
                    hook.info.name = format!("{}: forbid {}", o.name.node, h.name.node);
                    forbids.push(hook);
                }
            }
            let mut replaces = Vec::new();
            for r in &o.replaces {
                let label = r.label.as_ref().map(|l| l.node.clone()).unwrap_or_else(|| format!("instead of {}", r.body.target.node));
                let inf = RuleInfo { name: format!("{}: {label}", o.name.node), cite: None, span: r.span };
                if let Some(rd) = self.lower_replace_body(&r.body, inf, &cx) {
                    replaces.push(rd);
                }
            }
            if let Some(d) = std::sync::Arc::make_mut(&mut self.game.defs).get_mut(id as usize) {
                d.abilities = abilities;
                d.modifiers = modifiers;
                d.triggers = triggers;
                d.permits = permits;
                d.forbids = forbids;
                d.replaces = replaces;
            }
        }
    }

    fn lower_ability(&mut self, o: &ast::ObjectItem, a: &ast::Ability, cx: &LowerContext) -> AbilityDef {
        let mut sc = Scope::new();
        let pure = LowerContext { pure: true, ..cx.clone() };
        let label = a.label.as_ref().map(|l| l.node.clone()).unwrap_or_default();
        let mut targets = Vec::new();
        // The targets are chosen after the requirement is worked out and the costs are paid.
        let early = LowerContext { targets_later: a.targets.iter().map(|t| t.name.clone()).collect(), ..cx.clone() };
        let requires = a.requires.as_ref().map(|r| self.lower_cond(r, &mut sc, &LowerContext { pure: true, ..early.clone() }));
        let costs: Vec<CallIr> = a.costs.iter().map(|c| self.lower_call(c, &mut sc, &early)).collect();
        for t in &a.targets {
            let (from, ft) = self.lower_list(&t.from, &mut sc, &pure);
            let slot = sc.declare(&t.name.node, ft.elem());
            let filter = t.filter.as_ref().map(|f| self.lower_cond(f, &mut sc, &pure));
            let chosen_by = t.chosen_by.as_ref().map(|c| {
                let (x, ty) = self.lower_expr(c, &mut sc, &pure);
                self.expect_ty(&ty, &Ty::Player, c.span);
                x
            });
            let prompt = t.prompt.as_ref().map(|p| p.node.clone()).unwrap_or_else(|| format!("choose {} for {}", t.name.node, o.name.node));
            targets.push(TargetDef { slot, name: t.name.node.clone(), from, filter, chosen_by, prompt });
        }
        let body = a.body.as_ref().map(|b| self.lower_block(b, &mut sc, cx));
        let name = if label.is_empty() { format!("{}: {}", o.name.node, a.slot.node) } else { format!("{}: {label}", o.name.node) };
        AbilityDef {
            info: RuleInfo { name, cite: None, span: a.span },
            slot: a.slot.node.clone(),
            label,
            costs,
            targets,
            requires,
            body,
            slots: sc.max,
        }
    }
}

/// The zones a condition requires its object `o` (the slot `var`) to be directly in, one of them,
/// when one of the parts joined by `and` says so: `o in ZONE` (or `o.top in ZONE`), or several
/// joined by `or` (`A and (o in alert or o in reserve) and B`). Empty when no part does.
///
/// The modifier is skipped for an object elsewhere without evaluating its condition: the
/// condition is false whatever its other parts say, since `and` needs every part and expressions
/// change nothing. (A part before the zone test that would fail with an error for such an object
/// is not evaluated then: the answer is false, not the error.)
fn zone_guard(cond: &ExprIr, var: Slot) -> Vec<arbiter_ir::value::ZoneRef> {
    use arbiter_ir::operators::BinaryOperator;
    match &cond.plain().kind {
        ExprKindIr::Binary(BinaryOperator::And, l, r) => {
            let left = zone_guard(l, var);
            if left.is_empty() { zone_guard(r, var) } else { left }
        }
        _ => zones_of(cond, var).unwrap_or_default(),
    }
}

/// `o in ZONE`, or several joined by `or`: the zones, else `None`.
fn zones_of(cond: &ExprIr, var: Slot) -> Option<Vec<arbiter_ir::value::ZoneRef>> {
    use arbiter_ir::operators::BinaryOperator;
    match &cond.plain().kind {
        ExprKindIr::Binary(BinaryOperator::Or, l, r) => {
            let mut zones = zones_of(l, var)?;
            zones.extend(zones_of(r, var)?);
            Some(zones)
        }
        ExprKindIr::Binary(BinaryOperator::In, l, r) => match (&l.plain().kind, &r.plain().kind) {
            (ExprKindIr::Local(s), ExprKindIr::Lit(arbiter_ir::value::Value::Zone(z))) if *s == var => Some(vec![*z]),
            // `o.top in ZONE`: the pile `o` is in lies in the zone, which is where `zone_of`
            // places `o` too.
            (ExprKindIr::ObjProp(b, ObjProp::Top), ExprKindIr::Lit(arbiter_ir::value::Value::Zone(z))) if matches!(b.kind, ExprKindIr::Local(s) if s == var) => {
                Some(vec![*z])
            }
            _ => None,
        },
        _ => None,
    }
}
