//! The compiled game: names resolved to indices, every statement block stored once in
//! `Game::blocks` so that a running game refers to code by `BlockId` and stays plain data.

use super::code::*;
use super::value::Value;
use crate::ids::*;
use crate::operators::ModifyOperator;
use arbiter_syntax::span::{FileId, SourceFile, Span};

/// A titled part of the seed text: `section "Challenge Procedure" cite "L365-392"`.
#[derive(Debug, Clone)]
pub struct Section {
    pub title: String,
    pub cite: String,
    /// The line ranges the citation names: the letter naming the text (`L`, or `U` and `R` where
    /// a game cites two texts), first and last line.
    pub ranges: Vec<(char, u32, u32)>,
}

/// The line ranges of a citation like `L365-392, L486` (or `U54-60, R30`): `None` when it is
/// not written that way.
pub fn cite_ranges(cite: &str) -> Option<Vec<(char, u32, u32)>> {
    let mut out = Vec::new();
    for part in cite.split(',') {
        let part = part.trim();
        let letter = part.chars().next().filter(char::is_ascii_uppercase)?;
        let rest = part.get(1..)?;
        let (a, b) = match rest.split_once(['-', '–']) {
            Some((a, b)) => (a.trim(), b.trim().trim_start_matches(letter)),
            None => (rest, rest),
        };
        let (a, b) = (a.parse::<u32>().ok()?, b.parse::<u32>().ok()?);
        if a > b {
            return None;
        }
        out.push((letter, a, b));
    }
    if out.is_empty() { None } else { Some(out) }
}

/// How many players a game is for, as messages say it: `2`, or `3 to 6`.
pub fn player_counts(min: u8, max: u8) -> String {
    if min == max { min.to_string() } else { format!("{min} to {max}") }
}

impl Game {
    /// Why `players` players can't play this game (`tic-tac-toe is for 2 players, not 3`), if they
    /// can't.
    pub fn wrong_player_count(&self, players: usize) -> Option<String> {
        (players < usize::from(self.min_players) || players > usize::from(self.max_players))
            .then(|| format!("{} is for {} players, not {players}", self.name, player_counts(self.min_players, self.max_players)))
    }

    /// Whether one player may come to know what another may not: a zone only its owner sees, a
    /// secret choice, a reveal to one player, or an object put face down (its owner knows it). A
    /// zone nobody sees (a shuffled deck) keeps nothing between players.
    pub fn keeps_secrets_between_players(&self) -> bool {
        self.zones.iter().any(|z| z.visibility == Visibility::Owner)
            || self.blocks.iter().flat_map(|b| b.iter()).any(|s| match &s.kind {
                StmtKindIr::Choose { choose, .. } => choose.secret,
                StmtKindIr::Reveal { to, .. } => to.is_some(),
                StmtKindIr::Move { face, .. } => *face == Some(false),
                StmtKindIr::Turn { up, .. } => !up,
                StmtKindIr::Create { create, .. } => create.face_up == Some(false),
                StmtKindIr::Conceal(_) => true,
                _ => false,
            })
    }

    /// The innermost section holding the first range a citation names (or else its first line), as
    /// `source — Title` (just the title where the game cites several texts: its sections' titles
    /// name their text).
    pub fn section_of(&self, cite: &str) -> Option<String> {
        let (letter, first, last) = first_cited_range(cite)?;
        let smallest = |s: &&Section| s.ranges.iter().map(|(_, a, b)| b - a).min().unwrap_or(u32::MAX);
        // The smallest section holding the whole first range cited: `L382-402` spans steps 3 to 5
        // of a procedure, so it is the procedure's, not its step 3's. Failing that, the smallest
        // holding its first line.
        let best = self
            .sections
            .iter()
            .filter(|s| s.ranges.iter().any(|(l, a, b)| *l == letter && *a <= first && last <= *b))
            .min_by_key(smallest)
            .or_else(|| {
                self.sections
                    .iter()
                    .filter(|s| s.ranges.iter().any(|(l, a, b)| *l == letter && *a <= first && first <= *b))
                    .min_by_key(smallest)
            })?;
        Some(if self.source.is_empty() || self.source.contains(',') {
            best.title.clone()
        } else {
            format!("{} — {}", self.source, best.title)
        })
    }
}

/// The first range a citation names (`L365-392, ...` → ('L', 365, 392); `L40` → ('L', 40, 40)),
/// however loosely written.
fn first_cited_range(cite: &str) -> Option<(char, u32, u32)> {
    let chars: Vec<char> = cite.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
            let digits: String = chars.iter().skip(i + 1).take_while(|d| d.is_ascii_digit()).collect();
            let first: u32 = digits.parse().ok()?;
            let after = i + 1 + digits.len();
            let last = if chars.get(after) == Some(&'-') {
                let more: String = chars.iter().skip(after + 1).take_while(|d| d.is_ascii_digit()).collect();
                more.parse().ok().filter(|l| *l >= first).unwrap_or(first)
            } else {
                first
            };
            return Some((*c, first, last));
        }
    }
    None
}

/// A prohibition or permission an effect makes (`forbid can_play(p, c) when .. until phase`): the
/// check it answers, its parameters' slots in the env of the code that made it, and its condition.
#[derive(Debug, Clone)]
pub struct LastingDef {
    /// For a lasting replacement, the procedure it replaces (`Hooked::Proc`).
    pub target: Hooked,
    /// A lasting replacement's body and who is asked whether to apply it (`replace { .. } until ..`).
    pub replace: Option<LastingReplaceDef>,
    pub forbid: bool,
    pub params: Vec<Slot>,
    pub when: ExprIr,
    pub until: Option<usize>,
    pub span: Span,
}

/// What a lasting replacement does instead: its body (lowered in the scope of the code that made
/// it), and who is asked whether to, with what prompt.
#[derive(Debug, Clone)]
pub struct LastingReplaceDef {
    pub body: BlockId,
    pub optional: Option<(ExprIr, String)>,
}

/// A named step of a procedure, for explanations: where it is, its name and its citation.
#[derive(Debug, Clone)]
pub struct StepInfo {
    pub span: Span,
    pub name: String,
    pub cite: Option<String>,
}

/// A whole game, ready to run: immutable and shared. The rule items and definitions are shared
/// too (`Arc`): a game compiled once is copied for each scenario file checked with it, and the copy
/// copies only what the scenario's checking changes (`Arc::make_mut`).
#[derive(Debug, Clone)]
pub struct Game {
    pub name: String,
    pub title: String,
    pub source: String,
    /// Titled parts of the seed text (`section` items), for explanations.
    pub sections: std::sync::Arc<Vec<Section>>,
    pub min_players: u8,
    pub max_players: u8,
    /// The files the game was loaded from, in load order. A span's file is found here by its id
    /// (`Game::file`); saves number the files by their places here (`FileNumbers`).
    pub files: Vec<SourceFile>,
    pub symbols: std::sync::Arc<Vec<String>>,
    pub sym_index: std::sync::Arc<crate::NameMap<Sym>>,
    pub enums: Vec<EnumDef>,
    pub kinds: std::sync::Arc<Vec<KindDef>>,
    pub zones: Vec<ZoneDef>,
    pub player_fields: Vec<VarDef>,
    pub global_fields: Vec<VarDef>,
    pub consts: Vec<ConstDef>,
    pub events: Vec<EventDef>,
    pub procs: std::sync::Arc<Vec<ProcDef>>,
    pub funcs: std::sync::Arc<Vec<FuncDef>>,
    pub checks: std::sync::Arc<Vec<CheckDef>>,
    pub triggers: std::sync::Arc<Vec<TriggerDef>>,
    /// Prohibitions and permissions that effects make (`forbid .. until d` statements).
    /// The named steps of procedures, innermost last within each procedure.
    pub steps: Vec<StepInfo>,
    pub lasting: Vec<LastingDef>,
    pub modifiers: std::sync::Arc<Vec<ModifierDef>>,
    pub replaces: std::sync::Arc<Vec<ReplaceDef>>,
    pub always: Vec<AlwaysDef>,
    /// The rulebook's `forbid`s of procedures (`Hooked::Proc`).
    pub proc_forbids: Vec<HookDef>,
    pub defs: std::sync::Arc<Vec<ObjDef>>,
    pub def_index: std::sync::Arc<crate::NameMap<DefId>>,
    /// Statement blocks, shared: a game compiled once is copied for each scenario file checked with it.
    pub blocks: Vec<std::sync::Arc<[StmtIr]>>,
    pub lambdas: Vec<LambdaDef>,
    pub durations: Vec<String>,
    pub default_duration: Option<usize>,
    /// `search_depth N`: the decisions the search bot plays at random past its tree before the
    /// hints score the state, where `mcts` names none (`None`: the bot's own default).
    pub search_depth: Option<u32>,
    pub setup: Option<ProcId>,
    pub turn: Option<ProcId>,
    pub trigger_order: Option<FuncId>,
    /// A function giving the drawings of the table for `arbiter render` (see runtime/picture.rs).
    pub picture: Option<FuncId>,
    /// A function giving the table as lines of text, for the terminal (`state` in `arbiter play`).
    pub text_picture: Option<FuncId>,
    /// `played_in ZONE, ...`: where a card is played, for `arbiter sim`'s per-card statistics
    /// (empty: the zones where its kind is active).
    pub played_in: Vec<ZoneId>,
    /// `hint` items: how good the state looks for a seat, summed, for the greedy and search bots.
    pub hints: Vec<HintDef>,
    /// `side` items, in the order written: the sides or teams a seat can be on (its function is a
    /// condition on the seat), for win rates by side and bots chosen by side.
    pub sides: Vec<HintDef>,
    pub deck_sections: Vec<String>,
    pub deck_rules: Vec<DeckRuleDef>,
    pub decks: Vec<DeckList>,
    pub variants: std::sync::Arc<Vec<VariantInfo>>,
    pub active_variants: Vec<String>,
    /// Events that some trigger listens to (others are not matched at all).
    pub listened: Vec<bool>,
    /// What some definition's abilities hook, by id: events its triggers listen to, checks its
    /// permits and forbids answer, procedures its replacements replace. Where no definition hooks
    /// one, the objects in play are not scanned for it.
    pub objects_hook: ObjectHooks,
    /// For each field-name symbol: rulebook modifiers that touch it.
    pub modifiers_by_field: SymMap<Vec<usize>>,
    pub blank_modifiers: Vec<usize>,
    /// Definitions that carry static modifiers, triggers, permits, forbids or replacements.
    pub defs_with_passives: Vec<bool>,
    /// Fields some definition's static modifier changes: reading any other field skips the scan
    /// for objects whose modifiers are in effect.
    pub passive_fields: Vec<Sym>,
    /// For each symbol: whether any modifier (the rulebook's or a definition's) can change a field
    /// of that name. A field no modifier touches reads as printed.
    pub modified_fields: Vec<bool>,
    /// What an object's blankness and its fields read through modifiers depend on, and so how
    /// long what is worked out about them may be remembered (`check::reads`).
    pub derived: Derived,
    /// By function: what its calls read, and so how long their values may be remembered
    /// (`check::call_reads`).
    pub call_reads: std::sync::Arc<Vec<crate::CallReads>>,
    /// By `always` block: what it reads, when the engine may leave it unrun while that is
    /// unchanged (`check::call_reads::always_reads`); `None`: it always runs.
    pub always_reads: Vec<Option<Box<crate::CallDeps>>>,
    pub builtin_events: BuiltinEvents,
    /// How many functions and blocks have been given their fast forms (`check::fast`): those
    /// after are new since (a scenario file's).
    pub fastened: (usize, usize),
}

/// See `Game::derived`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Derived {
    pub blank: Reads,
    /// Fields some modifier touches, by name (`Sym`, a dense table: it is looked up at every
    /// field read through modifiers); any other field reads what `blank` reads.
    pub fields: Vec<Option<Reads>>,
    /// By global: whether a `Reads::Local { globals: true }` fact reads it (setting it gives
    /// `State::derived_globals` a new number).
    pub globals: Vec<bool>,
}

impl Derived {
    #[inline]
    pub fn field(&self, f: Sym) -> Reads {
        self.fields.get(f as usize).copied().flatten().unwrap_or(self.blank)
    }

    /// Say what field `f` reads.
    pub fn set_field(&mut self, f: Sym, r: Reads) {
        let i = f as usize;
        if self.fields.len() <= i {
            self.fields.resize(i + 1, None);
        }
        if let Some(x) = self.fields.get_mut(i) {
            *x = Some(r);
        }
    }
}

/// What a derived fact about an object reads (`check::reads`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reads {
    /// Anything: remembered for one version of the state.
    #[default]
    Everything,
    /// Only the object, the objects it lies under, and (when `globals`) some globals: remembered
    /// under the object's number (`Obj::version`) and the globals' (`State::derived_globals`).
    Local { globals: bool },
}

/// See `Game::objects_hook`.
#[derive(Debug, Clone, Default)]
pub struct ObjectHooks {
    pub events: Vec<bool>,
    pub checks: Vec<bool>,
    pub procs: Vec<bool>,
}

impl ObjectHooks {
    fn marked(table: &[bool], id: u32) -> bool {
        table.get(id as usize).copied().unwrap_or(false)
    }

    pub fn event(&self, e: EventId) -> bool {
        ObjectHooks::marked(&self.events, e)
    }

    pub fn check(&self, c: CheckId) -> bool {
        ObjectHooks::marked(&self.checks, c)
    }

    pub fn proc(&self, p: ProcId) -> bool {
        ObjectHooks::marked(&self.procs, p)
    }
}

#[derive(Debug, Clone, Copy, Default)]
pub struct BuiltinEvents {
    pub moved: EventId,
    pub player_left: EventId,
}

impl Game {
    pub fn sym(&self, s: Sym) -> &str {
        self.symbols.get(s as usize).map(String::as_str).unwrap_or("?")
    }

    pub fn sym_id(&self, s: &str) -> Option<Sym> {
        self.sym_index.get(s).copied()
    }

    pub fn block(&self, b: BlockId) -> &[StmtIr] {
        self.blocks.get(b as usize).map(|b| &**b).unwrap_or(&[])
    }

    pub fn def(&self, d: DefId) -> Option<&ObjDef> {
        self.defs.get(d as usize)
    }

    pub fn kind(&self, k: KindId) -> Option<&KindDef> {
        self.kinds.get(k as usize)
    }

    pub fn zone(&self, z: ZoneId) -> Option<&ZoneDef> {
        self.zones.get(z as usize)
    }

    pub fn proc_def(&self, p: ProcId) -> Option<&ProcDef> {
        self.procs.get(p as usize)
    }

    /// The file a span's `file` names, if it is one of the game's.
    pub fn file(&self, file: FileId) -> Option<&SourceFile> {
        SourceFile::find(&self.files, file)
    }

    pub fn file_name(&self, span: Span) -> &str {
        self.file(span.file).map(|f| f.name.as_str()).unwrap_or("?")
    }

    /// The innermost named step of a procedure whose text holds this span.
    pub fn step_at(&self, span: Span) -> Option<&StepInfo> {
        self.steps
            .iter()
            .filter(|s| s.span.file == span.file && s.span.start <= span.start && span.end <= s.span.end)
            .min_by_key(|s| s.span.end - s.span.start)
    }

    /// `file:line` for a span.
    pub fn location(&self, span: Span) -> String {
        match self.file(span.file) {
            Some(f) => {
                let (line, _) = f.line_col(span.start as usize);
                format!("{}:{}", f.name, line)
            }
            None => "?".to_string(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct EnumDef {
    pub name: String,
    pub open: bool,
    pub members: Vec<Sym>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    Any,
    Nothing,
    Bool,
    Int,
    Text,
    Player,
    Obj(Option<KindId>),
    Def(Option<KindId>),
    Zone,
    Sym(Option<u16>),
    List(Box<Ty>),
    Amount,
    Proc,
    Ability,
    Lambda,
    /// A point and a heading on the table.
    Pose,
}

impl Ty {
    /// Can a value of type `self` be used where `want` is expected?
    pub fn fits(&self, want: &Ty) -> bool {
        match (self, want) {
            (Ty::Any, _) | (_, Ty::Any) | (Ty::Nothing, _) => true,
            (Ty::Obj(a), Ty::Obj(b)) | (Ty::Def(a), Ty::Def(b)) => a.is_none() || b.is_none() || a == b,
            (Ty::Sym(a), Ty::Sym(b)) => a.is_none() || b.is_none() || a == b,
            (Ty::List(a), Ty::List(b)) => a.fits(b),
            (Ty::Zone, Ty::List(inner)) => inner.fits(&Ty::Obj(None)),
            (a, b) => a == b,
        }
    }

    /// The element type of a list-like type.
    pub fn elem(&self) -> Ty {
        match self {
            Ty::List(t) => (**t).clone(),
            Ty::Zone => Ty::Obj(None),
            _ => Ty::Any,
        }
    }

    pub fn is_listlike(&self) -> bool {
        matches!(self, Ty::List(_) | Ty::Zone | Ty::Any | Ty::Nothing)
    }
}

#[derive(Debug, Clone)]
pub struct FieldDef {
    pub name: Sym,
    pub ty: Ty,
    pub default: Value,
    /// Every definition of the kind must give it (no default, not optional).
    pub required: bool,
    /// `announced`: a change to it is told at the table (`arbiter play`); see `view::table_talk`.
    pub announced: bool,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct KindDef {
    pub name: String,
    pub fields: Vec<FieldDef>,
    pub field_index: SymMap<usize>,
    pub slots: Vec<(String, bool)>,
    pub active_in: Vec<ZoneId>,
    pub label: Option<ExprIr>,
    pub label_slots: u16,
}

impl KindDef {
    /// The index of a field by name: a scan for a kind with few fields, else the index.
    #[inline]
    pub fn field(&self, f: Sym) -> Option<usize> {
        if self.fields.len() <= 12 { self.fields.iter().position(|fd| fd.name == f) } else { self.field_index.get(&f).copied() }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    Public,
    Owner,
    Hidden,
}

#[derive(Debug, Clone)]
pub struct ZoneDef {
    pub name: String,
    pub per_player: bool,
    pub visibility: Visibility,
    pub ordered: bool,
    pub holds: Option<KindId>,
    /// How many shared zones and how many per-player zones are declared before this one: its
    /// instances' place among a state's zones (`State::zone_slot`), with the number of players.
    pub before: (u32, u32),
}

#[derive(Debug, Clone)]
pub struct VarDef {
    pub name: String,
    pub ty: Ty,
    pub default: Option<ExprIr>,
    /// `announced`: a change to it is told at the table (`arbiter play`).
    pub announced: bool,
}

#[derive(Debug, Clone)]
pub struct ConstDef {
    pub name: String,
    pub value: ExprIr,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct EventDef {
    pub name: String,
    pub params: Vec<(String, Ty)>,
}

/// Who or what a piece of running code belongs to: used for causes, citations and budgets.
#[derive(Debug, Clone)]
pub struct RuleInfo {
    pub name: String,
    pub cite: Option<String>,
    pub span: Span,
}

/// A hint: the function scoring the state for a seat (its one parameter), and, for an invented
/// one, why it is there (`sample "..."`); a hint from the rulebook's advice has a citation instead.
#[derive(Debug, Clone)]
pub struct HintDef {
    pub func: FuncId,
    pub name: String,
    pub sample: Option<String>,
}

#[derive(Debug, Clone)]
pub struct ProcDef {
    pub info: RuleInfo,
    pub params: Vec<(String, Ty)>,
    pub requires: Option<ExprIr>,
    pub body: BlockId,
    pub slots: u16,
}

#[derive(Debug, Clone)]
pub struct FuncDef {
    pub info: RuleInfo,
    pub params: Vec<(String, Ty)>,
    pub body: ExprIr,
    pub slots: u16,
    /// Whether an evaluation remembers its calls (set when the rules are checked): for functions
    /// that walk lists or zones, directly or through other functions. A cheap function is
    /// quicker to run again than to look up.
    pub remember: bool,
}

/// A `check` with the rulebook's permits and forbids for it.
#[derive(Debug, Clone)]
pub struct CheckDef {
    pub func: FuncDef,
    pub permits: Vec<HookDef>,
    pub forbids: Vec<HookDef>,
}

#[derive(Debug, Clone)]
pub struct HookDef {
    pub info: RuleInfo,
    pub target: Hooked,
    pub when: ExprIr,
    pub slots: u16,
}

/// What a `permit` or `forbid` adjusts: a `check` (permitted or forbidden), or a procedure
/// (forbidden only: a call of it that the forbid's condition holds for does nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hooked {
    Check(CheckId),
    Proc(ProcId),
}

#[derive(Debug, Clone)]
pub struct TriggerDef {
    pub info: RuleInfo,
    pub event: EventId,
    pub when: Option<ExprIr>,
    pub by: Option<ExprIr>,
    pub body: BlockId,
    pub slots: u16,
}

#[derive(Debug, Clone)]
pub struct ModifierDef {
    pub info: RuleInfo,
    /// For modifiers printed on objects: the condition on `self` for the modifier to apply.
    pub active_while: Option<ExprIr>,
    pub var: Slot,
    pub when: Option<ExprIr>,
    /// The zones `when` requires the object to be directly in (one of them), when a part of it
    /// joined by `and` says so (`o in ZONE`, `o in Z1 or o in Z2`): the modifier is skipped at once
    /// for objects elsewhere (field reads ask every object). Empty: no such part.
    pub zone_guard: Vec<crate::value::ZoneRef>,
    pub layer: i64,
    pub blank_except: Option<Vec<Sym>>,
    pub effects: Vec<FieldEffectDef>,
    pub slots: u16,
}

#[derive(Debug, Clone)]
pub struct FieldEffectDef {
    pub field: Sym,
    pub op: ModifyOperator,
    pub value: ExprIr,
}

#[derive(Debug, Clone)]
pub struct ReplaceDef {
    pub info: RuleInfo,
    pub target: ProcId,
    pub when: Option<ExprIr>,
    pub optional: Option<(ExprIr, String)>,
    pub body: BlockId,
    pub slots: u16,
}

#[derive(Debug, Clone)]
pub struct AlwaysDef {
    pub info: RuleInfo,
    pub body: BlockId,
    pub slots: u16,
    /// `always NAME immediately`: not held by a card effect; it runs between the statements of
    /// the effect's body as well (see `Engine::advance`).
    pub immediately: bool,
}

#[derive(Debug, Clone)]
pub struct LambdaDef {
    pub params: Vec<Slot>,
    pub body: ExprIr,
}

/// An object definition (a card, a token, a ship...).
#[derive(Debug, Clone)]
pub struct ObjDef {
    pub name: String,
    /// The name once more, shared: what choices and events show for the object.
    pub shown: std::sync::Arc<str>,
    /// The name as a text value, shared: what `o.name` and `d.name` read.
    pub name_text: Value,
    pub kind: KindId,
    /// Printed values by kind field index; `None` means the kind's default.
    pub fields: Vec<Option<Value>>,
    pub abilities: Vec<AbilityDef>,
    pub modifiers: Vec<ModifierDef>,
    pub triggers: Vec<TriggerDef>,
    pub permits: Vec<HookDef>,
    pub forbids: Vec<HookDef>,
    pub replaces: Vec<ReplaceDef>,
    pub sample: Option<String>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct AbilityDef {
    pub info: RuleInfo,
    pub slot: String,
    pub label: String,
    pub costs: Vec<CallIr>,
    pub targets: Vec<TargetDef>,
    pub requires: Option<ExprIr>,
    pub body: Option<BlockId>,
    pub slots: u16,
}

#[derive(Debug, Clone)]
pub struct TargetDef {
    pub slot: Slot,
    pub name: String,
    pub from: ExprIr,
    pub filter: Option<ExprIr>,
    pub chosen_by: Option<ExprIr>,
    pub prompt: String,
}

#[derive(Debug, Clone)]
pub struct DeckRuleDef {
    pub each: Option<(Slot, ExprIr)>,
    pub cond: ExprIr,
    pub message: TextExpr,
    pub slots: u16,
    pub span: Span,
}

/// The section that numbered lines (`4 "Card"`) go to.
pub const MAIN_SECTION: &str = "cards";

#[derive(Debug, Clone)]
pub struct DeckList {
    pub name: String,
    pub sample: Option<String>,
    pub entries: Vec<DeckLine>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct DeckLine {
    pub section: String,
    pub def: DefId,
    pub count: u32,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct VariantInfo {
    pub name: String,
    pub title: String,
    /// The variants it builds on (switched on before it).
    pub extends: Vec<String>,
    /// Where it comes from: `expansion`, `option`, `reading` or `house` as written; without a
    /// word, `option` in a rulebook's folder and `house` in a player's own file.
    pub group: String,
    pub cite: Option<String>,
    pub changes: Vec<VariantChange>,
    pub span: Span,
}

/// One change a variant makes: `replaces proc x`, with where the item it changes is written and
/// where the variant's version is.
#[derive(Debug, Clone)]
pub struct VariantChange {
    /// `replaces`, `adds`, `removes`, `sets` or `inserts`.
    pub verb: &'static str,
    pub kind: String,
    pub name: String,
    /// The item as the game has it without this variant (none for an addition).
    pub before: Option<Span>,
    /// The variant's item (none for a removal).
    pub after: Option<Span>,
}

impl std::fmt::Display for VariantChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}", self.verb, self.kind, self.name)
    }
}
