//! Building the syntax tree of statements and expressions from pest's pairs (the second half of
//! `parse.rs`; lowering into the IR is the checker's).

use super::ast::*;
use super::parse_context::{ParseContext, ParseResult, Rule, RulePair, internal};
use super::span::{Span, Spanned};
use crate::diag::Diag;
use pest::iterators::Pairs;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::sync::OnceLock;

use crate::budgets::EXPR_NESTING;

fn too_deep(span: Span) -> Diag {
    Diag::error(span, format!("this expression nests more than {EXPR_NESTING} levels deep"))
        .label("too deep")
        .help("split it into named functions")
}

/// `d`, the depth of a part of an expression at `s`, if it is within `EXPR_NESTING`.
fn deeper(d: u32, s: Span) -> ParseResult<u32> {
    if d > EXPR_NESTING { Err(too_deep(s)) } else { Ok(d) }
}

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::or_op, Assoc::Left))
            .op(Op::infix(Rule::and_op, Assoc::Left))
            .op(Op::prefix(Rule::not_op))
            .op(Op::infix(Rule::eq, Assoc::Left)
                | Op::infix(Rule::ne, Assoc::Left)
                | Op::infix(Rule::lt, Assoc::Left)
                | Op::infix(Rule::le, Assoc::Left)
                | Op::infix(Rule::gt, Assoc::Left)
                | Op::infix(Rule::ge, Assoc::Left)
                | Op::infix(Rule::in_op, Assoc::Left)
                | Op::infix(Rule::not_in, Assoc::Left)
                | Op::infix(Rule::has_op, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left) | Op::infix(Rule::div, Assoc::Left) | Op::infix(Rule::rem, Assoc::Left))
            .op(Op::prefix(Rule::neg))
            .op(Op::postfix(Rule::field_access))
    })
}

impl ParseContext {
    pub(super) fn build_block(&self, p: RulePair) -> ParseResult<Block> {
        let span = self.span(&p);
        let stmts = p.into_inner().map(|s| self.build_stmt(s)).collect::<ParseResult<Vec<_>>>()?;
        Ok(Block { stmts, span })
    }

    pub(super) fn build_call(&self, p: RulePair) -> ParseResult<CallExpr> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "call")?);
        let args = it.map(|a| self.build_expr(a)).collect::<ParseResult<Vec<_>>>()?;
        Ok(CallExpr { name, args, span })
    }

    pub(super) fn build_face(&self, p: &RulePair) -> Option<bool> {
        match p.as_rule() {
            Rule::face_up => Some(true),
            Rule::face_down => Some(false),
            _ => None,
        }
    }

    pub(super) fn build_create(&self, p: RulePair) -> ParseResult<Create> {
        let span = self.span(&p);
        self.build_create_from_iter(span, p.into_inner())
    }

    pub(super) fn build_choose(&self, p: RulePair) -> ParseResult<Choose> {
        let span = self.span(&p);
        self.build_choose_from_iter(span, p.into_inner())
    }

    pub(super) fn build_stmt(&self, p: RulePair) -> ParseResult<Stmt> {
        let span = self.span(&p);
        let rule = p.as_rule();
        let mut it = p.into_inner();
        let kind = match rule {
            Rule::let_stmt => {
                let name = self.name(self.next(&mut it, span, "let")?);
                StmtKind::Let { name, value: self.build_let_value(self.next(&mut it, span, "let")?)? }
            }
            Rule::assign_stmt => {
                let place_pair = self.next(&mut it, span, "assignment")?;
                let place = self.place_names(place_pair)?;
                let op_pair = self.next(&mut it, span, "assignment")?;
                let op_span = self.span(&op_pair);
                let op = match op_pair.as_str() {
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    _ => AssignOp::Set,
                };
                let value = self.build_expr(self.next(&mut it, span, "assignment")?)?;
                StmtKind::Assign { place, op: Spanned::new(op, op_span), value }
            }
            Rule::if_stmt => self.build_if(span, it)?,
            Rule::for_stmt => {
                let _ = it.next();
                let var = self.name(self.next(&mut it, span, "for")?);
                let list = self.build_expr(self.next(&mut it, span, "for")?)?;
                let body = self.build_block(self.next(&mut it, span, "for")?)?;
                StmtKind::For { var, list, body }
            }
            Rule::step_stmt => {
                let mut r = it;
                r.next(); // `step`
                let name = self.name(self.next(&mut r, span, "step")?);
                let (cite, body) = self.cite_and_block(r, span)?;
                let body = body.ok_or_else(|| internal(span, "step"))?;
                StmtKind::Step { name, cite, body }
            }
            Rule::while_stmt => {
                let cond = self.build_expr(self.next(&mut it, span, "while")?)?;
                let body = self.build_block(self.next(&mut it, span, "while")?)?;
                StmtKind::While { cond, body }
            }
            Rule::repeat_stmt => {
                let count = self.build_expr(self.next(&mut it, span, "repeat")?)?;
                let body = self.build_block(self.next(&mut it, span, "repeat")?)?;
                StmtKind::Repeat { count, body }
            }
            Rule::return_stmt => StmtKind::Return(it.next().map(|e| self.build_expr(e)).transpose()?),
            Rule::call_stmt => StmtKind::Call(self.build_call(self.next(&mut it, span, "call")?)?),
            Rule::choose_stmt => StmtKind::Choose(Box::new(self.build_choose_from_iter(span, it)?)),
            Rule::move_stmt => self.build_move(span, it)?,
            Rule::put_stmt => {
                let what = self.build_expr(self.next(&mut it, span, "put")?)?;
                let under = self.next(&mut it, span, "put")?.as_str() == "under";
                let target = self.build_expr(self.next(&mut it, span, "put")?)?;
                StmtKind::Put { what, under, target }
            }
            Rule::turn_stmt => {
                let what = self.build_expr(self.next(&mut it, span, "turn")?)?;
                let up = self.next(&mut it, span, "turn")?.as_rule() == Rule::face_up;
                StmtKind::Turn { what, up }
            }
            Rule::shuffle_stmt => StmtKind::Shuffle(self.build_expr(self.next(&mut it, span, "shuffle")?)?),
            Rule::modify_stmt => self.build_modify(span, it)?,
            Rule::lasting_stmt => {
                let kw = self.next(&mut it, span, "forbid")?;
                let forbid = kw.as_rule() == Rule::kw_forbid;
                let name = self.name(self.next(&mut it, span, "forbid")?);
                let params = self.build_params(self.next(&mut it, span, "forbid")?)?;
                let when = self.build_expr(self.next(&mut it, span, "forbid")?)?;
                let until = it.next().map(|u| self.name(u));
                StmtKind::Lasting { forbid, hook: HookItem { name, params, when, cite: None }, until }
            }
            Rule::lasting_replace => {
                let parts: Vec<_> = it.filter(|p| p.as_rule() != Rule::kw_replace).collect();
                let [body, rest @ ..] = parts.as_slice() else { return Err(internal(span, "replace")) };
                let body = self.build_replace_body(body.clone())?;
                let until = rest.first().map(|u| self.name(u.clone()));
                StmtKind::LastingReplace { body, until }
            }
            Rule::expire_stmt => StmtKind::Expire(self.name(self.next(&mut it, span, "expire")?)),
            Rule::signal_stmt => StmtKind::Signal(self.build_call(self.next(&mut it, span, "signal")?)?),
            Rule::log_stmt => StmtKind::Log(self.spanned_strlit(self.next(&mut it, span, "log")?)?),
            Rule::win_stmt | Rule::lose_stmt => {
                let who = self.build_expr(self.next(&mut it, span, "win")?)?;
                let reason = self.spanned_strlit(self.next(&mut it, span, "win")?)?;
                if rule == Rule::win_stmt { StmtKind::Win { who, reason } } else { StmtKind::Lose { who, reason } }
            }
            Rule::draw_stmt => StmtKind::Draw(self.spanned_strlit(self.next(&mut it, span, "end draw")?)?),
            Rule::reveal_stmt => {
                let what = self.build_expr(self.next(&mut it, span, "reveal")?)?;
                let to = it.next().map(|e| self.build_expr(e)).transpose()?;
                StmtKind::Reveal { what, to }
            }
            Rule::conceal_stmt => StmtKind::Conceal(self.build_expr(self.next(&mut it, span, "conceal")?)?),
            Rule::create_stmt => StmtKind::Create(Box::new(self.build_create_from_iter(span, it)?)),
            Rule::run_ability_stmt => {
                let a = self.build_expr(self.next(&mut it, span, "use")?)?;
                let by = it.next().map(|p| self.build_expr(p)).transpose()?;
                StmtKind::Use(a, by)
            }
            Rule::run_stmt => StmtKind::Run(self.build_call(self.next(&mut it, span, "run")?)?),
            Rule::answer_stmt => {
                let who = self.build_expr(self.next(&mut it, span, "answer")?)?;
                let value = self.build_expr(self.next(&mut it, span, "answer")?)?;
                StmtKind::Answer { who, value }
            }
            Rule::random_stmt => StmtKind::Random(self.build_random(self.next(&mut it, span, "random")?)?),
            Rule::expect_stmt => StmtKind::Expect(self.build_expect(self.next(&mut it, span, "expect")?)?),
            Rule::stop_stmt => StmtKind::Stop,
            _ => return Err(internal(span, "statement")),
        };
        Ok(Spanned::new(kind, span))
    }

    /// `expect ...` in a scenario: what the scenario checks at this point.
    fn build_expect(&self, e: RulePair) -> ParseResult<Expect> {
        let espan = self.span(&e);
        Ok(match e.as_rule() {
            Rule::expect_options => self.build_expect_options(e)?,
            Rule::expect_finished => Expect::Finished,
            Rule::expect_not_finished => Expect::GoesOn { written_not: true },
            Rule::expect_goes_on => Expect::GoesOn { written_not: false },
            Rule::expect_draw => Expect::Winner(None),
            Rule::expect_winner => {
                let w = e.into_inner().find(|p| p.as_rule() == Rule::expr).ok_or_else(|| internal(espan, "expect winner"))?;
                Expect::Winner(Some(self.build_expr(w)?))
            }
            Rule::expect_refused => {
                let parts: Vec<_> = e.into_inner().filter(|p| !matches!(p.as_rule(), Rule::kw_refused | Rule::kw_answer)).collect();
                let [who, value, rest @ ..] = parts.as_slice() else { return Err(internal(espan, "expect refused")) };
                let who = self.build_expr(who.clone())?;
                let value = self.build_expr(value.clone())?;
                let fragment = rest.first().map(|s| self.string(s.clone())).transpose()?;
                Expect::Refused { who, value, fragment }
            }
            Rule::expect_event | Rule::expect_no_event => {
                let happened = e.as_rule() == Rule::expect_event;
                let n = e.into_inner().find(|p| p.as_rule() == Rule::item_name).ok_or_else(|| internal(espan, "expect event"))?;
                Expect::Event { name: self.name(n), happened }
            }
            Rule::expect_no_log => {
                let x = e.into_inner().find(|p| p.as_rule() == Rule::expr).ok_or_else(|| internal(espan, "expect no log"))?;
                Expect::NoLog(self.build_expr(x)?)
            }
            Rule::expect_decision => {
                let mut x = e.into_inner();
                let who = self.build_expr(self.next(&mut x, espan, "expect decision")?)?;
                let prompt = x.next().map(|s| self.string(s)).transpose()?;
                Expect::Decision { who, prompt }
            }
            Rule::expect_no_decision => {
                let mut x = e.into_inner().filter(|p| !matches!(p.as_rule(), Rule::kw_no | Rule::kw_decision));
                let who = self.build_expr(x.next().ok_or_else(|| internal(espan, "expect no decision"))?)?;
                let prompt = x.next().map(|s| self.string(s)).transpose()?;
                Expect::NoDecision { who, prompt }
            }
            Rule::expect_log => Expect::Log(self.build_inner_expr(e)?),
            Rule::expect_deck => {
                let mut x = e.into_inner();
                let name = self.string(self.next(&mut x, espan, "expect deck")?)?;
                let v = self.next(&mut x, espan, "expect deck")?;
                let valid = v.as_rule() == Rule::deck_valid;
                let fragment = v.into_inner().next().map(|s| self.string(s)).transpose()?;
                Expect::Deck { name, valid, fragment }
            }
            Rule::expect_expr => {
                let mut x = e.into_inner();
                let first = self.build_expr(self.next(&mut x, espan, "expect")?)?;
                match x.next() {
                    Some(k) if matches!(k.as_rule(), Rule::kw_sees | Rule::kw_cannot_see) => {
                        let what = self.build_expr(self.next(&mut x, espan, "expect")?)?;
                        Expect::Sees { who: first, what, sees: k.as_rule() == Rule::kw_sees }
                    }
                    message => Expect::True { cond: first, message: message.map(|s| self.spanned_strlit(s)).transpose()? },
                }
            }
            _ => return Err(internal(espan, "expect")),
        })
    }

    /// `expect options P [..] (count) "message"`.
    fn build_expect_options(&self, e: RulePair) -> ParseResult<Expect> {
        let espan = self.span(&e);
        let mut x = e.into_inner();
        let who = self.build_expr(self.next(&mut x, espan, "expect options")?)?;
        let labels = self.build_expr(self.next(&mut x, espan, "expect options")?)?;
        let mut count = None;
        let mut message = None;
        for rest in x {
            match rest.as_rule() {
                Rule::options_count => {
                    let c = self.next(&mut rest.into_inner(), espan, "expect options")?;
                    let n = c.clone().into_inner().find(|p| p.as_rule() == Rule::expr);
                    count = Some(match (c.as_rule(), n) {
                        (Rule::options_up_to, Some(n)) => ChooseCount::UpTo(self.build_expr(n)?),
                        (Rule::options_exactly, Some(n)) => ChooseCount::Exactly(self.build_expr(n)?),
                        (Rule::options_one, _) => ChooseCount::One,
                        (Rule::options_order, _) => ChooseCount::Order,
                        _ => return Err(internal(espan, "expect options")),
                    });
                }
                _ => message = Some(self.spanned_strlit(rest)?),
            }
        }
        Ok(Expect::Options { who, labels, count, message })
    }

    /// `random roll N`, `random keep`, `random order [..]`, `random pick x` in a scenario.
    fn build_random(&self, r: RulePair) -> ParseResult<RandomScript> {
        let rspan = self.span(&r);
        Ok(match r.as_rule() {
            Rule::random_roll => RandomScript::Roll(self.build_inner_expr(r)?),
            Rule::random_keep => RandomScript::Keep,
            Rule::random_order => RandomScript::Order(self.build_inner_expr(r)?),
            Rule::random_pick => RandomScript::Pick(self.build_inner_expr(r)?),
            _ => return Err(internal(rspan, "random")),
        })
    }

    /// What `let x = ..` binds: a value, or what a call, choice, roll, pick or creation gives.
    fn build_let_value(&self, v: RulePair) -> ParseResult<LetValue> {
        let vspan = self.span(&v);
        Ok(match v.as_rule() {
            Rule::call_stmt => LetValue::Call(self.build_call(self.next(&mut v.into_inner(), vspan, "call")?)?),
            Rule::choose_stmt => LetValue::Choose(Box::new(self.build_choose(v)?)),
            Rule::roll_expr => LetValue::Roll(self.build_inner_expr(v)?),
            Rule::pick_expr => LetValue::Pick(self.build_inner_expr(v)?),
            Rule::create_stmt => LetValue::Create(Box::new(self.build_create(v)?)),
            _ => LetValue::Expr(self.build_expr(v)?),
        })
    }

    /// `if c { .. } else if d { .. } else { .. }`: the arms in order, and the last block.
    fn build_if(&self, span: Span, it: Pairs<Rule>) -> ParseResult<StmtKind> {
        let mut arms = Vec::new();
        let mut otherwise = None;
        let parts: Vec<RulePair> = it.collect();
        let mut i = 0;
        while i < parts.len() {
            let a = parts.get(i).cloned().ok_or_else(|| internal(span, "if"))?;
            if a.as_rule() == Rule::block {
                otherwise = Some(self.build_block(a)?);
                i += 1;
            } else {
                let b = parts.get(i + 1).cloned().ok_or_else(|| internal(span, "if"))?;
                arms.push((self.build_expr(a)?, self.build_block(b)?));
                i += 2;
            }
        }
        Ok(StmtKind::If { arms, otherwise })
    }

    /// The names of a place (`p.hand`, `c.owner.influence`): at most `EXPR_NESTING` of them, for a
    /// place nests as deep as it is long, like an expression.
    fn place_names(&self, place: RulePair) -> ParseResult<Vec<Name>> {
        let span = self.span(&place);
        let names: Vec<Name> = place.into_inner().map(|n| self.name(n)).collect();
        if names.len() > EXPR_NESTING as usize {
            return Err(Diag::error(span, format!("this place has more than {EXPR_NESTING} fields"))
                .label("too long")
                .help("name a part of it with `let`"));
        }
        Ok(names)
    }

    /// `modify x.f += v until ..`.
    fn build_modify(&self, span: Span, mut it: Pairs<Rule>) -> ParseResult<StmtKind> {
        let place_pair = self.next(&mut it, span, "modify")?;
        let pspan = self.span(&place_pair);
        let mut names: Vec<Name> = self.place_names(place_pair)?;
        let field = names.pop().ok_or_else(|| internal(pspan, "modify"))?;
        if names.is_empty() {
            return Err(Diag::error(pspan, "`modify` needs an object and a field, like `modify f.power += 2`"));
        }
        let target = place_to_expr(&names);
        let op = self.build_modify_op(self.next(&mut it, span, "modify")?)?;
        let value = self.build_expr(self.next(&mut it, span, "modify")?)?;
        let until = it.next().map(|u| self.name(u));
        Ok(StmtKind::Modify { target, field, op, value, until })
    }

    /// `move x to z top face down`.
    fn build_move(&self, span: Span, mut it: Pairs<Rule>) -> ParseResult<StmtKind> {
        let what = self.build_expr(self.next(&mut it, span, "move")?)?;
        let to = self.build_expr(self.next(&mut it, span, "move")?)?;
        let mut flags = Vec::new();
        for f in it {
            let fspan = self.span(&f);
            let flag = match f.as_str() {
                "top" => MoveFlag::Top,
                "bottom" => MoveFlag::Bottom,
                _ => match f.into_inner().next().map(|x| x.as_rule()) {
                    Some(Rule::face_up) => MoveFlag::FaceUp,
                    _ => MoveFlag::FaceDown,
                },
            };
            flags.push(Spanned::new(flag, fspan));
        }
        Ok(StmtKind::Move { what, to, flags })
    }

    fn build_choose_from_iter(&self, span: Span, it: Pairs<Rule>) -> ParseResult<Choose> {
        let parts: Vec<RulePair> = it.collect();
        let mut secret = false;
        let mut idx = 0;
        if parts.first().map(|p| p.as_rule()) == Some(Rule::secret_mark) {
            secret = true;
            idx = 1;
        }
        let who = self.build_expr(parts.get(idx).cloned().ok_or_else(|| internal(span, "choose"))?)?;
        let prompt = self.spanned_strlit(parts.get(idx + 1).cloned().ok_or_else(|| internal(span, "choose"))?)?;
        let form_pair = parts.get(idx + 2).cloned().ok_or_else(|| internal(span, "choose"))?;
        let form = self.build_choose_form(form_pair)?;
        Ok(Choose { secret, who, prompt, form })
    }

    fn build_choose_form(&self, form_pair: RulePair) -> ParseResult<ChooseForm> {
        let fspan = self.span(&form_pair);
        Ok(match form_pair.as_rule() {
            Rule::choose_from => {
                let mut count = ChooseCount::One;
                let mut list = None;
                let mut none = None;
                for x in form_pair.into_inner() {
                    let xspan = self.span(&x);
                    match x.as_rule() {
                        Rule::choose_count => {
                            let c = self.next(&mut x.into_inner(), xspan, "choose count")?;
                            let cspan = self.span(&c);
                            count = match c.as_rule() {
                                Rule::choose_up_to => {
                                    ChooseCount::UpTo(self.build_expr(self.next(&mut c.into_inner(), cspan, "up to")?)?)
                                }
                                Rule::choose_order => ChooseCount::Order,
                                _ => ChooseCount::Exactly(self.build_expr(c)?),
                            };
                        }
                        Rule::expr => list = Some(self.build_expr(x)?),
                        Rule::choose_none => {
                            let s = self.next(&mut x.into_inner(), xspan, "else")?;
                            none = Some(self.spanned_strlit(s)?);
                        }
                        _ => return Err(internal(xspan, "choose")),
                    }
                }
                let list = list.ok_or_else(|| internal(fspan, "choose"))?;
                ChooseForm::From { count: Box::new(count), list: Box::new(list), none }
            }
            _ => {
                let mut branches = Vec::new();
                for b in form_pair.into_inner() {
                    let bspan = self.span(&b);
                    let mut bi = b.into_inner();
                    let label = self.spanned_strlit(self.next(&mut bi, bspan, "choice")?)?;
                    let mut cond = None;
                    let mut body = None;
                    let mut rarely = false;
                    for y in bi {
                        match y.as_rule() {
                            Rule::expr => cond = Some(self.build_expr(y)?),
                            Rule::rarely_mark => rarely = true,
                            Rule::block => body = Some(self.build_block(y)?),
                            _ => return Err(internal(bspan, "choice")),
                        }
                    }
                    let body = body.ok_or_else(|| internal(bspan, "choice"))?;
                    branches.push(Branch { label, cond, rarely, body });
                }
                ChooseForm::Branches(branches)
            }
        })
    }

    fn build_create_from_iter(&self, span: Span, mut it: Pairs<Rule>) -> ParseResult<Create> {
        let def = self.build_expr(self.next(&mut it, span, "create")?)?;
        let zone = self.build_expr(self.next(&mut it, span, "create")?)?;
        let mut owner = None;
        let mut face_up = None;
        for x in it {
            match x.as_rule() {
                Rule::owned_by => owner = Some(self.build_inner_expr(x)?),
                _ => face_up = self.build_face(&x),
            }
        }
        Ok(Create { def, owner, zone, face_up })
    }

    // -----------------------------------------------------------------------------------------
    // Expressions

    pub(super) fn build_expr(&self, p: RulePair) -> ParseResult<Expr> {
        // Expressions nest without brackets (`if .. then .. else if ..`, `not not ..`, `a + b + ..`):
        // bound how deep, so that no tree is too deep to build, check or drop.
        let d = self.depth.get() + 1;
        if d > EXPR_NESTING {
            return Err(too_deep(self.span(&p)));
        }
        self.depth.set(d);
        let r = self.build_expr_tree(p).map(|(e, _)| e);
        self.depth.set(d - 1);
        r
    }

    fn build_expr_tree(&self, p: RulePair) -> ParseResult<(Expr, u32)> {
        let span = self.span(&p);
        if p.as_rule() != Rule::expr && p.as_rule() != Rule::term {
            return Ok((self.build_primary(p)?, 1));
        }
        // The Pratt parser recurses once per prefix operator before it calls back: count first.
        let mut run = 0u32;
        // No operator but field accesses after the value (`x`, `f(a)`, `c.type`: most are).
        let mut plain = true;
        for (i, x) in p.clone().into_inner().enumerate() {
            if matches!(x.as_rule(), Rule::neg | Rule::not_op) {
                run += 1;
                plain = false;
                if run > EXPR_NESTING {
                    return Err(too_deep(self.span(&x)));
                }
            } else {
                run = 0;
                plain &= i == 0 || x.as_rule() == Rule::field_access;
            }
        }
        // Such an expression is built here, as the Pratt parser builds it (the value, then each
        // field from the left): making the parser's map of boxed callbacks, and dropping it, cost
        // more than building the tree (2.5% of parsing every file).
        if plain {
            let mut inner = p.into_inner();
            let first = self.next(&mut inner, span, "expression")?;
            let mut built = (self.build_primary(first)?, 1);
            for op in inner {
                built = self.build_field_access(built, op)?;
            }
            return Ok(built);
        }
        pratt()
            .map_primary(|x| Ok((self.build_primary(x)?, 1)))
            .map_prefix(|op, rhs| {
                let (rhs, d) = rhs?;
                let s = self.span(&op).to(rhs.span);
                let d = deeper(d + 1, s)?;
                let op = if op.as_rule() == Rule::neg { UnOp::Neg } else { UnOp::Not };
                Ok((Spanned::new(ExprKind::Unary { op, expr: Box::new(rhs) }, s), d))
            })
            .map_postfix(|lhs, op| self.build_field_access(lhs?, op))
            .map_infix(|lhs, op, rhs| {
                let ((lhs, dl), (rhs, dr)) = (lhs?, rhs?);
                let s = lhs.span.to(rhs.span);
                let d = deeper(dl.max(dr) + 1, s)?;
                let op = match op.as_rule() {
                    Rule::or_op => BinOp::Or,
                    Rule::and_op => BinOp::And,
                    Rule::eq => BinOp::Eq,
                    Rule::ne => BinOp::Ne,
                    Rule::lt => BinOp::Lt,
                    Rule::le => BinOp::Le,
                    Rule::gt => BinOp::Gt,
                    Rule::ge => BinOp::Ge,
                    Rule::in_op => BinOp::In,
                    Rule::not_in => BinOp::NotIn,
                    Rule::has_op => BinOp::Has,
                    Rule::add => BinOp::Add,
                    Rule::sub => BinOp::Sub,
                    Rule::mul => BinOp::Mul,
                    Rule::div => BinOp::Div,
                    Rule::rem => BinOp::Rem,
                    _ => return Err(internal(span, "operator")),
                };
                Ok((Spanned::new(ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, s), d))
            })
            .parse(p.into_inner())
    }

    /// `lhs.field`, one deeper than `lhs` (`(tree, depth)`), for the Pratt parser and the
    /// expressions built without it.
    fn build_field_access(&self, (lhs, d): (Expr, u32), op: RulePair) -> ParseResult<(Expr, u32)> {
        let ospan = self.span(&op);
        let field = self.next(&mut op.into_inner(), ospan, "field")?;
        let field = self.name(field);
        let s = lhs.span.to(ospan);
        let d = deeper(d + 1, s)?;
        Ok((Spanned::new(ExprKind::Field { base: Box::new(lhs), field }, s), d))
    }

    pub(super) fn build_primary(&self, p: RulePair) -> ParseResult<Expr> {
        let span = self.span(&p);
        let rule = p.as_rule();
        let kind = match rule {
            Rule::int => ExprKind::Int(self.int(&p)?),
            Rule::string => ExprKind::Str(self.strlit(p)?),
            Rule::true_lit => ExprKind::Bool(true),
            Rule::false_lit => ExprKind::Bool(false),
            Rule::none_lit => ExprKind::None,
            Rule::you => ExprKind::You,
            Rule::self_ref => ExprKind::SelfRef,
            Rule::var => ExprKind::Var(p.as_str().to_string()),
            Rule::paren => return self.build_inner_expr(p),
            Rule::call_expr => ExprKind::Call(self.build_call(p)?),
            Rule::proc_ref => ExprKind::ProcRef(self.name(self.next(&mut p.into_inner(), span, "proc")?)),
            Rule::if_expr => {
                let mut it = p.into_inner();
                let cond = self.build_expr(self.next(&mut it, span, "if")?)?;
                let then = self.build_expr(self.next(&mut it, span, "if")?)?;
                let otherwise = self.build_expr(self.next(&mut it, span, "if")?)?;
                ExprKind::If { cond: Box::new(cond), then: Box::new(then), otherwise: Box::new(otherwise) }
            }
            Rule::quant_expr => {
                let mut it = p.into_inner();
                let word = self.next(&mut it, span, "any")?.as_str().to_string();
                let var = self.name(self.next(&mut it, span, "any")?);
                let list = self.build_expr(self.next(&mut it, span, "any")?)?;
                let cond = self.build_expr(self.next(&mut it, span, "any")?)?;
                if word == "all" {
                    // `all x in l where c` is `no x in l where not c`.
                    let cspan = cond.span;
                    let not = Spanned::new(ExprKind::Unary { op: UnOp::Not, expr: Box::new(cond) }, cspan);
                    ExprKind::Quant { any: false, var, list: Box::new(list), cond: Box::new(not) }
                } else {
                    ExprKind::Quant { any: word == "any", var, list: Box::new(list), cond: Box::new(cond) }
                }
            }
            Rule::lambda => {
                let parts: Vec<RulePair> = p.into_inner().collect();
                let (body, params) = parts.split_last().ok_or_else(|| internal(span, "lambda"))?;
                let params = params.iter().map(|x| self.name(x.clone())).collect();
                ExprKind::Lambda { params, body: Box::new(self.build_expr(body.clone())?) }
            }
            Rule::list => self.build_list(p, span)?,
            Rule::expr => return self.build_expr(p),
            _ => return Err(internal(span, "expression")),
        };
        Ok(Spanned::new(kind, span))
    }

    /// `[a, b]`: its items; `[e for u in l where c]`: `e`, the name `u`, `l` and `c`;
    /// `[u in l where c]`: one `comp_filter`.
    fn build_list(&self, p: RulePair, span: Span) -> ParseResult<ExprKind> {
        let parts: Vec<RulePair> = p.into_inner().collect();
        match parts.as_slice() {
            [f] if f.as_rule() == Rule::comp_filter => {
                let fspan = self.span(f);
                let mut it = f.clone().into_inner();
                let var = self.name(self.next(&mut it, fspan, "list")?);
                let list = self.build_expr(self.next(&mut it, fspan, "list")?)?;
                let cond = self.build_expr(self.next(&mut it, fspan, "list")?)?;
                Ok(ExprKind::Filter { var, list: Box::new(list), cond: Box::new(cond) })
            }
            [expr, var, rest @ ..] if var.as_rule() == Rule::ident => {
                let mut rest = rest.iter();
                let expr = self.build_expr(expr.clone())?;
                let var = self.name(var.clone());
                let list = self.build_expr(rest.next().cloned().ok_or_else(|| internal(span, "list"))?)?;
                let cond = rest.next().map(|c| self.build_expr(c.clone())).transpose()?.map(Box::new);
                Ok(ExprKind::Map { expr: Box::new(expr), var, list: Box::new(list), cond })
            }
            items => Ok(ExprKind::List(items.iter().map(|e| self.build_expr(e.clone())).collect::<ParseResult<Vec<_>>>()?)),
        }
    }
}

/// `a.b.c` as the expression `a` with fields `b` and `c`.
fn place_to_expr(names: &[Name]) -> Expr {
    let mut iter = names.iter();
    let first = iter.next().map(|n| {
        let root = match n.node.as_str() {
            "you" => ExprKind::You,
            "self" => ExprKind::SelfRef,
            _ => ExprKind::Var(n.node.clone()),
        };
        Spanned::new(root, n.span)
    });
    let mut e = first.unwrap_or_else(|| Spanned::new(ExprKind::None, Span::default()));
    for n in iter {
        let span = e.span.to(n.span);
        e = Spanned::new(ExprKind::Field { base: Box::new(e), field: n.clone() }, span);
    }
    e
}
