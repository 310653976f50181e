//! The built-in functions' implementations, in the order of their table (`ir/builtins.rs`, which
//! gives the checker each one's name, arity and result).

use super::eval::{Evaluator, R, err, overflow};
use super::state::Env;
use arbiter_ir::builtins::Builtin;
use arbiter_ir::value::{Seat, Value};
use arbiter_ir::*;
use arbiter_syntax::budgets::SIZE_BUDGET;
use arbiter_syntax::span::Span;

impl Evaluator<'_> {
    pub(super) fn builtin(&self, b: Builtin, args: &[Expr], env: &mut Env, span: Span) -> R<Value> {
        // A built-in that calls a function `|x| ..` needs the env: its arguments are evaluated into
        // values of their own first.
        if matches!(b, Builtin::SortBy | Builtin::Lowest | Builtin::Highest | Builtin::DistinctMatch) {
            let vals = self.eval_args(args, env)?;
            let refs: Vec<&Value> = vals.iter().collect();
            return self.builtin_with(b, args, &refs, Some(env), span);
        }
        // One or two arguments (most calls): a local, literal, constant or global is read in
        // place (see `with_operands`).
        match args {
            [x] => {
                let own = if x.is_leaf() { None } else { Some(self.eval(x, env)?) };
                let a = match &own {
                    Some(v) => v,
                    None => self.leaf(x, env),
                };
                return self.builtin_with(b, args, &[a], None, span);
            }
            // `nth` of a zone or list by a number, the most common built-in, without the general
            // machinery; anything else (and every error) as below.
            [x, y] if b == Builtin::Nth => {
                return self.with_operands(x, y, env, |a, c| {
                    let at = |i: &i64| usize::try_from(*i).ok();
                    match (a, c) {
                        (Value::Zone(z), Value::Int(i)) => match self.one_zone(*z) {
                            Some(objs) => Ok(at(i).and_then(|i| objs.get(i)).map(|o| Value::Obj(*o)).unwrap_or_default()),
                            None => self.builtin_with(b, args, &[a, c], None, span),
                        },
                        // As a built-in's list argument is counted: one step per item.
                        (Value::List(l), Value::Int(i)) => {
                            self.work(l.len(), span)?;
                            Ok(at(i).and_then(|i| l.get(i).cloned()).unwrap_or_default())
                        }
                        _ => self.builtin_with(b, args, &[a, c], None, span),
                    }
                });
            }
            [x, y] => return self.with_operands(x, y, env, |a, c| self.builtin_with(b, args, &[a, c], None, span)),
            _ => {}
        }
        let mut vals = self.buf(args.len());
        for a in args {
            vals.push(self.eval(a, env)?);
        }
        let r = match vals.as_slice() {
            [a, c, d] => self.builtin_with(b, args, &[a, c, d], None, span),
            [a, c, d, f] => self.builtin_with(b, args, &[a, c, d, f], None, span),
            more => self.builtin_with(b, args, &more.iter().collect::<Vec<_>>(), None, span),
        };
        self.give(vals);
        r
    }

    fn builtin_with(&self, b: Builtin, args: &[Expr], vals: &[&Value], env: Option<&mut Env>, span: Span) -> R<Value> {
        let arg = |i: usize| vals.get(i).map(|v| (*v).clone()).unwrap_or_default();
        let arg_span = |i: usize| args.get(i).map(|a| a.span).unwrap_or(span);
        // A builtin walks its list arguments: one step per item.
        let list = |i: usize| {
            let l = self.as_list(arg(i), arg_span(i))?;
            self.work(l.len(), span)?;
            Ok(l)
        };
        let int = |i: usize| match vals.get(i) {
            Some(Value::Int(x)) => Ok(*x),
            _ => Err(self.type_err(arg_span(i), "a number", &arg(i))),
        };
        let player = |i: usize| match arg(i) {
            Value::Player(p) => Ok(p),
            other => Err(self.type_err(arg_span(i), "a player", &other)),
        };
        let ints = |i: usize| -> R<Vec<i64>> {
            list(i)?
                .iter()
                .map(|v| match v {
                    Value::Int(x) => Ok(*x),
                    other => Err(self.type_err(arg_span(i), "a list of numbers", other)),
                })
                .collect()
        };
        let players_v = |seats: Vec<Seat>| Value::list(seats.into_iter().map(Value::Player).collect());
        use super::geometry as geo;
        let pose = |i: usize| match arg(i) {
            Value::Pose(p) => {
                let [x, y, h] = *p;
                Ok(geo::Pose { x, y, h })
            }
            other => Err(self.type_err(arg_span(i), "a pose", &other)),
        };
        let shape = |i: usize| -> R<Vec<geo::P>> {
            list(i)?
                .iter()
                .map(|v| match v {
                    Value::Pose(p) => {
                        let [x, y, _] = **p;
                        Ok(geo::P { x: x as f64, y: y as f64 })
                    }
                    other => Err(self.type_err(arg_span(i), "a shape (a list of points)", other)),
                })
                .collect()
        };
        let pv = |p: geo::Pose| Value::pose(p.x, p.y, p.h);
        let ptv = |p: geo::P| {
            let q = geo::to_pose(p);
            Value::pose(q.x, q.y, 0)
        };
        let shape_v = |s: Vec<geo::P>| Value::list(s.into_iter().map(ptv).collect());
        let scaled = |i: usize, k: i64| int(i)?.checked_mul(k).map(Value::Int).ok_or_else(|| overflow(span));
        Ok(match b {
            Builtin::Count => match arg(0) {
                Value::Zone(z) => Value::Int(self.state.zone_objects(self.game, z).len() as i64),
                _ => Value::Int(list(0)?.len() as i64),
            },
            Builtin::Sum => Value::Int(ints(0)?.iter().try_fold(0i64, |a, x| a.checked_add(*x)).ok_or_else(|| overflow(span))?),
            Builtin::Min => ints(0)?.into_iter().min().map(Value::Int).unwrap_or_default(),
            Builtin::Max => ints(0)?.into_iter().max().map(Value::Int).unwrap_or_default(),
            Builtin::First | Builtin::Top => match arg(0) {
                Value::Zone(z) if let Some(objs) = self.one_zone(z) => objs.first().map(|o| Value::Obj(*o)).unwrap_or_default(),
                _ => list(0)?.first().cloned().unwrap_or_default(),
            },
            Builtin::Last | Builtin::Bottom => list(0)?.last().cloned().unwrap_or_default(),
            Builtin::Reverse => Value::list(list(0)?.iter().rev().cloned().collect()),
            Builtin::Distinct => {
                let mut out: Vec<Value> = Vec::new();
                for v in list(0)?.iter() {
                    self.work(out.len(), span)?;
                    if !out.contains(v) {
                        out.push(v.clone());
                    }
                }
                Value::list(out)
            }
            Builtin::IndexOf => Value::Int(list(0)?.iter().position(|x| *x == arg(1)).map(|i| i as i64).unwrap_or(-1)),
            Builtin::Rotate => {
                let mut v = list(0)?.as_ref().clone();
                if !v.is_empty() {
                    let n = int(1)?.rem_euclid(v.len() as i64) as usize;
                    v.rotate_left(n);
                }
                Value::list(v)
            }
            Builtin::Take => Value::list(list(0)?.iter().take(int(1)?.max(0) as usize).cloned().collect()),
            Builtin::Drop => Value::list(list(0)?.iter().skip(int(1)?.max(0) as usize).cloned().collect()),
            Builtin::Concat => {
                let mut v = list(0)?.as_ref().clone();
                v.extend(list(1)?.iter().cloned());
                self.sized(v, span)?
            }
            Builtin::Without => {
                let remove = match arg(1) {
                    x @ (Value::List(_) | Value::Zone(_)) => self.as_list(x, arg_span(1))?.as_ref().clone(),
                    x => vec![x],
                };
                let from = list(0)?;
                self.work(from.len().saturating_mul(remove.len()), span)?;
                Value::list(from.iter().filter(|x| !remove.contains(x)).cloned().collect())
            }
            Builtin::CountOf => Value::Int(list(0)?.iter().filter(|x| **x == arg(1)).count() as i64),
            Builtin::SortBy | Builtin::Lowest | Builtin::Highest => {
                let env = env.ok_or_else(|| err(span, "internal: a function argument without its env"))?;
                let items = list(0)?;
                let f = arg(1);
                let mut keyed = Vec::with_capacity(items.len());
                for it in items.iter() {
                    let k = match self.call_lambda(&f, std::slice::from_ref(it), env, arg_span(1))? {
                        Value::Int(k) => k,
                        other => return Err(self.type_err(arg_span(1), "a number as the key", &other)),
                    };
                    keyed.push((k, it.clone()));
                }
                match b {
                    Builtin::SortBy => {
                        keyed.sort_by_key(|(k, _)| *k);
                        Value::list(keyed.into_iter().map(|(_, v)| v).collect())
                    }
                    _ => {
                        let best =
                            if b == Builtin::Lowest { keyed.iter().map(|(k, _)| *k).min() } else { keyed.iter().map(|(k, _)| *k).max() };
                        Value::list(keyed.into_iter().filter(|(k, _)| Some(*k) == best).map(|(_, v)| v).collect())
                    }
                }
            }
            Builtin::Players => self.seats_list(None, || players_v(self.state.active_seats())),
            Builtin::AllPlayers => players_v((0..self.state.player_count()).map(|i| Seat::try_from(i).unwrap_or(0)).collect()),
            Builtin::Opponents => {
                let p = player(0)?;
                self.seats_list(Some(p), || players_v(self.turn_order(p).into_iter().filter(|x| *x != p).collect()))
            }
            Builtin::NextPlayer => {
                let p = player(0)?;
                self.next_active(p).map(Value::Player).unwrap_or_default()
            }
            Builtin::Seat => Value::Int(i64::from(player(0)?) + 1),
            Builtin::PlayerCount => Value::Int(self.state.active_seats().len() as i64),
            Builtin::IsOut => Value::Bool(self.state.players.get(player(0)? as usize).is_none_or(|p| p.out)),
            Builtin::Knows => {
                let Value::Obj(o) = arg(1) else { return Err(self.type_err(arg_span(1), "an object", &arg(1))) };
                match arg(0) {
                    Value::None => Value::Bool(true),
                    Value::Player(p) => Value::Bool(self.knows(o, p)),
                    other => return Err(self.type_err(arg_span(0), "a player or none", &other)),
                }
            }
            Builtin::TurnOrder => players_v(self.turn_order(player(0)?)),
            Builtin::Abilities | Builtin::Ability => {
                let slot = match arg(1) {
                    Value::Text(t) => t,
                    other => return Err(self.type_err(arg_span(1), "a slot name in quotes", &other)),
                };
                let abilities = match arg(0) {
                    Value::Obj(o) => self.abilities(o, &slot)?,
                    Value::None => vec![],
                    other => return Err(self.type_err(arg_span(0), "an object", &other)),
                };
                if b == Builtin::Ability { abilities.into_iter().next().unwrap_or_default() } else { Value::list(abilities) }
            }
            Builtin::CanUse => match arg(0) {
                Value::Ability(o, i) => {
                    let by = match arg(1) {
                        Value::Player(p) => Some(p),
                        _ => None,
                    };
                    Value::Bool(self.can_use(o, i, by, span)?)
                }
                Value::None => Value::Bool(false),
                other => return Err(self.type_err(arg_span(0), "an ability", &other)),
            },
            Builtin::DistinctMatch => {
                let env = env.ok_or_else(|| err(span, "internal: a function argument without its env"))?;
                let pool = list(0)?;
                let reqs = list(1)?;
                let f = arg(2);
                if pool.len().saturating_mul(reqs.len()) > arbiter_syntax::budgets::MATCH_BUDGET {
                    return Err(err(span, "size budget exceeded: matching more than a million item and requirement pairs"));
                }
                let mut ok = vec![vec![false; pool.len()]; reqs.len()];
                for (ri, r) in reqs.iter().enumerate() {
                    for (pi, p) in pool.iter().enumerate() {
                        let v = self.call_lambda(&f, &[p.clone(), r.clone()], env, arg_span(2))?;
                        if let Some(cell) = ok.get_mut(ri).and_then(|row| row.get_mut(pi)) {
                            *cell = v == Value::Bool(true);
                        }
                    }
                }
                Value::Bool(bipartite_complete(&ok, pool.len()))
            }
            Builtin::Qty => match arg(0) {
                Value::Amount(a) => Value::Int(a.iter().try_fold(0i64, |acc, (n, _)| acc.checked_add(*n)).ok_or_else(|| overflow(span))?),
                Value::None => Value::Int(0),
                other => return Err(self.type_err(arg_span(0), "an amount", &other)),
            },
            Builtin::AmountOf => match (arg(0), arg(1)) {
                (Value::Int(n), Value::Sym(k)) if n >= 0 => arbiter_ir::value::amount(vec![(n, k)]),
                (Value::Int(n), Value::Sym(_)) => {
                    return Err(err(arg_span(0), format!("an amount cannot be negative, like {n}")).with_help("write 0 or more"));
                }
                (other, _) => return Err(self.type_err(arg_span(0), "a number and a kind", &other)),
            },
            Builtin::Kinds => match arg(0) {
                Value::Amount(a) => Value::list(a.iter().map(|(_, s)| Value::Sym(*s)).collect()),
                Value::None => Value::list(vec![]),
                other => return Err(self.type_err(arg_span(0), "an amount", &other)),
            },
            Builtin::QtyOf => match (arg(0), arg(1)) {
                (Value::Amount(a), Value::Sym(s)) => Value::Int(
                    a.iter().filter(|(_, k)| *k == s).try_fold(0i64, |acc, (n, _)| acc.checked_add(*n)).ok_or_else(|| overflow(span))?,
                ),
                (Value::None, _) => Value::Int(0),
                (other, _) => return Err(self.type_err(arg_span(0), "an amount and a kind", &other)),
            },
            Builtin::Text => {
                let mut s = String::new();
                self.push_label(&mut s, &arg(0), span)?;
                self.charge(s.len(), span)?;
                Value::text(s)
            }
            Builtin::Join => {
                let items = list(0)?;
                let Value::Text(sep) = arg(1) else { return Err(self.type_err(arg_span(1), "a text", &arg(1))) };
                let mut s = String::new();
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        s.push_str(&sep);
                    }
                    self.push_label(&mut s, v, span)?;
                    self.charge(s.len(), span)?;
                }
                Value::text(s)
            }
            Builtin::Pad | Builtin::PadLeft => {
                // The width is charged before any space is made for it.
                let width = usize::try_from(int(1)?).unwrap_or(0);
                self.charge(width, span)?;
                let mut s = String::new();
                self.push_label(&mut s, &arg(0), span)?;
                let len = s.chars().count();
                if len > width {
                    s = s.chars().take(width.saturating_sub(1)).collect();
                    if width > 0 {
                        s.push('…');
                    }
                } else if b == Builtin::Pad {
                    s.extend(std::iter::repeat_n(' ', width - len));
                } else {
                    s = " ".repeat(width - len) + &s;
                }
                self.charge(s.len(), span)?;
                Value::text(s)
            }
            Builtin::Repeat => {
                let Value::Text(t) = arg(0) else { return Err(self.type_err(arg_span(0), "a text", &arg(0))) };
                let n = usize::try_from(int(1)?).unwrap_or(0);
                self.charge(t.len().saturating_mul(n), span)?;
                Value::text(t.repeat(n))
            }
            Builtin::Decklist => {
                let p = player(0)?;
                let section = match arg(1) {
                    Value::Text(t) => t,
                    other => return Err(self.type_err(arg_span(1), "a section name in quotes", &other)),
                };
                let defs = self.state.decklists.get(p as usize).and_then(|d| d.get(section.as_ref())).cloned().unwrap_or_default();
                Value::list(defs.into_iter().map(Value::Def).collect())
            }
            Builtin::Abs => Value::Int(int(0)?.checked_abs().ok_or_else(|| overflow(span))?),
            Builtin::Clamp => {
                let (x, lo, hi) = (int(0)?, int(1)?, int(2)?);
                Value::Int(x.max(lo).min(hi.max(lo)))
            }
            Builtin::Objects => Value::List(list(0)?),
            Builtin::Active => match arg(0) {
                Value::Obj(o) => Value::Bool(self.is_active(o)?),
                _ => Value::Bool(false),
            },
            Builtin::Definitions => {
                let name = match arg(0) {
                    Value::Text(t) => t,
                    other => return Err(self.type_err(arg_span(0), "a kind's name in quotes", &other)),
                };
                let kind = self.game.kinds.iter().position(|k| k.name == name.as_str());
                Value::list(
                    self.game
                        .defs
                        .iter()
                        .enumerate()
                        .filter(|(_, d)| Some(d.kind as usize) == kind)
                        .map(|(i, _)| Value::Def(u32::try_from(i).unwrap_or(0)))
                        .collect(),
                )
            }
            Builtin::Range => {
                let (lo, hi) = (int(0)?, int(1)?);
                if hi.saturating_sub(lo) >= SIZE_BUDGET as i64 {
                    return Err(err(span, format!("size budget exceeded: a range of more than {SIZE_BUDGET} numbers")));
                }
                self.sized((lo..=hi).map(Value::Int).collect(), span)?
            }
            Builtin::Mm => scaled(0, 1_000)?,
            Builtin::Cm => scaled(0, 10_000)?,
            Builtin::Deg => scaled(0, 1_000)?,
            Builtin::Point => Value::pose(int(0)?, int(1)?, 0),
            Builtin::PoseOf => Value::pose(int(0)?, int(1)?, geo::norm_angle(int(2)?)),
            Builtin::PoseX => Value::Int(pose(0)?.x),
            Builtin::PoseY => Value::Int(pose(0)?.y),
            Builtin::HeadingOf => Value::Int(pose(0)?.h),
            Builtin::Step => pv(geo::step(pose(0)?, int(1)?, int(2)?, int(3)?)),
            Builtin::Forward => pv(geo::step(pose(0)?, int(1)?, 0, 0)),
            Builtin::Turned => pv(geo::step(pose(0)?, 0, 0, int(1)?)),
            Builtin::Place => shape_v(geo::place(&shape(0)?, pose(1)?)),
            Builtin::Distance => Value::Int(geo::round_len(geo::dist(pose(0)?.p(), pose(1)?.p()))),
            Builtin::Bearing => Value::Int(geo::bearing(pose(0)?.p(), pose(1)?.p())),
            Builtin::AngleDiff => Value::Int(geo::angle_diff(int(0)?, int(1)?)),
            Builtin::PointIn => Value::Bool(geo::point_in(pose(0)?.p(), &shape(1)?)),
            Builtin::Overlaps => Value::Bool(geo::overlaps(&shape(0)?, &shape(1)?)),
            Builtin::Crosses => Value::Bool(geo::crosses(pose(0)?.p(), pose(1)?.p(), &shape(2)?)),
            Builtin::FirstEdge => match geo::first_edge(pose(0)?.p(), pose(1)?.p(), &shape(2)?) {
                Some(i) => Value::Int(i64::try_from(i).unwrap_or(0)),
                None => Value::None,
            },
            Builtin::Within => Value::Bool(geo::within(&shape(0)?, &shape(1)?)),
            Builtin::InArc => Value::Bool(geo::in_arc(pose(0)?, int(1)?, pose(2)?.p())),
            Builtin::NearestInArc => geo::nearest_in_arc(pose(0)?, int(1)?, &shape(2)?).map(ptv).unwrap_or_default(),
            Builtin::PointsInArc => shape_v(geo::points_in_arc(pose(0)?, int(1)?, &shape(2)?, int(3)? as f64)),
            Builtin::DistanceTo => Value::Int(geo::round_len(geo::distance_to(pose(0)?.p(), &shape(1)?))),
            Builtin::ShapeDistance => Value::Int(geo::round_len(geo::shape_distance(&shape(0)?, &shape(1)?))),
            Builtin::Regular => {
                let n = usize::try_from(int(0)?).unwrap_or(3);
                shape_v(geo::regular(n, int(1)? as f64))
            }
            Builtin::Rect => {
                let (l, w) = (int(0)? as f64 / 2.0, int(1)? as f64 / 2.0);
                shape_v(vec![geo::P { x: l, y: w }, geo::P { x: -l, y: w }, geo::P { x: -l, y: -w }, geo::P { x: l, y: -w }])
            }
            // A zone in one place, or a list, by a number is answered in `builtin`; here, the rest.
            Builtin::Nth => {
                let i = int(1)?;
                let l = list(0)?;
                usize::try_from(i).ok().and_then(|i| l.get(i).cloned()).unwrap_or_default()
            }
            Builtin::Flatten => {
                let mut out = Vec::new();
                for inner in list(0)?.iter() {
                    out.extend(self.as_list(inner.clone(), arg_span(0))?.iter().cloned());
                }
                self.sized(out, span)?
            }
            Builtin::Pile => match arg(0) {
                Value::Obj(o) => {
                    let mut v = vec![Value::Obj(o)];
                    if let Some(ob) = self.state.obj(o) {
                        v.extend(ob.under.iter().map(|u| Value::Obj(*u)));
                    }
                    Value::list(v)
                }
                _ => Value::list(vec![]),
            },
        })
    }
}

/// Whether every row (requirement) can be matched to a distinct column (item).
fn bipartite_complete(ok: &[Vec<bool>], cols: usize) -> bool {
    let mut owner: Vec<Option<usize>> = vec![None; cols];
    fn augment(r: usize, ok: &[Vec<bool>], seen: &mut [bool], owner: &mut [Option<usize>]) -> bool {
        let Some(row) = ok.get(r) else { return false };
        for (c, &can) in row.iter().enumerate() {
            if !can || seen.get(c).copied().unwrap_or(true) {
                continue;
            }
            if let Some(s) = seen.get_mut(c) {
                *s = true;
            }
            let prev = owner.get(c).copied().flatten();
            if prev.is_none_or(|p| stacker::maybe_grow(32 * 1024, 1024 * 1024, || augment(p, ok, seen, owner))) {
                if let Some(slot) = owner.get_mut(c) {
                    *slot = Some(r);
                }
                return true;
            }
        }
        false
    }
    (0..ok.len()).all(|r| {
        let mut seen = vec![false; cols];
        augment(r, ok, &mut seen, &mut owner)
    })
}

#[cfg(test)]
mod tests {
    use super::bipartite_complete;

    #[test]
    fn matching_counts_no_item_twice() {
        // One item fits both requirements: not enough.
        assert!(!bipartite_complete(&[vec![true], vec![true]], 1));
        // Item 0 fits both, item 1 fits only the first: a complete matching exists.
        assert!(bipartite_complete(&[vec![true, true], vec![true, false]], 2));
    }
}
