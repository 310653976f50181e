//! The operators of compiled code. They mirror the syntax tree's (`arbiter_syntax::ast::BinaryOperator`
//! and its kin) one for one; the checker translates each as it lowers an expression, so that the
//! runtime and everything that reads compiled code depend on the IR alone.

/// `a op b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOperator {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    Has,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinaryOperator {
    /// `<`, `<=`, `>` or `>=` on two whole numbers (any other operator is read as `>=`): for the
    /// evaluator and for folding constants alike.
    #[inline]
    pub fn compare(self, x: i64, y: i64) -> bool {
        match self {
            BinaryOperator::Lt => x < y,
            BinaryOperator::Le => x <= y,
            BinaryOperator::Gt => x > y,
            _ => x >= y,
        }
    }

    /// `==`, `!=`, `<`, `<=`, `>`, `>=`, `in`, `not in`, `has`: an operator that compares its sides
    /// (what an explanation shows each side of).
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOperator::Eq
                | BinaryOperator::Ne
                | BinaryOperator::Lt
                | BinaryOperator::Le
                | BinaryOperator::Gt
                | BinaryOperator::Ge
                | BinaryOperator::In
                | BinaryOperator::NotIn
                | BinaryOperator::Has
        )
    }
}

/// `-x` and `not x`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOperator {
    Neg,
    Not,
}

/// `place = v`, `place += v`, `place -= v`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssignOperator {
    Set,
    Add,
    Sub,
}

/// How a continuous effect changes a field (`modify x.f += 1 until ..`). Saved games hold it by
/// its variant's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ModifyOperator {
    Add,
    Sub,
    Set,
    Insert,
    Remove,
}

/// Object properties every object has, whatever its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjProp {
    Owner,
    Controller,
    Zone,
    FaceUp,
    Name,
    Def,
    Under,
    Above,
    Top,
    Id,
}

impl ObjProp {
    pub const ALL: [(&'static str, ObjProp); 10] = [
        ("owner", ObjProp::Owner),
        ("controller", ObjProp::Controller),
        ("zone", ObjProp::Zone),
        ("face_up", ObjProp::FaceUp),
        ("name", ObjProp::Name),
        ("def", ObjProp::Def),
        ("under", ObjProp::Under),
        ("above", ObjProp::Above),
        ("top", ObjProp::Top),
        ("id", ObjProp::Id),
    ];
}
