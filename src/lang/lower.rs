//! Lowering of expressions and statements: names become indices, options become constants,
//! statements become jumps and instructions. Type errors are reported here.

use crate::ast::{self, BinOp, ExprKind, Span, StmtKind, UnOp, ValueItem};
use crate::check::{Checker, Cost, Global, Local, Ty};
use crate::diagnostic::ErrorKind;
use crate::ir::*;
use crate::limits::{MAX_EXPANDED_NESTING, MAX_EXPANSION};

mod memory;

/// The stack lowering leaves for what comes after it (see `Checker::enter`).
const STACK_RESERVE: usize = 256 << 10;

/// The built-in functions, for "did you mean" hints.
pub(crate) const FUNCTIONS: [&str; 27] = [
    "original_owner",
    "count",
    "captured",
    "score",
    "size",
    "owner",
    "kind",
    "next",
    "opposite",
    "run",
    "min",
    "max",
    "abs",
    "top",
    "bottom",
    "site",
    "pos",
    "area",
    "track_site",
    "track_pos",
    "track_end",
    "side",
    "between",
    "x",
    "y",
    "neighbours",
    "jumps",
];

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
    crate::optimize::apply(op, x, y).ok_or(ErrorKind::Overflow)
}

impl Checker<'_> {
    fn new_var(&mut self, name: &str, ty: Ty) -> VarId {
        let id = self.slot_for_var();
        self.bind(name, Local::Var(id, ty));
        id
    }

    /// A new variable slot: there are at most 65535 (once `def`s and actions are expanded).
    fn slot_for_var(&mut self) -> VarId {
        if self.nvars >= VarId::MAX as usize && !self.halted {
            self.error(
                ErrorKind::TooLarge {
                    value: self.nvars as i64 + 1,
                    what: "at most 65535 variables, once `def`s and actions are expanded",
                },
                self.use_spans.first().copied().unwrap_or_default(),
            );
            self.halted = true;
        }
        let id = self.nvars.min(VarId::MAX as usize - 1) as VarId;
        self.nvars += 1;
        id
    }

    fn bind(&mut self, name: &str, l: Local) {
        if self.scopes.is_empty() {
            self.scopes.push(vec![]);
        }
        self.scopes
            .last_mut()
            .expect("a scope")
            .push((name.to_string(), l));
    }

    fn lookup_local(&self, name: &str) -> Option<&Local> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, l)| l)
    }

    /// Enters one level of lowering (an expression, a set, a statement): false past the limits
    /// of nesting and of expansion, which are reported once; then nothing more is lowered.
    fn enter(&mut self, span: Span) -> bool {
        if self.halted {
            return false;
        }
        // The limit is counted in levels; the stack a level takes depends on the build and the
        // thread (a debug build's frames are several times larger): with too little stack left,
        // lowering stops as it does at the limit, instead of overflowing.
        if self.nesting >= MAX_EXPANDED_NESTING
            || stacker::remaining_stack().is_some_and(|left| left < STACK_RESERVE)
        {
            self.expansion_too_deep(span);
            return false;
        }
        if self.work >= MAX_EXPANSION {
            self.expansion_too_large(span);
            return false;
        }
        self.nesting += 1;
        self.work += 1;
        self.high_water = self.high_water.max(self.nesting);
        true
    }

    fn leave(&mut self) {
        self.nesting -= 1;
    }

    /// Copies a bound argument where its parameter is used: its cost is paid again.
    fn expand(&mut self, cost: Cost, span: Span) -> bool {
        if self.halted {
            return false;
        }
        if self.nesting + cost.height > MAX_EXPANDED_NESTING {
            self.expansion_too_deep(span);
            return false;
        }
        self.work += cost.size;
        if self.work > MAX_EXPANSION {
            self.expansion_too_large(span);
            return false;
        }
        self.high_water = self.high_water.max(self.nesting + cost.height);
        true
    }

    /// Runs `f`, measuring the depth and size of what it lowers.
    fn measured<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> (T, Cost) {
        let (work, high_water) = (self.work, self.high_water);
        self.high_water = self.nesting;
        let out = f(self);
        let cost = Cost {
            height: (self.high_water - self.nesting).max(1),
            size: (self.work - work).max(1),
        };
        self.high_water = self.high_water.max(high_water);
        (out, cost)
    }

    /// The `def`s and actions being expanded, outermost first, for a hint.
    /// (Only the outermost ones: where a limit stops the expansion depends on the stack.)
    fn expansion_chain(&self) -> String {
        let names: Vec<String> = self.def_stack.iter().map(|n| format!("`{n}`")).collect();
        let shown = if names.len() > 4 {
            format!("{} → …", names[..4].join(" → "))
        } else {
            names.join(" → ")
        };
        if shown.is_empty() {
            "no `def` or action is involved".into()
        } else {
            format!("expanding {shown}")
        }
    }

    fn expansion_too_deep(&mut self, span: Span) {
        let at = self.use_spans.first().copied().unwrap_or(span);
        let hint = format!(
            "{}; each use of a `def` or an action copies its body: use fewer levels, or `let`",
            self.expansion_chain()
        );
        self.error_hint(
            ErrorKind::TooDeep {
                what: "once `def`s and actions are expanded",
                limit: MAX_EXPANDED_NESTING,
            },
            at,
            hint,
        );
        self.halted = true;
    }

    fn expansion_too_large(&mut self, span: Span) {
        let at = self.use_spans.first().copied().unwrap_or(span);
        let hint = format!(
            "{}; each use of a `def` or an action copies its body, and its arguments at each use of its parameters",
            self.expansion_chain()
        );
        self.error_hint(
            ErrorKind::TooLargeExpansion {
                name: self.def_stack.first().cloned(),
                limit: MAX_EXPANSION,
            },
            at,
            hint,
        );
        self.halted = true;
    }

    /// A `def`'s argument bound to its parameter: the lowered value (or set) and its cost.
    fn bound_argument(&mut self, a: &ast::Expr) -> Local {
        if self.peek_is_set(a) {
            let (s, cost) = self.measured(|c| c.set_expr(a));
            Local::BoundSet(s, cost)
        } else {
            let ((x, t), cost) = self.measured(|c| c.expr(a));
            Local::Bound(x, t, cost)
        }
    }

    fn type_error(&mut self, expected: Ty, found: Ty, span: Span) {
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
        if ty == Ty::Null && crate::check::none_type::nullable(want) {
            // `none`, or a variable made from it: now known to be `want`
            self.determine(&x, want);
            return x;
        }
        if ty != want && ty != Ty::Error {
            self.type_error(want, ty, e.span);
        }
        x
    }

    /// Lowers an expression used as a set: a site, a region, a list, a filter, `all`, …
    pub(crate) fn set_expr(&mut self, e: &ast::Expr) -> SetExpr {
        if !self.enter(e.span) {
            return SetExpr::Empty;
        }
        let s = self.set_expr_in(e);
        self.leave();
        // past a limit, what was built is not the expression: nothing is said of it
        if self.halted { SetExpr::Empty } else { s }
    }

    fn set_expr_in(&mut self, e: &ast::Expr) -> SetExpr {
        match &e.kind {
            ExprKind::Name(id) => {
                if let Some(Local::BoundSet(s, cost)) = self.lookup_local(&id.name) {
                    let (s, cost) = (s.clone(), *cost);
                    return if self.expand(cost, e.span) {
                        s
                    } else {
                        SetExpr::Empty
                    };
                }
                if self.lookup_local(&id.name).is_none() {
                    match self.globals.get(&id.name).map(|g| g.0) {
                        Some(Global::Region(r)) => return SetExpr::Region(r),
                        Some(Global::Builtin) if id.name == "all" => return SetExpr::All,
                        _ => {}
                    }
                }
            }
            ExprKind::List(items) => {
                return SetExpr::Union(items.iter().map(|i| self.set_expr(i)).collect());
            }
            ExprKind::Range(prefix, from, to) => {
                let (Some(a), Some(z)) = (self.const_int(from), self.const_int(to)) else {
                    return SetExpr::Empty;
                };
                if a.abs_diff(z) > 4096 {
                    self.error(
                        ErrorKind::BadRange {
                            name: prefix.name.clone(),
                        },
                        e.span,
                    );
                    return SetExpr::Empty;
                }
                let step = if a <= z { 1 } else { -1 };
                let mut out = vec![];
                let mut i = a;
                loop {
                    let name = format!("{}{i}", prefix.name);
                    match self.globals.get(&name).map(|g| g.0) {
                        Some(Global::Site(s)) => out.push(SetExpr::One(Expr::Const(s.0 as i64))),
                        _ if self.is_poisoned(&name) => break,
                        _ => {
                            self.error_hint(
                                ErrorKind::Unknown {
                                    what: "site",
                                    name: name.clone(),
                                },
                                e.span,
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
                return SetExpr::Union(out);
            }
            ExprKind::Filter(_, _, true) => {
                self.error_hint(
                    ErrorKind::Misplaced { what: "a set of tokens", place: "after `for`, `exists` or `minimum`/`maximum`/`total`" },
                    e.span,
                    "write `for token x where …`, `exists token x where …` or `total token x where …: 1`",
                );
                return SetExpr::Empty;
            }
            ExprKind::Filter(v, cond, false) => {
                self.scopes.push(vec![]);
                let id = self.new_var(&v.name, Ty::Site);
                let c = self.expect(cond, Ty::Bool);
                self.scopes.pop();
                return SetExpr::Filter(id, Box::new(SetExpr::All), b(c));
            }
            ExprKind::Line(v, site, cond, true) => return self.line_set(v, site, cond, e.span),
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), l, r) => {
                let (lt, rt) = (self.peek_is_set(l), self.peek_is_set(r));
                if lt || rt {
                    let a = self.set_expr(l);
                    let z = self.set_expr(r);
                    return if *op == BinOp::Add {
                        SetExpr::Union(vec![a, z])
                    } else {
                        SetExpr::Diff(Box::new(a), Box::new(z))
                    };
                }
            }
            ExprKind::Call(name, args)
                if (name.name == "neighbours" || name.name == "jumps")
                    && self.lookup_local(&name.name).is_none() =>
            {
                if args.len() != 1 {
                    self.error(
                        ErrorKind::Arity {
                            name: name.name.clone(),
                            expected: 1,
                            found: args.len(),
                        },
                        e.span,
                    );
                    return SetExpr::Empty;
                }
                let s = self.expect(&args[0], Ty::Site);
                return if name.name == "neighbours" {
                    SetExpr::Neighbours(b(s))
                } else {
                    SetExpr::Jumps(b(s))
                };
            }
            ExprKind::Call(name, args)
                if name.name == "run" && self.lookup_local("run").is_none() =>
            {
                if args.len() != 3 {
                    self.error(
                        ErrorKind::Arity {
                            name: "run".into(),
                            expected: 3,
                            found: args.len(),
                        },
                        e.span,
                    );
                    return SetExpr::Empty;
                }
                let s = self.expect(&args[0], Ty::Site);
                let d = self.expect(&args[1], Ty::Dir);
                let n = self.expect(&args[2], Ty::Num);
                self.need_ring(e.span);
                return SetExpr::Run(b(s), b(d), b(n));
            }
            ExprKind::Call(name, args) => {
                if let Some((Global::Def(i), _)) = self.globals.get(&name.name).copied()
                    && self.peek_is_set(e)
                {
                    return self
                        .with_def(i, args, e.span, |c, body| c.set_expr(body))
                        .unwrap_or(SetExpr::Empty);
                }
            }
            _ => {}
        }
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
    fn peek_is_set(&self, e: &ast::Expr) -> bool {
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
                        if matches!(
                            self.globals.get(&id.name).map(|g| g.0),
                            Some(Global::Region(_))
                        ) || id.name == "all"
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
                ExprKind::Call(name, _)
                    if name.name == "run" || name.name == "neighbours" || name.name == "jumps" =>
                {
                    return true;
                }
                ExprKind::Call(name, _) => {
                    if let Some(Global::Def(i)) = self.globals.get(&name.name).map(|g| g.0) {
                        if seen.is_empty() {
                            seen = vec![false; self.file.defs.len()];
                            expanding = self.def_stack.iter().map(String::as_str).collect();
                        }
                        let d = &self.file.defs[i];
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

    fn need_ring(&mut self, span: Span) {
        if self.dir_names.is_none() {
            self.error_hint(
                ErrorKind::Missing {
                    what: "`ring` (directions need one)",
                },
                span,
                "declare one in the board: `ring s[1..7] n[1..7] forward ccw backward cw`",
            );
        }
    }

    /// Inlines a `def`: binds its parameters to the argument expressions, then lowers the body.
    fn with_def<T>(
        &mut self,
        i: usize,
        args: &[ast::Expr],
        span: Span,
        f: impl FnOnce(&mut Self, &ast::Expr) -> T,
    ) -> Option<T> {
        let d = &self.file.defs[i];
        if self.def_stack.contains(&d.name.name) {
            self.error(
                ErrorKind::Recursive {
                    name: d.name.name.clone(),
                },
                span,
            );
            return None;
        }
        if d.params.len() != args.len() {
            self.error(
                ErrorKind::Arity {
                    name: d.name.name.clone(),
                    expected: d.params.len(),
                    found: args.len(),
                },
                span,
            );
            return None;
        }
        let mut frame = vec![];
        let mut origins = vec![];
        for (p, a) in d.params.iter().zip(args) {
            let l = self.bound_argument(a);
            frame.push((p.name.clone(), l));
            origins.push(self.origin_of(a));
        }
        let saved = std::mem::replace(&mut self.scopes, vec![frame]);
        self.enter_params(&d.name.name, &d.params, origins);
        self.def_stack.push(d.name.name.clone());
        self.use_spans.push(span);
        let out = f(self, &d.body);
        self.use_spans.pop();
        self.def_stack.pop();
        self.leave_params();
        self.scopes = saved;
        Some(out)
    }

    fn name(&mut self, id: &ast::Ident, span: Span) -> (Expr, Ty) {
        match self.lookup_local(&id.name) {
            Some(Local::Var(v, t)) => {
                let x = Expr::Var(*v);
                let t = self.known_type(&x, *t);
                return (x, t);
            }
            Some(Local::Bound(x, t, cost)) => {
                let (x, t, cost) = (x.clone(), *t, *cost);
                let t = self.known_type(&x, t);
                return if self.expand(cost, span) {
                    (x, t)
                } else {
                    (Expr::Const(0), Ty::Error)
                };
            }
            Some(Local::BoundSet(..)) => {
                self.error(
                    ErrorKind::Type {
                        expected: "a single value".into(),
                        found: "a set of sites".into(),
                    },
                    span,
                );
                return (Expr::Const(0), Ty::Error);
            }
            None => {}
        }
        match self.globals.get(&id.name).map(|g| g.0) {
            Some(Global::Option(i)) => match &self.options[i].value {
                OptValue::Int(n) => (Expr::Const(*n), Ty::Num),
                OptValue::Bool(v) => (Expr::Const(*v as i64), Ty::Bool),
                OptValue::Word(w) => {
                    let idx = self.words.iter().position(|x| x == w).unwrap_or(0);
                    (Expr::Const(idx as i64), Ty::Word)
                }
            },
            Some(Global::Word(i)) => (Expr::Const(i), Ty::Word),
            Some(Global::Site(s)) => (Expr::Const(s.0 as i64), Ty::Site),
            Some(Global::Player(p)) => (Expr::Const(p.0 as i64), Ty::Player),
            Some(Global::Piece(k)) => (Expr::Const(k.0 as i64), Ty::Piece),
            Some(Global::Dir(d)) => (Expr::Const(d as i64), Ty::Dir),
            Some(Global::Area(a)) => (Expr::Const(a as i64), Ty::Area),
            Some(Global::Dice(_)) | Some(Global::Action(_)) => {
                self.error_hint(
                    ErrorKind::Type {
                        expected: "a value".into(),
                        found: format!("`{}`", id.name),
                    },
                    span,
                    "dice are used with `throw`, actions with `do`",
                );
                (Expr::Const(0), Ty::Error)
            }
            Some(Global::Region(_)) => {
                self.error_hint(
                    ErrorKind::Type {
                        expected: "a single value".into(),
                        found: "a region".into(),
                    },
                    span,
                    format!("to test membership write `h in {}`", id.name),
                );
                (Expr::Const(0), Ty::Error)
            }
            Some(Global::Def(i)) => self
                .with_def(i, &[], span, |c, body| c.expr(body))
                .unwrap_or((Expr::Const(0), Ty::Error)),
            Some(Global::Tally(i)) => match self.tallies.get(i) {
                Some(t) if t.per_site => {
                    let name = t.name.clone();
                    self.site_tally_alone(&name, span)
                }
                Some(t) if t.per_player => {
                    let hint = format!(
                        "a `per player` tally is read for a player: `{}(mover)`",
                        t.name
                    );
                    self.error_hint(
                        ErrorKind::Type {
                            expected: "a single value".into(),
                            found: "a number for each player".into(),
                        },
                        span,
                        hint,
                    );
                    (Expr::Const(0), Ty::Error)
                }
                Some(t) => (Expr::Tally(t.slot), Ty::Num),
                None => (Expr::Const(0), Ty::Error),
            },
            Some(Global::Builtin) => match id.name.as_str() {
                "round" => (Expr::Round, Ty::Num),
                "repeated" => {
                    self.history = true;
                    (Expr::Repeated, Ty::Bool)
                }
                "first_player" => (Expr::FirstPlayer, Ty::Player),
                "mover" => (Expr::Mover, Ty::Player),
                "opponent" => (Expr::Opponent, Ty::Player),
                "none" => (Expr::Const(-1), Ty::Null),
                "sown" => match self.sown_vars.last_mut() {
                    Some((v, used)) => {
                        *used = true;
                        (Expr::Var(*v), Ty::Num)
                    }
                    None => {
                        self.error_hint(
                            ErrorKind::Misplaced {
                                what: "sown",
                                place: "inside the block of a `sow`",
                            },
                            span,
                            "`sown` is the number of pieces the lap just sown dropped",
                        );
                        (Expr::Const(0), Ty::Error)
                    }
                },
                "hole" => (Expr::Const(0), Ty::SiteKind),
                "store" => (Expr::Const(1), Ty::SiteKind),
                "cell" => (Expr::Const(2), Ty::SiteKind),
                "point" => (Expr::Const(3), Ty::SiteKind),
                "void" => (Expr::Const(4), Ty::SiteKind),
                _ => {
                    self.error(
                        ErrorKind::Type {
                            expected: "a single value".into(),
                            found: "a set of sites".into(),
                        },
                        span,
                    );
                    (Expr::Const(0), Ty::Error)
                }
            },
            None => {
                let hint = self.did_you_mean(&id.name);
                let kind = ErrorKind::Unknown {
                    what: "name",
                    name: id.name.clone(),
                };
                match hint {
                    Some(h) => self.error_hint(kind, span, h),
                    None => self.error(kind, span),
                }
                (Expr::Const(0), Ty::Error)
            }
        }
    }

    fn kinds_mask(&mut self, args: &[ast::Expr]) -> KindMask {
        if args.is_empty() {
            return all_kinds();
        }
        let mut m = 0u32;
        for a in args {
            let (x, t) = self.expr(a);
            match (x, t) {
                (Expr::Const(k), Ty::Piece) => m |= 1 << k,
                (_, Ty::Error) => {}
                (_, t) => self.type_error(Ty::Piece, t, a.span),
            }
        }
        KindMask(m)
    }

    fn call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> (Expr, Ty) {
        let arity = |c: &mut Self, n: std::ops::RangeInclusive<usize>| {
            if !n.contains(&args.len()) {
                c.error(
                    ErrorKind::Arity {
                        name: name.name.clone(),
                        expected: *n.start(),
                        found: args.len(),
                    },
                    span,
                );
                false
            } else {
                true
            }
        };
        if let Some((Global::Def(i), _)) = self.globals.get(&name.name).copied() {
            return self
                .with_def(i, args, span, |c, body| c.expr(body))
                .unwrap_or((Expr::Const(0), Ty::Error));
        }
        let err = (Expr::Const(0), Ty::Error);
        if let Some(t) = self.tally(&name.name) {
            if t.per_site {
                return self.site_tally_call(&t, args, span);
            }
            if !t.per_player {
                let hint = format!(
                    "`{}` is one number for the game: write it without `(…)`",
                    t.name
                );
                self.error_hint(
                    ErrorKind::Arity {
                        name: t.name.clone(),
                        expected: 0,
                        found: args.len(),
                    },
                    span,
                    hint,
                );
                return err;
            }
            if !arity(self, 1..=1) {
                return err;
            }
            let p = self.expect(&args[0], Ty::Player);
            return (Expr::TallyOf(t.slot, b(p)), Ty::Num);
        }
        match name.name.as_str() {
            "original_owner" => {
                if !arity(self, 1..=1) {
                    return err;
                }
                let s = self.expect(&args[0], Ty::Site);
                (Expr::OriginalOwner(b(s)), Ty::Player)
            }
            "count" => {
                if !arity(self, 1..=33) {
                    return err;
                }
                let mask = self.kinds_mask(&args[1..]);
                if self.peek_is_set(&args[0]) {
                    let s = self.set_expr(&args[0]);
                    (Expr::CountSet(Box::new(s), mask), Ty::Num)
                } else {
                    let s = self.expect(&args[0], Ty::Site);
                    (Expr::Count(b(s), mask), Ty::Num)
                }
            }
            "captured" => {
                if !arity(self, 1..=33) {
                    return err;
                }
                let p = self.expect(&args[0], Ty::Player);
                let mask = self.kinds_mask(&args[1..]);
                (Expr::Captured(b(p), mask), Ty::Num)
            }
            "score" => {
                if !arity(self, 1..=1) {
                    return err;
                }
                let p = self.expect(&args[0], Ty::Player);
                (Expr::Score(b(p)), Ty::Num)
            }
            "size" => {
                if !arity(self, 1..=1) {
                    return err;
                }
                let s = self.set_expr(&args[0]);
                (Expr::Size(Box::new(s)), Ty::Num)
            }
            "owner" => {
                if !arity(self, 1..=1) {
                    return err;
                }
                let (x, t) = self.expr(&args[0]);
                match t {
                    Ty::Token => (Expr::TokOwner(b(x)), Ty::Player),
                    Ty::Site | Ty::Error => (Expr::Owner(b(x)), Ty::Player),
                    Ty::Null if self.is_undetermined(&x) => {
                        self.error_hint(
                            ErrorKind::UnknownType {
                                name: self.text_of(args[0].span),
                            },
                            args[0].span,
                            "`owner` of a site and of a token differ: say which it is where it is made, `let x: site = none` (or `token`)",
                        );
                        self.give_up(&x);
                        err
                    }
                    Ty::Null => (Expr::Const(-1), Ty::Player),
                    t => {
                        self.type_error(Ty::Site, t, args[0].span);
                        err
                    }
                }
            }
            "between" => {
                if !arity(self, 2..=2) {
                    return err;
                }
                let a = self.expect(&args[0], Ty::Site);
                let c = self.expect(&args[1], Ty::Site);
                (Expr::Between(b(a), b(c)), Ty::Site)
            }
            "x" | "y" => {
                if !arity(self, 1..=1) {
                    return err;
                }
                let s = self.expect(&args[0], Ty::Site);
                (
                    if name.name == "x" {
                        Expr::CoordX(b(s))
                    } else {
                        Expr::CoordY(b(s))
                    },
                    Ty::Num,
                )
            }
            "neighbours" | "jumps" => {
                self.error_hint(
                    ErrorKind::Type { expected: "a single value".into(), found: "a set of sites".into() },
                    span,
                    "use it where a set is expected: `choose step q in neighbours(p)`, `exists q in jumps(p) where …`",
                );
                err
            }
            "side" => {
                if !arity(self, 1..=1) {
                    return err;
                }
                let p = self.expect(&args[0], Ty::Player);
                (Expr::SideOf(b(p)), Ty::Player)
            }
            "top" | "bottom" => {
                if !arity(self, 1..=1) {
                    return err;
                }
                let s = self.expect(&args[0], Ty::Site);
                let e = if name.name == "top" {
                    Expr::Top(b(s))
                } else {
                    Expr::Bottom(b(s))
                };
                (e, Ty::Token)
            }
            "site" | "pos" | "area" => {
                if !arity(self, 1..=1) {
                    return err;
                }
                let t = self.expect(&args[0], Ty::Token);
                match name.name.as_str() {
                    "site" => (Expr::TokSite(b(t)), Ty::Site),
                    "pos" => (Expr::TokPos(b(t)), Ty::Num),
                    _ => (Expr::TokArea(b(t)), Ty::Area),
                }
            }
            "track_site" | "track_pos" => {
                if !arity(self, 2..=2) {
                    return err;
                }
                let p = self.expect(&args[0], Ty::Player);
                if name.name == "track_site" {
                    let n = self.expect(&args[1], Ty::Num);
                    (Expr::TrackSite(b(p), b(n)), Ty::Site)
                } else {
                    let s = self.expect(&args[1], Ty::Site);
                    (Expr::TrackPos(b(p), b(s)), Ty::Num)
                }
            }
            "track_end" => {
                if !arity(self, 1..=1) {
                    return err;
                }
                let p = self.expect(&args[0], Ty::Player);
                (Expr::TrackEnd(b(p)), Ty::Num)
            }
            "kind" => {
                if !arity(self, 1..=1) {
                    return err;
                }
                let s = self.expect(&args[0], Ty::Site);
                (Expr::KindOf(b(s)), Ty::SiteKind)
            }
            "opposite" => {
                if !arity(self, 1..=1) {
                    return err;
                }
                let s = self.expect(&args[0], Ty::Site);
                (Expr::Opposite(b(s)), Ty::Site)
            }
            "next" => {
                if !arity(self, 1..=3) {
                    return err;
                }
                self.need_ring(span);
                let s = self.expect(&args[0], Ty::Site);
                let d = if args.len() >= 2 {
                    self.expect(&args[1], Ty::Dir)
                } else if self.lap_stack.is_empty() {
                    self.error_hint(
                        ErrorKind::Misplaced {
                            what: "next(h) without a direction",
                            place: "inside `sow`",
                        },
                        span,
                        "give the direction: `next(h, cw)`",
                    );
                    Expr::Const(0)
                } else {
                    Expr::SowDir
                };
                let n = if args.len() == 3 {
                    self.expect(&args[2], Ty::Num)
                } else {
                    Expr::Const(1)
                };
                (Expr::Next(b(s), b(d), b(n)), Ty::Site)
            }
            "min" | "max" => {
                if !arity(self, 2..=2) {
                    return err;
                }
                let x = self.expect(&args[0], Ty::Num);
                let y = self.expect(&args[1], Ty::Num);
                let op = if name.name == "min" { Op::Min } else { Op::Max };
                (self.bin(op, x, y, span), Ty::Num)
            }
            "abs" => {
                if !arity(self, 1..=1) {
                    return err;
                }
                match self.expect(&args[0], Ty::Num) {
                    Expr::Const(n) => (self.checked_const(n.checked_abs(), span), Ty::Num),
                    x => (Expr::Abs(b(x)), Ty::Num),
                }
            }
            "run" => {
                self.error_hint(
                    ErrorKind::Type {
                        expected: "a single value".into(),
                        found: "a set of sites".into(),
                    },
                    span,
                    "use a set where sets are expected: `forall x in run(h, d, k): …`",
                );
                err
            }
            _ => {
                let hint = self.did_you_mean(&name.name);
                let kind = ErrorKind::Unknown {
                    what: "function",
                    name: name.name.clone(),
                };
                match hint {
                    Some(h) => self.error_hint(kind, name.span, h),
                    None => self.error(kind, name.span),
                }
                for a in args {
                    let _ = self.expr(a);
                }
                err
            }
        }
    }

    /// A folded constant, or an error where it does not fit in 64 bits.
    fn checked_const(&mut self, v: Option<i64>, span: Span) -> Expr {
        match v {
            Some(v) => Expr::Const(v),
            None => {
                self.error(ErrorKind::Overflow, span);
                Expr::Const(0)
            }
        }
    }

    fn bin(&mut self, op: Op, x: Expr, y: Expr, span: Span) -> Expr {
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
        if self.halted {
            (Expr::Const(0), Ty::Error)
        } else {
            out
        }
    }

    fn expr_in(&mut self, e: &ast::Expr) -> (Expr, Ty) {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(n) => (Expr::Const(*n), Ty::Num),
            ExprKind::Bool(v) => (Expr::Const(*v as i64), Ty::Bool),
            ExprKind::Name(id) => {
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
            ExprKind::Call(name, args) => self.call(name, args, span),
            ExprKind::Range(..)
            | ExprKind::List(..)
            | ExprKind::Filter(..)
            | ExprKind::Line(_, _, _, true) => {
                let _ = self.set_expr(e);
                (Expr::Const(0), Ty::Set)
            }
            ExprKind::Unary(UnOp::Not, x) => match self.expect(x, Ty::Bool) {
                Expr::Const(v) => (Expr::Const((v == 0) as i64), Ty::Bool),
                x => (Expr::Not(b(x)), Ty::Bool),
            },
            ExprKind::Unary(UnOp::Neg, x) => match self.expect(x, Ty::Num) {
                Expr::Const(v) => (self.checked_const(v.checked_neg(), span), Ty::Num),
                x => (Expr::Neg(b(x)), Ty::Num),
            },
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, span),
            ExprKind::If(c, x, y) => {
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
            ExprKind::Coord(x, y) => match (self.const_int(x), self.const_int(y)) {
                (Some(x), Some(y)) => match self.site_at(x, y, span) {
                    Some(s) => (Expr::Const(s.0 as i64), Ty::Site),
                    None => (Expr::Const(-1), Ty::Error),
                },
                _ => (Expr::Const(-1), Ty::Error),
            },
            ExprKind::Some(v, cond, tok) => {
                self.scopes.push(vec![]);
                let t = if *tok { Ty::Token } else { Ty::Site };
                let id = self.new_var(&v.name, t);
                let c = self.expect(cond, Ty::Bool);
                self.scopes.pop();
                (Expr::Some(*tok, id, b(c)), t)
            }
            ExprKind::ExistsIn(v, set, cond) => {
                let s = self.set_expr(set);
                self.scopes.push(vec![]);
                let id = self.new_var(&v.name, Ty::Site);
                let c = self.expect(cond, Ty::Bool);
                self.scopes.pop();
                (Expr::Exists(id, Box::new(s), b(c)), Ty::Bool)
            }
            ExprKind::Exists(v, cond, tok) => {
                self.scopes.push(vec![]);
                let id = self.new_var(&v.name, if *tok { Ty::Token } else { Ty::Site });
                let c = self.expect(cond, Ty::Bool);
                self.scopes.pop();
                if *tok {
                    (Expr::TokExists(id, b(c)), Ty::Bool)
                } else {
                    (Expr::Exists(id, Box::new(SetExpr::All), b(c)), Ty::Bool)
                }
            }
            ExprKind::Agg {
                kind,
                token,
                var,
                cond,
                value,
            } => {
                self.scopes.push(vec![]);
                let id = self.new_var(&var.name, if *token { Ty::Token } else { Ty::Site });
                let c = self.expect(cond, Ty::Bool);
                let x = self.expect(value, Ty::Num);
                self.scopes.pop();
                let op = match kind {
                    ast::AggKind::Min => AggOp::Min,
                    ast::AggKind::Max => AggOp::Max,
                    ast::AggKind::Sum => AggOp::Sum,
                };
                (Expr::Agg(op, *token, id, b(c), b(x)), Ty::Num)
            }
            ExprKind::Line(v, site, cond, false) => self.in_line(v, site, cond, span),
            ExprKind::SomeAlong {
                var,
                token,
                from,
                dir,
                cond,
            } => {
                if *token {
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
                let d = self.expect(dir, Ty::Dir);
                self.scopes.push(vec![]);
                let id = self.new_var(&var.name, if *token { Ty::Token } else { Ty::Site });
                let c = self.expect(cond, Ty::Bool);
                self.scopes.pop();
                (Expr::SomeAlong(id, b(f), b(d), b(c)), Ty::Site)
            }
            ExprKind::Forall(v, set, cond) => {
                let s = self.set_expr(set);
                self.scopes.push(vec![]);
                let id = self.new_var(&v.name, Ty::Site);
                let c = self.expect(cond, Ty::Bool);
                self.scopes.pop();
                (Expr::Forall(id, Box::new(s), b(c)), Ty::Bool)
            }
        }
    }

    fn binary(&mut self, op: BinOp, l: &ast::Expr, r: &ast::Expr, span: Span) -> (Expr, Ty) {
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
                    && let Some(Global::Region(reg)) = self.globals.get(&id.name).map(|g| g.0)
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

    fn emit(&mut self, i: Instr) -> u32 {
        self.code.push(i);
        (self.code.len() - 1) as u32
    }

    fn here(&self) -> u32 {
        self.code.len() as u32
    }

    fn patch(&mut self, at: u32, target: u32) {
        match &mut self.code[at as usize] {
            Instr::Jump(t) | Instr::JumpIfNot(_, t) => *t = target,
            Instr::SowLap { on_cycle, .. } => *on_cycle = target,
            _ => {}
        }
    }

    /// Lowers a block in its own scope.
    ///
    /// `again` offers a choice once more *after the tests that immediately precede it in its
    /// block are made again* (a run of `let`s and of `if`s whose block ends the turn, the round
    /// or the game): a rule such as "the round ends when the player to move has nothing to sow",
    /// written before the choice, then holds at every decision of a turn, not only the first.
    pub(crate) fn block(&mut self, stmts: &[ast::Stmt]) {
        self.scopes.push(vec![]);
        let mut tests_from: Option<u32> = None;
        for s in stmts {
            let here = self.here();
            let test = is_test(s);
            if test && tests_from.is_none() {
                tests_from = Some(here);
            }
            if matches!(s.kind, StmtKind::Choose(..)) {
                self.again_target = Some(tests_from.unwrap_or(here));
            }
            self.stmt(s);
            if !test {
                tests_from = None;
            }
        }
        if let Some(scope) = self.scopes.pop() {
            self.undetermined_in(&scope);
        }
    }

    fn stmt(&mut self, s: &ast::Stmt) {
        if !self.enter(s.span) {
            return;
        }
        self.stmt_in(s);
        self.leave();
    }

    fn stmt_in(&mut self, s: &ast::Stmt) {
        let span = s.span;
        match &s.kind {
            StmtKind::If { cond, then, otherwise } => {
                let c = self.expect(cond, Ty::Bool);
                let jf = self.emit(Instr::JumpIfNot(c, 0));
                self.block(then);
                match otherwise {
                    Some(o) => {
                        let jend = self.emit(Instr::Jump(0));
                        let h = self.here();
                        self.patch(jf, h);
                        self.block(o);
                        let h = self.here();
                        self.patch(jend, h);
                    }
                    None => {
                        let h = self.here();
                        self.patch(jf, h);
                    }
                }
            }
            StmtKind::While { cond, body } => {
                let top = self.here();
                let c = self.expect(cond, Ty::Bool);
                let jf = self.emit(Instr::JumpIfNot(c, 0));
                self.block(body);
                self.emit(Instr::Jump(top));
                let h = self.here();
                self.patch(jf, h);
            }
                        StmtKind::Choose(alts, otherwise) => self.choose(alts, otherwise.as_deref()),
            StmtKind::Sow { from, dir, orders, skip, last, body } => {
                self.need_ring(span);
                let f = self.expect(from, Ty::Site);
                let d = self.expect(dir, Ty::Dir);
                self.emit(Instr::SowStart { from: f, dir: d });
                self.scopes.push(vec![]);
                let lap = self.here();
                self.lap_stack.push(lap);
                let skip = skip.as_ref().map(|e| self.set_expr(e));
                let last_var = self.new_var(&last.name, Ty::Site);
                let sown = self.slot_for_var();
                let at = self.emit(Instr::SowLap {
                    orders: *orders,
                    skip,
                    last: last_var,
                    on_cycle: 0,
                    sown: Some(sown),
                });
                self.sown_vars.push((sown, false));
                self.block(body);
                // the pieces of a lap are counted only for a block that reads `sown`
                if let Some((_, false)) = self.sown_vars.pop()
                    && let Instr::SowLap { sown, .. } = &mut self.code[at as usize]
                {
                    *sown = None;
                }
                self.lap_stack.pop();
                self.scopes.pop();
                let j = self.emit(Instr::Jump(0));
                let cyc = self.emit(Instr::EndTurn);
                self.patch(at, cyc);
                let h = self.here();
                self.patch(j, h);
            }
            StmtKind::Let(name, value) => {
                if self.peek_is_set(value) {
                    let (set, cost) = self.measured(|c| c.set_expr(value));
                    self.bind(&name.name, Local::BoundSet(set, cost));
                    return;
                }
                let (x, t) = self.expr(value);
                let v = self.new_var(&name.name, t);
                if t == Ty::Null {
                    // `let x = none`: its type comes from its uses
                    self.null_var(v, name, span, &x);
                }
                self.emit(Instr::SetVar(v, x));
            }
            StmtKind::LetTyped { name, ty, value } => {
                let want = self.type_word(ty);
                let x = self.expect(value, want);
                let v = self.new_var(&name.name, want);
                self.emit(Instr::SetVar(v, x));
            }
            StmtKind::AnotherTurn => {
                if self.in_between || self.in_start {
                    self.error_hint(
                        ErrorKind::Misplaced { what: "another turn", place: "in the `turn` block" },
                        span,
                        "`another turn` gives the player to move another turn when this one ends",
                    );
                }
                self.emit(Instr::AnotherTurn);
            }
            StmtKind::Set { target, value } => match &target.kind {
                ExprKind::Name(id) => match self.lookup_local(&id.name).cloned() {
                    Some(Local::Var(v, t)) => {
                        let t = self.known_type(&Expr::Var(v), t);
                        let x = if t == Ty::Null {
                            // a variable made from `none`: the value says what it stands for
                            let (x, vt) = self.expr(value);
                            let vt = self.known_type(&x, vt);
                            if crate::check::none_type::nullable(vt) {
                                self.determine(&Expr::Var(v), vt);
                            } else if vt != Ty::Null && vt != Ty::Error {
                                self.error(
                                    ErrorKind::Type {
                                        expected: "a site, a player, a token or an area (it was made from `none`)".into(),
                                        found: vt.words().into(),
                                    },
                                    value.span,
                                );
                            }
                            x
                        } else {
                            self.expect(value, t)
                        };
                        self.emit(Instr::SetVar(v, x));
                    }
                    None if id.name == "mover" => {
                        let p = self.expect(value, Ty::Player);
                        self.emit(Instr::SetMover(p));
                    }
                    None if self.tally(&id.name).is_some() => {
                        let Some(t) = self.tally(&id.name) else { return };
                        let x = self.expect(value, Ty::Num);
                        if t.per_site {
                            self.site_tally_set_alone(&t, target.span);
                        } else if t.per_player {
                            let hint = format!("a `per player` tally is set for a player: `set {}(mover) = …`", t.name);
                            self.error_hint(ErrorKind::BadTarget, target.span, hint);
                        } else {
                            self.emit(Instr::SetTally { slot: t.slot, player: None, value: x });
                        }
                    }
                    _ => self.error_hint(ErrorKind::BadTarget, target.span, "only variables made with `let` can be set; `set owner(h) = p` and `set kind(h) = store` change a site"),
                },
                ExprKind::Call(f, args) if self.tally(&f.name).is_some_and(|t| t.per_site) => {
                    self.set_site_tally(f, args, value, target.span);
                }
                ExprKind::Call(f, args) if args.len() == 1 && self.tally(&f.name).is_some_and(|t| t.per_player) => {
                    let Some(slot) = self.tally(&f.name).map(|t| t.slot) else { return };
                    let p = self.expect(&args[0], Ty::Player);
                    let x = self.expect(value, Ty::Num);
                    self.emit(Instr::SetTally { slot, player: Some(p), value: x });
                }
                ExprKind::Call(f, args) if (f.name == "owner" || f.name == "kind") && args.len() == 1 => {
                    let site = self.expect(&args[0], Ty::Site);
                    if f.name == "owner" {
                        let p = self.expect(value, Ty::Player);
                        self.emit(Instr::SetOwner(site, p));
                    } else {
                        let k = self.expect(value, Ty::SiteKind);
                        self.emit(Instr::SetKind(site, k));
                    }
                }
                _ => self.error_hint(ErrorKind::BadTarget, target.span, "write `set v = …`, `set owner(h) = p`, `set kind(h) = k`, `set mover = p` or `set TALLY = …`"),
            },
            StmtKind::Capture { items, keep, to } => {
                let sets: Vec<SetExpr> = items.iter().map(|i| self.set_expr(i)).collect();
                let set = if sets.len() == 1 { sets.into_iter().next().unwrap_or(SetExpr::Empty) } else { SetExpr::Union(sets) };
                let keep = keep.as_ref().map(|k| self.expect(k, Ty::Num)).unwrap_or(Expr::Const(0));
                let to = to.as_ref().map(|p| self.expect(p, Ty::Player)).unwrap_or(Expr::Mover);
                self.emit(Instr::Capture { set, keep, to });
            }
            StmtKind::Place { count, piece, target, from, owner } => {
                let n = self.expect(count, Ty::Num);
                let k = self.piece_kind(piece);
                let is_token = self.token_kinds.get(k.0 as usize).copied().unwrap_or(false);
                let owner = owner.as_ref().map(|p| self.expect(p, Ty::Player));
                let from = from.as_ref().map(|p| self.expect(p, Ty::Player));
                match (target, is_token) {
                    (ast::PlaceTarget::Sites(on), false) => {
                        let sets: Vec<SetExpr> = on.iter().map(|i| self.set_expr(i)).collect();
                        self.emit(Instr::Place {
                            count: n,
                            piece: k,
                            on: SetExpr::Union(sets),
                            from,
                        });
                    }
                    (ast::PlaceTarget::Sites(on), true) => {
                        let sets: Vec<SetExpr> = on.iter().map(|i| self.set_expr(i)).collect();
                        self.emit(Instr::PlaceTokens {
                            count: n,
                            piece: k,
                            on: Some(SetExpr::Union(sets)),
                            area: 0,
                            owner,
                        });
                    }
                    (ast::PlaceTarget::Area(a), true) => {
                        let area = self.area(a);
                        self.emit(Instr::PlaceTokens {
                            count: n,
                            piece: k,
                            on: None,
                            area,
                            owner,
                        });
                    }
                    (ast::PlaceTarget::Area(a), false) => self.error_hint(
                        ErrorKind::Misplaced { what: "placing in an area", place: "for token pieces" },
                        a.span,
                        "declare the piece with `tokens N` to place it in an area",
                    ),
                }
            }
            StmtKind::Throw { dice, var } => match self.globals.get(&dice.name).map(|g| g.0) {
                Some(Global::Dice(d)) => {
                    let v = self.new_var(&var.name, Ty::Num);
                    self.emit(Instr::Throw { dice: d, var: v });
                }
                _ => {
                    let names: Vec<&str> = self.file.dice.iter().map(|d| d.name.name.as_str()).collect();
                    let hint = self.suggest_among(&dice.name, names)
                        .map(|s| format!("did you mean `{s}`?"))
                        .unwrap_or_else(|| "dice are declared with `dice NAME { … }`".into());
                    self.error_hint(ErrorKind::Unknown { what: "dice", name: dice.name.clone() }, dice.span, hint);
                }
            },
            StmtKind::Move { token, target, carry } => {
                let t = self.expect(token, Ty::Token);
                let (to, onto_site) = match target {
                    ast::MoveTarget::Position(p) => (self.expect(p, Ty::Num), false),
                    ast::MoveTarget::Site(s) => (self.expect(s, Ty::Site), true),
                };
                self.emit(Instr::Move {
                    token: t,
                    to,
                    onto_site,
                    carry: *carry,
                });
            }
            StmtKind::Send { token, area } => {
                let t = self.expect(token, Ty::Token);
                let a = self.area(area);
                self.emit(Instr::Send { token: t, area: a });
            }
            StmtKind::ForTokens { var, cond, body } => self.for_loop(var, Some(cond), None, body),
            StmtKind::ForSites { var, set, body } => self.for_loop(var, None, Some(set), body),
            StmtKind::Do { name, args } => match self.globals.get(&name.name).map(|g| g.0) {
                Some(Global::Action(i)) => self.do_action(i, args, span),
                _ => {
                    let names: Vec<&str> = self.file.actions.iter().map(|a| a.name.name.as_str()).collect();
                    let hint = self.suggest_among(&name.name, names)
                        .map(|s| format!("did you mean `{s}`?"))
                        .unwrap_or_else(|| "actions are declared with `action NAME(…) { … }`".into());
                    self.error_hint(ErrorKind::Unknown { what: "action", name: name.name.clone() }, name.span, hint);
                }
            },
            StmtKind::Relay(site) => {
                let x = self.expect(site, Ty::Site);
                match self.lap_stack.last() {
                    Some(&lap) => {
                        self.emit(Instr::Relay { site: x, lap });
                    }
                    None => self.error_hint(
                        ErrorKind::Misplaced { what: "relay", place: "inside the block of a `sow`" },
                        span,
                        "`relay h` picks up h and sows on; it continues the sowing in progress",
                    ),
                }
            }
            StmtKind::EndTurn => {
                if self.in_between {
                    self.error_hint(
                        ErrorKind::Misplaced { what: "end turn", place: "in the `turn` block" },
                        span,
                        "between rounds, the next round starts at the end of the block; `end game` ends the match",
                    );
                }
                self.emit(Instr::EndTurn);
            }
            StmtKind::EndRound => {
                if self.in_between || self.in_start {
                    self.error_hint(
                        ErrorKind::Misplaced { what: "end round", place: "in the `turn` block" },
                        span,
                        "`end round` runs the `between rounds` block; it cannot be used inside it or in `start`",
                    );
                }
                self.emit(Instr::EndRound);
            }
            StmtKind::Give { count, piece, from, to } => {
                let n = self.expect(count, Ty::Num);
                let known = matches!(self.globals.get(&piece.name), Some((Global::Piece(_), _)));
                let k = self.piece_kind(piece);
                if known && self.token_kinds.get(k.0 as usize).copied().unwrap_or(false) {
                    self.error_hint(
                        ErrorKind::Misplaced { what: "give", place: "for counters (pieces without `tokens`)" },
                        piece.span,
                        "tokens are moved one by one with `move` and `send`",
                    );
                }
                let from = self.expect(from, Ty::Player);
                let to = self.expect(to, Ty::Player);
                self.emit(Instr::Give { count: n, piece: k, from, to });
            }
            StmtKind::EndGame(rule) => {
                let r = match rule {
                    ast::EndGame::Score => EndRule::Score,
                    ast::EndGame::Draw => EndRule::Draw,
                    ast::EndGame::Winner(p) => EndRule::Winner(self.expect(p, Ty::Player)),
                };
                self.emit(Instr::EndGame(r));
            }
            StmtKind::Again => match self.choose_stack.last() {
                Some(&at) => {
                    self.emit(Instr::Jump(at));
                }
                None => self.error_hint(
                    ErrorKind::Misplaced { what: "again", place: "inside an alternative of `choose`" },
                    span,
                    "`again` offers the enclosing choice once more",
                ),
            },
            StmtKind::ForgetPositions => {
                self.emit(Instr::ForgetPositions);
            }
            StmtKind::First(who) => {
                if !self.in_start && !self.in_between {
                    self.error(ErrorKind::Misplaced { what: "first", place: "in the `start` or `between rounds` block" }, span);
                }
                let p = who.as_ref().map(|e| self.expect(e, Ty::Player));
                self.emit(Instr::First(p));
            }
        }
    }

    /// The tally of that name, if it is one.
    pub(crate) fn tally(&self, name: &str) -> Option<TallyInfo> {
        match self.globals.get(name) {
            Some((Global::Tally(i), _)) => self.tallies.get(*i).cloned(),
            _ => None,
        }
    }

    /// A piece kind by name (an unknown one is reported, with the closest name).
    fn piece_kind(&mut self, piece: &ast::Ident) -> PieceKind {
        if let Some(Global::Piece(k)) = self.globals.get(&piece.name).map(|g| g.0) {
            return k;
        }
        let hint =
            crate::diagnostic::suggest(&piece.name, self.pieces.iter().map(|p| p.name.as_str()))
                .map(|s| format!("did you mean `{s}`?"))
                .unwrap_or_else(|| "piece kinds are declared in `pieces { … }`".into());
        self.error_hint(
            ErrorKind::Unknown {
                what: "piece kind",
                name: piece.name.clone(),
            },
            piece.span,
            hint,
        );
        PieceKind(0)
    }

    fn area(&mut self, a: &ast::Ident) -> u8 {
        match self.globals.get(&a.name).map(|g| g.0) {
            Some(Global::Area(i)) => i,
            _ => {
                let hint =
                    crate::diagnostic::suggest(&a.name, self.areas.iter().map(String::as_str))
                        .map(|s| format!("did you mean `{s}`?"))
                        .unwrap_or_else(|| {
                            "areas are declared in the board: `area waiting finished`".into()
                        });
                self.error_hint(
                    ErrorKind::Unknown {
                        what: "area",
                        name: a.name.clone(),
                    },
                    a.span,
                    hint,
                );
                0
            }
        }
    }

    /// `for token x where c { … }` or `for h in SET { … }`: the elements are listed when the
    /// loop starts, then the body runs once for each.
    fn for_loop(
        &mut self,
        var: &ast::Ident,
        cond: Option<&ast::Expr>,
        set: Option<&ast::Expr>,
        body: &[ast::Stmt],
    ) {
        if self.loops >= u16::MAX as usize && !self.halted {
            self.error(
                ErrorKind::TooLarge {
                    value: self.loops as i64 + 1,
                    what: "at most 65535 `for` loops, once actions are expanded",
                },
                self.use_spans.first().copied().unwrap_or_default(),
            );
            self.halted = true;
        }
        let slot = self.loops.min(u16::MAX as usize - 1) as u16;
        self.loops += 1;
        self.scopes.push(vec![]);
        let tokens = cond.is_some();
        let set = set.map(|s| self.set_expr(s)).unwrap_or(SetExpr::Empty);
        let v = self.new_var(&var.name, if tokens { Ty::Token } else { Ty::Site });
        let cond = cond
            .map(|c| self.expect(c, Ty::Bool))
            .unwrap_or(Expr::Const(1));
        self.emit(Instr::ForInit {
            slot,
            var: v,
            tokens,
            cond,
            set,
        });
        let top = self.emit(Instr::ForNext {
            slot,
            var: v,
            end: 0,
        });
        self.block(body);
        self.emit(Instr::Jump(top));
        let end = self.here();
        if let Instr::ForNext { end: e, .. } = &mut self.code[top as usize] {
            *e = end;
        }
        self.scopes.pop();
    }

    /// `do name(args)`: the action's statements, with its parameters bound to the arguments.
    fn do_action(&mut self, i: usize, args: &[ast::Expr], span: Span) {
        let a = &self.file.actions[i];
        if self.def_stack.contains(&a.name.name) {
            self.error(
                ErrorKind::Recursive {
                    name: a.name.name.clone(),
                },
                span,
            );
            return;
        }
        if a.params.len() != args.len() {
            self.error(
                ErrorKind::Arity {
                    name: a.name.name.clone(),
                    expected: a.params.len(),
                    found: args.len(),
                },
                span,
            );
            return;
        }
        let mut frame = vec![];
        let mut origins = vec![];
        for (p, arg) in a.params.iter().zip(args) {
            origins.push(self.origin_of(arg));
            let (x, t) = self.expr(arg);
            if let Expr::Const(_) = x {
                // A constant argument is folded into the action's statements.
                frame.push((p.name.clone(), Local::Bound(x, t, Cost::ONE)));
                continue;
            }
            // The argument is computed once, when the action starts.
            let v = self.slot_for_var();
            if t == Ty::Null {
                self.null_var(v, p, arg.span, &x);
            }
            self.emit(Instr::SetVar(v, x));
            frame.push((p.name.clone(), Local::Var(v, t)));
        }
        let saved = std::mem::replace(&mut self.scopes, vec![frame]);
        self.enter_params(&a.name.name, &a.params, origins);
        self.def_stack.push(a.name.name.clone());
        self.use_spans.push(span);
        self.block(&a.body);
        self.use_spans.pop();
        self.def_stack.pop();
        self.leave_params();
        self.scopes = saved;
    }

    fn choose(&mut self, alts: &[ast::Alternative], otherwise: Option<&[ast::Stmt]>) {
        let again_at = self.again_target.take();
        let at = self.emit(Instr::Choose(self.choices.len() as u32));
        let again_at = again_at.unwrap_or(at);
        let cid = self.choices.len();
        self.choices.push(Choice {
            alts: vec![],
            otherwise: None,
        });
        let mut ends = vec![];
        let mut lowered = vec![];
        for a in alts {
            let set_domain = a.set.as_ref().map(|s| self.set_expr(s));
            let (var, domain) = match (&a.var, &a.values) {
                (None, _) => (None, Domain::Unit),
                (Some(v), None) if set_domain.is_some() => (
                    Some((v, Ty::Site)),
                    Domain::Set(set_domain.unwrap_or(SetExpr::Empty)),
                ),
                (Some(v), None) if a.token_var => (Some((v, Ty::Token)), Domain::Tokens),
                (Some(v), None) => (Some((v, Ty::Site)), Domain::Sites),
                (Some(v), Some(vals)) => {
                    let (ty, list) = self.values(vals);
                    (Some((v, ty)), Domain::Values(list))
                }
            };
            // A choice without a block leaves its variable visible to the statements after it.
            let has_body = a.body.is_some();
            if has_body {
                self.scopes.push(vec![]);
            }
            let var = var.map(|(v, ty)| self.new_var(&v.name, ty));
            let to = a.to.as_ref().map(|(v2, set)| {
                let s = self.set_expr(set);
                (self.new_var(&v2.name, Ty::Site), s)
            });
            let cond = a.cond.as_ref().map(|c| self.expect(c, Ty::Bool));
            let leaving = a.leaving.as_ref().map(|c| self.expect(c, Ty::Bool));
            let target = match &a.body {
                Some(body) => {
                    let t = self.here();
                    self.choose_stack.push(again_at);
                    self.block(body);
                    self.choose_stack.pop();
                    ends.push(self.emit(Instr::Jump(0)));
                    self.scopes.pop();
                    t
                }
                None => u32::MAX,
            };
            lowered.push(Alt {
                label: a.label.as_ref().map(|l| l.name.clone()),
                var,
                domain,
                cond,
                target,
                sites: vec![],
                pre: vec![],
                guards: vec![],
                to,
                first: None,
                leaving,
            });
        }
        if let Some(block) = otherwise {
            self.choices[cid].otherwise = Some(self.here());
            self.block(block);
        }
        let end = self.here();
        if otherwise.is_none() && self.in_between {
            // Between rounds nobody passes a turn: a choice with nothing to choose is skipped.
            self.choices[cid].otherwise = Some(end);
        }
        for j in ends {
            self.patch(j, end);
        }
        for l in &mut lowered {
            if l.target == u32::MAX {
                l.target = end;
            }
        }
        self.distinct_notations(alts, &lowered);
        self.choices[cid].alts = lowered;
    }

    /// The source text of a span, blanks folded, to compare two parts of a file.
    fn text_of(&self, span: Span) -> String {
        self.source
            .get(span.start..span.end)
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A decision is named by its notation (in a record, at the terminal): a choice whose
    /// decisions would surely be written alike is refused. Sure: a value listed twice, or two
    /// alternatives with the same label, values that meet (the same kind of places, the same
    /// set, or a value in common), the same `to` part and the same condition.
    fn distinct_notations(&mut self, alts: &[ast::Alternative], lowered: &[Alt]) {
        let label = |a: &ast::Alternative| a.label.as_ref().map(|l| l.name.to_lowercase());
        let written = |a: &ast::Alternative, value: &str| match &a.label {
            Some(l) if value.is_empty() => l.name.clone(),
            Some(l) => format!("{} {value}", l.name),
            None => value.to_string(),
        };
        for (a, l) in alts.iter().zip(lowered) {
            if let Domain::Values(vals) = &l.domain {
                let mut seen: Vec<i64> = vec![];
                if let Some((_, name)) = vals.iter().find(|(v, _)| {
                    let again = seen.contains(v);
                    seen.push(*v);
                    again
                }) {
                    let text = written(a, name);
                    self.ambiguous(text, a.span);
                    return;
                }
            }
        }
        for j in 1..alts.len() {
            for i in 0..j {
                let (a, b) = (&alts[i], &alts[j]);
                let same_text = |x: Option<Span>, y: Option<Span>| match (x, y) {
                    (None, None) => true,
                    (Some(x), Some(y)) => self.text_of(x) == self.text_of(y),
                    _ => false,
                };
                if label(a) != label(b)
                    || !same_text(
                        a.cond.as_ref().map(|c| c.span),
                        b.cond.as_ref().map(|c| c.span),
                    )
                    || !same_text(
                        a.to.as_ref().map(|(_, s)| s.span),
                        b.to.as_ref().map(|(_, s)| s.span),
                    )
                {
                    continue;
                }
                let value = match (&lowered[i].domain, &lowered[j].domain) {
                    (Domain::Unit, Domain::Unit) => Some(String::new()),
                    (Domain::Sites, Domain::Sites) | (Domain::Tokens, Domain::Tokens) => {
                        Some("…".to_string())
                    }
                    (Domain::Set(_), Domain::Set(_))
                        if same_text(
                            a.set.as_ref().map(|s| s.span),
                            b.set.as_ref().map(|s| s.span),
                        ) =>
                    {
                        Some("…".to_string())
                    }
                    (Domain::Values(x), Domain::Values(y)) => x
                        .iter()
                        .find(|(v, n)| {
                            y.iter()
                                .any(|(w, m)| v == w || n.to_lowercase() == m.to_lowercase())
                        })
                        .map(|(_, n)| n.clone()),
                    _ => None,
                };
                if let Some(v) = value {
                    let v = if b.to.is_some() {
                        format!("{v} …")
                    } else {
                        v
                    };
                    let text = written(b, &v);
                    self.ambiguous(text, b.span);
                    return;
                }
            }
        }
    }

    fn ambiguous(&mut self, written: String, span: Span) {
        self.error_hint(
            ErrorKind::AmbiguousNotation { written },
            span,
            "two decisions of one choice need different notations: give the alternatives \
             different labels, or list each value once",
        );
    }

    fn values(&mut self, vals: &[ValueItem]) -> (Ty, Vec<(i64, String)>) {
        let mut ty = Ty::Error;
        let mut out = vec![];
        for v in vals {
            let (items, t, span): (Vec<(i64, String)>, Ty, Span) = match v {
                ValueItem::Int(n, sp) => (vec![(*n, n.to_string())], Ty::Num, *sp),
                ValueItem::Range(a, z, sp) => {
                    if z < a || z.abs_diff(*a) > 1000 {
                        self.error(
                            ErrorKind::BadRange {
                                name: format!("{a}..{z}"),
                            },
                            *sp,
                        );
                        continue;
                    }
                    (
                        (*a..=*z).map(|i| (i, i.to_string())).collect(),
                        Ty::Num,
                        *sp,
                    )
                }
                ValueItem::Name(id) => {
                    let (x, t) = self.name(id, id.span);
                    match x {
                        Expr::Const(c) => (vec![(c, id.name.clone())], t, id.span),
                        _ => {
                            self.error(
                                ErrorKind::Type {
                                    expected: "a constant".into(),
                                    found: t.words().into(),
                                },
                                id.span,
                            );
                            continue;
                        }
                    }
                }
            };
            if ty == Ty::Error {
                ty = t;
            } else if t != ty && t != Ty::Error {
                self.type_error(ty, t, span);
            }
            out.extend(items);
        }
        (ty, out)
    }
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
                Some(StmtKind::EndTurn | StmtKind::EndRound | StmtKind::EndGame(_))
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
