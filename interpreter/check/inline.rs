//! Small functions inlined where they are called: `ExprKind::Inline` holds the call (for the
//! profiler, which counts steps by routine) and the function's body with the arguments in place of
//! its parameters, which the running game evaluates in the caller's env, without a frame of its
//! own.
//!
//! A call is inlined only where that evaluates exactly as the call would: the same value, the same
//! steps, the same depth and the same first error. So the function must already be lowered (it is
//! written before the call, in the order files are read), and:
//! - its body is a "leaf": it calls no function, check or `can`, and binds no name (no quantifier,
//!   comprehension or `|x| ..`), so it has no slots beyond its parameters and is never remembered
//!   (see `Checker::finish`);
//! - every argument is a local, literal, constant or global (reading one never fails and takes no
//!   step), except at most one, whose parameter the body uses exactly once, as the first thing it
//!   evaluates that can fail: where the call would have evaluated that argument first, the body
//!   now does.

use crate::ir::*;
use crate::syntax::ast::BinOp;

/// The body of `f` with `args` in place of its parameters, when the call may be inlined.
pub fn inline_call(f: &FuncDef, args: &[Expr]) -> Option<Expr> {
    let n = f.params.len();
    if args.len() != n || usize::from(f.slots) > n || !is_leaf_body(&f.body, n) {
        return None;
    }
    let mut heavy = args.iter().enumerate().filter(|(_, a)| !is_leaf(a));
    if let Some((p, _)) = heavy.next()
        && (heavy.next().is_some() || uses(&f.body, p) != 1 || first(&f.body, p) != First::Param)
    {
        return None;
    }
    Some(substitute(&f.body, args))
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
        ExprKind::Binary(BinOp::And | BinOp::Or, l, _) => first_of(&mut std::iter::once(&**l)),
        ExprKind::Binary(_, l, r) => first_of(&mut [&**l, &**r].into_iter()),
        ExprKind::Builtin(_, args) | ExprKind::List(args) => first_of(&mut args.iter()),
        ExprKind::Str(pieces) => first_of(&mut pieces.iter().filter_map(|x| match x {
            StrPiece::Expr(x) => Some(x),
            StrPiece::Text(_) => None,
        })),
        _ => First::Other,
    }
}

/// A copy of `body` with each parameter read replaced by its argument.
fn substitute(body: &Expr, args: &[Expr]) -> Expr {
    let mut out = body.clone();
    // An argument put in place is not looked into: its locals are the caller's.
    out.replace_each(&mut |x| match x.kind {
        ExprKind::Local(s) => args.get(usize::from(s)).cloned(),
        _ => None,
    });
    out
}
