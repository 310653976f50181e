// Numbers. How a builtin is added: README.md in this folder.

builtins! {
    /// absolute value
    Abs abs(1) -> Int |call| {
        Value::Int(call.int(0)?.checked_abs().ok_or_else(|| overflow(call.span))?)
    }

    /// clamp(x, lo, hi)
    Clamp clamp(3) -> Int |call| {
        let (x, lo, hi) = (call.int(0)?, call.int(1)?, call.int(2)?);
        Value::Int(x.max(lo).min(hi.max(lo)))
    }
}
