//! Walks over the IR's expressions: which variables an expression reads, and a visit of every
//! sub-expression. Used by the optimizer and by the engine's compiler alike.

use super::{CountRhs, Expr, SetExpr, VarId};

/// Whether an expression reads variable `v`.
pub(crate) fn uses(e: &Expr, v: VarId) -> bool {
    let mut found = false;
    visit(e, &mut |x| {
        if let Expr::Var(y) | Expr::CountVar(y) | Expr::NextSowVar(y) = x
            && *y == v
        {
            found = true;
        }
        if let Expr::KindIs { var: y, .. } | Expr::OwnerIs { var: y, .. } = x
            && *y == v
        {
            found = true;
        }
        if let Expr::SiteTest(t) = x
            && (t.var == v || t.count.is_some_and(|(_, r)| r == CountRhs::Var(v)))
        {
            found = true;
        }
    });
    found
}

pub(crate) fn visit(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    let mut kids: Vec<&Expr> = vec![];
    operands(e, &mut kids);
    for k in kids {
        visit(k, f);
    }
}

/// Calls `$f` on each direct operand of the expression `$e` (those of its sets included, in
/// the order they are written), taken as `&` or, with `mut`, as `&mut`: the one list of the
/// IR's operands, for [`operands`] and [`operands_mut`]. Every variant is listed, so that a
/// new one cannot be forgotten here.
macro_rules! each_operand {
    ($e:expr, $f:expr, $set:ident, $iter:ident $(, $m:tt)?) => {{
        let f = $f;
        match $e {
            Expr::Const(_)
            | Expr::Var(_)
            | Expr::Mover
            | Expr::Opponent
            | Expr::SowDir
            | Expr::CountVar(_)
            | Expr::KindIs { .. }
            | Expr::OwnerIs { .. }
            | Expr::SiteTest(_)
            | Expr::Tally(_)
            | Expr::Round
            | Expr::FirstPlayer
            | Expr::Repeated
            | Expr::Repetitions
            | Expr::NextSowVar(_) => {}
            Expr::Count(a, _)
            | Expr::Captured(a, _)
            | Expr::Score(a)
            | Expr::Owner(a)
            | Expr::KindOf(a)
            | Expr::Opposite(a)
            | Expr::Not(a)
            | Expr::Neg(a)
            | Expr::Abs(a)
            | Expr::SideOf(a)
            | Expr::Top(a)
            | Expr::Bottom(a)
            | Expr::TokOwner(a)
            | Expr::TokKind(a)
            | Expr::TokSite(a)
            | Expr::TokPos(a)
            | Expr::TokArea(a)
            | Expr::TrackEnd(a)
            | Expr::CountAt(a)
            | Expr::NextSow(a)
            | Expr::BinConst(_, a, _)
            | Expr::TokExists(_, a)
            | Expr::Some { cond: a, .. }
            | Expr::InRegion(a, _)
            | Expr::CoordX(a)
            | Expr::TallyOf(_, a)
            | Expr::OriginalOwner(a)
            | Expr::TallyAt(_, a)
            | Expr::CoordY(a) => f(&$($m)? **a),
            Expr::Next {
                site: a,
                dir: b,
                steps: c,
            }
            | Expr::If(a, b, c)
            | Expr::SomeAlong {
                from: a,
                dir: b,
                cond: c,
                ..
            } => {
                f(&$($m)? **a);
                f(&$($m)? **b);
                f(&$($m)? **c);
            }
            Expr::Bin(_, a, b)
            | Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::TrackSite(a, b)
            | Expr::TrackPos(a, b)
            | Expr::Between(a, b)
            | Expr::SiteAt(a, b)
            | Expr::Agg {
                cond: a, value: b, ..
            }
            | Expr::Let {
                value: a, body: b, ..
            } => {
                f(&$($m)? **a);
                f(&$($m)? **b);
            }
            Expr::InLine(l) => {
                f(&$($m)? l.through);
                f(&$($m)? l.cond);
            }
            Expr::All(items) | Expr::Any(items) => items.$iter().for_each(|i| f(i)),
            Expr::InSet(a, s) => {
                f(&$($m)? **a);
                $set(s, f);
            }
            Expr::CountSet(s, _) | Expr::Size(s) => $set(s, f),
            Expr::Exists {
                set: s, cond: c, ..
            }
            | Expr::Forall {
                set: s, cond: c, ..
            } => {
                $set(s, f);
                f(&$($m)? **c);
            }
        }
    }};
}

/// Calls `$f` on the expressions of the set `$s` (those of its parts included), as `&` or
/// `&mut`: the one list for [`visit_set`] and [`set_operands_mut`].
macro_rules! each_set_operand {
    ($s:expr, $f:expr, $rec:ident, $iter:ident $(, $m:tt)?) => {{
        let f = $f;
        match $s {
            SetExpr::One(e) => f(e),
            SetExpr::Neighbours(e) | SetExpr::Jumps(e) => f(&$($m)? **e),
            SetExpr::Union(items) => items.$iter().for_each(|i| $rec(i, f)),
            SetExpr::Diff(a, b)
            | SetExpr::Connected {
                from: a,
                through: b,
            } => {
                $rec(a, f);
                $rec(b, f);
            }
            SetExpr::Filter { base, cond, .. } => {
                $rec(base, f);
                f(&$($m)? **cond);
            }
            SetExpr::Run { from, dir, len } => {
                f(&$($m)? **from);
                f(&$($m)? **dir);
                f(&$($m)? **len);
            }
            SetExpr::Line(l) => {
                f(&$($m)? l.through);
                f(&$($m)? l.cond);
            }
            SetExpr::Ray { from, dir } => {
                f(&$($m)? **from);
                f(&$($m)? **dir);
            }
            SetExpr::Around(a) => $rec(a, f),
            SetExpr::All | SetExpr::Empty | SetExpr::Region(_) | SetExpr::List(_) => {}
        }
    }};
}

/// The direct operands of an expression, in the order they are written (those of its sets
/// included).
pub(crate) fn operands<'a>(e: &'a Expr, kids: &mut Vec<&'a Expr>) {
    each_operand!(e, &mut |x: &'a Expr| kids.push(x), set_kids, iter);
}

fn set_kids<'a>(s: &'a SetExpr, f: &mut dyn FnMut(&'a Expr)) {
    each_set_operand!(s, f, set_kids, iter);
}

/// Calls `f` on the direct operands of an expression (those of its sets included).
pub(crate) fn operands_mut(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    each_operand!(e, f, set_operands_mut, iter_mut, mut);
}

/// Calls `f` on the expressions of a set (those of its parts included).
pub(crate) fn set_operands_mut(s: &mut SetExpr, f: &mut dyn FnMut(&mut Expr)) {
    each_set_operand!(s, f, set_operands_mut, iter_mut, mut);
}
