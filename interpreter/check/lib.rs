//! Checking and compiling: every name resolved, every kind and field checked, every error
//! reported at once; the result is an immutable `ir::Game`.

mod call_reads;
pub mod decks;
mod declare;
pub mod fast;
pub mod fold;
mod hooks;
pub mod inline;
pub mod items;
pub mod lower_expr;
pub mod lower_stmt;
mod operators;
pub mod project;
pub mod prompts;
mod reads;
pub mod scenario;
pub mod scope;
pub mod seeds;
pub mod steps;
pub mod variants;
mod warnings;

use arbiter_ir::value::Value;
use arbiter_ir::*;
use arbiter_syntax::ast::{self, Item, PropValue, TypeKind};
use arbiter_syntax::budgets::SUGGESTION_BUDGET;
use arbiter_syntax::diag::{Diag, did_you_mean, with_suggestion_budget};
use arbiter_syntax::span::{SourceFile, Span, Spanned};
use indexmap::IndexMap;
use std::sync::Arc;

/// What a file is for: decides which items it may hold and how strictly it is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Stdlib,
    Rulebook,
    Variant,
    Cards,
    Scenario,
}

/// A parsed file (shared with the parse cache) and what it is for.
#[derive(Clone)]
pub struct Input {
    pub file: std::sync::Arc<ast::File>,
    pub role: Role,
}

/// A compiled game with the scenarios that came with it, and any warnings.
pub struct Built {
    pub game: Game,
    pub scenarios: Vec<arbiter_ir::scenario::ScenarioIr>,
    pub warnings: Vec<Diag>,
}

#[derive(Clone)]
pub struct Checker {
    pub game: Game,
    pub diags: Vec<Diag>,
    // The name tables are shared (`Arc`) with the checkers cloned from this one (a scenario file
    // is checked against a clone of its game's): written only while the rules are declared, they
    // are copied only if a clone writes them (`Arc::make_mut`).
    pub member_of: Arc<IndexMap<Sym, u16>>,
    pub enum_by_name: Arc<NameMap<u16>>,
    pub kind_by_name: Arc<NameMap<KindId>>,
    pub zone_by_name: Arc<NameMap<ZoneId>>,
    pub const_by_name: Arc<NameMap<(u16, Ty)>>,
    pub event_by_name: Arc<NameMap<EventId>>,
    pub proc_by_name: Arc<NameMap<ProcId>>,
    pub proc_params: Arc<Vec<Vec<(String, Ty)>>>,
    pub func_by_name: Arc<NameMap<FuncId>>,
    pub func_params: Arc<Vec<Vec<(String, Ty)>>>,
    pub func_types: Arc<Vec<Ty>>,
    pub check_by_name: Arc<NameMap<CheckId>>,
    pub check_params: Arc<Vec<Vec<(String, Ty)>>>,
    /// Where each rule item was first declared, for duplicate errors: by namespace (`Ns`), then
    /// name (one table each, so that a name is looked up as written, without making a key).
    declared: Arc<[NameMap<Span>; Ns::COUNT]>,
    /// Words written in fields of type `any`, checked once every definition is read.
    pub loose_words: Vec<(Sym, Span)>,
    /// How deep lowering has recursed (expressions and blocks; see `Checker::deeper`).
    depth: u32,
    /// Whether the compiled rules get the fast tier's forms (`fast::fasten`): not when they are
    /// only checked, never played (`arbiter check`).
    pub fast_forms: bool,
}

/// An item with the role of the file it came from.
#[derive(Clone)]
pub struct Placed<'a> {
    /// As written, or as a variant's `set` or step changes made it.
    pub item: ItemRef<'a>,
    pub role: Role,
}

/// An item as written (borrowed from its file) or as a variant changed it (shared). Two words,
/// not the item itself: every compile copies the game's items into lists several times (the
/// base rules, a variant's, a scenario file's), and an item is over 400 bytes.
#[derive(Clone)]
pub enum ItemRef<'a> {
    Written(&'a Spanned<Item>),
    Changed(std::sync::Arc<Spanned<Item>>),
}

impl std::ops::Deref for ItemRef<'_> {
    type Target = Spanned<Item>;

    fn deref(&self) -> &Spanned<Item> {
        match self {
            ItemRef::Written(item) => item,
            ItemRef::Changed(item) => item,
        }
    }
}

/// The namespaces of declared names (`Checker::declare`): a name may be a type and a zone, say,
/// but is declared once in each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ns {
    /// Enums and kinds.
    Type,
    Zone,
    /// Constants.
    Value,
    /// Player fields.
    Player,
    /// Globals.
    Global,
    Event,
    Proc,
    /// Functions, hints, sides and checks.
    Func,
    Trigger,
    Modifier,
    Replace,
    Always,
    Permit,
    Forbid,
}

impl Ns {
    /// How many namespaces there are (the last one's number, and one).
    pub(crate) const COUNT: usize = Ns::Forbid as usize + 1;
}

impl Checker {
    /// Lowering recurses as deeply as the source nests (bounded: `EXPR_NESTING` levels in one
    /// expression, `NESTING_LIMIT` brackets), and may run on a thread with a small stack. Every
    /// `DEPTH_CHECKED`th level makes sure there is room for the levels up to the next one (about
    /// 1.3 KB each, measured) and moves to a new stack if not (asking at every level, as each
    /// recursive call did, cost 0.5% of checking every file).
    #[inline]
    pub(crate) fn deeper<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        const DEPTH_CHECKED: u32 = 8;
        self.depth += 1;
        let r =
            if self.depth.is_multiple_of(DEPTH_CHECKED) { stacker::maybe_grow(128 * 1024, 2 * 1024 * 1024, || f(self)) } else { f(self) };
        self.depth -= 1;
        r
    }

    pub fn new(files: Vec<SourceFile>) -> Self {
        let game = Game {
            name: String::new(),
            title: String::new(),
            source: String::new(),
            sections: Default::default(),
            min_players: 2,
            max_players: 2,
            files,
            symbols: Default::default(),
            sym_index: Default::default(),
            enums: vec![],
            kinds: Default::default(),
            zones: vec![],
            player_fields: vec![],
            global_fields: vec![],
            consts: vec![],
            events: vec![],
            procs: Default::default(),
            funcs: Default::default(),
            checks: Default::default(),
            triggers: Default::default(),
            modifiers: Default::default(),
            lasting: vec![],
            steps: vec![],
            replaces: Default::default(),
            always: vec![],
            proc_forbids: vec![],
            defs: Default::default(),
            def_index: Default::default(),
            blocks: vec![],
            lambdas: vec![],
            durations: vec![],
            default_duration: None,
            search_depth: None,
            setup: None,
            turn: None,
            trigger_order: None,
            picture: None,
            text_picture: None,
            played_in: vec![],
            hints: vec![],
            sides: vec![],
            deck_sections: vec![],
            deck_rules: vec![],
            decks: vec![],
            variants: Default::default(),
            active_variants: vec![],
            listened: vec![],
            objects_hook: ObjectHooks::default(),
            modifiers_by_field: SymMap::default(),
            blank_modifiers: vec![],
            defs_with_passives: vec![],
            passive_fields: vec![],
            modified_fields: vec![],
            derived: Default::default(),
            call_reads: Default::default(),
            always_reads: Vec::new(),
            fastened: (0, 0),
            builtin_events: BuiltinEvents::default(),
        };
        Checker {
            game,
            diags: vec![],
            member_of: Default::default(),
            enum_by_name: Default::default(),
            kind_by_name: Default::default(),
            zone_by_name: Default::default(),
            const_by_name: Default::default(),
            event_by_name: Default::default(),
            proc_by_name: Default::default(),
            proc_params: Default::default(),
            func_by_name: Default::default(),
            func_params: Default::default(),
            func_types: Default::default(),
            check_by_name: Default::default(),
            check_params: Default::default(),
            declared: Default::default(),
            loose_words: vec![],
            depth: 0,
            fast_forms: true,
        }
    }

    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(&i) = self.game.sym_index.get(s) {
            return i;
        }
        let i = self.game.symbols.len() as Sym;
        Arc::make_mut(&mut self.game.symbols).push(s.to_string());
        Arc::make_mut(&mut self.game.sym_index).insert(s.to_string(), i);
        i
    }

    /// Record a declaration; a second one with the same name in the same namespace is an error.
    fn declare(&mut self, ns: Ns, name: &ast::Name) -> bool {
        if let Some(first) = self.declared_in(ns, &name.node) {
            let at = self.game.location(first);
            self.error(
                Diag::error(name.span, format!("`{}` is declared twice", name.node))
                    .label("second declaration")
                    .help(format!("the first is at {at}; rename one, or use a variant to replace it"))
                    .related(first, "first declaration"),
            );
            return false;
        }
        self.declare_first(ns, name);
        true
    }

    /// Where `name` was first declared in namespace `ns`, if it was.
    fn declared_in(&self, ns: Ns, name: &str) -> Option<Span> {
        self.declared.get(ns as usize).and_then(|names| names.get(name)).copied()
    }

    /// Record where `name` is declared in `ns` (as its first declaration).
    fn declare_first(&mut self, ns: Ns, name: &ast::Name) {
        if let Some(names) = Arc::make_mut(&mut self.declared).get_mut(ns as usize) {
            names.insert(name.node.clone(), name.span);
        }
    }

    /// A type written in the source.
    pub fn resolve_type(&mut self, t: &ast::TypeExpr) -> Ty {
        match &t.kind {
            TypeKind::List(inner) => Ty::List(Box::new(self.resolve_type(inner))),
            TypeKind::Named { name, .. } => match name.as_str() {
                "int" => Ty::Int,
                "bool" => Ty::Bool,
                "text" => Ty::Text,
                "player" => Ty::Player,
                "object" => Ty::Obj(None),
                "def" => Ty::Def(None),
                "zone" => Ty::Zone,
                "amount" => Ty::Amount,
                "pose" => Ty::Pose,
                "proc" => Ty::Proc,
                "ability" => Ty::Ability,
                "any" => Ty::Any,
                other => {
                    if let Some(&e) = self.enum_by_name.get(other) {
                        return Ty::Sym(Some(e));
                    }
                    if let Some(&k) = self.kind_by_name.get(other) {
                        return Ty::Obj(Some(k));
                    }
                    let mut cands: Vec<String> =
                        ["int", "bool", "text", "player", "object", "def", "zone", "amount", "proc", "ability", "any"]
                            .map(String::from)
                            .to_vec();
                    cands.extend(self.enum_by_name.keys().cloned());
                    cands.extend(self.kind_by_name.keys().cloned());
                    let help =
                        did_you_mean(other, cands.iter().map(String::as_str)).or_else(|| Some(format!("types are: {}", cands.join(", "))));
                    self.error(Diag::error(t.span, format!("unknown type `{other}`")).label("not a type").maybe_help(help));
                    Ty::Any
                }
            },
        }
    }

    fn params(&mut self, ps: &[ast::Param]) -> Vec<(String, Ty)> {
        ps.iter().map(|p| (p.name.node.clone(), p.ty.as_ref().map(|t| self.resolve_type(t)).unwrap_or(Ty::Any))).collect()
    }

    // -----------------------------------------------------------------------------------------
    // The game header

    fn lower_game_header(&mut self, g: &ast::GameItem) {
        self.game.name = g.name.node.clone();
        let keys = [
            "title",
            "source",
            "players",
            "setup",
            "turn",
            "durations",
            "default_duration",
            "trigger_order",
            "deck_sections",
            "picture",
            "text_picture",
            "played_in",
            "search_depth",
        ];
        for p in &g.props {
            let words: Vec<String> = p
                .values
                .iter()
                .map(|v| match &v.node {
                    PropValue::Str(s) | PropValue::Word(s) => s.clone(),
                    PropValue::Int(i) => i.to_string(),
                    PropValue::To => "to".into(),
                })
                .collect();
            let first = words.first().cloned().unwrap_or_default();
            match p.key.node.as_str() {
                "title" => self.game.title = first,
                "source" => self.game.source = first,
                "players" => {
                    let nums: Vec<i64> =
                        p.values.iter().filter_map(|v| if let PropValue::Int(i) = v.node { Some(i) } else { None }).collect();
                    let ok = |n: &i64| (1..=64).contains(n);
                    match nums.as_slice() {
                        [n] if ok(n) => {
                            self.game.min_players = u8::try_from(*n).unwrap_or(2);
                            self.game.max_players = self.game.min_players;
                        }
                        [a, b] if ok(a) && ok(b) && a <= b => {
                            self.game.min_players = u8::try_from(*a).unwrap_or(2);
                            self.game.max_players = u8::try_from(*b).unwrap_or(2);
                        }
                        _ => self.error(
                            Diag::error(p.span, "write the player count as `players 2` or `players 2 to 6`")
                                .help("from 1 to 64 players, the smaller number first"),
                        ),
                    }
                }
                "durations" => self.game.durations = words,
                "deck_sections" => self.game.deck_sections = words,
                "search_depth" => match p.values.as_slice() {
                    [v] if matches!(v.node, PropValue::Int(n) if (0..=10_000).contains(&n)) => {
                        self.game.search_depth = if let PropValue::Int(n) = v.node { u32::try_from(n).ok() } else { None };
                    }
                    _ => self.error(
                        Diag::error(p.span, "write the search bot's playout depth as one whole number, like `search_depth 0`")
                            .help("from 0 (the hints score the state where the tree ends) to 10000 decisions"),
                    ),
                },
                "setup" | "turn" | "default_duration" | "trigger_order" | "picture" | "text_picture" | "played_in" => {}
                other => {
                    let help = did_you_mean(other, keys).or_else(|| Some(format!("a game header has: {}", keys.join(", "))));
                    self.error(
                        Diag::error(p.key.span, format!("unknown game property `{other}`")).label("not a game property").maybe_help(help),
                    );
                }
            }
        }
    }

    /// Header properties that name items: resolved after declarations.
    fn resolve_game_refs(&mut self, g: &ast::GameItem) {
        for p in g.props.iter().filter(|p| p.key.node == "played_in") {
            for v in &p.values {
                let (PropValue::Word(w) | PropValue::Str(w)) = &v.node else {
                    self.error(Diag::error(v.span, "`played_in` names zones, like `played_in alert, reserve`"));
                    continue;
                };
                match self.zone_by_name.get(w) {
                    Some(&z) => self.game.played_in.push(z),
                    None => {
                        let help = did_you_mean(w, self.zone_by_name.keys().map(String::as_str));
                        self.error(Diag::error(v.span, format!("unknown zone `{w}`")).label("not declared").maybe_help(help));
                    }
                }
            }
        }
        for p in &g.props {
            let Some(v) = p.values.first() else { continue };
            let word = match &v.node {
                PropValue::Word(w) | PropValue::Str(w) => w.clone(),
                _ => continue,
            };
            match p.key.node.as_str() {
                "setup" | "turn" => match self.proc_by_name.get(&word) {
                    Some(&pid) => {
                        if p.key.node == "setup" {
                            self.game.setup = Some(pid);
                        } else {
                            self.game.turn = Some(pid);
                        }
                    }
                    None => {
                        let help = did_you_mean(&word, self.proc_by_name.keys().map(String::as_str));
                        self.error(Diag::error(v.span, format!("unknown procedure `{word}`")).label("not declared").maybe_help(help));
                    }
                },
                "trigger_order" | "picture" | "text_picture" => match self.func_by_name.get(&word) {
                    Some(&f) if p.key.node == "picture" => self.game.picture = Some(f),
                    Some(&f) if p.key.node == "text_picture" => self.game.text_picture = Some(f),
                    Some(&f) => self.game.trigger_order = Some(f),
                    None => {
                        let help = did_you_mean(&word, self.func_by_name.keys().map(String::as_str));
                        self.error(Diag::error(v.span, format!("unknown function `{word}`")).label("not declared").maybe_help(help));
                    }
                },
                "default_duration" => match self.game.durations.iter().position(|d| *d == word) {
                    Some(i) => self.game.default_duration = Some(i),
                    None => {
                        let help = did_you_mean(&word, self.game.durations.iter().map(String::as_str));
                        self.error(Diag::error(v.span, format!("unknown duration `{word}`")).label("not in `durations`").maybe_help(help));
                    }
                },
                _ => {}
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Declarations: every name, before any body is lowered.

    fn add_event(&mut self, name: &str, params: Vec<(String, Ty)>) -> EventId {
        let id = self.game.events.len() as EventId;
        Arc::make_mut(&mut self.event_by_name).insert(name.to_string(), id);
        self.game.events.push(EventDef { name: name.to_string(), params });
        id
    }

    /// A field default or constant written as a literal expression.
    pub fn const_value(&mut self, e: &ast::Expr, want: &Ty) -> Value {
        let mut sc = scope::Scope::new();
        let cx = lower_expr::LowerContext { pure: true, ..Default::default() };
        let (x, t) = self.lower_expr(e, &mut sc, &cx);
        self.expect_ty(&t, want, e.span);
        match fold::literal_value(&x) {
            Some(v) => v,
            None => {
                self.error(Diag::error(e.span, "a default value must be written out, like `0`, `[]` or `none`"));
                Value::None
            }
        }
    }

    fn finish(&mut self) {
        let n = self.game.events.len();
        let mut listened = vec![false; n];
        for t in self.game.triggers.iter() {
            if let Some(l) = listened.get_mut(t.event as usize) {
                *l = true;
            }
        }
        for d in self.game.defs.iter() {
            for t in &d.triggers {
                if let Some(l) = listened.get_mut(t.event as usize) {
                    *l = true;
                }
            }
        }
        self.game.listened = listened;
        let mut hooks = ObjectHooks::default();
        for d in self.game.defs.iter() {
            for t in &d.triggers {
                set_flag(&mut hooks.events, t.event);
            }
            for h in d.permits.iter().chain(&d.forbids) {
                match h.target {
                    Hooked::Check(c) => set_flag(&mut hooks.checks, c),
                    Hooked::Proc(p) => set_flag(&mut hooks.procs, p),
                }
            }
            for r in &d.replaces {
                set_flag(&mut hooks.procs, r.target);
            }
        }
        self.game.objects_hook = hooks;
        let mut by_field: SymMap<Vec<usize>> = SymMap::default();
        let mut blanks = Vec::new();
        for (i, m) in self.game.modifiers.iter().enumerate() {
            if m.blank_except.is_some() {
                blanks.push(i);
            }
            for e in &m.effects {
                let v = by_field.entry(e.field).or_default();
                if !v.contains(&i) {
                    v.push(i);
                }
            }
        }
        self.game.modifiers_by_field = by_field;
        self.game.blank_modifiers = blanks;
        self.game.defs_with_passives = self
            .game
            .defs
            .iter()
            .map(|d| {
                !(d.modifiers.is_empty() && d.triggers.is_empty() && d.permits.is_empty() && d.forbids.is_empty() && d.replaces.is_empty())
            })
            .collect();
        let mut fields: Vec<Sym> =
            self.game.defs.iter().flat_map(|d| d.modifiers.iter().flat_map(|m| m.effects.iter().map(|e| e.field))).collect();
        fields.sort_unstable();
        fields.dedup();
        let mut modified = Vec::new();
        for &f in fields.iter().chain(self.game.modifiers_by_field.keys()) {
            set_flag(&mut modified, f);
        }
        self.game.modified_fields = modified;
        // What fields read (`reads::derived`) asks which fields objects' own modifiers change:
        // set first, so that one finish works out both.
        self.game.passive_fields = fields;
        let derived = reads::derived(&self.game);
        // What functions read depends on the functions and on what fields read: worked out again
        // only when either changed (a scenario file's cards can change the second).
        let same = derived == self.game.derived && self.game.call_reads.len() == self.game.funcs.len();
        self.game.derived = derived;
        // Which functions are remembered follows from the same two: worked out again with them.
        if !same {
            self.game.call_reads = std::sync::Arc::new(call_reads::call_reads(&self.game));
            self.mark_remembered();
        }
        self.game.always_reads = call_reads::always_reads(&self.game);
        // Last, after every analysis (which reads the slow forms): the fast tier's forms.
        if self.fast_forms {
            fast::fasten(&mut self.game);
        }
    }

    /// Mark the functions worth remembering: those that walk lists or zones, or call one that
    /// does, and those that read nothing of the state but call others or built-ins.
    fn mark_remembered(&mut self) {
        let walks = |x: &ExprIr| {
            matches!(
                x.kind,
                ExprKindIr::Quant { .. }
                    | ExprKindIr::Filter { .. }
                    | ExprKindIr::CountWhere { .. }
                    | ExprKindIr::FirstWhere { .. }
                    | ExprKindIr::Map { .. }
                    | ExprKindIr::Check(..)
            )
        };
        let mut remember: Vec<bool> = self.game.funcs.iter().map(|f| f.body.any(&mut |x| walks(x))).collect();
        loop {
            let mut changed = false;
            for (i, f) in self.game.funcs.iter().enumerate() {
                if remember.get(i) == Some(&false)
                    && f.body.any(&mut |x| matches!(x.kind, ExprKindIr::Call(g, _) if remember.get(g as usize) == Some(&true)))
                {
                    if let Some(r) = remember.get_mut(i) {
                        *r = true;
                    }
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // And functions that read nothing of the state but call others or built-ins: the same
        // arguments give the same value for the whole game (their callers are not marked for it).
        for (i, f) in self.game.funcs.iter().enumerate() {
            let pure = matches!(self.game.call_reads.get(i), Some(CallReads::Only(d)) if d.reads_nothing())
                && f.body.any(&mut |x| matches!(x.kind, ExprKindIr::Call(..) | ExprKindIr::Builtin(..)));
            if pure && let Some(r) = remember.get_mut(i) {
                *r = true;
            }
        }
        // Written only where it changes: the functions are shared with the game a scenario file
        // is checked against, and copying them all costs more than checking the scenarios.
        if self.game.funcs.iter().zip(&remember).any(|(f, r)| f.remember != *r) {
            for (f, r) in std::sync::Arc::make_mut(&mut self.game.funcs).iter_mut().zip(remember) {
                f.remember = r;
            }
        }
    }
}

/// Mark `id` in a table of flags by id, growing it as needed.
fn set_flag(table: &mut Vec<bool>, id: u32) {
    let i = id as usize;
    if table.len() <= i {
        table.resize(i + 1, false);
    }
    if let Some(m) = table.get_mut(i) {
        *m = true;
    }
}

/// Compile a game from parsed inputs with the given variants switched on.
pub fn compile(files: Vec<SourceFile>, inputs: &[Input], variants: &[String]) -> Result<Built, Vec<Diag>> {
    add_scenarios(compile_rules(files, inputs, variants, true), inputs)
}

fn placed(inputs: &[Input]) -> Vec<Placed<'_>> {
    let mut out = Vec::with_capacity(inputs.iter().map(|inp| inp.file.items.len()).sum());
    out.extend(inputs.iter().flat_map(|inp| inp.file.items.iter().map(|item| Placed { item: ItemRef::Written(item), role: inp.role })));
    out
}

/// The first part of `compile`: everything but the scenarios, with the diagnostics so far. The
/// scenarios come last and change nothing the rules were checked with, so scenario files that
/// hold only scenarios can be added to a copy of it (`add_scenarios`).
/// With `fast_forms`, the rules get the fast tier's forms (not when they are only checked).
pub fn compile_rules(files: Vec<SourceFile>, inputs: &[Input], variants: &[String], fast_forms: bool) -> Checker {
    with_suggestion_budget(SUGGESTION_BUDGET, || compile_rules_within(files, inputs, variants, fast_forms))
}

fn compile_rules_within(files: Vec<SourceFile>, inputs: &[Input], variants: &[String], fast_forms: bool) -> Checker {
    let mut c = Checker::new(files);
    c.fast_forms = fast_forms;
    let placed = placed(inputs);
    let games: Vec<&Spanned<Item>> = placed.iter().filter(|p| matches!(p.item.node, Item::Game(_))).map(|p| &*p.item).collect();
    match games.as_slice() {
        [] => c.error(Diag::error(Span::NONE, "no `game` item: a rulebook needs `game name { .. }`")),
        [g, rest @ ..] => {
            if let Item::Game(gi) = &g.node {
                c.lower_game_header(gi);
            }
            for r in rest {
                c.error(Diag::error(r.span, "a second `game` item").help("a rulebook has exactly one `game` header"));
            }
        }
    }
    let rule_items = variants::apply(&mut c, &placed, variants);
    c.declare_items(&rule_items);
    if let Some(g) = games.first()
        && let Item::Game(gi) = &g.node
    {
        c.resolve_game_refs(gi);
    }
    c.declare_objects(&rule_items);
    c.warn_loose_words();
    c.lower_items(&rule_items);
    c.lower_objects(&rule_items);
    c.warn_unheard_triggers();
    c.lower_deckbuilding(&rule_items);
    c.lower_decks(&rule_items);
    // Finished here too, so that a scenario file checked against these rules (`add_scenarios`
    // finishes again for what its scenarios add) leaves what is already worked out as it is.
    c.finish();
    c
}

/// The second part of `compile`: the scenarios of `inputs` lowered against the checked rules,
/// and the outcome. `inputs` are the inputs the rules were checked with, and any files of
/// scenarios only after them (their sources already in `c.game.files`).
pub fn add_scenarios(mut c: Checker, inputs: &[Input]) -> Result<Built, Vec<Diag>> {
    let scenarios = with_suggestion_budget(SUGGESTION_BUDGET, || scenario::lower_scenarios(&mut c, &placed(inputs)));
    c.finish();
    let (mut errors, mut warnings): (Vec<Diag>, Vec<Diag>) = c.diags.into_iter().partition(|d| d.is_error());
    // In the order of their lines, file by file (the files in the order they were read).
    arbiter_syntax::diag::in_line_order(&mut errors, |d| (d.span.file, d.span.start));
    arbiter_syntax::diag::in_line_order(&mut warnings, |d| (d.span.file, d.span.start));
    if errors.is_empty() {
        Ok(Built { game: c.game, scenarios, warnings })
    } else {
        let mut all = errors;
        all.extend(warnings);
        Err(all)
    }
}
