// Text: a value as text, joined, padded and repeated. Every text made is held to the text budget
// (1 MiB) and charged to the memory budget as it grows. How a builtin is added: README.md in this folder.

builtins! {
    /// a value as text
    Text text(1) -> Text |call| {
        let mut s = String::new();
        call.push_label(&mut s, &call.arg(0), call.span)?;
        call.charge(s.len(), call.span)?;
        Value::text(s)
    }

    /// a list's items as text, with a separator between them: join(names, ", ")
    Join join(2) -> Text |call| {
        let items = call.list(0)?;
        let sep = call.text(1, "a text")?;
        let mut s = String::new();
        for (i, v) in items.iter().enumerate() {
            if i > 0 {
                s.push_str(&sep);
            }
            call.push_label(&mut s, v, call.span)?;
            call.charge(s.len(), call.span)?;
        }
        Value::text(s)
    }

    /// a value as text, filled with spaces to a width (cut, ending in …, when longer)
    Pad pad(2) -> Text |call| {
        padded(call, false)?
    }

    /// a value as text, spaces before it to a width (numbers in a column)
    PadLeft pad_left(2) -> Text |call| {
        padded(call, true)?
    }

    /// a text repeated n times: repeat("-", 9)
    Repeat repeat(2) -> Text |call| {
        let t = call.text(0, "a text")?;
        let n = usize::try_from(call.int(1)?).unwrap_or(0);
        call.text_fits(t.len().saturating_mul(n), call.span)?;
        call.charge(t.len().saturating_mul(n), call.span)?;
        Value::text(t.repeat(n))
    }

    // Argument 0 as text, cut to the width of argument 1 (ending in …) or filled to it with
    // spaces after it (before it when `before`).
    fn padded(call: &BuiltinCall, before: bool) -> RtResult<Value> {
        // A width past the text budget is refused before anything is made; the text made is
        // charged to the memory budget once, when it is made.
        let width = usize::try_from(call.int(1)?).unwrap_or(0);
        call.text_fits(width, call.span)?;
        let mut s = String::new();
        call.push_label(&mut s, &call.arg(0), call.span)?;
        let len = s.chars().count();
        call.text_fits(s.len().saturating_add(width.saturating_sub(len)), call.span)?;
        if len > width {
            s = s.chars().take(width.saturating_sub(1)).collect();
            if width > 0 {
                s.push('…');
            }
        } else if before {
            s = " ".repeat(width - len) + &s;
        } else {
            s.extend(std::iter::repeat_n(' ', width - len));
        }
        call.charge(s.len(), call.span)?;
        Ok(Value::text(s))
    }
}
