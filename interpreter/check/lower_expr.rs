//! Lowering expressions: resolve every name, check kinds and fields, compute a static type.
//! Errors are collected, not returned: lowering continues so that every error is reported.

use super::Checker;
use super::scope::Scope;
use arbiter_ir::builtins::{self, Returns};
use arbiter_ir::value::{Value, ZoneRef};
use arbiter_ir::*;
use arbiter_syntax::ast::{self, BinOp, TextPart, UnOp};
use arbiter_syntax::diag::{Diag, did_you_mean};
use arbiter_syntax::span::Span;
use std::sync::Arc;

/// What the code being lowered may refer to.
#[derive(Debug, Clone, Default)]
pub struct LowerContext {
    /// `you` is the controlling player (abilities, object triggers).
    pub has_you: bool,
    /// `self` is an object of this kind (object abilities).
    pub self_kind: Option<Option<KindId>>,
    /// Scenario statements may name seats `P1`…
    pub scenario: bool,
    /// Pure context (funcs, conditions): no statements at all.
    pub pure: bool,
    /// An ability's targets, named where they are not chosen yet (its `requires` and costs): a
    /// name among them is told so.
    pub targets_later: Vec<ast::Name>,
}

impl Checker {
    pub fn error(&mut self, d: Diag) {
        self.diags.push(d);
    }

    fn bad(&mut self, span: Span, msg: impl Into<String>) -> (ExprIr, Ty) {
        self.error(Diag::error(span, msg));
        (ExprIr { kind: ExprKindIr::Lit(Value::None), span }, Ty::Any)
    }

    pub fn lower_expr(&mut self, e: &ast::Expr, sc: &mut Scope, cx: &LowerContext) -> (ExprIr, Ty) {
        let (x, t) = self.deeper(|c| c.lower_expr_inner(e, sc, cx));
        (super::fold::fold(x, &self.game.consts), t)
    }

    fn lower_expr_inner(&mut self, e: &ast::Expr, sc: &mut Scope, cx: &LowerContext) -> (ExprIr, Ty) {
        let span = e.span;
        let mk = |kind| ExprIr { kind, span };
        match &e.node {
            ast::ExprKind::Int(i) => (mk(ExprKindIr::Lit(Value::Int(*i))), Ty::Int),
            ast::ExprKind::Bool(b) => (mk(ExprKindIr::Lit(Value::Bool(*b))), Ty::Bool),
            ast::ExprKind::None => (mk(ExprKindIr::Lit(Value::None)), Ty::Nothing),
            ast::ExprKind::Str(s) => (self.lower_str_expr(s, span, sc, cx), Ty::Text),
            ast::ExprKind::You => {
                if !cx.has_you {
                    self.error(
                        Diag::error(span, "`you` has no meaning here").label("no player controls this").help(
                            "`you` is the player who controls an object's ability or trigger; pass the player as a parameter instead",
                        ),
                    );
                }
                (mk(ExprKindIr::You), Ty::Player)
            }
            ast::ExprKind::SelfRef => match &cx.self_kind {
                Some(k) => (mk(ExprKindIr::SelfObj), Ty::Obj(*k)),
                None => {
                    self.error(Diag::error(span, "`self` has no meaning here").help("`self` is the object whose ability this is"));
                    (mk(ExprKindIr::SelfObj), Ty::Any)
                }
            },
            ast::ExprKind::Var(name) => self.lower_var(name, span, sc, cx),
            ast::ExprKind::Call(c) => self.lower_call_expr(c, sc, cx),
            ast::ExprKind::ProcRef(n) => match self.proc_by_name.get(&n.node) {
                Some(p) => (mk(ExprKindIr::ProcRef(*p)), Ty::Proc),
                None => {
                    let help = did_you_mean(&n.node, self.proc_by_name.keys().map(String::as_str));
                    self.error(Diag::error(n.span, format!("unknown procedure `{}`", n.node)).label("not declared").maybe_help(help));
                    (mk(ExprKindIr::Lit(Value::None)), Ty::Proc)
                }
            },
            ast::ExprKind::Field { base, field } => {
                // `jump.destinations_drawn`: a constant with a dotted name, when no local hides it.
                if let Some(root) = dotted_root(base)
                    && sc.lookup(root).is_none()
                    && let Some(path) = dotted(base)
                    && let Some((i, ty)) = self.const_by_name.get(&format!("{path}.{}", field.node)).cloned()
                {
                    return (mk(ExprKindIr::Const(i)), ty);
                }
                // `resource.gold`: an enum member named with its enum, when a local hides it.
                if let ast::ExprKind::Var(n) = &base.node
                    && sc.lookup(n).is_none()
                    && let Some(&eid) = self.enum_by_name.get(n)
                {
                    let members = self.game.enums.get(eid as usize).map(|e| e.members.clone()).unwrap_or_default();
                    if let Some(sym) = self.game.sym_id(&field.node).filter(|s| members.contains(s)) {
                        return (mk(ExprKindIr::Lit(Value::Sym(sym))), Ty::Sym(Some(eid)));
                    }
                    let names: Vec<String> = members.iter().map(|m| self.game.sym(*m).to_string()).collect();
                    let help = did_you_mean(&field.node, names.iter().map(String::as_str))
                        .or_else(|| Some(format!("`{n}` is one of: {}", names.join(", "))));
                    self.error(
                        Diag::error(field.span, format!("`{}` is not a `{n}`", field.node)).label("unknown member").maybe_help(help),
                    );
                    return (mk(ExprKindIr::Lit(Value::None)), Ty::Sym(Some(eid)));
                }
                let (b, bt) = self.lower_expr(base, sc, cx);
                self.lower_field(b, bt, field, span)
            }
            ast::ExprKind::Unary { op, expr } => {
                let (x, t) = self.lower_expr(expr, sc, cx);
                let want = if *op == UnOp::Neg { Ty::Int } else { Ty::Bool };
                self.expect_ty(&t, &want, expr.span);
                (mk(ExprKindIr::Unary(super::operators::unary(*op), Box::new(x))), want)
            }
            ast::ExprKind::Binary { op, lhs, rhs } => self.lower_binary(*op, lhs, rhs, span, sc, cx),
            ast::ExprKind::If { cond, then, otherwise } => {
                let (c, ct) = self.lower_expr(cond, sc, cx);
                self.expect_ty(&ct, &Ty::Bool, cond.span);
                let (a, at) = self.lower_expr(then, sc, cx);
                let (b, bt) = self.lower_expr(otherwise, sc, cx);
                let ty = if at == Ty::Nothing { bt } else { at };
                (mk(ExprKindIr::If(Box::new(c), Box::new(a), Box::new(b))), ty)
            }
            ast::ExprKind::Quant { any, var, list, cond } => {
                let (l, slot, c, _) = self.lower_each(var, list, cond, sc, cx);
                let by = Lookup::of(slot, &c);
                (mk(ExprKindIr::Quant { any: *any, slot, list: Box::new(l), cond: Box::new(c), by }), Ty::Bool)
            }
            ast::ExprKind::Filter { var, list, cond } => {
                let (l, slot, c, elem) = self.lower_each(var, list, cond, sc, cx);
                let by = Lookup::of(slot, &c);
                (mk(ExprKindIr::Filter { slot, list: Box::new(l), cond: Box::new(c), by }), Ty::List(Box::new(elem)))
            }
            ast::ExprKind::Map { expr, var, list, cond } => {
                let (l, lt) = self.lower_list(list, sc, cx);
                sc.push();
                let slot = sc.declare(&var.node, lt.elem());
                let c = cond.as_ref().map(|c| {
                    let (ce, ct) = self.lower_expr(c, sc, cx);
                    self.expect_ty(&ct, &Ty::Bool, c.span);
                    Box::new(ce)
                });
                let (x, xt) = self.lower_expr(expr, sc, cx);
                sc.pop();
                (mk(ExprKindIr::Map { slot, list: Box::new(l), expr: Box::new(x), cond: c }), Ty::List(Box::new(xt)))
            }
            ast::ExprKind::List(items) => {
                let mut out = Vec::new();
                let mut ty = Ty::Any;
                for (i, it) in items.iter().enumerate() {
                    let (x, t) = self.lower_expr(it, sc, cx);
                    if i == 0 {
                        ty = t;
                    }
                    out.push(x);
                }
                // A list of literals is built once, when it is folded, not each time it is evaluated.
                (mk(ExprKindIr::List(out)), Ty::List(Box::new(ty)))
            }
            ast::ExprKind::Lambda { .. } => {
                self.bad(span, "a function `|x| ..` can only be passed straight to a built-in such as `sort_by` or `distinct_match`")
            }
        }
    }

    /// `x in list where cond`: the list, the slot `x` lives in, the condition, the item type.
    fn lower_each(
        &mut self,
        var: &ast::Name,
        list: &ast::Expr,
        cond: &ast::Expr,
        sc: &mut Scope,
        cx: &LowerContext,
    ) -> (ExprIr, Slot, ExprIr, Ty) {
        let (l, lt) = self.lower_list(list, sc, cx);
        sc.push();
        let slot = sc.declare(&var.node, lt.elem());
        let (c, ct) = self.lower_expr(cond, sc, cx);
        sc.pop();
        self.expect_ty(&ct, &Ty::Bool, cond.span);
        (l, slot, c, lt.elem())
    }

    pub fn lower_list(&mut self, e: &ast::Expr, sc: &mut Scope, cx: &LowerContext) -> (ExprIr, Ty) {
        let (x, t) = self.lower_expr(e, sc, cx);
        if !t.is_listlike() {
            self.error(Diag::error(e.span, format!("expected a list or a zone, found {}", self.ty_name(&t))).label("not a list"));
        }
        (x, t)
    }

    pub fn lower_str_expr(&mut self, s: &ast::StrLit, span: Span, sc: &mut Scope, cx: &LowerContext) -> ExprIr {
        ExprIr { kind: ExprKindIr::Str(self.lower_str(s, sc, cx)), span }
    }

    pub fn lower_str(&mut self, s: &ast::StrLit, sc: &mut Scope, cx: &LowerContext) -> TextExpr {
        s.parts
            .iter()
            .map(|p| match p {
                TextPart::Text(t) => TextPiece::Text(t.clone()),
                TextPart::Expr(e) => TextPiece::Expr(self.lower_expr(e, sc, cx).0),
            })
            .collect()
    }

    pub fn expect_ty(&mut self, got: &Ty, want: &Ty, span: Span) {
        if !got.fits(want) {
            let msg = format!("expected {}, found {}", self.ty_name(want), self.ty_name(got));
            self.error(Diag::error(span, msg).label("wrong kind of value"));
        }
    }

    pub fn ty_name(&self, t: &Ty) -> String {
        match t {
            Ty::Any => "anything".into(),
            Ty::Nothing => "none".into(),
            Ty::Bool => "true or false".into(),
            Ty::Int => "a number".into(),
            Ty::Text => "a text".into(),
            Ty::Player => "a player".into(),
            Ty::Obj(None) => "an object".into(),
            Ty::Obj(Some(k)) => format!("a `{}`", self.game.kinds.get(*k as usize).map(|k| k.name.as_str()).unwrap_or("?")),
            Ty::Def(_) => "a definition".into(),
            Ty::Zone => "a zone".into(),
            Ty::Sym(None) => "a symbol".into(),
            Ty::Sym(Some(e)) => format!("a `{}`", self.game.enums.get(*e as usize).map(|e| e.name.as_str()).unwrap_or("?")),
            Ty::List(t) => format!("a list of {}", self.ty_name(t).trim_start_matches("a ").trim_start_matches("an ")),
            Ty::Amount => "an amount".into(),
            Ty::Proc => "a procedure".into(),
            Ty::Ability => "an ability".into(),
            Ty::Lambda => "a function".into(),
            Ty::Pose => "a pose".into(),
        }
    }

    fn lower_var(&mut self, name: &str, span: Span, sc: &mut Scope, cx: &LowerContext) -> (ExprIr, Ty) {
        let mk = |kind| ExprIr { kind, span };
        if let Some((slot, ty)) = sc.lookup(name) {
            return (mk(ExprKindIr::Local(slot)), ty.clone());
        }
        if cx.scenario
            && let Some(n) = name.strip_prefix('P').and_then(|d| d.parse::<u8>().ok())
            && (1..=64).contains(&n)
        {
            return (mk(ExprKindIr::Lit(Value::Player(n - 1))), Ty::Player);
        }
        if let Some((i, ty)) = self.const_by_name.get(name).cloned() {
            return (mk(ExprKindIr::Const(i)), ty);
        }
        if let Some(i) = self.game.global_fields.iter().position(|f| f.name == name) {
            let ty = self.game.global_fields.get(i).map(|f| f.ty.clone()).unwrap_or(Ty::Any);
            return (mk(ExprKindIr::Global(i as u16)), ty);
        }
        if let Some(sym) = self.game.sym_id(name)
            && let Some(&e) = self.member_of.get(&sym)
        {
            return (mk(ExprKindIr::Lit(Value::Sym(sym))), Ty::Sym(Some(e)));
        }
        if let Some(&z) = self.zone_by_name.get(name) {
            return (mk(ExprKindIr::Lit(Value::Zone(ZoneRef { zone: z, owner: None }))), Ty::Zone);
        }
        if let Some(t) = cx.targets_later.iter().find(|t| t.node == name) {
            self.error(
                Diag::error(span, format!("unknown name `{name}`"))
                    .label("not declared here")
                    .help(format!(
                        "`{name}` is this ability's target, chosen after its `requires` and costs are worked out and paid: they cannot read it; what depends on the target goes in `do` (the target's `where` limits what may be chosen)"
                    ))
                    .related(t.span, "the target"),
            );
            return (mk(ExprKindIr::Lit(Value::None)), Ty::Any);
        }
        let mut candidates: Vec<String> = sc.names().into_iter().map(String::from).collect();
        candidates.extend(self.const_by_name.keys().cloned());
        candidates.extend(self.game.global_fields.iter().map(|f| f.name.clone()));
        candidates.extend(self.member_of.keys().map(|s| self.game.sym(*s).to_string()));
        candidates.extend(self.zone_by_name.keys().cloned());
        let mut help = did_you_mean(name, candidates.iter().map(String::as_str));
        if help.is_none() && self.proc_by_name.contains_key(name) {
            help = Some(format!("`{name}` is a procedure: run it with `call {name}(..)`, or pass it as `proc {name}`"));
        } else if help.is_none() && name.starts_with('P') && name[1..].chars().all(|c| c.is_ascii_digit()) && !cx.scenario {
            help = Some("seats `P1`, `P2`… can be named only in scenarios".to_string());
        }
        let d = Diag::error(span, format!("unknown name `{name}`")).label("not declared here").maybe_help(help);
        self.error(d);
        (mk(ExprKindIr::Lit(Value::None)), Ty::Any)
    }

    pub fn lower_field(&mut self, b: ExprIr, bt: Ty, field: &ast::Name, span: Span) -> (ExprIr, Ty) {
        let f = field.node.as_str();
        let mk = |kind| ExprIr { kind, span };
        match &bt {
            Ty::Player => {
                if let Some(i) = self.game.player_fields.iter().position(|x| x.name == f) {
                    let ty = self.game.player_fields.get(i).map(|x| x.ty.clone()).unwrap_or(Ty::Any);
                    return (mk(ExprKindIr::PlayerField(Box::new(b), i as u16)), ty);
                }
                if let Some(&z) = self.zone_by_name.get(f) {
                    if !self.game.zones.get(z as usize).is_some_and(|d| d.per_player) {
                        self.error(
                            Diag::error(field.span, format!("`{f}` is a shared zone, not a player's")).help(format!("write `{f}` alone")),
                        );
                    }
                    return (mk(ExprKindIr::PlayerZone(Box::new(b), z)), Ty::Zone);
                }
                let mut cands: Vec<&str> = self.game.player_fields.iter().map(|x| x.name.as_str()).collect();
                cands.extend(self.game.zones.iter().filter(|z| z.per_player).map(|z| z.name.as_str()));
                let help = did_you_mean(f, cands.iter().copied()).or_else(|| Some(format!("players have: {}", cands.join(", "))));
                self.error(Diag::error(field.span, format!("players have no field or zone `{f}`")).label("unknown field").maybe_help(help));
                (mk(ExprKindIr::Lit(Value::None)), Ty::Any)
            }
            Ty::Obj(k) => {
                if let Some((_, p)) = ObjProp::ALL.iter().find(|(n, _)| *n == f) {
                    let ty = match p {
                        ObjProp::Owner | ObjProp::Controller => Ty::Player,
                        ObjProp::Zone => Ty::Zone,
                        ObjProp::FaceUp => Ty::Bool,
                        ObjProp::Name => Ty::Text,
                        ObjProp::Def => Ty::Def(*k),
                        ObjProp::Under => Ty::List(Box::new(Ty::Obj(None))),
                        ObjProp::Above | ObjProp::Top => Ty::Obj(None),
                        ObjProp::Id => Ty::Int,
                    };
                    return (mk(ExprKindIr::ObjProp(Box::new(b), *p)), ty);
                }
                match self.object_field_type(*k, f) {
                    Some((sym, ty)) => (mk(ExprKindIr::ObjField(Box::new(b), sym)), ty),
                    None => {
                        self.unknown_object_field(*k, field);
                        (mk(ExprKindIr::Lit(Value::None)), Ty::Any)
                    }
                }
            }
            Ty::Def(k) => {
                if f == "name" {
                    let sym = self.intern("name");
                    return (mk(ExprKindIr::DefField(Box::new(b), sym)), Ty::Text);
                }
                match self.object_field_type(*k, f) {
                    Some((sym, ty)) => (mk(ExprKindIr::DefField(Box::new(b), sym)), ty),
                    None => {
                        self.unknown_object_field(*k, field);
                        (mk(ExprKindIr::Lit(Value::None)), Ty::Any)
                    }
                }
            }
            Ty::Zone if f == "owner" => (mk(ExprKindIr::ZoneOwner(Box::new(b))), Ty::Player),
            Ty::Ability if f == "label" => (mk(ExprKindIr::AbilityLabel(Box::new(b))), Ty::Text),
            Ty::Ability if f == "source" => (mk(ExprKindIr::AbilitySource(Box::new(b))), Ty::Obj(None)),
            Ty::Any => {
                let known = self.game.player_fields.iter().any(|x| x.name == f)
                    || self.zone_by_name.contains_key(f)
                    || ObjProp::ALL.iter().any(|(n, _)| *n == f)
                    || self.game.kinds.iter().any(|k| k.fields.iter().any(|fd| self.game.sym(fd.name) == f))
                    || matches!(f, "owner" | "label" | "source" | "name");
                if !known {
                    let mut cands: Vec<String> = self.game.player_fields.iter().map(|x| x.name.clone()).collect();
                    cands.extend(self.zone_by_name.keys().cloned());
                    for k in self.game.kinds.iter() {
                        cands.extend(k.fields.iter().map(|fd| self.game.sym(fd.name).to_string()));
                    }
                    let help = did_you_mean(f, cands.iter().map(String::as_str));
                    self.error(
                        Diag::error(field.span, format!("no player, zone or kind has a field `{f}`"))
                            .label("unknown field")
                            .maybe_help(help),
                    );
                }
                let sym = self.intern(f);
                (mk(ExprKindIr::Dynamic(Box::new(b), sym)), Ty::Any)
            }
            other => {
                let msg = format!("{} has no field `{f}`", self.ty_name(other));
                self.bad(field.span, msg)
            }
        }
    }

    /// The field's symbol and type on a kind (or on any kind when the kind is not known).
    pub fn object_field_type(&mut self, k: Option<KindId>, f: &str) -> Option<(Sym, Ty)> {
        let sym = self.game.sym_id(f)?;
        match k {
            Some(k) => {
                let kind = self.game.kinds.get(k as usize)?;
                let i = kind.field_index.get(&sym)?;
                kind.fields.get(*i).map(|fd| (sym, fd.ty.clone()))
            }
            None => {
                let mut found: Option<Ty> = None;
                for kind in self.game.kinds.iter() {
                    if let Some(i) = kind.field_index.get(&sym)
                        && let Some(fd) = kind.fields.get(*i)
                    {
                        found = Some(match found {
                            None => fd.ty.clone(),
                            Some(t) if t == fd.ty => t,
                            Some(_) => Ty::Any,
                        });
                    }
                }
                found.map(|t| (sym, t))
            }
        }
    }

    fn unknown_object_field(&mut self, k: Option<KindId>, field: &ast::Name) {
        let mut cands: Vec<String> = ObjProp::ALL.iter().map(|(n, _)| n.to_string()).collect();
        let kinds: Vec<&KindDef> = match k {
            Some(k) => self.game.kinds.get(k as usize).into_iter().collect(),
            None => self.game.kinds.iter().collect(),
        };
        for kind in &kinds {
            cands.extend(kind.fields.iter().map(|fd| self.game.sym(fd.name).to_string()));
        }
        let who = match k.and_then(|k| self.game.kinds.get(k as usize)) {
            Some(kind) => format!("kind `{}`", kind.name),
            None => "any kind".to_string(),
        };
        let help = did_you_mean(&field.node, cands.iter().map(String::as_str));
        self.error(Diag::error(field.span, format!("unknown field `{}` on {who}", field.node)).label("not a field").maybe_help(help));
    }

    fn lower_binary(&mut self, op: BinOp, l: &ast::Expr, r: &ast::Expr, span: Span, sc: &mut Scope, cx: &LowerContext) -> (ExprIr, Ty) {
        let (a, at) = self.lower_expr(l, sc, cx);
        let (b, bt) = self.lower_expr(r, sc, cx);
        let ty = match op {
            BinOp::And | BinOp::Or => {
                self.expect_ty(&at, &Ty::Bool, l.span);
                self.expect_ty(&bt, &Ty::Bool, r.span);
                Ty::Bool
            }
            BinOp::Eq | BinOp::Ne => {
                if !at.fits(&bt) && !bt.fits(&at) {
                    let msg = format!("comparing {} with {} is always {}", self.ty_name(&at), self.ty_name(&bt), op == BinOp::Ne);
                    self.error(
                        Diag::error(span, msg).label("these can never be equal").help("check that both sides are the same kind of thing"),
                    );
                }
                Ty::Bool
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                self.expect_ty(&at, &Ty::Int, l.span);
                self.expect_ty(&bt, &Ty::Int, r.span);
                Ty::Bool
            }
            BinOp::In | BinOp::NotIn | BinOp::Has => {
                let (item, item_t, cont_t, cont_span) = if op == BinOp::Has { (&b, &bt, &at, l.span) } else { (&a, &at, &bt, r.span) };
                let _ = item;
                if !cont_t.is_listlike() && *cont_t != Ty::Amount {
                    let msg = format!("expected a list or a zone, found {}", self.ty_name(cont_t));
                    self.error(Diag::error(cont_span, msg).label("not a list"));
                } else if !item_t.fits(&cont_t.elem()) && *cont_t != Ty::Amount {
                    let msg = format!("{} can never be in {}", self.ty_name(item_t), self.ty_name(cont_t));
                    self.error(Diag::error(span, msg).label("wrong kind of value"));
                }
                Ty::Bool
            }
            BinOp::Add => match (&at, &bt) {
                (Ty::Text, _) => Ty::Text,
                (Ty::List(_) | Ty::Zone, _) => Ty::List(Box::new(at.elem())),
                // A left side not known yet (a function defined further on): `+` is what the
                // right side makes it, and the values decide when it runs.
                (Ty::Any, Ty::Text) => Ty::Text,
                (Ty::Any, Ty::List(_) | Ty::Zone) => Ty::List(Box::new(bt.elem())),
                (Ty::Any, Ty::Any) => Ty::Any,
                _ => {
                    self.expect_ty(&at, &Ty::Int, l.span);
                    self.expect_ty(&bt, &Ty::Int, r.span);
                    Ty::Int
                }
            },
            _ => {
                self.expect_ty(&at, &Ty::Int, l.span);
                self.expect_ty(&bt, &Ty::Int, r.span);
                Ty::Int
            }
        };
        (ExprIr { kind: ExprKindIr::Binary(super::operators::binary(op), Box::new(a), Box::new(b)), span }, ty)
    }

    /// The arguments of a call of entry `id` of `table` (the procedures', functions' or checks'
    /// parameters), checked against its parameters: their number, then each one's type. The table
    /// is the shared one, held here so that the parameters are not copied for each call.
    #[expect(clippy::too_many_arguments, reason = "a call's whole context, passed once")]
    pub(super) fn lower_args(
        &mut self,
        table: Arc<Vec<Vec<(String, Ty)>>>,
        id: usize,
        args: &[ast::Expr],
        name: &str,
        span: Span,
        sc: &mut Scope,
        cx: &LowerContext,
    ) -> Vec<ExprIr> {
        let params = table.get(id).map_or(&[][..], Vec::as_slice);
        if args.len() != params.len() {
            self.error(
                Diag::error(
                    span,
                    format!("`{name}` takes {} argument{}, not {}", params.len(), if params.len() == 1 { "" } else { "s" }, args.len()),
                )
                .label("wrong number of arguments")
                .help(format!("`{name}({})`", params.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", "))),
            );
        }
        let mut out = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let (x, t) = self.lower_expr(a, sc, cx);
            if let Some((_, want)) = params.get(i) {
                self.expect_ty(&t, want, a.span);
            }
            out.push(x);
        }
        out
    }

    pub fn lower_call_expr(&mut self, c: &ast::CallExpr, sc: &mut Scope, cx: &LowerContext) -> (ExprIr, Ty) {
        let name = c.name.node.as_str();
        let span = c.span;
        let mk = |kind| ExprIr { kind, span };
        if let Some(&fid) = self.func_by_name.get(name) {
            let args = self.lower_args(Arc::clone(&self.func_params), fid as usize, &c.args, name, span, sc, cx);
            let ty = self.func_types.get(fid as usize).cloned().unwrap_or(Ty::Any);
            // A small function written before this call runs in place (see `inline`).
            if let Some(f) = self.game.funcs.get(fid as usize).filter(|f| f.info.name == name)
                && let Some((lets, body)) = super::inline::inline_call(f, &args, &mut || sc.temp())
            {
                return (mk(ExprKindIr::Inline { func: fid, args, lets, body: Box::new(body) }), ty);
            }
            return (mk(ExprKindIr::Call(fid, args)), ty);
        }
        if let Some(&cid) = self.check_by_name.get(name) {
            let args = self.lower_args(Arc::clone(&self.check_params), cid as usize, &c.args, name, span, sc, cx);
            return (mk(ExprKindIr::Check(cid, args)), Ty::Bool);
        }
        if name == "can" {
            if let [ast::Spanned { node: ast::ExprKind::Call(inner), .. }] = c.args.as_slice()
                && let Some(&pid) = self.proc_by_name.get(&inner.name.node)
            {
                let args = self.lower_args(Arc::clone(&self.proc_params), pid as usize, &inner.args, &inner.name.node, inner.span, sc, cx);
                return (mk(ExprKindIr::CanProc(pid, args)), Ty::Bool);
            }
            return self.bad(span, "`can` takes one procedure call, like `can(commit(u))`");
        }
        if let Some(sig) = builtins::lookup(name) {
            return self.lower_builtin_call(c, sig, sc, cx);
        }
        if self.proc_by_name.contains_key(name) {
            return self.bad(
                span,
                format!("`{name}` is a procedure, not a function: run it with `call {name}(..)` or test it with `can({name}(..))`"),
            );
        }
        if self.event_by_name.contains_key(name) {
            return self.bad(span, format!("`{name}` is an event: raise it with `signal {name}(..)`"));
        }
        let mut cands: Vec<&str> = self.func_by_name.keys().map(String::as_str).collect();
        cands.extend(self.check_by_name.keys().map(String::as_str));
        cands.extend(builtins::BUILTINS.iter().map(|s| s.name));
        let help = did_you_mean(name, cands.iter().copied());
        self.error(Diag::error(c.name.span, format!("unknown function `{name}`")).label("not declared").maybe_help(help));
        (mk(ExprKindIr::Lit(Value::None)), Ty::Any)
    }

    /// A builtin called: its arity checked, a function argument lowered as one, its result typed
    /// from its first argument where it depends on it; `count` and `first` of a filtered list fused.
    fn lower_builtin_call(
        &mut self,
        c: &ast::CallExpr,
        sig: &'static builtins::Signature,
        sc: &mut Scope,
        cx: &LowerContext,
    ) -> (ExprIr, Ty) {
        let name = c.name.node.as_str();
        let span = c.span;
        let mk = |kind| ExprIr { kind, span };
        if c.args.len() < sig.min || c.args.len() > sig.max {
            let want = if sig.min == sig.max { sig.min.to_string() } else { format!("{} to {}", sig.min, sig.max) };
            self.error(
                Diag::error(span, format!("`{name}` takes {want} argument{}, not {}", if sig.max == 1 { "" } else { "s" }, c.args.len()))
                    .label("wrong number of arguments")
                    .help(format!("`{name}`: {}", sig.doc)),
            );
        }
        let mut args = Vec::with_capacity(c.args.len());
        let mut first_ty = Ty::Any;
        for (i, a) in c.args.iter().enumerate() {
            if let Some((pos, n)) = sig.lambda
                && pos == i
            {
                args.push(self.lower_lambda(a, n, &first_ty, sc, cx));
                continue;
            }
            let (x, t) = self.lower_expr(a, sc, cx);
            if i == 0 {
                first_ty = t;
            }
            args.push(x);
        }
        let ty = returned_type(sig.ret, first_ty);
        if sig.builtin == builtins::Builtin::Definitions
            && let Some(ast::Spanned { node: ast::ExprKind::Str(s), span: sspan }) = c.args.first()
            && let Some(kind) = s.as_plain()
        {
            match self.kind_by_name.get(&kind) {
                Some(&k) => return (mk(ExprKindIr::Builtin(sig.builtin, args)), Ty::List(Box::new(Ty::Def(Some(k))))),
                None => {
                    let help = did_you_mean(&kind, self.kind_by_name.keys().map(String::as_str));
                    self.error(Diag::error(*sspan, format!("no kind named `{kind}`")).maybe_help(help));
                }
            }
        }
        if matches!(sig.builtin, builtins::Builtin::Abilities | builtins::Builtin::Ability)
            && let Some(ast::Spanned { node: ast::ExprKind::Str(s), span: sspan }) = c.args.get(1)
            && let Some(slot) = s.as_plain()
            && !self.game.kinds.iter().any(|k| k.slots.iter().any(|(n, _)| *n == slot))
        {
            let cands: Vec<String> = self.game.kinds.iter().flat_map(|k| k.slots.iter().map(|(n, _)| n.clone())).collect();
            let help = did_you_mean(&slot, cands.iter().map(String::as_str));
            self.error(Diag::error(*sspan, format!("no kind has an ability slot `{slot}`")).maybe_help(help));
        }
        // `count` and `first` of a list comprehension with a condition walk it without
        // building the list.
        let fused = match (sig.builtin, args.as_mut_slice()) {
            (builtins::Builtin::Count | builtins::Builtin::First, [ExprIr { kind: ExprKindIr::Filter { slot, list, cond, by }, .. }]) => {
                let (slot, by, list, cond) = (
                    *slot,
                    *by,
                    std::mem::replace(list, Box::new(mk(ExprKindIr::Lit(Value::None)))),
                    std::mem::replace(cond, Box::new(mk(ExprKindIr::Lit(Value::None)))),
                );
                Some(if sig.builtin == builtins::Builtin::Count {
                    ExprKindIr::CountWhere { slot, list, cond, by }
                } else {
                    ExprKindIr::FirstWhere { slot, list, cond, by }
                })
            }
            _ => None,
        };
        if let Some(kind) = fused {
            return (mk(kind), ty);
        }
        (mk(ExprKindIr::Builtin(sig.builtin, args)), ty)
    }

    fn lower_lambda(&mut self, a: &ast::Expr, n: usize, first: &Ty, sc: &mut Scope, cx: &LowerContext) -> ExprIr {
        let ast::ExprKind::Lambda { params, body } = &a.node else {
            self.error(Diag::error(
                a.span,
                format!("expected a function with {n} parameter{}, like `|x| ..`", if n == 1 { "" } else { "s" }),
            ));
            return ExprIr { kind: ExprKindIr::Lit(Value::None), span: a.span };
        };
        if params.len() != n {
            self.error(Diag::error(a.span, format!("this function needs {n} parameter{}", if n == 1 { "" } else { "s" })));
        }
        sc.push();
        let slots: Vec<Slot> =
            params.iter().enumerate().map(|(i, p)| sc.declare(&p.node, if i == 0 { first.elem() } else { Ty::Any })).collect();
        let (body, _) = self.lower_expr(body, sc, cx);
        sc.pop();
        let id = self.game.lambdas.len() as u32;
        self.game.lambdas.push(LambdaDef { params: slots, body });
        ExprIr { kind: ExprKindIr::Lambda(id), span: a.span }
    }
}

/// A chain of names `a.b.c` as the whole dotted text, or `None`.
fn dotted(e: &ast::Expr) -> Option<String> {
    match &e.node {
        ast::ExprKind::Var(n) => Some(n.clone()),
        ast::ExprKind::Field { base, field } => dotted(base).map(|path| format!("{path}.{}", field.node)),
        _ => None,
    }
}

/// The name a dotted name (`dotted`) starts with, without making the whole: most are locals.
fn dotted_root(e: &ast::Expr) -> Option<&str> {
    match &e.node {
        ast::ExprKind::Var(n) => Some(n.as_str()),
        ast::ExprKind::Field { base, .. } => dotted_root(base),
        _ => None,
    }
}

/// The type a builtin returns, from its signature and the type of its first argument.
fn returned_type(ret: Returns, first: Ty) -> Ty {
    match ret {
        Returns::Int => Ty::Int,
        Returns::Bool => Ty::Bool,
        Returns::Text => Ty::Text,
        Returns::Player => Ty::Player,
        Returns::Players => Ty::List(Box::new(Ty::Player)),
        Returns::Same => match first {
            Ty::Zone => Ty::List(Box::new(Ty::Obj(None))),
            t => t,
        },
        Returns::Elem => first.elem(),
        Returns::Objects => Ty::List(Box::new(Ty::Obj(None))),
        Returns::Defs => Ty::List(Box::new(Ty::Def(None))),
        Returns::Ability => Ty::Ability,
        Returns::Abilities => Ty::List(Box::new(Ty::Ability)),
        Returns::Syms => Ty::List(Box::new(Ty::Sym(None))),
        Returns::Ints => Ty::List(Box::new(Ty::Int)),
        Returns::Pose => Ty::Pose,
        Returns::Amount => Ty::Amount,
        Returns::Poses => Ty::List(Box::new(Ty::Pose)),
    }
}
