//! Constant folding: an expression whose value is known when the rules are checked becomes that
//! value (`ExprKindIr::Lit`), so that a running game never works it out again.
//!
//! Folded, each as soon as it is lowered (its parts are folded first):
//! - a constant whose value is itself a literal (`rows`, once `const rows: int = 6`);
//! - a text with nothing to fill in (`"the grid is full"`);
//! - a list of literals (`[[0, 1], [1, 0]]`);
//! - `-` and `not` of a literal, and `and`, `or`, comparisons and whole-number arithmetic of two
//!   literals, when the result is defined (an overflow or a division by zero is left for the
//!   running game to report, at its place, as it always has).
//!
//! A folded expression gives the same value and the same errors as before; it only takes no
//! evaluation step, and a folded text or list no longer counts toward the memory budget.

use arbiter_ir::operators::{BinaryOperator, UnaryOperator};
use arbiter_ir::value::Value;
use arbiter_ir::*;
use arbiter_syntax::budgets::{NEST_BUDGET, SIZE_BUDGET};

/// The value of an expression made only of literals (numbers, texts, names, lists, `-`), once
/// lowered: `fold` has made each such part a literal, except the empty list and a list too long or
/// too deep to fold.
pub fn literal_value(x: &ExprIr) -> Option<Value> {
    match &x.kind {
        ExprKindIr::Lit(v) => Some(v.clone()),
        ExprKindIr::List(items) => items.iter().map(literal_value).collect::<Option<Vec<_>>>().map(Value::list),
        _ => None,
    }
}

/// A text with nothing to fill in, as one string.
fn plain_text(pieces: &[TextPiece]) -> Option<String> {
    let mut t = String::new();
    for p in pieces {
        match p {
            TextPiece::Text(s) => t.push_str(s),
            TextPiece::Expr(_) => return None,
        }
    }
    Some(t)
}

/// `e` with its value in place of it when that is known now; `consts` are the constants lowered
/// so far (a constant is folded only once its own value is a literal).
pub fn fold(e: ExprIr, consts: &[ConstDef]) -> ExprIr {
    match known(&e, consts) {
        Some(v) => ExprIr { kind: ExprKindIr::Lit(v), span: e.span },
        None => match e.kind {
            ExprKindIr::If(c, t, o) => match c.kind {
                ExprKindIr::Lit(Value::Bool(b)) => {
                    if b {
                        *t
                    } else {
                        *o
                    }
                }
                _ => ExprIr { kind: ExprKindIr::If(c, t, o), span: e.span },
            },
            kind => ExprIr { kind, span: e.span },
        },
    }
}

fn lit(e: &ExprIr) -> Option<&Value> {
    match &e.kind {
        ExprKindIr::Lit(v) => Some(v),
        _ => None,
    }
}

fn known(e: &ExprIr, consts: &[ConstDef]) -> Option<Value> {
    match &e.kind {
        ExprKindIr::Const(i) => consts.get(*i as usize).and_then(|c| lit(&c.value)).cloned(),
        ExprKindIr::Str(pieces) => plain_text(pieces).map(Value::text),
        // An empty list stays as written: `[]` takes its type from where it is used.
        ExprKindIr::List(items) if items.is_empty() => None,
        ExprKindIr::List(items) => {
            let values = items.iter().map(|x| lit(x).cloned()).collect::<Option<Vec<_>>>()?;
            let fits = values.len() <= SIZE_BUDGET && values.iter().all(|v| depth(v) < NEST_BUDGET);
            fits.then(|| Value::list(values))
        }
        ExprKindIr::Unary(op, x) => match (op, lit(x)?) {
            (UnaryOperator::Neg, Value::Int(i)) => i.checked_neg().map(Value::Int),
            (UnaryOperator::Not, Value::Bool(b)) => Some(Value::Bool(!b)),
            _ => None,
        },
        ExprKindIr::Binary(op, l, r) => binary(*op, lit(l)?, lit(r)?),
        _ => None,
    }
}

/// How deeply lists nest in a value.
fn depth(v: &Value) -> u32 {
    match v {
        Value::List(l) => 1 + l.iter().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// Two literals under an operator, where the running game would give a value (never an error).
fn binary(op: BinaryOperator, a: &Value, b: &Value) -> Option<Value> {
    use Value::{Bool, Int};
    Some(match (op, a, b) {
        (BinaryOperator::And, Bool(x), Bool(y)) => Bool(*x && *y),
        (BinaryOperator::Or, Bool(x), Bool(y)) => Bool(*x || *y),
        // Equality of two values compares them whatever their kinds, as the running game does.
        (BinaryOperator::Eq, x, y) => Bool(x == y),
        (BinaryOperator::Ne, x, y) => Bool(x != y),
        (BinaryOperator::Lt | BinaryOperator::Le | BinaryOperator::Gt | BinaryOperator::Ge, Int(x), Int(y)) => Bool(op.compare(*x, *y)),
        (BinaryOperator::Add, Int(x), Int(y)) => Int(x.checked_add(*y)?),
        (BinaryOperator::Sub, Int(x), Int(y)) => Int(x.checked_sub(*y)?),
        (BinaryOperator::Mul, Int(x), Int(y)) => Int(x.checked_mul(*y)?),
        (BinaryOperator::Div, Int(x), Int(y)) => Int(x.checked_div(*y)?),
        (BinaryOperator::Rem, Int(x), Int(y)) => Int(x.checked_rem(*y)?),
        _ => return None,
    })
}
