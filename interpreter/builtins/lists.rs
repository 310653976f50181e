// Lists: their sizes, totals and ends, and lists made from lists. A zone counts as the list of
// its objects. How a builtin is added: README.md in this folder.

builtins! {
    /// number of items in a list or objects in a zone
    Count count(1) -> Int |call| {
        match call.arg(0) {
            Value::Zone(z) => Value::Int(call.state.zone_objects(call.game, z).len() as i64),
            _ => Value::Int(call.list(0)?.len() as i64),
        }
    }

    /// sum of a list of numbers
    Sum sum(1) -> Int |call| {
        Value::Int(call.ints(0)?.iter().try_fold(0i64, |a, x| a.checked_add(*x)).ok_or_else(|| overflow(call.span))?)
    }

    /// smallest number in a list (none when empty)
    Min min(1) -> Int |call| {
        call.ints(0)?.into_iter().min().map(Value::Int).unwrap_or_default()
    }

    /// largest number in a list (none when empty)
    Max max(1) -> Int |call| {
        call.ints(0)?.into_iter().max().map(Value::Int).unwrap_or_default()
    }

    /// first item (none when empty)
    First first(1) -> Elem |call| {
        first(call)?
    }

    /// last item (none when empty)
    Last last(1) -> Elem |call| {
        call.list(0)?.last().cloned().unwrap_or_default()
    }

    /// top object of a zone (its first), none when empty
    Top top(1) -> Elem |call| {
        first(call)?
    }

    /// bottom object of a zone (its last), none when empty
    Bottom bottom(1) -> Elem |call| {
        call.list(0)?.last().cloned().unwrap_or_default()
    }

    /// the list backwards
    Reverse reverse(1) -> Same |call| {
        Value::list(call.list(0)?.iter().rev().cloned().collect())
    }

    /// the list without repeats, first occurrences kept
    Distinct distinct(1) -> Same |call| {
        let mut out: Vec<Value> = Vec::new();
        for v in call.list(0)?.iter() {
            call.work(out.len(), call.span)?;
            if !call.any_equal(&out, v, call.span)? {
                out.push(v.clone());
            }
        }
        Value::list(out)
    }

    /// position of an item (0-based), -1 when absent
    IndexOf index_of(2) -> Int |call| {
        let (list, item) = (call.list(0)?, call.arg(1));
        let mut at = -1;
        for (i, x) in list.iter().enumerate() {
            if call.equal(x, &item, call.span)? {
                at = i as i64;
                break;
            }
        }
        Value::Int(at)
    }

    /// the list rotated left by n
    Rotate rotate(2) -> Same |call| {
        let mut v = call.list(0)?.as_ref().clone();
        if !v.is_empty() {
            let n = call.int(1)?.rem_euclid(v.len() as i64) as usize;
            v.rotate_left(n);
        }
        Value::list(v)
    }

    /// the first n items
    Take take(2) -> Same |call| {
        Value::list(call.list(0)?.iter().take(call.int(1)?.max(0) as usize).cloned().collect())
    }

    /// all but the first n items
    Drop drop(2) -> Same |call| {
        Value::list(call.list(0)?.iter().skip(call.int(1)?.max(0) as usize).cloned().collect())
    }

    /// two lists joined
    Concat concat(2) -> Same |call| {
        let mut v = call.list(0)?.as_ref().clone();
        v.extend(call.list(1)?.iter().cloned());
        call.sized(v, call.span)?
    }

    /// the list without an item (or without every item of a list)
    Without without(2) -> Same |call| {
        let remove = match call.arg(1) {
            x @ (Value::List(_) | Value::Zone(_)) => call.as_list(x, call.arg_span(1))?.as_ref().clone(),
            x => vec![x],
        };
        let from = call.list(0)?;
        call.work(from.len().saturating_mul(remove.len()), call.span)?;
        let mut kept = Vec::new();
        for x in from.iter() {
            if !call.any_equal(&remove, x, call.span)? {
                kept.push(x.clone());
            }
        }
        Value::list(kept)
    }

    /// how many times an item occurs
    CountOf count_of(2) -> Int |call| {
        let (list, item) = (call.list(0)?, call.arg(1));
        let mut n = 0;
        for x in list.iter() {
            n += i64::from(call.equal(x, &item, call.span)?);
        }
        Value::Int(n)
    }

    /// the list sorted by a key, stable
    SortBy sort_by(2, lambda 1: 1) -> Same |call| {
        let mut keyed = keyed(call)?;
        keyed.sort_by_key(|(k, _)| *k);
        Value::list(keyed.into_iter().map(|(_, v)| v).collect())
    }

    /// the items whose key is lowest
    Lowest lowest(2, lambda 1: 1) -> Same |call| {
        let keyed = keyed(call)?;
        let best = keyed.iter().map(|(k, _)| *k).min();
        Value::list(keyed.into_iter().filter(|(k, _)| Some(*k) == best).map(|(_, v)| v).collect())
    }

    /// the items whose key is highest
    Highest highest(2, lambda 1: 1) -> Same |call| {
        let keyed = keyed(call)?;
        let best = keyed.iter().map(|(k, _)| *k).max();
        Value::list(keyed.into_iter().filter(|(k, _)| Some(*k) == best).map(|(_, v)| v).collect())
    }

    // The first object of a zone in one place, without making its list; else the list's first.
    fn first(call: &BuiltinCall) -> RtResult<Value> {
        Ok(match call.arg(0) {
            Value::Zone(z) if let Some(objs) = call.one_zone(z) => objs.first().map(|o| Value::Obj(*o)).unwrap_or_default(),
            _ => call.list(0)?.first().cloned().unwrap_or_default(),
        })
    }

    // Each item of the list (argument 0) with its key, the function (argument 1) called on it.
    fn keyed(call: &mut BuiltinCall) -> RtResult<Vec<(i64, Value)>> {
        call.env()?;
        let items = call.list(0)?;
        let f = call.arg(1);
        let mut keyed = Vec::with_capacity(items.len());
        for it in items.iter() {
            let k = match call.lambda(&f, std::slice::from_ref(it), 1)? {
                Value::Int(k) => k,
                other => return Err(call.type_err(call.arg_span(1), "a number as the key", &other)),
            };
            keyed.push((k, it.clone()));
        }
        Ok(keyed)
    }
}
