//! Expressions: their types and their lowering, constants folded.

use super::*;

impl Lowerer<'_> {
    pub(super) fn type_error(&mut self, expected: Ty, found: Ty, span: Span) {
        if found != Ty::Error && expected != Ty::Error {
            self.error(
                ErrorKind::Type {
                    expected: expected.words().into(),
                    found: found.words().into(),
                },
                span,
            );
        }
    }

    /// Lowers an expression that must have type `want` (sets are not accepted here).
    pub(crate) fn expect(&mut self, e: &ast::Expr, want: Ty) -> Expr {
        let (x, ty) = self.expr(e);
        self.expect_lowered(e, x, ty, want)
    }

    /// [`Self::expect`] of an expression already lowered to `x` of type `ty`.
    pub(crate) fn expect_lowered(&mut self, e: &ast::Expr, x: Expr, ty: Ty, want: Ty) -> Expr {
        if ty == Ty::Null && super::none_type::nullable(want) {
            // `none`, or a variable made from it: now known to be `want`
            self.determine(&x, want);
            return x;
        }
        if ty != want && ty != Ty::Error && !self.let_misused(e, want, ty) {
            self.type_error(want, ty, e.span);
        }
        x
    }

    /// A variable of a `let` used as a value of another type: reported once, on the `let`'s
    /// line (where the mistake most often is), with a note at this use; the variable is then
    /// poisoned (of type `Error`), so that its other uses say nothing more.
    fn let_misused(&mut self, e: &ast::Expr, want: Ty, ty: Ty) -> bool {
        let ExprKind::Name(id) = &e.kind else {
            return false;
        };
        let Some(Local::Var(v, _)) = self.lookup_local(&id.name) else {
            return false;
        };
        let v = *v;
        let Some(&at) = self.s.let_values.get(&v) else {
            return false;
        };
        let d = crate::diagnostic::Diagnostic::new(
            ErrorKind::LetType {
                name: id.name.clone(),
                found: ty.words(),
                used_as: want.words(),
            },
            at,
        )
        .with_note(e.span, format!("`{}` is used as {} here", id.name, want.words()))
        .with_hint(format!(
            "if the `let` is right, this use is wrong; the other uses of `{}` are not checked again",
            id.name
        ));
        self.d.diags.push(d);
        for scope in self.s.scopes.iter_mut().rev() {
            if let Some((_, Local::Var(_, t))) = scope.iter_mut().rev().find(|(n, _)| *n == id.name)
            {
                *t = Ty::Error;
                break;
            }
        }
        true
    }

    /// A folded constant, or an error where it does not fit in 64 bits.
    pub(super) fn checked_const(&mut self, v: Option<i64>, span: Span) -> Expr {
        match v {
            Some(v) => Expr::Const(v),
            None => {
                self.error(ErrorKind::Overflow, span);
                Expr::Const(0)
            }
        }
    }

    pub(super) fn bin(&mut self, op: Op, x: Expr, y: Expr, span: Span) -> Expr {
        if let (Expr::Const(a), Expr::Const(c)) = (&x, &y) {
            match fold(op, *a, *c) {
                Ok(v) => return Expr::Const(v),
                Err(e) => {
                    self.error(e, span);
                    return Expr::Const(0);
                }
            }
        }
        // Identities, so that constant action arguments leave no arithmetic behind.
        match (op, &x, &y) {
            (Op::Mul, Expr::Const(1), _) | (Op::Add, Expr::Const(0), _) => return y,
            (Op::Mul | Op::Div, _, Expr::Const(1)) | (Op::Add | Op::Sub, _, Expr::Const(0)) => {
                return x;
            }
            (Op::Mul, Expr::Const(-1), _) => return Expr::Neg(b(y)),
            (Op::Mul, _, Expr::Const(-1)) => return Expr::Neg(b(x)),
            _ => {}
        }
        Expr::Bin(op, b(x), b(y))
    }

    /// Lowers an expression, returning its IR and type. Errors are reported and give `Ty::Error`.
    pub(crate) fn expr(&mut self, e: &ast::Expr) -> (Expr, Ty) {
        if !self.enter(e.span) {
            return (Expr::Const(0), Ty::Error);
        }
        let out = self.expr_in(e);
        self.leave();
        // past a limit, what was built is not the expression: nothing is said of it
        if self.s.halted {
            (Expr::Const(0), Ty::Error)
        } else {
            out
        }
    }

    pub(super) fn expr_in(&mut self, e: &ast::Expr) -> (Expr, Ty) {
        let span = e.span;
        // (the body, the value after `:` of an aggregate, extends as far as the condition)
        match &e.kind {
            ExprKind::Some(v, c, _)
            | ExprKind::Exists(v, c, _)
            | ExprKind::ExistsIn(v, _, c)
            | ExprKind::Forall(v, _, c)
            | ExprKind::Line(v, _, c, false)
            | ExprKind::SomeAlong {
                var: v, cond: c, ..
            } => self.quantifier_scope(e, v, c),
            ExprKind::Agg { var, value, .. } => self.quantifier_scope(e, var, value),
            _ => {}
        }
        match &e.kind {
            ExprKind::Int(n) => (Expr::Const(*n), Ty::Num),
            ExprKind::Bool(v) => (Expr::Const(*v as i64), Ty::Bool),
            ExprKind::Name(id) => self.single_name(e, id),
            ExprKind::Call(name, args) => self.call(name, args, span),
            ExprKind::Range(..)
            | ExprKind::List(..)
            | ExprKind::Filter(..)
            | ExprKind::Line(_, _, _, true) => {
                let _ = self.set_expr(e);
                (Expr::Const(0), Ty::Set)
            }
            ExprKind::Unary(op, x) => self.unary(*op, x, span),
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, span),
            ExprKind::If(c, x, y) => self.if_then_else(c, x, y, span),
            ExprKind::Coord(x, y) => match (self.const_int(x), self.const_int(y)) {
                (Some(x), Some(y)) => match self.site_at(x, y, span) {
                    Some(s) => (Expr::Const(s.0 as i64), Ty::Site),
                    None => (Expr::Const(-1), Ty::Error),
                },
                _ => (Expr::Const(-1), Ty::Error),
            },
            ExprKind::Some(v, cond, tok) => self.some_where(v, cond, *tok),
            ExprKind::ExistsIn(v, set, cond) => self.exists_in(v, set, cond),
            ExprKind::Exists(v, cond, tok) => self.exists_where(v, cond, *tok),
            ExprKind::Agg {
                kind,
                token,
                var,
                cond,
                value,
            } => self.aggregate(*kind, *token, var, cond, value),
            ExprKind::Line(v, site, cond, false) => self.in_line(v, site, cond, span),
            ExprKind::SomeAlong {
                var,
                token,
                from,
                dir,
                cond,
            } => self.some_along(var, *token, from, dir, cond, span),
            ExprKind::Forall(v, set, cond) => self.forall(v, set, cond),
        }
    }

    /// A name used as a single value (a set's name is refused: membership is `h in SET`).
    fn single_name(&mut self, e: &ast::Expr, id: &ast::Ident) -> (Expr, Ty) {
        let span = e.span;
        if self.peek_is_set(e) {
            self.error_hint(
                ErrorKind::Type {
                    expected: "a single value".into(),
                    found: "a set of sites".into(),
                },
                span,
                format!("to test membership write `h in {}`", id.name),
            );
            return (Expr::Const(0), Ty::Error);
        }
        self.name(id, span)
    }

    /// `not c`, `-n`, folded when constant.
    fn unary(&mut self, op: UnOp, x: &ast::Expr, span: Span) -> (Expr, Ty) {
        match op {
            UnOp::Not => match self.expect(x, Ty::Bool) {
                Expr::Const(v) => (Expr::Const((v == 0) as i64), Ty::Bool),
                x => (Expr::Not(b(x)), Ty::Bool),
            },
            UnOp::Neg => match self.expect(x, Ty::Num) {
                Expr::Const(v) => (self.checked_const(v.checked_neg(), span), Ty::Num),
                x => (Expr::Neg(b(x)), Ty::Num),
            },
        }
    }

    /// `if c then a else b`: both branches of one type (`none` meets the other's), the branch
    /// taken when the condition is constant.
    fn if_then_else(
        &mut self,
        c: &ast::Expr,
        x: &ast::Expr,
        y: &ast::Expr,
        span: Span,
    ) -> (Expr, Ty) {
        let c = self.expect(c, Ty::Bool);
        let (x, tx) = self.expr(x);
        let (y, ty) = self.expr(y);
        let (tx, ty) = self.meet_none(&x, tx, &y, ty);
        let t = if tx == Ty::Error { ty } else { tx };
        if tx != ty && tx != Ty::Error && ty != Ty::Error {
            self.type_error(tx, ty, span);
        }
        match c {
            Expr::Const(v) => (if v != 0 { x } else { y }, t),
            c => (Expr::If(b(c), b(x), b(y)), t),
        }
    }

    /// `some h where c`, `some token x where c`.
    fn some_where(&mut self, v: &ast::Ident, cond: &ast::Expr, tok: bool) -> (Expr, Ty) {
        self.s.scopes.push(vec![]);
        let t = if tok { Ty::Token } else { Ty::Site };
        let id = self.new_var(&v.name, t);
        let c = self.expect(cond, Ty::Bool);
        self.s.scopes.pop();
        let over = if tok { Over::Tokens } else { Over::Sites };
        let some = Expr::Some {
            over,
            var: id,
            cond: b(c),
        };
        (some, t)
    }

    /// `exists q in SET where c`.
    fn exists_in(&mut self, v: &ast::Ident, set: &ast::Expr, cond: &ast::Expr) -> (Expr, Ty) {
        let s = self.set_expr(set);
        self.s.scopes.push(vec![]);
        let id = self.new_var(&v.name, Ty::Site);
        let c = self.expect(cond, Ty::Bool);
        self.s.scopes.pop();
        let exists = Expr::Exists {
            var: id,
            set: Box::new(s),
            cond: b(c),
        };
        (exists, Ty::Bool)
    }

    /// `exists h where c`, `exists token x where c`.
    fn exists_where(&mut self, v: &ast::Ident, cond: &ast::Expr, tok: bool) -> (Expr, Ty) {
        self.s.scopes.push(vec![]);
        let id = self.new_var(&v.name, if tok { Ty::Token } else { Ty::Site });
        let c = self.expect(cond, Ty::Bool);
        self.s.scopes.pop();
        if tok {
            (Expr::TokExists(id, b(c)), Ty::Bool)
        } else {
            let exists = Expr::Exists {
                var: id,
                set: Box::new(SetExpr::All),
                cond: b(c),
            };
            (exists, Ty::Bool)
        }
    }

    /// `forall x in SET: c`.
    fn forall(&mut self, v: &ast::Ident, set: &ast::Expr, cond: &ast::Expr) -> (Expr, Ty) {
        let s = self.set_expr(set);
        self.s.scopes.push(vec![]);
        let id = self.new_var(&v.name, Ty::Site);
        let c = self.expect(cond, Ty::Bool);
        self.s.scopes.pop();
        let forall = Expr::Forall {
            var: id,
            set: Box::new(s),
            cond: b(c),
        };
        (forall, Ty::Bool)
    }

    /// `minimum token x where c: value` (and `maximum`, `sum`, over sites or tokens).
    fn aggregate(
        &mut self,
        kind: ast::AggKind,
        token: bool,
        var: &ast::Ident,
        cond: &ast::Expr,
        value: &ast::Expr,
    ) -> (Expr, Ty) {
        self.s.scopes.push(vec![]);
        let id = self.new_var(&var.name, if token { Ty::Token } else { Ty::Site });
        let c = self.expect(cond, Ty::Bool);
        let x = self.expect(value, Ty::Num);
        self.s.scopes.pop();
        let op = match kind {
            ast::AggKind::Min => AggOp::Min,
            ast::AggKind::Max => AggOp::Max,
            ast::AggKind::Sum => AggOp::Sum,
        };
        let over = if token { Over::Tokens } else { Over::Sites };
        let agg = Expr::Agg {
            op,
            over,
            var: id,
            cond: b(c),
            value: b(x),
        };
        (agg, Ty::Num)
    }

    /// `some h from s toward d where c`: the first site along the ring (`some token … from` is
    /// refused, and lowered as for sites).
    fn some_along(
        &mut self,
        var: &ast::Ident,
        token: bool,
        from: &ast::Expr,
        dir: &ast::Expr,
        cond: &ast::Expr,
        span: Span,
    ) -> (Expr, Ty) {
        if token {
            self.error_hint(
                ErrorKind::Misplaced {
                    what: "some token … from",
                    place: "for sites: `some h from s toward d where …` follows the ring",
                },
                span,
                "tokens have no order along the ring: `some token x where site(x) == …`",
            );
        }
        self.need_ring(span);
        let f = self.expect(from, Ty::Site);
        let d = self.ring_dir(dir);
        self.s.scopes.push(vec![]);
        let id = self.new_var(&var.name, if token { Ty::Token } else { Ty::Site });
        let c = self.expect(cond, Ty::Bool);
        self.s.scopes.pop();
        let along = Expr::SomeAlong {
            var: id,
            from: b(f),
            dir: b(d),
            cond: b(c),
        };
        (along, Ty::Site)
    }

    pub(super) fn binary(
        &mut self,
        op: BinOp,
        l: &ast::Expr,
        r: &ast::Expr,
        span: Span,
    ) -> (Expr, Ty) {
        match op {
            BinOp::And | BinOp::Or => {
                let x = self.expect(l, Ty::Bool);
                let y = self.expect(r, Ty::Bool);
                let e = match (op, x, y) {
                    (BinOp::And, Expr::Const(0), _) | (BinOp::And, _, Expr::Const(0)) => {
                        Expr::Const(0)
                    }
                    (BinOp::And, Expr::Const(_), y) => y,
                    (BinOp::And, x, Expr::Const(_)) => x,
                    (BinOp::Or, Expr::Const(v), _) | (BinOp::Or, _, Expr::Const(v)) if v != 0 => {
                        Expr::Const(1)
                    }
                    (BinOp::Or, Expr::Const(_), y) => y,
                    (BinOp::Or, x, Expr::Const(_)) => x,
                    (BinOp::And, x, y) => Expr::And(b(x), b(y)),
                    (_, x, y) => Expr::Or(b(x), b(y)),
                };
                (e, Ty::Bool)
            }
            BinOp::In => {
                let x = self.expect(l, Ty::Site);
                if let ExprKind::Name(id) = &r.kind
                    && self.lookup_local(&id.name).is_none()
                    && let Some(Global::Region(reg)) = self.t.globals.get(&id.name).map(|g| g.0)
                {
                    return (Expr::InRegion(b(x), reg), Ty::Bool);
                }
                let s = self.set_expr(r);
                (Expr::InSet(b(x), Box::new(s)), Ty::Bool)
            }
            BinOp::Eq | BinOp::Ne => {
                let (x, tx) = self.expr(l);
                let (y, ty) = self.expr(r);
                // `none` (-1) compares with any player, site, token or area.
                let is_none = |e: &ast::Expr| match &e.kind {
                    ExprKind::Name(id) => id.name == "none" && self.lookup_local("none").is_none(),
                    _ => false,
                };
                let nullable = |t: Ty| matches!(t, Ty::Player | Ty::Site | Ty::Token | Ty::Area);
                let none_ok = (is_none(l) && nullable(ty)) || (is_none(r) && nullable(tx));
                let (tx, ty) = self.meet_none(&x, tx, &y, ty);
                if tx != ty && tx != Ty::Error && ty != Ty::Error && !none_ok {
                    // a parameter compared with a value written in its `def`: the argument is
                    // what has the wrong type (reported at the call)
                    let (expected, found, at) = if self.is_param_use(l) && !self.is_param_use(r) {
                        (ty, tx, l.span)
                    } else {
                        (tx, ty, r.span)
                    };
                    self.error_hint(
                        ErrorKind::Type {
                            expected: expected.words().into(),
                            found: found.words().into(),
                        },
                        at,
                        "both sides of a comparison must be of the same kind",
                    );
                }
                if tx == Ty::Set || ty == Ty::Set {
                    self.error(
                        ErrorKind::Type {
                            expected: "a single value".into(),
                            found: "a set of sites".into(),
                        },
                        span,
                    );
                }
                let o = if op == BinOp::Eq { Op::Eq } else { Op::Ne };
                (self.bin(o, x, y, span), Ty::Bool)
            }
            BinOp::Add | BinOp::Sub if self.peek_is_set(l) || self.peek_is_set(r) => {
                self.error_hint(
                    ErrorKind::Type {
                        expected: "a single value".into(),
                        found: "a set of sites".into(),
                    },
                    span,
                    "sets can be used with `in`, `count`, `size`, `capture`, `place` and `forall`",
                );
                (Expr::Const(0), Ty::Error)
            }
            _ => {
                let x = self.expect(l, Ty::Num);
                let y = self.expect(r, Ty::Num);
                let (o, t) = match op {
                    BinOp::Lt => (Op::Lt, Ty::Bool),
                    BinOp::Le => (Op::Le, Ty::Bool),
                    BinOp::Gt => (Op::Gt, Ty::Bool),
                    BinOp::Ge => (Op::Ge, Ty::Bool),
                    BinOp::Add => (Op::Add, Ty::Num),
                    BinOp::Sub => (Op::Sub, Ty::Num),
                    BinOp::Mul => (Op::Mul, Ty::Num),
                    BinOp::Div => (Op::Div, Ty::Num),
                    _ => (Op::Mod, Ty::Num),
                };
                (self.bin(o, x, y, span), t)
            }
        }
    }

    // ------------------------------------------------------------------ statements
}
