//! Small functions inlined where they are called: `ExprKind::Inline` holds the call (for the
//! profiler, which counts steps by routine), slots of the caller's env for the arguments that are
//! worked out, and the function's body reading its arguments there. The running game evaluates it
//! in the caller's env, without a frame of its own.
//!
//! A call is inlined only where that evaluates exactly as the call would: the same value, the same
//! steps, the same depth and the same first error. So the function must already be lowered (it is
//! written before the call, in the order files are read), and its body must be a "leaf": it calls
//! no function, check or `can` and binds no name (no quantifier, comprehension or `|x| ..`), so it
//! has no slots beyond its parameters and is never remembered (see `Checker::finish`). The
//! arguments are evaluated first, in order, as the call evaluates them: those that are worked out
//! into slots of their own, while a local, literal, constant or global (reading one never fails and
//! takes no step) is read where the body reads its parameter. One argument that is worked out is
//! put in place too, without a slot, where the body reads it once, as the first thing it works out
//! that can fail (`mark_at(nth(l, 0))`, with `mark_at(i) = nth(board, i).mark`): it is worked out at
//! the same point either way.

use crate::ir::*;

/// A call of `f` inlined: the slots for the arguments that are worked out (slot, argument) and
/// the body reading its arguments; `temp` gives a fresh slot of the caller's env.
pub fn inline_call(f: &FuncDef, args: &[Expr], temp: &mut dyn FnMut() -> Slot) -> Option<(Vec<(Slot, u16)>, Expr)> {
    let n = f.params.len();
    if args.len() != n || usize::from(f.slots) > n || !is_leaf_body(&f.body, n) {
        return None;
    }
    let mut heavy = args.iter().enumerate().filter(|(_, a)| !is_leaf(a)).map(|(i, _)| i);
    let in_place = match (heavy.next(), heavy.next()) {
        (Some(p), None) if uses(&f.body, p) == 1 && first(&f.body, p) == First::Param => Some(p),
        _ => None,
    };
    let mut lets = Vec::new();
    let mut reads = Vec::with_capacity(n);
    for (i, a) in args.iter().enumerate() {
        if is_leaf(a) || in_place == Some(i) {
            reads.push(a.clone());
        } else {
            let slot = temp();
            lets.push((slot, u16::try_from(i).ok()?));
            reads.push(Expr { kind: ExprKind::Local(slot), span: a.span });
        }
    }
    let mut body = f.body.clone();
    // An argument put in place is not looked into: its locals are the caller's.
    body.replace_each(&mut |x| match x.kind {
        ExprKind::Local(s) => reads.get(usize::from(s)).cloned(),
        _ => None,
    });
    Some((lets, body))
}

fn is_leaf(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Local(_) | ExprKind::Lit(_) | ExprKind::Const(_) | ExprKind::Global(_))
}

/// A body that calls nothing, binds nothing and reads no slot but its `n` parameters.
fn is_leaf_body(body: &Expr, n: usize) -> bool {
    !body.any(&mut |x| match &x.kind {
        ExprKind::Local(s) => usize::from(*s) >= n,
        ExprKind::Call(..)
        | ExprKind::Inline { .. }
        | ExprKind::Check(..)
        | ExprKind::CanProc(..)
        | ExprKind::Lambda(_)
        | ExprKind::Quant { .. }
        | ExprKind::Filter { .. }
        | ExprKind::CountWhere { .. }
        | ExprKind::FirstWhere { .. }
        | ExprKind::Map { .. } => true,
        _ => false,
    })
}

/// How many times the body reads parameter `p`.
fn uses(body: &Expr, p: usize) -> usize {
    let mut n = 0;
    body.any(&mut |x| {
        if matches!(x.kind, ExprKind::Local(s) if usize::from(s) == p) {
            n += 1;
        }
        false
    });
    n
}

#[derive(Debug, PartialEq)]
enum First {
    /// The parameter is read before anything else that can fail is evaluated.
    Param,
    /// Something else comes first.
    Other,
}

/// What the body evaluates first among what can fail, with parameter `p` counted as an argument
/// that can fail. The order is the evaluator's: an operator's or built-in's operands that are not
/// locals, literals, constants or globals come first, left to right (`with_operands`), then the
/// node's own work; a field read or `if` starts with its base or condition.
fn first(e: &Expr, p: usize) -> First {
    let heavy = |x: &Expr| !is_leaf(x) || matches!(x.kind, ExprKind::Local(s) if usize::from(s) == p);
    let first_of = |xs: &mut dyn Iterator<Item = &Expr>| {
        for x in xs {
            if heavy(x) {
                return first(x, p);
            }
        }
        First::Other
    };
    match &e.kind {
        ExprKind::Local(s) if usize::from(*s) == p => First::Param,
        ExprKind::PlayerField(b, _)
        | ExprKind::PlayerZone(b, _)
        | ExprKind::ObjField(b, _)
        | ExprKind::ObjProp(b, _)
        | ExprKind::DefField(b, _)
        | ExprKind::ZoneOwner(b)
        | ExprKind::AbilityLabel(b)
        | ExprKind::AbilitySource(b)
        | ExprKind::Dynamic(b, _)
        | ExprKind::Unary(_, b)
        | ExprKind::If(b, _, _) => first_of(&mut std::iter::once(&**b)),
        // `and` and `or` ask their left side first, whatever it is.
        ExprKind::Binary(crate::syntax::ast::BinOp::And | crate::syntax::ast::BinOp::Or, l, _) => first_of(&mut std::iter::once(&**l)),
        ExprKind::Binary(_, l, r) => first_of(&mut [&**l, &**r].into_iter()),
        ExprKind::Builtin(_, args) | ExprKind::List(args) => first_of(&mut args.iter()),
        ExprKind::Str(pieces) => first_of(&mut pieces.iter().filter_map(|x| match x {
            StrPiece::Expr(x) => Some(x),
            StrPiece::Text(_) => None,
        })),
        _ => First::Other,
    }
}
