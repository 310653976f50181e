//! The compiled code: expressions (`ExprIr`) and statements (`StmtIr`), every name resolved to a slot or
//! an id. Re-exported by `ir`, beside the game's definitions.

use super::value::Value;
use crate::ids::*;
use crate::operators::{BinaryOperator, ModifyOperator, UnaryOperator};
use arbiter_syntax::span::Span;
#[derive(Debug, Clone)]
pub struct ExprIr {
    pub kind: ExprKindIr,
    pub span: Span,
}

pub use crate::operators::ObjProp;

#[derive(Debug, Clone)]
pub enum TextPiece {
    Text(String),
    Expr(ExprIr),
}

pub type TextExpr = Vec<TextPiece>;

/// An expression with its fast form: `code` is tried first, `slow` is what it was lowered to
/// (and what every analysis of the rules reads: `ExprIr::plain`).
#[derive(Debug, Clone)]
pub struct FastExpr {
    pub code: crate::fast::Code,
    pub slow: ExprIr,
}

/// A separate one-byte tag (not one packed into a literal's value): telling the kinds apart is
/// then a single load, and the evaluator does it at every node (measured: 7% fewer instructions
/// in Connect Four).
#[derive(Debug, Clone)]
#[repr(u8)]
pub enum ExprKindIr {
    Lit(Value),
    Local(Slot),
    Global(u16),
    Const(u16),
    You,
    SelfObj,
    Str(TextExpr),
    PlayerField(Box<ExprIr>, u16),
    PlayerZone(Box<ExprIr>, ZoneId),
    /// `o.power`: a kind field, read through modifiers.
    ObjField(Box<ExprIr>, Sym),
    ObjProp(Box<ExprIr>, ObjProp),
    /// `d.power` on a definition: the printed value.
    DefField(Box<ExprIr>, Sym),
    ZoneOwner(Box<ExprIr>),
    AbilityLabel(Box<ExprIr>),
    AbilitySource(Box<ExprIr>),
    /// A field whose base type is only known when it runs.
    Dynamic(Box<ExprIr>, Sym),
    Call(FuncId, Vec<ExprIr>),
    /// A call of a small function, inlined when the rules were checked (see `check::inline`):
    /// the call's arguments; the slots of the caller's env that keep those that are worked out
    /// (slot, argument), in order; and the function's body, reading the other arguments in place.
    Inline {
        func: FuncId,
        args: Vec<ExprIr>,
        lets: Vec<(Slot, u16)>,
        body: Box<ExprIr>,
    },
    Check(CheckId, Vec<ExprIr>),
    CanProc(ProcId, Vec<ExprIr>),
    Builtin(crate::builtins::Builtin, Vec<ExprIr>),
    ProcRef(ProcId),
    Lambda(u32),
    Unary(UnaryOperator, Box<ExprIr>),
    Binary(BinaryOperator, Box<ExprIr>, Box<ExprIr>),
    If(Box<ExprIr>, Box<ExprIr>, Box<ExprIr>),
    /// `any x in list where cond` (`no`, `all`). Each of these four walks may look the items of a
    /// zone up by the condition's first test instead (`by`, see `Lookup`).
    Quant {
        any: bool,
        slot: Slot,
        list: Box<ExprIr>,
        cond: Box<ExprIr>,
        by: Option<Lookup>,
    },
    Filter {
        slot: Slot,
        list: Box<ExprIr>,
        cond: Box<ExprIr>,
        by: Option<Lookup>,
    },
    /// `count([x in list where cond])`, counted without building the list.
    CountWhere {
        slot: Slot,
        list: Box<ExprIr>,
        cond: Box<ExprIr>,
        by: Option<Lookup>,
    },
    /// `first([x in list where cond])`: the first item that passes, without testing the rest.
    FirstWhere {
        slot: Slot,
        list: Box<ExprIr>,
        cond: Box<ExprIr>,
        by: Option<Lookup>,
    },
    Map {
        slot: Slot,
        list: Box<ExprIr>,
        expr: Box<ExprIr>,
        cond: Option<Box<ExprIr>>,
    },
    List(Vec<ExprIr>),
    /// An expression with a fast form as well (see `FastExpr`): made when the rules are
    /// checked, after every analysis; it reads as its slow form (`ExprIr::plain`).
    Fast(Box<FastExpr>),
}

/// A walk whose condition begins with the test `x.f == v` (`x` the item; `f` a field, or the
/// owner or controller; `v` a local, literal, constant, global, `you` or `self`, which does not
/// read `x` and takes no step), and with `and` if more follows. Walking a zone, only the
/// objects whose `x.f` is `v` can pass: the running game may look them up, in the zone's order, in
/// an index of the zone by `x.f` (`runtime::lookup`), instead of testing every object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lookup {
    pub key: LookupKey,
    /// Whether `x.f` is the test's left side (`x.f == v`), or its right (`v == x.f`).
    pub item_left: bool,
}

/// What a zone's objects are looked up by (see `Lookup`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LookupKey {
    Field(Sym),
    Owner,
    Controller,
}

impl Lookup {
    /// The first test of a walk's condition, `x.f == v`, with `x` in `slot`: what the walk may
    /// look its items up by (see `Lookup`).
    pub fn of(slot: Slot, cond: &ExprIr) -> Option<Lookup> {
        let (l, r) = first_test(cond)?;
        let key = |e: &ExprIr| key_read(slot, e);
        let value = |e: &ExprIr| {
            (e.is_leaf() && !matches!(e.kind, ExprKindIr::Local(s) if s == slot)) || matches!(e.kind, ExprKindIr::You | ExprKindIr::SelfObj)
        };
        match (key(l), key(r)) {
            (Some(k), _) if value(r) => Some(Lookup { key: k, item_left: true }),
            (_, Some(k)) if value(l) => Some(Lookup { key: k, item_left: false }),
            _ => None,
        }
    }

    /// `x.f` and `v` in the condition (see `Lookup`): its first test's two sides, in that order
    /// (none if the condition, with `x` in `slot`, is not one this lookup was made for).
    #[inline]
    pub fn sides<'c>(&self, slot: Slot, cond: &'c ExprIr) -> Option<(&'c ExprIr, &'c ExprIr)> {
        let (l, r) = first_test(cond)?;
        let (item, value) = if self.item_left { (l, r) } else { (r, l) };
        (key_read(slot, item) == Some(self.key)).then_some((item, value))
    }
}

/// The key `e` reads of the item in `slot`: `x.f`, `x.owner` or `x.controller`.
fn key_read(slot: Slot, e: &ExprIr) -> Option<LookupKey> {
    let of_item = |x: &ExprIr| matches!(x.kind, ExprKindIr::Local(s) if s == slot);
    match &e.plain().kind {
        ExprKindIr::ObjField(x, f) if of_item(x) => Some(LookupKey::Field(*f)),
        ExprKindIr::ObjProp(x, ObjProp::Owner) if of_item(x) => Some(LookupKey::Owner),
        ExprKindIr::ObjProp(x, ObjProp::Controller) if of_item(x) => Some(LookupKey::Controller),
        _ => None,
    }
}

/// The two sides of the first test of a condition `a == b and ..`.
fn first_test(cond: &ExprIr) -> Option<(&ExprIr, &ExprIr)> {
    let mut first = cond.plain();
    while let ExprKindIr::Binary(BinaryOperator::And, l, _) = &first.kind {
        first = l.plain();
    }
    match &first.kind {
        ExprKindIr::Binary(BinaryOperator::Eq, l, r) => Some((l.plain(), r.plain())),
        _ => None,
    }
}

impl ExprIr {
    /// The expression as the checker lowered it: a fast form's slow one (see `FastExpr`).
    /// Everything that reads the rules' code reads this.
    #[inline(always)]
    pub fn plain(&self) -> &ExprIr {
        match &self.kind {
            ExprKindIr::Fast(f) => &f.slow,
            _ => self,
        }
    }

    /// Whether `f` holds for this expression or any expression inside it.
    pub fn any(&self, f: &mut impl FnMut(&ExprIr) -> bool) -> bool {
        // A fast form reads as its slow one, which is all `f` sees.
        if let ExprKindIr::Fast(x) = &self.kind {
            return x.slow.any(f);
        }
        if f(self) {
            return true;
        }
        match &self.kind {
            ExprKindIr::Lit(_)
            | ExprKindIr::Local(_)
            | ExprKindIr::Global(_)
            | ExprKindIr::Const(_)
            | ExprKindIr::You
            | ExprKindIr::SelfObj => false,
            ExprKindIr::ProcRef(_) | ExprKindIr::Lambda(_) => false,
            ExprKindIr::Str(pieces) => pieces.iter().any(|p| matches!(p, TextPiece::Expr(x) if x.any(f))),
            ExprKindIr::PlayerField(b, _)
            | ExprKindIr::PlayerZone(b, _)
            | ExprKindIr::ObjField(b, _)
            | ExprKindIr::ObjProp(b, _)
            | ExprKindIr::DefField(b, _)
            | ExprKindIr::ZoneOwner(b)
            | ExprKindIr::AbilityLabel(b)
            | ExprKindIr::AbilitySource(b)
            | ExprKindIr::Dynamic(b, _)
            | ExprKindIr::Unary(_, b) => b.any(f),
            ExprKindIr::Call(_, args)
            | ExprKindIr::Check(_, args)
            | ExprKindIr::CanProc(_, args)
            | ExprKindIr::Builtin(_, args)
            | ExprKindIr::List(args) => args.iter().any(|a| a.any(f)),
            ExprKindIr::Inline { args, body, .. } => args.iter().any(|a| a.any(f)) || body.any(f),
            ExprKindIr::Binary(_, l, r) => l.any(f) || r.any(f),
            ExprKindIr::If(c, t, o) => c.any(f) || t.any(f) || o.any(f),
            ExprKindIr::Quant { list, cond, .. }
            | ExprKindIr::Filter { list, cond, .. }
            | ExprKindIr::CountWhere { list, cond, .. }
            | ExprKindIr::FirstWhere { list, cond, .. } => list.any(f) || cond.any(f),
            ExprKindIr::Map { list, expr, cond, .. } => list.any(f) || expr.any(f) || cond.as_ref().is_some_and(|c| c.any(f)),
            // Looked into above.
            ExprKindIr::Fast(_) => false,
        }
    }

    /// The functions this expression calls (not inlined), each time it calls one.
    pub fn callees(&self) -> Vec<FuncId> {
        let mut out = Vec::new();
        self.any(&mut |e| {
            if let ExprKindIr::Call(g, _) = e.kind {
                out.push(g);
            }
            false
        });
        out
    }

    /// A local, literal, constant or global: reading one never fails, changes nothing and takes
    /// no evaluation step, so it may be read in place, whenever its value is wanted.
    #[inline(always)]
    pub fn is_leaf(&self) -> bool {
        matches!(self.kind, ExprKindIr::Local(_) | ExprKindIr::Lit(_) | ExprKindIr::Const(_) | ExprKindIr::Global(_))
    }

    /// Replace each expression for which `f` gives a replacement, looking inside those it
    /// leaves (a replacement is not looked into).
    pub fn replace_each(&mut self, f: &mut impl FnMut(&ExprIr) -> Option<ExprIr>) {
        // A fast form is dropped for its slow one, which is what is changed: the fast form read
        // the slots and values the change replaces (it is made again when the rules are checked).
        if let ExprKindIr::Fast(x) = &mut self.kind {
            let slow = std::mem::replace(&mut x.slow, ExprIr { kind: ExprKindIr::Lit(Value::None), span: Span::default() });
            *self = slow;
        }
        if let Some(new) = f(self) {
            *self = new;
            return;
        }
        self.children_mut(&mut |x: &mut ExprIr| x.replace_each(f));
    }

    /// `each` of every expression directly inside this one, in the order they are evaluated (a
    /// fast form's: none; see `plain`).
    pub fn children_mut(&mut self, each: &mut impl FnMut(&mut ExprIr)) {
        match &mut self.kind {
            ExprKindIr::Lit(_)
            | ExprKindIr::Local(_)
            | ExprKindIr::Global(_)
            | ExprKindIr::Const(_)
            | ExprKindIr::You
            | ExprKindIr::SelfObj => {}
            ExprKindIr::ProcRef(_) | ExprKindIr::Lambda(_) => {}
            ExprKindIr::Str(pieces) => pieces.iter_mut().for_each(|p| {
                if let TextPiece::Expr(x) = p {
                    each(x)
                }
            }),
            ExprKindIr::PlayerField(b, _)
            | ExprKindIr::PlayerZone(b, _)
            | ExprKindIr::ObjField(b, _)
            | ExprKindIr::ObjProp(b, _)
            | ExprKindIr::DefField(b, _)
            | ExprKindIr::ZoneOwner(b)
            | ExprKindIr::AbilityLabel(b)
            | ExprKindIr::AbilitySource(b)
            | ExprKindIr::Dynamic(b, _)
            | ExprKindIr::Unary(_, b) => each(b),
            ExprKindIr::Call(_, args)
            | ExprKindIr::Check(_, args)
            | ExprKindIr::CanProc(_, args)
            | ExprKindIr::Builtin(_, args)
            | ExprKindIr::List(args) => args.iter_mut().for_each(each),
            ExprKindIr::Inline { args, body, .. } => {
                args.iter_mut().for_each(&mut *each);
                each(body);
            }
            ExprKindIr::Binary(_, l, r) => {
                each(l);
                each(r);
            }
            ExprKindIr::If(c, t, o) => {
                each(c);
                each(t);
                each(o);
            }
            ExprKindIr::Quant { list, cond, .. }
            | ExprKindIr::Filter { list, cond, .. }
            | ExprKindIr::CountWhere { list, cond, .. }
            | ExprKindIr::FirstWhere { list, cond, .. } => {
                each(list);
                each(cond);
            }
            ExprKindIr::Map { list, expr, cond, .. } => {
                each(list);
                each(expr);
                if let Some(c) = cond {
                    each(c);
                }
            }
            ExprKindIr::Fast(_) => {}
        }
    }
}

#[derive(Debug, Clone)]
pub struct StmtIr {
    pub kind: StmtKindIr,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum CallTarget {
    Proc(ProcId),
    Dynamic(ExprIr),
}

#[derive(Debug, Clone)]
pub struct CallIr {
    pub target: CallTarget,
    pub args: Vec<ExprIr>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum PlaceIr {
    Local(Slot),
    Global(u16),
    PlayerField(ExprIr, u16),
    ObjField(ExprIr, Sym),
}

#[derive(Debug, Clone)]
pub enum ChooseCountIr {
    One,
    Exactly(ExprIr),
    UpTo(ExprIr),
    Order,
}

#[derive(Debug, Clone)]
pub struct BranchIr {
    pub label: TextExpr,
    pub cond: Option<ExprIr>,
    pub rarely: bool,
    pub body: BlockId,
}

#[derive(Debug, Clone)]
pub enum ChooseFormIr {
    From { count: ChooseCountIr, list: ExprIr, none: Option<TextExpr> },
    Branches(Vec<BranchIr>),
}

#[derive(Debug, Clone)]
pub struct ChooseIr {
    pub secret: bool,
    pub who: ExprIr,
    pub prompt: TextExpr,
    pub form: ChooseFormIr,
}

#[derive(Debug, Clone)]
pub struct CreateIr {
    pub def: ExprIr,
    pub owner: Option<ExprIr>,
    pub zone: ExprIr,
    pub face_up: Option<bool>,
}

#[derive(Debug, Clone)]
pub enum StmtKindIr {
    Let {
        slot: Slot,
        value: ExprIr,
    },
    LetCall {
        slot: Slot,
        call: CallIr,
    },
    Choose {
        dest: Option<Slot>,
        choose: Box<ChooseIr>,
    },
    Roll {
        slot: Slot,
        sides: ExprIr,
    },
    Pick {
        slot: Slot,
        list: ExprIr,
    },
    Create {
        dest: Option<Slot>,
        create: Box<CreateIr>,
    },
    Assign {
        place: PlaceIr,
        op: crate::operators::AssignOperator,
        value: ExprIr,
    },
    If {
        arms: Vec<(ExprIr, BlockId)>,
        otherwise: Option<BlockId>,
    },
    /// A procedure's named `step`: its statements, run in place.
    Block(BlockId),
    /// `forbid .. until d` / `permit .. until d`: an index in `Game::lasting`.
    Lasting(u32),
    For {
        slot: Slot,
        list: ExprIr,
        body: BlockId,
    },
    While {
        cond: ExprIr,
        body: BlockId,
    },
    Repeat {
        count: ExprIr,
        body: BlockId,
    },
    Return(Option<ExprIr>),
    Call(CallIr),
    Move {
        what: ExprIr,
        to: ExprIr,
        bottom: bool,
        face: Option<bool>,
        /// A scenario's own statement: moving nothing is a mistake of its setup, an error (in the
        /// rules, moving `none` does nothing).
        script: bool,
    },
    Put {
        what: ExprIr,
        under: bool,
        target: ExprIr,
        /// A scenario's own statement: putting nothing is an error (as `Move`'s `script`).
        script: bool,
    },
    Turn {
        what: ExprIr,
        up: bool,
    },
    Shuffle(ExprIr),
    Modify {
        target: ExprIr,
        field: Sym,
        op: ModifyOperator,
        value: ExprIr,
        until: Option<usize>,
    },
    Expire(usize),
    Signal {
        event: EventId,
        args: Vec<ExprIr>,
    },
    Log(TextExpr),
    Win {
        who: ExprIr,
        reason: TextExpr,
    },
    Lose {
        who: ExprIr,
        reason: TextExpr,
    },
    Draw(TextExpr),
    Reveal {
        what: ExprIr,
        to: Option<ExprIr>,
    },
    Conceal(ExprIr),
    /// The ability, and the player who uses it (default: its object's controller).
    Use(ExprIr, Option<ExprIr>),
}
