//! The typed syntax tree. Every node that can be wrong carries a span. Names follow the
//! language's own constructs; the source each variant comes from is in its doc comment.

pub use super::span::{FileId, Span, Spanned};

pub type Name = Spanned<String>;

pub use super::ast_overlays::*;

/// A parsed file: its items in order.
#[derive(Debug, Clone, PartialEq)]
pub struct File {
    pub file: FileId,
    pub items: Vec<Spanned<Item>>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// `game bsg-ccg { title "..." players 2 to 6 }`
    Game(GameItem),
    /// `for bsg-ccg`
    For(Name),
    /// `uses "my-cards.arb"`
    Uses(Name),
    /// `part of variant complete-rules`: the file's items belong to that variant.
    PartOf(Name),
    /// `enum resource { gold, wood }` or `enum trait open { .. }`
    Enum(EnumItem),
    /// `kind card { field power: int = 0  ability action many  active in alert }`
    Kind(KindItem),
    /// `zone hand per player owner ordered`
    Zone(ZoneItem),
    /// `player { score: int = 0 }`
    Player(Vec<VarDecl>),
    /// `global { round: int = 0 }`
    Global(Vec<VarDecl>),
    /// `const hand_draw: int = 2`
    Const(ConstItem),
    /// `event ready_phase_begins()`
    Event(EventItem),
    /// `proc draw(p: player, n: int) { .. }`
    Proc(ProcItem),
    /// `func units(p: player) = [..]`
    Func(FuncItem),
    /// `hint name(p: player) = expr cite ".."` (or `sample "why"`): a score for bots.
    Hint(HintItem),
    /// `check can_defend(u: card, c: card) = ..`
    Check(FuncItem),
    /// `permit can_defend(u, c) when ..`
    Permit(HookItem),
    /// `forbid can_challenge(u) when ..`
    Forbid(HookItem),
    /// `trigger name { on ev(x) when .. by .. do { .. } }`
    Trigger(TriggerItem),
    /// `modifier name { to o when .. layer 1 o.power += 1 }`
    Modifier(ModifierItem),
    /// `replace name { instead of proc(x) when .. do { .. } }`
    Replace(ReplaceItem),
    /// `always name { .. }`
    Always(AlwaysItem),
    /// `deckbuilding { require .. else ".." }`
    Deckbuilding(DeckbuildingItem),
    /// `deck "Name" { base "Card"  4 "Card" }`
    Deck(DeckItem),
    /// `variant slug "Title" { replace .. remove .. add .. }`
    Variant(VariantItem),
    /// `scenario CCG-01 "Title" { game bsg-ccg .. }`
    Scenario(ScenarioItem),
    /// `section "Challenge Procedure" cite "L365-392"`
    Section(SectionItem),
    /// `card "Name" { type personnel .. }` — an object definition of a declared kind.
    Object(ObjectItem),
}

/// A titled part of the seed text: explanations name the section a rule's citation falls in.
#[derive(Debug, Clone, PartialEq)]
pub struct SectionItem {
    pub title: Spanned<String>,
    pub cite: Spanned<String>,
}

impl Item {
    /// The item's category word, as written in variant `remove` lines and messages.
    pub fn kind_word(&self) -> &'static str {
        match self {
            Item::Game(_) => "game",
            Item::For(_) => "for",
            Item::Uses(_) => "uses",
            Item::PartOf(_) => "part of variant",
            Item::Enum(_) => "enum",
            Item::Kind(_) => "kind",
            Item::Zone(_) => "zone",
            Item::Player(_) => "player",
            Item::Global(_) => "global",
            Item::Const(_) => "const",
            Item::Event(_) => "event",
            Item::Proc(_) => "proc",
            Item::Func(_) => "func",
            Item::Hint(h) if h.side => "side",
            Item::Hint(_) => "hint",
            Item::Check(_) => "check",
            Item::Permit(_) => "permit",
            Item::Forbid(_) => "forbid",
            Item::Trigger(_) => "trigger",
            Item::Modifier(_) => "modifier",
            Item::Replace(_) => "replace",
            Item::Always(_) => "always",
            Item::Deckbuilding(_) => "deckbuilding",
            Item::Deck(_) => "deck",
            Item::Variant(_) => "variant",
            Item::Scenario(_) => "scenario",
            Item::Section(_) => "section",
            Item::Object(_) => "object",
        }
    }

    /// The item's name where it has one that variants can refer to.
    pub fn rule_name(&self) -> Option<&Name> {
        match self {
            Item::Const(c) => Some(&c.name),
            Item::Proc(p) => Some(&p.name),
            Item::Func(f) | Item::Check(f) => Some(&f.name),
            Item::Hint(h) => Some(&h.func.name),
            Item::Permit(h) | Item::Forbid(h) => Some(&h.name),
            Item::Trigger(t) => Some(&t.name),
            Item::Modifier(m) => Some(&m.name),
            Item::Replace(r) => Some(&r.name),
            Item::Always(a) => Some(&a.name),
            _ => None,
        }
    }
}

/// A property line `key value, value`.
#[derive(Debug, Clone, PartialEq)]
pub struct Prop {
    pub key: Name,
    pub values: Vec<Spanned<PropValue>>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum PropValue {
    Int(i64),
    Str(String),
    Word(String),
    /// the word `to` in `players 2 to 6`
    To,
}

#[derive(Debug, Clone, PartialEq)]
pub struct GameItem {
    pub name: Name,
    pub props: Vec<Prop>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EnumItem {
    pub name: Name,
    pub open: bool,
    pub members: Vec<Name>,
    pub cite: Option<Spanned<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct KindItem {
    pub name: Name,
    pub fields: Vec<FieldDecl>,
    pub slots: Vec<SlotDecl>,
    pub active_in: Vec<Name>,
    pub label: Option<Expr>,
    pub cite: Option<Spanned<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FieldDecl {
    pub name: Name,
    pub ty: TypeExpr,
    pub default: Option<Expr>,
    /// `announced`: a change to it is told at the table.
    pub announced: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SlotDecl {
    pub name: Name,
    pub many: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ZoneItem {
    pub name: Name,
    pub per_player: bool,
    pub visibility: Option<Name>,
    pub ordered: bool,
    pub holds: Option<Name>,
    pub cite: Option<Spanned<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct VarDecl {
    pub name: Name,
    pub ty: TypeExpr,
    pub default: Option<Expr>,
    /// `announced`: a change to it is told at the table.
    pub announced: bool,
    pub cite: Option<Spanned<String>>,
}

/// `int`, `list card`, `player?`
#[derive(Debug, Clone, PartialEq)]
pub struct TypeExpr {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TypeKind {
    Named { name: String, optional: bool },
    List(Box<TypeExpr>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct ConstItem {
    pub name: Name,
    pub ty: TypeExpr,
    pub value: Expr,
    pub cite: Option<Spanned<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EventItem {
    pub name: Name,
    pub params: Vec<Param>,
    pub cite: Option<Spanned<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub name: Name,
    pub ty: Option<TypeExpr>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ProcItem {
    pub name: Name,
    pub params: Vec<Param>,
    pub requires: Option<Expr>,
    pub cite: Option<Spanned<String>>,
    pub body: Block,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FuncItem {
    pub name: Name,
    pub params: Vec<Param>,
    pub body: Expr,
    pub cite: Option<Spanned<String>>,
}

/// A hint (or a side): a function of one seat scoring the state for it (or saying whether the
/// seat is on the side). `func.cite` is its citation when the
/// rulebook gives the advice; `sample` says why an invented one is there.
#[derive(Debug, Clone, PartialEq)]
pub struct HintItem {
    pub func: FuncItem,
    pub sample: Option<Spanned<String>>,
    /// `side name(p: player) = cond`: whether a seat is on a side (a condition, not a score).
    pub side: bool,
}

/// A `permit` or `forbid` attached to a named `check`.
#[derive(Debug, Clone, PartialEq)]
pub struct HookItem {
    pub name: Name,
    pub params: Vec<Param>,
    pub when: Expr,
    pub cite: Option<Spanned<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TriggerItem {
    pub name: Name,
    pub cite: Option<Spanned<String>>,
    pub on: Name,
    pub params: Vec<Param>,
    pub when: Option<Expr>,
    pub by: Option<Expr>,
    pub body: Block,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModifierItem {
    pub name: Name,
    pub cite: Option<Spanned<String>>,
    pub body: ModifierBody,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModifierBody {
    pub var: Name,
    pub when: Option<Expr>,
    pub layer: Option<Spanned<i64>>,
    pub blank: Option<Spanned<Vec<Name>>>,
    pub effects: Vec<FieldEffect>,
}

/// `o.power += 1` inside a modifier.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldEffect {
    pub var: Name,
    pub field: Name,
    pub op: Spanned<ModifyOp>,
    pub value: Expr,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ModifyOp {
    Add,
    Sub,
    Set,
    Insert,
    Remove,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ReplaceItem {
    pub name: Name,
    pub cite: Option<Spanned<String>>,
    pub body: ReplaceBody,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ReplaceBody {
    pub target: Name,
    pub params: Vec<Param>,
    pub when: Option<Expr>,
    pub optional: Option<(Expr, Spanned<String>)>,
    pub body: Block,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AlwaysItem {
    pub name: Name,
    /// `immediately`: checked between the statements of a card effect too.
    pub immediately: bool,
    pub cite: Option<Spanned<String>>,
    pub body: Block,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ObjectItem {
    pub kind: Name,
    pub name: Spanned<String>,
    pub sample: Option<Spanned<String>>,
    pub props: Vec<Prop>,
    pub abilities: Vec<Ability>,
    pub modifiers: Vec<ObjectModifier>,
    pub triggers: Vec<ObjectTrigger>,
    pub permits: Vec<HookItem>,
    pub forbids: Vec<HookItem>,
    pub replaces: Vec<ObjectReplace>,
}

/// `action "Commit: ..." { cost commit(self)  target f from units() where ..  do { .. } }`
#[derive(Debug, Clone, PartialEq)]
pub struct Ability {
    pub slot: Name,
    pub label: Option<Spanned<String>>,
    pub costs: Vec<CallExpr>,
    pub targets: Vec<Target>,
    pub requires: Option<Expr>,
    pub body: Option<Block>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub name: Name,
    pub from: Expr,
    pub filter: Option<Expr>,
    pub chosen_by: Option<Expr>,
    pub prompt: Option<Spanned<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ObjectModifier {
    pub label: Option<Spanned<String>>,
    pub active_while: Option<Expr>,
    pub body: ModifierBody,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ObjectTrigger {
    pub on: Name,
    pub params: Vec<Param>,
    pub when: Option<Expr>,
    pub body: Block,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ObjectReplace {
    pub label: Option<Spanned<String>>,
    pub body: ReplaceBody,
    pub span: Span,
}

// ---------------------------------------------------------------------------------------------
// Statements

#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

pub type Stmt = Spanned<StmtKind>;

#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// `let x = ..`
    Let {
        name: Name,
        value: LetValue,
    },
    /// `p.score -= 1`
    Assign {
        place: Vec<Name>,
        op: Spanned<AssignOp>,
        value: Expr,
    },
    /// `if c { } else if d { } else { }`
    If {
        arms: Vec<(Expr, Block)>,
        otherwise: Option<Block>,
    },
    /// `for x in list { }`
    For {
        var: Name,
        list: Expr,
        body: Block,
    },
    /// `step draw cite ".." { }`: a named part of a procedure.
    Step {
        name: Name,
        cite: Option<Spanned<String>>,
        body: Block,
    },
    /// `while c { }`
    While {
        cond: Expr,
        body: Block,
    },
    /// `repeat n { }`
    Repeat {
        count: Expr,
        body: Block,
    },
    /// `return` or `return x`
    Return(Option<Expr>),
    /// `call f(x)`
    Call(CallExpr),
    /// `choose p "prompt" ..`
    Choose(Box<Choose>),
    /// `move x to z top face down`
    Move {
        what: Expr,
        to: Expr,
        flags: Vec<Spanned<MoveFlag>>,
    },
    /// `put x under y` / `put x over y`
    Put {
        what: Expr,
        under: bool,
        target: Expr,
    },
    /// `turn x face up`
    Turn {
        what: Expr,
        up: bool,
    },
    /// `shuffle z`
    Shuffle(Expr),
    /// `modify x.f += v until d`
    Modify {
        target: Expr,
        field: Name,
        op: Spanned<ModifyOp>,
        value: Expr,
        until: Option<Name>,
    },
    /// `expire phase`
    Expire(Name),
    /// `forbid can_play(p, c) when .. until phase` (or `permit`): made by an effect, it lasts.
    Lasting {
        forbid: bool,
        hook: HookItem,
        until: Option<Name>,
    },
    /// `replace { instead of p(..) .. do { .. } } until turn`: made by an effect, it lasts.
    LastingReplace {
        body: ReplaceBody,
        until: Option<Name>,
    },
    /// `signal ev(x)`
    Signal(CallExpr),
    /// `log "text"`
    Log(Spanned<StrLit>),
    /// `win p "reason"`
    Win {
        who: Expr,
        reason: Spanned<StrLit>,
    },
    /// `lose p "reason"`
    Lose {
        who: Expr,
        reason: Spanned<StrLit>,
    },
    /// `end draw "reason"`
    Draw(Spanned<StrLit>),
    /// `reveal x` / `reveal x to p`
    Reveal {
        what: Expr,
        to: Option<Expr>,
    },
    Conceal(Expr),
    /// `create "Card" for p in z face down`
    Create(Box<Create>),
    /// `use ability(c, effect)`
    /// `use a` or `use a by p`
    Use(Expr, Option<Expr>),
    // Scenario-only statements.
    /// `run proc(args)`
    Run(CallExpr),
    /// `answer P1 "label"`
    Answer {
        who: Expr,
        value: Expr,
    },
    /// `random roll 3` / `random keep` / `random order [..]` / `random pick x`
    Random(RandomScript),
    /// `expect ..`
    Expect(Expect),
    /// `stop`
    Stop,
}

#[derive(Debug, Clone, PartialEq)]
pub enum LetValue {
    Expr(Expr),
    Call(CallExpr),
    Choose(Box<Choose>),
    Roll(Expr),
    Pick(Expr),
    Create(Box<Create>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveFlag {
    Top,
    Bottom,
    FaceUp,
    FaceDown,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Create {
    pub def: Expr,
    pub owner: Option<Expr>,
    pub zone: Expr,
    pub face_up: Option<bool>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CallExpr {
    pub name: Name,
    pub args: Vec<Expr>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Choose {
    pub secret: bool,
    pub who: Expr,
    pub prompt: Spanned<StrLit>,
    pub form: ChooseForm,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ChooseForm {
    /// `from list` / `2 of from list` / `up to 2 of from list` / `order of from list`, `else "none"`
    From { count: Box<ChooseCount>, list: Box<Expr>, none: Option<Spanned<StrLit>> },
    /// `{ "label" if c => { } ... }`
    Branches(Vec<Branch>),
}

#[derive(Debug, Clone, PartialEq)]
pub enum ChooseCount {
    One,
    Exactly(Expr),
    UpTo(Expr),
    Order,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Branch {
    pub label: Spanned<StrLit>,
    pub cond: Option<Expr>,
    /// `rarely`: the random bots pick it seldom.
    pub rarely: bool,
    pub body: Block,
}

#[derive(Debug, Clone, PartialEq)]
pub enum RandomScript {
    Roll(Expr),
    Keep,
    Order(Expr),
    Pick(Expr),
}

// ---------------------------------------------------------------------------------------------
// Expressions

pub type Expr = Spanned<ExprKind>;

/// A string literal, possibly with `{expr}` parts.
#[derive(Debug, Clone, PartialEq)]
pub struct StrLit {
    pub parts: Vec<TextPart>,
}

impl StrLit {
    pub fn plain(s: impl Into<String>) -> Self {
        StrLit { parts: vec![TextPart::Text(s.into())] }
    }

    /// The literal text when there is no `{expr}` part.
    pub fn as_plain(&self) -> Option<String> {
        let mut out = String::new();
        for p in &self.parts {
            match p {
                TextPart::Text(t) => out.push_str(t),
                TextPart::Expr(_) => return None,
            }
        }
        Some(out)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum TextPart {
    Text(String),
    Expr(Expr),
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Str(StrLit),
    Bool(bool),
    None,
    /// `you`: the player who controls the ability being played
    You,
    /// `self`: the object whose ability this is
    SelfRef,
    /// a name: a local, a constant, a global field, an enum member, a zone, a seat (`P1`)
    Var(String),
    /// `f(a, b)`
    Call(CallExpr),
    /// `proc name`
    ProcRef(Name),
    /// `x.field`
    Field {
        base: Box<Expr>,
        field: Name,
    },
    Unary {
        op: UnOp,
        expr: Box<Expr>,
    },
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `if c then a else b`
    If {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    /// `any x in l where c` / `no x in l where c`
    Quant {
        any: bool,
        var: Name,
        list: Box<Expr>,
        cond: Box<Expr>,
    },
    /// `|a, b| body`
    Lambda {
        params: Vec<Name>,
        body: Box<Expr>,
    },
    /// `[x in l where c]`
    Filter {
        var: Name,
        list: Box<Expr>,
        cond: Box<Expr>,
    },
    /// `[e for x in l where c]`
    Map {
        expr: Box<Expr>,
        var: Name,
        list: Box<Expr>,
        cond: Option<Box<Expr>>,
    },
    /// `[a, b]`
    List(Vec<Expr>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    Has,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}
