//! A procedure's named steps (`step draw { .. }`): finding them in its body, and the changes a
//! variant makes to them (replace, remove, insert before or after).

use arbiter_syntax::ast::{Block, ChooseForm, Name, Stmt, StmtKind};
use arbiter_syntax::span::{Span, Spanned};

/// The blocks directly inside a statement.
fn children(s: &StmtKind) -> Vec<&Block> {
    match s {
        StmtKind::If { arms, otherwise } => arms.iter().map(|(_, b)| b).chain(otherwise).collect(),
        StmtKind::For { body, .. } | StmtKind::While { body, .. } | StmtKind::Repeat { body, .. } | StmtKind::Step { body, .. } => {
            vec![body]
        }
        StmtKind::Choose(c) => match &c.form {
            ChooseForm::Branches(bs) => bs.iter().map(|b| &b.body).collect(),
            ChooseForm::From { .. } => vec![],
        },
        _ => vec![],
    }
}

fn children_mut(s: &mut StmtKind) -> Vec<&mut Block> {
    match s {
        StmtKind::If { arms, otherwise } => arms.iter_mut().map(|(_, b)| b).chain(otherwise.as_mut()).collect(),
        StmtKind::For { body, .. } | StmtKind::While { body, .. } | StmtKind::Repeat { body, .. } | StmtKind::Step { body, .. } => {
            vec![body]
        }
        StmtKind::Choose(c) => match &mut c.form {
            ChooseForm::Branches(bs) => bs.iter_mut().map(|b| &mut b.body).collect(),
            ChooseForm::From { .. } => vec![],
        },
        _ => vec![],
    }
}

/// Every named step in a block, nested ones included, in the order written: its name and the
/// whole step's span.
pub fn steps_in(b: &Block) -> Vec<(Name, Span)> {
    let mut out = Vec::new();
    collect(&b.stmts, &mut out);
    out
}

fn collect(stmts: &[Stmt], out: &mut Vec<(Name, Span)>) {
    for s in stmts {
        if let StmtKind::Step { name, .. } = &s.node {
            out.push((name.clone(), s.span));
        }
        for b in children(&s.node) {
            collect(&b.stmts, out);
        }
    }
}

/// Call `f` with the list of statements that holds the step `name` and its index there; false
/// when there is no such step.
fn with_step(stmts: &mut Vec<Stmt>, name: &str, f: &mut dyn FnMut(&mut Vec<Stmt>, usize)) -> bool {
    let at = stmts.iter().position(|s| matches!(&s.node, StmtKind::Step { name: n, .. } if n.node == name));
    if let Some(i) = at {
        f(stmts, i);
        return true;
    }
    for s in stmts.iter_mut() {
        for b in children_mut(&mut s.node) {
            if with_step(&mut b.stmts, name, f) {
                return true;
            }
        }
    }
    false
}

/// A change to one step, as a variant writes it.
pub enum Edit<'e> {
    Replace { body: &'e Block, cite: Option<&'e Spanned<String>> },
    Remove,
    Insert { name: &'e Name, before: bool, body: &'e Block, cite: Option<&'e Spanned<String>> },
}

/// Apply an edit to the step `name` of a procedure's body; false when it has no such step.
pub fn edit(body: &mut Block, name: &str, e: &Edit) -> bool {
    with_step(&mut body.stmts, name, &mut |stmts, i| match e {
        Edit::Replace { body, cite } => {
            if let Some(Spanned { node: StmtKind::Step { body: b, cite: c, .. }, .. }) = stmts.get_mut(i) {
                *b = (*body).clone();
                if cite.is_some() {
                    *c = cite.cloned();
                }
            }
        }
        Edit::Remove => {
            if i < stmts.len() {
                stmts.remove(i);
            }
        }
        Edit::Insert { name, before, body, cite } => {
            let step = Spanned::new(StmtKind::Step { name: (*name).clone(), cite: cite.cloned(), body: (*body).clone() }, body.span);
            let at = if *before { i } else { i + 1 };
            stmts.insert(at.min(stmts.len()), step);
        }
    })
}
