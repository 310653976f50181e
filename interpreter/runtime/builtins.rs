//! The built-in functions at run time: a call of one (`builtin`, with its fast paths), what an
//! implementation reads its arguments through (`BuiltinCall`), and the dispatch to the
//! implementations. Each builtin's implementation is written with its signature in a family file
//! of `interpreter/builtins/` (see the README.md there), which is made a module here: `builtins!`
//! below makes each implementation a function, which sees the names imported here.

use super::RtError;
use super::RtResult;
use super::eval::{Evaluator, err, overflow};
use super::geometry as geo;
use super::state::Env;
use arbiter_ir::builtins::Builtin;
use arbiter_ir::value::{Seat, Value};
use arbiter_ir::*;
use arbiter_syntax::budgets::SIZE_BUDGET;
use arbiter_syntax::span::Span;
use std::sync::Arc;

impl Evaluator<'_> {
    pub(super) fn builtin(&self, b: Builtin, args: &[ExprIr], env: &mut Env, span: Span) -> RtResult<Value> {
        // A built-in that calls a function `|x| ..` needs the env: its arguments are evaluated into
        // values of their own first.
        if b.takes_lambda() {
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

    /// The builtin `b` called with evaluated arguments (and the env, when it takes a function).
    fn builtin_with(&self, b: Builtin, args: &[ExprIr], vals: &[&Value], env: Option<&mut Env>, span: Span) -> RtResult<Value> {
        implementation(b, &mut BuiltinCall { evaluator: self, args, vals, env, span })
    }
}

/// One call of a builtin, as its implementation sees it: its arguments' values and where each is
/// written (for errors), the call's own span (for budgets and overflows), and the env a function
/// argument `|x| ..` runs in. It derefs to the evaluator: `call.state`, `call.game`,
/// `call.work(n, call.span)`.
pub(super) struct BuiltinCall<'c, 'a> {
    evaluator: &'c Evaluator<'a>,
    args: &'c [ExprIr],
    vals: &'c [&'c Value],
    env: Option<&'c mut Env>,
    /// Where the call is written.
    pub span: Span,
}

impl<'a> std::ops::Deref for BuiltinCall<'_, 'a> {
    type Target = Evaluator<'a>;

    fn deref(&self) -> &Evaluator<'a> {
        self.evaluator
    }
}

impl BuiltinCall<'_, '_> {
    /// Argument `i`'s value (none when absent: an optional argument left out).
    #[inline]
    pub fn arg(&self, i: usize) -> Value {
        self.vals.get(i).map(|v| (*v).clone()).unwrap_or_default()
    }

    /// Where argument `i` is written (the call, when it is absent).
    #[inline]
    pub fn arg_span(&self, i: usize) -> Span {
        self.args.get(i).map(|a| a.span).unwrap_or(self.span)
    }

    /// The type error of argument `i`: `what` was expected.
    pub fn expected(&self, i: usize, what: &str) -> RtError {
        self.type_err(self.arg_span(i), what, &self.arg(i))
    }

    /// Argument `i` as a list (a zone's objects), walked: one step per item.
    #[inline]
    pub fn list(&self, i: usize) -> RtResult<Arc<Vec<Value>>> {
        let l = self.as_list(self.arg(i), self.arg_span(i))?;
        self.work(l.len(), self.span)?;
        Ok(l)
    }

    #[inline]
    pub fn int(&self, i: usize) -> RtResult<i64> {
        match self.vals.get(i) {
            Some(Value::Int(x)) => Ok(*x),
            _ => Err(self.expected(i, "a number")),
        }
    }

    #[inline]
    pub fn player(&self, i: usize) -> RtResult<Seat> {
        match self.arg(i) {
            Value::Player(p) => Ok(p),
            other => Err(self.type_err(self.arg_span(i), "a player", &other)),
        }
    }

    /// Argument `i` as a text; `what` names it in the type error, like "a slot name in quotes".
    pub fn text(&self, i: usize, what: &str) -> RtResult<Arc<String>> {
        match self.arg(i) {
            Value::Text(t) => Ok(t),
            other => Err(self.type_err(self.arg_span(i), what, &other)),
        }
    }

    /// Argument `i` as a list of numbers.
    pub fn ints(&self, i: usize) -> RtResult<Vec<i64>> {
        self.list(i)?
            .iter()
            .map(|v| match v {
                Value::Int(x) => Ok(*x),
                other => Err(self.type_err(self.arg_span(i), "a list of numbers", other)),
            })
            .collect()
    }

    pub fn pose(&self, i: usize) -> RtResult<geo::Pose> {
        match self.arg(i) {
            Value::Pose(p) => {
                let [x, y, h] = *p;
                Ok(geo::Pose { x, y, h })
            }
            other => Err(self.type_err(self.arg_span(i), "a pose", &other)),
        }
    }

    /// Argument `i` as a shape: its corners.
    pub fn shape(&self, i: usize) -> RtResult<Vec<geo::Point>> {
        self.list(i)?
            .iter()
            .map(|v| match v {
                Value::Pose(p) => {
                    let [x, y, _] = **p;
                    Ok(geo::Point { x: x as f64, y: y as f64 })
                }
                other => Err(self.type_err(self.arg_span(i), "a shape (a list of points)", other)),
            })
            .collect()
    }

    /// The env a function argument runs in: a builtin that takes one (its signature's `lambda`)
    /// is always called with it.
    pub fn env(&mut self) -> RtResult<&mut Env> {
        self.env.as_deref_mut().ok_or_else(|| err(self.span, "internal: a function argument without its env"))
    }

    /// The function `f` (argument `at`) called on `params`.
    pub fn lambda(&mut self, f: &Value, params: &[Value], at: usize) -> RtResult<Value> {
        let (evaluator, span) = (self.evaluator, self.arg_span(at));
        evaluator.call_lambda(f, params, self.env()?, span)
    }
}

/// A family file's builtins as the runtime needs them: each one's implementation a function of
/// the family's module, named after its `Builtin` and inlined into the dispatch (as the arms of
/// one match were); then the family's helpers. The module sees the names imported here.
macro_rules! builtins {
    (
        $(
            $(#[doc = $doc:literal])+
            $variant:ident $name:ident ($($signature:tt)*) -> $ret:ident |$call:ident| $body:block
        )*
        $(fn $helper:ident $helper_params:tt $(-> $helper_ret:ty)? $helper_body:block)*
    ) => {
        use super::*;
        $(
            $(#[doc = $doc])+
            #[inline]
            pub(super) fn $variant($call: &mut BuiltinCall<'_, '_>) -> RtResult<Value> {
                Ok($body)
            }
        )*
        $(fn $helper $helper_params $(-> $helper_ret)? $helper_body)*
    };
}

/// Each family file of `interpreter/builtins/` a module (`lists`, `players`, …).
macro_rules! family_modules {
    ($($family:ident $file:literal)*) => {
        $(
            #[allow(non_snake_case, reason = "each implementation is named after its `Builtin`")]
            #[path = $file]
            mod $family;
        )*
    };
}

arbiter_ir::builtin_families!(files family_modules);

/// The dispatch: `implementation(b, call)` calls builtin `b`'s function in its family's module.
macro_rules! dispatch {
    ($($family:ident {
        $(
            $(#[doc = $doc:literal])+
            $variant:ident $name:ident ($($signature:tt)*) -> $ret:ident |$call:ident| $body:block
        )*
        $(fn $helper:ident $helper_params:tt $(-> $helper_ret:ty)? $helper_body:block)*
    })*) => {
        /// Builtin `b`'s implementation, called.
        #[inline]
        fn implementation(b: Builtin, call: &mut BuiltinCall<'_, '_>) -> RtResult<Value> {
            match b {
                $($(Builtin::$variant => $family::$variant(call),)*)*
            }
        }
    };
}

arbiter_ir::builtin_families!(items dispatch);

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
