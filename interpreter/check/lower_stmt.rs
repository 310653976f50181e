//! Lowering statements and blocks. Each block is stored once in `Game::blocks`.

use super::Checker;
use super::lower_expr::LowerContext;
use super::scope::Scope;
use arbiter_ir::value::Value;
use arbiter_ir::*;
use arbiter_syntax::ast::{self, ChooseCount, ChooseForm, LetValue, MoveFlag};
use arbiter_syntax::diag::{Diag, did_you_mean};
use arbiter_syntax::span::Span;
use std::sync::Arc;

impl Checker {
    pub fn lower_block(&mut self, b: &ast::Block, sc: &mut Scope, cx: &LowerContext) -> BlockId {
        self.deeper(|c| c.lower_block_inner(b, sc, cx))
    }

    fn lower_block_inner(&mut self, b: &ast::Block, sc: &mut Scope, cx: &LowerContext) -> BlockId {
        sc.push();
        let id = self.lower_block_open(b, sc, cx);
        sc.pop();
        id
    }

    /// A block whose names stay in scope after it: a procedure's named `step`.
    fn lower_block_open(&mut self, b: &ast::Block, sc: &mut Scope, cx: &LowerContext) -> BlockId {
        let mut out = Vec::new();
        for s in &b.stmts {
            if let Some(st) = self.lower_stmt(s, sc, cx) {
                out.push(st);
            }
        }
        let id = self.game.blocks.len() as BlockId;
        self.game.blocks.push(out.into());
        id
    }

    fn duration(&mut self, n: &ast::Name) -> Option<usize> {
        match self.game.durations.iter().position(|d| *d == n.node) {
            Some(i) => Some(i),
            None => {
                let help = did_you_mean(&n.node, self.game.durations.iter().map(String::as_str))
                    .or_else(|| Some(format!("the game declares these durations: {}", self.game.durations.join(", "))));
                self.error(Diag::error(n.span, format!("unknown duration `{}`", n.node)).label("not declared").maybe_help(help));
                None
            }
        }
    }

    pub fn lower_call(&mut self, c: &ast::CallExpr, sc: &mut Scope, cx: &LowerContext) -> CallIr {
        let name = c.name.node.as_str();
        let mut args = Vec::with_capacity(c.args.len());
        if let Some(&pid) = self.proc_by_name.get(name) {
            let args = self.lower_args(Arc::clone(&self.proc_params), pid as usize, &c.args, name, c.span, sc, cx);
            return CallIr { target: CallTarget::Proc(pid), args, span: c.span };
        }
        if let Some((slot, ty)) = sc.lookup(name).map(|(s, t)| (s, t.clone()))
            && ty.fits(&Ty::Proc)
        {
            for a in &c.args {
                args.push(self.lower_expr(a, sc, cx).0);
            }
            return CallIr { target: CallTarget::Dynamic(ExprIr { kind: ExprKindIr::Local(slot), span: c.name.span }), args, span: c.span };
        }
        let mut help = did_you_mean(name, self.proc_by_name.keys().map(String::as_str));
        if help.is_none() && (self.func_by_name.contains_key(name) || self.check_by_name.contains_key(name)) {
            help = Some(format!("`{name}` is a function: use it in an expression, like `let x = {name}(..)`"));
        }
        self.error(Diag::error(c.name.span, format!("unknown procedure `{name}`")).label("not declared").maybe_help(help));
        CallIr { target: CallTarget::Proc(0), args, span: c.span }
    }

    fn lower_choose(&mut self, c: &ast::Choose, sc: &mut Scope, cx: &LowerContext) -> (ChooseIr, Ty) {
        let (who, wt) = self.lower_expr(&c.who, sc, cx);
        self.expect_ty(&wt, &Ty::Player, c.who.span);
        let prompt = self.lower_str(&c.prompt, sc, cx);
        let (form, ty) = match &c.form {
            ChooseForm::From { count, list, none } => {
                let (l, lt) = self.lower_list(list, sc, cx);
                let (count, ty) = match count.as_ref() {
                    ChooseCount::One => (ChooseCountIr::One, lt.elem()),
                    ChooseCount::Exactly(n) => {
                        let (x, t) = self.lower_expr(n, sc, cx);
                        self.expect_ty(&t, &Ty::Int, n.span);
                        (ChooseCountIr::Exactly(x), Ty::List(Box::new(lt.elem())))
                    }
                    ChooseCount::UpTo(n) => {
                        let (x, t) = self.lower_expr(n, sc, cx);
                        self.expect_ty(&t, &Ty::Int, n.span);
                        (ChooseCountIr::UpTo(x), Ty::List(Box::new(lt.elem())))
                    }
                    ChooseCount::Order => (ChooseCountIr::Order, Ty::List(Box::new(lt.elem()))),
                };
                let none = none.as_ref().map(|s| self.lower_str(s, sc, cx));
                (ChooseFormIr::From { count, list: l, none }, ty)
            }
            ChooseForm::Branches(bs) => {
                let mut out = Vec::new();
                for b in bs {
                    let label = self.lower_str(&b.label, sc, cx);
                    let cond = b.cond.as_ref().map(|x| {
                        let (e, t) = self.lower_expr(x, sc, cx);
                        self.expect_ty(&t, &Ty::Bool, x.span);
                        e
                    });
                    let body = self.lower_block(&b.body, sc, cx);
                    out.push(BranchIr { label, cond, rarely: b.rarely, body });
                }
                (ChooseFormIr::Branches(out), Ty::Nothing)
            }
        };
        (ChooseIr { secret: c.secret, who, prompt, form }, ty)
    }

    fn lower_create(&mut self, c: &ast::Create, sc: &mut Scope, cx: &LowerContext) -> CreateIr {
        let def = match &c.def.node {
            ast::ExprKind::Str(s) if s.as_plain().is_some() => {
                let name = s.as_plain().unwrap_or_default();
                match self.game.def_index.get(&name) {
                    Some(d) => ExprIr { kind: ExprKindIr::Lit(Value::Def(*d)), span: c.def.span },
                    None => {
                        let help = did_you_mean(&name, self.game.def_index.keys().map(String::as_str));
                        self.error(
                            Diag::error(c.def.span, format!("no definition named `{name}`"))
                                .label("unknown card or object")
                                .maybe_help(help),
                        );
                        ExprIr { kind: ExprKindIr::Lit(Value::None), span: c.def.span }
                    }
                }
            }
            _ => {
                let (x, t) = self.lower_expr(&c.def, sc, cx);
                if t == Ty::Text {
                    // A name held in a variable: the definition is found by it at run time only
                    // through `definitions`.
                    self.error(
                        Diag::error(c.def.span, "`create` takes a definition, and this is a text")
                            .label("a text")
                            .help("write the name itself, `create \"Raptor\" in ..`; for a name held in a variable, find its definition: `create first([d in definitions(\"card\") where d.name == n]) in ..`"),
                    );
                } else {
                    self.expect_ty(&t, &Ty::Def(None), c.def.span);
                }
                x
            }
        };
        let (zone, zt) = self.lower_expr(&c.zone, sc, cx);
        self.expect_ty(&zt, &Ty::Zone, c.zone.span);
        let owner = c.owner.as_ref().map(|o| {
            let (x, t) = self.lower_expr(o, sc, cx);
            self.expect_ty(&t, &Ty::Player, o.span);
            x
        });
        CreateIr { def, owner, zone, face_up: c.face_up }
    }

    fn objects_expr(&mut self, e: &ast::Expr, sc: &mut Scope, cx: &LowerContext) -> ExprIr {
        let (x, t) = self.lower_expr(e, sc, cx);
        if !(t.fits(&Ty::Obj(None)) || t.is_listlike()) {
            let msg = format!("expected an object, a list of objects or a zone, found {}", self.ty_name(&t));
            self.error(Diag::error(e.span, msg).label("wrong kind of value"));
        }
        x
    }

    pub fn lower_stmt(&mut self, s: &ast::Stmt, sc: &mut Scope, cx: &LowerContext) -> Option<StmtIr> {
        let span = s.span;
        if cx.pure {
            self.error(Diag::error(span, "statements are not allowed here"));
            return None;
        }
        let kind = match &s.node {
            ast::StmtKind::Let { name, value } => self.lower_let(name, value, span, sc, cx),
            ast::StmtKind::Assign { place, op, value } => {
                let (v, vt) = self.lower_expr(value, sc, cx);
                let place = self.lower_place(place, &vt, sc, cx)?;
                if op.node != ast::AssignOp::Set {
                    self.expect_ty(&vt, &Ty::Int, value.span);
                }
                StmtKindIr::Assign { place, op: super::operators::assign(op.node), value: v }
            }
            ast::StmtKind::If { arms, otherwise } => {
                let mut out = Vec::new();
                for (c, b) in arms {
                    let (x, t) = self.lower_expr(c, sc, cx);
                    self.expect_ty(&t, &Ty::Bool, c.span);
                    let body = self.lower_block(b, sc, cx);
                    out.push((x, body));
                }
                let otherwise = otherwise.as_ref().map(|b| self.lower_block(b, sc, cx));
                StmtKindIr::If { arms: out, otherwise }
            }
            ast::StmtKind::For { var, list, body } => {
                let (l, lt) = self.lower_list(list, sc, cx);
                sc.push();
                let slot = sc.declare(&var.node, lt.elem());
                let body = self.lower_block(body, sc, cx);
                sc.pop();
                StmtKindIr::For { slot, list: l, body }
            }
            ast::StmtKind::Step { body, name, cite } => {
                self.game.steps.push(StepInfo { span, name: name.node.clone(), cite: cite.as_ref().map(|c| c.node.clone()) });
                let body = self.deeper(|c| c.lower_block_open(body, sc, cx));
                StmtKindIr::Block(body)
            }
            ast::StmtKind::While { cond, body } => {
                let (c, t) = self.lower_expr(cond, sc, cx);
                self.expect_ty(&t, &Ty::Bool, cond.span);
                let body = self.lower_block(body, sc, cx);
                StmtKindIr::While { cond: c, body }
            }
            ast::StmtKind::Repeat { count, body } => {
                let (c, t) = self.lower_expr(count, sc, cx);
                self.expect_ty(&t, &Ty::Int, count.span);
                let body = self.lower_block(body, sc, cx);
                StmtKindIr::Repeat { count: c, body }
            }
            ast::StmtKind::Return(e) => StmtKindIr::Return(e.as_ref().map(|x| self.lower_expr(x, sc, cx).0)),
            ast::StmtKind::Call(c) => StmtKindIr::Call(self.lower_call(c, sc, cx)),
            ast::StmtKind::Choose(c) => {
                let (choose, _) = self.lower_choose(c, sc, cx);
                StmtKindIr::Choose { dest: None, choose: Box::new(choose) }
            }
            ast::StmtKind::Move { what, to, flags } => {
                let what = self.objects_expr(what, sc, cx);
                let (to_x, tt) = self.lower_expr(to, sc, cx);
                self.expect_ty(&tt, &Ty::Zone, to.span);
                let bottom = flags.iter().any(|f| f.node == MoveFlag::Bottom);
                let face = flags.iter().rev().find_map(|f| match f.node {
                    MoveFlag::FaceUp => Some(true),
                    MoveFlag::FaceDown => Some(false),
                    _ => None,
                });
                StmtKindIr::Move { what, to: to_x, bottom, face, script: cx.scenario }
            }
            ast::StmtKind::Put { what, under, target } => {
                let what = self.objects_expr(what, sc, cx);
                let (t, tt) = self.lower_expr(target, sc, cx);
                self.expect_ty(&tt, &Ty::Obj(None), target.span);
                StmtKindIr::Put { what, under: *under, target: t, script: cx.scenario }
            }
            ast::StmtKind::Turn { what, up } => StmtKindIr::Turn { what: self.objects_expr(what, sc, cx), up: *up },
            ast::StmtKind::Shuffle(z) => {
                let (x, t) = self.lower_expr(z, sc, cx);
                self.expect_ty(&t, &Ty::Zone, z.span);
                StmtKindIr::Shuffle(x)
            }
            ast::StmtKind::Modify { target, field, op, value, until } => {
                self.lower_modify(target, field, op, value, until.as_ref(), sc, cx)
            }
            ast::StmtKind::Expire(d) => StmtKindIr::Expire(self.duration(d)?),
            ast::StmtKind::Lasting { forbid, hook, until } => self.lower_lasting(hook, *forbid, until.as_ref(), span, sc, cx)?,
            ast::StmtKind::LastingReplace { body, until } => self.lower_lasting_replace_stmt(body, until.as_ref(), span, sc, cx)?,
            ast::StmtKind::Signal(c) => self.lower_signal(c, sc, cx)?,
            ast::StmtKind::Log(t) => StmtKindIr::Log(self.lower_str(t, sc, cx)),
            ast::StmtKind::Win { who, reason } | ast::StmtKind::Lose { who, reason } => {
                let (w, wt) = self.lower_expr(who, sc, cx);
                if !(wt.fits(&Ty::Player) || wt.fits(&Ty::List(Box::new(Ty::Player)))) {
                    let msg = format!("expected a player or a list of players, found {}", self.ty_name(&wt));
                    self.error(Diag::error(who.span, msg));
                }
                let reason = self.lower_str(reason, sc, cx);
                if matches!(s.node, ast::StmtKind::Win { .. }) {
                    StmtKindIr::Win { who: w, reason }
                } else {
                    StmtKindIr::Lose { who: w, reason }
                }
            }
            ast::StmtKind::Draw(reason) => StmtKindIr::Draw(self.lower_str(reason, sc, cx)),
            ast::StmtKind::Reveal { what, to } => {
                let what = self.objects_expr(what, sc, cx);
                let to = to.as_ref().map(|t| self.lower_expr(t, sc, cx).0);
                StmtKindIr::Reveal { what, to }
            }
            ast::StmtKind::Conceal(what) => StmtKindIr::Conceal(self.objects_expr(what, sc, cx)),
            ast::StmtKind::Create(c) => StmtKindIr::Create { dest: None, create: Box::new(self.lower_create(c, sc, cx)) },
            ast::StmtKind::Use(a, by) => self.lower_use(a, by.as_ref(), sc, cx),
            ast::StmtKind::Run(_)
            | ast::StmtKind::Answer { .. }
            | ast::StmtKind::Random(_)
            | ast::StmtKind::Expect(_)
            | ast::StmtKind::Stop => {
                self.error(Diag::error(span, "this statement belongs only at the top level of a scenario"));
                return None;
            }
        };
        Some(StmtIr { kind, span })
    }

    /// `modify x.f += v until ..`: a continuous change of a field of the objects named.
    #[expect(clippy::too_many_arguments, reason = "a `modify` statement's parts, as written")]
    fn lower_modify(
        &mut self,
        target: &ast::Expr,
        field: &ast::Name,
        op: &ast::Spanned<ast::ModifyOp>,
        value: &ast::Expr,
        until: Option<&ast::Name>,
        sc: &mut Scope,
        cx: &LowerContext,
    ) -> StmtKindIr {
        let (t, tt) = self.lower_expr(target, sc, cx);
        let kind = match &tt {
            Ty::Obj(k) => *k,
            _ => None,
        };
        if !(tt.fits(&Ty::Obj(None)) || tt.is_listlike()) {
            let msg = format!("expected an object or a list of objects, found {}", self.ty_name(&tt));
            self.error(Diag::error(target.span, msg));
        }
        let fsym = match self.object_field_type(kind, &field.node) {
            Some((sym, fty)) => {
                if matches!(op.node, ast::ModifyOp::Insert | ast::ModifyOp::Remove) && !matches!(fty, Ty::List(_) | Ty::Any) {
                    self.error(Diag::error(op.span, format!("`add` and `remove` work on list fields; `{}` is not a list", field.node)));
                }
                sym
            }
            None => {
                let cands: Vec<String> =
                    self.game.kinds.iter().flat_map(|k| k.fields.iter().map(|f| self.game.sym(f.name).to_string())).collect();
                let help = did_you_mean(&field.node, cands.iter().map(String::as_str));
                self.error(Diag::error(field.span, format!("unknown field `{}`", field.node)).label("not a field").maybe_help(help));
                0
            }
        };
        let (v, _) = self.lower_expr(value, sc, cx);
        let until = until.as_ref().and_then(|u| self.duration(u));
        StmtKindIr::Modify { target: t, field: fsym, op: super::operators::modify(op.node), value: v, until }
    }

    /// `forbid`/`permit` made by running code, lasting until a duration ends.
    fn lower_lasting(
        &mut self,
        hook: &ast::HookItem,
        forbid: bool,
        until: Option<&ast::Name>,
        span: Span,
        sc: &mut Scope,
        cx: &LowerContext,
    ) -> Option<StmtKindIr> {
        sc.push();
        let lowered = self.lower_hook_in(hook, forbid, sc, cx);
        sc.pop();
        let (target, params, when) = lowered?;
        let until = self.lasting_until(until)?;
        Some(self.keep_lasting(LastingDef { target, replace: None, forbid, params, when, until, span }))
    }

    /// When a lasting effect made by running code ends: the duration named, else the game's
    /// default (`None` when the name is no duration: an error is reported).
    fn lasting_until(&mut self, until: Option<&ast::Name>) -> Option<Option<usize>> {
        match until {
            Some(u) => Some(Some(self.duration(u)?)),
            None => Some(self.game.default_duration),
        }
    }

    /// Keep a lasting effect made by running code: the statement that makes it.
    fn keep_lasting(&mut self, def: LastingDef) -> StmtKindIr {
        let i = self.game.lasting.len() as u32;
        self.game.lasting.push(def);
        StmtKindIr::Lasting(i)
    }

    /// `replace ..` made by running code, lasting until a duration ends.
    fn lower_lasting_replace_stmt(
        &mut self,
        body: &ast::ReplaceBody,
        until: Option<&ast::Name>,
        span: Span,
        sc: &mut Scope,
        cx: &LowerContext,
    ) -> Option<StmtKindIr> {
        // Lowered in the scope of the code that makes it, so that it reads its names.
        sc.push();
        let lowered = self.lower_lasting_replace(body, sc, cx);
        sc.pop();
        let (pid, params, when, replace) = lowered?;
        let until = self.lasting_until(until)?;
        let when = when.unwrap_or(ExprIr { kind: ExprKindIr::Lit(arbiter_ir::value::Value::Bool(true)), span: body.target.span });
        Some(self.keep_lasting(LastingDef { target: Hooked::Proc(pid), replace: Some(replace), forbid: false, params, when, until, span }))
    }

    /// `signal event(args)`: the event must be declared, with as many arguments as it has parameters.
    fn lower_signal(&mut self, c: &ast::CallExpr, sc: &mut Scope, cx: &LowerContext) -> Option<StmtKindIr> {
        let Some(&event) = self.event_by_name.get(&c.name.node) else {
            let help = did_you_mean(&c.name.node, self.event_by_name.keys().map(String::as_str));
            self.error(Diag::error(c.name.span, format!("unknown event `{}`", c.name.node)).label("not declared").maybe_help(help));
            return None;
        };
        let params = self.game.events.get(event as usize).map(|e| e.params.clone()).unwrap_or_default();
        if params.len() != c.args.len() {
            self.error(Diag::error(c.span, format!("`{}` takes {} arguments, not {}", c.name.node, params.len(), c.args.len())));
        }
        let args = c.args.iter().map(|a| self.lower_expr(a, sc, cx).0).collect();
        Some(StmtKindIr::Signal { event, args })
    }

    /// `use ability by player`: an ability (not the object that has it), used by its controller or the player given.
    fn lower_use(&mut self, a: &ast::Expr, by: Option<&ast::Expr>, sc: &mut Scope, cx: &LowerContext) -> StmtKindIr {
        let by = by.as_ref().map(|b| {
            let (bx, bt) = self.lower_expr(b, sc, cx);
            self.expect_ty(&bt, &Ty::Player, b.span);
            bx
        });
        let (x, t) = self.lower_expr(a, sc, cx);
        if matches!(t, Ty::Obj(_)) {
            let msg = format!("expected an ability, found {}", self.ty_name(&t));
            self.error(
                Diag::error(a.span, msg)
                    .label("an object, not one of its abilities")
                    .help("name the ability: `use ability(c, \"action\")`"),
            );
        } else {
            self.expect_ty(&t, &Ty::Ability, a.span);
        }
        StmtKindIr::Use(x, by)
    }

    /// `let x = ..`: a new local, typed by what it is given.
    /// `let x = ..`: a new local, typed by what it is given.
    fn lower_let(&mut self, name: &ast::Name, value: &LetValue, span: Span, sc: &mut Scope, cx: &LowerContext) -> StmtKindIr {
        match value {
            LetValue::Expr(e) => {
                let (x, t) = self.lower_expr(e, sc, cx);
                let slot = sc.declare(&name.node, t);
                StmtKindIr::Let { slot, value: x }
            }
            LetValue::Call(c) => {
                let call = self.lower_call(c, sc, cx);
                let slot = sc.declare(&name.node, Ty::Any);
                StmtKindIr::LetCall { slot, call }
            }
            LetValue::Choose(c) => {
                let (choose, ty) = self.lower_choose(c, sc, cx);
                if matches!(choose.form, ChooseFormIr::Branches(_)) {
                    self.error(
                        Diag::error(span, "a choice between branches has no value to keep")
                            .help("write `choose p \"..\" { .. }` without `let`"),
                    );
                }
                let slot = sc.declare(&name.node, ty);
                StmtKindIr::Choose { dest: Some(slot), choose: Box::new(choose) }
            }
            LetValue::Roll(e) => {
                let (x, t) = self.lower_expr(e, sc, cx);
                self.expect_ty(&t, &Ty::Int, e.span);
                let slot = sc.declare(&name.node, Ty::Int);
                StmtKindIr::Roll { slot, sides: x }
            }
            LetValue::Pick(e) => {
                let (x, t) = self.lower_list(e, sc, cx);
                let slot = sc.declare(&name.node, t.elem());
                StmtKindIr::Pick { slot, list: x }
            }
            LetValue::Create(c) => {
                let create = self.lower_create(c, sc, cx);
                let slot = sc.declare(&name.node, Ty::Obj(None));
                StmtKindIr::Create { dest: Some(slot), create: Box::new(create) }
            }
        }
    }

    fn lower_place(&mut self, place: &[ast::Name], vt: &Ty, sc: &mut Scope, cx: &LowerContext) -> Option<PlaceIr> {
        let (first, rest) = place.split_first()?;
        if rest.is_empty() {
            if let Some((slot, t)) = sc.lookup(&first.node).map(|(s, t)| (s, t.clone())) {
                if t == Ty::Nothing || t == Ty::Any {
                    sc.set_type(slot, vt.clone());
                }
                return Some(PlaceIr::Local(slot));
            }
            if let Some(i) = self.game.global_fields.iter().position(|f| f.name == first.node) {
                return Some(PlaceIr::Global(i as u16));
            }
            let mut cands: Vec<String> = sc.names().into_iter().map(String::from).collect();
            cands.extend(self.game.global_fields.iter().map(|f| f.name.clone()));
            let help = did_you_mean(&first.node, cands.iter().map(String::as_str))
                .or_else(|| Some(format!("declare it first with `let {} = ..`", first.node)));
            self.error(Diag::error(first.span, format!("cannot assign to unknown name `{}`", first.node)).maybe_help(help));
            return None;
        }
        // `a.b.c = v`: evaluate `a.b` as an expression, assign field `c`.
        let (last, prefix) = place.split_last()?;
        let root = match first.node.as_str() {
            "you" => ast::ExprKind::You,
            "self" => ast::ExprKind::SelfRef,
            _ => ast::ExprKind::Var(first.node.clone()),
        };
        let mut base = ast::Spanned::new(root, first.span);
        for n in prefix.iter().skip(1) {
            let span = base.span.to(n.span);
            base = ast::Spanned::new(ast::ExprKind::Field { base: Box::new(base), field: n.clone() }, span);
        }
        let (b, bt) = self.lower_expr(&base, sc, cx);
        match bt {
            Ty::Player | Ty::Any if self.game.player_fields.iter().any(|f| f.name == last.node) => {
                let i = self.game.player_fields.iter().position(|f| f.name == last.node).unwrap_or(0);
                Some(PlaceIr::PlayerField(b, i as u16))
            }
            Ty::Player => {
                let cands: Vec<&str> = self.game.player_fields.iter().map(|f| f.name.as_str()).collect();
                let help = did_you_mean(&last.node, cands.iter().copied());
                self.error(
                    Diag::error(last.span, format!("players have no field `{}`", last.node)).label("unknown field").maybe_help(help),
                );
                None
            }
            Ty::Obj(k) | Ty::Def(k) => match self.object_field_type(k, &last.node) {
                Some((sym, _)) => Some(PlaceIr::ObjField(b, sym)),
                None => {
                    let help = did_you_mean(
                        &last.node,
                        self.game.kinds.iter().flat_map(|k| k.fields.iter().map(|f| self.game.sym(f.name))).collect::<Vec<_>>(),
                    );
                    self.error(Diag::error(last.span, format!("unknown field `{}`", last.node)).label("not a field").maybe_help(help));
                    None
                }
            },
            Ty::Any => match self.object_field_type(None, &last.node) {
                Some((sym, _)) => Some(PlaceIr::ObjField(b, sym)),
                None => {
                    self.error(Diag::error(last.span, format!("no player or kind has a field `{}`", last.node)));
                    None
                }
            },
            other => {
                let msg = format!("cannot assign a field of {}", self.ty_name(&other));
                self.error(Diag::error(base.span, msg));
                None
            }
        }
    }
}
