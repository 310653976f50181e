//! The fast tier's forms made (see `arbiter_ir::fast`): after every analysis of the rules, each
//! function body and each statement's expression is looked through, and the largest expressions
//! the fast tier covers, when they take at least `WORTH` steps or walk, are given a fast form
//! beside their own (a function's whole body whenever it is covered: fast forms call it). An
//! expression is covered when every node in it is one the fast tier works out exactly as the
//! walker does: leaves, `you` and `self`, player fields and zones, object fields no modifier can
//! change and the properties that are scalars, `not`, `-`, `and`, `or`, comparisons, arithmetic,
//! `if`, `nth`, inlined calls, calls of functions no evaluation remembers whose bodies are covered
//! (`Cover`), and `any`, `no`, `count` and `first` walks that look nothing up (`Lookup`); and, as
//! a whole form only (its value a list, which no node of a form takes), a filter `[x in l where
//! c]` that looks nothing up. A call of a remembered function, a text, any other list built, a
//! walk looked up by a key: none is covered (their own parts may be). Nothing here changes what a
//! game does: the forms are made the same way whatever runs them.

use arbiter_ir::builtins::Builtin;
use arbiter_ir::fast::{Code, Fx, Items, Leaf, Op, REGISTERS, Reg, Scalar, WALKS, Walk};
use arbiter_ir::operators::{BinaryOperator, UnaryOperator};
use arbiter_ir::*;
use std::sync::Arc;

/// The fewest steps an expression must take for a fast form to be worth trying: the walker is as
/// quick on fewer (`u.owner == p`, `a + b.n`: measured, 2026-11-30).
const WORTH: u32 = 4;

/// Give the function bodies and statement expressions of `game` their fast forms: those made
/// since the last time (the rules are finished again when a scenario file adds to them). Written
/// only where something changes: the functions and blocks are shared with the games scenario
/// files are checked against.
pub fn fasten(game: &mut Game) {
    let (funcs_done, blocks_done) = game.fastened;
    let cover = Cover::of(game);
    let funcs: Vec<Option<ExprIr>> = game
        .funcs
        .iter()
        .enumerate()
        .skip(funcs_done)
        .map(|(i, f)| fastened_body(&f.body, &cover, FuncId::try_from(i).unwrap_or(FuncId::MAX)))
        .collect();
    if funcs.iter().any(Option::is_some) {
        for (f, new) in Arc::make_mut(&mut game.funcs).iter_mut().skip(funcs_done).zip(funcs) {
            if let Some(body) = new {
                f.body = body;
            }
        }
    }
    for block in game.blocks.iter_mut().skip(blocks_done) {
        // A statement is copied only when it gains a fast form.
        if !block.iter().any(|s| stmt_exprs(s).iter().any(|e| gains(e, &cover))) {
            continue;
        }
        let mut stmts: Vec<StmtIr> = block.to_vec();
        for s in &mut stmts {
            fasten_stmt(s, &cover);
        }
        *block = stmts.into();
    }
    game.fastened = (game.funcs.len(), game.blocks.len());
}

/// Whether `e`, or an expression inside it, would gain a fast form (an over-estimate: a walk's
/// list counts).
fn gains(e: &ExprIr, cover: &Cover) -> bool {
    !matches!(e.kind, ExprKindIr::Fast(_)) && e.any(&mut |x| compile_whole(x, cover).is_some_and(|t| t.least_steps() >= WORTH || t.walks()))
}

/// The expressions of a statement that `fasten_stmt` looks at.
fn stmt_exprs(s: &StmtIr) -> Vec<&ExprIr> {
    match &s.kind {
        StmtKindIr::Let { value, .. } | StmtKindIr::Assign { value, .. } | StmtKindIr::Return(Some(value)) => vec![value],
        StmtKindIr::If { arms, .. } => arms.iter().map(|(c, _)| c).collect(),
        StmtKindIr::While { cond, .. } => vec![cond],
        StmtKindIr::Choose { choose, .. } => match &choose.form {
            ChooseFormIr::From { list, .. } => vec![list],
            ChooseFormIr::Branches(_) => vec![],
        },
        _ => vec![],
    }
}

/// What a game's fast forms may do. Call the functions no evaluation remembers whose bodies are
/// covered whole, given that the functions they call are (worked out from all of them, dropping
/// those that call one dropped, until none is). Read objects' fields where no modifier can
/// change them: none changes the field, and no modifier blanks objects. (The running game
/// checks both again: a scenario file's cards may add modifiers.)
pub struct Cover {
    calls: Vec<bool>,
    plain: Vec<bool>,
}

impl Cover {
    fn of(game: &Game) -> Cover {
        let blanks = !game.blank_modifiers.is_empty();
        let plain = (0..game.symbols.len()).map(|f| !blanks && !game.modified_fields.get(f).copied().unwrap_or(false)).collect();
        // First as if every function no evaluation remembers could be called: a body covered
        // then is covered in the end unless a function it calls is not.
        let mut cover = Cover { calls: game.funcs.iter().map(|f| !f.remember).collect(), plain };
        cover.calls = game.funcs.iter().zip(&cover.calls).map(|(f, &c)| c && compile(&f.body, &cover).is_some()).collect();
        let callees: Vec<Vec<FuncId>> = game.funcs.iter().map(|f| f.body.callees()).collect();
        loop {
            let now: Vec<bool> = cover.calls.iter().zip(&callees).map(|(&c, gs)| c && gs.iter().all(|g| cover.may_call(*g))).collect();
            if now == cover.calls {
                return cover;
            }
            cover.calls = now;
        }
    }

    fn may_call(&self, f: FuncId) -> bool {
        self.calls.get(f as usize).copied().unwrap_or(false)
    }

    fn may_read(&self, f: Sym) -> bool {
        self.plain.get(f as usize).copied().unwrap_or(false)
    }
}

/// A function's body with its fast forms, if it gains any: the whole body when it is covered
/// (whatever its steps: a fast form calling it runs it), else the parts of it.
fn fastened_body(body: &ExprIr, cover: &Cover, f: FuncId) -> Option<ExprIr> {
    if matches!(body.kind, ExprKindIr::Fast(_)) {
        return None;
    }
    if cover.may_call(f) {
        let mut e = body.clone();
        return wrap(&mut e, cover, 1).then_some(e);
    }
    if !gains(body, cover) {
        return None;
    }
    let mut e = body.clone();
    fasten_expr(&mut e, cover).then_some(e)
}

fn fasten_stmt(s: &mut StmtIr, cover: &Cover) -> bool {
    match &mut s.kind {
        StmtKindIr::Let { value, .. } | StmtKindIr::Assign { value, .. } => fasten_expr(value, cover),
        StmtKindIr::Return(Some(value)) => fasten_expr(value, cover),
        StmtKindIr::If { arms, .. } => arms.iter_mut().fold(false, |c, (cond, _)| fasten_expr(cond, cover) | c),
        StmtKindIr::While { cond, .. } => fasten_expr(cond, cover),
        StmtKindIr::Choose { choose, .. } => match &mut choose.form {
            ChooseFormIr::From { list, .. } => fasten_expr(list, cover),
            ChooseFormIr::Branches(_) => false,
        },
        _ => false,
    }
}

/// Give `e` a fast form if it is covered and worth it, else look inside it. Whether anything
/// changed.
fn fasten_expr(e: &mut ExprIr, cover: &Cover) -> bool {
    if matches!(e.kind, ExprKindIr::Fast(_)) {
        return false;
    }
    wrap(e, cover, WORTH) || fasten_inside(e, cover)
}

/// Give `e` its fast form, if it is covered and takes at least `least` steps (or walks).
fn wrap(e: &mut ExprIr, cover: &Cover, least: u32) -> bool {
    let Some(tree) = compile_whole(e, cover) else { return false };
    if tree.least_steps() < least && !tree.walks() {
        return false;
    }
    let Some(code) = lower(&tree) else { return false };
    let slow = std::mem::replace(e, ExprIr { kind: ExprKindIr::Lit(arbiter_ir::value::Value::None), span: e.span });
    *e = ExprIr { span: slow.span, kind: ExprKindIr::Fast(Box::new(FastExpr { code, slow })) };
    true
}

/// Look inside `e` for expressions to give fast forms, leaving `e` itself as it is.
fn fasten_inside(e: &mut ExprIr, cover: &Cover) -> bool {
    let mut changed = false;
    e.children_mut(&mut |x: &mut ExprIr| changed |= fasten_expr(x, cover));
    changed
}

/// `compile`, and a filter too (`[x in l where c]`, looking nothing up), as a whole fast form
/// only: its value is a list, which no other node takes.
fn compile_whole(e: &ExprIr, cover: &Cover) -> Option<Fx> {
    match &e.kind {
        ExprKindIr::Filter { slot, list, cond, by: None } => walk(Walk::Filter, *slot, list, cond, cover),
        _ => compile(e, cover),
    }
}

/// The fast form of `e`, if every node in it is covered (calling only the functions `cover`
/// allows).
pub fn compile(e: &ExprIr, cover: &Cover) -> Option<Fx> {
    let b = |x: &ExprIr| compile(x, cover).map(Box::new);
    Some(match &e.kind {
        // A fast form made earlier (the rules are finished again when a scenario file adds to
        // them) is covered as its slow form is.
        ExprKindIr::Fast(f) => return compile(&f.slow, cover),
        ExprKindIr::Local(_) | ExprKindIr::Lit(_) | ExprKindIr::Const(_) | ExprKindIr::Global(_) => {
            let leaf = leaf(e)?;
            // A literal that is not a scalar is the walker's (a constant or local may be one
            // only at run time, when the fast tier gives way).
            if let Leaf::Lit(v) = &leaf {
                Scalar::of(v)?;
            }
            Fx::Leaf(leaf)
        }
        ExprKindIr::You => Fx::You,
        ExprKindIr::SelfObj => Fx::SelfObj,
        ExprKindIr::PlayerField(x, i) => Fx::PlayerField(b(x)?, *i),
        ExprKindIr::PlayerZone(x, z) => Fx::PlayerZone(b(x)?, *z),
        ExprKindIr::ObjField(x, f) if cover.may_read(*f) => Fx::ObjField(b(x)?, *f),
        ExprKindIr::ObjProp(
            x,
            p @ (ObjProp::Owner | ObjProp::Controller | ObjProp::Zone | ObjProp::FaceUp | ObjProp::Def | ObjProp::Id),
        ) => Fx::ObjProp(b(x)?, *p),
        ExprKindIr::Unary(UnaryOperator::Not, x) => Fx::Not(b(x)?),
        ExprKindIr::Unary(UnaryOperator::Neg, x) => Fx::Neg(b(x)?),
        ExprKindIr::Binary(op, l, r) => {
            let (l, r) = (b(l)?, b(r)?);
            match op {
                BinaryOperator::And => Fx::And(l, r),
                BinaryOperator::Or => Fx::Or(l, r),
                BinaryOperator::Eq => Fx::Eq(true, l, r),
                BinaryOperator::Ne => Fx::Eq(false, l, r),
                BinaryOperator::Lt | BinaryOperator::Le | BinaryOperator::Gt | BinaryOperator::Ge => Fx::Cmp(*op, l, r),
                BinaryOperator::Add | BinaryOperator::Sub | BinaryOperator::Mul | BinaryOperator::Div | BinaryOperator::Rem => {
                    Fx::Arith(*op, l, r)
                }
                _ => return None,
            }
        }
        ExprKindIr::If(c, t, o) => Fx::If(b(c)?, b(t)?, b(o)?),
        ExprKindIr::Builtin(Builtin::Nth, args) => match args.as_slice() {
            [list, i] => Fx::Nth(items(list, cover)?, b(i)?),
            _ => return None,
        },
        ExprKindIr::Inline { args, lets, body, .. } => {
            let lets =
                lets.iter().map(|(slot, i)| Some((*slot, compile(args.get(usize::from(*i))?, cover)?))).collect::<Option<Vec<_>>>()?;
            Fx::Inline(lets, b(body)?)
        }
        ExprKindIr::Quant { any, slot, list, cond, by: None } => walk(Walk::Quant(*any), *slot, list, cond, cover)?,
        ExprKindIr::CountWhere { slot, list, cond, by: None } => walk(Walk::Count, *slot, list, cond, cover)?,
        ExprKindIr::FirstWhere { slot, list, cond, by: None } => walk(Walk::First, *slot, list, cond, cover)?,
        ExprKindIr::Call(f, args) if cover.may_call(*f) => {
            Fx::Call(*f, args.iter().map(|a| compile(a, cover)).collect::<Option<Vec<_>>>()?)
        }
        _ => return None,
    })
}

fn walk(walk: Walk, slot: Slot, list: &ExprIr, cond: &ExprIr, cover: &Cover) -> Option<Fx> {
    // Two lists joined by `+` are walked one after the other, which is the walker's.
    if matches!(list.kind, ExprKindIr::Binary(BinaryOperator::Add, ..)) {
        return None;
    }
    Some(Fx::Walk { walk, slot, items: items(list, cover)?, cond: Box::new(compile(cond, cover)?) })
}

/// What `nth` or a walk reads its items from (see `Items`).
fn items(e: &ExprIr, cover: &Cover) -> Option<Items> {
    match leaf(e) {
        Some(l) => Some(Items::Leaf(l)),
        None => compile(e, cover).map(|x| Items::Zone(Box::new(x))),
    }
}

fn leaf(e: &ExprIr) -> Option<Leaf> {
    Some(match &e.kind {
        ExprKindIr::Local(s) => Leaf::Local(*s),
        ExprKindIr::Lit(v) => Leaf::Lit(v.clone()),
        ExprKindIr::Const(c) => Leaf::Const(*c),
        ExprKindIr::Global(g) => Leaf::Global(*g),
        _ => return None,
    })
}

/// A fast form's tree made a list of operations (see `Code`); none if it needs more registers or
/// nested walks than there are.
pub fn lower(tree: &Fx) -> Option<Code> {
    let mut l = Lowering { ops: Vec::new(), depth: 0, deepest: 0, walks: 0 };
    l.emit(tree, 0)?;
    let walks = tree.walks();
    let list = matches!(tree, Fx::Walk { walk: Walk::Filter, .. });
    Some(Code { ops: merged(l.ops), depth: l.deepest, walks, list })
}

struct Lowering {
    ops: Vec<Op>,
    depth: u32,
    deepest: u32,
    walks: u8,
}

impl Lowering {
    /// The place of the next operation (a jump's target).
    fn here(&self) -> u32 {
        u32::try_from(self.ops.len()).unwrap_or(u32::MAX)
    }

    /// Set the target of the jump at `at` to here.
    fn land(&mut self, at: usize) {
        let here = self.here();
        if let Some(Op::Jump(t) | Op::JumpIfFalse(_, t) | Op::JumpIfTrue(_, t) | Op::Next { done: t, .. }) = self.ops.get_mut(at) {
            *t = here;
        }
    }

    fn push(&mut self, op: Op) -> usize {
        self.ops.push(op);
        self.ops.len() - 1
    }

    /// The operations leaving `x`'s value in register `r` (registers above `r` are free).
    fn emit(&mut self, x: &Fx, r: Reg) -> Option<()> {
        if usize::from(r) + 3 > REGISTERS {
            return None;
        }
        let next = r + 1;
        // Every node but a leaf counts a step, first (`merged` joins the counts).
        if !matches!(x, Fx::Leaf(_)) {
            self.push(Op::Steps(1));
        }
        match x {
            Fx::Leaf(l) => {
                self.push(match l {
                    Leaf::Local(s) => Op::Local(r, *s),
                    Leaf::Const(c) => Op::Const(r, *c),
                    Leaf::Global(g) => Op::Global(r, *g),
                    Leaf::Lit(v) => Op::Imm(r, Scalar::of(v)?),
                });
            }
            Fx::You => {
                self.push(Op::You(r));
            }
            Fx::SelfObj => {
                self.push(Op::SelfObj(r));
            }
            Fx::PlayerField(b, i) => {
                self.emit(b, r)?;
                self.push(Op::PlayerField(r, *i));
            }
            Fx::PlayerZone(b, z) => {
                self.emit(b, r)?;
                self.push(Op::PlayerZone(r, *z));
            }
            Fx::ObjField(b, f) => {
                self.emit(b, r)?;
                self.push(Op::ObjField(r, *f));
            }
            Fx::ObjProp(b, p) => {
                self.emit(b, r)?;
                self.push(Op::ObjProp(r, *p));
            }
            Fx::Not(b) => {
                self.emit(b, r)?;
                self.push(Op::Not(r));
            }
            Fx::Neg(b) => {
                self.emit(b, r)?;
                self.push(Op::Neg(r));
            }
            Fx::And(a, b) | Fx::Or(a, b) => {
                self.emit(a, r)?;
                let jump = self.push(if matches!(x, Fx::And(..)) { Op::JumpIfFalse(r, 0) } else { Op::JumpIfTrue(r, 0) });
                self.emit(b, r)?;
                self.push(Op::Bool(r));
                self.land(jump);
            }
            Fx::Eq(eq, a, b) => {
                self.emit(a, r)?;
                self.emit(b, next)?;
                self.push(Op::Eq(r, next, *eq));
            }
            Fx::Cmp(op, a, b) => {
                self.emit(a, r)?;
                self.emit(b, next)?;
                self.push(Op::Cmp(r, next, *op));
            }
            Fx::Arith(op, a, b) => {
                self.emit(a, r)?;
                self.emit(b, next)?;
                self.push(Op::Arith(r, next, *op));
            }
            Fx::If(c, t, o) => {
                self.emit(c, r)?;
                let otherwise = self.push(Op::JumpIfFalse(r, 0));
                self.emit(t, r)?;
                let end = self.push(Op::Jump(0));
                self.land(otherwise);
                self.emit(o, r)?;
                self.land(end);
            }
            Fx::Nth(Items::Zone(z), i) => {
                self.emit(z, r)?;
                self.emit(i, next)?;
                self.push(Op::NthZone(r, next));
            }
            Fx::Nth(Items::Leaf(l), i) => {
                self.emit(i, r)?;
                self.push(Op::NthLeaf(r, l.clone()));
            }
            Fx::Inline(lets, body) => {
                for (slot, a) in lets {
                    self.emit(a, r)?;
                    self.push(Op::SetSlot(*slot, r));
                }
                self.depth += 1;
                self.deepest = self.deepest.max(self.depth);
                self.emit(body, r)?;
                self.depth -= 1;
            }
            Fx::Walk { walk, slot, items, cond } => self.walk(*walk, *slot, items, cond, r)?,
            Fx::Call(f, args) => {
                let n = u8::try_from(args.len()).ok()?;
                for (i, a) in args.iter().enumerate() {
                    self.emit(a, r.checked_add(u8::try_from(i).ok()?)?)?;
                }
                self.push(Op::Call { func: *f, first: r, n });
            }
        }
        Some(())
    }

    /// A walk: its value in `r` (a count kept there as it goes), the item passed by `first` in
    /// `r + 1`, the condition worked out in `r + 2`.
    fn walk(&mut self, walk: Walk, slot: Slot, items: &Items, cond: &Fx, r: Reg) -> Option<()> {
        let n = self.walks;
        if usize::from(n) >= WALKS {
            return None;
        }
        match items {
            Items::Zone(z) => {
                self.emit(z, r)?;
                self.push(Op::IterZone(n, r));
            }
            Items::Leaf(l) => {
                self.push(Op::IterLeaf(n, l.clone()));
            }
        }
        if walk == Walk::Count {
            self.push(Op::Imm(r, Scalar::Int(0)));
        }
        let (item, c) = (r + 1, r + 2);
        self.walks += 1;
        let top = self.here();
        let next = self.push(Op::Next { walk: n, slot, item: (walk == Walk::First).then_some(item), done: 0 });
        self.emit(cond, c)?;
        self.push(Op::JumpIfFalse(c, top));
        let end = match walk {
            Walk::Quant(any) => {
                self.push(Op::Imm(r, Scalar::Bool(any)));
                Some(self.push(Op::Jump(0)))
            }
            Walk::Count => {
                self.push(Op::Incr(r));
                self.push(Op::Jump(top));
                None
            }
            Walk::First => {
                self.push(Op::Move(r, item));
                Some(self.push(Op::Jump(0)))
            }
            Walk::Filter => {
                self.push(Op::Collect(slot));
                self.push(Op::Jump(top));
                None
            }
        };
        self.land(next);
        match walk {
            Walk::Quant(any) => {
                self.push(Op::Imm(r, Scalar::Bool(!any)));
            }
            Walk::Count | Walk::Filter => {}
            Walk::First => {
                self.push(Op::Imm(r, Scalar::None));
            }
        }
        if let Some(end) = end {
            self.land(end);
        }
        self.walks -= 1;
        Some(())
    }
}

/// The operations made shorter, block by block (a block runs from a jump's target, or the
/// operation after a jump or a walk's `Next`, to the next such place; only a block's first
/// operation is ever jumped to, so every operation of a block runs once the block is entered,
/// unless the run gives way):
/// - a block's step counts are joined into one at its start. The total on every path the run
///   finishes is unchanged; a walk's `Next` and a call test the budget against the steps counted
///   so far, and counted earlier they can only give way sooner, never later;
/// - a local read back into the register just written to it (an inlined argument) is not read,
///   nor is a register tested for true or false just after a comparison wrote it;
/// - `nth` of a leaf followed by a field of the object found is one operation, and so is a
///   literal or local with the comparison or sum it is the right side of.
///
/// The jumps' targets are moved to match.
fn merged(ops: Vec<Op>) -> Vec<Op> {
    let target = |op: &Op| match op {
        Op::Jump(t) | Op::JumpIfFalse(_, t) | Op::JumpIfTrue(_, t) | Op::Next { done: t, .. } => Some(*t as usize),
        _ => None,
    };
    let mut starts: std::collections::BTreeSet<usize> = ops.iter().filter_map(target).collect();
    starts.extend(ops.iter().enumerate().filter(|(_, op)| target(op).is_some()).map(|(i, _)| i + 1));
    starts.insert(0);
    starts.insert(ops.len());
    let bounds: Vec<usize> = starts.into_iter().filter(|&i| i <= ops.len()).collect();
    // Where each block's first operation now is (and the end, after the last), by its old place.
    let mut at: Vec<Option<usize>> = vec![None; ops.len() + 1];
    let mut out: Vec<Op> = Vec::with_capacity(ops.len());
    for pair in bounds.windows(2) {
        let [from, to] = *pair else { continue };
        if let Some(slot) = at.get_mut(from) {
            *slot = Some(out.len());
        }
        let block = ops.get(from..to).unwrap_or_default();
        let steps: u32 = block.iter().map(|op| if let Op::Steps(n) = op { *n } else { 0 }).sum();
        if steps > 0 {
            out.push(Op::Steps(steps));
        }
        let first = out.len();
        for op in block.iter().filter(|op| !matches!(op, Op::Steps(_))) {
            let prev = out.len().checked_sub(1).filter(|&l| l >= first).and_then(|l| out.get(l));
            match prev.map_or(Join::Neither, |p| joined(p, op)) {
                Join::Dropped => {}
                Join::Into(both) => {
                    if let Some(last) = out.last_mut() {
                        *last = both;
                    }
                }
                Join::Neither => out.push(op.clone()),
            }
        }
    }
    if let Some(end) = at.get_mut(ops.len()) {
        *end = Some(out.len());
    }
    for op in &mut out {
        if let Op::Jump(t) | Op::JumpIfFalse(_, t) | Op::JumpIfTrue(_, t) | Op::Next { done: t, .. } = op {
            *t = at.get(*t as usize).copied().flatten().and_then(|x| u32::try_from(x).ok()).unwrap_or(u32::MAX);
        }
    }
    out
}

/// What becomes of an operation after the one before it in its block (`joined`).
enum Join {
    /// It is not needed: the one before already did its work.
    Dropped,
    /// The two are one operation, which takes the place of the one before.
    Into(Op),
    /// It stays as it is.
    Neither,
}

/// `op` after `prev` in a block: dropped, or made one with it (which takes `prev`'s place), or
/// neither. A binary operation's right side is in the
/// register after its left's, free once it is done.
fn joined(prev: &Op, op: &Op) -> Join {
    let right = |a: Reg, b: Reg, q: Reg| q == b && a.checked_add(1) == Some(b);
    match (prev, op) {
        // An inlined argument read back from its slot into the register that holds it.
        (Op::SetSlot(t, q), Op::Local(r, s)) if r == q && s == t => Join::Dropped,
        // A comparison or `not` leaves true or false.
        (
            Op::Eq(q, ..) | Op::Cmp(q, ..) | Op::EqImm(q, ..) | Op::CmpImm(q, ..) | Op::EqLocal(q, ..) | Op::CmpLocal(q, ..) | Op::Not(q),
            Op::Bool(r),
        ) if r == q => Join::Dropped,
        (Op::NthLeaf(q, l), Op::ObjField(r, f)) if q == r => Join::Into(Op::NthLeafField(*r, l.clone(), *f)),
        // A comparison or sum with a literal on the right.
        (Op::Imm(q, v), Op::Eq(a, b, eq)) if right(*a, *b, *q) => Join::Into(Op::EqImm(*a, *v, *eq)),
        (Op::Imm(q, Scalar::Int(v)), Op::Cmp(a, b, op)) if right(*a, *b, *q) => Join::Into(Op::CmpImm(*a, *v, *op)),
        (Op::Imm(q, Scalar::Int(v)), Op::Arith(a, b, op)) if right(*a, *b, *q) => Join::Into(Op::ArithImm(*a, *v, *op)),
        // And with a local.
        (Op::Local(q, s), Op::Eq(a, b, eq)) if right(*a, *b, *q) => Join::Into(Op::EqLocal(*a, *s, *eq)),
        (Op::Local(q, s), Op::Cmp(a, b, op)) if right(*a, *b, *q) => Join::Into(Op::CmpLocal(*a, *s, *op)),
        (Op::Local(q, s), Op::Arith(a, b, op)) if right(*a, *b, *q) => Join::Into(Op::ArithLocal(*a, *s, *op)),
        _ => Join::Neither,
    }
}
