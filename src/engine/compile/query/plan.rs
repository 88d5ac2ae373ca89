//! Compiling a question: a condition over a site or token variable split into the tests the
//! board's indexes answer (kept as [`SiteOp`]s and [`TokOp`]s of the question) and the rest,
//! evaluated per candidate. What runs the questions is in the parent module.

use super::site_ops::Keys;
use super::tokens::Who;
use super::*;
use crate::engine::compile::num::as_written;
use crate::ir::share::is_plain_read;

impl Compiler {
    /// Whether an expression depends only on site variable `v` and the board's fixed tables
    /// (see [`crate::ir::eval`]).
    fn is_fixed(&self, e: &Expr, v: VarId) -> bool {
        is_static(e, v)
    }

    /// The value of a fixed expression at every site (None if one has none).
    fn fixed_values(&self, e: &Expr, v: VarId) -> Option<Vec<i64>> {
        static_values(&*self.t, e, v)
    }

    /// A question over the sites bound to `var`: the sites of `base` where `cond` holds.
    pub(crate) fn sites(&mut self, var: VarId, base: Base, cond: Option<&Expr>) -> SiteQuery {
        let mut base = match base {
            Base::All => self.t.all_sites.clone(),
            Base::Bits(b) => b,
        };
        let mut ops = vec![];
        let mut rest: Vec<Expr> = vec![];
        for c in cond.map(conjuncts).unwrap_or_default() {
            if self.is_fixed(c, var)
                && let Some(vals) = self.fixed_values(c, var)
            {
                // A fixed test: it narrows the base once, now.
                for (s, x) in vals.iter().enumerate() {
                    if *x == 0 {
                        base[s / 64] &= !(1 << (s % 64));
                    }
                }
                continue;
            }
            let before = ops.len();
            match self.site_ops(var, c, &mut ops) {
                Some(r) if ops.len() <= MAX_OPS => rest.extend(r),
                _ => {
                    ops.truncate(before);
                    rest.push(c.clone());
                }
            }
        }
        let rest = match rest.len() {
            0 => None,
            1 => Some(self.num(&rest[0])),
            _ => Some(self.num(&Expr::All(rest))),
        };
        // The plain tests in a table of their own; a test no site passes empties the base.
        let mut plain = vec![];
        let mut other = vec![];
        let mut counts = vec![];
        for op in ops {
            match op {
                SiteOp::Index { at, x } => plain.push((at, 0, x)),
                SiteOp::OfMover { at, x } => plain.push((at, 1, x)),
                SiteOp::OfOpponent { at, x } => plain.push((at, 2, x)),
                SiteOp::Nothing { x: 0 } => base.iter_mut().for_each(|w| *w = 0),
                SiteOp::Nothing { .. } => {}
                SiteOp::Count { op, rhs } => counts.push((op, rhs)),
                op => other.push(op),
            }
        }
        // the tests that read another site's bits last: they try only the sites left
        other.sort_by_key(|op| matches!(op, SiteOp::Moved { .. } | SiteOp::Either { .. }));
        SiteQuery {
            t: self.t.clone(),
            var,
            base,
            plain,
            prepared: other.iter().any(|o| matches!(o, SiteOp::Key { .. })),
            ops: other,
            counts,
            rest,
        }
    }

    /// The indexed tests of one conjunct about site `v` (pushed on `ops`) and what is left of
    /// it; `None` when no index answers it.
    fn site_ops(&mut self, v: VarId, e: &Expr, ops: &mut Vec<SiteOp>) -> Option<Option<Expr>> {
        let l = self.t.layout.clone();
        let mask = |neg: bool| if neg { !0u64 } else { 0 };
        let nonempty = |neg| SiteOp::Index {
            at: l.nonempty(),
            x: mask(neg),
        };
        match e {
            Expr::SiteTest(t) if t.var == v => {
                let mut left = SiteTest {
                    var: v,
                    kind: None,
                    owner: None,
                    count: None,
                };
                if let Some((k, sense)) = t.kind {
                    ops.push(SiteOp::Index {
                        at: l.kind(k),
                        x: mask(sense == Sense::IsNot),
                    });
                }
                if let Some((who, sense)) = t.owner {
                    ops.push(self.owner_op(who, mask(sense == Sense::IsNot)));
                }
                match t.count {
                    Some((op, CountRhs::Const(c))) if emptiness(op, c).is_some() => {
                        ops.push(nonempty(emptiness(op, c) == Some(true)))
                    }
                    Some((op, rhs)) if is_comparison(op) => ops.push(SiteOp::Count { op, rhs }),
                    other => left.count = other,
                }
                Some(left.count.is_some().then(|| Expr::SiteTest(Box::new(left))))
            }
            Expr::KindIs { var, kind, sense } if *var == v => {
                ops.push(SiteOp::Index {
                    at: l.kind(*kind),
                    x: mask(*sense == Sense::IsNot),
                });
                Some(None)
            }
            Expr::OwnerIs { var, player, sense } if *var == v => {
                ops.push(self.owner_op(*player, mask(*sense == Sense::IsNot)));
                Some(None)
            }
            Expr::BinConst(op, x, c) if matches!(**x, Expr::CountVar(y) if y == v) => {
                ops.push(nonempty(emptiness(*op, *c)?));
                Some(None)
            }
            Expr::BinConst(op @ (Op::Eq | Op::Ne), x, -1) if matches!(&**x, Expr::Top(s) if is_var(s, v)) =>
            {
                ops.push(SiteOp::Index {
                    at: l.tokens_here(),
                    x: mask(*op == Op::Eq),
                });
                Some(None)
            }
            Expr::BinConst(op @ (Op::Eq | Op::Ne), x, c) if matches!(&**x, Expr::TokOwner(t) if matches!(&**t, Expr::Top(s) if is_var(s, v))) =>
            {
                ops.push(self.top_owner_op(&Expr::Const(*c), mask(*op == Op::Ne)));
                Some(None)
            }
            Expr::Bin(op @ (Op::Eq | Op::Ne), x, p)
                if matches!(&**x, Expr::TokOwner(t) if matches!(&**t, Expr::Top(s) if is_var(s, v)))
                    && !uses(p, v) =>
            {
                ops.push(self.top_owner_op(p, mask(*op == Op::Ne)));
                Some(None)
            }
            Expr::Not(inner) => {
                let mut one = vec![];
                match self.site_ops(v, inner, &mut one)? {
                    None if one.len() == 1 => {
                        ops.push(one.pop()?.negated()?);
                        Some(None)
                    }
                    _ => None,
                }
            }
            // `top(f(s)) == none` and `count(f(s)) == 0` with f fixed: a set of the board's
            // index read at the site f gives (no site: no token, no piece)
            Expr::BinConst(op @ (Op::Eq | Op::Ne), x, -1) if matches!(&**x, Expr::Top(f) if !is_var(f, v) && self.is_fixed(f, v)) =>
            {
                let Expr::Top(f) = &**x else { unreachable!() };
                let map = self.site_map(f, v)?;
                ops.push(SiteOp::Moved {
                    at: l.tokens_here(),
                    map,
                    x: mask(*op == Op::Eq),
                });
                Some(None)
            }
            Expr::BinConst(op, x, c) if matches!(&**x, Expr::CountAt(f) if !is_var(f, v) && self.is_fixed(f, v)) =>
            {
                let Expr::CountAt(f) = &**x else {
                    unreachable!()
                };
                let empty = emptiness(*op, *c)?;
                let map = self.site_map(f, v)?;
                ops.push(SiteOp::Moved {
                    at: l.nonempty(),
                    map,
                    x: mask(empty),
                });
                Some(None)
            }
            // `if c then A else B` with A and B fixed (a value at every site) and c a value of
            // the board that does not read the site: the sites of one of two fixed sets
            Expr::If(c, a, e) if !uses(c, v) && is_plain_read(c) => {
                let set = |this: &Self, f: &Expr| {
                    let vals = this.fixed_values(f, v).filter(|_| this.is_fixed(f, v))?;
                    Some(bits::from_fn(this.t.nsites, |s| vals[s] != 0))
                };
                let (yes, no) = (set(self, a)?, set(self, e)?);
                ops.push(SiteOp::Pick {
                    c: self.num(c),
                    yes,
                    no,
                    x: 0,
                });
                Some(None)
            }
            // `a or b or …` with all but one fixed (a value at every site) and that one a test
            // of the board's bits
            Expr::Or(a, c) => self.either(v, &[a, c], ops),
            Expr::Any(items) => self.either(v, &items.iter().collect::<Vec<_>>(), ops),
            Expr::Bin(op, x, y) if is_comparison(*op) => {
                if self.is_fixed(x, v) && !uses(y, v) {
                    self.key(v, x, *op, y, ops)
                } else if self.is_fixed(y, v) && !uses(x, v) {
                    self.key(v, y, flip(*op), x, ops)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// `a or b or …` where every item but one is fixed, with a value at every site, and that
    /// one is a test of the board's bits: the fixed items' sites, or the test's (no item can
    /// fault, so the order of the items does not matter).
    fn either(&mut self, v: VarId, items: &[&Expr], ops: &mut Vec<SiteOp>) -> Option<Option<Expr>> {
        let mut pass = self.t.zeros[..self.t.layout.w].to_vec();
        let mut other = None;
        for &i in items {
            if self.is_fixed(i, v) {
                let vals = self.fixed_values(i, v)?;
                for (s, x) in vals.iter().enumerate() {
                    if *x != 0 {
                        pass[s / 64] |= 1 << (s % 64);
                    }
                }
            } else if other.replace(i).is_some() {
                return None;
            }
        }
        let mut one = vec![];
        match (self.site_ops(v, other?, &mut one)?, one.pop()) {
            (None, Some(op)) if one.is_empty() && op.is_bits() => {
                ops.push(SiteOp::Either {
                    pass,
                    op: Box::new(op),
                });
                Some(None)
            }
            _ => None,
        }
    }

    /// The site a fixed expression gives at each site (`u16::MAX` where it is no site); None
    /// if it has no value at some site.
    fn site_map(&self, f: &Expr, v: VarId) -> Option<Box<[u16]>> {
        let vals = self.fixed_values(f, v)?;
        Some(
            vals.iter()
                .map(|&q| self.t.site(q).map_or(u16::MAX, |q| q as u16))
                .collect(),
        )
    }

    /// The sites owned (or not, with `x`) by a player named by a [`PlayerRef`].
    fn owner_op(&self, who: PlayerRef, x: u64) -> SiteOp {
        let l = &self.t.layout;
        match who {
            PlayerRef::Mover => SiteOp::OfMover { at: l.owner(0), x },
            PlayerRef::Opponent => SiteOp::OfOpponent { at: l.owner(0), x },
            PlayerRef::Fixed(p) if p == -1 || self.t.player(p).is_some() => SiteOp::Index {
                at: l.owner(p as i8),
                x,
            },
            PlayerRef::Fixed(_) => SiteOp::Nothing { x },
        }
    }

    /// `owner(top(v)) == p` (`x` all ones: `!=`): for the mover, his opponent or a fixed
    /// player a plain test of the top owners' sets (read with no call), else the player
    /// worked out at each listing.
    fn top_owner_op(&mut self, p: &Expr, x: u64) -> SiteOp {
        let l = &self.t.layout;
        match p {
            Expr::Mover => SiteOp::OfMover {
                at: l.top_owner(0),
                x,
            },
            Expr::Opponent => SiteOp::OfOpponent {
                at: l.top_owner(0),
                x,
            },
            Expr::Const(p) if self.t.player(*p).is_some() => SiteOp::Index {
                at: l.top_owner(*p as usize),
                x,
            },
            // no owner: the sites without tokens
            Expr::Const(-1) => SiteOp::Index {
                at: l.tokens_here(),
                x: !x,
            },
            Expr::Const(_) => SiteOp::Nothing { x },
            p => SiteOp::TopOwner {
                who: self.num(p),
                x,
            },
        }
    }

    /// `f(v) OP rhs` with f fixed: sets of sites by value, prepared now.
    fn key(
        &mut self,
        v: VarId,
        f: &Expr,
        op: Op,
        rhs: &Expr,
        ops: &mut Vec<SiteOp>,
    ) -> Option<Option<Expr>> {
        let vals = self.fixed_values(f, v)?;
        let mut keys = vals.clone();
        keys.sort_unstable();
        keys.dedup();
        let w = self.t.layout.w;
        if keys.len() * w > 1 << 16 {
            return None;
        }
        let lower: Vec<Vec<u64>> = keys
            .iter()
            .map(|&k| bits::from_fn(self.t.nsites, |s| vals[s] <= k))
            .collect();
        let rhs = self.num(rhs);
        let scratch = self.scratch(w);
        ops.push(SiteOp::Key {
            keys: Keys::new(keys),
            lower,
            op,
            rhs,
            scratch,
        });
        Some(None)
    }

    /// A question over the tokens bound to `var`.
    pub(crate) fn tokens(&mut self, var: VarId, cond: &Expr) -> TokQuery {
        let mut ops = vec![];
        let mut holds = vec![];
        let mut rest = vec![];
        for c in conjuncts(cond) {
            match self.tok_op(var, c) {
                Some(op) if ops.len() < MAX_OPS => ops.push(op),
                _ => match site_holds(var, c) {
                    Some(h) if holds.len() < MAX_OPS => {
                        self.counts_kinds(h.0);
                        holds.push(h)
                    }
                    _ => rest.push(c.clone()),
                },
            }
        }
        let mut rest = match rest.len() {
            0 => None,
            1 => rest.pop(),
            _ => Some(Expr::All(rest)),
        };
        // the parts of the rest that do not depend on the candidate: once per question
        let lazy = rest.as_mut().map_or((0, 0), |e| self.hoist(var, e));
        let rest = rest.map(|e| self.num(&e));
        self.unhoist(lazy.1);
        TokQuery {
            t: self.t.clone(),
            var,
            ops,
            holds,
            rest,
            lazy,
        }
    }

    /// The indexed test of one conjunct about token `v`, if an index answers it.
    fn tok_op(&mut self, v: VarId, e: &Expr) -> Option<TokOp> {
        let owner_of = |x: &Expr| matches!(x, Expr::TokOwner(t) if is_var(t, v));
        let side_of = |x: &Expr| matches!(x, Expr::SideOf(o) if owner_of(o));
        if let Some(op) = with_const(e).and_then(|(op, x, c)| tok_const_op(v, op, x, c)) {
            return Some(op);
        }
        match e {
            Expr::Bin(op @ (Op::Eq | Op::Ne), x, y) => {
                let neg = *op == Op::Ne;
                let (x, y) = if uses(x, v) { (x, y) } else { (y, x) };
                if uses(y, v) {
                    return None;
                }
                if owner_of(x) || side_of(x) {
                    let who = match &**y {
                        Expr::Mover => Who::Mover,
                        _ => Who::Num(self.num(y)),
                    };
                    Some(TokOp::Owner {
                        who,
                        side: side_of(x),
                        x: if neg { !0 } else { 0 },
                    })
                } else if !neg && matches!(&**x, Expr::TokSite(t) if is_var(t, v)) {
                    let site = self.num(y);
                    let scratch = self.scratch(self.t.tw);
                    Some(TokOp::At { site, scratch })
                } else if neg && is_var(x, v) {
                    let token = self.num(y);
                    let scratch = self.scratch(self.t.tw);
                    Some(TokOp::Not { token, scratch })
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// A value of the site in `v`: a table when it is fixed.
    pub(crate) fn site_value(&mut self, v: VarId, x: &Expr) -> SiteValue {
        if self.is_fixed(x, v)
            && let Some(keys) = self.fixed_values(x, v)
        {
            let mut order: Vec<u16> = (0..keys.len() as u16).collect();
            order.sort_by_key(|&s| keys[s as usize]);
            let scratch = self.scratch(self.t.layout.w);
            return SiteValue::Sorted {
                keys,
                order,
                scratch,
            };
        }
        SiteValue::Computed(self.num(x))
    }

    /// The fixed set a set expression names, if it is a set of sites in increasing order.
    fn base_of(&self, s: &SetExpr) -> Option<Vec<u64>> {
        match s {
            SetExpr::All => Some(self.t.all_sites.clone()),
            SetExpr::Region(r) => Some(self.t.regions[r.0 as usize].clone()),
            SetExpr::List(sites) if sites.windows(2).all(|w| w[0] < w[1]) => {
                Some(bits::from_fn(self.t.nsites, |s| {
                    sites.binary_search(&(s as u16)).is_ok()
                }))
            }
            SetExpr::Empty => Some(self.t.zeros[..self.t.layout.w].to_vec()),
            _ => None,
        }
    }

    /// Tests of sets of sites for pieces joined by `or` (each a fixed set, its bits, and whether
    /// the test is that it is empty): true at the first that holds, each counting the work of a
    /// test on its own (a word a word of the board), as the tests written one by one. On a
    /// board of one word, each is a mask of that word.
    pub(crate) fn any_emptiness(&self, tests: Vec<(Vec<u64>, bool)>) -> Num {
        let (w, at) = (self.t.layout.w, self.t.layout.nonempty());
        if w == 1 {
            let tests: Box<[(u64, bool)]> = tests.into_iter().map(|(m, e)| (m[0], e)).collect();
            if let [(m, empty)] = *tests {
                return num(move |b, r| {
                    r.work += 1;
                    ((b.index.bits[at] & m != 0) != empty) as i64
                });
            }
            return num(move |b, r| {
                let word = b.index.bits[at];
                for &(m, empty) in &tests {
                    r.work += 1;
                    if (word & m != 0) != empty {
                        return 1;
                    }
                }
                0
            });
        }
        num(move |b, r| {
            let bits = &b.index.bits[at..at + w];
            for (base, empty) in &tests {
                r.work += w as u64;
                let any = base.iter().zip(bits).any(|(m, x)| m & x != 0);
                if any != *empty {
                    return 1;
                }
            }
            0
        })
    }

    /// `count(SET) OP c` (`== 0`, `> 0`, …) that says whether a fixed set holds pieces, as a
    /// test of the index of sites with pieces: the set's bits and whether the test is that it
    /// is empty.
    pub(crate) fn emptiness_test(&self, op: Op, x: &Expr, c: i64) -> Option<(Vec<u64>, bool)> {
        let Expr::CountSet(set, KindMask(u32::MAX)) = x else {
            return None;
        };
        let empty = super::emptiness(op, c)?;
        Some((self.base_of(set)?, empty))
    }

    /// Compiles a set of sites.
    pub(crate) fn set(&mut self, s: &SetExpr) -> CSet {
        if let Some(base) = self.base_of(s) {
            return CSet::Query(self.sites(0, Base::Bits(base), None));
        }
        match s {
            SetExpr::List(sites) => CSet::Fixed(sites.clone()),
            SetExpr::One(e) => CSet::One(self.num(e)),
            SetExpr::Union(items) => CSet::Union(items.iter().map(|i| self.set(i)).collect()),
            SetExpr::Diff(a, c) => CSet::Diff(Box::new(self.set(a)), Box::new(self.set(c))),
            SetExpr::Filter { var, base, cond } => match self.base_of(base) {
                Some(bits) => CSet::Query(self.sites(*var, Base::Bits(bits), Some(cond))),
                None => CSet::Filter(*var, Box::new(self.set(base)), self.num(cond)),
            },
            SetExpr::Run { from, dir, len } => {
                let (a, d, n) = (self.num(from), self.num(dir), self.num(len));
                CSet::Run(a, d, n, self.t.clone())
            }
            SetExpr::Neighbours(x) => CSet::Near(self.num(x), Reach::Neighbours, self.t.clone()),
            SetExpr::Jumps(x) => CSet::Near(self.num(x), Reach::Jumps, self.t.clone()),
            SetExpr::Line(l) => CSet::Line(Box::new(LineSet {
                var: l.var,
                through: self.num(&l.through),
                cond: self.num(&l.cond),
                t: self.t.clone(),
            })),
            SetExpr::Ray { from, dir } => CSet::Ray(self.num(from), self.num(dir), self.t.clone()),
            SetExpr::Connected { from, through } => self.flood(from, Some(through)),
            SetExpr::Around(set) => self.flood(set, None),
            SetExpr::All | SetExpr::Region(_) | SetExpr::Empty => CSet::Empty,
        }
    }

    /// `connected(FROM, THROUGH)` (with `through`), `neighbours(SET)` (without).
    fn flood(&mut self, from: &SetExpr, through: Option<&SetExpr>) -> CSet {
        let (n, w) = (self.t.nsites, self.t.layout.w);
        let at = self.scratch(Flood::<CSet>::words(through.is_some(), n, w));
        let memo = self.flood_memo(from, through);
        let from = self.set(from);
        let through = through.map(|s| self.set(s));
        let by_words = Flood::spreads_by_words(&self.t, through.as_ref());
        CSet::Flood(Box::new(Flood {
            from,
            through,
            at,
            t: self.t.clone(),
            memo,
            by_words,
        }))
    }

    /// `exists v in SET where c`.
    pub(crate) fn exists(&mut self, v: VarId, set: &SetExpr, c: &Expr) -> Num {
        if let Some(base) = self.base_of(set) {
            let q = self.sites(v, Base::Bits(base), Some(c));
            return self.some_site::<false>(q);
        }
        let set = self.set(set);
        let set = match self.flood_meets(v, set, c) {
            Ok(meets) => return meets,
            Err(set) => *set,
        };
        // A condition whose first test needs a piece at the site is false at an empty site
        // (the test fails before anything else is evaluated): not tried there.
        let piece = conjuncts(c).first().is_some_and(|&f| needs_piece(f, v));
        let set = match self.set_meets(v, set, c, piece) {
            Ok(meets) => return meets,
            Err(set) => *set,
        };
        let c = self.num(c);
        if piece {
            return num(move |b, r| {
                !set.for_each(b, r, &mut |b, r, s| {
                    r.set(v, s as i64);
                    b.index.total[s] == 0 || c(b, r) == 0
                }) as i64
            });
        }
        num(move |b, r| {
            !set.for_each(b, r, &mut |b, r, s| {
                r.set(v, s as i64);
                c(b, r) == 0
            }) as i64
        })
    }

    /// `exists v in FLOOD where c` when c only reads the board at fixed places and the
    /// board's bits answer it alone: whether the flood's sites and c's meet, a word at a time
    /// (the same work as trying c at each site: none but the flood's). Any other set: given
    /// back.
    fn flood_meets(&mut self, v: VarId, set: CSet, c: &Expr) -> Result<Num, Box<CSet>> {
        let CSet::Flood(fl) = set else {
            return Err(Box::new(set));
        };
        let Some(q) = self.meeting_question(v, c) else {
            return Err(Box::new(CSet::Flood(fl)));
        };
        Flood::<CSet>::counts_a_meeting();
        Ok(num(move |b, r| fl.meets(b, r, &q) as i64))
    }

    /// `exists v in SET where c` (SET no flood) when c is a conjunction that only reads the
    /// board and the board's indexes answer part of it: SET's sites listed as written, each
    /// tested by its bits in the indexes (after the count of its pieces when c's first test
    /// needs a piece, as written), then by the rest of c only where they pass (the same
    /// answer: c cannot fault, so the order of its tests does not matter; the same work:
    /// SET's own, and the rest's at fewer sites). A lone test is cheaper as written. Any other
    /// condition: the set given back.
    fn set_meets(&mut self, v: VarId, set: CSet, c: &Expr, piece: bool) -> Result<Num, Box<CSet>> {
        if as_written() || !is_plain_read(c) || conjuncts(c).len() < 2 {
            return Err(Box::new(set));
        }
        let q = self.sites(v, Base::All, Some(c));
        if !q.indexes_something() {
            return Err(Box::new(set));
        }
        #[cfg(test)]
        SET_MEETINGS.with(|n| n.set(n.get() + 1));
        if piece {
            return Ok(num(move |b, r| {
                q.prepare(b, r);
                set.any_site(b, r, &mut |b, r, s| {
                    b.index.total[s] != 0 && q.holds_prepared(b, r, s)
                }) as i64
            }));
        }
        Ok(num(move |b, r| {
            q.prepare(b, r);
            set.any_site(b, r, &mut |b, r, s| q.holds_prepared(b, r, s)) as i64
        }))
    }

    /// The question `v where c` when a flood may meet it by words: c only reads the board at
    /// fixed places and the board's bits answer it alone.
    fn meeting_question(&mut self, v: VarId, c: &Expr) -> Option<SiteQuery> {
        if !is_plain_read(c) || !Flood::<CSet>::meets_by_words() {
            return None;
        }
        let q = self.sites(v, Base::All, Some(c));
        q.is_bits_only().then_some(q)
    }

    /// `exists v in F where c1 and exists w in F where c2 …` (adjacent conjuncts, each as
    /// [`Compiler::flood_meets`] compiles it alone) over one flood F: F found once, then met
    /// with each question in turn (the same answer: the conditions only read the board, which
    /// does not change between them; the work of finding F counted once). `None` when the
    /// conjuncts are not such questions.
    pub(crate) fn meets_of_one_flood(&mut self, items: &[&Expr]) -> Option<Num> {
        let [Expr::Exists { set: first, .. }, ..] = items else {
            return None;
        };
        let one_flood = |e: &&Expr| matches!(e, Expr::Exists { set, .. } if set == first);
        if items.len() < 2 || !items.iter().all(one_flood) {
            return None;
        }
        let mut qs = vec![];
        for e in items {
            let Expr::Exists { var, cond, .. } = *e else {
                return None;
            };
            qs.push(self.meeting_question(*var, cond)?);
        }
        let CSet::Flood(fl) = self.set(first) else {
            return None;
        };
        Flood::<CSet>::counts_a_shared_flood();
        Some(num(move |b, r| fl.meets_all(b, r, &qs) as i64))
    }

    /// Whether some site answers `q` (with `NOT`: whether none does), kept while the kinds
    /// and owners stay the same when its answer depends on nothing else ([`Compiler::kept`]).
    fn some_site<const NOT: bool>(&mut self, q: SiteQuery) -> Num {
        match self.kept(q) {
            Ok(k) => num(move |b, r| (k.exists(b, r) != NOT) as i64),
            Err(q) => {
                let q = *q;
                num(move |b, r| (q.exists(b, r) != NOT) as i64)
            }
        }
    }

    /// `forall v in SET: c`.
    pub(crate) fn forall(&mut self, v: VarId, set: &SetExpr, c: &Expr) -> Num {
        if let Some(base) = self.base_of(set) {
            let q = self.sites(v, Base::Bits(base), Some(&Expr::Not(Box::new(c.clone()))));
            return self.some_site::<true>(q);
        }
        let set = self.set(set);
        let set = match self.flood_meets(v, set, &Expr::Not(Box::new(c.clone()))) {
            Ok(meets) => return num(move |b, r| (meets(b, r) == 0) as i64),
            Err(set) => *set,
        };
        let c = self.num(c);
        num(move |b, r| {
            set.for_each(b, r, &mut |b, r, s| {
                r.set(v, s as i64);
                c(b, r) != 0
            }) as i64
        })
    }
}

/// A comparison with a constant: `x OP c` (`BinConst`, or `Bin` with a constant on either
/// side, as a condition is before it is compiled).
fn with_const(e: &Expr) -> Option<(Op, &Expr, i64)> {
    match e {
        Expr::BinConst(op, x, c) => Some((*op, &**x, *c)),
        Expr::Bin(op, x, y) if is_comparison(*op) => match (&**x, &**y) {
            (_, Expr::Const(c)) => Some((*op, &**x, *c)),
            (Expr::Const(c), _) => Some((flip(*op), &**y, *c)),
            _ => None,
        },
        _ => None,
    }
}

/// The indexed test of `x OP c` about token `v`: on the board or not, in an area or not.
fn tok_const_op(v: VarId, op: Op, x: &Expr, c: i64) -> Option<TokOp> {
    match (op, x) {
        (Op::Eq | Op::Ne, Expr::TokSite(t)) if is_var(t, v) && c == -1 => Some(TokOp::Area {
            area: ON_BOARD,
            x: if op == Op::Eq { !0 } else { 0 },
        }),
        (Op::Eq | Op::Ne, Expr::TokArea(t))
            if is_var(t, v) && (0..UNPLACED as i64).contains(&c) =>
        {
            Some(TokOp::Area {
                area: c as u8,
                x: if op == Op::Ne { !0 } else { 0 },
            })
        }
        _ => None,
    }
}

/// `count(site(v), K) > 0` as (K, false), `count(site(v), K) == 0` as (K, true) (the
/// comparisons [`emptiness`] reads so), for the token in `v`; `count(site(v), A) > 0 or
/// count(site(v), B) > 0` as (A + B, false) (counts are never negative).
fn site_holds(v: VarId, e: &Expr) -> Option<(KindMask, bool)> {
    if let Expr::Any(items) = e {
        let mut mask = 0;
        for item in items {
            match site_holds(v, item)? {
                (m, false) => mask |= m.0,
                _ => return None,
            }
        }
        return (!items.is_empty()).then_some((KindMask(mask), false));
    }
    let (op, x, c) = with_const(e)?;
    let Expr::Count(s, mask) = x else {
        return None;
    };
    let Expr::TokSite(t) = &**s else { return None };
    if !is_var(t, v) {
        return None;
    }
    Some((*mask, emptiness(op, c)?))
}

/// Whether a test of the site in `v` fails where the site holds no piece: `count(v) > 0` (of
/// any kinds), `top(v) != none`.
fn needs_piece(e: &Expr, v: VarId) -> bool {
    match e {
        Expr::SiteTest(t) => {
            t.var == v
                && matches!(t.count, Some((op, CountRhs::Const(c))) if emptiness(op, c) == Some(false))
        }
        Expr::BinConst(op, x, c) => match &**x {
            Expr::CountVar(y) => *y == v && emptiness(*op, *c) == Some(false),
            Expr::Count(s, _) | Expr::CountAt(s) => {
                is_var(s, v) && emptiness(*op, *c) == Some(false)
            }
            Expr::Top(s) => is_var(s, v) && *op == Op::Ne && *c == -1,
            _ => false,
        },
        _ => false,
    }
}
