// Amounts (`3 gold`, `2 persuasion + 1 combat`): their totals and kinds. How a builtin is added:
// README.md in this folder.

builtins! {
    /// the total of an amount (`3 gold` → 3)
    Qty qty(1) -> Int |call| {
        match call.arg(0) {
            Value::Amount(a) => {
                Value::Int(a.iter().try_fold(0i64, |acc, (n, _)| acc.checked_add(*n)).ok_or_else(|| overflow(call.span))?)
            }
            Value::None => Value::Int(0),
            _ => return Err(call.expected(0, "an amount")),
        }
    }

    /// an amount of one kind: amount(2, persuasion)
    AmountOf amount(2) -> Amount |call| {
        match (call.arg(0), call.arg(1)) {
            (Value::Int(n), Value::Sym(k)) if n >= 0 => arbiter_ir::value::amount(vec![(n, k)]),
            (Value::Int(n), Value::Sym(_)) => {
                return Err(err(call.arg_span(0), format!("an amount cannot be negative, like {n}")).with_help("write 0 or more"));
            }
            _ => return Err(call.expected(0, "a number and a kind")),
        }
    }

    /// the kinds named in an amount
    Kinds kinds(1) -> Syms |call| {
        match call.arg(0) {
            Value::Amount(a) => Value::list(a.iter().map(|(_, s)| Value::Sym(*s)).collect()),
            Value::None => Value::list(vec![]),
            _ => return Err(call.expected(0, "an amount")),
        }
    }

    /// how much of one kind an amount holds
    QtyOf qty_of(2) -> Int |call| {
        match (call.arg(0), call.arg(1)) {
            (Value::Amount(a), Value::Sym(s)) => Value::Int(
                a.iter().filter(|(_, k)| *k == s).try_fold(0i64, |acc, (n, _)| acc.checked_add(*n)).ok_or_else(|| overflow(call.span))?,
            ),
            (Value::None, _) => Value::Int(0),
            _ => return Err(call.expected(0, "an amount and a kind")),
        }
    }
}
