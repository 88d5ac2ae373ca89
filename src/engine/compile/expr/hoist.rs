//! The parts of a question's condition that do not depend on the candidate, worked out once
//! per question: `exists token x where A(x) and (if B then C(x) else D(x))` evaluates `B` at
//! the first candidate that reaches it and reads the value kept for the others.
//!
//! A part is kept when it asks a question of its own (the only parts that cost more than a
//! few steps) and reads no variable that changes while the question is asked: not the
//! question's variable, nor one bound anywhere in its condition (a quantifier's, a set's, a
//! `Let`'s). The board does not change while a question is asked (its candidates are listed
//! before a `for` runs its body, a choice's before they are played), so such a part has the
//! same value at every candidate. It is evaluated where the condition as written first
//! evaluates it (so a fault is raised exactly there, and nothing is evaluated that the
//! condition would not evaluate), then read from its variable: the work counted toward
//! `WORK_LIMIT` is less, never more, and the values and the first fault are the same (an
//! expression never reads whether a fault was raised).
//!
//! The part is rewritten `Let { var: fresh, value: part, body: fresh }`, the same value
//! whoever compiles it; while the condition is compiled, the `Let` of a fresh variable is
//! compiled to read the value when its question has already worked it out (a flag in scratch
//! words, cleared when the question starts: [`Compiler::hoist`]).

use super::*;
use crate::engine::compile::num::Lazy;
use crate::ir::walk::{operands_mut, visit};

impl Compiler {
    /// Rewrites `cond`, the condition of a question over variable `var`, so that each part
    /// that does not depend on the candidate is a `Let` of a fresh variable; gives the scratch
    /// words of their flags (first, count), to clear when the question starts, and keeps the
    /// parts' variables until [`Compiler::unhoist`] with the count.
    pub(crate) fn hoist(&mut self, var: VarId, cond: &mut Expr) -> (usize, usize) {
        let Some(free) = self.free_var.filter(|_| !as_written()) else {
            return (0, 0);
        };
        let mut changing = vec![var];
        binders(cond, &mut changing);
        let kept: Vec<VarId> = self.lazy.iter().map(|l| l.var).collect();
        let mut parts = 0;
        let mut next = free;
        rewrite(cond, &changing, &kept, &mut || {
            let Ok(v) = VarId::try_from(next) else {
                return None;
            };
            if v == VarId::MAX {
                return None;
            }
            next += 1;
            parts += 1;
            Some(v)
        });
        self.free_var = Some(next);
        let flags = self.scratch(parts);
        for (i, v) in (free..next).enumerate() {
            self.lazy.push(Lazy {
                var: v as VarId,
                flag: flags + i,
            });
        }
        (flags, parts)
    }

    /// Forgets the last `parts` parts kept (their question is compiled).
    pub(crate) fn unhoist(&mut self, parts: usize) {
        let n = self.lazy.len().saturating_sub(parts);
        self.lazy.truncate(n);
    }

    /// `Let { var, value, body }` of a part kept once per question: the value worked out at
    /// the first candidate that reaches it, read from its variable at the others.
    pub(super) fn lazy_let(&mut self, var: VarId, value: &Expr) -> Option<Num> {
        let flag = self.lazy.iter().find(|l| l.var == var)?.flag;
        let x = self.num(value);
        Some(num(move |b, r| {
            if r.scratch[flag] != 0 {
                return r.var(var);
            }
            let v = x(b, r);
            r.set(var, v);
            r.scratch[flag] = 1;
            v
        }))
    }
}

/// Replaces each largest part of `e` that asks a question and reads none of the variables of
/// `changing` by `Let { fresh, part, fresh }` (`fresh` gives the variable, or None: no more);
/// a part already kept by an enclosing question (the `Let` of a variable of `kept`) stays.
fn rewrite(
    e: &mut Expr,
    changing: &[VarId],
    kept: &[VarId],
    fresh: &mut dyn FnMut() -> Option<VarId>,
) {
    if matches!(e, Expr::Let { var, .. } if kept.contains(var)) {
        return;
    }
    if !asks(e) {
        return; // nothing in it to keep
    }
    if !reads_any(e, changing) {
        if let Some(v) = fresh() {
            let part = std::mem::replace(e, Expr::Var(v));
            *e = Expr::Let {
                var: v,
                value: Box::new(part),
                body: Box::new(Expr::Var(v)),
            };
        }
        return;
    }
    operands_mut(e, &mut |x| rewrite(x, changing, kept, fresh));
}

/// Whether an expression asks a question over sites or tokens (somewhere in it).
fn asks(e: &Expr) -> bool {
    let mut found = false;
    visit(e, &mut |x| {
        found |= matches!(
            x,
            questions!() | Expr::CountSet(..) | Expr::Size(_) | Expr::InSet(..)
        )
    });
    found
}

/// Whether `e` reads one of `vars` that it does not bind itself.
fn reads_any(e: &Expr, vars: &[VarId]) -> bool {
    let mut inside = vec![];
    binders(e, &mut inside);
    let mut found = false;
    visit(e, &mut |x| {
        let mut read = |v: VarId| found |= vars.contains(&v) && !inside.contains(&v);
        match x {
            Expr::Var(v) | Expr::CountVar(v) | Expr::NextSowVar(v) => read(*v),
            Expr::KindIs { var, .. } | Expr::OwnerIs { var, .. } => read(*var),
            Expr::SiteTest(t) => {
                read(t.var);
                if let Some((_, CountRhs::Var(v))) = t.count {
                    read(v);
                }
            }
            _ => {}
        }
    });
    found
}

/// The variables bound anywhere in `e`: by its questions, its `Let`s and the sets in it.
fn binders(e: &Expr, out: &mut Vec<VarId>) {
    visit(e, &mut |x| match x {
        Expr::Exists { var, set, .. } | Expr::Forall { var, set, .. } => {
            out.push(*var);
            set_binders(set, out);
        }
        Expr::Some { var, .. }
        | Expr::Agg { var, .. }
        | Expr::TokExists(var, _)
        | Expr::SomeAlong { var, .. }
        | Expr::Let { var, .. } => out.push(*var),
        Expr::InLine(l) => out.push(l.var),
        Expr::CountSet(set, _) | Expr::Size(set) | Expr::InSet(_, set) => set_binders(set, out),
        _ => {}
    });
}

/// The variables bound by a set and the sets in it (the expressions in it are visited by
/// [`binders`]' walk).
fn set_binders(s: &SetExpr, out: &mut Vec<VarId>) {
    match s {
        SetExpr::Filter { var, base, .. } => {
            out.push(*var);
            set_binders(base, out);
        }
        SetExpr::Line(l) => out.push(l.var),
        SetExpr::Union(items) => items.iter().for_each(|i| set_binders(i, out)),
        SetExpr::Diff(a, c)
        | SetExpr::Connected {
            from: a,
            through: c,
        } => {
            set_binders(a, out);
            set_binders(c, out);
        }
        SetExpr::Around(a) => set_binders(a, out),
        SetExpr::All
        | SetExpr::Empty
        | SetExpr::Region(_)
        | SetExpr::List(_)
        | SetExpr::One(_)
        | SetExpr::Run { .. }
        | SetExpr::Neighbours(_)
        | SetExpr::Jumps(_)
        | SetExpr::Ray { .. } => {}
    }
}
