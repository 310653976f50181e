// Abilities: an object's abilities in a slot, whether one can be used, and matching requirements
// to distinct items. How a builtin is added: README.md in this folder.

builtins! {
    /// an object's abilities in a slot, like abilities(c, "action")
    Abilities abilities(2) -> Abilities |call| {
        Value::list(in_slot(call)?)
    }

    /// an object's first ability in a slot, or none
    Ability ability(2) -> Ability |call| {
        in_slot(call)?.into_iter().next().unwrap_or_default()
    }

    /// whether an ability's costs, requirements and targets can be met (by its controller, or by the player given)
    CanUse can_use(1..=2) -> Bool |call| {
        match call.arg(0) {
            Value::Ability(o, i) => {
                let by = match call.arg(1) {
                    Value::Player(p) => Some(p),
                    _ => None,
                };
                Value::Bool(call.can_use(o, i, by, call.span)?)
            }
            Value::None => Value::Bool(false),
            _ => return Err(call.expected(0, "an ability")),
        }
    }

    /// whether each requirement can be met by a different item: distinct_match(units, reqs, |u, r| ..)
    DistinctMatch distinct_match(3, lambda 2: 2) -> Bool |call| {
        call.env()?;
        let pool = call.list(0)?;
        let reqs = call.list(1)?;
        let f = call.arg(2);
        if pool.len().saturating_mul(reqs.len()) > arbiter_syntax::budgets::MATCH_BUDGET {
            return Err(err(call.span, "size budget exceeded: matching more than a million item and requirement pairs"));
        }
        let mut ok = vec![vec![false; pool.len()]; reqs.len()];
        for (ri, r) in reqs.iter().enumerate() {
            for (pi, p) in pool.iter().enumerate() {
                let v = call.lambda(&f, &[p.clone(), r.clone()], 2)?;
                if let Some(cell) = ok.get_mut(ri).and_then(|row| row.get_mut(pi)) {
                    *cell = v == Value::Bool(true);
                }
            }
        }
        Value::Bool(bipartite_complete(&ok, pool.len()))
    }

    // The abilities of an object (argument 0, none: no abilities) in a slot (argument 1).
    fn in_slot(call: &BuiltinCall) -> RtResult<Vec<Value>> {
        let slot = call.text(1, "a slot name in quotes")?;
        match call.arg(0) {
            Value::Obj(o) => call.abilities(o, &slot),
            Value::None => Ok(vec![]),
            _ => Err(call.expected(0, "an object")),
        }
    }
}
