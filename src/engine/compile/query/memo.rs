//! Which floods keep their sites while the legal decisions are listed ([`Memo`]): the
//! variables a set reads, and the conditions that make a flood the same from every site it
//! finds.

use super::*;
use crate::ir::walk::visit;
use flood::Memo;

/// At most this many sets kept for one flood in one listing (then the others are worked out
/// as without a memo).
const MEMO_SETS: usize = 64;

impl Compiler {
    /// The memo of `connected(from, through)` (with `through`) or `neighbours(from)`, when the
    /// flood reads no variable but one.
    pub(super) fn flood_memo(&mut self, from: &SetExpr, through: Option<&SetExpr>) -> Option<Memo> {
        let (mut reads, mut bound) = (vec![], vec![]);
        set_reads(from, &mut reads, &mut bound);
        if let Some(th) = through {
            set_reads(th, &mut reads, &mut bound);
        }
        reads.retain(|v| !bound.contains(v));
        reads.sort_unstable();
        reads.dedup();
        let &[key] = reads.as_slice() else {
            return None;
        };
        let class = match through {
            Some(th) => same_from_each(from, th, key),
            None => matches!(from, SetExpr::Connected { from: f, through: th }
                if same_from_each(f, th, key)),
        } && self.t.links_both_ways();
        let (n, w) = (self.t.nsites, self.t.layout.w);
        let cap = MEMO_SETS.min(n);
        let at = self.scratch(Memo::words(n, w, cap));
        self.memos.push(at);
        Some(Memo {
            key,
            class,
            at,
            cap,
        })
    }
}

/// Whether `connected(from, through)` finds the same sites from each site it finds: `from` is
/// the site in `key`, and `through` is `(x where C)` over a fixed set with each conjunct of C
/// either free of `key` or `f(x) == f(key)` for a value `f` of a site.
fn same_from_each(from: &SetExpr, through: &SetExpr, key: VarId) -> bool {
    if !matches!(from, SetExpr::One(Expr::Var(v)) if *v == key) {
        return false;
    }
    let SetExpr::Filter { var, base, cond } = through else {
        return false;
    };
    if !matches!(
        **base,
        SetExpr::All | SetExpr::Region(_) | SetExpr::List(_) | SetExpr::Empty
    ) {
        return false;
    }
    conjuncts(cond).iter().all(|c| {
        !uses(c, key)
            || matches!(c, Expr::Bin(Op::Eq, a, b)
                if matches!((site_value(a), site_value(b)),
                    (Some((f, x)), Some((g, y)))
                        if f == g && ((x, y) == (*var, key) || (x, y) == (key, *var))))
    })
}

/// A value of a site read from a variable's site alone.
#[derive(PartialEq)]
enum Value {
    Pieces(KindMask),
    Owner,
    Kind,
    TopOwner,
    Tally(u16),
}

/// `e` as a value of the site of a variable: (the value, the variable).
fn site_value(e: &Expr) -> Option<(Value, VarId)> {
    let var = |e: &Expr| match e {
        Expr::Var(v) => Some(*v),
        _ => None,
    };
    match e {
        Expr::Count(s, m) => Some((Value::Pieces(*m), var(s)?)),
        Expr::CountVar(v) => Some((Value::Pieces(KindMask(u32::MAX)), *v)),
        Expr::CountAt(s) => Some((Value::Pieces(KindMask(u32::MAX)), var(s)?)),
        Expr::Owner(s) => Some((Value::Owner, var(s)?)),
        Expr::KindOf(s) => Some((Value::Kind, var(s)?)),
        Expr::TokOwner(t) => match &**t {
            Expr::Top(s) => Some((Value::TopOwner, var(s)?)),
            _ => None,
        },
        Expr::TallyAt(slot, s) => Some((Value::Tally(*slot), var(s)?)),
        _ => None,
    }
}

/// The variables a set reads (`reads`) and those it binds (`bound`); a set nested in an
/// expression is searched for reads only (its bound variables then count as read: a flood
/// that has one keeps nothing).
fn set_reads(s: &SetExpr, reads: &mut Vec<VarId>, bound: &mut Vec<VarId>) {
    match s {
        SetExpr::Filter { var, base, cond } => {
            bound.push(*var);
            set_reads(base, reads, bound);
            expr_reads(cond, reads, bound);
        }
        SetExpr::Line(l) => {
            bound.push(l.var);
            expr_reads(&l.through, reads, bound);
            expr_reads(&l.cond, reads, bound);
        }
        SetExpr::Connected { from, through } => {
            set_reads(from, reads, bound);
            set_reads(through, reads, bound);
        }
        SetExpr::Around(a) => set_reads(a, reads, bound),
        SetExpr::Union(items) => items.iter().for_each(|i| set_reads(i, reads, bound)),
        SetExpr::Diff(a, c) => {
            set_reads(a, reads, bound);
            set_reads(c, reads, bound);
        }
        SetExpr::One(e) => expr_reads(e, reads, bound),
        SetExpr::Neighbours(e) | SetExpr::Jumps(e) => expr_reads(e, reads, bound),
        SetExpr::Run { from, dir, len } => {
            for e in [from, dir, len] {
                expr_reads(e, reads, bound);
            }
        }
        SetExpr::Ray { from, dir } => {
            expr_reads(from, reads, bound);
            expr_reads(dir, reads, bound);
        }
        SetExpr::All | SetExpr::Empty | SetExpr::Region(_) | SetExpr::List(_) => {}
    }
}

/// The variables an expression reads and those it binds.
fn expr_reads(e: &Expr, reads: &mut Vec<VarId>, bound: &mut Vec<VarId>) {
    visit(e, &mut |x| match x {
        Expr::Var(v) | Expr::CountVar(v) | Expr::NextSowVar(v) => reads.push(*v),
        Expr::KindIs { var, .. } | Expr::OwnerIs { var, .. } => reads.push(*var),
        Expr::SiteTest(t) => {
            reads.push(t.var);
            if let Some((_, CountRhs::Var(v))) = t.count {
                reads.push(v);
            }
        }
        Expr::Exists { var, .. }
        | Expr::Forall { var, .. }
        | Expr::Some { var, .. }
        | Expr::Agg { var, .. }
        | Expr::TokExists(var, _)
        | Expr::SomeAlong { var, .. }
        | Expr::Let { var, .. } => bound.push(*var),
        Expr::InLine(l) => bound.push(l.var),
        _ => {}
    });
}
