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

/// The direct operands of an expression, in the order they are written (those of its sets
/// included).
pub(crate) fn operands<'a>(e: &'a Expr, kids: &mut Vec<&'a Expr>) {
    // Every variant is listed, so that a new one cannot be forgotten here.
    match e {
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
        | Expr::CoordY(a) => kids.push(a),
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
        } => kids.extend([&**a, &**b, &**c]),
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
        } => kids.extend([&**a, &**b]),
        Expr::InLine(l) => kids.extend([&l.through, &l.cond]),
        Expr::All(items) | Expr::Any(items) => kids.extend(items.iter()),
        Expr::InSet(a, s) => {
            kids.push(a);
            visit_set(s, kids);
        }
        Expr::CountSet(s, _) | Expr::Size(s) => visit_set(s, kids),
        Expr::Exists {
            set: s, cond: c, ..
        }
        | Expr::Forall {
            set: s, cond: c, ..
        } => {
            visit_set(s, kids);
            kids.push(c);
        }
    }
}

pub(crate) fn visit_set<'a>(s: &'a SetExpr, kids: &mut Vec<&'a Expr>) {
    match s {
        SetExpr::One(e) => kids.push(e),
        SetExpr::Union(items) => items.iter().for_each(|i| visit_set(i, kids)),
        SetExpr::Diff(a, b) => {
            visit_set(a, kids);
            visit_set(b, kids);
        }
        SetExpr::Filter { base, cond: c, .. } => {
            visit_set(base, kids);
            kids.push(c);
        }
        SetExpr::Run {
            from: a,
            dir: b,
            len: c,
        } => kids.extend([&**a, &**b, &**c]),
        SetExpr::Neighbours(a) | SetExpr::Jumps(a) => kids.push(a),
        SetExpr::Line(l) => kids.extend([&l.through, &l.cond]),
        SetExpr::Ray { from: a, dir: b } => kids.extend([&**a, &**b]),
        SetExpr::Connected { from, through } => {
            visit_set(from, kids);
            visit_set(through, kids);
        }
        SetExpr::Around(s) => visit_set(s, kids),
        SetExpr::All | SetExpr::Empty | SetExpr::Region(_) | SetExpr::List(_) => {}
    }
}
