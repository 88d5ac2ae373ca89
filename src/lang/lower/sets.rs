//! Sets of sites: the set expressions and whether an expression is one.

use super::*;
use crate::lang::builtins::{self, Lowering as L};

impl Lowerer<'_> {
    /// Lowers an expression used as a set: a site, a region, a list, a filter, `all`, …
    pub(crate) fn set_expr(&mut self, e: &ast::Expr) -> SetExpr {
        if !self.enter(e.span) {
            return SetExpr::Empty;
        }
        let s = self.set_expr_in(e);
        self.leave();
        // past a limit, what was built is not the expression: nothing is said of it
        if self.s.halted { SetExpr::Empty } else { s }
    }

    pub(super) fn set_expr_in(&mut self, e: &ast::Expr) -> SetExpr {
        let set = match &e.kind {
            ExprKind::Name(id) => self.set_name(id, e.span),
            ExprKind::List(items) => Some(SetExpr::Union(
                items.iter().map(|i| self.set_expr(i)).collect(),
            )),
            ExprKind::Range(prefix, from, to) => Some(self.site_range(prefix, from, to, e.span)),
            ExprKind::Filter(_, _, true) => {
                self.error_hint(
                    ErrorKind::Misplaced { what: "a set of tokens", place: "after `for`, `exists` or `minimum`/`maximum`/`total`" },
                    e.span,
                    "write `for token x where …`, `exists token x where …` or `total token x where …: 1`",
                );
                Some(SetExpr::Empty)
            }
            ExprKind::Filter(v, cond, false) => Some(self.site_filter(v, cond)),
            ExprKind::Line(v, site, cond, true) => Some(self.line_set(v, site, cond, e.span)),
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), l, r) => self.set_sum(*op, l, r),
            ExprKind::Call(name, args)
                if self.lookup_local(&name.name).is_none()
                    && builtins::set_function(&name.name).is_some() =>
            {
                Some(self.set_function(name, args, e.span))
            }
            ExprKind::Call(name, args) => self.set_def_call(e, name, args),
            _ => None,
        };
        match set {
            Some(s) => s,
            None => self.one_site(e),
        }
    }

    /// A name as a set: a `let` bound to a set, a region, a built-in set (`all`); `None` for a
    /// name of another kind, a single site.
    fn set_name(&mut self, id: &ast::Ident, span: Span) -> Option<SetExpr> {
        if let Some(Local::BoundSet(s, cost)) = self.lookup_local(&id.name) {
            let (s, cost) = (s.clone(), *cost);
            return Some(if self.expand(cost, span) {
                s
            } else {
                SetExpr::Empty
            });
        }
        if self.lookup_local(&id.name).is_none() {
            match self.t.globals.get(&id.name).map(|g| g.0) {
                Some(Global::Region(r)) => return Some(SetExpr::Region(r)),
                Some(Global::Builtin) if builtins::name_of(&id.name).is_some_and(|b| b.set) => {
                    return Some(SetExpr::All);
                }
                _ => {}
            }
        }
        None
    }

    /// `s[1..holes]`: the sites named by a prefix and the numbers of a constant range.
    fn site_range(
        &mut self,
        prefix: &ast::Ident,
        from: &ast::Expr,
        to: &ast::Expr,
        span: Span,
    ) -> SetExpr {
        let (Some(a), Some(z)) = (self.const_int(from), self.const_int(to)) else {
            return SetExpr::Empty;
        };
        if a.abs_diff(z) > 4096 {
            self.error(
                ErrorKind::BadRange {
                    name: prefix.name.clone(),
                },
                span,
            );
            return SetExpr::Empty;
        }
        let step = if a <= z { 1 } else { -1 };
        let mut out = vec![];
        let mut i = a;
        loop {
            let name = format!("{}{i}", prefix.name);
            match self.t.globals.get(&name).map(|g| g.0) {
                Some(Global::Site(s)) => out.push(SetExpr::One(Expr::Const(s.0 as i64))),
                _ if self.t.is_poisoned(&name) => break,
                _ => {
                    self.error_hint(
                        ErrorKind::Unknown {
                            what: "site",
                            name: name.clone(),
                        },
                        span,
                        format!(
                            "the range `{}[{a}..{z}]` names sites that do not exist",
                            prefix.name
                        ),
                    );
                    break;
                }
            }
            if i == z {
                break;
            }
            i += step;
        }
        SetExpr::Union(out)
    }

    /// `(h where c)`: the sites where a condition holds.
    fn site_filter(&mut self, v: &ast::Ident, cond: &ast::Expr) -> SetExpr {
        self.s.scopes.push(vec![]);
        let id = self.new_var(&v.name, Ty::Site);
        let c = self.expect(cond, Ty::Bool);
        self.s.scopes.pop();
        SetExpr::Filter {
            var: id,
            base: Box::new(SetExpr::All),
            cond: b(c),
        }
    }

    /// `A + B`, `A - B` where a side is a set: their union, their difference; `None` for
    /// arithmetic.
    fn set_sum(&mut self, op: BinOp, l: &ast::Expr, r: &ast::Expr) -> Option<SetExpr> {
        let (lt, rt) = (self.peek_is_set(l), self.peek_is_set(r));
        if !(lt || rt) {
            return None;
        }
        let a = self.set_expr(l);
        let z = self.set_expr(r);
        Some(if op == BinOp::Add {
            SetExpr::Union(vec![a, z])
        } else {
            SetExpr::Diff(Box::new(a), Box::new(z))
        })
    }

    /// A call of a built-in function that gives a set: `neighbours(h)`, `jumps(h)`, `run(…)`.
    fn set_function(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> SetExpr {
        let Some(builtin) = builtins::set_function(&name.name) else {
            return SetExpr::Empty;
        };
        if !self.arity_ok(builtin, &name.name, args.len(), span) {
            return SetExpr::Empty;
        }
        match builtin.lowering {
            L::Neighbours if self.peek_is_set(&args[0]) => {
                SetExpr::Around(Box::new(self.set_expr(&args[0])))
            }
            L::Neighbours => SetExpr::Neighbours(b(self.expect(&args[0], Ty::Site))),
            L::Ray | L::Rays | L::Steps => {
                let s = self.expect(&args[0], Ty::Site);
                let mut dirs = args[1..].iter().map(|d| self.expect(d, Ty::Dir));
                let one = |d: Expr| match builtin.lowering {
                    L::Steps => SetExpr::One(Expr::Next {
                        site: b(s.clone()),
                        dir: b(d),
                        steps: b(Expr::Const(1)),
                    }),
                    _ => SetExpr::Ray {
                        from: b(s.clone()),
                        dir: b(d),
                    },
                };
                match builtin.lowering {
                    L::Ray => dirs.next().map_or(SetExpr::Empty, one),
                    _ => SetExpr::Union(dirs.collect::<Vec<_>>().into_iter().map(one).collect()),
                }
            }
            L::Connected => SetExpr::Connected {
                from: Box::new(self.set_expr(&args[0])),
                through: Box::new(self.set_expr(&args[1])),
            },
            L::Jumps => SetExpr::Jumps(b(self.expect(&args[0], Ty::Site))),
            L::Run => {
                let s = self.expect(&args[0], Ty::Site);
                let d = self.ring_dir(&args[1]);
                let n = self.expect(&args[2], Ty::Num);
                self.need_ring(span);
                SetExpr::Run {
                    from: b(s),
                    dir: b(d),
                    len: b(n),
                }
            }
            _ => SetExpr::Empty,
        }
    }

    /// A call of a `def` whose body is a set; `None` for any other call.
    fn set_def_call(
        &mut self,
        e: &ast::Expr,
        name: &ast::Ident,
        args: &[ast::Expr],
    ) -> Option<SetExpr> {
        if let Some((Global::Def(i), _)) = self.t.globals.get(&name.name).copied()
            && self.peek_is_set(e)
        {
            return Some(
                self.with_def(i, args, e.span, |c, body| c.set_expr(body))
                    .unwrap_or(SetExpr::Empty),
            );
        }
        None
    }

    /// An expression that is not a set by its form, as a set: a single site.
    fn one_site(&mut self, e: &ast::Expr) -> SetExpr {
        let (x, ty) = self.expr(e);
        match ty {
            Ty::Site => SetExpr::One(x),
            Ty::Error => SetExpr::Empty,
            Ty::Null => {
                self.determine(&x, Ty::Site);
                SetExpr::One(x)
            }
            t => {
                self.type_error(Ty::Set, t, e.span);
                SetExpr::Empty
            }
        }
    }

    /// Whether an expression denotes a set, without reporting anything.
    pub(super) fn peek_is_set(&self, e: &ast::Expr) -> bool {
        // A worklist, not recursion: the bodies of `def`s calling `def`s can chain far, and each
        // `def` is looked into once.
        let mut todo = vec![e];
        // the defs looked into, and those being expanded (built at the first call met)
        let mut seen: Vec<bool> = vec![];
        let mut expanding: std::collections::HashSet<&str> = Default::default();
        while let Some(e) = todo.pop() {
            match &e.kind {
                ExprKind::Name(id) => match self.lookup_local(&id.name) {
                    Some(Local::BoundSet(..)) => return true,
                    Some(_) => {}
                    None => {
                        let global = self.t.globals.get(&id.name).map(|g| g.0);
                        if matches!(global, Some(Global::Region(_)))
                            || (matches!(global, Some(Global::Builtin))
                                && builtins::name_of(&id.name).is_some_and(|b| b.set))
                        {
                            return true;
                        }
                    }
                },
                ExprKind::List(_)
                | ExprKind::Range(..)
                | ExprKind::Filter(..)
                | ExprKind::Line(_, _, _, true) => return true,
                ExprKind::Binary(BinOp::Add | BinOp::Sub, l, r) => {
                    todo.push(r);
                    todo.push(l);
                }
                ExprKind::Call(name, _) if builtins::set_function(&name.name).is_some() => {
                    return true;
                }
                ExprKind::Call(name, _) => {
                    if let Some(Global::Def(i)) = self.t.globals.get(&name.name).map(|g| g.0) {
                        if seen.is_empty() {
                            seen = vec![false; self.t.file.defs.len()];
                            expanding = self.s.def_stack.iter().map(String::as_str).collect();
                        }
                        let d = &self.t.file.defs[i];
                        // A recursive def is reported when it is expanded.
                        if !expanding.contains(d.name.name.as_str()) && !seen[i] {
                            // A def is a set when its body is one (parameters are not sets here).
                            seen[i] = true;
                            todo.push(&d.body);
                        }
                    }
                }
                _ => {}
            }
        }
        false
    }

    /// A direction that must be the ring's (a sowing, `run`, `some … toward`): a named
    /// direction of the board is refused there.
    pub(super) fn ring_dir(&mut self, dir: &ast::Expr) -> Expr {
        let d = self.expect(dir, Ty::Dir);
        if let Expr::Const(c) = d
            && c >= crate::ir::grid::Compass::FIRST
        {
            self.error_hint(
                ErrorKind::Type {
                    expected: "a direction of the ring".into(),
                    found: "a named direction of the board".into(),
                },
                dir.span,
                "sowing, `run` and `some … toward` follow the ring (its `forward` and `backward` names); `next`, `ray` and `steps` take the board's directions",
            );
        }
        d
    }

    pub(super) fn need_ring(&mut self, span: Span) {
        if self.t.dir_names.is_none() {
            self.error_hint(
                ErrorKind::Missing {
                    what: "`ring` (directions need one)",
                },
                span,
                "declare one in the board: `ring s[1..7] n[1..7] forward ccw backward cw`",
            );
        }
    }
}
