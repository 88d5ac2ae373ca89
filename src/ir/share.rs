//! What evaluating a `def`'s argument once needs to know about the IR: whether an expression
//! can raise a fault, whether a body surely reads a variable, and the substitution of an
//! expression for a variable. The lowering uses them to choose between [`Expr::Let`] and
//! copying the argument at each use; the engine's compiler uses [`cannot_fault`] where it
//! evaluates a condition at more sites than the expression as written would.

use super::walk::{operands, operands_mut, set_operands_mut, visit};
use super::{Expr, Op, SetExpr, VarId};

/// Whether evaluating an expression can raise no fault, in any state: each of its steps reads
/// the board or the turn, compares, or combines truth values (no arithmetic that may overflow
/// or divide by zero, no set that may fault).
pub(crate) fn cannot_fault(e: &Expr) -> bool {
    let mut safe = true;
    visit(e, &mut |x| safe &= step_cannot_fault(x));
    safe
}

/// Whether an expression only reads the board or the turn at fixed places: it cannot fault
/// and searches nothing (no question over sites or tokens, no set, no `let`), so that
/// evaluating it again or once more than written counts no work and changes nothing.
pub(crate) fn is_plain_read(e: &Expr) -> bool {
    let mut plain = true;
    visit(e, &mut |x| {
        plain &= step_cannot_fault(x)
            && !matches!(
                x,
                Expr::Some { .. } | Expr::TokExists(..) | Expr::Let { .. }
            );
    });
    plain
}

/// Whether an expression's own step cannot fault (its parts aside): reading the board or the
/// turn, searching the sites or tokens, comparisons and logic.
pub(crate) fn step_cannot_fault(e: &Expr) -> bool {
    match e {
        Expr::Bin(op, ..) | Expr::BinConst(op, ..) => {
            !matches!(op, Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Mod)
        }
        Expr::Const(_)
        | Expr::Var(_)
        | Expr::Mover
        | Expr::Opponent
        | Expr::Top(_)
        | Expr::Bottom(_)
        | Expr::TokOwner(_)
        | Expr::TokKind(_)
        | Expr::TokSite(_)
        | Expr::TokPos(_)
        | Expr::TokArea(_)
        | Expr::Owner(_)
        | Expr::KindOf(_)
        | Expr::Count(..)
        | Expr::CountVar(_)
        | Expr::CountAt(_)
        | Expr::KindIs { .. }
        | Expr::OwnerIs { .. }
        | Expr::SiteTest(_)
        | Expr::CoordX(_)
        | Expr::CoordY(_)
        | Expr::InRegion(..)
        | Expr::Opposite(_)
        | Expr::Not(_)
        | Expr::And(..)
        | Expr::Or(..)
        | Expr::All(_)
        | Expr::Any(_)
        | Expr::If(..)
        | Expr::Some { .. }
        | Expr::TokExists(..)
        | Expr::Let { .. } => true,
        _ => false,
    }
}

/// Whether evaluating `e` surely reads variable `v` (on every path, whatever the state): as
/// the first operand of a step, both operands of an operator, the condition of an `if` or both
/// its branches, the set of a question. Parts evaluated only sometimes (the right side of
/// `and`/`or`, a question's condition, a step's later operands) do not count.
pub(crate) fn surely_reads(e: &Expr, v: VarId) -> bool {
    let s = |x: &Expr| surely_reads(x, v);
    match e {
        Expr::Var(x) | Expr::CountVar(x) | Expr::NextSowVar(x) => *x == v,
        Expr::KindIs { var, .. } | Expr::OwnerIs { var, .. } => *var == v,
        Expr::SiteTest(t) => t.var == v,
        Expr::If(c, x, y) => s(c) || (s(x) && s(y)),
        Expr::Bin(_, x, y)
        | Expr::Let {
            value: x, body: y, ..
        } => s(x) || s(y),
        Expr::All(items) | Expr::Any(items) => items.first().is_some_and(s),
        Expr::Exists { set, .. } | Expr::Forall { set, .. } => set_surely_reads(set, v),
        Expr::CountSet(set, _) | Expr::Size(set) => set_surely_reads(set, v),
        Expr::InLine(l) => s(&l.through),
        Expr::Some { .. } | Expr::Agg { .. } | Expr::TokExists(..) => false,
        // any other step evaluates its first operand
        other => first_operand(other).is_some_and(s),
    }
}

/// The operand a step evaluates first, if it has one.
fn first_operand(e: &Expr) -> Option<&Expr> {
    let mut kids = vec![];
    operands(e, &mut kids);
    kids.first().copied()
}

fn set_surely_reads(s: &SetExpr, v: VarId) -> bool {
    match s {
        SetExpr::One(e) => surely_reads(e, v),
        SetExpr::Neighbours(e)
        | SetExpr::Jumps(e)
        | SetExpr::Run { from: e, .. }
        | SetExpr::Ray { from: e, .. } => surely_reads(e, v),
        SetExpr::Line(l) => surely_reads(&l.through, v),
        SetExpr::Union(items) => items.first().is_some_and(|i| set_surely_reads(i, v)),
        SetExpr::Diff(a, _)
        | SetExpr::Filter { base: a, .. }
        | SetExpr::Connected { from: a, .. }
        | SetExpr::Around(a) => set_surely_reads(a, v),
        SetExpr::All | SetExpr::Empty | SetExpr::Region(_) | SetExpr::List(_) => false,
    }
}

/// Replaces every read of variable `v` in `e` by `with` (`v` is bound nowhere inside `e`).
pub(crate) fn substitute(e: &mut Expr, v: VarId, with: &Expr) {
    if matches!(e, Expr::Var(x) if *x == v) {
        *e = with.clone();
        return;
    }
    operands_mut(e, &mut |x| substitute(x, v, with));
}

/// [`substitute`] in a set.
pub(crate) fn substitute_in_set(s: &mut SetExpr, v: VarId, with: &Expr) {
    set_operands_mut(s, &mut |x| substitute(x, v, with));
}
