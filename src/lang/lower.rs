//! Lowering of expressions and statements: names become indices, options become constants,
//! statements become jumps and instructions. Type errors are reported here. By concern:
//! `scope` (variables, scopes, the expansion budget), `expr` (expressions and their types),
//! `sets` (sets of sites), `calls` (names, built-in functions, inlined `def`s), `stmt`
//! (statements, choices and their notations), `memory` (tallies per site and lines).

use crate::ast::{self, BinOp, ExprKind, Span, StmtKind, UnOp, ValueItem};
use crate::check::{Checker, Cost, Global, Local, Ty};
use crate::diagnostic::ErrorKind;
use crate::ir::*;
use crate::limits::{MAX_EXPANDED_NESTING, MAX_EXPANSION};

mod calls;
mod expr;
mod memory;
mod scope;
mod sets;
mod stmt;

/// The stack lowering leaves for what comes after it (see `Checker::enter`).
const STACK_RESERVE: usize = 256 << 10;

fn all_kinds() -> KindMask {
    KindMask(u32::MAX)
}

fn b(e: Expr) -> Box<Expr> {
    Box::new(e)
}

/// Folds constant arithmetic: the error when it has no value (a division by zero, or a result
/// that does not fit in 64 bits).
fn fold(op: Op, x: i64, y: i64) -> Result<i64, ErrorKind> {
    if matches!(op, Op::Div | Op::Mod) && y == 0 {
        return Err(ErrorKind::DivisionByZero);
    }
    crate::ir::apply(op, x, y).ok_or(ErrorKind::Overflow)
}

/// A statement that only tests (for `again`, see [`Checker::block`]): a `let`, or an `if` without
/// `else` whose block makes no decision and ends with `end turn`, `end round` or `end game`.
fn is_test(s: &ast::Stmt) -> bool {
    match &s.kind {
        StmtKind::Let(..) | StmtKind::LetTyped { .. } => true,
        StmtKind::If {
            then,
            otherwise: None,
            ..
        } => {
            matches!(
                then.last().map(|s| &s.kind),
                Some(StmtKind::EndTurn | StmtKind::EndRound | StmtKind::EndGame(..))
            ) && then.iter().all(|s| !decides(s))
        }
        _ => false,
    }
}

/// Whether a statement can stop for a decision or a chance event.
fn decides(s: &ast::Stmt) -> bool {
    match &s.kind {
        StmtKind::Choose(..) | StmtKind::Throw { .. } | StmtKind::Sow { .. } => true,
        StmtKind::Do { .. } => true,
        StmtKind::If {
            then, otherwise, ..
        } => then.iter().any(decides) || otherwise.iter().flatten().any(decides),
        StmtKind::While { body, .. }
        | StmtKind::ForTokens { body, .. }
        | StmtKind::ForSites { body, .. } => body.iter().any(decides),
        _ => false,
    }
}
