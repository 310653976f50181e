//! Small functions inlined where they are called: `ExprKindIr::Inline` holds the call (for the
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
//! takes no step) is read where the body reads its parameter. (An argument that is worked out is
//! never put in place of its parameter, even where the body reads it once: it would then be worked
//! out one call deeper, after the body's first steps, which the depth and step budgets would see.)

use arbiter_ir::*;

/// A call of `f` inlined: the slots for the arguments that are worked out (slot, argument) and
/// the body reading its arguments; `temp` gives a fresh slot of the caller's env.
pub fn inline_call(f: &FuncDef, args: &[ExprIr], temp: &mut dyn FnMut() -> Slot) -> Option<(Vec<(Slot, u16)>, ExprIr)> {
    let n = f.params.len();
    if args.len() != n || usize::from(f.slots) > n || !is_leaf_body(&f.body, n) {
        return None;
    }
    if nodes_over(&f.body, INLINED_NODES) {
        return None;
    }
    let mut lets = Vec::new();
    let mut reads = Vec::with_capacity(n);
    for (i, a) in args.iter().enumerate() {
        if a.is_leaf() {
            reads.push(a.clone());
        } else {
            let slot = temp();
            lets.push((slot, u16::try_from(i).ok()?));
            reads.push(ExprIr { kind: ExprKindIr::Local(slot), span: a.span });
        }
    }
    let mut body = f.body.clone();
    // An argument put in place is not looked into: its locals are the caller's.
    body.replace_each(&mut |x| match x.kind {
        ExprKindIr::Local(s) => reads.get(usize::from(s)).cloned(),
        _ => None,
    });
    Some((lets, body))
}

/// The most nodes a body inlined may have: each call inlined is a copy of it (a small function
/// whose body was a list of 20,000 items, called 4,000 times, took 7 GB to compile).
const INLINED_NODES: usize = 64;

/// Whether `body` has more than `most` nodes (the words of a text written in it count too, a
/// node for every 64 bytes: each copy copies them).
fn nodes_over(body: &ExprIr, most: usize) -> bool {
    let mut seen = 0usize;
    body.any(&mut |x| {
        let text = match &x.kind {
            ExprKindIr::Str(pieces) => pieces.iter().map(|p| if let TextPiece::Text(t) = p { t.len() / 64 } else { 0 }).sum(),
            _ => 0,
        };
        seen = seen.saturating_add(1 + text);
        seen > most
    })
}

/// A body that calls nothing, binds nothing and reads no slot but its `n` parameters.
fn is_leaf_body(body: &ExprIr, n: usize) -> bool {
    !body.any(&mut |x| match &x.kind {
        ExprKindIr::Local(s) => usize::from(*s) >= n,
        ExprKindIr::Call(..)
        | ExprKindIr::Inline { .. }
        | ExprKindIr::Check(..)
        | ExprKindIr::CanProc(..)
        | ExprKindIr::Lambda(_)
        | ExprKindIr::Quant { .. }
        | ExprKindIr::Filter { .. }
        | ExprKindIr::CountWhere { .. }
        | ExprKindIr::FirstWhere { .. }
        | ExprKindIr::Map { .. } => true,
        _ => false,
    })
}
