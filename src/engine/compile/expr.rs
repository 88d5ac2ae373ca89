//! Expressions compiled to closures: each node of the IR becomes a closure that calls its
//! compiled children, chosen once for the node's shape (a comparison with a constant, the count
//! of a variable's site, …), so that play never matches on the tree. Questions about every site
//! or token go to [`super::query`].

use super::num::{Compiler, Num, num, player_ref};
use super::query::{AggKind, Base};
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
            other => {
                let x = $c.num(other);
                let $get = move |b: &Board, r: &mut Regs| x(b, r);
                $body
            }
        }
    };
}

impl Compiler {
    /// Compiles an expression.
    pub(crate) fn num(&mut self, e: &Expr) -> Num {
        let t = self.t.clone();
        match e {
            Expr::Const(c) => {
                let c = *c;
                num(move |_, _| c)
            }
            Expr::Var(v) => {
                let v = *v;
                num(move |_, r| r.var(v))
            }
            Expr::Mover => num(|b, _| b.mover as i64),
            Expr::Opponent => num(move |b, _| t.opponent[b.mover as usize] as i64),
            Expr::SideOf(p) => {
                let p = self.num(p);
                let n = t.sides as i64;
                num(move |b, r| {
                    let p = p(b, r);
                    // a player's side from the table; any other number as the rule says
                    match usize::try_from(p).ok().and_then(|p| t.side.get(p)) {
                        Some(&s) => s,
                        None if p < 0 => -1,
                        None => p % n,
                    }
                })
            }
            Expr::Count(s, mask) => {
                let mask = *mask;
                with_arg!(self, s, |s| num(move |b, r| {
                    let s = s(b, r);
                    count_masked(&t, b, s, mask)
                }))
            }
            Expr::CountAt(s) => {
                let s = self.num(s);
                num(move |b, r| {
                    let s = s(b, r);
                    t.site(s).map_or(0, |s| b.total[s] as i64)
                })
            }
            Expr::CountVar(v) => {
                let v = *v;
                num(move |b, r| t.site(r.var(v)).map_or(0, |s| b.total[s] as i64))
            }
            Expr::CountSet(set, mask) => {
                let set = self.set(set);
                let mask = *mask;
                num(move |b, r| {
                    let mut total = 0i64;
                    set.for_each(b, r, &mut |b, _, s| {
                        total += count_masked(&t, b, s as i64, mask);
                        true
                    });
                    total
                })
            }
            Expr::Size(set) => {
                let set = self.set(set);
                num(move |b, r| set.size(b, r))
            }
            Expr::Captured(p, mask) => {
                let p = self.num(p);
                let mask = *mask;
                let nk = t.nk;
                num(move |b, r| {
                    let Some(p) = t.player(p(b, r)) else { return 0 };
                    (0..nk)
                        .filter(|k| mask.0 & (1 << k) != 0)
                        .map(|k| b.bank[p * nk + k] as i64)
                        .sum()
                })
            }
            Expr::Score(p) => {
                let p = self.num(p);
                let nk = t.nk;
                num(move |b, r| {
                    let Some(p) = t.player(p(b, r)) else { return 0 };
                    (0..nk)
                        .map(|k| b.bank[p * nk + k] as i64 * t.values[k])
                        .sum()
                })
            }
            Expr::Owner(s) => {
                with_arg!(self, s, |s| num(move |b, r| t
                    .site(s(b, r))
                    .map_or(-1, |s| b.owners[s] as i64)))
            }
            Expr::KindOf(s) => {
                let s = self.num(s);
                num(move |b, r| t.site(s(b, r)).map_or(-1, |s| b.kinds[s] as i64))
            }
            Expr::OriginalOwner(s) => {
                with_arg!(self, s, |s| num(move |b, r| t
                    .site(s(b, r))
                    .map_or(-1, |s| t.original_owner[s])))
            }
            Expr::Next(s, d, n) => {
                let (s, d, n) = (self.num(s), self.num(d), self.num(n));
                num(move |b, r| {
                    let (s, d, n) = (s(b, r), d(b, r), n(b, r));
                    t.walk(s, d, n)
                })
            }
            Expr::NextSow(s) => {
                with_arg!(self, s, |s| num(move |b, r| {
                    let s = s(b, r);
                    next1(&t, b, s)
                }))
            }
            Expr::NextSowVar(v) => {
                let v = *v;
                num(move |b, r| next1(&t, b, r.var(v)))
            }
            Expr::SowDir => num(|b, _| b.sow_dir as i64),
            Expr::Opposite(s) => {
                with_arg!(self, s, |s| num(move |b, r| match t.site(s(b, r)) {
                    Some(s) if t.opposite[s] != u16::MAX => t.opposite[s] as i64,
                    _ => -1,
                }))
            }
            Expr::InRegion(s, reg) => {
                let reg = reg.0 as usize;
                with_arg!(self, s, |s| num(move |b, r| {
                    t.site(s(b, r))
                        .is_some_and(|s| crate::engine::bits::test(&t.regions[reg], s))
                        as i64
                }))
            }
            Expr::InSet(s, set) => {
                let s = self.num(s);
                let set = self.set(set);
                num(move |b, r| {
                    let s = s(b, r);
                    set.contains(b, r, s) as i64
                })
            }
            Expr::Not(x) => {
                let x = self.num(x);
                num(move |b, r| (x(b, r) == 0) as i64)
            }
            Expr::Neg(x) => {
                let x = self.num(x);
                num(move |b, r| {
                    let v = x(b, r);
                    v.checked_neg().unwrap_or_else(|| fail(b, Fault::Overflow))
                })
            }
            Expr::Abs(x) => {
                let x = self.num(x);
                num(move |b, r| {
                    let v = x(b, r);
                    v.checked_abs().unwrap_or_else(|| fail(b, Fault::Overflow))
                })
            }
            Expr::Bin(op, x, y) => {
                let (x, y) = (self.arg(x), self.arg(y));
                binary(*op, x, y)
            }
            Expr::BinConst(op, x, c) => self.bin_const(*op, x, *c),
            Expr::And(x, y) => {
                let (x, y) = (self.num(x), self.num(y));
                num(move |b, r| (x(b, r) != 0 && y(b, r) != 0) as i64)
            }
            Expr::Or(x, y) => {
                let (x, y) = (self.num(x), self.num(y));
                num(move |b, r| (x(b, r) != 0 || y(b, r) != 0) as i64)
            }
            Expr::All(items) => match self.site_predicate(e) {
                Some(p) => p,
                None => self.conjunction(items),
            },
            Expr::Any(items) => {
                let items: Vec<Num> = items.iter().map(|i| self.num(i)).collect();
                match <[Num; 2]>::try_from(items) {
                    Ok([a, c]) => num(move |b, r| (a(b, r) != 0 || c(b, r) != 0) as i64),
                    Err(items) => num(move |b, r| items.iter().any(|i| i(b, r) != 0) as i64),
                }
            }
            Expr::If(c, x, y) => {
                let (c, x, y) = (self.num(c), self.num(x), self.num(y));
                num(move |b, r| if c(b, r) != 0 { x(b, r) } else { y(b, r) })
            }
            Expr::KindIs(v, k, neg) => {
                let (v, k, neg) = (*v, *k, *neg);
                num(move |b, r| {
                    let is = t.site(r.var(v)).is_some_and(|s| b.kinds[s] == k);
                    (is != neg) as i64
                })
            }
            Expr::OwnerIs(v, p, neg) => {
                let (v, p, neg) = (*v, *p, *neg);

                num(move |b, r| {
                    let o = t.site(r.var(v)).map_or(-1, |s| b.owners[s] as i64);
                    ((o == player_ref(p, b, &t)) != neg) as i64
                })
            }
            Expr::SiteTest(st) => match self.site_predicate(e) {
                Some(p) => p,
                None => self.site_test(st),
            },
            Expr::Exists(v, set, c) => {
                let q = self.exists(*v, set, c);
                num(move |b, r| q(b, r))
            }
            Expr::Forall(v, set, c) => self.forall(*v, set, c),
            Expr::Top(s) | Expr::Bottom(s) => {
                let top = matches!(e, Expr::Top(_));
                with_arg!(self, s, |s| num(move |b, r| match t.site(s(b, r)) {
                    Some(s) if top => b.toks.top[s] as i64,
                    Some(s) => b.toks.bottom[s] as i64,
                    None => -1,
                }))
            }
            // `owner(top(s))`: the owner of the top token of a site, in one step.
            Expr::TokOwner(x) if matches!(&**x, Expr::Top(_)) => {
                let Expr::Top(s) = &**x else { unreachable!() };
                with_arg!(self, s, |s| num(move |b, r| match t.site(s(b, r)) {
                    Some(s) if b.toks.top[s] >= 0 => t.tok_owner[b.toks.top[s] as usize] as i64,
                    _ => -1,
                }))
            }
            Expr::TokOwner(x) => {
                with_arg!(self, x, |x| num(move |b, r| t
                    .token(x(b, r))
                    .map_or(-1, |x| t.tok_owner[x] as i64)))
            }
            Expr::TokSite(x) => with_arg!(self, x, |x| num(move |b, r| {
                match t.token(x(b, r)).map(|x| b.toks.site[x]) {
                    Some(s) if s != u16::MAX => s as i64,
                    _ => -1,
                }
            })),
            Expr::TokPos(x) => {
                with_arg!(self, x, |x| num(move |b, r| t
                    .token(x(b, r))
                    .map_or(-1, |x| b.toks.pos[x] as i64)))
            }
            Expr::TokArea(x) => {
                let x = self.num(x);
                num(move |b, r| {
                    use crate::engine::tokens::{ON_BOARD, UNPLACED};
                    match t.token(x(b, r)).map(|x| b.toks.area[x]) {
                        Some(a) if a != ON_BOARD && a != UNPLACED => a as i64,
                        _ => -1,
                    }
                })
            }
            Expr::TrackSite(p, n) => {
                let (p, n) = (self.arg(p), self.arg(n));
                num(move |b, r| {
                    let (p, n) = (p.get(b, r), n.get(b, r));
                    let Some(tr) = t.player(p).and_then(|p| t.track_of(p)) else {
                        return -1;
                    };
                    n.checked_sub(tr.first)
                        .and_then(|i| usize::try_from(i).ok())
                        .and_then(|i| tr.sites.get(i))
                        .map_or(-1, |&s| s as i64)
                })
            }
            Expr::TrackPos(p, s) => {
                let (p, s) = (self.arg(p), self.arg(s));
                num(move |b, r| {
                    let (p, s) = (p.get(b, r), s.get(b, r));
                    match (t.player(p), t.site(s)) {
                        (Some(p), Some(s)) => t.track_pos(p, s),
                        _ => -1,
                    }
                })
            }
            Expr::TrackEnd(p) => {
                with_arg!(self, p, |p| num(move |b, r| {
                    t.player(p(b, r))
                        .and_then(|p| t.track_of(p))
                        .map_or(-1, |tr| tr.first + tr.sites.len() as i64 - 1)
                }))
            }
            Expr::Between(a, c) => {
                let c = self.arg(c);
                // `between(site(t), q)`: the token's site read in place.
                match &**a {
                    Expr::TokSite(x) if matches!(&**x, Expr::Var(_)) => {
                        let Expr::Var(v) = &**x else { unreachable!() };
                        let v = *v;
                        num(move |b, r| {
                            let a = match t.token(r.var(v)).map(|x| b.toks.site[x]) {
                                Some(s) if s != u16::MAX => s as i64,
                                _ => -1,
                            };
                            let c = c.get(b, r);
                            t.between(a, c)
                        })
                    }
                    _ => {
                        let a = self.arg(a);
                        num(move |b, r| {
                            let a = a.get(b, r);
                            let c = c.get(b, r);
                            t.between(a, c)
                        })
                    }
                }
            }
            Expr::CoordX(s) | Expr::CoordY(s) => {
                let is_x = matches!(e, Expr::CoordX(_));
                let s = self.num(s);
                num(move |b, r| match t.site(s(b, r)) {
                    Some(s) if is_x => t.x[s],
                    Some(s) => t.y[s],
                    None => -1,
                })
            }
            Expr::TokExists(v, c) => {
                let q = self.tokens(*v, c);
                num(move |b, r| q.exists(b, r) as i64)
            }
            Expr::Some(tokens, v, c) => {
                if *tokens {
                    let q = self.tokens(*v, c);
                    num(move |b, r| q.first(b, r))
                } else {
                    let q = self.sites(*v, Base::All, Some(c));
                    num(move |b, r| q.first(b, r))
                }
            }
            Expr::Agg(op, tokens, v, c, x) => {
                let kind = AggKind::from(*op);
                if *tokens {
                    let q = self.tokens(*v, c);
                    let x = self.num(x);
                    num(move |b, r| q.aggregate(b, r, kind, &x))
                } else {
                    let q = self.sites(*v, Base::All, Some(c));
                    let x = self.site_value(*v, x);
                    num(move |b, r| q.aggregate(b, r, kind, &x))
                }
            }
            Expr::Tally(slot) => {
                let slot = *slot as usize;
                num(move |b, _| b.tallies.get(slot).copied().unwrap_or(0))
            }
            Expr::TallyOf(slot, p) => {
                let slot = *slot as usize;
                let p = self.num(p);
                num(move |b, r| {
                    t.player(p(b, r))
                        .and_then(|p| b.tallies.get(slot + p))
                        .copied()
                        .unwrap_or(0)
                })
            }
            Expr::Round => num(|b, _| b.round as i64),
            Expr::TallyAt(slot, s) => self.tally_at(*slot, s),
            Expr::Repeated => num(|b, _| b.seen.repeated(b.mover) as i64),
            Expr::InLine(v, s, c) => self.in_line(*v, s, c),
            Expr::FirstPlayer => num(|b, _| b.round_first as i64),
            Expr::SomeAlong(v, from, dir, c) => {
                let v = *v;
                let (from, dir, c) = (self.num(from), self.num(dir), self.num(c));
                num(move |b, r| {
                    let Some(start) = t.site(from(b, r)) else {
                        return -1;
                    };
                    let next = &t.next[usize::from(dir(b, r) != 0)];
                    if next[start] == u16::MAX {
                        return -1; // not on the ring
                    }
                    let mut s = start;
                    // each site of the ring once, from `start` (a visit is work)
                    for _ in 0..t.nsites {
                        r.work += 1;
                        r.set(v, s as i64);
                        if c(b, r) != 0 {
                            return s as i64;
                        }
                        s = next[s] as usize;
                        if s == start || s >= t.nsites {
                            break;
                        }
                    }
                    -1
                })
            }
        }
    }

    /// `x OP c` with a constant: the common shapes read their operand directly.
    fn bin_const(&mut self, op: Op, x: &Expr, c: i64) -> Num {
        if let (Expr::CountSet(set, KindMask(u32::MAX)), Some(empty)) =
            (x, super::query::emptiness(op, c))
            && let Some(q) = self.set_emptiness(set, empty)
        {
            return q;
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
                    .map_or(0, |s| b.total[s] as i64))
            }
            Expr::CountAt(inner) => {
                with_arg!(self, inner, |s| cmp!(move |b: &Board, r: &mut Regs| t
                    .site(s(b, r))
                    .map_or(0, |s| b.total[s] as i64)))
            }
            _ => {
                let x = self.num(x);
                cmp!(move |b: &Board, r: &mut Regs| x(b, r))
            }
        }
    }

    /// `a and b and …`, evaluated left to right.
    fn conjunction(&mut self, items: &[Expr]) -> Num {
        let items: Vec<Num> = items.iter().map(|i| self.num(i)).collect();
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

    /// The fused tests of the site in a variable.
    pub(crate) fn site_test(&mut self, st: &SiteTest) -> Num {
        let t = self.t.clone();
        let st = st.clone();
        let v = st.var;
        // The common single tests, each in a closure of its own.
        match (st.kind, st.owner, st.count) {
            (Some((k, neg)), None, None) => {
                return num(move |b, r| match t.site(r.var(v)) {
                    Some(s) => ((b.kinds[s] == k) != neg) as i64,
                    None => 0,
                });
            }
            (None, Some((PlayerRef::Mover, neg)), None) => {
                return num(move |b, r| match t.site(r.var(v)) {
                    Some(s) => ((b.owners[s] as i64 == b.mover as i64) != neg) as i64,
                    None => 0,
                });
            }
            (None, None, Some((op, CountRhs::Const(c)))) => {
                return num(move |b, r| match t.site(r.var(v)) {
                    Some(s) => compare(b, op, b.total[s] as i64, c),
                    None => 0,
                });
            }
            _ => {}
        }

        num(move |b, r| {
            let Some(s) = t.site(r.var(st.var)) else {
                return 0;
            };
            if let Some((p, neg)) = st.owner
                && (b.owners[s] as i64 == player_ref(p, b, &t)) == neg
            {
                return 0;
            }
            if let Some((k, neg)) = st.kind
                && (b.kinds[s] == k) == neg
            {
                return 0;
            }
            if let Some((op, rhs)) = st.count {
                let c = match rhs {
                    CountRhs::Const(c) => c,
                    CountRhs::Var(w) => r.var(w),
                };
                if compare(b, op, b.total[s] as i64, c) == 0 {
                    return 0;
                }
            }
            1
        })
    }

    /// A condition about one site variable that the board's indexes answer, at least in part:
    /// compiled as a membership test of a question over sites (a few bit tests). Where the
    /// variable holds no site the condition is evaluated as written.
    fn site_predicate(&mut self, e: &Expr) -> Option<Num> {
        if self.in_predicate {
            return None;
        }
        let v = match e {
            Expr::SiteTest(st) => st.var,
            Expr::All(items) => items.iter().find_map(|i| match i {
                Expr::SiteTest(st) => Some(st.var),
                Expr::KindIs(v, ..) | Expr::OwnerIs(v, ..) => Some(*v),
                _ => None,
            })?,
            _ => return None,
        };
        self.in_predicate = true;
        let q = self.sites(v, super::query::Base::All, Some(e));
        self.in_predicate = false;
        // A single test is cheaper as a closure of its own.
        if !q.is_indexed()
            || matches!(e, Expr::SiteTest(st) if q.tests() <= 1 && st.count.is_none())
        {
            return None;
        }
        let as_written = match e {
            Expr::SiteTest(st) => self.site_test(st),
            Expr::All(items) => self.conjunction(items),
            _ => return None,
        };
        let t = self.t.clone();
        Some(num(move |b, r| match t.site(r.var(v)) {
            Some(s) => q.contains(b, r, s) as i64,
            None => as_written(b, r),
        }))
    }
}

/// An operand of a binary operator: a variable, a constant, the mover or his opponent read in
/// place, or computed.
pub(crate) enum Arg {
    Var(VarId),
    Const(i64),
    Mover,
    Opponent(std::sync::Arc<Tables>),
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
            Arg::Num(x) => x(b, r),
        }
    }
}

impl Compiler {
    pub(crate) fn arg(&mut self, e: &Expr) -> Arg {
        match e {
            Expr::Var(v) => Arg::Var(*v),
            Expr::Const(c) => Arg::Const(*c),
            Expr::Mover => Arg::Mover,
            Expr::Opponent => Arg::Opponent(self.t.clone()),
            other => Arg::Num(self.num(other)),
        }
    }
}

/// A binary operator on two operands (left first).
fn binary(op: Op, x: Arg, y: Arg) -> Num {
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

/// Pieces of the kinds of a mask at a site: counters and tokens.
pub(crate) fn count_masked(t: &Tables, b: &Board, site: i64, mask: KindMask) -> i64 {
    let Some(s) = t.site(site) else { return 0 };
    if mask.0 == u32::MAX {
        return b.total[s] as i64;
    }
    let nk = t.nk;
    let mut n: i64 = (0..nk)
        .filter(|k| mask.0 & (1 << k) != 0)
        .map(|k| b.counts[s * nk + k] as i64)
        .sum();
    if t.ntokens > 0 {
        n += b
            .toks
            .at(s as u16)
            .filter(|&x| mask.0 & (1 << t.tok_kind[x]) != 0)
            .count() as i64;
    }
    n
}
