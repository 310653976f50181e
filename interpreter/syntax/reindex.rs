//! A parsed file under another file index: every span in its tree moved to the new index.
//!
//! Spans carry the index of their file among the files loaded together, so the same file parsed
//! on its own (to learn its game and the files it uses) and as part of a game has two trees that
//! differ only there. Moving the spans is far cheaper than parsing again. Every node is
//! destructured in full, so that a field added to the tree without its spans moved here does not
//! compile. (tests/examples.rs checks the moved tree of every repository file against a fresh
//! parse.)

use super::ast::*;

/// Move every span of a node to another file.
pub(super) trait SetFile {
    fn set_file(&mut self, file: u32);
}

impl File {
    /// The same tree, with spans in file `file`.
    pub fn with_file_index(&self, file: u32) -> File {
        let mut f = self.clone();
        f.file = file;
        f.items.set_file(file);
        f
    }
}

impl SetFile for Span {
    fn set_file(&mut self, file: u32) {
        self.file = file;
    }
}

impl<T: SetFile> SetFile for Spanned<T> {
    fn set_file(&mut self, file: u32) {
        self.span.file = file;
        self.node.set_file(file);
    }
}

impl<T: SetFile> SetFile for Box<T> {
    fn set_file(&mut self, file: u32) {
        (**self).set_file(file);
    }
}

impl<T: SetFile> SetFile for Vec<T> {
    fn set_file(&mut self, file: u32) {
        for x in self {
            x.set_file(file);
        }
    }
}

impl<T: SetFile> SetFile for Option<T> {
    fn set_file(&mut self, file: u32) {
        if let Some(x) = self {
            x.set_file(file);
        }
    }
}

impl<A: SetFile, B: SetFile> SetFile for (A, B) {
    fn set_file(&mut self, file: u32) {
        self.0.set_file(file);
        self.1.set_file(file);
    }
}

/// Leaves without spans of their own.
macro_rules! no_spans {
    ($($t:ty),*) => {
        $(impl SetFile for $t {
            fn set_file(&mut self, _file: u32) {}
        })*
    };
}
no_spans!(String, i64, PropValue, ModifyOp, DeckHead, AssignOp, MoveFlag);

/// A struct: each field moved (all fields named, so a new one must be added here).
macro_rules! fields {
    ($t:ident { $($f:ident),* } $(, skip { $($s:ident),* })?) => {
        impl SetFile for $t {
            fn set_file(&mut self, file: u32) {
                let $t { $($f,)* $($($s: _,)*)? } = self;
                $($f.set_file(file);)*
            }
        }
    };
}

fields!(SectionItem { title, cite });
fields!(Prop { key, values, span });
fields!(GameItem { name, props });
fields!(EnumItem { name, members, cite }, skip { open });
fields!(KindItem { name, fields, slots, active_in, label, cite });
fields!(FieldDecl { name, ty, default });
fields!(SlotDecl { name }, skip { many });
fields!(ZoneItem { name, visibility, holds, cite }, skip { per_player, ordered });
fields!(VarDecl { name, ty, default, cite });
fields!(TypeExpr { kind, span });
fields!(ConstItem { name, ty, value, cite });
fields!(EventItem { name, params, cite });
fields!(Param { name, ty });
fields!(ProcItem { name, params, requires, cite, body });
fields!(FuncItem { name, params, body, cite });
fields!(HintItem { func, sample }, skip { side });
fields!(HookItem { name, params, when, cite });
fields!(TriggerItem { name, cite, on, params, when, by, body });
fields!(ModifierItem { name, cite, body });
fields!(ModifierBody { var, when, layer, blank, effects });
fields!(FieldEffect { var, field, op, value });
fields!(ReplaceItem { name, cite, body });
fields!(ReplaceBody { target, params, when, optional, body });
fields!(AlwaysItem { name, cite, body });
fields!(DeckbuildingItem { cite, rules });
fields!(DeckRule { each, cond, message, span });
fields!(DeckItem { name, sample, entries });
fields!(DeckEntry { head, card });
fields!(VariantItem { name, title, extends, cite, ops });
fields!(StepOp { proc, step, how, cite, body });
fields!(ScenarioItem { id, title, props, body });
fields!(ObjectItem { kind, name, sample, props, abilities, modifiers, triggers, permits, forbids, replaces });
fields!(Ability { slot, label, costs, targets, requires, body, span });
fields!(Target { name, from, filter, chosen_by, prompt });
fields!(ObjectModifier { label, active_while, body, span });
fields!(ObjectTrigger { on, params, when, body, span });
fields!(ObjectReplace { label, body, span });
fields!(Block { stmts, span });
fields!(Create { def, owner, zone }, skip { face_up });
fields!(CallExpr { name, args, span });
fields!(Choose { who, prompt, form }, skip { secret });
fields!(Branch { label, cond, body }, skip { rarely });
fields!(StrLit { parts });

impl SetFile for Item {
    fn set_file(&mut self, file: u32) {
        match self {
            Item::Game(x) => x.set_file(file),
            Item::For(x) | Item::Uses(x) | Item::PartOf(x) => x.set_file(file),
            Item::Enum(x) => x.set_file(file),
            Item::Kind(x) => x.set_file(file),
            Item::Zone(x) => x.set_file(file),
            Item::Player(x) | Item::Global(x) => x.set_file(file),
            Item::Const(x) => x.set_file(file),
            Item::Event(x) => x.set_file(file),
            Item::Proc(x) => x.set_file(file),
            Item::Func(x) | Item::Check(x) => x.set_file(file),
            Item::Hint(x) => x.set_file(file),
            Item::Permit(x) | Item::Forbid(x) => x.set_file(file),
            Item::Trigger(x) => x.set_file(file),
            Item::Modifier(x) => x.set_file(file),
            Item::Replace(x) => x.set_file(file),
            Item::Always(x) => x.set_file(file),
            Item::Deckbuilding(x) => x.set_file(file),
            Item::Deck(x) => x.set_file(file),
            Item::Variant(x) => x.set_file(file),
            Item::Scenario(x) => x.set_file(file),
            Item::Section(x) => x.set_file(file),
            Item::Object(x) => x.set_file(file),
        }
    }
}

impl SetFile for TypeKind {
    fn set_file(&mut self, file: u32) {
        match self {
            TypeKind::Named { .. } => {}
            TypeKind::List(inner) => inner.set_file(file),
        }
    }
}

impl SetFile for VariantOp {
    fn set_file(&mut self, file: u32) {
        match self {
            VariantOp::Replace(item) | VariantOp::Add(item) => item.set_file(file),
            VariantOp::Remove { kind, name } => {
                kind.set_file(file);
                name.set_file(file);
            }
            VariantOp::Set { name, value, cite } => {
                name.set_file(file);
                value.set_file(file);
                cite.set_file(file);
            }
            VariantOp::Step(op) => op.set_file(file),
        }
    }
}

impl SetFile for StepHow {
    fn set_file(&mut self, file: u32) {
        if let StepHow::Insert { before: _, anchor } = self {
            anchor.set_file(file);
        }
    }
}

impl SetFile for StmtKind {
    fn set_file(&mut self, file: u32) {
        match self {
            StmtKind::Let { name, value } => {
                name.set_file(file);
                value.set_file(file);
            }
            StmtKind::Assign { place, op, value } => {
                place.set_file(file);
                op.set_file(file);
                value.set_file(file);
            }
            StmtKind::If { arms, otherwise } => {
                arms.set_file(file);
                otherwise.set_file(file);
            }
            StmtKind::For { var, list, body } => {
                var.set_file(file);
                list.set_file(file);
                body.set_file(file);
            }
            StmtKind::While { cond: x, body } | StmtKind::Repeat { count: x, body } => {
                x.set_file(file);
                body.set_file(file);
            }
            StmtKind::Step { name, cite, body } => {
                name.set_file(file);
                cite.set_file(file);
                body.set_file(file);
            }
            StmtKind::Return(x) => x.set_file(file),
            StmtKind::Call(c) | StmtKind::Signal(c) | StmtKind::Run(c) => c.set_file(file),
            StmtKind::Choose(c) => c.set_file(file),
            StmtKind::Move { what, to, flags } => {
                what.set_file(file);
                to.set_file(file);
                flags.set_file(file);
            }
            StmtKind::Put { what, under: _, target } => {
                what.set_file(file);
                target.set_file(file);
            }
            StmtKind::Turn { what, up: _ } => what.set_file(file),
            StmtKind::Shuffle(x) | StmtKind::Conceal(x) => x.set_file(file),
            StmtKind::Modify { target, field, op, value, until } => {
                target.set_file(file);
                field.set_file(file);
                op.set_file(file);
                value.set_file(file);
                until.set_file(file);
            }
            StmtKind::Expire(n) => n.set_file(file),
            StmtKind::Lasting { forbid: _, hook, until } => {
                hook.set_file(file);
                until.set_file(file);
            }
            StmtKind::Log(s) | StmtKind::Draw(s) => s.set_file(file),
            StmtKind::Win { who, reason } | StmtKind::Lose { who, reason } => {
                who.set_file(file);
                reason.set_file(file);
            }
            StmtKind::Reveal { what, to } => {
                what.set_file(file);
                to.set_file(file);
            }
            StmtKind::Create(c) => c.set_file(file),
            StmtKind::Use(a, by) => {
                a.set_file(file);
                by.set_file(file);
            }
            StmtKind::Answer { who, value } => {
                who.set_file(file);
                value.set_file(file);
            }
            StmtKind::Random(r) => r.set_file(file),
            StmtKind::Expect(e) => e.set_file(file),
            StmtKind::Stop => {}
        }
    }
}

impl SetFile for LetValue {
    fn set_file(&mut self, file: u32) {
        match self {
            LetValue::Expr(x) | LetValue::Roll(x) | LetValue::Pick(x) => x.set_file(file),
            LetValue::Call(c) => c.set_file(file),
            LetValue::Choose(c) => c.set_file(file),
            LetValue::Create(c) => c.set_file(file),
        }
    }
}

impl SetFile for ChooseForm {
    fn set_file(&mut self, file: u32) {
        match self {
            ChooseForm::From { count, list, none } => {
                count.set_file(file);
                list.set_file(file);
                none.set_file(file);
            }
            ChooseForm::Branches(b) => b.set_file(file),
        }
    }
}

impl SetFile for ChooseCount {
    fn set_file(&mut self, file: u32) {
        match self {
            ChooseCount::One | ChooseCount::Order => {}
            ChooseCount::Exactly(x) | ChooseCount::UpTo(x) => x.set_file(file),
        }
    }
}

impl SetFile for RandomScript {
    fn set_file(&mut self, file: u32) {
        match self {
            RandomScript::Roll(x) | RandomScript::Order(x) | RandomScript::Pick(x) => x.set_file(file),
            RandomScript::Keep => {}
        }
    }
}

impl SetFile for Expect {
    fn set_file(&mut self, file: u32) {
        match self {
            Expect::Options { who, labels } => {
                who.set_file(file);
                labels.set_file(file);
            }
            Expect::Finished => {}
            Expect::Decision { who, prompt } => {
                who.set_file(file);
                prompt.set_file(file);
            }
            Expect::Log(x) => x.set_file(file),
            Expect::Deck { name, valid: _, fragment } => {
                name.set_file(file);
                fragment.set_file(file);
            }
            Expect::True { cond, message } => {
                cond.set_file(file);
                message.set_file(file);
            }
            Expect::Sees { who, what, sees: _ } => {
                who.set_file(file);
                what.set_file(file);
            }
        }
    }
}

impl SetFile for StrPart {
    fn set_file(&mut self, file: u32) {
        match self {
            StrPart::Text(_) => {}
            StrPart::Expr(x) => x.set_file(file),
        }
    }
}

impl SetFile for ExprKind {
    fn set_file(&mut self, file: u32) {
        match self {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::None | ExprKind::You | ExprKind::SelfRef | ExprKind::Var(_) => {}
            ExprKind::Str(s) => s.set_file(file),
            ExprKind::Call(c) => c.set_file(file),
            ExprKind::ProcRef(n) => n.set_file(file),
            ExprKind::Field { base, field } => {
                base.set_file(file);
                field.set_file(file);
            }
            ExprKind::Unary { op: _, expr } => expr.set_file(file),
            ExprKind::Binary { op: _, lhs, rhs } => {
                lhs.set_file(file);
                rhs.set_file(file);
            }
            ExprKind::If { cond, then, otherwise } => {
                cond.set_file(file);
                then.set_file(file);
                otherwise.set_file(file);
            }
            ExprKind::Quant { any: _, var, list, cond } | ExprKind::Filter { var, list, cond } => {
                var.set_file(file);
                list.set_file(file);
                cond.set_file(file);
            }
            ExprKind::Lambda { params, body } => {
                params.set_file(file);
                body.set_file(file);
            }
            ExprKind::Map { expr, var, list, cond } => {
                expr.set_file(file);
                var.set_file(file);
                list.set_file(file);
                cond.set_file(file);
            }
            ExprKind::List(items) => items.set_file(file),
        }
    }
}
