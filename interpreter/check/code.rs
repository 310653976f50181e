//! The compiled code: expressions (`Ex`) and statements (`Stmt`), every name resolved to a slot or
//! an id. Re-exported by `ir`, beside the game's definitions.

use super::ir::*;
use crate::runtime::value::Value;
use crate::syntax::ast::{BinOp, ModifyOp, UnOp};
use crate::syntax::span::Span;
#[derive(Debug, Clone)]
pub struct Ex {
    pub kind: ExK,
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
pub enum StrPiece {
    Text(String),
    Expr(Ex),
}

pub type StrEx = Vec<StrPiece>;

#[derive(Debug, Clone)]
pub enum ExK {
    Lit(Value),
    Local(Slot),
    Global(u16),
    Const(u16),
    You,
    SelfObj,
    Str(StrEx),
    PlayerField(Box<Ex>, u16),
    PlayerZone(Box<Ex>, ZoneId),
    /// `o.power`: a kind field, read through modifiers.
    ObjField(Box<Ex>, Sym),
    ObjProp(Box<Ex>, ObjProp),
    /// `d.power` on a definition: the printed value.
    DefField(Box<Ex>, Sym),
    ZoneOwner(Box<Ex>),
    AbilityLabel(Box<Ex>),
    AbilitySource(Box<Ex>),
    /// A field whose base type is only known when it runs.
    Dynamic(Box<Ex>, Sym),
    Call(FuncId, Vec<Ex>),
    Check(CheckId, Vec<Ex>),
    CanProc(ProcId, Vec<Ex>),
    Builtin(crate::runtime::builtins::Builtin, Vec<Ex>),
    ProcRef(ProcId),
    Lambda(u32),
    Unary(UnOp, Box<Ex>),
    Binary(BinOp, Box<Ex>, Box<Ex>),
    If(Box<Ex>, Box<Ex>, Box<Ex>),
    Quant {
        any: bool,
        slot: Slot,
        list: Box<Ex>,
        cond: Box<Ex>,
    },
    Filter {
        slot: Slot,
        list: Box<Ex>,
        cond: Box<Ex>,
    },
    Map {
        slot: Slot,
        list: Box<Ex>,
        expr: Box<Ex>,
        cond: Option<Box<Ex>>,
    },
    List(Vec<Ex>),
}

impl Ex {
    /// Whether `f` holds for this expression or any expression inside it.
    pub fn any(&self, f: &mut impl FnMut(&Ex) -> bool) -> bool {
        if f(self) {
            return true;
        }
        match &self.kind {
            ExK::Lit(_) | ExK::Local(_) | ExK::Global(_) | ExK::Const(_) | ExK::You | ExK::SelfObj => false,
            ExK::ProcRef(_) | ExK::Lambda(_) => false,
            ExK::Str(pieces) => pieces.iter().any(|p| matches!(p, StrPiece::Expr(x) if x.any(f))),
            ExK::PlayerField(b, _)
            | ExK::PlayerZone(b, _)
            | ExK::ObjField(b, _)
            | ExK::ObjProp(b, _)
            | ExK::DefField(b, _)
            | ExK::ZoneOwner(b)
            | ExK::AbilityLabel(b)
            | ExK::AbilitySource(b)
            | ExK::Dynamic(b, _)
            | ExK::Unary(_, b) => b.any(f),
            ExK::Call(_, args) | ExK::Check(_, args) | ExK::CanProc(_, args) | ExK::Builtin(_, args) | ExK::List(args) => {
                args.iter().any(|a| a.any(f))
            }
            ExK::Binary(_, l, r) => l.any(f) || r.any(f),
            ExK::If(c, t, o) => c.any(f) || t.any(f) || o.any(f),
            ExK::Quant { list, cond, .. } | ExK::Filter { list, cond, .. } => list.any(f) || cond.any(f),
            ExK::Map { list, expr, cond, .. } => list.any(f) || expr.any(f) || cond.as_ref().is_some_and(|c| c.any(f)),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Stmt {
    pub kind: StK,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum CallTarget {
    Proc(ProcId),
    Dynamic(Ex),
}

#[derive(Debug, Clone)]
pub struct CallIr {
    pub target: CallTarget,
    pub args: Vec<Ex>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum PlaceIr {
    Local(Slot),
    Global(u16),
    PlayerField(Ex, u16),
    ObjField(Ex, Sym),
}

#[derive(Debug, Clone)]
pub enum ChooseCountIr {
    One,
    Exactly(Ex),
    UpTo(Ex),
    Order,
}

#[derive(Debug, Clone)]
pub struct BranchIr {
    pub label: StrEx,
    pub cond: Option<Ex>,
    pub rarely: bool,
    pub body: BlockId,
}

#[derive(Debug, Clone)]
pub enum ChooseFormIr {
    From { count: ChooseCountIr, list: Ex, none: Option<StrEx> },
    Branches(Vec<BranchIr>),
}

#[derive(Debug, Clone)]
pub struct ChooseIr {
    pub secret: bool,
    pub who: Ex,
    pub prompt: StrEx,
    pub form: ChooseFormIr,
}

#[derive(Debug, Clone)]
pub struct CreateIr {
    pub def: Ex,
    pub owner: Option<Ex>,
    pub zone: Ex,
    pub face_up: Option<bool>,
}

#[derive(Debug, Clone)]
pub enum StK {
    Let {
        slot: Slot,
        value: Ex,
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
        sides: Ex,
    },
    Pick {
        slot: Slot,
        list: Ex,
    },
    Create {
        dest: Option<Slot>,
        create: Box<CreateIr>,
    },
    Assign {
        place: PlaceIr,
        op: crate::syntax::ast::AssignOp,
        value: Ex,
    },
    If {
        arms: Vec<(Ex, BlockId)>,
        otherwise: Option<BlockId>,
    },
    /// A procedure's named `step`: its statements, run in place.
    Block(BlockId),
    /// `forbid .. until d` / `permit .. until d`: an index in `Game::lasting`.
    Lasting(u32),
    For {
        slot: Slot,
        list: Ex,
        body: BlockId,
    },
    While {
        cond: Ex,
        body: BlockId,
    },
    Repeat {
        count: Ex,
        body: BlockId,
    },
    Return(Option<Ex>),
    Call(CallIr),
    Move {
        what: Ex,
        to: Ex,
        bottom: bool,
        face: Option<bool>,
    },
    Put {
        what: Ex,
        under: bool,
        target: Ex,
    },
    Turn {
        what: Ex,
        up: bool,
    },
    Shuffle(Ex),
    Modify {
        target: Ex,
        field: Sym,
        op: ModifyOp,
        value: Ex,
        until: Option<usize>,
    },
    Expire(usize),
    Signal {
        event: EventId,
        args: Vec<Ex>,
    },
    Log(StrEx),
    Win {
        who: Ex,
        reason: StrEx,
    },
    Lose {
        who: Ex,
        reason: StrEx,
    },
    Draw(StrEx),
    Reveal {
        what: Ex,
        to: Option<Ex>,
    },
    Conceal(Ex),
    /// The ability, and the player who uses it (default: its object's controller).
    Use(Ex, Option<Ex>),
}
