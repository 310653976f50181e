//! The compiled code: expressions (`Expr`) and statements (`Stmt`), every name resolved to a slot or
//! an id. Re-exported by `ir`, beside the game's definitions.

use super::value::Value;
use crate::ids::*;
use crate::operators::{BinaryOperator, ModifyOperator, UnaryOperator};
use arbiter_syntax::span::Span;
#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// Object properties every object has, whatever its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjProp {
    Owner,
    Controller,
    Zone,
    FaceUp,
    Name,
    Def,
    Under,
    Above,
    Top,
    Id,
}

impl ObjProp {
    pub const ALL: [(&'static str, ObjProp); 10] = [
        ("owner", ObjProp::Owner),
        ("controller", ObjProp::Controller),
        ("zone", ObjProp::Zone),
        ("face_up", ObjProp::FaceUp),
        ("name", ObjProp::Name),
        ("def", ObjProp::Def),
        ("under", ObjProp::Under),
        ("above", ObjProp::Above),
        ("top", ObjProp::Top),
        ("id", ObjProp::Id),
    ];
}

#[derive(Debug, Clone)]
pub enum TextPiece {
    Text(String),
    Expr(Expr),
}

pub type TextExpr = Vec<TextPiece>;

/// A separate one-byte tag (not one packed into a literal's value): telling the kinds apart is
/// then a single load, and the evaluator does it at every node (measured: 7% fewer instructions
/// in Connect Four).
#[derive(Debug, Clone)]
#[repr(u8)]
pub enum ExprKind {
    Lit(Value),
    Local(Slot),
    Global(u16),
    Const(u16),
    You,
    SelfObj,
    Str(TextExpr),
    PlayerField(Box<Expr>, u16),
    PlayerZone(Box<Expr>, ZoneId),
    /// `o.power`: a kind field, read through modifiers.
    ObjField(Box<Expr>, Sym),
    ObjProp(Box<Expr>, ObjProp),
    /// `d.power` on a definition: the printed value.
    DefField(Box<Expr>, Sym),
    ZoneOwner(Box<Expr>),
    AbilityLabel(Box<Expr>),
    AbilitySource(Box<Expr>),
    /// A field whose base type is only known when it runs.
    Dynamic(Box<Expr>, Sym),
    Call(FuncId, Vec<Expr>),
    /// A call of a small function, inlined when the rules were checked (see `check::inline`):
    /// the call's arguments; the slots of the caller's env that keep those that are worked out
    /// (slot, argument), in order; and the function's body, reading the other arguments in place.
    Inline {
        func: FuncId,
        args: Vec<Expr>,
        lets: Vec<(Slot, u16)>,
        body: Box<Expr>,
    },
    Check(CheckId, Vec<Expr>),
    CanProc(ProcId, Vec<Expr>),
    Builtin(crate::builtins::Builtin, Vec<Expr>),
    ProcRef(ProcId),
    Lambda(u32),
    Unary(UnaryOperator, Box<Expr>),
    Binary(BinaryOperator, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Quant {
        any: bool,
        slot: Slot,
        list: Box<Expr>,
        cond: Box<Expr>,
    },
    Filter {
        slot: Slot,
        list: Box<Expr>,
        cond: Box<Expr>,
    },
    /// `count([x in list where cond])`, counted without building the list.
    CountWhere {
        slot: Slot,
        list: Box<Expr>,
        cond: Box<Expr>,
    },
    /// `first([x in list where cond])`: the first item that passes, without testing the rest.
    FirstWhere {
        slot: Slot,
        list: Box<Expr>,
        cond: Box<Expr>,
    },
    Map {
        slot: Slot,
        list: Box<Expr>,
        expr: Box<Expr>,
        cond: Option<Box<Expr>>,
    },
    List(Vec<Expr>),
}

impl Expr {
    /// Whether `f` holds for this expression or any expression inside it.
    pub fn any(&self, f: &mut impl FnMut(&Expr) -> bool) -> bool {
        if f(self) {
            return true;
        }
        match &self.kind {
            ExprKind::Lit(_) | ExprKind::Local(_) | ExprKind::Global(_) | ExprKind::Const(_) | ExprKind::You | ExprKind::SelfObj => false,
            ExprKind::ProcRef(_) | ExprKind::Lambda(_) => false,
            ExprKind::Str(pieces) => pieces.iter().any(|p| matches!(p, TextPiece::Expr(x) if x.any(f))),
            ExprKind::PlayerField(b, _)
            | ExprKind::PlayerZone(b, _)
            | ExprKind::ObjField(b, _)
            | ExprKind::ObjProp(b, _)
            | ExprKind::DefField(b, _)
            | ExprKind::ZoneOwner(b)
            | ExprKind::AbilityLabel(b)
            | ExprKind::AbilitySource(b)
            | ExprKind::Dynamic(b, _)
            | ExprKind::Unary(_, b) => b.any(f),
            ExprKind::Call(_, args)
            | ExprKind::Check(_, args)
            | ExprKind::CanProc(_, args)
            | ExprKind::Builtin(_, args)
            | ExprKind::List(args) => args.iter().any(|a| a.any(f)),
            ExprKind::Inline { args, body, .. } => args.iter().any(|a| a.any(f)) || body.any(f),
            ExprKind::Binary(_, l, r) => l.any(f) || r.any(f),
            ExprKind::If(c, t, o) => c.any(f) || t.any(f) || o.any(f),
            ExprKind::Quant { list, cond, .. }
            | ExprKind::Filter { list, cond, .. }
            | ExprKind::CountWhere { list, cond, .. }
            | ExprKind::FirstWhere { list, cond, .. } => list.any(f) || cond.any(f),
            ExprKind::Map { list, expr, cond, .. } => list.any(f) || expr.any(f) || cond.as_ref().is_some_and(|c| c.any(f)),
        }
    }

    /// A local, literal, constant or global: reading one never fails, changes nothing and takes
    /// no evaluation step, so it may be read in place, whenever its value is wanted.
    #[inline(always)]
    pub fn is_leaf(&self) -> bool {
        matches!(self.kind, ExprKind::Local(_) | ExprKind::Lit(_) | ExprKind::Const(_) | ExprKind::Global(_))
    }

    /// Replace each expression for which `f` gives a replacement, looking inside those it
    /// leaves (a replacement is not looked into).
    pub fn replace_each(&mut self, f: &mut impl FnMut(&Expr) -> Option<Expr>) {
        if let Some(new) = f(self) {
            *self = new;
            return;
        }
        let mut each = |x: &mut Expr| x.replace_each(f);
        match &mut self.kind {
            ExprKind::Lit(_) | ExprKind::Local(_) | ExprKind::Global(_) | ExprKind::Const(_) | ExprKind::You | ExprKind::SelfObj => {}
            ExprKind::ProcRef(_) | ExprKind::Lambda(_) => {}
            ExprKind::Str(pieces) => pieces.iter_mut().for_each(|p| {
                if let TextPiece::Expr(x) = p {
                    each(x)
                }
            }),
            ExprKind::PlayerField(b, _)
            | ExprKind::PlayerZone(b, _)
            | ExprKind::ObjField(b, _)
            | ExprKind::ObjProp(b, _)
            | ExprKind::DefField(b, _)
            | ExprKind::ZoneOwner(b)
            | ExprKind::AbilityLabel(b)
            | ExprKind::AbilitySource(b)
            | ExprKind::Dynamic(b, _)
            | ExprKind::Unary(_, b) => each(b),
            ExprKind::Call(_, args)
            | ExprKind::Check(_, args)
            | ExprKind::CanProc(_, args)
            | ExprKind::Builtin(_, args)
            | ExprKind::List(args) => args.iter_mut().for_each(each),
            ExprKind::Inline { args, body, .. } => {
                args.iter_mut().for_each(&mut each);
                each(body);
            }
            ExprKind::Binary(_, l, r) => {
                each(l);
                each(r);
            }
            ExprKind::If(c, t, o) => {
                each(c);
                each(t);
                each(o);
            }
            ExprKind::Quant { list, cond, .. }
            | ExprKind::Filter { list, cond, .. }
            | ExprKind::CountWhere { list, cond, .. }
            | ExprKind::FirstWhere { list, cond, .. } => {
                each(list);
                each(cond);
            }
            ExprKind::Map { list, expr, cond, .. } => {
                each(list);
                each(expr);
                if let Some(c) = cond {
                    each(c);
                }
            }
        }
    }
}

#[derive(Debug, Clone)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum CallTarget {
    Proc(ProcId),
    Dynamic(Expr),
}

#[derive(Debug, Clone)]
pub struct CallIr {
    pub target: CallTarget,
    pub args: Vec<Expr>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum PlaceIr {
    Local(Slot),
    Global(u16),
    PlayerField(Expr, u16),
    ObjField(Expr, Sym),
}

#[derive(Debug, Clone)]
pub enum ChooseCountIr {
    One,
    Exactly(Expr),
    UpTo(Expr),
    Order,
}

#[derive(Debug, Clone)]
pub struct BranchIr {
    pub label: TextExpr,
    pub cond: Option<Expr>,
    pub rarely: bool,
    pub body: BlockId,
}

#[derive(Debug, Clone)]
pub enum ChooseFormIr {
    From { count: ChooseCountIr, list: Expr, none: Option<TextExpr> },
    Branches(Vec<BranchIr>),
}

#[derive(Debug, Clone)]
pub struct ChooseIr {
    pub secret: bool,
    pub who: Expr,
    pub prompt: TextExpr,
    pub form: ChooseFormIr,
}

#[derive(Debug, Clone)]
pub struct CreateIr {
    pub def: Expr,
    pub owner: Option<Expr>,
    pub zone: Expr,
    pub face_up: Option<bool>,
}

#[derive(Debug, Clone)]
pub enum StmtKind {
    Let {
        slot: Slot,
        value: Expr,
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
        sides: Expr,
    },
    Pick {
        slot: Slot,
        list: Expr,
    },
    Create {
        dest: Option<Slot>,
        create: Box<CreateIr>,
    },
    Assign {
        place: PlaceIr,
        op: crate::operators::AssignOperator,
        value: Expr,
    },
    If {
        arms: Vec<(Expr, BlockId)>,
        otherwise: Option<BlockId>,
    },
    /// A procedure's named `step`: its statements, run in place.
    Block(BlockId),
    /// `forbid .. until d` / `permit .. until d`: an index in `Game::lasting`.
    Lasting(u32),
    For {
        slot: Slot,
        list: Expr,
        body: BlockId,
    },
    While {
        cond: Expr,
        body: BlockId,
    },
    Repeat {
        count: Expr,
        body: BlockId,
    },
    Return(Option<Expr>),
    Call(CallIr),
    Move {
        what: Expr,
        to: Expr,
        bottom: bool,
        face: Option<bool>,
    },
    Put {
        what: Expr,
        under: bool,
        target: Expr,
    },
    Turn {
        what: Expr,
        up: bool,
    },
    Shuffle(Expr),
    Modify {
        target: Expr,
        field: Sym,
        op: ModifyOperator,
        value: Expr,
        until: Option<usize>,
    },
    Expire(usize),
    Signal {
        event: EventId,
        args: Vec<Expr>,
    },
    Log(TextExpr),
    Win {
        who: Expr,
        reason: TextExpr,
    },
    Lose {
        who: Expr,
        reason: TextExpr,
    },
    Draw(TextExpr),
    Reveal {
        what: Expr,
        to: Option<Expr>,
    },
    Conceal(Expr),
    /// The ability, and the player who uses it (default: its object's controller).
    Use(Expr, Option<Expr>),
}
