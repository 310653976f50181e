//! What an object's derived facts read, worked out when the rules are checked: whether it is
//! blank, and each of its fields read through the rulebook's modifiers (`Game::derived`).
//!
//! A fact whose conditions and values read only the object itself, the objects it lies under
//! (`c.above`, `c.top`, ...), definitions, constants and globals is *local*: it can change only
//! when something about the object or a pile above it changes, or one of those globals does. The
//! state numbers each object anew on every such change (`State::obj_mut`) and the globals that
//! local facts read together (`State::derived_globals`), so a local fact is remembered under those
//! numbers and kept from one version of the state to the next until they change. Anything else
//! read — a zone's contents, another object, a player's field, a check, a built-in, a
//! comprehension — makes the fact `Reads::Everything`: remembered for one version of the state only.
//! The analysis is conservative: an expression it does not know reads everything.

use arbiter_ir::code::{ExprIr, ExprKindIr, ObjProp};
use arbiter_ir::operators::BinaryOperator;
use arbiter_ir::{Derived, Game, Reads, Slot, Sym};
use arbiter_syntax::budgets::READS_CALL_DEPTH;
use std::collections::HashMap;

/// What one expression reads, as far as the analysis can tell.
#[derive(Default, Clone)]
struct Found {
    everything: bool,
    globals: Vec<u16>,
    /// Fields of the object (or a pile above it) read through modifiers: each adds its own reads.
    fields: Vec<Sym>,
}

/// What a function's body reads, by function, the slots of its pile and how deep it is called:
/// each call is walked once (a function calling the next one twenty times over, eight deep, was
/// walked twenty to the eighth times).
type Bodies = HashMap<(u32, Vec<Slot>, u32), Found>;

impl Found {
    /// Add what `other` reads to what this reads.
    fn add(&mut self, other: &Found) {
        self.everything |= other.everything;
        for &g in &other.globals {
            self.global(g);
        }
        for &f in &other.fields {
            self.field(f);
        }
    }

    /// A global read (each once: a function's reads are added to each of its callers', so
    /// repeated ones multiplied with every level of calls).
    fn global(&mut self, g: u16) {
        if !self.globals.contains(&g) {
            self.globals.push(g);
        }
    }

    /// A field of the object (or its pile) read, each once.
    fn field(&mut self, f: Sym) {
        if !self.fields.contains(&f) {
            self.fields.push(f);
        }
    }

    fn walk(&mut self, game: &Game, e: &ExprIr, pile: &[Slot], depth: u32, bodies: &mut Bodies) {
        if self.everything {
            return;
        }
        // A fast form reads what its slow one does.
        match &e.plain().kind {
            ExprKindIr::Lit(_) | ExprKindIr::Const(_) | ExprKindIr::You | ExprKindIr::SelfObj | ExprKindIr::Local(_) => {}
            ExprKindIr::Global(g) => self.global(*g),
            ExprKindIr::Str(pieces) => {
                for p in pieces.iter() {
                    if let arbiter_ir::code::TextPiece::Expr(x) = p {
                        self.walk(game, x, pile, depth, bodies);
                    }
                }
            }
            ExprKindIr::ObjProp(x, _) if in_pile(x, pile) => {}
            ExprKindIr::ObjField(x, f) | ExprKindIr::Dynamic(x, f) if in_pile(x, pile) => self.field(*f),
            ExprKindIr::DefField(x, _) | ExprKindIr::Unary(_, x) => self.walk(game, x, pile, depth, bodies),
            // `x in zone` reads where `x` is: only the object's own place (or its pile's) is known.
            ExprKindIr::Binary(op @ (BinaryOperator::In | BinaryOperator::NotIn | BinaryOperator::Has), l, r) => {
                let (item, container) = if *op == BinaryOperator::Has { (r, l) } else { (l, r) };
                let placeless = matches!(&item.kind, ExprKindIr::Lit(v) if !matches!(v, arbiter_ir::value::Value::Obj(_)));
                if !(in_pile(item, pile) || placeless) {
                    self.everything = true;
                    return;
                }
                self.walk(game, item, pile, depth, bodies);
                self.walk(game, container, pile, depth, bodies);
            }
            ExprKindIr::Binary(_, l, r) => {
                self.walk(game, l, pile, depth, bodies);
                self.walk(game, r, pile, depth, bodies);
            }
            ExprKindIr::If(c, t, o) => {
                self.walk(game, c, pile, depth, bodies);
                self.walk(game, t, pile, depth, bodies);
                self.walk(game, o, pile, depth, bodies);
            }
            ExprKindIr::List(xs) => xs.iter().for_each(|x| self.walk(game, x, pile, depth, bodies)),
            ExprKindIr::Call(f, args) if depth < READS_CALL_DEPTH => {
                let Some(func) = game.funcs.get(*f as usize) else {
                    self.everything = true;
                    return;
                };
                args.iter().for_each(|a| self.walk(game, a, pile, depth, bodies));
                let inner: Vec<Slot> =
                    args.iter().enumerate().filter(|(_, a)| in_pile(a, pile)).filter_map(|(i, _)| Slot::try_from(i).ok()).collect();
                let key = (*f, inner, depth + 1);
                let body = match bodies.get(&key) {
                    Some(found) => found.clone(),
                    None => {
                        let mut found = Found::default();
                        found.walk(game, &func.body, &key.1, depth + 1, bodies);
                        bodies.insert(key, found.clone());
                        found
                    }
                };
                self.add(&body);
            }
            ExprKindIr::Inline { args, lets, body, .. } if depth < READS_CALL_DEPTH => {
                args.iter().for_each(|a| self.walk(game, a, pile, depth, bodies));
                let mut inner = pile.to_vec();
                inner.extend(lets.iter().filter(|(_, i)| args.get(usize::from(*i)).is_some_and(|a| in_pile(a, pile))).map(|(s, _)| *s));
                self.walk(game, body, &inner, depth + 1, bodies);
            }
            _ => self.everything = true,
        }
    }
}

/// The object itself, or one it lies under.
fn in_pile(e: &ExprIr, pile: &[Slot]) -> bool {
    match &e.plain().kind {
        ExprKindIr::Local(s) => pile.contains(s),
        ExprKindIr::ObjProp(x, ObjProp::Above | ObjProp::Top) => in_pile(x, pile),
        _ => false,
    }
}

/// Work out `Game::derived` from the compiled rules.
pub(super) fn derived(game: &Game) -> Derived {
    // Each fact's own reads: blankness (from the blanking modifiers' conditions) and each
    // modified field (its modifiers' conditions and values).
    let mut direct: Vec<(Option<Sym>, Found)> = vec![(None, Found::default())];
    let mut bodies = Bodies::new();
    for &mi in &game.blank_modifiers {
        if let (Some(m), Some((_, found))) = (game.modifiers.get(mi), direct.first_mut())
            && let Some(w) = &m.when
        {
            found.walk(game, w, &[m.var], 0, &mut bodies);
        }
    }
    for (&field, list) in &game.modifiers_by_field {
        // A definition's static modifier can change it: those come from other objects.
        let mut found = Found { everything: game.passive_fields.binary_search(&field).is_ok(), ..Found::default() };
        for &mi in list {
            let Some(m) = game.modifiers.get(mi) else { continue };
            if let Some(w) = &m.when {
                found.walk(game, w, &[m.var], 0, &mut bodies);
            }
            for e in m.effects.iter().filter(|e| e.field == field) {
                found.walk(game, &e.value, &[m.var], 0, &mut bodies);
            }
        }
        direct.push((Some(field), found));
    }
    for &field in &game.passive_fields {
        if !game.modifiers_by_field.contains_key(&field) {
            direct.push((Some(field), Found { everything: true, ..Found::default() }));
        }
    }
    // Every field read also reads blankness (a blank object's field is its default), and reads
    // what the fields it reads read: grow each fact's reads until nothing changes.
    let index: HashMap<Sym, usize> = direct.iter().enumerate().rev().filter_map(|(i, (f, _))| f.map(|f| (f, i))).collect();
    let sources: Vec<Vec<usize>> = direct
        .iter()
        .enumerate()
        .map(|(i, (_, d))| {
            let mut js: Vec<usize> =
                std::iter::once(0).chain(d.fields.iter().map(|f| index.get(f).copied().unwrap_or(0))).filter(|&j| j != i).collect();
            js.sort_unstable();
            js.dedup();
            js
        })
        .collect();
    let mut reads: Vec<(bool, Vec<u16>)> = direct.iter().map(|(_, d)| (d.everything, d.globals.clone())).collect();
    // The facts that read each fact; a fact whose reads grow is looked at again by its readers
    // (passes over every fact until nothing changed took a pass per link of a chain: quadratic).
    let mut readers: Vec<Vec<usize>> = vec![Vec::new(); direct.len()];
    for (i, js) in sources.iter().enumerate() {
        for &j in js {
            if let Some(r) = readers.get_mut(j) {
                r.push(i);
            }
        }
    }
    let mut queued: Vec<bool> = vec![true; direct.len()];
    let mut queue: std::collections::VecDeque<usize> = (0..direct.len()).collect();
    while let Some(j) = queue.pop_front() {
        if let Some(q) = queued.get_mut(j) {
            *q = false;
        }
        let (everything, globals) = reads.get(j).cloned().unwrap_or((true, vec![]));
        for &i in readers.get(j).map_or(&[][..], Vec::as_slice) {
            let Some(mine) = reads.get_mut(i) else { continue };
            let mut grew = false;
            if everything && !mine.0 {
                mine.0 = true;
                grew = true;
            }
            for &g in &globals {
                if !mine.1.contains(&g) {
                    mine.1.push(g);
                    grew = true;
                }
            }
            if grew && let Some(q) = queued.get_mut(i).filter(|q| !**q) {
                *q = true;
                queue.push_back(i);
            }
        }
    }
    let as_reads = |(everything, globals): &(bool, Vec<u16>)| {
        if *everything { Reads::Everything } else { Reads::Local { globals: !globals.is_empty() } }
    };
    let mut out = Derived { blank: reads.first().map(as_reads).unwrap_or_default(), fields: vec![], globals: vec![] };
    for ((f, _), r) in direct.iter().zip(&reads) {
        if let Some(f) = f {
            out.set_field(*f, as_reads(r));
        }
        if !r.0 {
            for &g in &r.1 {
                let g = usize::from(g);
                if out.globals.len() <= g {
                    out.globals.resize(g + 1, false);
                }
                if let Some(x) = out.globals.get_mut(g) {
                    *x = true;
                }
            }
        }
    }
    out
}
