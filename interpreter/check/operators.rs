//! The syntax tree's operators as compiled code's: one for one, so that nothing above the checker
//! reads the syntax tree's (see `arbiter_ir::operators`).

use arbiter_ir::operators::{AssignOperator, BinaryOperator, ModifyOperator, UnaryOperator};
use arbiter_syntax::ast::{AssignOp, BinOp, ModifyOp, UnOp};

pub fn binary(op: BinOp) -> BinaryOperator {
    match op {
        BinOp::Or => BinaryOperator::Or,
        BinOp::And => BinaryOperator::And,
        BinOp::Eq => BinaryOperator::Eq,
        BinOp::Ne => BinaryOperator::Ne,
        BinOp::Lt => BinaryOperator::Lt,
        BinOp::Le => BinaryOperator::Le,
        BinOp::Gt => BinaryOperator::Gt,
        BinOp::Ge => BinaryOperator::Ge,
        BinOp::In => BinaryOperator::In,
        BinOp::NotIn => BinaryOperator::NotIn,
        BinOp::Has => BinaryOperator::Has,
        BinOp::Add => BinaryOperator::Add,
        BinOp::Sub => BinaryOperator::Sub,
        BinOp::Mul => BinaryOperator::Mul,
        BinOp::Div => BinaryOperator::Div,
        BinOp::Rem => BinaryOperator::Rem,
    }
}

pub fn unary(op: UnOp) -> UnaryOperator {
    match op {
        UnOp::Neg => UnaryOperator::Neg,
        UnOp::Not => UnaryOperator::Not,
    }
}

pub fn assign(op: AssignOp) -> AssignOperator {
    match op {
        AssignOp::Set => AssignOperator::Set,
        AssignOp::Add => AssignOperator::Add,
        AssignOp::Sub => AssignOperator::Sub,
    }
}

pub fn modify(op: ModifyOp) -> ModifyOperator {
    match op {
        ModifyOp::Add => ModifyOperator::Add,
        ModifyOp::Sub => ModifyOperator::Sub,
        ModifyOp::Set => ModifyOperator::Set,
        ModifyOp::Insert => ModifyOperator::Insert,
        ModifyOp::Remove => ModifyOperator::Remove,
    }
}
