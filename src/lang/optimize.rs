//! A rewriting pass over the lowered program: flattens `and`/`or` chains, replaces common
//! shapes by direct tests (`kind(h) == hole`, `owner(h) == mover`, `count(h)`), and moves the
//! fixed part of a condition over sites (`h in treasure`, `not h in treasure`) out of the playout:
//! the sites that can satisfy it are listed once, when the game is loaded.

use crate::ir::arith::apply;
use crate::ir::eval::static_values;
use crate::ir::*;

pub(crate) fn optimize(g: &mut Game) {
    // (hoisting below adds variables: `g.nvars` grows)
    let mut code = std::mem::take(&mut g.code);
    for i in code.iter_mut() {
        instr(g, i);
    }
    g.code = code;
    let mut choices = std::mem::take(&mut g.choices);
    for c in choices.iter_mut() {
        for a in c.alts.iter_mut() {
            a.leaving = a.leaving.take().map(|e| expr(g, e));
            let mut cond = a.cond.take().map(|e| expr(g, e));
            if let (Some(c), Some(v)) = (cond.as_mut(), a.var) {
                // The second variable of a two-value choice counts as bound inside the condition.
                let second: Vec<VarId> = a.to.as_ref().map(|(v2, _)| vec![*v2]).unwrap_or_default();
                hoist(g, c, v, &mut second.clone(), &mut a.pre);
                hoist_count_compares(g, c, v, &second, &mut a.pre);
                // Conjuncts that use neither the variable nor a hoisted value are guards.
                let parts = match cond.take() {
                    Some(Expr::All(items)) => items,
                    Some(other) => vec![other],
                    None => vec![],
                };
                let tmps: Vec<VarId> = a.pre.iter().map(|(t, _)| *t).collect();
                let (guards, rest): (Vec<Expr>, Vec<Expr>) = parts.into_iter().partition(|e| {
                    !uses(e, v)
                        && !second.iter().any(|&w| uses(e, w))
                        && !tmps.iter().any(|&t| uses(e, t))
                });
                a.guards = guards;
                // Conjuncts that read a hoisted value but not the variable, and only read: once.
                let (checks, rest): (Vec<Expr>, Vec<Expr>) = rest.into_iter().partition(|e| {
                    !uses(e, v)
                        && !second.iter().any(|&w| uses(e, w))
                        && crate::ir::share::is_plain_read(e)
                });
                a.checks = checks;
                // With two values, the conjuncts that do not use the second one are tested
                // before the second set is walked.
                let rest = match second.first() {
                    Some(&w) => {
                        let (first, rest): (Vec<Expr>, Vec<Expr>) =
                            rest.into_iter().partition(|e| !uses(e, w));
                        a.first = match first.len() {
                            0 => None,
                            1 => first.into_iter().next(),
                            _ => Some(Expr::All(first)),
                        };
                        rest
                    }
                    None => rest,
                };
                cond = match rest.len() {
                    0 => None,
                    1 => rest.into_iter().next(),
                    _ => Some(Expr::All(rest)),
                };
            }
            match (&a.domain, a.var) {
                (Domain::Sites, Some(v)) => {
                    let (sites, rest) = split_static(g, v, cond);
                    a.sites = sites;
                    a.cond = rest;
                }
                _ => a.cond = cond,
            }
        }
    }
    g.choices = choices;
}

fn instr(g: &Game, i: &mut Instr) {
    i.exprs_mut(&mut |e| expr(g, e), &mut |s| set(g, s));
}

/// `count(v) OP X` where X depends neither on `v` nor on a second variable: X is computed once
/// into a `pre` variable and the comparison joins `v`'s fused site test (a test against half
/// the count of this round costs no more than one against a constant).
fn hoist_count_compares(
    g: &mut Game,
    e: &mut Expr,
    v: VarId,
    second: &[VarId],
    pre: &mut Vec<(VarId, Expr)>,
) {
    let Expr::All(items) = e else { return };
    let mut i = 0;
    while i < items.len() {
        let found = match &items[i] {
            Expr::Bin(op, x, y)
                if matches!(**x, Expr::CountVar(w) if w == v)
                    && !uses(y, v)
                    && !second.iter().any(|&w| uses(y, w)) =>
            {
                Some((*op, (**y).clone()))
            }
            _ => None,
        };
        let slot = items
            .iter()
            .position(|t| matches!(t, Expr::SiteTest(t) if t.var == v && t.count.is_none()));
        if let (Some((op, y)), Some(at)) = (found, slot) {
            let tmp = g.nvars as VarId;
            g.nvars += 1;
            pre.push((tmp, y));
            if let Expr::SiteTest(t) = &mut items[at] {
                t.count = Some((op, CountRhs::Var(tmp)));
            }
            items.remove(i);
            continue;
        }
        i += 1;
    }
    if items.len() == 1
        && let Some(only) = items.pop()
    {
        *e = only;
    }
}

/// Moves the costly parts of a choice's condition that do not depend on its variable `v` (nor
/// on a variable bound inside the condition) out of the loop over values: each is computed
/// once into a new variable before the loop.
fn hoist(
    g: &mut Game,
    e: &mut Expr,
    v: VarId,
    bound: &mut Vec<VarId>,
    pre: &mut Vec<(VarId, Expr)>,
) {
    let costly = matches!(
        e,
        Expr::Agg { .. }
            | Expr::TokExists(..)
            | Expr::Exists { .. }
            | Expr::CountSet(..)
            | Expr::Size(..)
            | Expr::Some { .. }
            | Expr::SomeAlong { .. }
    );
    if costly && !uses(e, v) && !bound.iter().any(|&b| uses(e, b)) {
        let tmp = g.nvars as VarId;
        g.nvars += 1;
        pre.push((tmp, std::mem::replace(e, Expr::Var(tmp))));
        return;
    }
    let binder = match e {
        Expr::Agg { var: x, .. }
        | Expr::TokExists(x, _)
        | Expr::Exists { var: x, .. }
        | Expr::Forall { var: x, .. }
        | Expr::Some { var: x, .. }
        | Expr::SomeAlong { var: x, .. }
        | Expr::Let { var: x, .. } => Some(*x),
        _ => None,
    };
    if let Some(x) = binder {
        bound.push(x);
    }
    children_mut(e, &mut |c| hoist(g, c, v, bound, pre));
    if binder.is_some() {
        bound.pop();
    }
}

/// Calls `f` on the direct sub-expressions that `hoist` may rewrite (set parts are left alone).
fn children_mut(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    match e {
        Expr::Not(a)
        | Expr::Neg(a)
        | Expr::Abs(a)
        | Expr::BinConst(_, a, _)
        | Expr::TokOwner(a)
        | Expr::TokKind(a)
        | Expr::TokPos(a)
        | Expr::TokSite(a)
        | Expr::TokArea(a)
        | Expr::Top(a)
        | Expr::Bottom(a)
        | Expr::SideOf(a)
        | Expr::CountAt(a) => f(a),
        Expr::Bin(_, a, b)
        | Expr::And(a, b)
        | Expr::Or(a, b)
        | Expr::TrackSite(a, b)
        | Expr::TrackPos(a, b)
        | Expr::Let {
            value: a, body: b, ..
        } => {
            f(a);
            f(b);
        }
        Expr::If(a, b, c) => {
            f(a);
            f(b);
            f(c);
        }
        Expr::All(items) | Expr::Any(items) => items.iter_mut().for_each(f),
        _ => {}
    }
}

fn player_ref(e: &Expr) -> Option<PlayerRef> {
    match e {
        Expr::Mover => Some(PlayerRef::Mover),
        Expr::Opponent => Some(PlayerRef::Opponent),
        Expr::Const(c) => Some(PlayerRef::Fixed(*c)),
        _ => None,
    }
}

fn b(e: Expr) -> Box<Expr> {
    Box::new(e)
}

/// Rewrites an expression bottom-up.
fn expr(g: &Game, e: Expr) -> Expr {
    match e {
        Expr::And(x, y) => conjunction(g, *x, *y),
        Expr::Or(x, y) => disjunction(g, *x, *y),
        Expr::Count(s, mask) => count(g, *s, mask),
        Expr::Next { site, dir, steps } => next(g, *site, *dir, *steps),
        Expr::Bin(op, x, y) => binary(g, op, *x, *y),
        Expr::Not(x) => Expr::Not(b(expr(g, *x))),
        Expr::Neg(x) => negation(g, *x),
        Expr::Agg {
            op,
            over,
            var,
            cond,
            value,
        } => Expr::Agg {
            op,
            over,
            var,
            cond: b(expr(g, *cond)),
            value: b(expr(g, *value)),
        },
        Expr::Some { over, var, cond } => Expr::Some {
            over,
            var,
            cond: b(expr(g, *cond)),
        },
        Expr::TokExists(v, c) => Expr::TokExists(v, b(expr(g, *c))),
        Expr::Let { var, value, body } => Expr::Let {
            var,
            value: b(expr(g, *value)),
            body: b(expr(g, *body)),
        },
        Expr::Abs(x) => Expr::Abs(b(expr(g, *x))),
        Expr::If(c, x, y) => mover_or_opponent(g, expr(g, *c), expr(g, *x), expr(g, *y)),
        Expr::Captured(p, m) => Expr::Captured(b(expr(g, *p)), m),
        Expr::Score(p) => Expr::Score(b(expr(g, *p))),
        Expr::Owner(s) => Expr::Owner(b(expr(g, *s))),
        Expr::KindOf(s) => Expr::KindOf(b(expr(g, *s))),
        Expr::Opposite(s) => Expr::Opposite(b(expr(g, *s))),
        Expr::InRegion(s, r) => Expr::InRegion(b(expr(g, *s)), r),
        Expr::InSet(s, st) => Expr::InSet(b(expr(g, *s)), Box::new(set(g, *st))),
        Expr::CountSet(st, m) => Expr::CountSet(Box::new(set(g, *st)), m),
        Expr::Size(st) => Expr::Size(Box::new(set(g, *st))),
        Expr::Exists { var, set: st, cond } => exists(g, var, *st, *cond),
        Expr::Forall { var, set: st, cond } => Expr::Forall {
            var,
            set: Box::new(set(g, *st)),
            cond: b(expr(g, *cond)),
        },
        Expr::SomeAlong {
            var,
            from,
            dir,
            cond,
        } => Expr::SomeAlong {
            var,
            from: b(expr(g, *from)),
            dir: b(expr(g, *dir)),
            cond: b(expr(g, *cond)),
        },
        other => other,
    }
}

/// `if c then x else y` where c reads only the mover and x and y are players (numbers,
/// `mover`, `opponent`, or such choices): `mover` or `opponent` when it is the same as one of
/// them for every player (`if mover == White then Black else White` with two sides: the
/// opponent), so that the engine answers it from the indexes kept for the mover and the
/// opponent; else as written.
fn mover_or_opponent(g: &Game, c: Expr, x: Expr, y: Expr) -> Expr {
    let e = Expr::If(b(c), b(x), b(y));
    let sides = g.sides.len() as i64;
    let values: Option<Vec<(i64, i64)>> = (0..g.players.len() as i64)
        .map(|p| Some((p, mover_value(&e, p, sides)?)))
        .collect();
    match values {
        Some(v) if sides > 0 && v.iter().all(|&(p, x)| x == p) => Expr::Mover,
        Some(v) if sides > 0 && v.iter().all(|&(p, x)| x == (p % sides + 1) % sides) => {
            Expr::Opponent
        }
        _ => e,
    }
}

/// The value of a player chosen by the mover (see [`mover_or_opponent`]) when the mover is
/// player `p`, computed as the engine computes it ([`apply`]); `None` when it reads anything
/// but the mover and numbers.
fn mover_value(e: &Expr, p: i64, sides: i64) -> Option<i64> {
    let ev = |x: &Expr| mover_value(x, p, sides);
    match e {
        Expr::Const(k) => Some(*k),
        Expr::Mover => Some(p),
        Expr::Opponent if sides > 0 => Some((p % sides + 1) % sides),
        Expr::BinConst(op, x, k) => apply(*op, ev(x)?, *k),
        Expr::Bin(op, x, y) => apply(*op, ev(x)?, ev(y)?),
        Expr::Not(x) => Some((ev(x)? == 0) as i64),
        Expr::If(c, x, y) => ev(if ev(c)? != 0 { x } else { y }),
        _ => None,
    }
}

/// `x and y`: one flat `All` (nested conjunctions spread out), its site tests fused.
fn conjunction(g: &Game, x: Expr, y: Expr) -> Expr {
    let mut items = vec![];
    for part in [expr(g, x), expr(g, y)] {
        match part {
            Expr::All(v) => items.extend(v),
            other => items.push(other),
        }
    }
    fuse(items)
}

/// `x or y`: one flat `Any`.
fn disjunction(g: &Game, x: Expr, y: Expr) -> Expr {
    let mut items = vec![];
    for part in [expr(g, x), expr(g, y)] {
        match part {
            Expr::Any(v) => items.extend(v),
            other => items.push(other),
        }
    }
    Expr::Any(items)
}

/// `count(s)`: of every kind, at a variable or at a site, takes the short forms.
fn count(g: &Game, s: Expr, mask: KindMask) -> Expr {
    match (expr(g, s), mask) {
        (Expr::Var(v), KindMask(u32::MAX)) => Expr::CountVar(v),
        (s, KindMask(u32::MAX)) => Expr::CountAt(b(s)),
        (s, m) => Expr::Count(b(s), m),
    }
}

/// The next site: one step in the direction of sowing takes the short forms.
fn next(g: &Game, site: Expr, dir: Expr, steps: Expr) -> Expr {
    match (expr(g, site), dir, expr(g, steps)) {
        (Expr::Var(v), Expr::SowDir, Expr::Const(1)) => Expr::NextSowVar(v),
        (s, Expr::SowDir, Expr::Const(1)) => Expr::NextSow(b(s)),
        (s, d, n) => Expr::Next {
            site: b(s),
            dir: b(expr(g, d)),
            steps: b(n),
        },
    }
}

/// A binary operation: `-a OP -b` compared the other way round, then the comparisons of a
/// variable's kind or owner become tests, and a constant right side is kept inline.
fn binary(g: &Game, op: Op, x: Expr, y: Expr) -> Expr {
    let (x, y) = (expr(g, x), expr(g, y));
    let neg = op == Op::Ne;
    // -a OP -b compares a and b the other way round
    let (op, x, y) = match (op, x, y) {
        (Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::Eq | Op::Ne, Expr::Neg(a), Expr::Neg(c)) => {
            let flipped = match op {
                Op::Lt => Op::Gt,
                Op::Le => Op::Ge,
                Op::Gt => Op::Lt,
                Op::Ge => Op::Le,
                other => other,
            };
            (flipped, *a, *c)
        }
        other => other,
    };
    match (op, x, y) {
        (Op::Eq | Op::Ne, Expr::KindOf(s), Expr::Const(k)) if matches!(*s, Expr::Var(_)) => {
            match (*s, SiteKind::from_index(k)) {
                (Expr::Var(v), Some(k)) => Expr::KindIs {
                    var: v,
                    kind: k,
                    sense: Sense::from_negated(neg),
                },
                (s, _) => Expr::Bin(op, b(Expr::KindOf(b(s))), b(Expr::Const(k))),
            }
        }
        (Op::Eq | Op::Ne, Expr::Owner(s), p)
            if matches!(*s, Expr::Var(_)) && player_ref(&p).is_some() =>
        {
            match (*s, player_ref(&p)) {
                (Expr::Var(v), Some(r)) => Expr::OwnerIs {
                    var: v,
                    player: r,
                    sense: Sense::from_negated(neg),
                },
                (s, _) => Expr::Bin(op, b(Expr::Owner(b(s))), b(p)),
            }
        }
        (op, x, Expr::Const(c)) => Expr::BinConst(op, b(x), c),
        (op, x, y) => Expr::Bin(op, b(x), b(y)),
    }
}

/// `-x`: `--x` is `x`, and `-minimum(-e)` is `maximum(e)` and the other way round (both 0
/// when nothing matches).
fn negation(g: &Game, x: Expr) -> Expr {
    match expr(g, x) {
        Expr::Neg(y) => *y,
        Expr::Agg {
            op: op @ (AggOp::Min | AggOp::Max),
            over,
            var,
            cond,
            value,
        } if matches!(*value, Expr::Neg(_)) => {
            let Expr::Neg(inner) = *value else {
                unreachable!()
            };
            let flipped = if op == AggOp::Min {
                AggOp::Max
            } else {
                AggOp::Min
            };
            Expr::Agg {
                op: flipped,
                over,
                var,
                cond,
                value: inner,
            }
        }
        y => Expr::Neg(b(y)),
    }
}

/// `exists h where c` over every site: the sites where the static part of `c` holds, listed,
/// and only the rest tested in play.
fn exists(g: &Game, var: VarId, st: SetExpr, cond: Expr) -> Expr {
    let c = expr(g, cond);
    match st {
        SetExpr::All => {
            let (sites, rest) = split_static(g, var, Some(c));
            Expr::Exists {
                var,
                set: Box::new(SetExpr::List(sites)),
                cond: b(rest.unwrap_or(Expr::Const(1))),
            }
        }
        other => Expr::Exists {
            var,
            set: Box::new(set(g, other)),
            cond: b(c),
        },
    }
}

/// Fuses the tests of a conjunction that look at the same site variable into one `SiteTest`.
fn fuse(items: Vec<Expr>) -> Expr {
    let mut out: Vec<Expr> = vec![];
    for it in items {
        let blank = |var| SiteTest {
            var,
            kind: None,
            owner: None,
            count: None,
        };
        // The test as a one-field SiteTest, if it is one of the fusable shapes.
        let part = match &it {
            Expr::KindIs { var, kind, sense } => Some(SiteTest {
                kind: Some((*kind, *sense)),
                ..blank(*var)
            }),
            Expr::OwnerIs { var, player, sense } => Some(SiteTest {
                owner: Some((*player, *sense)),
                ..blank(*var)
            }),
            Expr::BinConst(op, x, c) => match **x {
                Expr::CountVar(v) => Some(SiteTest {
                    count: Some((*op, CountRhs::Const(*c))),
                    ..blank(v)
                }),
                _ => None,
            },
            _ => None,
        };
        let Some(part) = part else {
            out.push(it);
            continue;
        };
        let free = |t: &SiteTest| {
            t.var == part.var
                && (part.kind.is_none() || t.kind.is_none())
                && (part.owner.is_none() || t.owner.is_none())
                && (part.count.is_none() || t.count.is_none())
        };
        match out.iter_mut().find_map(|e| match e {
            Expr::SiteTest(t) if free(t) => Some(t),
            _ => None,
        }) {
            Some(t) => {
                t.kind = t.kind.or(part.kind);
                t.owner = t.owner.or(part.owner);
                t.count = t.count.or(part.count);
            }
            None => out.push(Expr::SiteTest(Box::new(part))),
        }
    }
    if out.len() == 1 {
        out.pop().unwrap_or(Expr::Const(1))
    } else {
        Expr::All(out)
    }
}

fn set(g: &Game, s: SetExpr) -> SetExpr {
    match s {
        SetExpr::One(e) => SetExpr::One(expr(g, e)),
        SetExpr::Union(items) => SetExpr::Union(items.into_iter().map(|i| set(g, i)).collect()),
        SetExpr::Diff(a, c) => SetExpr::Diff(Box::new(set(g, *a)), Box::new(set(g, *c))),
        SetExpr::Filter { var, base, cond } => {
            let c = expr(g, *cond);
            match *base {
                SetExpr::All => {
                    let (sites, rest) = split_static(g, var, Some(c));
                    match rest {
                        Some(rest) => SetExpr::Filter {
                            var,
                            base: Box::new(SetExpr::List(sites)),
                            cond: b(rest),
                        },
                        None => SetExpr::List(sites),
                    }
                }
                other => SetExpr::Filter {
                    var,
                    base: Box::new(set(g, other)),
                    cond: b(c),
                },
            }
        }
        SetExpr::Run { from, dir, len } => SetExpr::Run {
            from: b(expr(g, *from)),
            dir: b(expr(g, *dir)),
            len: b(expr(g, *len)),
        },
        SetExpr::Ray { from, dir } => SetExpr::Ray {
            from: b(expr(g, *from)),
            dir: b(expr(g, *dir)),
        },
        SetExpr::Connected { from, through } => SetExpr::Connected {
            from: Box::new(set(g, *from)),
            through: Box::new(set(g, *through)),
        },
        SetExpr::Around(s) => SetExpr::Around(Box::new(set(g, *s))),
        other => other,
    }
}

/// Splits a condition on site variable `v` into its fixed conjuncts (evaluated now, for every
/// site, giving the list of candidate sites) and the rest (evaluated during play).
fn split_static(g: &Game, v: VarId, cond: Option<Expr>) -> (Vec<u16>, Option<Expr>) {
    let parts = match cond {
        None => vec![],
        Some(Expr::All(items)) => items,
        Some(other) => vec![other],
    };
    // A fixed conjunct is one with a value at every site (see `ir::eval`).
    let mut keep = vec![true; g.sites.len()];
    let mut rest = vec![];
    for e in parts {
        match static_values(g, &e, v) {
            Some(vals) => keep.iter_mut().zip(vals).for_each(|(k, x)| *k &= x != 0),
            None => rest.push(e),
        }
    }
    let sites = (0..g.sites.len() as u16)
        .filter(|&s| keep[s as usize])
        .collect();
    let rest = match rest.len() {
        0 => None,
        1 => rest.into_iter().next(),
        _ => Some(Expr::All(rest)),
    };
    (sites, rest)
}
