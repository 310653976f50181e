//! What each function's calls read of the state (`Game::call_reads`), so that a call's value can
//! be remembered from one version of the state to the next, under the numbers of what it read.
//!
//! The analysis follows values, not names. Naming a zone (`p.hand`, a zone of the game, a list
//! of zones) reads nothing; counting, walking, looking in, joining or flattening it reads it
//! whole: its instance goes into the call's reads, and the objects taken from it (and from the
//! piles beneath them) are *covered*: whatever changes about them gives the zone a new number
//! (`State::zone_version`), so reading them adds nothing. An object the call is given (or
//! `self`) is read through its own number (`Obj::version`), which covers the piles above it but
//! not the objects beneath it. A player's field or who is out, a global, and a field read through
//! modifiers that read globals each add their number. An object the analysis cannot place (one
//! held in a field or in a list, one beneath another) is read through its own number too, found
//! as the call runs (`CallDeps::seen`: the evaluator records every object whose facts the call
//! reads, and every object it passes to a function, `Evaluator::saw`). Anything else read — a
//! field other objects' modifiers change (`Reads::Everything`), a check, an ability, a lambda, a
//! text, a built-in not known to read only its arguments — makes the function
//! `CallReads::Everything`: remembered for one version of the state only, as before.
//! The analysis is conservative: what it does not know reads everything. Recursion reads
//! everything too.

use arbiter_ir::builtins::Builtin;
use arbiter_ir::code::{ExprIr, ExprKindIr, ObjProp, StmtKindIr};
use arbiter_ir::operators::BinaryOperator;
use arbiter_ir::value::Value;
use arbiter_ir::{CallDeps, CallReads, Game, GivenObject, Reads, Returned, SymMap, Ty, ZoneId, ZoneOwner};

/// What a value is, as far as reading through it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prov {
    /// A plain value (a number, a list the call was given, …): comparing or counting it reads
    /// nothing, but the objects in it are not covered (they are recorded as the call runs,
    /// `CallDeps::seen`). Never a zone: a value that may be one is `Unknown`.
    Plain,
    /// Anything, a zone perhaps: reading through it, iterating it or looking in it reads what the
    /// analysis cannot bound.
    Unknown,
    /// Objects (or zones, or lists of them) whose every fact the recorded reads cover.
    Covered,
    /// An object the call is given, or an object above it.
    Given(GivenObject),
    /// A player: whose zone instance `p.hand` is.
    Player(ZoneOwner),
    /// The zone the call is given as argument `i`.
    ZoneParam(u16),
    /// A definition, or a list of them: their printed values never change.
    Def,
    /// A zone named in the rules (an instance, by owner), not read yet: reading through it
    /// (its objects, its size) reads it.
    Zone(ZoneId, ZoneOwner),
    /// One of these zones (by id, any instance), not read yet: bit `z` for zone `z`, the last
    /// bit (`HIGH_ZONES`) for any zone past the 63rd (reading one of those reads everything).
    Zones(u64),
    /// A list of such zones, not read: its items are zones.
    ZoneList(u64),
}

/// The bit of `Prov::Zones` that stands for every zone past the 63rd.
const HIGH_ZONES: u64 = 1 << 63;

/// What each kind field's value may be, by field name (`Walk::field_value`).
fn field_provs(game: &Game) -> SymMap<Prov> {
    let mut fields: SymMap<Prov> = SymMap::default();
    for f in game.kinds.iter().flat_map(|k| k.fields.iter()) {
        let p = of_type(&f.ty);
        let e = fields.entry(f.name).or_insert(Prov::Plain);
        if p == Prov::Unknown {
            *e = Prov::Unknown;
        }
    }
    fields
}

/// What each `always` block reads (`Game::always_reads`, by block), when it is bounded and the
/// block is one the engine may leave unrun: its statements are only `let`, `if`, steps, `win`,
/// `lose`, `draw` and `log`, and what every expression in them reads (whether it runs or not) is
/// bounded. The engine leaves the blocks unrun, all together, while nothing they read has changed
/// since they last all ran and left no mark (no change of the state, no event: `Engine::advance`):
/// run again, they would take the same branches with the same values, and leave no mark again.
/// Their functions' reads (`game.call_reads`) are worked out first.
pub(super) fn always_reads(game: &Game) -> Vec<Option<Box<CallDeps>>> {
    let fields = field_provs(game);
    let done: Vec<State> = game.call_reads.iter().map(|r| State::Done(r.clone())).collect();
    game.always
        .iter()
        .map(|a| {
            let mut w = Walk { game, fields: &fields, done: &done, deps: CallDeps::default(), everything: false };
            let mut slots = vec![Prov::Unknown; usize::from(a.slots)];
            w.block(a.body, &mut slots, 0);
            // The engine runs a block's statements, which record no objects they read.
            (!w.everything && !w.deps.seen).then(|| Box::new(w.deps))
        })
        .collect()
}

/// The reads of every function of `game`, by function.
pub(super) fn call_reads(game: &Game) -> Vec<CallReads> {
    let mut done: Vec<State> = vec![State::Unknown; game.funcs.len()];
    let fields = field_provs(game);
    // Each function is summed up after the functions it calls (depth first, with a stack of
    // our own: a chain of functions each calling the next, thousands long, overflowed the
    // thread's stack when this recursed), so that summing it up looks its callees up. A callee
    // still being worked on is on a cycle: recursion reads everything, in whatever order.
    let callees: Vec<Vec<usize>> = game.funcs.iter().map(|func| func.body.callees().into_iter().map(|g| g as usize).collect()).collect();
    for root in 0..game.funcs.len() {
        if !matches!(done.get(root), Some(State::Unknown)) {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        set(&mut done, root, State::Working);
        while let Some((f, next)) = stack.last_mut() {
            let f = *f;
            if let Some(&g) = callees.get(f).and_then(|c| c.get(*next)) {
                *next += 1;
                if matches!(done.get(g), Some(State::Unknown)) {
                    set(&mut done, g, State::Working);
                    stack.push((g, 0));
                }
                continue;
            }
            stack.pop();
            let reads = sum_up(game, &fields, &done, f);
            set(&mut done, f, State::Done(reads));
        }
    }
    done.into_iter().map(|s| if let State::Done(r) = s { r } else { CallReads::Everything }).collect()
}

#[derive(Clone)]
enum State {
    Unknown,
    Working,
    Done(CallReads),
}

fn set(done: &mut [State], f: usize, state: State) {
    if let Some(s) = done.get_mut(f) {
        *s = state;
    }
}

/// What a call of `f` reads, as its caller sees it: its callees are summed up first, so that a
/// function not done yet is one on a cycle (or out of range), which reads everything.
fn summary(done: &[State], f: usize) -> CallReads {
    match done.get(f) {
        Some(State::Done(r)) => r.clone(),
        _ => CallReads::Everything,
    }
}

/// Sum up function `f`, its callees done (or on a cycle with it).
fn sum_up(game: &Game, fields: &SymMap<Prov>, done: &[State], f: usize) -> CallReads {
    let Some(func) = game.funcs.get(f) else { return CallReads::Everything };
    let mut slots: Vec<Prov> = func.params.iter().enumerate().map(|(i, (_, ty))| param(game, i, ty)).collect();
    let mut w = Walk { game, fields, done, deps: CallDeps::default(), everything: false };
    let result = w.walk(&func.body, &mut slots);
    if w.everything {
        return CallReads::Everything;
    }
    w.deps.result = match result {
        Prov::Covered => Returned::Covered,
        Prov::Given(GivenObject::Param(i)) => Returned::Param(i),
        Prov::Def => Returned::Def,
        Prov::Zone(z, o) => Returned::Zone(z, o),
        Prov::ZoneParam(i) => Returned::Zone(0, ZoneOwner::ZoneParam(i)),
        Prov::Zones(m) => Returned::Zones(m),
        Prov::ZoneList(m) => Returned::ZoneList(m),
        Prov::Plain | Prov::Player(_) => Returned::Plain,
        _ => Returned::Opaque,
    };
    CallReads::Only(Box::new(w.deps))
}

/// What a parameter of type `ty` is.
fn param(game: &Game, i: usize, ty: &Ty) -> Prov {
    let Ok(i) = u16::try_from(i) else { return Prov::Unknown };
    match ty {
        // A list of zones given: any of the game's zones, not read until walked.
        Ty::List(inner) if **inner == Ty::Zone => Prov::ZoneList(
            (0..game.zones.len()).filter_map(|z| zones_of(Prov::Zone(u16::try_from(z).ok()?, ZoneOwner::Any))).fold(0, |m, b| m | b),
        ),
        Ty::Obj(_) => Prov::Given(GivenObject::Param(i)),
        Ty::Player => Prov::Player(ZoneOwner::Param(i)),
        Ty::Zone => Prov::ZoneParam(i),
        Ty::Def(_) => Prov::Def,
        // A list given is plain unless its items may be zones (`of_type`).
        Ty::List(_) => of_type(ty),
        Ty::Bool | Ty::Int | Ty::Text | Ty::Sym(_) | Ty::Amount | Ty::Pose | Ty::Nothing => Prov::Plain,
        Ty::Any | Ty::Proc | Ty::Ability | Ty::Lambda => Prov::Unknown,
    }
}

struct Walk<'g> {
    game: &'g Game,
    fields: &'g SymMap<Prov>,
    done: &'g [State],
    deps: CallDeps,
    everything: bool,
}

impl Walk<'_> {
    fn zone(&mut self, zone: arbiter_ir::ZoneId, owner: ZoneOwner) {
        // A shared zone has one instance; a zone given names its own.
        let shared = self.game.zone(zone).is_none_or(|d| !d.per_player);
        let owner = if shared && !matches!(owner, ZoneOwner::ZoneParam(_)) { ZoneOwner::Any } else { owner };
        if !self.deps.zones.contains(&(zone, owner)) {
            self.deps.zones.push((zone, owner));
        }
    }

    fn object(&mut self, g: GivenObject) {
        if !self.deps.objects.contains(&g) {
            self.deps.objects.push(g);
        }
    }

    /// A zone value read through: the zones it may be are read.
    fn record(&mut self, p: Prov) {
        match p {
            Prov::Zone(z, o) => self.zone(z, o),
            // Zones past the 63rd share one bit, which cannot say which is read.
            Prov::Zones(m) | Prov::ZoneList(m) if m & HIGH_ZONES != 0 => self.everything = true,
            Prov::Zones(m) | Prov::ZoneList(m) => {
                for z in 0..63u16 {
                    if m & (1 << z) != 0 {
                        self.zone(z, ZoneOwner::Any);
                    }
                }
            }
            Prov::ZoneParam(i) => self.zone(0, ZoneOwner::ZoneParam(i)),
            _ => {}
        }
    }

    /// An object read: its own facts must be covered.
    fn read_object(&mut self, p: Prov) {
        match p {
            Prov::Covered => {}
            Prov::Given(g) => self.object(g),
            Prov::Zone(..) | Prov::Zones(_) => self.record(p),
            // An object the analysis cannot place: recorded as the call runs.
            Prov::Plain => self.deps.seen = true,
            _ => self.everything = true,
        }
    }

    /// A list (or zone) read item by item: what its items are.
    fn items(&mut self, p: Prov) -> Prov {
        match p {
            Prov::Covered => Prov::Covered,
            Prov::ZoneParam(_) | Prov::Zone(..) | Prov::Zones(_) => {
                self.record(p);
                Prov::Covered
            }
            // The items of a list of zones are zones, not read yet.
            Prov::ZoneList(m) => Prov::Zones(m),
            // The items of definitions are definitions.
            Prov::Def => Prov::Def,
            Prov::Plain | Prov::Player(_) | Prov::Given(_) => Prov::Plain,
            Prov::Unknown => {
                self.everything = true;
                Prov::Plain
            }
        }
    }

    /// A field of an object read through the modifiers.
    fn field(&mut self, f: arbiter_ir::Sym) {
        match self.game.derived.field(f) {
            Reads::Everything => self.everything = true,
            Reads::Local { globals } => self.deps.derived |= globals,
        }
    }

    /// What a kind field's value is: unknown if some kind's field of that name may hold a zone.
    fn field_value(&self, f: arbiter_ir::Sym) -> Prov {
        self.fields.get(&f).copied().unwrap_or(Prov::Unknown)
    }

    /// The statements of an `always` block (see `always_reads`): what their expressions read;
    /// any other statement reads everything.
    fn block(&mut self, b: arbiter_ir::BlockId, slots: &mut Vec<Prov>, depth: u32) {
        if depth > 32 {
            self.everything = true;
            return;
        }
        for s in self.game.block(b) {
            if self.everything {
                return;
            }
            match &s.kind {
                StmtKindIr::Let { slot, value } => {
                    let p = self.walk(value, slots);
                    bind(slots, *slot, p);
                }
                StmtKindIr::If { arms, otherwise } => {
                    for (cond, body) in arms {
                        self.walk(cond, slots);
                        self.block(*body, slots, depth + 1);
                    }
                    if let Some(o) = otherwise {
                        self.block(*o, slots, depth + 1);
                    }
                }
                StmtKindIr::Block(body) => self.block(*body, slots, depth + 1),
                // What they do depends on what they are given (`lose` of no one leaves no mark):
                // their expressions are read too.
                StmtKindIr::Win { who, reason } | StmtKindIr::Lose { who, reason } => {
                    self.walk(who, slots);
                    self.text(reason, slots);
                }
                StmtKindIr::Draw(reason) | StmtKindIr::Log(reason) => self.text(reason, slots),
                _ => self.everything = true,
            }
        }
    }

    /// The expressions of a text written with `{..}`.
    fn text(&mut self, t: &[arbiter_ir::code::TextPiece], slots: &mut Vec<Prov>) {
        for p in t {
            if let arbiter_ir::code::TextPiece::Expr(x) = p {
                self.walk(x, slots);
            }
        }
    }

    fn walk(&mut self, e: &ExprIr, slots: &mut Vec<Prov>) -> Prov {
        if self.everything {
            return Prov::Unknown;
        }
        // A fast form reads what its slow one does (every analysis reads the slow form).
        let e = e.plain();
        match &e.kind {
            ExprKindIr::Lit(Value::Zone(z)) => Prov::Zone(z.zone, z.owner.map_or(ZoneOwner::Any, ZoneOwner::Seat)),
            ExprKindIr::Lit(Value::Player(s)) => Prov::Player(ZoneOwner::Seat(*s)),
            ExprKindIr::Lit(Value::Def(_)) => Prov::Def,
            ExprKindIr::Lit(v) => literal(v),
            ExprKindIr::Local(s) => slots.get(usize::from(*s)).copied().unwrap_or(Prov::Unknown),
            ExprKindIr::Global(g) => {
                self.deps.globals.add(usize::from(*g));
                self.game.global_fields.get(usize::from(*g)).map_or(Prov::Unknown, |v| of_type(&v.ty))
            }
            ExprKindIr::Const(c) => match self.game.consts.get(usize::from(*c)).map(|c| &c.value.kind) {
                Some(ExprKindIr::Lit(v)) if !matches!(v, Value::Zone(_)) => literal(v),
                _ => Prov::Unknown,
            },
            ExprKindIr::You => Prov::Player(ZoneOwner::You),
            ExprKindIr::SelfObj => Prov::Given(GivenObject::SelfObj),
            ExprKindIr::PlayerField(p, i) => {
                self.walk(p, slots);
                self.deps.players.add(usize::from(*i));
                self.game.player_fields.get(usize::from(*i)).map_or(Prov::Unknown, |v| of_type(&v.ty))
            }
            ExprKindIr::PlayerZone(p, z) => {
                let owner = match self.walk(p, slots) {
                    Prov::Player(o) => o,
                    _ => ZoneOwner::Any,
                };
                Prov::Zone(*z, owner)
            }
            ExprKindIr::ObjField(..) | ExprKindIr::Dynamic(..) | ExprKindIr::ObjProp(..) | ExprKindIr::DefField(..) => {
                self.object_read(e, slots)
            }
            ExprKindIr::ZoneOwner(x) => {
                self.walk(x, slots);
                Prov::Player(ZoneOwner::Any)
            }
            ExprKindIr::Unary(_, x) => {
                self.walk(x, slots);
                Prov::Plain
            }
            ExprKindIr::Binary(op, l, r) => self.binary(*op, l, r, slots),
            ExprKindIr::If(c, t, o) => {
                self.walk(c, slots);
                let a = self.walk(t, slots);
                let b = self.walk(o, slots);
                join(a, b)
            }
            ExprKindIr::Call(f, args) => self.call(*f as usize, args, slots),
            ExprKindIr::Inline { args, lets, body, .. } => {
                let given: Vec<Prov> = args.iter().map(|a| self.walk(a, slots)).collect();
                for (slot, i) in lets {
                    bind(slots, *slot, given.get(usize::from(*i)).copied().unwrap_or(Prov::Unknown));
                }
                self.walk(body, slots)
            }
            ExprKindIr::Builtin(b, args) => self.builtin(*b, args, slots),
            ExprKindIr::Quant { .. }
            | ExprKindIr::CountWhere { .. }
            | ExprKindIr::Filter { .. }
            | ExprKindIr::FirstWhere { .. }
            | ExprKindIr::Map { .. } => self.comprehension(e, slots),
            ExprKindIr::List(xs) => {
                let mut out: Option<Prov> = None;
                for x in xs {
                    let p = widen(self.walk(x, slots));
                    out = Some(out.map_or(p, |acc| join(acc, p)));
                }
                out.unwrap_or(Prov::Covered)
            }
            ExprKindIr::Str(_)
            | ExprKindIr::AbilityLabel(_)
            | ExprKindIr::AbilitySource(_)
            | ExprKindIr::Check(..)
            | ExprKindIr::CanProc(..)
            | ExprKindIr::ProcRef(_)
            | ExprKindIr::Lambda(_) => {
                self.everything = true;
                Prov::Unknown
            }
            // Not met: `plain` above gave the slow form.
            ExprKindIr::Fast(f) => self.walk(&f.slow, slots),
        }
    }

    /// A field or property of an object (or of a player, a definition) read.
    fn object_read(&mut self, e: &ExprIr, slots: &mut Vec<Prov>) -> Prov {
        match &e.kind {
            ExprKindIr::ObjField(x, f) => {
                let p = self.walk(x, slots);
                self.read_object(p);
                self.field(*f);
                self.field_value(*f)
            }
            ExprKindIr::Dynamic(x, f) => {
                match self.walk(x, slots) {
                    // A player's field by name (or a zone of theirs, which reads nothing).
                    Prov::Player(_) => match self.game.player_fields.iter().position(|v| v.name == self.game.sym(*f)) {
                        Some(i) => self.deps.players.add(i),
                        None => self.deps.players.add_any(),
                    },
                    p => {
                        // A value the checker knows nothing of may be a player: its field of
                        // that name is read too.
                        if p == Prov::Plain {
                            match self.game.player_fields.iter().position(|v| v.name == self.game.sym(*f)) {
                                Some(i) => self.deps.players.add(i),
                                None => self.deps.players.add_any(),
                            }
                        }
                        self.read_object(p);
                        self.field(*f);
                    }
                }
                Prov::Unknown
            }
            ExprKindIr::ObjProp(x, prop) => {
                let p = self.walk(x, slots);
                self.read_object(p);
                match prop {
                    ObjProp::Under if p == Prov::Covered => Prov::Covered,
                    ObjProp::Above | ObjProp::Top => p,
                    ObjProp::Owner | ObjProp::Controller => Prov::Player(ZoneOwner::Any),
                    ObjProp::Zone => Prov::Unknown,
                    ObjProp::Def => Prov::Def,
                    ObjProp::Under | ObjProp::FaceUp | ObjProp::Name | ObjProp::Id => Prov::Plain,
                }
            }
            // A definition's printed value; given an object instead, its field as `ObjField`
            // reads it.
            ExprKindIr::DefField(x, f) => {
                let p = self.walk(x, slots);
                // A printed value never changes, but may name a zone (read when walked).
                if p == Prov::Def {
                    return self.field_value(*f);
                }
                self.read_object(p);
                self.field(*f);
                self.field_value(*f)
            }
            _ => {
                self.everything = true;
                Prov::Unknown
            }
        }
    }

    /// A quantifier or comprehension: its items bound to its name while its condition (and
    /// value) are walked.
    fn comprehension(&mut self, e: &ExprIr, slots: &mut Vec<Prov>) -> Prov {
        match &e.kind {
            ExprKindIr::Quant { slot, list, cond, .. } | ExprKindIr::CountWhere { slot, list, cond, .. } => {
                let items = self.walk_items(list, slots);
                bind(slots, *slot, items);
                self.walk(cond, slots);
                Prov::Plain
            }
            ExprKindIr::Filter { slot, list, cond, .. } | ExprKindIr::FirstWhere { slot, list, cond, .. } => {
                let items = self.walk_items(list, slots);
                bind(slots, *slot, items);
                self.walk(cond, slots);
                items
            }
            ExprKindIr::Map { slot, list, expr, cond } => {
                let items = self.walk_items(list, slots);
                bind(slots, *slot, items);
                if let Some(c) = cond {
                    self.walk(c, slots);
                }
                let p = self.walk(expr, slots);
                widen(p)
            }
            _ => {
                self.everything = true;
                Prov::Unknown
            }
        }
    }

    fn walk_items(&mut self, list: &ExprIr, slots: &mut Vec<Prov>) -> Prov {
        let p = self.walk(list, slots);
        self.items(p)
    }

    fn binary(&mut self, op: BinaryOperator, l: &ExprIr, r: &ExprIr, slots: &mut Vec<Prov>) -> Prov {
        let (a, b) = (self.walk(l, slots), self.walk(r, slots));
        match op {
            // Looking in a zone reads it; looking in a list compares values.
            BinaryOperator::In | BinaryOperator::NotIn => {
                self.items(b);
                Prov::Plain
            }
            BinaryOperator::Has => {
                self.items(a);
                Prov::Plain
            }
            // `+` and `-` join lists (and zones, read whole) or add numbers.
            BinaryOperator::Add | BinaryOperator::Sub => self.joined(a, b),
            _ => Prov::Plain,
        }
    }

    /// Two lists (or zones, read whole) joined (`+`, `-`, `concat`), or two numbers added.
    fn joined(&mut self, a: Prov, b: Prov) -> Prov {
        match (a, b) {
            (Prov::ZoneList(x), Prov::ZoneList(y)) => Prov::ZoneList(x | y),
            (Prov::ZoneList(_), _) | (_, Prov::ZoneList(_)) | (Prov::Unknown, _) | (_, Prov::Unknown) => {
                self.everything = true;
                Prov::Unknown
            }
            _ => {
                let (a, b) = (self.items(a), self.items(b));
                if a == Prov::Covered && b == Prov::Covered { Prov::Covered } else { Prov::Plain }
            }
        }
    }

    /// A call of function `f`: its reads, with its parameters put in terms of the caller's.
    fn call(&mut self, f: usize, args: &[ExprIr], slots: &mut Vec<Prov>) -> Prov {
        let given: Vec<Prov> = args.iter().map(|a| self.walk(a, slots)).collect();
        let arg = |i: u16| given.get(usize::from(i)).copied().unwrap_or(Prov::Unknown);
        let CallReads::Only(d) = summary(self.done, f) else {
            self.everything = true;
            return Prov::Unknown;
        };
        for &(zone, owner) in &d.zones {
            match owner {
                ZoneOwner::Param(i) => match arg(i) {
                    Prov::Player(o) => self.zone(zone, o),
                    _ => self.zone(zone, ZoneOwner::Any),
                },
                ZoneOwner::ZoneParam(i) => match arg(i) {
                    p @ (Prov::Zone(..) | Prov::Zones(_) | Prov::ZoneList(_) | Prov::ZoneParam(_)) => self.record(p),
                    Prov::Covered => {}
                    _ => self.everything = true,
                },
                ZoneOwner::You | ZoneOwner::Seat(_) | ZoneOwner::Any => self.zone(zone, owner),
            }
        }
        for &g in &d.objects {
            match g {
                GivenObject::Param(i) => self.read_object(arg(i)),
                GivenObject::SelfObj => self.object(g),
            }
        }
        self.deps.globals |= d.globals;
        self.deps.players |= d.players;
        self.deps.derived |= d.derived;
        self.deps.seen |= d.seen;
        match d.result {
            Returned::Covered => Prov::Covered,
            Returned::Param(i) => match arg(i) {
                p @ (Prov::Covered | Prov::Given(_)) => p,
                _ => Prov::Unknown,
            },
            Returned::Plain => Prov::Plain,
            Returned::Def => Prov::Def,
            Returned::Zone(z, owner) => match owner {
                ZoneOwner::Param(i) => match arg(i) {
                    Prov::Player(o) => Prov::Zone(z, o),
                    _ => Prov::Zone(z, ZoneOwner::Any),
                },
                ZoneOwner::ZoneParam(i) => match arg(i) {
                    p @ (Prov::Zone(..) | Prov::Zones(_) | Prov::ZoneParam(_) | Prov::Covered) => p,
                    _ => Prov::Unknown,
                },
                ZoneOwner::You | ZoneOwner::Seat(_) | ZoneOwner::Any => Prov::Zone(z, owner),
            },
            Returned::Zones(m) => Prov::Zones(m),
            Returned::ZoneList(m) => Prov::ZoneList(m),
            Returned::Opaque => Prov::Unknown,
        }
    }

    fn builtin(&mut self, b: Builtin, args: &[ExprIr], slots: &mut Vec<Prov>) -> Prov {
        let given: Vec<Prov> = args.iter().map(|a| self.walk(a, slots)).collect();
        let first = given.first().copied().unwrap_or(Prov::Plain);
        match b {
            // Only their arguments' values (a zone given is read whole).
            Builtin::Qty
            | Builtin::AmountOf
            | Builtin::Kinds
            | Builtin::QtyOf
            | Builtin::Mm
            | Builtin::Cm
            | Builtin::Deg
            | Builtin::Point
            | Builtin::PoseOf
            | Builtin::PoseX
            | Builtin::PoseY
            | Builtin::HeadingOf
            | Builtin::Step
            | Builtin::Forward
            | Builtin::Turned
            | Builtin::Place
            | Builtin::Distance
            | Builtin::Bearing
            | Builtin::AngleDiff
            | Builtin::PointIn
            | Builtin::Overlaps
            | Builtin::Crosses
            | Builtin::FirstEdge
            | Builtin::Within
            | Builtin::InArc
            | Builtin::NearestInArc
            | Builtin::PointsInArc
            | Builtin::DistanceTo
            | Builtin::ShapeDistance
            | Builtin::Regular
            | Builtin::Rect
            | Builtin::Count
            | Builtin::Sum
            | Builtin::Min
            | Builtin::Max
            | Builtin::Abs
            | Builtin::Clamp
            | Builtin::Range
            | Builtin::Seat => {
                for p in given {
                    self.items(p);
                }
                Prov::Plain
            }
            // An item, or some items, of their first argument.
            Builtin::First
            | Builtin::Last
            | Builtin::Top
            | Builtin::Bottom
            | Builtin::Reverse
            | Builtin::Distinct
            | Builtin::Rotate
            | Builtin::Take
            | Builtin::Drop
            | Builtin::Nth
            | Builtin::Without => {
                for p in given.iter().skip(1) {
                    self.items(*p);
                }
                self.items(first)
            }
            // The items of the items: a list of zones flattened is their objects.
            Builtin::Flatten => {
                let inner = self.items(first);
                self.items(inner)
            }
            // Where a value is in a list: the list is read, the value only compared.
            Builtin::IndexOf => {
                self.items(first);
                Prov::Plain
            }
            // The definitions of a kind: printed, never changed.
            Builtin::Definitions => Prov::Def,
            Builtin::Concat => self.joined(first, given.get(1).copied().unwrap_or(Prov::Plain)),
            // Who is out, and the seats.
            Builtin::Players
            | Builtin::AllPlayers
            | Builtin::Opponents
            | Builtin::NextPlayer
            | Builtin::PlayerCount
            | Builtin::IsOut
            | Builtin::TurnOrder => {
                self.deps.players.add_out();
                Prov::Plain
            }
            // Abilities, decklists, lambdas, objects by kind, texts (which name objects): and
            // any built-in added later, until it is known to read only its arguments.
            _ => {
                self.everything = true;
                Prov::Unknown
            }
        }
    }
}

/// What a value of type `ty` read from the state is: a player's zones are the player's; a value
/// that may be a zone is unknown; any other is plain (an object in it is not covered).
fn of_type(ty: &Ty) -> Prov {
    match ty {
        Ty::Zone | Ty::Any | Ty::Proc | Ty::Ability | Ty::Lambda => Prov::Unknown,
        Ty::List(inner) => match of_type(inner) {
            Prov::Unknown => Prov::Unknown,
            _ => Prov::Plain,
        },
        Ty::Player => Prov::Player(ZoneOwner::Any),
        Ty::Def(_) => Prov::Def,
        _ => Prov::Plain,
    }
}

/// A value written in the rules (or folded from them): unknown if it holds a zone.
fn literal(v: &Value) -> Prov {
    let zone_bit = |x: &Value| match x {
        Value::Zone(z) => zones_of(Prov::Zone(z.zone, ZoneOwner::Any)),
        _ => None,
    };
    match v {
        Value::Zone(_) => Prov::Unknown,
        // A list of zones written in the rules (folded into one value): not read.
        Value::List(items) if !items.is_empty() && items.iter().all(|x| zone_bit(x).is_some()) => {
            Prov::ZoneList(items.iter().filter_map(zone_bit).fold(0, |m, b| m | b))
        }
        Value::List(items) if items.iter().any(|x| literal(x) == Prov::Unknown) => Prov::Unknown,
        _ => Prov::Plain,
    }
}

fn bind(slots: &mut Vec<Prov>, slot: arbiter_ir::Slot, p: Prov) {
    let s = usize::from(slot);
    if slots.len() <= s {
        slots.resize(s + 1, Prov::Unknown);
    }
    if let Some(x) = slots.get_mut(s) {
        *x = p;
    }
}

/// The zones a zone value may be, as a mask of zone ids (none past the 64th).
fn zones_of(p: Prov) -> Option<u64> {
    match p {
        Prov::Zone(z, _) => Some(1 << z.min(63)),
        Prov::Zones(m) => Some(m),
        _ => None,
    }
}

/// A value that is one of two. Zones not read yet stay so (reading the value reads them all);
/// objects covered beside them need nothing more.
fn join(a: Prov, b: Prov) -> Prov {
    let zoned = |p: Prov| matches!(p, Prov::Zone(..) | Prov::Zones(_) | Prov::ZoneList(_) | Prov::ZoneParam(_));
    if a == b {
        return a;
    }
    if let (Prov::ZoneList(x), Prov::ZoneList(y)) = (a, b) {
        return Prov::ZoneList(x | y);
    }
    match (zones_of(a), zones_of(b)) {
        (Some(x), Some(y)) => Prov::Zones(x | y),
        (Some(x), None) if b == Prov::Covered => Prov::Zones(x),
        (None, Some(y)) if a == Prov::Covered => Prov::Zones(y),
        _ if a == Prov::Unknown || b == Prov::Unknown || zoned(a) || zoned(b) => Prov::Unknown,
        _ => Prov::Plain,
    }
}

/// What a value is inside a list: objects given or players are plain there.
fn widen(p: Prov) -> Prov {
    match p {
        Prov::Covered | Prov::Unknown | Prov::ZoneList(_) => p,
        Prov::Zone(..) | Prov::Zones(_) => zones_of(p).map_or(Prov::Unknown, Prov::ZoneList),
        Prov::ZoneParam(_) => Prov::Unknown,
        Prov::Def => Prov::Def,
        Prov::Plain | Prov::Given(_) | Prov::Player(_) => Prov::Plain,
    }
}
