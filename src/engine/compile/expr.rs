//! Expressions compiled to closures: each node of the IR becomes a closure that calls its
//! compiled children, chosen once for the node's shape (a comparison with a constant, the count
//! of a variable's site, …), so that play never matches on the tree. Questions about every site
//! or token go to [`super::query`].

use super::num::{Compiler, Num, as_written, num, player_ref};
use super::query::{AggKind, Base, Question};
use super::tables::Tables;
use crate::engine::state::{Board, Fault, Regs, raise};
use crate::ir::*;

/// Records a fault and gives the value expressions use then.
#[cold]
#[inline(never)]
pub(crate) fn fail(b: &Board, f: Fault) -> i64 {
    raise(&b.fault, f);
    0
}

/// A comparison, or arithmetic on game values (both through [`crate::ir::apply`]).
#[inline(always)]
pub(crate) fn compare(b: &Board, op: Op, a: i64, c: i64) -> i64 {
    arith(b, op, a, c)
}

/// Arithmetic on game values: a fault where there is no value.
#[inline(always)]
pub(crate) fn arith(b: &Board, op: Op, a: i64, c: i64) -> i64 {
    match apply(op, a, c) {
        Some(v) => v,
        None if matches!(op, Op::Div | Op::Mod) && c == 0 => fail(b, Fault::DivisionByZero),
        None => fail(b, Fault::Overflow),
    }
}

/// Binds `$get` to a closure that computes `$e` and expands `$body` with it: a variable or a
/// constant is read in place (one closure call fewer), anything else is compiled.
macro_rules! with_arg {
    ($c:expr, $e:expr, |$get:ident| $body:expr) => {
        match &**$e {
            Expr::Var(v) => {
                let v = *v;
                let $get = move |_: &Board, r: &mut Regs| r.var(v);
                $body
            }
            Expr::Const(k) => {
                let k = *k;
                let $get = move |_: &Board, _: &mut Regs| k;
                $body
            }
            Expr::Mover => {
                let $get = move |b: &Board, _: &mut Regs| b.mover as i64;
                $body
            }
            Expr::NextSowVar(v) => {
                let v = *v;
                let tables = $c.t.clone();
                let $get = move |b: &Board, r: &mut Regs| next1(&tables, b, r.var(v));
                $body
            }
            other => match $c.table(other) {
                // a value by site, read from its table in place
                Some(x) => {
                    let $get = move |b: &Board, r: &mut Regs| x.get(b, r);
                    $body
                }
                None => {
                    let x = $c.num_as_written(other);
                    let $get = move |b: &Board, r: &mut Regs| x(b, r);
                    $body
                }
            },
        }
    };
}

/// The mover's opponent.
pub(crate) struct IsOpponent(std::sync::Arc<Tables>);

impl Get for IsOpponent {
    #[inline(always)]
    fn get(&self, b: &Board, _: &mut Regs) -> i64 {
        self.0.opponent[b.mover as usize] as i64
    }
}

/// `pos(v)` of the token in variable `v`, of the game's `n` tokens.
pub(crate) struct TokPosOf(VarId, usize);

impl Get for TokPosOf {
    #[inline(always)]
    fn get(&self, b: &Board, r: &mut Regs) -> i64 {
        tok_pos(b, r.var(self.0), self.1)
    }
}

/// `site(v)` of the token in variable `v`, of the game's `n` tokens.
pub(crate) struct TokSiteOf(VarId, usize);

impl Get for TokSiteOf {
    #[inline(always)]
    fn get(&self, b: &Board, r: &mut Regs) -> i64 {
        tok_site(b, r.var(self.0), self.1)
    }
}

/// Calls the generic function `$f` (its leading arguments, then the two operands) with each
/// operand as a value of its own type when it is a variable, a compiled expression, the mover
/// or his opponent, a token's position or site (the common shapes): the closure `$f` builds
/// then reads them without a dispatch on their form. Any other pair is passed as two `Arg`s.
macro_rules! by_forms {
    ($x:expr, $y:expr, $f:ident($($pre:expr),*)) => {
        match ($x, $y) {
            (Arg::Var(v), Arg::Var(w)) => $f($($pre,)* InVar(v), InVar(w)),
            (Arg::Var(v), Arg::Num(y)) => $f($($pre,)* InVar(v), y),
            (Arg::Num(x), Arg::Var(w)) => $f($($pre,)* x, InVar(w)),
            (Arg::Num(x), Arg::Num(y)) => $f($($pre,)* x, y),
            (Arg::Mover, Arg::Var(w)) => $f($($pre,)* IsMover, InVar(w)),
            (Arg::Mover, Arg::Num(y)) => $f($($pre,)* IsMover, y),
            (Arg::Num(x), Arg::Mover) => $f($($pre,)* x, IsMover),
            (Arg::Var(v), Arg::Mover) => $f($($pre,)* InVar(v), IsMover),
            (Arg::Num(x), Arg::Opponent(t)) => $f($($pre,)* x, IsOpponent(t)),
            (Arg::TokPos(v, n), Arg::Var(w)) => $f($($pre,)* TokPosOf(v, n), InVar(w)),
            (Arg::TokPos(v, n), Arg::Num(y)) => $f($($pre,)* TokPosOf(v, n), y),
            (Arg::TokSite(v, n), Arg::Var(w)) => $f($($pre,)* TokSiteOf(v, n), InVar(w)),
            (Arg::TokSite(v, n), Arg::Num(y)) => $f($($pre,)* TokSiteOf(v, n), y),
            (Arg::Var(v), Arg::ByMover(m)) => $f($($pre,)* InVar(v), m),
            (Arg::Num(x), Arg::ByMover(m)) => $f($($pre,)* x, m),
            (Arg::Num(x), y) => $f($($pre,)* x, y),
            (x, Arg::Num(y)) => $f($($pre,)* x, y),
            (x, y) => $f($($pre,)* x, y),
        }
    };
}

/// The pattern of the expressions that ask a question over every site or token (compiled by
/// `expr/questions.rs`).
macro_rules! questions {
    () => {
        Expr::Exists { .. }
            | Expr::Forall { .. }
            | Expr::TokExists(..)
            | Expr::Some { .. }
            | Expr::Agg { .. }
            | Expr::InLine(_)
            | Expr::SomeAlong { .. }
    };
}

// The families of expressions, each compiled by a method of its own (after the macro, which
// they use).
mod board;
mod fixed;
mod geometry;
mod hoist;
pub(crate) mod logic;
mod questions;
mod tokens;
mod turn;

impl Compiler {
    /// Compiles an expression: read from a table by site where its value depends only on one
    /// site and the board (see `fixed.rs`), else as written.
    pub(crate) fn num(&mut self, e: &Expr) -> Num {
        match self.tabulated(e) {
            Some(x) => x,
            None => self.num_as_written(e),
        }
    }

    /// Compiles an expression as written: the dispatch to the method of its family.
    pub(crate) fn num_as_written(&mut self, e: &Expr) -> Num {
        match e {
            Expr::Const(c) => {
                let c = *c;
                num(move |_, _| c)
            }
            Expr::Var(v) => {
                let v = *v;
                num(move |_, r| r.var(v))
            }
            Expr::Mover
            | Expr::Opponent
            | Expr::SideOf(_)
            | Expr::Round
            | Expr::FirstPlayer
            | Expr::Repeated
            | Expr::Repetitions
            | Expr::Tally(_)
            | Expr::TallyOf(..)
            | Expr::TallyAt(..) => self.turn_value(e),
            Expr::Count(..)
            | Expr::CountAt(_)
            | Expr::CountVar(_)
            | Expr::CountSet(..)
            | Expr::Size(_)
            | Expr::Captured(..)
            | Expr::Score(_)
            | Expr::Owner(_)
            | Expr::KindOf(_)
            | Expr::OriginalOwner(_) => self.board_value(e),
            Expr::Next { .. }
            | Expr::NextSow(_)
            | Expr::NextSowVar(_)
            | Expr::SowDir
            | Expr::Opposite(_)
            | Expr::InRegion(..)
            | Expr::InSet(..)
            | Expr::Between(..)
            | Expr::CoordX(_)
            | Expr::CoordY(_)
            | Expr::SiteAt(..)
            | Expr::TrackSite(..)
            | Expr::TrackPos(..)
            | Expr::TrackEnd(_) => self.geometry(e),
            Expr::Not(_)
            | Expr::Neg(_)
            | Expr::Abs(_)
            | Expr::Bin(..)
            | Expr::BinConst(..)
            | Expr::And(..)
            | Expr::Or(..)
            | Expr::All(_)
            | Expr::Any(_)
            | Expr::If(..)
            | Expr::KindIs { .. }
            | Expr::OwnerIs { .. }
            | Expr::SiteTest(_)
            | Expr::Let { .. } => self.logic(e),
            Expr::Top(_)
            | Expr::Bottom(_)
            | Expr::TokOwner(_)
            | Expr::TokKind(_)
            | Expr::TokSite(_)
            | Expr::TokPos(_)
            | Expr::TokArea(_) => self.token_value(e),
            questions!() => self.question(e),
        }
    }

    /// `x OP c` with a constant: the common shapes read their operand directly.
    fn bin_const(&mut self, op: Op, x: &Expr, c: i64) -> Num {
        if !as_written()
            && let Some(test) = self.emptiness_test(op, x, c)
        {
            return self.any_emptiness(vec![test]);
        }
        let t = self.t.clone();
        macro_rules! cmp {
            ($get:expr) => {{
                let get = $get;
                match op {
                    Op::Eq => num(move |b, r| (get(b, r) == c) as i64),
                    Op::Ne => num(move |b, r| (get(b, r) != c) as i64),
                    Op::Lt => num(move |b, r| (get(b, r) < c) as i64),
                    Op::Le => num(move |b, r| (get(b, r) <= c) as i64),
                    Op::Gt => num(move |b, r| (get(b, r) > c) as i64),
                    Op::Ge => num(move |b, r| (get(b, r) >= c) as i64),
                    _ => num(move |b, r| {
                        let a = get(b, r);
                        arith(b, op, a, c)
                    }),
                }
            }};
        }
        match x {
            Expr::Var(v) => {
                let v = *v;
                cmp!(move |_: &Board, r: &mut Regs| r.var(v))
            }
            Expr::CountVar(v) => {
                let v = *v;
                cmp!(move |b: &Board, r: &mut Regs| t
                    .site(r.var(v))
                    .map_or(0, |s| b.index.total[s] as i64))
            }
            Expr::CountAt(inner) => {
                with_arg!(self, inner, |s| cmp!(move |b: &Board, r: &mut Regs| t
                    .site(s(b, r))
                    .map_or(0, |s| b.index.total[s] as i64)))
            }
            _ => match (tok_field(x, t.ntokens), self.table(x)) {
                (Some(a), _) => cmp!(move |b: &Board, r: &mut Regs| a.get(b, r)),
                (None, Some(x)) => cmp!(move |b: &Board, r: &mut Regs| x.get(b, r)),
                (None, None) => {
                    let x = self.num_as_written(x);
                    cmp!(move |b: &Board, r: &mut Regs| x(b, r))
                }
            },
        }
    }

    /// `a and b and …`, evaluated left to right.
    fn conjunction(&mut self, items: &[&Expr]) -> Num {
        let items = self.conjuncts_sharing_floods(items);
        match <[Num; 2]>::try_from(items) {
            Ok([a, c]) => num(move |b, r| (a(b, r) != 0 && c(b, r) != 0) as i64),
            Err(items) => match <[Num; 3]>::try_from(items) {
                Ok([a, c, d]) => {
                    num(move |b, r| (a(b, r) != 0 && c(b, r) != 0 && d(b, r) != 0) as i64)
                }
                Err(items) => num(move |b, r| items.iter().all(|i| i(b, r) != 0) as i64),
            },
        }
    }

    /// The conjuncts compiled in order, a run of adjacent questions over one flood as one
    /// ([`Compiler::meets_of_one_flood`]).
    fn conjuncts_sharing_floods(&mut self, items: &[&Expr]) -> Vec<Num> {
        let mut out = vec![];
        let mut i = 0;
        while i < items.len() {
            let same = |e: &&&Expr| match (**e, items[i]) {
                (Expr::Exists { set, .. }, Expr::Exists { set: first, .. }) => set == first,
                _ => false,
            };
            let run = items[i..].iter().take_while(same).count().max(1);
            match self.meets_of_one_flood(&items[i..i + run]) {
                Some(n) => out.push(n),
                None => out.extend(items[i..i + run].iter().map(|e| self.num(e))),
            }
            i += run;
        }
        out
    }

    /// The fused tests of the site in a variable.
    pub(crate) fn site_test(&mut self, st: &SiteTest) -> Num {
        let t = self.t.clone();
        let st = st.clone();
        let v = st.var;
        // The common single tests, each in a closure of its own.
        match (st.kind, st.owner, st.count) {
            (Some((k, sense)), None, None) => {
                let neg = sense == Sense::IsNot;
                return num(move |b, r| match t.site(r.var(v)) {
                    Some(s) => ((b.kinds[s] == k) != neg) as i64,
                    None => 0,
                });
            }
            (None, Some((PlayerRef::Mover, sense)), None) => {
                let neg = sense == Sense::IsNot;
                return num(move |b, r| match t.site(r.var(v)) {
                    Some(s) => ((b.owners[s] as i64 == b.mover as i64) != neg) as i64,
                    None => 0,
                });
            }
            (None, None, Some((op, CountRhs::Const(c)))) => {
                return num(move |b, r| match t.site(r.var(v)) {
                    Some(s) => compare(b, op, b.index.total[s] as i64, c),
                    None => 0,
                });
            }
            _ => {}
        }

        num(move |b, r| {
            let Some(s) = t.site(r.var(st.var)) else {
                return 0;
            };
            if let Some((p, sense)) = st.owner
                && !sense.holds(b.owners[s] as i64 == player_ref(p, b, &t))
            {
                return 0;
            }
            if let Some((k, sense)) = st.kind
                && !sense.holds(b.kinds[s] == k)
            {
                return 0;
            }
            if let Some((op, rhs)) = st.count {
                let c = match rhs {
                    CountRhs::Const(c) => c,
                    CountRhs::Var(w) => r.var(w),
                };
                if compare(b, op, b.index.total[s] as i64, c) == 0 {
                    return 0;
                }
            }
            1
        })
    }
}

/// A value read from a table by site (built in `expr/fixed.rs`, whose comment says when).
pub(crate) struct Table {
    v: VarId,
    values: Box<[i64]>,
    /// the sites where the value would fault (empty when there is none)
    faults: Box<[bool]>,
    as_written: Num,
}

impl Table {
    #[inline(always)]
    pub(crate) fn get(&self, b: &Board, r: &mut Regs) -> i64 {
        match usize::try_from(r.var(self.v)) {
            Ok(s) if s < self.values.len() && !self.faults.get(s).is_some_and(|&f| f) => {
                self.values[s]
            }
            _ => (self.as_written)(b, r),
        }
    }
}

/// A value read from a table by the mover (built in `expr/fixed.rs`, whose comment says
/// when; -1 for a mover who is no player, as written).
pub(crate) struct ByMover(Box<[i64]>);

impl Get for ByMover {
    #[inline(always)]
    fn get(&self, b: &Board, _: &mut Regs) -> i64 {
        self.0.get(b.mover as usize).map_or(-1, |&x| x)
    }
}

/// An operand of a binary operator: a variable, a constant, the mover or his opponent read in
/// place, or computed.
pub(crate) enum Arg {
    Var(VarId),
    Const(i64),
    Mover,
    Opponent(std::sync::Arc<Tables>),
    Table(Table),
    ByMover(ByMover),
    /// `pos(v)` or `site(v)` of the token in a variable (and the number of tokens)
    TokPos(VarId, usize),
    TokSite(VarId, usize),
    Num(Num),
}

impl Arg {
    #[inline(always)]
    pub(crate) fn get(&self, b: &Board, r: &mut Regs) -> i64 {
        match self {
            Arg::Var(v) => r.var(*v),
            Arg::Const(c) => *c,
            Arg::Mover => b.mover as i64,
            Arg::Opponent(t) => t.opponent[b.mover as usize] as i64,
            Arg::Table(x) => x.get(b, r),
            Arg::ByMover(x) => x.get(b, r),
            Arg::TokPos(v, n) => tok_pos(b, r.var(*v), *n),
            Arg::TokSite(v, n) => tok_site(b, r.var(*v), *n),
            Arg::Num(x) => x(b, r),
        }
    }
}

/// `pos(x)` of token `x` (-1 where `x` is no token).
#[inline(always)]
pub(crate) fn tok_pos(b: &Board, x: i64, ntokens: usize) -> i64 {
    match usize::try_from(x) {
        Ok(x) if x < ntokens => b.toks.pos[x] as i64,
        _ => -1,
    }
}

/// `site(x)` of token `x` (-1 where `x` is no token or is off the board).
#[inline(always)]
pub(crate) fn tok_site(b: &Board, x: i64, ntokens: usize) -> i64 {
    match usize::try_from(x) {
        Ok(x) if x < ntokens && b.toks.site[x] != u16::MAX => b.toks.site[x] as i64,
        _ => -1,
    }
}

/// `pos(v)` or `site(v)` of the token in variable `v`, read in place.
fn tok_field(e: &Expr, ntokens: usize) -> Option<Arg> {
    if as_written() {
        return None;
    }
    match e {
        Expr::TokPos(x) => match **x {
            Expr::Var(v) => Some(Arg::TokPos(v, ntokens)),
            _ => None,
        },
        Expr::TokSite(x) => match **x {
            Expr::Var(v) => Some(Arg::TokSite(v, ntokens)),
            _ => None,
        },
        _ => None,
    }
}

impl Compiler {
    pub(crate) fn arg(&mut self, e: &Expr) -> Arg {
        match e {
            Expr::Var(v) => Arg::Var(*v),
            Expr::Const(c) => Arg::Const(*c),
            Expr::Mover => Arg::Mover,
            Expr::Opponent => Arg::Opponent(self.t.clone()),
            other => {
                if let Some(a) = tok_field(other, self.t.ntokens) {
                    return a;
                }
                if let Some(m) = self.by_mover(other) {
                    return Arg::ByMover(m);
                }
                match self.table(other) {
                    Some(x) => Arg::Table(x),
                    None => Arg::Num(self.num(other)),
                }
            }
        }
    }
}

/// An operand read without a dispatch on its form at each evaluation (see `by_forms!`).
pub(crate) trait Get: Send + Sync + 'static {
    fn get(&self, b: &Board, r: &mut Regs) -> i64;
}

impl Get for Arg {
    #[inline(always)]
    fn get(&self, b: &Board, r: &mut Regs) -> i64 {
        Arg::get(self, b, r)
    }
}

impl Get for Num {
    #[inline(always)]
    fn get(&self, b: &Board, r: &mut Regs) -> i64 {
        self(b, r)
    }
}

/// A variable's value.
pub(crate) struct InVar(pub(crate) VarId);

impl Get for InVar {
    #[inline(always)]
    fn get(&self, _: &Board, r: &mut Regs) -> i64 {
        r.var(self.0)
    }
}

/// The player to move.
pub(crate) struct IsMover;

impl Get for IsMover {
    #[inline(always)]
    fn get(&self, b: &Board, _: &mut Regs) -> i64 {
        b.mover as i64
    }
}

/// A binary operator on two operands (left first).
fn binary(op: Op, x: Arg, y: Arg) -> Num {
    by_forms!(x, y, binary_of(op))
}

fn binary_of(op: Op, x: impl Get, y: impl Get) -> Num {
    macro_rules! op {
        ($f:expr) => {{
            let f = $f;
            num(move |b, r| {
                let a = x.get(b, r);
                let c = y.get(b, r);
                f(b, a, c)
            })
        }};
    }
    match op {
        Op::Eq => op!(|_: &Board, a: i64, c: i64| (a == c) as i64),
        Op::Ne => op!(|_: &Board, a: i64, c: i64| (a != c) as i64),
        Op::Lt => op!(|_: &Board, a: i64, c: i64| (a < c) as i64),
        Op::Le => op!(|_: &Board, a: i64, c: i64| (a <= c) as i64),
        Op::Gt => op!(|_: &Board, a: i64, c: i64| (a > c) as i64),
        Op::Ge => op!(|_: &Board, a: i64, c: i64| (a >= c) as i64),
        Op::Min => op!(|_: &Board, a: i64, c: i64| a.min(c)),
        Op::Max => op!(|_: &Board, a: i64, c: i64| a.max(c)),
        Op::Add => op!(|b: &Board, a: i64, c: i64| a
            .checked_add(c)
            .unwrap_or_else(|| fail(b, Fault::Overflow))),
        Op::Sub => op!(|b: &Board, a: i64, c: i64| a
            .checked_sub(c)
            .unwrap_or_else(|| fail(b, Fault::Overflow))),
        Op::Mul | Op::Div | Op::Mod => op!(move |b: &Board, a: i64, c: i64| arith(b, op, a, c)),
    }
}

/// One step along the ring in the sowing direction (-1 where it stops).
#[inline(always)]
pub(crate) fn next1(t: &Tables, b: &Board, s: i64) -> i64 {
    // (the direction is 0 or 1; the ring's table has a place for each site, or none at all)
    let ring = &t.next[(b.sow_dir & 1) as usize];
    match usize::try_from(s).ok().and_then(|s| ring.get(s)) {
        Some(&x) if x != u16::MAX => x as i64,
        _ => -1,
    }
}
