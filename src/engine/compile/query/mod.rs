//! Questions about every site or every token (`exists`, `forall`, `minimum`, `some`, filtered
//! sets, the values a choice ranges over), compiled to bit-set operations on the board's
//! indexes: a condition is split into the tests an index answers (a site's kind, its owner,
//! whether it holds pieces or tokens, the owner of its top token, a fixed set, a fixed value of
//! the site compared with a number; a token's owner, side, area, site) and the rest. The
//! candidates are the intersection of the indexed sets, computed a word at a time; only they
//! are tried with the rest of the condition.

mod flood;
pub(crate) mod kept;
mod memo;

use super::num::{Compiler, Num, num};
use super::tables::Tables;
use crate::engine::bits;
use crate::engine::state::{Board, Fault, Regs, raise};
use crate::engine::tokens::{ON_BOARD, UNPLACED};
use crate::ir::eval::{is_static, static_values};
use crate::ir::*;
use flood::Sites;
pub(crate) use flood::line_full;
#[cfg(test)]
pub(crate) use flood::{BY_WORDS, MEETS, ONE_AT_A_TIME, SET_MEETINGS, SHARED};
pub(crate) use flood::{Flood, Memo};
use flood::{line_sites, ray};
use std::sync::Arc;

mod plan;
mod site_ops;
use site_ops::SiteOp;
mod tokens;
use tokens::TokOp;
pub(crate) use tokens::TokQuery;
mod question;
pub(crate) use question::Question;

/// A question about every site: its candidates from the indexes, the rest tried one by one.
impl Question for SiteQuery {
    #[inline(always)]
    fn words(&self) -> usize {
        self.t.layout.w
    }
    #[inline(always)]
    fn indexed_only(&self) -> bool {
        self.rest.is_none() && self.counts.is_empty()
    }
    #[inline(always)]
    fn passes(&self, b: &Board, r: &mut Regs, s: usize) -> bool {
        if !self.counts_hold(b, r, s) {
            return false;
        }
        match &self.rest {
            Some(rest) => {
                r.set(self.var, s as i64);
                rest(b, r) != 0
            }
            None => true,
        }
    }
    /// Builds the sets of the tests that need it (before the words are read).
    #[inline(always)]
    fn prepare(&self, b: &Board, r: &mut Regs) {
        if !self.prepared {
            return;
        }
        let w = self.t.layout.w;
        for op in &self.ops {
            if let SiteOp::Key {
                keys,
                lower,
                op,
                rhs,
                scratch,
            } = op
            {
                let c = rhs(b, r);
                // The sites with a value at most c, and those with a value below c.
                let (at_most, below) = keys.ranks(c);
                let zeros = &self.t.zeros[..w];
                let le = if at_most == 0 {
                    zeros
                } else {
                    &lower[at_most - 1]
                };
                let lt = if below == 0 { zeros } else { &lower[below - 1] };
                let out = &mut r.scratch[*scratch..*scratch + w];
                for i in 0..w {
                    out[i] = match op {
                        Op::Le => le[i],
                        Op::Lt => lt[i],
                        Op::Gt => !le[i],
                        Op::Ge => !lt[i],
                        Op::Eq => le[i] & !lt[i],
                        _ => !(le[i] & !lt[i]),
                    };
                }
            }
        }
    }
    /// Word `i` of the sites the indexed tests allow (after [`SiteQuery::prepare`]).
    #[inline(always)]
    fn word(&self, b: &Board, r: &mut Regs, i: usize) -> u64 {
        self.word_within(b, r, i, !0)
    }
}

/// At most this many indexed tests in one question (the others are tried one site at a time).
const MAX_OPS: usize = 8;

/// The sites a question starts from.
pub(crate) enum Base {
    /// every site
    All,
    /// a fixed set
    Bits(Vec<u64>),
}

/// A condition over the sites bound to a variable: a fixed base, indexed tests, and the rest.
pub(crate) struct SiteQuery {
    t: Arc<Tables>,
    var: VarId,
    base: Vec<u64>,
    /// the plain indexed tests, tried first: (offset in the arena, whose sets: 0 fixed, 1 the
    /// mover's, 2 the opponent's, complement mask)
    plain: Vec<(usize, u8, u64)>,
    /// the other indexed tests
    ops: Vec<SiteOp>,
    /// comparisons of a candidate's pieces with a number, tried before the rest
    counts: Vec<(Op, CountRhs)>,
    /// whether a test builds its set before the question
    prepared: bool,
    rest: Option<Num>,
}

impl SiteQuery {
    /// Word `i` of the sites the indexed tests allow, among those of `within` (the others
    /// may be clear or not).
    #[inline(always)]
    fn word_within(&self, b: &Board, r: &mut Regs, i: usize, within: u64) -> u64 {
        let t = &*self.t;
        let w = t.layout.w;
        let mut word = self.base[i] & within;
        for &(at, who, x) in &self.plain {
            let shift = match who {
                0 => 0,
                1 => b.mover as usize * w,
                _ => t.opponent[b.mover as usize] as usize * w,
            };
            word &= b.index.bits[at + shift + i] ^ x;
        }
        for op in &self.ops {
            word &= op.word(&self.t, b, r, i, word);
        }
        word
    }

    /// Whether a candidate's pieces pass the count comparisons.
    #[inline(always)]
    fn counts_hold(&self, b: &Board, r: &Regs, s: usize) -> bool {
        self.counts.iter().all(|&(op, rhs)| {
            let c = match rhs {
                CountRhs::Const(c) => c,
                CountRhs::Var(v) => r.var(v),
            };
            let n = b.index.total[s] as i64;
            match op {
                Op::Eq => n == c,
                Op::Ne => n != c,
                Op::Lt => n < c,
                Op::Le => n <= c,
                Op::Gt => n > c,
                _ => n >= c,
            }
        })
    }

    /// Whether the question depends only on the kinds and owners of sites (and the mover): its
    /// answer does not change while a lap is sown.
    pub(crate) fn is_stable_in_sowing(&self) -> bool {
        let nonempty = self.t.layout.nonempty();
        self.ops.is_empty()
            && self.counts.is_empty()
            && self.rest.is_none()
            && self.plain.iter().all(|&(at, _, _)| at < nonempty)
    }

    /// Whether the board's bits answer the question alone (no test of a candidate's pieces,
    /// nothing left to evaluate per site).
    pub(crate) fn is_bits_only(&self) -> bool {
        self.rest.is_none() && self.counts.is_empty()
    }

    /// Whether a part of the condition is left to evaluate at each site (as written).
    #[cfg(test)]
    pub(crate) fn tests_left_per_site(&self) -> usize {
        self.rest.is_some() as usize
    }

    /// Whether the question's base or indexed tests narrow the sites (a question that tests
    /// everything one site at a time gains nothing from the indexes).
    pub(crate) fn indexes_something(&self) -> bool {
        self.base != self.t.all_sites
            || !self.plain.is_empty()
            || !self.ops.is_empty()
            || !self.counts.is_empty()
    }

    /// [`SiteQuery::contains`] for a site of the board, after [`Question::prepare`].
    #[inline(always)]
    pub(crate) fn holds_prepared(&self, b: &Board, r: &mut Regs, s: usize) -> bool {
        let bit = 1 << (s % 64);
        self.word_within(b, r, s / 64, bit) & bit != 0 && self.passes(b, r, s)
    }

    /// Whether a site satisfies the question.
    pub(crate) fn contains(&self, b: &Board, r: &mut Regs, s: usize) -> bool {
        if !bits::test(&self.base, s) {
            return false;
        }
        self.prepare(b, r);
        self.word_within(b, r, s / 64, 1 << (s % 64)) >> (s % 64) & 1 != 0 && self.passes(b, r, s)
    }

    /// For a question the board's bits answer alone ([`SiteQuery::is_bits_only`]): calls `f`
    /// on each word of its sites (its number, the word), counting the work of
    /// [`Question::for_each`] (a word a word of the board, one a site).
    #[inline(always)]
    pub(crate) fn each_word(&self, b: &Board, r: &mut Regs, mut f: impl FnMut(usize, u64)) {
        debug_assert!(self.is_bits_only());
        let w = self.t.layout.w;
        self.prepare(b, r);
        r.work += w as u64;
        for i in 0..w {
            let word = self.word(b, r, i);
            r.work += word.count_ones() as u64;
            f(i, word);
        }
    }

    /// Whether a site among the candidates (see [`SiteQuery::candidates`], built at `at`)
    /// satisfies the rest of the condition.
    #[inline]
    pub(crate) fn candidate_holds(&self, b: &Board, r: &mut Regs, at: usize, s: usize) -> bool {
        r.scratch[at + s / 64] >> (s % 64) & 1 != 0 && self.passes(b, r, s)
    }

    /// The sites the indexed tests allow (the rest of the condition not tried), into the
    /// scratch words at `out`; false when there is none.
    pub(crate) fn candidates(&self, b: &Board, r: &mut Regs, out: usize) -> bool {
        r.work += self.t.layout.w as u64;
        self.fill(b, r, out)
    }

    /// [`SiteQuery::candidates`], counting no work: for a question that stands for a test
    /// written per value (which counts none).
    pub(crate) fn fill(&self, b: &Board, r: &mut Regs, out: usize) -> bool {
        let w = self.t.layout.w;
        self.prepare(b, r);
        let mut any = 0;
        for i in 0..w {
            let word = self.word(b, r, i);
            r.scratch[out + i] = word;
            any |= word;
        }
        any != 0
    }

    /// `minimum`, `maximum` or `total` of a value over the sites (0 when there is none).
    pub(crate) fn aggregate(&self, b: &Board, r: &mut Regs, kind: AggKind, x: &SiteValue) -> i64 {
        if let (
            AggKind::Min | AggKind::Max,
            SiteValue::Sorted {
                keys,
                order,
                scratch,
            },
        ) = (kind, x)
        {
            // A fixed value: the sites in the order of their values, the first candidate wins.
            if !self.candidates(b, r, *scratch) {
                return 0;
            }
            let mut walk = |s: &u16| {
                let s = *s as usize;
                r.work += 1;
                if r.scratch[scratch + s / 64] >> (s % 64) & 1 == 0 {
                    return None;
                }
                if let Some(rest) = &self.rest {
                    r.set(self.var, s as i64);
                    if rest(b, r) == 0 {
                        return None;
                    }
                }
                Some(keys[s])
            };
            let found = match kind {
                AggKind::Min => order.iter().find_map(&mut walk),
                _ => order.iter().rev().find_map(&mut walk),
            };
            return found.unwrap_or(0);
        }
        let mut acc: Option<i64> = None;
        let var = self.var;
        self.for_each(b, r, |b, r, s| {
            let v = match x {
                SiteValue::Sorted { keys, .. } => keys[s],
                SiteValue::Computed(x) => {
                    r.set(var, s as i64);
                    x(b, r)
                }
            };
            acc = Some(kind.add(b, acc, v));
            true
        });
        acc.unwrap_or(0)
    }
}

/// A value of a site: fixed (a table, with the sites in increasing order of their values and
/// scratch words for the candidates) or computed.
pub(crate) enum SiteValue {
    Sorted {
        keys: Vec<i64>,
        order: Vec<u16>,
        scratch: usize,
    },
    Computed(Num),
}

/// `minimum`, `maximum`, `total`.
#[derive(Clone, Copy)]
pub(crate) enum AggKind {
    Min,
    Max,
    Sum,
}

impl From<AggOp> for AggKind {
    fn from(op: AggOp) -> Self {
        match op {
            AggOp::Min => AggKind::Min,
            AggOp::Max => AggKind::Max,
            AggOp::Sum => AggKind::Sum,
        }
    }
}

impl AggKind {
    #[inline(always)]
    fn add(self, b: &Board, acc: Option<i64>, v: i64) -> i64 {
        match (self, acc) {
            (_, None) => v,
            (AggKind::Min, Some(a)) => a.min(v),
            (AggKind::Max, Some(a)) => a.max(v),
            (AggKind::Sum, Some(a)) => a.checked_add(v).unwrap_or_else(|| {
                raise(&b.fault, Fault::Overflow);
                0
            }),
        }
    }
}

impl TokQuery {
    #[inline]
    pub(crate) fn aggregate(&self, b: &Board, r: &mut Regs, kind: AggKind, x: &Num) -> i64 {
        let mut acc: Option<i64> = None;
        self.for_each(b, r, |b, r, _| {
            let v = x(b, r);
            acc = Some(kind.add(b, acc, v));
            true
        });
        acc.unwrap_or(0)
    }
}

/// A set of sites, compiled.
pub(crate) enum CSet {
    /// sites in increasing order, each once
    Query(SiteQuery),
    /// a fixed list, in its order (repeats kept)
    Fixed(Vec<u16>),
    One(Num),
    Union(Vec<CSet>),
    Diff(Box<CSet>, Box<CSet>),
    Filter(VarId, Box<CSet>, Num),
    Run(Num, Num, Num, Arc<Tables>),
    /// `neighbours(s)` or `jumps(s)`
    Near(Num, Reach, Arc<Tables>),
    Empty,
    /// `(line v through s: c)`: the sites of the lines through s with c at each site, each once
    /// (boxed: the variant adds nothing to the size of every set)
    Line(Box<LineSet>),
    /// `ray(s, d)`: from s along d up to the first site that holds a piece
    Ray(Num, Num, Arc<Tables>),
    /// `connected(FROM, THROUGH)` and `neighbours(SET)`, worked out in scratch words
    Flood(Box<Flood<CSet>>),
}

/// `(line v through s: c)`, compiled: the lines through the site `through` with `cond` at
/// each of their sites (`var` holds each site in turn).
pub(crate) struct LineSet {
    pub(crate) var: VarId,
    pub(crate) through: Num,
    pub(crate) cond: Num,
    pub(crate) t: Arc<Tables>,
}

/// The sites near a site: joined to it by a line (`neighbours`), or two steps from it along a
/// straight line (`jumps`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    Neighbours,
    Jumps,
}

impl Sites for CSet {
    fn each(
        &self,
        b: &Board,
        r: &mut Regs,
        f: &mut dyn FnMut(&Board, &mut Regs, usize) -> bool,
    ) -> bool {
        self.for_each(b, r, f)
    }
    fn has(&self, b: &Board, r: &mut Regs, s: i64) -> bool {
        self.contains(b, r, s)
    }
    fn candidates(&self, b: &Board, r: &mut Regs, out: usize) -> bool {
        match self {
            CSet::Query(q) => {
                q.candidates(b, r, out);
                true
            }
            _ => false,
        }
    }
    fn holds(&self, b: &Board, r: &mut Regs, out: usize, s: usize) -> bool {
        match self {
            CSet::Query(q) => q.candidate_holds(b, r, out, s),
            _ => self.contains(b, r, s as i64),
        }
    }
    fn exact(&self) -> bool {
        matches!(self, CSet::Query(q) if q.is_bits_only())
    }
    #[inline(always)]
    fn single(&self, b: &Board, r: &mut Regs) -> Option<Option<usize>> {
        self.one_site(b, r)
    }
}

impl CSet {
    /// For a set of one site at most (`s`, or a union of that alone): its site, worked out as
    /// [`CSet::for_each`] would (`Some(None)`: no site); `None` for another set.
    #[inline(always)]
    pub(crate) fn one_site(&self, b: &Board, r: &mut Regs) -> Option<Option<usize>> {
        match self {
            CSet::One(e) => Some(usize::try_from(e(b, r)).ok().filter(|&s| s < b.kinds.len())),
            CSet::Union(items) if items.len() == 1 => items[0].one_site(b, r),
            _ => None,
        }
    }

    /// Calls `f` on each site of the set (in order, repeats possible) until it returns false.
    /// Returns false when stopped early.
    pub(crate) fn for_each(
        &self,
        b: &Board,
        r: &mut Regs,
        f: &mut dyn FnMut(&Board, &mut Regs, usize) -> bool,
    ) -> bool {
        match self {
            CSet::Query(q) => q.for_each(b, r, |b, r, s| f(b, r, s)),
            CSet::Fixed(list) => {
                r.work += list.len() as u64;
                list.iter().all(|&s| f(b, r, s as usize))
            }
            CSet::One(e) => {
                let s = e(b, r);
                match usize::try_from(s).ok().filter(|&s| s < b.kinds.len()) {
                    Some(s) => f(b, r, s),
                    None => true,
                }
            }
            CSet::Union(items) => items.iter().all(|i| i.for_each(b, r, f)),
            CSet::Diff(a, c) => a.for_each(b, r, &mut |b, r, s| {
                if c.contains(b, r, s as i64) {
                    true
                } else {
                    f(b, r, s)
                }
            }),
            CSet::Filter(v, base, c) => base.for_each(b, r, &mut |b, r, s| {
                r.set(*v, s as i64);
                if c(b, r) != 0 { f(b, r, s) } else { true }
            }),
            CSet::Near(x, reach, t) => {
                let Some(q) = t.site(x(b, r)) else {
                    return true;
                };
                match reach {
                    Reach::Jumps => t.far[q].iter().all(|&(s, _)| f(b, r, s as usize)),
                    Reach::Neighbours => t.near[q].iter().all(|&s| f(b, r, s as usize)),
                }
            }
            CSet::Run(start, d, n, t) => {
                let mut s = start(b, r);
                let d = d(b, r);
                let n = n(b, r);
                if n > t.nsites as i64 {
                    raise(&b.fault, Fault::RunTooLong);
                    return true;
                }
                for _ in 0..n {
                    let Some(site) = t.site(s) else {
                        return true;
                    };
                    if !f(b, r, site) {
                        return false;
                    }
                    s = t.walk(s, d, 1);
                }
                true
            }
            CSet::Empty => true,
            CSet::Line(l) => line_sites(&l.t, l.var, &l.through, &l.cond, b, r, f),
            CSet::Ray(from, d, t) => {
                let (from, d) = (from(b, r), d(b, r));
                ray(t, from, d, b, r, f)
            }
            CSet::Flood(fl) => fl.for_each(b, r, f),
        }
    }

    /// Whether `f` holds at a site of the set, the sites listed (and their work counted) as
    /// [`CSet::for_each`] lists them, stopping at the first.
    #[inline(always)]
    pub(crate) fn any_site<F>(&self, b: &Board, r: &mut Regs, f: &mut F) -> bool
    where
        F: FnMut(&Board, &mut Regs, usize) -> bool,
    {
        match self {
            CSet::Union(items) => items.iter().any(|i| i.any_site(b, r, f)),
            CSet::One(e) => {
                let s = e(b, r);
                usize::try_from(s)
                    .ok()
                    .filter(|&s| s < b.kinds.len())
                    .is_some_and(|s| f(b, r, s))
            }
            CSet::Ray(from, d, t) => {
                let (from, d) = (from(b, r), d(b, r));
                !ray(t, from, d, b, r, &mut |b, r, s| !f(b, r, s))
            }
            _ => !self.for_each(b, r, &mut |b, r, s| !f(b, r, s)),
        }
    }

    /// Whether the set holds a site (-1 and values outside the board: no).
    pub(crate) fn contains(&self, b: &Board, r: &mut Regs, site: i64) -> bool {
        let Some(s) = usize::try_from(site).ok().filter(|&s| s < b.kinds.len()) else {
            return false;
        };
        match self {
            CSet::Query(q) => q.contains(b, r, s),
            CSet::Fixed(list) => list.contains(&(s as u16)),
            CSet::One(e) => e(b, r) == site,
            CSet::Union(items) => items.iter().any(|i| i.contains(b, r, site)),
            CSet::Diff(a, c) => a.contains(b, r, site) && !c.contains(b, r, site),
            CSet::Filter(v, base, c) => {
                base.contains(b, r, site) && {
                    r.set(*v, site);
                    c(b, r) != 0
                }
            }
            CSet::Flood(fl) => fl.contains(b, r, s),
            CSet::Run(..) | CSet::Near(..) | CSet::Line(..) | CSet::Ray(..) => {
                !self.for_each(b, r, &mut |_, _, x| x != s)
            }
            CSet::Empty => false,
        }
    }

    /// The number of sites (repeats counted).
    pub(crate) fn size(&self, b: &Board, r: &mut Regs) -> i64 {
        let mut n = 0;
        self.for_each(b, r, &mut |_, _, _| {
            n += 1;
            true
        });
        n
    }
}

/// The conjuncts of a condition.
pub(crate) fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::All(items) => items.iter().collect(),
        Expr::And(a, c) => {
            let mut v = conjuncts(a);
            v.extend(conjuncts(c));
            v
        }
        other => vec![other],
    }
}

fn is_var(e: &Expr, v: VarId) -> bool {
    matches!(e, Expr::Var(x) if *x == v)
}

/// `count OP c` as "holds pieces" (false) or "holds none" (true), when it is one of those.
pub(crate) fn emptiness(op: Op, c: i64) -> Option<bool> {
    match (op, c) {
        (Op::Gt, 0) | (Op::Ne, 0) | (Op::Ge, 1) => Some(false),
        (Op::Eq, 0) | (Op::Le, 0) | (Op::Lt, 1) => Some(true),
        _ => None,
    }
}

fn flip(op: Op) -> Op {
    match op {
        Op::Lt => Op::Gt,
        Op::Le => Op::Ge,
        Op::Gt => Op::Lt,
        Op::Ge => Op::Le,
        other => other,
    }
}

fn is_comparison(op: Op) -> bool {
    matches!(op, Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge)
}
