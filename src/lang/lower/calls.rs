//! Names and calls: a name's meaning, the built-in functions, and the inlining of `def`s.

use super::*;
use crate::lang::builtins::{self, Lowering as L};

impl Lowerer<'_> {
    /// Whether a call of `builtin` has as many arguments as its row of the table allows; an
    /// arity error (naming the least it takes) when it has not.
    pub(super) fn arity_ok(
        &mut self,
        builtin: &builtins::Builtin,
        name: &str,
        found: usize,
        span: Span,
    ) -> bool {
        let builtins::Form::Call { min, max } = builtin.form else {
            return true;
        };
        if (min..=max).contains(&found) {
            return true;
        }
        self.error(
            ErrorKind::Arity {
                name: name.to_string(),
                expected: min,
                found,
            },
            span,
        );
        false
    }

    /// Inlines a `def`: binds its parameters to the argument expressions, then lowers the body
    /// (an argument evaluated once is bound by `Let` around it: see `share.rs`).
    pub(super) fn with_def<T: Body>(
        &mut self,
        i: usize,
        args: &[ast::Expr],
        span: Span,
        f: impl FnOnce(&mut Self, &ast::Expr) -> T,
    ) -> Option<T> {
        let d = &self.t.file.defs[i];
        if self.s.def_stack.contains(&d.name.name) {
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
        let mut shared = vec![];
        for (p, a) in d.params.iter().zip(args) {
            let l = self.bound_argument(a);
            let l = self.share_argument::<T>(l, &p.name, &d.body, &mut shared);
            frame.push((p.name.clone(), l));
            origins.push(self.origin_of(a));
        }
        let saved = std::mem::replace(&mut self.s.scopes, vec![frame]);
        self.enter_params(&d.name.name, &d.params, origins);
        self.s.def_stack.push(d.name.name.clone());
        self.s.use_spans.push(span);
        let out = f(self, &d.body);
        self.s.use_spans.pop();
        self.s.def_stack.pop();
        self.leave_params();
        self.s.scopes = saved;
        Some(out.bind(shared))
    }

    pub(super) fn name(&mut self, id: &ast::Ident, span: Span) -> (Expr, Ty) {
        if let Some(local) = self.local_name(id, span) {
            return local;
        }
        match self.t.globals.get(&id.name).map(|g| g.0) {
            Some(Global::Option(i)) => self.option_value(i),
            Some(Global::Word(i)) => (Expr::Const(i), Ty::Word),
            Some(Global::Site(s)) => (Expr::Const(s.0 as i64), Ty::Site),
            Some(Global::Player(p)) => (Expr::Const(p.0 as i64), Ty::Player),
            Some(Global::Piece(k)) => (Expr::Const(k.0 as i64), Ty::Piece),
            Some(Global::Dir(d)) => (Expr::Const(d as i64), Ty::Dir),
            Some(Global::Area(a)) => (Expr::Const(a as i64), Ty::Area),
            Some(Global::Dice(_)) | Some(Global::Action(_)) => self.not_a_value(id, span),
            Some(Global::Region(_)) => self.region_as_value(id, span),
            Some(Global::Def(i)) => self
                .with_def(i, &[], span, |c, body| c.expr(body))
                .unwrap_or((Expr::Const(0), Ty::Error)),
            Some(Global::Tally(i)) => self.tally_value(i, span),
            Some(Global::Builtin) => self.builtin_name(id, span),
            None => self.unknown_name(id, span),
        }
    }

    /// A local name's value: a variable, or the argument a parameter stands for.
    fn local_name(&mut self, id: &ast::Ident, span: Span) -> Option<(Expr, Ty)> {
        match self.lookup_local(&id.name) {
            Some(Local::Var(v, t)) => {
                let x = Expr::Var(*v);
                let t = self.known_type(&x, *t);
                return Some((x, t));
            }
            Some(Local::Bound(x, t, cost)) => {
                let (x, t, cost) = (x.clone(), *t, *cost);
                let t = self.known_type(&x, t);
                return Some(if self.expand(cost, span) {
                    (x, t)
                } else {
                    (Expr::Const(0), Ty::Error)
                });
            }
            Some(Local::BoundSet(..)) => {
                self.error(
                    ErrorKind::Type {
                        expected: "a single value".into(),
                        found: "a set of sites".into(),
                    },
                    span,
                );
                return Some((Expr::Const(0), Ty::Error));
            }
            None => {}
        }
        None
    }

    /// An option's value, a constant.
    fn option_value(&mut self, i: usize) -> (Expr, Ty) {
        match &self.t.options[i].value {
            OptValue::Int(n) => (Expr::Const(*n), Ty::Num),
            OptValue::Bool(v) => (Expr::Const(*v as i64), Ty::Bool),
            OptValue::Word(w) => {
                let idx = self.t.words.iter().position(|x| x == w).unwrap_or(0);
                (Expr::Const(idx as i64), Ty::Word)
            }
        }
    }

    /// Dice or an action written where a value is wanted.
    fn not_a_value(&mut self, id: &ast::Ident, span: Span) -> (Expr, Ty) {
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

    /// A region written where a single value is wanted.
    fn region_as_value(&mut self, id: &ast::Ident, span: Span) -> (Expr, Ty) {
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

    /// A tally written alone: a `per site` one here, a plain one.
    fn tally_value(&mut self, i: usize, span: Span) -> (Expr, Ty) {
        match self.t.tallies.get(i) {
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
        }
    }

    /// A built-in name written alone: `round`, `mover`, `sown`, a site kind…; a function
    /// without its arguments is an error.
    fn builtin_name(&mut self, id: &ast::Ident, span: Span) -> (Expr, Ty) {
        match builtins::name_of(&id.name).map(|b| b.lowering) {
            Some(L::Round) => (Expr::Round, Ty::Num),
            Some(L::Repeated) => {
                self.s.history = true;
                (Expr::Repeated, Ty::Bool)
            }
            Some(L::Repetitions) => {
                self.s.history = true;
                (Expr::Repetitions, Ty::Num)
            }
            Some(L::FirstPlayer) => (Expr::FirstPlayer, Ty::Player),
            Some(L::Mover) => (Expr::Mover, Ty::Player),
            Some(L::Opponent) => (Expr::Opponent, Ty::Player),
            Some(L::None) => (Expr::Const(-1), Ty::Null),
            Some(L::Sown) => match self.s.sown_vars.last_mut() {
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
            Some(L::SiteKind(k)) => (Expr::Const(k), Ty::SiteKind),
            // `all` (a set), and functions written without arguments
            Some(
                L::All
                | L::OriginalOwner
                | L::Count
                | L::Captured
                | L::Score
                | L::Size
                | L::Owner
                | L::Kind
                | L::Next
                | L::Opposite
                | L::Run
                | L::Min
                | L::Max
                | L::Abs
                | L::Top
                | L::Bottom
                | L::TokSite
                | L::TokPos
                | L::TokArea
                | L::TrackSite
                | L::TrackPos
                | L::TrackEnd
                | L::Side
                | L::Between
                | L::X
                | L::Y
                | L::Neighbours
                | L::Jumps
                | L::SiteAt
                | L::Ray
                | L::Rays
                | L::Steps
                | L::Connected,
            )
            | None => {
                self.error(
                    ErrorKind::Type {
                        expected: "a single value".into(),
                        found: "a set of sites".into(),
                    },
                    span,
                );
                (Expr::Const(0), Ty::Error)
            }
        }
    }

    /// A name that is nothing: the error, with the closest name.
    fn unknown_name(&mut self, id: &ast::Ident, span: Span) -> (Expr, Ty) {
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

    pub(super) fn kinds_mask(&mut self, args: &[ast::Expr]) -> KindMask {
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

    pub(super) fn call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> (Expr, Ty) {
        if let Some((Global::Def(i), _)) = self.t.globals.get(&name.name).copied() {
            return self
                .with_def(i, args, span, |c, body| c.expr(body))
                .unwrap_or((Expr::Const(0), Ty::Error));
        }
        if let Some(t) = self.tally(&name.name) {
            return self.tally_call(&t, name, args, span);
        }
        let Some(builtin) = builtins::function(&name.name) else {
            return self.unknown_function(name, args);
        };
        if builtin.set {
            return self.set_as_value(builtin, span);
        }
        if !self.arity_ok(builtin, &name.name, args.len(), span) {
            return (Expr::Const(0), Ty::Error);
        }
        self.builtin_call(builtin, args, span)
    }

    /// A tally with arguments: `T(h)` of a `per site` one, `T(p)` of a `per player` one.
    fn tally_call(
        &mut self,
        t: &TallyInfo,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> (Expr, Ty) {
        let err = (Expr::Const(0), Ty::Error);
        if t.per_site {
            return self.site_tally_call(t, args, span);
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
        if args.len() != 1 {
            self.error(
                ErrorKind::Arity {
                    name: name.name.clone(),
                    expected: 1,
                    found: args.len(),
                },
                span,
            );
            return err;
        }
        let p = self.expect(&args[0], Ty::Player);
        (Expr::TallyOf(t.slot, b(p)), Ty::Num)
    }

    /// A call of a function that is none: the error, with the closest name (its arguments are
    /// checked all the same).
    fn unknown_function(&mut self, name: &ast::Ident, args: &[ast::Expr]) -> (Expr, Ty) {
        let kind = ErrorKind::Unknown {
            what: "function",
            name: name.name.clone(),
        };
        if let Some(&(g, at)) = self.t.globals.get(&name.name) {
            // the name is the file's, of another kind: a `def` of that name was refused as
            // defined twice (said there), or the call is of a piece kind, a side, a site…
            if !self.t.file.defs.iter().any(|d| d.name.name == name.name) {
                let place = self.t.places.place(at.start);
                let what = match g {
                    Global::Builtin => "a built-in name".to_string(),
                    _ => format!("{} declared at {place}", g.words()),
                };
                let hint = format!("`{}` is {what}, not a function", name.name);
                self.error_hint(kind, name.span, hint);
            }
        } else {
            match self.did_you_mean(&name.name) {
                Some(h) => self.error_hint(kind, name.span, h),
                None => self.error(kind, name.span),
            }
        }
        for a in args {
            let _ = self.expr(a);
        }
        (Expr::Const(0), Ty::Error)
    }

    /// A function whose value is a set, where one value is expected.
    fn set_as_value(&mut self, builtin: &builtins::Builtin, span: Span) -> (Expr, Ty) {
        // `run(…)`, `neighbours(…)`, `jumps(…)` where one value is expected
        let hint = if builtin.lowering == L::Run {
            "use a set where sets are expected: `forall x in run(h, d, k): …`"
        } else {
            "use it where a set is expected: `choose step q in neighbours(p)`, `exists q in jumps(p) where …`"
        };
        self.error_hint(
            ErrorKind::Type {
                expected: "a single value".into(),
                found: "a set of sites".into(),
            },
            span,
            hint,
        );
        (Expr::Const(0), Ty::Error)
    }

    /// A built-in function of one value, its arity checked.
    fn builtin_call(
        &mut self,
        builtin: &builtins::Builtin,
        args: &[ast::Expr],
        span: Span,
    ) -> (Expr, Ty) {
        match builtin.lowering {
            L::OriginalOwner => {
                let s = self.expect(&args[0], Ty::Site);
                (Expr::OriginalOwner(b(s)), Ty::Player)
            }
            L::Count => self.count_of(args),
            L::Captured => {
                let p = self.expect(&args[0], Ty::Player);
                let mask = self.kinds_mask(&args[1..]);
                (Expr::Captured(b(p), mask), Ty::Num)
            }
            L::Score => {
                let p = self.expect(&args[0], Ty::Player);
                (Expr::Score(b(p)), Ty::Num)
            }
            L::Size => {
                let s = self.set_expr(&args[0]);
                (Expr::Size(Box::new(s)), Ty::Num)
            }
            L::Owner => self.owner_of(args),
            L::Between => {
                let a = self.expect(&args[0], Ty::Site);
                let c = self.expect(&args[1], Ty::Site);
                (Expr::Between(b(a), b(c)), Ty::Site)
            }
            L::X | L::Y => self.coordinate_of(builtin.lowering, args),
            L::Side => {
                let p = self.expect(&args[0], Ty::Player);
                (Expr::SideOf(b(p)), Ty::Player)
            }
            L::Top | L::Bottom => self.end_of_stack(builtin.lowering, args),
            L::TokSite | L::TokPos | L::TokArea => self.token_place(builtin.lowering, args),
            L::TrackSite | L::TrackPos => self.track_place(builtin.lowering, args),
            L::TrackEnd => {
                let p = self.expect(&args[0], Ty::Player);
                (Expr::TrackEnd(b(p)), Ty::Num)
            }
            L::Kind => {
                let (x, t) = self.expr(&args[0]);
                match t {
                    Ty::Token => (Expr::TokKind(b(x)), Ty::Piece),
                    Ty::Site | Ty::Error => (Expr::KindOf(b(x)), Ty::SiteKind),
                    t => {
                        self.type_error(Ty::Site, t, args[0].span);
                        (Expr::Const(0), Ty::Error)
                    }
                }
            }
            L::Opposite => {
                let s = self.expect(&args[0], Ty::Site);
                (Expr::Opposite(b(s)), Ty::Site)
            }
            L::Next => self.next_site(args, span),
            L::Min | L::Max => self.min_max(builtin.lowering, args, span),
            L::Abs => match self.expect(&args[0], Ty::Num) {
                Expr::Const(n) => (self.checked_const(n.checked_abs(), span), Ty::Num),
                x => (Expr::Abs(b(x)), Ty::Num),
            },
            // names, and sets (handled above): not functions of one value
            L::Mover
            | L::Opponent
            | L::None
            | L::Round
            | L::FirstPlayer
            | L::Repeated
            | L::Repetitions
            | L::Sown
            | L::SiteKind(_)
            | L::All
            | L::Run
            | L::Neighbours
            | L::Jumps
            | L::Ray
            | L::Rays
            | L::Steps
            | L::Connected => (Expr::Const(0), Ty::Error),
            L::SiteAt => {
                let x = self.expect(&args[0], Ty::Num);
                let y = self.expect(&args[1], Ty::Num);
                (Expr::SiteAt(b(x), b(y)), Ty::Site)
            }
        }
    }

    /// `count(h)` or `count(SET)`, of some kinds of piece or all.
    fn count_of(&mut self, args: &[ast::Expr]) -> (Expr, Ty) {
        let mask = self.kinds_mask(&args[1..]);
        if self.peek_is_set(&args[0]) {
            let s = self.set_expr(&args[0]);
            (Expr::CountSet(Box::new(s), mask), Ty::Num)
        } else {
            let s = self.expect(&args[0], Ty::Site);
            (Expr::Count(b(s), mask), Ty::Num)
        }
    }

    /// `owner(h)` of a site or `owner(t)` of a token.
    fn owner_of(&mut self, args: &[ast::Expr]) -> (Expr, Ty) {
        let err = (Expr::Const(0), Ty::Error);
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

    /// `x(h)` and `y(h)`.
    fn coordinate_of(&mut self, l: L, args: &[ast::Expr]) -> (Expr, Ty) {
        let s = self.expect(&args[0], Ty::Site);
        (
            if l == L::X {
                Expr::CoordX(b(s))
            } else {
                Expr::CoordY(b(s))
            },
            Ty::Num,
        )
    }

    /// `top(h)` and `bottom(h)`: a token of a stack.
    fn end_of_stack(&mut self, l: L, args: &[ast::Expr]) -> (Expr, Ty) {
        let s = self.expect(&args[0], Ty::Site);
        let e = if l == L::Top {
            Expr::Top(b(s))
        } else {
            Expr::Bottom(b(s))
        };
        (e, Ty::Token)
    }

    /// Where a token is: its site, its position on its track, its area.
    fn token_place(&mut self, l: L, args: &[ast::Expr]) -> (Expr, Ty) {
        let t = self.expect(&args[0], Ty::Token);
        match l {
            L::TokSite => (Expr::TokSite(b(t)), Ty::Site),
            L::TokPos => (Expr::TokPos(b(t)), Ty::Num),
            _ => (Expr::TokArea(b(t)), Ty::Area),
        }
    }

    /// A player's track: the site at a position, the position of a site.
    fn track_place(&mut self, l: L, args: &[ast::Expr]) -> (Expr, Ty) {
        let p = self.expect(&args[0], Ty::Player);
        if l == L::TrackSite {
            let n = self.expect(&args[1], Ty::Num);
            (Expr::TrackSite(b(p), b(n)), Ty::Site)
        } else {
            let s = self.expect(&args[1], Ty::Site);
            (Expr::TrackPos(b(p), b(s)), Ty::Num)
        }
    }

    /// `next(h, d, n)`: the site n steps along the ring (`d` is the sowing's inside `sow`).
    fn next_site(&mut self, args: &[ast::Expr], span: Span) -> (Expr, Ty) {
        if self.t.compass.is_empty() {
            self.need_ring(span);
        }
        let s = self.expect(&args[0], Ty::Site);
        let d = if args.len() >= 2 {
            self.expect(&args[1], Ty::Dir)
        } else if self.s.lap_stack.is_empty() {
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
        let next = Expr::Next {
            site: b(s),
            dir: b(d),
            steps: b(n),
        };
        (next, Ty::Site)
    }

    /// `min(a, b)` and `max(a, b)`.
    fn min_max(&mut self, l: L, args: &[ast::Expr], span: Span) -> (Expr, Ty) {
        let x = self.expect(&args[0], Ty::Num);
        let y = self.expect(&args[1], Ty::Num);
        let op = if l == L::Min { Op::Min } else { Op::Max };
        (self.bin(op, x, y, span), Ty::Num)
    }
}
