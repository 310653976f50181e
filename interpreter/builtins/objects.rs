// Zones, objects and definitions, and the lists read from them: a zone's objects, an object's
// pile, the definitions of a kind, an item by its position, a range of numbers. (`range`, `nth`
// and `flatten` would sit as well in lists.rs; they stay here to keep the table's order, which
// is the order the checker suggests names in.) How a builtin is added: README.md in this folder.

builtins! {
    /// the objects in a zone as a list
    Objects objects(1) -> Objects |call| {
        Value::List(call.list(0)?)
    }

    /// whether an object's abilities are in effect (in an active zone, not blank)
    Active active(1) -> Bool |call| {
        match call.arg(0) {
            Value::Obj(o) => Value::Bool(call.is_active(o)?),
            _ => Value::Bool(false),
        }
    }

    /// every definition of a kind, in the order written, like definitions("card")
    Definitions definitions(1) -> Defs |call| {
        let name = call.text(0, "a kind's name in quotes")?;
        let kind = call.game.kinds.iter().position(|k| k.name == name.as_str());
        Value::list(
            call.game
                .defs
                .iter()
                .enumerate()
                .filter(|(_, d)| Some(d.kind as usize) == kind)
                .map(|(i, _)| Value::Def(u32::try_from(i).unwrap_or(0)))
                .collect(),
        )
    }

    /// the whole numbers from lo to hi, both included
    Range range(2) -> Ints |call| {
        let (lo, hi) = (call.int(0)?, call.int(1)?);
        if hi.saturating_sub(lo) >= SIZE_BUDGET as i64 {
            return Err(err(call.span, format!("size budget exceeded: a range of more than {SIZE_BUDGET} numbers")));
        }
        call.sized((lo..=hi).map(Value::Int).collect(), call.span)?
    }

    /// the item at a position (0-based), none when out of range
    Nth nth(2) -> Elem |call| {
        // A zone in one place, or a list, by a number is answered in `builtin`; here, the rest.
        let i = call.int(1)?;
        let l = call.list(0)?;
        usize::try_from(i).ok().and_then(|i| l.get(i).cloned()).unwrap_or_default()
    }

    /// a list of lists joined into one list
    Flatten flatten(1) -> Elem |call| {
        let mut out = Vec::new();
        for inner in call.list(0)?.iter() {
            out.extend(call.as_list(inner.clone(), call.arg_span(0))?.iter().cloned());
        }
        call.sized(out, call.span)?
    }

    /// an object followed by every object under it
    Pile pile(1) -> Objects |call| {
        match call.arg(0) {
            Value::Obj(o) => {
                let mut v = vec![Value::Obj(o)];
                if let Some(ob) = call.state.obj(o) {
                    v.extend(ob.under.iter().map(|u| Value::Obj(*u)));
                }
                Value::list(v)
            }
            _ => Value::list(vec![]),
        }
    }
}
