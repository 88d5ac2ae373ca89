//! A `def`'s argument evaluated once. A parameter stands for its argument's expression, copied
//! at each use; an argument that costs more than a read, cannot fault, and that the body uses
//! more than once and surely evaluates is instead evaluated once into a variable of its own
//! ([`Expr::Let`]), which the body reads.
//!
//! Why these conditions: evaluating the argument before the body changes nothing a user sees
//! when the argument cannot fault (no overflow, no division by zero: [`cannot_fault`]) and the
//! body would have evaluated it anyway (on every path: [`surely_reads`]); the copies it saves
//! are the work. The diagnostics are those of copying: the parameter's uses are lowered and
//! charged to the expansion budget as before (`Lowerer::expand`), only the expression they
//! stand for is the variable's read.
//!
//! How: the parameter is bound to a read of a new variable while the body is lowered; then
//! either the body is wrapped in `Let`, or the argument is put back at each read
//! ([`substitute`]), which gives exactly the copies of before. Such a variable is a slot of
//! its own, counted with the others (at most 65535).

use super::*;
use crate::ir::eval::is_static;
use crate::ir::share::{cannot_fault, substitute, substitute_in_set, surely_reads};
use crate::ir::walk::visit;

thread_local! {
    /// Every argument copied at each use, as before `Let` (for the tests that compare the
    /// two; set on the thread that loads the game).
    pub(crate) static COPY_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// An argument evaluated once if the body allows: the variable that stands for it and its
/// value.
pub(crate) struct Shared {
    var: VarId,
    value: Expr,
}

/// What a `def`'s body lowers to, and how the arguments evaluated once are bound in it.
pub(crate) trait Body: Sized {
    /// Whether an argument may be evaluated once in such a body.
    const SHARES: bool;
    /// The body with each argument bound: by `Let`, or copied at each use.
    fn bind(self, shared: Vec<Shared>) -> Self;
}

impl Body for (Expr, Ty) {
    const SHARES: bool = true;
    fn bind(self, shared: Vec<Shared>) -> Self {
        let (mut body, t) = self;
        // the last parameter innermost: each value is the caller's, reading no other
        for Shared { var, value } in shared.into_iter().rev() {
            if reads(&body, var) >= 2 && surely_reads(&body, var) {
                body = Expr::Let {
                    var,
                    value: Box::new(value),
                    body: Box::new(body),
                };
            } else {
                substitute(&mut body, var, &value);
            }
        }
        (body, t)
    }
}

impl Body for SetExpr {
    const SHARES: bool = false;
    fn bind(mut self, shared: Vec<Shared>) -> Self {
        for Shared { var, value } in shared {
            substitute_in_set(&mut self, var, &value);
        }
        self
    }
}

/// How many times an expression reads variable `v`.
fn reads(e: &Expr, v: VarId) -> usize {
    let mut n = 0;
    visit(e, &mut |x| {
        n += matches!(x, Expr::Var(y) if *y == v) as usize
    });
    n
}

/// How many times a name is written in an expression (a parameter's uses, or more where a
/// name of the body hides it).
fn mentions(e: &ast::Expr, name: &str) -> usize {
    use ast::ExprKind as K;
    let m = |x: &ast::Expr| mentions(x, name);
    match &e.kind {
        K::Int(_) | K::Bool(_) => 0,
        K::Name(id) => (id.name == name) as usize,
        K::Call(_, args) | K::List(args) => args.iter().map(m).sum(),
        K::Range(_, a, c) | K::Coord(a, c) | K::Binary(_, a, c) => m(a) + m(c),
        K::Some(_, a, _) | K::Unary(_, a) | K::Exists(_, a, _) | K::Filter(_, a, _) => m(a),
        K::ExistsIn(_, a, c) | K::Forall(_, a, c) | K::Line(_, a, c, _) => m(a) + m(c),
        K::Agg { cond, value, .. } => m(cond) + m(value),
        K::If(a, b, c)
        | K::SomeAlong {
            from: a,
            dir: b,
            cond: c,
            ..
        } => m(a) + m(b) + m(c),
    }
}

impl Lowerer<'_> {
    /// A parameter's binding: a read of a new variable when its argument may be evaluated
    /// once (its value then goes to `shared`), else the argument as it is.
    pub(super) fn share_argument<T: Body>(
        &mut self,
        l: Local,
        param: &str,
        body: &ast::Expr,
        shared: &mut Vec<Shared>,
    ) -> Local {
        let Local::Bound(x, t, cost) = l else {
            return l;
        };
        let worth = T::SHARES
            && !COPY_ONLY.with(std::cell::Cell::get)
            && cost.size > 2
            && !matches!(t, Ty::Null | Ty::Error)
            && !self.s.halted
            && self.s.nvars + 1 < VarId::MAX as usize
            && !static_value(&x)
            && cannot_fault(&x)
            && mentions(body, param) >= 2;
        if !worth {
            return Local::Bound(x, t, cost);
        }
        let var = self.slot_for_var();
        shared.push(Shared { var, value: x });
        Local::Bound(Expr::Var(var), t, cost)
    }
}

/// Whether an expression's value depends only on the board's fixed geometry and at most one
/// variable: the engine reads such a value from a table, which costs no more than a variable.
fn static_value(e: &Expr) -> bool {
    let mut var = None;
    let mut one = true;
    visit(e, &mut |x| {
        if let Expr::Var(v) = x {
            one &= var.is_none_or(|w| w == *v);
            var = Some(*v);
        }
    });
    one && is_static(e, var.unwrap_or(VarId::MAX))
}
